//! `Strided`: a matrix view inside a storage slice, the operand type of every GEMM
//! backend (`gemm.rs`, `small.rs`); `Weight`: the right operand of the few-rows kernels
//! (`few_rows.rs`, `row_dots.rs`).

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

/// `b` (`k` rows): element `(p, j)` is `data[offset + p * rs + j * cs]`, with `cs == 1`
/// (a row-major `[in, out]` weight) or `rs == 1` (`Wᵀ` of a row-major `[out, in]` `W`).
#[derive(Clone, Copy)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) struct Weight<'a> {
    pub(super) data: &'a [f32],
    pub(super) offset: usize,
    pub(super) rs: usize,
    pub(super) cs: usize,
    pub(super) k: usize,
}
