use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _row = a.narrow_dyn::<1>(0, 2); // fine: dim 1
    let _r = a.select::<2>(0);
}
