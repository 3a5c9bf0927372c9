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
//! The parts: `format.rs` (chuhe's format), `eleeye.rs` (ElephantEye's
//! `BOOK.DAT`), `choice.rs` (the weighted choice, as `options::Randomness` says),
//! `builder.rs` (a book from games); here the book hash, `Book` and
//! `BookSet`, and the embedded book.
//!
//! A `BookSet` holds one or more books in priority order: the first book
//! that knows a position answers for it. Every move a book offers is checked
//! for legality (keys can collide, files can be corrupt), and `choose` never
//! picks a move that would bring back a position of the game's history.

use crate::movegen;
use crate::position::Position;
use crate::types::*;
use crate::zobrist::{KeySet, key_set};
use std::borrow::Cow;
use std::fmt;
use std::path::Path;

mod builder;
mod choice;
mod eleeye;
mod format;

pub use builder::{BookBuilder, BuildRule, BuildSummary};
pub use eleeye::EleEyeBook;
pub use format::{ChuheBook, HEADER_LEN, MAGIC, RECORD_LEN, Record, encode};

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
            Book::EleEye(b) => b.positions(),
        }
    }

    pub fn bytes(&self) -> usize {
        match self {
            Book::Chuhe(b) => b.bytes(),
            Book::EleEye(b) => b.bytes(),
        }
    }
}

/// The default book, built from master games (see book/README.md).
pub static EMBEDDED_BOOK: &[u8] = include_bytes!("../../book/chuhe.book");

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
}
