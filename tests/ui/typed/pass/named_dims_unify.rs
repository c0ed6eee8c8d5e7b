// Named dims: every unification rule that must compile, with the result
// types the names flow into.
use tensor_typed::prelude::*;

mod model {
    tensor_typed::dims! {
        /// Rows of a batch.
        pub Batch;
        /// Sequence positions.
        pub Seq;
        pub Heads = 4;
        pub HeadDim = 16;
        pub Model = 4 * HeadDim;
        pub Inner = 4 * Model;
    }
}
use model::{Batch, HeadDim, Heads, Inner, Model, Seq};

fn main() -> tensor_typed::Result<()> {
    let x: Tensor<f32, Shape![Batch, Seq, Model]> = Tensor::zeros_with(&[2, 16, 64])?;

    // The same name unifies with itself (run-time sizes checked at run time).
    let y: Tensor<f32, Shape![Batch, Seq, Model]> = &x + &x;
    // A named static dim unifies with an unnamed one of its size; the name is kept.
    let b: Tensor<f32, Shape![64]> = Tensor::zeros();
    let _: Tensor<f32, Shape![Batch, Seq, Model]> = &y + &b;
    let _: Tensor<f32, Shape![Batch, Seq, Model]> = &b + &y;
    // Dyn unifies with anything.
    let d: Tensor<f32, Shape![Dyn, Dyn, Dyn]> = Tensor::zeros_with(&[2, 16, 64])?;
    let _: Tensor<f32, Shape![Batch, Seq, Model]> = &x + &d;
    // An unnamed 1 broadcasts against a name.
    let one: Tensor<f32, Shape![1, Seq, 1]> = Tensor::zeros_with(&[1, 16, 1])?;
    let _: Tensor<f32, Shape![Batch, Seq, Model]> = &x * &one;

    // layout! binds axes to the input's dims and names an axis by its size argument.
    let q = layout!(x, "b s (h d) -> b h s d", h = Heads, d = HeadDim);
    let q: Tensor<f32, Shape![Batch, Heads, Seq, HeadDim]> = q;
    let k = q.clone();
    // matmul [.., M, K] @ [.., K, N] -> [.., M, N]; transpose moves names.
    let scores: Tensor<f32, Shape![Batch, Heads, Seq, Seq]> = q.matmul(&k.transpose::<-2, -1>());
    // Elementwise ops and softmax keep names.
    let p: Tensor<f32, Shape![Batch, Heads, Seq, Seq]> = scores.mul_scalar(0.25).softmax::<-1>();
    let o: Tensor<f32, Shape![Batch, Heads, Seq, HeadDim]> = p.matmul(&q);
    // A merge is unnamed; an annotation names it at its size (or rename does, checked as
    // check_shape).
    let y: Tensor<f32, Shape![Batch, Seq, Model]> = layout!(o, "b h s d -> b s (h d)");
    let merged: Tensor<f32, Shape![Batch, Seq, 64]> = layout!(o, "b h s d -> b s (h d)");
    let back: Tensor<f32, Shape![Batch, Seq, Model]> = merged.rename();
    let _ = y;
    // rename can also drop names.
    let _: Tensor<f32, Shape![Dyn, Dyn, 64]> = back.rename();
    // check_shape binds run-time dims to names (checked at run time).
    let named: Tensor<f32, Shape![Batch, Seq, Model]> = d.check_shape()?;

    // A weight with a named static dim multiplies a hand-written 64.
    let w: Tensor<f32, Shape![64, Inner]> = Tensor::zeros();
    let up: Tensor<f32, Shape![Batch, Seq, Inner]> = named.matmul(&w);
    // Reductions drop the reduced dim; keepdim gives an unnamed 1.
    let _: Tensor<f32, Shape![Batch, Seq]> = up.sum::<Axes![2]>();
    let _: Tensor<f32, Shape![Batch, Seq, 1]> = up.sum_keepdim::<Axes![2]>();
    // unsqueeze moves names.
    let _: Tensor<f32, Shape![Batch, 1, Seq, Inner]> = up.unsqueeze::<1>();

    // cat along a named dim: the sum is unnamed; the other dims unify by name.
    let _: Tensor<f32, Shape![Batch, Dyn, Model]> = Tensor::cat::<1>((&x, &x));
    // expand a 1 to a named dim.
    let row: Tensor<f32, Shape![1, Model]> = Tensor::zeros();
    let _: Tensor<f32, Shape![Seq, Model]> = row.try_expand::<Shape![Seq, Model]>()?;

    // Names are ordinary items: a path works in Shape! and Dim!, and a dims! block in a
    // macro_rules! declares its names once per expansion (its text differs).
    let _: Tensor<f32, Shape![model::Batch, model::Seq, model::Model]> = x.clone();
    let _: Tensor<f32, (Dim![Batch], Dim![model::Seq], Dim![Model])> = x.clone();
    let _: Tensor<f32, (Batch, Seq, Model)> = x.clone();
    macro_rules! width {
        ($m:ident, $n:literal) => {
            mod $m {
                tensor_typed::dims! { pub Width = $n; }
            }
        };
    }
    width!(narrow, 8);
    width!(wide, 16);
    let _: Tensor<f32, Shape![narrow::Width]> = Tensor::zeros();
    let _: Tensor<f32, Shape![wide::Width]> = Tensor::zeros();
    assert_eq!(<narrow::Width as NamedDim>::SIZE, 8);
    assert_eq!(format!("{:?}", wide::Width), "Width (16)");
    assert_eq!(format!("{:?} {:?}", Inner, Seq), "Inner (256) Seq");

    // layer_norm over a named last dim keeps every name.
    let g: Tensor<f32, Shape![Model]> = Tensor::ones();
    let _: Tensor<f32, Shape![Batch, Seq, Model]> = nn::layer_norm(&x, &g, &g, 1e-5);
    Ok(())
}
