//! Unit tests of `einsum`: one per rule of `torch.einsum`, and a comparison with a
//! naive index walk on random small equations.

use crate::dtype::DType;
use crate::error::Error;
use crate::tensor::Tensor;
use crate::test_util::arange;

fn values(t: &Tensor) -> Vec<f64> {
    t.to_vec_f64().unwrap()
}

fn message(equation: &str, operands: &[&Tensor]) -> String {
    match Tensor::einsum(equation, operands) {
        Ok(t) => panic!("{equation:?}: no error, sizes {:?}", t.sizes()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn einsum_matrix_product_equals_matmul() {
    let a = arange(&[2, 3]);
    let b = arange(&[3, 4]);
    let c = Tensor::einsum("ij,jk->ik", &[&a, &b]).unwrap();
    assert_eq!(c.sizes(), &[2, 4]);
    assert_eq!(values(&c), values(&a.matmul(&b).unwrap()));
    let implicit = Tensor::einsum("ij,jk", &[&a, &b]).unwrap();
    assert_eq!(values(&implicit), values(&c));
}

#[test]
fn einsum_implicit_output_puts_uppercase_labels_first() {
    let x = arange(&[2, 3]);
    let t = Tensor::einsum("aB", &[&x]).unwrap();
    assert_eq!((t.sizes(), t.strides()), (&[3, 2][..], &[1, 3][..]));
    let same = Tensor::einsum("Ba", &[&x]).unwrap();
    assert_eq!((same.sizes(), same.strides()), (&[2, 3][..], &[3, 1][..]));
}

#[test]
fn einsum_repeated_label_takes_the_diagonal() {
    let x = arange(&[3, 3]);
    let d = Tensor::einsum("ii->i", &[&x]).unwrap();
    assert_eq!((d.sizes(), d.strides()), (&[3][..], &[4][..]));
    assert!(d.shares_storage(&x));
    assert_eq!(values(&d), vec![0.0, 4.0, 8.0]);
}

#[test]
fn einsum_repeated_label_absent_from_the_output_is_the_trace() {
    let x = arange(&[3, 3]);
    let t = Tensor::einsum("ii", &[&x]).unwrap();
    assert_eq!(t.sizes(), &[] as &[usize]);
    assert_eq!(values(&t), vec![12.0]);
}

#[test]
fn einsum_ellipsis_dims_broadcast_and_lead_the_implicit_output() {
    let a = Tensor::ones(&[2, 1, 3], DType::F32).unwrap();
    let b = Tensor::ones(&[4, 3], DType::F32).unwrap();
    let t = Tensor::einsum("...i,...i", &[&a, &b]).unwrap();
    assert_eq!(t.sizes(), &[2, 4]);
    assert!(values(&t).iter().all(|&v| v == 3.0));
    let e = message(
        "...i,...i",
        &[&a, &Tensor::ones(&[4, 2], DType::F32).unwrap()],
    );
    assert!(e.contains("subscript i has size 2 for operand 1"), "{e}");
}

#[test]
fn einsum_size_1_dim_broadcasts_against_the_labels_size() {
    let a = arange(&[2, 1]);
    let b = arange(&[3, 4]);
    let t = Tensor::einsum("ij,jk->ik", &[&a, &b]).unwrap();
    let summed = b.sum(&[0], true).unwrap();
    let want = a.mul(&summed).unwrap();
    assert_eq!(values(&t), values(&want));
}

#[test]
fn einsum_single_operand_permute_is_a_view() {
    let x = arange(&[2, 3]);
    let t = Tensor::einsum("ij->ji", &[&x]).unwrap();
    assert!(t.shares_storage(&x));
    assert_eq!(t.strides(), &[1, 3]);
}

#[test]
fn einsum_single_operand_sum_of_int32_is_int64() {
    let x = Tensor::ones(&[2, 3], DType::I32).unwrap();
    let t = Tensor::einsum("ij->i", &[&x]).unwrap();
    assert_eq!(t.dtype(), DType::I64);
    assert_eq!(t.to_vec::<i64>().unwrap(), vec![3, 3]);
}

#[test]
fn einsum_right_only_dims_before_left_only_dims_swap_the_operands() {
    // "ij,jk->ki": the product comes out as [k, i], contiguous, as in PyTorch.
    let a = arange(&[2, 3]);
    let b = arange(&[3, 4]);
    let t = Tensor::einsum("ij,jk->ki", &[&a, &b]).unwrap();
    assert_eq!((t.sizes(), t.strides()), (&[4, 2][..], &[2, 1][..]));
    let want = a.matmul(&b).unwrap().permute(&[1, 0]).unwrap();
    assert_eq!(values(&t), values(&want));
    // The swap shows in the dtype error: the right operand's dtype is named first.
    let b64 = Tensor::ones(&[3, 4], DType::F64).unwrap();
    let e = message("ij,jk->ki", &[&a, &b64]);
    assert!(
        e.contains("expected scalar type Double but found Float"),
        "{e}"
    );
}

#[test]
fn einsum_outer_product_of_mixed_dtypes_promotes_as_mul() {
    let a = Tensor::ones(&[2], DType::I32).unwrap();
    let b = Tensor::ones(&[3], DType::F64).unwrap();
    let t = Tensor::einsum("i,j->ij", &[&a, &b]).unwrap();
    assert_eq!((t.sizes(), t.dtype()), (&[2, 3][..], DType::F64));
}

#[test]
fn einsum_contraction_of_bool_operands_is_bmms_error() {
    let a = Tensor::ones(&[2, 3], DType::Bool).unwrap();
    let b = Tensor::ones(&[3, 4], DType::Bool).unwrap();
    let e = Tensor::einsum("ij,jk->ik", &[&a, &b]).unwrap_err();
    assert!(matches!(e, Error::UnsupportedDType { .. }));
    assert!(e.to_string().contains("\"bmm\" not implemented for 'Bool'"));
}

#[test]
fn einsum_int32_label_summed_before_the_product_is_int64_and_mismatches() {
    let a = Tensor::ones(&[2, 3], DType::I32).unwrap();
    let b = Tensor::ones(&[3, 4], DType::I32).unwrap();
    let e = message("ij,jk->i", &[&a, &b]);
    assert!(e.contains("expected scalar type Int but found Long"), "{e}");
}

#[test]
fn einsum_errors_are_pytorchs_messages() {
    let v = arange(&[2]);
    let m = arange(&[2, 3]);
    let sq = arange(&[2, 2]);
    let cube = arange(&[2, 2, 2]);
    let cases: &[(&str, &[&Tensor], &str)] = &[
        ("i", &[], "einsum(): must specify the equation string and at least one operand"),
        ("i$j", &[&sq], "einsum(): invalid subscript given at index 1 in the equation string, subscripts must be in [a-zA-Z]"),
        ("ij->i$", &[&sq], "invalid subscript given at index 5"),
        ("i", &[&v, &v], "einsum(): more operands were provided than specified in the equation"),
        ("i,i", &[&v], "einsum(): fewer operands were provided than specified in the equation"),
        ("ij", &[&cube], "einsum(): the number of subscripts in the equation (2) does not match the number of dimensions (3) for operand 0 and no ellipsis was given"),
        ("ij...", &[&v], "einsum(): the number of subscripts in the equation (2) is more than the number of dimensions (1) for operand 0"),
        ("i.j", &[&sq], "einsum(): found '.' for operand 0 that is not part of any ellipsis"),
        ("...i...", &[&m], "einsum(): found '.' for operand 0 for which an ellipsis was already found"),
        ("i->...i...", &[&v], "einsum(): found '.' for output but an ellipsis (...) was already found"),
        ("ij->i.", &[&sq], "einsum(): found '.' for output that is not part of any ellipsis (...)"),
        ("i->ii", &[&v], "einsum(): output subscript i appears more than once in the output"),
        ("i->j", &[&v], "einsum(): output subscript j does not appear in the equation for any input operand"),
        ("ii", &[&m], "einsum(): subscript i is repeated for operand 0 but the sizes don't match, 3 != 2"),
        ("ij,jk", &[&m, &sq], "einsum(): subscript j has size 2 for operand 1 which does not broadcast with previously seen size 3"),
        ("...i,...i", &[&m, &arange(&[4, 3])], "einsum(): dimension 0 covered by ellipsis in operand 1has size 4 which does not broadcast with previously seen ellipsis with size 2 for the respective dimension"),
    ];
    for (equation, operands, want) in cases {
        let got = message(equation, operands);
        assert!(got.contains(want), "{equation:?}: {got:?} lacks {want:?}");
    }
}

#[test]
fn einsum_non_ascii_character_is_invalid_at_its_byte_index() {
    let x = arange(&[2, 2]);
    assert!(message("i\u{e9}", &[&x]).contains("invalid subscript given at index 1"));
    assert!(message("\u{e9}i,i", &[&x]).contains("invalid subscript given at index 0"));
}

#[test]
fn einsum_gradients_are_matmuls_and_the_diagonals() {
    let a = arange(&[2, 3]).requires_grad_(true).unwrap();
    let b = arange(&[3, 3]).requires_grad_(true).unwrap();
    // sum_ik a_ij b_jj: grad a_ij = b_jj, grad b_jj = sum_i a_ij on the diagonal.
    let y = Tensor::einsum("ij,jj->ij", &[&a, &b]).unwrap();
    y.sum(&[], false).unwrap().backward().unwrap();
    assert_eq!(
        values(&a.grad().unwrap()),
        vec![0.0, 4.0, 8.0, 0.0, 4.0, 8.0]
    );
    assert_eq!(
        values(&b.grad().unwrap()),
        vec![3.0, 0.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0, 7.0]
    );
}

/// A small linear congruential generator: the tests' random stream.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The einsum by walking every assignment of the labels: `terms` are each operand's
/// labels, `out` the output's, `size` each label's size.
fn naive(terms: &[Vec<u8>], out: &[u8], size: &[usize; 4], data: &[Vec<f64>]) -> Vec<f64> {
    let out_len: usize = out.iter().map(|&l| size[l as usize]).product();
    let mut result = vec![0.0; out_len];
    let total: usize = size.iter().product();
    for flat in 0..total {
        let mut value = [0usize; 4];
        let mut rest = flat;
        for l in (0..4).rev() {
            value[l] = rest % size[l];
            rest /= size[l];
        }
        let index = |labels: &[u8]| {
            labels
                .iter()
                .fold(0, |acc, &l| acc * size[l as usize] + value[l as usize])
        };
        let product: f64 = terms
            .iter()
            .zip(data)
            .map(|(term, d)| d[index(term)])
            .product();
        result[index(out)] += product;
    }
    result
}

#[test]
fn einsum_matches_a_naive_index_walk_on_random_small_equations() {
    let mut rng = Lcg(7);
    for _ in 0..300 {
        let size = [
            1 + rng.below(3),
            1 + rng.below(3),
            1 + rng.below(3),
            1 + rng.below(3),
        ];
        // Labels a..d; an unused label gets size 1, so the walk visits it once.
        let nops = 1 + rng.below(3);
        let terms: Vec<Vec<u8>> = (0..nops)
            .map(|_| (0..rng.below(4)).map(|_| rng.below(4) as u8).collect())
            .collect();
        let mut used: Vec<u8> = terms.iter().flatten().copied().collect();
        used.sort_unstable();
        used.dedup();
        let mut size = size;
        for l in 0..4u8 {
            if !used.contains(&l) {
                size[l as usize] = 1;
            }
        }
        let explicit = rng.below(2) == 0;
        let out: Vec<u8> = if explicit {
            let mut pool = used.clone();
            let mut out = Vec::new();
            for _ in 0..rng.below(pool.len() + 1) {
                out.push(pool.remove(rng.below(pool.len())));
            }
            out
        } else {
            let count = |l: u8| terms.iter().flatten().filter(|&&x| x == l).count();
            used.iter().copied().filter(|&l| count(l) == 1).collect()
        };
        let letters = |ls: &[u8]| ls.iter().map(|&l| (b'a' + l) as char).collect::<String>();
        let lhs: Vec<String> = terms.iter().map(|t| letters(t)).collect();
        let equation = if explicit {
            format!("{}->{}", lhs.join(","), letters(&out))
        } else {
            lhs.join(",")
        };
        let data: Vec<Vec<f64>> = terms
            .iter()
            .map(|t| {
                let n: usize = t.iter().map(|&l| size[l as usize]).product();
                (0..n).map(|_| rng.below(7) as f64 - 3.0).collect()
            })
            .collect();
        let operands: Vec<Tensor> = terms
            .iter()
            .zip(&data)
            .map(|(t, d)| {
                let sizes: Vec<usize> = t.iter().map(|&l| size[l as usize]).collect();
                Tensor::from_vec(d.clone(), &sizes).unwrap()
            })
            .collect();
        let refs: Vec<&Tensor> = operands.iter().collect();
        let got = Tensor::einsum(&equation, &refs)
            .unwrap_or_else(|e| panic!("{equation:?} with sizes {size:?}: {e}"));
        let want_sizes: Vec<usize> = out.iter().map(|&l| size[l as usize]).collect();
        assert_eq!(got.sizes(), want_sizes.as_slice(), "{equation:?}");
        assert_eq!(
            values(&got),
            naive(&terms, &out, &size, &data),
            "{equation:?} with sizes {size:?}"
        );
    }
}

#[test]
fn einsum_of_one_matrix_product_as_written_is_that_matmul() {
    let q = Tensor::rand(&[2, 3, 4, 5], 0).unwrap();
    let k = Tensor::rand(&[2, 3, 6, 5], 1).unwrap();
    let s = Tensor::einsum("bhsd,bhtd->bhst", &[&q, &k]).unwrap();
    let m = q.matmul(&k.transpose(-2, -1).unwrap()).unwrap();
    assert_eq!(s.sizes(), m.sizes());
    assert_eq!(s.strides(), m.strides());
    assert_eq!(s.to_vec_f64().unwrap(), m.to_vec_f64().unwrap());
    let w = Tensor::rand(&[5, 7], 2).unwrap();
    let p = Tensor::einsum("bhsd,de->bhse", &[&q, &w]).unwrap();
    assert_eq!(
        p.to_vec_f64().unwrap(),
        q.matmul(&w).unwrap().to_vec_f64().unwrap()
    );
    // Not one product as written: the general lowering gives the same values.
    let t = Tensor::einsum("bhsd,bhtd->bhts", &[&q, &k]).unwrap();
    let mt = m.transpose(-2, -1).unwrap();
    let diff = t
        .to_vec_f64()
        .unwrap()
        .iter()
        .zip(mt.to_vec_f64().unwrap())
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    assert!(diff < 1e-5, "{diff}");
}
