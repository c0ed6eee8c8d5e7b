// unflatten checks the dim is the product of the two sizes: 30 is not 4 · 8.
use tensor_typed::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![2, 30]>::zeros();
    let _ = x.unflatten::<1, D<4>, D<8>>();
}
