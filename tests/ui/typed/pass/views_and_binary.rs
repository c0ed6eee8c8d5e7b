use tensor_typed::prelude::*;

fn main() {
    let a = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let b: Tensor<f32, Shape![3]> = tensor![10.0, 20.0, 30.0];
    let _c: Tensor<f32, Shape![2, 3]> = &a + &b;
    let p: Tensor<f32, Shape![3, 2]> = a.permute::<Axes![1, 0]>();
    let _m: Tensor<f32, Shape![2, 2]> = a.matmul(&p);
}
