//! The product says what the code is and does, never how or when it was built: no
//! work-period labels, issue numbers, internal targets, people, origin documents,
//! machine notes or dates of work in the README, the changelog, docs, comments, scripts
//! or test names. Measured figures live in `benches/RESULTS.md`, with their command,
//! commit, CPU, thread count and date.
//!
//! This test lists the tracked files (`git ls-files`; without git, a walk of the
//! workspace that skips `target/` and `.git/`), reads every text file, and fails with
//! `file:line` for each line that matches a rule of [`RULES`]. Each rule is a small
//! hand-written matcher over the lowercased line (the tests crate has no regex
//! dependency), written to catch the forms these words take and to leave their ordinary
//! uses alone: an RNG seed (`--seed N`), a progress bar (`{bar:40}`), a helper function,
//! a time limit.
//!
//! `cargo test -p tensor-tests --test product_words` runs it; so does CI's
//! `cargo test --workspace --release`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One kind of word the product must not use, and how to find it in a line.
struct Rule {
    /// What the rule catches, printed with each hit.
    name: &'static str,
    /// Whether `line` (as written) / `lower` (lowercased) uses the word that way.
    hit: fn(line: &str, lower: &str) -> bool,
}

/// The rules. Each matcher's comment lists the forms it catches.
const RULES: &[Rule] = &[
    // `session 12`, `session-3`, `round 2`: labels of work periods. (`--rounds 3`, a
    // count of benchmark rounds, is plural and followed by its value, so it is not hit.)
    Rule {
        name: "work-period label (session N, round N)",
        hit: |_, l| {
            ["session", "round"]
                .iter()
                .any(|w| words(l, w).any(|(_, after)| sep_then_digit(after)))
        },
    },
    // `issue 30`, `issue #30`, `issues 29, 30`, `issue-30`, `(#30)`, `the issue`,
    // `the issue's`, and identifiers with an `issue` segment (`issue_shapes_...`).
    Rule {
        name: "issue reference (issue N, #N, the issue)",
        hit: |_, l| {
            let numbered = ["issue", "issues"].iter().any(|w| {
                words(l, w).any(|(_, after)| {
                    let hash = after.strip_prefix(' ').unwrap_or(after).strip_prefix('#');
                    sep_then_digit(after)
                        || hash.is_some_and(starts_digit)
                        || after.starts_with("'s")
                })
            });
            numbered
                || words(l, "the issue").next().is_some()
                || l.match_indices("(#")
                    .any(|(i, _)| starts_digit(&l[i + 2..]))
                || l.contains("_issue")
                || l.contains("issue_")
        },
    },
    // `bar` or `bars` as an internal target: after `the`, `its`, `that`, `this`, a
    // possessive or a number (`the 1.2 bar`), or before a comparison or a number
    // (`bar ≤ 0.5x`, `bar 2x`), `not met`, or a colon and a space (`bars: ...`). A
    // progress bar (`{bar:40}`, `let bar = ..`, `a progress bar`) is none of these.
    Rule {
        name: "\"bar\" as an internal target",
        hit: |_, l| {
            ["bar", "bars"].iter().any(|w| {
                words(l, w).any(|(start, after)| {
                    let before = l[..start].trim_end();
                    let prev = before.rsplit(char::is_whitespace).next().unwrap_or("");
                    let rest = after.trim_start();
                    ["the", "its", "that", "this"].contains(&prev)
                        || prev.ends_with("'s")
                        || (!prev.is_empty()
                            && prev.chars().all(|c| c.is_ascii_digit() || c == '.'))
                        || rest.starts_with(['≤', '≥', '<', '>'])
                        || starts_digit(rest)
                        || rest.starts_with("not met")
                        || after.starts_with(": ")
                })
            })
        },
    },
    // `budget` in any form: an internal target. A test's time bound is a "time limit".
    Rule {
        name: "\"budget\" (say what the limit is: a time limit, a maximum)",
        hit: |_, l| words(l, "budget").next().is_some() || words(l, "budgets").next().is_some(),
    },
    // `helper`/`helpers` followed by a verb a person does: `a helper wrote`, `the
    // helpers measured`. Helper functions and traits are fine.
    Rule {
        name: "\"helper\" meaning a person",
        hit: |_, l| {
            const VERBS: &[&str] = &[
                "wrote", "ran", "did", "made", "said", "found", "measured", "built", "merged",
                "added", "fixed", "asked", "left", "reported", "noted", "tried",
            ];
            ["helper", "helpers"].iter().any(|w| {
                words(l, w).any(|(_, after)| {
                    let next = after
                        .trim_start()
                        .split(|c: char| !c.is_alphanumeric())
                        .next();
                    after.starts_with(' ') && next.is_some_and(|v| VERBS.contains(&v))
                })
            })
        },
    },
    // The documents the project started from: `seed documents`, `the seeds'`, `the
    // seed's worked example`, `design documents`, `the design's`, `the brief of ..`.
    // (`seed` as an RNG seed is fine: `the seed's low 32 bits`, `--seed 2`.)
    Rule {
        name: "origin documents (seeds, design documents, the brief)",
        hit: |_, l| {
            const PHRASES: &[&str] = &[
                "seed document",
                "seed documents",
                "seed doc",
                "seed docs",
                "the seeds'",
                "the seed's worked example",
                "the seed's example",
                "the seed's expand",
                "the seed example",
                "as the seed decomposes",
                "design document",
                "design documents",
                "design doc",
                "design docs",
                "the design's",
                "the brief of",
                "the brief's",
            ];
            PHRASES.iter().any(|p| words(l, p).next().is_some())
        },
    },
    // Notes about the machine a figure came from or what else ran on it: `VM`, `this
    // machine`, `quiet machine`, `load average`, `load ~5`, `load < 1`, `at load 2`,
    // `compilers stopped`, `other builds running`, `another engineer`, `the main job`.
    Rule {
        name: "machine or work note (VM, this machine, load, what else ran)",
        hit: |line, l| {
            const PHRASES: &[&str] = &[
                "this machine",
                "this machine's",
                "quiet machine",
                "load average",
                "compilers stopped",
                "compiler stopped",
                "other builds ran",
                "other builds running",
                "another engineer",
                "another engineer's",
                "the main job",
            ];
            words(line, "VM").next().is_some()
                || words(line, "VMs").next().is_some()
                || words(line, "VM's").next().is_some()
                || PHRASES.iter().any(|p| words(l, p).next().is_some())
                || words(l, "load").any(|(_, after)| {
                    let rest = after.strip_prefix(' ').unwrap_or("");
                    after.starts_with('~')
                        || (after.starts_with(' ')
                            && (rest.starts_with(['~', '<']) || starts_digit(rest)))
                })
        },
    },
    // A date of work, `2026-11-24`.
    Rule {
        name: "date of work (YYYY-MM-DD)",
        hit: |_, l| has_date(l),
    },
];

/// Hits that must stay, each with its reason. A rule named here is not applied to the
/// files (path prefixes) listed with it, or only on the lines the predicate accepts.
struct Allowance {
    path: &'static str,
    rule: &'static str,
    line_ok: fn(&str) -> bool,
}

const ALLOWED: &[Allowance] = &[
    // The date of a measurement is data about the figure: benches/RESULTS.md records the
    // date of each table, and only there.
    Allowance {
        path: "benches/RESULTS.md",
        rule: "date of work (YYYY-MM-DD)",
        line_ok: |_| true,
    },
    // A release heading carries its release date (`## [0.1.0] - 2026-12-01`), as Keep a
    // Changelog has it.
    Allowance {
        path: "CHANGELOG.md",
        rule: "date of work (YYYY-MM-DD)",
        line_ok: |line| line.starts_with("## ["),
    },
];

/// Files that are not product text: data, binaries, lock files, and this test, whose
/// rule list and comments quote the words it forbids.
fn skipped(path: &str) -> bool {
    const EXTENSIONS: &[&str] = &[
        ".safetensors",
        ".npy",
        ".npz",
        ".png",
        ".gz",
        ".zip",
        ".bin",
        ".lock",
    ];
    path == "tests/tests/product_words.rs"
        || EXTENSIONS.iter().any(|e| path.ends_with(e))
        // Golden cases and recorded checkpoints: numbers written by scripts.
        || (path.starts_with("tests/data/") && path.ends_with(".json"))
        || path.ends_with("tokenizer.json")
}

/// Larger files are data, not prose.
const MAX_BYTES: u64 = 2 << 20;

#[test]
fn product_text_has_no_history_words() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut hits = Vec::new();
    let mut scanned = 0;
    for path in tracked_files(&root) {
        if skipped(&path) {
            continue;
        }
        let full = root.join(&path);
        if !full
            .metadata()
            .is_ok_and(|m| m.is_file() && m.len() <= MAX_BYTES)
        {
            continue;
        }
        let Ok(bytes) = std::fs::read(&full) else {
            continue;
        };
        if bytes.contains(&0) {
            continue;
        }
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        scanned += 1;
        for (i, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            for rule in RULES.iter().filter(|r| (r.hit)(line, &lower)) {
                let allowed = ALLOWED
                    .iter()
                    .any(|a| path == a.path && rule.name == a.rule && (a.line_ok)(line));
                if allowed {
                    continue;
                }
                let hit = format!("{path}:{}: {}: {}", i + 1, rule.name, line.trim());
                hits.push(hit);
            }
        }
    }
    assert!(
        scanned > 100,
        "only {scanned} text files found under {}",
        root.display()
    );
    assert!(
        hits.is_empty(),
        "{} line(s) say how or when the product was built instead of what it is \
         (rules and allowances: tests/tests/product_words.rs):\n{}",
        hits.len(),
        hits.join("\n")
    );
}

/// Each rule catches the forms it names and leaves the ordinary uses alone.
#[test]
fn rules_catch_their_forms_only() {
    let hits = |line: &str| -> Vec<&str> {
        let lower = line.to_lowercase();
        RULES
            .iter()
            .filter(|r| (r.hit)(line, &lower))
            .map(|r| r.name)
            .collect()
    };
    let bad = [
        "Seeds 0-4 (session 8, quiet machine, load < 1)",
        "measured in round 2",
        "the model-op cases of issue 11",
        "see issue #30",
        "(issues 29, 30)",
        "fixed in (#42)",
        "fn issue_shapes_have_cascade_accuracy() {",
        "the issue's own shapes",
        "no case over the 1.2 bar",
        "median 0.387x (bar ≤ 0.5x)",
        "so without it that bar fails",
        "bars: build <= 1.5x",
        "The issue's budget: 1.5x",
        "a helper measured it",
        "The seed's worked example on 2 ranks",
        "The seeds' runtime",
        "for the worked examples of the design documents",
        "what the brief of the port promised",
        "this VM runs both sides slower",
        "on this machine",
        "measured at load ~5 from builds",
        "at load 2.7",
        "compilers stopped",
        "## The main job",
        "2026-11-24, quiet",
    ];
    for line in bad {
        assert!(!hits(line).is_empty(), "not caught: {line}");
    }
    let good = [
        "--seed N: seed of the initial weights",
        "only the seed's low 32 bits count, as in PyTorch",
        "ProgressStyle::with_template(\"{bar:40} {pos}/{len} batches\")",
        "let bar = ProgressBar::new(batches as u64);",
        "with a progress bar on a terminal",
        "python3 benches/interleave.py --rounds 8 --rt",
        "fn round6(v: f64) -> f64 {",
        "Test helpers of the type-level rules",
        "a helper trait implemented for D, K and Dyn",
        "unsafe fn load<I: Element>(p: *const u8) -> Wide {",
        "pub fn load<T: Element, S: Shape>(&self, name: &str)",
        "TENSOR_FUZZ_SECS: time limit in seconds",
        "peak RSS is its VmHWM",
        "version 2.15.0+cu132",
    ];
    for line in good {
        assert!(
            hits(line).is_empty(),
            "wrongly caught by {:?}: {line}",
            hits(line)
        );
    }
}

/// The workspace's tracked files, relative to `root` with `/` separators: `git ls-files`,
/// or, where git or the checkout is missing, every file under `root` but `target/` and
/// `.git/`.
fn tracked_files(root: &Path) -> Vec<String> {
    let git = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .output();
    if let Ok(out) = git {
        if out.status.success() && !out.stdout.is_empty() {
            return out
                .stdout
                .split(|&b| b == 0)
                .filter(|p| !p.is_empty())
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .collect();
        }
    }
    let mut files = Vec::new();
    walk(root, root, &mut files);
    files
}

fn walk(root: &Path, dir: &Path, files: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path: PathBuf = entry.path();
        let name = entry.file_name();
        if name == ".git" || name == "target" {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk(root, &path, files);
        } else if kind.is_file() {
            if let Ok(rel) = path.strip_prefix(root) {
                let rel: Vec<_> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect();
                files.push(rel.join("/"));
            }
        }
    }
}

/// Every occurrence of `w` in `s` as whole words (no letter, digit or `_` just before or
/// just after), as the byte offset where it starts and the text after it.
fn words<'a>(s: &'a str, w: &'a str) -> impl Iterator<Item = (usize, &'a str)> + 'a {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    s.match_indices(w).filter_map(move |(i, _)| {
        let before_ok = s[..i].chars().next_back().is_none_or(|c| !ident(c));
        let after = &s[i + w.len()..];
        let after_ok = !w.ends_with(ident) || after.chars().next().is_none_or(|c| !ident(c));
        (before_ok && after_ok).then_some((i, after))
    })
}

fn starts_digit(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// `" 12"` or `"-12"`: one separator, then a digit.
fn sep_then_digit(s: &str) -> bool {
    (s.starts_with(' ') || s.starts_with('-')) && starts_digit(&s[1..])
}

/// Whether `s` holds a date `20YY-MM-DD` (not inside a longer run of digits).
fn has_date(s: &str) -> bool {
    let b = s.as_bytes();
    let d = |i: usize| b.get(i).is_some_and(|c| c.is_ascii_digit());
    (0..b.len()).any(|i| {
        b[i..].starts_with(b"20")
            && (i == 0 || !d(i - 1))
            && d(i + 2)
            && d(i + 3)
            && b.get(i + 4) == Some(&b'-')
            && matches!(b.get(i + 5), Some(b'0' | b'1'))
            && d(i + 6)
            && b.get(i + 7) == Some(&b'-')
            && matches!(b.get(i + 8), Some(b'0'..=b'3'))
            && d(i + 9)
            && !d(i + 10)
    })
}
