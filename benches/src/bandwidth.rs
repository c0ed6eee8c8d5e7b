//! The physical limit of the streaming cases: `c[i] = a[i] + b[i]` on plain slices.

use rayon::prelude::*;

/// Elements per task of [`add_slices`]: 64 Ki f32 = 256 KiB per operand, large enough
/// that scheduling costs nothing, small enough to balance two cores.
pub const CHUNK: usize = 1 << 16;

/// `c[i] = a[i] + b[i]` over chunks of [`CHUNK`] elements split across the current
/// rayon pool. Moves `3 * 4 * len` bytes per call. The inner loop is a zip over
/// slices, which the compiler vectorises.
///
/// # Panics
/// When the three slices differ in length (a bug in the caller, not user input).
pub fn add_slices(a: &[f32], b: &[f32], c: &mut [f32]) {
    assert!(
        a.len() == c.len() && b.len() == c.len(),
        "add_slices: lengths differ"
    );
    c.par_chunks_mut(CHUNK)
        .zip(a.par_chunks(CHUNK))
        .zip(b.par_chunks(CHUNK))
        .for_each(|((c, a), b)| {
            for ((c, a), b) in c.iter_mut().zip(a).zip(b) {
                *c = a + b;
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_slices_adds_across_chunk_boundaries() {
        let n = CHUNK * 2 + 3;
        let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let b = vec![1.0f32; n];
        let mut c = vec![0.0f32; n];
        add_slices(&a, &b, &mut c);
        assert!(c.iter().enumerate().all(|(i, &x)| x == i as f32 + 1.0));
    }
}
