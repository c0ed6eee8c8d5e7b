use tensor_typed::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![Dyn, 16, 64]> = Tensor::zeros_with(&[2, 16, 64]).unwrap();
    let _v = x.var_keepdim::<Axes![-4]>(1);
}
