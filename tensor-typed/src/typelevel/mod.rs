//! The type-level numbers, lists and op markers the shape rules compute with: dims as
//! types ([`dim`]; named dims: [`named`]), arithmetic on dims ([`arith`], on decimal
//! digits: [`decimal`]), a const expression's dim ([`const_dim`], behind `Dim![expr]`),
//! Peano numbers for lengths and axis positions ([`peano`]), cons lists ([`list`]) and
//! the op markers that name an op in an error ([`op`]). The rules themselves, with the
//! messages they report, are in [`crate::shape`].

pub mod arith;
pub mod const_dim;
pub mod decimal;
pub mod dim;
pub mod list;
pub mod named;
pub mod op;
pub mod peano;
#[cfg(test)]
pub(crate) mod test_names;
