// A run-time slice of a named dim keeps its name: a static name `Positions` narrowed is
// `Part<Positions>` (it meets `Positions` again, checked at run time), a run-time name
// stays itself, an unnamed dim becomes `Dyn`.
use tensor_typed::prelude::*;

dims! {
    pub Positions = 16;
    pub Tok;
    pub Embd = 8;
}

fn main() {
    let wpe = Tensor::<f32, Shape![Positions, Embd]>::randn(0);
    let rows: Tensor<f32, (Part<Positions>, Embd)> = wpe.narrow_dyn::<0>(2, 3);
    assert_eq!(rows.dims(), &[3, 8]);
    // The part meets its whole: the run time checks the length.
    let whole: Tensor<f32, Shape![Positions, Embd]> = &wpe.narrow_dyn::<0>(0, 16) + &wpe;
    assert_eq!(whole.dims(), &[16, 8]);

    let x = Tensor::<f32, Shape![Tok, Embd]>::zeros_with(&[5, 8]).unwrap();
    let first: Tensor<f32, Shape![Tok, Embd]> = x.narrow_dyn::<0>(0, 3);
    // Stated to be this pass's positions: a rename, as the part is not `Tok`.
    let pos: Tensor<f32, Shape![Tok, Embd]> = rows.rename();
    let _sum: Tensor<f32, Shape![Tok, Embd]> = &first + &pos;

    let plain = Tensor::<f32, Shape![4, Embd]>::zeros();
    let _p: Tensor<f32, Shape![Dyn, Embd]> = plain.narrow_dyn::<0>(1, 2);
}
