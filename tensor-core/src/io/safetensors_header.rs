//! The header entries of a safetensors file: the format's dtype names and a tensor's
//! `{"dtype", "shape", "data_offsets"}` entry, read from and written to JSON.
//!
//! Written here rather than taken from the `safetensors` crate: we need only these two
//! types, and the crate brings serde's derive macros (a second `syn`) into every build.
//! The JSON itself is read by the `tinyjson` crate (no dependencies; serde_json with
//! serde_core cost ~4 s of CPU in a clean debug build), behind a nesting limit: its
//! parser recurses once per `[` or `{`, so a hostile header must not reach it deeper
//! than [`MAX_NESTING`].

use std::collections::BTreeMap;
use tinyjson::JsonValue as Value;

/// The deepest nesting of arrays and objects a header may have: serde_json's
/// recursion limit, which the `safetensors` crate's reader inherits.
pub(crate) const MAX_NESTING: usize = 128;

/// Parses a header: a JSON object, returned with its members in name order (the order
/// serde_json's map gives, so that the first bad entry reported does not depend on a
/// hash seed). A later duplicate name replaces an earlier one, as in serde_json. The
/// error is the parser's message (with its line and column), or says that the text
/// nests deeper than [`MAX_NESTING`] or is not an object.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn parse_object(text: &str) -> std::result::Result<BTreeMap<String, Value>, String> {
    check_nesting(text, MAX_NESTING)?;
    match text.parse::<Value>().map_err(|e| e.to_string())? {
        Value::Object(map) => Ok(map.into_iter().collect()),
        other => Err(format!("expected a JSON object, found {}", show(&other))),
    }
}

/// Errs if the arrays and objects of `text` nest deeper than `limit` (brackets inside
/// strings do not count). A scan of the bytes, before any recursion.
#[cfg_attr(unoptimized, inline)]
fn check_nesting(text: &str, limit: usize) -> std::result::Result<(), String> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &b in text.as_bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Err(format!(
                        "recursion limit exceeded: arrays and objects nest deeper than {limit}"
                    ));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// A header's `__metadata__`: an object whose values are all strings.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn string_map(value: Value) -> std::result::Result<BTreeMap<String, String>, String> {
    let Value::Object(map) = value else {
        return Err(format!("expected an object, found {}", show(&value)));
    };
    map.into_iter()
        .map(|(k, v)| match v {
            Value::String(s) => Ok((k, s)),
            other => Err(format!("`{k}` holds {}, not a string", show(&other))),
        })
        .collect()
}

/// `name` as a JSON string literal, quotes and escapes included.
#[cfg_attr(unoptimized, inline)]
pub(crate) fn quote(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    out.push('"');
    for c in name.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A value as JSON text, for error messages.
#[cfg_attr(unoptimized, inline)]
fn show(value: &Value) -> String {
    value.stringify().unwrap_or_else(|_| format!("{value:?}"))
}

/// A dtype name of the safetensors format, in the format's order of increasing
/// alignment (the order its writers sort tensors by, largest first).
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum StDtype {
    BOOL,
    F4,
    F6_E2M3,
    F6_E3M2,
    U8,
    I8,
    F8_E5M2,
    F8_E4M3,
    F8_E8M0,
    I16,
    U16,
    F16,
    BF16,
    I32,
    U32,
    F32,
    F64,
    I64,
    U64,
}

impl StDtype {
    /// Every dtype, for parsing by name.
    const ALL: [StDtype; 19] = [
        StDtype::BOOL,
        StDtype::F4,
        StDtype::F6_E2M3,
        StDtype::F6_E3M2,
        StDtype::U8,
        StDtype::I8,
        StDtype::F8_E5M2,
        StDtype::F8_E4M3,
        StDtype::F8_E8M0,
        StDtype::I16,
        StDtype::U16,
        StDtype::F16,
        StDtype::BF16,
        StDtype::I32,
        StDtype::U32,
        StDtype::F32,
        StDtype::F64,
        StDtype::I64,
        StDtype::U64,
    ];

    /// The size of one element in bits (4 and 6 for the packed small floats).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn bitsize(self) -> usize {
        match self {
            StDtype::F4 => 4,
            StDtype::F6_E2M3 | StDtype::F6_E3M2 => 6,
            StDtype::BOOL
            | StDtype::U8
            | StDtype::I8
            | StDtype::F8_E5M2
            | StDtype::F8_E4M3
            | StDtype::F8_E8M0 => 8,
            StDtype::I16 | StDtype::U16 | StDtype::F16 | StDtype::BF16 => 16,
            StDtype::I32 | StDtype::U32 | StDtype::F32 => 32,
            StDtype::F64 | StDtype::I64 | StDtype::U64 => 64,
        }
    }

    /// The name as the header writes it (`"F32"`, `"BOOL"`, `"F8_E4M3"`).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn name(self) -> String {
        format!("{self:?}")
    }

    /// The dtype of a header name, or `None` for a name the format does not have.
    #[cfg_attr(unoptimized, inline)]
    fn from_name(name: &str) -> Option<StDtype> {
        StDtype::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// One tensor's header entry: its dtype, shape, and the byte range of its data
/// (`[begin, end)` from the start of the data section).
#[derive(Clone, Debug)]
pub(crate) struct TensorInfo {
    pub(crate) dtype: StDtype,
    pub(crate) shape: Vec<usize>,
    pub(crate) data_offsets: (usize, usize),
}

impl TensorInfo {
    /// Parses an entry: an object with the fields `dtype` (a known name), `shape`
    /// (non-negative integers) and `data_offsets` (two non-negative integers); other
    /// fields are ignored, as the `safetensors` crate does. The error says which part
    /// is wrong.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn from_json(value: &Value) -> std::result::Result<TensorInfo, String> {
        let Value::Object(obj) = value else {
            return Err(format!("expected an object, found {}", show(value)));
        };
        let field = |k: &str| obj.get(k).ok_or_else(|| format!("missing field `{k}`"));
        let dtype_value = field("dtype")?;
        let dtype = match dtype_value {
            Value::String(name) => StDtype::from_name(name),
            _ => None,
        }
        .ok_or_else(|| format!("unknown dtype {}", show(dtype_value)))?;
        let shape = usizes(field("shape")?, "shape")?;
        let offsets = usizes(field("data_offsets")?, "data_offsets")?;
        let [begin, end] = offsets[..] else {
            return Err(format!(
                "data_offsets must hold two integers, found {}",
                offsets.len()
            ));
        };
        Ok(TensorInfo {
            dtype,
            shape,
            data_offsets: (begin, end),
        })
    }

    /// The entry as header JSON: `{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}`.
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn to_json(&self) -> String {
        let list = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
        format!(
            "{{\"dtype\":\"{}\",\"shape\":[{}],\"data_offsets\":[{},{}]}}",
            self.dtype.name(),
            list(&self.shape),
            self.data_offsets.0,
            self.data_offsets.1
        )
    }
}

/// A JSON array of non-negative integers that fit in `u64`. The parser reads every
/// number as an `f64`, exact up to 2^53 (8 PiB, more than any file); a larger integer
/// is read as `usize::MAX`, which the checks after this refuse (`ValidationOverflow`,
/// an offset past the end), as they refuse its exact value. A fraction, a negative
/// number or one above 2^64 is an error here.
#[cfg_attr(unoptimized, inline)]
fn usizes(value: &Value, what: &str) -> std::result::Result<Vec<usize>, String> {
    let Value::Array(items) = value else {
        return Err(format!(
            "{what} must be an array of integers, found {}",
            show(value)
        ));
    };
    const EXACT: f64 = (1u64 << 53) as f64;
    // u64::MAX rounds up to 2^64 as an f64.
    const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;
    items
        .iter()
        .map(|v| match v {
            Value::Number(n) if *n >= 0.0 && n.fract() == 0.0 && *n <= TWO_POW_64 => {
                Ok(if *n <= EXACT { *n as usize } else { usize::MAX })
            }
            _ => Err(format!(
                "{what} holds {}, not a non-negative integer",
                show(v)
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_round_trips_through_json() {
        let info = TensorInfo {
            dtype: StDtype::BF16,
            shape: vec![2, 3],
            data_offsets: (8, 20),
        };
        let text = info.to_json();
        assert_eq!(
            text,
            r#"{"dtype":"BF16","shape":[2,3],"data_offsets":[8,20]}"#
        );
        let back = TensorInfo::from_json(&text.parse().unwrap()).unwrap();
        assert_eq!(
            (back.dtype, back.shape, back.data_offsets),
            (StDtype::BF16, vec![2, 3], (8, 20))
        );
    }

    #[test]
    fn entry_errors_name_the_wrong_part() {
        let parse = |s: &str| TensorInfo::from_json(&s.parse().unwrap()).unwrap_err();
        assert!(
            parse(r#"{"dtype":"F33","shape":[],"data_offsets":[0,0]}"#).contains("unknown dtype")
        );
        assert!(
            parse(r#"{"dtype":"F32","shape":[-1],"data_offsets":[0,0]}"#)
                .contains("shape holds -1")
        );
        assert!(parse(r#"{"dtype":"F32","shape":[],"data_offsets":[0]}"#).contains("two integers"));
        assert!(parse(r#"{"dtype":"F32","shape":[]}"#).contains("missing field `data_offsets`"));
        assert!(parse("[1]").contains("expected an object"));
    }

    #[test]
    fn header_nesting_deeper_than_128_is_refused_before_parsing() {
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(200_000), "]".repeat(200_000));
        assert!(parse_object(&deep)
            .unwrap_err()
            .contains("recursion limit exceeded"));
        let ok = format!("{{\"a\":{}{}}}", "[".repeat(127), "]".repeat(127));
        assert!(parse_object(&ok).is_ok());
        // Brackets inside strings, escaped quotes included, do not count.
        let quoted = format!("{{\"a\":\"\\\"{}\"}}", "[".repeat(300));
        assert!(parse_object(&quoted).is_ok());
    }

    #[test]
    fn header_members_come_in_name_order_and_must_form_an_object() {
        let map = parse_object(r#"{"b":1,"a":2,"c":3}"#).unwrap();
        assert_eq!(map.keys().collect::<Vec<_>>(), ["a", "b", "c"]);
        assert!(parse_object("[1]")
            .unwrap_err()
            .contains("expected a JSON object"));
        assert!(parse_object(r#"{"a":1"#).is_err());
    }

    #[test]
    fn quoted_names_read_back_as_serde_json_reads_them() {
        for name in [
            "w",
            "a\"b",
            "back\\slash",
            "tab\tnew\nline\r",
            "\u{1}\u{1f}",
            "ünï ✓",
        ] {
            let text = quote(name);
            assert_eq!(serde_json::from_str::<String>(&text).unwrap(), name);
            assert_eq!(text.parse::<Value>().unwrap(), Value::String(name.into()));
        }
    }

    #[test]
    fn offsets_with_a_fraction_or_beyond_u64_are_refused() {
        let parse = |s: &str| TensorInfo::from_json(&s.parse().unwrap());
        assert!(parse(r#"{"dtype":"F32","shape":[1.5],"data_offsets":[0,0]}"#).is_err());
        assert!(parse(r#"{"dtype":"F32","shape":[],"data_offsets":[0,1e300]}"#).is_err());
        assert!(parse(r#"{"dtype":"F32","shape":[2],"data_offsets":[0,8]}"#).is_ok());
        let huge = parse(r#"{"dtype":"F32","shape":[],"data_offsets":[0,18446744073709551615]}"#);
        assert_eq!(huge.unwrap().data_offsets, (0, usize::MAX));
    }

    #[test]
    fn metadata_must_map_names_to_strings() {
        let ok = string_map(r#"{"format":"pt"}"#.parse().unwrap()).unwrap();
        assert_eq!(ok["format"], "pt");
        assert!(string_map(r#"{"n":1}"#.parse().unwrap())
            .unwrap_err()
            .contains("not a string"));
    }

    #[test]
    fn dtype_order_is_by_alignment() {
        assert!(
            StDtype::F64 > StDtype::F32
                && StDtype::F32 > StDtype::F16
                && StDtype::U8 > StDtype::BOOL
        );
        assert_eq!(StDtype::from_name("F8_E4M3"), Some(StDtype::F8_E4M3));
        assert_eq!(StDtype::F4.bitsize(), 4);
    }
}
