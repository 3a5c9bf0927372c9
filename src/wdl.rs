//! Win/draw/loss chances from a search score, for `UCI_ShowWDL`.
//!
//! The model (the shape Stockfish uses, fitted to xiangqi): for a score `s`
//! in centipawns from the side to move's view and the material `m` left on
//! the board,
//!
//! ```text
//! win  = 1 / (1 + exp(-(s - c - a(m)) / b(m)))
//! loss = 1 / (1 + exp( (s - c + a(m)) / b(m)))
//! draw = 1 - win - loss
//! ```
//!
//! `a(m)` is the score at which a win becomes as likely as not, `b(m)` how
//! quickly the chances change with the score; both are cubic polynomials in
//! `x = m / MATERIAL_MAX`. `c` is the score that is really level: in the
//! master games the side to move with a score of 0 lost more often than it
//! won. The coefficients in `wdl_params.rs` are fitted by
//! `chuhe wdl-fit` (maximum likelihood over the master games' results
//! against chuhe's score of their positions; `tools::wdl_fit` tells how).

use crate::position::Position;
use crate::types::*;
pub use crate::wdl_params::{A, B, OFFSET};

/// Material weights for the model: chariot 4, horse and cannon 2, pawn 1
/// (both sides, advisors, elephants and kings left out).
pub const MATERIAL_MAX: i32 = 2 * (2 * 4 + 2 * 2 + 2 * 2 + 5);

/// The material that sets the model's curves.
pub fn material(pos: &Position) -> i32 {
    let count = |k| pos.pieces_kind(k).count() as i32;
    let m = 4 * count(PieceKind::Chariot)
        + 2 * (count(PieceKind::Horse) + count(PieceKind::Cannon))
        + count(PieceKind::Pawn);
    m.clamp(0, MATERIAL_MAX)
}

fn poly(c: &[f64; 4], x: f64) -> f64 {
    ((c[3] * x + c[2]) * x + c[1]) * x + c[0]
}

/// `a(m)` and `b(m)` in centipawns (`b` kept positive and `a` above zero,
/// so that the draw chance never goes negative).
pub fn curve(material: i32) -> (f64, f64) {
    let x = f64::from(material.clamp(0, MATERIAL_MAX)) / f64::from(MATERIAL_MAX);
    (poly(&A, x).max(1.0), poly(&B, x).max(10.0))
}

/// Win and loss probabilities for a plain (not mate) score.
pub fn probabilities(score: f64, material: i32) -> (f64, f64) {
    let (a, b) = curve(material);
    let score = score - OFFSET;
    let win = 1.0 / (1.0 + (-(score - a) / b).exp());
    let loss = 1.0 / (1.0 + ((score + a) / b).exp());
    (win, loss)
}

/// `(win, draw, loss)` per mille, summing to 1000, from the side to move's
/// view. Mate scores are certain.
pub fn wdl(score: Score, material: i32) -> (u32, u32, u32) {
    if score >= DECISIVE_BOUND {
        return (1000, 0, 0);
    }
    if score <= -DECISIVE_BOUND {
        return (0, 0, 1000);
    }
    let (w, l) = probabilities(f64::from(score), material);
    let w = (w * 1000.0).round().clamp(0.0, 1000.0) as u32;
    let l = (l * 1000.0).round().clamp(0.0, f64::from(1000 - w)) as u32;
    (w, 1000 - w - l, l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_are_per_mille_and_follow_the_score() {
        let full = material(&Position::startpos());
        assert_eq!(full, MATERIAL_MAX);
        for m in [0, 10, 20, MATERIAL_MAX] {
            let mut last = (0, 0, 1000);
            for s in (-3000..=3000).step_by(50) {
                let (w, d, l) = wdl(s, m);
                assert_eq!(w + d + l, 1000);
                assert!(w >= last.0 && l <= last.2, "{s} {m}");
                last = (w, d, l);
            }
            let (w, _, l) = wdl(OFFSET.round() as Score, m);
            assert!(w.abs_diff(l) <= 1, "the level score is symmetric");
            assert!(wdl(3000, m).0 > 900 && wdl(-3000, m).2 > 900);
        }
        assert_eq!(wdl(MATE - 5, 30), (1000, 0, 0));
        assert_eq!(wdl(-MATE + 5, 30), (0, 0, 1000));
    }
}
