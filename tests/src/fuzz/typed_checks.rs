//! The typed surface: the `try_` forms of tensor-typed's ops on tensors whose `Dyn`
//! dims get random run-time sizes that often do not fit (and sometimes sizes no machine
//! can allocate). Each call must return `Ok` exactly when PyTorch's rule says the sizes
//! fit (checked here), an `Err` otherwise, and never panic: the plain forms, which
//! panic by design, are not called. Every `Ok` is checked against its type by the
//! `check-invariants` feature (a mismatch panics, which counts as a finding).

use super::gen::{Gen, HUGE_SIZES};
use super::operand::UNALLOCATABLE;
use super::runner::Ctx;
use tensor_typed::nn;
use tensor_typed::prelude::*;

type Rows3 = Tensor<f32, Shape![Dyn, 3]>;
type Mat = Tensor<f32, Shape![Dyn, Dyn]>;

/// A run-time size: mostly small, sometimes 0, rarely huge.
fn size(g: &mut Gen) -> usize {
    if g.chance(0.03) && !super::runner::NO_HUGE.load(std::sync::atomic::Ordering::Relaxed) {
        g.pick(&HUGE_SIZES)
    } else {
        g.pick(&[0, 1, 1, 2, 2, 3, 3, 4, 5])
    }
}

/// A tensor of type `Tensor<T, S>` with sizes `dims`: `arange` values, reshaped.
fn filled<S: tensor_typed::Shape>(c: &mut Ctx, dims: &[usize]) -> Option<Tensor<f32, S>> {
    c.call(
        || format!("zeros_with({dims:?})"),
        || {
            let t = Tensor::<f32, S>::zeros_with(dims)?;
            let n = t.numel();
            if n <= 4096 {
                let values: Vec<f32> = (0..n).map(|i| (i % 7) as f32 - 3.0).collect();
                return Tensor::from_vec(values, dims);
            }
            Ok(t)
        },
    )
}

/// Records that a call returned `Ok` exactly when the sizes fit.
fn expect<X>(c: &mut Ctx, got: Option<X>, fits: bool, rule: &str) {
    c.check(got.is_some() == fits, || {
        format!(
            "{} where the sizes {} ({rule})",
            if got.is_some() { "Ok" } else { "Err" },
            if fits { "fit" } else { "do not fit" }
        )
    });
}

fn broadcasts(a: usize, b: usize) -> bool {
    a == b || a == 1 || b == 1
}

/// One case: one typed `try_` op on random `Dyn` sizes.
pub fn run_case(g: &mut Gen, c: &mut Ctx) {
    let (n1, n2, n3) = (size(g), size(g), size(g));
    match g.below(18) {
        0 => {
            let (Some(a), Some(b)) = (
                filled::<Shape![Dyn, 3]>(c, &[n1, 3]),
                filled::<Shape![Dyn, 3]>(c, &[n2, 3]),
            ) else {
                return;
            };
            let r = c.call(|| format!("[{n1}, 3].try_add([{n2}, 3])"), || a.try_add(&b));
            expect(c, r, broadcasts(n1, n2), "broadcast");
        }
        1 => {
            let (Some(a), Some(b)) = (
                filled::<Shape![Dyn, Dyn]>(c, &[n1, n2]),
                filled::<Shape![Dyn, 2]>(c, &[n3, 2]),
            ) else {
                return;
            };
            let r = c.call(
                || format!("[{n1}, {n2}].try_matmul([{n3}, 2])"),
                || a.try_matmul(&b),
            );
            // `[huge, 0] @ [0, 2]` fits, but its `[huge, 2]` result is not allocatable.
            let small = (n1 as u128) * 2 < UNALLOCATABLE;
            expect(c, r, n2 == n3 && small, "inner dims, an allocatable result");
        }
        2 => {
            let Some(x) = filled::<Shape![Dyn, 3]>(c, &[n1, 3]) else {
                return;
            };
            let Some(m) = c.call(
                || format!("mask [{n2}, 3]"),
                || Tensor::<bool, Shape![Dyn, 3]>::zeros_with(&[n2, 3]),
            ) else {
                return;
            };
            let r = c.call(
                || format!("[{n1}, 3].try_masked_fill([{n2}, 3])"),
                || x.try_masked_fill(&m, 1.5),
            );
            expect(c, r, broadcasts(n1, n2), "mask and self broadcast");
        }
        3 => {
            let Some(cond) = c.call(
                || format!("cond [{n1}]"),
                || Tensor::<bool, Shape![Dyn]>::zeros_with(&[n1]),
            ) else {
                return;
            };
            let (Some(x), Some(y)) = (
                filled::<Shape![Dyn]>(c, &[n2]),
                filled::<Shape![Dyn]>(c, &[n3]),
            ) else {
                return;
            };
            let r = c.call(
                || format!("[{n1}].try_where_([{n2}], [{n3}])"),
                || cond.try_where_(&x, &y),
            );
            let fits = [n1, n2, n3]
                .iter()
                .all(|&a| [n1, n2, n3].iter().all(|&b| broadcasts(a, b)));
            expect(c, r, fits, "broadcast of three");
        }
        4 => {
            let Some(x) = filled::<Shape![Dyn, 3]>(c, &[n1, 3]) else {
                return;
            };
            let r = c.call(
                || format!("[{n1}, 3].try_narrow::<0, 1, 2>()"),
                || x.try_narrow::<0, 1, 2>(),
            );
            expect(c, r, n1 >= 3, "start + length <= size");
        }
        5 => {
            let Some(x) = filled::<Shape![Dyn, 3]>(c, &[n1, 3]) else {
                return;
            };
            let (start, len) = (
                g.pick(&[0, 1, 2, 5, usize::MAX]),
                g.pick(&[0, 1, 3, usize::MAX]),
            );
            let r = c.call(
                || format!("[{n1}, 3].try_narrow_dyn::<0>({start}, {len})"),
                || x.try_narrow_dyn::<0>(start, len),
            );
            expect(
                c,
                r,
                start.checked_add(len).is_some_and(|e| e <= n1),
                "start + length <= size",
            );
        }
        6 => {
            let Some(x) = filled::<Shape![Dyn, 3]>(c, &[n1, 3]) else {
                return;
            };
            let i = g.pick(&[0, 1, 3, usize::MAX]);
            let r = c.call(
                || format!("[{n1}, 3].try_select::<0>({i})"),
                || x.try_select::<0>(i),
            );
            expect(c, r, i < n1, "index < size");
        }
        7 => {
            let (Some(d), Some(s)) = (
                filled::<Shape![Dyn, 3]>(c, &[n1, 3]),
                filled::<Shape![Dyn, 3]>(c, &[n2, 3]),
            ) else {
                return;
            };
            let r = c.call(
                || format!("[{n1}, 3].try_copy_([{n2}, 3])"),
                || d.try_copy_(&s),
            );
            expect(c, r, n2 == n1 || n2 == 1, "src broadcasts to self");
        }
        8 => {
            let (Some(a), Some(b)) = (
                filled::<Shape![Dyn, 2]>(c, &[n1, 2]),
                filled::<Shape![Dyn, 3]>(c, &[n2, 3]),
            ) else {
                return;
            };
            let r = c.call(
                || format!("try_cat::<1>([{n1}, 2], [{n2}, 3])"),
                || Tensor::<f32, Shape![Dyn, 5]>::try_cat::<1>((&a, &b)),
            );
            expect(c, r, n1 == n2, "equal off the cat dim");
        }
        9 => {
            let (Some(a), Some(b)) = (
                filled::<Shape![Dyn]>(c, &[n1]),
                filled::<Shape![Dyn]>(c, &[n2]),
            ) else {
                return;
            };
            let r = c.call(
                || format!("try_stack::<0>([{n1}], [{n2}])"),
                || Tensor::<f32, Shape![2, Dyn]>::try_stack::<0>([&a, &b]),
            );
            expect(c, r, n1 == n2, "equal sizes");
        }
        10 => {
            let Some(x) = filled::<Shape![Dyn, 3]>(c, &[n1, 3]) else {
                return;
            };
            let r = c.call(
                || format!("[{n1}, 3].try_squeeze::<0>()"),
                || x.try_squeeze::<0>(),
            );
            expect(c, r, n1 == 1, "the dim is 1");
            let r = c.call(
                || format!("[{n1}, 3].try_reshape::<[Dyn, 6]>()"),
                || x.try_reshape::<Shape![Dyn, 6]>(),
            );
            expect(c, r, (n1 * 3) % 6 == 0, "divisible");
            let r = c.call(
                || format!("[{n1}, 3].try_expand::<[4, 3]>()"),
                || x.try_expand::<Shape![4, 3]>(),
            );
            expect(c, r, n1 == 1 || n1 == 4, "1 or the target");
            let r = c.call(
                || format!("[{n1}, 3].check_shape::<[2, 3]>()"),
                || x.check_shape::<Shape![2, 3]>(),
            );
            expect(c, r, n1 == 2, "the static dim");
        }
        11 => {
            let r = c.call(
                || format!("Rows3::zeros_with([{n1}, {n2}])"),
                || Rows3::zeros_with(&[n1, n2]),
            );
            if (n1 as u128) * (n2 as u128) < 1 << 20 {
                expect(c, r, n2 == 3, "the static dim");
            }
            let r = c.call(
                || format!("Mat::rand_with([{n1}])"),
                || Mat::rand_with(&[n1], 0),
            );
            expect(c, r, false, "the rank");
        }
        12 => {
            let Some(logits) = filled::<Shape![Dyn, 4]>(c, &[n1, 4]) else {
                return;
            };
            let ids: Vec<i64> = (0..n2.min(8))
                .map(|_| g.pick(&[0, 1, 3, 4, -1, i64::MAX]))
                .collect();
            let fits = ids.len() == n1 && ids.iter().all(|&i| (0..4).contains(&i));
            let Some(t) = c.call(
                || format!("targets {ids:?}"),
                || Tensor::<i64, Shape![Dyn]>::from_vec(ids.clone(), &[ids.len()]),
            ) else {
                return;
            };
            let r = c.call(
                || format!("try_cross_entropy([{n1}, 4], {ids:?})"),
                || nn::try_cross_entropy(&logits, &t),
            );
            if n1 > 0 {
                expect(c, r, fits, "batch and class ids");
            }
        }
        13 => {
            let Some(w) = filled::<Shape![5, 2]>(c, &[5, 2]) else {
                return;
            };
            let ids: Vec<i64> = (0..n1.min(8))
                .map(|_| g.pick(&[0, 2, 4, 5, -1, i64::MIN]))
                .collect();
            let fits = ids.iter().all(|&i| (0..5).contains(&i));
            let Some(t) = c.call(
                || format!("ids {ids:?}"),
                || Tensor::<i64, Shape![Dyn]>::from_vec(ids.clone(), &[ids.len()]),
            ) else {
                return;
            };
            let r = c.call(
                || format!("try_embedding({ids:?}, [5, 2])"),
                || nn::try_embedding(&t, &w),
            );
            expect(c, r, fits, "ids in range");
        }
        14 => {
            let Some(x) = filled::<Shape![Dyn, 3]>(c, &[n1, 3]) else {
                return;
            };
            let r = c.call(
                || format!("[{n1}, 3].try_argmax::<0>()"),
                || x.try_argmax::<0>(),
            );
            expect(c, r, n1 > 0, "a non-empty axis");
            let r = c.call(|| format!("[{n1}, 3].try_max_all()"), || x.try_max_all());
            expect(c, r, n1 > 0, "a non-empty tensor");
            let r = c.call(
                || format!("[{n1}, 3].try_amin::<[0]>()"),
                || x.try_amin::<Axes![0]>(),
            );
            expect(c, r, n1 > 0, "a non-empty axis");
        }
        15 => {
            let (Some(x), Some(w), Some(b)) = (
                filled::<Shape![Dyn, Dyn]>(c, &[n1, n2]),
                filled::<Shape![Dyn]>(c, &[n3]),
                filled::<Shape![Dyn]>(c, &[n3]),
            ) else {
                return;
            };
            let r = c.call(
                || format!("try_layer_norm([{n1}, {n2}], [{n3}])"),
                || nn::try_layer_norm(&x, &w, &b, 1e-5),
            );
            if n3 > 0 {
                expect(c, r, n2 == n3, "normalized shape");
            }
        }
        16 => {
            let (h, w) = (n1, n2);
            let (Some(x), Some(k)) = (
                filled::<Shape![1, 2, Dyn, Dyn]>(c, &[1, 2, h, w]),
                filled::<Shape![3, 2, 2, 2]>(c, &[3, 2, 2, 2]),
            ) else {
                return;
            };
            let r = c.call(
                || format!("try_conv2d([1, 2, {h}, {w}], [3, 2, 2, 2])"),
                || nn::try_conv2d::<1, 0, 1, 1, _, _, _>(&x, &k, None),
            );
            expect(c, r, h >= 2 && w >= 2, "the kernel fits");
            let r = c.call(
                || format!("try_max_pool2d::<2, 2, 0>([1, 2, {h}, {w}])"),
                || nn::try_max_pool2d::<2, 2, 0, _, _>(&x),
            );
            expect(c, r, h >= 2 && w >= 2, "the kernel fits");
        }
        _ => {
            let Some(x) = filled::<Shape![Dyn]>(c, &[n1]) else {
                return;
            };
            let r = c.call(
                || format!("[{n1}].try_add_scalar(i64::MAX)"),
                || x.try_add_scalar(i64::MAX),
            );
            expect(c, r, true, "a float tensor holds any integer scalar");
            let Some(v) = c.call(
                || format!("[{n1}].try_expand::<[3, Dyn]>()"),
                || x.try_expand::<Shape![3, Dyn]>(),
            ) else {
                return;
            };
            let r = c.call(|| "expanded.try_to_vec()".to_string(), || v.try_to_vec());
            expect(c, r, true, "a small expanded view reads back");
            let r = c.call(
                || format!("[{n1}].try_repeat::<[2, 3]>()"),
                || x.try_repeat::<Shape![2, 3]>(),
            );
            expect(c, r, (n1 as u128) * 2 < 1 << 38, "allocatable");
        }
    }
}
