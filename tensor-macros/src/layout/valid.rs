//! Validate: einops' rules, one function per rule, checked on the parsed pattern before
//! any code is emitted. Rules that need the input's sizes (rank, divisibility, equal
//! sizes) are checked later: by trait bounds on static dims, and at run time for `Dyn`.

use super::parse::{Arg, Invocation, Pattern, Side, SizeValue, TermKind};
use super::span::PatternSpans;
use proc_macro2::{Group, Span};
use std::collections::HashSet;
use std::ops::Range;
use syn::Ident;

/// The operation of a pattern (einops' `rearrange`, `repeat`, `reduce`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    /// Permute, split and merge axes; no axis is created or removed (except unit ones).
    Rearrange,
    /// Rearrange and create new axes with given sizes.
    Repeat,
    /// Rearrange and reduce the axes missing from the right side.
    Reduce(Reduction),
}

/// The reductions of `reduce = ...`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reduction {
    /// `sum`
    Sum,
    /// `mean`
    Mean,
    /// `max` (`amax`)
    Max,
    /// `min` (`amin`)
    Min,
    /// `prod`
    Prod,
}

impl Reduction {
    /// The word of `reduce = word`.
    pub fn word(self) -> &'static str {
        match self {
            Reduction::Sum => "sum",
            Reduction::Mean => "mean",
            Reduction::Max => "max",
            Reduction::Min => "min",
            Reduction::Prod => "prod",
        }
    }
}

impl Op {
    /// The name shown in messages: `rearrange`, `repeat`, `reduce sum`.
    pub fn name(self) -> String {
        match self {
            Op::Rearrange => "rearrange".into(),
            Op::Repeat => "repeat".into(),
            Op::Reduce(r) => format!("reduce {}", r.word()),
        }
    }
}

/// A size given for an axis.
pub(crate) struct GivenSize {
    /// The axis name (its span is the argument's).
    pub name: Ident,
    /// Its value.
    pub value: SizeValue,
}

impl GivenSize {
    /// The size when it is a literal.
    pub fn static_value(&self) -> Option<usize> {
        match &self.value {
            SizeValue::Static { value, .. } => Some(*value),
            SizeValue::Run(_) | SizeValue::Dim(_) => None,
        }
    }

    /// The run-time block (`{expr}`, braces included), when the size is one.
    pub fn block(&self) -> Option<&Group> {
        match &self.value {
            SizeValue::Run(b) => Some(b),
            SizeValue::Static { .. } | SizeValue::Dim(_) => None,
        }
    }

    /// The dim type, when the size is one (`h = Heads`).
    pub fn dim(&self) -> Option<&syn::Path> {
        match &self.value {
            SizeValue::Dim(p) => Some(p),
            SizeValue::Static { .. } | SizeValue::Run(_) => None,
        }
    }

    /// The size as a type: a literal's static dim, a dim type's dim, else `Dyn`.
    pub fn ty(&self) -> super::types::Ty {
        use super::types::Ty;
        match &self.value {
            SizeValue::Static { value } => Ty::Static(*value),
            SizeValue::Run(_) => Ty::Dyn,
            SizeValue::Dim(p) => Ty::DimType(quote::quote!(#p).to_string()),
        }
    }
}

/// A pattern that passed every rule.
pub(crate) struct Checked {
    /// The operation.
    pub op: Op,
    /// The parsed pattern.
    pub pattern: Pattern,
    /// The sizes given, each for an axis of the pattern.
    pub sizes: Vec<GivenSize>,
}

impl Checked {
    /// The size given for `name`, if any.
    pub fn size(&self, name: &str) -> Option<&GivenSize> {
        self.sizes.iter().find(|s| s.name == name)
    }
}

/// Checks every rule; the first broken one is the error.
pub(crate) fn check(inv: &Invocation, spans: &PatternSpans) -> syn::Result<Checked> {
    let (explicit, sizes) = arguments(inv)?;
    let pattern = super::parse::parse_pattern(spans.text()).map_err(|e| {
        let op = explicit.map_or(String::new(), Op::name);
        spans.error(&op, &e.range, &e.message)
    })?;
    let op = explicit.unwrap_or_else(|| infer_op(&pattern));
    let rules = Rules {
        op,
        pattern: &pattern,
        sizes: &sizes,
        spans,
    };
    rules.all()?;
    Ok(Checked { op, pattern, sizes })
}

/// The explicit operation (if any) and the sizes, from the arguments after the pattern.
fn arguments(inv: &Invocation) -> syn::Result<(Option<Op>, Vec<GivenSize>)> {
    let mut op: Option<(Op, Span)> = None;
    let mut sizes: Vec<GivenSize> = Vec::new();
    for arg in &inv.args {
        let (this, span) = match arg {
            Arg::Size { name, value } => {
                if sizes.iter().any(|s| s.name == *name) {
                    return Err(syn::Error::new(
                        name.span(),
                        format!("layout!: the size of axis `{name}` is given twice"),
                    ));
                }
                sizes.push(GivenSize {
                    name: name.clone(),
                    value: value.clone(),
                });
                continue;
            }
            Arg::Reduce { op: word, .. } => (reduction(word)?, word.span()),
            Arg::Op(word) if word == "rearrange" => (Op::Rearrange, word.span()),
            Arg::Op(word) if word == "repeat" => (Op::Repeat, word.span()),
            Arg::Op(word) => {
                return Err(syn::Error::new(
                    word.span(),
                    format!(
                        "layout!: unknown argument `{word}`; expected `name = size`, \
                         `reduce = sum|mean|max|min|prod`, `rearrange` or `repeat`"
                    ),
                ))
            }
        };
        if let Some((first, _)) = op {
            return Err(syn::Error::new(
                span,
                format!(
                    "layout!: the operation is given twice ({} and {})",
                    first.name(),
                    this.name()
                ),
            ));
        }
        op = Some((this, span));
    }
    Ok((op.map(|(o, _)| o), sizes))
}

/// `reduce = word`.
fn reduction(word: &Ident) -> syn::Result<Op> {
    let r = match word.to_string().as_str() {
        "sum" => Reduction::Sum,
        "mean" => Reduction::Mean,
        "max" => Reduction::Max,
        "min" => Reduction::Min,
        "prod" => Reduction::Prod,
        _ => {
            return Err(syn::Error::new(
                word.span(),
                format!(
                "layout!(reduce): unknown reduction `{word}`; expected sum, mean, max, min or prod"
            ),
            ))
        }
    };
    Ok(Op::Reduce(r))
}

/// Without `reduce = ..`, `rearrange` or `repeat`: a pattern that creates an axis (a name
/// only on the right, or a number other than 1 on the right) and keeps every axis of the
/// left side is a repeat, any other a rearrange. (A name only on the right *and* one only
/// on the left is most likely a typo on the right: as a rearrange, the error names it.)
fn infer_op(p: &Pattern) -> Op {
    let creates = p.right.terms().any(|(_, t)| match &t.kind {
        TermKind::Name(n) => !p.left.has_name(n),
        TermKind::Anon(n) => *n != 1,
        TermKind::Ellipsis => false,
    });
    let drops = p.left.names().any(|(n, _)| !p.right.has_name(n));
    if creates && !drops {
        Op::Repeat
    } else {
        Op::Rearrange
    }
}

/// The rules, with what they need to report.
struct Rules<'a> {
    op: Op,
    pattern: &'a Pattern,
    sizes: &'a [GivenSize],
    spans: &'a PatternSpans<'a>,
}

impl Rules<'_> {
    fn all(&self) -> syn::Result<()> {
        self.no_duplicate_axes(&self.pattern.left, "left")?;
        self.no_duplicate_axes(&self.pattern.right, "right")?;
        self.anonymous_axes_are_positive()?;
        self.ellipsis_on_right_needs_ellipsis_on_left()?;
        self.no_ellipsis_in_parentheses_on_left()?;
        match self.op {
            Op::Rearrange => {
                self.rearrange_has_only_unit_anonymous_axes()?;
                self.rearrange_axes_on_both_sides()?;
            }
            Op::Repeat => {
                self.repeat_keeps_every_left_axis()?;
                self.repeat_new_axes_have_sizes()?;
            }
            Op::Reduce(_) => self.reduce_creates_no_axis()?,
        }
        self.sizes_are_for_axes_of_the_pattern()?;
        self.left_groups_have_one_unknown_at_most()?;
        Ok(())
    }

    fn fail(&self, range: &Range<usize>, message: String) -> syn::Error {
        self.spans.error(&self.op.name(), range, &message)
    }

    /// An axis (or `...`) appears at most once on each side.
    fn no_duplicate_axes(&self, side: &Side, which: &str) -> syn::Result<()> {
        let mut seen = HashSet::new();
        for (_, t) in side.terms() {
            let key = match &t.kind {
                TermKind::Name(n) => n.as_str(),
                TermKind::Ellipsis => "...",
                TermKind::Anon(_) => continue,
            };
            if !seen.insert(key) {
                return Err(self.fail(
                    &t.range,
                    format!("duplicate axis `{key}` in the {which} side"),
                ));
            }
        }
        Ok(())
    }

    /// An anonymous axis has a positive size.
    fn anonymous_axes_are_positive(&self) -> syn::Result<()> {
        let both = self.pattern.left.terms().chain(self.pattern.right.terms());
        for (_, t) in both {
            if t.kind == TermKind::Anon(0) {
                return Err(self.fail(
                    &t.range,
                    "anonymous axis `0` must have a positive size".into(),
                ));
            }
        }
        Ok(())
    }

    /// `...` on the right side stands for the dims it matched on the left side.
    fn ellipsis_on_right_needs_ellipsis_on_left(&self) -> syn::Result<()> {
        match (self.pattern.left.ellipsis(), self.pattern.right.ellipsis()) {
            (None, Some((_, t))) => Err(self.fail(
                &t.range,
                "`...` is on the right side but not on the left side".into(),
            )),
            _ => Ok(()),
        }
    }

    /// `...` on the left side matches whole dims, so it cannot be inside a group.
    fn no_ellipsis_in_parentheses_on_left(&self) -> syn::Result<()> {
        match self.pattern.left.ellipsis() {
            Some((d, _)) if d.grouped => Err(self.fail(
                &d.range,
                "`...` inside parentheses is not allowed on the left side".into(),
            )),
            _ => Ok(()),
        }
    }

    /// rearrange neither creates nor removes data: its only anonymous axes are `1`.
    fn rearrange_has_only_unit_anonymous_axes(&self) -> syn::Result<()> {
        let both = self.pattern.left.terms().chain(self.pattern.right.terms());
        for (_, t) in both {
            if let TermKind::Anon(n) = t.kind {
                if n != 1 {
                    return Err(self.fail(
                        &t.range,
                        format!(
                            "anonymous axis of size {n} is not allowed in rearrange (only 1 \
                             is); use repeat to create an axis"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// rearrange keeps every axis: each name (and `...`) is on both sides.
    fn rearrange_axes_on_both_sides(&self) -> syn::Result<()> {
        let p = self.pattern;
        // A name on each side that the other lacks: a typo on the right, most likely.
        let left_only = p.left.names().find(|(n, _)| !p.right.has_name(n));
        let right_only = p.right.names().find(|(n, _)| !p.left.has_name(n));
        if let (Some((l, _)), Some((r, t))) = (left_only, right_only) {
            return Err(self.fail(
                &t.range,
                format!(
                    "axis `{r}` is not on the left side (and `{l}` of the left side is not on the right side: a typo for `{l}`?)"
                ),
            ));
        }
        for (side, other, which, hint) in [
            (
                &p.left,
                &p.right,
                "left",
                "; to reduce it, add `reduce = sum`",
            ),
            (
                &p.right,
                &p.left,
                "right",
                "; to repeat along it, give its size",
            ),
        ] {
            if let Some((_, t)) = side.ellipsis() {
                if other.ellipsis().is_none() {
                    return Err(self.fail(
                        &t.range,
                        format!("`...` is on the {which} side only (should be on both)"),
                    ));
                }
            }
            for (name, t) in side.names() {
                if !other.has_name(name) {
                    let hint = if which == "right" {
                        format!("{hint} (`{name} = 4`)")
                    } else {
                        hint.to_string()
                    };
                    return Err(self.fail(
                        &t.range,
                        format!(
                            "axis `{name}` is on the {which} side only (should be on both){hint}"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// repeat keeps every axis of the input (and `...`).
    fn repeat_keeps_every_left_axis(&self) -> syn::Result<()> {
        let p = self.pattern;
        for (_, t) in p.left.terms() {
            let lost = match &t.kind {
                TermKind::Name(n) => !p.right.has_name(n),
                TermKind::Ellipsis => p.right.ellipsis().is_none(),
                TermKind::Anon(n) => *n != 1,
            };
            if lost {
                let what = &p.text[t.range.clone()];
                return Err(self.fail(
                    &t.range,
                    format!("axis `{what}` of the left side is missing from the right side; repeat cannot remove axes"),
                ));
            }
        }
        Ok(())
    }

    /// repeat's new axes (names only on the right) have sizes.
    fn repeat_new_axes_have_sizes(&self) -> syn::Result<()> {
        let p = self.pattern;
        for (name, t) in p.right.names() {
            if !p.left.has_name(name) && !self.sizes.iter().any(|s| s.name == name) {
                return Err(self.fail(
                    &t.range,
                    format!("new axis `{name}` needs a size (`{name} = 4` or `{name} = {{n}}`)"),
                ));
            }
        }
        Ok(())
    }

    /// reduce only removes axes: the right side has no name (or number other than 1) that
    /// the left side lacks.
    fn reduce_creates_no_axis(&self) -> syn::Result<()> {
        let p = self.pattern;
        for (_, t) in p.right.terms() {
            let new = match &t.kind {
                TermKind::Name(n) => !p.left.has_name(n),
                TermKind::Anon(n) => *n != 1,
                TermKind::Ellipsis => false,
            };
            if new {
                let what = &p.text[t.range.clone()];
                return Err(self.fail(
                    &t.range,
                    format!("axis `{what}` is on the right side only; reduce cannot create axes"),
                ));
            }
        }
        Ok(())
    }

    /// Every size given names an axis of the pattern.
    fn sizes_are_for_axes_of_the_pattern(&self) -> syn::Result<()> {
        let p = self.pattern;
        for s in self.sizes {
            let name = s.name.to_string();
            if !p.left.has_name(&name) && !p.right.has_name(&name) {
                return Err(syn::Error::new(
                    s.name.span(),
                    format!(
                        "layout!({}): axis `{name}` is not used in the pattern \"{}\"",
                        self.op.name(),
                        p.text
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A group on the left splits one dim: all its axes but one need sizes.
    fn left_groups_have_one_unknown_at_most(&self) -> syn::Result<()> {
        for d in &self.pattern.left.dims {
            let unknown: Vec<&str> = d
                .terms
                .iter()
                .filter_map(|t| match &t.kind {
                    TermKind::Name(n) if !self.sizes.iter().any(|s| s.name == n) => {
                        Some(n.as_str())
                    }
                    _ => None,
                })
                .collect();
            if unknown.len() > 1 {
                let list: Vec<String> = unknown.iter().map(|n| format!("`{n}`")).collect();
                return Err(self.fail(
                    &d.range,
                    format!(
                        "cannot infer the sizes of {} from one dim: give all but one of them (`{} = 2`)",
                        list.join(" and "),
                        unknown[0]
                    ),
                ));
            }
        }
        Ok(())
    }
}
