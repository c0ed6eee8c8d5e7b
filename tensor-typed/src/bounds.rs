//! The bounds a user writes on generic typed code, in one place.
//!
//! Code generic over dim type parameters needs no bound but [`Dim`] wherever a dim meets
//! itself (matmul's inner dims, broadcasts, layer norm's weight, `cat` off the cat dim)
//! and for rules on ranks and positions (transpose, permute, select, softmax,
//! reductions): see the README's "Writing a generic layer". The bounds below are for the
//! rest, one per fact the code needs; none of them names the rules' machinery.
//!
//! | bound | what it says | used by |
//! |---|---|---|
//! | [`Dim`] | a dim type | every shape |
//! | [`Shape`] | a shape type (a tuple of dims) | code generic over whole shapes |
//! | [`DimMul<E>`] on `H` | `H * E` is a dim, [`Prod<H, E>`] | `Shape![B, H * E]`, `layout!` merges |
//! | [`DimAdd<M>`] on `A` | `A + M` is a dim, [`Sum<A, M>`] | `Shape![N, A + M]`, `cat` along a dim |
//! | [`ProductOf<H, E>`] on `X` | `X` has the size `H · E` | `unflatten`, `flatten_into` |
//! | [`CanMatmul<R>`] on `S` | `S @ R` compiles, giving [`MatmulOut<S, R>`] | matmul of shapes not known |
//!
//! No bound is needed for `narrow_dyn` of a dim parameter `T`: its result's dim is
//! [`Narrowed<T>`] (the dim with a run-time length and `T`'s name, if any; `Dyn` for an
//! unnamed dim), which meets itself, `Dyn` and a 1 as any dim does. To meet another dim
//! (the positions of a pass taken from a table of positions), say what it is with a
//! rename, e.g. to `Dyn`: `wpe.narrow_dyn::<0>(past, t).rename::<Shape![Dyn, E]>()`.
//!
//! ```
//! use tensor_typed::bounds::{Dim, DimMul, ProductOf};
//! use tensor_typed::prelude::*;
//!
//! /// A config states its products once, as item bounds.
//! trait Config {
//!     type Heads: Dim;
//!     type HeadDim: Dim;
//!     type Embd: Dim + ProductOf<Self::Heads, Self::HeadDim>;
//! }
//!
//! /// `[B, T, Embd]` split into heads `[B, Heads, T, HeadDim]` and merged back.
//! fn round_trip<C: Config, B: Dim, T: Dim>(
//!     x: &Tensor<f32, Shape![B, T, C::Embd]>,
//! ) -> Tensor<f32, Shape![B, T, C::Embd]> {
//!     let heads = x.unflatten::<2, C::Heads, C::HeadDim>().transpose::<1, 2>();
//!     heads.transpose::<1, 2>().flatten_into::<2, C::Embd>()
//! }
//!
//! /// A product written as a dim needs the bound that names it.
//! fn merge<B: Dim, H: Dim + DimMul<E>, E: Dim>(
//!     x: &Tensor<f32, Shape![B, H, E]>,
//! ) -> Tensor<f32, Shape![B, H * E]> {
//!     layout!(x, "b h e -> b (h e)")
//! }
//!
//! struct Small;
//! impl Config for Small {
//!     type Heads = D<2>;
//!     type HeadDim = D<4>;
//!     type Embd = D<8>;
//! }
//! let x = Tensor::<f32, Shape![Dyn, 3, 8]>::ones_with(&[1, 3, 8])?;
//! assert_eq!(round_trip::<Small, Dyn, D<3>>(&x).to_vec(), x.to_vec());
//! let y: Tensor<f32, Shape![1, 8]> = merge(&Tensor::<f32, Shape![1, 2, 4]>::ones());
//! # let _ = y;
//! # Ok::<(), tensor_typed::Error>(())
//! ```
//!
//! State bounds on dims or on shape parameters, not on a concrete tuple of dims: a
//! where-clause `(B, H, S, L): Rule` hides the tuple's own `Shape` impl from the trait
//! solver's normalization, and the bodies that use the tuple stop compiling.

pub use crate::shape::matmul_dims::{CanMatmul, MatmulOut};
pub use crate::shape::split::ProductOf;
pub use crate::shape::Shape;
pub use crate::typelevel::arith::{DimAdd, DimMul, Prod, Sum};
pub use crate::typelevel::dim::{Dim, NarrowDim};
pub use crate::typelevel::named::{Narrowed, Part};
