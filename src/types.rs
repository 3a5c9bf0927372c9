//! The small value types every other module speaks in: colours, pieces,
//! squares, moves and scores.
//!
//! Squares are numbered `rank * 9 + file`, rank 0 being Red's back rank and
//! file 0 Red's left (`a`). That keeps ranks contiguous in a `u128` bitboard,
//! which the sliding-attack tables rely on.

use std::fmt;

/// Side: Red moves first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// Piece kinds, in the order that tables are indexed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    King = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Chariot = 4,
    Cannon = 5,
    Pawn = 6,
}

impl PieceKind {
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> PieceKind {
        PieceKind::ALL[i]
    }

    /// How many of this kind each side starts with (and may ever have).
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// Upper-case FEN letter (Red's spelling).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// Parses a FEN letter of either case, including the `E`/`H` aliases.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Chariot,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }

    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Chariot => "chariot",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }
}

/// A coloured piece, or `Piece::NONE` for an empty point.
/// Encoded as `color * 8 + kind` so both halves are a shift or mask away.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece(u8);

impl Piece {
    pub const NONE: Piece = Piece(7);

    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(((color as u8) << 3) | kind as u8)
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 7
    }

    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 7
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 >> 3 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[(self.0 & 7) as usize]
    }

    /// Dense index 0..14 (Red's seven kinds, then Black's) for tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        ((self.0 >> 3) * 7 + (self.0 & 7)) as usize
    }

    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }

    pub fn letter(self) -> char {
        let l = self.kind().letter();
        match self.color() {
            Color::Red => l,
            Color::Black => l.to_ascii_lowercase(),
        }
    }
}

/// A point of the board, 0..90, `rank * 9 + file`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 90;

    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 9 + file)
    }

    /// # Panics
    /// Debug builds check the range; callers pass 0..90.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Square {
        debug_assert!(i < 90);
        Square(i as u8)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The square reflected left-right (file f ↔ 8 - f).
    #[inline(always)]
    pub const fn mirror(self) -> Square {
        Square::new(8 - self.file(), self.rank())
    }

    /// The square seen from the other side (rank r ↔ 9 - r, file f ↔ 8 - f).
    #[inline(always)]
    pub const fn rotate(self) -> Square {
        Square(89 - self.0)
    }

    /// Square shifted by (df, dr), or `None` off the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || f > 8 || r < 0 || r > 9 {
            None
        } else {
            Some(Square::new(f as u8, r as u8))
        }
    }

    /// Whether the square is on `color`'s own side of the river.
    #[inline(always)]
    pub const fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// Whether the square is inside `color`'s palace.
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file();
        let r = self.rank();
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// Parses `e0`-style coordinates.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'0');
        (f < 9 && r < 10).then(|| Square::new(f, r))
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A move as `from | to << 7`. `Move::NONE` (0) means "no move"; the null
/// move is a distinct value so that tables can tell them apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct Move(u16);

impl Move {
    pub const NONE: Move = Move(0);
    /// From a1 to a1: never a real move.
    pub const NULL: Move = Move(1 | (1 << 7));

    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | ((to.0 as u16) << 7))
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    #[inline(always)]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0 && self.0 != Move::NULL.0
    }

    /// Parses coordinate notation `h2e2`. `0000` is the null move. Legality is
    /// the position's business, not this function's.
    pub fn parse(s: &str) -> Option<Move> {
        if s == "0000" {
            return Some(Move::NULL);
        }
        if s.len() != 4 || !s.is_ascii() {
            return None;
        }
        let from = Square::parse(&s[0..2])?;
        let to = Square::parse(&s[2..4])?;
        (from != to).then(|| Move::new(from, to))
    }

    /// The move reflected left-right.
    pub const fn mirror(self) -> Move {
        Move::new(self.from().mirror(), self.to().mirror())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.is_some() {
            write!(f, "{}{}", self.from(), self.to())
        } else {
            f.write_str("0000")
        }
    }
}

/// Search scores in centi-pawn-like units from the side to move's view.
pub type Score = i32;
/// Search depth in plies.
pub type Depth = i32;

pub const MATE: Score = 10_000;
pub const INFINITE: Score = 10_001;
pub const MAX_PLY: usize = 128;
/// Scores at or beyond this magnitude are mates: ±(`MATE` − plies to mate).
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;
/// A win by the repetition rules (the opponent's perpetual check or chase)
/// at the root: ±(`RULE_WIN` − plies to the repetition). It has a band of
/// its own below the mates, a gap of `MAX_PLY` away, so that no host reads
/// it as a mate (UCI prints it as `cp`), while the search still prefers
/// the quickest win and any mate to it.
pub const RULE_WIN: Score = MATE_BOUND - MAX_PLY as Score;
/// Scores at or beyond this magnitude are decided: a rule result or a
/// mate. Evaluations stay well inside it.
pub const DECISIVE_BOUND: Score = RULE_WIN - MAX_PLY as Score;

/// Bound type of a score stored in the transposition table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Bound {
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

impl Bound {
    pub const fn from_bits(b: u8) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            assert_eq!(sq.mirror().mirror(), sq);
            assert_eq!(sq.rotate().rotate(), sq);
        }
        assert_eq!(Square::parse("e0").unwrap().index(), 4);
        assert_eq!(Square::parse("i9").unwrap().index(), 89);
        assert_eq!(Square::parse("j0"), None);
    }

    #[test]
    fn move_text_round_trips() {
        let m = Move::parse("h2e2").unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(m.from(), Square::parse("h2").unwrap());
        assert_eq!(Move::parse("0000"), Some(Move::NULL));
        assert_eq!(Move::parse("h2h2"), None);
        assert_eq!(Move::parse("h2e"), None);
        assert_eq!(Move::parse("ééé"), None);
    }

    #[test]
    fn pieces_encode_both_halves() {
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                assert_eq!(p.color(), c);
                assert_eq!(p.kind(), k);
                assert!(p.index() < 14);
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
            }
        }
        assert!(Piece::NONE.is_none());
    }
}
