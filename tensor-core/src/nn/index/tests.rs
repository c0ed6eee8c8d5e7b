use super::*;
use crate::test_util::{arange, arange_strided};

fn ids(v: &[i64]) -> Tensor {
    Tensor::from_vec(v.to_vec(), &[v.len()]).unwrap()
}

fn err(r: Result<Tensor>) -> String {
    r.unwrap_err().to_string()
}

#[test]
fn index_select_dim0_of_transposed_is_contiguous() {
    let t = arange_strided(&[3, 2], &[1, 3]); // [[0, 3], [1, 4], [2, 5]]
    let r = t.index_select(0, &ids(&[2, 0, 2])).unwrap();
    assert_eq!(r.strides(), &[2, 1]);
    assert_eq!(r.to_vec::<f32>().unwrap(), vec![2., 5., 0., 3., 2., 5.]);
}

#[test]
fn index_select_middle_dim_with_int32_index() {
    let t = arange(&[2, 3, 2]);
    let idx = Tensor::from_vec(vec![1i32], &[1]).unwrap();
    let r = t.index_select(1, &idx).unwrap();
    assert_eq!(r.sizes(), &[2, 1, 2]);
    assert_eq!(r.to_vec::<f32>().unwrap(), vec![2., 3., 8., 9.]);
}

#[test]
fn index_select_of_0d_with_0d_index() {
    let t = Tensor::scalar(5.0f32);
    let r = t.index_select(0, &Tensor::scalar(0i64)).unwrap();
    assert_eq!(r.sizes(), &[] as &[usize]);
    assert_eq!(r.item::<f32>().unwrap(), 5.0);
}

#[test]
fn index_select_out_of_range_messages_follow_the_kernel() {
    let t = arange(&[2, 3, 4]);
    assert!(err(t.index_select(1, &ids(&[3])))
        .contains("INDICES element is out of DATA bounds, id=3 axis_dim=3"));
    assert!(err(t.index_select(0, &ids(&[-1]))).contains("index out of range in self"));
    assert!(err(arange(&[3]).index_select(0, &ids(&[5]))).contains("index out of range in self"));
    let two_d = Tensor::from_vec(vec![0i64], &[1, 1]).unwrap();
    assert!(
        err(t.index_select(0, &two_d)).contains("index_select(): Index is supposed to be a vector")
    );
    let f = Tensor::from_vec(vec![0.0f32], &[1]).unwrap();
    assert!(err(t.index_select(0, &f))
        .contains("index_select(): Expected dtype int32 or int64 for index"));
    assert!(err(t.index_select(3, &ids(&[0])))
        .contains("Dimension out of range (expected to be in range of [-3, 2], but got 3)"));
}

#[test]
fn gather_along_last_dim_picks_per_row() {
    let t = arange(&[2, 3]);
    let idx = Tensor::from_vec(vec![2i64, 0, 1, 1], &[2, 2]).unwrap();
    let r = t.gather(1, &idx).unwrap();
    assert_eq!(r.to_vec::<f32>().unwrap(), vec![2., 0., 4., 4.]);
}

#[test]
fn gather_index_larger_than_self_along_dim() {
    let t = arange(&[2, 3]);
    let idx = Tensor::from_vec(vec![1i64, 0, 1], &[3, 1]).unwrap();
    let r = t.gather(0, &idx).unwrap();
    assert_eq!(r.strides(), &[1, 1]);
    assert_eq!(r.to_vec::<f32>().unwrap(), vec![3., 0., 3.]);
}

#[test]
fn gather_errors_have_pytorch_messages() {
    let t = arange(&[2, 3]);
    let idx = Tensor::from_vec(vec![5i64], &[1, 1]).unwrap();
    assert!(err(t.gather(1, &idx)).contains("index 5 is out of bounds for dimension 1 with size 3"));
    assert!(err(t.gather(1, &ids(&[0])))
        .contains("Index tensor must have the same number of dimensions as input tensor"));
    let big = Tensor::zeros(&[3, 1], DType::I64).unwrap();
    assert!(err(t.gather(1, &big)).contains(
        "Size does not match at dimension 0 expected index [3, 1] to be no larger than self [2, 3] apart from dimension 1"
    ));
    let f = Tensor::zeros(&[1, 1], DType::F32).unwrap();
    assert!(err(t.gather(1, &f)).contains("gather(): Expected dtype int32/int64 for index"));
    let empty = Tensor::zeros(&[0], DType::F32).unwrap();
    assert_eq!(t.gather(1, &empty).unwrap().sizes(), &[0]);
}

#[test]
fn embedding_of_2d_ids_appends_the_embedding_dim() {
    let w = arange(&[4, 3]);
    let i = Tensor::from_vec(vec![3i64, 0, 1, 3], &[2, 2]).unwrap();
    let e = embedding(&i, &w).unwrap();
    assert_eq!(e.sizes(), &[2, 2, 3]);
    assert_eq!(
        &e.to_vec::<f32>().unwrap()[..6],
        &[9., 10., 11., 0., 1., 2.]
    );
    let s = embedding(&Tensor::scalar(2i64), &w).unwrap();
    assert_eq!(s.sizes(), &[3]);
}

#[test]
fn embedding_errors_have_pytorch_messages() {
    let w = arange(&[4, 3]);
    assert!(err(embedding(&ids(&[4]), &w)).contains("index out of range in self"));
    assert!(err(embedding(&ids(&[1]), &arange(&[4]))).contains("'weight' must be 2-D"));
    let f = Tensor::from_vec(vec![1.0f32], &[1]).unwrap();
    assert!(err(embedding(&f, &w)).contains(
        "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding)"
    ));
}

#[test]
fn index_select_large_parallel_matches_naive() {
    let t = arange(&[300, 257]);
    let idx: Vec<i64> = (0..300).map(|i| (i * 7) % 300).collect();
    let r = t.index_select(0, &ids(&idx)).unwrap();
    let v = r.to_vec::<f32>().unwrap();
    for (row, &i) in idx.iter().enumerate() {
        assert_eq!(v[row * 257 + 5], (i * 257 + 5) as f32);
    }
}
