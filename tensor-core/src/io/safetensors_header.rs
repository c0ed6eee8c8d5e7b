//! The header entries of a safetensors file: the format's dtype names and a tensor's
//! `{"dtype", "shape", "data_offsets"}` entry, read from and written to JSON.
//!
//! Written here rather than taken from the `safetensors` crate: we need only these two
//! types, and the crate brings serde's derive macros (a second `syn`) into every build.

use serde_json::Value;

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
    pub(crate) fn name(self) -> String {
        format!("{self:?}")
    }

    /// The dtype of a header name, or `None` for a name the format does not have.
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
    pub(crate) fn from_json(value: &Value) -> std::result::Result<TensorInfo, String> {
        let obj = value
            .as_object()
            .ok_or_else(|| format!("expected an object, found {value}"))?;
        let field = |k: &str| obj.get(k).ok_or_else(|| format!("missing field `{k}`"));
        let dtype_value = field("dtype")?;
        let dtype = dtype_value
            .as_str()
            .and_then(StDtype::from_name)
            .ok_or_else(|| format!("unknown dtype {dtype_value}"))?;
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

/// A JSON array of non-negative integers that fit in `usize`.
fn usizes(value: &Value, what: &str) -> std::result::Result<Vec<usize>, String> {
    let items = value
        .as_array()
        .ok_or_else(|| format!("{what} must be an array of integers, found {value}"))?;
    items
        .iter()
        .map(|v| {
            v.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("{what} holds {v}, not a non-negative integer"))
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
        let back = TensorInfo::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(
            (back.dtype, back.shape, back.data_offsets),
            (StDtype::BF16, vec![2, 3], (8, 20))
        );
    }

    #[test]
    fn entry_errors_name_the_wrong_part() {
        let parse = |s: &str| TensorInfo::from_json(&serde_json::from_str(s).unwrap()).unwrap_err();
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
