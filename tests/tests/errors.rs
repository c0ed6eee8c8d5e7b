//! Bad input gives a clear error whose message contains PyTorch's, never a panic, and
//! leaves the tensors it was given unchanged.

use tensor_core::{DType, Error, Layout, Storage, Tensor, TensorIterator, TensorIteratorConfig};

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
        "Storage size calculation overflowed with sizes=[1099511627776, 1099511627776]",
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
        "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)",
    );
}

#[test]
fn item_of_many_elements() {
    assert_msg(
        f32s(&[2]).item::<f32>(),
        "a Tensor with 2 elements cannot be converted to Scalar",
    );
}

// ---- hostile layouts, storage and allocation -----------------------------------------

#[test]
fn as_strided_9_by_stride_2_pow_61_then_neg_is_an_error() {
    let r = f32s(&[1])
        .as_strided(&[9], &[1 << 61], 0)
        .and_then(|v| v.neg());
    assert_msg(
        r,
        "Storage size calculation overflowed with sizes=[9] and strides=[2305843009213693952]",
    );
    // In range for the arithmetic, out of range for the storage: PyTorch's setStorage.
    assert_msg(
        f32s(&[1]).as_strided(&[9], &[1 << 40], 0),
        "setStorage: sizes [9], strides [1099511627776], storage offset 0, and itemsize 4 requiring a storage size of 35184372088836 are out of bounds for storage of size 4",
    );
}

#[test]
fn empty_strided_9_by_stride_2_pow_61_then_fill_is_an_error() {
    let r = Tensor::empty_strided(&[9], &[1 << 61], DType::F32).and_then(|t| t.fill_(1.0));
    assert_msg(r, "Storage size calculation overflowed with sizes=[9]");
}

#[test]
fn as_strided_offset_usize_max_then_item_is_an_error() {
    let r = f32s(&[1])
        .as_strided(&[1], &[1], usize::MAX)
        .and_then(|v| v.item::<f32>());
    assert_msg(
        r,
        "Storage size calculation overflowed with sizes=[1] and strides=[1]",
    );
    assert_msg(
        f32s(&[1]).as_strided(&[1], &[1], usize::MAX / 16),
        "are out of bounds for storage of size 4",
    );
}

#[test]
fn as_strided_sizes_and_strides_of_different_lengths() {
    assert_msg(
        f32s(&[6]).as_strided(&[2, 3], &[3], 0),
        "mismatch in length of strides and shape",
    );
    assert_msg(
        Layout::checked(vec![2], vec![1, 1], 0),
        "mismatch in length of strides and shape",
    );
}

#[test]
fn from_parts_u8_storage_as_bool_is_an_error() {
    let storage = Storage::from_vec(vec![2u8]).unwrap();
    let layout = Layout::checked(vec![1], vec![1], 0).unwrap();
    assert_msg(
        Tensor::from_parts(storage, layout, DType::Bool),
        "cannot be viewed as Bool",
    );
}

#[test]
fn from_parts_negative_stride_is_an_error() {
    assert_msg(
        Layout::checked(vec![2], vec![-1], 1),
        "as_strided: Negative strides are not supported at the moment, got strides: [-1]",
    );
}

#[test]
fn narrow_0_0_usize_max() {
    assert_msg(
        f32s(&[2]).narrow(0, 0, usize::MAX),
        &format!(
            "start (0) + length ({}) exceeds dimension size (2).",
            usize::MAX
        ),
    );
}

// 2^46 f32 elements are 256 TiB: beyond every address space, so these are
// out-of-memory errors whatever the machine's overcommit policy.
#[test]
fn zeros_of_2_pow_46_is_out_of_memory_not_an_abort() {
    assert_msg(
        Tensor::zeros(&[1 << 46], DType::F32),
        "DefaultCPUAllocator: not enough memory: you tried to allocate 281474976710656 bytes.",
    );
    assert_msg(
        Tensor::rand(&[1 << 46], 0),
        "DefaultCPUAllocator: not enough memory",
    );
    assert_msg(
        Tensor::full(&[1 << 46], 1.0, DType::F32),
        "DefaultCPUAllocator: not enough memory",
    );
}

#[test]
fn repeat_to_2_pow_46_elements_is_out_of_memory() {
    assert_msg(
        f32s(&[2]).repeat(&[1 << 45]),
        "DefaultCPUAllocator: not enough memory",
    );
}

#[test]
fn to_vec_of_expanded_2_pow_46_is_out_of_memory() {
    let big = Tensor::ones(&[1], DType::F32)
        .unwrap()
        .expand(&[1 << 46])
        .unwrap();
    assert_msg(
        big.to_vec::<f32>(),
        "DefaultCPUAllocator: not enough memory",
    );
    assert_msg(big.contiguous(), "DefaultCPUAllocator: not enough memory");
    let text = big.to_string();
    assert!(
        text.starts_with("tensor([1., 1., 1.,  ..., 1., 1., 1.])"),
        "{text}"
    );
}

#[test]
fn arange_and_randperm_of_usize_max_are_errors() {
    assert_msg(
        Tensor::arange(usize::MAX, DType::F32),
        "Storage size calculation overflowed",
    );
    assert_msg(
        Tensor::randperm(usize::MAX, 0),
        "Storage size calculation overflowed",
    );
    assert_msg(
        Storage::zeroed(usize::MAX, DType::U8),
        "DefaultCPUAllocator: not enough memory",
    );
}

#[test]
fn free_functions_given_slices_of_different_lengths() {
    assert!(tensor_core::infer_expand_geometry(&[2, 3], &[1], &[2, 3]).is_err());
    assert!(tensor_core::compute_stride(&[2, 3], &[1], &[6]).is_err());
    assert!(tensor_core::infer_dense_strides(&[2, 3], &[1]).is_err());
}

#[test]
fn iterator_builder_misuse_is_an_error() {
    let a = f32s(&[2]);
    let out = f32s(&[2]);
    let r = TensorIterator::build(TensorIteratorConfig::new().add_input(&a).add_output(&out));
    assert_msg(r, "outputs must be added before inputs");
    let r = TensorIterator::build(TensorIteratorConfig::new().add_undefined_output());
    assert_msg(r, "cannot infer the dtype of an undefined output");
    let it = TensorIterator::build(TensorIteratorConfig::unary_op(None, &a)).unwrap();
    assert_msg(
        it.try_output(1),
        "operand index 1 out of range for 1 operands",
    );
    assert_msg(it.try_input(5), "operand index 5 out of range");
    assert!(it.try_dtype(9).is_err() && it.try_strides(9).is_err());
    assert!(it.try_final_output(0).is_ok());
    let r = TensorIterator::build(
        TensorIteratorConfig::new()
            .add_output(&out)
            .add_input(&f32s(&[1]))
            .declare_static_shape(&[2]),
    );
    assert_msg(r, "doesn't match the broadcast shape [2]");
}

#[test]
fn broadcast_past_numel_limit_is_an_error() {
    let a = f32s(&[1]).expand(&[1 << 40, 1]).unwrap();
    let b = f32s(&[1]).expand(&[1, 1 << 40]).unwrap();
    assert_msg(a.add(&b), "Storage size calculation overflowed");
}
