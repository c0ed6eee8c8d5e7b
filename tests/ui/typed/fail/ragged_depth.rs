use tensor_typed::prelude::*;

fn main() {
    let _t = tensor![[1.0f32, 2.0], 3.0];
}
