//! The network's shape and quantisation: the one definition that the
//! inference (`network`, `accumulator`), the SIMD kernels (`simd`), the
//! input features (`features`) and the trainer (`tools::train`) all read.
//! It depends on nothing.
//!
//! A network's shape (`Shape`) is written in its file, so that a bigger
//! network is trained and loaded (`EvalFile`) without rebuilding chuhe:
//!
//! * inputs: (own or enemy piece kind, point) per perspective, 14 x 90 =
//!   1,260, once per **input bucket**: with `InputBuckets::KingPalace` the
//!   perspective's own king's palace point picks one of 6 sets (the palace's
//!   3 ranks x {side file, middle file}; a king on the right-hand file sees
//!   the whole board mirrored left-right, so its left and right twins share
//!   weights);
//! * the accumulator: `hidden` neurons per perspective (`i16`), updated
//!   move by move;
//! * the head, one per **output bucket** (by the number of pieces):
//!   either straight from the squared clipped ReLU of the two accumulators
//!   (side to move first) to the output (`l2 == 0`: the first generation's
//!   head), or through one or two small dense layers with clipped ReLU
//!   (`l2`, then `l3`, then one output).
//!
//! Quantisation: feature weights and biases are scaled by `QA` (255) and
//! stored as `i16`, so the accumulator holds `QA * x`. The straight head
//! computes `clamp(acc, 0, QA)^2` (`QA^2 * screlu(x)`) times output
//! weights scaled by `QB` (64), bias scaled by `QA * QB`; the evaluation in
//! centipawns is `(sum / QA + bias) * SCALE / (QA * QB)`. The layered head
//! turns each accumulator entry into `act = clamp(acc, 0, QA)^2 >> 9`
//! (`ACT_SCALE * screlu(x)`, 0..=127, a byte) and multiplies by the first
//! dense layer's weights scaled by `QB` (`i8`, summed in `i32`; groups of
//! four zero activations are skipped); from there on the
//! few remaining numbers are `f32`, and the output times `SCALE` is the
//! evaluation in centipawns. The trainer clips feature weights to `FT_CLIP`
//! (so 32 pieces plus the bias cannot wrap an `i16` accumulator) and the
//! `i16` weights after them to `OUT_CLIP` (so a clipped activation times a
//! weight fits an `i16`, as the AVX2 kernels need).

/// Piece inputs per input bucket: (own or enemy piece kind, point), 14 x 90.
pub const PIECE_INPUTS: usize = 14 * 90;
/// The widest accumulator a file may ask for.
pub const MAX_HIDDEN: usize = 2048;
/// The widest dense layer after the accumulator.
pub const MAX_LAYER: usize = 64;
/// The most output buckets.
pub const MAX_OUT_BUCKETS: usize = 8;
/// Accumulator widths are multiples of this (two AVX2 registers of `i16`,
/// which the activation packs into one of bytes).
pub const HIDDEN_STEP: usize = 32;
/// The first dense layer's width is a multiple of this (eight `i32` sums
/// to a register).
pub const L2_STEP: usize = 8;
/// Feature weights and biases are scaled by this.
pub const QA: i32 = 255;
/// Weights after the accumulator are scaled by this (the straight head's
/// output bias by `QA * QB`).
pub const QB: i32 = 64;
/// Output units to centipawns.
pub const SCALE: i32 = 400;
/// `act = clamp(acc, 0, QA)^2 >> 9` is `ACT_SCALE * screlu(x)`.
pub const ACT_SCALE: f32 = (QA * QA) as f32 / 512.0;
/// The largest feature weight or bias, in float units.
pub const FT_CLIP: f32 = 32_000.0 / (33.0 * QA as f32);
/// The largest weight after the accumulator, in float units (the straight
/// head's are `i16`, the first dense layer's `i8`).
pub const OUT_CLIP: f32 = 127.0 / QB as f32;
/// The largest float weight or bias of the layers after the first dense one.
pub const LAYER_CLIP: f32 = 64.0;

/// The bounds the SIMD kernels rely on, checked when a file is loaded: 32
/// pieces' feature weights plus the bias never wrap an `i16` accumulator,
/// and a clipped activation (at most `QA`) times an output weight fits an
/// `i16`. The trainer's clips (`FT_CLIP`, `OUT_CLIP`) stay inside them.
pub const FT_LIMIT: i16 = i16::MAX / 33;
pub const OUT_LIMIT: i16 = i16::MAX / QA as i16;
const _: () =
    assert!((FT_CLIP * QA as f32) < FT_LIMIT as f32 && (OUT_CLIP * QB as f32) <= OUT_LIMIT as f32);
// The first dense layer's `i32` sums cannot wrap: 2 * MAX_HIDDEN
// activations of at most 127 times `i8` weights.
const _: () = assert!(2 * MAX_HIDDEN as i64 * 127 * 128 < i32::MAX as i64);

/// How the inputs are split by where the perspective's own king stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputBuckets {
    /// One set of inputs; the board is never mirrored.
    None,
    /// Six sets by the king's palace point, mirrored left-right.
    KingPalace,
}

impl InputBuckets {
    pub const fn count(self) -> usize {
        match self {
            InputBuckets::None => 1,
            InputBuckets::KingPalace => 6,
        }
    }

    /// The code in a network file.
    pub const fn code(self) -> u32 {
        match self {
            InputBuckets::None => 0,
            InputBuckets::KingPalace => 1,
        }
    }

    pub const fn from_code(code: u32) -> Option<InputBuckets> {
        match code {
            0 => Some(InputBuckets::None),
            1 => Some(InputBuckets::KingPalace),
            _ => None,
        }
    }
}

/// A network's shape: everything a file, the inference and the trainer
/// must agree on besides the weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub input_buckets: InputBuckets,
    /// Accumulator neurons per perspective.
    pub hidden: usize,
    /// The first dense layer's width; 0: no dense layers (the straight head).
    pub l2: usize,
    /// The second dense layer's width; 0: none.
    pub l3: usize,
    /// Output buckets by the number of pieces on the board.
    pub out_buckets: usize,
}

impl Shape {
    /// The first generation's shape (the shipped network until the second
    /// generation): 1,260 inputs, 256 neurons, the straight head, one output.
    pub const FIRST: Shape = Shape {
        input_buckets: InputBuckets::None,
        hidden: 256,
        l2: 0,
        l3: 0,
        out_buckets: 1,
    };

    /// Inputs per perspective.
    pub const fn inputs(&self) -> usize {
        self.input_buckets.count() * PIECE_INPUTS
    }

    /// The width of the last layer before the output.
    pub const fn last(&self) -> usize {
        if self.l3 > 0 { self.l3 } else { self.l2 }
    }

    /// Whether the inference and the trainer support this shape; says why
    /// not.
    pub fn check(&self) -> Result<(), String> {
        if self.hidden == 0 || self.hidden > MAX_HIDDEN || !self.hidden.is_multiple_of(HIDDEN_STEP)
        {
            return Err(format!(
                "accumulator width {} (must be a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN})",
                self.hidden
            ));
        }
        if self.l2 > MAX_LAYER || self.l3 > MAX_LAYER {
            return Err(format!(
                "dense layers {} and {} (at most {MAX_LAYER} wide)",
                self.l2, self.l3
            ));
        }
        if !self.l2.is_multiple_of(L2_STEP) {
            return Err(format!(
                "first dense layer {} wide (must be a multiple of {L2_STEP})",
                self.l2
            ));
        }
        if self.l2 == 0 && self.l3 != 0 {
            return Err("a second dense layer without a first".into());
        }
        if self.out_buckets == 0 || self.out_buckets > MAX_OUT_BUCKETS {
            return Err(format!(
                "{} output buckets (1 to {MAX_OUT_BUCKETS})",
                self.out_buckets
            ));
        }
        Ok(())
    }

    /// Reads the trainer's `--shape` text: `[k6-]HIDDEN[-L2[-L3]][/BUCKETS]`,
    /// for example `256/1` (the first generation) or `k6-512-16-32/8`.
    pub fn parse(text: &str) -> Result<Shape, String> {
        let bad = || format!("bad network shape '{text}' (e.g. 256/1 or k6-512-16-32/8)");
        let (layers, buckets) = match text.split_once('/') {
            Some((l, b)) => (l, b.parse::<usize>().map_err(|_| bad())?),
            None => (text, 1),
        };
        let (input_buckets, layers) = match layers.strip_prefix("k6-") {
            Some(rest) => (InputBuckets::KingPalace, rest),
            None => (InputBuckets::None, layers),
        };
        let widths: Vec<usize> = layers
            .split('-')
            .map(|w| w.parse::<usize>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        if widths.is_empty() || widths.len() > 3 {
            return Err(bad());
        }
        let shape = Shape {
            input_buckets,
            hidden: widths[0],
            l2: widths.get(1).copied().unwrap_or(0),
            l3: widths.get(2).copied().unwrap_or(0),
            out_buckets: buckets,
        };
        shape.check().map_err(|e| format!("{}: {e}", bad()))?;
        if shape.l2 == 0 && widths.len() > 1 {
            return Err(bad());
        }
        Ok(shape)
    }
}

impl std::fmt::Display for Shape {
    /// The `--shape` text, which `parse` reads back.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        if self.input_buckets == InputBuckets::KingPalace {
            write!(f, "k6-")?;
        }
        write!(f, "{}", self.hidden)?;
        for w in [self.l2, self.l3] {
            if w > 0 {
                write!(f, "-{w}")?;
            }
        }
        write!(f, "/{}", self.out_buckets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_parse_and_print_back() {
        for text in ["256/1", "256/8", "k6-512-16-32/8", "k6-1024/1", "512-16/4"] {
            let s = Shape::parse(text).unwrap();
            assert_eq!(s.to_string(), text);
        }
        assert_eq!(Shape::parse("256").unwrap(), Shape::FIRST);
        let s = Shape::parse("k6-512-16-32/8").unwrap();
        assert_eq!(s.inputs(), 6 * 1260);
        assert_eq!(s.last(), 32);
        for bad in [
            "",
            "k6-",
            "255/1",
            "256/0",
            "256/9",
            "256-0-8/1",
            "256-65/1",
            "4096/1",
            "x",
            "256/1/2",
            "256-16-32-8/1",
            "256-0/1",
        ] {
            assert!(Shape::parse(bad).is_err(), "{bad}");
        }
    }
}
