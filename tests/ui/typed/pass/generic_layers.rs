// Code generic over its dims, with no bound but `Dim`: each function compiles once and
// runs at static, `Dyn` and named sizes. A dim met by itself unifies without its size.
use tensor_typed::arith::{DimAdd, DimMul};
use tensor_typed::prelude::*;

fn attend<B: Dim, H: Dim, S: Dim, E: Dim>(
    q: &Tensor<f32, Shape![B, H, S, E]>,
    k: &Tensor<f32, Shape![B, H, S, E]>,
    v: &Tensor<f32, Shape![B, H, S, E]>,
) -> Tensor<f32, Shape![B, H, S, E]> {
    let scores: Tensor<f32, Shape![B, H, S, S]> = q.matmul(&k.transpose::<-2, -1>());
    scores.softmax::<-1>().matmul(v)
}

// `[N, H] + [H]`, a reduction kept as a dim, elementwise ops between the same dims.
fn with_bias<N: Dim, H: Dim>(
    x: &Tensor<f32, Shape![N, H]>,
    b: &Tensor<f32, Shape![H]>,
) -> Tensor<f32, Shape![N, H]> {
    let y = x + b;
    let mean: Tensor<f32, Shape![N, 1]> = y.mean_keepdim::<Axes![1]>();
    y.sub(&mean).mul(x)
}

// A layer norm whose weight is the trailing dim, a causal mask of the same dims,
// permute, narrow and select at run-time starts.
fn norm_mix<B: Dim, T: Dim, C: Dim>(
    x: &Tensor<f32, Shape![B, T, C]>,
    w: &Tensor<f32, Shape![C]>,
    mask: &Tensor<bool, Shape![T, T]>,
) -> Tensor<f32, Shape![B, T, C]> {
    let y = tensor_typed::nn::layer_norm(x, w, w, 1e-5);
    let s: Tensor<f32, Shape![B, T, T]> = y.matmul(&y.transpose::<1, 2>()).masked_fill(mask, 0.0);
    let z: Tensor<f32, Shape![T, B, C]> = s.matmul(&y).permute::<Axes![1, 0, 2]>();
    let _: Tensor<f32, Shape![B, C]> = z.select::<0>(0);
    // A slice of `T` is `Narrowed<T>` (`T`'s name kept, if any); renamed to `Dyn` to
    // meet other dims.
    let part: Tensor<f32, (tensor_typed::bounds::Narrowed<T>, B, C)> = z.narrow_dyn::<0>(0, 1);
    let _: Tensor<f32, Shape![Dyn, B, C]> = part.rename();
    z.permute::<Axes![1, 0, 2]>()
}

// Cat off the cat dim compares `N` with `N`; the cat dim is the sum, named by `A + M`
// (the one bound it needs: `A: DimAdd<M>`).
fn cat_features<N: Dim, A: Dim + DimAdd<M>, M: Dim>(
    x: &Tensor<f32, Shape![N, A]>,
    y: &Tensor<f32, Shape![N, M]>,
) -> Tensor<f32, Shape![N, A + M]> {
    Tensor::cat::<1>((x, y))
}

// Heads split from a dim written `H * E` and merged back: `unflatten` by the dim's own
// factors, `layout!` moving and merging dims of type parameters; a dim against `Dyn`.
fn heads<B: Dim, S: Dim, H: Dim + DimMul<E>, E: Dim>(
    x: &Tensor<f32, Shape![B, S, H * E]>,
    w: &Tensor<f32, Shape![Dyn, Dyn]>,
) -> Tensor<f32, Shape![B, S, H * E]> {
    let q: Tensor<f32, Shape![B, H, S, E]> = x.unflatten::<2, H, E>().transpose::<1, 2>();
    let _: Tensor<f32, Shape![B, S, H, E]> = layout!(q, "b h s e -> b s h e");
    let _: Tensor<f32, Shape![B, H, S, Dyn]> = q.matmul(w);
    let m: Tensor<f32, Shape![B, S, H * E]> = layout!(q, "b h s e -> b s (h e)");
    let _: Tensor<f32, Shape![B, S, H, E]> = m.unflatten::<2, H, E>();
    q.transpose::<1, 2>().flatten_into::<2, Dim![H * E]>()
}

dims! {
    pub Batch;
    pub Heads = 2;
    pub Seq;
    pub HeadDim = 4;
}

fn main() -> tensor_typed::Result<()> {
    let q = Tensor::<f32, Shape![1, 2, 3, 4]>::ones();
    let _: Tensor<f32, Shape![1, 2, 3, 4]> = attend(&q, &q, &q);
    let qd = Tensor::<f32, Shape![Dyn, Dyn, Dyn, Dyn]>::ones_with(&[1, 2, 3, 4])?;
    let _: Tensor<f32, Shape![Dyn, Dyn, Dyn, Dyn]> = attend(&qd, &qd, &qd);
    let qn = Tensor::<f32, Shape![Batch, Heads, Seq, HeadDim]>::ones_with(&[1, 2, 3, 4])?;
    let _: Tensor<f32, Shape![Batch, Heads, Seq, HeadDim]> = attend(&qn, &qn, &qn);

    let x = Tensor::<f32, Shape![Seq, HeadDim]>::ones_with(&[3, 4])?;
    let _ = with_bias(&x, &Tensor::<f32, Shape![HeadDim]>::ones());
    let _ = with_bias(&Tensor::<f32, Shape![3, 4]>::ones(), &Tensor::<f32, Shape![4]>::ones());

    let h = Tensor::<f32, Shape![Batch, Seq, HeadDim]>::ones_with(&[2, 3, 4])?;
    let mask = Tensor::<bool, Shape![Seq, Seq]>::zeros_with(&[3, 3])?;
    let _ = norm_mix(&h, &Tensor::<f32, Shape![HeadDim]>::ones(), &mask);

    let a = Tensor::<f32, Shape![2, 3]>::ones();
    let b = Tensor::<f32, Shape![2, 5]>::ones();
    let _: Tensor<f32, Shape![2, 8]> = cat_features(&a, &b);

    let w = Tensor::<f32, Shape![Dyn, Dyn]>::ones_with(&[4, 4])?;
    let x = Tensor::<f32, Shape![2, 3, 8]>::ones();
    let y: Tensor<f32, Shape![2, 3, 8]> = heads::<D<2>, D<3>, D<2>, D<4>>(&x, &w);
    assert_eq!(y.to_vec(), x.to_vec());
    Ok(())
}
