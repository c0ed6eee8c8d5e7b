//! The output shape as a type: each axis's size as a type expression over the input's
//! dims, with the trait bounds that make it well-formed (and that fail, with the dims in
//! decimal, when a static size does not fit).
//!
//! Constants are folded here, in the macro: a product of literals is one `D<N>`, and a
//! product with a run-time size is `Dyn`; only expressions over the input's generic dims
//! are left to the type-level operators (`DimMul`, and `Split`, `DimIs` of
//! `layout_support`, whose failures are the static checks).

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{quote, quote_spanned};

/// The size of an axis or dim as a type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ty {
    /// A generic parameter standing for an input dim (`A0`).
    Param(String),
    /// A static size, `D<N>`.
    Static(usize),
    /// A run-time size, `Dyn`.
    Dyn,
    /// A dim type given as a size (`h = Heads`): the type itself (kept as the path's
    /// text, so that `Ty` stays comparable).
    DimType(String),
    /// `Prod<X, Y>`.
    Prod(Box<Ty>, Box<Ty>),
    /// `op::Chunks<I, X, Y>`: input dim `I` (`X`) split in chunks of `Y` (exact
    /// division; `op` is the module of checks named in messages).
    Split {
        /// The operation's checks module (`rearrange`, `repeat`, `reduce`).
        op: &'static str,
        /// The input dim's index.
        dim: usize,
        /// The input dim.
        input: Box<Ty>,
        /// The chunk size.
        by: Box<Ty>,
    },
}

impl Ty {
    /// `self * rhs`, folded where both are known.
    pub fn mul(self, rhs: Ty) -> Ty {
        match (self, rhs) {
            (Ty::Static(1), x) | (x, Ty::Static(1)) => x,
            (Ty::Static(a), Ty::Static(b)) => Ty::Static(a.saturating_mul(b)),
            (Ty::Dyn, _) | (_, Ty::Dyn) => Ty::Dyn,
            (a, b) => Ty::Prod(Box::new(a), Box::new(b)),
        }
    }

    /// Input dim `dim` (`self`) split in chunks of `by` (the division must be exact),
    /// folded where either is `Dyn` or `by` is 1.
    pub fn split(self, op: &'static str, dim: usize, by: Ty) -> Ty {
        match (self, by) {
            (x, Ty::Static(1)) => x,
            (Ty::Dyn, _) | (_, Ty::Dyn) => Ty::Dyn,
            (a, b) => Ty::Split {
                op,
                dim,
                input: Box::new(a),
                by: Box::new(b),
            },
        }
    }

    /// The product of `items` (`D<1>` when empty).
    pub fn product(items: impl IntoIterator<Item = Ty>) -> Ty {
        items.into_iter().fold(Ty::Static(1), Ty::mul)
    }

    /// The type's tokens, with paths through `layout_support`.
    pub fn tokens(&self) -> TokenStream {
        let ls = support();
        match self {
            Ty::Param(p) => {
                let p = Ident::new(p, Span::call_site());
                quote!(#p)
            }
            Ty::Static(n) => crate::dim_spelling::static_dim(&ls, *n),
            Ty::Dyn => quote!(#ls::Dyn),
            Ty::DimType(path) => path.parse().unwrap_or_default(),
            Ty::Prod(a, b) => {
                let (a, b) = (a.tokens(), b.tokens());
                quote!(#ls::Prod<#a, #b>)
            }
            Ty::Split { op, dim, input, by } => {
                let op = Ident::new(op, Span::call_site());
                let dim = Literal::usize_unsuffixed(*dim);
                let (a, b) = (input.tokens(), by.tokens());
                quote!(#ls::Chunks<#ls::#op, #dim, #a, #b>)
            }
        }
    }

    /// The bounds that make this type well-formed: `X: DimMul<Y>` for each product and
    /// `X: op::Split<I, Y>` for each split (the divisibility check), spanned at `span`.
    pub fn bounds(&self, span: Span, out: &mut Vec<TokenStream>) {
        let ls = support();
        let bound = match self {
            Ty::Param(_) | Ty::Static(_) | Ty::Dyn | Ty::DimType(_) => return,
            Ty::Prod(a, b) => {
                a.bounds(span, out);
                b.bounds(span, out);
                let (ta, tb) = (a.tokens(), b.tokens());
                quote_spanned!(span=> #ta: #ls::DimMul<#tb>)
            }
            Ty::Split { op, dim, input, by } => {
                input.bounds(span, out);
                by.bounds(span, out);
                let op = Ident::new(op, Span::call_site());
                let dim = Literal::usize_unsuffixed(*dim);
                let (ta, tb) = (input.tokens(), by.tokens());
                // Asked of the dim's size (`SplitDim` has no impl for names).
                let size = quote_spanned!(span=> #ta: #ls::SizeOf);
                if !out.iter().any(|b| b.to_string() == size.to_string()) {
                    out.push(size);
                }
                quote_spanned!(span=> <#ta as #ls::SizeOf>::Unnamed: #ls::SplitDim<#ls::#op, #dim, #tb>)
            }
        };
        if !out.iter().any(|b| b.to_string() == bound.to_string()) {
            out.push(bound);
        }
    }
}

/// The path of the support module.
pub(crate) fn support() -> TokenStream {
    quote!(::tensor_typed::layout_support)
}
