use super::*;
use crate::dtype::DType;
use crate::test_util::{arange, arange_strided};

fn err(r: Result<Tensor>) -> String {
    r.unwrap_err().to_string()
}

#[test]
fn cat_dim1_of_contiguous_joins_rows() {
    let (a, b) = (arange(&[2, 2]), arange(&[2, 3]));
    let c = Tensor::cat(&[&a, &b], -1).unwrap();
    assert_eq!(c.sizes(), &[2, 5]);
    assert_eq!(
        c.to_vec::<f32>().unwrap(),
        vec![0., 1., 0., 1., 2., 2., 3., 3., 4., 5.]
    );
}

#[test]
fn cat_f32_with_i64_promotes_to_f32_and_f32_with_f64_to_f64() {
    let a = arange(&[2]);
    let b = Tensor::from_vec(vec![7i64], &[1]).unwrap();
    let c = Tensor::cat(&[&a, &b], 0).unwrap();
    assert_eq!(c.dtype(), DType::F32);
    assert_eq!(c.to_vec::<f32>().unwrap(), vec![0., 1., 7.]);
    let d = a.to_dtype(DType::F64).unwrap();
    assert_eq!(Tensor::cat(&[&a, &d], 0).unwrap().dtype(), DType::F64);
}

#[test]
fn cat_of_channels_last_stays_channels_last_unless_one_is_contiguous() {
    let x = arange(&[2, 3, 4, 5])
        .to_memory_format(MemoryFormat::ChannelsLast)
        .unwrap();
    let c = Tensor::cat(&[&x, &x], 1).unwrap();
    assert_eq!(c.strides(), &[120, 1, 30, 6]);
    let y = arange(&[2, 3, 4, 5]);
    let c = Tensor::cat(&[&x, &y], 1).unwrap();
    assert_eq!(c.strides(), &[120, 20, 5, 1]);
    assert_eq!(
        c.narrow(1, 3, 3).unwrap().to_vec_f64().unwrap(),
        y.to_vec_f64().unwrap()
    );
}

#[test]
fn cat_skips_1d_empty_tensors_and_wraps_dim_on_the_first_other() {
    let e = Tensor::zeros(&[0], DType::F32).unwrap();
    let a = arange(&[2, 3]);
    let c = Tensor::cat(&[&e, &a, &e], -1).unwrap();
    assert_eq!(c.sizes(), &[2, 3]);
    let only = Tensor::cat(&[&e, &e], 5).unwrap();
    assert_eq!(only.sizes(), &[0]);
}

#[test]
fn cat_of_transposed_input_reads_strides() {
    let t = arange_strided(&[3, 2], &[1, 3]);
    let c = Tensor::cat(&[&t, &t], 0).unwrap();
    assert_eq!(c.strides(), &[2, 1]);
    assert_eq!(
        c.to_vec::<f32>().unwrap(),
        vec![0., 3., 1., 4., 2., 5., 0., 3., 1., 4., 2., 5.]
    );
}

#[test]
fn cat_errors_have_pytorch_messages() {
    let (a, b) = (arange(&[2, 3]), arange(&[2, 4]));
    assert!(err(Tensor::cat(&[], 0)).contains("torch.cat(): expected a non-empty list of Tensors"));
    assert!(err(Tensor::cat(&[&a, &b], 0)).contains(
        "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1 in the list."
    ));
    let c = arange(&[2, 3, 1]);
    assert!(err(Tensor::cat(&[&a, &c], 1))
        .contains("Tensors must have same number of dimensions: got 2 and 3"));
    let s = Tensor::scalar(1.0f32);
    assert!(err(Tensor::cat(&[&a, &s], 1))
        .contains("zero-dimensional tensor (at position 1) cannot be concatenated"));
    assert!(err(Tensor::cat(&[&a, &a], 2))
        .contains("Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
}

#[test]
fn stack_inner_dim_is_cat_then_view() {
    let x = arange(&[2, 3, 4, 5])
        .to_memory_format(MemoryFormat::ChannelsLast)
        .unwrap();
    let s = Tensor::stack(&[&x, &x], 1).unwrap();
    assert_eq!(s.sizes(), &[2, 2, 3, 4, 5]);
    assert_eq!(s.strides(), &[120, 3, 1, 30, 6]);
    let s = Tensor::stack(&[&x, &x], 4).unwrap();
    assert_eq!(s.strides(), &[120, 40, 10, 2, 1]);
}

#[test]
fn stack_of_scalars_and_values() {
    let (a, b) = (Tensor::scalar(1.0f32), Tensor::scalar(2.0f64));
    let s = Tensor::stack(&[&a, &b], 0).unwrap();
    assert_eq!(s.dtype(), DType::F64);
    assert_eq!(s.to_vec::<f64>().unwrap(), vec![1.0, 2.0]);
    let (p, q) = (arange(&[2]), arange(&[2]));
    let s = Tensor::stack(&[&p, &q], -1).unwrap();
    assert_eq!(s.sizes(), &[2, 2]);
    assert_eq!(s.to_vec::<f32>().unwrap(), vec![0., 0., 1., 1.]);
}

#[test]
fn stack_errors_have_pytorch_messages() {
    let (a, b) = (arange(&[2, 3]), arange(&[2, 4]));
    assert!(err(Tensor::stack(&[], 0)).contains("stack expects a non-empty TensorList"));
    assert!(err(Tensor::stack(&[&a, &b], 0)).contains(
        "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [2, 4] at entry 1"
    ));
    assert!(err(Tensor::stack(&[&a, &a], 3))
        .contains("Dimension out of range (expected to be in range of [-3, 2], but got 3)"));
}
