//! Every signature a typed global op accepts without communication, and the explicit
//! boxings, in generic code over `Dim` parameters.
use tensor_typed::global::{Global, Max, Min, Step, Sum, B, P, S};
use tensor_typed::prelude::*;

type G<Sh, Sb> = Global<f32, Sh, Sb>;

fn matmul<N: Dim, E: Dim, H: Dim>(
    s0: &G<(N, E), S<0>>,
    s1: &G<(N, E), S<1>>,
    b: &G<(N, E), B>,
    w_b: &G<(E, H), B>,
    w_s0: &G<(E, H), S<0>>,
    w_s1: &G<(E, H), S<1>>,
    p: &G<(N, E), P<Sum>>,
    w_p: &G<(E, H), P<Sum>>,
) {
    let _: G<(N, H), S<0>> = s0.matmul(w_b);
    let _: G<(N, H), S<1>> = b.matmul(w_s1);
    let _: G<(N, H), P<Sum>> = s1.matmul(w_s0);
    let _: G<(N, H), P<Sum>> = p.matmul(w_b);
    let _: G<(N, H), P<Sum>> = b.matmul(w_p);
    let _: G<(N, H), B> = b.matmul(w_b);
}

fn elementwise<N: Dim, E: Dim>(
    s0: &G<(N, E), S<0>>,
    s1: &G<(N, E), S<1>>,
    b: &G<(N, E), B>,
    bias_b: &G<(E,), B>,
    bias_s0: &G<(E,), S<0>>,
    p: &G<(N, E), P<Sum>>,
    pmax: &G<(N, E), P<Max>>,
    pmin: &G<(N, E), P<Min>>,
) {
    let _: G<(N, E), S<0>> = s0.add(s0);
    let _: G<(N, E), S<0>> = s0.add(bias_b);
    let _: G<(N, E), S<1>> = s1.add(bias_s0);
    let _: G<(N, E), B> = b.sub(b);
    let _: G<(N, E), P<Sum>> = p.add(p);
    let _: G<(N, E), P<Sum>> = p.mul(b);
    let _: G<(N, E), P<Sum>> = b.mul(p);
    let _: G<(N, E), P<Max>> = pmax.maximum(b);
    let _: G<(N, E), P<Min>> = pmin.minimum(pmin);
    let _: G<(N, E), S<0>> = s0.relu().exp();
    let _: G<(N, E), P<Sum>> = p.neg();
    let _: G<(N, E), P<Min>> = pmax.neg();
    let _: G<(N, E), P<Max>> = pmax.relu();
    let _: G<(N, E), P<Sum>> = p.mul_scalar(0.5);
}

fn reductions_views_norms<N: Dim, E: Dim>(
    s0: &G<(N, E), S<0>>,
    s1: &G<(N, E), S<1>>,
    p: &G<(N, E), P<Sum>>,
    w: &G<(E,), B>,
) {
    let _: G<(E,), P<Sum>> = s0.sum::<Axes![0]>();
    let _: G<(N,), S<0>> = s0.sum::<Axes![1]>();
    let _: G<(E,), S<0>> = s1.sum::<Axes![0]>();
    let _: G<(N,), P<Max>> = s1.amax::<Axes![-1]>();
    let _: G<(E,), P<Sum>> = p.sum::<Axes![0]>();
    let _: G<(E, N), S<1>> = s0.t();
    let _: G<(E, N), S<0>> = s1.permute::<Axes![1, 0]>();
    let _: G<(N, E), S<0>> = s0.softmax::<-1>();
    let _: G<(N, E), S<1>> = s1.log_softmax::<0>();
    let _: G<(N, E), S<0>> = s0.layer_norm(w, w, 1e-5);
    let _: G<(D<2>, N, E), S<1>> = s0.expand::<(D<2>, N, E)>();
}

fn reshape(x: &G<(Dyn, D<6>, D<8>), S<0>>, y: &G<(Dyn, D<48>), S<0>>) {
    let _: G<(Dyn, D<48>), S<0>> = x.reshape::<(Dyn, D<48>)>();
    let _: G<(Dyn, D<6>, D<8>), S<0>> = y.reshape::<(Dyn, D<6>, D<8>)>();
}

fn boxing_and_training<N: Dim, C: Dim>(
    scores: &G<(N, C), S<0>>,
    target: &Global<i64, (N,), S<0>>,
    w: &G<(C, C), B>,
    p: &G<(N, C), P<Sum>>,
    opt: &mut optim::Sgd,
) -> tensor_typed::Result<()> {
    let loss: G<(), P<Sum>> = scores.matmul(w).cross_entropy(target);
    loss.backward()?;
    let g: G<(C, C), P<Sum>> = w.grad()?.expect("after backward");
    let g: G<(C, C), B> = g.all_reduce();
    Step::new().grad(w, &g).apply(opt)?;
    let _: G<(N, C), B> = scores.all_gather();
    let _: G<(N, C), S<1>> = p.reduce_scatter::<1>();
    let _: G<(N, C), S<1>> = scores.to_sbp::<S<1>>();
    let _ = scores.to_dyn_sbp().add(&scores.to_dyn_sbp());
    Ok(())
}

fn main() {
    let _ = (matmul::<D<4>, D<6>, D<8>>, elementwise::<Dyn, D<6>>);
    let _ = (reductions_views_norms::<Dyn, D<6>>, boxing_and_training::<Dyn, D<10>>, reshape);
}
