//! The strides of `.grad` after a matmul's backward, as PyTorch's: `AccumulateGrad`
//! keeps a gradient that obeys the layout contract (the leaf's strides at every dim of
//! size other than 1), and `matmul` of a 2-d operand that requires grad by one of 3 or
//! more dims gives the latter's gradient along PyTorch's folded path (`[4, 1, 4]`:
//! strides `[4, 1, 1]`, where a contiguous gradient has `[4, 4, 1]`).

use tensor_core::{DType, Tensor};

fn leaf(sizes: &[usize]) -> Tensor {
    let n: usize = sizes.iter().product();
    Tensor::from_vec((0..n).map(|i| i as f32 * 0.5 - 1.0).collect(), sizes)
        .unwrap()
        .requires_grad_(true)
        .unwrap()
}

/// The backward pass of the sum of `out`'s elements.
fn backward_of_sum(out: Tensor) {
    out.sum(&[], false).unwrap().backward().unwrap();
}

#[test]
fn a_matrix_times_a_batch_with_a_size_1_row_gives_pytorchs_grad_strides() {
    // PyTorch: y = torch.randn(3, 1, requires_grad=True); x = torch.randn(4, 1, 4,
    // requires_grad=True); (y @ x).sum().backward(); x.grad.stride() == (4, 1, 1),
    // y.grad.stride() == (1, 1).
    let (y, x) = (leaf(&[3, 1]), leaf(&[4, 1, 4]));
    backward_of_sum(y.matmul(&x).unwrap());
    let (gx, gy) = (x.grad().unwrap(), y.grad().unwrap());
    assert_eq!((gx.sizes(), gx.strides()), (&[4, 1, 4][..], &[4, 1, 1][..]));
    assert_eq!((gy.sizes(), gy.strides()), (&[3, 1][..], &[1, 1][..]));
    // d/dx[b, 0, j] = sum_n y[n, 0]; d/dy[n, 0] = sum over b, j of x[b, 0, j].
    let y_sum: f32 = y.to_vec::<f32>().unwrap().iter().sum();
    assert_eq!(gx.to_vec::<f32>().unwrap(), vec![y_sum; 16]);
    let x_sum: f32 = x.to_vec::<f32>().unwrap().iter().sum();
    assert_eq!(gy.to_vec::<f32>().unwrap(), vec![x_sum; 3]);
}

#[test]
fn a_batch_times_a_matrix_keeps_contiguous_grad_strides() {
    // PyTorch folds x into a [4, 4] matrix; the gradient viewed back is contiguous.
    let (x, w) = (leaf(&[4, 1, 4]), leaf(&[4, 4]));
    backward_of_sum(x.matmul(&w).unwrap());
    let gx = x.grad().unwrap();
    assert_eq!(gx.strides(), &[4, 4, 1]);
}

#[test]
fn a_wider_inner_dim_gives_contiguous_grads_with_the_same_values_as_a_batched_product() {
    // k = 2: PyTorch's folded gradient is transposed in memory, so `.grad` is a
    // contiguous copy; the values are those of the batched product.
    let (y, x) = (leaf(&[3, 2]), leaf(&[4, 2, 5]));
    backward_of_sum(y.matmul(&x).unwrap());
    let gx = x.grad().unwrap();
    assert_eq!(gx.strides(), &[10, 5, 1]);
    let yv = y.to_vec::<f32>().unwrap();
    let col = [yv[0] + yv[2] + yv[4], yv[1] + yv[3] + yv[5]];
    let want: Vec<f32> = (0..40).map(|i| col[(i / 5) % 2]).collect();
    assert_eq!(gx.to_vec::<f32>().unwrap(), want);
}

#[test]
fn a_gradient_with_stride_0_at_a_size_1_dim_is_copied() {
    // The layout contract's one rule at a size-1 dim: stride 0 marks a view (expand)
    // and is never kept.
    let x = Tensor::zeros(&[2, 1], DType::F32)
        .unwrap()
        .requires_grad_(true)
        .unwrap();
    let g = Tensor::full(&[2, 1], 1.0, DType::F32).unwrap();
    backward_of_sum(x.mul(&g).unwrap());
    assert_ne!(x.grad().unwrap().strides()[1], 0);
}
