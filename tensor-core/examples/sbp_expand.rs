//! The worked example of a global `expand`: a logical [4, 3, 1, 2] tensor split
//! along dim 3 over two ranks, expanded to [2, 4, 3, 4, 2]. Each rank rewrites the
//! logical expand_size for its physical shard, as OneFlow's expand kernel does.
//!
//! `cargo run --release -p tensor-core --example sbp_expand`

use tensor_core::global::{infer_expand, run_ranks, GlobalTensor, Placement, Sbp};
use tensor_core::{contiguous_strides, DType, Tensor};

fn main() -> tensor_core::Result<()> {
    let logical_sizes = [4, 3, 1, 2];
    let expand_size = [2, 4, 3, 4, 2];
    let logical_strides = contiguous_strides(&logical_sizes);
    let physical_sizes = [4, 3, 1, 1];
    let physical_strides = contiguous_strides(&physical_sizes);
    let inf = infer_expand(
        &logical_sizes,
        &logical_strides,
        &physical_strides,
        Sbp::Split(3),
        2,
        0,
        &expand_size,
    )?;
    println!("sbp                    = {} on 2 ranks", Sbp::Split(3));
    println!("logical input_shape    = {logical_sizes:?}");
    println!("logical stride         = {logical_strides:?}");
    println!("logical expand_size    = {expand_size:?}");
    println!("logical output_stride  = {:?}", inf.logical_strides);
    println!("physical input_shape   = {:?}", inf.physical_input_sizes);
    println!("physical stride        = {physical_strides:?}");
    println!("physical expand_size   = {:?}", inf.physical_expand_size);
    println!("physical output_stride = {:?}", inf.physical_strides);

    // The same, run: two in-process ranks, each expanding its shard.
    let shards = run_ranks(2, |comm| {
        let x = Tensor::arange(24, DType::F32)?.reshape(&[4, 3, 1, 2])?;
        let placement = Placement::all(2)?;
        let g = GlobalTensor::from_logical(&comm, &x, &placement, Sbp::Split(3))?;
        let y = g.expand(&[2, 4, 3, 4, 2])?;
        let same = y.to_logical()?.to_vec_f64()? == x.expand(&[2, 4, 3, 4, 2])?.to_vec_f64()?;
        Ok((
            comm.rank(),
            y.local().sizes().to_vec(),
            y.local().strides().to_vec(),
            y.sbp(),
            same,
        ))
    })?;
    for (rank, sizes, strides, sbp, same) in shards {
        println!(
            "rank {rank}: local output sizes {sizes:?} strides {strides:?}, {sbp}; gathered == logical expand: {same}"
        );
    }
    Ok(())
}
