//! Training records: one scored position in 32 bytes.
//!
//! `chuhe datagen` writes them, `chuhe train` reads them. A file is a bare
//! sequence of records with no header, so shards made with different seeds
//! (or on different machines) are joined with `cat`.
//!
//! Layout of one record (all integers little-endian):
//!
//! | bytes  | content |
//! |--------|---------|
//! | 0..12  | occupancy: bit `i` set when point `i` (`rank * 9 + file`, rank 0 = Red's back rank) holds a piece; bits 90..96 are zero |
//! | 12..28 | the pieces in increasing point order, one 4-bit code each, the first in the low nibble of byte 12; code = `colour * 7 + kind` (Red 0, Black 1; kinds king, advisor, elephant, horse, chariot, cannon, pawn = 0..6); unused nibbles are zero |
//! | 28..30 | `i16`: the search score in centipawns from the side to move's point of view |
//! | 30..32 | `u16`: bits 0..12 the ply (plies from the game's start, capped at 4095), bits 12..14 the game's result for Red (0 loss, 1 draw, 2 win), bit 14 the side to move (1 = Black), bit 15 zero |
//!
//! At most 32 pieces stand on a xiangqi board, so 16 bytes of nibbles always
//! suffice. Anything that breaks these rules (more than 32 occupied points,
//! a code above 13, a result of 3, bit 15 set) makes the record invalid,
//! and readers report it instead of guessing.

use crate::position::Position;
use crate::types::*;
use std::fmt;
use std::io::{self, Read, Write};

/// Bytes in one record.
pub const RECORD_SIZE: usize = 32;
/// The largest ply a record can hold.
pub const MAX_PLY: u16 = 4095;

/// A game's result from Red's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wdl {
    BlackWins = 0,
    Draw = 1,
    RedWins = 2,
}

impl Wdl {
    /// The result as a score for Red: 0, 0.5 or 1.
    pub fn red_score(self) -> f32 {
        self as u8 as f32 * 0.5
    }

    /// The result for the given side: 0, 0.5 or 1.
    pub fn score_for(self, side: Color) -> f32 {
        match side {
            Color::Red => self.red_score(),
            Color::Black => 1.0 - self.red_score(),
        }
    }

    /// A win for `winner`.
    pub fn win_for(winner: Color) -> Wdl {
        match winner {
            Color::Red => Wdl::RedWins,
            Color::Black => Wdl::BlackWins,
        }
    }

    fn from_bits(b: u16) -> Option<Wdl> {
        match b {
            0 => Some(Wdl::BlackWins),
            1 => Some(Wdl::Draw),
            2 => Some(Wdl::RedWins),
            _ => None,
        }
    }
}

/// One scored position, as stored.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Record(pub [u8; RECORD_SIZE]);

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    TooManyPieces(u32),
    BadPieceCode(u8),
    BadResult,
    ReservedBit,
    /// The placement is not a legal position (e.g. no king).
    Illegal(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            RecordError::TooManyPieces(n) => write!(f, "record has {n} occupied points (max 32)"),
            RecordError::BadPieceCode(c) => write!(f, "record has piece code {c} (max 13)"),
            RecordError::BadResult => write!(f, "record has result code 3"),
            RecordError::ReservedBit => write!(f, "record has its reserved bit set"),
            RecordError::Illegal(e) => write!(f, "record is not a legal position: {e}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// A record taken apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The pieces on the board, in increasing point order.
    pub pieces: Vec<(Piece, Square)>,
    pub side: Color,
    /// Centipawns from the side to move's point of view.
    pub score: i16,
    pub ply: u16,
    pub result: Wdl,
}

impl Record {
    /// Packs the placement and side to move of `pos` with its score, ply and
    /// result.
    pub fn new(pos: &Position, score: i16, ply: u32, result: Wdl) -> Record {
        let mut b = [0u8; RECORD_SIZE];
        let occ = pos.occupied();
        for (n, sq) in occ.into_iter().enumerate() {
            let i = sq.index();
            b[i / 8] |= 1 << (i % 8);
            let p = pos.piece_on(sq);
            let code = p.color().index() as u8 * 7 + p.kind().index() as u8;
            b[12 + n / 2] |= code << (4 * (n % 2));
        }
        b[28..30].copy_from_slice(&score.to_le_bytes());
        let ply = ply.min(MAX_PLY as u32) as u16;
        let side = (pos.side_to_move() == Color::Black) as u16;
        let packed = ply | (result as u16) << 12 | side << 14;
        b[30..32].copy_from_slice(&packed.to_le_bytes());
        Record(b)
    }

    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.0[28], self.0[29]])
    }

    pub fn set_score(&mut self, score: i16) {
        self.0[28..30].copy_from_slice(&score.to_le_bytes());
    }

    fn packed(&self) -> u16 {
        u16::from_le_bytes([self.0[30], self.0[31]])
    }

    pub fn ply(&self) -> u16 {
        self.packed() & 0x0fff
    }

    pub fn side(&self) -> Color {
        if self.packed() & (1 << 14) != 0 {
            Color::Black
        } else {
            Color::Red
        }
    }

    /// The result, or `None` when the bits are invalid.
    pub fn result(&self) -> Option<Wdl> {
        Wdl::from_bits((self.packed() >> 12) & 3)
    }

    pub fn set_result(&mut self, r: Wdl) {
        let packed = (self.packed() & !(3 << 12)) | (r as u16) << 12;
        self.0[30..32].copy_from_slice(&packed.to_le_bytes());
    }

    /// Calls `f` with each piece and its point, in increasing point order,
    /// without checking the record (the trainer's fast path: validate the
    /// file once with `decode`).
    #[inline]
    pub fn for_each_piece(&self, mut f: impl FnMut(Piece, Square)) {
        let occ = u128::from_le_bytes({
            let mut w = [0u8; 16];
            w[..12].copy_from_slice(&self.0[..12]);
            w
        });
        let mut bits = occ;
        let mut n = 0;
        while bits != 0 && n < 32 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let code = (self.0[12 + n / 2] >> (4 * (n % 2))) & 15;
            let (color, kind) = if code < 7 {
                (Color::Red, code)
            } else {
                (Color::Black, code.wrapping_sub(7) % 7)
            };
            f(
                Piece::new(color, PieceKind::from_index(kind as usize)),
                Square::from_index(i.min(89)),
            );
            n += 1;
        }
    }

    /// Takes the record apart, checking every field.
    pub fn decode(&self) -> Result<Entry, RecordError> {
        let packed = self.packed();
        if packed & 0x8000 != 0 {
            return Err(RecordError::ReservedBit);
        }
        let result = self.result().ok_or(RecordError::BadResult)?;
        let occ_count: u32 = self.0[..12].iter().map(|b| b.count_ones()).sum();
        if occ_count > 32 || self.0[11] & 0xfc != 0 {
            return Err(RecordError::TooManyPieces(occ_count));
        }
        for n in 0..occ_count as usize {
            let code = (self.0[12 + n / 2] >> (4 * (n % 2))) & 15;
            if code > 13 {
                return Err(RecordError::BadPieceCode(code));
            }
        }
        let mut pieces = Vec::with_capacity(occ_count as usize);
        self.for_each_piece(|p, sq| pieces.push((p, sq)));
        Ok(Entry {
            pieces,
            side: self.side(),
            score: self.score(),
            ply: self.ply(),
            result,
        })
    }

    /// The record's position as FEN (move counters: 0 and 1).
    pub fn to_fen(&self) -> Result<String, RecordError> {
        let e = self.decode()?;
        let mut board = [Piece::NONE; 90];
        for &(p, sq) in &e.pieces {
            board[sq.index()] = p;
        }
        let s = crate::position::placement_fen(&board);
        let side = if e.side == Color::Red { 'w' } else { 'b' };
        Ok(format!("{s} {side} - - 0 1"))
    }

    /// The record's position (without history).
    pub fn to_position(&self) -> Result<Position, RecordError> {
        let fen = self.to_fen()?;
        Position::from_fen(&fen).map_err(|e| RecordError::Illegal(e.to_string()))
    }
}

impl fmt::Debug for Record {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.to_fen() {
            Ok(fen) => write!(
                f,
                "Record({fen}, score {}, ply {}, result {:?})",
                self.score(),
                self.ply(),
                self.result()
            ),
            Err(e) => write!(f, "Record(invalid: {e})"),
        }
    }
}

/// Writes records to any byte sink.
pub fn write_records(out: &mut impl Write, records: &[Record]) -> io::Result<()> {
    for r in records {
        out.write_all(&r.0)?;
    }
    Ok(())
}

/// Reads every record of a stream. A trailing partial record is an error
/// (a truncated file), not silently dropped.
pub fn read_records(input: &mut impl Read) -> io::Result<Vec<Record>> {
    let mut raw = Vec::new();
    input.read_to_end(&mut raw)?;
    if raw.len() % RECORD_SIZE != 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} bytes is not a whole number of {RECORD_SIZE}-byte records (truncated file?)",
                raw.len()
            ),
        ));
    }
    Ok(raw
        .chunks_exact(RECORD_SIZE)
        .map(|c| {
            let mut r = [0u8; RECORD_SIZE];
            r.copy_from_slice(c);
            Record(r)
        })
        .collect())
}

/// Reads every record of the named files, in order.
pub fn read_files(paths: &[String]) -> io::Result<Vec<Record>> {
    let mut all = Vec::new();
    for p in paths {
        let mut f =
            std::fs::File::open(p).map_err(|e| io::Error::new(e.kind(), format!("{p}: {e}")))?;
        let mut recs =
            read_records(&mut f).map_err(|e| io::Error::new(e.kind(), format!("{p}: {e}")))?;
        all.append(&mut recs);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen;

    #[test]
    fn round_trip_keeps_every_field() {
        let fens = [
            crate::position::START_FEN,
            "4k4/4a4/9/9/9/9/9/9/4A4/3K5 b - - 0 1",
            "2bakab2/9/4c4/p3p3p/2p3p2/9/P1P1P1P1P/4C4/9/2BAKAB2 w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            for (score, ply, result) in [
                (0i16, 0u32, Wdl::Draw),
                (-3210, 4095, Wdl::BlackWins),
                (i16::MAX, 77, Wdl::RedWins),
            ] {
                let r = Record::new(&pos, score, ply, result);
                let e = r.decode().unwrap();
                assert_eq!(e.score, score);
                assert_eq!(e.ply as u32, ply);
                assert_eq!(e.result, result);
                assert_eq!(e.side, pos.side_to_move());
                let back = r.to_position().unwrap();
                assert_eq!(
                    back.to_fen().split(' ').take(2).collect::<Vec<_>>(),
                    pos.to_fen().split(' ').take(2).collect::<Vec<_>>()
                );
            }
        }
    }

    #[test]
    fn ply_is_capped_and_result_settable() {
        let pos = Position::startpos();
        let mut r = Record::new(&pos, 5, 100_000, Wdl::Draw);
        assert_eq!(r.ply(), MAX_PLY);
        r.set_result(Wdl::RedWins);
        r.set_score(-42);
        assert_eq!(r.result(), Some(Wdl::RedWins));
        assert_eq!(r.score(), -42);
        assert_eq!(r.ply(), MAX_PLY);
        assert_eq!(Wdl::RedWins.score_for(Color::Black), 0.0);
        assert_eq!(Wdl::Draw.score_for(Color::Black), 0.5);
    }

    #[test]
    fn random_game_positions_round_trip() {
        let mut pos = Position::startpos();
        let mut lcg = crate::rng::Lcg(0x1234_5678_9abc_def0u64);
        let mut buf = Vec::new();
        let mut fens = Vec::new();
        for ply in 0..400 {
            let moves = movegen::legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let r = Record::new(&pos, (ply as i32 * 7 - 900) as i16, ply, Wdl::Draw);
            write_records(&mut buf, &[r]).unwrap();
            fens.push(pos.to_fen());
            pos.make_move(moves.as_slice()[(lcg.next_u64() >> 33) as usize % moves.len()]);
        }
        let back = read_records(&mut &buf[..]).unwrap();
        assert_eq!(back.len(), fens.len());
        for (r, fen) in back.iter().zip(&fens) {
            let p = r.to_position().unwrap();
            assert_eq!(p.to_fen().split(' ').next(), fen.split(' ').next());
        }
    }

    #[test]
    fn damaged_records_are_reported() {
        let pos = Position::startpos();
        let r = Record::new(&pos, 0, 0, Wdl::Draw);
        let mut bad = r;
        bad.0[31] |= 0x80;
        assert_eq!(bad.decode(), Err(RecordError::ReservedBit));
        let mut bad = r;
        bad.0[31] |= 0x30;
        assert_eq!(bad.decode(), Err(RecordError::BadResult));
        let mut bad = r;
        bad.0[..12].fill(0xff);
        assert!(matches!(bad.decode(), Err(RecordError::TooManyPieces(_))));
        let mut bad = r;
        bad.0[12] = 0xff;
        assert_eq!(bad.decode(), Err(RecordError::BadPieceCode(15)));
        let mut bad = Record([0u8; RECORD_SIZE]);
        bad.0[30] = 0;
        assert!(matches!(bad.to_position(), Err(RecordError::Illegal(_))));
        let truncated = [0u8; RECORD_SIZE + 3];
        assert!(read_records(&mut &truncated[..]).is_err());
    }
}
