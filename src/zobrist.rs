//! Zobrist hashing keys, drawn from a fixed-seed generator so that keys (and
//! therefore the bench signature and book keys) are identical on every build;
//! and FNV-1a, the checksum of files and of weight sets.

use crate::rng::splitmix;
use crate::types::{Piece, Square};

/// FNV-1a (64 bits) of `bytes`: the network file's checksum and the
/// classical evaluation's signature.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// One key per (piece, square) and one for Black to move.
pub struct KeySet {
    /// `[piece index][square]` (`Piece::index`, `Square::index`).
    pub piece_square: [[u64; 90]; 14],
    pub side: u64,
}

/// Draws a key set from SplitMix64 seeded with `seed`. The order of draws
/// is part of the keys' definition: `side_first` draws the side key before
/// the piece keys (the opening book's order), else after (the search's).
pub const fn key_set(seed: u64, side_first: bool) -> KeySet {
    let mut state = seed;
    let mut side = 0;
    if side_first {
        let (next, v) = splitmix(state);
        state = next;
        side = v;
    }
    let mut piece_square = [[0u64; 90]; 14];
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            let (next, v) = splitmix(state);
            state = next;
            piece_square[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    if !side_first {
        let (_, v) = splitmix(state);
        side = v;
    }
    KeySet { piece_square, side }
}

/// The search's keys: seed "chuhe!".
static KEYS: KeySet = key_set(0x6368_7568_6521, false);

#[inline(always)]
pub fn piece_square(p: Piece, sq: Square) -> u64 {
    KEYS.piece_square[p.index()][sq.index()]
}

/// The material key's term for the `nth` (from 0) piece `p` on the board:
/// the key of `p` on square `nth`, a point no reuse can confuse because
/// material keys index tables of their own.
#[inline(always)]
pub fn material(p: Piece, nth: usize) -> u64 {
    KEYS.piece_square[p.index()][nth]
}

/// XORed in when Black is to move.
#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Color, PieceKind};

    #[test]
    fn keys_are_distinct() {
        let mut all = vec![side()];
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                for s in Square::all() {
                    all.push(piece_square(Piece::new(c, k), s));
                }
            }
        }
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
