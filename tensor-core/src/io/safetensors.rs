//! safetensors files: `save_safetensors` writes one, `SafetensorsFile::open` maps one
//! and builds its tensors over the mapped bytes.
//!
//! The format (the `safetensors` crate's, which the Python package uses): an 8-byte
//! little-endian header length `n`, `n` bytes of UTF-8 JSON mapping each name to
//! `{"dtype": "F32", "shape": [..], "data_offsets": [begin, end]}` (byte offsets into
//! the data that follows, which the tensors tile without gaps or overlaps) and an
//! optional `"__metadata__"` map of strings, then the data: each tensor's elements in
//! row-major order, little-endian.
//!
//! The header is parsed and checked here with checked arithmetic (the `safetensors`
//! crate's own `read_metadata` adds the offsets without checking for overflow, so a
//! hostile header could make it panic); its entries are read by
//! [`super::safetensors_header`].

use super::common::{
    check_little_endian, first_invalid_bool, invalid, io_error, write_elements,
    write_file_atomically,
};
use super::safetensors_header::{parse_object, quote, string_map, StDtype as Dtype, TensorInfo};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::storage::Storage;
use crate::tensor::Tensor;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const OP_SAVE: &str = "save_safetensors";
const OP_LOAD: &str = "safetensors";

/// The safetensors crate's limit on the header (100 MB).
const MAX_HEADER_SIZE: usize = 100_000_000;

/// The safetensors name of a dtype.
#[cfg_attr(unoptimized, inline)]
fn to_st(dtype: DType) -> Dtype {
    match dtype {
        DType::Bool => Dtype::BOOL,
        DType::U8 => Dtype::U8,
        DType::I8 => Dtype::I8,
        DType::I16 => Dtype::I16,
        DType::I32 => Dtype::I32,
        DType::I64 => Dtype::I64,
        DType::F16 => Dtype::F16,
        DType::BF16 => Dtype::BF16,
        DType::F32 => Dtype::F32,
        DType::F64 => Dtype::F64,
    }
}

/// Our dtype for a safetensors dtype, or `None` (U16, U32, U64, the 8-, 6- and 4-bit
/// floats).
#[cfg_attr(unoptimized, inline)]
fn from_st(dtype: Dtype) -> Option<DType> {
    Some(match dtype {
        Dtype::BOOL => DType::Bool,
        Dtype::U8 => DType::U8,
        Dtype::I8 => DType::I8,
        Dtype::I16 => DType::I16,
        Dtype::I32 => DType::I32,
        Dtype::I64 => DType::I64,
        Dtype::F16 => DType::F16,
        Dtype::BF16 => DType::BF16,
        Dtype::F32 => DType::F32,
        Dtype::F64 => DType::F64,
        _ => return None,
    })
}

/// Writes `tensors` to a safetensors file at `path` (`safetensors.torch.save_file`),
/// replacing it. Each tensor's elements are written in row-major order whatever its
/// layout (a sliced, expanded or channels-last tensor is written as its contiguous
/// copy would be). As the `safetensors` packages do, tensors are placed by descending
/// dtype alignment, then by name, after a header padded to 8 bytes, so every tensor's
/// bytes are aligned to its dtype's size and load without copying.
///
/// # Errors
/// An empty, duplicate or `"__metadata__"` name; an I/O error naming the path;
/// [`Error::OutOfMemory`] copying a non-contiguous tensor.
///
/// ```
/// use tensor_core::{io, Tensor};
/// let dir = std::env::temp_dir().join(format!("doc_st_{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("w.safetensors");
/// let w = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
/// io::save_safetensors(&path, &[("w", &w.transpose(0, 1)?)])?;
/// let back = io::SafetensorsFile::open(&path)?.get("w")?;
/// assert_eq!(back.to_vec::<f32>()?, vec![1.0, 3.0, 2.0, 4.0]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), tensor_core::Error>(())
/// ```
pub fn save_safetensors(path: impl AsRef<Path>, tensors: &[(&str, &Tensor)]) -> Result<()> {
    let path = path.as_ref();
    let mut seen = std::collections::HashSet::new();
    for (name, _) in tensors {
        if *name == "__metadata__" {
            return Err(invalid(
                OP_SAVE,
                "the name \"__metadata__\" is reserved for the header's metadata",
            ));
        }
        if !seen.insert(*name) {
            return Err(invalid(OP_SAVE, format!("the name '{name}' appears twice")));
        }
    }
    let mut order: Vec<&(&str, &Tensor)> = tensors.iter().collect();
    order.sort_by(|(ln, lt), (rn, rt)| to_st(rt.dtype()).cmp(&to_st(lt.dtype())).then(ln.cmp(rn)));
    let mut header = String::from("{");
    let mut offset = 0usize;
    for (i, (name, t)) in order.iter().enumerate() {
        let nbytes = t
            .numel()
            .checked_mul(t.dtype().size())
            .ok_or(Error::NumelOverflow { op: OP_SAVE })?;
        let end = offset
            .checked_add(nbytes)
            .ok_or(Error::NumelOverflow { op: OP_SAVE })?;
        let info = TensorInfo {
            dtype: to_st(t.dtype()),
            shape: t.sizes().to_vec(),
            data_offsets: (offset, end),
        };
        offset = end;
        if i > 0 {
            header.push(',');
        }
        header.push_str(&quote(name));
        header.push(':');
        header.push_str(&info.to_json());
    }
    header.push('}');
    while header.len() % 8 != 0 {
        header.push(' ');
    }
    write_file_atomically(path, OP_SAVE, |w| {
        let n = header.len() as u64;
        w.write_all(&n.to_le_bytes())
            .and_then(|_| w.write_all(header.as_bytes()))
            .map_err(|e| io_error(OP_SAVE, path, &e))?;
        for (_, t) in &order {
            write_elements(w, t, OP_SAVE, path)?;
        }
        Ok(())
    })
}

/// One tensor of a file: its name and header entry, and the tensor (or why there is
/// none: a dtype tensor-core does not have).
#[derive(Debug)]
struct Entry {
    name: String,
    dtype: Dtype,
    sizes: Vec<usize>,
    tensor: std::result::Result<Tensor, String>,
    mapped: bool,
}

/// The memory map that tensors over a file share; dropped with the last of them.
#[derive(Debug)]
struct Mapping {
    _map: memmap2::MmapMut,
}

/// An opened safetensors file: its tensors by name (`safetensors.safe_open`).
///
/// Opening maps the file privately (copy-on-write: writes to a loaded tensor change the
/// process's pages, never the file) and builds every tensor at once over the mapped
/// bytes, without copying those aligned to their dtype's size and not `bool` (a `bool`
/// tensor is copied after checking that every byte is 0 or 1; a misaligned one is
/// copied). The pages are read from disk when first touched. Every [`get`] of one name
/// returns a view of the same storage, so writes through one are seen through the
/// others; the mapping lives as long as any tensor over it.
///
/// As with every memory-mapped loader (the `safetensors` packages, candle), the file
/// must not be truncated or modified by another process while a tensor over it lives:
/// the operating system may then show the change or end the process (`SIGBUS`). Files
/// this module writes replace the old file instead of truncating it.
///
/// [`get`]: SafetensorsFile::get
#[derive(Debug)]
pub struct SafetensorsFile {
    path: PathBuf,
    entries: Vec<Entry>,
    index: HashMap<String, usize>,
    metadata: Option<BTreeMap<String, String>>,
}

/// The parsed and checked header: where the data starts, the entries in file order
/// (offsets relative to the data start), the metadata.
struct Header {
    data_start: usize,
    infos: Vec<(String, TensorInfo)>,
    metadata: Option<BTreeMap<String, String>>,
}

/// `Error while deserializing header: {what}` (the Python package's wording) for
/// `path`.
fn header_error(path: &Path, what: impl std::fmt::Display) -> Error {
    invalid(
        OP_LOAD,
        format!(
            "{}: Error while deserializing header: {what}",
            path.display()
        ),
    )
}

/// Parses and checks the header of a file of `bytes` (the whole file).
#[cfg_attr(unoptimized, inline)]
fn parse_header(bytes: &[u8], path: &Path) -> Result<Header> {
    let len = bytes.len();
    let Some(prefix) = bytes.first_chunk::<8>() else {
        return Err(header_error(
            path,
            format!(
                "HeaderTooSmall: the file has {len} bytes, fewer than the 8 of the header length"
            ),
        ));
    };
    let n = u64::from_le_bytes(*prefix);
    if n > MAX_HEADER_SIZE as u64 {
        return Err(header_error(
            path,
            format!("HeaderTooLarge: the header length is {n} bytes, more than the limit of {MAX_HEADER_SIZE}"),
        ));
    }
    let n = n as usize;
    let Some(header) = bytes.get(8..8 + n) else {
        return Err(header_error(
            path,
            format!(
                "InvalidHeaderLength: the header length is {n} bytes, but the file has only {} bytes after it",
                len - 8
            ),
        ));
    };
    let text = std::str::from_utf8(header).map_err(|e| {
        header_error(
            path,
            format!("InvalidHeader: the header is not UTF-8 ({e})"),
        )
    })?;
    let map = parse_object(text)
        .map_err(|e| header_error(path, format!("InvalidHeaderDeserialization: {e}")))?;
    let mut metadata = None;
    let mut infos = Vec::with_capacity(map.len());
    for (name, value) in map {
        if name == "__metadata__" {
            let m = string_map(value).map_err(|e| {
                header_error(
                    path,
                    format!(
                        "InvalidHeaderDeserialization: __metadata__ is not a map of strings ({e})"
                    ),
                )
            })?;
            metadata = Some(m);
            continue;
        }
        let info = TensorInfo::from_json(&value).map_err(|e| {
            header_error(
                path,
                format!("InvalidHeaderDeserialization: tensor '{name}': {e}"),
            )
        })?;
        infos.push((name, info));
    }
    infos.sort_by_key(|(_, info)| info.data_offsets);
    let data_len = len - 8 - n;
    let mut at = 0usize;
    for (name, info) in &infos {
        let (begin, end) = info.data_offsets;
        if begin != at || end < begin {
            let what = if begin < at {
                "overlap the previous tensor"
            } else if begin > at {
                "leave a gap after the previous tensor"
            } else {
                "end before they begin"
            };
            return Err(header_error(
                path,
                format!("InvalidOffset(\"{name}\"): data_offsets [{begin}, {end}] {what} (expected to begin at {at})"),
            ));
        }
        let nbits = info
            .shape
            .iter()
            .try_fold(1usize, |a, &s| a.checked_mul(s))
            .and_then(|numel| numel.checked_mul(info.dtype.bitsize()))
            .ok_or_else(|| {
                header_error(
                    path,
                    format!(
                        "ValidationOverflow: tensor '{name}': the byte size of shape {:?} overflows",
                        info.shape
                    ),
                )
            })?;
        if nbits % 8 != 0 {
            return Err(header_error(
                path,
                format!("MisalignedSlice: tensor '{name}' does not fill whole bytes"),
            ));
        }
        if end - begin != nbits / 8 {
            return Err(header_error(
                path,
                format!(
                    "TensorInvalidInfo: tensor '{name}' of dtype {:?} and shape {:?} needs {} bytes, but its data_offsets [{begin}, {end}] span {}",
                    info.dtype,
                    info.shape,
                    nbits / 8,
                    end - begin
                ),
            ));
        }
        if end > data_len {
            return Err(header_error(
                path,
                format!(
                    "MetadataIncompleteBuffer: tensor '{name}' ends at byte {end} of the data, but the file holds only {data_len} bytes of data (truncated?)"
                ),
            ));
        }
        at = end;
    }
    if at != data_len {
        return Err(header_error(
            path,
            format!(
                "MetadataIncompleteBuffer: the tensors hold {at} bytes, but the file has {data_len} bytes of data"
            ),
        ));
    }
    Ok(Header {
        data_start: 8 + n,
        infos,
        metadata,
    })
}

impl SafetensorsFile {
    /// Maps the file at `path` and builds its tensors (see the type's docs).
    ///
    /// # Errors
    /// An I/O error naming the path; a header that is too short or too long, not UTF-8,
    /// not the expected JSON, names a dtype the format does not have, whose offsets
    /// overlap, leave gaps or point past the end of the file, whose shapes disagree with
    /// the byte sizes or overflow; a `bool` byte other than 0 or 1. Messages contain the
    /// Python package's `Error while deserializing header: ...`.
    pub fn open(path: impl AsRef<Path>) -> Result<SafetensorsFile> {
        check_little_endian(OP_LOAD)?;
        let path = path.as_ref();
        let file = std::fs::File::open(path).map_err(|e| io_error(OP_LOAD, path, &e))?;
        let len = file
            .metadata()
            .map_err(|e| io_error(OP_LOAD, path, &e))?
            .len();
        if len < 8 {
            return Err(header_error(
                path,
                format!("HeaderTooSmall: the file has {len} bytes, fewer than the 8 of the header length"),
            ));
        }
        // SAFETY: a private (copy-on-write) mapping of a file opened for reading: our
        // writes never reach the file. The mapping's bytes change (or the process gets
        // SIGBUS) only if another process modifies or truncates the file while it is
        // mapped, which the docs of `SafetensorsFile` forbid, as every memory-mapped
        // loader must; this crate's writers replace files instead of truncating them.
        let mut map = unsafe { memmap2::MmapOptions::new().map_copy(&file) }
            .map_err(|e| io_error(OP_LOAD, path, &e))?;
        let header = parse_header(&map, path)?;

        // Copies first, through safe slices of the map, before any storage over the
        // map exists.
        let mut entries = Vec::with_capacity(header.infos.len());
        let mut to_map = Vec::new();
        for (name, info) in header.infos {
            let (begin, end) = info.data_offsets;
            // In bounds: `parse_header` checked `end <= data_len`.
            let (abs_begin, abs_end) = (header.data_start + begin, header.data_start + end);
            let Some(dtype) = from_st(info.dtype) else {
                let why = format!(
                    "tensor '{name}' has dtype {:?}, which tensor-core does not have",
                    info.dtype
                );
                entries.push(Entry {
                    name,
                    dtype: info.dtype,
                    sizes: info.shape,
                    tensor: Err(why),
                    mapped: false,
                });
                continue;
            };
            let layout = Layout::contiguous(&info.shape)?;
            let aligned = (map.as_ptr() as usize + abs_begin).is_multiple_of(dtype.size());
            let tensor = if dtype != DType::Bool && aligned && end > begin {
                // Built below, once the map is shared.
                to_map.push((entries.len(), abs_begin, end - begin, dtype, layout));
                Err(String::new())
            } else {
                let bytes = &map[abs_begin..abs_end];
                if dtype == DType::Bool {
                    if let Some(i) = first_invalid_bool(bytes) {
                        return Err(header_error(
                            path,
                            format!(
                                "tensor '{name}': bool element {i} is stored as byte {}, but a bool must be 0 or 1",
                                bytes[i]
                            ),
                        ));
                    }
                }
                let storage = Storage::zeroed(bytes.len(), dtype)?;
                if dtype == DType::Bool {
                    let mut buf = storage.write();
                    for (d, &b) in buf.as_mut_slice::<bool>().iter_mut().zip(bytes) {
                        *d = b == 1;
                    }
                } else {
                    storage.write().as_mut_slice::<u8>().copy_from_slice(bytes);
                }
                Ok(Tensor::from_parts(storage, layout, dtype)?)
            };
            entries.push(Entry {
                name,
                dtype: info.dtype,
                sizes: info.shape,
                tensor,
                mapped: false,
            });
        }
        if !to_map.is_empty() {
            let base = map.as_mut_ptr();
            let owner: Arc<dyn std::fmt::Debug + Send + Sync> = Arc::new(Mapping { _map: map });
            for (i, abs_begin, nbytes, dtype, layout) in to_map {
                // SAFETY: the range lies in the (private, read-write) mapping that `owner`
                // keeps alive, `base` has its provenance, `nbytes` ≤ its length ≤ isize::MAX;
                // `parse_header` checked the ranges tile the data (disjoint: one storage
                // each, nothing else touches the map now); the start is aligned to
                // `dtype.size()` (checked above) and `dtype` is not `Bool` (any bytes valid).
                let storage = unsafe {
                    Storage::from_foreign(base.add(abs_begin), nbytes, dtype, owner.clone())
                };
                entries[i].tensor = Ok(Tensor::from_parts(storage, layout, dtype)?);
                entries[i].mapped = true;
            }
        }
        let index = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.clone(), i))
            .collect();
        Ok(SafetensorsFile {
            path: path.to_path_buf(),
            entries,
            index,
            metadata: header.metadata,
        })
    }

    /// The path the file was opened from.
    #[cfg_attr(unoptimized, inline)]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The names of the tensors, in the order of their bytes in the file.
    #[cfg_attr(unoptimized, inline)]
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.name.as_str())
    }

    /// Number of tensors.
    #[cfg_attr(unoptimized, inline)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when the file holds no tensor.
    #[cfg_attr(unoptimized, inline)]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The header's `__metadata__` map, if any.
    #[cfg_attr(unoptimized, inline)]
    pub fn metadata(&self) -> Option<&BTreeMap<String, String>> {
        self.metadata.as_ref()
    }

    #[cfg_attr(unoptimized, inline)]
    fn entry(&self, name: &str) -> Result<&Entry> {
        let i = self.index.get(name).ok_or_else(|| {
            invalid(
                OP_LOAD,
                format!(
                    "{}: File does not contain tensor {name}",
                    self.path.display()
                ),
            )
        })?;
        Ok(&self.entries[*i])
    }

    /// The dtype and sizes of tensor `name`, from the header (nothing is read).
    ///
    /// # Errors
    /// `File does not contain tensor {name}` (the Python package's message); a dtype
    /// tensor-core does not have.
    #[cfg_attr(unoptimized, inline)]
    pub fn info(&self, name: &str) -> Result<(DType, &[usize])> {
        let e = self.entry(name)?;
        match &e.tensor {
            Ok(t) => Ok((t.dtype(), &e.sizes)),
            Err(why) => Err(invalid(OP_LOAD, format!("{}: {why}", self.path.display()))),
        }
    }

    /// Tensor `name`: a view of its storage (shared by every `get` of the name), over
    /// the mapped file when [`SafetensorsFile::is_mapped`].
    ///
    /// # Errors
    /// As [`SafetensorsFile::info`].
    #[cfg_attr(unoptimized, inline)]
    pub fn get(&self, name: &str) -> Result<Tensor> {
        let e = self.entry(name)?;
        match &e.tensor {
            Ok(t) => Ok(t.alias()),
            Err(why) => Err(invalid(OP_LOAD, format!("{}: {why}", self.path.display()))),
        }
    }

    /// `Some(true)` when tensor `name` lies over the mapped file (no copy was made),
    /// `Some(false)` when it was copied (bool, misaligned, empty, or a dtype
    /// tensor-core does not have), `None` when there is no such tensor.
    #[cfg_attr(unoptimized, inline)]
    pub fn is_mapped(&self, name: &str) -> Option<bool> {
        self.index.get(name).map(|&i| self.entries[i].mapped)
    }

    /// The safetensors dtype name of tensor `name` as the header has it (`"F32"`,
    /// `"U32"`, ...), also for dtypes tensor-core does not have.
    #[cfg_attr(unoptimized, inline)]
    pub fn header_dtype(&self, name: &str) -> Option<String> {
        self.index
            .get(name)
            .map(|&i| format!("{:?}", self.entries[i].dtype))
    }
}

/// Every tensor of the safetensors file at `path`, in file order
/// (`safetensors.torch.load_file`); see [`SafetensorsFile`].
///
/// # Errors
/// As [`SafetensorsFile::open`]; a tensor of a dtype tensor-core does not have.
pub fn load_safetensors(path: impl AsRef<Path>) -> Result<Vec<(String, Tensor)>> {
    let f = SafetensorsFile::open(path)?;
    f.names().map(|n| Ok((n.to_string(), f.get(n)?))).collect()
}
