//! The autograd surface: misuse that PyTorch refuses (backward twice, backward of a
//! non-scalar without a gradient, in-place on a leaf that requires grad, a custom node
//! returning the wrong number of gradients or a gradient of the wrong shape), and
//! in-place ops on views and on bases after views, whose gradients are compared with
//! the same expression computed without in-place ops.

use super::gen::Gen;
use super::operand::same;
use super::runner::Ctx;
use tensor_core::autograd::{apply, Node};
use tensor_core::{DType, Result, Tensor};

/// One case: a fresh leaf and one kind of misuse.
pub fn run_case(g: &mut Gen, c: &mut Ctx) {
    let dtype = if g.chance(0.5) {
        DType::F32
    } else {
        DType::F64
    };
    let rows = 1 + g.below(4);
    let cols = 1 + g.below(3);
    let values: Vec<f64> = (0..rows * cols)
        .map(|_| (g.below(17) as f64 - 8.0) / 4.0)
        .collect();
    let Some(x) = leaf(c, &values, &[rows, cols], dtype) else {
        return;
    };
    match g.below(7) {
        0 => backward_twice(g, c, &x),
        1 => backward_of_a_non_scalar(c, &x),
        2 => inplace_on_a_leaf(g, c, &x),
        3 => inplace_on_a_view(g, c, &x, &values, rows, cols),
        4 => inplace_on_a_base_after_a_view(g, c, &x, &values, rows, cols),
        5 => detach_and_no_grad(c, &x, &values),
        _ => custom_node(g, c, &x),
    }
}

fn leaf(c: &mut Ctx, values: &[f64], sizes: &[usize], dtype: DType) -> Option<Tensor> {
    c.call(
        || format!("leaf {sizes:?} {dtype:?}"),
        || {
            Tensor::from_vec(values.to_vec(), sizes)?
                .to_dtype(dtype)?
                .requires_grad_(true)
        },
    )
}

/// The gradient of `x` as `f64`, or `None` when it has none.
fn grad_of(c: &mut Ctx, x: &Tensor) -> Option<Vec<f64>> {
    let g = x.grad()?;
    c.call(|| "grad.to_vec_f64()".to_string(), || g.to_vec_f64())
}

fn backward_twice(g: &mut Gen, c: &mut Ctx, x: &Tensor) {
    let retain = g.chance(0.3);
    let Some(loss) = c.call(|| "x.exp().sum()".to_string(), || x.exp()?.sum(&[], false)) else {
        return;
    };
    let first = c.call(
        || format!("backward_opts(None, retain_graph={retain})"),
        || loss.backward_opts(None, retain),
    );
    c.check(first.is_some(), || "the first backward failed".into());
    let second = c.call(|| "backward() again".to_string(), || loss.backward());
    // PyTorch: "Trying to backward through the graph a second time" unless retained.
    c.check(second.is_some() == retain, || {
        format!("second backward gave {second:?} with retain_graph={retain}")
    });
}

fn backward_of_a_non_scalar(c: &mut Ctx, x: &Tensor) {
    let Some(y) = c.call(|| "x.mul(x)".to_string(), || x.mul(x)) else {
        return;
    };
    let r = c.call(|| "non-scalar backward()".to_string(), || y.backward());
    // "grad can be implicitly created only for scalar outputs" unless y has one element.
    c.check(r.is_some() == (y.numel() == 1), || {
        format!("backward of {:?} gave {r:?}", y.sizes())
    });
}

fn inplace_on_a_leaf(g: &mut Gen, c: &mut Ctx, x: &Tensor) {
    let r = match g.below(3) {
        0 => c.call(|| "leaf.add_scalar_(1)".to_string(), || x.add_scalar_(1.0)),
        1 => c.call(|| "leaf.exp_()".to_string(), || x.exp_()),
        _ => c.call(
            || "leaf.narrow(0, 0, 1).mul_scalar_(2)".to_string(),
            || x.narrow(0, 0, 1)?.mul_scalar_(2.0),
        ),
    };
    // "a leaf Variable that requires grad is being used in an in-place operation."
    c.check(r.is_none(), || {
        "an in-place op on a leaf that requires grad passed".into()
    });
}

/// `base = x * 1; base.narrow(0, s, l) *= k; base.sum().backward()`: the gradient of
/// `x` is `k` in the view's rows and 1 elsewhere, as `(x * w).sum()` with `w` so.
fn inplace_on_a_view(g: &mut Gen, c: &mut Ctx, x: &Tensor, v: &[f64], rows: usize, cols: usize) {
    let (s, l) = rows_of(g, rows);
    let k = g.pick(&[0.0, -1.0, 0.5, 3.0]);
    let exp = g.chance(0.5);
    let r = c.call(
        || {
            format!(
                "base = x*1; base.narrow(0, {s}, {l}).{}; base.sum().backward()",
                if exp {
                    "exp_()".to_string()
                } else {
                    format!("mul_scalar_({k})")
                }
            )
        },
        || {
            let base = x.mul_scalar(1.0)?;
            let view = base.narrow(0, s as i64, l)?;
            if exp {
                view.exp_()?;
            } else {
                view.mul_scalar_(k)?;
            }
            base.sum(&[], false)?.backward()
        },
    );
    if r.is_none() {
        return;
    }
    let in_view = |i: usize| (s..s + l).contains(&(i / cols));
    let want: Vec<f64> = (0..rows * cols)
        .map(|i| match (in_view(i), exp) {
            (false, _) => 1.0,
            (true, true) => v[i].exp(),
            (true, false) => k,
        })
        .collect();
    compare(c, x, &want, "in-place on a view");
}

/// `base = x * 1; view = base.narrow(0, s, l); base += 1; view.exp().sum().backward()`:
/// the view sees the write, so the gradient is `exp(x + 1)` in its rows, 0 elsewhere.
fn inplace_on_a_base_after_a_view(
    g: &mut Gen,
    c: &mut Ctx,
    x: &Tensor,
    v: &[f64],
    rows: usize,
    cols: usize,
) {
    let (s, l) = rows_of(g, rows);
    let r = c.call(
        || format!("view = (x*1).narrow(0, {s}, {l}); base.add_scalar_(1); view.exp().sum().backward()"),
        || {
            let base = x.mul_scalar(1.0)?;
            let view = base.narrow(0, s as i64, l)?;
            base.add_scalar_(1.0)?;
            view.exp()?.sum(&[], false)?.backward()
        },
    );
    if r.is_none() {
        return;
    }
    let want: Vec<f64> = (0..rows * cols)
        .map(|i| {
            if (s..s + l).contains(&(i / cols)) {
                (v[i] + 1.0).exp()
            } else {
                0.0
            }
        })
        .collect();
    compare(c, x, &want, "in-place on a base after a view");
}

/// `(x.detach() * x).sum()` has gradient `x`; under `no_grad` nothing is recorded, so
/// its backward is PyTorch's "does not require grad" error.
fn detach_and_no_grad(c: &mut Ctx, x: &Tensor, v: &[f64]) {
    let r = c.call(
        || "(x.detach() * x).sum().backward()".to_string(),
        || x.detach().mul(x)?.sum(&[], false)?.backward(),
    );
    if r.is_some() {
        compare(c, x, v, "detach");
    }
    let r = c.call(
        || "no_grad(x * x).sum().backward()".to_string(),
        || {
            tensor_core::no_grad(|| x.mul(x))?
                .sum(&[], false)?
                .backward()
        },
    );
    c.check(r.is_none(), || {
        "backward through a no_grad result passed".into()
    });
}

/// A node returning `count` gradients of `sizes` for its one input.
struct Wrong {
    count: usize,
    sizes: Vec<usize>,
    dtype: DType,
}
impl Node for Wrong {
    fn name(&self) -> &'static str {
        "WrongBackward"
    }
    fn apply(&self, _grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
        (0..self.count)
            .map(|_| Ok(Some(Tensor::ones(&self.sizes, self.dtype)?)))
            .collect()
    }
}

fn custom_node(g: &mut Gen, c: &mut Ctx, x: &Tensor) {
    let count = g.pick(&[0, 1, 2, 3]);
    let mut sizes = x.sizes().to_vec();
    if g.chance(0.5) {
        sizes = g.small_sizes();
    }
    let dtype = x.dtype();
    let shape_ok = sizes.as_slice() == x.sizes();
    let r = c.call(
        || format!("custom node: {count} gradients of {sizes:?}; backward"),
        || {
            let y = apply(
                &[x],
                || x.mul_scalar(2.0),
                |_| Wrong {
                    count,
                    sizes: sizes.clone(),
                    dtype,
                },
            )?;
            y.sum(&[], false)?.backward()
        },
    );
    // PyTorch: "function WrongBackward returned an incorrect number of gradients
    // (expected 1, got 3)"; a gradient that does not sum to the input's shape is
    // "returned an invalid gradient at index 0".
    if count != 1 {
        c.check(r.is_none(), || {
            format!("{count} gradients for one input passed")
        });
    } else if shape_ok {
        c.check(r.is_some(), || "a right custom gradient failed".into());
    }
}

/// A run of rows `s..s + l` of `rows` (at least one row).
fn rows_of(g: &mut Gen, rows: usize) -> (usize, usize) {
    let s = g.below(rows);
    let l = 1 + g.below(rows - s);
    (s, l)
}

fn compare(c: &mut Ctx, x: &Tensor, want: &[f64], what: &str) {
    let got = grad_of(c, x);
    let tol = if x.dtype() == DType::F32 { 1e-5 } else { 1e-12 };
    c.check(got.as_deref().is_some_and(|g| same(g, want, tol)), || {
        format!("{what}: gradient {got:?}, recomputed without in-place {want:?}")
    });
}
