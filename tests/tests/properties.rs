//! Property tests: random strided layouts (permuted, sliced with steps, expanded with
//! stride 0, size-0 and size-1 dims, storage offsets) in `f32` and `i64`, through
//! copy/contiguous, broadcasting add/mul, neg/abs, sum over random dims, matmul,
//! reshape and permute. Every result is compared element by element with a naive walk
//! over the operands' storage (`Layout::offsets`).
//!
//! About 12,000 cases per run (`cargo test --release -p tensor-tests --test properties`).

use proptest::prelude::*;
use tensor_core::{DType, Layout, Storage, Tensor};
use tensor_tests::naive::{ravel_broadcast, unravel};

/// How a random operand sits in its storage.
#[derive(Clone, Debug)]
struct Spec {
    /// Logical sizes.
    sizes: Vec<usize>,
    /// Memory order: `order[0]` is the innermost dim.
    order: Vec<usize>,
    /// Step of each dim (a slice `::step`), in units of the inner block.
    steps: Vec<usize>,
    /// Dims expanded to stride 0.
    expanded: Vec<bool>,
    /// Storage offset of element 0 (elements).
    offset: usize,
    /// `true` for `i64`, else `f32`.
    int: bool,
}

impl Spec {
    fn strides(&self) -> Vec<isize> {
        let mut strides = vec![0isize; self.sizes.len()];
        let mut acc = 1isize;
        for &d in &self.order {
            if self.expanded[d] {
                continue;
            }
            strides[d] = acc * self.steps[d] as isize;
            acc *= self.steps[d] as isize * self.sizes[d].max(1) as isize;
        }
        strides
    }

    fn layout(&self) -> Layout {
        Layout::checked(self.sizes.clone(), self.strides(), self.offset).expect("valid layout")
    }

    /// The storage values, then the tensor; operand `k` gets different values.
    fn build(&self, k: usize) -> (Vec<f64>, Tensor) {
        let len = self.layout().required_storage_len().expect("fits") + 3;
        let data: Vec<f64> = (0..len)
            .map(|i| ((i * 7 + k * 5) % 23) as f64 - 11.0)
            .collect();
        let storage = if self.int {
            Storage::from_vec(data.iter().map(|&v| v as i64).collect::<Vec<_>>()).expect("alloc")
        } else {
            Storage::from_vec(data.iter().map(|&v| v as f32).collect::<Vec<_>>()).expect("alloc")
        };
        let dtype = if self.int { DType::I64 } else { DType::F32 };
        let t = Tensor::from_parts(storage, self.layout(), dtype).expect("layout fits");
        (data, t)
    }

    /// The logical values by the naive index walk.
    fn naive_values(&self, data: &[f64]) -> Vec<f64> {
        self.layout().offsets().map(|i| data[i]).collect()
    }
}

/// `cases` cases, without failure-persistence files (this crate has no `lib.rs` next
/// to the test for proptest to find).
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(cases)
    }
}

fn size() -> impl Strategy<Value = usize> {
    prop_oneof![1 => Just(0usize), 3 => Just(1usize), 12 => 2usize..=4]
}

fn sizes(max_dims: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(size(), 0..=max_dims)
}

/// A random placement of a tensor of `sizes` of dtype `int`.
fn spec_for(sizes: Vec<usize>, int: bool) -> impl Strategy<Value = Spec> {
    let nd = sizes.len();
    (
        Just((0..nd).collect::<Vec<_>>()).prop_shuffle(),
        prop::collection::vec(prop_oneof![3 => Just(1usize), 1 => 2usize..=3], nd),
        prop::collection::vec(prop::bool::weighted(0.15), nd),
        0usize..4,
    )
        .prop_map(move |(order, steps, expanded, offset)| Spec {
            sizes: sizes.clone(),
            order,
            steps,
            expanded,
            offset,
            int,
        })
}

fn spec(max_dims: usize) -> impl Strategy<Value = Spec> {
    (sizes(max_dims), any::<bool>()).prop_flat_map(|(s, int)| spec_for(s, int))
}

fn assert_values(t: &Tensor, want: &[f64], tol: f64) -> Result<(), TestCaseError> {
    let got = t.to_vec_f64().unwrap();
    prop_assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        prop_assert!(
            (g - w).abs() <= tol * w.abs().max(1.0),
            "element {}: {} vs {}",
            i,
            g,
            w
        );
    }
    Ok(())
}

/// Two specs whose sizes broadcast: `b` takes a suffix of `a`'s sizes with some dims 1,
/// and the operands may be swapped.
fn broadcast_pair() -> impl Strategy<Value = (Spec, Spec)> {
    (sizes(4), any::<bool>(), any::<bool>())
        .prop_flat_map(|(a_sizes, int, swap)| {
            let nd = a_sizes.len();
            (
                Just(a_sizes),
                0..=nd,
                prop::collection::vec(prop::bool::weighted(0.3), nd),
                Just(int),
                Just(swap),
            )
        })
        .prop_flat_map(|(a_sizes, keep, ones, int, swap)| {
            let nd = a_sizes.len();
            let b_sizes: Vec<usize> = (nd - keep..nd)
                .map(|d| if ones[d] { 1 } else { a_sizes[d] })
                .collect();
            (spec_for(a_sizes, int), spec_for(b_sizes, int), Just(swap))
        })
        .prop_map(|(a, b, swap)| if swap { (b, a) } else { (a, b) })
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn contiguous_copies_every_element_in_logical_order(s in spec(5)) {
        let (data, t) = s.build(0);
        let c = t.contiguous().unwrap();
        prop_assert!(c.is_contiguous());
        assert_values(&c, &s.naive_values(&data), 0.0)?;
        let fresh = Tensor::zeros(t.sizes(), t.dtype()).unwrap();
        fresh.copy_(&t).unwrap();
        assert_values(&fresh, &s.naive_values(&data), 0.0)?;
    }

    #[test]
    fn add_and_mul_broadcast_like_a_naive_walk((sa, sb) in broadcast_pair()) {
        let (da, a) = sa.build(0);
        let (db, b) = sb.build(1);
        let (va, vb) = (sa.naive_values(&da), sb.naive_values(&db));
        let nd = sa.sizes.len().max(sb.sizes.len());
        let out: Vec<usize> = (0..nd)
            .map(|i| {
                let get = |s: &[usize]| (i + s.len()).checked_sub(nd).map_or(1, |j| s[j]);
                let (x, y) = (get(&sa.sizes), get(&sb.sizes));
                if x == 1 { y } else { x }
            })
            .collect();
        let n: usize = out.iter().product();
        let pairs: Vec<(f64, f64)> = (0..n)
            .map(|f| {
                let idx = unravel(f, &out);
                (va[ravel_broadcast(&idx, &sa.sizes)], vb[ravel_broadcast(&idx, &sb.sizes)])
            })
            .collect();
        let sum = a.add(&b).unwrap();
        prop_assert_eq!(sum.sizes(), out.as_slice());
        assert_values(&sum, &pairs.iter().map(|(x, y)| x + y).collect::<Vec<_>>(), 0.0)?;
        let prod = a.mul(&b).unwrap();
        assert_values(&prod, &pairs.iter().map(|(x, y)| x * y).collect::<Vec<_>>(), 0.0)?;
    }

    #[test]
    fn sum_over_random_dims_matches_naive(
        (s, mask, keepdim, negative) in spec(4).prop_flat_map(|s| {
            let nd = s.sizes.len();
            (Just(s), prop::collection::vec(any::<bool>(), nd), any::<bool>(), any::<bool>())
        })
    ) {
        let (data, t) = s.build(0);
        let nd = s.sizes.len();
        let dims: Vec<i64> = (0..nd)
            .filter(|&d| mask[d])
            .map(|d| if negative { d as i64 - nd as i64 } else { d as i64 })
            .collect();
        let reduced: Vec<bool> = (0..nd).map(|d| dims.is_empty() || mask[d]).collect();
        let keep_sizes: Vec<usize> = (0..nd).map(|d| if reduced[d] { 1 } else { s.sizes[d] }).collect();
        let mut want = vec![0.0; keep_sizes.iter().product()];
        for (f, v) in s.naive_values(&data).into_iter().enumerate() {
            let idx = unravel(f, &s.sizes);
            let o = (0..nd).fold(0, |acc, d| acc * keep_sizes[d] + if reduced[d] { 0 } else { idx[d] });
            want[o] += v;
        }
        let r = t.sum(&dims, keepdim).unwrap();
        let out_sizes: Vec<usize> = (0..nd)
            .filter(|&d| keepdim || !reduced[d])
            .map(|d| keep_sizes[d])
            .collect();
        prop_assert_eq!(r.sizes(), out_sizes.as_slice());
        prop_assert!(r.is_contiguous());
        prop_assert_eq!(r.dtype(), t.dtype());
        assert_values(&r, &want, 1e-5)?;
    }

    #[test]
    fn reshape_keeps_row_major_values(
        (s, split) in spec(4).prop_flat_map(|s| (Just(s), 1usize..=6))
    ) {
        let (data, t) = s.build(0);
        let n = t.numel();
        let a = if n > 0 && n % split == 0 { split } else { 1 };
        let target = [a as i64, (n / a.max(1)) as i64];
        let r = t.reshape(&target).unwrap();
        prop_assert_eq!(r.sizes(), &[a, n / a][..]);
        assert_values(&r, &s.naive_values(&data), 0.0)?;
        let flat = t.reshape(&[-1]).unwrap();
        assert_values(&flat, &s.naive_values(&data), 0.0)?;
    }
}

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn neg_and_abs_match_naive(s in spec(5)) {
        let (data, t) = s.build(0);
        let v = s.naive_values(&data);
        assert_values(&t.neg().unwrap(), &v.iter().map(|x| -x).collect::<Vec<_>>(), 0.0)?;
        assert_values(&t.abs().unwrap(), &v.iter().map(|x| x.abs()).collect::<Vec<_>>(), 0.0)?;
    }

    #[test]
    fn permute_is_a_view_walking_permuted_strides(
        (s, perm) in spec(5).prop_flat_map(|s| {
            let nd = s.sizes.len();
            (Just(s), Just((0..nd).collect::<Vec<usize>>()).prop_shuffle())
        })
    ) {
        let (data, t) = s.build(0);
        let dims: Vec<i64> = perm.iter().map(|&d| d as i64).collect();
        let p = t.permute(&dims).unwrap();
        prop_assert!(p.shares_storage(&t));
        let strides = s.strides();
        let expected = Layout::checked(
            perm.iter().map(|&d| s.sizes[d]).collect(),
            perm.iter().map(|&d| strides[d]).collect(),
            s.offset,
        )
        .unwrap();
        let want: Vec<f64> = expected.offsets().map(|i| data[i]).collect();
        assert_values(&p, &want, 0.0)?;
    }

    #[test]
    fn matmul_matches_a_naive_triple_loop(
        (sa, sb) in (1usize..=4, 0usize..=4, 1usize..=4, prop::option::of(1usize..=3), 0usize..4, any::<bool>())
            .prop_flat_map(|(m, k, n, batch, kind, int)| {
                let (a, b) = match (kind, batch) {
                    (0, _) => (vec![k], vec![k]),
                    (1, Some(bt)) => (vec![bt, m, k], vec![k, n]),
                    (1, None) => (vec![m, k], vec![k]),
                    (2, Some(bt)) => (vec![bt, 1, m, k], vec![bt, k, n]),
                    (2, None) => (vec![k], vec![k, n]),
                    (_, Some(bt)) => (vec![k], vec![bt, k, n]),
                    (_, None) => (vec![m, k], vec![k, n]),
                };
                (spec_for(a, int), spec_for(b, int))
            })
    ) {
        let (da, a) = sa.build(0);
        let (db, b) = sb.build(1);
        let (va, vb) = (sa.naive_values(&da), sb.naive_values(&db));
        // Promote 1-d operands to matrices, broadcast batch dims, multiply.
        let mut asz = sa.sizes.clone();
        let mut bsz = sb.sizes.clone();
        if asz.len() == 1 { asz.insert(0, 1); }
        if bsz.len() == 1 { bsz.push(1); }
        let (ba, bb) = (&asz[..asz.len() - 2], &bsz[..bsz.len() - 2]);
        let nb = ba.len().max(bb.len());
        let batch: Vec<usize> = (0..nb)
            .map(|i| {
                let get = |s: &[usize]| (i + s.len()).checked_sub(nb).map_or(1, |j| s[j]);
                let (x, y) = (get(ba), get(bb));
                if x == 1 { y } else { x }
            })
            .collect();
        let (m, k, n) = (asz[asz.len() - 2], asz[asz.len() - 1], bsz[bsz.len() - 1]);
        let mut want = Vec::new();
        for f in 0..batch.iter().product::<usize>() {
            let idx = unravel(f, &batch);
            let (oa, ob) = (ravel_broadcast(&idx, ba) * m * k, ravel_broadcast(&idx, bb) * k * n);
            for i in 0..m {
                for j in 0..n {
                    want.push((0..k).map(|p| va[oa + i * k + p] * vb[ob + p * n + j]).sum::<f64>());
                }
            }
        }
        let r = a.matmul(&b).unwrap();
        prop_assert!(r.is_contiguous());
        assert_values(&r, &want, 1e-6)?;
    }
}

/// A size, stride or offset as a hostile caller picks it: small, near a power of two,
/// or near the top of the type.
fn hostile_usize() -> impl Strategy<Value = usize> {
    prop_oneof![
        0usize..8,
        (0u32..64).prop_map(|k| 1usize << k),
        (0usize..4).prop_map(|d| usize::MAX - d),
        (0usize..4).prop_map(|d| isize::MAX as usize - d),
    ]
}

proptest! {
    #![proptest_config(config(2000))]

    /// `as_strided` with any sizes, strides and offset over a 12-element storage is
    /// either an error or a view whose every element lies in the storage: reading it
    /// (`to_vec`, `contiguous`, `neg`) never panics and gives the naive walk's values.
    #[test]
    fn hostile_as_strided_is_an_error_or_in_bounds(
        sizes in prop::collection::vec(hostile_usize(), 0..4),
        strides in prop::collection::vec(hostile_usize(), 0..4),
        offset in hostile_usize(),
    ) {
        let base = Tensor::from_vec((0..12).map(|i| i as f32).collect::<Vec<_>>(), &[12]).unwrap();
        let strides: Vec<isize> = strides.iter().map(|&s| s as isize).collect();
        let r = std::panic::catch_unwind(|| {
            let v = base.as_strided(&sizes, &strides, offset).ok()?;
            if v.numel() > 4096 {
                // A valid view (stride-0 dims) too large to read back in a test.
                return None;
            }
            let want: Vec<f32> = v.layout().offsets().map(|i| i as f32).collect();
            let got = v.to_vec::<f32>().unwrap();
            let c = v.contiguous().unwrap().to_vec::<f32>().unwrap();
            let n = v.neg().unwrap().to_vec::<f32>().unwrap();
            Some((want, got, c, n))
        });
        prop_assert!(r.is_ok(), "panicked on sizes {:?} strides {:?} offset {}", sizes, strides, offset);
        if let Some((want, got, c, n)) = r.unwrap() {
            prop_assert!(want.iter().all(|&i| i < 12.0));
            prop_assert_eq!(&got, &want);
            prop_assert_eq!(&c, &want);
            let neg: Vec<f32> = want.iter().map(|x| -x).collect();
            prop_assert_eq!(n, neg);
        }
    }
}
