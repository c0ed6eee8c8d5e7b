use tensor_typed::prelude::*;

fn main() {
    let w = Tensor::<f32, Shape![3, 2]>::ones().requires_grad_(true);
    let y = &w * &w;
    let _ = y.backward();
}
