//! Test helpers of the type-level rules: named dims declared by hand (what `dims!`
//! writes) and type equality.

/// `true` when `A` and `B` are the same type.
pub(crate) fn same<A: 'static, B: 'static>() -> bool {
    std::any::TypeId::of::<A>() == std::any::TypeId::of::<B>()
}

/// `test_name!(Seq, Dyn, Dg9)`: a named dim `Seq` of size `Dyn` (as `dims!` writes it)
/// whose nine-digit id ends in `Dg9` (the first eight are `Dg1`..`Dg8`), so names of one
/// test differ by their last digit. `{:?}` prints `Seq` and a static size (`Head (16)`).
macro_rules! test_name {
    ($name:ident, $size:ty, $last:ident) => {
        #[derive(Clone, Copy, Default)]
        struct $name;
        impl std::fmt::Debug for $name {
            #[cfg_attr(unoptimized, inline)]
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                $crate::typelevel::named::fmt_name(
                    f,
                    stringify!($name),
                    <Self as $crate::typelevel::dim::Dim>::STATIC,
                )
            }
        }
        impl $crate::typelevel::named::NamedDim for $name {
            type Size = $size;
            type Id = $crate::typelevel::named::NameId<
                $crate::typelevel::decimal::Dg1,
                $crate::typelevel::decimal::Dg2,
                $crate::typelevel::decimal::Dg3,
                $crate::typelevel::decimal::Dg4,
                $crate::typelevel::decimal::Dg5,
                $crate::typelevel::decimal::Dg6,
                $crate::typelevel::decimal::Dg7,
                $crate::typelevel::decimal::Dg8,
                $crate::typelevel::decimal::$last,
            >;
        }
    };
}
pub(crate) use test_name;
