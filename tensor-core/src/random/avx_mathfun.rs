//! The single-precision natural log and sine/cosine that PyTorch's x86 AVX2 normal
//! kernel evaluates (`log256_ps` and `sincos256_ps` of `avx_mathfun.h`, Giovanni
//! Garberoglio's AVX port of Julien Pommier's `sse_mathfun`, itself a rewriting of
//! Stephen Moshier's Cephes `logf` and `sinf`/`cosf`), here one lane at a time.
//!
//! Reproducing PyTorch's values bit for bit needs the same operations in the same order,
//! and the same fused multiply-adds: PyTorch's AVX2 kernels are compiled with FMA
//! enabled and GCC's default floating-point contraction, so a multiplication whose only
//! use is an addition becomes one `vfmadd` (one rounding). Each [`fma`] below marks such
//! a pair; the first multiplication in program order is the one fused when both terms of
//! an addition are products. The constants are Cephes' decimal values rounded to `f32`,
//! written as bit patterns so that no literal is parsed twice.

/// `a * b + c` with one rounding (`f32::mul_add`), where PyTorch's build fuses.
#[inline(always)]
fn fma(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}

/// The smallest positive normal `f32`; smaller inputs are raised to it.
const MIN_NORM_POS: f32 = f32::MIN_POSITIVE;
/// sqrt(1/2) = 0.707106781186547524.
const SQRTHF: f32 = f32::from_bits(0x3f35_04f3);
/// Cephes `logf`'s polynomial for log(1 + x) on [sqrt(1/2) - 1, sqrt(2) - 1]:
/// 7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
/// 1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
/// 3.3333331174e-1.
const LOG_P: [f32; 9] = [
    f32::from_bits(0x3d90_21bb),
    f32::from_bits(0xbdeb_d1b8),
    f32::from_bits(0x3def_251a),
    f32::from_bits(0xbdfe_5d4f),
    f32::from_bits(0x3e11_e9bf),
    f32::from_bits(0xbe2a_ae50),
    f32::from_bits(0x3e4c_ceac),
    f32::from_bits(0xbe7f_fffc),
    f32::from_bits(0x3eaa_aaaa),
];
/// log(2) split in two: -2.12194440e-4 (the small part) ...
const LOG_Q1: f32 = f32::from_bits(0xb95e_8083);
/// ... and 0.693359375 (the large part, 9 significant bits).
const LOG_Q2: f32 = f32::from_bits(0x3f31_8000);

/// 4/pi = 1.27323954473516.
const FOUR_OVER_PI: f32 = f32::from_bits(0x3fa2_f983);
/// -pi/4 in three parts (-0.78515625, -2.4187564849853515625e-4,
/// -3.77489497744594108e-8) for Cody-Waite argument reduction.
const MINUS_DP: [f32; 3] = [
    f32::from_bits(0xbf49_0000),
    f32::from_bits(0xb97d_a000),
    f32::from_bits(0xb322_2169),
];
/// Cephes `sinf`'s polynomial on [-pi/4, pi/4]: -1.9515295891e-4, 8.3321608736e-3,
/// -1.6666654611e-1.
const SIN_P: [f32; 3] = [
    f32::from_bits(0xb94c_a1f9),
    f32::from_bits(0x3c08_839e),
    f32::from_bits(0xbe2a_aaa3),
];
/// Cephes `cosf`'s polynomial on [-pi/4, pi/4]: 2.443315711809948e-5,
/// -1.388731625493765e-3, 4.166664568298827e-2.
const COS_P: [f32; 3] = [
    f32::from_bits(0x37cc_f5ce),
    f32::from_bits(0xbab6_061a),
    f32::from_bits(0x3d2a_aaa5),
];
/// The sign bit of an `f32`.
const SIGN: u32 = 0x8000_0000;

/// Natural log of `x > 0` as `log256_ps` computes it (NaN for `x <= 0`; subnormal `x`
/// is taken as the smallest normal).
#[inline(always)]
pub(crate) fn log(x: f32) -> f32 {
    if x.is_nan() || x <= 0.0 {
        return f32::NAN;
    }
    let x = x.max(MIN_NORM_POS);
    let bits = x.to_bits();
    // x = m * 2^e with m in [0.5, 1).
    let mut e = ((bits >> 23) as i32 - 0x7f) as f32 + 1.0;
    let m = f32::from_bits((bits & !0x7f80_0000) | 0.5f32.to_bits());
    // Keep m in [sqrt(1/2), sqrt(2)) and take x = m - 1 (exact in both branches).
    let below = m < SQRTHF;
    let mut x = m - 1.0;
    if below {
        e -= 1.0;
        x += m;
    }
    let z = x * x;
    let mut y = LOG_P[0];
    for &p in &LOG_P[1..] {
        y = fma(y, x, p);
    }
    y *= x;
    y = fma(y, z, e * LOG_Q1);
    y = fma(-z, 0.5, y);
    fma(e, LOG_Q2, x + y)
}

/// `(sin x, cos x)` as `sincos256_ps` computes them (accurate for |x| below about 8192;
/// the normal kernel passes `[0, 2pi]`).
#[inline(always)]
pub(crate) fn sincos(x: f32) -> (f32, f32) {
    let mut sign_sin = x.to_bits() & SIGN;
    let mut x = x.abs();
    // The octant j (even, rounded up), and x reduced to [-pi/4, pi/4] around j * pi/4.
    let j = ((x * FOUR_OVER_PI) as i32 + 1) & !1;
    let y = j as f32;
    sign_sin ^= ((j & 4) as u32) << 29;
    let sign_cos = ((!(j - 2) & 4) as u32) << 29;
    let sine_poly_for_sin = j & 2 == 0;
    for dp in MINUS_DP {
        x = fma(y, dp, x);
    }
    let z = x * x;
    // cos on [-pi/4, pi/4]: 1 - z/2 + z^2 (p0 z^2 + p1 z + p2).
    let mut c = fma(COS_P[0], z, COS_P[1]);
    c = fma(c, z, COS_P[2]);
    c *= z;
    c = fma(c, z, -(z * 0.5));
    c += 1.0;
    // sin on [-pi/4, pi/4]: x + x z (p0 z^2 + p1 z + p2).
    let mut s = fma(SIN_P[0], z, SIN_P[1]);
    s = fma(s, z, SIN_P[2]);
    s *= z;
    s = fma(s, x, x);
    // The kernel selects with masks and adds the selected value to +0.
    let (sin_part, cos_part) = if sine_poly_for_sin {
        (s, 0.0)
    } else {
        (0.0, c)
    };
    let sin = cos_part + sin_part;
    let cos = (c - cos_part) + (s - sin_part);
    (
        f32::from_bits(sin.to_bits() ^ sign_sin),
        f32::from_bits(cos.to_bits() ^ sign_cos),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_is_within_a_few_ulp_of_f64_on_the_unit_interval() {
        for k in 1..=4096u32 {
            let x = k as f32 / 4096.0;
            let want = (x as f64).ln();
            let got = log(x) as f64;
            assert!(
                (got - want).abs() <= 4.0 * f32::EPSILON as f64 * want.abs().max(1e-7),
                "{x}"
            );
        }
        assert!(log(0.0).is_nan() && log(-1.0).is_nan());
    }

    #[test]
    fn sincos_is_within_a_few_ulp_of_f64_on_zero_to_two_pi() {
        for k in 0..=4096u32 {
            let x = k as f32 * (std::f32::consts::TAU / 4096.0);
            let (s, c) = sincos(x);
            assert!((s as f64 - (x as f64).sin()).abs() < 3e-7, "sin {x}");
            assert!((c as f64 - (x as f64).cos()).abs() < 3e-7, "cos {x}");
        }
    }
}
