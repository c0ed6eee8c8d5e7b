//! Literals as syn classifies them: an integer (`1`, `0x1F`, `2_000u32`, and `-1` as a
//! `-` then a literal), a float, a string (with its value), a boolean (`true`, `false`),
//! or another kind (characters, bytes, byte strings).
//!
//! The rules are syn's (`syn::Lit`), so that the macros accept and reject the same
//! literals: an integer's decimal digits are what `base10_parse` reads, so its errors
//! are the standard library's (`number too large to fit in target type`).

use super::buffer::Cursor;
use super::tree::Span;

/// A literal.
#[derive(Clone, Debug)]
pub(crate) struct Lit {
    /// What kind of literal.
    pub kind: LitKind,
    /// Its span (the `-`'s for a negative number: stable Rust cannot join spans).
    pub span: Span,
    /// The literal as written (`-` first for a negative number).
    pub repr: String,
}

/// The kinds of [`Lit`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LitKind {
    /// An integer: its value in decimal digits (`-` first if negative) and its suffix.
    Int { digits: String, suffix: String },
    /// A floating-point number.
    Float,
    /// A string and its value.
    Str { value: String },
    /// `true` or `false`.
    Bool,
    /// A character, byte, byte string or C string (or a malformed literal).
    Other,
}

impl Lit {
    /// The integer's value as a `usize`, with the standard library's error message.
    pub fn base10_usize(&self) -> Result<usize, String> {
        match &self.kind {
            LitKind::Int { digits, .. } => digits.parse::<usize>().map_err(|e| e.to_string()),
            _ => Err("expected integer literal".into()),
        }
    }

    /// Whether it is an integer literal.
    pub fn is_int(&self) -> bool {
        matches!(self.kind, LitKind::Int { .. })
    }
}

/// The literal at `c` (a literal token, `true`/`false`, or `-` and a number) and the
/// cursor after it: syn's `Lit` parser.
pub(crate) fn parse_lit(c: Cursor) -> Option<(Lit, Cursor)> {
    if let Some((l, rest)) = c.literal() {
        let repr = l.text().to_string();
        let kind = classify(&repr);
        return Some((
            Lit {
                kind,
                span: l.span(),
                repr,
            },
            rest,
        ));
    }
    if let Some((i, rest)) = c.ident() {
        if i == "true" || i == "false" {
            let lit = Lit {
                kind: LitKind::Bool,
                span: i.span(),
                repr: i.text().to_string(),
            };
            return Some((lit, rest));
        }
    }
    let (p, rest) = c.punct()?;
    if p.as_char() != '-' {
        return None;
    }
    let (l, rest) = rest.literal()?;
    let repr = format!("-{}", l.text());
    let kind = match parse_int(&repr) {
        Some((digits, suffix)) => LitKind::Int { digits, suffix },
        None if parse_float(&repr) => LitKind::Float,
        None => return None,
    };
    Some((
        Lit {
            kind,
            span: p.span(),
            repr,
        },
        rest,
    ))
}

fn classify(repr: &str) -> LitKind {
    let bytes = repr.as_bytes();
    match bytes.first() {
        Some(b'"' | b'r') => match parse_str(repr) {
            Some(value) => LitKind::Str { value },
            None => LitKind::Other,
        },
        Some(b'0'..=b'9' | b'-') => match parse_int(repr) {
            Some((digits, suffix)) => LitKind::Int { digits, suffix },
            None if parse_float(repr) => LitKind::Float,
            None => LitKind::Other,
        },
        _ if repr == "true" || repr == "false" => LitKind::Bool,
        _ => LitKind::Other,
    }
}

/// Whether `s` may follow a number or string as its suffix (an identifier).
fn suffix_ok(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        None => true,
        Some(c) if c == '_' || c.is_alphabetic() => chars.all(|c| c == '_' || c.is_alphanumeric()),
        Some(_) => false,
    }
}

/// An integer's decimal digits and suffix (syn's `parse_lit_int`).
pub(crate) fn parse_int(s: &str) -> Option<(String, String)> {
    let (negative, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let b = s.as_bytes();
    let (base, mut s) = match (b.first(), b.get(1)) {
        (Some(b'0'), Some(b'x')) => (16u8, &s[2..]),
        (Some(b'0'), Some(b'o')) => (8, &s[2..]),
        (Some(b'0'), Some(b'b')) => (2, &s[2..]),
        (Some(b'0'..=b'9'), _) => (10, s),
        _ => return None,
    };
    // The value in decimal, least significant digit first.
    let mut value: Vec<u8> = vec![0];
    let mut has_digit = false;
    'digits: while let Some(&b) = s.as_bytes().first() {
        let digit = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' if base > 10 => b - b'a' + 10,
            b'A'..=b'F' if base > 10 => b - b'A' + 10,
            b'_' => {
                s = &s[1..];
                continue;
            }
            b'.' if base == 10 => return None,
            b'e' | b'E' if base == 10 => {
                let mut has_exp = false;
                for (i, b) in s[1..].bytes().enumerate() {
                    match b {
                        b'_' => {}
                        b'-' | b'+' => return None,
                        b'0'..=b'9' => has_exp = true,
                        _ => {
                            if has_exp && suffix_ok(&s[1 + i..]) {
                                return None;
                            }
                            break 'digits;
                        }
                    }
                }
                if has_exp {
                    return None;
                }
                break;
            }
            _ => break,
        };
        if digit >= base {
            return None;
        }
        has_digit = true;
        mul_add(&mut value, base, digit);
        s = &s[1..];
    }
    if !has_digit || !suffix_ok(s) {
        return None;
    }
    while value.len() > 1 && value.last() == Some(&0) {
        value.pop();
    }
    let mut digits: String = value.iter().rev().map(|d| char::from(b'0' + d)).collect();
    if negative {
        digits.insert(0, '-');
    }
    Some((digits, s.to_string()))
}

/// `value = value * base + digit`, on decimal digits (least significant first).
fn mul_add(value: &mut Vec<u8>, base: u8, digit: u8) {
    let mut carry = u16::from(digit);
    for d in value.iter_mut() {
        let x = u16::from(*d) * u16::from(base) + carry;
        *d = (x % 10) as u8;
        carry = x / 10;
    }
    while carry > 0 {
        value.push((carry % 10) as u8);
        carry /= 10;
    }
}

/// Whether `s` is a floating-point literal (syn's `parse_lit_float`).
fn parse_float(input: &str) -> bool {
    let b = input.as_bytes();
    let start = usize::from(b.first() == Some(&b'-'));
    if !matches!(b.get(start), Some(b'0'..=b'9')) {
        return false;
    }
    let (mut has_dot, mut has_e, mut has_sign, mut has_exponent) = (false, false, false, false);
    let mut read = start;
    while read < b.len() {
        match b[read] {
            b'_' => {}
            b'0'..=b'9' => has_exponent |= has_e,
            b'.' => {
                if has_e || has_dot {
                    return false;
                }
                has_dot = true;
            }
            b'e' | b'E' => {
                let next = b[read + 1..].iter().find(|b| **b != b'_');
                if !matches!(next, Some(b'-' | b'+' | b'0'..=b'9')) {
                    break;
                }
                if has_e {
                    if has_exponent {
                        break;
                    }
                    return false;
                }
                has_e = true;
            }
            b'-' | b'+' => {
                if has_sign || has_exponent || !has_e {
                    return false;
                }
                has_sign = true;
            }
            _ => break,
        }
        read += 1;
    }
    (!has_e || has_exponent) && suffix_ok(&input[read..])
}

/// A string literal's value (syn's `parse_lit_str`), `None` if `s` is not one.
fn parse_str(s: &str) -> Option<String> {
    if let Some(raw) = s.strip_prefix('r') {
        let pounds = raw.bytes().take_while(|b| *b == b'#').count();
        if raw.as_bytes().get(pounds) != Some(&b'"') {
            return None;
        }
        let close = raw.rfind('"')?;
        if close <= pounds
            || raw
                .get(close + 1..close + 1 + pounds)?
                .bytes()
                .any(|b| b != b'#')
        {
            return None;
        }
        return Some(raw[pounds + 1..close].to_string());
    }
    let mut s = s.strip_prefix('"')?;
    let mut content = String::new();
    loop {
        let mut chars = s.chars();
        let ch = match chars.next()? {
            '"' => break,
            '\\' => {
                let b = chars.next()?;
                s = chars.as_str();
                match b {
                    'x' => {
                        let n = u8::from_str_radix(s.get(..2)?, 16).ok()?;
                        s = &s[2..];
                        if n > 0x7F {
                            return None;
                        }
                        char::from(n)
                    }
                    'u' => {
                        let body = s.strip_prefix('{')?;
                        let end = body.find('}')?;
                        let hex: String = body[..end].chars().filter(|c| *c != '_').collect();
                        if hex.is_empty() || hex.len() > 6 || body.starts_with('_') {
                            return None;
                        }
                        s = &body[end + 1..];
                        char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?
                    }
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    '\\' => '\\',
                    '0' => '\0',
                    '\'' => '\'',
                    '"' => '"',
                    '\r' | '\n' => {
                        s = s.trim_start_matches([' ', '\t', '\n', '\r']);
                        continue;
                    }
                    _ => return None,
                }
            }
            '\r' => {
                s = chars.as_str().strip_prefix('\n')?;
                content.push('\n');
                continue;
            }
            c => {
                s = chars.as_str();
                c
            }
        };
        content.push(ch);
    }
    Some(content)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(s: &str) -> Option<(String, String)> {
        parse_int(s)
    }

    #[test]
    fn integers_read_as_syn_reads_them() {
        assert_eq!(int("2_000u32"), Some(("2000".into(), "u32".into())));
        assert_eq!(int("0x1F"), Some(("31".into(), "".into())));
        assert_eq!(int("007"), Some(("7".into(), "".into())));
        assert_eq!(int("1f32"), Some(("1".into(), "f32".into())));
        assert_eq!(int("-3"), Some(("-3".into(), "".into())));
        assert_eq!(int("1.0"), None);
        assert_eq!(int("1e3"), None);
        let huge = int("0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF").unwrap().0;
        assert_eq!(huge, "87112285931760246646623899502532662132735");
    }

    #[test]
    fn other_numbers_are_floats_or_not_numbers() {
        assert_eq!(classify("1.0"), LitKind::Float);
        assert_eq!(classify("1e3"), LitKind::Float);
        assert_eq!(classify("2.5f32"), LitKind::Float);
        assert_eq!(classify("'a'"), LitKind::Other);
        assert_eq!(classify("b\"x\""), LitKind::Other);
    }

    #[test]
    fn strings_have_their_values() {
        let value = |s: &str| match classify(s) {
            LitKind::Str { value } => value,
            other => panic!("{other:?}"),
        };
        assert_eq!(value(r#""a\n\"b\" \u{e9}\x41""#), "a\n\"b\" \u{e9}A");
        assert_eq!(value(r##"r#"h "w" -> w"#"##), "h \"w\" -> w");
        assert_eq!(value("\"a\\\n   b\""), "ab");
    }
}
