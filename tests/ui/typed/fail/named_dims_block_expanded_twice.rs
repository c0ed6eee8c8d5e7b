// One `dims!` block expanded twice by a `macro_rules!` declares two `Seq` structs with one
// identity and different sizes; where they meet, that is a compile error, not a
// unification of 16 with 32.
use tensor_typed::prelude::*;

macro_rules! declare {
    ($m:ident, $len:expr) => {
        mod $m {
            pub const LEN: usize = $len;
            tensor_typed::dims! { pub Seq = LEN; }
        }
    };
}
declare!(short, 16);
declare!(long, 32);

fn main() {
    let a = Tensor::<f32, Shape![short::Seq]>::zeros();
    let b = Tensor::<f32, Shape![long::Seq]>::zeros();
    let _ = a.add(&b);
}
