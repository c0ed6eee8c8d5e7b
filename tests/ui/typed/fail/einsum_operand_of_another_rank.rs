// The second operand has three dims; the pattern gives it two.
use tensor_typed::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let b = Tensor::<f32, Shape![1, 3, 4]>::zeros();
    let _c = einsum!("i k, k j -> i j", a, b);
}
