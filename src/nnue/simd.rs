//! The network's hot loops, each twice: AVX2 (chosen at run time when the
//! CPU has it) and portable scalar code that gives bit-identical results.
//!
//! Identical because both do the same integer arithmetic: accumulator
//! entries are `i16` with wrapping adds (as `_mm256_add_epi16`), the
//! activation's products are `i16 x i16 -> i16` wrapping (`mullo`) then
//! widened and summed in `i32` with wrapping adds (`madd`), and wrapping
//! sums do not depend on their order. The network's value ranges keep all
//! of these from actually wrapping (see `arch`).
//!
//! Widths come from the network's shape at run time; every slice is a
//! multiple of `HIDDEN_STEP` (32 `i16` lanes) long, which `Shape::check`
//! guarantees for the accumulators.

use super::arch::{HIDDEN_STEP, QA};
use std::sync::atomic::{AtomicU8, Ordering};

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

/// The weight row of feature `f` in a feature-major weight table with rows
/// `width` long.
#[inline(always)]
fn row(weights: &[i16], f: usize, width: usize) -> &[i16] {
    &weights[f * width..(f + 1) * width]
}

/// `dst = src + sum(rows of add) - sum(rows of sub)`; the rows are
/// `dst.len()` long.
#[inline]
pub fn update(dst: &mut [i16], src: &[i16], weights: &[i16], add: &[usize], sub: &[usize]) {
    debug_assert!(dst.len() == src.len() && dst.len().is_multiple_of(HIDDEN_STEP));
    #[cfg(target_arch = "x86_64")]
    if avx2_enabled() {
        // SAFETY: the CPU supports AVX2 (checked by `avx2_enabled`).
        unsafe { avx2::update(dst, src, weights, add, sub) };
        return;
    }
    scalar::update(dst, src, weights, add, sub);
}

/// `acc += sum(rows of add) - sum(rows of sub)`.
#[inline]
pub fn update_in_place(acc: &mut [i16], weights: &[i16], add: &[usize], sub: &[usize]) {
    debug_assert!(acc.len().is_multiple_of(HIDDEN_STEP));
    if add.is_empty() && sub.is_empty() {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if avx2_enabled() {
        // SAFETY: the CPU supports AVX2 (checked by `avx2_enabled`).
        unsafe { avx2::update_in_place(acc, weights, add, sub) };
        return;
    }
    scalar::update_in_place(acc, weights, add, sub);
}

/// `acc = bias + sum(rows of features)`.
pub fn refresh(acc: &mut [i16], bias: &[i16], weights: &[i16], features: &[usize]) {
    update(acc, bias, weights, features, &[]);
}

/// `sum over i of clamp(acc[i], 0, QA)^2 * w[i]`, in the wrapping `i32`
/// arithmetic described at the top (the straight head).
#[inline]
pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
    debug_assert!(w.len() == acc.len() && acc.len().is_multiple_of(HIDDEN_STEP));
    #[cfg(target_arch = "x86_64")]
    if avx2_enabled() {
        // SAFETY: the CPU supports AVX2 (checked by `avx2_enabled`).
        return unsafe { avx2::screlu_dot(acc, w) };
    }
    scalar::screlu_dot(acc, w)
}

/// `out[i] = clamp(acc[i], 0, QA)^2 >> 9` (0..=127): the layered head's
/// input, one byte each.
#[inline]
pub fn activate(acc: &[i16], out: &mut [u8]) {
    debug_assert!(out.len() == acc.len() && acc.len().is_multiple_of(HIDDEN_STEP));
    #[cfg(target_arch = "x86_64")]
    if avx2_enabled() {
        // SAFETY: the CPU supports AVX2 (checked by `avx2_enabled`).
        unsafe { avx2::activate(acc, out) };
        return;
    }
    scalar::activate(acc, out);
}

/// Where input `j` of output `i` sits in the dense layer's weights as the
/// kernel reads them: inputs in groups of four, each group holding the
/// four weights of every output in turn (`outputs` of them).
#[inline(always)]
pub fn dense_index(i: usize, j: usize, outputs: usize) -> usize {
    ((j / 4) * outputs + i) * 4 + j % 4
}

/// The dense layer: `out[i] = sum over j of act[j] * w(i, j)` in `i32`,
/// `w` in the layout of `dense_index`, `outputs` (a multiple of 8)
/// outputs. Groups of four inputs that are all zero (the clipped ReLU
/// makes many) are skipped.
#[inline]
pub fn dense(act: &[u8], w: &[i8], out: &mut [i32]) {
    debug_assert!(out.len().is_multiple_of(8) && w.len() == act.len() * out.len());
    #[cfg(target_arch = "x86_64")]
    if avx2_enabled() {
        // SAFETY: the CPU supports AVX2 (checked by `avx2_enabled`).
        unsafe { avx2::dense(act, w, out) };
        return;
    }
    scalar::dense(act, w, out);
}

pub mod scalar {
    use super::*;

    pub fn update(dst: &mut [i16], src: &[i16], weights: &[i16], add: &[usize], sub: &[usize]) {
        dst.copy_from_slice(src);
        update_in_place(dst, weights, add, sub);
    }

    pub fn update_in_place(dst: &mut [i16], weights: &[i16], add: &[usize], sub: &[usize]) {
        let width = dst.len();
        for &f in add {
            for (d, w) in dst.iter_mut().zip(row(weights, f, width)) {
                *d = d.wrapping_add(*w);
            }
        }
        for &f in sub {
            for (d, w) in dst.iter_mut().zip(row(weights, f, width)) {
                *d = d.wrapping_sub(*w);
            }
        }
    }

    pub fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        let mut sum = 0i32;
        for (&a, &w) in acc.iter().zip(w) {
            let v = a.clamp(0, QA as i16);
            let vw = v.wrapping_mul(w);
            sum = sum.wrapping_add(v as i32 * vw as i32);
        }
        sum
    }

    pub fn activate(acc: &[i16], out: &mut [u8]) {
        for (o, &a) in out.iter_mut().zip(acc) {
            let v = a.clamp(0, QA as i16) as u16;
            *o = ((v * v) >> 9) as u8;
        }
    }

    pub fn dense(act: &[u8], w: &[i8], out: &mut [i32]) {
        let n = out.len();
        out.fill(0);
        for (g, a) in act.chunks_exact(4).enumerate() {
            if a == [0; 4] {
                continue;
            }
            let wg = &w[g * n * 4..(g + 1) * n * 4];
            for (o, wi) in out.iter_mut().zip(wg.chunks_exact(4)) {
                *o += (0..4).map(|k| a[k] as i32 * wi[k] as i32).sum::<i32>();
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

    /// i16 lanes per 256-bit register.
    const LANES: usize = 16;
    // A width the kernels would cut short does not compile.
    const _: () = assert!(
        HIDDEN_STEP.is_multiple_of(LANES),
        "accumulator widths must be multiples of the AVX2 lane count"
    );

    #[inline(always)]
    unsafe fn load(s: &[i16], o: usize) -> __m256i {
        debug_assert!(o + LANES <= s.len());
        // SAFETY: the caller keeps `o + LANES <= s.len()` (unaligned load).
        unsafe { _mm256_loadu_si256(s.as_ptr().add(o) as *const __m256i) }
    }

    /// Sum of the eight `i32` lanes.
    #[inline(always)]
    unsafe fn horizontal_sum(sum: __m256i) -> i32 {
        // SAFETY: register arithmetic only; the caller enabled AVX2.
        unsafe {
            let lo = _mm256_castsi256_si128(sum);
            let hi = _mm256_extracti128_si256(sum, 1);
            let s = _mm_add_epi32(lo, hi);
            let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
            _mm_cvtsi128_si32(s)
        }
    }

    /// Calls `$body` with `$w` a constant for the usual widths, so that
    /// their loops compile to straight code, and as it is otherwise.
    macro_rules! with_width {
        ($width:expr, $w:ident => $body:expr) => {
            match $width {
                256 => {
                    let $w = 256;
                    $body
                }
                512 => {
                    let $w = 512;
                    $body
                }
                1024 => {
                    let $w = 1024;
                    $body
                }
                $w => $body,
            }
        };
    }

    /// The most rows one `update` adds or subtracts (a refresh adds one per
    /// piece).
    const MAX_ROWS: usize = 32;

    /// The rows of `features`, their bounds checked once.
    #[inline(always)]
    fn rows(weights: &[i16], features: &[usize], width: usize) -> [*const i16; MAX_ROWS] {
        assert!(features.len() <= MAX_ROWS);
        let mut r = [std::ptr::null::<i16>(); MAX_ROWS];
        for (p, &f) in r.iter_mut().zip(features) {
            *p = row(weights, f, width).as_ptr();
        }
        r
    }

    /// `dst = src + rows of add - rows of sub`, `width` entries; `dst` may
    /// be `src`.
    ///
    /// # Safety
    /// AVX2; `src`, `dst` and every row point at `width` valid entries,
    /// `width` a multiple of 16.
    #[inline(always)]
    unsafe fn kernel(
        dst: *mut i16,
        src: *const i16,
        width: usize,
        adds: &[*const i16],
        subs: &[*const i16],
    ) {
        with_width!(width, w => {
            for o in (0..w).step_by(LANES) {
                // SAFETY: `o + LANES <= width` for `src`, `dst` and every
                // row (the caller's promise).
                unsafe {
                    let mut v = _mm256_loadu_si256(src.add(o) as *const __m256i);
                    for &r in adds {
                        v = _mm256_add_epi16(v, _mm256_loadu_si256(r.add(o) as *const __m256i));
                    }
                    for &r in subs {
                        v = _mm256_sub_epi16(v, _mm256_loadu_si256(r.add(o) as *const __m256i));
                    }
                    _mm256_storeu_si256(dst.add(o) as *mut __m256i, v);
                }
            }
        });
    }

    /// `kernel` on the rows of features `add` and `sub`. A move's shapes (one row added and one or two taken off,
    /// two of each) go to `kernel` with arrays, whose lengths it then
    /// knows, so that its row loops unroll into straight code; anything
    /// else (a refresh) takes the row lists as they are.
    ///
    /// # Safety
    /// AVX2; `src` and `dst` point at `width` valid entries, a multiple of
    /// 16.
    #[inline(always)]
    unsafe fn apply(
        dst: *mut i16,
        src: *const i16,
        width: usize,
        weights: &[i16],
        add: &[usize],
        sub: &[usize],
    ) {
        let r = |f: usize| row(weights, f, width).as_ptr();
        // SAFETY: every row comes from `row` or `rows`, bounds checked,
        // `width` long; `src` and `dst` are the caller's promise.
        unsafe {
            match (add, sub) {
                ([a], [s]) => kernel(dst, src, width, &[r(*a)], &[r(*s)]),
                ([a], [s, t]) => kernel(dst, src, width, &[r(*a)], &[r(*s), r(*t)]),
                ([a, b], [s, t]) => kernel(dst, src, width, &[r(*a), r(*b)], &[r(*s), r(*t)]),
                _ => {
                    let (adds, subs) = (rows(weights, add, width), rows(weights, sub, width));
                    kernel(dst, src, width, &adds[..add.len()], &subs[..sub.len()]);
                }
            }
        }
    }

    /// # Safety
    /// The CPU must support AVX2; `dst` and `src` are as long as a weight
    /// row, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(
        dst: &mut [i16],
        src: &[i16],
        weights: &[i16],
        add: &[usize],
        sub: &[usize],
    ) {
        let width = dst.len();
        assert!(src.len() == width && width.is_multiple_of(LANES));
        // SAFETY: both slices are `width` long.
        unsafe { apply(dst.as_mut_ptr(), src.as_ptr(), width, weights, add, sub) };
    }

    /// # Safety
    /// The CPU must support AVX2; `acc` is as long as a weight row, a
    /// multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_in_place(acc: &mut [i16], weights: &[i16], add: &[usize], sub: &[usize]) {
        let width = acc.len();
        assert!(width.is_multiple_of(LANES));
        let p = acc.as_mut_ptr();
        // SAFETY: `acc` is `width` long, source and destination alike.
        unsafe { apply(p, p, width, weights, add, sub) };
    }

    /// # Safety
    /// The CPU must support AVX2; the slices are equally long, a multiple
    /// of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], w: &[i16]) -> i32 {
        assert!(w.len() == acc.len() && acc.len().is_multiple_of(LANES));
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        with_width!(acc.len(), n => {
            for o in (0..n).step_by(LANES) {
                // SAFETY: `o + LANES <= len` for both slices.
                let (a, wv) = unsafe { (load(acc, o), load(w, o)) };
                let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                let vw = _mm256_mullo_epi16(v, wv);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
            }
        });
        // SAFETY: AVX2 is enabled here.
        unsafe { horizontal_sum(sum) }
    }

    /// # Safety
    /// The CPU must support AVX2; the slices are equally long, a multiple
    /// of 32.
    #[target_feature(enable = "avx2")]
    pub unsafe fn activate(acc: &[i16], out: &mut [u8]) {
        assert!(out.len() == acc.len() && acc.len().is_multiple_of(2 * LANES));
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let square = |x: __m256i| {
            let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
            // v * v fits 16 bits unsigned (at most 65,025); the logical
            // shift reads it so.
            _mm256_srli_epi16(_mm256_mullo_epi16(v, v), 9)
        };
        with_width!(acc.len(), n => {
            for o in (0..n).step_by(2 * LANES) {
                // SAFETY: `o + 2 * LANES <= len` for `acc`, and `out` has a
                // byte for each.
                unsafe {
                    let (a, b) = (square(load(acc, o)), square(load(acc, o + LANES)));
                    // `packus` interleaves the two registers' 128-bit
                    // halves; the permutation puts the bytes back in order.
                    let packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0b11_01_10_00);
                    _mm256_storeu_si256(out.as_mut_ptr().add(o) as *mut __m256i, packed);
                }
            }
        });
    }

    /// # Safety
    /// The CPU must support AVX2; `act.len()` is a multiple of 32,
    /// `out.len()` a multiple of 8 and at most `MAX_LAYER`, `w` as
    /// `simd::dense` says.
    #[target_feature(enable = "avx2")]
    pub unsafe fn dense(act: &[u8], w: &[i8], out: &mut [i32]) {
        use crate::nnue::arch::MAX_LAYER;
        let n = out.len();
        assert!(
            n.is_multiple_of(8)
                && n <= MAX_LAYER
                && act.len().is_multiple_of(32)
                && w.len() == act.len() * n
        );
        // The indices of the groups of four inputs that are not all zero.
        let mut groups = [0u16; crate::nnue::arch::MAX_HIDDEN / 2];
        let mut count = 0;
        let zero = _mm256_setzero_si256();
        for o in (0..act.len()).step_by(32) {
            // SAFETY: `o + 32 <= act.len()`.
            let v = unsafe { _mm256_loadu_si256(act.as_ptr().add(o) as *const __m256i) };
            let nonzero =
                !_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, zero))) & 0xff;
            let mut bits = nonzero as u32;
            while bits != 0 {
                groups[count] = (o / 4) as u16 + bits.trailing_zeros() as u16;
                count += 1;
                bits &= bits - 1;
            }
        }
        let ones = _mm256_set1_epi16(1);
        let mut sums = [zero; MAX_LAYER / 8];
        let regs = n / 8;
        for &g in &groups[..count] {
            let g = g as usize;
            // SAFETY: group `g` starts at byte `4 g < act.len()`; its
            // weights are `w[g * n * 4..(g + 1) * n * 4]`, 32 bytes a
            // register, `regs` registers.
            unsafe {
                let a = _mm256_set1_epi32((act.as_ptr().add(4 * g) as *const i32).read_unaligned());
                let wg = w.as_ptr().add(g * n * 4);
                for (r, sum) in sums[..regs].iter_mut().enumerate() {
                    let wv = _mm256_loadu_si256(wg.add(32 * r) as *const __m256i);
                    // Bytes 0..=127 times weights -127..=127: each pair of
                    // products fits an i16 (maddubs saturates beyond).
                    let pairs = _mm256_maddubs_epi16(a, wv);
                    *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(pairs, ones));
                }
            }
        }
        for (r, sum) in sums[..regs].iter().enumerate() {
            // SAFETY: `8 r + 8 <= n = out.len()`.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(8 * r) as *mut __m256i, *sum) };
        }
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
            for width in [32, 256, 512, 1056] {
                let weights: Vec<i16> = (0..features * width)
                    .map(|_| (rng(&mut seed) % 2001) as i16 - 1000)
                    .collect();
                for trial in 0..200 {
                    let mut src = vec![0i16; width];
                    for v in src.iter_mut() {
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
                    let (mut a, mut b) = (vec![0i16; width], vec![0i16; width]);
                    scalar::update(&mut a, &src, &weights, &add, &sub);
                    // SAFETY: AVX2 support was checked above.
                    unsafe { avx2::update(&mut b, &src, &weights, &add, &sub) };
                    assert_eq!(a, b);
                    let (mut c, mut d) = (src.clone(), src.clone());
                    scalar::update_in_place(&mut c, &weights, &add, &sub);
                    // SAFETY: as above.
                    unsafe { avx2::update_in_place(&mut d, &weights, &add, &sub) };
                    assert_eq!((&a, &a), (&c, &d));
                    let w: Vec<i16> = (0..width)
                        .map(|_| match trial % 2 {
                            0 => (rng(&mut seed) % 255) as i16 - 127,
                            _ => rng(&mut seed) as i16,
                        })
                        .collect();
                    // SAFETY: as above.
                    let fast = unsafe { avx2::screlu_dot(&a, &w) };
                    assert_eq!(scalar::screlu_dot(&a, &w), fast);
                    let (mut x, mut y) = (vec![0u8; width], vec![0u8; width]);
                    scalar::activate(&a, &mut x);
                    // SAFETY: as above.
                    unsafe { avx2::activate(&a, &mut y) };
                    assert_eq!(x, y);
                    assert!(x.iter().all(|&v| v <= 127));
                    let n = [8, 16, 64][trial % 3];
                    let natural: Vec<i8> = (0..n * width)
                        .map(|_| (rng(&mut seed) % 255) as i8 - 127 + (rng(&mut seed) % 2) as i8)
                        .collect();
                    let mut laid = vec![0i8; n * width];
                    for i in 0..n {
                        for j in 0..width {
                            laid[dense_index(i, j, n)] = natural[i * width + j];
                        }
                    }
                    let want: Vec<i32> = (0..n)
                        .map(|i| {
                            (0..width)
                                .map(|j| x[j] as i32 * natural[i * width + j] as i32)
                                .sum()
                        })
                        .collect();
                    let (mut p, mut q) = (vec![0i32; n], vec![0i32; n]);
                    scalar::dense(&x, &laid, &mut p);
                    // SAFETY: as above.
                    unsafe { avx2::dense(&x, &laid, &mut q) };
                    assert_eq!(p, want);
                    assert_eq!(q, want);
                }
            }
        }
    }

    #[test]
    fn activation_is_the_scaled_square() {
        let acc: Vec<i16> = (0..32).map(|i| i * 20 - 100).collect();
        let mut out = vec![0; 32];
        scalar::activate(&acc, &mut out);
        for (a, o) in acc.iter().zip(&out) {
            let v = (*a).clamp(0, QA as i16) as i32;
            assert_eq!(*o as i32, v * v / 512);
        }
    }
}
