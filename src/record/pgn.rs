//! Reading xiangqi PGN: tag pairs and movetext, moves in any notation that
//! `notation::parse_move` knows (ICCS coordinates, Chinese, WXF).
//!
//! The reader is lenient about layout (comments `{…}` and `;…`, variations
//! `(…)`, NAGs `$n`, move numbers glued to moves, `!`/`?` suffixes) and
//! strict about moves: replaying a game stops at the first move that is
//! malformed, illegal or ambiguous, and says which.

use crate::position::{FenError, Position};
use crate::replay::{self, Accept, BadMove};
use crate::types::Move;
use std::fmt;

/// One game as written: its tags and its movetext tokens (moves only).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// The termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`), if written.
    pub termination: Option<String>,
}

/// Why a game could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnError {
    Fen(FenError),
    Move {
        /// 1-based ply number.
        ply: usize,
        error: BadMove,
    },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            PgnError::Fen(e) => write!(f, "bad FEN tag: {e}"),
            PgnError::Move { ply, error } => write!(f, "ply {ply}: {error}"),
        }
    }
}

impl std::error::Error for PgnError {}

impl PgnGame {
    /// The value of a tag (first occurrence, name compared exactly).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game's result: the `Result` tag, else the termination marker.
    pub fn result(&self) -> Option<&str> {
        self.tag("Result").or(self.termination.as_deref())
    }

    /// The starting position: the `FEN` tag, or the standard start.
    pub fn start_position(&self) -> Result<Position, PgnError> {
        match self.tag("FEN").map(str::trim).filter(|f| !f.is_empty()) {
            Some(fen) => Position::from_fen(fen).map_err(PgnError::Fen),
            None => Ok(Position::startpos()),
        }
    }

    /// Replays the moves from the start position, returning the final
    /// position (with the game as its history) and the moves.
    pub fn replay(&self) -> Result<(Position, Vec<Move>), PgnError> {
        let mut pos = self.start_position()?;
        let texts = self.moves.iter().map(String::as_str);
        let moves =
            replay::replay(&mut pos, texts, Accept::AnyNotation).map_err(|e| PgnError::Move {
                ply: e.index,
                error: e.reason,
            })?;
        Ok((pos, moves))
    }
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Splits PGN text into games. Never fails: text that is not PGN yields
/// games without tags or moves, which replaying then rejects or ignores.
pub fn parse_games(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_movetext = false;
    for line in text.lines() {
        let line = line.trim_start_matches('\u{feff}').trim();
        if line.starts_with('[') {
            if in_movetext {
                games.push(std::mem::take(&mut game));
                in_movetext = false;
            }
            if let Some(tag) = parse_tag(line) {
                game.tags.push(tag);
            }
        } else if !line.is_empty() && !line.starts_with('%') {
            in_movetext = true;
            // Movetext may span lines; comments and variations that span
            // lines are rare in xiangqi PGN, so each line is scanned alone
            // with the nesting carried over.
            scan_movetext(line, &mut game);
            if game.termination.is_some() {
                games.push(std::mem::take(&mut game));
                in_movetext = false;
            }
        }
    }
    if in_movetext || !game.tags.is_empty() {
        games.push(game);
    }
    games
}

/// `[Name "value"]` with `\"` and `\\` escapes.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.trim_end().strip_suffix(']')?;
    let (name, rest) = inner.trim().split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let quoted = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                value.push(n);
            }
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

fn scan_movetext(line: &str, game: &mut PgnGame) {
    let mut depth = 0usize; // variation nesting
    let mut chars = line.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, game: &mut PgnGame, depth: usize| {
        if depth == 0 && !word.is_empty() {
            push_token(word, game);
        }
        word.clear();
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, game, depth);
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
            }
            ';' => {
                flush(&mut word, game, depth);
                break;
            }
            '(' => {
                flush(&mut word, game, depth);
                depth += 1;
            }
            ')' => {
                flush(&mut word, game, depth);
                depth = depth.saturating_sub(1);
            }
            c if c.is_whitespace() => flush(&mut word, game, depth),
            c => word.push(c),
        }
    }
    flush(&mut word, game, depth);
}

fn push_token(word: &str, game: &mut PgnGame) {
    if game.termination.is_some() {
        return;
    }
    if RESULTS.contains(&word) {
        game.termination = Some(word.to_string());
        return;
    }
    if word.starts_with('$') {
        return;
    }
    // Move numbers, alone ("12.", "12...") or glued to the move ("12.h2e2").
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
    let rest = if digits > 0 && dots > 0 {
        &word[digits + dots..]
    } else {
        word
    };
    let rest = rest.trim_end_matches(['!', '?']);
    if !rest.is_empty() {
        game.moves.push(rest.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "[Game \"Chinese Chess\"]\n[Event \"a \\\"quoted\\\" event\"]\n\
        [Result \"1-0\"]\n\n1. 炮二平五 馬８進７ {comment 1. h2e2}\n2.馬二進三 (2. 兵七進一) 車９平８ $1\n\
        3. i0i1!? 1-0\n\n[Game \"Chinese Chess\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n\n1. K6+1 *\n";

    #[test]
    fn games_tags_and_moves() {
        let games = parse_games(SAMPLE);
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("a \"quoted\" event"));
        assert_eq!(g.result(), Some("1-0"));
        assert_eq!(
            g.moves,
            ["炮二平五", "馬８進７", "馬二進三", "車９平８", "i0i1"]
        );
        let (_, moves) = g.replay().unwrap();
        let text: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(
            text,
            ["h2e2", "h9g7", "h0g2", "i9h9", "i0i1"].map(String::from)
        );
        let (pos, moves) = games[1].replay().unwrap();
        assert_eq!(moves.len(), 1);
        assert_eq!(pos.king_square(crate::types::Color::Red).to_string(), "d1");
    }

    #[test]
    fn replay_names_the_bad_ply() {
        let games = parse_games("1. 炮二平五 炮二平五 *");
        match games[0].replay() {
            Err(PgnError::Move { ply: 2, .. }) => {}
            other => panic!("unexpected {other:?}"),
        }
        let games = parse_games("[FEN \"junk\"]\n\n1. h2e2 *");
        assert!(matches!(games[0].replay(), Err(PgnError::Fen(_))));
        assert!(parse_games("").is_empty());
    }
}
