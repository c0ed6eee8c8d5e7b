//! Text → token trees, for the fixed fragments of an expansion ([`super::quote`]) and for
//! the inputs of unit tests, where the compiler's lexer is not available.
//!
//! Punctuation is spaced as `quote!` spaces it: the characters of one operator (`::`,
//! `->`, `<-`, `..=`, `>>=`) are joined, and an operator ends alone. Line comments are skipped.
//! The grammar is the part of Rust's that the fragments and tests use: identifiers
//! (raw ones too), lifetimes, numbers, strings (raw and byte strings too), characters,
//! punctuation and the three delimiters. An unmatched close delimiter is skipped.

use super::tree::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, Tree};

/// Rust's operators of more than one character, longest first.
const OPERATORS: [&str; 25] = [
    "<<=", ">>=", "...", "..=", "::", "->", "<-", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=",
    "-=", "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>", "..",
];

/// The trees of `text`, every token spanned at `span`.
pub(crate) fn lex(text: &str, span: Span) -> Vec<Tree> {
    let chars: Vec<char> = text.chars().collect();
    let mut lexer = Lexer {
        chars: &chars,
        at: 0,
        span,
    };
    lexer.trees(None)
}

struct Lexer<'a> {
    chars: &'a [char],
    at: usize,
    span: Span,
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> char {
        self.chars.get(self.at + ahead).copied().unwrap_or('\0')
    }

    fn rest_starts_with(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(i, c)| self.peek(i) == c)
    }

    /// Trees up to `close` (or the end).
    fn trees(&mut self, close: Option<char>) -> Vec<Tree> {
        let mut out = Vec::new();
        while self.at < self.chars.len() {
            let c = self.peek(0);
            if c.is_whitespace() {
                self.at += 1;
            } else if self.rest_starts_with("//") {
                while self.at < self.chars.len() && self.peek(0) != '\n' {
                    self.at += 1;
                }
            } else if Some(c) == close {
                self.at += 1;
                return out;
            } else if let Some((delimiter, closer)) = open(c) {
                self.at += 1;
                let stream = self.trees(Some(closer));
                let mut group = Group::new(delimiter, stream);
                group.set_span(self.span);
                out.push(Tree::Group(group));
            } else if matches!(c, ')' | ']' | '}') {
                self.at += 1;
            } else if let Some(literal) = self.literal() {
                out.push(Tree::Literal(Literal::new(literal, self.span)));
            } else if is_ident_start(c) {
                let word = self.word();
                out.push(Tree::Ident(Ident::new(&word, self.span)));
            } else if c == '\'' {
                // A lifetime (a character literal was taken above).
                self.at += 1;
                out.push(self.punct('\'', Spacing::Joint));
            } else {
                self.operator(&mut out);
            }
        }
        out
    }

    fn punct(&self, ch: char, spacing: Spacing) -> Tree {
        let mut p = Punct::new(ch, spacing);
        p.set_span(self.span);
        Tree::Punct(p)
    }

    /// One operator: its characters joined, the last alone.
    fn operator(&mut self, out: &mut Vec<Tree>) {
        let len = OPERATORS
            .iter()
            .find(|op| self.rest_starts_with(op))
            .map_or(1, |op| op.len());
        for i in 0..len {
            let spacing = if i + 1 < len {
                Spacing::Joint
            } else {
                Spacing::Alone
            };
            out.push(self.punct(self.peek(0), spacing));
            self.at += 1;
        }
    }

    /// An identifier, or `r#` and one.
    fn word(&mut self) -> String {
        let mut word = String::new();
        if self.peek(0) == 'r' && self.peek(1) == '#' && is_ident_start(self.peek(2)) {
            word.push_str("r#");
            self.at += 2;
        }
        while is_ident_continue(self.peek(0)) {
            word.push(self.peek(0));
            self.at += 1;
        }
        word
    }

    /// A literal starting here, if one does.
    fn literal(&mut self) -> Option<String> {
        let start = self.at;
        let c = self.peek(0);
        let prefix = match (c, self.peek(1), self.peek(2)) {
            ('b' | 'c', 'r', '"' | '#') => 2,
            ('b' | 'c', '"', _) | ('r', '"' | '#', _) | ('b', '\'', _) => 1,
            _ => 0,
        };
        let q = self.peek(prefix);
        if c.is_ascii_digit() {
            self.number();
        } else if q == '"' || (q == '#' && self.chars[start..start + prefix].contains(&'r')) {
            self.at += prefix;
            if self.string().is_none() {
                // `r#ident`.
                self.at = start;
                return None;
            }
        } else if q == '\'' && self.is_char_literal(prefix) {
            self.at += prefix;
            self.quoted('\'');
        } else {
            return None;
        }
        // A suffix (`1u8`, `"a"suffix`).
        while is_ident_continue(self.peek(0)) {
            self.at += 1;
        }
        Some(self.chars[start..self.at].iter().collect())
    }

    /// Whether the `'` at `self.at + prefix` starts a character literal (not a lifetime).
    fn is_char_literal(&self, prefix: usize) -> bool {
        let (a, b) = (self.peek(prefix + 1), self.peek(prefix + 2));
        a == '\\' || b == '\''
    }

    /// Digits, `_`, a fraction (`1.5`, not `1..2` or `x.0.method`) and an exponent.
    fn number(&mut self) {
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == '_' {
            let sign = matches!(self.peek(0), 'e' | 'E') && matches!(self.peek(1), '+' | '-');
            self.at += if sign { 2 } else { 1 };
        }
        if self.peek(0) == '.' && self.peek(1).is_ascii_digit() {
            self.at += 1;
            self.number();
        }
    }

    /// A string from its `"` (or raw, `#`s and `"`).
    fn string(&mut self) -> Option<()> {
        let mut hashes = 0;
        while self.peek(0) == '#' {
            hashes += 1;
            self.at += 1;
        }
        if self.peek(0) != '"' {
            return None;
        }
        let raw = hashes > 0 || matches!(self.chars.get(self.at.wrapping_sub(1)), Some('r'));
        if !raw {
            self.quoted('"');
            return Some(());
        }
        self.at += 1;
        while self.at < self.chars.len() {
            if self.peek(0) == '"' && (1..=hashes).all(|i| self.peek(i) == '#') {
                self.at += 1 + hashes;
                return Some(());
            }
            self.at += 1;
        }
        Some(())
    }

    /// From an opening `quote` past the closing one, skipping escapes.
    fn quoted(&mut self, quote: char) {
        self.at += 1;
        while self.at < self.chars.len() {
            match self.peek(0) {
                '\\' => self.at += 2,
                c if c == quote => {
                    self.at += 1;
                    return;
                }
                _ => self.at += 1,
            }
        }
    }
}

fn open(c: char) -> Option<(Delimiter, char)> {
    match c {
        '(' => Some((Delimiter::Parenthesis, ')')),
        '[' => Some((Delimiter::Bracket, ']')),
        '{' => Some((Delimiter::Brace, '}')),
        _ => None,
    }
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::print::to_string;

    fn round_trip(text: &str) -> String {
        to_string(&lex(text, Span::call_site()))
    }

    #[test]
    fn operators_are_joined_and_end_alone() {
        assert_eq!(round_trip("a::<B>()"), "a :: < B > ()");
        assert_eq!(
            round_trip("<T as Tr<A, B>>::f"),
            "< T as Tr < A , B >> :: f"
        );
        assert_eq!(round_trip("fn(A) -> B"), "fn (A) -> B");
        assert_eq!(round_trip("a ..= b"), "a ..= b");
    }

    #[test]
    fn literals_keep_their_text() {
        assert_eq!(
            round_trip(r##"x(1.5, 2u8, "a\"b", r#"c"#, b'x', 'y', 1..2, x.0)"##),
            r##"x (1.5 , 2u8 , "a\"b" , r#"c"# , b'x' , 'y' , 1 .. 2 , x . 0)"##
        );
    }

    #[test]
    fn lifetimes_and_groups() {
        assert_eq!(
            round_trip("fn f<'a>(x: &'a u8) { }"),
            "fn f < 'a > (x : & 'a u8) { }"
        );
        assert_eq!(round_trip("{ a } // comment\n[b]"), "{ a } [b]");
    }
}
