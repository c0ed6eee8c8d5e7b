//! The catalogue of calls a case makes: constructors, views, elementwise ops in all
//! three forms, reductions, matmul, casts, fills, element access and the free functions.

use super::adapt;
use super::gen::{Gen, HUGE_SIZES};
use super::operand::{check, operand, show, Opnd, CAP, UNALLOCATABLE};
use super::runner::Ctx;
use crate::naive::{broadcast, numel, ravel_broadcast, unravel};
use tensor_core::{DType, Layout, Scalar, Tensor, TensorIterator, TensorIteratorConfig};

/// One case: pick a family of calls and make them.
pub fn run_case(g: &mut Gen, c: &mut Ctx) {
    match g.below(20) {
        0 | 1 => constructors(g, c),
        2..=5 => views(g, c),
        6..=8 => unary(g, c),
        9..=11 => binary(g, c),
        12 => ternary(g, c),
        13 => casts_and_fills(g, c),
        14 | 15 => reductions(g, c),
        16 => matmul(g, c),
        17 => access(g, c),
        18 => iterator(g, c),
        _ => free_functions(g, c),
    }
}

/// Whether computing over `t` is cheap (the harness never asks for legitimately huge work).
fn small(t: &Tensor) -> bool {
    numel(t.sizes()) <= CAP
}

/// An out-of-place result of `want` elements may be asked for: small, or unallocatable.
fn allowed(out_numel: u128) -> bool {
    out_numel <= CAP || out_numel >= UNALLOCATABLE
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
        0 => c.call(|| format!("zeros({sizes:?}, {dtype:?})"), || Tensor::zeros(&sizes, dtype)),
        1 => c.call(|| format!("empty({sizes:?}, {dtype:?})"), || Tensor::empty(&sizes, dtype)),
        2 => c.call(|| format!("ones({sizes:?}, {dtype:?})"), || Tensor::ones(&sizes, dtype)),
        3 => {
            let s = g.scalar();
            c.call(|| format!("full({sizes:?}, {s:?}, {dtype:?})"), || Tensor::full(&sizes, s, dtype))
        }
        4 => {
            let seed = g.u64();
            c.call(|| format!("rand({sizes:?}, {seed})"), || Tensor::rand(&sizes, seed))
        }
        5 => {
            let seed = g.u64();
            c.call(|| format!("randn({sizes:?}, {seed})"), || Tensor::randn(&sizes, seed))
        }
        6 => {
            let n = if g.hostile() { g.pick(&HUGE_SIZES) } else { g.below(9) };
            c.call(|| format!("arange({n}, {dtype:?})"), || adapt::arange(n, dtype))
        }
        7 => {
            let n = if g.hostile() { g.pick(&HUGE_SIZES) } else { g.below(9) };
            let seed = g.u64();
            c.call(|| format!("randperm({n}, {seed})"), || adapt::randperm(n, seed))
        }
        8 => {
            let strides = g.strides(nd);
            // Only when the storage it needs is small or unallocatable.
            let reach = crate::naive::extent(&sizes, &strides, 0).map_or(0, |(_, hi)| hi);
            if !(reach < CAP as i128 || reach >= UNALLOCATABLE as i128) {
                return;
            }
            c.call(
                || format!("empty_strided({sizes:?}, {strides:?}, {dtype:?})"),
                || Tensor::empty_strided(&sizes, &strides, dtype),
            )
        }
        9 => {
            let nbytes = if g.hostile() { g.pick(&HUGE_SIZES) } else { g.below(64) };
            c.call(|| format!("Storage::zeroed({nbytes})"), || adapt::storage_zeroed(nbytes));
            None
        }
        _ => {
            let len = g.below(7);
            let data: Vec<f32> = (0..len).map(|i| i as f32).collect();
            let sizes = if g.chance(0.5) { g.small_sizes() } else { sizes.clone() };
            c.call(|| format!("from_vec({data:?}, {sizes:?})"), || Tensor::from_vec(data.clone(), &sizes))
        }
    };
    if let Some(t) = t {
        if check(c, &t, None, 0.0) {
            c.check(numel(t.sizes()) <= CAP || t.numel() == 0, || {
                format!("allocated {} elements", numel(t.sizes()))
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
            let shape = { let n = g.ndim(4); g.shape_i64(n) };
            (c.call(|| format!("view({}, {shape:?})", show(t)), || t.view(&shape)), same_order)
        }
        1 => {
            let shape = { let n = g.ndim(4); g.shape_i64(n) };
            if !small(t) {
                return;
            }
            (c.call(|| format!("reshape({}, {shape:?})", show(t)), || t.reshape(&shape)), same_order)
        }
        2 => {
            let p = g.perm(nd);
            (c.call(|| format!("permute({}, {p:?})", show(t)), || t.permute(&p)), None)
        }
        3 => {
            let (d0, d1) = (g.dim(nd), g.dim(nd));
            (c.call(|| format!("transpose({}, {d0}, {d1})", show(t)), || t.transpose(d0, d1)), None)
        }
        4 => (c.call(|| format!("t({})", show(t)), || t.t()), None),
        5 => {
            let k = g.mismatch(nd) + g.below(2);
            let shape = g.shape_i64(k);
            (c.call(|| format!("expand({}, {shape:?})", show(t)), || t.expand(&shape)), None)
        }
        6 => (c.call(|| format!("squeeze({})", show(t)), || Ok(t.squeeze())), same_order),
        7 => {
            let d = g.dim(nd);
            (c.call(|| format!("squeeze_dim({}, {d})", show(t)), || t.squeeze_dim(d)), same_order)
        }
        8 => {
            let d = g.dim(nd + 1);
            (c.call(|| format!("unsqueeze({}, {d})", show(t)), || t.unsqueeze(d)), same_order)
        }
        9 => {
            let (s, e) = (g.dim(nd), g.dim(nd));
            (c.call(|| format!("flatten({}, {s}, {e})", show(t)), || t.flatten(s, e)), same_order)
        }
        10 => {
            let d = g.dim(nd);
            let start = g.chance(0.8).then(|| g.index());
            let end = g.chance(0.8).then(|| g.index());
            let step = if g.hostile() { g.pick(&[0, -1, i64::MIN, i64::MAX]) } else { 1 + g.below(3) as i64 };
            (c.call(|| format!("slice({}, {d}, {start:?}, {end:?}, {step})", show(t)), || t.slice(d, start, end, step)), None)
        }
        11 => {
            let (d, start, len) = (g.dim(nd), g.index(), g.length());
            let r = c.call(|| format!("narrow({}, {d}, {start}, {len})", show(t)), || t.narrow(d, start, len));
            if let (Some(r), Ok(w)) = (&r, tensor_core::wrap_dim(d, nd)) {
                c.check(r.sizes().get(w) == Some(&len), || {
                    format!("narrow to length {len} gave sizes {:?}", r.sizes())
                });
            }
            (r, None)
        }
        12 => {
            let (d, i) = (g.dim(nd), g.index());
            (c.call(|| format!("select({}, {d}, {i})", show(t)), || t.select(d, i)), None)
        }
        13 => {
            let f = g.format();
            if !small(t) && !allowed(numel(t.sizes())) {
                return;
            }
            (c.call(|| format!("to_memory_format({}, {f:?})", show(t)), || t.to_memory_format(f)), same_order)
        }
        14 => {
            if !allowed(numel(t.sizes())) {
                return;
            }
            (c.call(|| format!("contiguous({})", show(t)), || t.contiguous()), same_order)
        }
        15 => {
            let f = g.format();
            if !allowed(numel(t.sizes())) {
                return;
            }
            (c.call(|| format!("clone({}, {f:?})", show(t)), || t.clone(f)), same_order)
        }
        16 => {
            let f = g.format();
            if !allowed(numel(t.sizes())) {
                return;
            }
            (c.call(|| format!("empty_like({}, {f:?})", show(t)), || t.empty_like(f)), None)
        }
        17 => {
            let k = g.mismatch(nd) + g.below(2);
            let reps: Vec<i64> = (0..k)
                .map(|_| if g.hostile() { g.pick(&[-1, i64::MAX, 1 << 40, 1 << 62]) } else { g.below(3) as i64 })
                .collect();
            let out = t.sizes().iter().rev().map(|&s| s as u128).chain(std::iter::repeat(1));
            let n = reps.iter().rev().zip(out).fold(1u128, |acc, (&r, s)| {
                acc.saturating_mul((r.max(0) as u128).saturating_mul(s))
            });
            if !allowed(n) || !small(t) {
                return;
            }
            (c.call(|| format!("repeat({}, {reps:?})", show(t)), || t.repeat(&reps)), None)
        }
        18 => {
            let Some(b) = operand(g, c) else { return };
            (c.call(|| format!("expand_as({}, {})", show(t), show(&b.t)), || t.expand_as(&b.t)), None)
        }
        19 => {
            let f = g.format();
            if !allowed(numel(t.sizes())) {
                return;
            }
            (c.call(|| format!("contiguous_format({}, {f:?})", show(t)), || t.contiguous_format(f)), same_order)
        }
        _ => {
            let nd2 = g.ndim(4);
            let (sizes, strides, off) = (g.sizes(nd2), g.strides(nd2), g.offset());
            (c.call(|| format!("as_strided({}, {sizes:?}, {strides:?}, {off})", show(t)), || t.as_strided(&sizes, &strides, off)), None)
        }
    };
    if let Some(r) = r {
        check(c, &r, want.as_deref(), 0.0);
    }
}

/// An out tensor for `a`: fresh of a random dtype/shape, `a` itself, or a view of `a`.
fn out_for(g: &mut Gen, c: &mut Ctx, a: &Opnd) -> Option<Tensor> {
    match g.below(4) {
        0 => Some(a.t.alias()),
        1 => operand(g, c).map(|o| o.t),
        _ => {
            let dtype = if g.chance(0.7) { a.t.dtype() } else { g.dtype() };
            let sizes = if g.chance(0.7) { a.t.sizes().to_vec() } else { g.small_sizes() };
            if numel(&sizes) > CAP {
                return None;
            }
            c.call(|| format!("zeros({sizes:?}, {dtype:?})"), || Tensor::zeros(&sizes, dtype))
        }
    }
}

fn unary(g: &mut Gen, c: &mut Ctx) {
    let Some(a) = operand(g, c) else { return };
    let t = &a.t;
    let k = g.below(8);
    let form = g.below(3);
    if (form > 0 && !small(t)) || !allowed(numel(t.sizes())) {
        return;
    }
    let names = ["neg", "abs", "relu", "exp", "log", "sqrt", "sigmoid", "tanh"];
    let f: fn(&Tensor) -> tensor_core::Result<Tensor> =
        [Tensor::neg, Tensor::abs, Tensor::relu, Tensor::exp, Tensor::log, Tensor::sqrt, Tensor::sigmoid, Tensor::tanh][k];
    let fi: fn(&Tensor) -> tensor_core::Result<()> =
        [Tensor::neg_, Tensor::abs_, Tensor::relu_, Tensor::exp_, Tensor::log_, Tensor::sqrt_, Tensor::sigmoid_, Tensor::tanh_][k];
    let fo: fn(&Tensor, &Tensor) -> tensor_core::Result<Tensor> = [
        Tensor::neg_out, Tensor::abs_out, Tensor::relu_out, Tensor::exp_out,
        Tensor::log_out, Tensor::sqrt_out, Tensor::sigmoid_out, Tensor::tanh_out,
    ][k];
    let name = names[k];
    // Expected values where exact: neg/abs/relu of floats and small signed ints.
    let exact = matches!(t.dtype(), DType::I8 | DType::I16 | DType::I32 | DType::I64) || t.dtype().is_floating();
    let want: Option<Vec<f64>> = a.values.as_ref().filter(|_| exact && k < 3).map(|v| {
        v.iter()
            .map(|&x| match k {
                0 => -x,
                1 => x.abs(),
                _ => if x.is_nan() { x } else { x.max(0.0) },
            })
            .collect()
    });
    match form {
        0 => {
            if let Some(r) = c.call(|| format!("{name}({})", show(t)), || f(t)) {
                check(c, &r, want.as_deref(), 0.0);
            }
        }
        1 => {
            if c.call(|| format!("{name}_({})", show(t)), || fi(t)).is_some() {
                check(c, t, want.as_deref(), 0.0);
            }
        }
        _ => {
            let Some(out) = out_for(g, c, &a) else { return };
            if let Some(r) = c.call(|| format!("{name}_out({}, out={})", show(t), show(&out)), || fo(t, &out)) {
                check(c, &r, None, 0.0);
            }
        }
    }
}

type Bin = fn(&Tensor, &Tensor) -> tensor_core::Result<Tensor>;
type BinI = fn(&Tensor, &Tensor) -> tensor_core::Result<()>;
type BinO = fn(&Tensor, &Tensor, &Tensor) -> tensor_core::Result<Tensor>;

fn binary(g: &mut Gen, c: &mut Ctx) {
    let Some(a) = operand(g, c) else { return };
    let b = if g.chance(0.15) {
        // Self-aliasing: the other operand is a view of the first.
        match c.call(|| format!("transpose({}, 0, -1)", show(&a.t)), || a.t.transpose(0, -1)) {
            Some(t) => Opnd { t, values: None },
            None => return,
        }
    } else {
        let Some(b) = operand(g, c) else { return };
        b
    };
    let (x, y) = (&a.t, &b.t);
    let out_n = broadcast(x.sizes(), y.sizes()).map_or(0, |s| numel(&s));
    let names = ["add", "sub", "mul", "div", "maximum", "minimum", "pow", "eq", "ne", "lt", "le", "gt", "ge"];
    let f: [Bin; 13] = [
        Tensor::add, Tensor::sub, Tensor::mul, Tensor::div, Tensor::maximum, Tensor::minimum, Tensor::pow,
        Tensor::eq, Tensor::ne, Tensor::lt, Tensor::le, Tensor::gt, Tensor::ge,
    ];
    let fi: [BinI; 7] = [Tensor::add_, Tensor::sub_, Tensor::mul_, Tensor::div_, Tensor::maximum_, Tensor::minimum_, Tensor::pow_];
    let fo: [BinO; 13] = [
        Tensor::add_out, Tensor::sub_out, Tensor::mul_out, Tensor::div_out, Tensor::maximum_out, Tensor::minimum_out,
        Tensor::pow_out, Tensor::eq_out, Tensor::ne_out, Tensor::lt_out, Tensor::le_out, Tensor::gt_out, Tensor::ge_out,
    ];
    let k = g.below(13);
    let name = names[k];
    let small_all = small(x) && small(y) && out_n <= CAP;
    let want = naive_binary(k, &a, &b);
    match g.below(5) {
        0 | 1 => {
            if !small_all && !allowed(out_n) {
                return;
            }
            if let Some(r) = c.call(|| format!("{name}({}, {})", show(x), show(y)), || f[k](x, y)) {
                check(c, &r, want.as_deref(), 0.0);
            }
        }
        2 if k < 7 && small_all => {
            if c.call(|| format!("{name}_({}, {})", show(x), show(y)), || fi[k](x, y)).is_some() {
                check(c, x, None, 0.0);
            }
        }
        3 if small_all => {
            let Some(out) = out_for(g, c, &a) else { return };
            if let Some(r) = c.call(|| format!("{name}_out({}, {}, out={})", show(x), show(y), show(&out)), || fo[k](x, y, &out)) {
                check(c, &r, None, 0.0);
            }
        }
        _ if small(x) => {
            let s = g.scalar();
            let r = match g.below(6) {
                0 => c.call(|| format!("add_scalar({}, {s:?})", show(x)), || x.add_scalar(s)),
                1 => c.call(|| format!("mul_scalar_({}, {s:?})", show(x)), || x.mul_scalar_(s).map(|_| x.alias())),
                2 => c.call(|| format!("div_scalar({}, {s:?})", show(x)), || x.div_scalar(s)),
                3 => c.call(|| format!("pow_scalar({}, {s:?})", show(x)), || x.pow_scalar(s)),
                4 => c.call(|| format!("lt_scalar({}, {s:?})", show(x)), || x.lt_scalar(s)),
                _ => {
                    if !small_all {
                        return;
                    }
                    c.call(|| format!("add_alpha({}, {}, {s:?})", show(x), show(y)), || x.add_alpha(y, s))
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
fn naive_binary(k: usize, a: &Opnd, b: &Opnd) -> Option<Vec<f64>> {
    let ok = |t: &Tensor| !matches!(t.dtype(), DType::U8 | DType::Bool);
    if ![0, 1, 2, 4, 5].contains(&k) || !ok(&a.t) || !ok(&b.t) {
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
                let (x, y) = (va[ravel_broadcast(&idx, a.t.sizes())], vb[ravel_broadcast(&idx, b.t.sizes())]);
                match k {
                    0 => x + y,
                    1 => x - y,
                    2 => x * y,
                    4 => if x.is_nan() || y.is_nan() { f64::NAN } else { x.max(y) },
                    _ => if x.is_nan() || y.is_nan() { f64::NAN } else { x.min(y) },
                }
            })
            .collect(),
    )
}

fn ternary(g: &mut Gen, c: &mut Ctx) {
    let (Some(a), Some(b), Some(d)) = (operand(g, c), operand(g, c), operand(g, c)) else { return };
    let (x, y, z) = (&a.t, &b.t, &d.t);
    if !(small(x) && small(y) && small(z)) {
        return;
    }
    let (lo, hi) = (g.chance(0.7).then(|| g.scalar()), g.chance(0.7).then(|| g.scalar()));
    let s = g.scalar();
    let r = match g.below(7) {
        0 => c.call(|| format!("where_({}, {}, {})", show(x), show(y), show(z)), || Tensor::where_(x, y, z)),
        1 => {
            let Some(out) = out_for(g, c, &a) else { return };
            c.call(|| format!("where_out({}, {}, {}, out={})", show(x), show(y), show(z), show(&out)), || Tensor::where_out(x, y, z, &out))
        }
        2 => c.call(|| format!("clamp({}, {lo:?}, {hi:?})", show(x)), || x.clamp(lo, hi)),
        3 => c.call(|| format!("clamp_({}, {lo:?}, {hi:?})", show(x)), || x.clamp_(lo, hi).map(|_| x.alias())),
        4 => {
            let Some(out) = out_for(g, c, &a) else { return };
            c.call(|| format!("clamp_out({}, {lo:?}, {hi:?}, out={})", show(x), show(&out)), || x.clamp_out(lo, hi, &out))
        }
        5 => c.call(|| format!("addcmul({}, {}, {}, {s:?})", show(x), show(y), show(z)), || x.addcmul(y, z, s)),
        _ => c.call(|| format!("addcmul_({}, {}, {}, {s:?})", show(x), show(y), show(z)), || x.addcmul_(y, z, s).map(|_| x.alias())),
    };
    if let Some(r) = r {
        check(c, &r, None, 0.0);
    }
}

/// Whether PyTorch's `fill_` raises for `s` into `dtype` ("value cannot be converted to
/// type uint8_t without overflow"): integral dtypes only, where we are sure.
fn fill_overflows(s: Scalar, dtype: DType) -> bool {
    let (lo, hi) = match dtype {
        DType::U8 => (0.0, 255.0),
        DType::I8 => (-128.0, 127.0),
        DType::I16 => (-32768.0, 32767.0),
        DType::I32 => (-2147483648.0, 2147483647.0),
        _ => return false,
    };
    let v = s.to_f64();
    !v.is_finite() || v < lo || v > hi
}

fn casts_and_fills(g: &mut Gen, c: &mut Ctx) {
    let Some(a) = operand(g, c) else { return };
    let t = &a.t;
    if !small(t) {
        return;
    }
    match g.below(3) {
        0 => {
            let dtype = g.dtype();
            if let Some(r) = c.call(|| format!("to_dtype({}, {dtype:?})", show(t)), || t.to_dtype(dtype)) {
                let want = a.values.as_ref().filter(|_| dtype == DType::F64).cloned();
                check(c, &r, want.as_deref(), 0.0);
            }
        }
        1 => {
            let s = g.scalar();
            let ok = c.call(|| format!("fill_({}, {s:?})", show(t)), || t.fill_(s)).is_some();
            if ok {
                c.check(t.numel() == 0 || !fill_overflows(s, t.dtype()), || {
                    format!("fill_ of {s:?} into {:?} succeeded; PyTorch: value cannot be converted without overflow", t.dtype())
                });
                check(c, t, None, 0.0);
            }
        }
        _ => {
            let src = if g.chance(0.2) {
                c.call(|| format!("flip-free alias t({})", show(t)), || t.t())
            } else {
                operand(g, c).map(|o| o.t)
            };
            let Some(src) = src else { return };
            if !small(&src) {
                return;
            }
            if c.call(|| format!("copy_({}, {})", show(t), show(&src)), || t.copy_(&src)).is_some() {
                check(c, t, None, 0.0);
            }
        }
    }
}

fn reductions(g: &mut Gen, c: &mut Ctx) {
    let Some(a) = operand(g, c) else { return };
    let t = &a.t;
    if !small(t) {
        return;
    }
    let dims = g.dims(t.dim());
    let keep = g.chance(0.5);
    let k = g.below(7);
    let names = ["sum", "mean", "prod", "amax", "amin", "argmax", "argmin"];
    let name = names[k];
    let r = if k < 5 {
        let f = [Tensor::sum, Tensor::mean, Tensor::prod, Tensor::amax, Tensor::amin][k];
        c.call(|| format!("{name}({}, {dims:?}, keepdim={keep})", show(t)), || f(t, &dims, keep))
    } else {
        let d = g.chance(0.7).then(|| g.dim(t.dim()));
        let f = [Tensor::argmax, Tensor::argmin][k - 5];
        c.call(|| format!("{name}({}, {d:?}, keepdim={keep})", show(t)), || f(t, d, keep))
    };
    let Some(r) = r else { return };
    let want = match (&a.values, k) {
        (Some(v), 0) if dims.is_empty() && t.dtype() != DType::Bool => Some(vec![v.iter().sum()]),
        (Some(v), 3 | 4) if dims.is_empty() && !v.is_empty() && t.dtype() != DType::Bool => {
            let nan = v.iter().any(|x| x.is_nan());
            let m = v.iter().fold(v[0], |m, &x| if k == 3 { m.max(x) } else { m.min(x) });
            Some(vec![if nan { f64::NAN } else { m }])
        }
        _ => None,
    };
    let tol = if matches!(t.dtype(), DType::F16 | DType::BF16) { 1e-2 } else { 1e-6 };
    let want = want.filter(|w| r.numel() == w.len() && !(k == 0 && t.dtype() == DType::U8));
    check(c, &r, want.as_deref(), tol);
}

fn matmul(g: &mut Gen, c: &mut Ctx) {
    let (Some(a), Some(b)) = (operand(g, c), operand(g, c)) else { return };
    let (x, y) = (&a.t, &b.t);
    if !(small(x) && small(y)) {
        return;
    }
    // A last dim of `x` resized to match `y` often enough for the product to run.
    let y = if g.chance(0.5) && x.dim() >= 1 && y.dim() >= 1 {
        let k = x.sizes()[x.dim() - 1];
        let row = if y.dim() == 1 { 0 } else { y.dim() - 2 };
        let mut shape: Vec<i64> = y.sizes().iter().map(|&s| s as i64).collect();
        if y.sizes()[row] != k && (y.sizes()[row] == 1) {
            shape[row] = k as i64;
            match c.call(|| format!("expand({}, {shape:?})", show(y)), || y.expand(&shape)) {
                Some(t) => t,
                None => return,
            }
        } else {
            y.alias()
        }
    } else {
        y.alias()
    };
    if let Some(r) = c.call(|| format!("matmul({}, {})", show(x), show(&y)), || x.matmul(&y)) {
        check(c, &r, None, 0.0);
    }
}

fn access(g: &mut Gen, c: &mut Ctx) {
    let Some(a) = operand(g, c) else { return };
    let t = &a.t;
    match g.below(5) {
        0 => {
            c.call(|| format!("item::<f32>({})", show(t)), || t.item::<f32>());
        }
        1 => {
            c.call(|| format!("item::<bool>({})", show(t)), || t.item::<bool>().map(|b| b as u8));
        }
        2 if small(t) => {
            c.call(|| format!("to_vec::<i64>({})", show(t)), || t.to_vec::<i64>());
        }
        3 if small(t) => {
            c.call(|| format!("display({})", show(t)), || Ok(format!("{t}")));
        }
        _ if small(t) => {
            c.call(|| format!("to_vec::<u8>({})", show(t)), || t.to_vec::<u8>());
        }
        _ => {}
    }
}

fn iterator(g: &mut Gen, c: &mut Ctx) {
    let (Some(a), Some(b)) = (operand(g, c), operand(g, c)) else { return };
    if !(small(&a.t) && small(&b.t)) {
        return;
    }
    let mut cfg = TensorIteratorConfig::new();
    let mut steps = Vec::new();
    for _ in 0..g.below(7) {
        let s = g.below(12);
        steps.push(s);
        cfg = match s {
            0 => cfg.add_output(&a.t),
            1 => cfg.add_undefined_output(),
            2 => cfg.add_input(&b.t),
            3 => cfg.add_const_input(&a.t),
            4 => cfg.add_scalar_input(g.scalar()),
            5 => cfg.is_reduction(true),
            6 => cfg.resize_outputs(g.chance(0.5)),
            7 => cfg.declare_static_shape(&g.sizes(2)),
            8 => cfg.promote_inputs_to_common_dtype(true).cast_common_dtype_to_outputs(true),
            9 => cfg.check_all_same_dtype(g.chance(0.5)),
            10 => cfg.declare_static_dtype(g.dtype()),
            _ => cfg.enforce_linear_iteration(true).set_check_mem_overlap(g.chance(0.5)),
        };
    }
    let Some(it) = c.call(|| format!("TensorIterator::build(steps {steps:?})"), || TensorIterator::build(cfg)) else {
        return;
    };
    let i = if g.hostile() { g.pick(&[usize::MAX, 7, 100]) } else { g.below(4) };
    c.call(|| format!("iterator.strides({i}) / dtype({i})"), || Ok((it.strides(i).len(), it.dtype(i))));
    c.call(|| format!("iterator.output({i})"), || Ok(it.output(i).dim()));
    c.call(|| format!("iterator.input({i})"), || Ok(it.input(i).dim()));
    c.call(|| "iterator.explain()".to_string(), || Ok(it.explain().to_string()));
    let n = std::sync::atomic::AtomicUsize::new(0);
    if c.call(|| "iterator.for_each(count)".to_string(), || {
        it.for_each(|_, _, s0, s1| {
            n.fetch_add(s0 * s1, std::sync::atomic::Ordering::Relaxed);
        });
        Ok(())
    }).is_some() {
        let n = n.into_inner();
        c.check(n == it.numel(), || format!("for_each visited {n} of {} elements", it.numel()));
    }
}

fn free_functions(g: &mut Gen, c: &mut Ctx) {
    let nd = g.ndim(5);
    let (sizes, strides) = (g.sizes(nd), g.strides(nd));
    let shape = { let n = g.ndim(5); g.shape_i64(n) };
    match g.below(12) {
        0 => {
            let other = { let n = g.ndim(5); g.sizes(n) };
            c.call(|| format!("broadcast_shapes({sizes:?}, {other:?})"), || tensor_core::broadcast_shapes(&sizes, &other));
        }
        1 => {
            c.call(|| format!("infer_expand_geometry({sizes:?}, {strides:?}, {shape:?})"), || adapt::infer_expand_geometry(&sizes, &strides, &shape));
        }
        2 => {
            let new = { let n = g.ndim(5); g.sizes(n) };
            c.call(|| format!("compute_stride({sizes:?}, {strides:?}, {new:?})"), || adapt::compute_stride(&sizes, &strides, &new));
        }
        3 => {
            c.call(|| format!("infer_dense_strides({sizes:?}, {strides:?})"), || adapt::infer_dense_strides(&sizes, &strides));
        }
        4 => {
            c.call(|| format!("repeat_decomposition({sizes:?}, {shape:?})"), || tensor_core::repeat_decomposition(&sizes, &shape));
        }
        5 => {
            let d = g.dim(nd);
            c.call(|| format!("wrap_dim({d}, {nd})"), || tensor_core::wrap_dim(d, nd));
            let ds = g.dims(nd);
            c.call(|| format!("wrap_dims({ds:?}, {nd})"), || tensor_core::wrap_dims(&ds, nd));
        }
        6 => {
            c.call(|| format!("view::infer_size({shape:?}, {})", sizes.len()), || tensor_core::view::infer_size(&shape, sizes.len()));
        }
        7 => {
            let f = g.format();
            c.call(|| format!("strides_for_format({sizes:?}, {f:?})"), || tensor_core::memory_format::strides_for_format(&sizes, f));
        }
        8 => {
            let off = g.offset();
            let Some(l) = c.call(|| format!("Layout::new({sizes:?}, {strides:?}, {off})"), || adapt::layout_new(sizes.clone(), strides.clone(), off)) else { return };
            c.call(|| format!("required_storage_len({l:?})"), || adapt::required_storage_len(&l));
            c.call(|| format!("contiguity_flags({l:?})"), || Ok(l.contiguity_flags()));
            c.call(|| format!("suggest_memory_format({l:?})"), || Ok(l.suggest_memory_format(false)));
            c.call(|| format!("preserve_strides({l:?})"), || Ok(tensor_core::memory_format::preserve_strides(&l)));
            c.call(|| format!("offsets({l:?}).take(8)"), || Ok(l.offsets().take(8).count()));
        }
        9 => {
            c.call(|| format!("Layout::checked({sizes:?}, {strides:?}, 0)"), || Layout::checked(sizes.clone(), strides.clone(), 0));
            c.call(|| format!("Layout::contiguous({sizes:?})"), || Layout::contiguous(&sizes));
        }
        10 => {
            let ds = g.dims(nd);
            c.call(|| format!("make_dim_mask({ds:?}, {nd})"), || tensor_core::iterator::reduce::make_dim_mask(&ds, nd));
        }
        _ => {
            let (Some(a), Some(b)) = (operand(g, c), operand(g, c)) else { return };
            c.call(|| format!("has_internal_overlap({})", show(&a.t)), || Ok(tensor_core::iterator::has_internal_overlap(&a.t)));
            c.call(|| format!("get_overlap_status({}, {})", show(&a.t), show(&b.t)), || Ok(tensor_core::iterator::get_overlap_status(&a.t, &b.t)));
        }
    }
}
