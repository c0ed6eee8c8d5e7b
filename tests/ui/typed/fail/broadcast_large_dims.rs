use tensor_typed::prelude::*;

fn main() -> Result<()> {
    let logits = Tensor::<f32, Shape![Dyn, 50257]>::zeros_with(&[2, 50257])?;
    let bias: Tensor<f32, Shape![50256]> = Tensor::zeros();
    let _out = &logits + &bias;
    Ok(())
}
