// An output label written twice.
use tensor_typed::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let _c = einsum!("i j -> i i", a);
}
