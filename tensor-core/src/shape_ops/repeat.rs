//! `repeat` decomposed into reshape → expand → reshape (see ARCHITECTURE.md, "repeat"), materialised with one
//! strided copy into a fresh contiguous tensor (TensorShape.cpp `repeat`).

use crate::error::{Error, Result};
use crate::layout::{contiguous_strides, Layout};
use crate::tensor::Tensor;

/// How `repeat` is built from views: view the input as `input_shape` (the
/// input's sizes with a 1 inserted before each dim that is repeated and larger than 1),
/// expand it to `expand_sizes` (new leading dims and size-1 dims take the repeat count),
/// then read it as `output_shape` (each repeat count times its dim's size).
///
/// `input_shape` only inserts size-1 dims, so it is always a view; `expand_sizes` is the
/// shape of the one copy; `output_shape` is `repeat`'s result shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatPlan {
    /// The input viewed with size-1 dims inserted (no leading dims for new dims).
    pub input_shape: Vec<usize>,
    /// The sizes the reshaped input is expanded to.
    pub expand_sizes: Vec<usize>,
    /// The shape of the result: `repeats[i] * padded_sizes[i]`.
    pub output_shape: Vec<usize>,
}

/// The reshape → expand → reshape plan of `repeat(repeats)` for a tensor of `sizes`.
///
/// Per dim, right-aligned (size `a`, repeat `r`): a new leading dim adds `r` to the
/// expand sizes and the output; `r == 1` or `a == 0` keeps `a` everywhere; `a == 1` is
/// expanded to `r`; otherwise `[1, a]` is expanded to `[r, a]` and read as `r * a`.
///
/// # Errors
/// [`Error::RepeatDims`] when `repeats` has fewer entries than `sizes`
/// (`Number of dimensions of repeat dims can not be smaller than number of dimensions of
/// tensor`); [`Error::NegativeDimension`] when a target size `padded[i] * repeats[i]` is
/// negative (`Trying to create tensor with negative dimension -3: [4, -3]`);
/// [`Error::NumelOverflow`].
#[cfg_attr(unoptimized, inline)]
pub fn repeat_decomposition(sizes: &[usize], repeats: &[i64]) -> Result<RepeatPlan> {
    if repeats.len() < sizes.len() {
        return Err(Error::RepeatDims {
            repeats: repeats.to_vec(),
            sizes: sizes.to_vec(),
        });
    }
    let new_dims = repeats.len() - sizes.len();
    let padded: Vec<i64> = std::iter::repeat_n(1, new_dims)
        .chain(sizes.iter().map(|&s| s as i64))
        .collect();
    let mut target = Vec::with_capacity(repeats.len());
    for (&p, &r) in padded.iter().zip(repeats) {
        target.push(
            p.checked_mul(r)
                .ok_or(Error::NumelOverflow { op: "repeat" })?,
        );
    }
    if let Some(&neg) = target.iter().find(|&&t| t < 0) {
        return Err(Error::NegativeDimension {
            size: neg,
            sizes: target,
        });
    }
    let output_shape: Vec<usize> = target.iter().map(|&t| t as usize).collect();
    crate::layout::checked_numel(&output_shape, "repeat")?;
    let mut input_shape = Vec::new();
    let mut expand_sizes = Vec::new();
    for (i, &r) in repeats.iter().enumerate() {
        if i < new_dims {
            expand_sizes.push(r as usize);
            continue;
        }
        let a = sizes[i - new_dims];
        match (a, r) {
            (0, _) | (_, 1) => {
                input_shape.push(a);
                expand_sizes.push(a);
            }
            (1, r) => {
                input_shape.push(1);
                expand_sizes.push(r as usize);
            }
            (a, r) => {
                input_shape.extend([1, a]);
                expand_sizes.extend([r as usize, a]);
            }
        }
    }
    Ok(RepeatPlan {
        input_shape,
        expand_sizes,
        output_shape,
    })
}

impl Tensor {
    /// `Tensor.repeat(repeats)`: tiles the tensor `repeats[i]` times along dim `i`
    /// (`repeats` may be longer than the rank: new leading dims). Always a fresh
    /// contiguous tensor of shape `repeats[i] * padded_sizes[i]`, filled by one strided
    /// copy from the expanded view of [`repeat_decomposition`]; a zero repeat gives an
    /// empty result of that shape.
    ///
    /// # Errors
    /// As [`repeat_decomposition`].
    #[cfg_attr(unoptimized, inline)]
    pub fn repeat(&self, repeats: &[i64]) -> Result<Tensor> {
        crate::autograd::apply(
            &[self],
            || self.repeat_impl(repeats),
            |_| crate::autograd::RepeatBackward {
                sizes: self.sizes().to_vec(),
                repeats: repeats.to_vec(),
            },
        )
    }

    #[cfg_attr(unoptimized, inline)]
    fn repeat_impl(&self, repeats: &[i64]) -> Result<Tensor> {
        let plan = repeat_decomposition(self.sizes(), repeats)?;
        let output = Layout::contiguous(&plan.output_shape)?;
        if output.numel() == 0 {
            return Tensor::empty(&plan.output_shape, self.dtype());
        }
        let as_i64 = |v: &[usize]| v.iter().map(|&s| s as i64).collect::<Vec<i64>>();
        let src = self
            .view(&as_i64(&plan.input_shape))?
            .expand(&as_i64(&plan.expand_sizes))?;
        let strides = contiguous_strides(&plan.expand_sizes);
        Ok(Tensor::fresh_copy(&src, &strides, self.dtype())?.with_layout(output))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(sizes: &[usize], repeats: &[i64]) -> RepeatPlan {
        repeat_decomposition(sizes, repeats).unwrap()
    }

    #[test]
    fn seed_example_1_repeat_5_by_3() {
        let p = plan(&[5], &[3]);
        assert_eq!(p.input_shape, vec![1, 5]);
        assert_eq!(p.expand_sizes, vec![3, 5]);
        assert_eq!(p.output_shape, vec![15]);
    }

    #[test]
    fn seed_example_2_repeat_3_1_5_by_5_3_1() {
        let p = plan(&[3, 1, 5], &[5, 3, 1]);
        assert_eq!(p.input_shape, vec![1, 3, 1, 5]);
        assert_eq!(p.expand_sizes, vec![5, 3, 3, 5]);
        assert_eq!(p.output_shape, vec![15, 3, 5]);
    }

    #[test]
    fn seed_example_3_repeat_with_new_leading_dim() {
        let p = plan(&[3, 1, 5], &[2, 5, 3, 1]);
        assert_eq!(p.input_shape, vec![1, 3, 1, 5]);
        assert_eq!(p.expand_sizes, vec![2, 5, 3, 3, 5]);
        assert_eq!(p.output_shape, vec![2, 15, 3, 5]);
    }

    #[test]
    fn seed_usage_example_shape() {
        assert_eq!(
            plan(&[4, 1, 3, 5], &[2, 1, 2, 4, 1, 1]).output_shape,
            vec![2, 1, 8, 4, 3, 5]
        );
    }

    #[test]
    fn repeat_2_3_by_2_1_2_is_contiguous() {
        let x = Tensor::from_vec((0..6).map(|i| i as f32).collect(), &[2, 3]).unwrap();
        let r = x.repeat(&[2, 1, 2]).unwrap();
        assert_eq!(
            (r.sizes(), r.strides()),
            (&[2usize, 2, 6][..], &[12isize, 6, 1][..])
        );
        let row0: Vec<f64> = r.to_vec_f64().unwrap()[..6].to_vec();
        assert_eq!(row0, vec![0.0, 1.0, 2.0, 0.0, 1.0, 2.0]);
        let t = x.t().unwrap().repeat(&[1, 2]).unwrap();
        assert_eq!(t.strides(), &[4, 1]);
        assert_eq!(t.to_vec_f64().unwrap()[..4], [0.0, 3.0, 0.0, 3.0]);
    }

    #[test]
    fn zero_repeat_gives_empty_result() {
        let x = Tensor::from_vec(vec![1.0f32; 6], &[2, 3]).unwrap();
        assert_eq!(x.repeat(&[0, 2]).unwrap().sizes(), &[0, 6]);
    }

    #[test]
    fn repeat_errors_match_pytorch() {
        let x = Tensor::from_vec(vec![1.0f32; 4], &[4]).unwrap();
        assert_eq!(
            x.repeat(&[1, -3]).unwrap_err().to_string(),
            "Trying to create tensor with negative dimension -12: [1, -12]"
        );
        let y = Tensor::from_vec(vec![1.0f32; 4], &[4, 1]).unwrap();
        assert!(y
            .repeat(&[-3])
            .unwrap_err()
            .to_string()
            .contains("Number of dimensions of repeat dims can not be smaller"));
        assert_eq!(
            y.repeat(&[1, -3]).unwrap_err().to_string(),
            "Trying to create tensor with negative dimension -3: [4, -3]"
        );
    }
}
