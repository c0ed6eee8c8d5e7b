//! `Strided`: a matrix view inside a storage slice, the operand type of every GEMM
//! backend (`gemm.rs`, `small.rs`).

/// A strided matrix inside a storage slice: element `(i, p)` is
/// `data[offset + i * rs + p * cs]`. Constructed only after `plan::in_bounds` succeeded.
#[derive(Clone, Copy)]
pub(super) struct Strided<'a, T> {
    pub(super) data: &'a [T],
    pub(super) offset: isize,
    pub(super) rs: isize,
    pub(super) cs: isize,
}

impl<T: Copy> Strided<'_, T> {
    #[inline(always)]
    pub(super) fn at(&self, i: usize, p: usize) -> T {
        self.data[(self.offset + i as isize * self.rs + p as isize * self.cs) as usize]
    }
}
