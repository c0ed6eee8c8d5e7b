use tensor_typed::prelude::*;

fn main() {
    let _ = Tensor::<i64, Shape![3]>::zeros().requires_grad_(true);
}
