//! Fuzz test of the file readers: valid safetensors, `.npy` and `.npz` files
//! are mutated (bytes flipped, set to interesting values, inserted, deleted, the file
//! truncated, numbers in the header replaced) and read back. Every read must return
//! `Ok` or `Err`, never panic; every tensor an `Ok` gives must read in full and hold no
//! more bytes than the file has. Safetensors files are also read through tensor-typed's
//! `Weights` (`load::<f32, Shape![Dyn, Dyn]>`, `load::<i64, Shape![3, Dyn]>`), which
//! checks the header against the type first.
//!
//! - CI: a fixed seed and a fixed number of cases (2,000 per format), stopped early
//!   after 3 s in all so a slow machine cannot stretch it.
//! - Longer: `TENSOR_IO_FUZZ_SECS=120 TENSOR_IO_FUZZ_CASES=100000000 cargo test
//!   --release -p tensor-tests --test io_fuzz` (`TENSOR_IO_FUZZ_SEED` picks the seed).

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tensor_core::io::{
    read_npy, read_npz, save_safetensors, write_npy, write_npz, SafetensorsFile,
};
use tensor_core::{DType, MemoryFormat, Tensor, ALL_DTYPES};
use tensor_typed::io::Weights;
use tensor_typed::Shape;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tensor_io_fuzz_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sample(sizes: &[usize], dtype: DType) -> Tensor {
    let n: usize = sizes.iter().product();
    let v: Vec<f64> = (0..n).map(|i| ((i * 5) % 9) as f64 - 4.0).collect();
    Tensor::from_vec(v, sizes).unwrap().to_dtype(dtype).unwrap()
}

/// The valid files the mutations start from, as bytes.
fn seeds(dir: &Path) -> Vec<(&'static str, Vec<u8>)> {
    let mut out = Vec::new();
    let ts: Vec<(String, Tensor)> = ALL_DTYPES
        .iter()
        .enumerate()
        .map(|(i, &d)| (format!("t{i}"), sample(&[3, (i % 3) + 1], d)))
        .collect();
    let named: Vec<(&str, &Tensor)> = ts.iter().map(|(n, t)| (n.as_str(), t)).collect();
    let p = dir.join("seed.safetensors");
    save_safetensors(&p, &named).unwrap();
    out.push(("safetensors", std::fs::read(&p).unwrap()));
    let p = dir.join("seed1.safetensors");
    save_safetensors(&p, &[("w", &sample(&[2, 2], DType::F16))]).unwrap();
    out.push(("safetensors", std::fs::read(&p).unwrap()));
    let recorded = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/io");
    out.push((
        "safetensors",
        std::fs::read(recorded.join("torch_all_dtypes.safetensors")).unwrap(),
    ));
    for (i, t) in [
        sample(&[2, 3], DType::F32),
        sample(&[3, 4], DType::I64).t().unwrap(),
        sample(&[5], DType::Bool),
        sample(&[1, 2, 2, 2], DType::F16)
            .to_memory_format(MemoryFormat::ChannelsLast)
            .unwrap(),
        sample(&[], DType::U8),
    ]
    .iter()
    .enumerate()
    {
        let p = dir.join(format!("seed{i}.npy"));
        write_npy(&p, t).unwrap();
        out.push(("npy", std::fs::read(&p).unwrap()));
    }
    out.push((
        "npy",
        std::fs::read(recorded.join("np_bigendian_i4.npy")).unwrap(),
    ));
    let p = dir.join("seed.npz");
    let (a, b) = (sample(&[2, 2], DType::I16), sample(&[3], DType::Bool));
    write_npz(&p, &[("a", &a), ("b", &b)]).unwrap();
    out.push(("npz", std::fs::read(&p).unwrap()));
    out.push((
        "npz",
        std::fs::read(recorded.join("np_arrays_compressed.npz")).unwrap(),
    ));
    out
}

/// One random change to `bytes`.
fn mutate(rng: &mut ChaCha8Rng, bytes: &mut Vec<u8>) {
    const INTERESTING: &[u8] = b"\x00\x01\x02\x7f\x80\xff0919[]{}(),:\"' -eL";
    let len = bytes.len();
    match rng.random_range(0..8) {
        0 if len > 0 => {
            let i = rng.random_range(0..len);
            bytes[i] ^= 1 << rng.random_range(0..8);
        }
        1 if len > 0 => {
            let i = rng.random_range(0..len);
            bytes[i] = INTERESTING[rng.random_range(0..INTERESTING.len())];
        }
        2 => bytes.truncate(rng.random_range(0..=len)),
        3 => {
            let i = rng.random_range(0..=len);
            let n = rng.random_range(1..9);
            for _ in 0..n {
                bytes.insert(i, rng.random());
            }
        }
        4 if len > 0 => {
            let i = rng.random_range(0..len);
            let n = rng.random_range(1..9).min(len - i);
            bytes.drain(i..i + n);
        }
        5 if len >= 8 => {
            // The safetensors header length, or the bytes of an .npy's version and
            // header length.
            let v: u64 = match rng.random_range(0..3) {
                0 => rng.random(),
                1 => rng.random_range(0..256),
                _ => u64::MAX - rng.random_range(0..16),
            };
            let at = if rng.random() { 0 } else { 6.min(len - 8) };
            bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
        6 => {
            // Replace a run of digits in the header by another number.
            let head = len.min(256);
            let digits: Vec<usize> = (0..head).filter(|&i| bytes[i].is_ascii_digit()).collect();
            if let Some(&i) = digits.get(rng.random_range(0..digits.len().max(1))) {
                let mut j = i;
                while j < len && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                let n = match rng.random_range(0..4) {
                    0 => "0".to_string(),
                    1 => u64::MAX.to_string(),
                    2 => "4294967296".to_string(),
                    _ => rng.random_range(0..100u32).to_string(),
                };
                bytes.splice(i..j, n.bytes());
            }
        }
        _ if len > 0 => {
            // Copy a chunk over another place.
            let i = rng.random_range(0..len);
            let j = rng.random_range(0..len);
            let n = rng.random_range(1..17).min(len - i).min(len - j);
            let chunk = bytes[i..i + n].to_vec();
            bytes[j..j + n].copy_from_slice(&chunk);
        }
        _ => bytes.push(rng.random()),
    }
}

/// Reads every element of `t` and checks it holds no more bytes than the file.
fn check_tensor(t: &Tensor, file_len: usize, what: &str) {
    let bytes = t.storage().nbytes();
    assert!(
        bytes <= file_len || t.numel() == 0,
        "{what}: a tensor of {bytes} bytes from a file of {file_len}"
    );
    t.to_vec_f64().unwrap();
}

/// Reads `path` as `kind`; panics only if a reader panics or an `Ok` is unsound.
fn read(kind: &str, path: &Path, file_len: usize) {
    match kind {
        "safetensors" => {
            if let Ok(f) = SafetensorsFile::open(path) {
                let names: Vec<String> = f.names().map(str::to_string).collect();
                for n in names {
                    if let Ok(t) = f.get(&n) {
                        check_tensor(&t, file_len, kind);
                    }
                }
            }
            // The typed reader over the same file: `Weights::load` checks the header's
            // dtype and shape against the type before it maps anything.
            if let Ok(w) = Weights::open(path) {
                let names: Vec<String> = w.names().map(str::to_string).collect();
                for n in names {
                    if let Ok(t) = w.load::<f32, Shape![Dyn, Dyn]>(&n) {
                        check_tensor(t.as_dyn(), file_len, "typed safetensors");
                        t.try_to_vec().unwrap();
                    }
                    if let Ok(t) = w.load::<i64, Shape![3, Dyn]>(&n) {
                        check_tensor(t.as_dyn(), file_len, "typed safetensors");
                    }
                }
            }
        }
        "npy" => {
            if let Ok(t) = read_npy(path) {
                check_tensor(&t, file_len, kind);
            }
        }
        _ => {
            if let Ok(ts) = read_npz(path) {
                for (_, t) in ts {
                    check_tensor(&t, file_len, kind);
                }
            }
        }
    }
}

#[test]
fn mutated_files_are_errors_or_sound_tensors_never_panics() {
    let secs: f64 = env_or("TENSOR_IO_FUZZ_SECS", 3.0);
    let cases: u64 = env_or("TENSOR_IO_FUZZ_CASES", 2000);
    let seed: u64 = env_or("TENSOR_IO_FUZZ_SEED", 14);
    let dir = scratch();
    let seeds = seeds(&dir);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let mut done = [0u64; 3];
    let mut panics = Vec::new();
    let kinds = ["safetensors", "npy", "npz"];
    'outer: for case in 0..cases {
        for (k, kind) in kinds.iter().enumerate() {
            if Instant::now() > deadline {
                break 'outer;
            }
            let of_kind: Vec<&Vec<u8>> = seeds
                .iter()
                .filter(|(s, _)| s == kind)
                .map(|(_, b)| b)
                .collect();
            let mut bytes = of_kind[rng.random_range(0..of_kind.len())].clone();
            for _ in 0..rng.random_range(1..4) {
                mutate(&mut rng, &mut bytes);
            }
            // A fresh name per case: a file is never rewritten while mapped.
            let path = dir.join(format!("case{case}.{kind}"));
            std::fs::write(&path, &bytes).unwrap();
            let len = bytes.len();
            if catch_unwind(AssertUnwindSafe(|| read(kind, &path, len))).is_err() {
                panics.push(path);
            } else {
                std::fs::remove_file(&path).unwrap();
            }
            done[k] += 1;
        }
    }
    eprintln!(
        "io fuzz: seed {seed}, {} safetensors, {} npy, {} npz cases",
        done[0], done[1], done[2]
    );
    assert!(panics.is_empty(), "readers panicked on: {panics:?}");
    assert!(done.iter().all(|&n| n > 0));
    let _ = std::fs::remove_dir_all(&dir);
}
