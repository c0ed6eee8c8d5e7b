//! The AdamW update of one parameter in one pass (`torch.optim.AdamW`'s rule).

use super::lock::with_slices;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// The hyper-parameters of one AdamW step of one parameter (`torch.optim.AdamW`'s
/// `lr`, `betas`, `eps`, `weight_decay`, `maximize`; `step` is the parameter's step
/// count after this step, from 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamWStep {
    /// Learning rate.
    pub lr: f64,
    /// `beta1`, the decay of the first moment.
    pub beta1: f64,
    /// `beta2`, the decay of the second moment.
    pub beta2: f64,
    /// Added to the denominator.
    pub eps: f64,
    /// Decoupled weight decay (the parameter is scaled by `1 - lr·weight_decay`).
    pub weight_decay: f64,
    /// Ascend instead of descend (the gradient is negated).
    pub maximize: bool,
    /// The step number, from 1 (bias corrections `1 - beta^step`).
    pub step: u64,
}

/// One AdamW step of `param` in place, with its gradient `grad` and its state
/// `exp_avg`, `exp_avg_sq` and (amsgrad) `max_exp_avg_sq`, all updated in one pass.
/// Element by element, with the same roundings as the single-tensor rule of
/// `torch.optim.AdamW` (`_single_tensor_adamw`) run as separate ops in the tensors'
/// dtype:
///
/// ```text
/// g = maximize ? -grad : grad
/// param *= 1 - lr·weight_decay
/// exp_avg = exp_avg·beta1 + (1 - beta1)·g          (lerp; the product-add fused)
/// exp_avg_sq = exp_avg_sq·beta2 + (1 - beta2)·g·g  (addcmul; fused)
/// max_exp_avg_sq = max(max_exp_avg_sq, exp_avg_sq) (amsgrad)
/// denom = sqrt(exp_avg_sq or max_exp_avg_sq) / sqrt(1 - beta2^step) + eps
/// param += -(lr / (1 - beta1^step)) · exp_avg / denom   (fused)
/// ```
///
/// All tensors must be contiguous `float32` or `float64` tensors of the same number
/// of elements, each written one in its own storage (as the optimiser's state is; the
/// gradient may share its parameter's, `p.grad = p`: it is read from a copy), and nothing may
/// require grad in grad mode (run it under [`no_grad`](crate::autograd::no_grad)).
///
/// # Errors
/// [`Error::InvalidArgument`] for other dtypes, layouts, sizes or written tensors that
/// share storage;
/// [`Error::InplaceAutograd`] / [`Error::LeafInplace`] in grad mode.
#[cfg_attr(unoptimized, inline)]
pub fn adamw_step_(
    param: &Tensor,
    grad: &Tensor,
    exp_avg: &Tensor,
    exp_avg_sq: &Tensor,
    max_exp_avg_sq: Option<&Tensor>,
    h: &AdamWStep,
) -> Result<()> {
    const OP: &str = "adamw_step_";
    let mut written = vec![param, exp_avg, exp_avg_sq];
    written.extend(max_exp_avg_sq);
    match param.dtype() {
        DType::F32 => with_slices::<f32, _>(OP, grad, &written, |g, w| adamw_f32(g, w, h)),
        DType::F64 => with_slices::<f64, _>(OP, grad, &written, |g, w| adamw_f64(g, w, h)),
        other => Err(Error::InvalidArgument {
            op: OP,
            message: format!(
                "a fused AdamW step takes Float or Double tensors, not {}",
                other.type_meta_name()
            ),
        }),
    }
}

macro_rules! adamw_kernel {
    ($name:ident, $T:ty) => {
        /// The AdamW update over slices: `w` holds param, exp_avg, exp_avg_sq and
        /// (amsgrad) max_exp_avg_sq. Compiled for the widest vectors of the CPU
        /// capability, so that `mul_add` is one instruction (the same result as a libm
        /// `fma`).
        #[cfg_attr(unoptimized, inline)]
        fn $name(grad: &[$T], w: &mut [&mut [$T]], h: &AdamWStep) {
            let t = h.step as f64;
            // Multiplying by 1 (no decay) or by -1 (maximize) is exact.
            let decay = if h.weight_decay != 0.0 {
                (1.0 - h.lr * h.weight_decay) as $T
            } else {
                1.0
            };
            let sign: $T = if h.maximize { -1.0 } else { 1.0 };
            let keep1 = (1.0 - (1.0 - h.beta1)) as $T;
            let w1 = (1.0 - h.beta1) as $T;
            let beta2 = h.beta2 as $T;
            let w2 = (1.0 - h.beta2) as $T;
            let bc2_sqrt = (1.0 - h.beta2.powf(t)).sqrt() as $T;
            let neg_step = (-(h.lr / (1.0 - h.beta1.powf(t)))) as $T;
            let eps = h.eps as $T;
            let [p, m, v, rest @ ..] = w else { return };
            let one = |g: $T, p: &mut $T, m: &mut $T, v: &mut $T, max: Option<&mut $T>| {
                let g = g * sign;
                let pi = *p * decay;
                let mi = w1.mul_add(g, *m * keep1);
                let vi = (w2 * g).mul_add(g, *v * beta2);
                *m = mi;
                *v = vi;
                let second = match max {
                    Some(mx) => {
                        // torch.maximum: NaN propagates.
                        *mx = if vi.is_nan() || vi > *mx { vi } else { *mx };
                        *mx
                    }
                    None => vi,
                };
                let denom = second.sqrt() / bc2_sqrt + eps;
                *p = neg_step.mul_add(mi / denom, pi);
            };
            let lanes = p.iter_mut().zip(m.iter_mut()).zip(v.iter_mut()).zip(grad);
            match rest.first_mut() {
                Some(max) => crate::kernels::simd::widest(
                    #[inline(always)]
                    || {
                        for ((((p, m), v), &g), mx) in lanes.zip(max.iter_mut()) {
                            one(g, p, m, v, Some(mx));
                        }
                    },
                ),
                None => crate::kernels::simd::widest(
                    #[inline(always)]
                    || {
                        for (((p, m), v), &g) in lanes {
                            one(g, p, m, v, None);
                        }
                    },
                ),
            }
        }
    };
}

adamw_kernel!(adamw_f32, f32);
adamw_kernel!(adamw_f64, f64);

#[cfg(test)]
mod tests {
    use super::*;

    fn t(v: &[f32]) -> Tensor {
        Tensor::from_vec(v.to_vec(), &[v.len()]).unwrap()
    }

    #[test]
    fn adamw_step_equals_the_unfused_ops() {
        let h = AdamWStep {
            lr: 1e-2,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.01,
            maximize: false,
            step: 3,
        };
        let (p0, g) = ([0.5f32, -1.25, 3.0, 0.0], t(&[0.1, -0.2, 0.3, 1e-9]));
        let (m0, v0) = ([0.01f32, -0.02, 0.5, 0.0], [1e-4f32, 2e-3, 0.3, 0.0]);
        let (p, m, v) = (t(&p0), t(&m0), t(&v0));
        adamw_step_(&p, &g, &m, &v, None, &h).unwrap();
        // The same rule as separate ops (the typed optimiser's unfused path).
        let (q, m2, v2) = (t(&p0), t(&m0), t(&v0));
        q.mul_scalar_(1.0 - h.lr * h.weight_decay).unwrap();
        m2.mul_scalar_(h.beta1).unwrap();
        m2.add_alpha_(&g, 1.0 - h.beta1).unwrap();
        v2.mul_scalar_(h.beta2).unwrap();
        v2.addcmul_(&g, &g, (1.0 - h.beta2).into()).unwrap();
        let denom = v2.sqrt().unwrap();
        denom.div_scalar_((1.0 - h.beta2.powi(3)).sqrt()).unwrap();
        denom.add_scalar_(h.eps).unwrap();
        let ratio = m2.div(&denom).unwrap();
        q.add_alpha_(&ratio, -(h.lr / (1.0 - h.beta1.powi(3))))
            .unwrap();
        assert_eq!(m.to_vec::<f32>().unwrap(), m2.to_vec::<f32>().unwrap());
        assert_eq!(v.to_vec::<f32>().unwrap(), v2.to_vec::<f32>().unwrap());
        assert_eq!(p.to_vec::<f32>().unwrap(), q.to_vec::<f32>().unwrap());
    }

    #[test]
    fn adamw_step_refuses_shared_storage_and_strided_state() {
        let h = AdamWStep {
            lr: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.0,
            maximize: false,
            step: 1,
        };
        let p = t(&[1.0, 2.0]);
        let g = t(&[0.1, 0.1]);
        let m = t(&[0.0, 0.0]);
        let e = adamw_step_(&p, &g, &m, &p, None, &h).unwrap_err();
        assert!(e.to_string().contains("must not share storage"), "{e}");
        let wide = Tensor::from_vec(vec![0.0f32; 4], &[4]).unwrap();
        let strided = wide.as_strided(&[2], &[2], 0).unwrap();
        let e = adamw_step_(&p, &g, &m, &strided, None, &h).unwrap_err();
        assert!(e.to_string().contains("contiguous"), "{e}");
        assert_eq!(
            p.to_vec::<f32>().unwrap(),
            vec![1.0, 2.0],
            "nothing written"
        );
    }

    #[test]
    fn adamw_step_with_a_grad_that_is_its_parameter_reads_a_copy() {
        // PyTorch accepts `p.grad = p` (its step reads the gradient before it writes).
        let h = AdamWStep {
            lr: 1e-2,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.0,
            maximize: false,
            step: 1,
        };
        let (p, m, v) = (t(&[1.0, 2.0]), t(&[0.0, 0.0]), t(&[0.0, 0.0]));
        adamw_step_(&p, &p, &m, &v, None, &h).unwrap();
        let (q, g, m2, v2) = (
            t(&[1.0, 2.0]),
            t(&[1.0, 2.0]),
            t(&[0.0, 0.0]),
            t(&[0.0, 0.0]),
        );
        adamw_step_(&q, &g, &m2, &v2, None, &h).unwrap();
        assert_eq!(p.to_vec::<f32>().unwrap(), q.to_vec::<f32>().unwrap());
        assert_eq!(m.to_vec::<f32>().unwrap(), m2.to_vec::<f32>().unwrap());
    }
}
