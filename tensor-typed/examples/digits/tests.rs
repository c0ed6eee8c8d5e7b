//! The digits example's tests: a short training run on the shipped file, the data
//! errors and the flags (run by `cargo test`: the example is built with `test = true`).

use super::{cli, data, train};
use flate2::{write::GzEncoder, Compression};
use std::io::Write;
use std::path::PathBuf;

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

#[test]
fn two_epochs_on_shipped_file_reach_accuracy_above_0_8() {
    let config = cli::Config {
        epochs: 2,
        ..cli::Config::default()
    };
    let split = data::load(&config.data).unwrap();
    assert_eq!((split.train.len(), split.test.len()), (1438, 359));
    let mut epochs = 0;
    let report = train::train(&split, &config, |_| epochs += 1).unwrap();
    assert_eq!(epochs, 2);
    assert!(
        report.test_accuracy > 0.8,
        "test accuracy {}",
        report.test_accuracy
    );
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
    assert_eq!((c.epochs, c.lr, c.batch, c.seed), (3, 0.05, 16, 7));
    assert!(c.data.ends_with("data/digits.csv.gz"));
}

#[test]
fn bad_flag_value_is_an_error() {
    let e = cli::parse(["--batch", "0"].map(String::from)).unwrap_err();
    assert_eq!(e, "--batch: expected a positive integer, got '0'");
    assert!(cli::parse(["--bogus", "1"].map(String::from)).is_err());
}
