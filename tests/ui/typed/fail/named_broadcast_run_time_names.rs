// Broadcasting aligns dims at the right: `Seq` meets `Batch`, two run-time names.
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Seq;
    pub Model = 256;
}

fn main() {
    let x = Tensor::<f32, Shape![Batch, Seq, Model]>::zeros_with(&[2, 16, 256]).unwrap();
    let y = Tensor::<f32, Shape![Batch, Model]>::zeros_with(&[2, 256]).unwrap();
    let _z = x.add(&y);
}
