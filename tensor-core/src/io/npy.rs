//! NumPy's `.npy` format (`numpy.save` / `numpy.load`): a magic string, a version, a
//! header that is a Python dict literal (`{'descr': '<f4', 'fortran_order': False,
//! 'shape': (2, 3), }`), then the elements in C or Fortran order.
//!
//! The header is parsed by a small recursive-descent parser of the Python literals
//! NumPy writes (strings, `True`/`False`, integers, tuples), with a depth limit.

use super::common::{
    check_little_endian, invalid, io_error, storage_from_reader, write_elements,
    write_file_atomically, write_storage_bytes,
};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::layout::{checked_numel, contiguous_strides};
use crate::tensor::Tensor;
use std::io::{Read, Write};
use std::path::Path;

const OP_READ: &str = "read_npy";
const OP_WRITE: &str = "write_npy";
const MAGIC: &[u8; 6] = b"\x93NUMPY";
/// The longest header this reader accepts (NumPy's own guard is 10000 bytes by default).
const MAX_HEADER_LEN: usize = 1 << 20;

/// A Python literal of the kinds an `.npy` header holds.
#[derive(Debug, Clone, PartialEq)]
enum Py {
    Str(String),
    Bool(bool),
    Int(u64),
    Tuple(Vec<Py>),
    List(Vec<Py>),
    None,
}

/// A parser over the characters of a header.
struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
}

impl Parser<'_> {
    #[cfg_attr(unoptimized, inline)]
    fn skip_ws(&mut self) {
        while self.chars.next_if(|c| c.is_whitespace()).is_some() {}
    }

    #[cfg_attr(unoptimized, inline)]
    fn expect(&mut self, c: char) -> std::result::Result<(), String> {
        self.skip_ws();
        match self.chars.next() {
            Some(x) if x == c => Ok(()),
            Some(x) => Err(format!("expected '{c}', found '{x}'")),
            None => Err(format!("expected '{c}', found the end")),
        }
    }

    #[cfg_attr(unoptimized, inline)]
    fn value(&mut self, depth: usize) -> std::result::Result<Py, String> {
        if depth > 16 {
            return Err("nested too deeply".into());
        }
        self.skip_ws();
        match self.chars.peek().copied() {
            Some(q @ ('\'' | '"')) => {
                self.chars.next();
                let mut s = String::new();
                loop {
                    match self.chars.next() {
                        Some(c) if c == q => return Ok(Py::Str(s)),
                        Some('\\') => return Err("escapes in strings are not supported".into()),
                        Some(c) => s.push(c),
                        None => return Err("unterminated string".into()),
                    }
                }
            }
            Some(open @ ('(' | '[')) => {
                self.chars.next();
                let close = if open == '(' { ')' } else { ']' };
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    if self.chars.next_if_eq(&close).is_some() {
                        break;
                    }
                    items.push(self.value(depth + 1)?);
                    self.skip_ws();
                    if self.chars.next_if_eq(&',').is_none() {
                        self.expect(close)?;
                        break;
                    }
                }
                Ok(if open == '(' {
                    Py::Tuple(items)
                } else {
                    Py::List(items)
                })
            }
            Some(c) if c.is_ascii_digit() => {
                let mut n: u64 = 0;
                while let Some(d) = self.chars.next_if(|c| c.is_ascii_digit()) {
                    n = n
                        .checked_mul(10)
                        .and_then(|n| n.checked_add(u64::from(d as u8 - b'0')))
                        .ok_or("an integer does not fit in 64 bits")?;
                }
                // Python 2 wrote longs as `3L`.
                self.chars.next_if(|&c| c == 'L' || c == 'l');
                Ok(Py::Int(n))
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let mut word = String::new();
                while let Some(c) = self.chars.next_if(|c| c.is_ascii_alphanumeric()) {
                    word.push(c);
                }
                match word.as_str() {
                    "True" => Ok(Py::Bool(true)),
                    "False" => Ok(Py::Bool(false)),
                    "None" => Ok(Py::None),
                    _ => Err(format!("unexpected name {word}")),
                }
            }
            Some('-') => Err("negative number".into()),
            Some(c) => Err(format!("unexpected '{c}'")),
            None => Err("unexpected end".into()),
        }
    }

    /// `{key: value, ...}` with string keys.
    #[cfg_attr(unoptimized, inline)]
    fn dict(&mut self) -> std::result::Result<Vec<(String, Py)>, String> {
        self.expect('{')?;
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            if self.chars.next_if_eq(&'}').is_some() {
                break;
            }
            let Py::Str(key) = self.value(1)? else {
                return Err("a key is not a string".into());
            };
            self.expect(':')?;
            let v = self.value(1)?;
            items.push((key, v));
            self.skip_ws();
            if self.chars.next_if_eq(&',').is_none() {
                self.expect('}')?;
                break;
            }
        }
        self.skip_ws();
        if let Some(c) = self.chars.next() {
            return Err(format!("unexpected '{c}' after the dict"));
        }
        Ok(items)
    }
}

/// What an `.npy` header says.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NpyHeader {
    pub(crate) dtype: DType,
    /// The file is big-endian: reverse each element's bytes.
    pub(crate) swap: bool,
    pub(crate) fortran_order: bool,
    pub(crate) shape: Vec<usize>,
}

/// `descr` → our dtype and whether its bytes are big-endian.
#[cfg_attr(unoptimized, inline)]
fn parse_descr(descr: &str) -> std::result::Result<(DType, bool), String> {
    let (order, code) = match descr.chars().next() {
        Some(c @ ('<' | '>' | '|' | '=')) => (c, &descr[1..]),
        _ => ('=', descr),
    };
    let dtype = match code {
        "b1" | "?" => DType::Bool,
        "u1" | "B" => DType::U8,
        "i1" | "b" => DType::I8,
        "i2" | "h" => DType::I16,
        "i4" | "i" => DType::I32,
        "i8" | "q" | "l" => DType::I64,
        "f2" | "e" => DType::F16,
        "f4" | "f" => DType::F32,
        "f8" | "d" => DType::F64,
        _ => {
            return Err(format!(
                "descr '{descr}' has no tensor-core dtype (supported: b1, u1, i1, i2, i4, i8, f2, f4, f8)"
            ))
        }
    };
    Ok((dtype, order == '>' && dtype.size() > 1))
}

/// Parses the text of a header (NumPy's messages where NumPy has one).
#[cfg_attr(unoptimized, inline)]
pub(crate) fn parse_header(text: &str) -> std::result::Result<NpyHeader, String> {
    let items = Parser {
        chars: text.chars().peekable(),
    }
    .dict()
    .map_err(|e| format!("Header is not a dictionary: {e}: {text:?}"))?;
    let mut keys: Vec<&str> = items.iter().map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    if keys != ["descr", "fortran_order", "shape"] {
        return Err(format!(
            "Header does not contain the correct keys: {keys:?} (expected descr, fortran_order, shape)"
        ));
    }
    let get = |k: &str| &items.iter().find(|(key, _)| key == k).expect("checked").1;
    let Py::Str(descr) = get("descr") else {
        return Err(format!(
            "descr is not a valid dtype descriptor: {:?} (structured dtypes are not supported)",
            get("descr")
        ));
    };
    let (dtype, swap) = parse_descr(descr)?;
    let Py::Bool(fortran_order) = *get("fortran_order") else {
        return Err(format!(
            "fortran_order is not a valid bool: {:?}",
            get("fortran_order")
        ));
    };
    let Py::Tuple(dims) = get("shape") else {
        return Err(format!("shape is not valid: {:?}", get("shape")));
    };
    let mut shape = Vec::with_capacity(dims.len());
    for d in dims {
        match d {
            Py::Int(n) if *n <= isize::MAX as u64 => shape.push(*n as usize),
            _ => return Err(format!("shape is not valid: {:?}", get("shape"))),
        }
    }
    Ok(NpyHeader {
        dtype,
        swap,
        fortran_order,
        shape,
    })
}

/// Reads exactly `buf.len()` bytes, or says the file is truncated.
fn read_exact(
    r: &mut impl Read,
    buf: &mut [u8],
    what: &str,
    err: &dyn Fn(String) -> Error,
) -> Result<()> {
    r.read_exact(buf)
        .map_err(|e| err(format!("the file ends inside the {what} ({e}); truncated?")))
}

/// Reads an `.npy` of `len` bytes from `r`; `err` turns a message into an error that
/// names the file (and the `.npz` member).
pub(crate) fn read_npy_from(
    r: &mut impl Read,
    len: u64,
    err: &dyn Fn(String) -> Error,
) -> Result<Tensor> {
    check_little_endian(OP_READ)?;
    let mut start = [0u8; 8];
    if len < 8 {
        return Err(err(format!(
            "the file has {len} bytes, too few for the magic string and version (8); truncated?"
        )));
    }
    read_exact(r, &mut start, "magic string", err)?;
    if &start[..6] != MAGIC {
        return Err(err(format!(
            "the magic string is not correct; expected b'\\x93NUMPY', got {}",
            start[..6].escape_ascii()
        )));
    }
    let (major, minor) = (start[6], start[7]);
    let len_bytes: usize = match (major, minor) {
        (1, 0) => 2,
        (2, 0) | (3, 0) => 4,
        _ => {
            return Err(err(format!(
                "we only support format version (1,0), (2,0), and (3,0), not ({major}, {minor})"
            )))
        }
    };
    let mut hl = [0u8; 4];
    read_exact(r, &mut hl[..len_bytes], "header length", err)?;
    let hlen = u32::from_le_bytes(hl) as usize;
    let header_end = (8 + len_bytes + hlen) as u64;
    if hlen > MAX_HEADER_LEN {
        return Err(err(format!(
            "Header info length ({hlen}) is large and may not be safe to load (limit {MAX_HEADER_LEN})"
        )));
    }
    if header_end > len {
        return Err(err(format!(
            "the header is {hlen} bytes long, but the file ends {} bytes after the header length; truncated?",
            len - 8 - len_bytes as u64
        )));
    }
    let mut header = vec![0u8; hlen];
    read_exact(r, &mut header, "header", err)?;
    let text: String = if major == 3 {
        String::from_utf8(header).map_err(|e| err(format!("the header is not UTF-8: {e}")))?
    } else {
        // Versions 1 and 2 are latin-1.
        header.iter().map(|&b| b as char).collect()
    };
    let h = parse_header(&text).map_err(err)?;
    let overflow = || err(Error::NumelOverflow { op: "numel" }.to_string());
    let numel = checked_numel(&h.shape, OP_READ).map_err(|_| overflow())?;
    let nbytes = numel.checked_mul(h.dtype.size()).ok_or_else(overflow)?;
    let have = len - header_end;
    if have != nbytes as u64 {
        let how = if have < nbytes as u64 {
            "Failed to read all data for array (truncated?)"
        } else {
            "the file is longer than its array"
        };
        return Err(err(format!(
            "{how}: shape {:?} of descr {} needs {nbytes} bytes after the header, the file has {have}",
            h.shape,
            h.dtype.name()
        )));
    }
    let storage = storage_from_reader(r, nbytes, h.dtype, h.swap, err)?;
    let strides = if h.fortran_order {
        let rev: Vec<usize> = h.shape.iter().rev().copied().collect();
        contiguous_strides(&rev).into_iter().rev().collect()
    } else {
        contiguous_strides(&h.shape)
    };
    let layout = Layout::checked(h.shape, strides, 0)?;
    Tensor::from_parts(storage, layout, h.dtype)
}

/// Reads the `.npy` file at `path` (`numpy.load`): a tensor of its dtype and shape. A
/// Fortran-order array becomes a tensor with column-major strides (`t.is_contiguous()`
/// is false, `t.t().is_contiguous()` true for 2-d), its bytes read as they are.
///
/// Dtypes: `bool`, `uint8`, `int8`, `int16`, `int32`, `int64`, `float16`, `float32`,
/// `float64`, little- or big-endian; other descrs (unsigned wider than 8 bits, complex,
/// strings, objects, structured) are errors.
///
/// # Errors
/// An I/O error naming the path; NumPy's messages for a bad magic string (`the magic
/// string is not correct; expected b'\x93NUMPY', got ...`), an unsupported version, a
/// header that is not a dict with the keys `descr`, `fortran_order`, `shape`; a descr
/// with no tensor-core dtype; a file shorter or longer than its header's shape says; a
/// shape whose element count overflows ([`Error::NumelOverflow`]); a `bool` byte other
/// than 0 or 1; [`Error::OutOfMemory`].
pub fn read_npy(path: impl AsRef<Path>) -> Result<Tensor> {
    let path = path.as_ref();
    let file = std::fs::File::open(path).map_err(|e| io_error(OP_READ, path, &e))?;
    let len = file
        .metadata()
        .map_err(|e| io_error(OP_READ, path, &e))?
        .len();
    let mut r = std::io::BufReader::new(file);
    read_npy_from(&mut r, len, &|m| {
        invalid(OP_READ, format!("{}: {m}", path.display()))
    })
}

/// NumPy's descr for `dtype` (`'<f4'`), or an error for `bfloat16`.
#[cfg_attr(unoptimized, inline)]
fn descr(dtype: DType) -> Result<&'static str> {
    Ok(match dtype {
        DType::Bool => "|b1",
        DType::U8 => "|u1",
        DType::I8 => "|i1",
        DType::I16 => "<i2",
        DType::I32 => "<i4",
        DType::I64 => "<i8",
        DType::F16 => "<f2",
        DType::F32 => "<f4",
        DType::F64 => "<f8",
        DType::BF16 => {
            return Err(invalid(
                OP_WRITE,
                "NumPy has no bfloat16 dtype; convert the tensor with to_dtype(DType::F32) first",
            ))
        }
    })
}

/// `t` with its dims reversed when that makes it row-major contiguous while `t` is not
/// (`t` is Fortran-ordered), else `None`.
#[cfg_attr(unoptimized, inline)]
fn fortran_view(t: &Tensor) -> Option<Tensor> {
    if t.dim() < 2 || t.is_contiguous() {
        return None;
    }
    let rev: Vec<i64> = (0..t.dim() as i64).rev().collect();
    t.permute(&rev).ok().filter(|p| p.is_contiguous())
}

/// Writes `t` as an `.npy` to `w`; `path` names the file in errors.
pub(crate) fn write_npy_to(w: &mut impl Write, t: &Tensor, path: &Path) -> Result<()> {
    let descr = descr(t.dtype())?;
    let fortran = fortran_view(t);
    let shape = match t.sizes() {
        [] => "()".to_string(),
        [n] => format!("({n},)"),
        s => format!(
            "({})",
            s.iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let py_bool = if fortran.is_some() { "True" } else { "False" };
    let mut header =
        format!("{{'descr': '{descr}', 'fortran_order': {py_bool}, 'shape': {shape}, }}");
    // Pad with spaces and a final newline so that the data starts at a multiple of 64.
    let (version, len_bytes) = if header.len() + 1 + 63 <= u16::MAX as usize {
        (1u8, 2)
    } else {
        (2u8, 4)
    };
    let total = 6 + 2 + len_bytes + header.len() + 1;
    header.extend(std::iter::repeat_n(' ', total.next_multiple_of(64) - total));
    header.push('\n');
    let io = |e: std::io::Error| io_error(OP_WRITE, path, &e);
    w.write_all(MAGIC).map_err(io)?;
    w.write_all(&[version, 0]).map_err(io)?;
    if version == 1 {
        w.write_all(&(header.len() as u16).to_le_bytes())
            .map_err(io)?;
    } else {
        let n = u32::try_from(header.len())
            .map_err(|_| invalid(OP_WRITE, "the header is longer than 4 GiB"))?;
        w.write_all(&n.to_le_bytes()).map_err(io)?;
    }
    w.write_all(header.as_bytes()).map_err(io)?;
    match fortran {
        Some(f) => write_storage_bytes(w, &f, OP_WRITE, path),
        None => write_elements(w, t, OP_WRITE, path),
    }
}

/// Writes `t` to the `.npy` file at `path` (`numpy.save`), replacing it. A tensor whose
/// reversed dims are contiguous (a transposed matrix) is written in Fortran order
/// without a copy; any other layout is written in C order (sliced, expanded,
/// channels-last tensors as their contiguous copy).
///
/// # Errors
/// `bfloat16` (NumPy has none); an I/O error naming the path; [`Error::OutOfMemory`].
pub fn write_npy(path: impl AsRef<Path>, t: &Tensor) -> Result<()> {
    let path = path.as_ref();
    write_file_atomically(path, OP_WRITE, |w| write_npy_to(w, t, path))
}
