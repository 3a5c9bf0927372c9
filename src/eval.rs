//! Static evaluation, from the side to move's point of view.
//!
//! Every weight lives in `Params` (one instance, `PARAMS`), so tuning reads
//! and writes one place. Terms come as (middle game, end game) pairs and are
//! blended by a material phase: chariots, horses and cannons on the board
//! make the middle game.
//!
//! Piece-square tables are left-right symmetric: they are indexed by the
//! distance-from-edge file (a/i = 0 .. e = 4) and the rank counted from the
//! owner's back rank, 5 x 10 entries per kind.

use crate::position::Position;
use crate::types::*;

/// A (middle game, end game) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pair(pub i32, pub i32);

impl std::ops::Add for Pair {
    type Output = Pair;
    #[inline(always)]
    fn add(self, o: Pair) -> Pair {
        Pair(self.0 + o.0, self.1 + o.1)
    }
}

impl std::ops::Sub for Pair {
    type Output = Pair;
    #[inline(always)]
    fn sub(self, o: Pair) -> Pair {
        Pair(self.0 - o.0, self.1 - o.1)
    }
}

impl std::ops::AddAssign for Pair {
    #[inline(always)]
    fn add_assign(&mut self, o: Pair) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

/// Phase weight of each kind (king, advisor, elephant, horse, chariot, cannon, pawn).
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
/// Full middle-game phase: both sides' chariots, horses and cannons.
pub const PHASE_MAX: i32 = 2 * (2 * 2 + 2 * 4 + 2 * 2);

/// File index for the symmetric tables: distance from the nearer edge.
#[inline(always)]
pub fn half_file(sq: Square) -> usize {
    let f = sq.file() as usize;
    f.min(8 - f)
}

/// Rank counted from `c`'s own back rank.
#[inline(always)]
pub fn relative_rank(c: Color, sq: Square) -> usize {
    match c {
        Color::Red => sq.rank() as usize,
        Color::Black => 9 - sq.rank() as usize,
    }
}

/// All evaluation weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Material per kind.
    pub material: [Pair; 7],
    /// Piece-square bonus per kind, `[relative rank][half file]`.
    pub pst: [[[Pair; 5]; 10]; 7],
    /// Bonus for having the move.
    pub tempo: i32,
}

const fn p(mg: i32, eg: i32) -> Pair {
    Pair(mg, eg)
}

/// Builds a PST from a middle-game table, with the end game scaled by
/// `eg_pct` percent (a starting point for tuning).
const fn table(mg: [[i32; 5]; 10], eg_pct: i32) -> [[Pair; 5]; 10] {
    let mut t = [[Pair(0, 0); 5]; 10];
    let mut r = 0;
    while r < 10 {
        let mut f = 0;
        while f < 5 {
            t[r][f] = Pair(mg[r][f], mg[r][f] * eg_pct / 100);
            f += 1;
        }
        r += 1;
    }
    t
}

/// Hand-set starting weights: the common wisdom of xiangqi play (crossed
/// pawns near the palace, central cannons, advanced horses, chariots on
/// open ranks) in numbers. The tuning issue replaces them with fitted values.
pub const PARAMS: Params = Params {
    material: [
        p(0, 0),       // king
        p(200, 180),   // advisor
        p(200, 180),   // elephant
        p(430, 470),   // horse
        p(1000, 1000), // chariot
        p(450, 420),   // cannon
        p(100, 120),   // pawn
    ],
    pst: [
        // King: prefers its back rank; leaving it is a weakness.
        table(
            [
                [0, 0, 0, -5, 0],
                [0, 0, 0, -15, -10],
                [0, 0, 0, -25, -20],
                [0; 5],
                [0; 5],
                [0; 5],
                [0; 5],
                [0; 5],
                [0; 5],
                [0; 5],
            ],
            50,
        ),
        // Advisor.
        table(
            [
                [0, 0, 0, 0, 0],
                [0, 0, 0, 0, 5],
                [0, 0, 0, -5, 0],
                [0; 5],
                [0; 5],
                [0; 5],
                [0; 5],
                [0; 5],
                [0; 5],
                [0; 5],
            ],
            100,
        ),
        // Elephant.
        table(
            [
                [0, 0, 0, 0, 0],
                [0; 5],
                [-5, 0, 0, 0, 5],
                [0; 5],
                [0, 0, -5, 0, 0],
                [0; 5],
                [0; 5],
                [0; 5],
                [0; 5],
                [0; 5],
            ],
            100,
        ),
        // Horse.
        table(
            [
                [-20, 0, -5, -10, -15],
                [-15, -5, 5, 0, -10],
                [-10, 5, 15, 10, 5],
                [-5, 10, 15, 15, 10],
                [0, 15, 20, 20, 20],
                [0, 20, 25, 25, 25],
                [5, 25, 35, 40, 30],
                [5, 20, 40, 45, 40],
                [0, 15, 40, 30, 20],
                [-10, 0, 10, 0, -10],
            ],
            100,
        ),
        // Chariot.
        table(
            [
                [-10, 0, -5, 0, -5],
                [-5, 5, 0, 5, 0],
                [0, 5, 5, 10, 5],
                [5, 10, 10, 10, 10],
                [10, 15, 15, 15, 15],
                [10, 15, 15, 15, 15],
                [10, 15, 15, 20, 20],
                [10, 15, 15, 20, 20],
                [10, 20, 20, 25, 25],
                [5, 10, 10, 15, 10],
            ],
            100,
        ),
        // Cannon.
        table(
            [
                [0, 0, 5, 10, 10],
                [0, 5, 5, 10, 10],
                [-5, 0, 0, 5, 20],
                [-5, 0, 0, 5, 10],
                [0, 0, 5, 5, 10],
                [0, 5, 5, 10, 15],
                [0, 5, 0, 5, 10],
                [5, 5, 5, 0, 5],
                [5, 5, 0, 0, 0],
                [10, 10, 5, 0, 0],
            ],
            50,
        ),
        // Pawn: a crossed pawn roughly doubles; most near the palace.
        table(
            [
                [0; 5],
                [0; 5],
                [0; 5],
                [0, 0, 0, 0, 5],
                [5, 0, 10, 0, 15],
                [50, 55, 60, 65, 70],
                [55, 65, 75, 85, 90],
                [55, 70, 85, 100, 105],
                [45, 60, 75, 90, 95],
                [0, 10, 20, 30, 30],
            ],
            120,
        ),
    ],
    tempo: 10,
};

/// Material and placement of one piece.
#[inline(always)]
fn piece_term(params: &Params, c: Color, k: PieceKind, sq: Square) -> Pair {
    params.material[k.index()] + params.pst[k.index()][relative_rank(c, sq)][half_file(sq)]
}

/// The middle-game phase, 0 (bare end game) ..= PHASE_MAX.
pub fn phase(pos: &Position) -> i32 {
    let mut ph = 0;
    for k in PieceKind::ALL {
        ph += PHASE_WEIGHT[k.index()] * pos.pieces_kind(k).count() as i32;
    }
    ph.min(PHASE_MAX)
}

/// Blends a (middle game, end game) pair by phase.
#[inline(always)]
pub fn taper(s: Pair, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (PHASE_MAX - phase)) / PHASE_MAX
}

/// Red-minus-Black score before tapering.
pub fn raw_terms(pos: &Position, params: &Params) -> Pair {
    let mut s = Pair(0, 0);
    for c in Color::BOTH {
        let mut side = Pair(0, 0);
        for k in PieceKind::ALL {
            for sq in pos.pieces(c, k) {
                side += piece_term(params, c, k, sq);
            }
        }
        s = if c == Color::Red { s + side } else { s - side };
    }
    s
}

/// The static evaluation, from the side to move's view, clamped well inside
/// the mate range.
pub fn evaluate(pos: &Position) -> Score {
    evaluate_with(pos, &PARAMS)
}

pub fn evaluate_with(pos: &Position, params: &Params) -> Score {
    let white = taper(raw_terms(pos, params), phase(pos));
    let stm = if pos.side_to_move() == Color::Red {
        white
    } else {
        -white
    };
    (stm + params.tempo).clamp(-MATE_BOUND + 1000, MATE_BOUND - 1000)
}

/// A human-readable breakdown (for the `eval` command).
pub fn describe(pos: &Position) -> String {
    let ph = phase(pos);
    let mut out = String::new();
    for c in Color::BOTH {
        let mut mat = Pair(0, 0);
        let mut pst = Pair(0, 0);
        for k in PieceKind::ALL {
            for sq in pos.pieces(c, k) {
                mat += PARAMS.material[k.index()];
                pst += PARAMS.pst[k.index()][relative_rank(c, sq)][half_file(sq)];
            }
        }
        out.push_str(&format!(
            "{:5}: material {:5} / {:5}  placement {:4} / {:4}\n",
            c.name(),
            mat.0,
            mat.1,
            pst.0,
            pst.1
        ));
    }
    out.push_str(&format!(
        "phase {ph}/{PHASE_MAX}; total (side to move) {}",
        evaluate(pos)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced() {
        let pos = Position::startpos();
        assert_eq!(evaluate(&pos), PARAMS.tempo);
        assert_eq!(phase(&pos), PHASE_MAX);
    }

    #[test]
    fn mirror_and_colour_symmetry() {
        let fens = [
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&pos.mirrored()));
        }
    }

    #[test]
    fn extra_chariot_is_winning() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/5K3 w").unwrap();
        assert!(evaluate(&pos) > 900);
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/5K3 b").unwrap();
        assert!(evaluate(&pos) < -900);
    }
}
