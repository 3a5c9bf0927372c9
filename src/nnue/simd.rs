//! The network's three hot loops, each twice: AVX2 (chosen at run time when
//! the CPU has it) and portable scalar code that gives bit-identical
//! results.
//!
//! Identical because both do the same integer arithmetic: accumulator
//! entries are `i16` with wrapping adds (as `_mm256_add_epi16`), the
//! activation's products are `i16 x i16 -> i16` wrapping (`mullo`) then
//! widened and summed in `i32` with wrapping adds (`madd`), and wrapping
//! sums do not depend on their order. The network's value ranges keep all
//! of these from actually wrapping (see `network.rs`).

use super::arch::{HIDDEN, QA};
use std::sync::atomic::{AtomicU8, Ordering};

/// One perspective's accumulator.
#[repr(C, align(64))]
#[derive(Clone, Copy)]
pub struct Accumulator(pub [i16; HIDDEN]);

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator([0; HIDDEN])
    }
}

/// 0: not yet detected, 1: scalar, 2: AVX2.
static KERNEL: AtomicU8 = AtomicU8::new(0);

/// Whether the AVX2 kernels are in use (detected once).
#[inline(always)]
pub fn avx2_enabled() -> bool {
    match KERNEL.load(Ordering::Relaxed) {
        2 => true,
        1 => false,
        _ => detect(),
    }
}

#[cold]
fn detect() -> bool {
    #[cfg(target_arch = "x86_64")]
    let yes = std::env::var_os("CHUHE_NO_AVX2").is_none() && is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    let yes = false;
    KERNEL.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
    yes
}

/// The name of the kernels in use, for `eval` and the logs.
pub fn kernel_name() -> &'static str {
    if avx2_enabled() { "avx2" } else { "scalar" }
}

/// The weight row of feature `f` in a feature-major weight table.
#[inline(always)]
fn row(weights: &[i16], f: usize) -> &[i16; HIDDEN] {
    weights[f * HIDDEN..(f + 1) * HIDDEN]
        .try_into()
        .expect("weight rows are HIDDEN long")
}

/// `dst = src + sum(rows of add) - sum(rows of sub)`.
#[inline]
pub fn update(
    dst: &mut Accumulator,
    src: &Accumulator,
    weights: &[i16],
    add: &[usize],
    sub: &[usize],
) {
    #[cfg(target_arch = "x86_64")]
    if avx2_enabled() {
        // SAFETY: the CPU supports AVX2 (checked by `avx2_enabled`).
        unsafe { avx2::update(dst, src, weights, add, sub) };
        return;
    }
    scalar::update(dst, src, weights, add, sub);
}

/// `acc = bias + sum(rows of features)`.
pub fn refresh(acc: &mut Accumulator, bias: &Accumulator, weights: &[i16], features: &[usize]) {
    update(acc, bias, weights, features, &[]);
}

/// `sum over i of clamp(acc[i], 0, QA)^2 * w[i]`, in the wrapping `i32`
/// arithmetic described at the top.
#[inline]
pub fn screlu_dot(acc: &Accumulator, w: &[i16]) -> i32 {
    let w: &[i16; HIDDEN] = w[..HIDDEN].try_into().expect("HIDDEN output weights");
    #[cfg(target_arch = "x86_64")]
    if avx2_enabled() {
        // SAFETY: the CPU supports AVX2 (checked by `avx2_enabled`).
        return unsafe { avx2::screlu_dot(acc, w) };
    }
    scalar::screlu_dot(acc, w)
}

pub mod scalar {
    use super::*;

    pub fn update(
        dst: &mut Accumulator,
        src: &Accumulator,
        weights: &[i16],
        add: &[usize],
        sub: &[usize],
    ) {
        dst.0 = src.0;
        for &f in add {
            for (d, w) in dst.0.iter_mut().zip(row(weights, f)) {
                *d = d.wrapping_add(*w);
            }
        }
        for &f in sub {
            for (d, w) in dst.0.iter_mut().zip(row(weights, f)) {
                *d = d.wrapping_sub(*w);
            }
        }
    }

    pub fn screlu_dot(acc: &Accumulator, w: &[i16; HIDDEN]) -> i32 {
        let mut sum = 0i32;
        for (&a, &w) in acc.0.iter().zip(w) {
            let v = a.clamp(0, QA as i16);
            let vw = v.wrapping_mul(w);
            sum = sum.wrapping_add(v as i32 * vw as i32);
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

    /// i16 lanes per 256-bit register.
    const LANES: usize = 16;
    const CHUNKS: usize = HIDDEN / LANES;
    // A width the kernels would cut short does not compile.
    const _: () = assert!(
        HIDDEN.is_multiple_of(LANES),
        "the hidden width must be a multiple of the AVX2 lane count"
    );

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(
        dst: &mut Accumulator,
        src: &Accumulator,
        weights: &[i16],
        add: &[usize],
        sub: &[usize],
    ) {
        for c in 0..CHUNKS {
            let o = c * LANES;
            // SAFETY: `o + LANES <= HIDDEN`, and every pointer below points
            // into a HIDDEN-long array (unaligned loads and stores).
            unsafe {
                let mut v = _mm256_loadu_si256(src.0.as_ptr().add(o) as *const __m256i);
                for &f in add {
                    let r = row(weights, f);
                    v = _mm256_add_epi16(
                        v,
                        _mm256_loadu_si256(r.as_ptr().add(o) as *const __m256i),
                    );
                }
                for &f in sub {
                    let r = row(weights, f);
                    v = _mm256_sub_epi16(
                        v,
                        _mm256_loadu_si256(r.as_ptr().add(o) as *const __m256i),
                    );
                }
                _mm256_storeu_si256(dst.0.as_mut_ptr().add(o) as *mut __m256i, v);
            }
        }
    }

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &Accumulator, w: &[i16; HIDDEN]) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for c in 0..CHUNKS {
            let o = c * LANES;
            // SAFETY: `o + LANES <= HIDDEN` for both arrays.
            let (a, wv) = unsafe {
                (
                    _mm256_loadu_si256(acc.0.as_ptr().add(o) as *const __m256i),
                    _mm256_loadu_si256(w.as_ptr().add(o) as *const __m256i),
                )
            };
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            let vw = _mm256_mullo_epi16(v, wv);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
        }
        // Horizontal sum of the eight i32 lanes.
        let lo = _mm256_castsi256_si128(sum);
        let hi = _mm256_extracti128_si256(sum, 1);
        let s = _mm_add_epi32(lo, hi);
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        _mm_cvtsi128_si32(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng(lcg: &mut crate::rng::Lcg) -> u64 {
        lcg.next_u64() >> 17
    }

    #[test]
    fn avx2_and_scalar_agree_bit_for_bit() {
        #[cfg(target_arch = "x86_64")]
        {
            if !is_x86_feature_detected!("avx2") {
                eprintln!("skipped: this CPU has no AVX2");
                return;
            }
            let mut seed = crate::rng::Lcg(99);
            let features = 40;
            let weights: Vec<i16> = (0..features * HIDDEN)
                .map(|_| (rng(&mut seed) % 2001) as i16 - 1000)
                .collect();
            for trial in 0..500 {
                let mut src = Accumulator::default();
                for v in src.0.iter_mut() {
                    // Include values outside 0..=QA and extreme ones.
                    *v = match trial % 3 {
                        0 => (rng(&mut seed) % 800) as i16 - 300,
                        1 => rng(&mut seed) as i16,
                        _ => (rng(&mut seed) % 256) as i16,
                    };
                }
                let add: Vec<usize> = (0..trial % 4)
                    .map(|_| rng(&mut seed) as usize % features)
                    .collect();
                let sub: Vec<usize> = (0..trial % 3)
                    .map(|_| rng(&mut seed) as usize % features)
                    .collect();
                let (mut a, mut b) = (Accumulator::default(), Accumulator::default());
                scalar::update(&mut a, &src, &weights, &add, &sub);
                // SAFETY: AVX2 support was checked above.
                unsafe { avx2::update(&mut b, &src, &weights, &add, &sub) };
                assert_eq!(a.0, b.0);
                let w: [i16; HIDDEN] = std::array::from_fn(|_| match trial % 2 {
                    0 => (rng(&mut seed) % 255) as i16 - 127,
                    _ => rng(&mut seed) as i16,
                });
                // SAFETY: as above.
                let fast = unsafe { avx2::screlu_dot(&a, &w) };
                assert_eq!(scalar::screlu_dot(&a, &w), fast);
            }
        }
    }
}
