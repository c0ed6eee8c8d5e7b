//! The equation of an einsum, read against its operands' ranks into the alignment every
//! operand is permuted to: output dims first, then the dims summed out.
//!
//! The checks and their order are `torch.einsum`'s: the left side character by
//! character (spaces skipped, `...`, `,`, letters), the operand count, each operand's
//! rank, then the right side. A label is a letter; labels are numbered uppercase first
//! (`A`..`Z` are 0..25, `a`..`z` 26..51), which is the order of the implicit output.

use crate::error::{Error, Result};

/// Number of labels: the 26 uppercase and 26 lowercase ASCII letters.
pub(super) const LABELS: usize = 52;

/// One subscript of an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Subscript {
    /// A letter, by its number (uppercase first).
    Label(u8),
    /// `...`: the dims no letter names.
    Ellipsis,
}

/// An equation read against its operands' ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Equation {
    /// Each operand's subscripts, as written.
    pub operands: Vec<Vec<Subscript>>,
    /// The number of dims the widest ellipsis covers.
    pub ell_dims: usize,
    /// The first aligned dim of the ellipsis dims.
    pub ell_start: usize,
    /// The aligned dim of each label used (`None` for a label no operand has).
    pub label_dim: [Option<usize>; LABELS],
    /// The number of output dims: aligned dims `0..out_dims` are the output's.
    pub out_dims: usize,
    /// The number of aligned dims: output dims, then the dims summed out.
    pub aligned_dims: usize,
}

/// The number of a letter: `A`..`Z` are 0..25, `a`..`z` 26..51.
#[cfg_attr(unoptimized, inline)]
fn label_number(letter: u8) -> u8 {
    if letter.is_ascii_uppercase() {
        letter - b'A'
    } else {
        letter - b'a' + 26
    }
}

/// The letter of a label number.
#[cfg_attr(unoptimized, inline)]
pub(super) fn label_letter(label: u8) -> char {
    if label < 26 {
        (b'A' + label) as char
    } else {
        (b'a' + label - 26) as char
    }
}

#[cfg_attr(unoptimized, inline)]
fn error(message: String) -> Error {
    Error::Einsum { message }
}

/// Reads `equation` for operands of `ranks` dims.
///
/// # Errors
/// [`Error::Einsum`] with PyTorch's message for a character that is not a letter, a
/// stray `.`, a second ellipsis, more or fewer operands than the equation names, an
/// operand whose rank does not fit its subscripts, or an output subscript that is
/// repeated or names no input label.
#[cfg_attr(unoptimized, inline)]
pub(super) fn parse(equation: &str, ranks: &[usize]) -> Result<Equation> {
    let num_ops = ranks.len();
    let bytes = equation.as_bytes();
    let arrow = equation.find("->");
    let lhs = &bytes[..arrow.unwrap_or(bytes.len())];

    let mut operands: Vec<Vec<Subscript>> = vec![Vec::new(); num_ops.max(1)];
    let mut ell_seen = false;
    let mut current = 0usize;
    let mut i = 0usize;
    while i < lhs.len() {
        match lhs[i] {
            b' ' => {}
            b'.' => {
                if ell_seen {
                    return Err(error(format!(
                        "einsum(): found '.' for operand {current} for which an ellipsis was already found"
                    )));
                }
                if !(i + 2 < lhs.len() && lhs[i + 1] == b'.' && lhs[i + 2] == b'.') {
                    return Err(error(format!(
                        "einsum(): found '.' for operand {current} that is not part of any ellipsis"
                    )));
                }
                i += 2;
                operands[current].push(Subscript::Ellipsis);
                ell_seen = true;
            }
            b',' => {
                current += 1;
                if current >= num_ops {
                    return Err(error(
                        "einsum(): fewer operands were provided than specified in the equation"
                            .into(),
                    ));
                }
                ell_seen = false;
            }
            c if c.is_ascii_alphabetic() => operands[current].push(Subscript::Label(label_number(c))),
            _ => {
                return Err(error(format!(
                    "einsum(): invalid subscript given at index {i} in the equation string, subscripts must be in [a-zA-Z]"
                )))
            }
        }
        i += 1;
    }
    if current + 1 != num_ops {
        return Err(error(
            "einsum(): more operands were provided than specified in the equation".into(),
        ));
    }

    let mut label_count = [0usize; LABELS];
    let mut ell_dims = 0usize;
    for (k, (subscripts, &rank)) in operands.iter().zip(ranks).enumerate() {
        let has_ellipsis = subscripts.contains(&Subscript::Ellipsis);
        let nlabels = subscripts.len() - has_ellipsis as usize;
        for s in subscripts {
            if let Subscript::Label(l) = s {
                label_count[*l as usize] += 1;
            }
        }
        if has_ellipsis {
            if nlabels > rank {
                return Err(error(format!(
                    "einsum(): the number of subscripts in the equation ({nlabels}) is more than the number of dimensions ({rank}) for operand {k}"
                )));
            }
            ell_dims = ell_dims.max(rank - nlabels);
        } else if nlabels != rank {
            return Err(error(format!(
                "einsum(): the number of subscripts in the equation ({nlabels}) does not match the number of dimensions ({rank}) for operand {k} and no ellipsis was given"
            )));
        }
    }

    let mut label_dim = [None; LABELS];
    let mut next = 0usize;
    let mut ell_start = 0usize;
    let mut ell_in_output = false;
    match arrow {
        None => {
            // The implicit output: the ellipsis dims, then the labels seen once, in
            // label order (uppercase first).
            next = ell_dims;
            ell_in_output = true;
            for (l, &count) in label_count.iter().enumerate() {
                if count == 1 {
                    label_dim[l] = Some(next);
                    next += 1;
                }
            }
        }
        Some(arrow) => {
            let rhs = &bytes[arrow + 2..];
            let mut i = 0usize;
            while i < rhs.len() {
                match rhs[i] {
                    b' ' => {}
                    b'.' => {
                        if ell_in_output {
                            return Err(error(
                                "einsum(): found '.' for output but an ellipsis (...) was already found"
                                    .into(),
                            ));
                        }
                        if !(i + 2 < rhs.len() && rhs[i + 1] == b'.' && rhs[i + 2] == b'.') {
                            return Err(error(
                                "einsum(): found '.' for output that is not part of any ellipsis (...)"
                                    .into(),
                            ));
                        }
                        i += 2;
                        ell_start = next;
                        next += ell_dims;
                        ell_in_output = true;
                    }
                    c if c.is_ascii_alphabetic() => {
                        let l = label_number(c) as usize;
                        if label_count[l] == 0 || label_dim[l].is_some() {
                            let why = if label_dim[l].is_some() {
                                "appears more than once in the output"
                            } else {
                                "does not appear in the equation for any input operand"
                            };
                            return Err(error(format!(
                                "einsum(): output subscript {} {why}",
                                c as char
                            )));
                        }
                        label_dim[l] = Some(next);
                        next += 1;
                    }
                    _ => {
                        return Err(error(format!(
                            "einsum(): invalid subscript given at index {} in the equation string, subscripts must be in [a-zA-Z]",
                            lhs.len() + 2 + i
                        )))
                    }
                }
                i += 1;
            }
        }
    }
    let out_dims = next;
    if !ell_in_output {
        ell_start = next;
        next += ell_dims;
    }
    for (l, &count) in label_count.iter().enumerate() {
        if count > 0 && label_dim[l].is_none() {
            label_dim[l] = Some(next);
            next += 1;
        }
    }
    Ok(Equation {
        operands,
        ell_dims,
        ell_start,
        label_dim,
        out_dims,
        aligned_dims: next,
    })
}
