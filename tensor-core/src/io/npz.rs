//! NumPy's `.npz` archives (`numpy.savez` / `numpy.savez_compressed` / `numpy.load`):
//! a zip file of `.npy` members, one per array, named `{name}.npy`. The zip container
//! is the `zip` crate's (stored and deflated members, zip64).

use super::common::{check_little_endian, invalid, io_error, write_file_atomically};
use super::npy::{read_npy_from, write_npy_to};
use crate::error::Result;
use crate::tensor::Tensor;
use std::io::Read;
use std::path::Path;

const OP_READ: &str = "read_npz";
const OP_WRITE: &str = "write_npz";

/// Every array of the `.npz` file at `path`, in archive order, named as `numpy.load`
/// names them (the member name without `.npy`). Each member is read as by
/// [`super::read_npy`]; stored (`numpy.savez`) and deflated
/// (`numpy.savez_compressed`) members are supported.
///
/// # Errors
/// An I/O error naming the path; a file that is not a zip archive or whose members
/// are damaged (including a member longer or shorter than its declared size, or whose
/// checksum fails); a member that is not a valid `.npy` (the message names the member
/// and says what is wrong, as [`super::read_npy`]); [`crate::error::Error::OutOfMemory`].
pub fn read_npz(path: impl AsRef<Path>) -> Result<Vec<(String, Tensor)>> {
    check_little_endian(OP_READ)?;
    let path = path.as_ref();
    let file = std::fs::File::open(path).map_err(|e| io_error(OP_READ, path, &e))?;
    let zip_err = |e: zip::result::ZipError| {
        invalid(
            OP_READ,
            format!("{}: not a valid zip archive: {e}", path.display()),
        )
    };
    let mut archive = zip::ZipArchive::new(std::io::BufReader::new(file)).map_err(zip_err)?;
    let mut out = Vec::with_capacity(archive.len().min(1 << 16));
    for i in 0..archive.len() {
        let mut member = archive.by_index(i).map_err(zip_err)?;
        let name = member.name().to_string();
        let err = |m: String| invalid(OP_READ, format!("{}: member '{name}': {m}", path.display()));
        let declared = member.size();
        let t = read_npy_from(&mut member, declared, &err)?;
        // Reading past the declared end makes the zip reader check the member's length
        // and checksum.
        let mut extra = [0u8; 1];
        match member.read(&mut extra) {
            Ok(0) => {}
            Ok(_) => return Err(err("the member is longer than its declared size".into())),
            Err(e) => return Err(err(format!("damaged member: {e}"))),
        }
        let key = name.strip_suffix(".npy").unwrap_or(&name).to_string();
        out.push((key, t));
    }
    Ok(out)
}

/// Writes `arrays` to the `.npz` file at `path` (`numpy.savez`: members `{name}.npy`,
/// stored uncompressed), replacing it. Each array is written as by
/// [`super::write_npy`].
///
/// # Errors
/// An empty or duplicate name; a `bfloat16` tensor (NumPy has none); an I/O error
/// naming the path; [`crate::error::Error::OutOfMemory`].
pub fn write_npz(path: impl AsRef<Path>, arrays: &[(&str, &Tensor)]) -> Result<()> {
    let path = path.as_ref();
    let mut seen = std::collections::HashSet::new();
    for (name, _) in arrays {
        if name.is_empty() || !seen.insert(*name) {
            return Err(invalid(
                OP_WRITE,
                format!("array names must be distinct and non-empty, got '{name}'"),
            ));
        }
    }
    write_file_atomically(path, OP_WRITE, |w| {
        let zip_err =
            |e: zip::result::ZipError| invalid(OP_WRITE, format!("{}: {e}", path.display()));
        let mut zip = zip::ZipWriter::new(w);
        for (name, t) in arrays {
            let large = t
                .numel()
                .saturating_mul(t.dtype().size())
                .saturating_add(1 << 16)
                > u32::MAX as usize;
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored)
                .large_file(large);
            zip.start_file(format!("{name}.npy"), options)
                .map_err(zip_err)?;
            write_npy_to(&mut zip, t, path)?;
        }
        zip.finish().map_err(zip_err)?;
        Ok(())
    })
}
