// Rows of the position table are a part of `Positions`, not this pass's `Tok`
// positions: a slice keeps its name, so adding it to `Tok` activations is refused until
// a rename says what it is.
use tensor_typed::prelude::*;

dims! {
    pub Positions = 16;
    pub Tok;
    pub Embd = 8;
}

fn main() {
    let wpe = Tensor::<f32, Shape![Positions, Embd]>::zeros();
    let x = Tensor::<f32, Shape![Tok, Embd]>::zeros_with(&[3, 8]).unwrap();
    let _y = &x + &wpe.narrow_dyn::<0>(2, 3);
}
