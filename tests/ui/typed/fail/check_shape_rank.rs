use tensor_typed::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, Dyn]>::zeros_with(&[2, 5]).unwrap();
    let _b = a.check_shape::<Shape![10]>().unwrap();
}
