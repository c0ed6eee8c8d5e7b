// expand of a static name to an unnamed dim of another size: the name is never the 1
// that expand grows.
use tensor_typed::prelude::*;

dims! {
    pub Model = 64;
}

fn main() {
    let a = Tensor::<f32, Shape![Model]>::zeros();
    let _b = a.expand::<Shape![2, 32]>();
}
