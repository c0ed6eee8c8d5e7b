// `?` on a layout! result whose annotation is wrong: the pattern and both shapes in
// one error at the pattern (not rustc's "`?` operator has incompatible types").
use tensor_typed::prelude::*;

fn main() -> Result<()> {
    let x = Tensor::<f32, Shape![Dyn, 16, 64]>::zeros_with(&[4, 16, 64])?;
    let _y: Tensor<f32, Shape![2, Dyn, 16, 32]> = layout!(x, "(g b) s e -> g b s e", g = 2)?;
    Ok(())
}
