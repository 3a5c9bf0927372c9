//! The weighted choice among a position's book moves, as adventurous as
//! the UCCI `randomness` option says, never repeating a position of the
//! game.

use super::{BookMove, BookSet};
use crate::options::Randomness;
use crate::position::Position;
use crate::rng::SplitMix;
use crate::types::*;
use crate::zobrist;

/// The exponent of the book's weighted choice: the chance of a move is
/// proportional to `weight ^ exponent`.
fn exponent(r: Randomness) -> f64 {
    match r {
        Randomness::None => f64::INFINITY,
        Randomness::Tiny => 4.0,
        Randomness::Small => 2.0,
        Randomness::Medium => 1.0,
        Randomness::Large => 0.5,
        Randomness::Huge => 0.0,
    }
}

impl BookSet {
    /// A book move for `pos`, drawn by weight as `randomness` says, with
    /// `rng_seed` making the draw reproducible. Moves that would repeat a
    /// position of the game (`pos.states()`) are never chosen; `None` when
    /// no book move is left.
    pub fn choose(
        &self,
        pos: &Position,
        randomness: Randomness,
        rng_seed: u64,
    ) -> Option<BookMove> {
        let history: Vec<u64> = pos.states().iter().map(|s| s.key).collect();
        let moves: Vec<BookMove> = self
            .probe(pos)
            .into_iter()
            .filter(|bm| !history.contains(&key_after(pos, bm.mv)))
            .collect();
        pick(&moves, randomness, rng_seed ^ pos.key())
    }
}

/// The Zobrist key after the legal move `m` (as `make_move` would set it).
fn key_after(pos: &Position, m: Move) -> u64 {
    let pc = pos.piece_on(m.from());
    let captured = pos.piece_on(m.to());
    let mut key = pos.key() ^ zobrist::side();
    key ^= zobrist::piece_square(pc, m.from()) ^ zobrist::piece_square(pc, m.to());
    if captured.is_some() {
        key ^= zobrist::piece_square(captured, m.to());
    }
    key
}

/// Weighted draw among `moves` (in book order).
fn pick(moves: &[BookMove], randomness: Randomness, seed: u64) -> Option<BookMove> {
    let first = *moves.first()?;
    if randomness == Randomness::None {
        return moves.iter().copied().reduce(
            |best, m| {
                if m.weight > best.weight { m } else { best }
            },
        );
    }
    let exponent = exponent(randomness);
    let shares: Vec<f64> = moves
        .iter()
        .map(|m| (m.weight.max(1) as f64).powf(exponent))
        .collect();
    let total: f64 = shares.iter().sum();
    if !(total.is_finite() && total > 0.0) {
        return Some(first);
    }
    // 53 random bits to a fraction in [0, 1).
    let mut target = SplitMix(seed).unit() * total;
    for (m, share) in moves.iter().zip(&shares) {
        if target < *share {
            return Some(*m);
        }
        target -= share;
    }
    moves.last().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn randomness_names() {
        for (s, r) in [
            ("none", Randomness::None),
            ("Tiny", Randomness::Tiny),
            ("SMALL", Randomness::Small),
            ("medium", Randomness::Medium),
            ("large", Randomness::Large),
            ("huge", Randomness::Huge),
        ] {
            assert_eq!(Randomness::parse(s), Some(r));
        }
        assert_eq!(Randomness::parse("wild"), None);
    }
}
