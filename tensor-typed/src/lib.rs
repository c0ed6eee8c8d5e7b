//! Tensors whose shapes the compiler checks: static dims are compared at compile time,
//! `Dyn` dims at run time with PyTorch's checks and messages, on tensor-core's
//! PyTorch-faithful runtime.
//!
//! # A tour
//!
//! A shape is a tuple of dims written with [`Shape!`]: `Shape![Dyn, 3]` is `(Dyn, D<3>)`.
//! Every op computes its output shape in the type:
//!
//! ```
//! use tensor_typed::prelude::*;
//!
//! let a = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]; // Tensor<f32, Shape![2, 3]>
//! let b: Tensor<f32, Shape![3]> = tensor![10.0, 20.0, 30.0];
//! let c = &a + &b; // broadcast: [2, 3]
//! let m = a.matmul(&a.permute::<Axes![1, 0]>()); // [2, 3] @ [3, 2] -> [2, 2]
//! let s: Tensor<f32, Shape![2]> = c.sum::<Axes![1]>();
//! let x = Tensor::<f32, Shape![Dyn, 3]>::from_vec(vec![0.0; 15], &[5, 3])?;
//! let y = &x + &b; // [Dyn, 3]: the Dyn dim is checked at run time
//! let z: Tensor<f32, Shape![5, 3]> = y.check_shape()?; // now static
//! assert_eq!((m.dims(), s.dims(), z.dims()), (&[2, 2][..], &[2][..], &[5, 3][..]));
//! # Ok::<(), tensor_typed::Error>(())
//! ```
//!
//! A mistake between static dims does not compile, and the error names the dims:
//!
//! ```compile_fail
//! use tensor_typed::prelude::*;
//! let a = Tensor::<f32, Shape![2, 3]>::zeros();
//! let b = Tensor::<f32, Shape![2]>::zeros();
//! let c = &a + &b; // add: cannot broadcast (D<2>, D<3>) with (D<2>,): dim 1 is D<3> vs D<2>
//! ```
//!
//! [`layout!`] rearranges, repeats and reduces with einops' patterns, checked at
//! compile time:
//!
//! ```
//! use tensor_typed::prelude::*;
//!
//! let x = Tensor::<f32, Shape![Dyn, 64]>::zeros_with(&[2, 64])?;
//! let heads = layout!(x, "b (h d) -> b h d", h = 4); // Tensor<f32, Shape![Dyn, 4, 16]>
//! let back: Tensor<f32, Shape![Dyn, 64]> = layout!(heads, "b h d -> b (h d)");
//! assert_eq!(back.dims(), &[2, 64]);
//! # Ok::<(), tensor_typed::Error>(())
//! ```
//!
//! Named dims (`dims!`) catch the mistakes sizes cannot: two different names never
//! unify, whatever their sizes.
//!
//! ```
//! use tensor_typed::prelude::*;
//!
//! dims! {
//!     /// Sequences in a batch.
//!     pub Batch;
//!     /// Positions.
//!     pub Seq;
//!     /// Features, a static named dim.
//!     pub Model = 16;
//! }
//!
//! let q: Tensor<f32, Shape![Batch, Seq, Model]> = Tensor::zeros_with(&[2, 16, 16])?;
//! let scores = q.matmul(&q.transpose::<-2, -1>()); // [Batch, Seq, Seq]
//! let out = scores.softmax::<-1>().matmul(&q); // [Batch, Seq, Model]
//! assert_eq!(out.dims(), &[2, 16, 16]);
//! # Ok::<(), tensor_typed::Error>(())
//! ```
//!
//! `q.matmul(&q)` would be a compile error (`inner dims are Model (D<16>) vs Seq (Dyn)`),
//! although both are 16 at run time.
//!
//! A layer is written once for every size, generic over its dims with no bound but
//! [`Dim`](trait@Dim):
//!
//! ```
//! use tensor_typed::prelude::*;
//!
//! fn attend<B: Dim, S: Dim, E: Dim>(
//!     q: &Tensor<f32, Shape![B, S, E]>,
//!     k: &Tensor<f32, Shape![B, S, E]>,
//!     v: &Tensor<f32, Shape![B, S, E]>,
//! ) -> Tensor<f32, Shape![B, S, E]> {
//!     let scores: Tensor<f32, Shape![B, S, S]> = q.matmul(&k.transpose::<-2, -1>());
//!     scores.softmax::<-1>().matmul(v)
//! }
//!
//! let x = Tensor::<f32, Shape![2, 5, 8]>::zeros();
//! assert_eq!(attend(&x, &x, &x).dims(), &[2, 5, 8]);
//! let d = Tensor::<f32, Shape![Dyn, Dyn, 8]>::zeros_with(&[1, 3, 8])?;
//! assert_eq!(attend(&d, &d, &d).dims(), &[1, 3, 8]);
//! # Ok::<(), tensor_typed::Error>(())
//! ```
//!
//! # Where things are
//!
//! * [`Tensor`]: the ops, each with a `try_` form returning [`Result`] where a run-time
//!   check can fail (the plain form panics with the same message).
//! * [`nn`]: model ops and layers (`Linear`, `Conv2d`, `LayerNorm`, `Embedding`, `Mlp`,
//!   attention); [`optim`]: SGD and AdamW; [`Params`]: visiting a model's tensors;
//!   [`io`]: safetensors and NumPy weights, loaded by PyTorch's state-dict names;
//!   [`data_parallel`]: training over ranks.
//! * [`shape`]: how shapes are types, and every rule with the error it reports;
//!   [`bounds`]: the bounds generic code may write; [`arith`]: dim arithmetic.
//! * `tensor_core` (re-exported types: [`Error`], [`Element`]) is the untyped runtime
//!   underneath; `as_dyn()` of a typed tensor is its runtime tensor.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

extern crate self as tensor_typed;

#[macro_use]
mod wrap;

pub mod autograd;
pub mod bounds;
pub mod data_parallel;
#[doc(hidden)]
pub mod einsum_support;
pub mod global;
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
pub use typelevel::{const_dim, decimal, dim, list, op, peano};

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
pub use tensor_macros::{einsum, layout, tensor, try_einsum, Axes, Params, Shape};
pub use typelevel::dim::{Ax, Dim, Dyn, D, K};
pub use typelevel::named::{NamedDim, Part};

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
    pub use crate::{
        dims, einsum, layout, no_grad, tensor, try_einsum, Axes, Dim, NoGradGuard, Params, Shape,
    };
    pub use crate::{NamedDim, Part};
    pub use tensor_core::{Element, Error, Result};
}
