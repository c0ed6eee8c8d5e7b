//! How the macros spell a dim: the type of a static size (`D<N>`, `K<Hi, Lo>`) and which
//! names are dim types by Rust's naming conventions. Shared by `Shape!`, `Dim!`,
//! `dims!`, `tensor!` and `layout!`.

use proc_macro2::TokenStream;
use quote::quote;

/// `true` for an UpperCamelCase name (`Embd`, `Vocab`): a type by Rust's naming
/// convention, where a const is SCREAMING_CASE (`VOCAB`, `N_EMBD`).
pub(crate) fn is_camel(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().any(|c| c.is_ascii_lowercase())
}

/// `true` for a name that Rust's conventions make a type: UpperCamelCase ([`is_camel`])
/// or a type parameter's one capital letter, optionally numbered (`B`, `E`, `S2`). A
/// const generic parameter of one letter is written in braces (`{ N }`).
pub(crate) fn is_type_name(name: &str) -> bool {
    let mut chars = name.chars();
    let one_letter =
        chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.all(|c| c.is_ascii_digit());
    one_letter || is_camel(name)
}

/// The type of static dim `n` under `path` (`::tensor_typed` or its `layout_support`):
/// `D<n>` below 1000, else `K<hi, D<n % 1000>>` with `hi` the dim of `n / 1000` (three
/// decimal digits per group, so every size has exactly one form).
pub(crate) fn static_dim(path: &TokenStream, n: usize) -> TokenStream {
    let lo = proc_macro2::Literal::usize_unsuffixed(n % 1000);
    if n < 1000 {
        quote!(#path::D<#lo>)
    } else {
        let hi = static_dim(path, n / 1000);
        quote!(#path::K<#hi, #path::D<#lo>>)
    }
}
