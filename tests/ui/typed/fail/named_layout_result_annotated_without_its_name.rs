// An annotation names a result's unnamed dims, but does not take a name off: `Model`
// stays `Model` even where `64` is its size (`rename` drops names).
use tensor_typed::prelude::*;

dims! {
    pub Batch;
    pub Model = 64;
}

fn main() {
    let x = Tensor::<f32, Shape![Batch, Model]>::zeros_with(&[2, 64]).unwrap();
    let _y: Tensor<f32, Shape![64, Batch]> = layout!(x, "b m -> m b");
}
