//! PyTorch's CPU generator engine (`at::mt19937` inside `CPUGeneratorImpl`): the 32-bit
//! Mersenne Twister of the `rand_mt` crate, seeded as `torch.Generator().manual_seed`.
//!
//! `manual_seed(seed)` keeps only the low 32 bits of `seed` and fills the 624-word state
//! with the 2002 `init_genrand` (Knuth's multiplier 1812433253), which is `rand_mt::Mt`'s
//! `new`. A 64-bit draw (`random64`) is two 32-bit draws, the first in the high half,
//! which is `Mt::next_u64`. The tests below pin both facts, so a change in the crate
//! cannot silently change every seeded stream.

/// MT19937 with PyTorch's seeding: equal seeds give equal streams, on every platform.
/// `next_u32` is `CPUGeneratorImpl::random`, `next_u64` is `random64`.
pub(crate) struct Mt19937(rand_mt::Mt);

impl Mt19937 {
    /// The engine of `torch.Generator().manual_seed(seed)`: only `seed`'s low 32 bits
    /// count, so `seed` and `seed + 2^32` give the same stream (as in PyTorch).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn new(seed: u64) -> Mt19937 {
        Mt19937(rand_mt::Mt::new(seed as u32))
    }

    /// The next 32 random bits (`CPUGeneratorImpl::random`).
    #[inline]
    pub(crate) fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// The next 64 random bits (`CPUGeneratorImpl::random64`): the first 32-bit draw is
    /// the high half, the second the low half.
    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C++ standard's check for `std::mt19937` (\[rand.predef\]): the 10000th draw of
    /// a default-constructed engine (seed 5489) is 4123659995.
    #[test]
    fn ten_thousandth_draw_of_seed_5489_is_the_standards() {
        let mut g = Mt19937::new(5489);
        let mut last = 0;
        for _ in 0..10_000 {
            last = g.next_u32();
        }
        assert_eq!(last, 4_123_659_995);
    }

    /// `torch.Generator().manual_seed(0)`'s first draws (`torch.randint(0, 2**32, ...)`
    /// aside, these are the raw words `std::mt19937(0)` gives).
    #[test]
    fn seed_0_starts_with_std_mt19937s_words() {
        let mut g = Mt19937::new(0);
        let first: Vec<u32> = (0..3).map(|_| g.next_u32()).collect();
        assert_eq!(first, [2_357_136_044, 2_546_248_239, 3_071_714_933]);
    }

    #[test]
    fn only_the_low_32_bits_of_the_seed_count() {
        let mut a = Mt19937::new(5);
        let mut b = Mt19937::new((1 << 32) + 5);
        assert!((0..1000).all(|_| a.next_u32() == b.next_u32()));
    }

    #[test]
    fn a_64_bit_draw_is_two_32_bit_draws_high_first() {
        let mut a = Mt19937::new(7);
        let mut b = Mt19937::new(7);
        let (hi, lo) = (b.next_u32() as u64, b.next_u32() as u64);
        assert_eq!(a.next_u64(), (hi << 32) | lo);
    }
}
