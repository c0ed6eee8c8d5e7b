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
    let path = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("dim_table.rs");
    std::fs::write(path, out).unwrap();
    println!("cargo:rerun-if-changed=build.rs");
}
