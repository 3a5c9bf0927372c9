//! Move text in and out: the vertical-line notation xiangqi players write,
//! in Chinese (`炮二平五`, `马8进7`) and in its WXF transliteration
//! (`C2=5`, `H8+7`). Coordinates (`h2e2`, ICCS) live with `Move` in
//! types.rs; `parse_move` accepts them too.
//!
//! # The notation
//!
//! A move names the piece, the file it stands on, the direction and a
//! number. Each side counts files from its own right: Red writes Chinese
//! numerals (file `i` = 一 … file `a` = 九), Black digits (file `a` = 1 …
//! file `i` = 9). Directions are 进 (towards the enemy), 退 (back) and 平
//! (along the rank). After 平 the number is the target file. After 进/退 it
//! is the target file for the pieces that move diagonally (horse, elephant,
//! advisor) and the number of ranks moved for the others (chariot, cannon,
//! pawn, king).
//!
//! Tandem pieces — two or more of one kind and colour on one file — are told
//! apart by their place on the file, counted from the front (the end nearer
//! the enemy). What `to_chinese` writes (the 2020 competition rules, 第7条
//! 7.5, for two and three on a file; the xqbase.com computer standard and
//! the traditional game-record form for what the rules leave open):
//!
//! - two on a file, any kind: `前炮平五`, `后车进一` (file omitted). Advisors
//!   and elephants get 前/后 too, as the rules say for every kind.
//! - three pawns on a file: `前兵`, `中兵`, `后兵`.
//! - four or five pawns on a file: `一兵` … `五兵` from the front, Chinese
//!   numerals for both sides (xqbase.com: `一卒平５`).
//! - pawns doubled on two files at once: the marker names a pawn on each
//!   file, so the file is written after the piece, making five characters:
//!   `前兵九平八`, `中卒3进1`. (xqbase.com instead numbers the pawns of both
//!   files 一…五, right to left and then front to back; the parser accepts
//!   that too.) A lone pawn on another file keeps the plain form.
//!
//! Traditional characters (`Script::Traditional`) write 車 馬 相/象 仕/士
//! 帥/將 炮 兵/卒, 進 退 平, 後, and Black's digits full width (`馬８進７`), as
//! printed game records do. Simplified uses ASCII digits for Black.
//!
//! WXF (`to_wxf`), after the WXF/AXF notation document: letters K A E H R
//! C P, the file digit from the mover's right for both sides, `+` forward,
//! `-` back and `=` sideways (WXF's own document prints `.`; Chinese manuals
//! and Fairy-Stockfish print `=`, and we follow them; the parser takes both).
//! Tandem pieces replace the file digit: `C+=5`, `R--1`. Pawns follow the
//! WXF special cases: three on a file `P+`, `P3` (the middle one keeps the
//! plain form), `P-`; four or five `++`, `P+`, (`P3`,) `P-`, `--`; pawns
//! doubled on two files put the file first: `3+=4`, `33=4` (middle), `3-=4`.
//!
//! # Parsing
//!
//! `parse_move` reads ICCS, Chinese in either script (piece names of both
//! colours and their variants 俥 傌 砲 包 …, numerals 一…九 or digits in ASCII
//! or full width, 前/后/後/中 or 一…五 before the piece, a file after the
//! piece or a marker after it as in `車前平三`) and WXF (`C2.5`, `C2=5`,
//! `+C=5`, `C+.5`, `H2+3`, lower case too). The text is turned into a set of
//! constraints and checked against every legal move: exactly one must fit.
//! That is also how a file number written for a piece whose twin shares its
//! file is resolved (game records do this when only one of them can make
//! the move).

use crate::bitboard::Bitboard;
use crate::movegen;
use crate::position::Position;
use crate::types::*;
use std::fmt;

/// Which characters `to_chinese` writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Script {
    /// 车 马 相 仕 帅 进 后, Black's numbers in ASCII digits.
    #[default]
    Simplified,
    /// 車 馬 相 仕 帥 進 後, Black's numbers in full-width digits.
    Traditional,
}

/// Why move text could not be written or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Nothing but white space.
    Empty,
    /// The text does not have the shape of a move.
    Malformed { text: String, reason: String },
    /// Asked to write a move that is not legal in the position.
    NotLegal(Move),
    /// Well-formed text that no legal move fits.
    NoMatch { text: String },
    /// Text that several legal moves fit.
    Ambiguous { text: String, moves: Vec<Move> },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            NotationError::Empty => write!(f, "empty move text"),
            NotationError::Malformed { text, reason } => {
                write!(f, "'{text}' is not a move: {reason}")
            }
            NotationError::NotLegal(m) => write!(f, "{m} is not a legal move in this position"),
            NotationError::NoMatch { text } => write!(f, "'{text}' fits no legal move"),
            NotationError::Ambiguous { text, moves } => {
                write!(f, "'{text}' is ambiguous: it fits")?;
                for m in moves {
                    write!(f, " {m}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// What an error message keeps of the input.
fn quote(text: &str) -> String {
    crate::text::clip(text, "…")
}

fn malformed(text: &str, reason: &str) -> NotationError {
    NotationError::Malformed {
        text: quote(text),
        reason: reason.to_string(),
    }
}

// ---------------------------------------------------------------------------
// Board geometry as the notation sees it

/// The file number (1..=9) of `sq` counted from `color`'s right.
#[inline]
pub fn file_number(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => 9 - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

/// Ranks moved towards the enemy (negative: backwards).
fn forward_steps(color: Color, from: Square, to: Square) -> i32 {
    let d = to.rank() as i32 - from.rank() as i32;
    match color {
        Color::Red => d,
        Color::Black => -d,
    }
}

/// Whether `a` stands nearer the enemy than `b` (same file assumed).
fn is_ahead(color: Color, a: Square, b: Square) -> bool {
    match color {
        Color::Red => a.rank() > b.rank(),
        Color::Black => a.rank() < b.rank(),
    }
}

/// Pieces of `color` and `kind` on the file of `sq`.
fn like_on_file(pos: &Position, color: Color, kind: PieceKind, file: u8) -> Bitboard {
    pos.pieces(color, kind) & Bitboard::file(file)
}

/// Place of the piece on `sq` among its like pieces on its file: its index
/// from the front (0 = front) and how many there are.
fn tandem_place(pos: &Position, sq: Square) -> (u32, u32) {
    let pc = pos.piece_on(sq);
    let same = like_on_file(pos, pc.color(), pc.kind(), sq.file());
    let ahead = same.filter(|&s| is_ahead(pc.color(), s, sq)).count() as u32;
    (ahead, same.count())
}

/// Files (0..9, board order) holding two or more pieces of `color`/`kind`.
fn doubled_files(pos: &Position, color: Color, kind: PieceKind) -> Vec<u8> {
    (0..9u8)
        .filter(|&f| like_on_file(pos, color, kind, f).more_than_one())
        .collect()
}

/// The xqbase.com numbering of pawns on doubled files: files in the mover's
/// own order (right to left), then front to back. Index from 0, or `None`
/// when the piece's file is not doubled.
fn global_tandem_index(pos: &Position, sq: Square) -> Option<u32> {
    let pc = pos.piece_on(sq);
    let color = pc.color();
    let mut files = doubled_files(pos, color, pc.kind());
    if !files.contains(&sq.file()) {
        return None;
    }
    files.sort_by_key(|&f| file_number(color, Square::new(f, 0)));
    let mut index = 0;
    for f in files {
        if f == sq.file() {
            return Some(index + tandem_place(pos, sq).0);
        }
        index += like_on_file(pos, color, pc.kind(), f).count();
    }
    None
}

const fn is_diagonal_mover(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Horse | PieceKind::Elephant | PieceKind::Advisor
    )
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Direction {
    Forward,
    Back,
    Sideways,
}

/// The direction and number of `m` as the notation writes them.
fn direction_and_number(pos: &Position, m: Move) -> (Direction, u8) {
    let pc = pos.piece_on(m.from());
    let color = pc.color();
    let steps = forward_steps(color, m.from(), m.to());
    let to_file = file_number(color, m.to());
    if steps == 0 {
        (Direction::Sideways, to_file)
    } else {
        let dir = if steps > 0 {
            Direction::Forward
        } else {
            Direction::Back
        };
        let n = if is_diagonal_mover(pc.kind()) {
            to_file
        } else {
            steps.unsigned_abs() as u8
        };
        (dir, n)
    }
}

// ---------------------------------------------------------------------------
// Writing

/// How a move's piece is named when it is not the only one of its kind on
/// its file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tandem {
    /// The only one on its file: the file number names it.
    Alone,
    /// Index from the front and count on the file, and whether the file
    /// must be written too (pawns doubled on two files).
    OnFile {
        index: u32,
        count: u32,
        with_file: bool,
    },
}

fn tandem_of(pos: &Position, from: Square) -> Tandem {
    let pc = pos.piece_on(from);
    let (index, count) = tandem_place(pos, from);
    if count < 2 {
        return Tandem::Alone;
    }
    let with_file =
        pc.kind() == PieceKind::Pawn && doubled_files(pos, pc.color(), pc.kind()).len() > 1;
    Tandem::OnFile {
        index,
        count,
        with_file,
    }
}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULLWIDTH_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

fn chinese_number(color: Color, script: Script, n: u8) -> char {
    let i = (n.clamp(1, 9) - 1) as usize;
    match (color, script) {
        (Color::Red, _) => RED_NUMERALS[i],
        (Color::Black, Script::Simplified) => (b'1' + i as u8) as char,
        (Color::Black, Script::Traditional) => FULLWIDTH_DIGITS[i],
    }
}

fn chinese_piece(pc: Piece, script: Script) -> char {
    let red = pc.color() == Color::Red;
    let trad = script == Script::Traditional;
    match pc.kind() {
        PieceKind::King => match (red, trad) {
            (true, false) => '帅',
            (true, true) => '帥',
            (false, false) => '将',
            (false, true) => '將',
        },
        PieceKind::Advisor => {
            if red {
                '仕'
            } else {
                '士'
            }
        }
        PieceKind::Elephant => {
            if red {
                '相'
            } else {
                '象'
            }
        }
        PieceKind::Horse => {
            if trad {
                '馬'
            } else {
                '马'
            }
        }
        PieceKind::Chariot => {
            if trad {
                '車'
            } else {
                '车'
            }
        }
        PieceKind::Cannon => '炮',
        PieceKind::Pawn => {
            if red {
                '兵'
            } else {
                '卒'
            }
        }
    }
}

fn check_legal(pos: &Position, m: Move) -> Result<(), NotationError> {
    if movegen::legal_moves(pos).contains(m) {
        Ok(())
    } else {
        Err(NotationError::NotLegal(m))
    }
}

/// The move in Chinese notation (`炮二平五`, `马8进7`, `前炮平五`).
pub fn to_chinese(pos: &Position, m: Move, script: Script) -> Result<String, NotationError> {
    check_legal(pos, m)?;
    let pc = pos.piece_on(m.from());
    let color = pc.color();
    let trad = script == Script::Traditional;
    let name = chinese_piece(pc, script);
    let mut s = String::with_capacity(16);
    match tandem_of(pos, m.from()) {
        Tandem::Alone => {
            s.push(name);
            s.push(chinese_number(color, script, file_number(color, m.from())));
        }
        Tandem::OnFile {
            index,
            count,
            with_file,
        } => {
            let rear = if trad { '後' } else { '后' };
            let marker = match (count, index) {
                (2 | 3, 0) => '前',
                (3, 1) => '中',
                (2 | 3, _) => rear,
                // Four or five on a file (never with a second doubled file:
                // there are only five pawns).
                (_, i) => RED_NUMERALS[(i as usize).min(8)],
            };
            s.push(marker);
            s.push(name);
            if with_file {
                s.push(chinese_number(color, script, file_number(color, m.from())));
            }
        }
    }
    let (dir, n) = direction_and_number(pos, m);
    s.push(match (dir, trad) {
        (Direction::Forward, false) => '进',
        (Direction::Forward, true) => '進',
        (Direction::Back, _) => '退',
        (Direction::Sideways, _) => '平',
    });
    s.push(chinese_number(color, script, n));
    Ok(s)
}

fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

/// The move in WXF notation (`C2=5`, `H8+7`, `C+=5`, `3-=4`).
pub fn to_wxf(pos: &Position, m: Move) -> Result<String, NotationError> {
    check_legal(pos, m)?;
    let pc = pos.piece_on(m.from());
    let color = pc.color();
    let letter = wxf_letter(pc.kind());
    let file = (b'0' + file_number(color, m.from())) as char;
    let mut s = String::with_capacity(4);
    match tandem_of(pos, m.from()) {
        Tandem::Alone => {
            s.push(letter);
            s.push(file);
        }
        Tandem::OnFile {
            index,
            count,
            with_file: true,
        } => {
            // Pawns doubled on two files: the file replaces the letter.
            s.push(file);
            s.push(match (count, index) {
                (_, 0) => '+',
                (3, 1) => file,
                _ => '-',
            });
        }
        Tandem::OnFile { index, count, .. } => {
            let last = count - 1;
            let (a, b) = match (count, index) {
                (2 | 3, 0) => (letter, '+'),
                (3, 1) => (letter, file),
                (2 | 3, _) => (letter, '-'),
                (_, 0) => ('+', '+'),
                (_, 1) => (letter, '+'),
                (5, 2) => (letter, file),
                (_, i) if i == last => ('-', '-'),
                _ => (letter, '-'),
            };
            s.push(a);
            s.push(b);
        }
    }
    let (dir, n) = direction_and_number(pos, m);
    s.push(match dir {
        Direction::Forward => '+',
        Direction::Back => '-',
        Direction::Sideways => '=',
    });
    s.push((b'0' + n) as char);
    Ok(s)
}

// ---------------------------------------------------------------------------
// Reading

/// Which piece on a file the text names, as read from the text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Which {
    /// 前, or WXF `+` with two or three on the file.
    Front,
    /// 后/後.
    Rear,
    /// 中: the middle one of an odd number.
    Middle,
    /// 一…五 (1-based from the front).
    Nth(u8),
    /// WXF `+`: the front one of two or three, the second of four or five.
    WxfFront,
    /// WXF `-`: the rear one of two or three, the second last of four or five.
    WxfRear,
    /// WXF `++`/`--`: the foremost / rearmost of several.
    Foremost,
    Rearmost,
}

/// What the text says about the moving piece's starting point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Origin {
    /// A file number. In WXF a plain file on a file with an odd number (≥ 3)
    /// of pawns names the middle one.
    File { number: u8, wxf: bool },
    /// A place on a file, with the file when the text gives it. Without a
    /// file, `Nth` counts across all doubled files (xqbase.com numbering).
    Place { which: Which, file: Option<u8> },
}

/// A parsed move text before it meets the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Pattern {
    /// The side the text's numerals belong to (Chinese only: numerals are
    /// Red's, digits Black's).
    color: Option<Color>,
    kind: PieceKind,
    origin: Origin,
    dir: Direction,
    number: u8,
}

impl Pattern {
    fn fits(&self, pos: &Position, m: Move) -> bool {
        let from = m.from();
        let pc = pos.piece_on(from);
        if pc.is_none() || pc.kind() != self.kind || self.color.is_some_and(|c| c != pc.color()) {
            return false;
        }
        let color = pc.color();
        if (self.dir, self.number) != direction_and_number(pos, m) {
            return false;
        }
        let (index, count) = tandem_place(pos, from);
        match self.origin {
            Origin::File { number, wxf } => {
                file_number(color, from) == number
                    && !(wxf
                        && self.kind == PieceKind::Pawn
                        && count >= 3
                        && count % 2 == 1
                        && index != count / 2)
            }
            Origin::Place { which, file } => {
                if count < 2 || file.is_some_and(|n| n != file_number(color, from)) {
                    return false;
                }
                match which {
                    Which::Front => index == 0,
                    Which::Rear => index == count - 1,
                    Which::Middle => count % 2 == 1 && index == count / 2,
                    Which::Nth(k) => {
                        let k = k as u32 - 1;
                        if file.is_some() {
                            index == k
                        } else {
                            global_tandem_index(pos, from) == Some(k)
                        }
                    }
                    Which::WxfFront => index == if count <= 3 { 0 } else { 1 },
                    Which::WxfRear => index == if count <= 3 { count - 1 } else { count - 2 },
                    Which::Foremost => index == 0,
                    Which::Rearmost => index == count - 1,
                }
            }
        }
    }
}

/// Reads a move in any notation this module knows (ICCS, Chinese, WXF) and
/// returns the one legal move it names.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.is_empty() {
        return Err(NotationError::Empty);
    }
    if let Some(m) = parse_coordinates(&compact) {
        return if movegen::legal_moves(pos).contains(m) {
            Ok(m)
        } else {
            Err(NotationError::NoMatch { text: quote(text) })
        };
    }
    let patterns = if compact.is_ascii() {
        parse_wxf(&compact)?
    } else {
        vec![parse_chinese(&compact)?]
    };
    resolve(pos, text, &patterns)
}

/// ICCS `h2e2`, also upper case and `H2-E2`.
fn parse_coordinates(s: &str) -> Option<Move> {
    if !s.is_ascii() {
        return None;
    }
    let b = s.as_bytes();
    let core = match b.len() {
        4 => s.to_string(),
        5 if b[2] == b'-' => format!("{}{}", &s[0..2], &s[3..5]),
        _ => return None,
    };
    let lower = core.to_ascii_lowercase();
    let lb = lower.as_bytes();
    let is_file = |c: u8| (b'a'..=b'i').contains(&c);
    if !(is_file(lb[0]) && lb[1].is_ascii_digit() && is_file(lb[2]) && lb[3].is_ascii_digit()) {
        return None;
    }
    Move::parse(&lower).filter(|m| m.is_some())
}

fn resolve(pos: &Position, text: &str, patterns: &[Pattern]) -> Result<Move, NotationError> {
    let mut found: Vec<Move> = Vec::new();
    for &m in movegen::legal_moves(pos).iter() {
        if patterns.iter().any(|p| p.fits(pos, m)) && !found.contains(&m) {
            found.push(m);
        }
    }
    match found.len() {
        0 => Err(NotationError::NoMatch { text: quote(text) }),
        1 => Ok(found[0]),
        _ => Err(NotationError::Ambiguous {
            text: quote(text),
            moves: found,
        }),
    }
}

/// One meaningful character of Chinese move text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Token {
    Piece(PieceKind),
    Marker(Which),
    /// A number and whether it was written as a Chinese numeral.
    Number(u8, bool),
    Dir(Direction),
}

fn chinese_token(c: char) -> Option<Token> {
    use PieceKind::*;
    Some(match c {
        '车' | '車' | '俥' | '伡' => Token::Piece(Chariot),
        '马' | '馬' | '傌' | '㐷' => Token::Piece(Horse),
        '相' | '象' => Token::Piece(Elephant),
        '仕' | '士' => Token::Piece(Advisor),
        '帅' | '帥' | '将' | '將' => Token::Piece(King),
        '炮' | '砲' | '包' => Token::Piece(Cannon),
        '兵' | '卒' => Token::Piece(Pawn),
        '前' => Token::Marker(Which::Front),
        '后' | '後' => Token::Marker(Which::Rear),
        '中' => Token::Marker(Which::Middle),
        '进' | '進' => Token::Dir(Direction::Forward),
        '退' => Token::Dir(Direction::Back),
        '平' => Token::Dir(Direction::Sideways),
        '1'..='9' => Token::Number(c as u8 - b'0', false),
        '１'..='９' => Token::Number((c as u32 - '１' as u32 + 1) as u8, false),
        _ => Token::Number(RED_NUMERALS.iter().position(|&r| r == c)? as u8 + 1, true),
    })
}

fn parse_chinese(s: &str) -> Result<Pattern, NotationError> {
    let mut tokens = Vec::with_capacity(5);
    for c in s.chars() {
        match chinese_token(c) {
            Some(t) => tokens.push(t),
            None => return Err(malformed(s, &format!("unexpected character '{c}'"))),
        }
    }
    use Token::*;
    let n = tokens.len();
    if !(4..=5).contains(&n) {
        return Err(malformed(s, "a move has four or five characters"));
    }
    // Files and numbers say whose move it is: numerals for Red, digits for
    // Black. (一…五 before the piece are ordinals for both sides.)
    let mut numerals = Vec::with_capacity(2);
    let (dir, number) = match (tokens[n - 2], tokens[n - 1]) {
        (Dir(d), Number(k, chinese)) => {
            numerals.push(chinese);
            (d, k)
        }
        _ => {
            return Err(malformed(
                s,
                "expected a direction (进/退/平) and a number at the end",
            ));
        }
    };
    let ordinal = |k: u8| -> Result<Which, NotationError> {
        if (1..=5).contains(&k) {
            Ok(Which::Nth(k))
        } else {
            Err(malformed(s, "no file holds more than five like pieces"))
        }
    };
    let place = |which, file| Origin::Place { which, file };
    let mut file_numeral = |chinese: bool| numerals.push(chinese);
    let (kind, origin) = match tokens[..n - 2] {
        // 炮二平五
        [Piece(k), Number(f, c)] => {
            file_numeral(c);
            (
                k,
                Origin::File {
                    number: f,
                    wxf: false,
                },
            )
        }
        // 車前平三
        [Piece(k), Marker(w)] => (k, place(w, None)),
        // 前炮平五
        [Marker(w), Piece(k)] => (k, place(w, None)),
        // 二兵平五
        [Number(i, _), Piece(k)] => (k, place(ordinal(i)?, None)),
        // 前兵九平八
        [Marker(w), Piece(k), Number(f, c)] => {
            file_numeral(c);
            (k, place(w, Some(f)))
        }
        // 二兵九平八
        [Number(i, _), Piece(k), Number(f, c)] => {
            file_numeral(c);
            (k, place(ordinal(i)?, Some(f)))
        }
        // 前九平八: the piece name dropped, which only pawns need.
        [Marker(w), Number(f, c)] => {
            file_numeral(c);
            (PieceKind::Pawn, place(w, Some(f)))
        }
        _ => return Err(malformed(s, "cannot tell which piece moves")),
    };
    let color = if numerals.iter().all(|&c| c) {
        Color::Red
    } else if numerals.iter().all(|&c| !c) {
        Color::Black
    } else {
        return Err(malformed(
            s,
            "mixes Red's numerals (一…九) with Black's digits (1…9)",
        ));
    };
    Ok(Pattern {
        color: Some(color),
        kind,
        origin,
        dir,
        number,
    })
}

fn wxf_kind(c: char) -> Option<PieceKind> {
    use PieceKind::*;
    Some(match c.to_ascii_uppercase() {
        'K' | 'G' => King,
        'A' | 'M' => Advisor,
        'E' | 'B' => Elephant,
        'H' | 'N' => Horse,
        'R' => Chariot,
        'C' => Cannon,
        'P' | 'S' => Pawn,
        _ => return None,
    })
}

fn wxf_direction(c: char) -> Option<Direction> {
    match c {
        '+' => Some(Direction::Forward),
        '-' => Some(Direction::Back),
        '=' | '.' => Some(Direction::Sideways),
        _ => None,
    }
}

fn digit(c: char) -> Option<u8> {
    c.to_digit(10).filter(|&d| d >= 1).map(|d| d as u8)
}

/// WXF text as one or more readings (the numbered-pawn forms can be read
/// two ways; the board decides).
fn parse_wxf(s: &str) -> Result<Vec<Pattern>, NotationError> {
    let c: Vec<char> = s.chars().collect();
    let pattern = |kind, origin, dir, number| Pattern {
        color: None,
        kind,
        origin,
        dir,
        number,
    };
    // `C25`: a sideways move written without its sign.
    if c.len() == 3 {
        return match (wxf_kind(c[0]), digit(c[1]), digit(c[2])) {
            (Some(k), Some(f), Some(t)) => Ok(vec![pattern(
                k,
                Origin::File {
                    number: f,
                    wxf: true,
                },
                Direction::Sideways,
                t,
            )]),
            _ => Err(malformed(s, "not a WXF move")),
        };
    }
    if c.len() != 4 {
        return Err(malformed(s, "a WXF move has four characters, like C2=5"));
    }
    let dir = wxf_direction(c[2]).ok_or_else(|| {
        malformed(
            s,
            "the third character must be the direction (+, - or = / .)",
        )
    })?;
    let number = digit(c[3]).ok_or_else(|| malformed(s, "the last character must be 1-9"))?;
    let place = |which, file| Origin::Place { which, file };
    let pawn = PieceKind::Pawn;
    let readings: Vec<(PieceKind, Origin)> = match (c[0], c[1]) {
        // C2=5, and C+=5 / C-=5 / C==5
        (a, b) if wxf_kind(a).is_some() => {
            let k = wxf_kind(a).unwrap_or(pawn);
            let origin = match b {
                '+' => place(Which::WxfFront, None),
                '-' => place(Which::WxfRear, None),
                '=' | '.' => place(Which::Middle, None),
                _ => Origin::File {
                    number: digit(b).ok_or_else(|| malformed(s, "bad file number"))?,
                    wxf: true,
                },
            };
            vec![(k, origin)]
        }
        // ++=4 / --=4: the foremost / rearmost pawn.
        ('+', '+') => vec![(pawn, place(Which::Foremost, None))],
        ('-', '-') => vec![(pawn, place(Which::Rearmost, None))],
        // +C=5 / -C=5
        ('+', b) if wxf_kind(b).is_some() => {
            vec![(wxf_kind(b).unwrap_or(pawn), place(Which::Front, None))]
        }
        ('-', b) if wxf_kind(b).is_some() => {
            vec![(wxf_kind(b).unwrap_or(pawn), place(Which::Rear, None))]
        }
        // 3+=4 / 3-=4 / 33=4: pawns doubled on two files, file first;
        // 13=4: Fairy-Stockfish's index-then-file form.
        (a, b) if digit(a).is_some() => {
            let f = digit(a).unwrap_or(1);
            match b {
                '+' => vec![(pawn, place(Which::Front, Some(f)))],
                '-' => vec![(pawn, place(Which::Rear, Some(f)))],
                _ => {
                    let g = digit(b).ok_or_else(|| malformed(s, "bad file number"))?;
                    if f == g {
                        vec![(pawn, place(Which::Middle, Some(f)))]
                    } else if f <= 5 {
                        vec![(pawn, place(Which::Nth(f), Some(g)))]
                    } else {
                        return Err(malformed(s, "no file holds more than five pawns"));
                    }
                }
            }
        }
        _ => return Err(malformed(s, "cannot tell which piece moves")),
    };
    Ok(readings
        .into_iter()
        .map(|(k, o)| pattern(k, o, dir, number))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::parse(s).unwrap()
    }

    #[test]
    fn file_numbers_count_from_each_side_right() {
        let i0 = Square::new(8, 0);
        let a0 = Square::new(0, 0);
        assert_eq!(file_number(Color::Red, i0), 1);
        assert_eq!(file_number(Color::Red, a0), 9);
        assert_eq!(file_number(Color::Black, a0), 1);
        assert_eq!(file_number(Color::Black, i0), 9);
    }

    #[test]
    fn chinese_tokens_cover_both_scripts() {
        assert_eq!(chinese_token('８'), Some(Token::Number(8, false)));
        assert_eq!(chinese_token('8'), Some(Token::Number(8, false)));
        assert_eq!(chinese_token('九'), Some(Token::Number(9, true)));
        assert_eq!(chinese_token('後'), Some(Token::Marker(Which::Rear)));
        assert_eq!(chinese_token('砲'), Some(Token::Piece(PieceKind::Cannon)));
        assert_eq!(chinese_token('x'), None);
    }

    #[test]
    fn start_position_moves() {
        let p = Position::startpos();
        let c = |m| to_chinese(&p, mv(m), Script::Simplified).unwrap();
        assert_eq!(c("h2e2"), "炮二平五");
        assert_eq!(c("h0g2"), "马二进三");
        assert_eq!(c("c3c4"), "兵七进一");
        assert_eq!(c("g0e2"), "相三进五");
        assert_eq!(c("f0e1"), "仕四进五");
        assert_eq!(c("e0e1"), "帅五进一");
        assert_eq!(c("a0a2"), "车九进二");
        assert_eq!(to_wxf(&p, mv("h2e2")).unwrap(), "C2=5");
        assert_eq!(to_wxf(&p, mv("b0c2")).unwrap(), "H8+7");
        assert_eq!(
            to_chinese(&p, mv("h2h9"), Script::Traditional).unwrap(),
            "炮二進七"
        );
        assert_eq!(
            to_chinese(&p, mv("e2e3"), Script::Simplified),
            Err(NotationError::NotLegal(mv("e2e3")))
        );
    }

    #[test]
    fn parse_reports_problems_without_panicking() {
        let p = Position::startpos();
        for bad in [
            "",
            "  ",
            "炮",
            "炮二平",
            "炮二平五五五",
            "炮十平五",
            "X2=5",
            "C2x5",
            "C0=5",
            "前前平五",
            "車一平二",
            "马8进7",
            "炮二平5",
            "兵一进二",
            "𝄞𝄞𝄞𝄞",
            "+-=5",
            "6一=5",
            "h2h2",
            "z9z9z",
        ] {
            assert!(parse_move(&p, bad).is_err(), "{bad} accepted");
        }
    }
}
