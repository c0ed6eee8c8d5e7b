//! Generates the leaf table of static dims: `D<n>` ↔ typenum `U<n>` for `n` in 0..=999,
//! both ways. Every larger static dim is a [`K`] of leaves (one group of three decimal
//! digits each), so this table covers every size; see `src/typelevel/dim.rs`.
use std::fmt::Write;

fn typenum_of(n: u64) -> String {
    let mut s = "::typenum::UTerm".to_string();
    if n == 0 {
        return s;
    }
    for bit in (0..64 - n.leading_zeros()).rev() {
        let b = if (n >> bit) & 1 == 1 { "B1" } else { "B0" };
        s = format!("::typenum::UInt<{s}, ::typenum::{b}>");
    }
    s
}

fn main() {
    let mut out = String::new();
    for n in 0..1000u64 {
        let t = typenum_of(n);
        // Not listed as "other types implementing" a trait when a dim is out of range.
        writeln!(
            out,
            "#[diagnostic::do_not_recommend]\nimpl Leaf for D<{n}> {{ type Num = {t}; }}"
        )
        .unwrap();
        writeln!(
            out,
            "#[diagnostic::do_not_recommend]\nimpl NumLeaf for {t} {{ type Dim = D<{n}>; }}"
        )
        .unwrap();
    }
    let dir = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    std::fs::write(dir.join("leaf_table.rs"), out).unwrap();
    println!("cargo:rerun-if-changed=build.rs");
}
