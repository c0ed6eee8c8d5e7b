//! The run-time half of `layout!`: a pattern as static data ([`Recipe`]), its lowering
//! for given input sizes ([`Plan`]: reshape → permute → reduce → expand → reshape), and
//! its execution on a `tensor_core::Tensor`.
//!
//! The macro checks the pattern's rules at compile time; what depends on the input's
//! sizes (rank, divisibility, equal sizes, the length of `...`) is checked here, with
//! einops' messages, whenever a dim is `Dyn` (and, redundantly, when it is static).

use tensor_core::{Error, Result, Tensor};

/// The operation of a pattern, as einops names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `einops.rearrange`.
    Rearrange,
    /// `einops.repeat`.
    Repeat,
    /// `einops.reduce` with a reduction.
    Reduce(Reduction),
}

/// The reductions of `reduce = ...` and the tensor-core method each runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    /// `sum` → `Tensor::sum`.
    Sum,
    /// `mean` → `Tensor::mean`.
    Mean,
    /// `max` → `Tensor::amax`.
    Max,
    /// `min` → `Tensor::amin`.
    Min,
    /// `prod` → `Tensor::prod`.
    Prod,
}

impl Op {
    /// The operation as it prefixes messages: `layout!(rearrange)`, `layout!(reduce sum)`.
    #[cfg_attr(unoptimized, inline)]
    pub fn label(self) -> &'static str {
        match self {
            Op::Rearrange => "layout!(rearrange)",
            Op::Repeat => "layout!(repeat)",
            Op::Reduce(Reduction::Sum) => "layout!(reduce sum)",
            Op::Reduce(Reduction::Mean) => "layout!(reduce mean)",
            Op::Reduce(Reduction::Max) => "layout!(reduce max)",
            Op::Reduce(Reduction::Min) => "layout!(reduce min)",
            Op::Reduce(Reduction::Prod) => "layout!(reduce prod)",
        }
    }
}

/// One elementary axis of a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term {
    /// The named axis number `i` of [`Recipe::names`].
    Axis(usize),
    /// An anonymous axis of this size (`1`, `2`).
    Anon(usize),
    /// `...`.
    Ellipsis,
}

/// One dim of a side: a group of elementary axes (a bare axis is a group of one), and
/// whether they were written in parentheses (a bare `...` stands for several dims;
/// `(...)` merges them into one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group {
    /// The elementary axes merged into this dim (empty for `()`).
    pub terms: &'static [Term],
    /// Written in parentheses.
    pub grouped: bool,
}

impl Group {
    #[cfg_attr(unoptimized, inline)]
    fn is_bare_ellipsis(&self) -> bool {
        !self.grouped && self.terms == [Term::Ellipsis]
    }
}

/// A validated pattern as static data, emitted by `layout!`.
#[derive(Debug, Clone, Copy)]
pub struct Recipe {
    /// The operation.
    pub op: Op,
    /// The pattern as written (for messages).
    pub pattern: &'static str,
    /// The named axes, in order of first appearance.
    pub names: &'static [&'static str],
    /// The input side.
    pub left: &'static [Group],
    /// The output side.
    pub right: &'static [Group],
}

/// The lowering of a recipe for one input shape: the view ops to run, in order.
/// Sizes are in elements; dims index the tensor at that step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Step 1: reshape the input to its elementary axes (one dim per axis of the left side,
    /// `...` expanded).
    pub split: Vec<usize>,
    /// Step 2: permute: the kept axes in output order, then the reduced axes.
    pub perm: Vec<usize>,
    /// Step 3: the trailing dims to reduce (empty: none); only for `reduce`. In rearrange
    /// and repeat the removed axes have size 1 and simply vanish in step 4.
    pub reduce: Vec<usize>,
    /// Step 4: the kept axes with a 1 where a new axis goes (a view), then expanded to
    /// `expand` (a view with stride 0).
    pub unsqueezed: Vec<usize>,
    /// The sizes after expanding: one per elementary axis of the right side.
    pub expand: Vec<usize>,
    /// Step 5: the output sizes (merging groups; this copies when it merges an expanded
    /// axis, as PyTorch's reshape does).
    pub output: Vec<usize>,
}

/// Sizes known for the named axes, by index of [`Recipe::names`] (`None`: inferred).
pub type AxisSizes<'a> = &'a [Option<usize>];

#[cfg_attr(unoptimized, inline)]
fn err(recipe: &Recipe, message: String) -> Error {
    Error::InvalidArgument {
        op: recipe.op.label(),
        message: format!("{message} (pattern \"{}\")", recipe.pattern),
    }
}

/// A key for each elementary axis: a name, the `k`-th dim of `...`, or the anonymous
/// axis at position `p` of the elementary axes of the left side (each anonymous axis is its own axis).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Name(usize),
    Ellipsis(usize),
    Anon(usize),
}

impl Recipe {
    /// Lowers the recipe for an input of `sizes`, with the sizes given for named axes.
    ///
    /// Errors (einops' messages): the input's rank does not fit the left side; a dim
    /// is not divisible by the known sizes of its group (`Shape mismatch, can't divide
    /// axis of length 10 in chunks of 3`) or differs from their product
    /// (`Shape mismatch, 6 != 8`).
    #[cfg_attr(unoptimized, inline)]
    pub fn plan(&self, sizes: &[usize], given: AxisSizes) -> Result<Plan> {
        let ellipsis_at = self.left.iter().position(Group::is_bare_ellipsis);
        let fixed = self.left.len() - usize::from(ellipsis_at.is_some());
        let ell_len = match ellipsis_at {
            Some(_) if sizes.len() >= fixed => sizes.len() - fixed,
            None if sizes.len() == fixed => 0,
            _ => {
                let at_least = if ellipsis_at.is_some() {
                    "at least "
                } else {
                    ""
                };
                return Err(err(
                    self,
                    format!(
                        "Wrong shape: expected {at_least}{fixed} dims. Received {}-dim tensor.",
                        sizes.len()
                    ),
                ));
            }
        };

        // Step 1: the elementary axes of the left side and their sizes.
        let mut known: Vec<Option<usize>> = given.to_vec();
        known.resize(self.names.len(), None);
        let mut left: Vec<(Key, usize)> = Vec::new();
        let mut d = 0; // input dim
        for dim in self.left {
            if dim.is_bare_ellipsis() {
                for k in 0..ell_len {
                    left.push((Key::Ellipsis(k), sizes[d + k]));
                }
                d += ell_len;
                continue;
            }
            let length = sizes[d];
            let mut product = 1usize;
            let mut unknown = None;
            for t in dim.terms {
                match *t {
                    Term::Axis(i) => match known[i] {
                        Some(n) => product = product.saturating_mul(n),
                        None => unknown = Some(i),
                    },
                    Term::Anon(n) => product = product.saturating_mul(n),
                    Term::Ellipsis => {}
                }
            }
            match unknown {
                None if product != length => {
                    return Err(err(self, format!("Shape mismatch, {length} != {product}")))
                }
                Some(_) if product == 0 || !length.is_multiple_of(product) => {
                    return Err(err(
                        self,
                        format!(
                            "Shape mismatch, can't divide axis of length {length} in chunks of {product}"
                        ),
                    ))
                }
                Some(i) => known[i] = Some(length / product),
                None => {}
            }
            for t in dim.terms {
                match *t {
                    Term::Axis(i) => left.push((Key::Name(i), known[i].unwrap_or(0))),
                    Term::Anon(n) => left.push((Key::Anon(left.len()), n)),
                    Term::Ellipsis => {}
                }
            }
            d += 1;
        }
        let split: Vec<usize> = left.iter().map(|(_, n)| *n).collect();

        // The elementary axes of the right side: kept (index into `left`) or new (size).
        enum Out {
            Kept(usize),
            New(usize),
        }
        let find = |key: Key| left.iter().position(|(k, _)| *k == key);
        let mut right: Vec<Out> = Vec::new();
        let mut groups: Vec<usize> = Vec::new(); // elementary axes per output dim
        for dim in self.right {
            let before = right.len();
            for t in dim.terms {
                match *t {
                    Term::Axis(i) => right.push(match find(Key::Name(i)) {
                        Some(pos) => Out::Kept(pos),
                        None => Out::New(known[i].unwrap_or(1)),
                    }),
                    Term::Anon(n) => right.push(Out::New(n)),
                    Term::Ellipsis => {
                        for k in 0..ell_len {
                            right.push(Out::Kept(find(Key::Ellipsis(k)).unwrap_or(0)));
                        }
                    }
                }
            }
            if dim.is_bare_ellipsis() {
                groups.extend(std::iter::repeat_n(1, right.len() - before));
            } else {
                groups.push(right.len() - before);
            }
        }

        // Step 2 and 3: permute the kept axes into output order, reduced axes last.
        let mut perm: Vec<usize> = right
            .iter()
            .filter_map(|o| match o {
                Out::Kept(p) => Some(*p),
                Out::New(_) => None,
            })
            .collect();
        let kept = perm.len();
        let reduced: Vec<usize> = (0..left.len()).filter(|p| !perm.contains(p)).collect();
        perm.extend(reduced);
        let reduce = match self.op {
            Op::Reduce(_) if perm.len() > kept => (kept..perm.len()).collect(),
            _ => Vec::new(),
        };

        // Step 4: new axes are 1 before expanding.
        let unsqueezed: Vec<usize> = right
            .iter()
            .map(|o| match o {
                Out::Kept(p) => split[*p],
                Out::New(_) => 1,
            })
            .collect();
        let expand: Vec<usize> = right
            .iter()
            .map(|o| match o {
                Out::Kept(p) => split[*p],
                Out::New(n) => *n,
            })
            .collect();

        // Step 5: merge groups.
        let mut output = Vec::with_capacity(groups.len());
        let mut at = 0;
        for g in groups {
            output.push(expand[at..at + g].iter().product());
            at += g;
        }
        Ok(Plan {
            split,
            perm,
            reduce,
            unsqueezed,
            expand,
            output,
        })
    }

    /// Runs the recipe on `x`: [`Recipe::plan`], then [`Plan::run`].
    ///
    /// Errors: those of [`Recipe::plan`]; a reduction's own errors (e.g. `mean` of an
    /// integer tensor, `max` over an empty axis).
    #[cfg_attr(unoptimized, inline)]
    pub fn apply(&self, x: &Tensor, given: AxisSizes) -> Result<Tensor> {
        self.plan(x.sizes(), given)?.run(x, self.op)
    }
}

#[cfg_attr(unoptimized, inline)]
fn as_i64(sizes: &[usize]) -> Vec<i64> {
    sizes.iter().map(|&n| n as i64).collect()
}

impl Plan {
    /// Runs the plan's view ops on `x`, skipping the steps that change nothing: a reshape
    /// to the same sizes, the identity permutation, an expand that adds nothing.
    #[cfg_attr(unoptimized, inline)]
    pub fn run(&self, x: &Tensor, op: Op) -> Result<Tensor> {
        let mut t = if x.sizes() == self.split.as_slice() {
            x.alias()
        } else {
            x.reshape(&as_i64(&self.split))?
        };
        if self.perm.iter().enumerate().any(|(i, &p)| i != p) {
            let perm: Vec<i64> = self.perm.iter().map(|&p| p as i64).collect();
            t = t.permute(&perm)?;
        }
        if let (Op::Reduce(r), false) = (op, self.reduce.is_empty()) {
            let dims = as_i64(&self.reduce);
            t = reduce(&t, r, &dims)?;
        }
        if t.sizes() != self.unsqueezed.as_slice() {
            t = t.reshape(&as_i64(&self.unsqueezed))?;
        }
        if self.expand != self.unsqueezed {
            t = t.expand(&as_i64(&self.expand))?;
        }
        if t.sizes() != self.output.as_slice() {
            t = t.reshape(&as_i64(&self.output))?;
        }
        Ok(t)
    }
}

/// Runs reduction `r` over `dims` (keepdim false).
#[cfg_attr(unoptimized, inline)]
fn reduce(t: &Tensor, r: Reduction, dims: &[i64]) -> Result<Tensor> {
    match r {
        Reduction::Sum => t.sum(dims, false),
        Reduction::Mean => t.mean(dims, false),
        Reduction::Max => t.amax(dims, false),
        Reduction::Min => t.amin(dims, false),
        Reduction::Prod => t.prod(dims, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn dim(terms: &'static [Term]) -> Group {
        Group {
            terms,
            grouped: false,
        }
    }
    const fn group(terms: &'static [Term]) -> Group {
        Group {
            terms,
            grouped: true,
        }
    }
    use Term::{Anon, Axis, Ellipsis};

    #[test]
    fn split_group_then_merge_plans_each_step() {
        // (g t) a d -> g a (t d), t = 7, on [42, 50, 6]
        const R: Recipe = Recipe {
            op: Op::Rearrange,
            pattern: "(g t) a d -> g a (t d)",
            names: &["g", "t", "a", "d"],
            left: &[group(&[Axis(0), Axis(1)]), dim(&[Axis(2)]), dim(&[Axis(3)])],
            right: &[dim(&[Axis(0)]), dim(&[Axis(2)]), group(&[Axis(1), Axis(3)])],
        };
        let r = R;
        let p = r.plan(&[42, 50, 6], &[None, Some(7), None, None]).unwrap();
        assert_eq!(p.split, [6, 7, 50, 6]);
        assert_eq!(p.perm, [0, 2, 1, 3]);
        assert_eq!(p.expand, [6, 50, 7, 6]);
        assert_eq!(p.output, [6, 50, 42]);
    }

    #[test]
    fn indivisible_dim_reports_einops_message() {
        const R: Recipe = Recipe {
            op: Op::Rearrange,
            pattern: "(h d) w -> h d w",
            names: &["h", "d", "w"],
            left: &[group(&[Axis(0), Axis(1)]), dim(&[Axis(2)])],
            right: &[dim(&[Axis(0)]), dim(&[Axis(1)]), dim(&[Axis(2)])],
        };
        let r = R;
        let e = r.plan(&[2, 3], &[Some(4), None, None]).unwrap_err();
        assert!(e
            .to_string()
            .contains("Shape mismatch, can't divide axis of length 2 in chunks of 4"));
    }

    #[test]
    fn ellipsis_repeat_and_reduce_plan() {
        // b ... -> b r ..., r = 2, on [2, 3, 4]
        const R: Recipe = Recipe {
            op: Op::Repeat,
            pattern: "b ... -> b r ...",
            names: &["b", "r"],
            left: &[dim(&[Axis(0)]), dim(&[Ellipsis])],
            right: &[dim(&[Axis(0)]), dim(&[Axis(1)]), dim(&[Ellipsis])],
        };
        let r = R;
        let p = r.plan(&[2, 3, 4], &[None, Some(2)]).unwrap();
        assert_eq!(p.unsqueezed, [2, 1, 3, 4]);
        assert_eq!(p.expand, [2, 2, 3, 4]);
        assert_eq!(p.output, [2, 2, 3, 4]);
        // a b c -> a 1 c, reduce = sum
        const SUM: Recipe = Recipe {
            op: Op::Reduce(Reduction::Sum),
            pattern: "a b c -> a 1 c",
            names: &["a", "b", "c"],
            left: &[dim(&[Axis(0)]), dim(&[Axis(1)]), dim(&[Axis(2)])],
            right: &[dim(&[Axis(0)]), dim(&[Anon(1)]), dim(&[Axis(2)])],
        };
        let r = SUM;
        let p = r.plan(&[2, 3, 4], &[]).unwrap();
        assert_eq!(p.perm, [0, 2, 1]);
        assert_eq!(p.reduce, [2]);
        assert_eq!(p.output, [2, 1, 4]);
    }

    #[test]
    fn wrong_rank_reports_einops_message() {
        const R: Recipe = Recipe {
            op: Op::Rearrange,
            pattern: "b h w -> b w h",
            names: &["b", "h", "w"],
            left: &[dim(&[Axis(0)]), dim(&[Axis(1)]), dim(&[Axis(2)])],
            right: &[dim(&[Axis(0)]), dim(&[Axis(2)]), dim(&[Axis(1)])],
        };
        let r = R;
        let e = r.plan(&[2, 3], &[]).unwrap_err();
        assert!(e
            .to_string()
            .contains("Wrong shape: expected 3 dims. Received 2-dim tensor."));
    }
}
