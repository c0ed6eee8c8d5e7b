// The output names a label no operand has.
use tensor_typed::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let b = Tensor::<f32, Shape![3, 4]>::zeros();
    let _c = einsum!("i k, k j -> i x", a, b);
}
