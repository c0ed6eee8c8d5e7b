//! A stopgap strided copy between tensors of equal sizes and dtype, element by element
//! along [`Layout::offsets`](crate::Layout::offsets). Used to materialise views
//! (`contiguous`, `clone`, `reshape`, `repeat`) until the iterator's `copy_` is wired in.

use crate::{dispatch_dtype, Tensor};

/// Copies `src` into `dst` element for element in logical row-major order.
///
/// Both must have the same sizes and dtype (checked by debug assertions; callers in this
/// crate only pass fresh destinations). Locks: when both share one storage, a single
/// write lock is taken and the source elements are read first, so overlapping views
/// copy as if through a temporary; otherwise the two locks are taken in
/// [`Storage::id`](crate::Storage::id) order.
pub(crate) fn copy_same_dtype(dst: &Tensor, src: &Tensor) {
    debug_assert_eq!(dst.sizes(), src.sizes());
    debug_assert_eq!(dst.dtype(), src.dtype());
    if dst.numel() == 0 {
        return;
    }
    dispatch_dtype!(dst.dtype(), T, {
        if dst.shares_storage(src) {
            let mut buf = dst.storage().write();
            let data = buf.as_mut_slice::<T>();
            let values: Vec<T> = src.layout().offsets().map(|i| data[i]).collect();
            for (i, v) in dst.layout().offsets().zip(values) {
                data[i] = v;
            }
        } else {
            let (read, mut write);
            if src.storage().id() < dst.storage().id() {
                read = src.storage().read();
                write = dst.storage().write();
            } else {
                write = dst.storage().write();
                read = src.storage().read();
            }
            let from = read.as_slice::<T>();
            let to = write.as_mut_slice::<T>();
            for (d, s) in dst.layout().offsets().zip(src.layout().offsets()) {
                to[d] = from[s];
            }
        }
    })
}
