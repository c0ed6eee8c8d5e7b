// Two different names never unify, even at equal sizes.
use tensor_typed::prelude::*;

dims! {
    pub Seq = 256;
    pub Model = 256;
}

fn main() {
    let a = Tensor::<f32, Shape![Seq]>::zeros();
    let b = Tensor::<f32, Shape![Model]>::zeros();
    let _c = &a + &b;
}
