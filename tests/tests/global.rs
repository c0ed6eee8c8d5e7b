//! Global tensors (tensor_core::global): every global op, gathered, equals the same op
//! on the logical tensor (values, sizes, dtype), and every rank's shard has the physical
//! shape inference predicts; boxing between every pair of SBPs; the worked expand
//! example; uneven splits, size-0 shards, and errors for invalid SBPs and placements.
//!
//! The cases are SPMD functions of a communicator: the tests run them on 1–4
//! in-process ranks; `scripts/mpi_test.sh` runs the same cases under `mpirun` through
//! the ignored test `mpi_suite` (tensor-core built with its `mpi` feature).

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tensor_core::global::{
    mpi_comm, physical_shape, run_ranks_with_timeout, Comm, GlobalTensor, Placement, Sbp,
};
use tensor_core::{BinaryOp, DType, Error, Tensor, UnaryOp};

type Check = Result<(), String>;

/// Cases where the global and the logical op both succeeded / both failed, so the
/// random test can check that it mostly compares values, not errors.
static BOTH_OK: AtomicUsize = AtomicUsize::new(0);
static BOTH_ERR: AtomicUsize = AtomicUsize::new(0);

/// Every wait for a peer is bounded: a broken collective fails the test, never hangs it.
const TIMEOUT: Duration = Duration::from_secs(20);

const DTYPES: [DType; 9] = [
    DType::F32,
    DType::F64,
    DType::F16,
    DType::BF16,
    DType::I64,
    DType::I32,
    DType::I8,
    DType::U8,
    DType::Bool,
];

fn err(e: Error) -> String {
    e.to_string()
}

/// Runs `case` on `n` in-process ranks and fails with every rank's message.
fn on_ranks(n: usize, case: impl Fn(&Comm) -> Check + Sync) {
    let out = run_ranks_with_timeout(n, TIMEOUT, |c| Ok(case(&c)))
        .unwrap_or_else(|e| panic!("{n} ranks: {e}"));
    for (rank, r) in out.into_iter().enumerate() {
        if let Err(m) = r {
            panic!("{n} ranks, rank {rank}: {m}");
        }
    }
}

// ---- random logical tensors and their shards ---------------------------------------

/// Small values every dtype holds exactly: eighths in [-5, 5] for floats, integers in
/// [-9, 9] ([0, 9] for u8), 0/1 for bool.
fn random_tensor(rng: &mut ChaCha8Rng, sizes: &[usize], dtype: DType) -> Tensor {
    let n: usize = sizes.iter().product();
    let data: Vec<f64> = (0..n)
        .map(|_| match dtype {
            DType::Bool => rng.random_range(0..2) as f64,
            DType::U8 => rng.random_range(0..10) as f64,
            d if d.is_floating() => rng.random_range(-40..=40) as f64 / 8.0,
            _ => rng.random_range(-9..=9) as f64,
        })
        .collect();
    Tensor::from_vec(data, sizes)
        .unwrap()
        .to_dtype(dtype)
        .unwrap()
}

fn random_sizes(rng: &mut ChaCha8Rng, min_dims: usize, max_dims: usize) -> Vec<usize> {
    let ndim = rng.random_range(min_dims..=max_dims);
    (0..ndim)
        .map(|_| {
            if rng.random_bool(0.08) {
                0
            } else {
                rng.random_range(1..=5)
            }
        })
        .collect()
}

fn random_sbp(rng: &mut ChaCha8Rng, ndim: usize) -> Sbp {
    match rng.random_range(0..6) {
        0 | 1 if ndim > 0 => Sbp::Split(rng.random_range(0..ndim)),
        2 => Sbp::PartialSum,
        3 => Sbp::PartialMax,
        4 => Sbp::PartialMin,
        _ => Sbp::Broadcast,
    }
}

/// A global tensor and its logical value. Every rank draws the same numbers: the whole
/// tensor, or for a partial SBP every rank's shard, reduced in rank order.
fn random_global(
    c: &Comm,
    rng: &mut ChaCha8Rng,
    sizes: &[usize],
    dtype: DType,
    sbp: Sbp,
) -> Result<(GlobalTensor, Tensor), String> {
    let placement = Placement::all(c.world_size()).map_err(err)?;
    let n = placement.len();
    let Some(op) = sbp.partial_op() else {
        let logical = random_tensor(rng, sizes, dtype);
        let g = GlobalTensor::from_logical(c, &logical, &placement, sbp).map_err(err)?;
        return Ok((g, logical));
    };
    let shards: Vec<Tensor> = (0..n).map(|_| random_tensor(rng, sizes, dtype)).collect();
    let mut logical = shards[0].contiguous().map_err(err)?;
    for s in &shards[1..] {
        logical = match op {
            tensor_core::global::ReduceOp::Sum => logical.add(s),
            tensor_core::global::ReduceOp::Max => logical.maximum(s),
            tensor_core::global::ReduceOp::Min => logical.minimum(s),
        }
        .map_err(err)?;
    }
    let local = shards[c.rank()].contiguous().map_err(err)?;
    let g = GlobalTensor::from_local(c, local, sizes, &placement, sbp).map_err(err)?;
    Ok((g, logical))
}

// ---- comparisons ----------------------------------------------------------------------

/// `got` equals `want` in sizes and dtype, and in values: exactly for integers and
/// bool, within a tolerance for floats (the ranks may add partial results in another
/// order than the logical op).
fn same(got: &Tensor, want: &Tensor) -> Check {
    if got.sizes() != want.sizes() || got.dtype() != want.dtype() {
        return Err(format!(
            "sizes/dtype {:?} {} != {:?} {}",
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
    let (rtol, atol) = match got.dtype() {
        DType::F64 => (1e-9, 1e-9),
        DType::F32 => (1e-4, 1e-3),
        DType::F16 => (1e-2, 0.1),
        DType::BF16 => (3e-2, 0.5),
        _ => (0.0, 0.0),
    };
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        let ok = a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= atol + rtol * b.abs();
        if !ok {
            return Err(format!("element {i}: {a} != {b} ({})", got.dtype()));
        }
    }
    Ok(())
}

/// The global result against the logical one: both errors, or the gathered tensor
/// equals the logical result and this rank's shard has the inferred physical shape.
fn check_op(
    what: &str,
    global: tensor_core::Result<GlobalTensor>,
    logical: tensor_core::Result<Tensor>,
) -> Check {
    match (global, logical) {
        (Err(_), Err(_)) => {
            BOTH_ERR.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        (Ok(g), Ok(l)) => {
            BOTH_OK.fetch_add(1, Ordering::Relaxed);
            let p = g.placement();
            let want =
                physical_shape(g.sizes(), g.sbp(), p.len(), g.parallel_index()).map_err(err)?;
            if g.local().sizes() != want.as_slice() {
                return Err(format!(
                    "{what}: local sizes {:?}, inferred {want:?} ({})",
                    g.local().sizes(),
                    g.sbp()
                ));
            }
            let gathered = g.to_logical().map_err(|e| format!("{what}: gather: {e}"))?;
            same(&gathered, &l).map_err(|m| format!("{what} ({}): {m}", g.sbp()))
        }
        (Ok(g), Err(e)) => Err(format!(
            "{what}: global gave {:?}, logical failed: {e}",
            g.sizes()
        )),
        (Err(e), Ok(_)) => Err(format!("{what}: global failed ({e}), logical did not")),
    }
}

// ---- random op cases ------------------------------------------------------------------

fn pick<T: Copy>(rng: &mut ChaCha8Rng, xs: &[T]) -> T {
    xs[rng.random_range(0..xs.len())]
}

/// A shape that broadcasts with `sizes`: leading dims dropped, some dims set to 1.
fn broadcastable(rng: &mut ChaCha8Rng, sizes: &[usize]) -> Vec<usize> {
    let drop = rng.random_range(0..=sizes.len());
    sizes[drop..]
        .iter()
        .map(|&s| if rng.random_bool(0.3) { 1 } else { s })
        .collect()
}

fn random_reshape(rng: &mut ChaCha8Rng, sizes: &[usize]) -> Vec<i64> {
    let mut out: Vec<i64> = sizes.iter().map(|&s| s as i64).collect();
    match rng.random_range(0..4) {
        0 if out.len() >= 2 => {
            let i = rng.random_range(0..out.len() - 1);
            let merged = out[i] * out[i + 1];
            out.splice(i..i + 2, [merged]);
        }
        1 => {
            let i = rng.random_range(0..=out.len());
            out.insert(i, 1);
        }
        2 if !out.is_empty() => {
            let i = rng.random_range(0..out.len());
            if let Some(f) = [2, 3].into_iter().find(|f| out[i] > *f && out[i] % f == 0) {
                let rest = out[i] / f;
                out.splice(i..=i, [f, rest]);
            }
        }
        _ => out = vec![sizes.iter().product::<usize>() as i64],
    }
    if !out.is_empty() && rng.random_bool(0.3) {
        let i = rng.random_range(0..out.len());
        out[i] = -1;
    }
    out
}

fn random_expand(rng: &mut ChaCha8Rng, sizes: &[usize]) -> Vec<i64> {
    let lead = rng.random_range(0..=2);
    let mut out: Vec<i64> = (0..lead).map(|_| rng.random_range(1..=3)).collect();
    for &s in sizes {
        out.push(match s {
            1 => pick(rng, &[1, 2, 3, -1]),
            _ if rng.random_bool(0.3) => -1,
            s => s as i64,
        });
    }
    out
}

/// One random op on one random global tensor; `k` names the case in messages.
fn random_case(c: &Comm, seed: u64) -> Check {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let kind = rng.random_range(0..9);
    let dtype = pick(&mut rng, &DTYPES);
    let sizes = random_sizes(&mut rng, if kind == 8 { 1 } else { 0 }, 4);
    let sbp = random_sbp(&mut rng, sizes.len());
    let (x, lx) = random_global(c, &mut rng, &sizes, dtype, sbp)?;
    let what = format!("case {seed}: {sizes:?} {dtype} {sbp}");
    match kind {
        0 => {
            // One of the op table's unary ops, or a cast.
            let u = rng.random_range(0..=UnaryOp::ALL.len());
            let to = pick(&mut rng, &DTYPES);
            let (name, g, l) = match UnaryOp::ALL.get(u) {
                Some(&op) => (op.name(), x.unary(op), lx.unary(op)),
                None => ("to", x.to_dtype(to), lx.to_dtype(to)),
            };
            check_op(&format!("{what} {name}"), g, l)
        }
        1 => {
            let other = broadcastable(&mut rng, &sizes);
            let odtype = if rng.random_bool(0.5) {
                dtype
            } else {
                pick(&mut rng, &DTYPES)
            };
            let osbp = random_sbp(&mut rng, other.len());
            let (y, ly) = random_global(c, &mut rng, &other, odtype, osbp)?;
            let (a, la, b, lb) = if rng.random_bool(0.5) {
                (&x, &lx, &y, &ly)
            } else {
                (&y, &ly, &x, &lx)
            };
            let op = BinaryOp::ALL[rng.random_range(0..BinaryOp::ALL.len())];
            let (g, l) = (a.binary(op, b), la.binary(op, lb));
            let desc = format!("{what} {} with {other:?} {odtype} {osbp}", op.name());
            check_op(&desc, g, l)
        }
        2 => {
            let ndim = sizes.len() as i64;
            let mut dims: Vec<i64> = (0..ndim).filter(|_| rng.random_bool(0.4)).collect();
            if rng.random_bool(0.3) {
                dims.iter_mut().for_each(|d| *d -= ndim);
            }
            let keepdim = rng.random_bool(0.5);
            let op = rng.random_range(0..3);
            let (g, l) = match op {
                0 => (x.sum(&dims, keepdim), lx.sum(&dims, keepdim)),
                1 => (x.amax(&dims, keepdim), lx.amax(&dims, keepdim)),
                _ => (x.amin(&dims, keepdim), lx.amin(&dims, keepdim)),
            };
            check_op(
                &format!("{what} reduce {op} {dims:?} keepdim={keepdim}"),
                g,
                l,
            )
        }
        3 => {
            let e = random_expand(&mut rng, &sizes);
            check_op(&format!("{what} expand {e:?}"), x.expand(&e), lx.expand(&e))
        }
        4 => {
            let lead = rng.random_range(0..=1);
            let r: Vec<i64> = (0..sizes.len() + lead)
                .map(|_| pick(&mut rng, &[1, 1, 2, 3]))
                .collect();
            check_op(&format!("{what} repeat {r:?}"), x.repeat(&r), lx.repeat(&r))
        }
        5 | 6 => {
            let shape = random_reshape(&mut rng, &sizes);
            if kind == 5 {
                check_op(
                    &format!("{what} reshape {shape:?}"),
                    x.reshape(&shape),
                    lx.reshape(&shape),
                )
            } else {
                check_op(
                    &format!("{what} view {shape:?}"),
                    x.view(&shape),
                    lx.view(&shape),
                )
            }
        }
        7 => {
            let mut dims: Vec<i64> = (0..sizes.len() as i64).collect();
            for i in (1..dims.len()).rev() {
                dims.swap(i, rng.random_range(0..=i));
            }
            check_op(
                &format!("{what} permute {dims:?}"),
                x.permute(&dims),
                lx.permute(&dims),
            )
        }
        _ => {
            // matmul: a fresh 2-D pair, sharing the inner size.
            let (m, k, n) = (
                rng.random_range(0..=5),
                rng.random_range(0..=5),
                rng.random_range(0..=5),
            );
            let dt = pick(
                &mut rng,
                &[DType::F32, DType::F64, DType::I64, DType::I32, DType::F16],
            );
            let (sa, sb) = (random_sbp(&mut rng, 2), random_sbp(&mut rng, 2));
            let (a, la) = random_global(c, &mut rng, &[m, k], dt, sa)?;
            let (b, lb) = random_global(c, &mut rng, &[k, n], dt, sb)?;
            let desc = format!("case {seed}: matmul [{m}, {k}] {sa} · [{k}, {n}] {sb} {dt}");
            check_op(&desc, a.matmul(&b), la.matmul(&lb))
        }
    }
}

/// Boxing from a random SBP to every SBP: each rank's shard is exactly the inferred
/// part of the logical tensor (partial targets: the gathered value), for every pair.
fn boxing_case(c: &Comm, seed: u64) -> Check {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let dtype = pick(&mut rng, &DTYPES);
    let sizes = random_sizes(&mut rng, 1, 3);
    let from = random_sbp(&mut rng, sizes.len());
    let (x, lx) = random_global(c, &mut rng, &sizes, dtype, from)?;
    let mut targets = vec![
        Sbp::Broadcast,
        Sbp::PartialSum,
        Sbp::PartialMax,
        Sbp::PartialMin,
    ];
    targets.extend((0..sizes.len()).map(Sbp::Split));
    for to in targets {
        let what = format!("case {seed}: {sizes:?} {dtype} {from} -> {to}");
        let y = x.to_sbp(to).map_err(|e| format!("{what}: {e}"))?;
        if let Sbp::Split(d) = to {
            let r = tensor_core::global::split_range(sizes[d], c.world_size(), y.parallel_index())
                .map_err(err)?;
            let want = lx.narrow(d as i64, r.start as i64, r.len()).map_err(err)?;
            same(y.local(), &want).map_err(|m| format!("{what}: {m}"))?;
        }
        if to == Sbp::Broadcast {
            same(y.local(), &lx).map_err(|m| format!("{what}: {m}"))?;
        }
        check_op(&what, Ok(y), Ok(lx.alias()))?;
    }
    Ok(())
}

/// The random cases `0..count` of `seed_base`: the number that passed, and the
/// failures. Stops at the first failure: a rank that failed alone may have left the
/// others inside a collective, so later cases would only report the echo.
fn random_suite(c: &Comm, seed_base: u64, count: u64) -> (usize, Vec<String>) {
    let mut passed = 0;
    for k in 0..count {
        let seed = seed_base + k;
        let r = if k % 4 == 3 {
            boxing_case(c, seed)
        } else {
            random_case(c, seed)
        };
        match r {
            Ok(()) => passed += 1,
            Err(m) => return (passed, vec![m]),
        }
    }
    (passed, Vec::new())
}

// ---- fixed cases --------------------------------------------------------------------------

/// The worked example of a global expand on 2 ranks: logical [4, 3, 1, 2] split(3), expand to
/// [2, 4, 3, 4, 2]: each rank's input is [4, 3, 1, 1] with strides [3, 1, 1, 1], its
/// expand_size [2, 4, 3, 4, 1] and its output strides [0, 3, 1, 0, 1].
fn seed_expand_case(c: &Comm) -> Check {
    let logical = Tensor::arange(24, DType::F32)
        .map_err(err)?
        .reshape(&[4, 3, 1, 2])
        .map_err(err)?;
    let placement = Placement::new(&[0, 1]).map_err(err)?;
    if placement.index_of(c.rank()).is_none() {
        return Ok(());
    }
    let x = GlobalTensor::from_logical(c, &logical, &placement, Sbp::Split(3)).map_err(err)?;
    if x.local().sizes() != [4, 3, 1, 1] || x.local().strides() != [3, 1, 1, 1] {
        return Err(format!(
            "input shard {:?} {:?}",
            x.local().sizes(),
            x.local().strides()
        ));
    }
    let y = x.expand(&[2, 4, 3, 4, 2]).map_err(err)?;
    if y.sizes() != [2, 4, 3, 4, 2] || y.sbp() != Sbp::Split(4) {
        return Err(format!("output {:?} {}", y.sizes(), y.sbp()));
    }
    if y.local().sizes() != [2, 4, 3, 4, 1] || y.local().strides() != [0, 3, 1, 0, 1] {
        return Err(format!(
            "output shard {:?} {:?}",
            y.local().sizes(),
            y.local().strides()
        ));
    }
    let want = logical.expand(&[2, 4, 3, 4, 2]).map_err(err)?;
    if want.strides() != [0, 6, 2, 0, 1] {
        return Err(format!("logical strides {:?}", want.strides()));
    }
    same(&y.to_logical().map_err(err)?, &want)
}

/// [5, 3] split(0) on the world: the balanced rule (3 ranks: 2, 2, 1; 4 ranks: 2, 1, 1, 1),
/// and a sum over the split dim is a partial sum whose all-reduce is the logical sum.
fn uneven_split_case(c: &Comm) -> Check {
    let n = c.world_size();
    let logical = Tensor::arange(15, DType::I64)
        .map_err(err)?
        .reshape(&[5, 3])
        .map_err(err)?;
    let placement = Placement::all(n).map_err(err)?;
    let x = GlobalTensor::from_logical(c, &logical, &placement, Sbp::Split(0)).map_err(err)?;
    let r = c.rank();
    let rows = 5 / n + usize::from(r < 5 % n);
    if x.local().sizes() != [rows, 3] {
        return Err(format!("rank {r} of {n}: shard {:?}", x.local().sizes()));
    }
    let s = x.sum(&[0], false).map_err(err)?;
    if s.sbp() != Sbp::PartialSum {
        return Err(format!("sum over the split dim gave {}", s.sbp()));
    }
    same(
        &s.to_logical().map_err(err)?,
        &logical.sum(&[0], false).map_err(err)?,
    )
}

/// [2, 3] split(0) on up to 4 ranks: ranks 2 and 3 hold [0, 3] shards, and every op and
/// boxing still works.
fn empty_shard_case(c: &Comm) -> Check {
    let logical = Tensor::arange(6, DType::F64)
        .map_err(err)?
        .reshape(&[2, 3])
        .map_err(err)?;
    let placement = Placement::all(c.world_size()).map_err(err)?;
    let x = GlobalTensor::from_logical(c, &logical, &placement, Sbp::Split(0)).map_err(err)?;
    let n = c.world_size();
    let rows = 2 / n + usize::from(c.rank() < 2 % n);
    if x.local().sizes() != [rows, 3] {
        return Err(format!("shard {:?}", x.local().sizes()));
    }
    check_op("empty exp", x.exp(), logical.exp())?;
    check_op("empty amax", x.amax(&[0], false), logical.amax(&[0], false))?;
    check_op(
        "empty to S(1)",
        x.to_sbp(Sbp::Split(1)),
        Ok(logical.alias()),
    )?;
    check_op("empty to P", x.to_sbp(Sbp::PartialMax), Ok(logical.alias()))?;
    let w = GlobalTensor::from_logical(
        c,
        &logical.t().map_err(err)?.contiguous().map_err(err)?,
        &placement,
        Sbp::Broadcast,
    )
    .map_err(err)?;
    check_op(
        "empty matmul",
        x.matmul(&w),
        logical.matmul(&logical.t().map_err(err)?),
    )
}

/// The matmul signatures (S(0)·B, B·S(1), S(1)·S(0), ..) give the SBPs they promise.
fn matmul_signature_case(c: &Comm) -> Check {
    let placement = Placement::all(c.world_size()).map_err(err)?;
    let a = Tensor::arange(12, DType::F64)
        .map_err(err)?
        .reshape(&[4, 3])
        .map_err(err)?;
    let b = Tensor::arange(15, DType::F64)
        .map_err(err)?
        .reshape(&[3, 5])
        .map_err(err)?;
    let want = a.matmul(&b).map_err(err)?;
    for (sa, sb, out) in [
        (Sbp::Split(0), Sbp::Broadcast, Sbp::Split(0)),
        (Sbp::Broadcast, Sbp::Split(1), Sbp::Split(1)),
        (Sbp::Split(1), Sbp::Split(0), Sbp::PartialSum),
        (Sbp::PartialSum, Sbp::Broadcast, Sbp::PartialSum),
    ] {
        let x = GlobalTensor::from_logical(c, &a, &placement, sa).map_err(err)?;
        let y = GlobalTensor::from_logical(c, &b, &placement, sb).map_err(err)?;
        let z = x.matmul(&y).map_err(err)?;
        if z.sbp() != out {
            return Err(format!("{sa}·{sb} gave {}, not {out}", z.sbp()));
        }
        same(&z.to_logical().map_err(err)?, &want)?;
    }
    Ok(())
}

/// A placement over some ranks: the others hold nothing and take no part.
fn sub_placement_case(c: &Comm) -> Check {
    if c.world_size() < 3 {
        return Ok(());
    }
    let placement = Placement::new(&[2, 0]).map_err(err)?;
    let logical = Tensor::arange(10, DType::I32)
        .map_err(err)?
        .reshape(&[5, 2])
        .map_err(err)?;
    let made = GlobalTensor::from_logical(c, &logical, &placement, Sbp::Split(0));
    let Some(index) = placement.index_of(c.rank()) else {
        return match made {
            Err(_) => Ok(()),
            Ok(_) => Err("a rank outside the placement got a shard".into()),
        };
    };
    let x = made.map_err(err)?;
    let rows = if index == 0 { 3 } else { 2 };
    if x.local().sizes() != [rows, 2] {
        return Err(format!("shard {:?}", x.local().sizes()));
    }
    check_op(
        "sub-placement transpose",
        x.permute(&[1, 0]).and_then(|t| t.to_sbp(Sbp::Split(0))),
        logical.permute(&[1, 0]),
    )
}

/// Invalid SBPs and placements are errors on every rank, and nothing hangs.
fn invalid_case(c: &Comm) -> Check {
    let n = c.world_size();
    let placement = Placement::all(n).map_err(err)?;
    let t = Tensor::zeros(&[2, 3], DType::F32).map_err(err)?;
    let expect_err = |what: &str, r: tensor_core::Result<GlobalTensor>, needle: &str| -> Check {
        match r {
            Ok(_) => Err(format!("{what}: no error")),
            Err(e) if e.to_string().contains(needle) => Ok(()),
            Err(e) => Err(format!("{what}: {e} does not contain {needle:?}")),
        }
    };
    expect_err(
        "split dim out of range",
        GlobalTensor::from_logical(c, &t, &placement, Sbp::Split(2)),
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    )?;
    let x = GlobalTensor::from_logical(c, &t, &placement, Sbp::Split(0)).map_err(err)?;
    expect_err(
        "to_sbp out of range",
        x.to_sbp(Sbp::Split(5)),
        "Dimension out of range",
    )?;
    expect_err(
        "placement outside the world",
        GlobalTensor::from_logical(
            c,
            &t,
            &Placement::new(&[0, n]).map_err(err)?,
            Sbp::Broadcast,
        ),
        "out of range for a world",
    )?;
    expect_err(
        "wrong local shape",
        GlobalTensor::from_local(
            c,
            Tensor::zeros(&[7, 3], DType::F32).map_err(err)?,
            &[2, 3],
            &placement,
            Sbp::Split(0),
        ),
        "holds a local tensor of sizes [7, 3]",
    )?;
    if Placement::new(&[0, 0]).is_ok() {
        return Err("a placement with a repeated rank".into());
    }
    let y = GlobalTensor::from_logical(
        c,
        &Tensor::zeros(&[4, 3], DType::F32).map_err(err)?,
        &placement,
        Sbp::Broadcast,
    )
    .map_err(err)?;
    expect_err(
        "broadcast mismatch",
        x.add(&y),
        "The size of tensor a (2) must match the size of tensor b (4)",
    )?;
    expect_err(
        "matmul mismatch",
        x.matmul(&y),
        "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x3)",
    )?;
    expect_err(
        "permute rank",
        x.permute(&[0]),
        "number of dimensions in the tensor input does not match",
    )?;
    expect_err(
        "reshape",
        x.reshape(&[5]),
        "shape '[5]' is invalid for input of size 6",
    )?;
    if n > 1 {
        let other = Placement::new(&(0..n).rev().collect::<Vec<_>>()).map_err(err)?;
        let z = GlobalTensor::from_logical(c, &t, &other, Sbp::Broadcast).map_err(err)?;
        expect_err(
            "mismatched placements",
            x.add(&z),
            "Expected all tensors to be on the same placement",
        )?;
    }
    Ok(())
}

/// The fixed cases, by name.
/// A fixed case: an SPMD function of the communicator.
type Case = fn(&Comm) -> Check;

const FIXED: [(&str, Case); 7] = [
    ("seed_expand", seed_expand_case),
    ("uneven_split", uneven_split_case),
    ("empty_shard", empty_shard_case),
    ("matmul_signatures", matmul_signature_case),
    ("sub_placement", sub_placement_case),
    ("invalid", invalid_case),
    ("gather_shapes", gather_shapes_case),
];

/// `from_local_infer` derives the logical sizes from the shards (logical ← physical).
fn gather_shapes_case(c: &Comm) -> Check {
    let n = c.world_size();
    let placement = Placement::all(n).map_err(err)?;
    let rows = 7 / n + usize::from(c.rank() < 7 % n);
    let local = Tensor::ones(&[2, rows], DType::I8).map_err(err)?;
    let g = GlobalTensor::from_local_infer(c, local, &placement, Sbp::Split(1)).map_err(err)?;
    if g.sizes() != [2, 7] {
        return Err(format!("inferred {:?}", g.sizes()));
    }
    same(
        &g.to_logical().map_err(err)?,
        &Tensor::ones(&[2, 7], DType::I8).map_err(err)?,
    )
}

// ---- tests on in-process ranks -------------------------------------------------------------

#[test]
fn every_global_op_gathered_equals_the_logical_op_on_1_to_4_ranks() {
    for n in 1..=4 {
        on_ranks(n, |c| {
            let (passed, failures) = random_suite(c, 1000 * n as u64, 150);
            match failures.first() {
                None if passed == 150 => Ok(()),
                None => Err(format!("{passed} of 150 ran")),
                Some(m) => Err(format!("after {passed} passed: {m}")),
            }
        });
    }
    let (ok, err) = (
        BOTH_OK.load(Ordering::Relaxed),
        BOTH_ERR.load(Ordering::Relaxed),
    );
    println!("global ops: {ok} compared, {err} failed on both sides");
    assert!(
        ok > 4 * err,
        "too few cases compare values: {ok} compared, {err} both failed"
    );
}

#[test]
fn seed_example_expand_split3_on_two_ranks() {
    on_ranks(2, seed_expand_case);
    on_ranks(3, seed_expand_case);
}

#[test]
fn uneven_splits_follow_the_balanced_rule() {
    for n in 1..=4 {
        on_ranks(n, uneven_split_case);
    }
}

#[test]
fn size_zero_shards_work() {
    for n in 1..=4 {
        on_ranks(n, empty_shard_case);
    }
}

#[test]
fn matmul_signatures_give_their_sbp() {
    for n in 1..=4 {
        on_ranks(n, matmul_signature_case);
    }
}

#[test]
fn sub_placement_leaves_other_ranks_out() {
    on_ranks(4, sub_placement_case);
}

#[test]
fn invalid_sbps_and_placements_are_errors() {
    for n in 1..=4 {
        on_ranks(n, invalid_case);
    }
}

#[test]
fn logical_sizes_inferred_from_the_shards() {
    for n in 1..=4 {
        on_ranks(n, gather_shapes_case);
    }
}

#[test]
fn mpi_comm_without_the_feature_is_an_error() {
    // The default build has no MPI: asking for it is an error, not a panic or a link
    // failure. (Built with the feature, outside mpirun, MPI starts as a singleton.)
    if let Err(e) = mpi_comm() {
        assert!(e.to_string().contains("`mpi` feature"), "{e}");
    }
}

/// Run by `scripts/mpi_test.sh` under `mpirun -np N` (tensor-core built with `mpi`):
/// the fixed cases, the gradient cases (`tensor_tests::global_grad`) and the random
/// suite on the MPI world. Every rank checks its own
/// shards; rank 0 prints `mpi-suite np=N: P passed, F failed` and each rank's failures.
#[test]
#[ignore = "needs mpirun and tensor-core's `mpi` feature: scripts/mpi_test.sh"]
fn mpi_suite() {
    let c = mpi_comm()
        .expect("MPI communicator (build with --features tensor-core/mpi, run under mpirun)");
    let mut failures = Vec::new();
    let mut passed = 0;
    for (name, case) in FIXED {
        match case(&c) {
            Ok(()) => passed += 1,
            Err(m) => failures.push(format!("{name}: {m}")),
        }
    }
    for (name, case) in tensor_tests::global_grad::CASES {
        match case(&c) {
            Ok(()) => passed += 1,
            Err(m) => failures.push(format!("{name}: {m}")),
        }
    }
    let (p, f) = random_suite(&c, 1000 * c.world_size() as u64, 150);
    passed += p;
    failures.extend(f);
    for m in &failures {
        eprintln!("mpi rank {}: FAILED {m}", c.rank());
    }
    if c.rank() == 0 {
        println!(
            "mpi-suite np={}: {passed} passed, {} failed",
            c.world_size(),
            failures.len()
        );
    }
    assert!(
        failures.is_empty(),
        "rank {}: {} failed",
        c.rank(),
        failures.len()
    );
}
