//! The rest of the catalogue: element access and display, the TensorIterator builder
//! (used in and out of order, queried with out-of-range indices) and the free functions
//! of shapes, strides, dims and layouts.

use super::adapt;
use super::gen::Gen;
use super::operand::{operand, show, CAP};
use super::runner::Ctx;
use crate::naive::numel;
use tensor_core::{Layout, TensorIterator, TensorIteratorConfig};

fn small(t: &tensor_core::Tensor) -> bool {
    numel(t.sizes()) <= CAP
}

pub fn access(g: &mut Gen, c: &mut Ctx) {
    let Some(a) = operand(g, c) else { return };
    let t = &a.t;
    match g.below(5) {
        0 => {
            c.call(|| format!("item::<f32>({})", show(t)), || t.item::<f32>());
        }
        1 => {
            c.call(
                || format!("item::<bool>({})", show(t)),
                || t.item::<bool>().map(|b| b as u8),
            );
        }
        2 if small(t) => {
            c.call(
                || format!("to_vec::<i64>({})", show(t)),
                || t.to_vec::<i64>(),
            );
        }
        3 if small(t) => {
            c.call(|| format!("display({})", show(t)), || Ok(format!("{t}")));
        }
        _ if small(t) => {
            c.call(|| format!("to_vec::<u8>({})", show(t)), || t.to_vec::<u8>());
        }
        _ => {}
    }
}

pub fn iterator(g: &mut Gen, c: &mut Ctx) {
    let (Some(a), Some(b)) = (operand(g, c), operand(g, c)) else {
        return;
    };
    if !(small(&a.t) && small(&b.t)) {
        return;
    }
    let mut cfg = TensorIteratorConfig::new();
    let mut steps = Vec::new();
    for _ in 0..g.below(7) {
        let s = g.below(12);
        steps.push(s);
        cfg = match s {
            0 => cfg.add_output(&a.t),
            1 => cfg.add_undefined_output(),
            2 => cfg.add_input(&b.t),
            3 => cfg.add_const_input(&a.t),
            4 => cfg.add_scalar_input(g.scalar()),
            5 => cfg.is_reduction(true),
            6 => cfg.resize_outputs(g.chance(0.5)),
            7 => cfg.declare_static_shape(&g.sizes(2)),
            8 => cfg
                .promote_inputs_to_common_dtype(true)
                .cast_common_dtype_to_outputs(true),
            9 => cfg.check_all_same_dtype(g.chance(0.5)),
            10 => cfg.declare_static_dtype(g.dtype()),
            _ => cfg
                .enforce_linear_iteration(true)
                .set_check_mem_overlap(g.chance(0.5)),
        };
    }
    let Some(it) = c.call(
        || format!("TensorIterator::build(steps {steps:?})"),
        || TensorIterator::build(cfg),
    ) else {
        return;
    };
    let i = if g.hostile() {
        g.pick(&[usize::MAX, 7, 100])
    } else {
        g.below(4)
    };
    c.call(
        || format!("iterator.strides({i}) / dtype({i})"),
        || Ok((it.try_strides(i)?.len(), it.try_dtype(i)?)),
    );
    c.call(
        || format!("iterator.output({i})"),
        || Ok(it.try_output(i)?.dim()),
    );
    c.call(
        || format!("iterator.input({i})"),
        || Ok(it.try_input(i)?.dim()),
    );
    c.call(
        || "iterator.explain()".to_string(),
        || Ok(it.explain().to_string()),
    );
    if numel(it.shape()) > CAP {
        return;
    }
    let n = std::sync::atomic::AtomicUsize::new(0);
    if c.call(
        || "iterator.for_each(count)".to_string(),
        || {
            it.for_each(|_, _, s0, s1| {
                n.fetch_add(s0 * s1, std::sync::atomic::Ordering::Relaxed);
            });
            Ok(())
        },
    )
    .is_some()
    {
        let n = n.into_inner();
        c.check(n == it.numel(), || {
            format!("for_each visited {n} of {} elements", it.numel())
        });
    }
}

pub fn free_functions(g: &mut Gen, c: &mut Ctx) {
    let nd = g.ndim(5);
    let (sizes, strides) = (g.sizes(nd), g.strides(nd));
    let shape = {
        let n = g.ndim(5);
        g.shape_i64(n)
    };
    match g.below(12) {
        0 => {
            let other = {
                let n = g.ndim(5);
                g.sizes(n)
            };
            c.call(
                || format!("broadcast_shapes({sizes:?}, {other:?})"),
                || tensor_core::broadcast_shapes(&sizes, &other),
            );
        }
        1 => {
            c.call(
                || format!("infer_expand_geometry({sizes:?}, {strides:?}, {shape:?})"),
                || adapt::infer_expand_geometry(&sizes, &strides, &shape),
            );
        }
        2 => {
            let new = {
                let n = g.ndim(5);
                g.sizes(n)
            };
            c.call(
                || format!("compute_stride({sizes:?}, {strides:?}, {new:?})"),
                || adapt::compute_stride(&sizes, &strides, &new),
            );
        }
        3 => {
            c.call(
                || format!("infer_dense_strides({sizes:?}, {strides:?})"),
                || adapt::infer_dense_strides(&sizes, &strides),
            );
        }
        4 => {
            c.call(
                || format!("repeat_decomposition({sizes:?}, {shape:?})"),
                || tensor_core::repeat_decomposition(&sizes, &shape),
            );
        }
        5 => {
            let d = g.dim(nd);
            c.call(
                || format!("wrap_dim({d}, {nd})"),
                || tensor_core::wrap_dim(d, nd),
            );
            let ds = g.dims(nd);
            c.call(
                || format!("wrap_dims({ds:?}, {nd})"),
                || tensor_core::wrap_dims(&ds, nd),
            );
        }
        6 => {
            c.call(
                || format!("view::infer_size({shape:?}, {})", sizes.len()),
                || tensor_core::infer_size(&shape, sizes.len()),
            );
        }
        7 => {
            let f = g.format();
            c.call(
                || format!("strides_for_format({sizes:?}, {f:?})"),
                || tensor_core::strides_for_format(&sizes, f),
            );
        }
        8 => {
            let off = g.offset();
            let Some(l) = c.call(
                || format!("Layout::new({sizes:?}, {strides:?}, {off})"),
                || adapt::layout_new(sizes.clone(), strides.clone(), off),
            ) else {
                return;
            };
            c.call(
                || format!("required_storage_len({l:?})"),
                || adapt::required_storage_len(&l),
            );
            c.call(
                || format!("contiguity_flags({l:?})"),
                || Ok(l.contiguity_flags()),
            );
            c.call(
                || format!("suggest_memory_format({l:?})"),
                || Ok(l.suggest_memory_format(false)),
            );
            c.call(
                || format!("preserve_strides({l:?})"),
                || Ok(tensor_core::preserve_strides(&l)),
            );
            c.call(
                || format!("offsets({l:?}).take(8)"),
                || Ok(l.offsets().take(8).count()),
            );
        }
        9 => {
            c.call(
                || format!("Layout::checked({sizes:?}, {strides:?}, 0)"),
                || Layout::checked(sizes.clone(), strides.clone(), 0),
            );
            c.call(
                || format!("Layout::contiguous({sizes:?})"),
                || Layout::contiguous(&sizes),
            );
        }
        10 => {
            let ds = g.dims(nd);
            c.call(
                || format!("make_dim_mask({ds:?}, {nd})"),
                || tensor_core::make_dim_mask(&ds, nd),
            );
        }
        _ => {
            let (Some(a), Some(b)) = (operand(g, c), operand(g, c)) else {
                return;
            };
            c.call(
                || format!("has_internal_overlap({})", show(&a.t)),
                || Ok(tensor_core::has_internal_overlap(&a.t)),
            );
            c.call(
                || format!("get_overlap_status({}, {})", show(&a.t), show(&b.t)),
                || Ok(tensor_core::get_overlap_status(&a.t, &b.t)),
            );
        }
    }
}
