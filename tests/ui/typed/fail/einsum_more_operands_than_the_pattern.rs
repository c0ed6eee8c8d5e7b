// Three tensors for a pattern of two operands.
use tensor_typed::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let _c = einsum!("i k, k j -> i j", a, a, a);
}
