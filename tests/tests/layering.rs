//! The layer rule of ARCHITECTURE.md, checked on the source: every `crate::` path in
//! tensor-core's non-test code names a module of the same layer or a lower one (the
//! layers are read from ARCHITECTURE.md itself, between `<!-- layers:begin -->` and
//! `<!-- layers:end -->`), and no two files import each other, directly or round a
//! longer loop.
//!
//! A path's first segment is resolved to a module: a module's own name, or a name the
//! crate root re-exports (`pub use layout::{Layout, ..}` in lib.rs), or an exported
//! macro. An imported name is resolved to the file that defines it (the file its path
//! names, else the one file under that path's folder that defines it), which gives the
//! file graph whose cycles are reported. Test code is left out: files named `tests.rs`
//! or `*_tests.rs`, and everything from a file's `#[cfg(test)]` module on.
//!
//! A second rule covers every file of tensor-core but lib.rs, tests and doc comments
//! included: a path names an item through the module that defines it
//! (`crate::tensor::Tensor`), never through a name lib.rs re-exports (`crate::Tensor`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, lowest first, between `<!-- {name}:begin -->` and `<!-- {name}:end -->`:
/// each a list of module names.
fn layers(architecture: &str, name: &str) -> Vec<Vec<String>> {
    let (open, close) = (
        format!("<!-- {name}:begin -->"),
        format!("<!-- {name}:end -->"),
    );
    let begin = architecture
        .find(&open)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no {open} marker"));
    let end = architecture[begin..]
        .find(&close)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no {close} marker"))
        + begin;
    architecture[begin..end]
        .lines()
        .filter_map(|l| {
            // `N  name   mod mod ...`: a number, the layer's name, then its modules.
            let mut words = l.split_whitespace();
            words.next()?.parse::<usize>().ok()?;
            words.next()?;
            Some(words.map(str::to_string).collect())
        })
        .collect()
}

/// A source file's non-test code, comments (docs included) left out.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    strip_comments(text)
}

/// `text` without `//` comments (a `//` inside a string literal is kept).
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut in_string = false;
        let mut cut = line.len();
        let bytes = line.as_bytes();
        for i in 0..bytes.len() {
            match bytes[i] {
                b'"' if i == 0 || bytes[i - 1] != b'\\' => in_string = !in_string,
                b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => {
                    cut = i;
                    break;
                }
                _ => {}
            }
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

fn is_test_file(p: &Path) -> bool {
    let name = p.file_name().unwrap().to_string_lossy();
    name == "tests.rs" || name.ends_with("_tests.rs") || name == "test_util.rs"
}

/// Every `.rs` file under `dir` but the test files, relative to `root`.
fn files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    all_files(root, dir, out);
    out.retain(|p| !is_test_file(p));
}

/// Every `.rs` file under `dir`, test files included, relative to `root`.
fn all_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            all_files(root, &p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p.strip_prefix(root).unwrap().to_path_buf());
        }
    }
}

/// The module a file belongs to: its first path component (`nn/conv/mod.rs` → `nn`).
fn module_of(file: &Path) -> String {
    let first = file
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// The `crate::` paths of `code`, each as its segments and the names it imports
/// (`crate::a::{b, c::D}` gives `[a, b]` and `[a, c, D]`).
fn crate_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let preceded = rest[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':');
        rest = &rest[i + "crate::".len()..];
        if preceded {
            continue;
        }
        expand(rest, Vec::new(), &mut out);
    }
    out
}

/// The module path of a file (`nn/conv/mod.rs` and `nn/conv.rs` are `[nn, conv]`).
fn module_path(file: &Path) -> Vec<String> {
    let mut segs: Vec<String> = file
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if segs.last().is_some_and(|l| l == "mod" || l == "lib") {
        segs.pop();
    }
    segs
}

/// The relative paths of `code` in `file`, made absolute: `super::` (any number) and,
/// in a `use`, a first segment naming one of the file's child modules (`use gemm::X`
/// in `matmul/mod.rs`).
fn relative_paths(file: &Path, code: &str, files: &BTreeSet<PathBuf>) -> Vec<Vec<String>> {
    let here = module_path(file);
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("super::") {
        let before = &rest[..i];
        let preceded = before
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
        rest = &rest[i..];
        if preceded {
            rest = &rest["super::".len()..];
            continue;
        }
        let mut base = here.clone();
        while let Some(r) = rest.strip_prefix("super::") {
            base.pop();
            rest = r;
        }
        let mut found = Vec::new();
        expand(rest, base, &mut found);
        out.extend(found);
    }
    // `use child::..` (2018 paths): a first segment that is a child module file.
    let dir: PathBuf = here.iter().collect();
    for stmt in code.split(';') {
        let Some(i) = stmt.find("use ") else { continue };
        if i > 0 && !stmt[..i].ends_with(|c: char| c.is_whitespace() || c == ')' || c == '}') {
            continue;
        }
        let mut found = Vec::new();
        expand(&stmt[i + "use ".len()..], Vec::new(), &mut found);
        for p in found {
            let child = dir.join(&p[0]);
            let is_child = files.contains(&child.with_extension("rs"))
                || files.contains(&child.join("mod.rs"));
            if is_child && !["crate", "super", "self"].contains(&p[0].as_str()) {
                out.push(here.iter().cloned().chain(p).collect());
            }
        }
    }
    out
}

/// Reads one path tree at the start of `s` (segments, then maybe a `{..}` group).
fn expand(s: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut segs = prefix;
    let mut s = s.trim_start();
    loop {
        if let Some(group) = s.strip_prefix('{') {
            let mut depth = 1;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map(|(i, _)| i)
                .unwrap_or(group.len());
            let inner = &group[..end];
            let (mut depth, mut start) = (0, 0);
            for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let item = inner[start..i].trim();
                        if !item.is_empty() {
                            expand(item, segs.clone(), out);
                        }
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let ident: String = s
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if ident.is_empty() {
            break;
        }
        s = &s[ident.len()..];
        if ident != "self" {
            segs.push(ident);
        }
        match s.strip_prefix("::") {
            Some(r) => s = r.trim_start(),
            None => break,
        }
    }
    if !segs.is_empty() {
        out.push(segs);
    }
}

/// The paths of lib.rs's `pub use` items (`pub use layout::{Layout, wrap_dim}` gives
/// `[layout, Layout]` and `[layout, wrap_dim]`; `pub use half` gives `[half]`).
fn root_reexports(lib: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    for stmt in lib.split(';') {
        if let Some(i) = stmt.find("pub use ") {
            expand(&stmt[i + "pub use ".len()..], Vec::new(), &mut paths);
        }
    }
    paths
}

/// The `crate::` paths, in files other than lib.rs, whose first name is one lib.rs
/// re-exports (`crate::Tensor`, `crate::{DType, ..}`, `crate::half::f16`): each as
/// `file: crate::path`. `files` are whole texts, comments and tests included, so an
/// intra-doc link counts; `$crate::` (an exported macro's path) does not.
fn imports_through_root(files: &BTreeMap<PathBuf, String>) -> Vec<String> {
    let lib = files
        .get(Path::new("lib.rs"))
        .expect("the crate has a lib.rs");
    let root: BTreeSet<String> = root_reexports(&strip_comments(lib))
        .into_iter()
        .filter_map(|p| p.last().cloned())
        .collect();
    let mut found = Vec::new();
    for (file, text) in files {
        if file == Path::new("lib.rs") {
            continue;
        }
        for path in crate_paths(text) {
            if root.contains(&path[0]) {
                found.push(format!("{}: crate::{}", file.display(), path.join("::")));
            }
        }
    }
    found
}

/// Names a file defines at any depth (`fn`, `struct`, `enum`, `trait`, `type`,
/// `const`, `static`, `macro_rules!`).
fn definitions(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in code.lines() {
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == '(' || c == '<' || c == ':' || c == '{')
            .filter(|w| !w.is_empty())
            .collect();
        for w in words.windows(2) {
            if matches!(
                w[0],
                "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "macro_rules!"
            ) {
                names.insert(w[1].trim_end_matches(';').to_string());
            }
        }
    }
    names
}

/// What the check found: imports that climb a layer, names it could not place, and
/// the files of each cycle.
#[derive(Debug, Default)]
struct Report {
    upward: Vec<String>,
    unresolved: Vec<String>,
    cycles: Vec<Vec<String>>,
}

/// Checks the crate whose sources are `files` (path → non-test text), with the root
/// re-exports of `lib.rs`, against `layers`.
fn check(layers: &[Vec<String>], files: &BTreeMap<PathBuf, String>) -> Report {
    let mut report = Report::default();
    let layer_of: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, l)| l.iter().map(move |m| (m.as_str(), i)))
        .collect();
    let modules: BTreeSet<String> = files.keys().map(|f| module_of(f)).collect();
    for m in &modules {
        if m != "lib" && !layer_of.contains_key(m.as_str()) {
            report
                .unresolved
                .push(format!("module `{m}` is in no layer of ARCHITECTURE.md"));
        }
    }
    // Root names: `pub use module::..{Name}` in lib.rs, and exported macros.
    let mut root: BTreeMap<String, String> = BTreeMap::new();
    if let Some(lib) = files.get(Path::new("lib.rs")) {
        for p in root_reexports(lib) {
            if p.len() > 1 && modules.contains(&p[0]) {
                root.insert(p.last().unwrap().clone(), p[0].clone());
            } else if p.len() > 1 {
                // Another crate's item re-exported at the root (`tensor_macros::layout`):
                // it names the root, on no floor.
                root.insert(p.last().unwrap().clone(), "lib".to_string());
            }
        }
    }
    let defs: BTreeMap<&PathBuf, BTreeSet<String>> =
        files.iter().map(|(f, c)| (f, definitions(c))).collect();
    for (file, text) in files {
        if text.contains("#[macro_export]") {
            for name in &defs[file] {
                root.entry(name.clone()).or_insert_with(|| module_of(file));
            }
        }
    }
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    let names: BTreeSet<PathBuf> = files.keys().cloned().collect();
    for (file, text) in files {
        let from = module_of(file);
        for path in relative_paths(file, text, &names) {
            if path.is_empty() {
                continue;
            }
            let module = path[0].clone();
            if let Some(target) = defining_file(&path, &module, files, &defs) {
                if &target != file {
                    edges.entry(file.clone()).or_default().insert(target);
                }
            }
        }
        for path in crate_paths(text) {
            let to = if modules.contains(&path[0]) {
                path[0].clone()
            } else if let Some(m) = root.get(&path[0]) {
                m.clone()
            } else {
                report.unresolved.push(format!(
                    "{}: crate::{} is neither a module nor a root re-export",
                    file.display(),
                    path.join("::")
                ));
                continue;
            };
            if let (Some(&a), Some(&b)) = (layer_of.get(from.as_str()), layer_of.get(to.as_str())) {
                if b > a {
                    report.upward.push(format!(
                        "{} (layer {}) imports crate::{} (layer {})",
                        file.display(),
                        layers[a].join(" "),
                        path.join("::"),
                        layers[b].join(" ")
                    ));
                }
            }
            if let Some(target) = defining_file(&path, &to, files, &defs) {
                if &target != file {
                    edges.entry(file.clone()).or_default().insert(target);
                }
            }
        }
    }
    report.cycles = cycles(&edges);
    report
}

/// The file that defines the last name of `path` (in module `module`): the file the
/// path names, else the one file under the named folder that defines it.
fn defining_file(
    path: &[String],
    module: &str,
    files: &BTreeMap<PathBuf, String>,
    defs: &BTreeMap<&PathBuf, BTreeSet<String>>,
) -> Option<PathBuf> {
    let segs: Vec<&str> = if path[0] == module {
        path.iter().map(String::as_str).collect()
    } else {
        // A root re-export: somewhere in the module.
        vec![module, path.last().unwrap()]
    };
    let name = *segs.last().unwrap();
    // The deepest folder or file the leading segments name.
    let mut dir = PathBuf::new();
    let mut file = None;
    for s in &segs[..segs.len() - 1] {
        let as_file = dir.join(format!("{s}.rs"));
        let as_dir = dir.join(s);
        if files.contains_key(&as_file) {
            file = Some(as_file);
            break;
        }
        if files.keys().any(|f| f.starts_with(&as_dir)) {
            dir = as_dir;
            file = Some(dir.join("mod.rs"));
        } else {
            break;
        }
    }
    // The path names a module file itself (`crate::nn::rows`): that file.
    for candidate in [
        dir.join(format!("{name}.rs")),
        dir.join(name).join("mod.rs"),
    ] {
        if files.contains_key(&candidate) {
            return Some(candidate);
        }
    }
    if let Some(f) = &file {
        if defs.get(f).is_some_and(|d| d.contains(name)) {
            return Some(f.clone());
        }
    }
    let mut found = files
        .keys()
        .filter(|f| f.starts_with(&dir) && defs[f].contains(name));
    match (found.next(), found.next()) {
        (Some(f), None) => Some(f.clone()),
        _ => file.filter(|f| files.contains_key(f)),
    }
}

/// The strongly connected components of more than one file (Tarjan).
fn cycles(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on: BTreeSet<&'a PathBuf>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a PathBuf) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on.insert(v);
        if let Some(next) = s.edges.get(v) {
            for w in next {
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let lw = s.low[w];
                    let lv = s.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if s.on.contains(w) {
                    let iw = s.index[w];
                    let lv = s.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                comp.push(w.display().to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sources(src: &Path) -> BTreeMap<PathBuf, String> {
    let mut list = Vec::new();
    files(src, src, &mut list);
    list.into_iter()
        .map(|f| (f.clone(), code(&src.join(f))))
        .collect()
}

/// Cycles the layer rule allows: a tensor holds its autograd metadata and its graph
/// node, whose gradient and saved tensors are tensors (a recursive type, as PyTorch's
/// `TensorImpl` ↔ `AutogradMeta` ↔ `Node`/`SavedVariable`).
const RECURSIVE: &[&[&str]] = &[&["autograd/meta.rs", "autograd/node.rs", "tensor.rs"]];

/// Checks `src` (a crate's source folder under the workspace) against the layers
/// between ARCHITECTURE.md's `marker` comments, allowing the file cycles of `allowed`.
fn assert_follows_layers(src: &str, marker: &str, min_layers: usize, allowed: &[&[&str]]) {
    let arch = fs::read_to_string(workspace().join("ARCHITECTURE.md")).unwrap();
    let layers = layers(&arch, marker);
    assert!(
        layers.len() >= min_layers,
        "too few layers read: {layers:?}"
    );
    let report = check(&layers, &sources(&workspace().join(src)));
    let cycles: Vec<_> = report
        .cycles
        .iter()
        .filter(|c| !allowed.iter().any(|r| r.iter().eq(c.iter())))
        .collect();
    assert!(
        report.upward.is_empty() && report.unresolved.is_empty() && cycles.is_empty(),
        "imports that climb a layer:\n{}\nunresolved:\n{}\nfile cycles:\n{:?}",
        report.upward.join("\n"),
        report.unresolved.join("\n"),
        cycles
    );
}

#[test]
fn tensor_core_imports_follow_the_layers_of_architecture_md() {
    assert_follows_layers("tensor-core/src", "layers", 5, RECURSIVE);
}

/// tensor-typed's floors (`typed-layers` in ARCHITECTURE.md), and no loop between files
/// but one: the type-level numbers, where a dim names its decimal digits and a digit
/// list names the dim it spells (`typelevel/dim.rs` ↔ `typelevel/decimal.rs`).
#[test]
fn tensor_typed_imports_follow_its_layers_in_architecture_md() {
    let allowed: &[&[&str]] = &[&["typelevel/decimal.rs", "typelevel/dim.rs"]];
    assert_follows_layers("tensor-typed/src", "typed-layers", 4, allowed);
}

/// The check itself must be able to fail: an upward import, an unknown module and a
/// two-file cycle, each in a made-up crate.
#[test]
fn an_upward_import_a_stray_module_and_a_cycle_are_each_reported() {
    let layers = vec![vec!["low".to_string()], vec!["high".to_string()]];
    let crate_of = |files: &[(&str, &str)]| -> BTreeMap<PathBuf, String> {
        files
            .iter()
            .map(|(p, c)| (PathBuf::from(p), c.to_string()))
            .collect()
    };
    let ok = crate_of(&[
        ("lib.rs", "mod low; mod high; pub use low::Thing;"),
        ("low.rs", "pub struct Thing;"),
        ("high.rs", "use crate::low::Thing; use crate::Thing as T;"),
    ]);
    let r = check(&layers, &ok);
    assert!(
        r.upward.is_empty() && r.unresolved.is_empty() && r.cycles.is_empty(),
        "{r:?}"
    );

    let up = crate_of(&[
        ("lib.rs", "mod low; mod high;"),
        ("low.rs", "use crate::{high::Top};"),
        ("high.rs", "pub struct Top;"),
    ]);
    let r = check(&layers, &up);
    assert_eq!(r.upward.len(), 1, "{r:?}");
    assert!(r.upward[0].starts_with("low.rs (layer low) imports crate::high::Top"));

    let stray = crate_of(&[("lib.rs", "mod low; mod stray;"), ("stray.rs", "")]);
    assert_eq!(check(&layers, &stray).unresolved.len(), 1);

    let cycle = crate_of(&[
        ("lib.rs", "mod low;"),
        ("low/mod.rs", "mod a; mod b;"),
        ("low/a.rs", "use crate::low::b::B; pub struct A;"),
        ("low/b.rs", "use crate::low::a::A; pub struct B;"),
    ]);
    let r = check(&layers, &cycle);
    assert_eq!(
        r.cycles,
        vec![vec!["low/a.rs".to_string(), "low/b.rs".to_string()]]
    );
}

/// Inside tensor-core a module names an item by the module that defines it
/// (`crate::tensor::Tensor`), never through the root re-exports, which are for users.
#[test]
fn no_tensor_core_module_imports_through_root_reexports() {
    let src = workspace().join("tensor-core/src");
    let mut list = Vec::new();
    all_files(&src, &src, &mut list);
    let texts = list
        .into_iter()
        .map(|f| (f.clone(), fs::read_to_string(src.join(&f)).unwrap()))
        .collect();
    let found = imports_through_root(&texts);
    assert!(
        found.is_empty(),
        "paths through a root re-export (write the defining module's path):\n{}",
        found.join("\n")
    );
}

/// The root re-export check can fail: a `use` group, a path in code, an intra-doc link
/// and a re-exported crate are each reported; the module path and `$crate::` are not.
#[test]
fn a_path_through_a_root_reexport_is_reported_in_code_groups_and_doc_links() {
    let files: BTreeMap<PathBuf, String> = [
        (
            "lib.rs",
            "mod low; pub use low::{Thing, More};\npub use half;",
        ),
        (
            "high.rs",
            "use crate::low::Thing;\nuse crate::{low::More, Thing};\n\
             /// [`More`](crate::More)\nfn f() -> crate::half::f16 { $crate::Thing }",
        ),
    ]
    .iter()
    .map(|(p, c)| (PathBuf::from(p), c.to_string()))
    .collect();
    assert_eq!(
        imports_through_root(&files),
        vec![
            "high.rs: crate::Thing".to_string(),
            "high.rs: crate::More".to_string(),
            "high.rs: crate::half::f16".to_string(),
        ]
    );
}

#[test]
fn comments_are_not_imports_but_strings_with_slashes_stay() {
    let c = strip_comments(
        "use crate::a; // crate::b\n/// [`crate::c`]\nlet u = \"http://x\"; crate::d",
    );
    assert_eq!(
        crate_paths(&c),
        vec![vec!["a".to_string()], vec!["d".to_string()]]
    );
}

#[test]
fn paths_expand_nested_groups_and_skip_self() {
    let mut out = Vec::new();
    expand("{a::{B, c::D}, self, e}", Vec::new(), &mut out);
    assert_eq!(
        out,
        vec![
            vec!["a".to_string(), "B".to_string()],
            vec!["a".to_string(), "c".to_string(), "D".to_string()],
            vec!["e".to_string()],
        ]
    );
    assert_eq!(
        crate_paths("x::crate::no; use crate::kernels::binary::<f32>(1);"),
        vec![vec!["kernels".to_string(), "binary".to_string()]]
    );
}
