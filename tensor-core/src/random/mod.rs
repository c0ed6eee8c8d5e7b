//! Seeded random tensors: `torch.rand`, `torch.randn`, `torch.randperm`, with
//! PyTorch's own CPU generator, so that a seed gives the very values PyTorch gives.
//!
//! Every function takes an explicit `seed` and draws from a fresh generator seeded as
//! `torch.Generator().manual_seed(seed)` seeds one: the 32-bit Mersenne Twister of
//! [`mt19937`] (only the seed's low 32 bits count, as in PyTorch). The draws become
//! values with PyTorch's CPU kernels' transforms: [`uniform`] for `torch.rand`,
//! [`normal`] for `torch.randn`, [`shuffle`] for `torch.randperm`. The result depends
//! only on the seed and the sizes, never on the thread count (PyTorch's kernels draw
//! serially, and so do these) nor on the CPU (`randn`'s fused multiply-adds round once
//! whether they are FMA instructions or library calls).
//!
//! Against PyTorch 2.15 on the CPU (`tests/data/random/`, recorded by its `record.py`:
//! five seeds, one of them above 2^32, sizes 1 to 1000), `rand` (float32), `randn`
//! (float32, both of its paths) and `randperm` (int64) match bit for bit; so did
//! `rand` and `randn` of 10^6 elements, `randn` of 15 elements for 20000 seeds and
//! `randperm(5000)` for 20 seeds, checked once when this was written. `randn` is matched
//! against PyTorch's x86-64 build with AVX2 (what
//! `torch.backends.cpu.get_cpu_capability()` reports as `AVX2` or `AVX512`); other
//! builds (ARM, or x86 without AVX2) compute `randn` of 16 or more elements with the C
//! library's `logf`, `cosf`, `sinf` instead of the Cephes polynomials used here, so
//! their values may differ from ours in the last bits (same distribution). `randperm`
//! of 214748364 or more elements (PyTorch's 64-bit-draw path) follows PyTorch's source
//! but was not compared (1.7 GB per case).

mod avx_mathfun;
pub(crate) mod mt19937;
mod normal;
mod shuffle;
pub(crate) mod uniform;

use crate::alloc::try_with_capacity;
use crate::error::Result;
use crate::layout::contiguous_nbytes;
use crate::tensor::Tensor;
use mt19937::Mt19937;

impl Tensor {
    /// A contiguous `f32` tensor of `sizes` filled with independent uniform samples from
    /// `[0, 1)`: the values of
    /// `torch.rand(sizes, generator=torch.Generator().manual_seed(seed))`, bit for bit.
    /// Each element takes the low 24 bits of one 32-bit draw, times 2^-24, in row-major
    /// order. Equal seeds give equal tensors.
    ///
    /// # Errors
    /// [`Error::StorageSizeOverflow`](crate::error::Error::StorageSizeOverflow) when the sizes
    /// multiply past `isize::MAX`; [`Error::OutOfMemory`](crate::error::Error::OutOfMemory).
    #[cfg_attr(unoptimized, inline)]
    pub fn rand(sizes: &[usize], seed: u64) -> Result<Tensor> {
        let numel = contiguous_nbytes(sizes, 4)? / 4;
        let mut data = try_with_capacity::<f32>(numel)?;
        let mut gen = Mt19937::new(seed);
        data.extend((0..numel).map(|_| uniform::f32_from_bits(gen.next_u32())));
        Tensor::from_vec(data, sizes)
    }

    /// A contiguous `f32` tensor of `sizes` filled with independent standard normal
    /// samples (mean 0, variance 1): the values of
    /// `torch.randn(sizes, generator=torch.Generator().manual_seed(seed))`, bit for bit
    /// as PyTorch's x86-64 AVX2 build computes them: Box–Muller over `f64` uniform pairs
    /// below 16 elements, over blocks of 16 `f32` uniforms from 16 on (the last block
    /// redrawn when 16 does not divide the size). Equal seeds give equal tensors.
    ///
    /// # Errors
    /// [`Error::StorageSizeOverflow`](crate::error::Error::StorageSizeOverflow) when the sizes
    /// multiply past `isize::MAX`; [`Error::OutOfMemory`](crate::error::Error::OutOfMemory).
    #[cfg_attr(unoptimized, inline)]
    pub fn randn(sizes: &[usize], seed: u64) -> Result<Tensor> {
        let numel = contiguous_nbytes(sizes, 4)? / 4;
        let mut data = try_with_capacity::<f32>(numel)?;
        data.resize(numel, 0.0);
        normal::fill_standard_normal(&mut data, &mut Mt19937::new(seed));
        Tensor::from_vec(data, sizes)
    }

    /// A 1-d `int64` tensor of `n` elements holding a random permutation of `0..n`: the
    /// values of `torch.randperm(n, generator=torch.Generator().manual_seed(seed))`.
    /// Equal seeds give equal permutations.
    ///
    /// # Errors
    /// As [`randperm`].
    #[cfg_attr(unoptimized, inline)]
    pub fn randperm(n: usize, seed: u64) -> Result<Tensor> {
        randperm(n, seed)
    }
}

/// `torch.randperm(n, generator=torch.Generator().manual_seed(seed))`: a 1-d `int64`
/// tensor holding the random permutation of `0..n` that PyTorch's CPU kernel draws (a
/// Fisher–Yates shuffle with one 32-bit draw per swap; 64-bit draws from 214748364
/// elements on), bit for bit.
///
/// # Errors
/// [`Error::StorageSizeOverflow`](crate::error::Error::StorageSizeOverflow) when `n` int64
/// values exceed `isize::MAX` bytes (`randperm(usize::MAX, 0)`);
/// [`Error::OutOfMemory`](crate::error::Error::OutOfMemory) when they cannot be allocated.
#[cfg_attr(unoptimized, inline)]
pub fn randperm(n: usize, seed: u64) -> Result<Tensor> {
    contiguous_nbytes(&[n], std::mem::size_of::<i64>())?;
    let mut perm = try_with_capacity::<i64>(n)?;
    perm.resize(n, 0);
    shuffle::fill_permutation(&mut perm, &mut Mt19937::new(seed));
    Tensor::from_vec(perm, &[n])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;

    /// A few values recorded from PyTorch 2.15 (x86-64, AVX2), as in
    /// `tests/data/random/random.json`, which `tests/tests/random.rs` compares in full:
    /// `torch.rand(6)` with seed 42, `torch.randn(3)` (the f64 path) and `torch.randn(17)`
    /// (the blocks of 16) with seed 1, `torch.randperm(10)` with seed 3. Bit for bit.
    #[test]
    fn seeded_streams_are_pytorchs() {
        let bits = |t: Tensor| -> Vec<u32> {
            t.to_vec::<f32>()
                .unwrap()
                .iter()
                .map(|x| x.to_bits())
                .collect()
        };
        let uniform = [
            0x3f61dc66, 0x3f6a3db3, 0x3ec406b8, 0x3f75950e, 0x3ec7e8d4, 0x3f19d447,
        ];
        assert_eq!(bits(Tensor::rand(&[6], 42).unwrap()), uniform);
        let normal = [0x3f294e60, 0x3e88aa47, 0x3d7ca14b];
        assert_eq!(bits(Tensor::randn(&[3], 1).unwrap()), normal);
        let normal17 = bits(Tensor::randn(&[17], 1).unwrap());
        assert_eq!(normal17[..3], [0xbfc346ba, 0xbf9493d5, 0x3f331536]);
        assert_eq!(normal17[16], 0xbf4c668d);
        let perm = randperm(10, 3).unwrap().to_vec::<i64>().unwrap();
        assert_eq!(perm, [6, 0, 3, 7, 8, 5, 1, 9, 2, 4]);
    }

    #[test]
    fn rand_is_uniform_in_unit_interval_and_f32() {
        let t = Tensor::rand(&[100, 100], 7).unwrap();
        assert_eq!(t.dtype(), DType::F32);
        assert_eq!(t.sizes(), &[100, 100]);
        let v = t.to_vec::<f32>().unwrap();
        assert!(v.iter().all(|&x| (0.0..1.0).contains(&x)));
        let mean = v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64;
        assert!((mean - 0.5).abs() < 0.01, "mean {mean}");
    }

    #[test]
    fn randn_has_zero_mean_and_unit_variance() {
        let v = Tensor::randn(&[20000], 3).unwrap().to_vec::<f32>().unwrap();
        let n = v.len() as f64;
        let mean = v.iter().map(|&x| x as f64).sum::<f64>() / n;
        let var = v.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / n;
        assert!(mean.abs() < 0.03, "mean {mean}");
        assert!((var - 1.0).abs() < 0.05, "var {var}");
    }

    #[test]
    fn same_seed_gives_same_values_and_other_seed_differs() {
        let a = Tensor::rand(&[3, 4], 42).unwrap().to_vec::<f32>().unwrap();
        let b = Tensor::rand(&[3, 4], 42).unwrap().to_vec::<f32>().unwrap();
        let c = Tensor::rand(&[3, 4], 43).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let x = Tensor::randn(&[5], 1).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(x, Tensor::randn(&[5], 1).unwrap().to_vec::<f32>().unwrap());
    }

    #[test]
    fn rand_of_size_zero_is_empty_and_zero_dim_has_one_value() {
        assert_eq!(Tensor::rand(&[0, 3], 1).unwrap().numel(), 0);
        assert_eq!(Tensor::randn(&[], 1).unwrap().numel(), 1);
    }

    #[test]
    fn rand_with_overflowing_sizes_is_an_error() {
        assert!(Tensor::rand(&[1 << 40, 1 << 40], 0).is_err());
    }

    #[test]
    fn randperm_usize_max_is_an_error_not_a_panic() {
        assert!(matches!(
            randperm(usize::MAX, 0),
            Err(crate::error::Error::StorageSizeOverflow { .. })
        ));
        assert!(matches!(
            randperm(1 << 50, 0),
            Err(crate::error::Error::OutOfMemory { .. })
        ));
    }

    #[test]
    fn rand_of_2_pow_46_is_out_of_memory_not_an_abort() {
        assert!(matches!(
            Tensor::rand(&[1 << 46], 0),
            Err(crate::error::Error::OutOfMemory { .. })
        ));
        assert!(Tensor::randn(&[1 << 46], 0).is_err());
    }

    #[test]
    fn randperm_is_a_permutation() {
        let t = Tensor::randperm(50, 9).unwrap();
        assert_eq!(t.dtype(), DType::I64);
        let mut v = t.to_vec::<i64>().unwrap();
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        v.sort();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
        assert_eq!(randperm(0, 1).unwrap().sizes(), &[0]);
        assert_eq!(
            randperm(50, 9).unwrap().to_vec::<i64>().unwrap(),
            t.to_vec::<i64>().unwrap()
        );
    }
}
