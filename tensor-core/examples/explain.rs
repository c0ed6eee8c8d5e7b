//! Builds worked examples on TensorIterator (channels-last +
//! contiguous, an ambiguous NC11 tensor + contiguous, NC11 + transposed) and prints
//! each step of the plan: effective strides, perm, coalesced sizes, byte strides and
//! the output strides PyTorch gives.
//!
//! `cargo run --release -p tensor-core --example explain`

use tensor_core::{DType, Layout, Result, Tensor, TensorIterator, TensorIteratorConfig};

/// A strided view (as `torch.empty_strided(...)` of random data) over fresh storage.
fn strided(sizes: &[usize], strides: &[isize]) -> Result<Tensor> {
    let t = Tensor::empty_strided(sizes, strides, DType::F32)?;
    let len = t.storage().len(DType::F32);
    let base = Tensor::arange(len, DType::F32)?;
    Tensor::from_parts(
        base.storage().clone(),
        Layout::checked(sizes.to_vec(), strides.to_vec(), 0)?,
        DType::F32,
    )
}

fn show(title: &str, a: &Tensor, b: &Tensor, pytorch: &[isize]) -> Result<()> {
    println!("== {title}");
    println!("   a: sizes {:?} strides {:?}", a.sizes(), a.strides());
    println!("   b: sizes {:?} strides {:?}", b.sizes(), b.strides());
    let iter = TensorIterator::build(TensorIteratorConfig::binary_op(None, a, b))?;
    for line in iter.explain().to_string().lines() {
        println!("   {line}");
    }
    let out = a.add(b)?;
    println!(
        "   a + b: sizes {:?} strides {:?} (PyTorch: {:?}) {}",
        out.sizes(),
        out.strides(),
        pytorch,
        if out.strides() == pytorch {
            "ok"
        } else {
            "DIFFERENT"
        }
    );
    println!();
    Ok(())
}

fn main() -> Result<()> {
    show(
        "channels_last [2,3,4,5] + contiguous [3,4,5]",
        &strided(&[2, 3, 4, 5], &[60, 1, 15, 3])?,
        &strided(&[3, 4, 5], &[20, 5, 1])?,
        &[60, 1, 15, 3],
    )?;
    show(
        "ambiguous channels_last [2,3,1,1] + contiguous [3,1,1]",
        &strided(&[2, 3, 1, 1], &[3, 1, 3, 3])?,
        &strided(&[3, 1, 1], &[1, 1, 1])?,
        &[3, 1, 3, 3],
    )?;
    show(
        "ambiguous channels_last [2,3,1,1] + transposed [3,1,3]",
        &strided(&[2, 3, 1, 1], &[3, 1, 3, 3])?,
        &strided(&[3, 1, 3], &[1, 3, 3])?,
        &[9, 1, 3, 3],
    )?;
    Ok(())
}
