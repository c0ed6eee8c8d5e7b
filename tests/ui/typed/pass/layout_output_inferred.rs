// layout! without an annotation: the output shape is inferred (the check against an
// annotation waits for an integer literal's fallback), also when the call is chained
// into methods whose result types are computed from it.
use tensor_typed::prelude::*;
use tensor_typed::Tensor;

fn main() -> Result<()> {
    let x: Tensor<f32, Shape![2, 6]> = Tensor::zeros();
    let w: Tensor<f32, Shape![2, 5]> = Tensor::zeros();
    let y = layout!(x, "a b -> b a").matmul(&w);
    let _z = y.transpose::<0, 1>().matmul(&y);
    let d = Tensor::<f32, Shape![Dyn, 6]>::zeros_with(&[4, 6])?;
    let e = layout!(d, "(g b) s -> g b s", g = 2)?.transpose::<0, 2>();
    let _f = layout!(e, "s b g -> (s b g)");
    let _n = layout!(x, "a b -> b a").dims()[0];
    let _s = layout!(x, "a b -> b a").sum_all();
    Ok(())
}
