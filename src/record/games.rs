//! The one game reader: game files (PGN with moves in any notation chuhe
//! reads, or tab-separated lines in the CCPD layout; either may be
//! xz-compressed) into [`Game`]s with one [`GameResult`]. `chuhe book`,
//! `chuhe tune` and `chuhe datagen` read their games here; the arena's
//! opening files, the mate-suite builder and `wdl-fit` read their text
//! through [`read_text`].
//!
//! Files are told apart by content: a file whose first non-blank line holds
//! a tab and does not open with `[` is TSV, `result, ecco, red, black,
//! date, startfen, moves` (the first field is the result, the last two the
//! start FEN and the space-separated moves); anything else is PGN.

use crate::position::Position;
use crate::record::pgn;
use crate::replay::{self, Accept::AnyNotation};
use crate::types::{Color, Move};
use std::io::{self, Read};
use std::path::Path;

/// A game's result: the one result type of chuhe's games, read from game
/// files and written by the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win(Color),
    Draw,
    /// Stopped before the end (the match was stopped).
    Unfinished,
}

impl GameResult {
    /// PGN result: `1-0` (Red won), `0-1`, `1/2-1/2`, `*`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::Win(Color::Red) => "1-0",
            GameResult::Win(Color::Black) => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// Reads a game file's result: `1-0`, `0-1`, `1/2-1/2` (also `½-½`);
    /// anything else (`*` among them) is no result.
    pub fn parse(s: &str) -> Option<GameResult> {
        match s.trim() {
            "1-0" => Some(GameResult::Win(Color::Red)),
            "0-1" => Some(GameResult::Win(Color::Black)),
            "1/2-1/2" | "½-½" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// Reads back [`GameResult::pgn`]'s text exactly (`*` too).
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        [
            GameResult::Win(Color::Red),
            GameResult::Win(Color::Black),
            GameResult::Draw,
            GameResult::Unfinished,
        ]
        .into_iter()
        .find(|r| r.pgn() == text)
    }

    /// Points for `side` (1, ½, 0); `None` if unfinished.
    pub fn points(self, side: Color) -> Option<f64> {
        match self {
            GameResult::Win(c) => Some(if c == side { 1.0 } else { 0.0 }),
            GameResult::Draw => Some(0.5),
            GameResult::Unfinished => None,
        }
    }
}

/// The magic bytes that open an xz stream.
const XZ_MAGIC: [u8; 6] = [0xfd, b'7', b'z', b'X', b'Z', 0];

/// Reads a UTF-8 text file, decompressing it first when it is an xz
/// stream (told by its magic bytes, not its name).
pub fn read_text(path: &Path) -> io::Result<String> {
    let mut raw = Vec::new();
    std::fs::File::open(path)?.read_to_end(&mut raw)?;
    if raw.starts_with(&XZ_MAGIC) {
        let mut out = Vec::with_capacity(raw.len() * 8);
        lzma_rs::xz_decompress(&mut io::BufReader::new(&raw[..]), &mut out).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: bad xz data: {e}", path.display()),
            )
        })?;
        raw = out;
    }
    String::from_utf8(raw).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: not UTF-8 text", path.display()),
        )
    })
}

/// A game read from a file: its start, the moves that could be read (all
/// of them, or up to the first bad one), and its result.
pub struct Game {
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: Option<GameResult>,
    /// The opening's name: the PGN `Opening` tag (or else `ECCO`), the
    /// TSV's ECCO field.
    pub opening: Option<String>,
    /// Why reading stopped early, if it did.
    pub problem: Option<String>,
}

/// Reads every game of a PGN or TSV file, replaying at most `max_ply`
/// moves of each.
pub fn read_games(path: &Path, max_ply: usize) -> Result<Vec<Game>, String> {
    let text = read_text(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(parse_games(&text, max_ply))
}

/// Whether game text is in the TSV layout (else PGN).
pub fn is_tsv(text: &str) -> bool {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    first.is_some_and(|l| !l.starts_with('[') && l.contains('\t'))
}

/// Reads every game of PGN or TSV text (see [`read_games`]). PGN text
/// with neither tags nor moves (stray text between games) is no game.
pub fn parse_games(text: &str, max_ply: usize) -> Vec<Game> {
    if is_tsv(text) {
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| tsv_game(line, max_ply))
            .collect()
    } else {
        pgn::parse_games(text)
            .iter()
            .filter(|g| !g.tags.is_empty() || !g.moves.is_empty())
            .map(|g| pgn_game(g, max_ply))
            .collect()
    }
}

fn replay<'a>(
    start: Position,
    texts: impl Iterator<Item = &'a str>,
    max_ply: usize,
    result: Option<GameResult>,
    opening: Option<String>,
) -> Game {
    let (moves, problem) =
        match replay::replay(&mut start.clone(), texts.take(max_ply), AnyNotation) {
            Ok(moves) => (moves, None),
            Err(e) => (e.played, Some(format!("ply {}: {}", e.index, e.reason))),
        };
    Game {
        start,
        moves,
        result,
        opening,
        problem,
    }
}

fn tsv_game(line: &str, max_ply: usize) -> Game {
    let fields: Vec<&str> = line.split('\t').collect();
    let bad = |why: String| Game {
        start: Position::startpos(),
        moves: Vec::new(),
        result: None,
        opening: None,
        problem: Some(why),
    };
    if fields.len() < 3 {
        return bad("fewer than three tab-separated fields".to_string());
    }
    let start = match Position::from_fen(fields[fields.len() - 2]) {
        Ok(p) => p,
        Err(e) => return bad(format!("bad start FEN: {e}")),
    };
    let result = GameResult::parse(fields[0]);
    // The ECCO field, when the line has the full layout.
    let opening = (fields.len() >= 4)
        .then(|| fields[1].trim())
        .filter(|e| !e.is_empty())
        .map(str::to_string);
    replay(
        start,
        fields[fields.len() - 1].split_whitespace(),
        max_ply,
        result,
        opening,
    )
}

fn pgn_game(game: &pgn::PgnGame, max_ply: usize) -> Game {
    let result = game.result().and_then(GameResult::parse);
    let opening = [game.tag("Opening"), game.tag("ECCO")]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|name| !name.is_empty())
        .map(str::to_string);
    match game.start_position() {
        Ok(start) => replay(
            start,
            game.moves.iter().map(String::as_str),
            max_ply,
            result,
            opening,
        ),
        Err(e) => Game {
            start: Position::startpos(),
            moves: Vec::new(),
            result,
            opening,
            problem: Some(e.to_string()),
        },
    }
}
