//! Command-line flags of the digits example, parsed by clap (derive): `--help` prints
//! the usage, every value is typed and checked, `--ranks` and `--mpi` conflict, and a
//! rank named by `--fail-rank`/`--drop-rank` must exist.

use crate::models::Kind;
use clap::Parser;
use std::path::{Path, PathBuf};
use tensor_core::global::MAX_THREAD_RANKS;

/// Training settings; the defaults are those of `digits_models_torch.py`.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The model (`--model mlp|cnn|transformer`, default mlp).
    pub model: Kind,
    /// Passes over the training set (`--epochs`, default 30).
    pub epochs: usize,
    /// Learning rate (`--lr`); `None`: the model's own (mlp 0.1, cnn 1e-2,
    /// transformer 3e-3).
    pub lr: Option<f64>,
    /// Samples per batch (`--batch`, default 32); the last batch of an epoch is smaller.
    pub batch: usize,
    /// Seed of the initial weights and of the shuffles (`--seed`, default 0).
    pub seed: u64,
    /// The gzip CSV (`--data`, default: the file shipped in `tensor-typed/data/`).
    pub data: PathBuf,
    /// In-process data-parallel ranks, one thread each (`--ranks`, default 1, at most
    /// [`MAX_THREAD_RANKS`]).
    pub ranks: usize,
    /// Data-parallel over MPI's world (`--mpi`, under `mpirun -np N`; needs the
    /// example built with `--features tensor-core/mpi`).
    pub mpi: bool,
    /// The mlp written with typed global tensors (`--sbp`, `sbp_mlp.rs`): parameters
    /// broadcast, batches split, the gradients' all-reduce by name; on `ranks`
    /// in-process ranks (one is a placement of one rank) or MPI's world.
    pub sbp: bool,
    /// Where rank 0 writes the loss curve as CSV (`--curve`; none by default).
    pub curve: Option<PathBuf>,
    /// Where rank 0 draws the picture of training as PNG (`--plot`; needs the
    /// example built with `--features plot`).
    pub plot: Option<PathBuf>,
    /// A rank that is handed a bad label on its third batch (`--fail-rank`): shows,
    /// and tests, that a rank's error ends every rank with an error naming it.
    pub fail_rank: Option<usize>,
    /// A rank that drops out on its third batch (`--drop-rank`): under MPI the process
    /// aborts (a dropped peer), in-process the rank's thread panics.
    pub drop_rank: Option<usize>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            model: Kind::Mlp,
            epochs: 30,
            lr: None,
            batch: 32,
            seed: 0,
            data: default_data_path(),
            ranks: 1,
            mpi: false,
            sbp: false,
            curve: None,
            plot: None,
            fail_rank: None,
            drop_rank: None,
        }
    }
}

/// `tensor-typed/data/digits.csv.gz`, located from the crate's manifest directory.
pub fn default_data_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/digits.csv.gz")
}

/// The command line as clap reads it (see [`Config`] for each field's meaning).
#[derive(Parser, Debug)]
#[command(
    name = "digits",
    about = "Trains an MLP, a CNN or a transformer on the digits data set with typed tensors"
)]
struct Flags {
    /// The model: mlp, cnn or transformer.
    #[arg(long, value_name = "MODEL", default_value = "mlp", value_parser = model)]
    model: Kind,
    /// Passes over the training set.
    #[arg(long, value_name = "N", default_value_t = 30)]
    epochs: usize,
    /// Learning rate, a finite positive number (default: the model's own).
    #[arg(long, value_name = "F", value_parser = positive_number)]
    lr: Option<f64>,
    /// Samples per batch, a positive integer.
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = positive_integer)]
    batch: usize,
    /// Seed of the initial weights and of the shuffles.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,
    /// The gzip CSV to train on (default: the file shipped in tensor-typed/data/).
    #[arg(long, value_name = "PATH")]
    data: Option<PathBuf>,
    /// In-process data-parallel ranks (threads), 1 to MAX_THREAD_RANKS (4096).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = ranks, conflicts_with = "mpi")]
    ranks: usize,
    /// Data-parallel over MPI's world (under mpirun; built with --features tensor-core/mpi).
    #[arg(long)]
    mpi: bool,
    /// The mlp with typed global tensors: broadcast parameters, split batches (--model mlp only).
    #[arg(long)]
    sbp: bool,
    /// Where rank 0 writes the loss curve as CSV.
    #[arg(long, value_name = "PATH")]
    curve: Option<PathBuf>,
    /// Where rank 0 draws the picture of training as PNG (built with --features plot).
    #[arg(long, value_name = "PATH")]
    plot: Option<PathBuf>,
    /// A rank handed a bad label on its third batch (a test of failure handling).
    #[arg(long, value_name = "R")]
    fail_rank: Option<usize>,
    /// A rank that drops out on its third batch (a test of failure handling).
    #[arg(long, value_name = "R")]
    drop_rank: Option<usize>,
}

/// `--model`'s value.
fn model(s: &str) -> Result<Kind, String> {
    Kind::parse(s).ok_or_else(|| "expected mlp, cnn or transformer".to_string())
}

/// A positive integer (`--batch`).
fn positive_integer(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("expected a positive integer".into()),
    }
}

/// A number of in-process ranks: 1 to [`MAX_THREAD_RANKS`].
fn ranks(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_THREAD_RANKS).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected an integer from 1 to {MAX_THREAD_RANKS} (more ranks: --mpi)"
        )),
    }
}

/// A finite positive number (`--lr`).
fn positive_number(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err("expected a finite positive number".into()),
    }
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Command {
    /// Train with these settings.
    Train(Config),
    /// Print this text (the usage, for `--help`) and stop.
    Help(String),
}

/// An output file's check before training: its directory must exist, so that a run
/// never trains for minutes to fail at the end.
fn check_output(flag: &str, path: &Path) -> Result<(), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if path.as_os_str().is_empty() || path.is_dir() {
        return Err(format!("{flag}: '{}' is not a file name", path.display()));
    }
    if !dir.is_dir() {
        return Err(format!(
            "{flag}: cannot write '{}': no directory '{}'",
            path.display(),
            dir.display()
        ));
    }
    Ok(())
}

/// The settings' rules that involve several flags or the build.
fn check(c: &Config) -> Result<(), String> {
    if c.sbp && c.model != Kind::Mlp {
        return Err(format!(
            "--sbp: typed global tensors train the mlp only, not --model {}",
            c.model.name()
        ));
    }
    if c.sbp && (c.fail_rank.is_some() || c.drop_rank.is_some()) {
        return Err("--sbp: --fail-rank and --drop-rank test the untyped data-parallel run".into());
    }
    if !c.mpi {
        for (flag, rank) in [("--fail-rank", c.fail_rank), ("--drop-rank", c.drop_rank)] {
            if let Some(r) = rank.filter(|&r| r >= c.ranks) {
                return Err(format!(
                    "{flag} {r}: there are {} ranks (0 to {}); give --ranks {} or more",
                    c.ranks,
                    c.ranks - 1,
                    r + 1
                ));
            }
        }
    }
    if let Some(p) = &c.curve {
        check_output("--curve", p)?;
    }
    if let Some(p) = &c.plot {
        if !cfg!(feature = "plot") {
            return Err(
                "--plot: the example was built without its picture: add `--features plot` to cargo"
                    .into(),
            );
        }
        check_output("--plot", p)?;
    }
    Ok(())
}

/// Parses the flags after the program name.
///
/// # Errors
/// clap's message (with the usage) for an unknown flag, a missing value or a value that
/// does not parse (epochs a non-negative integer, batch and ranks positive integers, ranks
/// at most [`MAX_THREAD_RANKS`], lr a finite positive number, model one of mlp, cnn,
/// transformer), or `--ranks` with `--mpi`; a message naming the flag for `--sbp` with
/// a model other than mlp or with `--fail-rank`/`--drop-rank`, for a
/// `--fail-rank`/`--drop-rank` that is not a rank, an output whose directory does not
/// exist, or `--plot` in a build without the `plot` feature.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let flags = match Flags::try_parse_from(std::iter::once("digits".to_string()).chain(args)) {
        Ok(f) => f,
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => {
            return Ok(Command::Help(e.render().to_string()))
        }
        Err(e) => {
            let text = e.render().to_string();
            return Err(text.trim_start_matches("error: ").trim_end().to_string());
        }
    };
    let c = Config {
        model: flags.model,
        epochs: flags.epochs,
        lr: flags.lr,
        batch: flags.batch,
        seed: flags.seed,
        data: flags.data.unwrap_or_else(default_data_path),
        ranks: flags.ranks,
        mpi: flags.mpi,
        sbp: flags.sbp,
        curve: flags.curve,
        plot: flags.plot,
        fail_rank: flags.fail_rank,
        drop_rank: flags.drop_rank,
    };
    check(&c)?;
    Ok(Command::Train(c))
}
