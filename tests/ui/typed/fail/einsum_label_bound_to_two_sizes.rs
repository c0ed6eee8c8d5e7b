// Label `k` is 3 in the first operand and 4 in the second.
use tensor_typed::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let b = Tensor::<f32, Shape![4, 5]>::zeros();
    let _c = einsum!("ik,kj->ij", a, b);
}
