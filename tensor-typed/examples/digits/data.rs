//! The digits data set: a gzip-compressed CSV of 8x8 images, read with `flate2` + `csv`.
//!
//! Each row holds 64 integer pixels (row-major, 0..=16) and a label (0..=9). Pixels are
//! scaled by 1/16 into [0, 1]. Samples whose index % 5 == 4 form the test set, the rest
//! the training set (as in `digits_torch.py`).

use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

/// Pixels per image (8 x 8).
pub const PIXELS: usize = 64;
/// Number of classes (digits 0..=9).
pub const CLASSES: usize = 10;
/// Largest pixel value in the file; pixels are divided by it.
pub const MAX_PIXEL: u32 = 16;

/// Images and labels, row-major: sample `i` is `images[i * PIXELS..(i + 1) * PIXELS]`.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// `len() * PIXELS` pixels scaled into [0, 1].
    pub images: Vec<f32>,
    /// One label per sample, 0..=9.
    pub labels: Vec<usize>,
}

impl Samples {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// The 64 pixels of sample `i`.
    pub fn image(&self, i: usize) -> &[f32] {
        &self.images[i * PIXELS..(i + 1) * PIXELS]
    }

    fn push(&mut self, pixels: &[f32], label: usize) {
        self.images.extend_from_slice(pixels);
        self.labels.push(label);
    }
}

/// The data set split into training and test samples.
#[derive(Clone, Debug)]
pub struct Split {
    /// Samples whose index % 5 != 4.
    pub train: Samples,
    /// Samples whose index % 5 == 4.
    pub test: Samples,
}

/// Why the data file could not be read; every message names the file, and the line
/// when one row is at fault.
#[derive(Debug)]
pub enum DataError {
    /// The file could not be opened.
    Open {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// Reading failed: corrupt gzip stream, invalid UTF-8, I/O error.
    Read {
        /// The file.
        path: PathBuf,
        /// 1-based line where reading stopped, when known.
        line: Option<u64>,
        /// The reader's message.
        message: String,
    },
    /// A row is not 64 pixels in 0..=16 followed by a label in 0..=9.
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line of the row.
        line: u64,
        /// What is wrong with it.
        message: String,
    },
    /// The file holds no rows.
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// The file has rows, but too few for a test set (the fifth row is the first test
    /// row): an accuracy measured on no digits would say nothing.
    NoTestRows {
        /// The file.
        path: PathBuf,
        /// Its number of rows.
        rows: usize,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Open { path, source } => {
                write!(f, "cannot open data file {}: {source}", path.display())
            }
            DataError::Read {
                path,
                line: Some(line),
                message,
            } => write!(
                f,
                "cannot read {} at line {line}: {message}",
                path.display()
            ),
            DataError::Read {
                path,
                line: None,
                message,
            } => write!(f, "cannot read {}: {message}", path.display()),
            DataError::Malformed {
                path,
                line,
                message,
            } => write!(
                f,
                "malformed row in {}, line {line}: {message}",
                path.display()
            ),
            DataError::Empty { path } => write!(f, "no rows in {}", path.display()),
            DataError::NoTestRows { path, rows } => write!(
                f,
                "no test rows in {}: its {rows} rows are all training rows (every fifth \
                 row is a test row; at least 5 rows are needed)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for DataError {}

/// Reads the gzip CSV at `path` and splits it: index % 5 == 4 → test, else train.
///
/// # Errors
/// [`DataError::Open`] when the file cannot be opened, [`DataError::Read`] when it is
/// not valid gzip/UTF-8, [`DataError::Malformed`] for a row that is not 65
/// comma-separated integers (64 pixels in 0..=16, a label in 0..=9),
/// [`DataError::Empty`] for a file without rows, [`DataError::NoTestRows`] for one
/// with fewer than 5 (no test row).
pub fn load(path: &Path) -> Result<Split, DataError> {
    let file = File::open(path).map_err(|source| DataError::Open {
        path: path.to_path_buf(),
        source,
    })?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(flate2::read::GzDecoder::new(file));
    let mut split = Split {
        train: Samples::default(),
        test: Samples::default(),
    };
    let mut pixels = [0.0f32; PIXELS];
    let mut record = csv::StringRecord::new();
    let mut index = 0usize;
    loop {
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                return Err(DataError::Read {
                    path: path.to_path_buf(),
                    line: e.position().map(|p| p.line()),
                    message: e.to_string(),
                })
            }
        }
        let line = record.position().map_or(0, |p| p.line());
        let malformed = |message: String| DataError::Malformed {
            path: path.to_path_buf(),
            line,
            message,
        };
        if record.len() != PIXELS + 1 {
            return Err(malformed(format!(
                "expected {} comma-separated fields (64 pixels and a label), found {}",
                PIXELS + 1,
                record.len()
            )));
        }
        for (k, (field, px)) in record.iter().zip(&mut pixels).enumerate() {
            let v = parse_int(field, MAX_PIXEL).ok_or_else(|| {
                malformed(format!(
                    "pixel {k} is '{field}', expected an integer in 0..=16"
                ))
            })?;
            *px = v as f32 / MAX_PIXEL as f32;
        }
        let label_field = &record[PIXELS];
        let label = parse_int(label_field, CLASSES as u32 - 1).ok_or_else(|| {
            malformed(format!(
                "label is '{label_field}', expected an integer in 0..=9"
            ))
        })?;
        let part = if index % 5 == 4 {
            &mut split.test
        } else {
            &mut split.train
        };
        part.push(&pixels, label as usize);
        index += 1;
    }
    if index == 0 {
        return Err(DataError::Empty {
            path: path.to_path_buf(),
        });
    }
    if split.test.labels.is_empty() {
        return Err(DataError::NoTestRows {
            path: path.to_path_buf(),
            rows: index,
        });
    }
    Ok(split)
}

/// An integer in `0..=max`, written plainly or as a float with no fraction (`3.0`, as
/// some exports of this file write it).
fn parse_int(field: &str, max: u32) -> Option<u32> {
    let field = field.trim();
    let v = match field.parse::<u32>() {
        Ok(v) => v,
        Err(_) => {
            let f = field.parse::<f64>().ok()?;
            if f.fract() != 0.0 || !(0.0..=max as f64).contains(&f) {
                return None;
            }
            f as u32
        }
    };
    (v <= max).then_some(v)
}
