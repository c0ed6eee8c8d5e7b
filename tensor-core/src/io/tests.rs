//! Round trips through each format for every dtype and layout, and hostile files.

use super::*;
use crate::dtype::{DType, ALL_DTYPES};
use crate::layout::MemoryFormat;
use crate::tensor::Tensor;
use std::path::PathBuf;

/// A fresh path `name` in this process's scratch folder.
fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tensor_core_io_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A tensor of `sizes` and `dtype` with varied values (negatives wrap in `u8`, bools
/// alternate).
fn sample(sizes: &[usize], dtype: DType) -> Tensor {
    let n: usize = sizes.iter().product();
    let v: Vec<f64> = (0..n).map(|i| ((i * 7) % 11) as f64 - 5.0).collect();
    Tensor::from_vec(v, sizes).unwrap().to_dtype(dtype).unwrap()
}

fn same(a: &Tensor, b: &Tensor) {
    assert_eq!(a.dtype(), b.dtype());
    assert_eq!(a.sizes(), b.sizes());
    assert_eq!(a.to_vec_f64().unwrap(), b.to_vec_f64().unwrap());
}

/// The layouts a writer must accept: contiguous, transposed, sliced with a step,
/// expanded, channels-last, 0-d and empty.
fn layouts(dtype: DType) -> Vec<(&'static str, Tensor)> {
    let base = sample(&[2, 3, 4, 5], dtype);
    vec![
        ("contiguous", base.alias()),
        ("transposed", base.transpose(0, 3).unwrap()),
        ("sliced", base.slice(3, Some(1), None, 2).unwrap()),
        (
            "expanded",
            sample(&[3, 1], dtype).expand(&[2, 3, 4]).unwrap(),
        ),
        (
            "channels_last",
            base.to_memory_format(MemoryFormat::ChannelsLast).unwrap(),
        ),
        ("scalar", sample(&[], dtype)),
        ("empty", sample(&[0, 3], dtype)),
    ]
}

#[test]
fn safetensors_round_trip_every_dtype_and_layout() {
    for dtype in ALL_DTYPES {
        let ts = layouts(dtype);
        let named: Vec<(&str, &Tensor)> = ts.iter().map(|(n, t)| (*n, t)).collect();
        let path = tmp(&format!("rt_{dtype}.safetensors"));
        save_safetensors(&path, &named).unwrap();
        let f = SafetensorsFile::open(&path).unwrap();
        assert_eq!(f.len(), ts.len());
        for (name, t) in &ts {
            let back = f.get(name).unwrap();
            same(t, &back);
            assert!(back.is_contiguous());
            let mapped = dtype != DType::Bool && t.numel() > 0;
            assert_eq!(f.is_mapped(name), Some(mapped), "{dtype} {name}");
        }
        // The crate the Python package uses reads our files.
        let bytes = std::fs::read(&path).unwrap();
        let st = ::safetensors::SafeTensors::deserialize(&bytes).unwrap();
        assert_eq!(st.len(), ts.len());
    }
}

#[test]
fn npy_round_trip_every_numpy_dtype_and_layout() {
    for dtype in ALL_DTYPES.into_iter().filter(|&d| d != DType::BF16) {
        for (name, t) in layouts(dtype) {
            let path = tmp(&format!("rt_{dtype}_{name}.npy"));
            write_npy(&path, &t).unwrap();
            let back = read_npy(&path).unwrap();
            same(&t, &back);
            // The data starts at a multiple of 64, as NumPy writes it.
            let bytes = std::fs::read(&path).unwrap();
            let hlen = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
            assert_eq!((10 + hlen) % 64, 0);
        }
    }
}

#[test]
fn npy_transposed_is_written_and_read_in_fortran_order_without_a_copy() {
    let t = sample(&[3, 4], DType::F32).t().unwrap();
    let path = tmp("fortran.npy");
    write_npy(&path, &t).unwrap();
    let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
    assert!(text.contains("'fortran_order': True"), "{text}");
    let back = read_npy(&path).unwrap();
    assert_eq!(back.strides(), &[1, 4]);
    same(&t, &back);
}

#[test]
fn npy_of_bfloat16_is_an_error() {
    let e = write_npy(tmp("bf16.npy"), &sample(&[2], DType::BF16)).unwrap_err();
    assert!(e.to_string().contains("NumPy has no bfloat16"), "{e}");
}

#[cfg(feature = "npz")]
#[test]
fn npz_round_trip_keeps_names_order_and_values() {
    let ts = layouts(DType::I16);
    let named: Vec<(&str, &Tensor)> = ts.iter().map(|(n, t)| (*n, t)).collect();
    let path = tmp("rt.npz");
    write_npz(&path, &named).unwrap();
    let back = read_npz(&path).unwrap();
    assert_eq!(back.len(), ts.len());
    for ((name, t), (bname, b)) in ts.iter().zip(&back) {
        assert_eq!(name, bname);
        same(t, b);
    }
}

#[cfg(feature = "npz")]
#[test]
fn npz_duplicate_name_is_an_error() {
    let t = sample(&[2], DType::F32);
    assert!(write_npz(tmp("dup.npz"), &[("a", &t), ("a", &t)]).is_err());
}

#[test]
fn safetensors_tensor_is_mapped_shared_and_copy_on_write() {
    let path = tmp("cow.safetensors");
    let w = sample(&[4, 6], DType::F32);
    save_safetensors(&path, &[("w", &w)]).unwrap();
    let f = SafetensorsFile::open(&path).unwrap();
    let (a, b) = (f.get("w").unwrap(), f.get("w").unwrap());
    assert!(a.shares_storage(&b) && a.storage().read().is_foreign());
    a.fill_(9.0).unwrap();
    assert_eq!(b.to_vec::<f32>().unwrap(), vec![9.0; 24]);
    // The file is unchanged, and it can be replaced while the mapping lives.
    same(&w, &SafetensorsFile::open(&path).unwrap().get("w").unwrap());
    save_safetensors(&path, &[("w", &b)]).unwrap();
    assert_eq!(a.to_vec::<f32>().unwrap(), vec![9.0; 24]);
    drop(f);
    // The tensors keep the mapping alive after the file object is gone.
    assert_eq!(a.sum(&[], false).unwrap().item::<f32>().unwrap(), 216.0);
}

/// The bytes of a safetensors file with header `json` (padded to 8) and `data`.
fn st_bytes(json: &str, data: &[u8]) -> Vec<u8> {
    let mut h = json.as_bytes().to_vec();
    while !h.len().is_multiple_of(8) {
        h.push(b' ');
    }
    let mut out = (h.len() as u64).to_le_bytes().to_vec();
    out.extend(h);
    out.extend(data);
    out
}

fn open_bytes(name: &str, bytes: &[u8]) -> crate::error::Result<SafetensorsFile> {
    let path = tmp(name);
    std::fs::write(&path, bytes).unwrap();
    SafetensorsFile::open(&path)
}

fn st_error(name: &str, bytes: &[u8]) -> String {
    open_bytes(name, bytes).unwrap_err().to_string()
}

#[test]
fn safetensors_misaligned_tensor_is_copied_with_its_values() {
    // A header not padded to 8 leaves the f32 data at an odd file offset.
    let mut json = r#"{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#.to_string();
    if (8 + json.len()).is_multiple_of(2) {
        json.push(' ');
    }
    let mut bytes = (json.len() as u64).to_le_bytes().to_vec();
    bytes.extend(json.as_bytes());
    bytes.extend(1.5f32.to_le_bytes());
    bytes.extend((-2.0f32).to_le_bytes());
    let f = open_bytes("misaligned.safetensors", &bytes).unwrap();
    assert_eq!(f.is_mapped("x"), Some(false));
    assert_eq!(
        f.get("x").unwrap().to_vec::<f32>().unwrap(),
        vec![1.5, -2.0]
    );
}

#[test]
fn safetensors_hostile_headers_are_errors_naming_the_problem() {
    let f32x2 = [0u8; 8];
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("short", vec![1, 2, 3], "HeaderTooSmall"),
        (
            "huge_header",
            u64::MAX.to_le_bytes().to_vec(),
            "HeaderTooLarge",
        ),
        (
            "past_end_header",
            {
                let mut b = 64u64.to_le_bytes().to_vec();
                b.extend(b"{}");
                b
            },
            "InvalidHeaderLength",
        ),
        (
            "not_utf8",
            {
                let mut b = 8u64.to_le_bytes().to_vec();
                b.extend(b"{\"\xff\":1} ");
                b
            },
            "not UTF-8",
        ),
        (
            "not_json",
            st_bytes("{nope", &[]),
            "InvalidHeaderDeserialization",
        ),
        (
            "unknown_dtype",
            st_bytes(
                r#"{"x":{"dtype":"Q7","shape":[2],"data_offsets":[0,8]}}"#,
                &f32x2,
            ),
            "InvalidHeaderDeserialization",
        ),
        (
            "overlap",
            st_bytes(
                r#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}"#,
                &[0; 12],
            ),
            "InvalidOffset",
        ),
        (
            "gap",
            st_bytes(
                r#"{"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}"#,
                &f32x2,
            ),
            "InvalidOffset",
        ),
        (
            "backwards",
            st_bytes(
                r#"{"a":{"dtype":"U8","shape":[0],"data_offsets":[0,0]},"b":{"dtype":"U8","shape":[0],"data_offsets":[0,-1]}}"#,
                &[],
            ),
            "InvalidHeaderDeserialization",
        ),
        (
            "past_end_data",
            st_bytes(
                r#"{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}"#,
                &f32x2,
            ),
            "MetadataIncompleteBuffer",
        ),
        (
            "trailing_data",
            st_bytes(
                r#"{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}"#,
                &f32x2,
            ),
            "MetadataIncompleteBuffer",
        ),
        (
            "lying_shape",
            st_bytes(
                r#"{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}"#,
                &f32x2,
            ),
            "TensorInvalidInfo",
        ),
        (
            "lying_dtype",
            st_bytes(
                r#"{"a":{"dtype":"F64","shape":[2],"data_offsets":[0,8]}}"#,
                &f32x2,
            ),
            "TensorInvalidInfo",
        ),
        (
            "numel_overflow",
            st_bytes(
                r#"{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8]}}"#,
                &f32x2,
            ),
            "ValidationOverflow",
        ),
        (
            "offset_near_max",
            st_bytes(
                r#"{"a":{"dtype":"U8","shape":[18446744073709551615],"data_offsets":[0,18446744073709551615]}}"#,
                &f32x2,
            ),
            "ValidationOverflow",
        ),
        (
            "bad_metadata",
            st_bytes(r#"{"__metadata__":{"k":1}}"#, &[]),
            "__metadata__",
        ),
        (
            "bad_bool",
            st_bytes(
                r#"{"m":{"dtype":"BOOL","shape":[2],"data_offsets":[0,2]}}"#,
                &[1, 2],
            ),
            "bool element 1 is stored as byte 2",
        ),
    ];
    for (name, bytes, want) in cases {
        let e = st_error(&format!("bad_{name}.safetensors"), &bytes);
        assert!(e.contains(want), "{name}: {e}");
        assert!(
            e.contains("Error while deserializing header"),
            "{name}: {e}"
        );
    }
}

#[test]
fn safetensors_unsupported_dtype_and_missing_name_are_errors_on_load() {
    let bytes = st_bytes(
        r#"{"u":{"dtype":"U32","shape":[2],"data_offsets":[0,8]}}"#,
        &[0; 8],
    );
    let f = open_bytes("u32.safetensors", &bytes).unwrap();
    assert_eq!(f.header_dtype("u").as_deref(), Some("U32"));
    let e = f.get("u").unwrap_err().to_string();
    assert!(e.contains("tensor 'u' has dtype U32"), "{e}");
    let e = f.get("nope").unwrap_err().to_string();
    assert!(e.contains("File does not contain tensor nope"), "{e}");
}

#[test]
fn safetensors_reserved_or_duplicate_names_are_errors() {
    let t = sample(&[2], DType::F32);
    let p = tmp("names.safetensors");
    assert!(save_safetensors(&p, &[("__metadata__", &t)]).is_err());
    assert!(save_safetensors(&p, &[("a", &t), ("a", &t)]).is_err());
}

/// An `.npy` with header text `dict` (padded as NumPy pads) and `data`.
fn npy_bytes(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut h = dict.to_string();
    while !(10 + h.len() + 1).is_multiple_of(64) {
        h.push(' ');
    }
    h.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((h.len() as u16).to_le_bytes());
    out.extend(h.as_bytes());
    out.extend(data);
    out
}

fn npy_error(name: &str, bytes: &[u8]) -> String {
    let path = tmp(name);
    std::fs::write(&path, bytes).unwrap();
    read_npy(&path).unwrap_err().to_string()
}

#[test]
fn npy_hostile_files_are_errors_naming_the_problem() {
    let f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("short", b"\x93NUM".to_vec(), "too few"),
        (
            "magic",
            b"\x93NUMPZ\x01\x00\x00\x00".to_vec(),
            "the magic string is not correct",
        ),
        (
            "version",
            b"\x93NUMPY\x09\x00\x00\x00".to_vec(),
            "we only support format version",
        ),
        (
            "header_past_end",
            b"\x93NUMPY\x01\x00\xff\x00{}".to_vec(),
            "truncated",
        ),
        (
            "not_dict",
            npy_bytes("[1, 2]", &[]),
            "Header is not a dictionary",
        ),
        (
            "keys",
            npy_bytes("{'descr': '<f4', 'shape': (2,), }", &[0; 8]),
            "Header does not contain the correct keys",
        ),
        (
            "descr",
            npy_bytes(
                "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }",
                &[0; 16],
            ),
            "'<c8' has no tensor-core dtype",
        ),
        (
            "structured",
            npy_bytes(
                "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }",
                &[0; 8],
            ),
            "descr is not a valid dtype descriptor",
        ),
        (
            "fortran_flag",
            npy_bytes(
                "{'descr': '<f4', 'fortran_order': 1, 'shape': (2,), }",
                &[0; 8],
            ),
            "fortran_order is not a valid bool",
        ),
        (
            "shape_kind",
            npy_bytes(
                "{'descr': '<f4', 'fortran_order': False, 'shape': [2], }",
                &[0; 8],
            ),
            "shape is not valid",
        ),
        (
            "negative",
            npy_bytes(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }",
                &[0; 8],
            ),
            "negative",
        ),
        (
            "deep",
            npy_bytes(&format!("{{'descr': {}", "(".repeat(100)), &[]),
            "nested too deeply",
        ),
        (
            "huge_int",
            npy_bytes(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
                &[],
            ),
            "64 bits",
        ),
        (
            "numel_overflow",
            npy_bytes(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
                &[],
            ),
            "numel: integer multiplication overflow",
        ),
        (
            "truncated",
            npy_bytes(f4, &[0; 5]),
            "Failed to read all data",
        ),
        ("too_long", npy_bytes(f4, &[0; 12]), "longer than its array"),
        (
            "bad_bool",
            npy_bytes(
                "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                &[0, 1, 7],
            ),
            "bool element 2 is stored as byte 7",
        ),
    ];
    for (name, bytes, want) in cases {
        let e = npy_error(&format!("bad_{name}.npy"), &bytes);
        assert!(e.contains(want), "{name}: {e}");
        assert!(e.contains(&format!("bad_{name}.npy")), "{name}: {e}");
    }
}

#[test]
fn npy_header_written_like_numpy() {
    let h =
        npy::parse_header("{'descr': '>i2', 'fortran_order': True, 'shape': (3L, 4), }").unwrap();
    assert_eq!(
        (h.dtype, h.swap, h.fortran_order, h.shape),
        (DType::I16, true, true, vec![3, 4])
    );
}

#[cfg(feature = "npz")]
#[test]
fn npz_that_is_not_a_zip_or_holds_a_bad_member_is_an_error() {
    let p = tmp("notzip.npz");
    std::fs::write(&p, b"PK\x03\x04garbage").unwrap();
    let e = read_npz(&p).unwrap_err().to_string();
    assert!(e.contains("not a valid zip archive"), "{e}");
    // A member that is not an .npy names the member.
    let p = tmp("badmember.npz");
    {
        let file = std::fs::File::create(&p).unwrap();
        let mut z = zip::ZipWriter::new(file);
        z.start_file("x.npy", zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut z, b"not an npy at all").unwrap();
        z.finish().unwrap();
    }
    let e = read_npz(&p).unwrap_err().to_string();
    assert!(e.contains("member 'x.npy'") && e.contains("magic"), "{e}");
}

#[test]
fn missing_files_are_errors_naming_the_path() {
    let p = tmp("does_not_exist.npy");
    let e = read_npy(&p).unwrap_err().to_string();
    assert!(e.contains("does_not_exist.npy"), "{e}");
    assert!(SafetensorsFile::open(tmp("nope.safetensors")).is_err());
    #[cfg(feature = "npz")]
    assert!(read_npz(tmp("nope.npz")).is_err());
}

#[test]
fn mapped_storage_aligned_to_2_is_not_seen_as_a_wider_dtype() {
    let bytes = st_bytes(
        r#"{"a":{"dtype":"F16","shape":[1],"data_offsets":[0,2]},"b":{"dtype":"F16","shape":[3],"data_offsets":[2,8]}}"#,
        &[0; 8],
    );
    let f = open_bytes("align2.safetensors", &bytes).unwrap();
    assert_eq!(f.is_mapped("b"), Some(true));
    let s = f.get("b").unwrap().storage().clone();
    let one = crate::layout::Layout::checked(vec![1], vec![1], 0).unwrap();
    assert!(Tensor::from_parts(s.clone(), one.clone(), DType::I16).is_ok());
    assert!(Tensor::from_parts(s.clone(), one.clone(), DType::F32).is_err());
    assert!(Tensor::from_parts(s, one, DType::F64).is_err());
}
