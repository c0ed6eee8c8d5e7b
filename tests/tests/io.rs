//! Files written by PyTorch's `safetensors` package and by NumPy
//! (`tests/data/io/record.py`, values in `expected.json`) read back to the same
//! values, dtypes and shapes; typed loading checks dtype and every static dim; a
//! GPT-2-sized `[768, 50257]` weight loads by name without a copy.

use serde_json::Value;
use std::path::{Path, PathBuf};
use tensor_core::io::{read_npy, read_npz, save_safetensors, SafetensorsFile};
use tensor_core::{DType, Tensor as RTensor};
use tensor_typed::io::Weights;
use tensor_typed::{Shape, Tensor};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/io")
        .join(name)
}

fn expected() -> Value {
    let text = std::fs::read_to_string(data("expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `t` has the dtype, shape and values of the recorded entry `e`.
fn check(what: &str, t: &RTensor, e: &Value) {
    assert_eq!(t.dtype().name(), e["dtype"].as_str().unwrap(), "{what}");
    let shape: Vec<usize> = e["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(t.sizes(), shape.as_slice(), "{what}");
    let values: Vec<f64> = e["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(t.to_vec_f64().unwrap(), values, "{what}");
}

#[test]
fn pytorch_safetensors_file_reads_every_dtype_to_the_recorded_values() {
    let exp = expected();
    let entries = exp["torch_all_dtypes.safetensors"].as_object().unwrap();
    let st = Weights::open(data("torch_all_dtypes.safetensors")).unwrap();
    assert_eq!(st.names().count(), entries.len());
    for (name, e) in entries {
        let t = st.load_dyn(name).unwrap();
        check(name, &t, e);
        let mapped = t.dtype() != DType::Bool && t.numel() > 0;
        assert_eq!(st.file().is_mapped(name), Some(mapped), "{name}");
    }
    let meta = st.file().metadata().unwrap();
    assert_eq!(meta.get("format").map(String::as_str), Some("pt"));
}

#[test]
fn typed_load_checks_dtype_and_every_static_dim() {
    let st = Weights::open(data("torch_all_dtypes.safetensors")).unwrap();
    let w: Tensor<f32, Shape![4, 3]> = st.load("wte.weight").unwrap();
    assert_eq!(w.to_vec()[11], 11.0 / 8.0);
    let w: Tensor<f32, Shape![Dyn, 3]> = st.load("wte.weight").unwrap();
    assert_eq!(w.dims(), &[4, 3]);

    let e = st.load::<f32, Shape![3, 4]>("wte.weight").unwrap_err();
    let msg = e.to_string();
    for part in [
        "tensor 'wte.weight'",
        "has dtype float32 and shape [4, 3]",
        "expected dtype float32 and shape [3, 4]",
    ] {
        assert!(msg.contains(part), "{msg}");
    }
    let msg = st
        .load::<f64, Shape![4, 3]>("wte.weight")
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("expected dtype float64 and shape [4, 3]"),
        "{msg}"
    );
    let msg = st
        .load::<f32, Shape![4, 3, 1]>("wte.weight")
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("expected dtype float32 and shape [4, 3, 1]"),
        "{msg}"
    );
    let msg = st
        .load::<f32, Shape![4, 3]>("wpe.weight")
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("File does not contain tensor wpe.weight"),
        "{msg}"
    );
}

#[test]
fn numpy_npy_files_read_to_the_recorded_values() {
    let exp = expected();
    for (file, e) in exp.as_object().unwrap() {
        if !file.ends_with(".npy") {
            continue;
        }
        let t = read_npy(data(file)).unwrap();
        check(file, &t, e);
    }
}

#[test]
fn numpy_fortran_order_becomes_strides_without_a_copy() {
    let t = read_npy(data("np_fortran_f32.npy")).unwrap();
    assert_eq!((t.sizes(), t.strides()), (&[2, 3, 4][..], &[1, 2, 6][..]));
    // The storage holds the file's bytes in file (column-major) order.
    let flat = RTensor::from_parts(
        t.storage().clone(),
        tensor_core::Layout::contiguous(&[24]).unwrap(),
        DType::F32,
    )
    .unwrap();
    assert_eq!(flat.to_vec::<f32>().unwrap()[..3], [0.0, 12.0, 4.0]);
}

#[test]
fn numpy_npz_files_stored_and_compressed_read_to_the_recorded_values() {
    let exp = expected();
    for file in ["np_arrays.npz", "np_arrays_compressed.npz"] {
        let arrays = read_npz(data(file)).unwrap();
        let e = exp[file].as_object().unwrap();
        assert_eq!(arrays.len(), e.len());
        for (name, t) in &arrays {
            check(&format!("{file}:{name}"), t, &e[name.as_str()]);
        }
    }
}

#[test]
fn gpt2_sized_weight_loads_by_name_typed_and_mapped() {
    let dir = std::env::temp_dir().join(format!("tensor_io_gpt2_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("model.safetensors");
    let (rows, cols) = (768usize, 50257usize);
    let wte = RTensor::arange(rows * cols, DType::F32)
        .unwrap()
        .view(&[rows as i64, cols as i64])
        .unwrap();
    let wpe = RTensor::zeros(&[1024, 768], DType::F32).unwrap();
    save_safetensors(&path, &[("wte.weight", &wte), ("wpe.weight", &wpe)]).unwrap();
    drop(wte);

    let st = Weights::open(&path).unwrap();
    let w: Tensor<f32, Shape![768, 50257]> = st.load("wte.weight").unwrap();
    assert_eq!(st.file().is_mapped("wte.weight"), Some(true));
    let last = w.as_dyn().select(0, 767).unwrap().select(0, 50256).unwrap();
    assert_eq!(last.item::<f32>().unwrap(), (rows * cols - 1) as f32);
    let any = st.load_dyn("wpe.weight").unwrap();
    assert_eq!(any.sizes(), &[1024, 768]);
    drop((w, any, st));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn file_opened_twice_gives_independent_storages() {
    let f1 = SafetensorsFile::open(data("torch_all_dtypes.safetensors")).unwrap();
    let f2 = SafetensorsFile::open(data("torch_all_dtypes.safetensors")).unwrap();
    let (a, b) = (f1.get("float32").unwrap(), f2.get("float32").unwrap());
    assert!(!a.shares_storage(&b));
    a.fill_(0.0).unwrap();
    assert_ne!(b.to_vec::<f32>().unwrap(), vec![0.0; 6]);
}
