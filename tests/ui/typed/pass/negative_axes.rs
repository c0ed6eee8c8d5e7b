use tensor_typed::prelude::*;

// Negative axes count from the end, as PyTorch's dims.
fn main() {
    let x: Tensor<f32, Shape![Dyn, 16, 64]> = Tensor::zeros_with(&[2, 16, 64]).unwrap();
    let _mu: Tensor<f32, Shape![Dyn, 16]> = x.mean::<Axes![-1]>();
    let _v: Tensor<f32, Shape![Dyn, 16, 1]> = x.var_keepdim::<Axes![-1]>(1);
    let _s: Tensor<f32, Shape![Dyn]> = x.sum::<Axes![-2, -1]>();
    let _k: Tensor<f32, Shape![1, 16, 64]> = x.amax_keepdim::<Axes![0]>().check_shape().unwrap();
    let _sd: Tensor<f32, Shape![16, 64]> = x.std::<Axes![-3]>(0).check_shape().unwrap();
    let _p: Tensor<f32, Shape![64, Dyn, 16]> = x.permute::<Axes![-1, 0, -2]>();
}
