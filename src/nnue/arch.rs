//! The network's shape and quantisation: the one definition that the
//! inference (`network`, `accumulator`), the SIMD kernels (`simd`), the
//! input features (`features`) and the trainer (`tools::train`) all read.
//! It depends on nothing.
//!
//! Architecture: `INPUTS` (1,260) sparse inputs per perspective → `HIDDEN`
//! (the accumulator, `i16`) per perspective → squared clipped ReLU on the
//! two accumulators (side to move first) → one of `BUCKETS` output neurons
//! chosen by material.
//!
//! Quantisation: feature weights and biases are scaled by `QA` (255) and
//! stored as `i16`, so the accumulator holds `QA * x`; the activation is
//! `clamp(acc, 0, QA)^2` (that is `QA^2 * screlu(x)`); output weights are
//! scaled by `QB` (64) and the output bias by `QA * QB`. The evaluation in
//! centipawns is `(sum / QA + bias) * SCALE / (QA * QB)`. The trainer clips
//! feature weights to `FT_CLIP` (so 32 pieces plus the bias cannot wrap an
//! `i16` accumulator) and output weights to `OUT_CLIP` (so a clipped
//! activation times a weight fits an `i16`, as the AVX2 kernel needs).

/// Inputs per perspective: (own or enemy piece kind, point), 14 x 90.
pub const INPUTS: usize = 14 * 90;
/// Output buckets (by piece count).
pub const BUCKETS: usize = 8;
/// Accumulator neurons per perspective.
pub const HIDDEN: usize = 256;
/// Feature weights and biases are scaled by this.
pub const QA: i32 = 255;
/// Output weights are scaled by this (the output bias by `QA * QB`).
pub const QB: i32 = 64;
/// Output units to centipawns.
pub const SCALE: i32 = 400;
/// The largest feature weight or bias, in float units.
pub const FT_CLIP: f32 = 32_000.0 / (33.0 * QA as f32);
/// The largest output weight, in float units.
pub const OUT_CLIP: f32 = 127.0 / QB as f32;

/// The bounds the SIMD kernels rely on, checked when a file is loaded: 32
/// pieces' feature weights plus the bias never wrap an `i16` accumulator,
/// and a clipped activation (at most `QA`) times an output weight fits an
/// `i16`. The trainer's clips (`FT_CLIP`, `OUT_CLIP`) stay inside them.
pub const FT_LIMIT: i16 = i16::MAX / 33;
pub const OUT_LIMIT: i16 = i16::MAX / QA as i16;
const _: () =
    assert!((FT_CLIP * QA as f32) < FT_LIMIT as f32 && (OUT_CLIP * QB as f32) <= OUT_LIMIT as f32);
