//! Operands of a case (sane strided views, hostile layouts, constructors) and the checks
//! every `Ok` tensor goes through before anything reads it.

use super::adapt;
use super::gen::Gen;
use super::runner::Ctx;
use crate::naive::{extent, numel, unravel};
use half::{bf16, f16};
use tensor_core::{DType, Storage, Tensor};

/// Largest element count the harness materialises or computes over.
pub const CAP: u128 = 4096;

/// An output this large (elements) cannot be allocated: asking for it must be an `Err`.
pub const UNALLOCATABLE: u128 = 1 << 38;

/// A tensor of the case and, when known, its logical values (row-major).
pub struct Opnd {
    /// The tensor.
    pub t: Tensor,
    /// Its values, when the harness knows them independently of the runtime.
    pub values: Option<Vec<f64>>,
}

/// `dtype[sizes]/strides+offset`, for call descriptions.
pub fn show(t: &Tensor) -> String {
    format!(
        "{:?}{:?}/{:?}+{}",
        t.dtype(),
        t.sizes(),
        t.strides(),
        t.storage_offset()
    )
}

/// Storage of `dtype` holding `data` (each value exactly representable; `data` is small,
/// so its allocation cannot fail).
pub fn storage_of(data: &[f64], dtype: DType) -> Storage {
    let storage = match dtype {
        DType::Bool => Storage::from_vec(data.iter().map(|&v| v != 0.0).collect::<Vec<_>>()),
        DType::U8 => Storage::from_vec(data.iter().map(|&v| v as u8).collect::<Vec<_>>()),
        DType::I8 => Storage::from_vec(data.iter().map(|&v| v as i8).collect::<Vec<_>>()),
        DType::I16 => Storage::from_vec(data.iter().map(|&v| v as i16).collect::<Vec<_>>()),
        DType::I32 => Storage::from_vec(data.iter().map(|&v| v as i32).collect::<Vec<_>>()),
        DType::I64 => Storage::from_vec(data.iter().map(|&v| v as i64).collect::<Vec<_>>()),
        DType::F16 => Storage::from_vec(data.iter().map(|&v| f16::from_f64(v)).collect::<Vec<_>>()),
        DType::BF16 => {
            Storage::from_vec(data.iter().map(|&v| bf16::from_f64(v)).collect::<Vec<_>>())
        }
        DType::F32 => Storage::from_vec(data.iter().map(|&v| v as f32).collect::<Vec<_>>()),
        DType::F64 => Storage::from_vec(data.to_vec()),
    };
    storage.expect("a small storage")
}

/// The values of the layout `(sizes, strides, offset)` over `data`, by the naive walk;
/// `None` when it reaches outside `data` or is too large.
pub fn walk(data: &[f64], sizes: &[usize], strides: &[isize], offset: usize) -> Option<Vec<f64>> {
    let n = numel(sizes);
    if n > CAP || sizes.len() != strides.len() {
        return None;
    }
    if let Some((lo, hi)) = extent(sizes, strides, offset) {
        if lo < 0 || hi >= data.len() as i128 {
            return None;
        }
    }
    Some(
        (0..n as usize)
            .map(|f| {
                let idx = unravel(f, sizes);
                let off = idx
                    .iter()
                    .zip(strides)
                    .fold(offset as isize, |acc, (&i, &s)| acc + i as isize * s);
                data[off as usize]
            })
            .collect(),
    )
}

/// `a` and `b` equal within `tol` (relative), NaN equal to NaN.
pub fn same(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(&x, &y)| {
            (x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= tol * y.abs().max(1.0)
        })
}

/// Checks an `Ok` tensor: sizes and strides of one length, a layout inside its storage,
/// and (when small) readable elements, bools 0 or 1, values equal to `want` (within
/// `tol`). Returns whether the tensor is safe to use further.
pub fn check(c: &mut Ctx, t: &Tensor, want: Option<&[f64]>, tol: f64) -> bool {
    let (sizes, strides) = (t.sizes().to_vec(), t.strides().to_vec());
    if sizes.len() != strides.len() {
        c.check(false, || {
            format!("sizes {sizes:?} and strides {strides:?} differ in length")
        });
        return false;
    }
    let len = t.storage().nbytes() / t.dtype().size();
    if let Some((lo, hi)) = extent(&sizes, &strides, t.storage_offset()) {
        if lo < 0 || hi >= len as i128 {
            c.check(false, || {
                format!(
                    "accepted a layout reaching storage indices {lo}..={hi} of a storage of {len} elements: {}",
                    show(t)
                )
            });
            return false;
        }
    }
    if numel(&sizes) > CAP {
        return true;
    }
    let Some(got) = c.call(|| format!("to_vec_f64({})", show(t)), || t.to_vec_f64()) else {
        return false;
    };
    if t.dtype() == DType::Bool {
        c.check(got.iter().all(|&v| v == 0.0 || v == 1.0), || {
            format!("a bool tensor holds {got:?}")
        });
    }
    if let Some(want) = want {
        c.check(same(&got, want, tol), || {
            format!("values {got:?}, naive walk gives {want:?}")
        });
    }
    true
}

/// A fresh operand: a sane strided view, a hostile layout, or a constructor's result.
/// `None` when the runtime refused it (or accepted something the checks reject).
pub fn operand(g: &mut Gen, c: &mut Ctx) -> Option<Opnd> {
    let dtype = g.dtype();
    match g.below(10) {
        0..=5 => sane(g, c, dtype),
        6 => hostile_parts(g, c, dtype),
        7 => {
            let base = sane(g, c, dtype)?;
            let nd = g.ndim(4);
            let (sizes, strides, off) = (g.sizes(nd), g.strides(nd), g.offset());
            let t = c.call(
                || {
                    format!(
                        "as_strided({}, {sizes:?}, {strides:?}, {off})",
                        show(&base.t)
                    )
                },
                || base.t.as_strided(&sizes, &strides, off),
            )?;
            check(c, &t, None, 0.0).then_some(Opnd { t, values: None })
        }
        8 => {
            let sizes = g.small_sizes();
            let t = match g.below(5) {
                0 => c.call(
                    || format!("zeros({sizes:?}, {dtype:?})"),
                    || Tensor::zeros(&sizes, dtype),
                ),
                1 => c.call(
                    || format!("ones({sizes:?}, {dtype:?})"),
                    || Tensor::ones(&sizes, dtype),
                ),
                2 => {
                    let n = g.below(6);
                    c.call(
                        || format!("arange({n}, {dtype:?})"),
                        || adapt::arange(n, dtype),
                    )
                }
                3 => {
                    let seed = g.u64();
                    c.call(
                        || format!("rand({sizes:?}, {seed})"),
                        || Tensor::rand(&sizes, seed),
                    )
                }
                _ => {
                    let s = g.scalar();
                    c.call(
                        || format!("full({sizes:?}, {s:?}, {dtype:?})"),
                        || Tensor::full(&sizes, s, dtype),
                    )
                }
            }?;
            check(c, &t, None, 0.0).then_some(Opnd { t, values: None })
        }
        _ => {
            // An expanded view, possibly to unallocatable sizes (no element is touched).
            let base = sane(g, c, dtype)?;
            let nd = base.t.dim() + g.below(3);
            let mut target: Vec<i64> = vec![-1; nd];
            for (i, x) in target.iter_mut().enumerate().take(nd - base.t.dim()) {
                *x = if g.hostile() {
                    g.pick(&super::gen::HUGE_SIZES) as i64
                } else {
                    (i % 3) as i64
                };
            }
            for (i, &s) in base.t.sizes().iter().enumerate() {
                if s == 1 && g.chance(0.5) {
                    target[nd - base.t.dim() + i] = if g.hostile() { 1 << 40 } else { 3 };
                }
            }
            let t = c.call(
                || format!("expand({}, {target:?})", show(&base.t)),
                || base.t.expand(&target),
            )?;
            check(c, &t, None, 0.0).then_some(Opnd { t, values: None })
        }
    }
}

/// A sane strided operand (permuted, stepped, expanded, offset) of small sizes over a
/// storage the harness filled, with its values by the naive walk.
pub fn sane(g: &mut Gen, c: &mut Ctx, dtype: DType) -> Option<Opnd> {
    let sizes = g.small_sizes();
    let nd = sizes.len();
    let mut order: Vec<usize> = (0..nd).collect();
    for i in (1..nd).rev() {
        let j = g.below(i + 1);
        order.swap(i, j);
    }
    let mut strides = vec![0isize; nd];
    let mut acc = 1isize;
    for &d in &order {
        if g.chance(0.1) {
            continue;
        }
        let step = if g.chance(0.25) { 2 } else { 1 };
        strides[d] = acc * step;
        acc *= step * sizes[d].max(1) as isize;
    }
    let offset = g.below(4);
    let len = offset + acc as usize + g.below(3);
    let data: Vec<f64> = (0..len).map(|_| g.value(dtype)).collect();
    let storage = storage_of(&data, dtype);
    let layout = c.call(
        || format!("Layout::new({sizes:?}, {strides:?}, {offset})"),
        || adapt::layout_new(sizes.clone(), strides.clone(), offset),
    )?;
    let t = c.call(
        || format!("from_parts(storage of {len} {dtype:?}, {sizes:?}/{strides:?}+{offset})"),
        || Tensor::from_parts(storage, layout, dtype),
    )?;
    let values = walk(&data, &sizes, &strides, offset);
    check(c, &t, values.as_deref(), 0.0).then_some(Opnd { t, values })
}

/// `from_parts` with hostile sizes, strides and offset over a small storage, sometimes
/// of bytes that are not valid for `dtype` (a `u8` storage holding 2 read as bool).
fn hostile_parts(g: &mut Gen, c: &mut Ctx, dtype: DType) -> Option<Opnd> {
    let nd = g.ndim(4);
    let (sizes, strides, offset) = (g.sizes(nd), g.strides(nd), g.offset());
    let len = g.below(20);
    let storage = if g.chance(0.3) {
        Storage::from_vec((0..len).map(|i| (i * 37 % 256) as u8).collect::<Vec<_>>())
            .expect("a small storage")
    } else {
        let data: Vec<f64> = (0..len).map(|_| g.value(dtype)).collect();
        storage_of(&data, dtype)
    };
    let nbytes = storage.nbytes();
    let layout = c.call(
        || format!("Layout::new({sizes:?}, {strides:?}, {offset})"),
        || adapt::layout_new(sizes.clone(), strides.clone(), offset),
    )?;
    let t = c.call(
        || {
            format!(
                "from_parts(storage of {nbytes} bytes, {sizes:?}/{strides:?}+{offset}, {dtype:?})"
            )
        },
        || Tensor::from_parts(storage, layout, dtype),
    )?;
    check(c, &t, None, 0.0).then_some(Opnd { t, values: None })
}
