// An nn op compares names too: a linear layer over `Model` rejects a `Hidden` input of
// the same size.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Model = 64;
    pub Hidden = 64;
    pub Out = 10;
}

fn main() {
    let x = Tensor::<f32, Shape![Batch, Hidden]>::zeros_with(&[2, 64]).unwrap();
    let fc = nn::Linear::<Dim![Model], Dim![Out]>::zeros();
    let _y = fc.forward(&x);
}
