//! ElephantEye's `BOOK.DAT` (format: shared/docs/book-formats.md): its
//! RC4-drawn Zobrist locks, its square numbering, and the lookup.

use super::{BookError, BookMove, format_error};
use crate::position::Position;
use crate::types::*;
use once_cell::sync::Lazy;

/// RC4 keystream, as ElephantEye draws its Zobrist numbers from it.
struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rc4 {
    fn new(key: &[u8]) -> Rc4 {
        let mut s = [0u8; 256];
        for (i, v) in s.iter_mut().enumerate() {
            *v = i as u8;
        }
        let mut j = 0u8;
        for i in 0..256 {
            j = j.wrapping_add(s[i]).wrapping_add(key[i % key.len()]);
            s.swap(i, j as usize);
        }
        Rc4 { s, i: 0, j: 0 }
    }

    fn next_byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[self.i as usize]);
        self.s.swap(self.i as usize, self.j as usize);
        let t = self.s[self.i as usize].wrapping_add(self.s[self.j as usize]);
        self.s[t as usize]
    }

    fn next_u32(&mut self) -> u32 {
        u32::from_le_bytes([
            self.next_byte(),
            self.next_byte(),
            self.next_byte(),
            self.next_byte(),
        ])
    }
}

/// ElephantEye's `lock1` numbers: side to move, and `[piece][square16]`.
struct EleEyeLocks {
    side: u32,
    piece_square: Vec<[u32; 256]>,
}

static ELEEYE_LOCKS: Lazy<EleEyeLocks> = Lazy::new(|| {
    let mut rc4 = Rc4::new(&[0, 0, 0, 0]);
    // Each number is a triple (key, lock0, lock1); only lock1 keys books.
    let mut lock1 = || {
        let _key = rc4.next_u32();
        let _lock0 = rc4.next_u32();
        rc4.next_u32()
    };
    let side = lock1();
    let piece_square = (0..14)
        .map(|_| {
            let mut row = [0u32; 256];
            for v in row.iter_mut() {
                *v = lock1();
            }
            row
        })
        .collect();
    EleEyeLocks { side, piece_square }
});

/// A point in ElephantEye's 16 x 16 board numbering.
fn eleeye_square(sq: Square) -> usize {
    (3 + sq.file() as usize) + 16 * (3 + 9 - sq.rank() as usize)
}

fn from_eleeye_square(i: u8) -> Option<Square> {
    let (col, row) = (i as i32 % 16, i as i32 / 16);
    let (file, rank) = (col - 3, 12 - row);
    ((0..9).contains(&file) && (0..10).contains(&rank)).then(|| Square::new(file as u8, rank as u8))
}

/// ElephantEye's book lock of `pos` and of its mirror image.
fn eleeye_locks(pos: &Position) -> (u32, u32) {
    let locks = &*ELEEYE_LOCKS;
    let (mut lock, mut mirror) = (0u32, 0u32);
    for sq in pos.occupied() {
        // Piece::index is colour * 7 + kind with kinds in ElephantEye's order.
        let row = &locks.piece_square[pos.piece_on(sq).index()];
        lock ^= row[eleeye_square(sq)];
        mirror ^= row[eleeye_square(sq.mirror())];
    }
    if pos.side_to_move() == Color::Black {
        lock ^= locks.side;
        mirror ^= locks.side;
    }
    (lock, mirror)
}

/// An ElephantEye `BOOK.DAT` held in memory.
pub struct EleEyeBook {
    data: Vec<u8>,
}

impl EleEyeBook {
    pub fn parse(name: &str, data: Vec<u8>) -> Result<EleEyeBook, BookError> {
        if data.is_empty() || !data.len().is_multiple_of(8) {
            return Err(format_error(
                name,
                "neither a chuhe book nor an ElephantEye BOOK.DAT (length not a multiple of 8)",
            ));
        }
        let book = EleEyeBook { data };
        for i in 1..book.len() {
            if book.entry(i).0 < book.entry(i - 1).0 {
                return Err(format_error(
                    name,
                    format!("ElephantEye record {i} is out of order"),
                ));
            }
        }
        Ok(book)
    }

    pub fn len(&self) -> usize {
        self.data.len() / 8
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// (lock, move, weight) of record `i`.
    /// Distinct locks in the file.
    pub fn positions(&self) -> usize {
        (0..self.len())
            .filter(|&i| i == 0 || self.entry(i - 1).0 != self.entry(i).0)
            .count()
    }

    pub fn bytes(&self) -> usize {
        self.data.len()
    }

    fn entry(&self, i: usize) -> (u32, u16, u16) {
        let b = &self.data[i * 8..i * 8 + 8];
        (
            u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            u16::from_le_bytes([b[4], b[5]]),
            u16::from_le_bytes([b[6], b[7]]),
        )
    }

    fn lookup(&self, lock: u32) -> Vec<(Move, u16)> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.entry(mid).0 < lock {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo..self.len())
            .map(|i| self.entry(i))
            .take_while(|e| e.0 == lock)
            .filter_map(|(_, mv, weight)| {
                let from = from_eleeye_square(mv as u8)?;
                let to = from_eleeye_square((mv >> 8) as u8)?;
                (from != to).then(|| (Move::new(from, to), weight))
            })
            .collect()
    }

    pub(super) fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let (lock, mirror_lock) = eleeye_locks(pos);
        let mut found = self.lookup(lock);
        if found.is_empty() {
            found = self
                .lookup(mirror_lock)
                .into_iter()
                .map(|(m, w)| (m.mirror(), w))
                .collect();
        }
        found
            .into_iter()
            .map(|(mv, weight)| BookMove {
                mv,
                weight: weight as u32,
                wins: 0,
                draws: 0,
                losses: 0,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eleeye_squares_round_trip() {
        assert_eq!(eleeye_square(Square::parse("e0").unwrap()), 199);
        assert_eq!(eleeye_square(Square::parse("e9").unwrap()), 55);
        for sq in Square::all() {
            assert_eq!(from_eleeye_square(eleeye_square(sq) as u8), Some(sq));
        }
        assert_eq!(from_eleeye_square(0), None);
    }

    #[test]
    fn rc4_matches_a_published_vector() {
        // RC4 with key "Key" starts EB 9F 77 81 (the well-known test vector).
        let mut rc4 = Rc4::new(b"Key");
        let bytes: Vec<u8> = (0..4).map(|_| rc4.next_byte()).collect();
        assert_eq!(bytes, [0xeb, 0x9f, 0x77, 0x81]);
    }
}
