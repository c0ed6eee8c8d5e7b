//! Bad input gives a clear error whose message contains PyTorch's, never a panic, and
//! leaves the tensors it was given unchanged.

use tensor_core::{DType, Error, Tensor};

fn f32s(sizes: &[usize]) -> Tensor {
    let n: usize = sizes.iter().product();
    Tensor::from_vec((0..n).map(|i| i as f32).collect::<Vec<_>>(), sizes).unwrap()
}

fn assert_msg<T: std::fmt::Debug>(r: Result<T, Error>, pytorch: &str) {
    match r {
        Ok(v) => panic!("expected error containing {pytorch:?}, got {v:?}"),
        Err(e) => assert!(
            e.to_string().contains(pytorch),
            "message {:?} does not contain PyTorch's {:?}",
            e.to_string(),
            pytorch
        ),
    }
}

#[test]
fn broadcast_mismatch() {
    assert_msg(
        f32s(&[2, 3]).add(&f32s(&[4])),
        "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
    );
}

#[test]
fn broadcast_mismatch_operator_panics_with_the_same_message() {
    let r = std::panic::catch_unwind(|| &f32s(&[2, 3]) + &f32s(&[4]));
    let p = r.unwrap_err();
    let msg = p
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap();
    assert!(msg.contains("The size of tensor a (3) must match the size of tensor b (4)"));
}

#[test]
fn expand_mismatch() {
    assert_msg(
        f32s(&[3, 4]).expand(&[2, 5]),
        "The expanded size of the tensor (5) must match the existing size (4) at non-singleton dimension 1.  Target sizes: [2, 5].  Tensor sizes: [3, 4]",
    );
}

#[test]
fn expand_leading_minus_one() {
    assert_msg(
        f32s(&[3]).expand(&[-1, 3]),
        "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0",
    );
}

#[test]
fn expand_to_fewer_dims() {
    assert_msg(
        f32s(&[3, 4]).expand(&[4]),
        "the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)",
    );
}

#[test]
fn view_incompatible() {
    let t = f32s(&[2, 3]).t().unwrap();
    assert_msg(t.view(&[6]), "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
}

#[test]
fn shape_invalid_for_size() {
    assert_msg(
        f32s(&[12]).view(&[5, 2]),
        "shape '[5, 2]' is invalid for input of size 12",
    );
}

#[test]
fn two_inferred_dims() {
    assert_msg(
        f32s(&[12]).reshape(&[-1, -1]),
        "only one dimension can be inferred",
    );
}

#[test]
fn negative_dims() {
    assert_msg(
        f32s(&[6]).view(&[-2, 3]),
        "invalid shape dimension -2 at index 0 of shape [-2, 3]",
    );
    assert_msg(
        f32s(&[3]).repeat(&[4, -1]),
        "Trying to create tensor with negative dimension -3: [4, -3]",
    );
}

#[test]
fn dim_out_of_range() {
    assert_msg(
        f32s(&[2, 3]).sum(&[2], false),
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    );
    assert_msg(
        f32s(&[2, 3]).transpose(0, -3),
        "Dimension out of range (expected to be in range of [-2, 1], but got -3)",
    );
}

#[test]
fn numel_overflow() {
    assert_msg(
        Tensor::zeros(&[1 << 40, 1 << 40], DType::F32),
        "numel: integer multiplication overflow",
    );
    let big = i64::MAX / 2;
    assert_msg(
        Tensor::scalar(1.0f32).expand(&[big, big]),
        "integer multiplication overflow",
    );
}

#[test]
fn from_vec_wrong_length() {
    assert_msg(
        Tensor::from_vec(vec![1.0f32; 5], &[2, 3]),
        "shape '[2, 3]' is invalid for input of size 5",
    );
}

#[test]
fn unsafe_cast_to_output_leaves_output_unchanged() {
    let out = Tensor::from_vec(vec![7i64, 8, 9], &[3]).unwrap();
    assert_msg(
        f32s(&[3]).add_out(&f32s(&[3]), &out),
        "result type Float can't be cast to the desired output type Long",
    );
    let a = Tensor::from_vec(vec![1i64, 2, 3], &[3]).unwrap();
    assert_msg(
        a.add_(&f32s(&[3])),
        "result type Float can't be cast to the desired output type Long",
    );
    assert_eq!(out.to_vec::<i64>().unwrap(), vec![7, 8, 9]);
    assert_eq!(a.to_vec::<i64>().unwrap(), vec![1, 2, 3]);
}

#[test]
fn written_to_tensor_overlapping_itself() {
    let e = f32s(&[1, 3]).expand(&[4, 3]).unwrap();
    assert_msg(
        e.add_(&f32s(&[4, 3])),
        "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.",
    );
}

#[test]
fn written_to_tensor_partially_overlapping_an_input() {
    let base = f32s(&[8]);
    let a = base.narrow(0, 0, 4).unwrap();
    let b = base.narrow(0, 2, 4).unwrap();
    assert_msg(
        a.add_(&b),
        "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.",
    );
    assert_eq!(
        base.to_vec::<f32>().unwrap(),
        (0..8).map(|i| i as f32).collect::<Vec<_>>()
    );
}

#[test]
fn output_shape_mismatch() {
    // In place, the written-to tensor cannot be resized to the broadcast shape.
    let a = f32s(&[2, 3]);
    assert_msg(
        a.add_(&f32s(&[4, 2, 3])),
        "output with shape [2, 3] doesn't match the broadcast shape [4, 2, 3]",
    );
}

#[test]
fn matmul_inner_dims() {
    assert_msg(
        f32s(&[2, 3]).matmul(&f32s(&[4, 5])),
        "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)",
    );
}

#[test]
fn item_of_many_elements() {
    assert_msg(
        f32s(&[2]).item::<f32>(),
        "a Tensor with 2 elements cannot be converted to Scalar",
    );
}
