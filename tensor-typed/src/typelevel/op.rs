//! The ops as they are named in compile errors: the `Op` parameter of
//! [`BroadcastShape`](crate::shape::broadcast::BroadcastShape),
//! [`InplaceBroadcast`](crate::ops::inplace::InplaceBroadcast) and
//! [`ReduceOver`](crate::shape::axes::ReduceOver), printed first in the message
//! (`add: cannot broadcast (D<2>, D<3>) with (D<2>,): dim 1 is 3 vs 2`).
#![allow(non_camel_case_types)]

macro_rules! ops {
    ($($name:ident $what:literal;)*) => {$(
        #[doc = concat!("`", $what, "`.")]
        pub struct $name;
    )*};
}

ops! {
    broadcast "Broadcast<A, B>, outside any op";
    add "torch.add (a + b)";
    sub "torch.sub (a - b)";
    mul "torch.mul (a * b)";
    div "torch.div (a / b)";
    maximum "torch.maximum";
    minimum "torch.minimum";
    pow "torch.pow";
    eq "torch.eq";
    ne "torch.ne";
    lt "torch.lt";
    le "torch.le";
    gt "torch.gt";
    ge "torch.ge";
    where_ "torch.where";
    matmul "torch.matmul (its batch dims broadcast)";
    permute "Tensor.permute";
    sum "torch.sum";
    mean "torch.mean";
    var "torch.var";
    std "torch.std";
    amax "torch.amax";
    amin "torch.amin";
    argmax "torch.argmax";
    argmin "torch.argmin";
    add_ "Tensor.add_";
    sub_ "Tensor.sub_";
    mul_ "Tensor.mul_";
    div_ "Tensor.div_";
    softmax "torch.softmax";
    log_softmax "torch.log_softmax";
    transpose "torch.transpose";
    unsqueeze "torch.unsqueeze";
    squeeze "torch.squeeze";
    narrow "torch.narrow";
    unflatten "torch.unflatten";
    flatten "torch.flatten";
    select "Tensor.select";
    copy_ "Tensor.copy_";
    linear "torch.nn.functional.linear";
    cat "torch.cat";
    check_shape "Tensor.check_shape (a run-time check of the Dyn dims)";
    rename "Tensor.rename (names changed, sizes checked as check_shape)";
    stack "torch.stack";
    tril "torch.tril";
    triu "torch.triu";
    masked_fill "Tensor.masked_fill";
    conv2d "torch.nn.functional.conv2d";
    max_pool2d "torch.nn.functional.max_pool2d";
    avg_pool2d "torch.nn.functional.avg_pool2d";
    rearrange "layout! as einops.rearrange";
    repeat "layout! as einops.repeat";
    reduce "layout! as einops.reduce";
    expand "Tensor.expand";
    reshape "Tensor.reshape";
    layer_norm "torch.nn.functional.layer_norm";
    cross_entropy "torch.nn.functional.cross_entropy";
}

/// One marker per row of tensor-core's unary table, named as the op.
macro_rules! unary_markers {
    ($( $name:ident {
        variant: $V:ident, inplace: $inplace:ident, out: $out:ident,
        torch: $torch:literal, doc: $what:literal,
        $($field:tt)*
    } )*) => {$(
        #[doc = concat!("`torch.", $torch, "` (", $what, ").")]
        pub struct $name;
    )*};
}
tensor_core::__unary_ops!(unary_markers);
