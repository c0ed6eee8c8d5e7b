//! `Dim![768]` → the type of one dim (`::tensor_typed::D<768>`; `Dim![50257]` →
//! `K<D<50>, D<257>>`), to name a static size once: `type Embd = Dim![768];`, then
//! `Shape![Dyn, Embd]`.
//!
//! Phases: parse (one dim, as `Shape!` reads it) → validate (as `Shape!`) → expand. A
//! literal is written in its decimal form here; `Dyn` and a dim type are kept; any other
//! const expression (`VOCAB`, `4 * N_EMBD`) is split into its groups of three decimal
//! digits by the compiler, each group a const argument, and `tensor_typed`'s
//! `const_dim::Groups` turns them into the same form (so `Dim![VOCAB]` with `const VOCAB:
//! usize = 50257` is `K<D<50>, D<257>>`, equal to `Shape![50257]`'s dim). The expression
//! must be a constant the compiler evaluates without generic parameters.

use proc_macro2::TokenStream;
use quote::quote;

/// The powers of 1000 above the lowest group of a 64-bit size, highest first.
const GROUPS: [u64; 6] = [
    1_000_000_000_000_000_000,
    1_000_000_000_000_000,
    1_000_000_000_000,
    1_000_000_000,
    1_000_000,
    1_000,
];

/// The dim of a const expression: the chain of `Group` steps over its groups, highest
/// first, then `Last` with the lowest group.
pub(crate) fn const_dim(e: &impl quote::ToTokens) -> TokenStream {
    let path = quote!(::tensor_typed::const_dim);
    let mut ty = quote!(#path::Lead);
    for p in GROUPS {
        let p = proc_macro2::Literal::u64_unsuffixed(p);
        let g = quote!((((#e) as u64 / #p % 1000) as usize));
        ty =
            quote!(<#ty as #path::Group<::tensor_typed::D<{ #g }>, #path::Flag<{ #g != 0 }>>>::Out);
    }
    let g = quote!((((#e) as u64 % 1000) as usize));
    quote!(<#ty as #path::Last<::tensor_typed::D<{ #g }>>>::Out)
}

fn try_expand(input: TokenStream) -> syn::Result<TokenStream> {
    let (dim, parsed) = crate::shape::parse_one_dim(input)?;
    Ok(match parsed {
        Some(e) => const_dim(&e),
        None => dim,
    })
}

/// Expands `Dim![..]`; on error, a `compile_error!` at the dim inside a stub dim
/// (`Dyn`), so that the shapes using it raise no second error.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    match try_expand(input) {
        Ok(ts) => ts,
        Err(e) => {
            let error = e.to_compile_error();
            quote!(<::tensor_typed::Dyn as ::tensor_typed::const_dim::Stub<[(); { #error; 0 }]>>::Out)
        }
    }
}

#[cfg(test)]
mod tests {
    fn expand(input: &str) -> String {
        super::expand(input.parse().unwrap()).to_string()
    }

    #[test]
    fn a_literal_dyn_or_a_dim_type_is_written_as_shape_writes_it() {
        assert_eq!(expand("768"), ":: tensor_typed :: D < 768 >");
        assert_eq!(
            expand("50257"),
            ":: tensor_typed :: K < :: tensor_typed :: D < 50 > , :: tensor_typed :: D < 257 >>"
        );
        assert_eq!(expand("Dyn"), ":: tensor_typed :: Dyn");
        assert_eq!(expand("C::Embd"), "C :: Embd");
        assert_eq!(expand("Seq"), "Seq");
    }

    #[test]
    fn a_const_expression_is_split_into_groups_of_three_digits() {
        let e = expand("4 * N_EMBD");
        assert!(
            e.starts_with("< < < < < < < :: tensor_typed :: const_dim :: Lead as"),
            "{e}"
        );
        assert!(
            e.contains("((4 * N_EMBD) as u64 / 1000 % 1000) as usize"),
            "{e}"
        );
        assert!(e.ends_with("as :: tensor_typed :: const_dim :: Last < :: tensor_typed :: D < { (((4 * N_EMBD) as u64 % 1000) as usize) } >> > :: Out"), "{e}");
    }

    #[test]
    fn two_dims_or_a_negative_one_are_errors() {
        assert!(expand("2, 3").contains("Dim! takes one dim"));
        assert!(expand("-1").contains("a static dim cannot be negative"));
        assert!(expand("").contains("Dim! takes one dim"));
    }
}
