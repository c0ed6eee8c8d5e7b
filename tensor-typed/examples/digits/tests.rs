//! The digits example's tests: short training runs of each model on the shipped file,
//! autograd's MLP gradients against the hand-written backward, the data errors and the
//! flags (run by `cargo test`: the example is built with `test = true`).

use super::models::{mlp::Mlp, Images, Kind, Model};
use super::{cli, data, manual_mlp, rng::Rng, train};
use flate2::{write::GzEncoder, Compression};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use tensor_typed::prelude::*;

/// A directory of this test process's own under the system's temp dir.
fn tmp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tensor-typed-digits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A gzip file under [`tmp_dir`] holding `text`.
fn gz_file(name: &str, text: &str) -> PathBuf {
    let path = tmp_dir().join(name);
    let mut enc = GzEncoder::new(std::fs::File::create(&path).unwrap(), Compression::fast());
    enc.write_all(text.as_bytes()).unwrap();
    enc.finish().unwrap();
    path
}

fn row(pixel: &str, label: &str) -> String {
    let mut fields = vec![pixel; 64];
    fields.push(label);
    fields.join(",")
}

/// Trains as `config` says on the shipped file, counting the hooks' calls; the reports.
fn run(config: &cli::Config) -> Vec<train::Report> {
    let split = data::load(&config.data).unwrap();
    assert_eq!((split.train.len(), split.test.len()), (1438, 359));
    let (batches, seen) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let on_batch = || {
        batches.fetch_add(1, Ordering::Relaxed);
    };
    let on_epoch = |_: &train::Epoch| {
        seen.fetch_add(1, Ordering::Relaxed);
    };
    let hooks = train::Hooks {
        on_batch: &on_batch,
        on_epoch: &on_epoch,
    };
    let reports = train::train(&split, config, &hooks).unwrap();
    let batches_per_epoch = 1438_usize.div_ceil(config.batch);
    assert_eq!(
        (seen.into_inner(), batches.into_inner()),
        (config.epochs, config.epochs * batches_per_epoch)
    );
    reports
}

/// Trains `model` for `epochs` on the shipped file; its test accuracy.
fn short_run(model: Kind, epochs: usize) -> f64 {
    let config = cli::Config {
        model,
        epochs,
        ..cli::Config::default()
    };
    run(&config)[0].test_accuracy
}

#[test]
fn mlp_four_epochs_on_shipped_file_reach_accuracy_above_0_85() {
    let acc = short_run(Kind::Mlp, 4);
    assert!(acc > 0.85, "test accuracy {acc}");
}

#[test]
fn cnn_four_epochs_on_shipped_file_reach_accuracy_above_0_93() {
    let acc = short_run(Kind::Cnn, 4);
    assert!(acc > 0.93, "test accuracy {acc}");
}

#[test]
fn transformer_four_epochs_on_shipped_file_reach_accuracy_above_0_93() {
    let acc = short_run(Kind::Transformer, 4);
    assert!(acc > 0.93, "test accuracy {acc}");
}

fn max_abs_diff<S: tensor_typed::Shape>(a: &Tensor<f32, S>, b: &Tensor<f32, S>) -> f32 {
    let (a, b) = (a.to_vec(), b.to_vec());
    a.iter()
        .zip(&b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
fn mlp_autograd_gradients_equal_hand_written_backward_within_1e_6() {
    let split = data::load(&cli::default_data_path()).unwrap();
    let mlp = Mlp::init(&mut Rng::new(3)).unwrap();
    let idx: Vec<usize> = (100..132).collect();
    let (x, y) = train::gather(&split.train, &idx);
    let x = Images::from_vec(x, &[32, 64]).unwrap();
    let loss = super::models::loss(&mlp.forward(&x), &y).unwrap();
    loss.backward().unwrap();
    let manual = manual_mlp::gradients(&mlp, &x, &y).unwrap();
    let d = [
        max_abs_diff(&mlp.l1.w.grad().unwrap(), &manual.w1),
        max_abs_diff(&mlp.l1.b.grad().unwrap(), &manual.b1),
        max_abs_diff(&mlp.l2.w.grad().unwrap(), &manual.w2),
        max_abs_diff(&mlp.l2.b.grad().unwrap(), &manual.b2),
    ];
    assert!(
        d.iter().all(|&d| d <= 1e-6),
        "max |autograd - manual| per parameter: {d:?}"
    );
    // The check can fail: the gradients are not all zero.
    assert!(max_abs_diff(&manual.w1, &Tensor::zeros()) > 1e-3);
}

#[test]
fn split_puts_every_fifth_sample_in_test() {
    let text: Vec<String> = (0..10).map(|i| row("16", &(i % 10).to_string())).collect();
    let split = data::load(&gz_file("ten.csv.gz", &text.join("\n"))).unwrap();
    assert_eq!(split.test.labels, vec![4, 9]);
    assert_eq!(split.train.labels, vec![0, 1, 2, 3, 5, 6, 7, 8]);
    assert!(split.train.images.iter().all(|&p| p == 1.0));
}

#[test]
fn malformed_row_names_file_and_line() {
    let text = format!("{}\n{}\n{}\n", row("1", "3"), row("1", "3"), row("x", "3"));
    let path = gz_file("bad_pixel.csv.gz", &text);
    let e = data::load(&path).unwrap_err().to_string();
    assert!(e.contains("bad_pixel.csv.gz"), "{e}");
    assert!(e.contains("line 3"), "{e}");
    assert!(e.contains("pixel 0 is 'x'"), "{e}");
}

#[test]
fn short_row_names_field_count() {
    let text = format!("{}\n1,2,3\n", row("0", "0"));
    let e = data::load(&gz_file("short.csv.gz", &text))
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2"), "{e}");
    assert!(e.contains("expected 65 comma-separated fields"), "{e}");
    assert!(e.contains("found 3"), "{e}");
}

#[test]
fn label_out_of_range_is_malformed() {
    let e = data::load(&gz_file("label.csv.gz", &row("0", "10")))
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 1") && e.contains("label is '10'"), "{e}");
}

#[test]
fn missing_file_names_the_file() {
    let path = tmp_dir().join("no_such_digits.csv.gz");
    let e = data::load(&path).unwrap_err().to_string();
    assert!(e.starts_with("cannot open data file"), "{e}");
    assert!(e.contains("no_such_digits.csv.gz"), "{e}");
}

#[test]
fn plain_text_instead_of_gzip_is_a_read_error() {
    let path = tmp_dir().join("plain.csv.gz");
    std::fs::write(&path, row("0", "0")).unwrap();
    let e = data::load(&path).unwrap_err().to_string();
    assert!(
        e.contains("cannot read") && e.contains("plain.csv.gz"),
        "{e}"
    );
}

#[test]
fn flags_override_defaults() {
    let args = [
        "--epochs", "3", "--lr", "0.05", "--batch", "16", "--seed", "7",
    ];
    let cli::Command::Train(c) = cli::parse(args.map(String::from)).unwrap() else {
        panic!("expected a training command")
    };
    assert_eq!((c.epochs, c.lr, c.batch, c.seed), (3, Some(0.05), 16, 7));
    assert_eq!(c.model, Kind::Mlp);
    assert!(c.data.ends_with("data/digits.csv.gz"));
}

#[test]
fn bad_flag_value_is_an_error() {
    let e = cli::parse(["--batch", "0"].map(String::from)).unwrap_err();
    assert!(
        e.contains("--batch") && e.contains("expected a positive integer"),
        "{e}"
    );
    assert!(cli::parse(["--bogus", "1"].map(String::from)).is_err());
}

#[test]
fn model_flag_picks_the_model() {
    for (name, kind) in [
        ("mlp", Kind::Mlp),
        ("cnn", Kind::Cnn),
        ("transformer", Kind::Transformer),
    ] {
        let cli::Command::Train(c) = cli::parse(["--model", name].map(String::from)).unwrap()
        else {
            panic!("expected a training command")
        };
        assert_eq!(c.model, kind);
    }
    let e = cli::parse(["--model", "rnn"].map(String::from)).unwrap_err();
    assert!(
        e.contains("'rnn'") && e.contains("expected mlp, cnn or transformer"),
        "{e}"
    );
}

/// The mlp trained as `config` says on one rank and on `ranks` ranks: the reports.
fn one_and_many(config: &cli::Config, ranks: usize) -> (train::Report, Vec<train::Report>) {
    let one = run(config).remove(0);
    let many = run(&cli::Config {
        ranks,
        ..config.clone()
    });
    assert_eq!(many.len(), ranks);
    (one, many)
}

/// The largest difference between two loss curves of the same length.
fn curve_gap(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

#[test]
fn mlp_on_two_ranks_matches_one_rank_within_0_002() {
    let config = cli::Config {
        epochs: 3,
        ..cli::Config::default()
    };
    let (one, many) = one_and_many(&config, 2);
    // Every replica ends with the same parameters, so with the same test accuracy.
    assert_eq!(many[0].test_accuracy, many[1].test_accuracy);
    let gap = (one.test_accuracy - many[0].test_accuracy).abs();
    assert!(
        gap <= 0.002,
        "1 rank {}, 2 ranks {}",
        one.test_accuracy,
        many[0].test_accuracy
    );
    // The step losses differ only by float summation order (f32 sums of 16 + 16 rows
    // against 32, the loss sums travelling as f32): 1e-4 is about 400 ulps of a loss
    // near 0.3, and a wrong weighting of a shard moves them by 1e-2 and more.
    let gap = curve_gap(&one.steps, &many[0].steps);
    assert!(gap < 1e-4, "largest step-loss difference {gap}");
}

#[test]
fn uneven_and_empty_shards_weigh_each_rank_by_its_rows() {
    // Batch 31 on 3 ranks is 11 + 10 + 10 rows (the last batch of 12: 4 + 4 + 4);
    // batch 2 on 3 ranks leaves rank 2 without rows at every step.
    for (batch, epochs) in [(31, 2), (2, 1)] {
        let config = cli::Config {
            epochs,
            batch,
            ..cli::Config::default()
        };
        let (one, many) = one_and_many(&config, 3);
        let gap = curve_gap(&one.steps, &many[0].steps);
        assert!(
            gap < 1e-4,
            "batch {batch}: largest step-loss difference {gap}"
        );
        assert!((one.test_accuracy - many[2].test_accuracy).abs() <= 0.002);
    }
}

/// The error of one epoch on `ranks` in-process ranks with a fault injected by
/// `fault`; bounded: the others wait for the faulty rank at most the engine's timeout
/// (60 s) and see it stop within one poll (20 ms), so it must take under 30 s.
fn faulty_run(ranks: usize, fault: impl FnOnce(&mut cli::Config)) -> String {
    let mut config = cli::Config {
        epochs: 1,
        ranks,
        ..cli::Config::default()
    };
    fault(&mut config);
    let split = data::load(&config.data).unwrap();
    let hooks = train::Hooks {
        on_batch: &|| {},
        on_epoch: &|_| {},
    };
    let start = std::time::Instant::now();
    let e = train::train(&split, &config, &hooks)
        .err()
        .unwrap()
        .to_string();
    assert!(start.elapsed().as_secs() < 30, "took {:?}", start.elapsed());
    e
}

#[test]
fn a_rank_with_a_bad_label_ends_every_rank_with_an_error_naming_it() {
    let e = faulty_run(2, |c| c.fail_rank = Some(1));
    assert!(e.starts_with("rank 1: "), "{e}");
    assert!(e.contains("Target 10 is out of bounds"), "{e}");
}

#[test]
fn a_rank_that_drops_out_ends_every_rank_with_an_error_naming_it() {
    let e = faulty_run(3, |c| c.drop_rank = Some(2));
    assert!(e.contains("rank 2 panicked: rank 2 dropped out"), "{e}");
}

#[test]
#[ignore = "five full trainings on 1 and 2 ranks (about 2 s in release): cargo test --release -p tensor-typed --example digits -- --ignored"]
fn mlp_seeds_0_to_4_on_two_ranks_match_one_rank_within_0_002() {
    for seed in 0..5 {
        let config = cli::Config {
            seed,
            ..cli::Config::default()
        };
        let (one, many) = one_and_many(&config, 2);
        let (a, b) = (one.test_accuracy, many[0].test_accuracy);
        println!("seed {seed}: 1 rank {a:.4}, 2 ranks {b:.4}");
        assert!(
            (a - b).abs() <= 0.002,
            "seed {seed}: 1 rank {a}, 2 ranks {b}"
        );
    }
}

#[test]
fn sbp_mlp_on_two_ranks_matches_the_one_process_mlp_within_0_002() {
    let config = cli::Config {
        epochs: 3,
        ..cli::Config::default()
    };
    let one = run(&config).remove(0);
    let many = run(&cli::Config {
        sbp: true,
        ranks: 2,
        ..config.clone()
    });
    assert_eq!(many.len(), 2);
    // The parameters are broadcast: every rank ends with the same ones.
    assert_eq!(many[0].test_accuracy, many[1].test_accuracy);
    let (a, b) = (one.test_accuracy, many[0].test_accuracy);
    assert!(
        (a - b).abs() <= 0.002,
        "one process {a}, --sbp on 2 ranks {b}"
    );
    // As the untyped data-parallel run: only the order of float sums differs.
    let gap = curve_gap(&one.steps, &many[0].steps);
    assert!(gap < 1e-4, "largest step-loss difference {gap}");
}

#[test]
fn sbp_takes_the_mlp_only() {
    let e = parse_error("--sbp --model cnn");
    assert!(e.contains("--sbp") && e.contains("mlp only"), "{e}");
    let e = parse_error("--sbp --ranks 2 --fail-rank 1");
    assert!(e.contains("--sbp") && e.contains("--fail-rank"), "{e}");
    let cli::Command::Train(c) =
        cli::parse("--sbp --ranks 2".split(' ').map(String::from)).unwrap()
    else {
        panic!("expected a training command")
    };
    assert!(c.sbp && c.ranks == 2 && c.model == Kind::Mlp);
}

#[test]
fn ranks_mpi_and_curve_flags_parse() {
    let args = ["--mpi", "--curve", "c.csv", "--fail-rank", "1"];
    let cli::Command::Train(c) = cli::parse(args.map(String::from)).unwrap() else {
        panic!("expected a training command")
    };
    assert_eq!((c.ranks, c.mpi, c.fail_rank), (1, true, Some(1)));
    assert_eq!(c.curve, Some(PathBuf::from("c.csv")));
    let cli::Command::Train(c) = cli::parse(["--ranks", "3"].map(String::from)).unwrap() else {
        panic!("expected a training command")
    };
    assert_eq!(c.ranks, 3);
    let e = cli::parse(["--ranks", "0"].map(String::from)).unwrap_err();
    assert!(e.contains("--ranks") && e.contains("from 1 to 4096"), "{e}");
}

/// The error of the command line `args` (split at spaces).
fn parse_error(args: &str) -> String {
    match cli::parse(args.split_whitespace().map(String::from)) {
        Ok(c) => panic!("{args}: expected an error, got {c:?}"),
        Err(e) => e,
    }
}

/// Every flag of the command line, in its usage's order.
const FLAGS: [&str; 13] = [
    "--model",
    "--epochs",
    "--lr",
    "--batch",
    "--seed",
    "--data",
    "--ranks",
    "--mpi",
    "--sbp",
    "--curve",
    "--plot",
    "--fail-rank",
    "--drop-rank",
];

#[test]
fn help_prints_the_usage_of_every_flag() {
    let Ok(cli::Command::Help(text)) = cli::parse(["--help"].map(String::from)) else {
        panic!("--help is a request for the usage")
    };
    for flag in std::iter::once("Usage:").chain(FLAGS) {
        assert!(text.contains(flag), "{flag} missing from:\n{text}");
    }
}

#[test]
fn ranks_and_mpi_together_are_a_conflict() {
    let e = parse_error("--ranks 2 --mpi");
    assert!(e.contains("cannot be used with"), "{e}");
}

#[test]
fn more_ranks_than_a_process_can_start_are_an_error() {
    let e = parse_error("--ranks 100000");
    assert!(e.contains("from 1 to 4096"), "{e}");
    let e = parse_error("--ranks 18446744073709551616");
    assert!(e.contains("--ranks"), "{e}");
}

#[test]
fn a_fail_or_drop_rank_that_is_not_a_rank_is_an_error() {
    let e = parse_error("--ranks 2 --fail-rank 2");
    assert!(e.contains("--fail-rank 2: there are 2 ranks"), "{e}");
    let e = parse_error("--drop-rank 1");
    assert!(e.contains("--drop-rank 1: there are 1 ranks"), "{e}");
    assert!(cli::parse("--ranks 3 --drop-rank 2".split(' ').map(String::from)).is_ok());
}

#[test]
fn an_output_in_a_missing_directory_is_an_error_before_training() {
    let missing = tmp_dir().join("no_such_dir").join("curve.csv");
    let e = parse_error(&format!("--curve {}", missing.display()));
    assert!(
        e.contains("--curve: cannot write") && e.contains("no_such_dir"),
        "{e}"
    );
    let e = parse_error(&format!("--curve {}", tmp_dir().display()));
    assert!(e.contains("is not a file name"), "{e}");
}

#[cfg(not(feature = "plot"))]
#[test]
fn plot_without_the_plot_feature_is_an_error() {
    let e = parse_error("--plot training.png");
    assert!(e.contains("--features plot"), "{e}");
}

#[test]
fn a_learning_rate_that_is_not_finite_and_positive_is_an_error() {
    for lr in ["NaN", "inf", "0", "1e400", "x"] {
        let e = parse_error(&format!("--lr {lr}"));
        assert!(
            e.contains("expected a finite positive number"),
            "--lr {lr}: {e}"
        );
    }
}

#[test]
fn an_output_that_cannot_be_written_fails_the_report() {
    let config = cli::Config {
        epochs: 1,
        ..cli::Config::default()
    };
    let split = data::load(&config.data).unwrap();
    let reports = run(&config);
    // The directory exists at parse time and is gone at the end of training.
    let dir = tmp_dir().join("removed");
    std::fs::create_dir_all(&dir).unwrap();
    let config = cli::Config {
        curve: Some(dir.join("curve.csv")),
        ..config
    };
    std::fs::remove_dir(&dir).unwrap();
    let e = super::report(&split, &config, &reports).unwrap_err();
    assert!(e.contains("cannot write") && e.contains("curve.csv"), "{e}");
}

#[test]
fn a_data_file_without_test_rows_is_an_error() {
    let text: Vec<String> = (0..4).map(|i| row("16", &i.to_string())).collect();
    let e = data::load(&gz_file("four.csv.gz", &text.join("\n")))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("no test rows") && e.contains("four.csv.gz"),
        "{e}"
    );
}

#[test]
fn a_plots_y_range_is_scaled_to_its_data() {
    let r = super::axes::y_range(&[0.31, 0.42, 0.5], 0.0, 1.0);
    assert!(
        r.start < 0.31 && r.start > 0.2 && r.end > 0.5 && r.end < 0.6,
        "{r:?}"
    );
    assert_eq!(super::axes::y_range(&[0.999, 1.0], 0.0, 1.0).end, 1.0);
    assert_eq!(super::axes::y_range(&[], 0.0, 1.0), 0.0..1.0);
    let flat = super::axes::y_range(&[2.0, 2.0, f64::NAN], 0.0, f64::INFINITY);
    assert!(flat.start < 2.0 && flat.end > 2.0, "{flat:?}");
}

/// A small deterministic generator for the argument fuzz (xorshift64*).
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

#[test]
fn random_command_lines_parse_or_fail_without_panicking() {
    let flags: Vec<&str> = FLAGS
        .iter()
        .copied()
        .chain(["--help", "-h", "--", "--bogus"])
        .collect();
    let values = [
        "0",
        "1",
        "2",
        "-1",
        "4096",
        "4097",
        "18446744073709551615",
        "18446744073709551616",
        "NaN",
        "inf",
        "-inf",
        "1e-40",
        "1e300",
        "0.5",
        "",
        "mlp",
        "cnn",
        "transformer",
        "x",
        "/",
        "/no/such/dir/f",
        "a,b",
        "1x2",
        "\u{0}",
        "é",
    ];
    let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
    let start = std::time::Instant::now();
    for _ in 0..3000 {
        let len = rng.below(7);
        let args: Vec<String> = (0..len)
            .map(|_| {
                if rng.below(2) == 0 {
                    flags[rng.below(flags.len())].to_string()
                } else {
                    values[rng.below(values.len())].to_string()
                }
            })
            .collect();
        if let Ok(cli::Command::Train(c)) = cli::parse(args.clone()) {
            assert!(
                c.batch >= 1 && (1..=4096).contains(&c.ranks),
                "{args:?}: {c:?}"
            );
            assert!(c.lr.is_none_or(|lr| lr.is_finite() && lr > 0.0), "{args:?}");
            assert!(c.mpi || c.fail_rank.is_none_or(|r| r < c.ranks), "{args:?}");
            assert!(!(c.mpi && args.iter().any(|a| a == "--ranks")), "{args:?}");
        }
    }
    assert!(start.elapsed().as_secs() < 30, "took {:?}", start.elapsed());
}

#[cfg(feature = "plot")]
#[test]
fn plot_writes_a_png_of_training() {
    let config = cli::Config {
        epochs: 2,
        ..cli::Config::default()
    };
    let split = data::load(&config.data).unwrap();
    let report = run(&config).remove(0);
    let path = tmp_dir().join("training.png");
    super::plot::write(&path, &split, &report).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}
