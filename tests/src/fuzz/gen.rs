//! Random and hostile argument values: sizes, strides, offsets, dims, scalars, dtypes.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use tensor_core::{DType, MemoryFormat, Scalar, ALL_DTYPES};

/// Sizes no machine can allocate (≥ 2^40 elements, or past `isize::MAX`/`usize::MAX`):
/// a materialising call with one of them in its output must be an `Err`.
pub const HUGE_SIZES: [usize; 6] = [
    1 << 40,
    1 << 61,
    1 << 62,
    isize::MAX as usize,
    1 << 63,
    usize::MAX,
];

/// Hostile strides (elements).
pub const HUGE_STRIDES: [isize; 7] = [
    1 << 61,
    -(1 << 61),
    1 << 40,
    1 << 32,
    isize::MAX,
    isize::MIN,
    -(1 << 40),
];

/// Hostile storage offsets (elements).
pub const HUGE_OFFSETS: [usize; 5] = [1 << 40, 1 << 61, isize::MAX as usize, 1 << 63, usize::MAX];

/// Hostile dims.
pub const HUGE_DIMS: [i64; 6] = [i64::MIN, i64::MAX, 64, -65, 1000, -1000];

/// Integer scalars that overflow most dtypes.
pub const INT_SCALARS: [i64; 12] = [
    0,
    1,
    -1,
    2,
    255,
    256,
    300,
    -129,
    65536,
    i64::MAX,
    i64::MIN,
    1 << 53,
];

/// Float scalars: NaN, infinities, signed zero, values out of every integer range.
pub const FLOAT_SCALARS: [f64; 12] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    -0.0,
    0.5,
    -1.5,
    300.0,
    1e300,
    -1e300,
    9.3e18,
    65504.0,
    1e-320,
];

/// The memory formats.
pub const FORMATS: [MemoryFormat; 4] = [
    MemoryFormat::Contiguous,
    MemoryFormat::ChannelsLast,
    MemoryFormat::ChannelsLast3d,
    MemoryFormat::Preserve,
];

/// The generator of one case.
pub struct Gen {
    rng: ChaCha8Rng,
    /// How hostile this case is: the chance that a value is drawn from the hostile sets.
    pub hostility: f64,
}

impl Gen {
    /// The generator of case `case` of seed `seed`.
    pub fn new(seed: u64, case: u64) -> Gen {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let hostility = [0.0, 0.05, 0.15, 0.4][rng.random_range(0..4)];
        Gen { rng, hostility }
    }

    /// A uniform integer in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n)
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p.clamp(0.0, 1.0))
    }

    /// `true` with probability `hostility`.
    pub fn hostile(&mut self) -> bool {
        let p = self.hostility;
        self.chance(p)
    }

    /// One of `xs`.
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    /// A raw 64-bit value.
    pub fn u64(&mut self) -> u64 {
        self.rng.random()
    }

    /// A size: mostly 0..=4, sometimes huge.
    pub fn size(&mut self) -> usize {
        if self.hostile() {
            self.pick(&HUGE_SIZES)
        } else {
            self.pick(&[0, 1, 1, 2, 2, 3, 3, 4])
        }
    }

    /// A number of dims, 0..=max.
    pub fn ndim(&mut self, max: usize) -> usize {
        if self.chance(0.02) {
            self.pick(&[9, 25, 65])
        } else {
            self.below(max + 1)
        }
    }

    /// `n` sizes.
    pub fn sizes(&mut self, n: usize) -> Vec<usize> {
        (0..n).map(|_| self.size()).collect()
    }

    /// Small sizes only (each 0..=4, at most 4 dims): safe to materialise.
    pub fn small_sizes(&mut self) -> Vec<usize> {
        let n = self.below(5);
        (0..n)
            .map(|_| self.pick(&[0, 1, 1, 2, 2, 3, 3, 4]))
            .collect()
    }

    /// A stride: small (incl. negative and zero) or hostile.
    pub fn stride(&mut self) -> isize {
        if self.hostile() {
            self.pick(&HUGE_STRIDES)
        } else {
            self.pick(&[-2, -1, 0, 1, 1, 2, 3, 4, 6, 12])
        }
    }

    /// `n` strides, sometimes one more or one fewer (mismatched lengths).
    pub fn strides(&mut self, n: usize) -> Vec<isize> {
        let n = self.mismatch(n);
        (0..n).map(|_| self.stride()).collect()
    }

    /// `n`, or with probability `hostility / 2` one more or one fewer.
    pub fn mismatch(&mut self, n: usize) -> usize {
        if self.chance(self.hostility / 2.0) {
            if self.chance(0.5) {
                n + 1
            } else {
                n.saturating_sub(1)
            }
        } else {
            n
        }
    }

    /// A storage offset.
    pub fn offset(&mut self) -> usize {
        if self.hostile() {
            self.pick(&HUGE_OFFSETS)
        } else {
            self.below(5)
        }
    }

    /// A dim for a tensor of `ndim` dims: mostly in range (either sign), sometimes not.
    pub fn dim(&mut self, ndim: usize) -> i64 {
        if self.hostile() {
            self.pick(&HUGE_DIMS)
        } else {
            let n = ndim.max(1) as i64;
            self.rng.random_range(-n - 1..=n)
        }
    }

    /// A list of dims, sometimes duplicated.
    pub fn dims(&mut self, ndim: usize) -> Vec<i64> {
        let k = self.below(ndim.min(4) + 2);
        let mut dims: Vec<i64> = (0..k).map(|_| self.dim(ndim)).collect();
        if !dims.is_empty() && self.chance(0.1) {
            let d = dims[0];
            dims.push(d);
        }
        dims
    }

    /// A permutation of `0..ndim` (signed dims), sometimes broken.
    pub fn perm(&mut self, ndim: usize) -> Vec<i64> {
        let mut p: Vec<i64> = (0..ndim as i64).collect();
        for i in (1..p.len()).rev() {
            let j = self.below(i + 1);
            p.swap(i, j);
        }
        for x in p.iter_mut() {
            if self.chance(0.3) {
                *x -= ndim as i64;
            }
        }
        if self.hostile() {
            match self.below(3) {
                0 => {
                    p.pop();
                }
                1 => p.push(self.dim(ndim)),
                _ => {
                    if let Some(x) = p.first_mut() {
                        *x = self.pick(&HUGE_DIMS);
                    }
                }
            }
        }
        p
    }

    /// A shape for view/reshape/expand: sizes, `-1`, other negatives, huge values.
    pub fn shape_i64(&mut self, n: usize) -> Vec<i64> {
        (0..n)
            .map(|_| {
                if self.hostile() {
                    self.pick(&[-1, -2, i64::MIN, i64::MAX, 1 << 40, 1 << 61, -(1 << 40)])
                } else if self.chance(0.15) {
                    -1
                } else {
                    self.below(5) as i64
                }
            })
            .collect()
    }

    /// A slice/narrow index: small of either sign, or hostile.
    pub fn index(&mut self) -> i64 {
        if self.hostile() {
            self.pick(&[
                i64::MIN,
                i64::MAX,
                i64::MIN + 1,
                1 << 62,
                -(1 << 62),
                1 << 40,
            ])
        } else {
            self.rng.random_range(-6..=6)
        }
    }

    /// A length for `narrow`.
    pub fn length(&mut self) -> usize {
        if self.hostile() {
            self.pick(&HUGE_SIZES)
        } else {
            self.below(5)
        }
    }

    /// A scalar of any kind, often out of range for some dtype.
    pub fn scalar(&mut self) -> Scalar {
        match self.below(3) {
            0 => Scalar::Bool(self.chance(0.5)),
            1 => {
                if self.hostile() {
                    Scalar::Int(self.pick(&INT_SCALARS))
                } else {
                    Scalar::Int(self.rng.random_range(-3..=3))
                }
            }
            _ => {
                if self.hostile() {
                    Scalar::Float(self.pick(&FLOAT_SCALARS))
                } else {
                    Scalar::Float(self.rng.random_range(-8..=8) as f64 * 0.5)
                }
            }
        }
    }

    /// Any dtype.
    pub fn dtype(&mut self) -> DType {
        self.pick(&ALL_DTYPES)
    }

    /// Any memory format.
    pub fn format(&mut self) -> MemoryFormat {
        self.pick(&FORMATS)
    }

    /// A storage value for `dtype` (exactly representable in it), sometimes NaN/inf.
    pub fn value(&mut self, dtype: DType) -> f64 {
        match dtype {
            DType::Bool => self.below(2) as f64,
            DType::U8 => self.pick(&[0.0, 1.0, 2.0, 7.0, 200.0, 255.0]),
            _ if dtype.is_floating() && self.chance(0.05) => {
                self.pick(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0])
            }
            _ => self.rng.random_range(-11..=11) as f64,
        }
    }
}
