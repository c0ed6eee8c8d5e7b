// cat along the named dim `Seq`: the other dims must unify, names included.
use tensor_typed::prelude::*;

dims! {
    pub Seq;
    pub Model = 64;
    pub Hidden = 64;
}

fn main() {
    let a = Tensor::<f32, Shape![Seq, Model]>::zeros_with(&[3, 64]).unwrap();
    let b = Tensor::<f32, Shape![Seq, Hidden]>::zeros_with(&[5, 64]).unwrap();
    let _c = Tensor::cat::<0>((&a, &b));
}
