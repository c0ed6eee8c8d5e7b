//! The training loop: shuffled mini-batches, SGD, per-epoch loss and accuracy, then the
//! test accuracy. The model itself (forward, hand-written backward, update) is in
//! `model.rs`.

use crate::cli::Config;
use crate::data::{Samples, Split, PIXELS};
use crate::model::{Images, Mlp};
use crate::rng::Rng;
use std::time::Instant;
use tensor_core::Result;

/// One epoch's statistics.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// 1-based epoch number.
    pub epoch: usize,
    /// Mean cross-entropy over the epoch's batches (each weighted by its size).
    pub loss: f64,
    /// Fraction of training samples classified right during the epoch (before each
    /// batch's update, as a running accuracy).
    pub train_accuracy: f64,
}

/// What a training run produced.
pub struct Report {
    /// Fraction of test samples classified right after training.
    pub test_accuracy: f64,
    /// Wall time of the training loop (epochs only, not loading or testing), in seconds.
    pub train_seconds: f64,
    /// Test-set indices of misclassified samples with the predicted class.
    pub mistakes: Vec<(usize, usize)>,
}

/// The rows `idx` of `samples` as one `[idx.len() * 64]` buffer, and their labels.
pub fn gather(samples: &Samples, idx: &[usize]) -> (Vec<f32>, Vec<usize>) {
    let mut x = Vec::with_capacity(idx.len() * PIXELS);
    for &i in idx {
        x.extend_from_slice(samples.image(i));
    }
    (x, idx.iter().map(|&i| samples.labels[i]).collect())
}

/// Trains an [`Mlp`] on `split.train` as `config` says, calling `on_epoch` after every
/// epoch, then measures it on `split.test`.
///
/// # Errors
/// A tensor-core error, which would be a bug in the model (the shapes are fixed).
pub fn train(split: &Split, config: &Config, mut on_epoch: impl FnMut(Epoch)) -> Result<Report> {
    let mut rng = Rng::new(config.seed);
    let mut model = Mlp::init(&mut rng)?;
    let n = split.train.len();
    let start = Instant::now();
    for epoch in 1..=config.epochs {
        let perm = rng.permutation(n);
        let (mut loss_sum, mut correct) = (0.0f64, 0usize);
        for idx in perm.chunks(config.batch) {
            let (x, y) = gather(&split.train, idx);
            let x = Images::from_vec(x, &[idx.len(), PIXELS])?;
            let step = model.step(&x, &y, config.lr)?;
            loss_sum += step.loss * idx.len() as f64;
            correct += step.correct;
        }
        on_epoch(Epoch {
            epoch,
            loss: loss_sum / n.max(1) as f64,
            train_accuracy: correct as f64 / n.max(1) as f64,
        });
    }
    let train_seconds = start.elapsed().as_secs_f64();
    let test_images = Images::from_vec(split.test.images.clone(), &[split.test.len(), PIXELS])?;
    let predicted = model.predict(&test_images);
    let mistakes: Vec<(usize, usize)> = predicted
        .iter()
        .zip(&split.test.labels)
        .enumerate()
        .filter(|(_, (p, y))| p != y)
        .map(|(i, (&p, _))| (i, p))
        .collect();
    let test_accuracy = 1.0 - mistakes.len() as f64 / split.test.len().max(1) as f64;
    Ok(Report {
        test_accuracy,
        train_seconds,
        mistakes,
    })
}
