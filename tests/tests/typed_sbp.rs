//! The compile-time SBP signatures of typed global tensors (`tensor_typed::global`)
//! against the runtime's: for every op family and every SBP (pair) of its inputs, the
//! rule's verdict is computed from the types, and the runtime op is run on two
//! in-process ranks with implicit boxing refused. They agree when the rule accepts
//! exactly the SBPs the runtime runs without boxing, with the same output SBP.
//!
//! Then the typed ops themselves: a data-parallel step on in-process ranks equals the
//! single-process step, and a size known only at run time that would need boxing is an
//! error naming the op. (The `tensor_parallel` and `digits --sbp` examples test whole
//! models against their single-process runs.)

use tensor_core::global::Sbp as Rt;
use tensor_core::global::{run_ranks, without_implicit_boxing, Comm, GlobalTensor, Placement};
use tensor_core::{BinaryOp, UnaryOp};
use tensor_core::{DType, Result, Tensor};
use tensor_typed::global::rules::{
    binary_rule, unary_rule, BinaryKind, CrossEntropyOut, ExpandKind, MatmulOut, NormKind,
    PermuteKind, ReduceKind, ReshapeKind, UnaryKind,
};
use tensor_typed::global::{Max, Min, Sbp, Sum, Verdict, B, P, S};
use tensor_typed::typelevel::list::{Cons, Nil};
use tensor_typed::typelevel::peano::{S as Succ, Z};
use tensor_typed::{Ax, D};
use typenum::{B0, B1};

type K<X> = <X as Sbp>::Kind;

/// The verdict's runtime SBP, `None` when refused.
fn verdict<V: Verdict>() -> Option<Rt> {
    if V::ACCEPTED {
        V::RUNTIME
    } else {
        None
    }
}

/// The runtime's answer: the output SBP when the op ran without boxing, `None` when it
/// refused to box.
fn runtime(r: Result<GlobalTensor>) -> std::result::Result<Option<Rt>, String> {
    match r {
        Ok(t) => Ok(Some(t.sbp())),
        Err(e) if e.to_string().contains("implicit boxing is refused") => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// A global tensor of `sizes` (values 1, 2, ...) with `sbp`.
fn global(comm: &Comm, sizes: &[usize], dtype: DType, sbp: Rt) -> Result<GlobalTensor> {
    let n: usize = sizes.iter().product();
    let t = Tensor::from_vec((1..=n).map(|v| v as f64).collect::<Vec<f64>>(), sizes)?
        .to_dtype(dtype)?;
    GlobalTensor::from_logical(comm, &t, &Placement::all(comm.world_size())?, sbp)
}

/// Collects the cases where the rule and the runtime disagree.
struct Judge<'a> {
    comm: &'a Comm,
    disagree: Vec<String>,
    cases: usize,
}

impl Judge<'_> {
    fn case(
        &mut self,
        what: String,
        typed: Option<Rt>,
        run: impl FnOnce() -> Result<GlobalTensor>,
    ) {
        self.cases += 1;
        match runtime(without_implicit_boxing(run)) {
            Ok(rt) if rt == typed => {}
            Ok(rt) => self
                .disagree
                .push(format!("{what}: typed {typed:?}, runtime {rt:?}")),
            Err(e) => self.disagree.push(format!("{what}: runtime error {e}")),
        }
    }
}

/// Calls the macro `$m!(A, args)` for each SBP type listed.
macro_rules! each {
    ($m:ident ($arg:expr); $($a:ty),*) => {$( $m!($a, $arg); )*};
}
/// Calls the macro `$m!(A, B, args)` for each pair of the SBP types listed.
macro_rules! each_pair {
    ($m:ident ($arg:expr); $($a:ty),*) => {
        each_pair!(@outer $m ($arg) [$($a),*] $($a),*);
    };
    (@outer $m:ident $args:tt $all:tt $($a:ty),*) => {$( each_pair!(@inner $m $args $a $all); )*};
    (@inner $m:ident ($arg:expr) $a:ty [$($b:ty),*]) => {$( $m!($a, $b, $arg); )*};
}

fn rt<X: Sbp>() -> Rt {
    X::RUNTIME.expect("a typed SBP")
}

fn dims<Sh: tensor_typed::Shape>() -> Vec<usize> {
    Sh::DIMS.iter().map(|d| d.expect("static")).collect()
}

/// `sbp` is valid for a tensor of `rank` dims.
fn fits(sbp: Rt, rank: usize) -> bool {
    sbp.split_dim().is_none_or(|d| d < rank)
}

fn unary_case<X: Sbp, R, F>(j: &mut Judge<'_>, op: UnaryOp, dtype: DType)
where
    K<X>: UnaryKind<R, F>,
    <K<X> as UnaryKind<R, F>>::Out: Verdict,
{
    let typed = verdict::<<K<X> as UnaryKind<R, F>>::Out>();
    let comm = j.comm;
    j.case(format!("{op:?} {dtype:?} {:?}", rt::<X>()), typed, || {
        global(comm, &[4, 6], dtype, rt::<X>())?.unary(op)
    });
}

macro_rules! unary_all {
    ($x:ty, $j:expr) => {
        unary_case::<$x, unary_rule::Negates, B1>($j, UnaryOp::Neg, DType::F32);
        unary_case::<$x, unary_rule::Negates, B0>($j, UnaryOp::Neg, DType::I64);
        unary_case::<$x, unary_rule::Monotone, B1>($j, UnaryOp::Relu, DType::F32);
        unary_case::<$x, unary_rule::Monotone, B0>($j, UnaryOp::Relu, DType::I32);
        unary_case::<$x, unary_rule::Broadcasts, B1>($j, UnaryOp::Exp, DType::F32);
    };
}

/// One binary op on shapes `L` and `R` for the SBPs `X`, `Y`.
fn binary_case<X: Sbp, Y: Sbp, PR, L: tensor_typed::Shape, R: tensor_typed::Shape>(
    j: &mut Judge<'_>,
    op: BinaryOp,
) where
    K<X>: BinaryKind<K<Y>, PR, L, R>,
    <K<X> as BinaryKind<K<Y>, PR, L, R>>::Out: Verdict,
{
    let (l, r) = (dims::<L>(), dims::<R>());
    if !fits(rt::<X>(), l.len()) || !fits(rt::<Y>(), r.len()) {
        return;
    }
    let typed = verdict::<<K<X> as BinaryKind<K<Y>, PR, L, R>>::Out>();
    let comm = j.comm;
    j.case(
        format!("{op:?} {l:?} {:?} with {r:?} {:?}", rt::<X>(), rt::<Y>()),
        typed,
        || {
            global(comm, &l, DType::F32, rt::<X>())?
                .binary(op, &global(comm, &r, DType::F32, rt::<Y>())?)
        },
    );
}

/// The shape pairs of the binary cases: equal shapes, a bias of lower rank, size-1
/// dims broadcast on either side.
macro_rules! binary_all {
    ($x:ty, $y:ty, $j:expr) => {
        binary_ops!($x, $y, $j;
            (D<4>, D<6>), (D<4>, D<6>);
            (D<4>, D<6>), (D<6>,);
            (D<4>, D<6>), (D<1>, D<6>);
            (D<4>, D<6>), (D<4>, D<1>);
            (D<1>, D<6>), (D<4>, D<6>);
            (D<4>, D<1>), (D<4>, D<6>);
            (D<1>, D<6>), (D<1>, D<6>);
            (D<4>, D<1>), (D<1>,);
        );
    };
}
macro_rules! binary_ops {
    ($x:ty, $y:ty, $j:expr; $($l:ty, $r:ty;)*) => {$(
        binary_case::<$x, $y, binary_rule::Sum, $l, $r>($j, BinaryOp::Add);
        binary_case::<$x, $y, binary_rule::Sum, $l, $r>($j, BinaryOp::Sub);
        binary_case::<$x, $y, binary_rule::Linear, $l, $r>($j, BinaryOp::Mul);
        binary_case::<$x, $y, binary_rule::Max, $l, $r>($j, BinaryOp::Maximum);
        binary_case::<$x, $y, binary_rule::Min, $l, $r>($j, BinaryOp::Minimum);
        binary_case::<$x, $y, binary_rule::Broadcasts, $l, $r>($j, BinaryOp::Div);
    )*};
}

/// A reduction over the axes `A` (resolved) of a `[4, 6]` tensor of dtype `dtype`
/// (`Kept`: whether a sum keeps it).
fn reduce_case<X: Sbp, A, Red, Kept>(j: &mut Judge<'_>, kind: &str, axes: &[i64], dtype: DType)
where
    K<X>: ReduceKind<A, Red, Kept>,
    <K<X> as ReduceKind<A, Red, Kept>>::Out: Verdict,
{
    let typed = verdict::<<K<X> as ReduceKind<A, Red, Kept>>::Out>();
    let comm = j.comm;
    j.case(
        format!("{kind} {axes:?} {dtype:?} {:?}", rt::<X>()),
        typed,
        || {
            let t = global(comm, &[4, 6], dtype, rt::<X>())?;
            match kind {
                "sum" => t.sum(axes, false),
                "amax" => t.amax(axes, false),
                _ => t.amin(axes, false),
            }
        },
    );
}

type A0 = Cons<Ax<0>, Nil>;
type A1 = Cons<Ax<1>, Nil>;
type A01 = Cons<Ax<0>, Cons<Ax<1>, Nil>>;

macro_rules! reduce_all {
    ($x:ty, $j:expr) => {
        reduce_case::<$x, A0, Sum, B1>($j, "sum", &[0], DType::F32);
        reduce_case::<$x, A1, Sum, B1>($j, "sum", &[1], DType::F32);
        reduce_case::<$x, A01, Sum, B1>($j, "sum", &[0, 1], DType::F32);
        reduce_case::<$x, A0, Sum, B0>($j, "sum", &[0], DType::I32);
        reduce_case::<$x, A1, Sum, B1>($j, "sum", &[1], DType::I64);
        reduce_case::<$x, A0, Max, B1>($j, "amax", &[0], DType::F32);
        reduce_case::<$x, A1, Max, B1>($j, "amax", &[1], DType::F32);
        reduce_case::<$x, A01, Min, B1>($j, "amin", &[0, 1], DType::F32);
        reduce_case::<$x, A1, Min, B1>($j, "amin", &[1], DType::F32);
    };
}

fn matmul_case<X: Sbp, Y: Sbp>(j: &mut Judge<'_>)
where
    K<X>: tensor_typed::global::rules::KindBits,
    K<Y>: tensor_typed::global::rules::KindBits,
    MatmulOut<K<X>, K<Y>>: Verdict,
{
    let typed = verdict::<MatmulOut<K<X>, K<Y>>>();
    let comm = j.comm;
    j.case(
        format!("matmul {:?} by {:?}", rt::<X>(), rt::<Y>()),
        typed,
        || {
            global(comm, &[4, 6], DType::F32, rt::<X>())?.matmul(&global(
                comm,
                &[6, 8],
                DType::F32,
                rt::<Y>(),
            )?)
        },
    );
}

macro_rules! matmul_all {
    ($x:ty, $y:ty, $j:expr) => {
        matmul_case::<$x, $y>($j);
    };
}

fn loss_case<X: Sbp, Y: Sbp>(j: &mut Judge<'_>)
where
    K<X>: tensor_typed::global::rules::KindBits,
    K<Y>: tensor_typed::global::rules::KindBits,
    CrossEntropyOut<K<X>, K<Y>>: Verdict,
{
    if !fits(rt::<Y>(), 1) {
        return;
    }
    let typed = verdict::<CrossEntropyOut<K<X>, K<Y>>>();
    let comm = j.comm;
    j.case(
        format!("cross_entropy {:?} with {:?}", rt::<X>(), rt::<Y>()),
        typed,
        || {
            let target = Tensor::from_vec(vec![0i64, 2, 1, 1], &[4])?;
            let p = Placement::all(comm.world_size())?;
            let target = GlobalTensor::from_logical(comm, &target, &p, rt::<Y>())?;
            global(comm, &[4, 3], DType::F32, rt::<X>())?.cross_entropy(&target)
        },
    );
}

macro_rules! loss_all {
    ($x:ty, $y:ty, $j:expr) => {
        loss_case::<$x, $y>($j);
    };
}

/// A view op of a rank-3 tensor: expand, reshape, permute.
fn view_case<X: Sbp, V: Verdict>(
    j: &mut Judge<'_>,
    what: &str,
    sizes: &[usize],
    f: fn(&GlobalTensor) -> Result<GlobalTensor>,
) {
    if !fits(rt::<X>(), sizes.len()) {
        return;
    }
    let typed = verdict::<V>();
    let comm = j.comm;
    j.case(format!("{what} {:?}", rt::<X>()), typed, || {
        f(&global(comm, sizes, DType::F32, rt::<X>())?)
    });
}

type Expand<X, In, Out> = <K<X> as ExpandKind<In, Out>>::Out;
type Reshape<X, In, Out> = <K<X> as ReshapeKind<In, Out>>::Out;
type Permute<X, A> = <K<X> as PermuteKind<A>>::Out;
type Norm<X, Q> = <K<X> as NormKind<Q>>::Out;
type P2 = Succ<Succ<Z>>;

macro_rules! views_all {
    ($x:ty, $j:expr) => {
        view_case::<$x, Expand<$x, (D<4>, D<1>, D<6>), (D<2>, D<4>, D<3>, D<6>)>>(
            $j,
            "expand [4, 1, 6] to [2, 4, 3, 6]",
            &[4, 1, 6],
            |t| t.expand(&[2, 4, 3, 6]),
        );
        view_case::<$x, Expand<$x, (D<4>, D<1>, D<6>), (D<4>, D<1>, D<6>)>>(
            $j,
            "expand [4, 1, 6] to itself",
            &[4, 1, 6],
            |t| t.expand(&[4, 1, 6]),
        );
        view_case::<$x, Reshape<$x, (D<4>, D<6>, D<8>), (D<4>, D<48>)>>(
            $j,
            "reshape [4, 6, 8] to [4, 48]",
            &[4, 6, 8],
            |t| t.reshape(&[4, 48]),
        );
        view_case::<$x, Reshape<$x, (D<4>, D<6>, D<8>), (D<4>, D<6>, D<2>, D<4>)>>(
            $j,
            "reshape [4, 6, 8] to [4, 6, 2, 4]",
            &[4, 6, 8],
            |t| t.reshape(&[4, 6, 2, 4]),
        );
        view_case::<$x, Reshape<$x, (D<4>, D<6>, D<8>), (D<2>, D<2>, D<48>)>>(
            $j,
            "reshape [4, 6, 8] to [2, 2, 48]",
            &[4, 6, 8],
            |t| t.reshape(&[2, 2, 48]),
        );
        view_case::<$x, Permute<$x, Cons<Ax<2>, Cons<Ax<0>, Cons<Ax<1>, Nil>>>>>(
            $j,
            "permute [4, 6, 8] by [2, 0, 1]",
            &[4, 6, 8],
            |t| t.permute(&[2, 0, 1]),
        );
        view_case::<$x, Norm<$x, P2>>($j, "softmax [4, 6, 8] over 2", &[4, 6, 8], |t| t.softmax(2));
        view_case::<$x, Norm<$x, Succ<Z>>>($j, "log_softmax [4, 6, 8] over 1", &[4, 6, 8], |t| {
            t.log_softmax(1)
        });
        view_case::<$x, Norm<$x, P2>>(
            $j,
            "layer_norm [4, 6, 8] over the last dim",
            &[4, 6, 8],
            |t| {
                let p = t.placement().clone();
                let w = GlobalTensor::from_logical(
                    t.comm(),
                    &Tensor::ones(&[8], DType::F32)?,
                    &p,
                    Rt::Broadcast,
                )?;
                t.layer_norm(&[8], Some(&w), Some(&w), 1e-5)
            },
        );
    };
}

#[test]
fn compile_time_signatures_agree_with_the_runtime_on_every_sbp_pair() {
    let reports = run_ranks(2, |comm| {
        let mut j = Judge {
            comm: &comm,
            disagree: Vec::new(),
            cases: 0,
        };
        let j = &mut j;
        each!(unary_all (j); S<0>, S<1>, B, P<Sum>, P<Max>, P<Min>);
        each_pair!(binary_all (j); S<0>, S<1>, B, P<Sum>, P<Max>, P<Min>);
        each!(reduce_all (j); S<0>, S<1>, B, P<Sum>, P<Max>, P<Min>);
        each_pair!(matmul_all (j); S<0>, S<1>, B, P<Sum>, P<Max>, P<Min>);
        each_pair!(loss_all (j); S<0>, S<1>, B, P<Sum>, P<Max>, P<Min>);
        each!(views_all (j); S<0>, S<1>, S<2>, B, P<Sum>, P<Max>, P<Min>);
        Ok((j.cases, std::mem::take(&mut j.disagree)))
    })
    .unwrap();
    for (cases, disagree) in reports {
        assert!(cases > 1500, "{cases} cases");
        assert!(
            disagree.is_empty(),
            "{} of {cases} disagree:\n{}",
            disagree.len(),
            disagree.join("\n")
        );
    }
}

/// The one place the typed rule is stricter than the runtime: a reshape that merges the
/// dims before the split dim keeps the split at run time (`[4, 6, 8]` split along 2 is
/// `[24, 8]` split along 1), and typed code boxes there.
#[test]
fn reshape_merging_dims_before_the_split_is_refused_by_the_typed_rule_only() {
    type V = Reshape<S<2>, (D<4>, D<6>, D<8>), (D<24>, D<8>)>;
    assert_eq!(verdict::<V>(), None);
    let rt = run_ranks(2, |comm| {
        without_implicit_boxing(|| {
            global(&comm, &[4, 6, 8], DType::F32, Rt::Split(2))?.reshape(&[24, 8])
        })
        .map(|t| t.sbp())
    })
    .unwrap();
    assert_eq!(rt, vec![Rt::Split(1); 2]);
}

/// A data-parallel step: the `B` weight's `P<Sum>` gradient, all-reduced, is the
/// single-process gradient, and the SGD step gives the single-process weight.
#[test]
fn typed_data_parallel_step_equals_the_single_process_step() {
    use tensor_typed::global::{Global, Step};
    use tensor_typed::prelude::*;
    let xs: Vec<f32> = (0..15).map(|v| (v as f32 * 0.37).sin()).collect();
    let w0 = vec![0.5f32, -0.25, 1.0];
    let single = {
        let x = tensor_typed::Tensor::<f32, Shape![Dyn, 3]>::from_vec(xs.clone(), &[5, 3]).unwrap();
        let w = tensor_typed::Tensor::<f32, Shape![3, 1]>::from_vec(w0.clone(), &[3, 1])
            .unwrap()
            .requires_grad_(true);
        let y = x.matmul(&w);
        y.mul(&y).sum_all().div_scalar(5.0).backward().unwrap();
        w.grad().unwrap().to_vec()
    };
    let ranks = run_ranks(2, |comm| {
        let p = Placement::all(2)?;
        let x = tensor_typed::Tensor::<f32, Shape![Dyn, 3]>::from_vec(xs.clone(), &[5, 3])?;
        let x = Global::<f32, Shape![Dyn, 3], S<0>>::from_logical(&comm, &x, &p)?;
        let w = tensor_typed::Tensor::<f32, Shape![3, 1]>::from_vec(w0.clone(), &[3, 1])?;
        let w =
            Global::<f32, Shape![3, 1], B>::from_logical(&comm, &w, &p)?.requires_grad_(true)?;
        let y = x.matmul(&w); // S<0>
        let loss = y.mul(&y).sum::<Axes![0, 1]>().mul_scalar(1.0 / 5.0); // P<Sum>
        loss.backward()?;
        let g = w.grad()?.expect("after backward").try_all_reduce()?;
        let grad = g.to_logical()?.to_vec();
        Step::new().grad(&w, &g).apply(&mut optim::Sgd::new(0.1))?;
        Ok((grad, w.to_logical()?.to_vec()))
    })
    .unwrap();
    for (grad, w) in ranks {
        for (a, b) in grad.iter().zip(&single) {
            assert!(
                (a - b).abs() <= 1e-6 * b.abs().max(1.0),
                "{grad:?} vs {single:?}"
            );
        }
        let stepped: Vec<f32> = w0.iter().zip(&single).map(|(w, g)| w - 0.1 * g).collect();
        for (a, b) in w.iter().zip(&stepped) {
            assert!((a - b).abs() <= 1e-6, "{w:?} vs {stepped:?}");
        }
    }
}

/// A `Dyn` dim that is 1 at run time, broadcast against a split: the rule assumed more
/// than 1, the runtime would box, and the typed op is an error naming it instead.
#[test]
fn a_run_time_size_that_would_need_boxing_is_an_error_naming_the_op() {
    use tensor_typed::global::Global;
    use tensor_typed::prelude::*;
    let errors = run_ranks(2, |comm| {
        let p = Placement::all(2)?;
        let one = tensor_typed::Tensor::<f32, Shape![Dyn, 6]>::zeros_with(&[1, 6])?;
        let four = tensor_typed::Tensor::<f32, Shape![Dyn, 6]>::zeros_with(&[4, 6])?;
        let a = Global::<f32, Shape![Dyn, 6], S<0>>::from_logical(&comm, &one, &p)?;
        let b = Global::<f32, Shape![Dyn, 6], S<0>>::from_logical(&comm, &four, &p)?;
        Ok(a.try_add(&b).map(|_| ()).unwrap_err().to_string())
    })
    .unwrap();
    for e in errors {
        assert!(
            e.contains("add: an input is oneflow.sbp.split(dim=0) but the op's signature takes oneflow.sbp.broadcast; implicit boxing is refused"),
            "{e}"
        );
    }
}
