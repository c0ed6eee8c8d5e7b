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

    thread_local! {
        /// `Some` while [`panic_location`] runs on this thread: the location once recorded.
        static WHERE: RefCell<Option<Option<(String, u32)>>> = const { RefCell::new(None) };
    }

    /// The file and line a panic of `f` reports (its `Location`), through a hook that
    /// records it for this thread and keeps the previous hook's printing for others.
    fn panic_location(f: impl FnOnce(), case: u32) -> (String, u32) {
        static HOOK: std::sync::Once = std::sync::Once::new();
        HOOK.call_once(|| {
            let previous = panic::take_hook();
            panic::set_hook(Box::new(move |info| {
                let recorded = WHERE.with(|w| match &mut *w.borrow_mut() {
                    Some(slot) => {
                        *slot = info.location().map(|l| (l.file().to_string(), l.line()));
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
}
