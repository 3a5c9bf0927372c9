//! History tables for move ordering, one set per search thread.
//!
//! Every table uses "gravity" updates: a bonus moves an entry toward the
//! table's bound in proportion to how far it still is, so entries saturate
//! smoothly and old information fades as new arrives.

use crate::types::*;

/// Bound of every history entry.
pub const HISTORY_MAX: i32 = 16_384;

#[inline(always)]
pub fn gravity(entry: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let e = *entry as i32;
    *entry = (e + b - e * b.abs() / HISTORY_MAX) as i16;
}

/// The history bonus per ply of depth, the offset taken off it, and its
/// cap: `BONUS_PER_DEPTH * depth - BONUS_OFFSET`, within `0..=BONUS_MAX`.
const BONUS_PER_DEPTH: i32 = 160;
const BONUS_OFFSET: i32 = 80;
const BONUS_MAX: i32 = 1800;

/// The bonus for a move that caused (or failed to cause) a cutoff at `depth`.
#[inline(always)]
pub fn stat_bonus(depth: Depth) -> i32 {
    (BONUS_PER_DEPTH * depth - BONUS_OFFSET).clamp(0, BONUS_MAX)
}

/// Quiet moves by side, from and to.
pub struct ButterflyHistory(Box<[[i16; 90 * 90]; 2]>);

impl Default for ButterflyHistory {
    fn default() -> Self {
        ButterflyHistory(Box::new([[0; 90 * 90]; 2]))
    }
}

impl ButterflyHistory {
    #[inline(always)]
    pub fn get(&self, c: Color, m: Move) -> i32 {
        self.0[c.index()][m.from().index() * 90 + m.to().index()] as i32
    }
    #[inline(always)]
    pub fn update(&mut self, c: Color, m: Move, bonus: i32) {
        gravity(
            &mut self.0[c.index()][m.from().index() * 90 + m.to().index()],
            bonus,
        );
    }
    pub fn clear(&mut self) {
        for side in self.0.iter_mut() {
            side.fill(0);
        }
    }
}

/// Captures by moving piece, target point and captured kind.
pub struct CaptureHistory(Box<[[[i16; 7]; 90]; 14]>);

impl Default for CaptureHistory {
    fn default() -> Self {
        CaptureHistory(Box::new([[[0; 7]; 90]; 14]))
    }
}

impl CaptureHistory {
    #[inline(always)]
    pub fn get(&self, moved: Piece, to: Square, captured: PieceKind) -> i32 {
        self.0[moved.index()][to.index()][captured.index()] as i32
    }
    #[inline(always)]
    pub fn update(&mut self, moved: Piece, to: Square, captured: PieceKind, bonus: i32) {
        gravity(
            &mut self.0[moved.index()][to.index()][captured.index()],
            bonus,
        );
    }
    pub fn clear(&mut self) {
        for a in self.0.iter_mut() {
            for b in a.iter_mut() {
                b.fill(0);
            }
        }
    }
}

/// Scores of (piece, to) given the previous move's (piece, to).
pub type PieceToHistory = [[i16; 90]; 14];

/// Continuation history: one `PieceToHistory` per preceding (piece, to).
/// Index 14 * 90 (`NULL_SLOT`) stands for "no previous move".
pub struct ContinuationHistory(Vec<PieceToHistory>);

pub const NULL_SLOT: usize = 14 * 90;

impl Default for ContinuationHistory {
    fn default() -> Self {
        ContinuationHistory(vec![[[0; 90]; 14]; 14 * 90 + 1])
    }
}

impl ContinuationHistory {
    #[inline(always)]
    pub fn slot(pc: Piece, to: Square) -> usize {
        pc.index() * 90 + to.index()
    }
    #[inline(always)]
    pub fn get(&self, slot: usize, pc: Piece, to: Square) -> i32 {
        self.0[slot][pc.index()][to.index()] as i32
    }
    #[inline(always)]
    pub fn update(&mut self, slot: usize, pc: Piece, to: Square, bonus: i32) {
        if slot != NULL_SLOT {
            gravity(&mut self.0[slot][pc.index()][to.index()], bonus);
        }
    }
    pub fn clear(&mut self) {
        for t in self.0.iter_mut() {
            for r in t.iter_mut() {
                r.fill(0);
            }
        }
    }
}

/// The move that refuted the previous (piece, to).
pub struct CounterMoves(Box<[[Move; 90]; 14]>);

impl Default for CounterMoves {
    fn default() -> Self {
        CounterMoves(Box::new([[Move::NONE; 90]; 14]))
    }
}

impl CounterMoves {
    #[inline(always)]
    pub fn get(&self, prev_piece: Piece, prev_to: Square) -> Move {
        self.0[prev_piece.index()][prev_to.index()]
    }
    #[inline(always)]
    pub fn set(&mut self, prev_piece: Piece, prev_to: Square, m: Move) {
        self.0[prev_piece.index()][prev_to.index()] = m;
    }
    pub fn clear(&mut self) {
        for r in self.0.iter_mut() {
            r.fill(Move::NONE);
        }
    }
}

/// All of one thread's ordering statistics.
#[derive(Default)]
pub struct Histories {
    pub butterfly: ButterflyHistory,
    pub captures: CaptureHistory,
    pub continuation: ContinuationHistory,
    pub counters: CounterMoves,
}

impl Histories {
    pub fn clear(&mut self) {
        self.butterfly.clear();
        self.captures.clear();
        self.continuation.clear();
        self.counters.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_saturates() {
        let mut e = 0i16;
        for _ in 0..1000 {
            gravity(&mut e, 1800);
        }
        assert!(e as i32 <= HISTORY_MAX && e as i32 > HISTORY_MAX - 2000);
        for _ in 0..1000 {
            gravity(&mut e, -1800);
        }
        assert!(e as i32 >= -HISTORY_MAX && (e as i32) < -HISTORY_MAX + 2000);
    }
}
