//! Examples checked on PyTorch 2.15 (output strides, perms, overlap verdicts, messages)
//! and the worked examples of ARCHITECTURE.md, named after the case they pin.

use super::{FastSetupType, TensorIterator, TensorIteratorConfig};
use crate::dtype::DType;
use crate::layout::Layout;
use crate::scalar::Scalar;
use crate::tensor::Tensor;
use crate::test_util::{arange_strided as strided, unravel, value_at};

fn add_strides(a: &Tensor, b: &Tensor) -> Vec<isize> {
    a.add(b).unwrap().strides().to_vec()
}

/// `a + b` by the naive index walk, with broadcasting.
fn naive_add(a: &Tensor, b: &Tensor) -> Vec<f64> {
    let shape = crate::layout::broadcast_shapes(a.sizes(), b.sizes()).unwrap();
    (0..shape.iter().product::<usize>())
        .map(|flat| {
            let idx = unravel(flat, &shape);
            value_at(a, &idx) + value_at(b, &idx)
        })
        .collect()
}

#[test]
fn channels_last_plus_contiguous_keeps_cl() {
    let cl = strided(&[2, 3, 4, 5], &[60, 1, 15, 3]);
    let ct = strided(&[3, 4, 5], &[20, 5, 1]);
    let it = TensorIterator::build(TensorIteratorConfig::binary_op(None, &cl, &ct)).unwrap();
    let e = it.explain();
    assert_eq!(e.perm, vec![1, 3, 2, 0]);
    assert_eq!(e.effective_strides[2], Some(vec![0, 20, 5, 1]));
    assert_eq!(e.output_strides, vec![vec![60, 1, 15, 3]]);
    assert_eq!(
        cl.add(&ct).unwrap().to_vec_f64().unwrap(),
        naive_add(&cl, &ct)
    );
}

#[test]
fn ambiguous_nc11_plus_contiguous_keeps_cl() {
    let cl = strided(&[2, 3, 1, 1], &[3, 1, 3, 3]);
    let ct = strided(&[3, 1, 1], &[1, 1, 1]);
    let it = TensorIterator::build(TensorIteratorConfig::binary_op(None, &cl, &ct)).unwrap();
    assert_eq!(it.fast_setup_type(), FastSetupType::None);
    assert_eq!(it.perm(), &[1, 3, 2, 0]);
    assert_eq!(it.output(0).strides(), &[3, 1, 3, 3]);
}

#[test]
fn ambiguous_nc11_plus_transposed_gives_9_1_3_3() {
    let cl = strided(&[2, 3, 1, 1], &[3, 1, 3, 3]);
    let ct = strided(&[3, 1, 3], &[1, 3, 3]);
    let it = TensorIterator::build(TensorIteratorConfig::binary_op(None, &cl, &ct)).unwrap();
    let e = it.explain();
    assert_eq!(e.effective_strides[1], Some(vec![3, 1, 3, 0]));
    assert_eq!(e.effective_strides[2], Some(vec![0, 1, 3, 3]));
    assert_eq!(e.perm, vec![1, 2, 3, 0]);
    assert_eq!(e.output_strides, vec![vec![9, 1, 3, 3]]);
    assert_eq!(
        cl.add(&ct).unwrap().to_vec_f64().unwrap(),
        naive_add(&cl, &ct)
    );
}

#[test]
fn permuted_non_dense_slice_gives_1_12_4() {
    // permute(2, 0, 1) of (2, 3, 8)[:, :, :4]: sizes (4, 2, 3), strides (1, 24, 8).
    let t = strided(&[4, 2, 3], &[1, 24, 8]);
    assert_eq!(t.neg().unwrap().strides(), &[1, 12, 4]);
    assert_eq!(t.add_scalar(1).unwrap().strides(), &[1, 12, 4]);
}

#[test]
fn expanded_x_plus_transposed_y_gives_1_4() {
    let x = strided(&[4, 3], &[1, 0]);
    let y = strided(&[4, 3], &[1, 4]);
    assert_eq!(add_strides(&x, &y), vec![1, 4]);
    assert_eq!(add_strides(&y, &x), vec![1, 4]);
    assert_eq!(x.add(&y).unwrap().to_vec_f64().unwrap(), naive_add(&x, &y));
}

#[test]
fn first_operand_wins_dense_permuted_vs_contiguous() {
    let a = strided(&[3, 4], &[1, 3]);
    let b = strided(&[3, 4], &[4, 1]);
    assert_eq!(add_strides(&a, &b), vec![1, 3]);
    assert_eq!(add_strides(&b, &a), vec![4, 1]);
}

#[test]
fn correctly_sized_out_keeps_its_strides_and_drives_order() {
    let a = strided(&[3, 4], &[4, 1]);
    let b = strided(&[3, 4], &[4, 1]);
    let out = Tensor::empty_strided(&[3, 4], &[1, 3], DType::F32).unwrap();
    let r = a.add_out(&b, &out).unwrap();
    assert_eq!(r.strides(), &[1, 3]);
    assert!(r.shares_storage(&out));
    assert_eq!(out.to_vec_f64().unwrap(), naive_add(&a, &b));
}

#[test]
fn scalar_operand_avoids_fast_setup_nc11_keeps_strides() {
    let t = Tensor::empty_strided(&[2, 3, 1, 1], &[3, 1, 3, 3], DType::F32).unwrap();
    let r = t.add_scalar(1).unwrap();
    assert_eq!(r.strides(), &[3, 1, 3, 3]);
}

#[test]
fn zero_size_permuted_gives_zero_stride() {
    // permute(2, 0, 1) of (2, 0, 3): sizes (3, 2, 0), strides (1, 3, 3).
    let t = Tensor::empty_strided(&[3, 2, 0], &[1, 3, 3], DType::F32).unwrap();
    assert_eq!(t.add_scalar(1).unwrap().strides(), &[1, 0, 3]);
}

#[test]
fn overlapping_as_strided_add_in_place_succeeds() {
    let z = Tensor::zeros(&[4], DType::F32).unwrap();
    let v = z.with_layout(Layout::new(vec![2, 3], vec![1, 1], 0));
    v.add_scalar_(1).unwrap();
    // Row 0 adds 1 to [0, 1, 2], row 1 to [1, 2, 3], in order.
    assert_eq!(z.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 2.0, 1.0]);
}

#[test]
fn out_of_wrong_shape_in_place_is_an_error() {
    let a = Tensor::zeros(&[2, 3], DType::F32).unwrap();
    let b = Tensor::zeros(&[4, 2, 3], DType::F32).unwrap();
    assert_eq!(
        a.add_(&b).unwrap_err().to_string(),
        "output with shape [2, 3] doesn't match the broadcast shape [4, 2, 3]"
    );
}

#[test]
fn float_into_long_out_is_unsafe_cast() {
    let a = Tensor::zeros(&[2], DType::F32).unwrap();
    let out = Tensor::zeros(&[2], DType::I64).unwrap();
    assert_eq!(
        a.add_out(&a, &out).unwrap_err().to_string(),
        "result type Float can't be cast to the desired output type Long"
    );
}

#[test]
fn expanded_output_is_internal_overlap() {
    let a = Tensor::zeros(&[3], DType::F32).unwrap();
    let e = a.with_layout(Layout::new(vec![2, 3], vec![0, 1], 0));
    assert!(e
        .add_scalar_(1)
        .unwrap_err()
        .to_string()
        .starts_with("unsupported operation: more than one element of the written-to tensor"));
}

#[test]
fn contiguous_operands_take_one_flat_loop() {
    let a = Tensor::zeros(&[4, 5, 6], DType::F32).unwrap();
    let it = TensorIterator::build(TensorIteratorConfig::binary_op(None, &a, &a)).unwrap();
    assert_eq!(it.fast_setup_type(), FastSetupType::Contiguous);
    assert_eq!(it.shape(), &[120]);
    assert_eq!(it.strides(1), &[4]);
}

#[test]
fn nc11_both_contiguous_and_cl_takes_contiguous_fast_setup() {
    let a = strided(&[2, 3, 1, 1], &[3, 1, 3, 3]);
    let b = strided(&[2, 3, 1, 1], &[3, 1, 1, 1]);
    let it = TensorIterator::build(TensorIteratorConfig::binary_op(None, &a, &b)).unwrap();
    assert_eq!(it.fast_setup_type(), FastSetupType::Contiguous);
    assert_eq!(it.output(0).strides(), &[3, 1, 1, 1]);
}

#[test]
fn channels_last_operands_take_cl_fast_setup() {
    let a = strided(&[2, 3, 4, 5], &[60, 1, 15, 3]);
    let it = TensorIterator::build(TensorIteratorConfig::binary_op(None, &a, &a)).unwrap();
    assert_eq!(it.fast_setup_type(), FastSetupType::ChannelsLast);
    assert_eq!(it.output(0).strides(), &[60, 1, 15, 3]);
}

#[test]
fn equal_dense_strides_take_nod_fast_setup() {
    let a = strided(&[3, 4, 5], &[1, 15, 3]);
    let it = TensorIterator::build(TensorIteratorConfig::binary_op(None, &a, &a)).unwrap();
    assert_eq!(it.fast_setup_type(), FastSetupType::NonOverlappingDense);
    assert_eq!(it.output(0).strides(), &[1, 15, 3]);
}

#[test]
fn broadcast_row_coalesces_leading_dims() {
    let a = Tensor::zeros(&[2, 3, 4], DType::F32).unwrap();
    let b = Tensor::zeros(&[4], DType::F32).unwrap();
    let it = TensorIterator::build(TensorIteratorConfig::binary_op(None, &a, &b)).unwrap();
    assert_eq!(it.perm(), &[2, 1, 0]);
    assert_eq!(it.shape(), &[4, 6]);
    assert_eq!(it.strides(2), &[4, 0]);
}

#[test]
fn wrapped_scalar_promotion_in_iterator() {
    let a = Tensor::from_vec(vec![1i8, 2], &[2]).unwrap();
    let it = TensorIterator::build(
        TensorIteratorConfig::binary_op(None, &a, &a).add_scalar_input(Scalar::Int(1000)),
    )
    .unwrap();
    assert_eq!(it.common_dtype(), Some(DType::I8));
}

#[test]
fn large_add_runs_in_parallel_chunks_correctly() {
    let n = 3 * super::GRAIN_SIZE + 17;
    let a = Tensor::from_vec((0..n).map(|x| x as f32).collect(), &[n]).unwrap();
    let r = a.add(&a).unwrap().to_vec::<f32>().unwrap();
    assert!(r.iter().enumerate().all(|(i, &v)| v == 2.0 * i as f32));
    let t = a.with_layout(Layout::new(vec![n / 7, 7], vec![1, (n / 7) as isize], 0));
    let s = t.add_scalar(1).unwrap();
    assert_eq!(s.strides(), &[1, (n / 7) as isize]);
}

#[test]
fn transposed_add_is_tiled_and_matches_naive_walk() {
    // 200 x 300 with a transposed operand: the tiled 2-D walk, split across threads.
    let (r, c) = (200usize, 300usize);
    let a = strided(&[r, c], &[1, r as isize]);
    let b = strided(&[r, c], &[c as isize, 1]);
    let it = TensorIterator::build(TensorIteratorConfig::binary_op(None, &b, &a)).unwrap();
    assert!(it.is_transposed_2d());
    assert_eq!(b.add(&a).unwrap().to_vec_f64().unwrap(), naive_add(&b, &a));
    let out = Tensor::zeros(&[r, c], DType::F32).unwrap();
    out.copy_(&a).unwrap();
    assert_eq!(out.to_vec_f64().unwrap(), a.to_vec_f64().unwrap());
    // In place on the transposed tensor itself.
    let expect = naive_add(&a, &b);
    a.add_(&b).unwrap();
    assert_eq!(a.to_vec_f64().unwrap(), expect);
}
#[test]
fn trivial_contiguous_is_the_plan_build_gives_or_declines() {
    let f = |sizes: &[usize]| Tensor::zeros(sizes, DType::F32).unwrap();
    let (a, b, out) = (f(&[4, 5]), f(&[4, 5]), f(&[4, 5]));
    let build = |out: Option<&Tensor>, x: &Tensor, y: &Tensor| {
        TensorIterator::build(TensorIteratorConfig::binary_op(out, x, y)).unwrap()
    };
    // Taken: a given output, an allocated one, the output as an input (in place), one
    // storage read twice, 1-d.
    let one = f(&[7]);
    for (o, x, y) in [
        (Some(&out), &a, &b),
        (None, &a, &b),
        (Some(&a), &a, &b),
        (Some(&out), &a, &a),
        (None, &one, &one),
    ] {
        // SAFETY: the plans are compared, never run; outputs are never read.
        let t = unsafe { TensorIterator::trivial_contiguous(o, &[x, y]) }.unwrap();
        let (t, want) = (t.expect("taken"), build(o, x, y));
        assert_eq!(t.explain(), want.explain());
        assert_eq!(t.operands[0].is_read_write, want.operands[0].is_read_write);
        assert_eq!(t.output(0).strides(), want.output(0).strides());
    }
    // Declined: broadcasting, another dtype, a transposed operand, 0-d, empty, an
    // output overlapping an input as another view.
    let ints = Tensor::zeros(&[4, 5], DType::I64).unwrap();
    let t = f(&[5, 4]).t().unwrap();
    let row = f(&[5]);
    let (scalar, empty) = (f(&[]), f(&[0, 3]));
    let view = Tensor::zeros(&[2, 4, 5], DType::F32).unwrap();
    let (first, second) = (view.select(0, 0).unwrap(), view.select(0, 1).unwrap());
    for (o, x, y) in [
        (None, &a, &row),
        (None, &a, &ints),
        (Some(&ints), &a, &b),
        (None, &a, &t),
        (None, &scalar, &scalar),
        (None, &empty, &empty),
        (Some(&first), &second, &b),
    ] {
        // SAFETY: as above.
        let t = unsafe { TensorIterator::trivial_contiguous(o, &[x, y]) }.unwrap();
        assert!(t.is_none());
    }
}

#[test]
fn a_0d_conversion_casts_as_copy_does_for_every_dtype_pair() {
    // The 0-d shortcut of `to_dtype_preserve` against the iterator's copy of a [1].
    let values = [300.7, -1.5, f64::NAN, 1e10, 0.0, 65519.0];
    for &from in &crate::dtype::ALL_DTYPES {
        for &v in &values {
            let one = Tensor::scalar_of(Scalar::Float(v), from);
            let row = one.reshape(&[1]).unwrap();
            for &to in &crate::dtype::ALL_DTYPES {
                let got = super::types_to_dtype_preserve(&one, to).unwrap();
                let want = super::types_to_dtype_preserve(&row, to).unwrap();
                assert_eq!(got.sizes(), &[] as &[usize]);
                let (g, w) = (got.to_vec_f64().unwrap()[0], want.to_vec_f64().unwrap()[0]);
                assert!(
                    g == w || (g.is_nan() && w.is_nan()),
                    "{v} {from} -> {to}: {g} vs {w}"
                );
            }
        }
    }
}

#[test]
fn explain_prints_the_cpu_capability_the_kernels_dispatch_on() {
    let a = strided(&[2, 3], &[3, 1]);
    let it = TensorIterator::build(TensorIteratorConfig::binary_op(None, &a, &a)).unwrap();
    let e = it.explain();
    assert_eq!(e.cpu_capability, crate::cpu::cpu_capability());
    let text = e.to_string();
    assert!(
        text.lines()
            .any(|l| l == format!("cpu capability:    {}", e.cpu_capability)),
        "{text}"
    );
}
