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
    gravity_within(entry, bonus, HISTORY_MAX);
}

/// The gravity update toward the bound `max` (`bonus` clamped to it).
#[inline(always)]
fn gravity_within(entry: &mut i16, bonus: i32, max: i32) {
    let b = bonus.clamp(-max, max);
    let e = *entry as i32;
    *entry = (e + b - e * b.abs() / max) as i16;
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

/// Entries per side in each correction table (powers of two).
const PAWN_CORRECTION_SIZE: usize = 1 << 14;
const MATERIAL_CORRECTION_SIZE: usize = 1 << 13;
const NONPAWN_CORRECTION_SIZE: usize = 1 << 15;

/// Bound of a correction entry, in `CORRECTION_GRAIN`ths of a score unit.
pub const CORRECTION_MAX: i32 = 64 * CORRECTION_GRAIN;
/// Correction entries hold score units times this.
pub const CORRECTION_GRAIN: i32 = 32;

/// The keys that find a position's correction entries (see `Position`).
#[derive(Clone, Copy, Debug)]
pub struct CorrectionKeys {
    pub pawn: u64,
    pub material: u64,
    /// Each colour's pieces other than pawns.
    pub nonpawn: [u64; 2],
}

/// Each correction table's weight, in 256ths of its entry.
#[derive(Clone, Copy, Debug)]
pub struct CorrectionWeights {
    pub pawn: i32,
    pub material: i32,
    /// Applied to both colours' non-pawn entries.
    pub nonpawn: i32,
}

/// Correction history: how far the searched score of positions with the
/// same pawn structure, with the same material, and with the same placing
/// of either side's officers (the non-pawn pieces) has run from their
/// static evaluation, by side to move. The static evaluation is moved by
/// a weighted sum of these before pruning decisions use it: a network or
/// a hand-written evaluation that misjudges a structure does so again and
/// again, and the search measures it every time. Xiangqi's pawns seldom
/// move, so a pawn key covers whole phases of a game; the non-pawn keys
/// (Stockfish's finest) tell positions apart where it cannot.
pub struct CorrectionHistory {
    pawn: Box<[[i16; PAWN_CORRECTION_SIZE]; 2]>,
    material: Box<[[i16; MATERIAL_CORRECTION_SIZE]; 2]>,
    /// By side to move, then by the colour whose officers give the key.
    nonpawn: Box<[[[i16; NONPAWN_CORRECTION_SIZE]; 2]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawn: Box::new([[0; PAWN_CORRECTION_SIZE]; 2]),
            material: Box::new([[0; MATERIAL_CORRECTION_SIZE]; 2]),
            nonpawn: Box::new([[[0; NONPAWN_CORRECTION_SIZE]; 2]; 2]),
        }
    }
}

/// A table's slot for `key`.
#[inline(always)]
fn slot(key: u64, size: usize) -> usize {
    key as usize & (size - 1)
}

impl CorrectionHistory {
    /// The correction in score units: each table's entry weighted by
    /// `w`, in 256ths.
    #[inline(always)]
    pub fn correction(&self, c: Color, k: &CorrectionKeys, w: &CorrectionWeights) -> i32 {
        let s = c.index();
        let p = self.pawn[s][slot(k.pawn, PAWN_CORRECTION_SIZE)] as i32;
        let m = self.material[s][slot(k.material, MATERIAL_CORRECTION_SIZE)] as i32;
        let n = self.nonpawn[s][0][slot(k.nonpawn[0], NONPAWN_CORRECTION_SIZE)] as i32
            + self.nonpawn[s][1][slot(k.nonpawn[1], NONPAWN_CORRECTION_SIZE)] as i32;
        (p * w.pawn + m * w.material + n * w.nonpawn) / (256 * CORRECTION_GRAIN)
    }

    /// Moves every entry of the position toward `bonus` (in
    /// `CORRECTION_GRAIN`ths).
    pub fn update(&mut self, c: Color, k: &CorrectionKeys, bonus: i32) {
        let b = bonus.clamp(-CORRECTION_MAX / 4, CORRECTION_MAX / 4);
        let s = c.index();
        let [red, black] = &mut self.nonpawn[s];
        let entries = [
            &mut self.pawn[s][slot(k.pawn, PAWN_CORRECTION_SIZE)],
            &mut self.material[s][slot(k.material, MATERIAL_CORRECTION_SIZE)],
            &mut red[slot(k.nonpawn[0], NONPAWN_CORRECTION_SIZE)],
            &mut black[slot(k.nonpawn[1], NONPAWN_CORRECTION_SIZE)],
        ];
        for e in entries {
            gravity_within(e, b, CORRECTION_MAX);
        }
    }

    pub fn clear(&mut self) {
        for side in self.pawn.iter_mut() {
            side.fill(0);
        }
        for side in self.material.iter_mut() {
            side.fill(0);
        }
        for table in self.nonpawn.iter_mut().flatten() {
            table.fill(0);
        }
    }
}

/// All of one thread's ordering and evaluation-correction statistics.
#[derive(Default)]
pub struct Histories {
    pub butterfly: ButterflyHistory,
    pub captures: CaptureHistory,
    pub continuation: ContinuationHistory,
    pub counters: CounterMoves,
    pub correction: CorrectionHistory,
}

impl Histories {
    pub fn clear(&mut self) {
        self.butterfly.clear();
        self.captures.clear();
        self.continuation.clear();
        self.counters.clear();
        self.correction.clear();
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

    #[test]
    fn corrections_follow_the_error_and_stay_bounded() {
        let mut h = CorrectionHistory::default();
        let k = CorrectionKeys {
            pawn: 7,
            material: 9,
            nonpawn: [11, 13],
        };
        let weights = |pawn, material, nonpawn| CorrectionWeights {
            pawn,
            material,
            nonpawn,
        };
        let full = weights(256, 256, 256);
        assert_eq!(h.correction(Color::Red, &k, &full), 0);
        for _ in 0..1000 {
            h.update(Color::Red, &k, 40 * CORRECTION_GRAIN);
        }
        // A bonus is clamped to a quarter of the bound, and each of the four
        // entries creeps up to the bound, never past it; each table's
        // weight scales its own part.
        let bound = CORRECTION_MAX / CORRECTION_GRAIN;
        let c = h.correction(Color::Red, &k, &full);
        assert!((4 * bound - 8..=4 * bound).contains(&c), "{c}");
        let pawn_only = h.correction(Color::Red, &k, &weights(256, 0, 0));
        let nonpawn_only = h.correction(Color::Red, &k, &weights(0, 0, 128));
        assert!((bound - 2..=bound).contains(&pawn_only), "{pawn_only}");
        assert!(
            (bound - 2..=bound).contains(&nonpawn_only),
            "{nonpawn_only}"
        );
        assert_eq!(h.correction(Color::Red, &k, &weights(0, 0, 0)), 0);
        // The other side and other keys are untouched.
        assert_eq!(h.correction(Color::Black, &k, &full), 0);
        let other = CorrectionKeys {
            pawn: 8,
            material: 10,
            nonpawn: [12, 14],
        };
        assert_eq!(h.correction(Color::Red, &other, &full), 0);
        // A huge opposite bonus cannot overshoot the bound.
        for _ in 0..1000 {
            h.update(Color::Red, &k, -1_000_000);
        }
        let c = h.correction(Color::Red, &k, &full);
        assert!((-4 * bound..0).contains(&c), "{c}");
        h.clear();
        assert_eq!(h.correction(Color::Red, &k, &full), 0);
    }
}
