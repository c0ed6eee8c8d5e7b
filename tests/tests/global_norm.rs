//! Global softmax, log_softmax and layer_norm (tensor_core::global): on 2 and 3
//! in-process ranks, for every input SBP, the gathered output equals the op on the
//! logical tensor, has the SBP its signature function states, and this rank's shard
//! has the inferred physical shape; gradients through them equal the single-process
//! ones; a wrong call gives the logical call's error on every rank.
//!
//! Tolerance: a float32 result within 1e-6 of the logical one relative to its size
//! (at least 1): where the input stays split, each rank runs the row kernels on its
//! own rows, whose vector/tail split may differ from the logical op's by an ulp. The
//! gradient cases are float64, within 1e-12 (a parameter's gradient is summed over
//! each rank's rows, then over the ranks).

use std::time::Duration;
use tensor_core::global::{
    layer_norm_signature, physical_shape, run_ranks_with_timeout, softmax_signature, Comm,
    GlobalTensor, Placement, Sbp,
};
use tensor_core::nn::{layer_norm, log_softmax, softmax};
use tensor_core::{DType, Error, Tensor};

type Check = Result<(), String>;

/// Every wait for a peer is bounded: a broken collective fails the test, never hangs it.
const TIMEOUT: Duration = Duration::from_secs(20);

/// The logical shapes: uneven splits on 2 and 3 ranks, and a size-0 shard on 3 ranks
/// (`[2, 6]` split along dim 0).
const SHAPES: [&[usize]; 2] = [&[5, 4, 6], &[2, 6]];

fn err(e: Error) -> String {
    e.to_string()
}

/// Runs `case` on 2 and 3 in-process ranks and fails with every rank's message.
fn on_2_and_3_ranks(case: impl Fn(&Comm) -> Check + Sync) {
    for n in [2, 3] {
        let out = run_ranks_with_timeout(n, TIMEOUT, |c| Ok(case(&c)))
            .unwrap_or_else(|e| panic!("{n} ranks: {e}"));
        for (rank, r) in out.into_iter().enumerate() {
            if let Err(m) = r {
                panic!("{n} ranks, rank {rank}: {m}");
            }
        }
    }
}

/// A tensor of `sizes` and `dtype` whose elements are eighths in [-2, 2], fixed by
/// `salt`.
fn eighths(sizes: &[usize], salt: usize, dtype: DType) -> Result<Tensor, String> {
    let n: usize = sizes.iter().product();
    let data: Vec<f64> = (0..n)
        .map(|i| ((i * 37 + salt * 11) % 33) as f64 / 8.0 - 2.0)
        .collect();
    Tensor::from_vec(data, sizes)
        .and_then(|t| t.to_dtype(dtype))
        .map_err(err)
}

/// Every SBP of a tensor of `ndim` dims.
fn sbps(ndim: usize) -> Vec<Sbp> {
    let mut out: Vec<Sbp> = (0..ndim).map(Sbp::Split).collect();
    out.extend([
        Sbp::Broadcast,
        Sbp::PartialSum,
        Sbp::PartialMax,
        Sbp::PartialMin,
    ]);
    out
}

/// `got` against `want`: the same sizes and dtype, each element within `tol` times the
/// larger of 1 and the wanted value.
fn close(what: &str, got: &Tensor, want: &Tensor, tol: f64) -> Check {
    if got.sizes() != want.sizes() || got.dtype() != want.dtype() {
        return Err(format!(
            "{what}: sizes/dtype {:?} {} != {:?} {}",
            got.sizes(),
            got.dtype(),
            want.sizes(),
            want.dtype()
        ));
    }
    let (g, w) = (
        got.to_vec_f64().map_err(err)?,
        want.to_vec_f64().map_err(err)?,
    );
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        if (a - b).abs() > tol * b.abs().max(1.0) {
            return Err(format!("{what}: element {i}: {a} != {b}"));
        }
    }
    Ok(())
}

/// A global result: its SBP is `sbp`, this rank's shard has the inferred physical
/// shape, and gathered it is `want` within 1e-6.
fn check(what: &str, got: &GlobalTensor, want: &Tensor, sbp: Sbp) -> Check {
    if got.sbp() != sbp {
        return Err(format!("{what}: SBP {} instead of {sbp}", got.sbp()));
    }
    let p = got.placement();
    let shard = physical_shape(got.sizes(), sbp, p.len(), got.parallel_index()).map_err(err)?;
    if got.local().sizes() != shard.as_slice() {
        return Err(format!(
            "{what}: shard {:?}, inferred {shard:?}",
            got.local().sizes()
        ));
    }
    close(what, &got.to_logical().map_err(err)?, want, 1e-6)
}

/// softmax and log_softmax over every dim (and dim -1) of every input SBP.
fn softmax_case(c: &Comm) -> Check {
    let p = Placement::all(c.world_size()).map_err(err)?;
    for sizes in SHAPES {
        let logical = eighths(sizes, 1, DType::F32)?;
        for sbp in sbps(sizes.len()) {
            let x = GlobalTensor::from_logical(c, &logical, &p, sbp).map_err(err)?;
            let last = sizes.len() as i64 - 1;
            for dim in (0..=last).chain([-1]) {
                let wrapped = if dim < 0 { last } else { dim } as usize;
                let out = softmax_signature(sbp, wrapped).output;
                let what = format!("softmax({dim}) of {sizes:?} {sbp}");
                let want = softmax(&logical, dim).map_err(err)?;
                check(&what, &x.softmax(dim).map_err(err)?, &want, out)?;
                let what = format!("log_softmax({dim}) of {sizes:?} {sbp}");
                let want = log_softmax(&logical, dim).map_err(err)?;
                check(&what, &x.log_softmax(dim).map_err(err)?, &want, out)?;
            }
        }
    }
    Ok(())
}

/// layer_norm over the last dim and the last two dims of every input SBP, with no
/// parameters, a weight, a bias and both (the weight given split, the bias partial,
/// so that both are boxed to broadcast).
fn layer_norm_case(c: &Comm) -> Check {
    let p = Placement::all(c.world_size()).map_err(err)?;
    let cases: [(&[usize], &[usize]); 3] =
        [(&[5, 4, 6], &[6]), (&[5, 4, 6], &[4, 6]), (&[2, 6], &[6])];
    for (sizes, normalized) in cases {
        let logical = eighths(sizes, 1, DType::F32)?;
        let (w, b) = (
            eighths(normalized, 2, DType::F32)?,
            eighths(normalized, 3, DType::F32)?,
        );
        let gw = GlobalTensor::from_logical(c, &w, &p, Sbp::Split(0)).map_err(err)?;
        let gb = GlobalTensor::from_logical(c, &b, &p, Sbp::PartialSum).map_err(err)?;
        for sbp in sbps(sizes.len()) {
            let x = GlobalTensor::from_logical(c, &logical, &p, sbp).map_err(err)?;
            for (has_w, has_b) in [(false, false), (true, false), (false, true), (true, true)] {
                let params = usize::from(has_w) + usize::from(has_b);
                let out = layer_norm_signature(sbp, sizes.len(), normalized.len(), params).output;
                let what = format!(
                    "layer_norm({normalized:?}, weight {has_w}, bias {has_b}) of {sizes:?} {sbp}"
                );
                let got = x
                    .layer_norm(normalized, has_w.then_some(&gw), has_b.then_some(&gb), 1e-5)
                    .map_err(err)?;
                let want = layer_norm(
                    &logical,
                    normalized,
                    has_w.then_some(&w),
                    has_b.then_some(&b),
                    1e-5,
                )
                .map_err(err)?;
                check(&what, &got, &want, out)?;
            }
        }
    }
    Ok(())
}

/// The gradient of a global leaf, gathered.
fn grad(what: &str, x: &GlobalTensor) -> Result<Tensor, String> {
    x.grad()
        .map_err(err)?
        .ok_or_else(|| format!("{what}: no gradient"))?
        .to_sbp(Sbp::Broadcast)
        .and_then(|g| g.to_logical())
        .map_err(err)
}

/// The single-process gradient of a leaf.
fn want_grad(what: &str, t: &Tensor) -> Result<Tensor, String> {
    t.grad()
        .ok_or_else(|| format!("{what}: no single-process gradient"))
}

/// A float64 broadcast leaf `x` of `[5, 6]`, boxed to each SBP, through softmax,
/// log_softmax and layer_norm (with a broadcast weight and bias that require grad);
/// the loss `sum(y * k)` for a fixed `k` (a plain sum of a softmax has gradient 0).
/// The gradients of `x`, the weight and the bias equal the single-process ones.
fn grad_case(c: &Comm) -> Check {
    let p = Placement::all(c.world_size()).map_err(err)?;
    let (x, w, b, k) = (
        eighths(&[5, 6], 1, DType::F64)?,
        eighths(&[6], 2, DType::F64)?,
        eighths(&[6], 3, DType::F64)?,
        eighths(&[5, 6], 4, DType::F64)?,
    );
    let gk = GlobalTensor::from_logical(c, &k, &p, Sbp::Broadcast).map_err(err)?;
    let leaf = |t: &Tensor| t.alias().requires_grad_(true).map_err(err);
    let global_leaf = |t: &Tensor| {
        GlobalTensor::from_logical(c, t, &p, Sbp::Broadcast)
            .and_then(|g| g.requires_grad_(true))
            .map_err(err)
    };
    for op in ["softmax", "log_softmax", "layer_norm"] {
        for sbp in [
            Sbp::Split(0),
            Sbp::Split(1),
            Sbp::Broadcast,
            Sbp::PartialSum,
        ] {
            let what = format!("{op} of {sbp}");
            let (lx, lw, lb) = (leaf(&x)?, leaf(&w)?, leaf(&b)?);
            let y = match op {
                "softmax" => softmax(&lx, -1),
                "log_softmax" => log_softmax(&lx, -1),
                _ => layer_norm(&lx, &[6], Some(&lw), Some(&lb), 1e-5),
            };
            let loss = y.and_then(|y| y.mul(&k)?.sum(&[], false)).map_err(err)?;
            loss.backward().map_err(err)?;
            let (gx, gw, gb) = (global_leaf(&x)?, global_leaf(&w)?, global_leaf(&b)?);
            let xs = gx.to_sbp(sbp).map_err(err)?;
            let y = match op {
                "softmax" => xs.softmax(-1),
                "log_softmax" => xs.log_softmax(-1),
                _ => xs.layer_norm(&[6], Some(&gw), Some(&gb), 1e-5),
            };
            let gloss = y.and_then(|y| y.mul(&gk)?.sum(&[], false)).map_err(err)?;
            close(
                &format!("{what}: loss"),
                &gloss.to_logical().map_err(err)?,
                &loss.detach(),
                1e-12,
            )?;
            gloss.backward().map_err(err)?;
            close(&what, &grad(&what, &gx)?, &want_grad(&what, &lx)?, 1e-12)?;
            if op == "layer_norm" {
                let (ww, wb) = (format!("{what}: weight"), format!("{what}: bias"));
                close(&ww, &grad(&ww, &gw)?, &want_grad(&ww, &lw)?, 1e-12)?;
                close(&wb, &grad(&wb, &gb)?, &want_grad(&wb, &lb)?, 1e-12)?;
            }
        }
    }
    Ok(())
}

/// `got` failed with the logical call's message.
fn same_error<T: std::fmt::Debug>(
    what: &str,
    got: tensor_core::Result<T>,
    want: tensor_core::Result<Tensor>,
) -> Check {
    match (got, want) {
        (Err(g), Err(w)) if g.to_string() == w.to_string() => Ok(()),
        (Err(g), Err(w)) => Err(format!("{what}: global said `{g}`, logical `{w}`")),
        (g, w) => Err(format!(
            "{what}: expected both to fail, got {:?} and {:?}",
            g.map(|_| ()),
            w.map(|t| t.sizes().to_vec())
        )),
    }
}

/// Wrong calls fail on every rank with the single-process op's message: a dim out of
/// range, an integer softmax where some shard is empty, layer_norm's shape and dtype
/// checks.
fn error_case(c: &Comm) -> Check {
    let p = Placement::all(c.world_size()).map_err(err)?;
    let logical = eighths(&[5, 4, 6], 1, DType::F32)?;
    let x = GlobalTensor::from_logical(c, &logical, &p, Sbp::Split(0)).map_err(err)?;
    same_error("softmax(3)", x.softmax(3), softmax(&logical, 3))?;
    let dim_message = "Dimension out of range (expected to be in range of [-3, 2], but got 3)";
    if let Err(e) = x.softmax(3) {
        if e.to_string() != dim_message {
            return Err(format!("softmax(3): `{e}`"));
        }
    }
    same_error(
        "log_softmax(-4)",
        x.log_softmax(-4),
        log_softmax(&logical, -4),
    )?;
    let ints = eighths(&[2, 6], 1, DType::I64)?;
    let xi = GlobalTensor::from_logical(c, &ints, &p, Sbp::Split(0)).map_err(err)?;
    same_error("integer softmax", xi.softmax(-1), softmax(&ints, -1))?;
    same_error(
        "layer_norm([4])",
        x.layer_norm(&[4], None, None, 1e-5),
        layer_norm(&logical, &[4], None, None, 1e-5),
    )?;
    same_error(
        "layer_norm([])",
        x.layer_norm(&[], None, None, 1e-5),
        layer_norm(&logical, &[], None, None, 1e-5),
    )?;
    let w5 = eighths(&[5], 2, DType::F32)?;
    let gw5 = GlobalTensor::from_logical(c, &w5, &p, Sbp::Broadcast).map_err(err)?;
    same_error(
        "layer_norm weight [5]",
        x.layer_norm(&[6], Some(&gw5), None, 1e-5),
        layer_norm(&logical, &[6], Some(&w5), None, 1e-5),
    )?;
    let b64 = eighths(&[6], 3, DType::F64)?;
    let gb64 = GlobalTensor::from_logical(c, &b64, &p, Sbp::Split(0)).map_err(err)?;
    same_error(
        "layer_norm f64 bias",
        x.layer_norm(&[6], None, Some(&gb64), 1e-5),
        layer_norm(&logical, &[6], None, Some(&b64), 1e-5),
    )
}

#[test]
fn global_softmax_and_log_softmax_equal_the_logical_op_under_every_sbp() {
    on_2_and_3_ranks(softmax_case);
}

#[test]
fn global_layer_norm_equals_the_logical_op_under_every_sbp_and_params() {
    on_2_and_3_ranks(layer_norm_case);
}

#[test]
fn global_norm_gradients_equal_the_single_process_ones() {
    on_2_and_3_ranks(grad_case);
}

#[test]
fn global_norm_errors_are_the_logical_calls_on_every_rank() {
    on_2_and_3_ranks(error_case);
}
