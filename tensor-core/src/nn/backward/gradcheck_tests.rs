//! Every recorded nn op against central finite differences in `f64`, as
//! `torch.autograd.gradcheck` does: random values on strided (transposed, stepped,
//! offset) inputs, a random output gradient `v`, the engine's gradients against
//! `(⟨v, f(x + h·e_i)⟩ - ⟨v, f(x - h·e_i)⟩) / 2h` for every input element.

use crate::layout::Layout;
use crate::nn::{self, GeluApproximate, Reduction};
use crate::random::mt19937::Mt19937;
use crate::random::uniform;
use crate::storage::Storage;
use crate::tensor::Tensor;

/// A differentiable input: storage values and a non-overlapping strided layout.
struct Input {
    data: Vec<f64>,
    sizes: Vec<usize>,
    strides: Vec<isize>,
    offset: usize,
}

impl Input {
    /// Random values in `[-2, 2)`, laid out as `sizes` permuted by reversing the dims
    /// (a transposed view) with storage offset 1 and a step of 2 in the last storage dim.
    fn new(rng: &mut Mt19937, sizes: &[usize]) -> Input {
        let n = sizes.len();
        // Storage dims in reverse order; innermost storage dim stepped by 2.
        let mut strides = vec![0isize; n];
        let mut s = 2isize;
        for d in 0..n {
            strides[d] = s;
            s *= sizes[d].max(1) as isize;
        }
        let len = 1 + s as usize;
        let data = (0..len).map(|_| uniform_in(rng, -2.0, 2.0)).collect();
        Input {
            data,
            sizes: sizes.to_vec(),
            strides,
            offset: 1,
        }
    }

    fn tensor(&self) -> Tensor {
        let l = Layout::checked(self.sizes.clone(), self.strides.clone(), self.offset).unwrap();
        Tensor::from_parts(
            Storage::from_vec(self.data.clone()).unwrap(),
            l,
            crate::dtype::DType::F64,
        )
        .unwrap()
    }

    /// Storage index of each logical element, row-major.
    fn positions(&self) -> Vec<usize> {
        Layout::new(self.sizes.clone(), self.strides.clone(), self.offset)
            .offsets()
            .collect()
    }
}

fn dot(a: &Tensor, v: &[f64]) -> f64 {
    a.to_vec_f64()
        .unwrap()
        .iter()
        .zip(v)
        .map(|(x, y)| x * y)
        .sum()
}

/// Checks `f` over `inputs` against finite differences.
fn gradcheck(name: &str, inputs: &[Input], f: &dyn Fn(&[Tensor]) -> crate::error::Result<Tensor>) {
    let mut rng = Mt19937::new(7);
    let leaves: Vec<Tensor> = inputs
        .iter()
        .map(|i| i.tensor().requires_grad_(true).unwrap())
        .collect();
    let y = f(&leaves).unwrap();
    let v: Vec<f64> = (0..y.numel())
        .map(|_| uniform_in(&mut rng, -1.0, 1.0))
        .collect();
    let g = Tensor::from_vec(v.clone(), y.sizes()).unwrap();
    y.backward_with(&g).unwrap();
    let h = 1e-6;
    for (k, inp) in inputs.iter().enumerate() {
        let analytic = leaves[k]
            .grad()
            .unwrap_or_else(|| panic!("{name}: no grad for input {k}"))
            .to_vec_f64()
            .unwrap();
        for (e, &pos) in inp.positions().iter().enumerate() {
            let at = |delta: f64| {
                let ts: Vec<Tensor> = inputs
                    .iter()
                    .enumerate()
                    .map(|(j, i)| {
                        if j != k {
                            return i.tensor();
                        }
                        let mut p = Input {
                            data: i.data.clone(),
                            sizes: i.sizes.clone(),
                            strides: i.strides.clone(),
                            offset: i.offset,
                        };
                        p.data[pos] += delta;
                        p.tensor()
                    })
                    .collect();
                dot(&f(&ts).unwrap(), &v)
            };
            let numeric = (at(h) - at(-h)) / (2.0 * h);
            let a = analytic[e];
            assert!(
                (a - numeric).abs() <= 1e-5 + 1e-4 * numeric.abs(),
                "{name}: input {k} element {e}: analytic {a}, numeric {numeric}"
            );
        }
    }
}

fn rng() -> Mt19937 {
    Mt19937::new(2026)
}

/// A uniform `f64` in `[from, to)`, as `torch.empty(n, dtype=torch.float64).uniform_(from,
/// to)` draws each element.
fn uniform_in(rng: &mut Mt19937, from: f64, to: f64) -> f64 {
    uniform::f64_from_bits(rng.next_u64()) * (to - from) + from
}

fn longs(v: &[i64], sizes: &[usize]) -> Tensor {
    Tensor::from_vec(v.to_vec(), sizes).unwrap()
}

#[test]
fn gradcheck_softmax_log_softmax() {
    let mut r = rng();
    for dim in [-1, 0, 1] {
        let x = [Input::new(&mut r, &[3, 4, 2])];
        gradcheck("softmax", &x, &|t| nn::softmax(&t[0], dim));
        gradcheck("log_softmax", &x, &|t| nn::log_softmax(&t[0], dim));
    }
}

#[test]
fn gradcheck_layer_norm() {
    let mut r = rng();
    let x = [
        Input::new(&mut r, &[3, 2, 4]),
        Input::new(&mut r, &[2, 4]),
        Input::new(&mut r, &[2, 4]),
    ];
    gradcheck("layer_norm", &x, &|t| {
        nn::layer_norm(&t[0], &[2, 4], Some(&t[1]), Some(&t[2]), 1e-5)
    });
    gradcheck("layer_norm (no affine)", &x[..1], &|t| {
        nn::layer_norm(&t[0], &[4], None, None, 1e-3)
    });
}

#[test]
fn gradcheck_activations() {
    let mut r = rng();
    let x = [Input::new(&mut r, &[3, 5])];
    gradcheck("gelu", &x, &|t| nn::gelu(&t[0], GeluApproximate::None));
    gradcheck("gelu tanh", &x, &|t| nn::gelu(&t[0], GeluApproximate::Tanh));
    gradcheck("silu", &x, &|t| nn::silu(&t[0]));
}

#[test]
fn gradcheck_indexing() {
    let mut r = rng();
    let w = [Input::new(&mut r, &[5, 3])];
    let idx = longs(&[0, 4, 4, 2, 0, 1], &[2, 3]);
    gradcheck("embedding", &w, &|t| nn::embedding(&idx, &t[0]));
    let i1 = longs(&[2, 0, 2], &[3]);
    gradcheck("index_select", &w, &|t| t[0].index_select(0, &i1));
    gradcheck("index_select dim 1", &w, &|t| t[0].index_select(1, &i1));
    let gi = longs(&[1, 0, 1, 2, 2, 0], &[3, 2]);
    gradcheck("gather", &w, &|t| t[0].gather(1, &gi));
    let x = [Input::new(&mut r, &[2, 3]), Input::new(&mut r, &[2, 3])];
    gradcheck("cat", &x, &|t| Tensor::cat(&[&t[0], &t[1]], 1));
    gradcheck("stack", &x, &|t| Tensor::stack(&[&t[0], &t[1]], 1));
}

#[test]
fn gradcheck_cross_entropy() {
    let mut r = rng();
    let x = [Input::new(&mut r, &[4, 3])];
    let target = longs(&[2, 0, -100, 1], &[4]);
    for red in [Reduction::Mean, Reduction::Sum, Reduction::None] {
        gradcheck("cross_entropy", &x, &|t| {
            nn::cross_entropy(&t[0], &target, red)
        });
    }
    let x3 = [Input::new(&mut r, &[2, 3, 2])];
    let t3 = longs(&[0, 2, 1, 1], &[2, 2]);
    gradcheck("cross_entropy [N, C, d]", &x3, &|t| {
        nn::cross_entropy(&t[0], &t3, Reduction::Mean)
    });
}

#[test]
fn gradcheck_conv2d() {
    let mut r = rng();
    let x = [
        Input::new(&mut r, &[2, 4, 5, 4]),
        Input::new(&mut r, &[4, 2, 3, 2]),
        Input::new(&mut r, &[4]),
    ];
    gradcheck("conv2d", &x, &|t| {
        nn::conv2d(&t[0], &t[1], Some(&t[2]), [2, 1], [1, 1], [1, 2], 2)
    });
    let y = [
        Input::new(&mut r, &[3, 4, 4]),
        Input::new(&mut r, &[2, 3, 2, 2]),
    ];
    gradcheck("conv2d unbatched", &y, &|t| {
        nn::conv2d(&t[0], &t[1], None, [1, 1], [0, 1], [1, 1], 1)
    });
}

#[test]
fn gradcheck_pools() {
    let mut r = rng();
    let x = [Input::new(&mut r, &[2, 2, 5, 4])];
    gradcheck("max_pool2d", &x, &|t| {
        nn::max_pool2d(&t[0], [3, 2], [2, 1], [1, 1])
    });
    gradcheck("avg_pool2d", &x, &|t| {
        nn::avg_pool2d(&t[0], [3, 2], [2, 1], [1, 1])
    });
}

#[test]
fn gradcheck_moments() {
    let mut r = rng();
    let x = [Input::new(&mut r, &[3, 4, 2])];
    for (dims, keepdim) in [(vec![1], false), (vec![0, 2], true), (vec![], false)] {
        gradcheck("var", &x, &|t| t[0].var(&dims, 1, keepdim));
        gradcheck("std", &x, &|t| t[0].std(&dims, 0, keepdim));
    }
}

#[test]
fn gradcheck_masks() {
    let mut r = rng();
    let x = [Input::new(&mut r, &[3, 4])];
    let mask = Tensor::from_vec(vec![true, false, false, true], &[4]).unwrap();
    gradcheck("masked_fill", &x, &|t| t[0].masked_fill(&mask, 0.5));
    gradcheck("tril", &x, &|t| t[0].tril(1));
    gradcheck("triu", &x, &|t| t[0].triu(-1));
}
