//! gradcheck: for every differentiable op of the runtime, the analytic gradient that
//! `backward` computes equals central finite differences in float64 (as
//! `torch.autograd.gradcheck`: `|analytic - numeric| <= atol + rtol |numeric|`), on
//! random shapes (broadcasting where the op broadcasts) and strided leaves
//! (contiguous, transposed, every other element of a larger storage). Seeded and
//! small: every case runs a few draws of a few dozen elements.
//!
//! The table is [`CASES`]: an op is one entry (a name, a generator of its inputs, the
//! call). Add model ops by appending entries.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use tensor_core::nn::{self, GeluApproximate, Reduction};
use tensor_core::{no_grad, BinaryOp, DType, MemoryFormat, Result, Scalar, Tensor, UnaryOp};

const EPS: f64 = 1e-6;
const ATOL: f64 = 1e-5;
const RTOL: f64 = 1e-3;
const DRAWS: u64 = 6;

/// An input of a case: differentiable values (row-major) of some sizes, drawn from a
/// domain, or a fixed tensor (a condition, an index) that takes no gradient.
enum Arg {
    Diff { sizes: Vec<usize>, values: Vec<f64> },
    Fixed(Tensor),
}

/// Where the random values of a differentiable input lie.
#[derive(Clone, Copy)]
enum Domain {
    /// Uniform in [-2, 2].
    Any,
    /// Uniform in [0.5, 2] (log, sqrt, pow with fractional exponents).
    Positive,
    /// |x| in [0.2, 2] with a random sign (abs, relu: away from the kink).
    AwayFromZero,
    /// Distinct values spaced by at least 0.1 (max, min, amax: no ties).
    Distinct,
}

fn values(rng: &mut ChaCha8Rng, n: usize, d: Domain) -> Vec<f64> {
    match d {
        Domain::Any => (0..n).map(|_| rng.random_range(-2.0..2.0)).collect(),
        Domain::Positive => (0..n).map(|_| rng.random_range(0.5..2.0)).collect(),
        Domain::AwayFromZero => (0..n)
            .map(|_| {
                let m = rng.random_range(0.2..2.0);
                if rng.random_bool(0.5) {
                    m
                } else {
                    -m
                }
            })
            .collect(),
        Domain::Distinct => {
            // A random permutation of an evenly spaced grid, jittered a little.
            let mut v: Vec<f64> = (0..n)
                .map(|i| -1.5 + 0.2 * i as f64 + rng.random_range(0.0..0.05))
                .collect();
            for i in (1..n).rev() {
                v.swap(i, rng.random_range(0..=i));
            }
            v
        }
    }
}

fn diff(rng: &mut ChaCha8Rng, sizes: &[usize], d: Domain) -> Arg {
    let n = sizes.iter().product();
    Arg::Diff {
        sizes: sizes.to_vec(),
        values: values(rng, n, d),
    }
}

/// Random sizes: `ndim` dims of 1 to 4.
fn shape(rng: &mut ChaCha8Rng, ndim: usize) -> Vec<usize> {
    (0..ndim).map(|_| rng.random_range(1..=4)).collect()
}

/// `sizes` with some dims set to 1 and maybe the leading dim dropped: a shape that
/// broadcasts to `sizes`.
fn broadcastable(rng: &mut ChaCha8Rng, sizes: &[usize]) -> Vec<usize> {
    let mut s: Vec<usize> = sizes
        .iter()
        .map(|&x| if rng.random_bool(0.3) { 1 } else { x })
        .collect();
    if !s.is_empty() && rng.random_bool(0.3) {
        s.remove(0);
    }
    s
}

/// How a differentiable leaf sits in its storage.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Contiguous,
    /// Dims reversed in memory (non-contiguous, dense).
    Transposed,
    /// Every other element of the last dim, from offset 1 (not dense).
    Strided,
}

/// A tensor of `sizes` holding `values` (row-major) laid out as `kind`.
fn build(sizes: &[usize], values: &[f64], kind: Kind) -> Tensor {
    let t = Tensor::from_vec(values.to_vec(), sizes).unwrap();
    let nd = sizes.len() as i64;
    match kind {
        Kind::Contiguous => t,
        Kind::Transposed if nd >= 2 => {
            let rev: Vec<i64> = (0..nd).rev().collect();
            t.permute(&rev)
                .unwrap()
                .contiguous()
                .unwrap()
                .permute(&rev)
                .unwrap()
        }
        Kind::Strided if nd >= 1 => {
            let mut big = sizes.to_vec();
            let last = big.len() - 1;
            big[last] = 2 * big[last] + 1;
            let b = Tensor::zeros(&big, DType::F64).unwrap();
            let v = b.slice(nd - 1, Some(1), None, 2).unwrap();
            v.copy_(&t).unwrap();
            v
        }
        _ => t,
    }
}

/// One op of the table.
struct Case<'a> {
    name: &'a str,
    inputs: &'a dyn Fn(&mut ChaCha8Rng) -> Vec<Arg>,
    f: &'a dyn Fn(&[Tensor]) -> Result<Tensor>,
}

fn one(rng: &mut ChaCha8Rng, d: Domain) -> Vec<Arg> {
    let nd = rng.random_range(0..=3);
    let s = shape(rng, nd);
    vec![diff(rng, &s, d)]
}

fn two_broadcast(rng: &mut ChaCha8Rng, d: Domain) -> Vec<Arg> {
    let nd = rng.random_range(1..=3);
    let s = shape(rng, nd);
    let t = broadcastable(rng, &s);
    let (a, b) = if rng.random_bool(0.5) { (s, t) } else { (t, s) };
    // Distinct values across both inputs for max/min: draw them together.
    let na: usize = a.iter().product();
    let nb: usize = b.iter().product();
    let v = values(rng, na + nb, d);
    vec![
        Arg::Diff {
            sizes: a,
            values: v[..na].to_vec(),
        },
        Arg::Diff {
            sizes: b,
            values: v[na..].to_vec(),
        },
    ]
}

fn nd(rng: &mut ChaCha8Rng, lo: usize, hi: usize, d: Domain) -> Vec<Arg> {
    let n = rng.random_range(lo..=hi);
    let s = shape(rng, n);
    vec![diff(rng, &s, d)]
}

fn matmul_args(rng: &mut ChaCha8Rng) -> Vec<Arg> {
    let (m, k, n) = (
        rng.random_range(1..=4),
        rng.random_range(1..=4),
        rng.random_range(1..=4),
    );
    let (a, b): (Vec<usize>, Vec<usize>) = match rng.random_range(0..6) {
        0 => (vec![k], vec![k]),
        1 => (vec![k], vec![k, n]),
        2 => (vec![m, k], vec![k]),
        3 => (vec![m, k], vec![k, n]),
        4 => (vec![2, 1, m, k], vec![3, k, n]),
        _ => (vec![k], vec![2, k, n]),
    };
    vec![diff(rng, &a, Domain::Any), diff(rng, &b, Domain::Any)]
}

/// `addmm(input, mat1, mat2)`: `mat1` `[m, k]`, `mat2` `[k, n]` (or its transpose read
/// in place), `input` any shape that broadcasts to `[m, n]`.
fn addmm_args(rng: &mut ChaCha8Rng) -> Vec<Arg> {
    let (m, k, n) = (
        rng.random_range(1..=4),
        rng.random_range(1..=4),
        rng.random_range(1..=4),
    );
    let input = match rng.random_range(0..4) {
        0 => vec![n],
        1 => vec![m, 1],
        2 => vec![],
        _ => vec![m, n],
    };
    vec![
        diff(rng, &input, Domain::Any),
        diff(rng, &[m, k], Domain::Any),
        diff(rng, &[k, n], Domain::Any),
    ]
}

/// The einsum equations of the `einsum` case and each operand's labels' sizes:
/// contractions of 1-3 operands, a diagonal, an ellipsis, a size-1 broadcast.
const EINSUM_EQUATIONS: &[(&str, &[&[usize]])] = &[
    ("ij,jk->ik", &[&[2, 3], &[3, 4]]),
    ("bij,bjk->kbi", &[&[2, 2, 3], &[2, 3, 2]]),
    ("ij,jk,kl->il", &[&[2, 3], &[3, 2], &[2, 3]]),
    ("ii,ij->j", &[&[3, 3], &[3, 2]]),
    ("iij->ij", &[&[2, 2, 3]]),
    ("...ij,...j->...i", &[&[2, 1, 3, 2], &[4, 2]]),
    ("ij,ij->", &[&[1, 3], &[2, 3]]),
    ("i,j->ij", &[&[3], &[2]]),
];

/// The operands of one of [`EINSUM_EQUATIONS`], which is chosen by the last operand:
/// a fixed index tensor holding the equation's number.
fn einsum_args(rng: &mut ChaCha8Rng) -> Vec<Arg> {
    let which = rng.random_range(0..EINSUM_EQUATIONS.len());
    let mut args: Vec<Arg> = EINSUM_EQUATIONS[which]
        .1
        .iter()
        .map(|s| diff(rng, s, Domain::Any))
        .collect();
    args.push(Arg::Fixed(Tensor::scalar(which as i64)));
    args
}

fn einsum_of(t: &[Tensor]) -> Result<Tensor> {
    let (which, operands) = t.split_last().expect("an equation number");
    let equation = EINSUM_EQUATIONS[which.item::<i64>()? as usize].0;
    let refs: Vec<&Tensor> = operands.iter().collect();
    Tensor::einsum(equation, &refs)
}

fn dims_of(t: &Tensor) -> Vec<i64> {
    // A deterministic, non-trivial choice of dims: every other dim from the last.
    (0..t.dim() as i64).rev().step_by(2).collect()
}

const CASES: &[Case<'static>] = &[
    Case {
        name: "add_alpha",
        inputs: &|r| two_broadcast(r, Domain::Any),
        f: &|t| t[0].add_alpha(&t[1], 2.5),
    },
    Case {
        name: "sub_alpha",
        inputs: &|r| two_broadcast(r, Domain::Any),
        f: &|t| t[0].sub_alpha(&t[1], 0.5),
    },
    Case {
        name: "pow_scalar_int",
        inputs: &|r| one(r, Domain::Any),
        f: &|t| t[0].pow_scalar(3),
    },
    Case {
        name: "pow_scalar_neg",
        inputs: &|r| one(r, Domain::AwayFromZero),
        f: &|t| t[0].pow_scalar(-2),
    },
    Case {
        name: "pow_scalar_frac",
        inputs: &|r| one(r, Domain::Positive),
        f: &|t| t[0].pow_scalar(1.5),
    },
    Case {
        name: "add_scalar",
        inputs: &|r| one(r, Domain::Any),
        f: &|t| t[0].add_scalar(1.5),
    },
    Case {
        name: "sub_scalar",
        inputs: &|r| one(r, Domain::Any),
        f: &|t| t[0].sub_scalar(1.5),
    },
    Case {
        name: "mul_scalar",
        inputs: &|r| one(r, Domain::Any),
        f: &|t| t[0].mul_scalar(-1.5),
    },
    Case {
        name: "div_scalar",
        inputs: &|r| one(r, Domain::Any),
        f: &|t| t[0].div_scalar(4),
    },
    Case {
        name: "maximum_scalar",
        inputs: &|r| one(r, Domain::AwayFromZero),
        f: &|t| t[0].maximum_scalar(0.0),
    },
    Case {
        name: "minimum_scalar",
        inputs: &|r| one(r, Domain::AwayFromZero),
        f: &|t| t[0].minimum_scalar(0.0),
    },
    Case {
        name: "clamp",
        inputs: &|r| one(r, Domain::Distinct),
        f: &|t| t[0].clamp(Some(Scalar::Float(-0.55)), Some(Scalar::Float(0.75))),
    },
    Case {
        name: "clamp_min",
        inputs: &|r| one(r, Domain::Distinct),
        f: &|t| t[0].clamp(Some(Scalar::Float(-0.55)), None),
    },
    Case {
        name: "where",
        inputs: &|r| {
            let mut a = two_broadcast(r, Domain::Any);
            let Arg::Diff { sizes, .. } = &a[0] else {
                unreachable!()
            };
            let n: usize = sizes.iter().product();
            let c: Vec<bool> = (0..n).map(|_| r.random_bool(0.5)).collect();
            let cond = Tensor::from_vec(c, sizes).unwrap();
            a.insert(0, Arg::Fixed(cond));
            a
        },
        f: &|t| Tensor::where_(&t[0], &t[1], &t[2]),
    },
    Case {
        name: "addcmul",
        inputs: &|r| {
            let s = shape(r, 2);
            vec![
                diff(r, &s, Domain::Any),
                diff(r, &s, Domain::Any),
                diff(r, &s[1..], Domain::Any),
            ]
        },
        f: &|t| t[0].addcmul(&t[1], &t[2], Scalar::Float(0.5)),
    },
    Case {
        name: "sum_all",
        inputs: &|r| one(r, Domain::Any),
        f: &|t| t[0].sum(&[], false),
    },
    Case {
        name: "sum_dims",
        inputs: &|r| nd(r, 1, 4, Domain::Any),
        f: &|t| t[0].sum(&dims_of(&t[0]), false),
    },
    Case {
        name: "sum_keepdim",
        inputs: &|r| nd(r, 1, 4, Domain::Any),
        f: &|t| t[0].sum(&[-1], true),
    },
    Case {
        name: "mean_all",
        inputs: &|r| one(r, Domain::Any),
        f: &|t| t[0].mean(&[], false),
    },
    Case {
        name: "mean_dims",
        inputs: &|r| nd(r, 1, 4, Domain::Any),
        f: &|t| t[0].mean(&dims_of(&t[0]), true),
    },
    Case {
        name: "prod_dim",
        inputs: &|r| nd(r, 1, 3, Domain::AwayFromZero),
        f: &|t| t[0].prod(&[0], false),
    },
    Case {
        name: "prod_all",
        inputs: &|r| nd(r, 1, 2, Domain::AwayFromZero),
        f: &|t| t[0].prod(&[], false),
    },
    Case {
        name: "prod_with_zero",
        inputs: &|_| {
            vec![Arg::Diff {
                sizes: vec![2, 3],
                values: vec![0.0, 2.0, 3.0, 0.0, 0.0, 0.5],
            }]
        },
        f: &|t| t[0].prod(&[1], false),
    },
    Case {
        name: "amax",
        inputs: &|r| nd(r, 1, 3, Domain::Distinct),
        f: &|t| t[0].amax(&dims_of(&t[0]), false),
    },
    Case {
        name: "amin",
        inputs: &|r| nd(r, 1, 3, Domain::Distinct),
        f: &|t| t[0].amin(&[0], true),
    },
    Case {
        name: "matmul",
        inputs: &matmul_args,
        f: &|t| t[0].matmul(&t[1]),
    },
    Case {
        name: "addmm",
        inputs: &addmm_args,
        f: &|t| t[0].addmm(&t[1], &t[2]),
    },
    Case {
        name: "clone",
        inputs: &|r| one(r, Domain::Any),
        f: &|t| t[0].clone(MemoryFormat::Contiguous),
    },
    Case {
        name: "contiguous",
        inputs: &|r| nd(r, 2, 3, Domain::Any),
        f: &|t| t[0].t_or_self()?.contiguous(),
    },
    Case {
        name: "view",
        inputs: &|r| nd(r, 1, 3, Domain::Any),
        f: &|t| t[0].contiguous()?.view(&[-1]),
    },
    Case {
        name: "reshape",
        inputs: &|r| nd(r, 2, 3, Domain::Any),
        f: &|t| t[0].reshape(&[-1, 1]),
    },
    Case {
        name: "flatten",
        inputs: &|r| nd(r, 2, 4, Domain::Any),
        f: &|t| t[0].flatten(0, -1),
    },
    Case {
        name: "permute",
        inputs: &|r| nd(r, 3, 3, Domain::Any),
        f: &|t| t[0].permute(&[2, 0, 1]),
    },
    Case {
        name: "transpose",
        inputs: &|r| nd(r, 2, 4, Domain::Any),
        f: &|t| t[0].transpose(0, -1),
    },
    Case {
        name: "expand",
        inputs: &|r| {
            let s = vec![r.random_range(1..=3), 1];
            vec![diff(r, &s, Domain::Any)]
        },
        f: &|t| t[0].expand(&[2, -1, 3]),
    },
    Case {
        name: "repeat",
        inputs: &|r| nd(r, 1, 2, Domain::Any),
        f: &|t| {
            let n = t[0].dim();
            let mut rep = vec![2i64; n + 1];
            rep[n] = 3;
            t[0].repeat(&rep)
        },
    },
    Case {
        name: "narrow",
        inputs: &|r| nd(r, 1, 3, Domain::Any),
        f: &|t| {
            let n = t[0].sizes()[0];
            t[0].narrow(0, (n / 2) as i64, n - n / 2)
        },
    },
    Case {
        name: "slice_step",
        inputs: &|r| nd(r, 1, 3, Domain::Any),
        f: &|t| t[0].slice(-1, Some(0), None, 2),
    },
    Case {
        name: "select",
        inputs: &|r| nd(r, 1, 3, Domain::Any),
        f: &|t| t[0].select(0, -1),
    },
    Case {
        name: "squeeze",
        inputs: &|r| {
            let mut s = shape(r, 2);
            s.insert(1, 1);
            vec![diff(r, &s, Domain::Any)]
        },
        f: &|t| Ok(t[0].squeeze()),
    },
    Case {
        name: "squeeze_dim",
        inputs: &|r| {
            let mut s = shape(r, 2);
            s.insert(1, 1);
            vec![diff(r, &s, Domain::Any)]
        },
        f: &|t| t[0].squeeze_dim(1),
    },
    Case {
        name: "unsqueeze",
        inputs: &|r| one(r, Domain::Any),
        f: &|t| t[0].unsqueeze(0),
    },
    Case {
        name: "as_strided",
        inputs: &|r| {
            let n = r.random_range(4..=8);
            vec![diff(r, &[n], Domain::Any)]
        },
        f: &|t| t[0].contiguous()?.as_strided(&[2, 2], &[1, 2], 0),
    },
    Case {
        name: "sum_to_size",
        inputs: &|r| nd(r, 2, 3, Domain::Any),
        f: &|t| {
            let mut s = t[0].sizes().to_vec();
            s[0] = 1;
            t[0].sum_to_size(&s[1..]).or_else(|_| t[0].sum_to_size(&s))
        },
    },
    Case {
        name: "composite_mlp",
        inputs: &|r| {
            let (b, i, h) = (
                r.random_range(1..=3),
                r.random_range(1..=4),
                r.random_range(1..=4),
            );
            vec![
                diff(r, &[b, i], Domain::Any),
                diff(r, &[i, h], Domain::Any),
                diff(r, &[h], Domain::Any),
            ]
        },
        f: &|t| {
            t[0].matmul(&t[1])?
                .add(&t[2])?
                .tanh()?
                .mul(&t[0].sum(&[1], true)?)?
                .mean(&[0], false)
        },
    },
    // Model ops (tensor_core::nn and the Tensor methods beside them).
    Case {
        name: "softmax",
        inputs: &|r| nd(r, 1, 3, Domain::Any),
        f: &|t| nn::softmax(&t[0], -1),
    },
    Case {
        name: "softmax_dim0",
        inputs: &|r| nd(r, 1, 3, Domain::Any),
        f: &|t| nn::softmax(&t[0], 0),
    },
    Case {
        name: "log_softmax",
        inputs: &|r| nd(r, 1, 3, Domain::Any),
        f: &|t| nn::log_softmax(&t[0], 0),
    },
    Case {
        name: "layer_norm",
        inputs: &|r| {
            let (b, n) = (r.random_range(1..=3), r.random_range(2..=5));
            vec![
                diff(r, &[b, n], Domain::Any),
                diff(r, &[n], Domain::Any),
                diff(r, &[n], Domain::Any),
            ]
        },
        f: &|t| {
            let n = t[1].sizes()[0];
            nn::layer_norm(&t[0], &[n], Some(&t[1]), Some(&t[2]), 1e-5)
        },
    },
    Case {
        name: "layer_norm_no_affine",
        inputs: &|r| {
            let (b, m, n) = (
                r.random_range(1..=2),
                r.random_range(1..=3),
                r.random_range(2..=3),
            );
            vec![diff(r, &[b, m, n], Domain::Any)]
        },
        f: &|t| {
            let s = t[0].sizes()[1..].to_vec();
            nn::layer_norm(&t[0], &s, None, None, 1e-3)
        },
    },
    Case {
        name: "gelu",
        inputs: &|r| one(r, Domain::Any),
        f: &|t| nn::gelu(&t[0], GeluApproximate::None),
    },
    Case {
        name: "gelu_tanh",
        inputs: &|r| one(r, Domain::Any),
        f: &|t| nn::gelu(&t[0], GeluApproximate::Tanh),
    },
    Case {
        name: "silu",
        inputs: &|r| one(r, Domain::Any),
        f: &|t| nn::silu(&t[0]),
    },
    Case {
        name: "embedding",
        inputs: &|r| {
            let (v, e) = (r.random_range(2..=5), r.random_range(1..=4));
            let idx: Vec<i64> = (0..6).map(|_| r.random_range(0..v as i64)).collect();
            vec![
                diff(r, &[v, e], Domain::Any),
                Arg::Fixed(Tensor::from_vec(idx, &[2, 3]).unwrap()),
            ]
        },
        f: &|t| nn::embedding(&t[1], &t[0]),
    },
    Case {
        name: "index_select",
        inputs: &|r| {
            let s = shape(r, 2);
            let idx: Vec<i64> = (0..4).map(|_| r.random_range(0..s[1] as i64)).collect();
            vec![
                diff(r, &s, Domain::Any),
                Arg::Fixed(Tensor::from_vec(idx, &[4]).unwrap()),
            ]
        },
        f: &|t| t[0].index_select(1, &t[1]),
    },
    Case {
        name: "gather",
        inputs: &|r| {
            let s = shape(r, 2);
            let idx: Vec<i64> = (0..s[0] * 3)
                .map(|_| r.random_range(0..s[1] as i64))
                .collect();
            vec![
                diff(r, &s, Domain::Any),
                Arg::Fixed(Tensor::from_vec(idx, &[s[0], 3]).unwrap()),
            ]
        },
        f: &|t| t[0].gather(1, &t[1]),
    },
    Case {
        name: "cat",
        inputs: &|r| {
            let (a, b, c) = (
                r.random_range(1..=3),
                r.random_range(1..=3),
                r.random_range(1..=3),
            );
            vec![diff(r, &[a, b], Domain::Any), diff(r, &[a, c], Domain::Any)]
        },
        f: &|t| Tensor::cat(&[&t[0], &t[1]], 1),
    },
    Case {
        name: "stack",
        inputs: &|r| {
            let s = shape(r, 2);
            vec![diff(r, &s, Domain::Any), diff(r, &s, Domain::Any)]
        },
        f: &|t| Tensor::stack(&[&t[0], &t[1]], 1),
    },
    Case {
        name: "cross_entropy_mean",
        inputs: &|r| {
            let (n, c) = (r.random_range(1..=4), r.random_range(2..=4));
            let target: Vec<i64> = (0..n).map(|_| r.random_range(0..c as i64)).collect();
            vec![
                diff(r, &[n, c], Domain::Any),
                Arg::Fixed(Tensor::from_vec(target, &[n]).unwrap()),
            ]
        },
        f: &|t| nn::cross_entropy(&t[0], &t[1], Reduction::Mean),
    },
    Case {
        name: "cross_entropy_none_ignore",
        inputs: &|r| {
            let (n, c) = (r.random_range(2..=4), r.random_range(2..=4));
            let mut target: Vec<i64> = (0..n).map(|_| r.random_range(0..c as i64)).collect();
            target[0] = nn::IGNORE_INDEX;
            vec![
                diff(r, &[n, c], Domain::Any),
                Arg::Fixed(Tensor::from_vec(target, &[n]).unwrap()),
            ]
        },
        f: &|t| nn::cross_entropy(&t[0], &t[1], Reduction::None),
    },
    Case {
        name: "conv2d",
        inputs: &|r| {
            let (n, g) = (r.random_range(1..=2), r.random_range(1..=2));
            let (cin, cout) = (g * r.random_range(1..=2), g * r.random_range(1..=2));
            let (kh, kw) = (r.random_range(1..=3), r.random_range(1..=2));
            vec![
                diff(r, &[n, cin, 5, 4], Domain::Any),
                diff(r, &[cout, cin / g, kh, kw], Domain::Any),
                diff(r, &[cout], Domain::Any),
            ]
        },
        f: &|t| {
            let g = t[0].sizes()[1] / t[1].sizes()[1];
            nn::conv2d(&t[0], &t[1], Some(&t[2]), [2, 1], [1, 0], [1, 2], g)
        },
    },
    Case {
        name: "max_pool2d",
        inputs: &|r| {
            let c = r.random_range(1..=2);
            vec![diff(r, &[1, c, 4, 5], Domain::Distinct)]
        },
        f: &|t| nn::max_pool2d(&t[0], [2, 3], [2, 1], [1, 1]),
    },
    Case {
        name: "avg_pool2d",
        inputs: &|r| {
            let c = r.random_range(1..=2);
            vec![diff(r, &[c, 4, 5], Domain::Any)]
        },
        f: &|t| nn::avg_pool2d(&t[0], [3, 2], [1, 2], [1, 1]),
    },
    Case {
        name: "var",
        inputs: &|r| nd(r, 1, 3, Domain::Any),
        f: &|t| t[0].var(&[0], 1, false),
    },
    Case {
        name: "std",
        inputs: &|r| {
            let s = vec![r.random_range(2..=4), r.random_range(1..=3)];
            vec![diff(r, &s, Domain::Distinct)]
        },
        f: &|t| t[0].std(&[], 0, false),
    },
    Case {
        name: "masked_fill",
        inputs: &|r| {
            let s = shape(r, 2);
            let m: Vec<bool> = (0..s[1]).map(|_| r.random_bool(0.5)).collect();
            vec![
                diff(r, &s, Domain::Any),
                Arg::Fixed(Tensor::from_vec(m, &[s[1]]).unwrap()),
            ]
        },
        f: &|t| t[0].masked_fill(&t[1], -1.5),
    },
    Case {
        name: "einsum",
        inputs: &einsum_args,
        f: &einsum_of,
    },
    Case {
        name: "diagonal",
        inputs: &|r| nd(r, 2, 3, Domain::Any),
        f: &|t| t[0].diagonal(0, 0, -1),
    },
    Case {
        name: "tril",
        inputs: &|r| nd(r, 2, 3, Domain::Any),
        f: &|t| t[0].tril(0),
    },
    Case {
        name: "triu",
        inputs: &|r| nd(r, 2, 3, Domain::Any),
        f: &|t| t[0].triu(1),
    },
];

/// `t()` for 2-d, `self` otherwise (an op to make a non-contiguous input).
trait TOrSelf {
    fn t_or_self(&self) -> Result<Tensor>;
}
impl TOrSelf for Tensor {
    fn t_or_self(&self) -> Result<Tensor> {
        if self.dim() == 2 {
            self.t()
        } else {
            Ok(self.alias())
        }
    }
}

/// The inputs of one evaluation: differentiable ones built as `kinds` say.
fn tensors(args: &[Arg], kinds: &[Kind], vals: &[Vec<f64>], leaves: bool) -> Vec<Tensor> {
    let mut di = 0;
    args.iter()
        .map(|a| match a {
            Arg::Fixed(t) => t.alias(),
            Arg::Diff { sizes, .. } => {
                let t = build(sizes, &vals[di], kinds[di]).detach();
                di += 1;
                if leaves {
                    t.requires_grad_(true).unwrap()
                } else {
                    t
                }
            }
        })
        .collect()
}

/// `sum(f(inputs) * proj)` without graph.
fn loss(case: &Case, args: &[Arg], kinds: &[Kind], vals: &[Vec<f64>], proj: &[f64]) -> f64 {
    no_grad(|| {
        let t = tensors(args, kinds, vals, false);
        let out = (case.f)(&t).unwrap();
        let o = out.to_vec_f64().unwrap();
        o.iter().zip(proj).map(|(a, b)| a * b).sum()
    })
}

fn check(case: &Case, seed: u64) -> std::result::Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let args = (case.inputs)(&mut rng);
    let vals: Vec<Vec<f64>> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Diff { values, .. } => Some(values.clone()),
            Arg::Fixed(_) => None,
        })
        .collect();
    let kinds: Vec<Kind> = (0..vals.len())
        .map(|_| [Kind::Contiguous, Kind::Transposed, Kind::Strided][rng.random_range(0..3)])
        .collect();
    let leaves = tensors(&args, &kinds, &vals, true);
    let out = (case.f)(&leaves).map_err(|e| format!("forward: {e}"))?;
    let proj: Vec<f64> = (0..out.numel())
        .map(|_| rng.random_range(-1.0..1.0))
        .collect();
    let g = Tensor::from_vec(proj.clone(), out.sizes())
        .unwrap()
        .to_dtype(out.dtype())
        .unwrap();
    out.backward_with(&g)
        .map_err(|e| format!("backward: {e}"))?;
    let diff_leaves: Vec<&Tensor> = args
        .iter()
        .zip(&leaves)
        .filter(|(a, _)| matches!(a, Arg::Diff { .. }))
        .map(|(_, t)| t)
        .collect();
    for (k, leaf) in diff_leaves.iter().enumerate() {
        let analytic = match leaf.grad() {
            Some(g) => {
                if g.sizes() != leaf.sizes() {
                    return Err(format!(
                        "input {k}: grad sizes {:?} for {:?}",
                        g.sizes(),
                        leaf.sizes()
                    ));
                }
                g.to_vec_f64().unwrap()
            }
            None => vec![0.0; leaf.numel()],
        };
        for i in 0..vals[k].len() {
            let mut plus = vals.clone();
            plus[k][i] += EPS;
            let mut minus = vals.clone();
            minus[k][i] -= EPS;
            let numeric = (loss(case, &args, &kinds, &plus, &proj)
                - loss(case, &args, &kinds, &minus, &proj))
                / (2.0 * EPS);
            if (analytic[i] - numeric).abs() > ATOL + RTOL * numeric.abs() {
                return Err(format!(
                    "input {k} ({:?}, sizes {:?}) element {i}: analytic {}, numeric {numeric}",
                    kinds[k],
                    leaf.sizes(),
                    analytic[i]
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn analytic_gradients_match_finite_differences() {
    let mut failures = Vec::new();
    // Every op of tensor-core's unary and binary tables, with inputs where its derivative
    // is smooth.
    let domain = |d: tensor_core::Domain| match d {
        tensor_core::Domain::All => Domain::Any,
        tensor_core::Domain::Positive => Domain::Positive,
        tensor_core::Domain::NonZero => Domain::AwayFromZero,
        tensor_core::Domain::Distinct => Domain::Distinct,
    };
    let unary: Vec<(UnaryOp, Domain)> = UnaryOp::ALL
        .iter()
        .map(|&op| (op, domain(op.domain())))
        .collect();
    let binary: Vec<(BinaryOp, Domain)> = BinaryOp::ALL
        .iter()
        .map(|&op| (op, domain(op.domain())))
        .collect();
    let binary_inputs: Vec<_> = binary
        .iter()
        .map(|&(_, d)| move |r: &mut ChaCha8Rng| two_broadcast(r, d))
        .collect();
    let binary_fs: Vec<_> = binary
        .iter()
        .map(|&(op, _)| move |t: &[Tensor]| t[0].binary(op, &t[1]))
        .collect();
    let binary_cases =
        binary
            .iter()
            .zip(binary_inputs.iter().zip(&binary_fs))
            .map(|((op, _), (i, f))| Case {
                name: op.name(),
                inputs: i,
                f,
            });
    let inputs: Vec<_> = unary
        .iter()
        .map(|&(_, d)| move |r: &mut ChaCha8Rng| one(r, d))
        .collect();
    let fs: Vec<_> = unary
        .iter()
        .map(|&(op, _)| move |t: &[Tensor]| t[0].unary(op))
        .collect();
    let unary_cases = unary
        .iter()
        .zip(inputs.iter().zip(&fs))
        .map(|((op, _), (i, f))| Case {
            name: op.name(),
            inputs: i,
            f,
        });
    let cases: Vec<Case> = unary_cases
        .chain(binary_cases)
        .chain(CASES.iter().map(|c| Case { ..*c }))
        .collect();
    for case in &cases {
        for draw in 0..DRAWS {
            let seed = 0x5eed_0000 + draw * 7919 + case.name.len() as u64;
            if let Err(e) = check(case, seed) {
                failures.push(format!("{} (seed {seed}): {e}", case.name));
            }
        }
    }
    for f in &failures {
        println!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} gradchecks failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
