//! Input features: one per (piece, point) as seen from one side.
//!
//! Each side ("perspective") sees the board from its own end: Black's view
//! turns the board round (point `i` becomes `89 - i`), so both perspectives
//! share one set of weights and a position and its colour-swapped twin get
//! the same evaluation. A piece's feature is
//! `(relation * 7 + kind) * 90 + point`, where relation is 0 for the
//! perspective's own pieces and 1 for the opponent's: 14 x 90 = 1,260
//! inputs. Points a piece can never stand on (a king outside its palace)
//! simply never fire.
//!
//! The output layer is chosen by material: one of `BUCKETS` weight sets by
//! the number of pieces on the board, so the opening, the middle game and
//! the end game each get their own last layer.

pub use super::arch::{BUCKETS, INPUTS};
use crate::types::*;

/// The feature of `piece` on `sq` seen from `perspective`.
#[inline(always)]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let relation = (piece.color() != perspective) as usize;
    let point = match perspective {
        Color::Red => sq.index(),
        Color::Black => 89 - sq.index(),
    };
    (relation * 7 + piece.kind().index()) * 90 + point
}

/// The output bucket for a position with `pieces` pieces on the board
/// (2 to 32): four pieces a bucket.
#[inline(always)]
pub fn bucket(pieces: u32) -> usize {
    (pieces.saturating_sub(2) as usize / 4).min(BUCKETS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_cover_the_range_once() {
        let mut seen = vec![false; INPUTS];
        for p in Color::BOTH {
            for c in Color::BOTH {
                for k in PieceKind::ALL {
                    for sq in Square::all() {
                        let i = index(p, Piece::new(c, k), sq);
                        assert!(i < INPUTS);
                        if p == Color::Red {
                            assert!(!seen[i]);
                            seen[i] = true;
                        }
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn perspectives_mirror_each_other() {
        let sq = Square::new(2, 3);
        let red_pawn = Piece::new(Color::Red, PieceKind::Pawn);
        let black_pawn = Piece::new(Color::Black, PieceKind::Pawn);
        assert_eq!(
            index(Color::Red, red_pawn, sq),
            index(Color::Black, black_pawn, sq.rotate())
        );
        assert_eq!(bucket(32), 7);
        assert_eq!(bucket(2), 0);
        assert_eq!(bucket(6), 1);
    }
}
