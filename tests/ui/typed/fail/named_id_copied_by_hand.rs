// A name implemented by hand with another name's id is not that name: the two meet as
// two types with one identity, a compile error.
use tensor_typed::prelude::*;

dims! { pub Seq = 16; }

#[derive(Debug)]
pub struct Fake;
impl tensor_typed::NamedDim for Fake {
    type Size = D<32>;
    type Id = <Seq as tensor_typed::NamedDim>::Id;
}

fn main() {
    let a = Tensor::<f32, Shape![Seq]>::zeros();
    let b = Tensor::<f32, Shape![Fake]>::zeros();
    let _ = a.add(&b);
}
