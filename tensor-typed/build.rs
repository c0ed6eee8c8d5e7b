//! Generates the table between static dims `D<N>` and typenum unsigneds (both ways),
//! used only inside trait bounds where dims take part in arithmetic or comparison.
//! Covered: 0..=1024, multiples of 64 up to 65536, powers of 2 up to 2^40 and of 10 up
//! to 10^12 (see `shape.rs`).
use std::collections::BTreeSet;
use std::fmt::Write;

fn typenum_of(n: u64) -> String {
    if n == 0 {
        return "::typenum::UTerm".to_string();
    }
    let mut s = "::typenum::UTerm".to_string();
    for bit in (0..64 - n.leading_zeros()).rev() {
        let b = if (n >> bit) & 1 == 1 { "B1" } else { "B0" };
        s = format!("::typenum::UInt<{s}, ::typenum::{b}>");
    }
    s
}

/// The primes whose exponents `factor.rs` keeps; every number of the table is a product
/// of these and at most one larger prime (the leftover).
const PRIMES: [u64; 11] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31];

fn peano(n: u32) -> String {
    (0..n).fold("Z".to_string(), |s, _| format!("S<{s}>"))
}

/// `n` as `F<E2, F<E3, … F<E31, Left<L>>>>` (see `factor.rs`).
fn factors_of(mut n: u64) -> String {
    let mut exps = Vec::new();
    for p in PRIMES {
        let mut e = 0;
        while n.is_multiple_of(p) {
            n /= p;
            e += 1;
        }
        exps.push(peano(e));
    }
    let left = format!("Left<{}>", typenum_of(n));
    exps.iter()
        .rev()
        .fold(left, |tail, e| format!("F<{e}, {tail}>"))
}

/// Both directions between `D<N>` and its factors, for every `N` of the table.
fn factor_table(ns: &BTreeSet<u64>) -> String {
    let mut out = String::from("impl DimFactors for D<0> { type F = Zero; }\n");
    out.push_str("impl FactorsDim for Zero { type Dim = D<0>; }\n");
    for &n in ns.iter().filter(|&&n| n > 0) {
        let f = factors_of(n);
        writeln!(out, "impl DimFactors for D<{n}> {{ type F = {f}; }}").unwrap();
        writeln!(out, "impl FactorsDim for {f} {{ type Dim = D<{n}>; }}").unwrap();
    }
    out
}

fn main() {
    let mut ns: BTreeSet<u64> = (0..=1024).collect();
    ns.extend((64..=65536).step_by(64));
    ns.extend((0..=40).map(|k| 1u64 << k));
    ns.extend((0..=12).map(|k| 10u64.pow(k)));
    let mut out = String::new();
    for n in &ns {
        let t = typenum_of(*n);
        writeln!(out, "impl DimNum for D<{n}> {{ type Num = {t}; }}").unwrap();
        writeln!(out, "impl NumDim for {t} {{ type Dim = D<{n}>; }}").unwrap();
    }
    let dir = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    std::fs::write(dir.join("dim_table.rs"), out).unwrap();
    std::fs::write(dir.join("factor_table.rs"), factor_table(&ns)).unwrap();
    println!("cargo:rerun-if-changed=build.rs");
}
