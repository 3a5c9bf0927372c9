//! Opening book: chuhe's own binary format (specified in book/README.md),
//! ElephantEye's `BOOK.DAT`, the book embedded in the binary, the probe,
//! the weighted choice, and the builder that turns master games into a book.
//!
//! Keys are a dedicated book hash rather than the search's Zobrist key, so
//! that the file format is fixed by its own specification and does not move
//! when the engine's internals do. Each position is stored under the smaller
//! of its own key and its left-right mirror's, its moves mirrored to match,
//! so an opening and its mirror image share their statistics.
//!
//! A `BookSet` holds one or more books in priority order: the first book
//! that knows a position answers for it. Every move a book offers is checked
//! for legality (keys can collide, files can be corrupt), and `choose` never
//! picks a move that would bring back a position of the game's history.

use crate::games::GameResult;
use crate::movegen;
use crate::position::Position;
use crate::rng::SplitMix;
use crate::types::*;
use crate::zobrist::{self, KeySet, key_set};
use once_cell::sync::Lazy;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

// ---------------------------------------------------------------------------
// The book hash

/// Seed of the book hash: the bytes "chuhebk!" read as a big-endian u64.
pub const BOOK_HASH_SEED: u64 = u64::from_be_bytes(*b"chuhebk!");

static BOOK_KEYS: KeySet = key_set(BOOK_HASH_SEED, true);

/// The book hash of `pos` and of its left-right mirror image.
pub fn book_keys(pos: &Position) -> (u64, u64) {
    let (mut key, mut mirror) = (0u64, 0u64);
    for sq in pos.occupied() {
        let row = &BOOK_KEYS.piece_square[pos.piece_on(sq).index()];
        key ^= row[sq.index()];
        mirror ^= row[sq.mirror().index()];
    }
    if pos.side_to_move() == Color::Black {
        key ^= BOOK_KEYS.side;
        mirror ^= BOOK_KEYS.side;
    }
    (key, mirror)
}

/// The key a position is stored under, and whether its moves are stored
/// mirrored.
fn canonical_key(pos: &Position) -> (u64, bool) {
    let (key, mirror) = book_keys(pos);
    if mirror < key {
        (mirror, true)
    } else {
        (key, false)
    }
}

// ---------------------------------------------------------------------------
// Public types

/// A book move with its selection weight and, where the book keeps them,
/// the results of the games that played it, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl BookMove {
    /// Games the statistics cover (0 for books without statistics).
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mover's score (wins plus half the draws, over games), if known.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }
}

/// How adventurous the book choice is (the UCCI `randomness` values).
/// The chance of a move is proportional to `weight ^ exponent`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Randomness {
    /// Always the heaviest move (ties: the first in book order).
    None,
    /// weight⁴: nearly always one of the heaviest.
    Tiny,
    /// weight².
    Small,
    /// weight: in proportion to the weights, as the book's builder meant.
    #[default]
    Medium,
    /// √weight.
    Large,
    /// Every book move equally.
    Huge,
}

impl Randomness {
    /// Parses a UCCI `randomness` value (case-insensitive).
    pub fn parse(s: &str) -> Option<Randomness> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "none" => Randomness::None,
            "tiny" => Randomness::Tiny,
            "small" => Randomness::Small,
            "medium" => Randomness::Medium,
            "large" => Randomness::Large,
            "huge" => Randomness::Huge,
            _ => return None,
        })
    }

    fn exponent(self) -> f64 {
        match self {
            Randomness::None => f64::INFINITY,
            Randomness::Tiny => 4.0,
            Randomness::Small => 2.0,
            Randomness::Medium => 1.0,
            Randomness::Large => 0.5,
            Randomness::Huge => 0.0,
        }
    }
}

/// Why a book could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be read.
    Io { path: String, message: String },
    /// The file is not a book this module reads.
    Format { path: String, reason: String },
    /// The list of files named no file.
    NoFiles,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BookError::Io { path, message } => write!(f, "cannot read book '{path}': {message}"),
            BookError::Format { path, reason } => write!(f, "'{path}' is not a book: {reason}"),
            BookError::NoFiles => write!(f, "no book file named"),
        }
    }
}

impl std::error::Error for BookError {}

fn format_error(path: &str, reason: impl Into<String>) -> BookError {
    BookError::Format {
        path: path.to_string(),
        reason: reason.into(),
    }
}

// ---------------------------------------------------------------------------
// chuhe's format

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

    fn probe(&self, pos: &Position) -> Vec<BookMove> {
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

// ---------------------------------------------------------------------------
// ElephantEye's BOOK.DAT (format: shared/docs/book-formats.md)

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

    fn probe(&self, pos: &Position) -> Vec<BookMove> {
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

// ---------------------------------------------------------------------------
// Books and book sets

/// One book of either format.
pub enum Book {
    Chuhe(ChuheBook),
    EleEye(EleEyeBook),
}

impl Book {
    /// Reads a book from bytes, telling the format by its header.
    pub fn from_bytes(name: &str, data: Cow<'static, [u8]>) -> Result<Book, BookError> {
        if data.starts_with(&MAGIC) {
            ChuheBook::parse(name, data).map(Book::Chuhe)
        } else {
            EleEyeBook::parse(name, data.into_owned()).map(Book::EleEye)
        }
    }

    pub fn open(path: &Path) -> Result<Book, BookError> {
        let name = path.display().to_string();
        let data = std::fs::read(path).map_err(|e| BookError::Io {
            path: name.clone(),
            message: e.to_string(),
        })?;
        Book::from_bytes(&name, Cow::Owned(data))
    }

    /// The book's moves for `pos` as stored, legal or not.
    pub fn probe_raw(&self, pos: &Position) -> Vec<BookMove> {
        match self {
            Book::Chuhe(b) => b.probe(pos),
            Book::EleEye(b) => b.probe(pos),
        }
    }

    /// The book's legal moves for `pos` (duplicates merged, heaviest first).
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let legal = movegen::legal_moves(pos);
        let mut out: Vec<BookMove> = Vec::new();
        for bm in self.probe_raw(pos) {
            if !legal.contains(bm.mv) {
                continue;
            }
            match out.iter_mut().find(|o| o.mv == bm.mv) {
                Some(o) => {
                    o.weight = o.weight.saturating_add(bm.weight);
                    o.wins = o.wins.saturating_add(bm.wins);
                    o.draws = o.draws.saturating_add(bm.draws);
                    o.losses = o.losses.saturating_add(bm.losses);
                }
                None => out.push(bm),
            }
        }
        out.sort_by_key(|b| std::cmp::Reverse(b.weight));
        out
    }

    pub fn format_name(&self) -> &'static str {
        match self {
            Book::Chuhe(_) => "chuhe",
            Book::EleEye(_) => "ElephantEye BOOK.DAT",
        }
    }

    /// Records in the file.
    pub fn records(&self) -> usize {
        match self {
            Book::Chuhe(b) => b.len(),
            Book::EleEye(b) => b.len(),
        }
    }

    /// Distinct keys in the file.
    pub fn positions(&self) -> usize {
        match self {
            Book::Chuhe(b) => b.positions(),
            Book::EleEye(b) => (0..b.len())
                .filter(|&i| i == 0 || b.entry(i - 1).0 != b.entry(i).0)
                .count(),
        }
    }

    pub fn bytes(&self) -> usize {
        match self {
            Book::Chuhe(b) => b.bytes(),
            Book::EleEye(b) => b.data.len(),
        }
    }
}

/// The default book, built from master games (see book/README.md).
pub static EMBEDDED_BOOK: &[u8] = include_bytes!("../book/chuhe.book");

/// The name `BookSet::load` reads as the embedded book.
pub const EMBEDDED_NAME: &str = "<embedded>";

/// Books consulted in order: the first that has legal moves for a position
/// answers for it.
#[derive(Default)]
pub struct BookSet {
    books: Vec<(String, Book)>,
}

impl BookSet {
    pub fn empty() -> BookSet {
        BookSet::default()
    }

    /// The book compiled into the binary. A corrupt embedded book (which the
    /// test suite rules out) yields an empty set rather than a panic.
    pub fn embedded() -> BookSet {
        match Book::from_bytes(EMBEDDED_NAME, Cow::Borrowed(EMBEDDED_BOOK)) {
            Ok(book) => BookSet {
                books: vec![(EMBEDDED_NAME.to_string(), book)],
            },
            Err(e) => {
                log::error!("embedded book unusable: {e}");
                BookSet::empty()
            }
        }
    }

    /// Loads the books named in `paths`, separated by `;` (the UCCI
    /// `bookfiles` value), in priority order. `<embedded>` names the built-in
    /// book. Each file is chuhe's format or ElephantEye's, told apart by
    /// content.
    pub fn load(paths: &str) -> Result<BookSet, BookError> {
        let mut set = BookSet::empty();
        for name in paths.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            let book = if name.eq_ignore_ascii_case(EMBEDDED_NAME) {
                Book::from_bytes(EMBEDDED_NAME, Cow::Borrowed(EMBEDDED_BOOK))?
            } else {
                Book::open(Path::new(name))?
            };
            set.books.push((name.to_string(), book));
        }
        if set.books.is_empty() {
            return Err(BookError::NoFiles);
        }
        Ok(set)
    }

    pub fn push(&mut self, name: &str, book: Book) {
        self.books.push((name.to_string(), book));
    }

    pub fn is_empty(&self) -> bool {
        self.books.is_empty()
    }

    /// The books, with the names they were loaded under.
    pub fn books(&self) -> impl Iterator<Item = (&str, &Book)> {
        self.books.iter().map(|(n, b)| (n.as_str(), b))
    }

    /// The legal book moves for `pos`, heaviest first, from the first book
    /// that has any.
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        self.books
            .iter()
            .map(|(_, b)| b.probe(pos))
            .find(|moves| !moves.is_empty())
            .unwrap_or_default()
    }

    /// A book move for `pos`, drawn by weight as `randomness` says, with
    /// `rng_seed` making the draw reproducible. Moves that would repeat a
    /// position of the game (`pos.states()`) are never chosen; `None` when
    /// no book move is left.
    pub fn choose(
        &self,
        pos: &Position,
        randomness: Randomness,
        rng_seed: u64,
    ) -> Option<BookMove> {
        let history: Vec<u64> = pos.states().iter().map(|s| s.key).collect();
        let moves: Vec<BookMove> = self
            .probe(pos)
            .into_iter()
            .filter(|bm| !history.contains(&key_after(pos, bm.mv)))
            .collect();
        pick(&moves, randomness, rng_seed ^ pos.key())
    }
}

/// The Zobrist key after the legal move `m` (as `make_move` would set it).
fn key_after(pos: &Position, m: Move) -> u64 {
    let pc = pos.piece_on(m.from());
    let captured = pos.piece_on(m.to());
    let mut key = pos.key() ^ zobrist::side();
    key ^= zobrist::piece_square(pc, m.from()) ^ zobrist::piece_square(pc, m.to());
    if captured.is_some() {
        key ^= zobrist::piece_square(captured, m.to());
    }
    key
}

/// Weighted draw among `moves` (in book order).
fn pick(moves: &[BookMove], randomness: Randomness, seed: u64) -> Option<BookMove> {
    let first = *moves.first()?;
    if randomness == Randomness::None {
        return moves.iter().copied().reduce(
            |best, m| {
                if m.weight > best.weight { m } else { best }
            },
        );
    }
    let exponent = randomness.exponent();
    let shares: Vec<f64> = moves
        .iter()
        .map(|m| (m.weight.max(1) as f64).powf(exponent))
        .collect();
    let total: f64 = shares.iter().sum();
    if !(total.is_finite() && total > 0.0) {
        return Some(first);
    }
    // 53 random bits to a fraction in [0, 1).
    let mut target = SplitMix(seed).unit() * total;
    for (m, share) in moves.iter().zip(&shares) {
        if target < *share {
            return Some(*m);
        }
        target -= share;
    }
    moves.last().copied()
}

// ---------------------------------------------------------------------------
// Building a book from games

/// Which moves a built book keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildRule {
    /// A move is kept only if at least this many games played it.
    pub min_games: u32,
    /// Only moves made in the first `max_ply` plies of a game count.
    pub max_ply: usize,
    /// A move is kept only if its score for the side that played it is at
    /// least that side's average score over all games minus this margin.
    pub score_margin: f64,
}

impl Default for BuildRule {
    fn default() -> Self {
        BuildRule {
            min_games: 3,
            max_ply: 40,
            score_margin: 0.10,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl Tally {
    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }
}

/// What `BookBuilder::finish` produced.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildSummary {
    pub games: u64,
    pub plies: u64,
    /// Average score of Red and of Black over the games (the baseline of
    /// the score rule).
    pub side_score: [f64; 2],
    pub candidate_moves: usize,
    pub positions: usize,
    pub moves: usize,
    pub bytes: usize,
}

/// Gathers move statistics from games, then writes the book.
pub struct BookBuilder {
    rule: BuildRule,
    /// (canonical key, stored move, side to move) → results for the mover.
    tallies: HashMap<(u64, u8, u8), (Color, Tally)>,
    side_totals: [Tally; 2],
    games: u64,
    plies: u64,
}

impl BookBuilder {
    pub fn new(rule: BuildRule) -> BookBuilder {
        BookBuilder {
            rule,
            tallies: HashMap::new(),
            side_totals: [Tally::default(); 2],
            games: 0,
            plies: 0,
        }
    }

    /// Adds a game: `moves` must be legal from `start` (replay them first).
    /// An unfinished game adds nothing.
    pub fn add_game(&mut self, start: &Position, moves: &[Move], result: GameResult) {
        if result == GameResult::Unfinished {
            return;
        }
        let mut pos = start.clone();
        self.games += 1;
        for c in Color::BOTH {
            add_result(&mut self.side_totals[c.index()], c, result);
        }
        for &m in moves.iter().take(self.rule.max_ply) {
            let us = pos.side_to_move();
            let (key, mirrored) = canonical_key(&pos);
            let stored = if mirrored { m.mirror() } else { m };
            let entry = self
                .tallies
                .entry((key, stored.from().index() as u8, stored.to().index() as u8))
                .or_insert((us, Tally::default()));
            add_result(&mut entry.1, us, result);
            pos.make_move(m);
            self.plies += 1;
        }
    }

    /// Applies the rule and returns the book file and a summary.
    ///
    /// Weight of a kept move: 2 × wins + draws (+1 so that no kept move
    /// weighs nothing), saturated at 65535, as are the counts.
    pub fn finish(&self) -> (Vec<u8>, BuildSummary) {
        let side_score = [self.side_totals[0].score(), self.side_totals[1].score()];
        let mut records: Vec<Record> = self
            .tallies
            .iter()
            .filter(|(_, (color, t))| {
                t.games() >= self.rule.min_games
                    && t.score() >= side_score[color.index()] - self.rule.score_margin
            })
            .map(|(&(key, from, to), (_, t))| {
                let sat = |v: u32| v.min(u16::MAX as u32) as u16;
                Record {
                    key,
                    from,
                    to,
                    weight: sat(2 * t.wins + t.draws + 1),
                    wins: sat(t.wins),
                    draws: sat(t.draws),
                    losses: sat(t.losses),
                }
            })
            .collect();
        let bytes = encode(&mut records);
        let positions = records
            .iter()
            .enumerate()
            .filter(|&(i, r)| i == 0 || records[i - 1].key != r.key)
            .count();
        let summary = BuildSummary {
            games: self.games,
            plies: self.plies,
            side_score,
            candidate_moves: self.tallies.len(),
            positions,
            moves: records.len(),
            bytes: bytes.len(),
        };
        (bytes, summary)
    }
}

fn add_result(t: &mut Tally, mover: Color, result: GameResult) {
    match result {
        GameResult::Draw => t.draws += 1,
        GameResult::Win(winner) if winner == mover => t.wins += 1,
        GameResult::Win(_) => t.losses += 1,
        GameResult::Unfinished => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_keys_fold_mirrors() {
        let start = Position::startpos();
        let (k, m) = book_keys(&start);
        assert_eq!(k, m, "the start position is its own mirror");
        let mut a = Position::startpos();
        a.make_move(Move::parse("h2e2").unwrap());
        let mut b = Position::startpos();
        b.make_move(Move::parse("b2e2").unwrap());
        let (ka, ma) = book_keys(&a);
        let (kb, mb) = book_keys(&b);
        assert_eq!((ka, ma), (mb, kb));
        assert_ne!(ka, kb);
        assert_eq!(canonical_key(&a).0, canonical_key(&b).0);
        assert_ne!(canonical_key(&a).1, canonical_key(&b).1);
    }

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

    #[test]
    fn randomness_names() {
        for (s, r) in [
            ("none", Randomness::None),
            ("Tiny", Randomness::Tiny),
            ("SMALL", Randomness::Small),
            ("medium", Randomness::Medium),
            ("large", Randomness::Large),
            ("huge", Randomness::Huge),
        ] {
            assert_eq!(Randomness::parse(s), Some(r));
        }
        assert_eq!(Randomness::parse("wild"), None);
    }

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
