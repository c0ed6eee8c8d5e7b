//! Command-line flags of the digits example.

use crate::models::Kind;
use std::path::PathBuf;

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
    /// In-process data-parallel ranks, one thread each (`--ranks`, default 1).
    pub ranks: usize,
    /// Data-parallel over MPI's world (`--mpi`, under `mpirun -np N`; needs the
    /// example built with `--features tensor-core/mpi`).
    pub mpi: bool,
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

/// Usage text printed by `--help` and after a flag error.
pub const USAGE: &str = "usage: digits [--model mlp|cnn|transformer] [--epochs N] [--lr F] [--batch N] [--seed N] [--data PATH] [--ranks N | --mpi] [--curve PATH] [--plot PATH] [--fail-rank R] [--drop-rank R]";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Command {
    /// Train with these settings.
    Train(Config),
    /// Print the usage and stop.
    Help,
}

/// Parses the flags after the program name.
///
/// # Errors
/// A message naming the flag for an unknown flag, a missing value or a value that does
/// not parse (epochs, batch and ranks must be positive integers, lr a positive number, model
/// one of mlp, cnn, transformer).
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut c = Config::default();
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Ok(Command::Help);
        }
        if flag == "--mpi" {
            c.mpi = true;
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |what: &str| format!("{flag}: expected {what}, got '{value}'");
        let positive = || {
            value
                .parse()
                .ok()
                .filter(|&n: &usize| n > 0)
                .ok_or_else(|| bad("a positive integer"))
        };
        match flag.as_str() {
            "--epochs" => c.epochs = value.parse().map_err(|_| bad("an integer"))?,
            "--batch" => c.batch = positive()?,
            "--lr" => {
                c.lr = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&lr: &f64| lr.is_finite() && lr > 0.0)
                        .ok_or_else(|| bad("a positive number"))?,
                )
            }
            "--seed" => c.seed = value.parse().map_err(|_| bad("an unsigned integer"))?,
            "--model" => {
                c.model = Kind::parse(&value).ok_or_else(|| bad("mlp, cnn or transformer"))?
            }
            "--data" => c.data = PathBuf::from(value),
            "--ranks" => c.ranks = positive()?,
            "--curve" => c.curve = Some(PathBuf::from(value)),
            "--plot" => c.plot = Some(PathBuf::from(value)),
            "--fail-rank" => {
                c.fail_rank = Some(value.parse().map_err(|_| bad("an unsigned integer"))?)
            }
            "--drop-rank" => {
                c.drop_rank = Some(value.parse().map_err(|_| bad("an unsigned integer"))?)
            }
            _ => return Err(format!("unknown flag '{flag}'")),
        }
    }
    Ok(Command::Train(c))
}
