//! The small seeded generators, the one home of each: no crate, the same
//! numbers on every build and platform, so that whatever is drawn from a
//! seed (Zobrist keys, book choices, skill deviations, opening schedules,
//! self-play games, SPSA signs, property tests) can be reproduced.
//!
//! - [`SplitMix`] (SplitMix64): good statistical quality; the keys, the
//!   book's weighted choice, skill levels, shuffles.
//! - [`XorShift`] (xorshift64, shifts 13/7/17): the cheapest; SPSA signs and
//!   test playouts. Its state must not be zero.
//! - [`Lcg`] (Knuth's MMIX constants): test fixtures only; callers use the
//!   high bits.

/// One SplitMix64 step: the next state and the output. `const`, so that
/// key tables can be drawn at compile time.
pub const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// The top 53 bits of `x` as a fraction in `[0, 1)`.
pub fn unit_from(x: u64) -> f64 {
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// SplitMix64, seeded with its state.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = splitmix(self.0);
        self.0 = state;
        out
    }

    /// Uniform in `0..n` (`n > 0`), by rejection so no value is favoured.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        unit_from(self.next_u64())
    }
}

/// xorshift64 (13, 7, 17), seeded with a non-zero state.
#[derive(Clone, Debug)]
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// In `0..n` (`n > 0`) by the remainder: a slight bias, fine for tests.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        unit_from(self.next_u64())
    }

    /// `+1.0` or `-1.0`, from the top bit.
    pub fn sign(&mut self) -> f64 {
        if self.next_u64() >> 63 == 0 {
            1.0
        } else {
            -1.0
        }
    }
}

/// A 64-bit linear congruential generator; the low bits are weak, so
/// callers shift the output down.
#[derive(Clone, Debug)]
pub struct Lcg(pub u64);

impl Lcg {
    /// The next state (the whole of it).
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_known_values() {
        // The reference SplitMix64 from seed 0.
        let mut r = SplitMix(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn below_stays_in_range() {
        let mut s = SplitMix(7);
        let mut x = XorShift(7);
        for n in 1..50 {
            assert!(s.below(n) < n);
            assert!(x.below(n as usize) < n as usize);
            let u = s.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
