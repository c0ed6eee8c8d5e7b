// Every static size takes part in compile-time checks: vocabularies, merged dims and
// dims beyond 2^32, in broadcasts, matmul, reshape, repeat and layout!.
use tensor_typed::prelude::*;

fn main() -> Result<()> {
    let logits = Tensor::<f32, Shape![Dyn, 50257]>::zeros_with(&[2, 50257])?;
    let bias: Tensor<f32, Shape![50257]> = Tensor::zeros();
    let out: Tensor<f32, Shape![Dyn, 50257]> = &logits + &bias;
    let w = Tensor::<f32, Shape![768, 50257]>::zeros();
    let h = Tensor::<f32, Shape![Dyn, 768]>::zeros_with(&[2, 768])?;
    let _l: Tensor<f32, Shape![Dyn, 50257]> = h.matmul(&w);
    let _r: Tensor<f32, Shape![2, 768]> = Tensor::<f32, Shape![1536]>::zeros().reshape::<Shape![2, 768]>();
    let _p: Tensor<f32, Shape![Dyn, 100514]> = out.repeat::<Shape![1, 2]>();
    let x = Tensor::<f32, Shape![Dyn, 2048]>::zeros_with(&[1, 2048])?;
    let heads: Tensor<f32, Shape![Dyn, 16, 128]> = layout!(x, "b (h d) -> b h d", h = 16);
    let _merged: Tensor<f32, Shape![Dyn, 2048]> = layout!(heads, "b h d -> b (h d)");
    let big: Tensor<f32, Shape![Dyn, 4294967296]> = Tensor::zeros_with(&[0, 4294967296])?;
    let _b2: Tensor<f32, Shape![Dyn, 4294967296]> = &big + &Tensor::<f32, Shape![1]>::zeros();
    Ok(())
}
