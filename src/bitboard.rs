//! `Bitboard(u128)`: one bit per point, bit `rank * 9 + file`.
//!
//! A u128 holds the 90 points in one register pair; set operations are two
//! machine instructions and iteration is a trailing-zero count. Besides the
//! plain layout, the position keeps the occupancy in a *file-major* layout
//! (bit `file * 10 + rank`) so that a file's ten bits are contiguous too;
//! see `attacks.rs` for why.

use crate::types::{Color, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Bitboard(pub u128);

const FULL: u128 = (1u128 << 90) - 1;

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(FULL);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one bit set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Lowest set square. Only call on a non-empty board.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(self.is_nonempty());
        Square::from_index(self.0.trailing_zeros() as usize)
    }

    /// Removes and returns the lowest set square.
    #[inline(always)]
    pub fn pop(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0 - 1;
        sq
    }

    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    #[inline(always)]
    pub const fn rank(r: u8) -> Bitboard {
        Bitboard(0x1ffu128 << (r as u32 * 9))
    }

    /// One shift of the first file: the evaluation asks for a king's file
    /// at every node, and a loop over the ranks cost ten times as much.
    #[inline(always)]
    pub const fn file(f: u8) -> Bitboard {
        const FILE_0: u128 = {
            let mut b = 0u128;
            let mut r = 0;
            while r < 10 {
                b |= 1u128 << (r * 9);
                r += 1;
            }
            b
        };
        Bitboard(FILE_0 << f)
    }

    /// `color`'s own half of the board (before the river).
    pub const fn own_half(color: Color) -> Bitboard {
        match color {
            Color::Red => Bitboard((1u128 << 45) - 1),
            Color::Black => Bitboard(FULL & !((1u128 << 45) - 1)),
        }
    }

    pub const fn palace(color: Color) -> Bitboard {
        let base = match color {
            Color::Red => 0,
            Color::Black => 7,
        };
        let mut b = 0u128;
        let mut r = 0;
        while r < 3 {
            b |= 0b111u128 << ((base + r) * 9 + 3);
            r += 1;
        }
        Bitboard(b)
    }

    /// The board reflected left-right.
    pub fn mirror(self) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for sq in self {
            out = out.with(sq.mirror());
        }
        out
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(self.pop()) }
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & FULL)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        writeln!(f)?;
        for r in (0..10).rev() {
            for file in 0..9 {
                let c = if self.has(Square::new(file, r)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Bit of `sq` in the file-major layout (`file * 10 + rank`).
#[inline(always)]
pub const fn file_major_bit(sq: Square) -> u128 {
    1u128 << (sq.file() as u32 * 10 + sq.rank() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_have_the_right_sizes() {
        assert_eq!(Bitboard::ALL.count(), 90);
        assert_eq!(Bitboard::rank(3).count(), 9);
        assert_eq!(Bitboard::file(8).count(), 10);
        assert_eq!(Bitboard::own_half(Color::Red).count(), 45);
        assert_eq!(Bitboard::own_half(Color::Black).count(), 45);
        assert_eq!(Bitboard::palace(Color::Black).count(), 9);
        for sq in Bitboard::palace(Color::Red) {
            assert!(sq.in_palace(Color::Red));
        }
        assert_eq!((!Bitboard::EMPTY), Bitboard::ALL);
    }

    #[test]
    fn iteration_visits_every_bit_in_order() {
        let b = Bitboard::file(4) | Bitboard::rank(0);
        let v: Vec<_> = b.collect();
        assert_eq!(v.len(), 18);
        assert!(v.windows(2).all(|w| w[0] < w[1]));
    }
}
