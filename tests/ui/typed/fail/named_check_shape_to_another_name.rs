// check_shape checks run-time sizes, never names: a name cannot become another one
// (that is rename's job).
use tensor_typed::prelude::*;

dims! {
    pub Seq;
    pub Model = 64;
    pub Hidden = 64;
}

fn main() {
    let a = Tensor::<f32, Shape![Seq, Model]>::zeros_with(&[3, 64]).unwrap();
    let _b = a.check_shape::<Shape![Seq, Hidden]>().unwrap();
}
