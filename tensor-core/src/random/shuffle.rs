//! The random permutation of `torch.randperm` on the CPU (`randperm_cpu` in ATen's
//! `TensorFactories.cpp`).
//!
//! Below `u32::MAX / 20` elements (214748364) PyTorch runs a forward Fisher–Yates
//! shuffle with one 32-bit draw per step, reduced by `%` (slightly biased, as PyTorch):
//! for `i` in `0..n - 1`, swap elements `i` and `i + draw % (n - i)`. From that size on
//! it runs the "inside-out" variant with 64-bit draws: for `i` in `0..n`, with
//! `z = draw % (i + 1)`, element `i` takes element `z`'s value and element `z` takes `i`.

use super::mt19937::Mt19937;

/// The size from which PyTorch switches to 64-bit draws.
const LARGE: usize = (u32::MAX / 20) as usize;

/// Writes into `perm` (every element overwritten) the permutation of `0..perm.len()`
/// that `torch.randperm(perm.len())` draws from `gen`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn fill_permutation(perm: &mut [i64], gen: &mut Mt19937) {
    let n = perm.len();
    if n < LARGE {
        for (i, p) in perm.iter_mut().enumerate() {
            *p = i as i64;
        }
        for i in 0..n.saturating_sub(1) {
            let z = gen.next_u32() as usize % (n - i);
            perm.swap(i, i + z);
        }
    } else {
        for i in 0..n {
            let z = (gen.next_u64() % (i as u64 + 1)) as usize;
            perm[i] = perm[z];
            perm[z] = i as i64;
        }
    }
}
