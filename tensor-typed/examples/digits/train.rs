//! The training loop: shuffled mini-batches, forward, autograd backward, optimiser step,
//! per-epoch loss and accuracy, then the test accuracy. The models are in `models/`.

use crate::cli::Config;
use crate::data::{Samples, Split, PIXELS};
use crate::models::{self, cnn::Cnn, mlp::Mlp, transformer::Transformer, Images, Kind, Model};
use crate::rng::Rng;
use std::time::Instant;
use tensor_core::Result;
use tensor_typed::prelude::*;

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

/// Trains the model `config.model` on `split.train` as `config` says, calling
/// `on_batch` after every batch and `on_epoch` after every epoch, then measures it on
/// `split.test`.
///
/// # Errors
/// A tensor-core error, which would be a bug in the model (the shapes are fixed).
pub fn train(
    split: &Split,
    config: &Config,
    on_batch: impl FnMut(),
    on_epoch: impl FnMut(Epoch),
) -> Result<Report> {
    match config.model {
        Kind::Mlp => train_model::<Mlp>(split, config, on_batch, on_epoch),
        Kind::Cnn => train_model::<Cnn>(split, config, on_batch, on_epoch),
        Kind::Transformer => train_model::<Transformer>(split, config, on_batch, on_epoch),
    }
}

/// [`train`] for the model type `M`.
fn train_model<M: Model>(
    split: &Split,
    config: &Config,
    mut on_batch: impl FnMut(),
    mut on_epoch: impl FnMut(Epoch),
) -> Result<Report> {
    let mut rng = Rng::new(config.seed);
    let mut model = M::init(&mut rng)?;
    let mut opt = M::optimizer(config.lr);
    let n = split.train.len();
    let start = Instant::now();
    for epoch in 1..=config.epochs {
        let perm = rng.permutation(n);
        let (mut loss_sum, mut correct) = (0.0f64, 0usize);
        for idx in perm.chunks(config.batch) {
            let (x, y) = gather(&split.train, idx);
            let x = Images::from_vec(x, &[idx.len(), PIXELS])?;
            let scores = model.forward(&x);
            let loss = models::loss(&scores, &y)?;
            correct += models::predictions(&scores)
                .iter()
                .zip(&y)
                .filter(|(p, l)| p == l)
                .count();
            loss_sum += loss.item()? as f64 * idx.len() as f64;
            loss.backward()?;
            opt.step(&mut model)?;
            model.zero_grad();
            on_batch();
        }
        on_epoch(Epoch {
            epoch,
            loss: loss_sum / n.max(1) as f64,
            train_accuracy: correct as f64 / n.max(1) as f64,
        });
    }
    let train_seconds = start.elapsed().as_secs_f64();
    let test_images = Images::from_vec(split.test.images.clone(), &[split.test.len(), PIXELS])?;
    let predicted = no_grad(|| models::predictions(&model.forward(&test_images)));
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
