//! `conv2d` for the integer dtypes: a direct loop with wrapping `i64` sums, as
//! PyTorch's `slow_conv2d` (no GEMM serves them).

use super::geometry::{in_coord, Geo, Src};
use crate::element::Element;
use crate::error::Result;
use crate::layout::strides_for_format;
use crate::layout::MemoryFormat;
use crate::shape_ops::slices::fresh_output;
use crate::tensor::Tensor;

/// Direct convolution for integer dtypes: wrapping `i64` sums, cast back.
pub(super) fn conv_direct<T: Element>(
    x: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    g: &Geo,
    cl: bool,
) -> Result<Tensor> {
    let (cing, coutg) = (g.cin / g.groups, g.cout / g.groups);
    let wv: Vec<i64> = weight
        .to_vec::<T>()?
        .into_iter()
        .map(|v| v.to_i64())
        .collect();
    let bv: Option<Vec<i64>> = bias
        .map(|b| {
            b.to_vec::<T>()
                .map(|v| v.into_iter().map(|e| e.to_i64()).collect())
        })
        .transpose()?;
    let sizes = [g.n, g.cout, g.oh, g.ow];
    let fmt = if cl {
        MemoryFormat::ChannelsLast
    } else {
        MemoryFormat::Contiguous
    };
    let strides = strides_for_format(&sizes, fmt)?;
    let xs = x.strides();
    let buf = x.storage().read();
    let src = Src {
        data: buf.as_slice::<T>(),
        offset: x.storage_offset(),
        st: [xs[0], xs[1], xs[2], xs[3]],
    };
    let value = |n: usize, co: usize, oy: usize, ox: usize| -> T {
        let c0 = co / coutg * cing;
        let mut acc = bv.as_ref().map_or(0, |b| b[co]);
        for c in 0..cing {
            for ki in 0..g.kh {
                let Some(iy) = in_coord(oy, ki, g.s.0, g.p.0, g.d.0, g.h) else {
                    continue;
                };
                for kj in 0..g.kw {
                    let Some(ix) = in_coord(ox, kj, g.s.1, g.p.1, g.d.1, g.w) else {
                        continue;
                    };
                    let wt = wv[((co * cing + c) * g.kh + ki) * g.kw + kj];
                    acc = acc.wrapping_add(src.at(n, c0 + c, iy, ix).to_i64().wrapping_mul(wt));
                }
            }
        }
        T::from_i64(acc)
    };
    // SAFETY: the loop writes slot i for every i of the dense output's storage, whose
    // element at storage position i is (n, co, oy, ox) as decoded below.
    unsafe {
        fresh_output::<T>(&sizes, &strides, |out| {
            let (p, cout) = (g.oh * g.ow, g.cout);
            for (i, slot) in out.iter_mut().enumerate() {
                let v = if cl {
                    let (n, r) = (i / (p * cout), i % (p * cout));
                    let (pix, co) = (r / cout, r % cout);
                    value(n, co, pix / g.ow, pix % g.ow)
                } else {
                    let (n, r) = (i / (p * cout), i % (p * cout));
                    let (co, pix) = (r / p, r % p);
                    value(n, co, pix / g.ow, pix % g.ow)
                };
                slot.write(v);
            }
            Ok(())
        })
    }
}
