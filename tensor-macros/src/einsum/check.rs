//! The rules the pattern decides alone, with `torch.einsum`'s messages: as many operands
//! as the pattern has, output labels written once and found in some operand, at most 52
//! labels (one letter each for the runtime). A label's dims in different operands, and
//! an operand's rank, are compared by the types ([`super::expand`]).

use super::parse::{Label, Pattern, SyntaxError};
use std::ops::Range;

/// A pattern that passed the checks, with its output made explicit.
pub(crate) struct Checked {
    /// The parsed pattern.
    pub pattern: Pattern,
    /// The output labels (the written ones, or the implicit ones: labels written once
    /// in the whole pattern, in sorted order, as `torch.einsum` orders them).
    pub output: Vec<String>,
    /// The distinct labels in order of first appearance.
    pub labels: Vec<String>,
}

/// The checks of a parsed pattern given `operands` tensors.
pub(crate) fn check(pattern: Pattern, operands: usize) -> Result<Checked, SyntaxError> {
    let n = pattern.inputs.len();
    if operands == 0 {
        return Err(SyntaxError {
            range: 0..pattern.text.len(),
            message: "must specify the equation string and at least one operand".into(),
        });
    }
    if operands != n {
        let message = if operands > n {
            "more operands were provided than specified in the equation"
        } else {
            "fewer operands were provided than was specified in the equation"
        };
        let end = pattern.input_ranges.last().map_or(0, |r| r.end);
        return Err(SyntaxError {
            range: 0..end,
            message: format!(
                "{message}: the pattern has {n} operand{}, {operands} tensor{} given",
                if n == 1 { "" } else { "s" },
                if operands == 1 { " is" } else { "s are" }
            ),
        });
    }
    let mut labels: Vec<String> = Vec::new();
    for l in pattern.inputs.iter().flatten() {
        if !labels.contains(&l.name) {
            labels.push(l.name.clone());
        }
    }
    let output = match &pattern.output {
        Some(out) => explicit(out, &labels)?,
        None => {
            let mut once: Vec<String> = labels
                .iter()
                .filter(|name| {
                    pattern
                        .inputs
                        .iter()
                        .flatten()
                        .filter(|l| &l.name == *name)
                        .count()
                        == 1
                })
                .cloned()
                .collect();
            once.sort();
            once
        }
    };
    if labels.len() > 52 {
        let l = pattern
            .inputs
            .iter()
            .flatten()
            .find(|l| l.name == labels[52])
            .map_or(0..0, |l| l.range.clone());
        return Err(SyntaxError {
            range: l,
            message: "at most 52 different labels (one letter each in torch.einsum)".into(),
        });
    }
    Ok(Checked {
        pattern,
        output,
        labels,
    })
}

/// The written output: each label once, each found in some operand.
fn explicit(out: &[Label], labels: &[String]) -> Result<Vec<String>, SyntaxError> {
    for (i, l) in out.iter().enumerate() {
        if out[..i].iter().any(|e| e.name == l.name) {
            return Err(SyntaxError {
                range: l.range.clone(),
                message: format!(
                    "output subscript `{}` appears more than once in the output",
                    l.name
                ),
            });
        }
        if !labels.contains(&l.name) {
            return Err(SyntaxError {
                range: l.range.clone(),
                message: format!(
                    "output subscript `{}` does not appear in the equation for any input operand",
                    l.name
                ),
            });
        }
    }
    Ok(out.iter().map(|l| l.name.clone()).collect())
}

/// `name: message`, then the pattern with carets under `range`.
pub(crate) fn drawn(name: &str, text: &str, range: &Range<usize>, message: &str) -> String {
    let start = range.start.min(text.len());
    let before = text[..start].chars().count();
    let width = text[start..range.end.clamp(start, text.len())]
        .chars()
        .count()
        .max(1);
    format!(
        "{name}: {message}\n  | {text}\n  | {}{}",
        " ".repeat(before),
        "^".repeat(width)
    )
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::einsum::parse::pattern;

    #[test]
    fn a_repeated_output_label_is_pytorchs_message_at_its_second_place() {
        let e = check(pattern("ij,jk->ii").unwrap(), 2).err().unwrap();
        assert_eq!(e.range, 8..9);
        assert_eq!(
            e.message,
            "output subscript `i` appears more than once in the output"
        );
    }

    #[test]
    fn an_operand_count_other_than_the_patterns_is_pytorchs_message() {
        let e = check(pattern("ij,jk->ik").unwrap(), 3).err().unwrap();
        assert!(e
            .message
            .starts_with("more operands were provided than specified in the equation"));
        let e = check(pattern("ij,jk->ik").unwrap(), 1).err().unwrap();
        assert!(e
            .message
            .starts_with("fewer operands were provided than was specified in the equation"));
    }

    #[test]
    fn an_implicit_output_sorts_the_labels_written_once_uppercase_first() {
        let c = check(pattern("ba,cB").unwrap(), 2).ok().unwrap();
        assert_eq!(c.output, ["B", "a", "b", "c"]);
        let c = check(pattern("ii").unwrap(), 1).ok().unwrap();
        assert!(c.output.is_empty());
    }
}
