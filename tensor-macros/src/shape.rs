//! `shape` macro: not yet written.

use proc_macro2::TokenStream;
use quote::quote;

pub(crate) fn expand(_input: TokenStream) -> TokenStream {
    quote! { compile_error!("not yet implemented") }
}
