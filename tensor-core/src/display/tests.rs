//! Exact strings PyTorch prints for the same tensors.

use crate::dtype::DType;
use crate::layout::Layout;
use crate::tensor::Tensor;

fn f32s(v: &[f32], sizes: &[usize]) -> Tensor {
    Tensor::from_vec(v.to_vec(), sizes).unwrap()
}

#[test]
fn float_matrix_of_integers_prints_points() {
    let t = f32s(&[1.0, 2.0, 3.0, 4.0], &[2, 2]);
    assert_eq!(t.to_string(), "tensor([[1., 2.],\n        [3., 4.]])");
}

#[test]
fn int64_prints_without_dtype_and_int32_with_it() {
    let t = Tensor::from_vec(vec![1i64, 2, 3], &[3]).unwrap();
    assert_eq!(t.to_string(), "tensor([1, 2, 3])");
    let t = Tensor::from_vec(vec![1i32, 2, 3], &[3]).unwrap();
    assert_eq!(t.to_string(), "tensor([1, 2, 3], dtype=torch.int32)");
}

#[test]
fn bools_print_true_false_right_aligned() {
    let t = Tensor::from_vec(vec![true, false], &[2]).unwrap();
    assert_eq!(t.to_string(), "tensor([ True, False])");
}

#[test]
fn fractional_floats_use_four_decimals() {
    assert_eq!(
        f32s(&[1.5, 2.25], &[2]).to_string(),
        "tensor([1.5000, 2.2500])"
    );
    let t = Tensor::from_vec(vec![0.1f64, 0.2], &[2]).unwrap();
    assert_eq!(
        t.to_string(),
        "tensor([0.1000, 0.2000], dtype=torch.float64)"
    );
}

#[test]
fn wide_range_switches_to_scientific() {
    assert_eq!(
        f32s(&[1e-5, 1.0], &[2]).to_string(),
        "tensor([1.0000e-05, 1.0000e+00])"
    );
    assert_eq!(
        f32s(&[1.0, 1e9], &[2]).to_string(),
        "tensor([1.0000e+00, 1.0000e+09])"
    );
}

#[test]
fn negative_integers_pad_to_common_width() {
    assert_eq!(f32s(&[-1.0, 2.0], &[2]).to_string(), "tensor([-1.,  2.])");
}

#[test]
fn nan_is_padded_and_has_no_point() {
    assert_eq!(
        f32s(&[1.5, f32::NAN], &[2]).to_string(),
        "tensor([1.5000,    nan])"
    );
    assert_eq!(
        f32s(&[1.0, f32::INFINITY], &[2]).to_string(),
        "tensor([1., inf])"
    );
}

#[test]
fn zero_dim_prints_the_value() {
    assert_eq!(Tensor::scalar(3.5f32).to_string(), "tensor(3.5000)");
    assert_eq!(Tensor::scalar(3i64).to_string(), "tensor(3)");
    assert_eq!(Tensor::scalar(true).to_string(), "tensor(True)");
    assert_eq!(
        Tensor::scalar(2.0f64).to_string(),
        "tensor(2., dtype=torch.float64)"
    );
}

#[test]
fn empty_tensors_print_size_and_dtype() {
    assert_eq!(
        Tensor::zeros(&[0], DType::F32).unwrap().to_string(),
        "tensor([])"
    );
    assert_eq!(
        Tensor::zeros(&[2, 0], DType::F32).unwrap().to_string(),
        "tensor([], size=(2, 0))"
    );
    assert_eq!(
        Tensor::zeros(&[0], DType::I64).unwrap().to_string(),
        "tensor([], dtype=torch.int64)"
    );
}

#[test]
fn long_rows_wrap_at_eighty_columns() {
    let t = Tensor::arange(30, DType::F32).unwrap();
    assert_eq!(
        t.to_string(),
        "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n        \
         14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n        \
         28., 29.])"
    );
}

#[test]
fn more_than_a_thousand_elements_are_summarised() {
    let t = Tensor::arange(2000, DType::I64).unwrap();
    assert_eq!(
        t.to_string(),
        "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])"
    );
    let z = Tensor::zeros(&[1001], DType::F32).unwrap();
    assert_eq!(z.to_string(), "tensor([0., 0., 0.,  ..., 0., 0., 0.])");
}

#[test]
fn summarised_matrix_elides_rows_and_columns() {
    // torch.arange(1200).reshape(40, 30)
    let t = Tensor::arange(1200, DType::I64).unwrap();
    let t = t.with_layout(Layout::new(vec![40, 30], vec![30, 1], 0));
    assert_eq!(
        t.to_string(),
        "tensor([[   0,    1,    2,  ...,   27,   28,   29],\n        \
         [  30,   31,   32,  ...,   57,   58,   59],\n        \
         [  60,   61,   62,  ...,   87,   88,   89],\n        \
         ...,\n        \
         [1110, 1111, 1112,  ..., 1137, 1138, 1139],\n        \
         [1140, 1141, 1142,  ..., 1167, 1168, 1169],\n        \
         [1170, 1171, 1172,  ..., 1197, 1198, 1199]])"
    );
}

#[test]
fn three_dims_separate_blocks_with_a_blank_line() {
    let t = Tensor::arange(8, DType::I64).unwrap();
    let t = t.with_layout(Layout::new(vec![2, 2, 2], vec![4, 2, 1], 0));
    assert_eq!(
        t.to_string(),
        "tensor([[[0, 1],\n         [2, 3]],\n\n        [[4, 5],\n         [6, 7]]])"
    );
}

#[test]
fn transposed_view_prints_in_logical_order() {
    let t = f32s(&[1.0, 2.0, 3.0, 4.0], &[2, 2]);
    let t = t.with_layout(Layout::new(vec![2, 2], vec![1, 2], 0));
    assert_eq!(t.to_string(), "tensor([[1., 3.],\n        [2., 4.]])");
}

#[test]
fn half_prints_its_float_value_and_dtype() {
    let t = Tensor::from_vec(
        vec![half::f16::from_f32(0.5), half::f16::from_f32(1.0)],
        &[2],
    )
    .unwrap();
    assert_eq!(
        t.to_string(),
        "tensor([0.5000, 1.0000], dtype=torch.float16)"
    );
}

#[test]
fn float_with_small_values_uses_scientific() {
    assert_eq!(
        Tensor::from_vec(vec![0.00001f32], &[1])
            .unwrap()
            .to_string(),
        "tensor([1.0000e-05])"
    );
}

#[test]
fn wrapped_vector_keeps_dtype_on_its_last_line() {
    // Width 6 + 2 per element: 9 elements fit in 80 - 7 columns.
    let t = Tensor::from_vec(vec![1.5f64; 10], &[10]).unwrap();
    assert_eq!(
        t.to_string(),
        "tensor([1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000,\n        \
         1.5000], dtype=torch.float64)"
    );
}

#[test]
fn dtype_suffix_past_the_line_width_moves_to_a_new_line() {
    let t = Tensor::from_vec(vec![1.5f64; 9], &[9]).unwrap();
    assert_eq!(
        t.to_string(),
        "tensor([1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000, 1.5000],\n       \
         dtype=torch.float64)"
    );
}

#[test]
fn a_tensor_of_100000_dims_prints_a_summary_on_a_small_stack() {
    // Was one recursion level per dim: a stack overflow (SIGABRT).
    let t = Tensor::zeros(&vec![1; 100_000], DType::F32).unwrap();
    let text = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || t.to_string())
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(
        text,
        "tensor(<1 elements in 100000 dims: too many dims to show nested>)"
    );
    let t = Tensor::zeros(&vec![1; 256], DType::F32).unwrap();
    assert!(t
        .to_string()
        .starts_with(&format!("tensor({}0.", "[".repeat(256))));
}
