//! Gradients through global tensors against single-process ones: SPMD cases, functions
//! of a communicator, run on in-process ranks by `tests/tests/global_grad.rs` and under
//! `mpirun` by `tests/tests/global.rs`'s `mpi_suite`.
//!
//! Every case is in float64. Tolerance: values made of eighths make a boxing's
//! gradient exact (sums of a few eighths and zeros are exact), so those cases compare
//! exactly; a case with products and sums (the MLP, matmuls) compares within 1e-12
//! absolute, because a global gradient is summed in another order (each rank's rows,
//! then the ranks in order) than the single-process one (all rows at once): a few ulps
//! (2.2e-16 each) of sums of magnitude below 10, over at most a few dozen terms.

use tensor_core::global::{Comm, GlobalTensor, Placement, Sbp};
use tensor_core::nn::{cross_entropy, Reduction};
use tensor_core::{Error, Tensor};

/// A case's outcome: `Err` carries what differs.
pub type Check = Result<(), String>;

/// The tolerance of the cases with products and sums (see the module's docs).
pub const TOLERANCE: f64 = 1e-12;

fn err(e: Error) -> String {
    e.to_string()
}

/// A float64 tensor of `sizes` whose elements are eighths in [-2, 2], fixed by `salt`.
fn eighths(sizes: &[usize], salt: usize) -> Result<Tensor, String> {
    let n: usize = sizes.iter().product();
    let data: Vec<f64> = (0..n)
        .map(|i| ((i * 37 + salt * 11) % 33) as f64 / 8.0 - 2.0)
        .collect();
    Tensor::from_vec(data, sizes).map_err(err)
}

/// `got` (a global gradient, boxed to broadcast) against `want`, within `tol`.
fn close(what: &str, got: &GlobalTensor, want: &Tensor, tol: f64) -> Check {
    let got = got
        .to_sbp(Sbp::Broadcast)
        .and_then(|g| g.to_logical())
        .map_err(err)?;
    if got.sizes() != want.sizes() {
        return Err(format!(
            "{what}: sizes {:?} != {:?}",
            got.sizes(),
            want.sizes()
        ));
    }
    let (g, w) = (
        got.to_vec_f64().map_err(err)?,
        want.to_vec_f64().map_err(err)?,
    );
    let gap = g
        .iter()
        .zip(&w)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    if gap > tol {
        return Err(format!("{what}: largest difference {gap:e} > {tol:e}"));
    }
    Ok(())
}

/// The gradient of a global leaf, which must exist and have SBP `sbp`.
fn grad_of(what: &str, x: &GlobalTensor, sbp: Sbp) -> Result<GlobalTensor, String> {
    let g = x
        .grad()
        .map_err(err)?
        .ok_or_else(|| format!("{what}: no gradient"))?;
    if g.sbp() != sbp {
        return Err(format!("{what}: gradient SBP {} instead of {sbp}", g.sbp()));
    }
    Ok(g)
}

/// A data-parallel MLP: `relu(x @ w1 + b1) @ w2 + b2` with cross-entropy, the batch
/// (7 rows: uneven on 2-4 ranks) split along dim 0 and the parameters broadcast. The
/// loss is `PartialSum`, the parameters' gradients `PartialSum` (boxed to broadcast by
/// an all-reduce), the batch's split(0); all equal the single-process ones.
pub fn mlp_case(c: &Comm) -> Check {
    let p = Placement::all(c.world_size()).map_err(err)?;
    let x = eighths(&[7, 5], 1)?;
    let params = [
        eighths(&[5, 4], 2)?,
        eighths(&[4], 3)?,
        eighths(&[4, 3], 4)?,
        eighths(&[3], 5)?,
    ];
    let t = Tensor::from_vec((0..7).map(|i| i % 3).collect::<Vec<i64>>(), &[7]).map_err(err)?;
    // Single process.
    let leaf = |t: &Tensor| t.alias().requires_grad_(true).map_err(err);
    let (lx, lp) = (
        leaf(&x)?,
        params.iter().map(leaf).collect::<Result<Vec<_>, _>>()?,
    );
    let forward = |x: &Tensor, p: &[Tensor]| -> tensor_core::Result<Tensor> {
        let h = x.matmul(&p[0])?.add(&p[1])?.relu()?;
        cross_entropy(&h.matmul(&p[2])?.add(&p[3])?, &t, Reduction::Mean)
    };
    let want_loss = forward(&lx, &lp).map_err(err)?;
    want_loss.backward().map_err(err)?;
    // Global.
    let global = |t: &Tensor, sbp: Sbp| {
        GlobalTensor::from_logical(c, &t.detach(), &p, sbp)
            .and_then(|g| g.requires_grad_(true))
            .map_err(err)
    };
    let gx = global(&x, Sbp::Split(0))?;
    let gp = params
        .iter()
        .map(|t| global(t, Sbp::Broadcast))
        .collect::<Result<Vec<_>, _>>()?;
    let gt = GlobalTensor::from_logical(c, &t, &p, Sbp::Split(0)).map_err(err)?;
    let h = gx
        .matmul(&gp[0])
        .and_then(|y| y.add(&gp[1]))
        .and_then(|y| y.relu())
        .map_err(err)?;
    let scores = h.matmul(&gp[2]).and_then(|y| y.add(&gp[3])).map_err(err)?;
    let loss = scores.cross_entropy(&gt).map_err(err)?;
    if loss.sbp() != Sbp::PartialSum {
        return Err(format!("loss SBP {}", loss.sbp()));
    }
    close("loss", &loss, &want_loss.detach(), TOLERANCE)?;
    loss.backward().map_err(err)?;
    let want = |t: &Tensor| t.grad().ok_or("no single-process gradient".to_string());
    close(
        "x",
        &grad_of("x", &gx, Sbp::Split(0))?,
        &want(&lx)?,
        TOLERANCE,
    )?;
    for (i, (g, l)) in gp.iter().zip(&lp).enumerate() {
        let what = format!("parameter {i}");
        close(
            &what,
            &grad_of(&what, g, Sbp::PartialSum)?,
            &want(l)?,
            TOLERANCE,
        )?;
    }
    Ok(())
}

/// Every boxing `from → to` between split(0), split(1), broadcast and partial_sum,
/// differentiated: the loss `sum(x.to_sbp(to) * w)` has gradient `w` with respect to
/// `x`, which arrives in the dual SBP of `from` through the dual boxing (all-gather's
/// backward is a reduce-scatter, all-reduce's an all-reduce, a slice's a pad, ...).
pub fn boxing_case(c: &Comm) -> Check {
    let p = Placement::all(c.world_size()).map_err(err)?;
    let sbps = [
        Sbp::Split(0),
        Sbp::Split(1),
        Sbp::Broadcast,
        Sbp::PartialSum,
    ];
    let (x, w) = (eighths(&[5, 3], 6)?, eighths(&[5, 3], 7)?);
    let gw = GlobalTensor::from_logical(c, &w, &p, Sbp::Broadcast).map_err(err)?;
    for from in sbps {
        for to in sbps {
            let what = format!("{from} -> {to}");
            let gx = GlobalTensor::from_logical(c, &x, &p, from)
                .and_then(|g| g.requires_grad_(true))
                .map_err(err)?;
            let loss = gx
                .to_sbp(to)
                .and_then(|y| y.mul(&gw))
                .and_then(|y| y.sum(&[], false))
                .map_err(|e| format!("{what}: {e}"))?;
            loss.backward().map_err(|e| format!("{what}: {e}"))?;
            let dual = tensor_core::global::grad_sbp(from).map_err(err)?;
            close(&what, &grad_of(&what, &gx, dual)?, &w, 0.0)?;
        }
    }
    Ok(())
}

/// `matmul` under each of its signatures (`S(0)·B`, `B·S(1)`, `S(1)·S(0)` → partial,
/// `P·B`, `B·B`, and `S(0)·S(0)`, whose right operand is all-gathered in the forward and
/// reduce-scattered in the backward): both operands' gradients equal the
/// single-process ones.
pub fn matmul_case(c: &Comm) -> Check {
    use Sbp::{Broadcast as B, PartialSum as P, Split as S};
    let p = Placement::all(c.world_size()).map_err(err)?;
    let (a, b) = (eighths(&[5, 6], 8)?, eighths(&[6, 3], 9)?);
    let (la, lb) = (
        a.alias().requires_grad_(true).map_err(err)?,
        b.alias().requires_grad_(true).map_err(err)?,
    );
    let r = eighths(&[5, 3], 10)?;
    la.matmul(&lb)
        .and_then(|y| y.mul(&r))
        .and_then(|y| y.sum(&[], false))
        .and_then(|l| l.backward())
        .map_err(err)?;
    let (wa, wb) = (la.grad().ok_or("no grad")?, lb.grad().ok_or("no grad")?);
    let gr = GlobalTensor::from_logical(c, &r, &p, B).map_err(err)?;
    for (sa, sb) in [
        (S(0), B),
        (B, S(1)),
        (S(1), S(0)),
        (P, B),
        (B, B),
        (S(0), S(0)),
    ] {
        let what = format!("matmul {sa} · {sb}");
        let leaf = |t: &Tensor, sbp| {
            GlobalTensor::from_logical(c, t, &p, sbp)
                .and_then(|g| g.requires_grad_(true))
                .map_err(err)
        };
        let (ga, gb) = (leaf(&a, sa)?, leaf(&b, sb)?);
        ga.matmul(&gb)
            .and_then(|y| y.mul(&gr))
            .and_then(|y| y.sum(&[], false))
            .and_then(|l| l.backward())
            .map_err(|e| format!("{what}: {e}"))?;
        let da = tensor_core::global::grad_sbp(sa).map_err(err)?;
        let db = tensor_core::global::grad_sbp(sb).map_err(err)?;
        close(
            &format!("{what}, lhs"),
            &grad_of(&what, &ga, da)?,
            &wa,
            TOLERANCE,
        )?;
        close(
            &format!("{what}, rhs"),
            &grad_of(&what, &gb, db)?,
            &wb,
            TOLERANCE,
        )?;
    }
    Ok(())
}

/// A `partial_max` loss (amax over the split dim) has no gradient shard by shard: its
/// backward is an error naming the SBP, on every rank, not a wrong gradient; a loss of
/// more than one element is PyTorch's implicit-gradient error.
pub fn refused_case(c: &Comm) -> Check {
    let p = Placement::all(c.world_size()).map_err(err)?;
    let x = GlobalTensor::from_logical(c, &eighths(&[4], 11)?, &p, Sbp::Split(0))
        .and_then(|g| g.requires_grad_(true))
        .map_err(err)?;
    let m = x.amax(&[0], false).map_err(err)?;
    let e = m.backward().err().ok_or("a partial_max backward passed")?;
    if !e.to_string().contains("partial_max") {
        return Err(format!("unexpected error: {e}"));
    }
    let e = x.backward().err().ok_or("a 4-element backward passed")?;
    if !e.to_string().contains("implicitly created only for scalar") {
        return Err(format!("unexpected error: {e}"));
    }
    Ok(())
}

/// An SPMD case: a function of this rank's communicator.
pub type Case = fn(&Comm) -> Check;

/// The cases, by name, for the runners.
pub const CASES: [(&str, Case); 4] = [
    ("grad_mlp", mlp_case),
    ("grad_boxing", boxing_case),
    ("grad_matmul", matmul_case),
    ("grad_refused", refused_case),
];
