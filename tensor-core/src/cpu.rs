//! The CPU's vector capability, chosen once per process: what the run-time dispatch of
//! the hot loops (`kernels::simd`) and of our matmul and conv kernels picks, and what
//! `explain()` and the benchmarks print.
//!
//! As PyTorch's `DispatchStub.cpp` (`compute_cpu_capability`), the choice is the CPU's
//! widest level unless the environment variable `ATEN_CPU_CAPABILITY` names another
//! one: `default`, `avx2` or `avx512`, spelled exactly so (lower case). Any other value,
//! an empty one included, is ignored with PyTorch's warning (`ignoring invalid value
//! for ATEN_CPU_CAPABILITY: ...`). PyTorch on x86 trusts a valid value even above what
//! the CPU has (its kernels then stop on an illegal instruction); here such a value
//! falls back to the CPU's own level, with a warning worded as PyTorch's for its one
//! checked value (`SVE256 capability not available on hardware. Falling back to ...`).
//! So the level is never above the CPU's, and a check of it stands for a check of the
//! CPU's features. A warning is printed to stderr once, when the level is chosen.

use std::sync::OnceLock;

/// A vector instruction set the dispatch can pick, narrowest first (the order is the
/// derived `Ord`: a copy compiled for a level runs when the chosen level is at least it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    /// The x86_64 baseline (SSE2, 128-bit vectors); the only level off x86_64.
    Default,
    /// AVX2 and FMA (256-bit vectors).
    Avx2,
    /// AVX-512 F, BW and VL with AVX2 and FMA (512-bit vectors).
    Avx512,
}

impl Level {
    /// PyTorch's name of the level, as `torch.backends.cpu.get_cpu_capability()`.
    #[cfg_attr(unoptimized, inline)]
    fn name(self) -> &'static str {
        match self {
            Level::Default => "DEFAULT",
            Level::Avx2 => "AVX2",
            Level::Avx512 => "AVX512",
        }
    }
}

/// The environment variable that caps the level, as in PyTorch.
const ENV: &str = "ATEN_CPU_CAPABILITY";

/// The widest vector instruction set the run-time dispatch picks, named as PyTorch's
/// `torch.backends.cpu.get_cpu_capability()`: `"AVX512"` (AVX-512 F, BW and VL with
/// AVX2 and FMA: the AVX-512 copies of the elementwise and reduction loops, and our
/// matmul and conv kernels' AVX-512 register tiles), `"AVX2"` (AVX2 and FMA: the AVX2
/// copies) or `"DEFAULT"` (the x86_64 baseline).
///
/// It is the CPU's widest level, capped by the environment variable
/// `ATEN_CPU_CAPABILITY` as in PyTorch: `avx2` runs the AVX2 copies on an AVX-512 CPU,
/// `default` the baseline; a value above what the CPU has keeps the CPU's level, and an
/// invalid one (PyTorch's values are lower case) is ignored; either prints a warning to
/// stderr. The variable and the CPU's features are read once, at the first call of this
/// function or of a dispatched kernel, and the level holds for the rest of the process.
///
/// The `gemm` crate's packing kernels (most `f32`/`f64` matmuls and convolutions) pick
/// their own instruction set from the CPU's features: the variable does not reach them.
/// A build without optimisation dispatches nothing: its loops run the baseline copy
/// whatever this says.
///
/// ```
/// assert!(["AVX512", "AVX2", "DEFAULT"].contains(&tensor_core::cpu_capability()));
/// ```
#[cfg_attr(unoptimized, inline)]
pub fn cpu_capability() -> &'static str {
    level().name()
}

/// The level the dispatch picks (see [`cpu_capability`]): chosen at the first call, then
/// one load and compare.
#[inline(always)]
pub(crate) fn level() -> Level {
    static LEVEL: OnceLock<Level> = OnceLock::new();
    *LEVEL.get_or_init(chosen)
}

/// Whether the AVX-512 copies run: the level is [`Level::Avx512`]. A level is only ever
/// the CPU's own or lower, so `true` implies the CPU has AVX-512 F, BW and VL, AVX2 and
/// FMA: what a `// SAFETY:` comment at a call of an AVX-512 function relies on.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn avx512() -> bool {
    level() == Level::Avx512
}

/// The level for this process: the CPU's, capped by `ATEN_CPU_CAPABILITY`; prints the
/// warning, if any, to stderr.
#[cold]
#[cfg_attr(unoptimized, inline)]
fn chosen() -> Level {
    let env = std::env::var_os(ENV);
    let (level, warning) = capped(
        cpu_best(),
        env.as_ref().map(|v| v.to_string_lossy()).as_deref(),
    );
    if let Some(w) = warning {
        eprintln!("Warning: {w}");
    }
    level
}

/// The widest level the CPU supports (what the dispatch picks without the variable).
#[cfg_attr(unoptimized, inline)]
fn cpu_best() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        let avx2 = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
        if avx2
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vl")
        {
            return Level::Avx512;
        }
        if avx2 {
            return Level::Avx2;
        }
    }
    Level::Default
}

/// The level for a CPU whose widest is `cpu_best` and a value `env` of
/// `ATEN_CPU_CAPABILITY` (`None`: not set), and the warning to print, if any.
/// `default`, `avx2` and `avx512` (exactly so, as PyTorch compares them) choose that
/// level, or `cpu_best` when it is lower; anything else keeps `cpu_best` with PyTorch's
/// warning. PyTorch's values for other CPUs (`vsx`, `zvector`, `sve256`) are invalid
/// here, as in PyTorch's x86 build.
#[cfg_attr(unoptimized, inline)]
fn capped(cpu_best: Level, env: Option<&str>) -> (Level, Option<String>) {
    let asked = match env {
        None => return (cpu_best, None),
        Some("default") => Level::Default,
        Some("avx2") => Level::Avx2,
        Some("avx512") => Level::Avx512,
        Some(v) => {
            return (
                cpu_best,
                Some(format!("ignoring invalid value for {ENV}: {v}")),
            )
        }
    };
    if asked > cpu_best {
        let warning = format!(
            "{} capability not available on hardware. Falling back to {}",
            asked.name(),
            cpu_best.name()
        );
        return (cpu_best, Some(warning));
    }
    (asked, None)
}

#[cfg(test)]
mod tests {
    use super::{capped, cpu_best, cpu_capability, level, Level, ENV};
    use std::process::Command;

    /// `env` is invalid: a CPU whose widest is `cpu` keeps it, with PyTorch's warning.
    fn assert_invalid(cpu: Level, env: &str) {
        let warning = format!("ignoring invalid value for ATEN_CPU_CAPABILITY: {env}");
        assert_eq!(capped(cpu, Some(env)), (cpu, Some(warning)));
    }

    #[test]
    fn cpu_capability_is_one_of_pytorchs_names() {
        assert!(["AVX512", "AVX2", "DEFAULT"].contains(&cpu_capability()));
    }

    #[test]
    fn unset_keeps_the_cpu_level() {
        for cpu in [Level::Default, Level::Avx2, Level::Avx512] {
            assert_eq!(capped(cpu, None), (cpu, None));
        }
    }

    #[test]
    fn avx2_value_caps_an_avx512_cpu() {
        assert_eq!(capped(Level::Avx512, Some("avx2")), (Level::Avx2, None));
    }

    #[test]
    fn default_value_turns_off_vectors() {
        for cpu in [Level::Default, Level::Avx2, Level::Avx512] {
            assert_eq!(capped(cpu, Some("default")), (Level::Default, None));
        }
    }

    #[test]
    fn a_value_equal_to_the_cpu_level_keeps_it() {
        assert_eq!(capped(Level::Avx512, Some("avx512")), (Level::Avx512, None));
        assert_eq!(capped(Level::Avx2, Some("avx2")), (Level::Avx2, None));
    }

    #[test]
    fn avx512_value_on_an_avx2_cpu_keeps_avx2() {
        let warning = "AVX512 capability not available on hardware. Falling back to AVX2";
        assert_eq!(
            capped(Level::Avx2, Some("avx512")),
            (Level::Avx2, Some(warning.to_string()))
        );
    }

    #[test]
    fn a_vector_value_on_a_baseline_cpu_keeps_the_baseline() {
        for (v, name) in [("avx2", "AVX2"), ("avx512", "AVX512")] {
            let (level, warning) = capped(Level::Default, Some(v));
            assert_eq!(level, Level::Default);
            let fallback = "capability not available on hardware. Falling back to DEFAULT";
            assert_eq!(warning, Some(format!("{name} {fallback}")));
        }
    }

    #[test]
    fn invalid_value_warns_and_keeps_the_cpu_level() {
        assert_eq!(
            capped(Level::Avx512, Some("sse9")).1.as_deref(),
            Some("ignoring invalid value for ATEN_CPU_CAPABILITY: sse9")
        );
        assert_invalid(Level::Avx512, "sse9");
    }

    #[test]
    fn values_are_case_sensitive_as_in_pytorch() {
        for v in ["AVX2", "Default", "AVX512"] {
            assert_invalid(Level::Avx512, v);
        }
    }

    #[test]
    fn other_architectures_values_and_an_empty_value_are_invalid() {
        for v in ["vsx", "zvector", "sve256", "avx", ""] {
            assert_invalid(Level::Avx2, v);
        }
    }

    /// The process's level is the variable's cap of the CPU's: `.ci/run` runs these
    /// tests under `ATEN_CPU_CAPABILITY=avx2` and `=default`, where this checks that the
    /// AVX2 and baseline copies are the ones dispatched.
    #[test]
    fn the_dispatched_level_follows_the_environment() {
        let env = std::env::var(ENV).ok();
        assert_eq!(level(), capped(cpu_best(), env.as_deref()).0);
        match env.as_deref() {
            Some("default") => assert_eq!(cpu_capability(), "DEFAULT"),
            Some("avx2") if cpu_best() >= Level::Avx2 => assert_eq!(cpu_capability(), "AVX2"),
            _ => {}
        }
    }

    /// Asks for the level from four threads, twice each, and checks that every answer
    /// is the same: run alone, in a child process, by
    /// [`an_invalid_value_warns_once_on_stderr`].
    #[test]
    #[ignore = "run in a child process by an_invalid_value_warns_once_on_stderr"]
    fn ask_for_the_level_from_threads() {
        let seen: Vec<[&str; 2]> = std::thread::scope(|s| {
            let threads: Vec<_> = (0..4)
                .map(|_| s.spawn(|| [cpu_capability(), cpu_capability()]))
                .collect();
            threads
                .into_iter()
                .map(|t| t.join().expect("a thread asking for the level"))
                .collect()
        });
        assert!(seen.iter().flatten().all(|&c| c == cpu_capability()));
    }

    #[test]
    fn an_invalid_value_warns_once_on_stderr() {
        let exe = std::env::current_exe().expect("test binary path");
        let out = Command::new(exe)
            .args([
                "cpu::tests::ask_for_the_level_from_threads",
                "--exact",
                "--ignored",
                "--nocapture",
            ])
            .env(ENV, "sse9")
            .output()
            .expect("run the test binary");
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(out.status.success(), "{stderr}");
        // The child ran the one test (not zero tests because of a name filter).
        assert!(stdout.contains("1 passed"), "{stdout}");
        let warning = "ignoring invalid value for ATEN_CPU_CAPABILITY: sse9";
        assert_eq!(stderr.matches(warning).count(), 1, "{stderr}");
    }
}
