use tensor_typed::prelude::*;

fn main() {
    let m: Tensor<bool, Shape![2, 3]> = Tensor::zeros();
    let _n = m.neg();
    let _o = -&m;
}
