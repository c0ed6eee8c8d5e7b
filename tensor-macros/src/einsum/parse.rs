//! The invocation (`"pattern", x0, x1, ..`) and the pattern: operands of labels, each
//! label with its byte range in the pattern text, and the output if written.
//!
//! Labels are separated by spaces (`"b h s d, b h t d -> b h s t"`, words allowed:
//! `"batch i, i j"`), or, in a pattern without any space inside an operand, one letter
//! each as `torch.einsum` writes them (`"bhsd,bhtd->bhst"`).

use std::ops::Range;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, LitStr, Token};

/// `einsum!("pattern", x0, x1, ..)`.
pub(crate) struct Invocation {
    /// The pattern literal.
    pub pattern: LitStr,
    /// The operands, in order.
    pub operands: Vec<Expr>,
}

impl Parse for Invocation {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let pattern: LitStr = input.parse()?;
        let mut operands = Vec::new();
        if !input.is_empty() {
            input.parse::<Token![,]>()?;
            let rest = Punctuated::<Expr, Token![,]>::parse_terminated(input)?;
            operands.extend(rest);
        }
        Ok(Invocation { pattern, operands })
    }
}

/// One label: its name and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Label {
    /// The label as written (`d`, `head`).
    pub name: String,
    /// Its bytes in the pattern text.
    pub range: Range<usize>,
}

/// A parsed pattern.
#[derive(Debug)]
pub(crate) struct Pattern {
    /// The pattern text.
    pub text: String,
    /// Each operand's labels, in order.
    pub inputs: Vec<Vec<Label>>,
    /// Each operand's bytes in the text (trimmed).
    pub input_ranges: Vec<Range<usize>>,
    /// The output's labels when `->` is written.
    pub output: Option<Vec<Label>>,
}

/// A syntax error at bytes of the pattern text.
#[derive(Debug)]
pub(crate) struct SyntaxError {
    /// The offending bytes.
    pub range: Range<usize>,
    /// The message (PyTorch's where it has one).
    pub message: String,
}

fn err(range: Range<usize>, message: impl Into<String>) -> SyntaxError {
    SyntaxError {
        range,
        message: message.into(),
    }
}

/// The trimmed sub-range of `text[range]`.
fn trimmed(text: &str, range: Range<usize>) -> Range<usize> {
    let part = &text[range.clone()];
    let start = range.start + (part.len() - part.trim_start().len());
    let end = range.end - (part.len() - part.trim_end().len());
    start..end.max(start)
}

/// Parses the pattern text.
pub(crate) fn pattern(text: &str) -> Result<Pattern, SyntaxError> {
    if let Some(i) = text.find("...") {
        return Err(err(
            i..i + 3,
            "`...` is not supported by einsum!: name each dim with a label (Tensor::einsum takes `...`)",
        ));
    }
    let arrows: Vec<usize> = text.match_indices("->").map(|(i, _)| i).collect();
    if let Some(&second) = arrows.get(1) {
        return Err(err(second..second + 2, "found '->' for more than one time"));
    }
    let left_end = arrows.first().copied().unwrap_or(text.len());
    let mut segments = Vec::new();
    let mut start = 0;
    for (i, c) in text[..left_end].char_indices() {
        if c == ',' {
            segments.push(trimmed(text, start..i));
            start = i + 1;
        }
    }
    segments.push(trimmed(text, start..left_end));
    let output_range = match arrows.first() {
        Some(&a) => trimmed(text, a + 2..text.len()),
        None => text.len()..text.len(),
    };
    let spaced = segments
        .iter()
        .chain(arrows.first().map(|_| &output_range))
        .any(|r| text[r.clone()].contains(char::is_whitespace));
    let labels = |r: &Range<usize>| labels(text, r.clone(), spaced);
    let inputs = segments.iter().map(labels).collect::<Result<Vec<_>, _>>()?;
    let output = match arrows.first() {
        Some(_) => Some(labels(&output_range)?),
        None => None,
    };
    Ok(Pattern {
        text: text.to_string(),
        inputs,
        input_ranges: segments,
        output,
    })
}

/// The labels of `text[range]`: words separated by spaces, or one letter each.
fn labels(text: &str, range: Range<usize>, spaced: bool) -> Result<Vec<Label>, SyntaxError> {
    let invalid = |i: usize, c: char| {
        err(
            i..i + c.len_utf8(),
            format!(
                "invalid subscript given at index {i} in the equation string, subscripts must be in [a-zA-Z]"
            ),
        )
    };
    let mut out = Vec::new();
    if !spaced {
        for (i, c) in text[range.clone()].char_indices() {
            let i = range.start + i;
            if !c.is_ascii_alphabetic() {
                return Err(invalid(i, c));
            }
            out.push(Label {
                name: c.to_string(),
                range: i..i + 1,
            });
        }
        return Ok(out);
    }
    let mut word: Option<usize> = None;
    let part = &text[range.clone()];
    for (i, c) in part.char_indices().chain([(part.len(), ' ')]) {
        let i = range.start + i;
        if c.is_whitespace() {
            if let Some(s) = word.take() {
                out.push(Label {
                    name: text[s..i].to_string(),
                    range: s..i,
                });
            }
        } else if word.is_none() {
            if !c.is_ascii_alphabetic() {
                return Err(invalid(i, c));
            }
            word = Some(i);
        } else if !(c.is_ascii_alphanumeric() || c == '_') {
            return Err(invalid(i, c));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::pattern;

    fn names(p: &[super::Label]) -> Vec<&str> {
        p.iter().map(|l| l.name.as_str()).collect()
    }

    #[test]
    fn spaced_labels_are_words_and_compact_ones_letters() {
        let p = pattern("b h s d, b h t d -> b h s t").unwrap();
        assert_eq!(names(&p.inputs[1]), ["b", "h", "t", "d"]);
        assert_eq!(names(p.output.as_ref().unwrap()), ["b", "h", "s", "t"]);
        assert_eq!(p.inputs[1][2].range, 13..14);
        let p = pattern("bhsd,bhtd->bhst").unwrap();
        assert_eq!(names(&p.inputs[0]), ["b", "h", "s", "d"]);
        let p = pattern("batch i, i j").unwrap();
        assert_eq!(names(&p.inputs[0]), ["batch", "i"]);
        assert!(p.output.is_none());
    }

    #[test]
    fn a_character_that_is_no_label_is_pytorchs_invalid_subscript() {
        let e = pattern("ij,j%->i").unwrap_err();
        assert_eq!(e.range, 4..5);
        assert!(e.message.contains("invalid subscript given at index 4"));
        let e = pattern("a b, b 1 -> a").unwrap_err();
        assert_eq!(e.range, 7..8);
    }

    #[test]
    fn an_empty_output_and_a_scalar_operand_have_no_labels() {
        let p = pattern("i,i->").unwrap();
        assert_eq!(p.output.as_ref().map(Vec::len), Some(0));
        let p = pattern(",i->i").unwrap();
        assert!(p.inputs[0].is_empty());
    }
}
