//! `Display` for [`Tensor`]: the text of PyTorch's `print(t)` (`torch/_tensor_str.py`
//! with the default print options: precision 4, threshold 1000, edgeitems 3,
//! linewidth 80, `sci_mode=None`).
//!
//! The rules, in PyTorch's words:
//! - a tensor of more than `threshold` elements is *summarised*: in each dim longer
//!   than `2 * edgeitems`, only the first and last `edgeitems` entries are shown, with
//!   `...` between them;
//! - one formatter, built from every shown element, decides the width of all elements.
//!   Floats are printed in one of three modes: integer mode (`1.`) when every finite,
//!   non-zero value is an integer; scientific mode (`1.0000e+08`) when the largest over
//!   the smallest absolute finite non-zero value exceeds 1000, the largest exceeds 1e8,
//!   or (outside integer mode) the smallest is below 1e-4; fixed mode (`1.5000`)
//!   otherwise. `f16`/`bf16` are printed as their `f32` values;
//! - integers print in decimal, bools as `True`/`False`, right-aligned to that width;
//! - rows wrap at 80 columns; `dtype=torch.X` is appended unless the dtype is `float32`,
//!   `int64` or `bool`; an empty tensor prints `[]` with its size (unless 1-d) and its
//!   dtype (unless `float32`).

use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::element::Element;
use crate::tensor::Tensor;
use std::fmt;

/// `PRINT_OPTS.precision`: digits after the point.
const PRECISION: usize = 4;
/// `PRINT_OPTS.threshold`: summarise above this many elements.
const THRESHOLD: usize = 1000;
/// `PRINT_OPTS.edgeitems`: entries kept at each end of a summarised dim.
const EDGEITEMS: usize = 3;
/// `PRINT_OPTS.linewidth`: columns before a row wraps.
const LINEWIDTH: usize = 80;
/// The most elements `Display` lays out (summarised ones count 6 per dim).
const MAX_SHOWN: usize = 1 << 20;
/// The most dims printed as nested brackets (one recursion level per dim).
const MAX_NESTED: usize = 256;

/// The shown elements (flat row-major indices `flat`, ascending), in the type Python
/// would see. Only the shown elements are read, so printing a huge (e.g. expanded)
/// tensor allocates for at most a few thousand values.
struct Values {
    flat: Vec<usize>,
    data: Data,
}

/// Values of the shown elements, in the order of `Values::flat`.
enum Data {
    /// Floats as `f64` (exact for every float dtype).
    Float(Vec<f64>),
    /// Integers as `i64` (exact for every integer dtype).
    Int(Vec<i64>),
    /// Bools.
    Bool(Vec<bool>),
}

/// How floats are printed: PyTorch's `_Formatter` state.
#[derive(Clone, Copy, Debug)]
enum FloatMode {
    /// Every finite non-zero value is an integer: `1.`.
    Int,
    /// `1.0000e+08`.
    Sci,
    /// `1.5000`.
    Fixed,
}

/// PyTorch's `_Formatter`: one width (in characters) for every element.
struct Formatter {
    mode: FloatMode,
    width: usize,
}

/// Storage index of the element at flat row-major index `flat` of `t`.
#[cfg_attr(unoptimized, inline)]
fn storage_index(t: &Tensor, mut flat: usize) -> usize {
    let mut off = t.storage_offset();
    for (&size, &stride) in t.sizes().iter().zip(t.strides()).rev() {
        let i = flat % size.max(1);
        flat /= size.max(1);
        // In range by the tensor invariant (i < size, strides ≥ 0).
        off += i * stride as usize;
    }
    off
}

impl Values {
    /// The values of `t`'s elements at the flat indices `flat` (ascending).
    #[cfg_attr(unoptimized, inline)]
    fn of(t: &Tensor, flat: Vec<usize>) -> Values {
        let buf = t.storage().read();
        let data = match t.dtype() {
            DType::Bool => {
                let d = buf.as_slice::<bool>();
                Data::Bool(flat.iter().map(|&i| d[storage_index(t, i)]).collect())
            }
            dt if dt.is_floating() => dispatch_dtype!(dt, T, {
                let d = buf.as_slice::<T>();
                Data::Float(
                    flat.iter()
                        .map(|&i| d[storage_index(t, i)].to_f64())
                        .collect(),
                )
            }),
            dt => dispatch_dtype!(dt, T, {
                let d = buf.as_slice::<T>();
                Data::Int(
                    flat.iter()
                        .map(|&i| d[storage_index(t, i)].to_i64())
                        .collect(),
                )
            }),
        };
        Values { flat, data }
    }

    /// Position of flat index `i` among the shown elements.
    #[cfg_attr(unoptimized, inline)]
    fn pos(&self, i: usize) -> usize {
        let p = self.flat.binary_search(&i).unwrap_or_else(|p| p);
        p.min(self.flat.len().saturating_sub(1))
    }

    /// The float at flat index `i`, for float dtypes.
    #[cfg_attr(unoptimized, inline)]
    fn float(&self, i: usize) -> Option<f64> {
        match &self.data {
            Data::Float(v) => v.get(self.pos(i)).copied(),
            _ => None,
        }
    }

    /// Element `i` (flat index) as text without padding.
    #[cfg_attr(unoptimized, inline)]
    fn text(&self, i: usize, f: &Formatter) -> String {
        let p = self.pos(i);
        match &self.data {
            Data::Float(v) => v
                .get(p)
                .map_or_else(String::new, |&x| float_text(x, f.mode)),
            Data::Int(v) => v.get(p).map_or_else(String::new, |x| x.to_string()),
            Data::Bool(v) => v
                .get(p)
                .map_or("", |&b| if b { "True" } else { "False" })
                .to_string(),
        }
    }
}

/// Python's `"{:.4f}".format(v)`.
#[cfg_attr(unoptimized, inline)]
fn fixed(v: f64, precision: usize) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{v:.precision$}")
    }
}

/// Python's `"{:.4e}".format(v)`: a signed exponent of at least two digits.
#[cfg_attr(unoptimized, inline)]
fn scientific(v: f64, precision: usize) -> String {
    if !v.is_finite() {
        return fixed(v, precision);
    }
    let s = format!("{v:.precision$e}");
    let (mantissa, exp) = s.split_once('e').expect("`{:e}` output has an exponent");
    let exp: i32 = exp.parse().expect("`{:e}` exponent is an integer");
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

/// `_Formatter.format` before padding.
#[cfg_attr(unoptimized, inline)]
fn float_text(v: f64, mode: FloatMode) -> String {
    match mode {
        FloatMode::Sci => scientific(v, PRECISION),
        FloatMode::Fixed => fixed(v, PRECISION),
        FloatMode::Int => {
            let s = fixed(v, 0);
            if v.is_finite() {
                s + "."
            } else {
                s
            }
        }
    }
}

impl Formatter {
    /// `_Formatter.__init__` over the shown elements `shown`.
    #[cfg_attr(unoptimized, inline)]
    fn new(values: &Values, shown: &[usize]) -> Formatter {
        let mut width = 1;
        match values.data {
            Data::Float(_) => {}
            _ => {
                let f = Formatter {
                    mode: FloatMode::Fixed,
                    width,
                };
                for &i in shown {
                    width = width.max(values.text(i, &f).len());
                }
                return Formatter { width, ..f };
            }
        };
        let nonzero_finite: Vec<f64> = shown
            .iter()
            .filter_map(|&i| values.float(i))
            .filter(|v| v.is_finite() && *v != 0.0)
            .collect();
        if nonzero_finite.is_empty() {
            return Formatter {
                mode: FloatMode::Int,
                width,
            };
        }
        let abs = nonzero_finite.iter().map(|v| v.abs());
        let min = abs.clone().fold(f64::INFINITY, f64::min);
        let max = abs.fold(0.0, f64::max);
        let int_mode = nonzero_finite.iter().all(|v| *v == v.ceil());
        let wide_range = max / min > 1000.0 || max > 1.0e8;
        let mode = if wide_range || (!int_mode && min < 1.0e-4) {
            FloatMode::Sci
        } else if int_mode {
            FloatMode::Int
        } else {
            FloatMode::Fixed
        };
        for &v in &nonzero_finite {
            // In integer mode the text includes the point, as PyTorch's `len + 1`.
            width = width.max(float_text(v, mode).len());
        }
        Formatter { mode, width }
    }

    /// The element's text right-aligned to the common width.
    #[cfg_attr(unoptimized, inline)]
    fn format(&self, values: &Values, i: usize) -> String {
        format!("{:>w$}", values.text(i, self), w = self.width)
    }
}

/// Indices shown along a dim of `size`: all, or the first and last `EDGEITEMS`
/// (`None` marks the `...`).
#[cfg_attr(unoptimized, inline)]
fn shown_indices(size: usize, summarize: bool) -> Vec<Option<usize>> {
    if summarize && size > 2 * EDGEITEMS {
        (0..EDGEITEMS)
            .map(Some)
            .chain(std::iter::once(None))
            .chain((size - EDGEITEMS..size).map(Some))
            .collect()
    } else {
        (0..size).map(Some).collect()
    }
}

/// Flat (row-major) indices of every shown element: `get_summarized_data`.
#[cfg_attr(unoptimized, inline)]
fn shown_elements(sizes: &[usize], summarize: bool) -> Vec<usize> {
    let mut flat = vec![0usize];
    for &size in sizes {
        let picks: Vec<usize> = shown_indices(size, summarize)
            .into_iter()
            .flatten()
            .collect();
        flat = flat
            .iter()
            .flat_map(|&base| picks.iter().map(move |&i| base * size + i))
            .collect();
    }
    flat
}

/// Prints nested brackets of the logical (row-major) elements with one formatter.
struct Printer<'a> {
    values: &'a Values,
    formatter: &'a Formatter,
    summarize: bool,
}

impl Printer<'_> {
    /// `_tensor_str_with_formatter` for the sub-tensor of dims `sizes` that starts at
    /// flat row-major index `base`, printed at column `indent`.
    #[cfg_attr(unoptimized, inline)]
    fn tensor_str(&self, sizes: &[usize], base: usize, indent: usize) -> String {
        match sizes.len() {
            0 => self.formatter.format(self.values, base),
            1 => self.vector_str(sizes[0], base, indent),
            dim => {
                let inner: usize = sizes[1..].iter().product();
                let slices: Vec<String> = shown_indices(sizes[0], self.summarize)
                    .into_iter()
                    .map(|i| match i {
                        Some(i) => self.tensor_str(&sizes[1..], base + i * inner, indent + 1),
                        None => "...".to_string(),
                    })
                    .collect();
                let sep = format!(",{}{}", "\n".repeat(dim - 1), " ".repeat(indent + 1));
                format!("[{}]", slices.join(&sep))
            }
        }
    }

    /// `_vector_str`: elements joined by `, `, wrapped to the line width.
    #[cfg_attr(unoptimized, inline)]
    fn vector_str(&self, size: usize, base: usize, indent: usize) -> String {
        let element_length = self.formatter.width + 2;
        let per_line = (LINEWIDTH.saturating_sub(indent) / element_length).max(1);
        let data: Vec<String> = shown_indices(size, self.summarize)
            .into_iter()
            .map(|i| match i {
                Some(i) => self.formatter.format(self.values, base + i),
                None => " ...".to_string(),
            })
            .collect();
        let lines: Vec<String> = data.chunks(per_line).map(|l| l.join(", ")).collect();
        let sep = format!(",\n{}", " ".repeat(indent + 1));
        format!("[{}]", lines.join(&sep))
    }
}

/// `_add_suffixes`: `, suffix` on the last line, or on a new line when it would pass
/// the line width.
#[cfg_attr(unoptimized, inline)]
fn add_suffixes(text: String, suffixes: &[String], indent: usize) -> String {
    let mut out = text;
    let mut last_line_len = match out.rfind('\n') {
        Some(p) => out.len() - p + 1,
        None => out.len() + 2,
    };
    for suffix in suffixes {
        if last_line_len + suffix.len() + 2 > LINEWIDTH {
            out += &format!(",\n{}{}", " ".repeat(indent), suffix);
            last_line_len = indent + suffix.len();
        } else {
            out += &format!(", {suffix}");
            last_line_len += suffix.len() + 2;
        }
    }
    out + ")"
}

impl fmt::Display for Tensor {
    /// Prints the tensor as PyTorch's `print(t)` / `repr(t)` does:
    /// `tensor([[1., 2.],\n        [3., 4.]])`, `tensor([1, 2], dtype=torch.int32)`.
    #[cfg_attr(unoptimized, inline)]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const PREFIX: &str = "tensor(";
        let indent = PREFIX.len();
        let dtype = self.dtype();
        let mut suffixes = Vec::new();
        let body = if self.numel() == 0 {
            if self.dim() != 1 {
                let sizes: Vec<String> = self.sizes().iter().map(|s| s.to_string()).collect();
                suffixes.push(format!("size=({})", sizes.join(", ")));
            }
            if dtype != DType::F32 {
                suffixes.push(format!("dtype=torch.{}", dtype.name()));
            }
            "[]".to_string()
        } else {
            if !matches!(dtype, DType::F32 | DType::I64 | DType::Bool) {
                suffixes.push(format!("dtype=torch.{}", dtype.name()));
            }
            let summarize = self.numel() > THRESHOLD;
            let count = self.sizes().iter().try_fold(1usize, |n, &size| {
                n.checked_mul(shown_indices(size.min(THRESHOLD + 1), summarize).len())
            });
            if self.dim() > MAX_NESTED {
                // One bracket level per dim, printed recursively: past this depth say so
                // instead of nesting thousands of brackets (and stack frames).
                return write!(
                    f,
                    "tensor(<{} elements in {} dims: too many dims to show nested>)",
                    self.numel(),
                    self.dim()
                );
            }
            if count.is_none_or(|c| c > MAX_SHOWN) {
                // More dims than any screen: 6 shown per dim in 20+ dims. Say so
                // instead of building billions of strings.
                return write!(
                    f,
                    "tensor(<{} elements of sizes {:?} in {} dims: too many to show>)",
                    self.numel(),
                    self.sizes(),
                    self.dim()
                );
            }
            let shown = shown_elements(self.sizes(), summarize);
            let values = Values::of(self, shown.clone());
            let formatter = Formatter::new(&values, &shown);
            let printer = Printer {
                values: &values,
                formatter: &formatter,
                summarize,
            };
            printer.tensor_str(self.sizes(), 0, indent)
        };
        f.write_str(&add_suffixes(format!("{PREFIX}{body}"), &suffixes, indent))
    }
}

#[cfg(test)]
mod tests;
