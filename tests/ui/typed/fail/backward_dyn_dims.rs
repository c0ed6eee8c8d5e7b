use tensor_typed::prelude::*;

fn main() {
    let w = Tensor::<f32, Shape![Dyn]>::ones_with(&[4]).unwrap().requires_grad_(true);
    let _ = w.backward();
}
