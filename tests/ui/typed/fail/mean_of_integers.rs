use tensor_typed::prelude::*;

fn main() {
    let a: Tensor<i64, Shape![2, 3]> = Tensor::zeros();
    let _m = a.mean::<Axes![0]>();
}
