//! Engine tests: accumulation, retain_graph, no_grad, detach, threads, version
//! counters, grad layout, in-place rebase.

use crate::autograd::no_grad;
use crate::dtype::DType;
use crate::error::Error;
use crate::tensor::Tensor;

fn leaf(v: &[f64], sizes: &[usize]) -> Tensor {
    Tensor::from_vec(v.to_vec(), sizes)
        .unwrap()
        .requires_grad_(true)
        .unwrap()
}

fn grad(t: &Tensor) -> Vec<f64> {
    t.grad().expect("a grad").to_vec::<f64>().unwrap()
}

fn sum(t: &Tensor) -> Tensor {
    t.sum(&[], false).unwrap()
}

#[test]
fn grads_accumulate_across_two_backward_calls() {
    let w = leaf(&[1.0, 2.0], &[2]);
    for _ in 0..2 {
        sum(&w.mul(&w).unwrap()).backward().unwrap();
    }
    assert_eq!(grad(&w), vec![4.0, 8.0]);
    let mut w = w;
    w.set_grad(None).unwrap();
    assert!(w.grad().is_none());
    sum(&w).backward().unwrap();
    assert_eq!(grad(&w), vec![1.0, 1.0]);
}

#[test]
fn diamond_graph_sums_both_paths() {
    // y = x*x + x: dy/dx = 2x + 1.
    let x = leaf(&[3.0], &[1]);
    let y = x.mul(&x).unwrap().add(&x).unwrap();
    sum(&y).backward().unwrap();
    assert_eq!(grad(&x), vec![7.0]);
}

#[test]
fn retain_graph_allows_a_second_backward_then_the_graph_is_freed() {
    let x = leaf(&[4.0], &[1]);
    let s = sum(&x.sqrt().unwrap());
    s.backward_opts(None, true).unwrap();
    s.backward_opts(None, false).unwrap();
    assert_eq!(grad(&x), vec![0.5]);
    let e = s.backward().unwrap_err();
    assert_eq!(e, Error::SavedTensorFreed);
    assert!(e
        .to_string()
        .starts_with("Trying to backward through the graph a second time"));
}

#[test]
fn graph_without_saved_tensors_runs_twice_as_pytorch() {
    let x = leaf(&[1.0, 2.0], &[2]);
    let s = sum(&x.add(&x).unwrap());
    s.backward().unwrap();
    s.backward().unwrap();
    assert_eq!(grad(&x), vec![4.0, 4.0]);
}

#[test]
fn no_grad_records_nothing() {
    let x = leaf(&[1.0], &[1]);
    let y = no_grad(|| x.mul_scalar(2.0).unwrap());
    assert!(!y.requires_grad() && y.is_leaf());
    assert_eq!(sum(&y).backward().unwrap_err(), Error::NoGradFn);
    let _g = crate::autograd::NoGradGuard::new();
    assert!(!crate::autograd::is_grad_enabled());
    assert!(!x.exp().unwrap().requires_grad());
}

#[test]
fn detach_shares_storage_and_version_but_not_the_graph() {
    let x = leaf(&[1.0, 2.0], &[2]);
    let y = x.mul_scalar(3.0).unwrap();
    let d = y.detach();
    assert!(!d.requires_grad() && d.is_leaf() && d.shares_storage(&y));
    assert_eq!(y.grad_fn_name(), Some("MulBackward0"));
    let v = y.version();
    d.add_scalar_(1.0).unwrap();
    assert_eq!(y.version(), v + 1);
}

#[test]
fn in_place_on_a_leaf_that_requires_grad_is_an_error_unless_no_grad() {
    let x = leaf(&[1.0], &[1]);
    assert_eq!(x.mul_scalar_(2.0).unwrap_err(), Error::LeafInplace);
    assert_eq!(
        x.copy_(&Tensor::ones(&[1], DType::F64).unwrap())
            .unwrap_err(),
        Error::LeafInplace
    );
    no_grad(|| x.mul_scalar_(2.0)).unwrap();
    assert_eq!(x.to_vec::<f64>().unwrap(), vec![2.0]);
    assert_eq!(x.version(), 1);
}

#[test]
fn modified_saved_tensor_has_pytorchs_message() {
    let x = leaf(&[1.0, 2.0], &[2]);
    let h = x.add_scalar(1.0).unwrap();
    let y = h.mul(&h).unwrap();
    h.add_scalar_(1.0).unwrap();
    let e = sum(&y).backward().unwrap_err().to_string();
    assert!(e.starts_with("one of the variables needed for gradient computation has been modified by an inplace operation: [torch.DoubleTensor [2]], which is output 0 of Add, is at version 1; expected version 0 instead."), "{e}");
}

#[test]
fn in_place_rebase_gives_the_in_place_gradient() {
    // y = 2x (non-leaf); y *= 3 in place; d sum(y)/dx = 6.
    let x = leaf(&[1.0, 2.0], &[2]);
    let y = x.mul_scalar(2.0).unwrap();
    y.mul_scalar_(3.0).unwrap();
    assert_eq!(y.to_vec::<f64>().unwrap(), vec![6.0, 12.0]);
    sum(&y).backward().unwrap();
    assert_eq!(grad(&x), vec![6.0, 6.0]);
    // An alias handle sees the new history.
    let z = x.mul_scalar(1.0).unwrap();
    let a = z.alias();
    z.add_(&x).unwrap();
    sum(&a).backward().unwrap();
    assert_eq!(grad(&x), vec![8.0, 8.0]);
}

/// `x` = arange(12) as [3, 4] (f64), requiring grad.
fn x34() -> Tensor {
    Tensor::arange(12, DType::F64)
        .unwrap()
        .reshape(&[3, 4])
        .unwrap()
        .requires_grad_(true)
        .unwrap()
}

#[test]
fn in_place_on_base_after_a_view_was_taken_regenerates_the_views_history() {
    // y = x * 2; v = y[0:1]; y *= 3; v.sum().backward(): x.grad row 0 is 6 (PyTorch).
    let x = x34();
    let y = x.mul_scalar(2.0).unwrap();
    let v = y.narrow(0, 0, 1).unwrap();
    assert_eq!(v.grad_fn_name(), Some("SliceBackward0"));
    y.mul_scalar_(3.0).unwrap();
    assert_eq!(v.grad_fn_name(), Some("AsStridedBackward0"));
    sum(&v).backward().unwrap();
    let mut want = vec![6.0; 4];
    want.extend([0.0; 8]);
    assert_eq!(grad(&x), want);
}

#[test]
fn in_place_on_a_view_rebases_the_base_onto_copy_slices() {
    // v = y[0:1]; v.mul_(3); y.sum().backward(): rows 6, 2, 2 (PyTorch).
    let x = x34();
    let y = x.mul_scalar(2.0).unwrap();
    let v = y.narrow(0, 0, 1).unwrap();
    v.mul_scalar_(3.0).unwrap();
    assert_eq!(y.grad_fn_name(), Some("torch::autograd::CopySlices"));
    assert_eq!(v.grad_fn_name(), Some("AsStridedBackward0"));
    assert_eq!(y.to_vec::<f64>().unwrap()[..4], [0.0, 6.0, 12.0, 18.0]);
    sum(&y).backward().unwrap();
    let mut want = vec![6.0; 4];
    want.extend([2.0; 8]);
    assert_eq!(grad(&x), want);
}

#[test]
fn in_place_on_a_transposed_view_then_square_gives_8x_plus_4() {
    // y = 2x; y.t().add_(1); (y * y).sum().backward(): x.grad = 8x + 4 (PyTorch).
    let x = x34();
    let y = x.mul_scalar(2.0).unwrap();
    y.t().unwrap().add_scalar_(1.0).unwrap();
    sum(&y.mul(&y).unwrap()).backward().unwrap();
    let want: Vec<f64> = (0..12).map(|i| 8.0 * i as f64 + 4.0).collect();
    assert_eq!(grad(&x), want);
}

#[test]
fn in_place_on_a_view_of_a_view_reaches_the_root_base() {
    // y = 2x; w = y[1][1:3]; w.mul_(x[0][:2]); y.sum().backward().
    let x = x34();
    let y = x.mul_scalar(2.0).unwrap();
    let w = y.select(0, 1).unwrap().narrow(0, 1, 2).unwrap();
    let k = x.select(0, 0).unwrap().narrow(0, 0, 2).unwrap();
    w.mul_(&k).unwrap();
    sum(&y).backward().unwrap();
    // d/dx: 2 everywhere, but y[1][1:3] = 2 x[1][1:3] * x[0][0:2]: 2 * x[0][j] at
    // x[1][1 + j], plus 2 * x[1][1 + j] at x[0][j] (x[0][0] = 0, x[0][1] = 1, x[1][1] = 5,
    // x[1][2] = 6).
    let mut want = vec![2.0; 12];
    want[5] = 2.0 * 0.0;
    want[6] = 2.0 * 1.0;
    want[0] = 2.0 + 2.0 * 5.0;
    want[1] = 2.0 + 2.0 * 6.0;
    assert_eq!(grad(&x), want);
}

#[test]
fn in_place_on_a_view_of_a_leaf_is_pytorchs_error() {
    let x = leaf(&[1.0, 2.0], &[2]);
    let v = x.narrow(0, 0, 1).unwrap();
    let e = v.mul_scalar_(2.0).unwrap_err().to_string();
    assert_eq!(
        e,
        "a view of a leaf Variable that requires grad is being used in an in-place operation."
    );
}

#[test]
fn out_with_inputs_that_require_grad_is_an_error() {
    let x = leaf(&[1.0], &[1]);
    let out = Tensor::zeros(&[1], DType::F64).unwrap();
    let e = x.add_out(&x, &out).unwrap_err().to_string();
    assert!(e.contains("functions with out=... arguments don't support automatic differentiation"));
    no_grad(|| x.add_out(&x, &out)).unwrap();
}

#[test]
fn requires_grad_on_integers_and_turning_it_off_on_a_non_leaf_are_errors() {
    let i = Tensor::zeros(&[1], DType::I64).unwrap();
    assert_eq!(
        i.requires_grad_(true).unwrap_err(),
        Error::RequiresGradDType
    );
    let x = leaf(&[1.0], &[1]);
    let y = x.exp().unwrap();
    assert_eq!(
        y.requires_grad_(false).unwrap_err(),
        Error::RequiresGradNonLeaf
    );
}

#[test]
fn backward_on_non_scalar_and_with_wrong_grad_shape_are_errors() {
    let x = leaf(&[1.0, 2.0], &[2]);
    let y = x.exp().unwrap();
    assert_eq!(y.backward().unwrap_err(), Error::ImplicitGradNonScalar);
    let g = Tensor::ones(&[3], DType::F64).unwrap();
    assert_eq!(
        y.backward_with(&g).unwrap_err().to_string(),
        "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a shape of torch.Size([2])."
    );
}

#[test]
fn grad_of_a_transposed_leaf_keeps_its_strides_and_of_an_expanded_one_is_contiguous() {
    let base = Tensor::from_vec((0..6).map(f64::from).collect(), &[2, 3]).unwrap();
    let t = base.t().unwrap().detach().requires_grad_(true).unwrap();
    sum(&t.mul_scalar(2.0).unwrap()).backward().unwrap();
    assert_eq!(t.grad().unwrap().strides(), t.strides());
    let one = Tensor::ones(&[1, 3], DType::F64).unwrap();
    let e = one.expand(&[2, 3]).unwrap().requires_grad_(true).unwrap();
    sum(&e.mul_scalar(2.0).unwrap()).backward().unwrap();
    assert_eq!(e.grad().unwrap().strides(), &[3, 1]);
}

#[test]
fn broadcast_gradient_is_summed_to_the_input_shape() {
    let a = leaf(&[1.0, 2.0, 3.0], &[3]);
    let b = leaf(&[10.0, 20.0], &[2, 1]);
    sum(&a.mul(&b).unwrap()).backward().unwrap();
    assert_eq!(grad(&a), vec![30.0, 30.0, 30.0]);
    assert_eq!(grad(&b), vec![6.0, 6.0]);
    assert_eq!(b.grad().unwrap().sizes(), &[2, 1]);
}

#[test]
fn float32_leaf_gets_a_float32_grad_through_a_cast() {
    let x = Tensor::ones(&[2], DType::F32)
        .unwrap()
        .requires_grad_(true)
        .unwrap();
    let y = x.to_dtype(DType::F64).unwrap().mul_scalar(3.0).unwrap();
    sum(&y).backward().unwrap();
    let g = x.grad().unwrap();
    assert_eq!(g.dtype(), DType::F32);
    assert_eq!(g.to_vec::<f32>().unwrap(), vec![3.0, 3.0]);
}

#[test]
fn two_graphs_on_two_threads_at_once() {
    let (tx, rx) = std::sync::mpsc::channel();
    for k in 0..2 {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let x = leaf(&[k as f64 + 1.0; 4], &[4]);
            let mut ok = true;
            for _ in 0..50 {
                let _g = (k == 1).then(crate::autograd::NoGradGuard::new);
                drop(_g);
                let y = x.mul(&x).unwrap().tanh().unwrap();
                ok &= sum(&y).backward().is_ok();
            }
            tx.send((k, ok, grad(&x)[0])).unwrap();
        });
    }
    drop(tx);
    let mut seen = Vec::new();
    for _ in 0..2 {
        let (k, ok, g) = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("a thread finished in time");
        assert!(ok);
        let x = k as f64 + 1.0;
        let want = 50.0 * 2.0 * x * (1.0 - (x * x).tanh().powi(2));
        assert!((g - want).abs() < 1e-9 * want.abs().max(1.0));
        seen.push(k);
    }
    seen.sort();
    assert_eq!(seen, vec![0, 1]);
}

#[test]
fn no_grad_on_one_thread_does_not_stop_recording_on_another() {
    let _g = crate::autograd::NoGradGuard::new();
    let h = std::thread::spawn(|| {
        let x = leaf(&[1.0], &[1]);
        x.exp().unwrap().requires_grad()
    });
    assert!(h.join().unwrap());
}

#[test]
fn a_graph_100000_ops_deep_is_dropped_without_overflowing_the_stack() {
    let x = leaf(&[1.0], &[1]);
    let mut y = x.mul_scalar(1.0).unwrap();
    for _ in 0..100_000 {
        y = y.add_scalar(1.0).unwrap();
    }
    y.backward().unwrap();
    assert_eq!(grad(&x), vec![1.0]);
    drop(y);
}

#[test]
fn integer_results_do_not_require_grad() {
    let x = leaf(&[1.5, -2.0], &[2]);
    assert!(!x.to_dtype(DType::I64).unwrap().requires_grad());
    assert!(x.to_dtype(DType::F32).unwrap().requires_grad());
}

/// Splits `x` (1-d, even length) into its two halves, as a two-output op.
struct SplitBackward {
    n: usize,
}

impl crate::autograd::Node for SplitBackward {
    fn name(&self) -> &'static str {
        "SplitBackward0"
    }
    fn apply(&self, grads: &[Option<Tensor>]) -> crate::error::Result<Vec<Option<Tensor>>> {
        let z = Tensor::zeros(&[2 * self.n], DType::F64)?;
        for (i, g) in grads.iter().enumerate() {
            if let Some(g) = g {
                z.narrow(0, (i * self.n) as i64, self.n)?.copy_(g)?;
            }
        }
        Ok(vec![Some(z)])
    }
}

#[test]
fn apply_multi_gives_each_output_its_gradient_and_none_for_unused_ones() {
    let x = leaf(&[1.0, 2.0, 3.0, 4.0], &[4]);
    let halves = crate::autograd::apply_multi(
        &[&x],
        || {
            Ok(vec![
                x.narrow(0, 0, 2)?.contiguous()?,
                x.narrow(0, 2, 2)?.contiguous()?,
            ])
        },
        |_| SplitBackward { n: 2 },
    )
    .unwrap();
    assert_eq!(halves[1].grad_fn_name(), Some("SplitBackward0"));
    sum(&halves[1].mul_scalar(3.0).unwrap()).backward().unwrap();
    assert_eq!(grad(&x), vec![0.0, 0.0, 3.0, 3.0]);
    let both = halves[0].add(&halves[1]).unwrap();
    sum(&both).backward().unwrap();
    assert_eq!(grad(&x), vec![1.0, 1.0, 4.0, 4.0]);
}

#[test]
fn backward_of_a_leaf_itself_accumulates_the_given_gradient() {
    let x = leaf(&[1.0, 2.0], &[2]);
    let g = Tensor::from_vec(vec![0.5, -1.0], &[2]).unwrap();
    x.backward_with(&g).unwrap();
    assert_eq!(grad(&x), vec![0.5, -1.0]);
}

#[test]
fn modified_saved_leaf_message_names_no_producer() {
    // An optimiser-style update between forward and backward.
    let w = leaf(&[1.0, 2.0], &[2]);
    let y = w.mul(&w).unwrap();
    no_grad(|| w.sub_scalar_(0.1)).unwrap();
    let e = sum(&y).backward().unwrap_err().to_string();
    assert!(e.contains("inplace operation: [torch.DoubleTensor [2]] is at version 1; expected version 0 instead."), "{e}");
}

#[test]
fn as_strided_backward_over_overlapping_memory_is_pytorchs() {
    // x.expand(2, 3).as_strided([3], [1], 0) · [1, 10, 100]: x.grad [1, 10, 100];
    // x.unsqueeze(0).expand(2, 3).as_strided([2, 2], [1, 1], 0) · [[1, 10], [100, 1000]]:
    // x.grad [1, 110, 1000] (PyTorch 2.15).
    let x = leaf(&[0.0, 1.0, 2.0], &[3]);
    let w = Tensor::from_vec(vec![1.0f64, 10.0, 100.0], &[3]).unwrap();
    let v = x
        .expand(&[2, 3])
        .unwrap()
        .as_strided(&[3], &[1], 0)
        .unwrap();
    sum(&v.mul(&w).unwrap()).backward().unwrap();
    assert_eq!(grad(&x), vec![1.0, 10.0, 100.0]);
    let x = leaf(&[0.0, 1.0, 2.0], &[3]);
    let w = Tensor::from_vec(vec![1.0f64, 10.0, 100.0, 1000.0], &[2, 2]).unwrap();
    let b = x.unsqueeze(0).unwrap().expand(&[2, 3]).unwrap();
    let v = b.as_strided(&[2, 2], &[1, 1], 0).unwrap();
    sum(&v.mul(&w).unwrap()).backward().unwrap();
    assert_eq!(grad(&x), vec![1.0, 110.0, 1000.0]);
}

#[test]
fn a_node_returning_three_gradients_for_one_input_is_pytorchs_error() {
    struct Three;
    impl crate::autograd::Node for Three {
        fn name(&self) -> &'static str {
            "ThreeBackward"
        }
        fn apply(&self, grads: &[Option<Tensor>]) -> crate::error::Result<Vec<Option<Tensor>>> {
            Ok((0..3)
                .map(|_| grads[0].as_ref().map(Tensor::alias))
                .collect())
        }
    }
    let x = leaf(&[1.0, 2.0], &[2]);
    let y = crate::autograd::apply(&[&x], || x.mul_scalar(1.0), |_| Three).unwrap();
    let e = sum(&y).backward().unwrap_err().to_string();
    assert_eq!(
        e,
        "function ThreeBackward returned an incorrect number of gradients (expected 1, got 3)"
    );
}
