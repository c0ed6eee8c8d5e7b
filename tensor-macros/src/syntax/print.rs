//! Token trees → text, as `proc_macro2` prints them outside a macro: tokens separated by
//! one space except after joined punctuation, `{ .. }` padded inside. Messages quote the
//! user's syntax with it, and unit tests compare expansions as text.

use super::tree::{Delimiter, Spacing, Tree};
use std::fmt::Write;

/// The text of `trees`.
pub(crate) fn to_string(trees: &[Tree]) -> String {
    let mut out = String::new();
    write_trees(&mut out, trees);
    out
}

fn write_trees(out: &mut String, trees: &[Tree]) {
    let mut joint = false;
    for (i, tree) in trees.iter().enumerate() {
        if i != 0 && !joint {
            out.push(' ');
        }
        joint = false;
        match tree {
            Tree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{ ", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                write_trees(out, g.stream());
                if g.delimiter() == Delimiter::Brace && !g.stream().is_empty() {
                    out.push(' ');
                }
                out.push_str(close);
            }
            Tree::Ident(i) => out.push_str(i.text()),
            Tree::Punct(p) => {
                joint = p.spacing() == Spacing::Joint;
                let _ = write!(out, "{}", p.as_char());
            }
            Tree::Literal(l) => out.push_str(l.text()),
        }
    }
}
