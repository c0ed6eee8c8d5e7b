//! Generates the leaf table of static dims: `D<n>` ↔ typenum `U<n>` for `n` in 0..=999,
//! both ways. Every larger static dim is a [`K`] of leaves (one group of three decimal
//! digits each), so this table covers every size; see `src/typelevel/dim.rs`.
use std::fmt::Write;

/// typenum's name for `n`: its alias `U{n}` (typenum defines `U0` to `U1024`), which is
/// the `UInt<UInt<.., B1>, B0>` chain of `n`'s bits.
fn typenum_of(n: u64) -> String {
    format!("::typenum::U{n}")
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
    std::fs::write(dir.join("signed_table.rs"), signed_table()).unwrap();
    println!("cargo:rerun-if-changed=build.rs");
}
