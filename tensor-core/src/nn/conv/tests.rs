//! Expected values recorded from PyTorch 2.15 (CPU) with
//! ```python
//! x = torch.arange(2*3*4*5.).view(2, 3, 4, 5)
//! w = torch.arange(4*3*3*2.).view(4, 3, 3, 2) / 10; b = torch.tensor([1., 2, 3, 4])
//! F.conv2d(x, w, b, stride=(2, 1), padding=(1, 1), dilation=(1, 2))   # sum 211548.796875
//! w2 = torch.arange(4*1*2*2.).view(4, 1, 2, 2)
//! F.conv2d(x[:, :2], w2, None, groups=2)                              # sum 158976
//! F.conv2d(x.long(), w2.long()[:, :1].expand(4, 3, 2, 2).contiguous()) # sum 517248
//! ```
use super::*;
use crate::test_util::arange;

fn err(r: Result<Tensor>) -> String {
    r.unwrap_err().to_string()
}

fn scaled(sizes: &[usize], s: f64) -> Tensor {
    arange(sizes).mul_scalar(s).unwrap()
}

/// `F.conv2d(x, w, b, stride=(2, 1), padding=(1, 1), dilation=(1, 2))` of aranges, as
/// recorded from PyTorch.
fn strided_dilated(x: &Tensor) -> Tensor {
    let w = scaled(&[4, 3, 3, 2], 0.1);
    let b = Tensor::from_vec(vec![1.0f32, 2., 3., 4.], &[4]).unwrap();
    conv2d(x, &w, Some(&b), [2, 1], [1, 1], [1, 2], 1).unwrap()
}

#[test]
fn conv2d_stride_padding_dilation_bias_matches_pytorch() {
    let y = strided_dilated(&arange(&[2, 3, 4, 5]));
    assert_eq!(y.sizes(), &[2, 4, 2, 5]);
    assert_eq!(y.strides(), &[40, 10, 5, 1]);
    let v = y.to_vec::<f32>().unwrap();
    for (g, w) in v.iter().zip([191.5, 368.5, 379.9, 391.3, 188.2]) {
        assert!((g - w).abs() < 1e-3, "{g} {w}");
    }
    let sum: f64 = y.to_vec_f64().unwrap().iter().sum();
    assert!((sum - 211_548.8).abs() < 0.1, "{sum}");
}

#[test]
fn conv2d_channels_last_input_gives_channels_last_output_same_values() {
    let x = arange(&[2, 3, 4, 5]);
    let xl = x.to_memory_format(MemoryFormat::ChannelsLast).unwrap();
    let (y, yl) = (strided_dilated(&x), strided_dilated(&xl));
    assert_eq!(yl.strides(), &[40, 1, 20, 4]);
    for (a, b) in y
        .to_vec::<f32>()
        .unwrap()
        .iter()
        .zip(yl.to_vec::<f32>().unwrap())
    {
        assert!((a - b).abs() < 1e-3);
    }
}

#[test]
fn conv2d_groups_2_and_int64_match_pytorch() {
    let x = arange(&[2, 3, 4, 5]).narrow(1, 0, 2).unwrap();
    let w = arange(&[4, 1, 2, 2]);
    let y = conv2d(&x, &w, None, [1, 1], [0, 0], [1, 1], 2).unwrap();
    assert_eq!(y.sizes(), &[2, 4, 3, 4]);
    assert_eq!(&y.to_vec::<f32>().unwrap()[..4], &[29., 35., 41., 47.]);
    let sum: f64 = y.to_vec_f64().unwrap().iter().sum();
    assert_eq!(sum, 158_976.0);
    let xi = arange(&[2, 3, 4, 5]).to_dtype(DType::I64).unwrap();
    let wi = w
        .expand(&[4, 3, 2, 2])
        .unwrap()
        .contiguous()
        .unwrap()
        .to_dtype(DType::I64)
        .unwrap();
    let yi = conv2d(&xi, &wi, None, [1, 1], [0, 0], [1, 1], 1).unwrap();
    assert_eq!(yi.to_vec::<i64>().unwrap().iter().sum::<i64>(), 517_248);
}

#[test]
fn conv2d_1x1_reads_input_in_place_and_unbatched_drops_batch() {
    let x = arange(&[3, 4, 5]);
    let w = scaled(&[2, 3, 1, 1], 1.0);
    let y = conv2d(&x, &w, None, [1, 1], [0, 0], [1, 1], 1).unwrap();
    assert_eq!(y.sizes(), &[2, 4, 5]);
    let v = y.to_vec::<f32>().unwrap();
    // out[0, p] = 0·x0 + 1·x1 + 2·x2 = (p + 20) + 2 (p + 40)
    assert_eq!(v[7], (7 + 20 + 2 * (7 + 40)) as f32);
    let half = conv2d(
        &x.to_dtype(DType::F16).unwrap(),
        &w.to_dtype(DType::F16).unwrap(),
        None,
        [1, 1],
        [0, 0],
        [1, 1],
        1,
    )
    .unwrap();
    assert_eq!(half.dtype(), DType::F16);
    assert_eq!(half.to_vec_f64().unwrap()[7], v[7] as f64);
}

#[test]
fn conv2d_empty_batch_is_empty() {
    let x = Tensor::zeros(&[0, 3, 4, 5], DType::F32).unwrap();
    let y = conv2d(&x, &arange(&[4, 3, 3, 3]), None, [1, 1], [0, 0], [1, 1], 1).unwrap();
    assert_eq!(y.sizes(), &[0, 4, 2, 3]);
}

#[test]
fn conv2d_errors_have_pytorch_messages() {
    let (x, w) = (arange(&[2, 4, 5, 5]), arange(&[6, 4, 3, 3]));
    let c =
        |x: &Tensor, w: &Tensor, s: [usize; 2], g: usize| conv2d(x, w, None, s, [0, 0], [1, 1], g);
    assert!(err(c(&arange(&[5, 5]), &w, [1, 1], 1)).contains(
        "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [5, 5]"
    ));
    assert!(err(c(&x, &w, [0, 1], 1)).contains("non-positive stride is not supported"));
    assert!(err(c(&x, &w, [1, 1], 0)).contains("non-positive groups is not supported"));
    assert!(err(c(&x, &w, [1, 1], 3)).contains(
        "Given groups=3, weight of size [6, 4, 3, 3], expected input[2, 4, 5, 5] to have 12 channels, but got 4 channels instead"
    ));
    assert!(err(c(&x, &w, [1, 1], 4)).contains(
        "Given groups=4, expected weight to be divisible by 4 at dimension 0, but got weight of size [[6, 4, 3, 3]] instead"
    ));
    assert!(err(c(&x, &arange(&[6, 4, 6, 3]), [1, 1], 1)).contains(
        "Calculated padded input size per channel: (5 x 5). Kernel size: (6 x 3). Kernel size can't be greater than actual input size"
    ));
    assert!(err(c(&x, &arange(&[6, 4, 3]), [1, 1], 1)).contains(
        "expected stride to be a single integer value or a list of 1 values to match the convolution dimensions, but got stride=[1, 1]"
    ));
    let wd = w.to_dtype(DType::F64).unwrap();
    assert!(err(c(&x, &wd, [1, 1], 1)).contains(
        "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor"
    ));
    let b5 = arange(&[5]);
    assert!(err(conv2d(&x, &w, Some(&b5), [1, 1], [0, 0], [1, 1], 1)).contains(
        "Given weight of size [6, 4, 3, 3], expected bias to be 1-dimensional with 6 elements, but got bias of size [5] instead"
    ));
    let bd = arange(&[6]).to_dtype(DType::F64).unwrap();
    assert!(err(conv2d(&x, &w, Some(&bd), [1, 1], [0, 0], [1, 1], 1))
        .contains("Input type (float) and bias type (double) should be the same"));
    let xb = x.to_dtype(DType::Bool).unwrap();
    let wb = w.to_dtype(DType::Bool).unwrap();
    assert!(err(c(&xb, &wb, [1, 1], 1)).contains("\"slow_conv2d_cpu\" not implemented for 'Bool'"));
}

#[test]
fn conv2d_1x1_groups_bias_channels_last_in_place_matches_im2col_path() {
    // 1×1, stride 1, no padding: read in place; with padding 0 but stride 2: im2col.
    let x = scaled(&[2, 4, 3, 5], 0.5);
    let xl = x.to_memory_format(MemoryFormat::ChannelsLast).unwrap();
    let w = scaled(&[6, 2, 1, 1], 0.25);
    let b = arange(&[6]);
    let run = |x: &Tensor, s: [usize; 2]| conv2d(x, &w, Some(&b), s, [0, 0], [1, 1], 2).unwrap();
    let (y, yl) = (run(&x, [1, 1]), run(&xl, [1, 1]));
    assert_eq!(yl.strides(), &[90, 1, 30, 6]);
    assert_eq!(y.to_vec::<f32>().unwrap(), yl.to_vec::<f32>().unwrap());
    // out[n=0, co=3, 0, 0] = b3 + w[3,0]·x[0,2,0,0] + w[3,1]·x[0,3,0,0]
    let want = 3.0 + 1.5 * 15.0 + 1.75 * 22.5;
    assert_eq!(y.to_vec::<f32>().unwrap()[3 * 15], want);
    let strided = run(&x, [2, 2]);
    assert_eq!(strided.sizes(), &[2, 6, 2, 3]);
    assert_eq!(strided.to_vec::<f32>().unwrap()[3 * 6], want);
}

#[test]
fn valid_range_is_exactly_the_columns_in_coord_finds_inside() {
    for s in 1..4 {
        for d in 1..4 {
            for p in 0..5 {
                for size in 1..7 {
                    for k in 0..4 {
                        for out in 0..9 {
                            let (lo, hi) = super::gemm::valid_range(k, s, p, d, size, out);
                            for o in 0..out {
                                let inside =
                                    super::geometry::in_coord(o, k, s, p, d, size).is_some();
                                assert_eq!(
                                    inside,
                                    (lo..hi).contains(&o),
                                    "s {s} d {d} p {p} size {size} k {k} o {o}: [{lo}, {hi})"
                                );
                            }
                            assert!(lo <= hi && hi <= out);
                        }
                    }
                }
            }
        }
    }
}

/// Small integers (`-3..=3`) as a tensor of `dtype`, from a fixed LCG.
fn small_ints(sizes: &[usize], seed: u64, dtype: DType) -> Tensor {
    let n: usize = sizes.iter().product();
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let v: Vec<i64> = (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 33) % 7) as i64 - 3
        })
        .collect();
    Tensor::from_vec(v, sizes).unwrap().to_dtype(dtype).unwrap()
}

#[test]
fn conv2d_f32_panel_kernel_equals_the_integer_loop_exactly() {
    // The f32 stride-1 implicit GEMM (panel.rs) against the integer dtypes' direct
    // loop on small integers (every sum exact in f32): images narrower than a run of
    // 16 pixels, exactly 16, wider (runs crossing a row end), one output row; output
    // channels not a multiple of the 6-row tile; reductions over 256 taps (blocked);
    // padding, dilation, groups, a bias, strided inputs, one image and several.
    /// x, w, padding, dilation, groups.
    type Case = ([usize; 4], [usize; 4], [usize; 2], [usize; 2], usize);
    let cases: &[Case] = &[
        ([2, 3, 5, 5], [7, 3, 3, 3], [1, 1], [1, 1], 1),
        ([1, 2, 16, 18], [5, 2, 3, 3], [0, 0], [1, 1], 1),
        ([3, 4, 28, 28], [13, 4, 3, 3], [1, 1], [1, 1], 1),
        ([2, 40, 9, 11], [6, 40, 3, 3], [1, 2], [1, 1], 1),
        ([1, 4, 7, 30], [8, 2, 3, 2], [2, 1], [2, 3], 2),
        ([2, 6, 1, 40], [12, 2, 1, 3], [0, 1], [1, 1], 3),
        ([1, 3, 6, 6], [4, 3, 6, 6], [0, 0], [1, 1], 1),
        ([5, 1, 8, 8], [8, 1, 3, 3], [1, 1], [1, 1], 1),
    ];
    for (i, &(xs, ws, pad, dil, groups)) in cases.iter().enumerate() {
        let seed = i as u64 * 3;
        let xi = small_ints(&xs, seed, DType::I64);
        let wi = small_ints(&ws, seed + 1, DType::I64);
        let bi = small_ints(&[ws[0]], seed + 2, DType::I64);
        let want = conv2d(&xi, &wi, Some(&bi), [1, 1], pad, dil, groups).unwrap();
        let (xf, wf, bf) = (
            xi.to_dtype(DType::F32).unwrap(),
            wi.to_dtype(DType::F32).unwrap(),
            bi.to_dtype(DType::F32).unwrap(),
        );
        // The panel kernel itself (conv2d sends small products to small.rs).
        let params = ConvParams {
            padding: pad,
            dilation: dil,
            groups,
            ..ConvParams::default()
        };
        let g = check(&xf, &wf, Some(&bf), &params).unwrap();
        assert!(super::panel::serves(&g));
        let got = super::panel::conv2d_f32(&xf, &wf, Some(&bf), &g).unwrap();
        let via = conv2d(&xf, &wf, Some(&bf), [1, 1], pad, dil, groups).unwrap();
        assert_eq!(via.to_vec::<f32>().unwrap(), got.to_vec::<f32>().unwrap());
        assert_eq!(got.sizes(), want.sizes(), "case {i}");
        assert!(got.is_contiguous(), "case {i}");
        let want = want.to_dtype(DType::F32).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(got.to_vec::<f32>().unwrap(), want, "case {i}");
        // Strided input: every other column of a wider image, and no bias.
        let wide = small_ints(&[xs[0], xs[1], xs[2], 2 * xs[3]], seed + 3, DType::I64);
        let xs_i = wide.slice(3, None, None, 2).unwrap();
        let want = conv2d(&xs_i, &wi, None, [1, 1], pad, dil, groups).unwrap();
        let xs_f = wide
            .to_dtype(DType::F32)
            .unwrap()
            .slice(3, None, None, 2)
            .unwrap();
        assert!(!xs_f.is_contiguous());
        let g = check(&xs_f, &wf, None, &params).unwrap();
        let got = super::panel::conv2d_f32(&xs_f, &wf, None, &g).unwrap();
        let want = want.to_dtype(DType::F32).unwrap().to_vec::<f32>().unwrap();
        assert_eq!(got.to_vec::<f32>().unwrap(), want, "case {i} strided");
    }
}

#[test]
fn conv2d_f32_winograd_equals_the_integer_loop_exactly() {
    // F(2×2, 3×3) (winograd.rs) on small integers: every transformed weight is a
    // multiple of 1/4 and every sum stays far below 2^20, so the f32 result is exact.
    // Odd and even output sizes (tiles past the edge), one output pixel, tiles not a
    // multiple of the 16-lane block, output channels not a multiple of 6 or 16, padding
    // 0-2, groups, a bias or none, strided inputs, one image and several.
    /// x, w, padding, groups.
    type Case = ([usize; 4], [usize; 4], [usize; 2], usize);
    let cases: &[Case] = &[
        ([2, 16, 28, 28], [16, 16, 3, 3], [1, 1], 1),
        ([1, 17, 7, 9], [23, 17, 3, 3], [1, 1], 1),
        ([3, 16, 3, 3], [16, 16, 3, 3], [0, 0], 1),
        ([1, 20, 5, 12], [19, 20, 3, 3], [2, 0], 1),
        ([2, 32, 6, 5], [34, 16, 3, 3], [1, 2], 2),
    ];
    for (i, &(xs, ws, pad, groups)) in cases.iter().enumerate() {
        let seed = 100 + i as u64 * 5;
        let xi = small_ints(&xs, seed, DType::I64);
        let wi = small_ints(&ws, seed + 1, DType::I64);
        let bi = small_ints(&[ws[0]], seed + 2, DType::I64);
        let f = |t: &Tensor| t.to_dtype(DType::F32).unwrap();
        for bias in [Some(&bi), None] {
            let want = conv2d(&xi, &wi, bias, [1, 1], pad, [1, 1], groups).unwrap();
            let bf = bias.map(f);
            let params = ConvParams {
                padding: pad,
                groups,
                ..ConvParams::default()
            };
            let g = check(&f(&xi), &f(&wi), bf.as_ref(), &params).unwrap();
            assert!(super::winograd::serves(&g), "case {i}");
            let got = conv2d(&f(&xi), &f(&wi), bf.as_ref(), [1, 1], pad, [1, 1], groups).unwrap();
            assert_eq!(got.sizes(), want.sizes(), "case {i}");
            assert_eq!(
                got.to_vec::<f32>().unwrap(),
                f(&want).to_vec::<f32>().unwrap(),
                "case {i}"
            );
        }
        // Strided input: every other row of a taller image.
        let tall = small_ints(&[xs[0], xs[1], 2 * xs[2], xs[3]], seed + 3, DType::I64);
        let xs_i = tall.slice(2, None, None, 2).unwrap();
        let want = conv2d(&xs_i, &wi, None, [1, 1], pad, [1, 1], groups).unwrap();
        let xs_f = f(&tall).slice(2, None, None, 2).unwrap();
        let got = conv2d(&xs_f, &f(&wi), None, [1, 1], pad, [1, 1], groups).unwrap();
        assert_eq!(
            got.to_vec::<f32>().unwrap(),
            f(&want).to_vec::<f32>().unwrap(),
            "case {i} strided"
        );
    }
}

#[test]
fn conv2d_f32_winograd_is_within_rounding_of_f64() {
    // Real-valued data: F(2×2, 3×3) in f32 against the direct f64 convolution, each
    // output within 1e-5 of the sum of its terms' magnitudes (|w|·|x| plus |bias|).
    let x = Tensor::randn(&[2, 64, 13, 14], 7)
        .unwrap()
        .to_dtype(DType::F64)
        .unwrap();
    let w = Tensor::randn(&[48, 64, 3, 3], 8)
        .unwrap()
        .to_dtype(DType::F64)
        .unwrap();
    let b = Tensor::randn(&[48], 9)
        .unwrap()
        .to_dtype(DType::F64)
        .unwrap();
    let want = conv2d(&x, &w, Some(&b), [1, 1], [1, 1], [1, 1], 1).unwrap();
    let bound = conv2d(
        &x.abs().unwrap(),
        &w.abs().unwrap(),
        Some(&b.abs().unwrap()),
        [1, 1],
        [1, 1],
        [1, 1],
        1,
    )
    .unwrap();
    let f = |t: &Tensor| t.to_dtype(DType::F32).unwrap();
    let got = conv2d(&f(&x), &f(&w), Some(&f(&b)), [1, 1], [1, 1], [1, 1], 1).unwrap();
    let (got, want, bound) = (
        got.to_vec_f64().unwrap(),
        want.to_vec_f64().unwrap(),
        bound.to_vec_f64().unwrap(),
    );
    for ((g, w), m) in got.iter().zip(&want).zip(&bound) {
        assert!((g - w).abs() <= 1e-5 * m, "{g} {w} {m}");
    }
}

#[test]
fn conv2d_with_a_zero_size_kernel_dim_is_pytorchs_error() {
    // F.conv2d(zeros(1, 3, 5, 5), zeros(2, 3, 0, 3)): PyTorch 2.15's message.
    let x = Tensor::zeros(&[1, 3, 5, 5], DType::F32).unwrap();
    for (kh, kw) in [(0, 3), (3, 0)] {
        let w = Tensor::zeros(&[2, 3, kh, kw], DType::F32).unwrap();
        let e = conv2d(&x, &w, None, [1, 1], [0, 0], [1, 1], 1)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!(
                "kernel size should be greater than zero, but got kernel_height: {kh} kernel_width: {kw}"
            )),
            "{e}"
        );
    }
}
