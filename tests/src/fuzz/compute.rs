//! Calls that compute: where/clamp/addcmul, casts, fills and copies (with PyTorch's
//! overflow rule for `fill_`), reductions (checked against a naive sum/max/min) and
//! matmul.

use super::gen::Gen;
use super::operand::{check, operand, show};
use super::ops::{out_for, small};
use super::runner::Ctx;
use tensor_core::{DType, Scalar, Tensor};

pub fn ternary(g: &mut Gen, c: &mut Ctx) {
    let (Some(a), Some(b), Some(d)) = (operand(g, c), operand(g, c), operand(g, c)) else {
        return;
    };
    let (x, y, z) = (&a.t, &b.t, &d.t);
    if !(small(x) && small(y) && small(z)) {
        return;
    }
    let (lo, hi) = (
        g.chance(0.7).then(|| g.scalar()),
        g.chance(0.7).then(|| g.scalar()),
    );
    let s = g.scalar();
    let r = match g.below(7) {
        0 => c.call(
            || format!("where_({}, {}, {})", show(x), show(y), show(z)),
            || Tensor::where_(x, y, z),
        ),
        1 => {
            let Some(out) = out_for(g, c, &a) else { return };
            c.call(
                || {
                    format!(
                        "where_out({}, {}, {}, out={})",
                        show(x),
                        show(y),
                        show(z),
                        show(&out)
                    )
                },
                || Tensor::where_out(x, y, z, &out),
            )
        }
        2 => c.call(
            || format!("clamp({}, {lo:?}, {hi:?})", show(x)),
            || x.clamp(lo, hi),
        ),
        3 => c.call(
            || format!("clamp_({}, {lo:?}, {hi:?})", show(x)),
            || x.clamp_(lo, hi).map(|_| x.alias()),
        ),
        4 => {
            let Some(out) = out_for(g, c, &a) else { return };
            c.call(
                || format!("clamp_out({}, {lo:?}, {hi:?}, out={})", show(x), show(&out)),
                || x.clamp_out(lo, hi, &out),
            )
        }
        5 => c.call(
            || format!("addcmul({}, {}, {}, {s:?})", show(x), show(y), show(z)),
            || x.addcmul(y, z, s),
        ),
        _ => c.call(
            || format!("addcmul_({}, {}, {}, {s:?})", show(x), show(y), show(z)),
            || x.addcmul_(y, z, s).map(|_| x.alias()),
        ),
    };
    if let Some(r) = r {
        check(c, &r, None, 0.0);
    }
}

/// Whether PyTorch's `fill_` raises for `s` into `dtype` ("value cannot be converted to
/// type uint8_t without overflow"): integral dtypes only, where we are sure.
fn fill_overflows(s: Scalar, dtype: DType) -> bool {
    // c10's `overflows` lets a negative value wrap into an unsigned type down to -max.
    let (lo, hi) = match dtype {
        DType::U8 => (-255.0, 255.0),
        DType::I64 => (i64::MIN as f64, i64::MAX as f64),
        DType::I8 => (-128.0, 127.0),
        DType::I16 => (-32768.0, 32767.0),
        DType::I32 => (-2147483648.0, 2147483647.0),
        _ => return false,
    };
    let v = s.to_f64();
    !v.is_finite() || v < lo || v > hi
}

pub fn casts_and_fills(g: &mut Gen, c: &mut Ctx) {
    let Some(a) = operand(g, c) else { return };
    let t = &a.t;
    if !small(t) {
        return;
    }
    match g.below(3) {
        0 => {
            let dtype = g.dtype();
            if let Some(r) = c.call(
                || format!("to_dtype({}, {dtype:?})", show(t)),
                || t.to_dtype(dtype),
            ) {
                let want = a.values.as_ref().filter(|_| dtype == DType::F64).cloned();
                check(c, &r, want.as_deref(), 0.0);
            }
        }
        1 => {
            let s = g.scalar();
            let ok = c
                .call(|| format!("fill_({}, {s:?})", show(t)), || t.fill_(s))
                .is_some();
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
            if c.call(
                || format!("copy_({}, {})", show(t), show(&src)),
                || t.copy_(&src),
            )
            .is_some()
            {
                check(c, t, None, 0.0);
            }
        }
    }
}

pub fn reductions(g: &mut Gen, c: &mut Ctx) {
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
        let f = [
            Tensor::sum,
            Tensor::mean,
            Tensor::prod,
            Tensor::amax,
            Tensor::amin,
        ][k];
        c.call(
            || format!("{name}({}, {dims:?}, keepdim={keep})", show(t)),
            || f(t, &dims, keep),
        )
    } else {
        let d = g.chance(0.7).then(|| g.dim(t.dim()));
        let f = [Tensor::argmax, Tensor::argmin][k - 5];
        c.call(
            || format!("{name}({}, {d:?}, keepdim={keep})", show(t)),
            || f(t, d, keep),
        )
    };
    let Some(r) = r else { return };
    let want = match (&a.values, k) {
        (Some(v), 0) if dims.is_empty() && t.dtype() != DType::Bool => Some(vec![v.iter().sum()]),
        (Some(v), 3 | 4) if dims.is_empty() && !v.is_empty() && t.dtype() != DType::Bool => {
            let nan = v.iter().any(|x| x.is_nan());
            let m = v
                .iter()
                .fold(v[0], |m, &x| if k == 3 { m.max(x) } else { m.min(x) });
            Some(vec![if nan { f64::NAN } else { m }])
        }
        _ => None,
    };
    let tol = if matches!(t.dtype(), DType::F16 | DType::BF16) {
        1e-2
    } else {
        1e-6
    };
    let want = want.filter(|w| r.numel() == w.len() && !(k == 0 && t.dtype() == DType::U8));
    check(c, &r, want.as_deref(), tol);
}

pub fn matmul(g: &mut Gen, c: &mut Ctx) {
    let (Some(a), Some(b)) = (operand(g, c), operand(g, c)) else {
        return;
    };
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
            match c.call(
                || format!("expand({}, {shape:?})", show(y)),
                || y.expand(&shape),
            ) {
                Some(t) => t,
                None => return,
            }
        } else {
            y.alias()
        }
    } else {
        y.alias()
    };
    if let Some(r) = c.call(
        || format!("matmul({}, {})", show(x), show(&y)),
        || x.matmul(&y),
    ) {
        check(c, &r, None, 0.0);
    }
}
