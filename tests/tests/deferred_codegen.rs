//! Debug builds compile only the kernels a program calls.
//!
//! In a debug build rustc generates code for every non-generic function a library
//! exports, used or not, and for every kernel those functions instantiate: tensor-core
//! alone was ~745k lines of LLVM IR and most of a one-line program's build. A function
//! marked `#[inline]` is instead generated in the crate that calls it, and only if it is
//! called. So every non-generic function of tensor-core and tensor-typed carries
//! `#[cfg_attr(unoptimized, inline)]`, where `cfg(unoptimized)` is set by the crates'
//! build scripts at opt-level 0 (optimised builds keep the usual one copy per function),
//! except in the leaf modules listed in `LEAVES`,
//! whose functions instantiate no kernels. One function left out is enough to pull its
//! whole call tree back into tensor-core's own build, so this test walks the sources
//! and names every function that lacks the attribute.
//!
//! The other half of the mechanism, the kernel bodies a debug build compiles instead,
//! is chosen only in `tensor-core/src/kernels/`: a second test names
//! every `cfg(unoptimized)` written anywhere else.
//!
//! `DEFERRED_CODEGEN=overwrite cargo test --release -p tensor-tests --test
//! deferred_codegen` adds the attribute where it is missing.

use std::fs;
use std::path::{Path, PathBuf};

/// The attribute every non-generic function carries.
const ATTR: &str = "#[cfg_attr(unoptimized, inline)]";

/// Files and folders (relative to the workspace root) whose functions need no
/// attribute: they instantiate no kernels, and their code is small.
const LEAVES: &[&str] = &[
    "tensor-core/src/error.rs",
    "tensor-core/src/dtype.rs",
    "tensor-core/src/scalar/mod.rs",
    "tensor-core/src/storage.rs",
    "tensor-core/src/buffer_cache.rs",
    "tensor-core/src/parallel.rs",
    "tensor-core/src/test_util.rs",
    "tensor-core/src/layout/",
];

/// The crates whose functions are deferred.
const CRATES: &[&str] = &["tensor-core/src", "tensor-typed/src"];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// What a `{ ... }` block opened by an item is.
#[derive(Clone, Copy, PartialEq)]
enum Block {
    /// An `impl` or `trait` with type or const parameters: its functions are generic.
    Generic,
    /// `#[cfg(test)] mod ...`: not compiled in a library build.
    Test,
    /// Anything else.
    Plain,
}

/// Removes string and char literals and comments from `line`, carrying an open block
/// comment or string across lines in `state`, so that braces can be counted.
#[derive(Default)]
struct Lexer {
    in_block_comment: usize,
    /// Inside a string; `Some(n)` for a raw string closed by `"` and `n` hashes.
    in_str: Option<Option<usize>>,
}

impl Lexer {
    fn code(&mut self, line: &str) -> String {
        let c: Vec<char> = line.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < c.len() {
            if self.in_block_comment > 0 {
                if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    self.in_block_comment -= 1;
                    i += 2;
                } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    self.in_block_comment += 1;
                    i += 2;
                } else {
                    i += 1;
                }
                continue;
            }
            if let Some(raw) = self.in_str {
                match raw {
                    None if c[i] == '\\' => i += 2,
                    None if c[i] == '"' => {
                        self.in_str = None;
                        out.push('"');
                        i += 1;
                    }
                    Some(n) if c[i] == '"' && (1..=n).all(|k| c.get(i + k) == Some(&'#')) => {
                        self.in_str = None;
                        out.push('"');
                        i += 1 + n;
                    }
                    _ => i += 1,
                }
                continue;
            }
            match c[i] {
                '/' if c.get(i + 1) == Some(&'/') => break,
                '/' if c.get(i + 1) == Some(&'*') => {
                    self.in_block_comment = 1;
                    i += 2;
                }
                '"' => {
                    self.in_str = Some(None);
                    out.push('"');
                    i += 1;
                }
                'r' if (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_'))
                    && matches!(c.get(i + 1), Some('"') | Some('#')) =>
                {
                    let hashes = c[i + 1..].iter().take_while(|&&ch| ch == '#').count();
                    if c.get(i + 1 + hashes) == Some(&'"') {
                        self.in_str = Some(Some(hashes));
                        out.push('"');
                        i += 2 + hashes;
                    } else {
                        out.push('r');
                        i += 1;
                    }
                }
                '\'' if c.get(i + 1) == Some(&'\\') => {
                    // An escaped char literal: skip to its closing quote.
                    let end = c[i + 2..]
                        .iter()
                        .position(|&ch| ch == '\'')
                        .map_or(c.len(), |p| i + 3 + p);
                    out.push_str("' '");
                    i = end;
                }
                '\'' if c.get(i + 2) == Some(&'\'') => {
                    out.push_str("' '");
                    i += 3;
                }
                ch => {
                    out.push(ch);
                    i += 1;
                }
            }
        }
        out
    }
}

/// Whether `<...>` starting at `rest` (just after `impl` or a fn name) lists a type or
/// const parameter, not only lifetimes.
fn has_type_params(rest: &str) -> bool {
    let Some(inner) = rest.trim_start().strip_prefix('<') else {
        return false;
    };
    let mut depth = 1;
    let mut params = String::new();
    for ch in inner.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            break;
        }
        params.push(ch);
    }
    params
        .split(',')
        .map(str::trim)
        .any(|p| !p.is_empty() && !p.starts_with('\''))
}

/// The name of the function declared on `code`, with the rest of the line after it.
fn fn_decl(code: &str) -> Option<(&str, &str)> {
    let mut s = code.trim_start();
    if let Some(r) = s.strip_prefix("pub") {
        s = r.trim_start();
        if s.starts_with('(') {
            s = &s[s.find(')')? + 1..];
        }
        s = s.trim_start();
    }
    for kw in [
        "const ",
        "async ",
        "unsafe ",
        "extern \"\" ",
        "extern \"C\" ",
    ] {
        if let Some(r) = s.strip_prefix(kw) {
            s = r.trim_start();
        }
    }
    let s = s.strip_prefix("fn ")?.trim_start();
    let end = s
        .find(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '$'))
        .unwrap_or(s.len());
    Some((&s[..end], &s[end..]))
}

/// The item kind a line opens, if any.
fn opens(code: &str, prev_attr_test: bool) -> Option<Block> {
    let t = code.trim_start();
    let t = t.strip_prefix("unsafe ").unwrap_or(t);
    if let Some(r) = t.strip_prefix("impl") {
        if r.starts_with('<') || r.starts_with(' ') {
            return Some(if has_type_params(r) {
                Block::Generic
            } else {
                Block::Plain
            });
        }
    }
    let mut u = t;
    if let Some(r) = u.strip_prefix("pub") {
        u = r.trim_start();
        if u.starts_with('(') {
            u = u.find(')').map_or(u, |p| &u[p + 1..]).trim_start();
        }
    }
    let u = u.strip_prefix("unsafe ").unwrap_or(u);
    if u.starts_with("trait ") {
        return Some(Block::Generic);
    }
    if u.starts_with("mod ") {
        return Some(if prev_attr_test || u.starts_with("mod tests") {
            Block::Test
        } else {
            Block::Plain
        });
    }
    None
}

/// A function that should carry [`ATTR`] but does not: (file, 1-based line, name).
type Missing = (PathBuf, usize, String);

/// Scans one file; returns its lines with [`ATTR`] added and the functions that lacked it.
fn scan(path: &Path, text: &str) -> (Vec<String>, Vec<Missing>) {
    let lines: Vec<&str> = text.lines().collect();
    let mut lexer = Lexer::default();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut missing = Vec::new();
    // (depth at which the block opened, its kind)
    let mut stack: Vec<(i64, Block)> = Vec::new();
    let mut pending: Option<Block> = None;
    let mut depth: i64 = 0;
    for (n, line) in lines.iter().enumerate() {
        let code = lexer.code(line);
        let prev_attr_test = out.last().is_some_and(|l| l.trim() == "#[cfg(test)]");
        let generic_ctx = stack.iter().any(|&(_, b)| b == Block::Generic);
        let test_ctx = stack.iter().any(|&(_, b)| b == Block::Test);
        let decl = fn_decl(&code);
        if let (Some((name, rest)), false, false) = (decl, generic_ctx, test_ctx) {
            // The signature runs to the first `{` or `;`; arg-position `impl Trait` is generic.
            let mut sig = rest.to_string();
            let mut k = n + 1;
            while !sig.contains('{') && !sig.contains(';') && k < lines.len() {
                sig.push(' ');
                sig.push_str(lines[k]);
                k += 1;
            }
            let sig = &sig[..sig.find(['{', ';']).unwrap_or(sig.len())];
            let params = sig.split("->").next().unwrap_or("");
            let generic = has_type_params(sig) || params.contains("impl ");
            let attrs: Vec<&str> = out
                .iter()
                .rev()
                .map(|l| l.trim())
                .take_while(|l| l.starts_with("#[") || l.starts_with("//") || l.starts_with(")]"))
                .collect();
            let marked = attrs.iter().any(|a| {
                a.starts_with("#[inline")
                    || a.starts_with("#[test")
                    || a.starts_with("#[cfg(test")
                    || *a == ATTR
            });
            if generic && attrs.contains(&ATTR) {
                // Generic functions are generated where they are instantiated anyway.
                let at = out.iter().rposition(|l| l.trim() == ATTR).unwrap();
                out.remove(at);
                missing.push((
                    path.to_path_buf(),
                    n + 1,
                    format!("{name} (generic: remove the attribute)"),
                ));
            }
            if !generic && !marked {
                let indent: String = line.chars().take_while(|c| c.is_whitespace()).collect();
                out.push(format!("{indent}{ATTR}"));
                missing.push((path.to_path_buf(), n + 1, name.to_string()));
            }
        }
        let kind = opens(&code, prev_attr_test).or(decl.map(|_| Block::Plain));
        let open = code.matches('{').count() as i64;
        let close = code.matches('}').count() as i64;
        match kind {
            Some(k) if open > close => stack.push((depth, k)),
            Some(k) if open == 0 && !code.trim_end().ends_with(';') => pending = Some(k),
            _ => {
                if let Some(k) = pending.filter(|_| open > close) {
                    stack.push((depth, k));
                    pending = None;
                }
            }
        }
        depth += open - close;
        while stack.last().is_some_and(|&(d, _)| depth <= d) {
            stack.pop();
        }
        out.push(line.to_string());
    }
    (out, missing)
}

#[test]
fn every_non_generic_fn_defers_its_codegen_to_debug_callers() {
    let root = workspace_root();
    let overwrite = std::env::var("DEFERRED_CODEGEN").is_ok_and(|v| v == "overwrite");
    let mut files = Vec::new();
    for c in CRATES {
        rust_files(&root.join(c), &mut files);
    }
    let mut all_missing = Vec::new();
    for path in files {
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let name = path.file_name().unwrap().to_string_lossy();
        if name.contains("tests")
            || LEAVES
                .iter()
                .any(|l| rel == *l || (l.ends_with('/') && rel.starts_with(l)))
        {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let (lines, missing) = scan(Path::new(&rel), &text);
        if overwrite && !missing.is_empty() {
            let mut new = lines.join("\n");
            if text.ends_with('\n') {
                new.push('\n');
            }
            fs::write(&path, new).unwrap();
        }
        all_missing.extend(missing);
    }
    if !overwrite {
        let list: Vec<String> = all_missing
            .iter()
            .map(|(p, l, n)| format!("  {}:{l}: fn {n}", p.display()))
            .collect();
        assert!(
            all_missing.is_empty(),
            "{} non-generic functions lack `{ATTR}`, so a debug build of tensor-core generates \
             their code (and every kernel they reach) even when no program calls them; add the \
             attribute, or run DEFERRED_CODEGEN=overwrite cargo test --release -p tensor-tests \
             --test deferred_codegen:\n{}",
            all_missing.len(),
            list.join("\n")
        );
    }
}

#[test]
fn the_scanner_finds_a_plain_fn_and_skips_generic_and_test_ones() {
    let src = r#"
pub fn plain(x: usize) -> usize {
    let s = "{ not a brace";
    x
}
pub fn generic<T: Copy>(x: T) -> T {
    x
}
pub fn arg_impl(x: impl Into<f64>) -> f64 {
    x.into()
}
pub fn lifetime_only<'a>(x: &'a str) -> &'a str {
    x
}
pub fn generic_over_lines<
    const N: usize,
>() -> usize {
    N
}
impl<T> Wrapper<T> {
    fn inside_generic_impl(&self) {}
}
impl Plain {
    fn inside_plain_impl(&self) {}
}
#[cfg(test)]
mod tests {
    fn helper() {}
}
"#;
    let (_, missing) = scan(Path::new("x.rs"), src);
    let names: Vec<&str> = missing.iter().map(|(_, _, n)| n.as_str()).collect();
    assert_eq!(names, ["plain", "lifetime_only", "inside_plain_impl"]);
}

/// The places a `cfg(unoptimized)` choice may be written outside `#[cfg_attr(unoptimized,
/// inline)]`: tensor-core's `kernels/` (ARCHITECTURE.md, "Tests": the debug build's
/// kernel bodies are chosen in one folder) and the build scripts that set the cfg.
fn unoptimized_allowed(rel: &str) -> bool {
    rel.starts_with("tensor-core/src/kernels/") || rel.ends_with("build.rs")
}

/// Every line of `text` that writes `unoptimized` other than in the deferral attribute
/// (comments and doc lines aside).
fn unoptimized_choices(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim_start();
            !t.starts_with("//") && t.contains("unoptimized") && !t.contains(ATTR)
        })
        .map(|(i, l)| (i + 1, l.trim().to_string()))
        .collect()
}

#[test]
fn debug_build_kernel_choices_live_only_in_kernels() {
    let root = workspace_root();
    let mut files = Vec::new();
    for c in CRATES {
        rust_files(&root.join(c), &mut files);
    }
    let mut outside = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if unoptimized_allowed(&rel) {
            continue;
        }
        for (line, code) in unoptimized_choices(&fs::read_to_string(f).unwrap()) {
            outside.push(format!("{rel}:{line}: {code}"));
        }
    }
    assert!(
        outside.is_empty(),
        "cfg(unoptimized) outside tensor-core/src/kernels/ (name the choice in \
         kernels/unoptimized.rs and use it):\n{}",
        outside.join("\n")
    );
}

#[test]
fn the_choice_finder_skips_the_attribute_and_comments_and_finds_a_cfg() {
    let text = "#[cfg_attr(unoptimized, inline)]\nfn a() {}\n// cfg(unoptimized) in prose\n\
                #[cfg(unoptimized)]\nfn b() {}\n";
    assert_eq!(
        unoptimized_choices(text),
        vec![(4, "#[cfg(unoptimized)]".to_string())]
    );
    assert!(unoptimized_allowed("tensor-core/src/kernels/copy.rs"));
    assert!(!unoptimized_allowed("tensor-core/src/ops/unary/mod.rs"));
}
