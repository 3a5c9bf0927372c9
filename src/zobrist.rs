//! Zobrist hashing keys, drawn from a fixed-seed generator so that keys (and
//! therefore the bench signature and book keys) are identical on every build.

use crate::types::{Piece, Square};

/// SplitMix64: tiny, fast, and good enough for hashing keys.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

struct Keys {
    piece_square: [[u64; 90]; 14],
    side: u64,
}

const fn make_keys() -> Keys {
    let mut state = 0x6368_7568_6521_u64; // "chuhe!"
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
    let (_, side) = splitmix(state);
    Keys { piece_square, side }
}

static KEYS: Keys = make_keys();

#[inline(always)]
pub fn piece_square(p: Piece, sq: Square) -> u64 {
    KEYS.piece_square[p.index()][sq.index()]
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
