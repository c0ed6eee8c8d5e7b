use tensor_typed::prelude::*;

fn main() {
    let m: Tensor<bool, Shape![4]> = Tensor::zeros();
    let _r = m.relu();
}
