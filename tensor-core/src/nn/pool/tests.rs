//! Expected values recorded from PyTorch 2.15 (CPU) with
//! ```python
//! x = torch.arange(2*3*4*5.).view(2, 3, 4, 5)
//! F.max_pool2d(x, (3, 2), (2, 2), (1, 1)); F.avg_pool2d(x, (3, 2), (2, 2), (1, 1))
//! F.avg_pool2d(x.long() * 3, (3, 2), (2, 2), (1, 1))
//! ```
use super::*;
use crate::test_util::arange;

fn err(r: Result<Tensor>) -> String {
    r.unwrap_err().to_string()
}

#[test]
fn max_pool2d_3x2_stride2_pad1_matches_pytorch() {
    let x = arange(&[2, 3, 4, 5]);
    let y = max_pool2d(&x, [3, 2], [2, 2], [1, 1]).unwrap();
    assert_eq!(y.sizes(), &[2, 3, 2, 3]);
    assert_eq!(
        &y.to_vec::<f32>().unwrap()[..6],
        &[5., 7., 9., 15., 17., 19.]
    );
}

#[test]
fn avg_pool2d_counts_padding_and_int64_truncates() {
    let x = arange(&[2, 3, 4, 5]);
    let y = avg_pool2d(&x, [3, 2], [2, 2], [1, 1]).unwrap();
    let v = y.to_vec::<f32>().unwrap();
    let want = [0.833_333_3, 2.666_666_7, 4.0, 5.0, 11.5, 13.5];
    for (g, w) in v.iter().zip(want) {
        assert!((g - w).abs() < 1e-6, "{g} {w}");
    }
    let xi = x.to_dtype(DType::I64).unwrap().mul_scalar(3).unwrap();
    let yi = avg_pool2d(&xi, [3, 2], [2, 2], [1, 1]).unwrap();
    assert_eq!(&yi.to_vec::<i64>().unwrap()[..6], &[2, 8, 12, 15, 34, 40]);
}

#[test]
fn max_pool2d_keeps_channels_last_and_3d_is_contiguous() {
    let x = arange(&[2, 3, 6, 6])
        .to_memory_format(MemoryFormat::ChannelsLast)
        .unwrap();
    let y = max_pool2d(&x, [2, 2], [2, 2], [0, 0]).unwrap();
    assert_eq!(y.strides(), &[27, 1, 9, 3]);
    let c = max_pool2d(&arange(&[2, 3, 6, 6]), [2, 2], [2, 2], [0, 0]).unwrap();
    assert_eq!(y.to_vec_f64().unwrap(), c.to_vec_f64().unwrap());
    let u = max_pool2d(&arange(&[3, 6, 6]), [2, 2], [2, 2], [0, 0]).unwrap();
    assert_eq!(u.strides(), &[9, 3, 1]);
}

#[test]
fn max_pool2d_propagates_nan() {
    let x = Tensor::from_vec(vec![1.0f32, f32::NAN, 3.0, 2.0], &[1, 2, 2]).unwrap();
    let y = max_pool2d(&x, [2, 2], [2, 2], [0, 0]).unwrap();
    assert!(y.to_vec::<f32>().unwrap()[0].is_nan());
}

#[test]
fn pool_errors_have_pytorch_messages() {
    let x = arange(&[2, 3, 6, 6]);
    assert!(err(max_pool2d(&x, [2, 2], [0, 0], [0, 0])).contains("stride should not be zero"));
    assert!(err(max_pool2d(&x, [3, 3], [2, 2], [2, 2])).contains(
        "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1"
    ));
    assert!(err(max_pool2d(&x, [7, 7], [7, 7], [0, 0])).contains(
        "Given input size: (3x6x6). Calculated output size: (3x0x0). Output size is too small"
    ));
    assert!(err(max_pool2d(&arange(&[6, 6]), [2, 2], [2, 2], [0, 0]))
        .contains("non-empty 3D or 4D (batch mode) tensor expected for input"));
    assert!(err(avg_pool2d(&arange(&[6, 6]), [2, 2], [2, 2], [0, 0]))
        .contains("Dimension out of range (expected to be in range of [-2, 1], but got -3)"));
    let e = Tensor::zeros(&[2, 0, 6, 6], DType::F32).unwrap();
    assert!(err(avg_pool2d(&e, [2, 2], [2, 2], [0, 0])).contains(
        "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:[2, 0, 6, 6]"
    ));
    let i = x.to_dtype(DType::I32).unwrap();
    assert!(err(avg_pool2d(&i, [2, 2], [2, 2], [0, 0]))
        .contains("\"avg_pool2d\" not implemented for 'Int'"));
    let b = x.to_dtype(DType::Bool).unwrap();
    assert!(err(max_pool2d(&b, [2, 2], [2, 2], [0, 0]))
        .contains("\"max_pool2d\" not implemented for 'Bool'"));
}
