//! The user's methods on [`Tensor`](crate::Tensor), one family per file: elementwise
//! binary ops and operators, unary ops, reductions, views, in-place ops.

pub mod binary;
pub mod dims;
pub mod inplace;
pub mod reduction;
pub mod slicing;
pub mod unary;
pub mod view;

/// The plain form's panic, re-exported here for the op families (it lives below
/// `tensor.rs`, which uses it too).
pub(crate) use crate::or_panic::or_panic;

#[cfg(test)]
mod tests {
    use crate::prelude::*;
    use std::cell::RefCell;
    use std::panic::{self, AssertUnwindSafe};

    /// What a panic reported: its file, line and message.
    type Panic = (String, u32, String);

    thread_local! {
        /// `Some` while [`panic_of`] runs on this thread: the panic once recorded.
        static WHERE: RefCell<Option<Option<Panic>>> = const { RefCell::new(None) };
    }

    /// The file, line (its `Location`) and message of a panic of `f`, through a hook that
    /// records them for this thread and keeps the previous hook's printing for others.
    fn panic_of(f: impl FnOnce(), case: u32) -> Panic {
        static HOOK: std::sync::Once = std::sync::Once::new();
        HOOK.call_once(|| {
            let previous = panic::take_hook();
            panic::set_hook(Box::new(move |info| {
                let recorded = WHERE.with(|w| match &mut *w.borrow_mut() {
                    Some(slot) => {
                        let message = info
                            .payload()
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| {
                                info.payload().downcast_ref::<&str>().map(|s| s.to_string())
                            })
                            .unwrap_or_default();
                        *slot = info
                            .location()
                            .map(|l| (l.file().to_string(), l.line(), message));
                        true
                    }
                    None => false,
                });
                if !recorded {
                    previous(info)
                }
            }));
        });
        WHERE.with(|w| *w.borrow_mut() = Some(None));
        let panicked = panic::catch_unwind(AssertUnwindSafe(f)).is_err();
        let at = WHERE.with(|w| w.borrow_mut().take()).flatten();
        assert!(panicked, "the case of line {case} did not panic");
        at.expect("a panic with a location")
    }

    /// The file and line a panic of `f` reports.
    fn panic_location(f: impl FnOnce(), case: u32) -> (String, u32) {
        let (file, line, _) = panic_of(f, case);
        (file, line)
    }

    /// Checks one reproducer: the `try_` form's error contains `message`, and the plain
    /// form panics with the same error's message at the caller's line `line` (this file).
    fn try_errs_and_plain_panics_here<X>(
        try_form: tensor_core::Result<X>,
        message: &str,
        plain: impl FnOnce(),
        line: u32,
    ) {
        let Err(e) = try_form else {
            panic!("the try_ form of line {line} returned Ok")
        };
        let e = e.to_string();
        assert!(e.contains(message), "{e}");
        let (file, at, said) = panic_of(plain, line);
        assert!(file.ends_with("ops/mod.rs"), "{file}:{at}");
        assert_eq!(at, line, "the panic names the caller's line");
        assert_eq!(
            said, e,
            "the plain form panics with the try_ form's message"
        );
    }

    #[test]
    fn a_panicking_typed_op_reports_its_callers_line() {
        let x = Tensor::<f32, Shape![Dyn, 3]>::zeros_with(&[2, 3]).unwrap();
        let y = Tensor::<f32, Shape![Dyn, 3]>::zeros_with(&[4, 3]).unwrap();
        let w = Tensor::<f32, Shape![Dyn, 2]>::zeros_with(&[5, 2]).unwrap();
        let empty = Tensor::<f32, Shape![Dyn]>::zeros_with(&[0]).unwrap();
        type Two = Tensor<i64, Shape![2]>;
        let cases: Vec<(u32, Box<dyn FnOnce()>)> = vec![
            (line!(), Box::new(|| drop(x.add(&y)))),
            (line!(), Box::new(|| drop(&x + &y))),
            (line!(), Box::new(|| drop(x.matmul(&w)))),
            (line!(), Box::new(|| drop(x.narrow_dyn::<0>(1, 5)))),
            (line!(), Box::new(|| drop(x.select::<-1>(3)))),
            (line!(), Box::new(|| drop(x.reshape::<Shape![Dyn, 4]>()))),
            (line!(), Box::new(|| drop(Two::arange(3)))),
            (line!(), Box::new(|| drop(empty.max_all()))),
        ];
        for (line, case) in cases {
            let (file, at) = panic_location(case, line);
            assert!(file.ends_with("ops/mod.rs"), "{file}:{at}");
            assert_eq!(at, line, "the panic names the caller's line");
        }
    }

    /// Sizes no machine can allocate as `f32` (4e15 bytes, past a 47-bit address space,
    /// so no overcommit setting lets them through).
    type Huge = Shape![1000000, 1000000, 1000];
    const OOM: &str = "DefaultCPUAllocator: not enough memory: you tried to allocate";

    #[test]
    fn masked_fill_with_a_mask_whose_dyn_dim_differs() {
        let x = Tensor::<f32, Shape![Dyn, 3]>::zeros_with(&[2, 3]).unwrap();
        let mask = Tensor::<bool, Shape![Dyn, 3]>::zeros_with(&[4, 3]).unwrap();
        let message = "The size of tensor a (4) must match the size of tensor b (2)";
        let t = x.try_masked_fill(&mask, 1.0);
        try_errs_and_plain_panics_here(t, message, || drop(x.masked_fill(&mask, 1.0)), line!());
    }

    #[test]
    fn where_with_a_condition_whose_dyn_dim_differs() {
        let c = Tensor::<bool, Shape![Dyn]>::zeros_with(&[3]).unwrap();
        let x = Tensor::<f32, Shape![Dyn]>::zeros_with(&[4]).unwrap();
        let message = "The size of tensor a (3) must match the size of tensor b (4)";
        let t = c.try_where_(&x, &x);
        try_errs_and_plain_panics_here(t, message, || drop(c.where_(&x, &x)), line!());
    }

    #[test]
    fn narrow_0_1_5_past_a_dyn_end() {
        let x = Tensor::<f32, Shape![Dyn, 3]>::zeros_with(&[4, 3]).unwrap();
        let message = "start (1) + length (5) exceeds dimension size (4).";
        let t = x.try_narrow::<0, 1, 5>();
        try_errs_and_plain_panics_here(t, message, || drop(x.narrow::<0, 1, 5>()), line!());
    }

    #[test]
    fn repeat_past_memory() {
        let x = Tensor::<f32, Shape![1]>::zeros();
        let t = x.try_repeat::<Huge>();
        try_errs_and_plain_panics_here(t, OOM, || drop(x.repeat::<Huge>()), line!());
    }

    #[test]
    fn zeros_past_memory() {
        type T = Tensor<f32, Huge>;
        try_errs_and_plain_panics_here(T::try_zeros(), OOM, || drop(T::zeros()), line!());
        try_errs_and_plain_panics_here(T::try_ones(), OOM, || drop(T::ones()), line!());
        try_errs_and_plain_panics_here(T::try_rand(0), OOM, || drop(T::rand(0)), line!());
        try_errs_and_plain_panics_here(T::try_randn(0), OOM, || drop(T::randn(0)), line!());
    }

    /// The reported case was `Shape![1000000, 1000000]` (4e12 bytes, which aborted in
    /// `vec![value; n]`); [`Huge`] fails on every machine, whatever its overcommit.
    #[test]
    fn full_past_memory_is_an_error_not_an_abort() {
        type T = Tensor<f32, Huge>;
        let t = T::try_full(1.0);
        try_errs_and_plain_panics_here(t, OOM, || drop(T::full(1.0)), line!());
    }

    #[test]
    fn expand_to_vec_past_memory() {
        let x = Tensor::<f32, Shape![1]>::zeros().expand::<Huge>();
        let t = x.try_to_vec();
        try_errs_and_plain_panics_here(t, OOM, || drop(x.to_vec()), line!());
    }

    /// A static `layout!` returns the tensor (no `Result`): a copy past memory panics
    /// with the `OutOfMemory` message at the `layout!` call, not as unreachable code.
    #[test]
    fn static_layout_repeat_past_memory_panics_at_the_call() {
        let x = Tensor::<f32, Shape![2]>::zeros();
        let (file, at, said) = panic_of(
            || drop(crate::layout!(x, "a -> (a r)", r = 100000000000000)),
            line!() - 1,
        );
        assert!(file.ends_with("ops/mod.rs"), "{file}:{at}");
        assert_eq!(at, line!() - 4, "the panic names the layout! call");
        assert!(said.starts_with(OOM), "{said}");
    }

    #[test]
    fn full_keeps_the_exact_value_of_every_element_type() {
        let big = (1i64 << 60) + 1;
        assert_eq!(Tensor::<i64, Shape![2]>::full(big).to_vec(), vec![big; 2]);
        assert_eq!(
            Tensor::<bool, Shape![3]>::full(true).to_vec(),
            vec![true; 3]
        );
        assert_eq!(
            Tensor::<f32, Shape![2, 2]>::full(0.1).to_vec(),
            vec![0.1f32; 4]
        );
    }
}
