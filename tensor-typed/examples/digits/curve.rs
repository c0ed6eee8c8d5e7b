//! The loss curve of rank 0 as CSV: one row per step (`step,epoch,loss`, the whole
//! batch's mean loss), then one per epoch (`epoch,loss,train_accuracy,seconds`) after a
//! blank line.

use crate::train::Report;
use std::io::Write;
use std::path::Path;

/// Writes `report`'s curve to `path`.
///
/// # Errors
/// The file system's.
pub fn write(path: &Path, report: &Report) -> std::io::Result<()> {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(f, "step,epoch,loss")?;
    let per_epoch = report.steps.len() / report.epochs.len().max(1);
    for (i, loss) in report.steps.iter().enumerate() {
        writeln!(f, "{},{},{loss:.6}", i + 1, i / per_epoch.max(1) + 1)?;
    }
    writeln!(f)?;
    writeln!(f, "epoch,loss,train_accuracy,seconds")?;
    for e in &report.epochs {
        writeln!(
            f,
            "{},{:.6},{:.6},{:.6}",
            e.epoch, e.loss, e.train_accuracy, e.seconds
        )?;
    }
    f.flush()
}
