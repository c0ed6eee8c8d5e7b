//! The README's snippets, compiled (and run) so that they stay true:
//! `cargo run --release -p tensor-typed --example readme`.

use tensor_core::{DType, MemoryFormat};
use tensor_typed::prelude::*;

fn main() -> Result<(), tensor_core::Error> {
    let a = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]; // Tensor<f32, Shape![2, 3]>
    let b: Tensor<f32, Shape![3]> = tensor![10.0, 20.0, 30.0];
    let c = &a + &b; // Tensor<f32, Shape![2, 3]>
    let e = a.expand::<Shape![4, 2, 3]>(); // a view (stride 0)
    let r = a.repeat::<Shape![2, 1, 2]>(); // Tensor<f32, Shape![2, 2, 6]>
    let p = a.permute::<Axes![1, 0]>(); // Tensor<f32, Shape![3, 2]>
    let m = a.matmul(&p); // Tensor<f32, Shape![2, 2]>
    let s = a.sum::<Axes![1]>(); // Tensor<f32, Shape![2]>
    let x = Tensor::<f32, Shape![Dyn, 3]>::from_vec(vec![0.0; 15], &[5, 3])?;
    let y = &x + &b; // Tensor<f32, Shape![Dyn, 3]>
    let z: Tensor<f32, Shape![5, 3]> = x.check_shape()?; // run-time check of the Dyn dims
    let w = layout!(a, "h w -> w h"); // Tensor<f32, Shape![3, 2]>
    let q = layout!(x, "b (h d) -> b h d", h = 3); // Tensor<f32, Shape![Dyn, 3, 1]>
    let v = layout!(x, "(g b) d -> g b d", g = 5)?; // Result: splits the Dyn dim
    let logits = Tensor::<f32, Shape![Dyn, 50257]>::zeros_with(&[4, 50257])?;
    let bias: Tensor<f32, Shape![50257]> = Tensor::zeros();
    let out = &logits + &bias; // Tensor<f32, Shape![Dyn, 50257]>
    let _: Tensor<f32, Shape![5, Dyn, 3]> = v;
    let _: Tensor<f32, Shape![Dyn, 50257]> = out;
    let _: Tensor<f32, Shape![2, 2, 6]> = r;
    let _: Tensor<f32, Shape![3, 2]> = w;
    let _: Tensor<f32, Shape![Dyn, 3, 1]> = q;
    println!(
        "c = {:?}\ne = {:?}\nm = {:?}\ns = {:?}",
        c.to_vec(),
        e.dims(),
        m.to_vec(),
        s.to_vec()
    );
    println!("y = {:?}, z = {:?}", y.dims(), z.dims());

    let a = tensor_core::Tensor::rand(&[2, 3, 4, 5], 0)?
        .to_memory_format(MemoryFormat::ChannelsLast)?;
    let b = tensor_core::Tensor::rand(&[3, 4, 5], 1)?;
    let c = a.add(&b)?;
    assert_eq!(c.strides(), &[60, 1, 15, 3]);
    let s = c.sum(&[2, 3], false)?;
    assert_eq!(s.sizes(), &[2, 3]);
    let err = tensor_core::Tensor::zeros(&[2, 3], DType::F32)?
        .expand(&[2, 5])
        .unwrap_err();
    println!("{err}");
    model_ops()?;
    named_dims()?;
    einsum_section()?;
    training()
}

/// The README's "`einsum!`" section.
fn scores<B: Dim, H: Dim, S: Dim, T: Dim, E: Dim>(
    q: &Tensor<f32, Shape![B, H, S, E]>,
    k: &Tensor<f32, Shape![B, H, T, E]>,
) -> Tensor<f32, Shape![B, H, S, T]> {
    einsum!("b h s e, b h t e -> b h s t", q, k)
}

/// The README's "`einsum!`" section, run.
fn einsum_section() -> Result<(), tensor_core::Error> {
    let q = Tensor::<f32, Shape![Dyn, 2, 3, 4]>::randn_with(&[1, 2, 3, 4], 0)?;
    let s = scores(&q, &q); // [Dyn, 2, 3, 3]
    let x = Tensor::<f32, Shape![Dyn, 3]>::randn_with(&[5, 3], 1)?;
    let w = Tensor::<f32, Shape![3, 4]>::randn(2);
    let x2 = Tensor::<f32, Shape![Dyn, 4]>::randn_with(&[5, 4], 3)?;
    let y: Tensor<f32, Shape![Dyn]> = einsum!("bi,ij,bj->b", x, w, x2); // a bilinear form
    let m = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    let t = try_einsum!("i i ->", m)?; // Result: the trace
    assert_eq!(t.item()?, 5.0);
    println!("einsum: {:?} {:?}", s.dims(), y.dims());
    Ok(())
}

/// The README's "Named dims" section.
fn named_dims() -> Result<(), tensor_core::Error> {
    dims! {
        /// Rows of a batch.
        pub Batch; // a named run-time dim
        pub Seq;
        pub Heads = 4; // a named static dim
        pub HeadDim = 16;
        pub Model = Heads * HeadDim;
    }

    let x: Tensor<f32, Shape![Batch, Seq, Model]> = Tensor::zeros_with(&[2, 16, 64])?;
    let q: Tensor<f32, Shape![Batch, Heads, Seq, HeadDim]> =
        layout!(x, "b s (h d) -> b h s d", h = Heads, d = HeadDim);
    let scores = q.matmul(&q.transpose::<-2, -1>()); // [Batch, Heads, Seq, Seq]
    let o = scores.softmax::<-1>().matmul(&q); // [Batch, Heads, Seq, HeadDim]
    let y: Tensor<f32, Shape![Batch, Seq, Model]> = layout!(o, "b h s d -> b s (h d)");
    let b: Tensor<f32, Shape![64]> = Tensor::zeros();
    let z = &y + &b; // 64 written by hand unifies with Model
    let r = z.rename::<Shape![Batch, Seq, Dyn]>(); // drop or change names
    let _: &Tensor<f32, Shape![Batch, Heads, Seq, Seq]> = &scores;
    let _: &Tensor<f32, Shape![Batch, Seq, Model]> = &z;
    println!("named: {:?} -> {:?}", x.dims(), r.dims());
    Ok(())
}

/// The README's "Model ops, typed" section.
fn model_ops() -> Result<()> {
    let x = Tensor::<f32, Shape![Dyn, 16, 64]>::randn_with(&[32, 16, 64], 0)?;
    let heads = layout!(x, "b s (h d) -> b h s d", h = 4); // [Dyn, 4, 16, 16], no Result
    let scores = heads.matmul(&heads.transpose::<-2, -1>()); // [Dyn, 4, 16, 16]
    let causal = Tensor::<f32, Shape![16, 16]>::ones().tril::<0>();
    let p = scores
        .masked_fill(
            &causal.eq(&Tensor::<f32, Shape![16, 16]>::zeros()),
            f32::NEG_INFINITY,
        )
        .softmax::<-1>();
    let g: Tensor<f32, Shape![64]> = Tensor::ones();
    let y = nn::layer_norm(&x, &g, &Tensor::zeros(), 1e-5).gelu(); // [Dyn, 16, 64]
    let c = Tensor::cat::<1>((&x, &x)); // [Dyn, 32, 64]
    let img = Tensor::<f32, Shape![Dyn, 3, 28, 28]>::zeros_with(&[8, 3, 28, 28])?;
    let w: Tensor<f32, Shape![16, 3, 3, 3]> = Tensor::zeros();
    let f = img.conv2d::<1, 1, 1, 1>(&w, None).max_pool2d::<2, 2, 0>(); // [Dyn, 16, 14, 14]
    let _: Tensor<f32, Shape![Dyn, 4, 16, 16]> = p;
    let _: Tensor<f32, Shape![Dyn, 16, 64]> = y;
    let _: Tensor<f32, Shape![Dyn, 32, 64]> = c;
    let _: Tensor<f32, Shape![Dyn, 16, 14, 14]> = f;
    Ok(())
}

#[derive(Params)]
struct Mlp {
    w1: Tensor<f32, Shape![64, 32]>,
    b1: Tensor<f32, Shape![32]>,
    w2: Tensor<f32, Shape![32, 10]>,
}

impl Mlp {
    fn forward(&self, x: &Tensor<f32, Shape![Dyn, 64]>) -> Tensor<f32, Shape![Dyn, 10]> {
        (&x.matmul(&self.w1) + &self.b1).relu().matmul(&self.w2)
    }
}

/// The README's "Training" section.
fn training() -> Result<()> {
    let mut model = Mlp {
        w1: Tensor::randn(0),
        b1: Tensor::zeros(),
        w2: Tensor::randn(1),
    };
    model.requires_grad_(true)?;
    let mut opt = optim::AdamW::new(1e-3); // betas (0.9, 0.999), eps 1e-8, weight decay 0.01
    let x = Tensor::<f32, Shape![Dyn, 64]>::randn_with(&[32, 64], 2)?;
    let loss = model.forward(&x).mean_all(); // Tensor<f32, Shape![]>
    loss.backward()?; // only a 0-d tensor has backward()
    let gw: Tensor<f32, Shape![64, 32]> = model.w1.grad().unwrap();
    opt.step(&mut model)?; // in place, outside the graph
    model.zero_grad();
    let y = no_grad(|| model.forward(&x)); // no graph recorded
    assert!(!y.requires_grad() && model.w1.grad().is_none());
    println!(
        "loss = {}, |grad w1| has {} elements",
        loss.item()?,
        gw.numel()
    );
    Ok(())
}

/// The README's "SBP in the type" block: a tensor-parallel MLP with one all-reduce.
#[allow(dead_code)]
fn sbp_block(
    x: &tensor_typed::global::Global<f32, Shape![Dyn, 64], tensor_typed::global::B>,
    w1: &tensor_typed::global::Global<f32, Shape![64, 256], tensor_typed::global::S<1>>,
    w2: &tensor_typed::global::Global<f32, Shape![256, 64], tensor_typed::global::S<0>>,
) -> tensor_typed::global::Global<f32, Shape![Dyn, 64], tensor_typed::global::B> {
    use tensor_typed::global::{Global, Sum, P};
    let h = x.matmul(w1).relu(); // B·S<1> → S<1>
    let y: Global<f32, Shape![Dyn, 64], P<Sum>> = h.matmul(w2); // S<1>·S<0> → P<Sum>
    y.all_reduce() // P<Sum> → B, by name
}
