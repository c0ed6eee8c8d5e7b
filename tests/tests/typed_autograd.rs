//! Typed autograd: `requires_grad_`, `backward` on a 0-d loss, gradients of the
//! parameter's type (static and `Dyn` dims), `no_grad`, `detach`, and
//! `#[derive(Params)]` (flat, nested, `Vec`, skipped and generic fields).

use tensor_typed::prelude::*;

/// `x.matmul(w).sum_all()` with x = [[0, 1, 2], [3, 4, 5], ...]: d/dw = xᵀ·1 (column sums
/// of x, repeated over w's columns).
#[test]
fn matmul_sum_all_gradient_has_the_parameter_type() -> Result<()> {
    let x = Tensor::<f32, Shape![4, 3]>::from_vec((0..12).map(|i| i as f32).collect(), &[4, 3])?;
    let w = Tensor::<f32, Shape![3, 2]>::ones().requires_grad_(true);
    assert!(w.requires_grad() && w.is_leaf());
    let loss = x.matmul(&w).sum_all();
    assert!(loss.requires_grad() && !loss.is_leaf());
    loss.backward()?;
    let gw: Tensor<f32, Shape![3, 2]> = w.grad().unwrap();
    assert_eq!(gw.to_vec(), vec![18.0, 18.0, 22.0, 22.0, 26.0, 26.0]);
    assert!(x.grad().is_none(), "x does not require grad");
    Ok(())
}

#[test]
fn gradients_accumulate_and_zero_grad_clears() -> Result<()> {
    let mut w = Tensor::<f32, Shape![2]>::full(3.0).requires_grad_(true);
    for _ in 0..2 {
        (&w * &w).sum_all().backward()?;
    }
    assert_eq!(w.grad().unwrap().to_vec(), vec![12.0, 12.0]);
    w.zero_grad();
    assert!(w.grad().is_none());
    w.set_grad(Some(Tensor::full(1.0)))?;
    assert_eq!(w.grad().unwrap().to_vec(), vec![1.0, 1.0]);
    w.set_grad(None)?;
    assert!(w.grad().is_none());
    Ok(())
}

#[test]
fn dyn_dims_gradient_is_the_same_dyn_type() -> Result<()> {
    let w = Tensor::<f64, Shape![Dyn, 3]>::ones_with(&[2, 3])?.requires_grad_(true);
    let loss = (&w * &w).mean_all();
    loss.backward()?;
    let g: Tensor<f64, Shape![Dyn, 3]> = w.grad().unwrap();
    assert_eq!(g.dims(), &[2, 3]);
    assert!(g.to_vec().iter().all(|&v| (v - 2.0 / 6.0).abs() < 1e-15));
    Ok(())
}

#[test]
fn backward_with_takes_the_outputs_type() -> Result<()> {
    let w = Tensor::<f32, Shape![2, 2]>::ones().requires_grad_(true);
    let y = &w * &w; // Tensor<f32, Shape![2, 2]>
    let seed = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    y.backward_with(&seed)?;
    assert_eq!(w.grad().unwrap().to_vec(), vec![2.0, 4.0, 6.0, 8.0]);
    Ok(())
}

#[test]
fn backward_opts_retains_the_graph_and_a_second_backward_fails_without() -> Result<()> {
    let w = Tensor::<f32, Shape![2]>::ones().requires_grad_(true);
    let loss = (&w * &w).sum_all();
    loss.backward_opts(None, true)?;
    loss.backward()?;
    assert_eq!(w.grad().unwrap().to_vec(), vec![4.0, 4.0]);
    let err = loss.backward().unwrap_err().to_string();
    assert!(
        err.contains("Trying to backward through the graph a second time"),
        "{err}"
    );
    Ok(())
}

#[test]
fn backward_of_a_tensor_that_does_not_require_grad_is_pytorchs_error() {
    let loss = Tensor::<f32, Shape![2]>::ones().sum_all();
    let err = loss.backward().unwrap_err().to_string();
    assert!(
        err.contains("element 0 of tensors does not require grad and does not have a grad_fn"),
        "{err}"
    );
}

#[test]
fn no_grad_records_nothing_and_detach_cuts_history() -> Result<()> {
    let w = Tensor::<f32, Shape![3]>::ones().requires_grad_(true);
    let y = no_grad(|| &w * &w);
    assert!(!y.requires_grad() && y.is_leaf());
    {
        let _guard = NoGradGuard::new();
        assert!(!(&w + &w).requires_grad());
    }
    let z = (&w * &w).detach();
    assert!(!z.requires_grad() && z.is_leaf());
    assert_eq!(z.to_vec(), vec![1.0; 3]);
    let t = (&w * &w).try_requires_grad_(false).unwrap_err().to_string();
    assert!(
        t.contains("you can only change requires_grad flags of leaf variables"),
        "{t}"
    );
    Ok(())
}

#[derive(Params)]
struct Linear {
    w: Tensor<f32, Shape![3, 2]>,
    b: Tensor<f32, Shape![2]>,
}

#[derive(Params)]
struct Mlp {
    layers: Vec<Linear>,
    head: Linear,
    #[params(skip)]
    frozen: Tensor<f32, Shape![2]>,
    hidden: usize,
    scale: Option<Tensor<f32, Shape![]>>,
}

#[derive(Params)]
struct Wrapper<M> {
    inner: M,
    steps: u64,
}

fn linear(v: f32) -> Linear {
    Linear {
        w: Tensor::full(v),
        b: Tensor::full(v + 0.5),
    }
}

#[test]
fn derive_params_visits_tensor_fields_in_order_nested_and_skips_the_rest() -> Result<()> {
    let mut m = Mlp {
        layers: vec![linear(1.0), linear(2.0)],
        head: linear(3.0),
        frozen: Tensor::zeros(),
        hidden: 7,
        scale: Some(Tensor::full(9.0)),
    };
    let firsts: Vec<f32> = m
        .params()
        .iter()
        .map(|p| p.to_vec::<f32>().unwrap()[0])
        .collect();
    assert_eq!(firsts, vec![1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 9.0]);
    assert_eq!(m.num_params(), 3 * 8 + 1);
    assert_eq!(m.hidden, 7);
    m.requires_grad_(true)?;
    assert!(m.params().iter().all(|p| p.requires_grad()));
    assert!(!m.frozen.requires_grad());
    let x = Tensor::<f32, Shape![1, 3]>::ones();
    let loss = (&x.matmul(&m.head.w) + &m.head.b).sum_all();
    loss.backward()?;
    assert_eq!(m.head.w.grad().unwrap().to_vec(), vec![1.0; 6]);
    m.zero_grad();
    assert!(m.params().iter().all(|p| p.grad().is_none()));

    let mut w = Wrapper {
        inner: linear(0.0),
        steps: 0,
    };
    assert_eq!(w.num_params(), 8);
    w.requires_grad_(true)?;
    assert!(w.inner.b.requires_grad());
    assert_eq!(w.steps, 0);
    Ok(())
}

#[derive(Params)]
struct Pair(Tensor<f32, Shape![2]>, usize, Tensor<f64, Shape![Dyn]>);

#[derive(Params)]
struct Empty;

#[test]
fn derive_params_on_tuple_and_unit_structs() -> Result<()> {
    let p = Pair(Tensor::ones(), 3, Tensor::zeros_with(&[5])?);
    assert_eq!(p.num_params(), 7);
    assert_eq!(p.1, 3);
    assert_eq!(Empty.num_params(), 0);
    Ok(())
}
