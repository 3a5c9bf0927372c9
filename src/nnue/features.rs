//! Input features: one per (piece, point) as seen from one side, in the
//! input bucket of that side's king.
//!
//! Each side ("perspective") sees the board from its own end: Black's view
//! turns the board round (point `i` becomes `89 - i`), so both perspectives
//! share one set of weights and a position and its colour-swapped twin get
//! the same evaluation. A piece's feature within a bucket is
//! `(relation * 7 + kind) * 90 + point`, where relation is 0 for the
//! perspective's own pieces and 1 for the opponent's: 14 x 90 = 1,260
//! inputs. Points a piece can never stand on (a king outside its palace)
//! simply never fire.
//!
//! With king input buckets (`InputBuckets::KingPalace`) the perspective's
//! own king picks the bucket (`KingView`): its palace rank (0-2 from its own
//! end) and whether it stands on the middle file; a king on the right-hand
//! file sees every point mirrored left-right, so that it looks like its
//! twin on the left. Only a move of that king can change a perspective's
//! view, and only then must its accumulator be computed afresh.
//!
//! The output bucket is chosen by material: one of the shape's output
//! buckets by the number of pieces on the board, so the opening, the middle
//! game and the end game can each get their own head.

use super::arch::{InputBuckets, PIECE_INPUTS};
use crate::types::*;

/// How one perspective sees the board: its input bucket and whether the
/// board is mirrored left-right.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingView {
    pub bucket: u8,
    pub mirror: bool,
}

/// The view of `perspective` whose king stands on `king`.
#[inline(always)]
pub fn king_view(buckets: InputBuckets, perspective: Color, king: Square) -> KingView {
    match buckets {
        InputBuckets::None => KingView::default(),
        InputBuckets::KingPalace => {
            let k = relative(perspective, king);
            // The palace is files 3-5, ranks 0-2 from the own end; `min`
            // keeps a (never legal) king outside it inside the range.
            let rank = k.rank().min(2);
            KingView {
                bucket: rank * 2 + (k.file() == 4) as u8,
                mirror: k.file() > 4,
            }
        }
    }
}

/// `sq` as `perspective` sees it.
#[inline(always)]
fn relative(perspective: Color, sq: Square) -> Square {
    match perspective {
        Color::Red => sq,
        Color::Black => sq.rotate(),
    }
}

/// The feature of `piece` on `sq` seen from `perspective` with `view`.
#[inline(always)]
pub fn index(view: KingView, perspective: Color, piece: Piece, sq: Square) -> usize {
    let relation = (piece.color() != perspective) as usize;
    let mut point = relative(perspective, sq);
    if view.mirror {
        point = point.mirror();
    }
    view.bucket as usize * PIECE_INPUTS + (relation * 7 + piece.kind().index()) * 90 + point.index()
}

/// The output bucket, of `buckets`, for a position with `pieces` pieces on
/// the board (2 to 32): equal shares of the range, so with 8 buckets four
/// pieces a bucket.
#[inline(always)]
pub fn bucket(pieces: u32, buckets: usize) -> usize {
    (pieces.saturating_sub(2) as usize * buckets / 31).min(buckets - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::arch::Shape;

    #[test]
    fn indices_cover_the_range_once() {
        for shape in [Shape::FIRST, Shape::parse("k6-256/1").unwrap()] {
            let mut seen = vec![false; shape.inputs()];
            // Every view the own king can give, every piece on every point.
            for king in Square::all().filter(|s| s.file() >= 3 && s.file() <= 4 && s.rank() <= 2) {
                let view = king_view(shape.input_buckets, Color::Red, king);
                for c in Color::BOTH {
                    for k in PieceKind::ALL {
                        for sq in Square::all() {
                            let i = index(view, Color::Red, Piece::new(c, k), sq);
                            assert!(i < shape.inputs());
                            seen[i] = true;
                        }
                    }
                }
            }
            assert!(seen.iter().all(|&s| s), "{shape}");
        }
    }

    #[test]
    fn perspectives_and_mirrors_match() {
        let sq = Square::new(2, 3);
        let red_pawn = Piece::new(Color::Red, PieceKind::Pawn);
        let black_pawn = Piece::new(Color::Black, PieceKind::Pawn);
        let plain = KingView::default();
        assert_eq!(
            index(plain, Color::Red, red_pawn, sq),
            index(plain, Color::Black, black_pawn, sq.rotate())
        );
        let kp = InputBuckets::KingPalace;
        // Kings on mirrored points see mirrored boards the same way.
        let left = king_view(kp, Color::Red, Square::new(3, 1));
        let right = king_view(kp, Color::Red, Square::new(5, 1));
        assert_eq!(left.bucket, right.bucket);
        assert!(!left.mirror && right.mirror);
        assert_eq!(
            index(left, Color::Red, red_pawn, sq),
            index(right, Color::Red, red_pawn, sq.mirror())
        );
        // Black's king on its own back rank, middle file: bucket 1.
        let v = king_view(kp, Color::Black, Square::new(4, 9));
        assert_eq!((v.bucket, v.mirror), (1, false));
        // Six distinct buckets over the palace.
        let mut buckets: Vec<u8> = Square::all()
            .filter(|s| (3..=5).contains(&s.file()) && s.rank() <= 2)
            .map(|s| king_view(kp, Color::Red, s).bucket)
            .collect();
        buckets.sort();
        buckets.dedup();
        assert_eq!(buckets, vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn output_buckets_split_the_material_evenly() {
        // Eight buckets: four pieces a bucket, as the first networks had.
        for pieces in 2..=32u32 {
            assert_eq!(bucket(pieces, 8), ((pieces - 2) / 4).min(7) as usize);
            assert_eq!(bucket(pieces, 1), 0);
            assert!(bucket(pieces, 3) < 3);
        }
        assert_eq!(bucket(32, 3), 2);
        assert_eq!(bucket(2, 3), 0);
    }
}
