//! The copy / cast kernel (`copy_stub`): converts every element from the input's dtype
//! to the output's as `static_cast` does.

#[cfg(not(unoptimized))]
use super::elementwise::unary;
use crate::dispatch_dtype;
use crate::element::Element;
use crate::iterator::TensorIterator;

/// Copies operand 1 into operand 0, casting between their dtypes.
#[cfg(not(unoptimized))]
#[cfg_attr(unoptimized, inline)]
pub(crate) fn copy_kernel(iter: &TensorIterator) {
    let (dst, src) = (iter.dtype(0), iter.dtype(1));
    dispatch_dtype!(dst, O, {
        dispatch_dtype!(src, I, {
            unary::<I, O, _>(iter, |x: I| x.cast::<O>());
        })
    })
}

/// Copies operand 1 into operand 0, casting between their dtypes: without optimisation
/// (build.rs), one walk for every pair of dtypes, [`Element::cast`] split into a load
/// per source dtype and a store per destination dtype (20 small functions instead of
/// 100 loops).
#[cfg(unoptimized)]
#[cfg_attr(unoptimized, inline)]
pub(crate) fn copy_kernel(iter: &TensorIterator) {
    let (dst, src) = (iter.dtype(0), iter.dtype(1));
    let load: unsafe fn(*const u8) -> Wide = dispatch_dtype!(src, I, load::<I>);
    let store: unsafe fn(*mut u8, Wide) = dispatch_dtype!(dst, O, store::<O>);
    let size0 = dst.size() as isize;
    iter.for_each(move |data, s, n0, n1| {
        // As `unary`: a stride-0 input under a contiguous output is read once.
        let once = s[0] == size0 && s[1] == 0;
        for j in 0..n1 {
            let j = j as isize;
            let mut o = data[0].wrapping_offset(j.wrapping_mul(s[2]));
            let mut a = data[1].wrapping_offset(j.wrapping_mul(s[3])) as *const u8;
            let mut value = Wide::I(0);
            if once {
                // SAFETY: `a` points at an element of the source's dtype inside its
                // locked storage (the plan's geometry), read before any write.
                value = unsafe { load(a) };
            }
            for _ in 0..n0 {
                // SAFETY: element i of each operand lies inside its locked storage (the
                // output's write-locked), of the dtype `load` / `store` were chosen for;
                // raw reads and writes allow any overlap.
                unsafe {
                    if !once {
                        value = load(a);
                    }
                    store(o, value);
                }
                o = o.wrapping_offset(s[0]);
                a = a.wrapping_offset(s[1]);
            }
        }
    });
}

/// An element widened as [`Element::cast`] does: floats to `f64`, the rest to `i64`.
#[cfg(unoptimized)]
#[derive(Clone, Copy)]
enum Wide {
    F(f64),
    I(i64),
}

/// Reads one `I` and widens it.
///
/// # Safety
/// `p` must point at an initialised, aligned `I` inside a locked storage.
#[cfg(unoptimized)]
unsafe fn load<I: Element>(p: *const u8) -> Wide {
    // SAFETY: guaranteed by the caller.
    let x = unsafe { p.cast::<I>().read() };
    if I::DTYPE.is_floating() {
        Wide::F(x.to_f64())
    } else {
        Wide::I(x.to_i64())
    }
}

/// Narrows a widened element to `O` and writes it.
///
/// # Safety
/// `p` must point at an aligned `O` inside a storage whose write lock is held.
#[cfg(unoptimized)]
unsafe fn store<O: Element>(p: *mut u8, v: Wide) {
    let x = match v {
        Wide::F(f) => O::from_f64(f),
        Wide::I(i) => O::from_i64(i),
    };
    // SAFETY: guaranteed by the caller.
    unsafe { p.cast::<O>().write(x) };
}
