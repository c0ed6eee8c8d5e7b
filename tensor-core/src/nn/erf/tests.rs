use super::erf;

/// `x`'s position among the doubles in order (`-0` and `+0` both 0), so that the
/// distance in ulps between two values is the difference of their positions.
fn ordinal(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    if b < 0 {
        i64::MIN - b
    } else {
        b
    }
}

fn ulps(a: f64, b: f64) -> u64 {
    ordinal(a).abs_diff(ordinal(b))
}

/// `(x, erf(x))`, `erf(x)` computed to 60 digits (mpmath) and rounded to nearest: points
/// inside each range of the scheme and on both sides of each boundary.
const REFERENCE: &[(f64, f64)] = &[
    (5e-324, 5e-324),
    (1e-310, 1.1283791670955e-310),
    (2.2250738585072014e-308, 2.5107269871883543e-308),
    (1e-20, 1.1283791670955125e-20),
    (3.725290298461914e-9, 4.203539964167448e-9),
    (3.7252902984619136e-9, 4.203539964167447e-9),
    (1e-8, 1.1283791670955126e-8),
    (0.001, 0.0011283787909692365),
    (0.1, 0.1124629160182849),
    (0.25, 0.27632639016823696),
    (0.5, 0.5204998778130465),
    (0.7, 0.6778011938374184),
    (0.8437499999999999, 0.7672256612323416),
    (0.84375, 0.7672256612323416),
    (0.9, 0.7969082124228322),
    (1.0, 0.8427007929497149),
    (1.1, 0.8802050695740817),
    (1.2499999999999998, 0.9229001282564582),
    (1.25, 0.9229001282564583),
    (1.5, 0.9661051464753108),
    (2.0, 0.9953222650189527),
    (2.5, 0.999593047982555),
    (2.857142857142857, 0.9999466876886117),
    (2.8571428571428577, 0.9999466876886117),
    (3.0, 0.9999779095030014),
    (3.5, 0.9999992569016276),
    (4.0, 0.9999999845827421),
    (4.5, 0.9999999998033839),
    (5.0, 0.9999999999984626),
    (5.5, 0.9999999999999927),
    (5.9, 0.9999999999999999),
    (5.921875, 1.0),
    (5.999999999999999, 1.0),
];

#[test]
fn erf_within_one_ulp_of_reference_values() {
    for &(x, want) in REFERENCE {
        for (x, want) in [(x, want), (-x, -want)] {
            let got = erf(x);
            assert!(ulps(got, want) <= 1, "erf({x:e}) = {got:e}, want {want:e}");
        }
    }
}

#[test]
fn erf_signed_zeros_infinities_and_nan() {
    assert_eq!(erf(0.0).to_bits(), 0.0f64.to_bits());
    assert_eq!(erf(-0.0).to_bits(), (-0.0f64).to_bits());
    assert_eq!(erf(f64::INFINITY), 1.0);
    assert_eq!(erf(f64::NEG_INFINITY), -1.0);
    assert_eq!(erf(f64::MAX), 1.0);
    assert_eq!(erf(-6.0), -1.0);
    assert!(erf(f64::NAN).is_nan());
    assert!(erf(-f64::NAN).is_nan());
}

#[test]
fn erf_is_odd_and_monotone_on_a_sweep() {
    let mut prev = -1.0;
    for i in 0..=200_000 {
        let x = -7.0 + 14.0 * f64::from(i) / 200_000.0;
        let y = erf(x);
        assert_eq!(erf(-x).to_bits(), (-y).to_bits(), "erf(-{x}) != -erf({x})");
        assert!(y >= prev, "erf({x}) = {y} < {prev}");
        prev = y;
    }
}

/// The boundaries of the scheme's ranges, with the doubles on either side.
fn edge_points() -> Vec<f64> {
    let boundaries = [
        f64::from_bits(1),
        f64::MIN_POSITIVE,
        2f64.powi(-28),
        0.84375,
        1.25,
        1.0 / 0.35,
        f64::from_bits(0x4006_db6d_0000_0000),
        6.0,
    ];
    let mut xs = vec![0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::MAX];
    for b in boundaries {
        let bits = b.to_bits();
        for x in [f64::from_bits(bits - 1), b, f64::from_bits(bits + 1)] {
            xs.extend([x, -x]);
        }
    }
    xs
}

/// A million points over `[-6, 6]` and the range edges: within one ulp of libm's `erf`
/// (FreeBSD's `s_erf.c` as ported by musl, which the exact GELU used before).
#[test]
fn erf_within_one_ulp_of_libm_on_a_dense_sweep() {
    const N: u32 = 1_000_000;
    let sweep = (0..=N).map(|i| -6.0 + 12.0 * f64::from(i) / f64::from(N));
    let mut worst = (0.0, 0);
    for x in sweep.chain(edge_points()) {
        let d = ulps(erf(x), libm::erf(x));
        if d > worst.1 {
            worst = (x, d);
        }
    }
    assert!(
        worst.1 <= 1,
        "erf({:e}) is {} ulps from libm's",
        worst.0,
        worst.1
    );
}
