//! What every format shares: error values, filling a storage from a reader (checking
//! `bool` bytes), writing a tensor's elements as row-major bytes, and writing a file
//! through a temporary file renamed over the target.

use crate::alloc::try_vec;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::storage::Storage;
use crate::tensor::Tensor;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// An [`Error::InvalidArgument`] for `op` saying `message`.
pub(crate) fn invalid(op: &'static str, message: impl Into<String>) -> Error {
    Error::InvalidArgument {
        op,
        message: message.into(),
    }
}

/// An I/O failure on `path` as an [`Error::InvalidArgument`] (the error type has no I/O
/// variant): `"{path}: {error}"`, e.g. `x.npy: No such file or directory (os error 2)`.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn io_error(op: &'static str, path: &Path, e: &std::io::Error) -> Error {
    invalid(op, format!("{}: {e}", path.display()))
}

/// `Ok` on a little-endian host; the formats store little-endian bytes and this module
/// does not swap them.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn check_little_endian(op: &'static str) -> Result<()> {
    if cfg!(target_endian = "big") {
        return Err(invalid(
            op,
            "files are little-endian and this host is big-endian, which is not supported",
        ));
    }
    Ok(())
}

/// The index of the first byte other than 0 and 1, if any (a `bool` holds 0 or 1).
#[cfg_attr(unoptimized, inline)]
pub(crate) fn first_invalid_bool(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b > 1)
}

/// A fresh storage of `nbytes` bytes for `dtype` filled from `r` (exactly `nbytes`
/// bytes). `swap` reverses the bytes of each element (a big-endian `.npy`); `err`
/// makes an error naming the file from a message.
///
/// # Errors
/// [`Error::OutOfMemory`]; a short read (`truncated?`); a `Bool` byte other than 0 or
/// 1, naming its index.
pub(crate) fn storage_from_reader(
    r: &mut impl Read,
    nbytes: usize,
    dtype: DType,
    swap: bool,
    err: &dyn Fn(String) -> Error,
) -> Result<Storage> {
    let truncated =
        |e: std::io::Error| err(format!("the file ends inside the data ({e}); truncated?"));
    let storage = Storage::zeroed(nbytes, dtype)?;
    if dtype == DType::Bool {
        let mut bytes = try_vec(nbytes, 0u8)?;
        r.read_exact(&mut bytes).map_err(truncated)?;
        if let Some(i) = first_invalid_bool(&bytes) {
            return Err(err(format!(
                "bool element {i} is stored as byte {}, but a bool must be 0 or 1",
                bytes[i]
            )));
        }
        let mut buf = storage.write();
        for (dst, &b) in buf.as_mut_slice::<bool>().iter_mut().zip(&bytes) {
            *dst = b == 1;
        }
    } else {
        let mut buf = storage.write();
        let bytes = buf.as_mut_slice::<u8>();
        r.read_exact(bytes).map_err(truncated)?;
        if swap {
            bytes
                .chunks_exact_mut(dtype.size())
                .for_each(|c| c.reverse());
        }
    }
    Ok(storage)
}

/// Writes `t`'s elements in row-major order as bytes (whatever its layout: a strided,
/// expanded or channels-last tensor is copied to a row-major one first).
///
/// # Errors
/// [`Error::OutOfMemory`] for that copy; an I/O error on `path`.
pub(crate) fn write_elements(
    w: &mut impl Write,
    t: &Tensor,
    op: &'static str,
    path: &Path,
) -> Result<()> {
    if t.numel() == 0 {
        return Ok(());
    }
    let c = t.contiguous()?;
    write_storage_bytes(w, &c, op, path)
}

/// Writes the bytes of a row-major contiguous `t` straight from its storage.
pub(crate) fn write_storage_bytes(
    w: &mut impl Write,
    t: &Tensor,
    op: &'static str,
    path: &Path,
) -> Result<()> {
    let size = t.dtype().size();
    let buf = t.storage().read();
    // The tensor invariant puts every element inside the storage, so this range is in
    // bounds; `get` keeps a broken invariant from becoming an out-of-bounds read.
    let start = t.storage_offset() * size;
    let bytes = buf
        .as_bytes()
        .get(start..start + t.numel() * size)
        .ok_or_else(|| invalid(op, "internal error: tensor outside its storage"))?;
    w.write_all(bytes).map_err(|e| io_error(op, path, &e))
}

/// Writes a file through `write`, into a temporary file beside `path` that is renamed
/// over `path` once complete (so a reader never sees half a file, and a file some
/// tensor still maps is replaced, not truncated under the mapping).
pub(crate) fn write_file_atomically(
    path: &Path,
    op: &'static str,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> Result<()>,
) -> Result<()> {
    check_little_endian(op)?;
    let tmp = temp_path(path);
    let result = (|| {
        let file = std::fs::File::create(&tmp).map_err(|e| io_error(op, &tmp, &e))?;
        let mut w = std::io::BufWriter::new(file);
        write(&mut w)?;
        w.flush().map_err(|e| io_error(op, &tmp, &e))?;
        drop(w);
        std::fs::rename(&tmp, path).map_err(|e| io_error(op, path, &e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// `dir/.name.tmp-PID-N` beside `path`.
#[cfg_attr(unoptimized, inline)]
fn temp_path(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}-{n}", std::process::id()))
}
