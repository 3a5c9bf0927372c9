//! Opening suites: the positions matches start from.
//!
//! Two formats are read:
//!
//! - text, one opening per line: `FEN|moves`, where either part may be
//!   empty (an empty FEN is the start position; the moves are ICCS,
//!   space-separated). A line with no `|` is a FEN if it contains `/`,
//!   else a move list. `#` starts a comment; blank lines are skipped.
//! - games, PGN or CCPD TSV (plain or xz-compressed), read by the one game
//!   reader: every game's start position and its moves, in ICCS, Chinese
//!   or WXF; the game's opening name (`Opening` or `ECCO`) names it.
//!
//! Every move is checked; a bad line is an error naming the line (or game)
//! and the move. The default suite, `book/openings.txt`, is built into the
//! binary.

use crate::position::{Position, START_FEN};
use crate::record::games;
use crate::replay::{self, Accept, BadMove};
use crate::rng::SplitMix;
use crate::types::Move;
use std::path::Path;

/// The default suite (book/openings.txt), derived from master games.
pub const BUILTIN: &str = include_str!("../../book/openings.txt");

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position the game starts from (the engines are sent this FEN
    /// plus `moves` and then every game move).
    pub fen: String,
    pub moves: Vec<Move>,
    /// A short name for the PGN `Opening` tag.
    pub label: String,
}

impl Opening {
    pub fn startpos() -> Opening {
        Opening {
            fen: START_FEN.to_string(),
            moves: Vec::new(),
            label: "start position".into(),
        }
    }

    /// The position after the opening moves, with them as its history.
    pub fn position(&self) -> Result<Position, String> {
        let mut pos = Position::from_fen(&self.fen).map_err(|e| format!("bad FEN: {e}"))?;
        replay::walk(&mut pos, &self.moves, |_, _, _| {})
            .map_err(|i| format!("{} is not legal in {}", self.moves[i], pos.to_fen()))?;
        Ok(pos)
    }
}

/// Replays ICCS move text from `fen`, checking every move.
fn build(fen: &str, moves_text: &str) -> Result<Opening, String> {
    let mut pos = Position::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    // Normalise the FEN so the start position is recognised whatever the
    // spelling of its counters.
    let fen = pos.to_fen();
    let moves = replay::replay(&mut pos, moves_text.split_whitespace(), Accept::Iccs).map_err(
        |e| match e.reason {
            BadMove::Illegal { mv, .. } => format!("{mv} is not legal in {}", pos.to_fen()),
            _ => format!("'{}' is not an ICCS move", e.text),
        },
    )?;
    let opening = Opening {
        label: if moves.is_empty() {
            if fen == START_FEN {
                "start position".into()
            } else {
                fen.clone()
            }
        } else {
            moves_text.split_whitespace().collect::<Vec<_>>().join(" ")
        },
        fen,
        moves,
    };
    Ok(opening)
}

/// Reads `FEN|moves` lines.
pub fn parse_text(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (fen, moves) = match line.split_once('|') {
            Some((f, m)) => (f.trim(), m.trim()),
            None if line.contains('/') => (line, ""),
            None => ("", line),
        };
        let fen = if fen.is_empty() { START_FEN } else { fen };
        out.push(build(fen, moves).map_err(|e| format!("opening line {}: {e}", i + 1))?);
    }
    Ok(out)
}

/// Reads the games of a PGN or TSV text as openings, through the one
/// game reader ([`crate::record::games`]; moves in ICCS, Chinese or WXF);
/// the game's opening name (`Opening` or `ECCO` tag) names each.
pub fn parse_games(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, game) in games::parse_games(text, usize::MAX).into_iter().enumerate() {
        if let Some(problem) = game.problem {
            return Err(format!("game {}: {problem}", i + 1));
        }
        let iccs: Vec<String> = game.moves.iter().map(|m| m.to_string()).collect();
        let mut opening = build(&game.start.to_fen(), &iccs.join(" "))
            .map_err(|e| format!("game {}: {e}", i + 1))?;
        if let Some(name) = game.opening {
            opening.label = name;
        }
        out.push(opening);
    }
    Ok(out)
}

/// Reads an opening file: games (PGN if its name ends in `.pgn` or its
/// first non-blank character is `[`; CCPD TSV if its first line holds a
/// tab), else `FEN|moves` lines.
pub fn load(path: &Path) -> Result<Vec<Opening>, String> {
    let text = games::read_text(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let is_games = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        || text.trim_start().starts_with('[')
        || games::is_tsv(&text);
    let openings = if is_games {
        parse_games(&text)
    } else {
        parse_text(&text)
    }
    .map_err(|e| format!("{}: {e}", path.display()))?;
    if openings.is_empty() {
        return Err(format!("{}: no openings in the file", path.display()));
    }
    Ok(openings)
}

/// Order in which openings are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sequential,
    Random,
}

/// The opening index for each of `pairs` game pairs: the suite in order
/// (or shuffled once with `seed`), starting over when it runs out.
pub fn schedule(count: usize, pairs: usize, order: Order, seed: u64) -> Vec<usize> {
    if count == 0 {
        return Vec::new();
    }
    let mut indices: Vec<usize> = (0..count).collect();
    if order == Order::Random {
        let mut rng = SplitMix(seed);
        for i in (1..count).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            indices.swap(i, j);
        }
    }
    (0..pairs).map(|p| indices[p % count]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_suite_is_valid_and_varied() {
        let suite = parse_text(BUILTIN).unwrap();
        assert!(suite.len() >= 50, "{} openings", suite.len());
        let mut finals = std::collections::HashSet::new();
        let mut first_moves = std::collections::HashSet::new();
        for o in &suite {
            assert!((4..=10).contains(&o.moves.len()));
            finals.insert(o.position().unwrap().key());
            first_moves.insert(o.moves[0]);
        }
        assert_eq!(finals.len(), suite.len(), "two lines reach one position");
        assert!(first_moves.len() >= 5);
    }

    #[test]
    fn text_lines() {
        let text = "# comment\n\n|h2e2 h9g7  # central cannon\nh2e2\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1\n\
                    4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1|e0f0\n";
        let o = parse_text(text).unwrap();
        assert_eq!(o.len(), 4);
        assert_eq!(o[0].fen, START_FEN);
        assert_eq!(o[0].label, "h2e2 h9g7");
        assert_eq!(o[1].moves, vec![Move::parse("h2e2").unwrap()]);
        assert!(o[2].fen.contains(" b "));
        assert_eq!(o[3].moves.len(), 1);
        let err = parse_text("h2e2 h9g7\nh2e2 h2e3\n").unwrap_err();
        assert!(err.contains("line 2") && err.contains("h2e3"), "{err}");
        assert!(parse_text("|h2e2 zz").unwrap_err().contains("zz"));
        assert!(parse_text("rnbakabnr/9 w|").unwrap_err().contains("FEN"));
    }

    #[test]
    fn games_as_openings() {
        let pgn = "[Game \"Chinese Chess\"]\n[Opening \"Central cannon\"]\n\n\
                   1. h2e2 {炮二平五} h9g7 (1... h7e7) 2. 马二进三 $1 i9h9 1-0\n\n\
                   [FEN \"4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1\"]\n\n1.e0f0 *\n";
        let o = parse_games(pgn).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].label, "Central cannon");
        assert_eq!(
            o[0].moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            ["h2e2", "h9g7", "h0g2", "i9h9"]
        );
        assert_eq!(o[1].moves.len(), 1);
        assert!(o[1].fen.starts_with("4k4/"));
        let err = parse_games("[Event \"x\"]\n\n1. h2e2 h2e3 *\n").unwrap_err();
        assert!(err.contains("game 1") && err.contains("ply 2"), "{err}");
        let tsv = "1-0\tC70\tred\tblack\t2020\t\
                   rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\th2e2 h9g7\n";
        let o = parse_games(tsv).unwrap();
        assert_eq!(o[0].label, "C70");
        assert_eq!(o[0].moves.len(), 2);
    }

    #[test]
    fn schedules() {
        assert_eq!(schedule(3, 5, Order::Sequential, 0), vec![0, 1, 2, 0, 1]);
        let r = schedule(10, 10, Order::Random, 42);
        let mut sorted = r.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
        assert_ne!(r, (0..10).collect::<Vec<_>>());
        assert_eq!(r, schedule(10, 10, Order::Random, 42));
        assert!(schedule(0, 4, Order::Random, 1).is_empty());
    }
}
