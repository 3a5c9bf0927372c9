//! `judge`: replays a game (a FEN and ICCS moves) and reports the rules'
//! verdict as one line, so that GUIs, scripts and tests can ask the engine's
//! own referee:
//!
//! `result <ongoing|red-wins|black-wins|draw> reason <word|none> ply <n>`
//!
//! `ply` is the number of moves played when the game ended (or all of them
//! if it has not). Moves after the end are still checked for legality but
//! do not change the verdict.

use crate::position::{FenError, Position};
use crate::replay::{self, Accept, BadMove};
use crate::rules::{self, MoveClass, Outcome, RuleSettings};
use crate::types::Move;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub outcome: Outcome,
    /// Moves played when the outcome was reached.
    pub ply: usize,
    /// Moves given after the game had ended.
    pub moves_after_end: usize,
}

impl Verdict {
    /// The one-line report.
    pub fn line(&self) -> String {
        let reason = self.outcome.reason().map_or("none", |r| r.word());
        format!(
            "result {} reason {reason} ply {}",
            self.outcome.word(),
            self.ply
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeError {
    BadFen(FenError),
    /// `index` counts from 1.
    BadMove {
        index: usize,
        text: String,
        why: &'static str,
    },
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            JudgeError::BadFen(e) => write!(f, "invalid FEN: {e}"),
            JudgeError::BadMove { index, text, why } => {
                write!(f, "move {index} '{text}' is {why}")
            }
        }
    }
}

impl std::error::Error for JudgeError {}

/// Plays `moves` (ICCS, separated by white space) from `fen` (the start
/// position if `None`) and judges the game after every move.
pub fn judge_game(
    fen: Option<&str>,
    moves: &str,
    settings: &RuleSettings,
) -> Result<Verdict, JudgeError> {
    judge_game_traced(fen, moves, settings, None)
}

/// Like `judge_game`, calling `trace(ply, move, class)` after each move
/// with the move's repetition class (check, chase or idle).
pub fn judge_game_traced(
    fen: Option<&str>,
    moves: &str,
    settings: &RuleSettings,
    trace: Option<&mut dyn FnMut(usize, Move, MoveClass)>,
) -> Result<Verdict, JudgeError> {
    let start = match fen {
        None => Position::startpos(),
        Some(f) => Position::from_fen(f).map_err(JudgeError::BadFen)?,
    };
    let moves = replay::replay(
        &mut start.clone(),
        moves.split_ascii_whitespace(),
        Accept::Iccs,
    )
    .map_err(|e| JudgeError::BadMove {
        index: e.index,
        text: e.text.chars().take(16).collect(),
        why: match e.reason {
            BadMove::Null { .. } => "a null move, not allowed in a game",
            BadMove::Illegal { .. } => "illegal in this position",
            _ => "not a move (expected ICCS such as h2e2)",
        },
    })?;
    Ok(judge_moves(&start, &moves, settings, trace).0)
}

/// Judges a game whose moves are known to be legal (as the game reader
/// gives them) after every move, calling `trace` as `judge_game_traced`
/// does; returns the verdict and the final position.
pub fn judge_moves(
    start: &Position,
    moves: &[Move],
    settings: &RuleSettings,
    mut trace: Option<&mut dyn FnMut(usize, Move, MoveClass)>,
) -> (Verdict, Position) {
    let mut pos = start.clone();
    let mut verdict = Verdict {
        outcome: rules::judge(&mut pos, settings),
        ply: 0,
        moves_after_end: 0,
    };
    for (i, &m) in moves.iter().enumerate() {
        pos.make_move(m);
        if let Some(t) = trace.as_mut() {
            t(i + 1, m, rules::classify_last_move(&mut pos));
        }
        if verdict.outcome.is_over() {
            verdict.moves_after_end += 1;
        } else {
            verdict.outcome = rules::judge(&mut pos, settings);
            verdict.ply = i + 1;
        }
    }
    (verdict, pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Reason;

    #[test]
    fn start_position_is_ongoing() {
        let v = judge_game(None, "h2e2 h9g7", &RuleSettings::default()).unwrap();
        assert_eq!(v.outcome, Outcome::Ongoing);
        assert_eq!(v.line(), "result ongoing reason none ply 2");
    }

    #[test]
    fn bad_moves_are_named_with_their_index() {
        let s = RuleSettings::default();
        let e = judge_game(None, "h2e2 h9g7 e2e9", &s).unwrap_err();
        assert_eq!(
            e,
            JudgeError::BadMove {
                index: 3,
                text: "e2e9".into(),
                why: "illegal in this position"
            }
        );
        assert!(e.to_string().contains("move 3 'e2e9'"));
        let e = judge_game(None, "h2e2 0000", &s).unwrap_err();
        assert!(matches!(e, JudgeError::BadMove { index: 2, .. }));
        let e = judge_game(None, "h2x2", &s).unwrap_err();
        assert!(matches!(e, JudgeError::BadMove { index: 1, .. }));
        let e = judge_game(Some("9/9 w"), "", &s).unwrap_err();
        assert!(matches!(e, JudgeError::BadFen(_)));
    }

    #[test]
    fn the_first_end_is_kept() {
        // Chariots and kings only would be ongoing; here a lone pair of kings
        // with advisors is dead material from the start.
        let fen = "3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1";
        let v = judge_game(Some(fen), "e1f2 e9f9", &RuleSettings::default()).unwrap();
        assert_eq!(
            v.outcome,
            Outcome::Draw {
                reason: Reason::DeadMaterial
            }
        );
        assert_eq!((v.ply, v.moves_after_end), (0, 2));
    }
}
