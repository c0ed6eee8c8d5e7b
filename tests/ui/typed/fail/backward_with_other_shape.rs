use tensor_typed::prelude::*;

fn main() {
    let w = Tensor::<f32, Shape![3, 2]>::ones().requires_grad_(true);
    let y = &w * &w;
    let g = Tensor::<f32, Shape![2, 3]>::ones();
    let _ = y.backward_with(&g);
}
