//! `einsum!`: the result's typed shape from the pattern and the operands' types, the
//! values of `torch.einsum` (the runtime's, itself checked against PyTorch's golden
//! cases), names kept, `Dyn` checked once at run time, generic code over `Dim`.

use tensor_typed::prelude::*;

dims! {
    pub Heads = 2;
    pub Seq;
    pub HeadDim = 4;
}

fn values<T: Element, S: tensor_typed::shape::Shape>(t: &Tensor<T, S>) -> Vec<f64> {
    t.as_dyn().to_vec_f64().unwrap()
}

#[test]
fn attention_scores_match_the_runtime_einsum_and_keep_the_names() {
    let q = Tensor::<f32, Shape![1, Heads, Seq, HeadDim]>::randn_with(&[1, 2, 3, 4], 0).unwrap();
    let k = Tensor::<f32, Shape![1, Heads, Seq, HeadDim]>::randn_with(&[1, 2, 5, 4], 1).unwrap();
    let s: Tensor<f32, Shape![1, Heads, Seq, Seq]> = einsum!("b h s d, b h t d -> b h s t", q, k);
    assert_eq!(s.dims(), &[1, 2, 3, 5]);
    let want = tensor_core::Tensor::einsum("bhsd,bhtd->bhst", &[q.as_dyn(), k.as_dyn()]).unwrap();
    assert_eq!(values(&s), want.to_vec_f64().unwrap());
}

#[test]
fn compact_and_spaced_patterns_and_an_implicit_output_agree() {
    let a = Tensor::<f32, Shape![3, 4]>::randn(2);
    let b = Tensor::<f32, Shape![4, 5]>::randn(3);
    let spaced: Tensor<f32, Shape![3, 5]> = einsum!("row k, k col -> row col", a, b);
    let compact: Tensor<f32, Shape![3, 5]> = einsum!("ik,kj->ij", a, b);
    let implicit: Tensor<f32, Shape![3, 5]> = einsum!("ik,kj", a, b);
    let matmul = a.matmul(&b);
    assert_eq!(values(&spaced), values(&matmul));
    assert_eq!(values(&compact), values(&matmul));
    assert_eq!(values(&implicit), values(&matmul));
}

#[test]
fn a_repeated_label_takes_the_diagonal_and_a_missing_one_sums() {
    let m = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    let trace: Tensor<f32, Shape![]> = einsum!("i i ->", m);
    assert_eq!(trace.item().unwrap(), 5.0);
    let diag: Tensor<f32, Shape![2]> = einsum!("ii->i", m);
    assert_eq!(diag.to_vec(), vec![1.0, 4.0]);
    let rows: Tensor<f32, Shape![2]> = einsum!("ij->i", m);
    assert_eq!(rows.to_vec(), vec![3.0, 7.0]);
}

#[test]
fn bilinear_and_outer_forms_have_the_shapes_torch_gives() {
    let x = Tensor::<f32, Shape![Dyn, 3]>::randn_with(&[6, 3], 4).unwrap();
    let w = Tensor::<f32, Shape![3, 5]>::randn(5);
    let y = Tensor::<f32, Shape![Dyn, 5]>::randn_with(&[6, 5], 6).unwrap();
    let b: Tensor<f32, Shape![Dyn]> = einsum!("b i, i j, b j -> b", x, w, y);
    assert_eq!(b.dims(), &[6]);
    let outer: Tensor<f32, Shape![Dyn, 3, 5]> = einsum!("b i, b j -> b i j", x, y);
    assert_eq!(outer.dims(), &[6, 3, 5]);
}

#[test]
fn a_size_1_dim_broadcasts_over_its_label() {
    let a = Tensor::<f32, Shape![1, 3]>::ones();
    let b = Tensor::<f32, Shape![4, 3]>::ones();
    let s: Tensor<f32, Shape![4]> = einsum!("b i, b i -> b", a, b);
    assert_eq!(s.to_vec(), vec![3.0; 4]);
}

#[test]
fn dyn_dims_that_differ_are_pytorchs_run_time_error() {
    let a = Tensor::<f32, Shape![Dyn, 3]>::ones_with(&[2, 3]).unwrap();
    let b = Tensor::<f32, Shape![Dyn, 3]>::ones_with(&[5, 3]).unwrap();
    let e = try_einsum!("b i, b i -> b", a, b).unwrap_err();
    assert!(
        e.to_string()
            .contains("einsum(): subscript b has size 5 for operand 1 which does not broadcast with previously seen size 2"),
        "{e}"
    );
}

/// A generic layer: one definition for every size and name.
fn scores<B: Dim, H: Dim, S: Dim, T: Dim, E: Dim>(
    q: &Tensor<f32, Shape![B, H, S, E]>,
    k: &Tensor<f32, Shape![B, H, T, E]>,
) -> Tensor<f32, Shape![B, H, S, T]> {
    einsum!("b h s e, b h t e -> b h s t", q, k)
}

#[test]
fn generic_code_over_dim_parameters_compiles_and_runs() {
    let q = Tensor::<f32, Shape![2, Heads, 3, HeadDim]>::randn(7);
    let k = Tensor::<f32, Shape![2, Heads, Dyn, HeadDim]>::randn_with(&[2, 2, 6, 4], 8).unwrap();
    let s = scores(&q, &k);
    assert_eq!(s.dims(), &[2, 2, 3, 6]);
}

#[test]
fn gradients_flow_through_einsum() {
    let a = Tensor::<f32, Shape![2, 3]>::randn(9).requires_grad_(true);
    let b = Tensor::<f32, Shape![3]>::randn(10);
    let y: Tensor<f32, Shape![2]> = einsum!("i j, j -> i", a, b);
    y.sum_all().backward().unwrap();
    let g = a.grad().unwrap();
    let bv = b.to_vec();
    assert_eq!(g.to_vec(), [bv.clone(), bv].concat());
}
