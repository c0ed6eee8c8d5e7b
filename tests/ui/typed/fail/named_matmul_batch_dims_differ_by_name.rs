// matmul broadcasts the batch dims: `Heads` meets `Groups`, two names of equal size.
use tensor_typed::prelude::*;

dims! {
    pub Seq;
    pub Heads = 4;
    pub Groups = 4;
    pub HeadDim = 16;
}

fn main() {
    let q = Tensor::<f32, Shape![Heads, Seq, HeadDim]>::zeros_with(&[4, 8, 16]).unwrap();
    let k = Tensor::<f32, Shape![Groups, HeadDim, Seq]>::zeros_with(&[4, 16, 8]).unwrap();
    let _scores = q.matmul(&k);
}
