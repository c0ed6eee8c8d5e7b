use tensor_typed::prelude::*;

fn main() -> tensor_core::Result<()> {
    let a = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let b: Tensor<f32, Shape![3]> = tensor![10.0, 20.0, 30.0];
    let c: Tensor<f32, Shape![2, 3]> = &a + &b;
    let _e: Tensor<f32, Shape![4, 2, 3]> = a.expand::<Shape![4, 2, 3]>();
    let _r: Tensor<f32, Shape![2, 2, 6]> = a.repeat::<Shape![2, 1, 2]>();
    let _v: Tensor<f32, Shape![3, 2]> = a.reshape::<Shape![3, 2]>();
    let p: Tensor<f32, Shape![3, 2]> = a.permute::<Axes![1, 0]>();
    let _m: Tensor<f32, Shape![2, 2]> = a.matmul(&p);
    let _s: Tensor<f32, Shape![2]> = a.sum::<Axes![1]>();
    let x = Tensor::<f32, Shape![Dyn, 3]>::from_vec(vec![0.0; 15], &[5, 3])?;
    let _y: Tensor<f32, Shape![Dyn, 3]> = &x + &b;
    let _z: Tensor<f32, Shape![5, 3]> = x.check_shape()?;
    let i: Tensor<i32, Shape![2, 3]> = tensor![[1, 2, 3], [4, 5, 6]];
    let _f: Tensor<f32, Shape![2, 3]> = &i + &c;
    let _k: Tensor<f32, Shape![2, 1]> = a.sum_keepdim::<Axes![1]>();
    let _mx: Tensor<f32, Shape![3]> = a.amax::<Axes![0]>();
    let _am: Tensor<i64, Shape![2]> = a.argmax::<1>();
    let _lt: Tensor<bool, Shape![2, 3]> = a.lt(&b);
    let _w: Tensor<f32, Shape![2, 3]> = a.lt(&b).where_(&a, &b);
    let _d = a.as_dyn();
    let back = Tensor::<f32, Shape![2, 3]>::try_from_dyn(a.clone().into_dyn())?;
    back.add_(&b);
    Ok(())
}
