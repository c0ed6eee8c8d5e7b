use tensor_typed::prelude::*;

const VOCAB: usize = 50257;
const N_EMBD: usize = 768;

trait Config {
    type Vocab: Dim;
    type Embd: Dim;
}

struct Small;
impl Config for Small {
    type Vocab = Dim![VOCAB];
    type Embd = Dim![N_EMBD];
}

struct Model<C: Config> {
    wte: Tensor<f32, Shape![C::Vocab, C::Embd]>,
}

type Inner = Dim![4 * N_EMBD];

fn main() {
    let m = Model::<Small> { wte: Tensor::zeros() };
    let h: Tensor<f32, Shape![Dyn, 768]> = Tensor::zeros_with(&[2, 768]).unwrap();
    let logits: Tensor<f32, Shape![Dyn, 50257]> = h.matmul(&m.wte.t());
    let _next: Tensor<i64, Shape![Dyn]> = logits.argmax::<-1>();
    let up: Tensor<f32, Shape![<Small as Config>::Embd, Inner]> = Tensor::zeros();
    let _u: Tensor<f32, Shape![Dyn, 3072]> = h.matmul(&up);
    let row = h.narrow_dyn::<0>(1, 1).select::<0>(0);
    let _r: Tensor<f32, Shape![768]> = row;
}
