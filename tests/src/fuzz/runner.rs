//! The driver: runs cases, counts calls, catches panics, watches time, and (isolated
//! mode) runs the cases in child processes so a crash or hang is one finding, not the
//! end of the run.

use super::gen::Gen;
use super::ops;
use std::io::{BufRead, BufReader, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Mutex, Once};
use std::time::{Duration, Instant};

/// Case that finds no progress for this long is reported as a hang.
const HANG: Duration = Duration::from_secs(30);

/// Most findings printed per kind.
const SHOW: usize = 40;

/// One case of a surface: draws its calls from the generator and makes them through
/// the context.
pub type CaseFn = fn(&mut Gen, &mut Ctx);

/// The figures of a run.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// The surface fuzzed (`api`, `autograd`, `optim`, `global`, `typed`).
    pub surface: &'static str,
    /// Seed of the run.
    pub seed: u64,
    /// Cases run.
    pub cases: u64,
    /// Public calls made.
    pub calls: u64,
    /// Calls that returned `Ok`.
    pub ok: u64,
    /// Calls that returned `Err`.
    pub err: u64,
    /// Calls that panicked: `(case, call, panic message)`.
    pub panics: Vec<(u64, String, String)>,
    /// Failed checks of an `Ok` result: `(case, call, what is wrong)`.
    pub wrong: Vec<(u64, String, String)>,
    /// Cases that killed their process or hung (isolated mode): `(case, last call, how)`.
    pub crashes: Vec<(u64, String, String)>,
    /// Seconds the run took.
    pub secs: f64,
}

impl Report {
    fn print(&self) {
        eprintln!(
            "fuzz {}: seed {} | {} cases, {} calls in {:.1} s: {} ok, {} err, {} panics, {} wrong, {} crashes",
            self.surface,
            self.seed,
            self.cases,
            self.calls,
            self.secs,
            self.ok,
            self.err,
            self.panics.len(),
            self.wrong.len(),
            self.crashes.len()
        );
        for (kind, list) in [
            ("CRASH", &self.crashes),
            ("PANIC", &self.panics),
            ("WRONG", &self.wrong),
        ] {
            let mut seen = std::collections::BTreeSet::new();
            for (case, call, what) in list.iter() {
                // One line per distinct (operation, message) pair.
                let op = call.split('(').next().unwrap_or("");
                let key = format!("{op}|{}", shape_of(what.lines().next().unwrap_or("")));
                if seen.insert(key) && seen.len() <= SHOW {
                    eprintln!(
                        "  {kind} case {case} (TENSOR_FUZZ_SEED={} TENSOR_FUZZ_CASE={case}): {call}\n      -> {what}",
                        self.seed
                    );
                }
            }
            if seen.len() > SHOW {
                eprintln!("  ... {} more distinct {kind} findings", seen.len() - SHOW);
            }
        }
    }

    /// `true` when nothing went wrong.
    pub fn clean(&self) -> bool {
        self.panics.is_empty() && self.wrong.is_empty() && self.crashes.is_empty()
    }
}

/// `msg` with every number replaced by `N` and lists collapsed, so findings that differ
/// only in values count once.
fn shape_of(msg: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for ch in msg.chars() {
        match ch {
            '[' => {
                if depth == 0 {
                    out.push_str("[..]");
                }
                depth += 1;
            }
            ']' => depth -= 1,
            _ if depth > 0 => {}
            '0'..='9' | '-' | '.' => {
                if !out.ends_with('N') {
                    out.push('N');
                }
            }
            _ => out.push(ch),
        }
    }
    out
}

/// What a case sees: the counters and the description of the call under way.
pub struct Ctx {
    case: u64,
    verbose: bool,
    child: bool,
    report: Report,
}

/// The call under way, for the watchdog and the panic hook.
static CURRENT: Mutex<String> = Mutex::new(String::new());
/// Message of the last panic, set by the hook.
static PANIC_MSG: Mutex<String> = Mutex::new(String::new());
/// Counts calls, for the watchdog.
static PROGRESS: AtomicU64 = AtomicU64::new(0);
/// `TENSOR_FUZZ_NO_HUGE=1`: never ask for an unallocatable result (to look past the
/// allocation aborts of an unfixed runtime).
pub static NO_HUGE: AtomicBool = AtomicBool::new(false);
/// Set when the harness wants panics captured silently.
static QUIET: AtomicBool = AtomicBool::new(false);

fn lock(m: &Mutex<String>) -> std::sync::MutexGuard<'_, String> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.load(Ordering::Relaxed) {
                let msg = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                let at = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                *lock(&PANIC_MSG) = format!("{msg}{at}");
            } else {
                previous(info);
            }
        }));
    });
}

impl Ctx {
    /// Makes one public call, described by `desc`: counts it, catches a panic, and turns
    /// an `Err` into its message (formatting it inside the catch, too).
    pub fn call<T>(
        &mut self,
        desc: impl FnOnce() -> String,
        f: impl FnOnce() -> tensor_core::Result<T>,
    ) -> Option<T> {
        let desc = desc();
        if self.verbose {
            eprintln!("call: {desc}");
        }
        if self.child {
            // The parent keeps the last call a crashing case made.
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "@call {desc}");
            let _ = out.flush();
        }
        *lock(&CURRENT) = desc;
        PROGRESS.fetch_add(1, Ordering::Relaxed);
        self.report.calls += 1;
        match catch_unwind(AssertUnwindSafe(|| f().map_err(|e| e.to_string()))) {
            Ok(Ok(v)) => {
                self.report.ok += 1;
                Some(v)
            }
            Ok(Err(msg)) => {
                self.report.err += 1;
                if self.verbose {
                    eprintln!("  -> Err({msg})");
                }
                None
            }
            Err(_) => {
                let msg = std::mem::take(&mut *lock(&PANIC_MSG));
                let desc = lock(&CURRENT).clone();
                if self.verbose {
                    eprintln!("  -> PANIC {msg}");
                }
                if self.child {
                    child_finding("panic", self.case, &desc, &msg);
                }
                self.report.panics.push((self.case, desc, msg));
                None
            }
        }
    }

    /// Records a failed check of the last call's result unless `ok`.
    pub fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            let what = what();
            if self.verbose {
                eprintln!("  -> WRONG {what}");
            }
            let desc = lock(&CURRENT).clone();
            if self.child {
                child_finding("wrong", self.case, &desc, &what);
            }
            self.report.wrong.push((self.case, desc, what));
        }
    }
}

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

/// Runs cases `start..` of `seed` in this process until `end` or the deadline.
fn run_here(
    run_case: CaseFn,
    seed: u64,
    start: u64,
    end: u64,
    deadline: Instant,
    child: bool,
) -> Report {
    install_hook();
    QUIET.store(true, Ordering::Relaxed);
    let mut ctx = Ctx {
        case: start,
        verbose: false,
        child,
        report: Report {
            seed,
            ..Report::default()
        },
    };
    let t0 = Instant::now();
    let mut case = start;
    while case < end && Instant::now() < deadline {
        ctx.case = case;
        if child {
            let mut out = std::io::stdout().lock();
            let r = &ctx.report;
            let _ = writeln!(
                out,
                "@case {case} {} {} {} {}",
                r.cases, r.calls, r.ok, r.err
            );
            let _ = out.flush();
        }
        let mut g = Gen::new(seed, case);
        // A panic in the harness's own code is a finding too, never the end of the run.
        if catch_unwind(AssertUnwindSafe(|| run_case(&mut g, &mut ctx))).is_err() {
            let msg = std::mem::take(&mut *lock(&PANIC_MSG));
            let desc = lock(&CURRENT).clone();
            ctx.report
                .panics
                .push((case, desc, format!("(outside a call) {msg}")));
        }
        case += 1;
        ctx.report.cases += 1;
    }
    QUIET.store(false, Ordering::Relaxed);
    ctx.report.secs = t0.elapsed().as_secs_f64();
    ctx.report
}

/// Kills the process when no call makes progress for [`HANG`], naming the call.
fn start_watchdog() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::thread::spawn(|| {
            let mut last = PROGRESS.load(Ordering::Relaxed);
            loop {
                std::thread::sleep(HANG);
                let now = PROGRESS.load(Ordering::Relaxed);
                if now == last {
                    eprintln!(
                        "fuzz: HANG: no progress for {} s in call {}",
                        HANG.as_secs(),
                        lock(&CURRENT)
                    );
                    std::process::exit(3);
                }
                last = now;
            }
        });
    });
}

/// Runs one case, printing every call and its outcome.
fn run_one(run_case: CaseFn, seed: u64, case: u64) -> Report {
    install_hook();
    QUIET.store(true, Ordering::Relaxed);
    let mut ctx = Ctx {
        case,
        verbose: true,
        child: false,
        report: Report {
            seed,
            ..Report::default()
        },
    };
    let mut g = Gen::new(seed, case);
    eprintln!(
        "fuzz: case {case} of seed {seed} (hostility {})",
        g.hostility
    );
    let _ = catch_unwind(AssertUnwindSafe(|| run_case(&mut g, &mut ctx)));
    QUIET.store(false, Ordering::Relaxed);
    ctx.report.cases = 1;
    ctx.report
}

/// Isolated mode: the test binary `exe` re-runs `test_name` as a child with
/// `TENSOR_FUZZ_CHILD=start`; the child prints `@case`/`@call` lines and its report.
/// A child that dies or stalls is one crash; the next child starts after that case.
fn run_isolated(seed: u64, end: u64, deadline: Instant, test_name: &str) -> Report {
    let mut total = Report {
        seed,
        ..Report::default()
    };
    let t0 = Instant::now();
    let exe = std::env::current_exe().expect("test binary path");
    let mut start = 0u64;
    while start < end && Instant::now() < deadline {
        let left = deadline.saturating_duration_since(Instant::now());
        let mut child = Command::new(&exe)
            .args([test_name, "--exact", "--nocapture", "--test-threads=1"])
            .env("TENSOR_FUZZ_CHILD", start.to_string())
            .env("TENSOR_FUZZ_CHILD_END", end.to_string())
            .env("TENSOR_FUZZ_SEED", seed.to_string())
            .env("TENSOR_FUZZ_SECS", left.as_secs_f64().to_string())
            .env_remove("TENSOR_FUZZ_ISOLATE")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the fuzz child");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(|l| l.ok()) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let (mut case, mut call, mut finished) = (start, String::new(), false);
        let mut counts = (0u64, 0u64, 0u64, 0u64);
        let mut hung = false;
        loop {
            match rx.recv_timeout(HANG) {
                Ok(line) => {
                    if let Some(c) = line.strip_prefix("@case ") {
                        // `@case i cases calls ok err`: counts so far of this child.
                        let v: Vec<u64> = c.split(' ').filter_map(|x| x.parse().ok()).collect();
                        if let [i, n, calls, ok, err] = v[..] {
                            case = i;
                            counts = (n, calls, ok, err);
                        }
                        call.clear();
                    } else if let Some(c) = line.strip_prefix("@call ") {
                        call = c.to_string();
                    } else if let Some(r) = line.strip_prefix("@report ") {
                        finished = true;
                        merge(&mut total, r);
                    } else if let Some(f) = line.strip_prefix("@finding ") {
                        merge_finding(&mut total, f);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    hung = true;
                    let _ = child.kill();
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        let status = child.wait().expect("wait for the fuzz child");
        if finished && !hung {
            break;
        }
        let how = if hung {
            format!("hang (no output for {} s)", HANG.as_secs())
        } else {
            format!("process died: {status}")
        };
        total.crashes.push((case, call, how));
        total.cases += counts.0 + 1;
        total.calls += counts.1 + 1;
        total.ok += counts.2;
        total.err += counts.3;
        start = case + 1;
    }
    total.secs = t0.elapsed().as_secs_f64();
    total
}

/// Child side of isolated mode: one finding, printed at once (the child may die next).
fn child_finding(kind: &str, case: u64, call: &str, what: &str) {
    let mut out = std::io::stdout().lock();
    let (call, what) = (
        call.replace(['\n', '\t'], " "),
        what.replace(['\n', '\t'], " "),
    );
    let _ = writeln!(out, "@finding {kind}\t{case}\t{call}\t{what}");
    let _ = out.flush();
}

/// Child side of isolated mode: the final counts, in a form [`merge`] reads.
fn print_child_report(r: &Report) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "@report {} {} {} {}", r.cases, r.calls, r.ok, r.err);
    let _ = out.flush();
}

fn merge(total: &mut Report, line: &str) {
    let v: Vec<u64> = line.split(' ').filter_map(|x| x.parse().ok()).collect();
    if let [cases, calls, ok, err] = v[..] {
        total.cases += cases;
        total.calls += calls;
        total.ok += ok;
        total.err += err;
    }
}

fn merge_finding(total: &mut Report, line: &str) {
    let parts: Vec<&str> = line.splitn(4, '\t').collect();
    if let [kind, case, call, what] = parts[..] {
        let entry = (
            case.parse().unwrap_or(0),
            call.to_string(),
            what.to_string(),
        );
        if kind == "panic" {
            total.panics.push(entry);
        } else {
            total.wrong.push(entry);
        }
    }
}

/// Runs the fuzz test as the environment says (see the module docs), with `secs` and
/// `seed` as defaults, and returns its report after printing it. `test_name` is the
/// full name of the calling `#[test]`, which isolated mode re-runs as a child.
pub fn run_from_env(secs: f64, seed: u64, max_cases: u64, test_name: &str) -> Report {
    run_surface_from_env("api", ops::run_case, secs, seed, max_cases, test_name)
}

/// [`run_from_env`] for one surface: its cases are `run_case`'s, its report is named
/// `surface`.
pub fn run_surface_from_env(
    surface: &'static str,
    run_case: CaseFn,
    secs: f64,
    seed: u64,
    max_cases: u64,
    test_name: &str,
) -> Report {
    // The counters, the hook's state and the watchdog are the process's: the tests of
    // one binary run their surfaces one at a time.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let secs = std::env::var("TENSOR_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(secs);
    let seed = env_u64("TENSOR_FUZZ_SEED").unwrap_or(seed);
    let end = env_u64("TENSOR_FUZZ_CASES").unwrap_or(max_cases);
    let deadline = Instant::now() + Duration::from_secs_f64(secs.max(0.0));
    if std::env::var("TENSOR_FUZZ_NO_HUGE").is_ok_and(|v| v != "0") {
        NO_HUGE.store(true, Ordering::Relaxed);
    }
    if let Some(start) = env_u64("TENSOR_FUZZ_CHILD") {
        let end = env_u64("TENSOR_FUZZ_CHILD_END").unwrap_or(end);
        let r = run_here(run_case, seed, start, end, deadline, true);
        print_child_report(&r);
        return Report::default();
    }
    let mut report = if let Some(case) = env_u64("TENSOR_FUZZ_CASE") {
        run_one(run_case, seed, case)
    } else if std::env::var("TENSOR_FUZZ_ISOLATE").is_ok_and(|v| v != "0") {
        run_isolated(seed, end, deadline, test_name)
    } else {
        start_watchdog();
        run_here(run_case, seed, 0, end, deadline, false)
    };
    report.surface = surface;
    report.print();
    report
}
