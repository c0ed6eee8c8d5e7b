//! The type-level machinery behind the typed shape rules: dims as types ([`dim`]),
//! arithmetic on dims ([`arith`], on decimal digits: [`decimal`]), a const expression's
//! dim ([`const_dim`], behind `Dim![expr]`), Peano numbers for lengths and axis positions
//! ([`peano`]), cons lists ([`list`]), the checks that turn a failed rule into a readable
//! error ([`checks`]; for named dims, by the verdicts of [`mismatch`]), op markers naming
//! the op in those errors ([`op`]) and which ops each element type allows
//! ([`dtype_rules`]).
//!
//! Public only as far as signatures force it, and hidden from the user's docs; the crate
//! root re-exports its modules (hidden too) so that errors print its types by bare name.

pub mod arith;
pub mod checks;
pub mod const_dim;
pub mod decimal;
pub mod dim;
pub mod dtype_rules;
pub mod layout_rules;
pub mod list;
pub mod mismatch;
pub mod named;
pub mod op;
pub mod peano;
#[cfg(test)]
pub(crate) mod test_names;
