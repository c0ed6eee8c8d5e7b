//! The ops of typed global tensors: unary and binary elementwise ops (one per row of
//! tensor-core's op tables, whose `partial:` column is the SBP rule), reductions, matmul,
//! views, normalisations and the loss. Each output SBP is its rule's (`rules.rs`); a
//! refused signature does not compile, and the op runs the runtime's global op with
//! implicit boxing refused, so that sizes known only at run time cannot make it
//! communicate either (an error then, naming the op and both SBPs).

// Generic params carry what `Global` needs; the where clauses carry the op's rules.
#![allow(clippy::multiple_bound_locations)]
// The output types are the rules themselves, spelled as projections.
#![allow(clippy::type_complexity)]

use super::check::{
    SbpBinaryOk, SbpLossOk, SbpMatmulOk, SbpNormOk, SbpReduceOk, SbpScalarOk, SbpUnaryOk, SbpViewOk,
};
use super::rules::{
    binary_rule, unary_rule, BinaryKind, CrossEntropyOut, ExpandKind, MatmulOut, NormKind,
    PermuteKind, ReduceKind, ReshapeKind, UnaryKind,
};
use super::sbp::{Max, Min, Sbp, SbpOf, Sum, Verdict};
use super::tensor::{check_global, Global};
use crate::ops::reduction::Float;
use crate::shape::axes::{AxisList, PermuteBy, Permuted, ReduceOver, Reduced, ResolveAxes};
use crate::shape::broadcast::{Broadcast, BroadcastShape};
use crate::shape::check::Blame;
use crate::shape::dims::{DimInRange, DimOkOf, PosOf, RankOf, SDim, WrapDim};
use crate::shape::expand::ExpandTo;
use crate::shape::matmul_dims::{MatmulOut as MatmulShape, MatmulRankOk, MatmulWith};
use crate::shape::nn_rules::CrossEntropyWith;
use crate::shape::reshape::ReshapeTo;
use crate::shape::Shape;
use crate::typelevel::dim::Ax;
use crate::typelevel::dim::{Dim, Pick};
use crate::typelevel::list::{Cons, Nil};
use crate::typelevel::op;
use tensor_core::global::{without_implicit_boxing, GlobalTensor, Sbp as RtSbp};
use tensor_core::{Element, Result, Scalar};
use tensor_macros::plain_form;
use typenum::{B0, B1};

/// The typed result of a runtime global op run with implicit boxing refused: its dtype,
/// sizes and SBP checked against the type (`expected`: the rule's SBP, `None` for a
/// run-time one).
fn finish<T: Element, X: Shape, Q>(
    op: &'static str,
    expected: Option<RtSbp>,
    f: impl FnOnce() -> Result<GlobalTensor>,
) -> Result<Global<T, X, Q>> {
    let t = without_implicit_boxing(f)?;
    check_global(op, &t, T::DTYPE, X::DIMS, expected)?;
    Ok(Global::wrap(t))
}

/// The verdict of rule `K` on the kind of `P`.
type KindOf<P> = <P as Sbp>::Kind;
/// `B1` when the verdict `V` accepts.
type Accepts<V> = <V as Verdict>::Accepted;

/// The typed result SBP of a unary op `Op` with rule `R` on an input of SBP `P`.
pub type UnarySbp<Op, P, R> =
    <Blame<Accepts<UnaryVerdict<P, R>>, Op> as SbpUnaryOk<Op, P>>::Then<SbpOf<UnaryVerdict<P, R>>>;
/// The rule's verdict for a unary op (float inputs).
pub type UnaryVerdict<P, R> = <KindOf<P> as UnaryKind<R, B1>>::Out;

/// The verdict of a binary op with partial rule `PR` on `P` (shape `L`) and `Q` (`R`).
pub type BinaryVerdict<P, Q, PR, L, R> = <KindOf<P> as BinaryKind<KindOf<Q>, PR, L, R>>::Out;
/// The typed result SBP of a binary op.
pub type BinarySbp<Op, P, Q, PR, L, R> =
    <Blame<Accepts<BinaryVerdict<P, Q, PR, L, R>>, Op> as SbpBinaryOk<Op, P, Q>>::Then<
        SbpOf<BinaryVerdict<P, Q, PR, L, R>>,
    >;

/// One typed unary method per row of the unary table; `partial:` is its SBP rule.
macro_rules! global_unary {
    ($( $name:ident {
        variant: $V:ident, inplace: $inplace:ident, out: $out:ident,
        torch: $torch:literal, doc: $what:literal,
        $($field:tt)*
    } )*) => {
        $( global_unary!(@find [$name $torch $what] $($field)*); )*
    };
    (@find $row:tt partial: $rule:ident $(,)?) => {
        global_unary!(@method $rule $row);
    };
    (@find $row:tt $skip:tt $($rest:tt)*) => {
        global_unary!(@find $row $($rest)*);
    };
    (@method $rule:ident [$name:ident $torch:literal $what:literal]) => {
        impl<T: Float, Sh: Shape, P: Sbp> Global<T, Sh, P> {
            #[doc = concat!("Elementwise `", $torch, "` (", $what, ") on every shard. Mirrors `torch.", $torch, "`.")]
            #[doc = concat!("SBP rule: `", stringify!($rule), "` (split and `B` pass; a partial input only where the rule keeps it).")]
            ///
            /// # Errors
            /// The runtime op's.
            #[plain_form(add_try)]
            pub fn $name<Q>(&self) -> Result<Global<T, Sh, Q>>
            where
                UnarySbp<op::$name, P, unary_rule::$rule>: Is<Q>,
                KindOf<P>: UnaryKind<unary_rule::$rule, B1>,
                UnaryVerdict<P, unary_rule::$rule>: Verdict,
                Blame<Accepts<UnaryVerdict<P, unary_rule::$rule>>, op::$name>: SbpUnaryOk<op::$name, P>,
            {
                finish(stringify!($name), <UnaryVerdict<P, unary_rule::$rule> as Verdict>::RUNTIME, || self.inner.$name())
            }
        }
    };
}
tensor_core::__unary_ops!(global_unary);

/// One typed binary method per row of the binary table; `partial:` is its SBP rule.
macro_rules! global_binary {
    ($( $name:ident {
        variant: $V:ident, inplace: $inplace:ident, out: $out:ident,
        torch: $torch:literal, doc: $what:literal,
        $($field:tt)*
    } )*) => {
        $( global_binary!(@find [$name $torch $what] $($field)*); )*
    };
    (@find $row:tt partial: $rule:ident $(,)?) => {
        global_binary!(@method $rule $row);
    };
    (@find $row:tt $skip:tt $($rest:tt)*) => {
        global_binary!(@find $row $($rest)*);
    };
    (@method $rule:ident [$name:ident $torch:literal $what:literal]) => {
        impl<T: Float, Sh: Shape, P: Sbp> Global<T, Sh, P> {
            #[doc = concat!("Elementwise `", $torch, "` (", $what, ") with broadcasting on the logical shapes (`other` of at most this rank). Mirrors `torch.", $torch, "`.")]
            #[doc = concat!("SBP rule: the runtime's `elementwise_signature`, with the partial rule `", stringify!($rule), "`.")]
            ///
            /// # Errors
            /// PyTorch's broadcast message for `Dyn` dims; sizes known at run time that
            /// would need boxing.
            #[plain_form(add_try)]
            pub fn $name<Sh2: Shape, Q: Sbp>(
                &self,
                other: &Global<T, Sh2, Q>,
            ) -> Result<Global<T, Broadcast<Sh, Sh2, op::$name>, BinarySbp<op::$name, P, Q, binary_rule::$rule, Sh, Sh2>>>
            where
                Sh: BroadcastShape<Sh2, op::$name>,
                KindOf<P>: BinaryKind<KindOf<Q>, binary_rule::$rule, Sh, Sh2>,
                BinaryVerdict<P, Q, binary_rule::$rule, Sh, Sh2>: Verdict,
                Blame<Accepts<BinaryVerdict<P, Q, binary_rule::$rule, Sh, Sh2>>, op::$name>: SbpBinaryOk<op::$name, P, Q>,
            {
                finish(
                    stringify!($name),
                    <BinaryVerdict<P, Q, binary_rule::$rule, Sh, Sh2> as Verdict>::RUNTIME,
                    || self.inner.$name(&other.inner),
                )
            }
        }
    };
}
tensor_core::__binary_ops!(global_binary);

/// `B1` for the float element types (the unary rules of `neg` depend on it).
pub trait SumKeepsDtype: Element {
    /// `B1` when `sum` keeps the dtype (floats and `i64`).
    type Bit: Pick;
}
macro_rules! sum_keeps {
    ($($t:ty => $b:ty;)*) => {$( impl SumKeepsDtype for $t { type Bit = $b; } )*};
}
sum_keeps! {
    bool => B0; u8 => B0; i8 => B0; i16 => B0; i32 => B0; i64 => B1;
    tensor_core::half::f16 => B1; tensor_core::half::bf16 => B1; f32 => B1; f64 => B1;
}

/// The verdict of a reduction by `Red` over the axes `A` of a `P` tensor of shape `Sh`.
pub type ReduceVerdict<P, Sh, A, Red, T> = <KindOf<P> as ReduceKind<
    <<A as AxisList>::List as ResolveAxes<Sh>>::Output,
    Red,
    <T as SumKeepsDtype>::Bit,
>>::Out;
/// The typed result SBP of a reduction `Op`.
pub type ReduceSbp<Op, P, Sh, A, Red, T> =
    <Blame<Accepts<ReduceVerdict<P, Sh, A, Red, T>>, Op> as SbpReduceOk<Op, P>>::Then<
        SbpOf<ReduceVerdict<P, Sh, A, Red, T>>,
    >;

macro_rules! global_reductions {
    ($($name:ident $try_name:ident $red:ident;)*) => {
        impl<T: SumKeepsDtype, Sh: Shape, P: Sbp> Global<T, Sh, P> {$(
            #[doc = concat!("`", stringify!($name), "` over the axes `A`, removing them. Mirrors `torch.", stringify!($name), "(dim=A)`.")]
            #[doc = concat!("A reduced split dim gives `P<", stringify!($red), ">`; a kept one stays split (moved left past the removed dims).")]
            ///
            /// # Errors
            /// PyTorch's for an empty `Dyn` axis; a split whose shard would be empty
            /// (`amax`, `amin`).
            #[plain_form]
            pub fn $try_name<A: AxisList>(&self) -> Result<Global<T, Reduced<Sh, A, op::$name>, ReduceSbp<op::$name, P, Sh, A, $red, T>>>
            where
                Sh: ReduceOver<A, crate::shape::axes::NoKeepdim, op::$name>,
                A::List: ResolveAxes<Sh>,
                KindOf<P>: ReduceKind<<A::List as ResolveAxes<Sh>>::Output, $red, <T as SumKeepsDtype>::Bit>,
                ReduceVerdict<P, Sh, A, $red, T>: Verdict,
                Blame<Accepts<ReduceVerdict<P, Sh, A, $red, T>>, op::$name>: SbpReduceOk<op::$name, P>,
            {
                finish(stringify!($name), <ReduceVerdict<P, Sh, A, $red, T> as Verdict>::RUNTIME, || {
                    self.inner.$name(&A::indices(), false)
                })
            }
        )*}
    };
}
global_reductions! {
    sum try_sum Sum;
    amax try_amax Max;
    amin try_amin Min;
}

/// The verdict of `matmul` of `P` by `Q`.
pub type MatmulVerdict<P, Q> = MatmulOut<KindOf<P>, KindOf<Q>>;
/// The typed result SBP of `matmul`.
pub type MatmulSbp<P, Q> =
    <Blame<Accepts<MatmulVerdict<P, Q>>, op::matmul> as SbpMatmulOk<P, Q>>::Then<
        SbpOf<MatmulVerdict<P, Q>>,
    >;

impl<T: Float, M: Dim, K: Dim, P: Sbp> Global<T, (M, K), P> {
    /// Matrix product of 2-D global tensors. Mirrors `torch.matmul`. SBP signatures:
    /// `S<0>·B → S<0>`, `B·S<1> → S<1>`, `S<1>·S<0> → P<Sum>` (the all-reduce is the
    /// caller's), `P<Sum>·B` and `B·P<Sum> → P<Sum>`, `B·B → B`; others do not compile.
    ///
    /// # Errors
    /// PyTorch's shape message for `Dyn` inner dims.
    #[plain_form]
    pub fn try_matmul<K2: Dim, N: Dim, Q: Sbp>(
        &self,
        other: &Global<T, (K2, N), Q>,
    ) -> Result<Global<T, MatmulShape<(M, K), (K2, N)>, MatmulSbp<P, Q>>>
    where
        (M, K): MatmulWith<(K2, N)>,
        <(M, K) as MatmulWith<(K2, N)>>::Ok: MatmulRankOk<(M, K), (K2, N)>,
        KindOf<P>: super::rules::KindBits,
        KindOf<Q>: super::rules::KindBits,
        MatmulVerdict<P, Q>: Verdict,
        Blame<Accepts<MatmulVerdict<P, Q>>, op::matmul>: SbpMatmulOk<P, Q>,
    {
        finish("matmul", <MatmulVerdict<P, Q> as Verdict>::RUNTIME, || {
            self.inner.matmul(&other.inner)
        })
    }

    /// The transpose of a 2-D tensor: a split follows its dim (`S<0>` ↔ `S<1>`).
    /// Mirrors `Tensor.t()`.
    pub fn t(&self) -> Global<T, (K, M), SbpOf<<KindOf<P> as PermuteKind<Swap>>::Out>>
    where
        KindOf<P>: PermuteKind<Swap>,
        <KindOf<P> as PermuteKind<Swap>>::Out: Verdict,
    {
        let expected = <<KindOf<P> as PermuteKind<Swap>>::Out as Verdict>::RUNTIME;
        crate::or_panic::or_panic(finish("t", expected, || self.inner.permute(&[1, 0])))
    }
}

/// The permutation `[1, 0]`, resolved.
type Swap = Cons<Ax<1>, Cons<Ax<0>, Nil>>;

/// The verdict of `cross_entropy` of `P` scores with `Q` targets.
pub type LossVerdict<P, Q> = CrossEntropyOut<KindOf<P>, KindOf<Q>>;
/// The typed result SBP of `cross_entropy`.
pub type LossSbp<P, Q> = <Blame<Accepts<LossVerdict<P, Q>>, op::cross_entropy> as SbpLossOk<
    P,
    Q,
>>::Then<SbpOf<LossVerdict<P, Q>>>;

impl<T: Float, N: Dim, C: Dim, P: Sbp> Global<T, (N, C), P> {
    /// `F.cross_entropy(self, target)`, the mean over the batch of `[N, C]` scores and
    /// `[N]` class indices. `S<0>` scores with `S<0>` targets give a `P<Sum>` loss (each
    /// rank its rows' share of the batch mean: data parallelism); `B` with `B` a `B`
    /// loss.
    ///
    /// # Errors
    /// PyTorch's (a target out of range, batch sizes that differ).
    #[plain_form]
    pub fn try_cross_entropy<N2: Dim, Q: Sbp>(
        &self,
        target: &Global<i64, (N2,), Q>,
    ) -> Result<Global<T, (), LossSbp<P, Q>>>
    where
        (N, C): CrossEntropyWith<(N2,)>,
        KindOf<P>: super::rules::KindBits,
        KindOf<Q>: super::rules::KindBits,
        LossVerdict<P, Q>: Verdict,
        Blame<Accepts<LossVerdict<P, Q>>, op::cross_entropy>: SbpLossOk<P, Q>,
    {
        finish(
            "cross_entropy",
            <LossVerdict<P, Q> as Verdict>::RUNTIME,
            || self.inner.cross_entropy(&target.inner),
        )
    }
}

/// The verdict of a view op `K` (expand, reshape) of `P`.
pub type ViewSbp<Op, P, V, Sh2> = <Blame<Accepts<V>, Op> as SbpViewOk<Op, P, Sh2>>::Then<SbpOf<V>>;
/// The verdict of expanding `P` from `Sh` to `Sh2`.
pub type ExpandVerdict<P, Sh, Sh2> = <KindOf<P> as ExpandKind<Sh, Sh2>>::Out;
/// The verdict of reshaping `P` from `Sh` to `Sh2`.
pub type ReshapeVerdict<P, Sh, Sh2> = <KindOf<P> as ReshapeKind<Sh, Sh2>>::Out;
/// The verdict of permuting `P` by the axes `A` of `Sh`.
pub type PermuteVerdict<P, Sh, A> =
    <KindOf<P> as PermuteKind<<<A as AxisList>::List as ResolveAxes<Sh>>::Output>>::Out;
/// The verdict of normalising `P` over the signed dim `D` of `Sh`.
pub type NormVerdict<P, Sh, const D: isize> = <KindOf<P> as NormKind<PosOf<Sh, D>>>::Out;
/// The typed result SBP of normalising over `D`.
pub type NormSbp<Op, P, Sh, const D: isize> =
    <Blame<Accepts<NormVerdict<P, Sh, D>>, Op> as SbpNormOk<Op, P>>::Then<
        SbpOf<NormVerdict<P, Sh, D>>,
    >;

impl<T: Float, Sh: Shape, P: Sbp> Global<T, Sh, P> {
    /// `Tensor.expand(Sh2)` of the logical tensor, each shard expanded alike: a split
    /// moves right by the new leading dims; a split of a 1 expanded to more does not
    /// compile.
    ///
    /// # Errors
    /// PyTorch's expand message for `Dyn` dims.
    #[plain_form]
    pub fn try_expand<Sh2: Shape>(
        &self,
    ) -> Result<Global<T, Sh2, ViewSbp<op::expand, P, ExpandVerdict<P, Sh, Sh2>, Sh2>>>
    where
        Sh: ExpandTo<Sh2>,
        KindOf<P>: ExpandKind<Sh, Sh2>,
        ExpandVerdict<P, Sh, Sh2>: Verdict,
        Blame<Accepts<ExpandVerdict<P, Sh, Sh2>>, op::expand>: SbpViewOk<op::expand, P, Sh2>,
    {
        let sizes: Vec<i64> = crate::ops::view::target_sizes(Sh2::DIMS);
        finish(
            "expand",
            <ExpandVerdict<P, Sh, Sh2> as Verdict>::RUNTIME,
            || self.inner.expand(&sizes),
        )
    }

    /// `Tensor.reshape(Sh2)` of the logical tensor, each shard reshaped to its share: a
    /// split stays when the dims up to it are unchanged; otherwise it does not compile.
    ///
    /// # Errors
    /// PyTorch's message when the element counts differ (`Dyn` dims).
    #[plain_form]
    pub fn try_reshape<Sh2: Shape>(
        &self,
    ) -> Result<Global<T, Sh2, ViewSbp<op::reshape, P, ReshapeVerdict<P, Sh, Sh2>, Sh2>>>
    where
        Sh: ReshapeTo<Sh2>,
        KindOf<P>: ReshapeKind<Sh, Sh2>,
        ReshapeVerdict<P, Sh, Sh2>: Verdict,
        Blame<Accepts<ReshapeVerdict<P, Sh, Sh2>>, op::reshape>: SbpViewOk<op::reshape, P, Sh2>,
    {
        let sizes: Vec<i64> = crate::ops::view::target_sizes(Sh2::DIMS);
        finish(
            "reshape",
            <ReshapeVerdict<P, Sh, Sh2> as Verdict>::RUNTIME,
            || self.inner.reshape(&sizes),
        )
    }

    /// `Tensor.permute(A)`: every shard permuted; a split follows its dim.
    pub fn permute<A: AxisList>(
        &self,
    ) -> Global<T, Permuted<Sh, A>, SbpOf<PermuteVerdict<P, Sh, A>>>
    where
        Sh: PermuteBy<A>,
        A::List: ResolveAxes<Sh>,
        KindOf<P>: PermuteKind<<A::List as ResolveAxes<Sh>>::Output>,
        PermuteVerdict<P, Sh, A>: Verdict,
    {
        crate::or_panic::or_panic(finish(
            "permute",
            <PermuteVerdict<P, Sh, A> as Verdict>::RUNTIME,
            || self.inner.permute(&A::indices()),
        ))
    }

    /// Softmax over dim `D` (`-1`: the last) of the logical tensor. Mirrors
    /// `torch.softmax(x, D)`. A split of another dim and `B` pass; a split of `D`, or a
    /// partial input, does not compile.
    ///
    /// # Errors
    /// The runtime op's.
    #[plain_form]
    pub fn try_softmax<const D: isize>(
        &self,
    ) -> Result<Global<T, Sh, NormSbp<op::softmax, P, Sh, D>>>
    where
        SDim<D>: WrapDim<RankOf<Sh>>,
        DimOkOf<Sh, D>: DimInRange<op::softmax, Sh, D>,
        KindOf<P>: NormKind<PosOf<Sh, D>>,
        NormVerdict<P, Sh, D>: Verdict,
        Blame<Accepts<NormVerdict<P, Sh, D>>, op::softmax>: SbpNormOk<op::softmax, P>,
    {
        finish(
            "softmax",
            <NormVerdict<P, Sh, D> as Verdict>::RUNTIME,
            || self.inner.softmax(D as i64),
        )
    }

    /// Log-softmax over dim `D`. Mirrors `torch.log_softmax(x, D)`; SBP rule as
    /// [`Global::softmax`].
    ///
    /// # Errors
    /// The runtime op's.
    #[plain_form]
    pub fn try_log_softmax<const D: isize>(
        &self,
    ) -> Result<Global<T, Sh, NormSbp<op::log_softmax, P, Sh, D>>>
    where
        SDim<D>: WrapDim<RankOf<Sh>>,
        DimOkOf<Sh, D>: DimInRange<op::log_softmax, Sh, D>,
        KindOf<P>: NormKind<PosOf<Sh, D>>,
        NormVerdict<P, Sh, D>: Verdict,
        Blame<Accepts<NormVerdict<P, Sh, D>>, op::log_softmax>: SbpNormOk<op::log_softmax, P>,
    {
        finish(
            "log_softmax",
            <NormVerdict<P, Sh, D> as Verdict>::RUNTIME,
            || self.inner.log_softmax(D as i64),
        )
    }

    /// `F.layer_norm` over the last dim with `B` weight and bias of that dim's size.
    /// Mirrors `torch.nn.functional.layer_norm(x, [E], weight, bias, eps)`. A split of
    /// another dim and `B` pass; a split of the last dim, or a partial input, does not
    /// compile.
    ///
    /// # Errors
    /// The runtime op's (a `Dyn` last dim that is not the weight's size).
    #[plain_form]
    pub fn try_layer_norm<E: Dim, Q>(
        &self,
        weight: &Global<T, (E,), super::sbp::B>,
        bias: &Global<T, (E,), super::sbp::B>,
        eps: f64,
    ) -> Result<Global<T, Sh, Q>>
    where
        NormSbp<op::layer_norm, P, Sh, -1>: Is<Q>,
        Sh: crate::shape::nn_rules::NormalizedBy<(E,)>,
        SDim<-1>: WrapDim<RankOf<Sh>>,
        KindOf<P>: NormKind<PosOf<Sh, -1>>,
        NormVerdict<P, Sh, -1>: Verdict,
        Blame<Accepts<NormVerdict<P, Sh, -1>>, op::layer_norm>: SbpNormOk<op::layer_norm, P>,
    {
        finish(
            "layer_norm",
            <NormVerdict<P, Sh, -1> as Verdict>::RUNTIME,
            || {
                self.inner
                    .layer_norm(weight.dims(), Some(&weight.inner), Some(&bias.inner), eps)
            },
        )
    }

    /// `self * value` on every shard: split, `B` and `P<Sum>` pass (the product is
    /// linear); `P<Max>` and `P<Min>` do not compile (a negative value swaps them).
    ///
    /// # Errors
    /// The runtime op's.
    #[plain_form]
    pub fn try_mul_scalar<Q>(&self, value: f64) -> Result<Global<T, Sh, Q>>
    where
        ScalarSbp<P>: Is<Q>,
        KindOf<P>: super::rules::KindBits,
        ScalarVerdict<P>: Verdict,
        Blame<Accepts<ScalarVerdict<P>>, op::mul>: SbpScalarOk<op::mul, P>,
    {
        let t = &self.inner;
        finish("mul", <ScalarVerdict<P> as Verdict>::RUNTIME, || {
            let local = t.local().mul_scalar(Scalar::Float(value))?;
            GlobalTensor::from_local(t.comm(), local, t.sizes(), t.placement(), t.sbp())
        })
    }
}

/// `Self` is `X`: fixes a method's output type parameter to its rule's SBP (a bound the
/// compiler checks at the call, so that a refused rule is reported by the rule's check).
pub trait Is<X> {}
impl<X> Is<X> for X {}

/// The verdict of a scalar multiple of `P`: its kind unless a partial max or min.
pub type ScalarVerdict<P> =
    <<KindOf<P> as super::rules::KindBits>::IsOrder as Pick>::Out<super::sbp::Refused, KindOf<P>>;
/// The typed result SBP of a scalar multiple.
pub type ScalarSbp<P> =
    <Blame<Accepts<ScalarVerdict<P>>, op::mul> as SbpScalarOk<op::mul, P>>::Then<
        SbpOf<ScalarVerdict<P>>,
    >;
