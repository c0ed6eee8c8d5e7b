//! Generates the leaf table of static dims (`D<n>` ↔ its three decimal digits, for `n`
//! in 0..=999, both ways) and the one-digit tables of the decimal arithmetic (sum,
//! difference, product). Every larger static dim is a [`K`] of leaves (one group of three
//! decimal digits each), so these tables cover every size; see `src/typelevel/dim.rs`
//! and `src/typelevel/decimal.rs`.
use std::fmt::Write;

/// The digit type of `d` (0..=9).
fn dg(d: u64) -> String {
    format!("Dg{d}")
}

/// A typenum bit (`typenum::B0` / `typenum::B1`).
fn bit(b: bool) -> &'static str {
    if b {
        "B1"
    } else {
        "B0"
    }
}

/// The canonical digit list of `n` (ones first, no leading zero; 0 is `DNil`).
fn digits(mut n: u64) -> String {
    let mut ds = Vec::new();
    while n > 0 {
        ds.push(n % 10);
        n /= 10;
    }
    ds.iter()
        .rev()
        .fold("DNil".to_string(), |t, &d| format!("DCons<{}, {t}>", dg(d)))
}

/// `impl Leaf for D<n>` (its digits), `impl LeafOf<B, C> for A` (the leaf of digits
/// `a`, `b`, `c`, ones first) for every `n` in 0..=999.
fn leaf_table() -> String {
    let mut out = String::new();
    for n in 0..1000u64 {
        let (a, b, c) = (dg(n % 10), dg(n / 10 % 10), dg(n / 100));
        // Not listed as "other types implementing" a trait when a dim is out of range.
        writeln!(
            out,
            "#[diagnostic::do_not_recommend]\nimpl Leaf for D<{n}> {{ type Digits = {}; \
             type Below<Hi> = DCons<{a}, DCons<{b}, DCons<{c}, Hi>>>; \
             type Three = DCons<{a}, DCons<{b}, DCons<{c}, DNil>>>; type IsOne = {}; }}",
            digits(n),
            bit(n == 1)
        )
        .unwrap();
        writeln!(
            out,
            "impl LeafOf<{b}, {c}> for {a} {{ type Dim = D<{n}>; }}"
        )
        .unwrap();
    }
    out
}

/// The one-digit operations of `src/typelevel/decimal.rs`: `a + b + carry`, `a - b -
/// borrow`, `a · b + c` (each a digit and a carry), digit equality and successor.
fn digit_table() -> String {
    let mut out = String::new();
    for a in 0..10u64 {
        for b in 0..10u64 {
            for c in 0..2u64 {
                let s = a + b + c;
                writeln!(
                    out,
                    "impl DigAdd<{}, {}> for {} {{ type S = {}; type C = {}; }}",
                    dg(b),
                    bit(c == 1),
                    dg(a),
                    dg(s % 10),
                    bit(s >= 10)
                )
                .unwrap();
                let borrow = a < b + c;
                let d = (a + 10 - b - c) % 10;
                writeln!(
                    out,
                    "impl DigSub<{}, {}> for {} {{ type D = {}; type B = {}; }}",
                    dg(b),
                    bit(c == 1),
                    dg(a),
                    dg(d),
                    bit(borrow)
                )
                .unwrap();
            }
            for c in 0..10u64 {
                let p = a * b + c;
                writeln!(
                    out,
                    "impl DigMul<{}, {}> for {} {{ type D = {}; type C = {}; }}",
                    dg(b),
                    dg(c),
                    dg(a),
                    dg(p % 10),
                    dg(p / 10)
                )
                .unwrap();
            }
            for acc in [false, true] {
                writeln!(
                    out,
                    "impl DigLt<{}, {}> for {} {{ type Output = {}; }}",
                    dg(b),
                    bit(acc),
                    dg(a),
                    bit(a < b || (a == b && acc))
                )
                .unwrap();
            }
            if [1, 3, 7, 9].contains(&b) {
                // The quotient digit of exact division from the ones up: `q · b ≡ a`.
                let q = (0..10).find(|q| q * b % 10 == a).unwrap();
                writeln!(
                    out,
                    "impl HInv<{}> for {} {{ type Output = {}; }}",
                    dg(b),
                    dg(a),
                    dg(q)
                )
                .unwrap();
            }
            writeln!(
                out,
                "impl DigEq<{}> for {} {{ type Output = {}; }}",
                dg(b),
                dg(a),
                bit(a == b)
            )
            .unwrap();
        }
    }
    out
}

fn peano(n: i64) -> String {
    (0..n).fold("Z".to_string(), |s, _| format!("S<{s}>"))
}

/// `impl WrapDim<R> for SDim<D>` for ranks 0..=9 and dims -9..=9: PyTorch's
/// `maybe_wrap_dim` (a 0-d tensor counts as rank 1): `Pos` is the Peano position and
/// `Ok` whether `D` is in `[-R, R)`.
fn signed_table() -> String {
    let mut out = String::new();
    for r in 0..=9i64 {
        let eff = r.max(1);
        for d in -9..=9i64 {
            let ok = -eff <= d && d < eff;
            let pos = if ok { d.rem_euclid(eff) } else { 0 };
            let (p, b) = (peano(pos), if ok { "B1" } else { "B0" });
            writeln!(
                out,
                "impl WrapDim<{}> for SDim<{d}> {{ type Pos = {p}; type Ok = {b}; }}",
                peano(r)
            )
            .unwrap();
        }
    }
    out
}

fn main() {
    let dir = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    std::fs::write(dir.join("leaf_table.rs"), leaf_table()).unwrap();
    std::fs::write(dir.join("digit_table.rs"), digit_table()).unwrap();
    std::fs::write(dir.join("signed_table.rs"), signed_table()).unwrap();
    println!("cargo:rerun-if-changed=build.rs");
    // `cfg(unoptimized)` at opt-level 0, as in tensor-core's build script: non-generic
    // functions are then `#[inline]`, generated in the crate that calls them (see
    // tests/tests/deferred_codegen.rs).
    println!("cargo::rustc-check-cfg=cfg(unoptimized)");
    if std::env::var("OPT_LEVEL").as_deref() == Ok("0") {
        println!("cargo::rustc-cfg=unoptimized");
    }
}
