// conv2d compares the input's channels with the weight's dim 1 by name: `Rgb` and
// `Planes` are both 3, and still different dims.
use tensor_typed::prelude::*;

dims! { pub Rgb = 3; pub Planes = 3; pub Out = 8; }

fn main() {
    let x = Tensor::<f32, Shape![Dyn, Rgb, 8, 8]>::zeros_with(&[1, 3, 8, 8]).unwrap();
    let w = Tensor::<f32, Shape![Out, Planes, 3, 3]>::zeros();
    let _ = x.conv2d::<1, 1, 1, 1>(&w, None);
}
