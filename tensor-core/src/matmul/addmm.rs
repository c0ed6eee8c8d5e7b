//! `addmm`: `input + mat1 @ mat2` in one pass over the result, as `torch.addmm(input,
//! mat1, mat2)` (`beta = alpha = 1`). The result starts as the input broadcast to
//! `[m, n]`, and the GEMM adds the product into it (beta = 1 in BLAS terms), so a
//! layer's bias costs no second pass over its output.

use super::plan::plan;
use super::run;
use crate::dispatch_dtype;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::checked_numel;
use crate::layout::MemoryFormat;
use crate::tensor::Tensor;

impl Tensor {
    /// `self + mat1 @ mat2`, as `torch.addmm(self, mat1, mat2)` (`beta = alpha = 1`):
    /// `mat1` `[m, k]`, `mat2` `[k, n]`, `self` broadcastable to `[m, n]` (a bias `[n]`,
    /// a column `[m, 1]`, a scalar or a full `[m, n]`). The result is a fresh contiguous
    /// `[m, n]` tensor; the product is added into the broadcast `self` as the GEMM
    /// writes it (no second pass). Operands are read in place through their strides: a
    /// transposed weight `w.t()` is not copied.
    ///
    /// Gradients (`AddmmBackward0`): `self` gets the output's gradient summed to its
    /// shape, `mat1` gets `grad @ mat2ᵀ`, `mat2` gets `mat1ᵀ @ grad`.
    ///
    /// # Errors
    /// In PyTorch's order:
    /// - [`Error::InvalidArgument`]: dtypes that differ (`self and mat2 must have the
    ///   same dtype, but got Float and Double`, then `mat1 and mat2 ...`);
    /// - [`Error::MatmulShape`]: an operand that is not 2-d (`addmm: self must be a
    ///   matrix, got 3-D tensor` for `mat1`, as PyTorch words it; `addmm: mat2 must be a
    ///   matrix, got 1-D tensor`), inner dims that differ (`addmm: mat1 and mat2 shapes
    ///   cannot be multiplied (2x3 and 4x5)`);
    /// - `self` that does not expand to `[m, n]`: [`Tensor::expand`]'s errors (`The
    ///   expanded size of the tensor (5) must match the existing size (3) at
    ///   non-singleton dimension 1.  Target sizes: [2, 5].  Tensor sizes: [3]`);
    /// - [`Error::UnsupportedDType`]: bool (`"addmm_impl_cpu_" not implemented for
    ///   'Bool'`);
    /// - [`Error::NumelOverflow`], [`Error::OutOfMemory`] for the result.
    #[cfg_attr(unoptimized, inline)]
    pub fn addmm(&self, mat1: &Tensor, mat2: &Tensor) -> Result<Tensor> {
        crate::autograd::apply(
            &[self, mat1, mat2],
            || self.addmm_impl(mat1, mat2),
            |_| crate::autograd::AddmmBackward {
                input_sizes: self.sizes().to_vec(),
                mat1: mat2
                    .requires_grad()
                    .then(|| crate::autograd::SavedTensor::input(mat1)),
                mat2: mat1
                    .requires_grad()
                    .then(|| crate::autograd::SavedTensor::input(mat2)),
                need_input: self.requires_grad(),
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn addmm_impl(&self, mat1: &Tensor, mat2: &Tensor) -> Result<Tensor> {
        let same_dtype = |first: &str, t: &Tensor| {
            if t.dtype() == mat2.dtype() {
                return Ok(());
            }
            Err(Error::InvalidArgument {
                op: "addmm",
                message: format!(
                    "{first} and mat2 must have the same dtype, but got {} and {}",
                    t.dtype().scalar_type_name(),
                    mat2.dtype().scalar_type_name()
                ),
            })
        };
        same_dtype("self", self)?;
        same_dtype("mat1", mat1)?;
        for (name, t) in [("self", mat1), ("mat2", mat2)] {
            if t.dim() != 2 {
                return Err(Error::MatmulShape {
                    message: format!("addmm: {name} must be a matrix, got {}-D tensor", t.dim()),
                });
            }
        }
        let ((m, k1), (k2, n)) = (
            (mat1.sizes()[0], mat1.sizes()[1]),
            (mat2.sizes()[0], mat2.sizes()[1]),
        );
        if k1 != k2 {
            return Err(Error::MatmulShape {
                message: format!(
                    "addmm: mat1 and mat2 shapes cannot be multiplied ({m}x{k1} and {k2}x{n})"
                ),
            });
        }
        let target = [
            i64::try_from(m).map_err(|_| Error::NumelOverflow { op: "addmm" })?,
            i64::try_from(n).map_err(|_| Error::NumelOverflow { op: "addmm" })?,
        ];
        let expanded = self.expand(&target)?;
        if self.dtype() == DType::Bool {
            return Err(Error::UnsupportedDType {
                message: "\"addmm_impl_cpu_\" not implemented for 'Bool'".into(),
            });
        }
        checked_numel(&[m, n], "addmm")?;
        let init = expanded.clone(MemoryFormat::Contiguous)?;
        let plan = plan(mat1, mat2)?;
        dispatch_dtype!(self.dtype(), T, run::<T>(mat1, mat2, &plan, Some(init)))
    }
}

#[cfg(test)]
mod tests {
    use crate::dtype::DType;
    use crate::tensor::Tensor;

    /// `input` broadcast to `[m, n]` plus `a @ b`, by the definition in f64.
    fn naive(input: &Tensor, a: &Tensor, b: &Tensor) -> Vec<f64> {
        let (m, k, n) = (a.sizes()[0], a.sizes()[1], b.sizes()[1]);
        let full = input.expand(&[m as i64, n as i64]).unwrap();
        let (iv, av, bv) = (
            full.contiguous().unwrap().to_vec_f64().unwrap(),
            a.to_vec_f64().unwrap(),
            b.to_vec_f64().unwrap(),
        );
        let mut out = Vec::with_capacity(m * n);
        for i in 0..m {
            for j in 0..n {
                let s: f64 = (0..k).map(|p| av[i * k + p] * bv[p * n + j]).sum();
                out.push(iv[i * n + j] + s);
            }
        }
        out
    }

    fn close(got: &Tensor, want: &[f64], what: &str) {
        let got = got.to_vec_f64().unwrap();
        assert_eq!(got.len(), want.len(), "{what}");
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            assert!(
                (g - w).abs() <= 1e-4 * w.abs().max(1.0),
                "{what} [{i}] {g} vs {w}"
            );
        }
    }

    #[test]
    fn addmm_matches_naive_for_every_input_shape_layout_and_kernel() {
        // One row times a transposed weight (the GEMV), narrow products (the small
        // kernel), and packed products on one thread and split over the pool.
        let mut seed = 1;
        for &(m, k, n) in &[
            (1, 64, 300),
            (1, 300, 64),
            (5, 3, 17),
            (16, 16, 16),
            (33, 200, 150),
            (9, 300, 520),
        ] {
            for dtype in [DType::F32, DType::F64] {
                let rand = |sizes: &[usize], seed| {
                    Tensor::randn(sizes, seed).unwrap().to_dtype(dtype).unwrap()
                };
                let x = rand(&[m, k], seed);
                let w = rand(&[k, n], seed + 1);
                let wt = rand(&[n, k], seed + 2).t().unwrap();
                let xt = rand(&[k, m], seed + 3).t().unwrap();
                seed += 4;
                for input in [
                    rand(&[n], seed),
                    rand(&[m, 1], seed),
                    rand(&[], seed),
                    rand(&[1, n], seed),
                    rand(&[m, n], seed),
                ] {
                    for (a, b) in [(&x, &w), (&x, &wt), (&xt, &w)] {
                        let what = format!("{m}x{k}x{n} {dtype:?} input {:?}", input.sizes());
                        let got = input.addmm(a, b).unwrap();
                        assert_eq!(got.sizes(), &[m, n]);
                        assert!(got.is_contiguous());
                        close(&got, &naive(&input, a, b), &what);
                    }
                }
            }
        }
    }

    #[test]
    fn integer_and_half_addmm_match_naive() {
        let a = Tensor::from_vec(vec![1i64, -2, 3, 4, 5, -6], &[2, 3]).unwrap();
        let b = Tensor::from_vec(vec![7i64, 8, -9, 10, 11, 12], &[3, 2]).unwrap();
        let input = Tensor::from_vec(vec![100i64, -100], &[2]).unwrap();
        let got = input.addmm(&a, &b).unwrap();
        assert_eq!(got.dtype(), DType::I64);
        close(&got, &naive(&input, &a, &b), "i64");
        let h = |t: &Tensor| t.to_dtype(DType::F16).unwrap();
        let got = h(&input).addmm(&h(&a), &h(&b)).unwrap();
        assert_eq!(got.dtype(), DType::F16);
        close(&got, &naive(&input, &a, &b), "f16");
    }

    #[test]
    fn addmm_matches_pytorch_values() {
        // torch.addmm(torch.tensor([0.5, -1.25, 2.0]), a, b) and with input [[1.0], [-1.0]].
        let a = Tensor::from_vec(vec![1.5f32, -2.0, 0.25, 3.0], &[2, 2]).unwrap();
        let b = Tensor::from_vec(vec![0.1f32, 0.2, -0.3, 1.0, -0.5, 0.75], &[2, 3]).unwrap();
        let bias = Tensor::from_vec(vec![0.5f32, -1.25, 2.0], &[3]).unwrap();
        let column = Tensor::from_vec(vec![1.0f32, -1.0], &[2, 1]).unwrap();
        let torch_bias = [
            -1.350000023841858,
            0.050000011920928955,
            0.04999995231628418,
            3.5250000953674316,
            -2.700000047683716,
            4.175000190734863,
        ];
        let torch_column = [
            -0.8500000238418579,
            2.299999952316284,
            -0.9500000476837158,
            2.0250000953674316,
            -2.450000047683716,
            1.1749999523162842,
        ];
        for (input, want) in [(&bias, &torch_bias), (&column, &torch_column)] {
            let got = input.addmm(&a, &b).unwrap().to_vec_f64().unwrap();
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() <= 1e-6, "{got:?} vs {want:?}");
            }
        }
    }

    #[test]
    fn addmm_leaves_a_full_size_input_unchanged() {
        let input = Tensor::randn(&[4, 5], 3).unwrap();
        let before = input.to_vec_f64().unwrap();
        let a = Tensor::randn(&[4, 6], 4).unwrap();
        let b = Tensor::randn(&[6, 5], 5).unwrap();
        let out = input.addmm(&a, &b).unwrap();
        assert_eq!(input.to_vec_f64().unwrap(), before);
        assert!(!out.storage().same(input.storage()));
    }

    #[test]
    fn addmm_with_an_empty_inner_dim_is_the_broadcast_input() {
        let input = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]).unwrap();
        let a = Tensor::zeros(&[2, 0], DType::F32).unwrap();
        let b = Tensor::zeros(&[0, 3], DType::F32).unwrap();
        let got = input.addmm(&a, &b).unwrap();
        assert_eq!(got.sizes(), &[2, 3]);
        assert_eq!(got.to_vec_f64().unwrap(), [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
    }

    #[test]
    fn addmm_errors_are_pytorchs_in_its_order() {
        let z = |sizes: &[usize]| Tensor::zeros(sizes, DType::F32).unwrap();
        let zd = |sizes: &[usize]| Tensor::zeros(sizes, DType::F64).unwrap();
        let err =
            |input: &Tensor, a: &Tensor, b: &Tensor| input.addmm(a, b).unwrap_err().to_string();
        let cases = [
            (err(&z(&[5]), &z(&[2, 3]), &zd(&[4, 5])), "self and mat2 must have the same dtype, but got Float and Double"),
            (err(&zd(&[5]), &z(&[2, 4]), &z(&[4, 5])), "self and mat2 must have the same dtype, but got Double and Float"),
            (err(&z(&[5]), &zd(&[2, 4]), &z(&[4, 5])), "mat1 and mat2 must have the same dtype, but got Double and Float"),
            (err(&z(&[5]), &z(&[2, 3, 4]), &z(&[4])), "addmm: self must be a matrix, got 3-D tensor"),
            (err(&z(&[1, 2, 5]), &z(&[2, 4]), &z(&[4])), "addmm: mat2 must be a matrix, got 1-D tensor"),
            (err(&z(&[3]), &z(&[2, 3]), &z(&[4, 5])), "addmm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"),
            (err(&z(&[3]), &z(&[2, 4]), &z(&[4, 5])), "The expanded size of the tensor (5) must match the existing size (3) at non-singleton dimension 1.  Target sizes: [2, 5].  Tensor sizes: [3]"),
        ];
        for (got, want) in cases {
            assert!(got.contains(want), "{got:?} should contain {want:?}");
        }
        let b = |sizes: &[usize]| Tensor::zeros(sizes, DType::Bool).unwrap();
        assert_eq!(
            err(&b(&[5]), &b(&[2, 4]), &b(&[4, 5])),
            "\"addmm_impl_cpu_\" not implemented for 'Bool'"
        );
    }

    #[test]
    fn addmm_gradients_are_the_products_and_the_summed_output_gradient() {
        let input = Tensor::randn(&[3], 1)
            .unwrap()
            .requires_grad_(true)
            .unwrap();
        let a = Tensor::randn(&[2, 4], 2)
            .unwrap()
            .requires_grad_(true)
            .unwrap();
        let b = Tensor::randn(&[4, 3], 3)
            .unwrap()
            .requires_grad_(true)
            .unwrap();
        let y = input.addmm(&a, &b).unwrap();
        assert_eq!(y.grad_fn_name(), Some("AddmmBackward0"));
        let g = Tensor::randn(&[2, 3], 4).unwrap();
        y.backward_with(&g).unwrap();
        let want_input = g.sum(&[0], false).unwrap().to_vec_f64().unwrap();
        let want_a = g
            .matmul(&b.detach().t().unwrap())
            .unwrap()
            .to_vec_f64()
            .unwrap();
        let want_b = a
            .detach()
            .t()
            .unwrap()
            .matmul(&g)
            .unwrap()
            .to_vec_f64()
            .unwrap();
        for (t, want) in [(&input, want_input), (&a, want_a), (&b, want_b)] {
            let got = t.grad().unwrap().to_vec_f64().unwrap();
            for (x, w) in got.iter().zip(&want) {
                assert!((x - w).abs() <= 1e-5, "{got:?} vs {want:?}");
            }
        }
    }
}
