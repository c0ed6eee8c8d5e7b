//! Arithmetic over dim types inside `Shape![..]` and `Dim![..]`: `H * E`, `N + M`,
//! `3 * E` (a type parameter, an associated type or a name times or plus another dim
//! or a literal) is the dim type `tensor_typed::arith::Prod<H, E>` /
//! `tensor_typed::arith::Sum<N, M>`. Concrete dims compute the size (`Prod<D<4>, D<8>>`
//! is `D<32>`); in generic code the product is a dim of its own, which a split by `H`
//! (`layout!`'s `(h e)` with `h = H`) turns back into `E`.
//!
//! An expression is dim arithmetic when it is made of `*`, `+`, parentheses, integer
//! literals and dim type names, with at least one type name; anything else stays a const
//! expression (`4 * N_EMBD`).

use proc_macro2::TokenStream;
use quote::quote;
use syn::{BinOp, Expr, Lit};

/// The dim type of `e` when it is dim arithmetic, else `None`.
pub(crate) fn type_expr(e: &Expr) -> Option<TokenStream> {
    let (tokens, has_type) = walk(e)?;
    has_type.then_some(tokens)
}

/// The type of `e` and whether it names a type, or `None` when it is no dim arithmetic.
fn walk(e: &Expr) -> Option<(TokenStream, bool)> {
    match e {
        Expr::Paren(p) => walk(&p.expr),
        Expr::Group(g) => walk(&g.expr),
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => {
                let n = i.base10_parse::<usize>().ok()?;
                Some((
                    crate::dim_spelling::static_dim(&quote!(::tensor_typed), n),
                    false,
                ))
            }
            _ => None,
        },
        Expr::Path(p) => {
            let last = p.path.segments.last()?;
            crate::dim_spelling::is_type_name(&last.ident.to_string()).then(|| (quote!(#p), true))
        }
        Expr::Binary(b) => {
            let alias = match b.op {
                BinOp::Mul(_) => quote!(::tensor_typed::arith::Prod),
                BinOp::Add(_) => quote!(::tensor_typed::arith::Sum),
                _ => return None,
            };
            let (l, lt) = walk(&b.left)?;
            let (r, rt) = walk(&b.right)?;
            Some((quote!(#alias<#l, #r>), lt || rt))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    fn ty(src: &str) -> Option<String> {
        super::type_expr(&syn::parse_str(src).unwrap()).map(|t| t.to_string())
    }

    #[test]
    fn a_product_or_sum_of_dim_types_is_a_type() {
        assert_eq!(
            ty("H * E").as_deref(),
            Some(":: tensor_typed :: arith :: Prod < H , E >")
        );
        assert_eq!(
            ty("(N + M) * C::Embd").as_deref(),
            Some(":: tensor_typed :: arith :: Prod < :: tensor_typed :: arith :: Sum < N , M > , C :: Embd >")
        );
        assert_eq!(
            ty("3 * E").as_deref(),
            Some(":: tensor_typed :: arith :: Prod < :: tensor_typed :: D < 3 > , E >")
        );
    }

    #[test]
    fn a_const_expression_is_no_dim_arithmetic() {
        assert_eq!(ty("4 * N_EMBD"), None);
        assert_eq!(ty("2 * 3"), None);
        assert_eq!(ty("H - E"), None);
        assert_eq!(ty("H * f(E)"), None);
    }
}
