//! The transformer_block example's tests (run by `cargo test`: the example is built with
//! `test = true`): the typed block against PyTorch's output for the recorded weights
//! and input.

use super::{max_abs_diff, recorded_io, recorded_path};
use crate::model::{Acts, Block};
use tensor_typed::io::Weights;
use tensor_typed::prelude::*;

#[test]
fn block_matches_pytorch_within_1e_5() {
    let st = Weights::open(recorded_path()).unwrap();
    let block = Block::<crate::model::Sizes>::load(&st).unwrap();
    let (x, y_torch) = recorded_io(&st).unwrap();
    assert_eq!(x.dims(), &[2, 16, 64]);
    let y = block.forward(&x);
    let diff = max_abs_diff(&y, &y_torch);
    assert!(diff <= 1e-5, "max |ours - PyTorch| = {diff:e}");
}

#[test]
fn block_is_causal_the_first_position_ignores_the_rest() {
    // Changing the last token must leave every earlier position's output alone.
    let st = Weights::open(recorded_path()).unwrap();
    let block = Block::<crate::model::Sizes>::load(&st).unwrap();
    let (x, _) = recorded_io(&st).unwrap();
    let mut v = x.contiguous_copy().to_vec();
    let last = 15 * 64;
    for e in &mut v[last..last + 64] {
        *e += 1.0;
    }
    let x2 = Acts::from_vec(v, &[2, 16, 64]).unwrap();
    let (y, y2) = (block.forward(&x).to_vec(), block.forward(&x2).to_vec());
    assert_eq!(y[..last], y2[..last]);
    assert_ne!(y[last..last + 64], y2[last..last + 64]);
}

#[test]
fn weights_of_the_wrong_shape_name_the_tensor() {
    let st = Weights::open(recorded_path()).unwrap();
    let err = st
        .load::<f32, Shape![256, 64]>("mlp.w1")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("tensor 'mlp.w1'") && err.contains("shape [64, 256]"),
        "{err}"
    );
}
