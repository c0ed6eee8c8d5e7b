// A label is letters (then letters, digits or `_`): `2` is not one.
use tensor_typed::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let _c = einsum!("i 2 -> i", a);
}
