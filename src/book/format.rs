//! chuhe's book format (specified in `book/README.md`): a 16-byte header
//! and fixed-size records sorted by key, read in place and searched by
//! binary search.

use super::{BookError, BookMove, canonical_key, format_error};
use crate::position::Position;
use crate::types::*;
use std::borrow::Cow;

/// The first eight bytes of a chuhe book.
pub const MAGIC: [u8; 8] = *b"CHUHEBK1";
/// Magic, record count (u32), reserved (u32).
pub const HEADER_LEN: usize = 16;
/// Key u64, move u16, weight u16, wins u16, draws u16, losses u16.
pub const RECORD_LEN: usize = 18;

/// One record of a chuhe book, as stored (move possibly mirrored).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    pub key: u64,
    pub from: u8,
    pub to: u8,
    pub weight: u16,
    pub wins: u16,
    pub draws: u16,
    pub losses: u16,
}

impl Record {
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.key.to_le_bytes());
        out.push(self.from);
        out.push(self.to);
        for v in [self.weight, self.wins, self.draws, self.losses] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }

    fn read(b: &[u8]) -> Record {
        let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        let mut key = [0u8; 8];
        key.copy_from_slice(&b[0..8]);
        Record {
            key: u64::from_le_bytes(key),
            from: b[8],
            to: b[9],
            weight: u16_at(10),
            wins: u16_at(12),
            draws: u16_at(14),
            losses: u16_at(16),
        }
    }

    fn mv(&self) -> Move {
        Move::new(
            Square::from_index(self.from as usize),
            Square::from_index(self.to as usize),
        )
    }
}

/// Serialises records (sorted here: by key, then weight descending, then
/// move) into a chuhe book file.
pub fn encode(records: &mut [Record]) -> Vec<u8> {
    records.sort_by(|a, b| {
        a.key
            .cmp(&b.key)
            .then(b.weight.cmp(&a.weight))
            .then((a.from, a.to).cmp(&(b.from, b.to)))
    });
    let mut out = Vec::with_capacity(HEADER_LEN + records.len() * RECORD_LEN);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    for r in records.iter() {
        r.write(&mut out);
    }
    out
}

/// A chuhe book held in memory (borrowed when embedded).
pub struct ChuheBook {
    data: Cow<'static, [u8]>,
    count: usize,
}

impl ChuheBook {
    /// Checks the header, the length and the order and contents of every
    /// record, so that probing can trust them.
    pub fn parse(name: &str, data: Cow<'static, [u8]>) -> Result<ChuheBook, BookError> {
        if data.len() < HEADER_LEN || data[0..8] != MAGIC {
            return Err(format_error(name, "no chuhe book header"));
        }
        let count = u32::from_le_bytes([data[8], data[9], data[10], data[11]]) as usize;
        if data.len() != HEADER_LEN + count * RECORD_LEN {
            return Err(format_error(
                name,
                format!(
                    "header promises {count} records but the file has {} bytes",
                    data.len()
                ),
            ));
        }
        let book = ChuheBook { data, count };
        let mut prev = 0u64;
        for i in 0..count {
            let r = book.record(i);
            if r.key < prev {
                return Err(format_error(name, format!("record {i} is out of order")));
            }
            if r.from >= 90 || r.to >= 90 || r.from == r.to {
                return Err(format_error(name, format!("record {i} holds no move")));
            }
            prev = r.key;
        }
        Ok(book)
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn bytes(&self) -> usize {
        self.data.len()
    }

    pub fn record(&self, i: usize) -> Record {
        let at = HEADER_LEN + i * RECORD_LEN;
        Record::read(&self.data[at..at + RECORD_LEN])
    }

    /// Number of distinct keys.
    pub fn positions(&self) -> usize {
        (0..self.count)
            .filter(|&i| i == 0 || self.record(i - 1).key != self.record(i).key)
            .count()
    }

    /// The records stored under `key`.
    pub fn lookup(&self, key: u64) -> Vec<Record> {
        // Lower bound by binary search.
        let (mut lo, mut hi) = (0, self.count);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.record(mid).key < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo..self.count)
            .map(|i| self.record(i))
            .take_while(|r| r.key == key)
            .collect()
    }

    pub(super) fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let (key, mirrored) = canonical_key(pos);
        self.lookup(key)
            .into_iter()
            .map(|r| BookMove {
                mv: if mirrored { r.mv().mirror() } else { r.mv() },
                weight: r.weight as u32,
                wins: r.wins as u32,
                draws: r.draws as u32,
                losses: r.losses as u32,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Book;

    #[test]
    fn corrupt_books_are_rejected() {
        let mut rec = vec![Record {
            key: 5,
            from: 1,
            to: 2,
            weight: 1,
            wins: 0,
            draws: 0,
            losses: 0,
        }];
        let good = encode(&mut rec);
        assert!(ChuheBook::parse("x", Cow::Owned(good.clone())).is_ok());
        let mut short = good.clone();
        short.pop();
        assert!(ChuheBook::parse("x", Cow::Owned(short)).is_err());
        let mut bad_move = good.clone();
        bad_move[HEADER_LEN + 8] = 95;
        assert!(ChuheBook::parse("x", Cow::Owned(bad_move)).is_err());
        let mut two = vec![rec[0], Record { key: 1, ..rec[0] }];
        let mut unsorted = encode(&mut two);
        // Swap the two records' keys so they are out of order.
        unsorted[HEADER_LEN] = 9;
        assert!(ChuheBook::parse("x", Cow::Owned(unsorted)).is_err());
        assert!(Book::from_bytes("x", Cow::Owned(vec![1, 2, 3])).is_err());
        assert!(Book::from_bytes("x", Cow::Owned(Vec::new())).is_err());
    }
}
