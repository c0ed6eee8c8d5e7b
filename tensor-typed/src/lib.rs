//! Typed tensors: static dims checked by the compiler, `Dyn` dims by the runtime.
//!
//! See [`shape`] for how shapes are represented (`Shape![2, Dyn, 3]` is
//! `(D<2>, Dyn, D<3>)`) and which shape rules exist; the user's methods are on
//! [`Tensor`]. `typelevel` (dims as types, Peano numbers, type
//! lists, checks, op markers) is the machinery behind the bounds, hidden from the docs.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

extern crate self as tensor_typed;

#[macro_use]
mod wrap;

pub mod autograd;
pub mod bounds;
pub mod data_parallel;
pub mod io;
#[doc(hidden)]
pub mod layout_support;
pub mod nn;
pub mod ops;
pub mod optim;
mod or_panic;
pub mod params;
pub mod shape;
pub mod tensor;
#[doc(hidden)]
pub mod typelevel;

// rustc prints a type by its bare name (`add:`, `D<3>`, `Cons<..>`) only when a path to it
// avoids `#[doc(hidden)]` modules; these hidden re-exports give the machinery such a path
// while keeping it out of the user's docs.
#[doc(hidden)]
pub use typelevel::{
    checks, const_dim, decimal, dim, dtype_rules, layout_rules, list, mismatch, op, peano,
};

/// Type-level arithmetic on dims (product, sum, difference, exact quotient, conv/pool
/// output size) for rules and layers of your own; see the module's items.
pub use typelevel::arith;

pub use autograd::{is_grad_enabled, no_grad, NoGradGuard};
pub use params::Params;
pub use shape::{Shape, StaticShape};
pub use tensor::Tensor;
/// half's `f16` and `bf16`, the element types of `DType::F16` and `DType::BF16`.
pub use tensor_core::half;
/// num-traits, for code generic over the element type: `Float` (with `Zero`, `One`,
/// `NumCast`, `ToPrimitive`) holds for `f32`, `f64`, [`half::f16`]
/// and [`half::bf16`], so one bound `T: Element + Float` covers
/// every float dtype.
///
/// ```
/// use tensor_typed::num_traits::Float;
/// use tensor_typed::prelude::*;
/// use tensor_typed::Shape as ShapeRule;
///
/// /// Root mean square of the elements, computed in `T` (`torch.sqrt((x * x).mean())`).
/// fn rms<T: Element + Float, S: ShapeRule>(x: &Tensor<T, S>) -> T {
///     let v = x.to_vec();
///     let n = T::from(v.len()).expect("a count is a float");
///     (v.iter().fold(T::zero(), |acc, &e| acc + e * e) / n).sqrt()
/// }
///
/// let x = Tensor::<f32, Shape![2, 2]>::from_vec(vec![1.0, -1.0, 1.0, -1.0], &[2, 2])?;
/// assert_eq!(rms(&x), 1.0);
/// let h = Tensor::<tensor_typed::half::f16, Shape![2]>::full(tensor_typed::half::f16::from_f32(2.0));
/// assert_eq!(rms(&h).to_f32(), 2.0);
/// # Ok::<(), tensor_typed::Error>(())
/// ```
pub use tensor_core::num_traits;
pub use tensor_core::{Element, Error, Result};
pub use tensor_macros::{layout, tensor, Axes, Params, Shape};
pub use typelevel::dim::{Ax, Dim, Dyn, D, K};
pub use typelevel::named::NamedDim;

/// Naming a static size once, for a config: `Dim![..]` is the type of one dim, usable
/// wherever `Shape![..]` takes a dim (a dim type is written in UpperCamelCase, as Rust
/// names types; a SCREAMING_CASE name is a const).
///
/// ```
/// use tensor_typed::prelude::*;
///
/// const VOCAB: usize = 50257;
/// const N_EMBD: usize = 768;
/// type Vocab = Dim![VOCAB];        // K<D<50>, D<257>>, as Shape![50257] writes it
/// type Embd = Dim![N_EMBD];        // D<768>
/// type Inner = Dim![4 * N_EMBD];   // K<D<3>, D<72>>: any const expression, any size
///
/// let wte = Tensor::<f32, Shape![Vocab, Embd]>::zeros();
/// let h = Tensor::<f32, Shape![Dyn, Embd]>::zeros_with(&[2, 768])?;
/// let logits: Tensor<f32, Shape![Dyn, 50257]> = h.matmul(&wte.t()); // the same type
/// let up: Tensor<f32, Shape![Embd, Inner]> = Tensor::zeros();
/// let _: Tensor<f32, Shape![Dyn, 3072]> = h.matmul(&up);
/// # Ok::<(), tensor_typed::Error>(())
/// ```
///
/// Inside `Shape![..]` a SCREAMING_CASE const or a const expression is read as
/// `D<{ N }>`, which holds sizes below 1000 only; for larger sizes, or a computed one,
/// name the dim once with `Dim!` as above. A one-letter capital (`B`, `E`, `S2`) or an
/// UpperCamelCase name is a dim *type*: a type parameter `E: Dim`, an associated type
/// (`C::Embd`, for a config trait with `type Embd: Dim;`) or a name from `dims!`. A const
/// generic parameter of one letter is written in braces: `Shape![{ N }]`, with the bound
/// `D<N>: Dim`. Arithmetic over dim types is a dim type too: `Shape![B, S, H * E]` is
/// `(B, S, Prod<H, E>)` ([`arith::Prod`], [`arith::Sum`]).
pub use tensor_macros::Dim;

/// Named dims: `Seq` and `HeadDim` never unify, even at equal sizes or at run time.
///
/// `Name;` declares a run-time dim (its size is known at run time, checked once as
/// `Dyn` is), `Name = N;` a static one (a literal of any size, or a const expression
/// over numbers and earlier static names: `Inner = 4 * Model;`). Each name is an
/// ordinary item (a unit struct; paths work: `model::Seq`), written in `Shape![..]`
/// beside numbers and `Dyn`, and as a `layout!` size (`h = Heads`).
///
/// Every op that compares dims (broadcast, matmul, cat, expand, `layout!`,
/// `check_shape`, the nn ops) unifies the same name with itself; two different names
/// never unify, whatever their sizes (a compile error); a named static dim unifies with
/// an unnamed static dim of its size (the result keeps the name); `Dyn` unifies with
/// anything; an unnamed 1 broadcasts against a name. Products and sums of dims (a merge
/// in `layout!`, `cat`, `reshape`) are unnamed; [`Tensor::rename`] changes names.
///
/// A name is its type: two names are the same name exactly when they are the same struct
/// (so a name imported from another module is that name). Each name also carries an id
/// that `dims!` hashes from its call site and text, which tells two names apart quickly;
/// two different structs with one id (a `dims!` block expanded twice by a
/// `macro_rules!`, a file included twice) are a compile error wherever they meet, never
/// one name. Declare each name once and import it.
///
/// ```
/// use tensor_typed::prelude::*;
///
/// dims! {
///     /// Rows of a batch.
///     pub Batch;
///     pub Seq;
///     pub Heads = 4;
///     pub HeadDim = 8;
///     pub Model = 4 * HeadDim;
/// }
///
/// let x: Tensor<f32, Shape![Batch, Seq, Model]> = Tensor::zeros_with(&[2, 5, 32])?;
/// let q = layout!(x, "b s (h d) -> b h s d", h = Heads, d = HeadDim);
/// let scores = q.matmul(&q.transpose::<-2, -1>());
/// let _: &Tensor<f32, Shape![Batch, Heads, Seq, Seq]> = &scores;
/// // An unnamed static dim of the same size unifies with a named one:
/// let y = x.add(&Tensor::<f32, Shape![32]>::zeros());
/// let _: &Tensor<f32, Shape![Batch, Seq, Model]> = &y;
/// # Ok::<(), tensor_typed::Error>(())
/// ```
///
/// ```compile_fail
/// use tensor_typed::prelude::*;
/// dims! { pub Seq = 16; pub HeadDim = 16; }
/// let q = Tensor::<f32, Shape![Seq, HeadDim]>::zeros();
/// let bad = q.matmul(&q); // inner dims are HeadDim (D<16>) vs Seq (D<16>)
/// ```
pub use tensor_macros::dims;

/// Everything a user needs: `use tensor_typed::prelude::*;`.
pub mod prelude {
    pub use crate::nn;
    pub use crate::nn::Conv2dExt;
    pub use crate::optim::{self, Optimizer};
    pub use crate::tensor::Tensor;
    pub use crate::typelevel::dim::{Ax, Dyn, D, K};
    pub use crate::NamedDim;
    pub use crate::{dims, layout, no_grad, tensor, Axes, Dim, NoGradGuard, Params, Shape};
    pub use tensor_core::{Element, Error, Result};
}
