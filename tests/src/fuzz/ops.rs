//! The catalogue of calls a case makes: constructors, views, elementwise ops in all
//! three forms, reductions, matmul, casts, fills, element access and the free functions.

use super::gen::{Gen, HUGE_SIZES};
use super::operand::{check, operand, show, Opnd, CAP, UNALLOCATABLE};
use super::runner::Ctx;
use super::{adapt, compute, misc};
use crate::naive::{broadcast, numel, ravel_broadcast, unravel};
use tensor_core::{BinaryOp, DType, Tensor, UnaryOp};

/// One case: pick a family of calls and make them.
pub fn run_case(g: &mut Gen, c: &mut Ctx) {
    match g.below(20) {
        0 | 1 => constructors(g, c),
        2..=5 => views(g, c),
        6..=8 => unary(g, c),
        9..=11 => binary(g, c),
        12 => compute::ternary(g, c),
        13 => compute::casts_and_fills(g, c),
        14 | 15 => compute::reductions(g, c),
        16 => compute::matmul(g, c),
        17 => misc::access(g, c),
        18 => misc::iterator(g, c),
        _ => misc::free_functions(g, c),
    }
}

/// Whether computing over `t` is cheap (the harness never asks for legitimately huge work).
pub(super) fn small(t: &Tensor) -> bool {
    numel(t.sizes()) <= CAP
}

/// An out-of-place result of `want` elements may be asked for: small, or unallocatable.
fn allowed(out_numel: u128) -> bool {
    out_numel <= CAP || (out_numel >= UNALLOCATABLE && !no_huge())
}

fn no_huge() -> bool {
    super::runner::NO_HUGE.load(std::sync::atomic::Ordering::Relaxed)
}

fn constructors(g: &mut Gen, c: &mut Ctx) {
    let nd = g.ndim(4);
    let sizes = g.sizes(nd);
    let dtype = g.dtype();
    let n = numel(&sizes);
    if !allowed(n) {
        return;
    }
    let t = match g.below(11) {
        0 => c.call(
            || format!("zeros({sizes:?}, {dtype:?})"),
            || Tensor::zeros(&sizes, dtype),
        ),
        1 => c.call(
            || format!("empty({sizes:?}, {dtype:?})"),
            || Tensor::empty(&sizes, dtype),
        ),
        2 => c.call(
            || format!("ones({sizes:?}, {dtype:?})"),
            || Tensor::ones(&sizes, dtype),
        ),
        3 => {
            let s = g.scalar();
            c.call(
                || format!("full({sizes:?}, {s:?}, {dtype:?})"),
                || Tensor::full(&sizes, s, dtype),
            )
        }
        4 => {
            let seed = g.u64();
            c.call(
                || format!("rand({sizes:?}, {seed})"),
                || Tensor::rand(&sizes, seed),
            )
        }
        5 => {
            let seed = g.u64();
            c.call(
                || format!("randn({sizes:?}, {seed})"),
                || Tensor::randn(&sizes, seed),
            )
        }
        6 => {
            let n = if g.hostile() && !no_huge() {
                g.pick(&HUGE_SIZES)
            } else {
                g.below(9)
            };
            c.call(
                || format!("arange({n}, {dtype:?})"),
                || adapt::arange(n, dtype),
            )
        }
        7 => {
            let n = if g.hostile() && !no_huge() {
                g.pick(&HUGE_SIZES)
            } else {
                g.below(9)
            };
            let seed = g.u64();
            c.call(
                || format!("randperm({n}, {seed})"),
                || adapt::randperm(n, seed),
            )
        }
        8 => {
            let strides = g.strides(nd);
            // Only when the storage it needs is small or unallocatable.
            let reach = crate::naive::extent(&sizes, &strides, 0).map_or(0, |(_, hi)| hi);
            if !(reach < CAP as i128 || (reach >= UNALLOCATABLE as i128 && !no_huge())) {
                return;
            }
            c.call(
                || format!("empty_strided({sizes:?}, {strides:?}, {dtype:?})"),
                || Tensor::empty_strided(&sizes, &strides, dtype),
            )
        }
        9 => {
            let nbytes = if g.hostile() && !no_huge() {
                g.pick(&HUGE_SIZES)
            } else {
                g.below(64)
            };
            let dtype = g.dtype();
            c.call(
                || format!("Storage::zeroed({nbytes}, {dtype:?})"),
                || adapt::storage_zeroed(nbytes, dtype),
            );
            None
        }
        _ => {
            let len = g.below(7);
            let data: Vec<f32> = (0..len).map(|i| i as f32).collect();
            let sizes = if g.chance(0.5) {
                g.small_sizes()
            } else {
                sizes.clone()
            };
            c.call(
                || format!("from_vec({data:?}, {sizes:?})"),
                || Tensor::from_vec(data.clone(), &sizes),
            )
        }
    };
    if let Some(t) = t {
        if check(c, &t, None, 0.0) {
            let nbytes = t.storage().nbytes();
            c.check(nbytes <= 1 << 24, || {
                format!("allocated a storage of {nbytes} bytes")
            });
        }
    }
}

/// Row-major values are preserved by these views.
fn views(g: &mut Gen, c: &mut Ctx) {
    let Some(a) = operand(g, c) else { return };
    let t = &a.t;
    let nd = t.dim();
    let same_order = a.values.clone();
    let (r, want) = match g.below(21) {
        0 => {
            let shape = {
                let n = g.ndim(4);
                g.shape_i64(n)
            };
            (
                c.call(
                    || format!("view({}, {shape:?})", show(t)),
                    || t.view(&shape),
                ),
                same_order,
            )
        }
        1 => {
            let shape = {
                let n = g.ndim(4);
                g.shape_i64(n)
            };
            if !small(t) {
                return;
            }
            (
                c.call(
                    || format!("reshape({}, {shape:?})", show(t)),
                    || t.reshape(&shape),
                ),
                same_order,
            )
        }
        2 => {
            let p = g.perm(nd);
            (
                c.call(|| format!("permute({}, {p:?})", show(t)), || t.permute(&p)),
                None,
            )
        }
        3 => {
            let (d0, d1) = (g.dim(nd), g.dim(nd));
            (
                c.call(
                    || format!("transpose({}, {d0}, {d1})", show(t)),
                    || t.transpose(d0, d1),
                ),
                None,
            )
        }
        4 => (c.call(|| format!("t({})", show(t)), || t.t()), None),
        5 => {
            let k = g.mismatch(nd) + g.below(2);
            let shape = g.shape_i64(k);
            (
                c.call(
                    || format!("expand({}, {shape:?})", show(t)),
                    || t.expand(&shape),
                ),
                None,
            )
        }
        6 => (
            c.call(|| format!("squeeze({})", show(t)), || Ok(t.squeeze())),
            same_order,
        ),
        7 => {
            let d = g.dim(nd);
            (
                c.call(
                    || format!("squeeze_dim({}, {d})", show(t)),
                    || t.squeeze_dim(d),
                ),
                same_order,
            )
        }
        8 => {
            let d = g.dim(nd + 1);
            (
                c.call(|| format!("unsqueeze({}, {d})", show(t)), || t.unsqueeze(d)),
                same_order,
            )
        }
        9 => {
            let (s, e) = (g.dim(nd), g.dim(nd));
            (
                c.call(
                    || format!("flatten({}, {s}, {e})", show(t)),
                    || t.flatten(s, e),
                ),
                same_order,
            )
        }
        10 => {
            let d = g.dim(nd);
            let start = g.chance(0.8).then(|| g.index());
            let end = g.chance(0.8).then(|| g.index());
            let step = if g.hostile() {
                g.pick(&[0, -1, i64::MIN, i64::MAX])
            } else {
                1 + g.below(3) as i64
            };
            (
                c.call(
                    || format!("slice({}, {d}, {start:?}, {end:?}, {step})", show(t)),
                    || t.slice(d, start, end, step),
                ),
                None,
            )
        }
        11 => {
            let (d, start, len) = (g.dim(nd), g.index(), g.length());
            let r = c.call(
                || format!("narrow({}, {d}, {start}, {len})", show(t)),
                || t.narrow(d, start, len),
            );
            if let (Some(r), Ok(w)) = (&r, tensor_core::wrap_dim(d, nd)) {
                c.check(r.sizes().get(w) == Some(&len), || {
                    format!("narrow to length {len} gave sizes {:?}", r.sizes())
                });
            }
            (r, None)
        }
        12 => {
            let (d, i) = (g.dim(nd), g.index());
            (
                c.call(
                    || format!("select({}, {d}, {i})", show(t)),
                    || t.select(d, i),
                ),
                None,
            )
        }
        13 => {
            let f = g.format();
            if !small(t) && !allowed(numel(t.sizes())) {
                return;
            }
            (
                c.call(
                    || format!("to_memory_format({}, {f:?})", show(t)),
                    || t.to_memory_format(f),
                ),
                same_order,
            )
        }
        14 => {
            if !allowed(numel(t.sizes())) {
                return;
            }
            (
                c.call(|| format!("contiguous({})", show(t)), || t.contiguous()),
                same_order,
            )
        }
        15 => {
            let f = g.format();
            if !allowed(numel(t.sizes())) {
                return;
            }
            (
                c.call(|| format!("clone({}, {f:?})", show(t)), || t.clone(f)),
                same_order,
            )
        }
        16 => {
            let f = g.format();
            if !allowed(numel(t.sizes())) {
                return;
            }
            (
                c.call(
                    || format!("empty_like({}, {f:?})", show(t)),
                    || t.empty_like(f),
                ),
                None,
            )
        }
        17 => {
            let k = g.mismatch(nd) + g.below(2);
            let reps: Vec<i64> = (0..k)
                .map(|_| {
                    if g.hostile() {
                        g.pick(&[-1, i64::MAX, 1 << 40, 1 << 62])
                    } else {
                        g.below(3) as i64
                    }
                })
                .collect();
            let out = t
                .sizes()
                .iter()
                .rev()
                .map(|&s| s as u128)
                .chain(std::iter::repeat(1));
            let n = reps.iter().rev().zip(out).fold(1u128, |acc, (&r, s)| {
                acc.saturating_mul((r.max(0) as u128).saturating_mul(s))
            });
            if !allowed(n) || !small(t) {
                return;
            }
            (
                c.call(
                    || format!("repeat({}, {reps:?})", show(t)),
                    || t.repeat(&reps),
                ),
                None,
            )
        }
        18 => {
            let Some(b) = operand(g, c) else { return };
            (
                c.call(
                    || format!("expand_as({}, {})", show(t), show(&b.t)),
                    || t.expand_as(&b.t),
                ),
                None,
            )
        }
        19 => {
            let f = g.format();
            if !allowed(numel(t.sizes())) {
                return;
            }
            (
                c.call(
                    || format!("contiguous_format({}, {f:?})", show(t)),
                    || t.contiguous_format(f),
                ),
                same_order,
            )
        }
        _ => {
            let nd2 = g.ndim(4);
            let (sizes, strides, off) = (g.sizes(nd2), g.strides(nd2), g.offset());
            (
                c.call(
                    || format!("as_strided({}, {sizes:?}, {strides:?}, {off})", show(t)),
                    || t.as_strided(&sizes, &strides, off),
                ),
                None,
            )
        }
    };
    if let Some(r) = r {
        check(c, &r, want.as_deref(), 0.0);
    }
}

/// An out tensor for `a`: fresh of a random dtype/shape, `a` itself, or a view of `a`.
pub(super) fn out_for(g: &mut Gen, c: &mut Ctx, a: &Opnd) -> Option<Tensor> {
    match g.below(4) {
        0 => Some(a.t.alias()),
        1 => operand(g, c).map(|o| o.t),
        _ => {
            let dtype = if g.chance(0.7) {
                a.t.dtype()
            } else {
                g.dtype()
            };
            let sizes = if g.chance(0.7) {
                a.t.sizes().to_vec()
            } else {
                g.small_sizes()
            };
            if numel(&sizes) > CAP {
                return None;
            }
            c.call(
                || format!("zeros({sizes:?}, {dtype:?})"),
                || Tensor::zeros(&sizes, dtype),
            )
        }
    }
}

fn unary(g: &mut Gen, c: &mut Ctx) {
    let Some(a) = operand(g, c) else { return };
    let t = &a.t;
    let op = UnaryOp::ALL[g.below(UnaryOp::ALL.len())];
    let form = g.below(3);
    if (form > 0 && !small(t)) || !allowed(numel(t.sizes())) {
        return;
    }
    let name = op.name();
    // Expected values where exact: neg/abs/relu of floats and small signed ints.
    let exact = matches!(t.dtype(), DType::I8 | DType::I16 | DType::I32 | DType::I64)
        || t.dtype().is_floating();
    let reference: Option<fn(f64) -> f64> = match op {
        UnaryOp::Neg => Some(|x| -x),
        UnaryOp::Abs => Some(f64::abs),
        UnaryOp::Relu => Some(|x| if x.is_nan() { x } else { x.max(0.0) }),
        _ => None,
    };
    let want: Option<Vec<f64>> = a
        .values
        .as_ref()
        .filter(|_| exact)
        .zip(reference)
        .map(|(v, r)| v.iter().map(|&x| r(x)).collect());
    match form {
        0 => {
            if let Some(r) = c.call(|| format!("{name}({})", show(t)), || t.unary(op)) {
                check(c, &r, want.as_deref(), 0.0);
            }
        }
        1 => {
            if c.call(|| format!("{name}_({})", show(t)), || t.unary_(op))
                .is_some()
            {
                check(c, t, want.as_deref(), 0.0);
            }
        }
        _ => {
            let Some(out) = out_for(g, c, &a) else { return };
            if let Some(r) = c.call(
                || format!("{name}_out({}, out={})", show(t), show(&out)),
                || t.unary_out(op, &out),
            ) {
                check(c, &r, None, 0.0);
            }
        }
    }
}

type Bin = fn(&Tensor, &Tensor) -> tensor_core::Result<Tensor>;
type BinO = fn(&Tensor, &Tensor, &Tensor) -> tensor_core::Result<Tensor>;

fn binary(g: &mut Gen, c: &mut Ctx) {
    let Some(a) = operand(g, c) else { return };
    let b = if g.chance(0.15) {
        // Self-aliasing: the other operand is a view of the first.
        match c.call(
            || format!("transpose({}, 0, -1)", show(&a.t)),
            || a.t.transpose(0, -1),
        ) {
            Some(t) => Opnd { t, values: None },
            None => return,
        }
    } else {
        let Some(b) = operand(g, c) else { return };
        b
    };
    let (x, y) = (&a.t, &b.t);
    let out_n = broadcast(x.sizes(), y.sizes()).map_or(0, |s| numel(&s));
    // The op table's binary ops (`BinaryOp::ALL`), then the comparisons.
    let nb = BinaryOp::ALL.len();
    let cmp_names = ["eq", "ne", "lt", "le", "gt", "ge"];
    let fc: [Bin; 6] = [
        Tensor::eq,
        Tensor::ne,
        Tensor::lt,
        Tensor::le,
        Tensor::gt,
        Tensor::ge,
    ];
    let fco: [BinO; 6] = [
        Tensor::eq_out,
        Tensor::ne_out,
        Tensor::lt_out,
        Tensor::le_out,
        Tensor::gt_out,
        Tensor::ge_out,
    ];
    let k = g.below(nb + cmp_names.len());
    let op = BinaryOp::ALL.get(k).copied();
    let name = op.map_or_else(|| cmp_names[k - nb], BinaryOp::name);
    let small_all = small(x) && small(y) && out_n <= CAP;
    let want = op.and_then(|op| naive_binary(op, &a, &b));
    match g.below(5) {
        0 | 1 => {
            if !small_all && !allowed(out_n) {
                return;
            }
            if let Some(r) = c.call(
                || format!("{name}({}, {})", show(x), show(y)),
                || match op {
                    Some(op) => x.binary(op, y),
                    None => fc[k - nb](x, y),
                },
            ) {
                check(c, &r, want.as_deref(), 0.0);
            }
        }
        2 if op.is_some() && small_all => {
            let done = c.call(
                || format!("{name}_({}, {})", show(x), show(y)),
                || x.binary_(op.unwrap(), y),
            );
            if done.is_some() {
                check(c, x, None, 0.0);
            }
        }
        3 if small_all => {
            let Some(out) = out_for(g, c, &a) else { return };
            if let Some(r) = c.call(
                || format!("{name}_out({}, {}, out={})", show(x), show(y), show(&out)),
                || match op {
                    Some(op) => x.binary_out(op, y, &out),
                    None => fco[k - nb](x, y, &out),
                },
            ) {
                check(c, &r, None, 0.0);
            }
        }
        _ if small(x) => {
            let s = g.scalar();
            let r = match g.below(6) {
                0 => c.call(
                    || format!("add_scalar({}, {s:?})", show(x)),
                    || x.add_scalar(s),
                ),
                1 => c.call(
                    || format!("mul_scalar_({}, {s:?})", show(x)),
                    || x.mul_scalar_(s).map(|_| x.alias()),
                ),
                2 => c.call(
                    || format!("div_scalar({}, {s:?})", show(x)),
                    || x.div_scalar(s),
                ),
                3 => c.call(
                    || format!("pow_scalar({}, {s:?})", show(x)),
                    || x.pow_scalar(s),
                ),
                4 => c.call(
                    || format!("lt_scalar({}, {s:?})", show(x)),
                    || x.lt_scalar(s),
                ),
                _ => {
                    if !small_all {
                        return;
                    }
                    c.call(
                        || format!("add_alpha({}, {}, {s:?})", show(x), show(y)),
                        || x.add_alpha(y, s),
                    )
                }
            };
            if let Some(r) = r {
                check(c, &r, None, 0.0);
            }
        }
        _ => {}
    }
}

/// Naive `add/sub/mul/maximum/minimum` when the values are known and exact in every
/// promoted dtype (no `u8`/`bool` wrap-around).
/// The naive reference of `op` in f64, where it is exact enough to compare (no `div`
/// or `pow`, no uint8/bool wrapping); `None` where there is none.
fn naive_binary(op: BinaryOp, a: &Opnd, b: &Opnd) -> Option<Vec<f64>> {
    let ok = |t: &Tensor| !matches!(t.dtype(), DType::U8 | DType::Bool);
    let apply: fn(f64, f64) -> f64 = match op {
        BinaryOp::Add => |x, y| x + y,
        BinaryOp::Sub => |x, y| x - y,
        BinaryOp::Mul => |x, y| x * y,
        BinaryOp::Maximum => |x, y| {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.max(y)
            }
        },
        BinaryOp::Minimum => |x, y| {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                x.min(y)
            }
        },
        _ => return None,
    };
    if !ok(&a.t) || !ok(&b.t) {
        return None;
    }
    let (va, vb) = (a.values.as_ref()?, b.values.as_ref()?);
    let out = broadcast(a.t.sizes(), b.t.sizes())?;
    let n = numel(&out);
    if n > CAP || out.contains(&0) {
        return if n == 0 { Some(vec![]) } else { None };
    }
    Some(
        (0..n as usize)
            .map(|f| {
                let idx = unravel(f, &out);
                let (x, y) = (
                    va[ravel_broadcast(&idx, a.t.sizes())],
                    vb[ravel_broadcast(&idx, b.t.sizes())],
                );
                apply(x, y)
            })
            .collect(),
    )
}
