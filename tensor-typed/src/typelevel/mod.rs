//! The type-level machinery behind the typed shape rules: dims as types ([`dim`]),
//! Peano numbers for lengths and axis positions ([`peano`]), prime factorisations for
//! exact division ([`factor`]), cons lists ([`list`]), the checks that turn a failed
//! rule into a readable error ([`checks`]), op markers naming the op in those errors
//! ([`op`]) and which ops each element type allows ([`dtype_rules`]).
//!
//! Public only as far as signatures and error messages force it: rustc prints a type
//! unqualified (`add: cannot broadcast ...`) only when its path is visible, so this module
//! is not `#[doc(hidden)]`; it is not an API to call.

pub mod checks;
pub mod dim;
pub mod dtype_rules;
pub mod factor;
pub mod list;
pub mod op;
pub mod peano;
