//! The 32-bit Mersenne Twister, MT19937 (Matsumoto and Nishimura, 1998), seeded and
//! drawn as PyTorch's CPU generator does it (`at::mt19937` inside `CPUGeneratorImpl`).
//!
//! `torch.Generator().manual_seed(seed)` keeps only the low 32 bits of `seed` and fills
//! the 624-word state with Knuth's multiplier 1812433253 (the 2002 `init_genrand`), as
//! `std::mt19937` does. Each 32-bit draw is a tempered state word; a 64-bit draw
//! (`random64`) is two 32-bit draws, the first in the high half.

/// Words of state.
const N: usize = 624;
/// The offset of the word each twist mixes in.
const M: usize = 397;
/// The twist matrix's last row.
const MATRIX_A: u32 = 0x9908_b0df;
/// The bit a twist takes from the word itself.
const UPPER: u32 = 0x8000_0000;
/// The bits a twist takes from the next word.
const LOWER: u32 = 0x7fff_ffff;

/// MT19937 with PyTorch's seeding: equal seeds give equal streams, on every platform.
#[derive(Clone)]
pub(crate) struct Mt19937 {
    /// The state words.
    state: [u32; N],
    /// Index of the next word to temper; `N` when the state must be twisted first.
    next: usize,
}

impl Mt19937 {
    /// The engine of `torch.Generator().manual_seed(seed)`: only `seed`'s low 32 bits
    /// count, so `seed` and `seed + 2^32` give the same stream (as in PyTorch).
    #[cfg_attr(unoptimized, inline)]
    pub(crate) fn new(seed: u64) -> Mt19937 {
        let mut state = [0u32; N];
        state[0] = seed as u32;
        for j in 1..N {
            let prev = state[j - 1];
            state[j] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(j as u32);
        }
        Mt19937 { state, next: N }
    }

    /// Regenerates all `N` words (the "twist"); the first draw after seeding does this.
    #[cfg_attr(unoptimized, inline)]
    fn twist(&mut self) {
        let s = &mut self.state;
        for i in 0..N {
            let succ = s[(i + 1) % N];
            let mixed = (s[i] & UPPER) | (succ & LOWER);
            let odd = if succ & 1 != 0 { MATRIX_A } else { 0 };
            s[i] = s[(i + M) % N] ^ (mixed >> 1) ^ odd;
        }
        self.next = 0;
    }

    /// The next 32 random bits (`CPUGeneratorImpl::random`).
    #[inline]
    pub(crate) fn next_u32(&mut self) -> u32 {
        if self.next == N {
            self.twist();
        }
        let mut y = self.state[self.next];
        self.next += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// The next 64 random bits (`CPUGeneratorImpl::random64`): the first 32-bit draw is
    /// the high half, the second the low half.
    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        let hi = self.next_u32() as u64;
        let lo = self.next_u32() as u64;
        (hi << 32) | lo
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
