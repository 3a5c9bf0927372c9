//! One legal replay: move text read, checked legal and made, the one place
//! that does it for the protocol, the command line, the arena, the judge,
//! PGN reading, the book builder and the tuner.
//!
//! [`read_move`] reads one move; [`replay`] plays a list and names the
//! first bad move with its index (counted from 1) and the reason. What text
//! is read is the caller's choice ([`Accept`]): ICCS coordinates alone (the
//! engine protocols and the arena, whose engines speak them), with the null
//! move `0000` (UCCI's `position ... moves`), or any notation chuhe reads
//! (ICCS, WXF, Chinese; see `notation`), as game records are written.
//! ICCS is read in either case.

use crate::notation::{self, NotationError};
use crate::position::Position;
use crate::types::*;
use std::fmt;

/// Which move texts are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accept {
    /// ICCS coordinates (`h2e2`).
    Iccs,
    /// ICCS coordinates and the null move `0000` (not while in check).
    IccsAndNull,
    /// Any notation `notation::parse_move` reads (ICCS, WXF, Chinese).
    AnyNotation,
}

/// Why a coordinate move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// No piece of the side to move (this colour) on the from-square.
    NoPiece(Color),
    /// The piece cannot move there (its moving rules, a blocked path, an
    /// own piece on the target).
    CannotMove(PieceKind),
    /// It leaves the own king in check or facing the other king.
    ExposesKing,
}

/// Why a move text was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadMove {
    /// Not ICCS coordinates (with [`Accept::Iccs`] and
    /// [`Accept::IccsAndNull`]).
    NotAMove,
    /// The null move `0000` where it is not read (with [`Accept::Iccs`]),
    /// or while in check.
    Null { in_check: bool },
    /// Coordinates of a move that is not legal here.
    Illegal { mv: Move, why: Illegal },
    /// With [`Accept::AnyNotation`]: what the notation reader said.
    Notation(NotationError),
}

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BadMove::NotAMove => write!(f, "not a move in ICCS coordinates"),
            BadMove::Null { in_check: true } => write!(f, "a side in check cannot pass"),
            BadMove::Null { in_check: false } => {
                write!(f, "a null move, not a move in ICCS coordinates")
            }
            BadMove::Illegal { mv, why } => match why {
                Illegal::NoPiece(side) => write!(f, "no {} piece on {}", side.name(), mv.from()),
                Illegal::CannotMove(kind) => {
                    write!(
                        f,
                        "the {} on {} cannot move to {}",
                        kind.name(),
                        mv.from(),
                        mv.to()
                    )
                }
                Illegal::ExposesKing => {
                    write!(f, "it leaves the king in check or facing the other king")
                }
            },
            BadMove::Notation(e) => write!(f, "{e}"),
        }
    }
}

/// The first move of a list that could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// Counted from 1.
    pub index: usize,
    pub text: String,
    pub reason: BadMove,
    /// The moves played before it (`Move::NULL` for a null move).
    pub played: Vec<Move>,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "move {} '{}': {}", self.index, self.text, self.reason)
    }
}

impl std::error::Error for ReplayError {}

/// Whether `m` is a move (not `Move::NONE`) that is legal in `pos`.
pub fn is_legal_move(pos: &Position, m: Move) -> bool {
    pos.is_pseudo_legal(m) && pos.is_legal(m)
}

/// Walks already-parsed moves from `pos`: for each, `visit` sees the
/// position before it, its index and the move; then the move is checked
/// and made. Stops at the first illegal move, `pos` left before it, and
/// returns its index (from 0).
pub fn walk(
    pos: &mut Position,
    moves: &[Move],
    mut visit: impl FnMut(&Position, usize, Move),
) -> Result<(), usize> {
    for (i, &m) in moves.iter().enumerate() {
        visit(pos, i, m);
        if !is_legal_move(pos, m) {
            return Err(i);
        }
        pos.make_move(m);
    }
    Ok(())
}

/// Why the coordinate move `m` is not legal in `pos`, or `None` if it is.
pub fn why_illegal(pos: &Position, m: Move) -> Option<Illegal> {
    let pc = pos.piece_on(m.from());
    if pc.is_none() || pc.color() != pos.side_to_move() {
        return Some(Illegal::NoPiece(pos.side_to_move()));
    }
    if !pos.is_pseudo_legal(m) {
        return Some(Illegal::CannotMove(pc.kind()));
    }
    if !pos.is_legal(m) {
        return Some(Illegal::ExposesKing);
    }
    None
}

/// Reads one move of `pos` from `text`: a legal move, or `Move::NULL` for a
/// null move that [`Accept::IccsAndNull`] allows. Makes nothing.
pub fn read_move(pos: &Position, text: &str, accept: Accept) -> Result<Move, BadMove> {
    if accept == Accept::AnyNotation {
        return notation::parse_move(pos, text).map_err(BadMove::Notation);
    }
    let m = Move::parse(&text.to_ascii_lowercase()).ok_or(BadMove::NotAMove)?;
    if m == Move::NULL {
        let in_check = pos.in_check();
        return if accept == Accept::IccsAndNull && !in_check {
            Ok(m)
        } else {
            Err(BadMove::Null { in_check })
        };
    }
    match why_illegal(pos, m) {
        None => Ok(m),
        Some(why) => Err(BadMove::Illegal { mv: m, why }),
    }
}

/// Plays the moves `texts` on `pos`, each read by [`read_move`], and
/// returns them. On a bad move `pos` is left as it stood before that move
/// (the earlier ones made, with their history) and the error names it.
pub fn replay<'a>(
    pos: &mut Position,
    texts: impl IntoIterator<Item = &'a str>,
    accept: Accept,
) -> Result<Vec<Move>, ReplayError> {
    let mut played = Vec::new();
    for (i, text) in texts.into_iter().enumerate() {
        match read_move(pos, text, accept) {
            Ok(m) => {
                if m == Move::NULL {
                    pos.make_null_move();
                } else {
                    pos.make_move(m);
                }
                played.push(m);
            }
            Err(reason) => {
                return Err(ReplayError {
                    index: i + 1,
                    text: text.to_string(),
                    reason,
                    played,
                });
            }
        }
    }
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_visits_each_position_and_stops_before_an_illegal_move() {
        let moves: Vec<Move> = ["h2e2", "h9g7", "h2e2", "a0a1"]
            .iter()
            .map(|m| Move::parse(m).unwrap())
            .collect();
        let mut pos = Position::startpos();
        let mut seen = Vec::new();
        let r = walk(&mut pos, &moves, |p, i, m| {
            seen.push((i, m, p.ply_from_root()));
        });
        // The third move (h2e2 again: the cannon has left h2) is illegal.
        assert_eq!(r, Err(2));
        assert_eq!(seen.len(), 3);
        assert_eq!(seen[2], (2, moves[2], 2));
        assert_eq!(pos.ply_from_root(), 2);
        let mut pos = Position::startpos();
        assert_eq!(walk(&mut pos, &moves[..2], |_, _, _| {}), Ok(()));
        assert_eq!(pos.ply_from_root(), 2);
    }

    #[test]
    fn each_reason_is_told() {
        let pos = Position::startpos();
        let read = |t| read_move(&pos, t, Accept::Iccs);
        assert_eq!(read("h2e2"), Ok(Move::parse("h2e2").unwrap()));
        assert_eq!(read("H2E2"), read("h2e2"));
        assert_eq!(read("zz"), Err(BadMove::NotAMove));
        assert_eq!(read("0000"), Err(BadMove::Null { in_check: false }));
        assert!(read("0000").unwrap_err().to_string().contains("ICCS"));
        let why = |t| match read(t) {
            Err(BadMove::Illegal { why, .. }) => why,
            other => panic!("{t}: {other:?}"),
        };
        assert_eq!(why("e4e5"), Illegal::NoPiece(Color::Red));
        assert_eq!(why("h9g7"), Illegal::NoPiece(Color::Red));
        assert_eq!(why("a0a5"), Illegal::CannotMove(PieceKind::Chariot));
        assert!(
            read("e4e5")
                .unwrap_err()
                .to_string()
                .contains("no red piece")
        );
        assert!(
            read("a0a5")
                .unwrap_err()
                .to_string()
                .contains("cannot move")
        );
        // Kings face each other once the e-file opens: moving the last
        // piece between them is illegal.
        let p = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1").unwrap();
        let e = read_move(&p, "e1d2", Accept::Iccs).unwrap_err();
        assert!(e.to_string().contains("king"));
        assert_eq!(read_move(&pos, "0000", Accept::IccsAndNull), Ok(Move::NULL));
        assert_eq!(
            read_move(&pos, "炮二平五", Accept::AnyNotation),
            read("h2e2")
        );
        assert!(matches!(
            read_move(&pos, "a0a5", Accept::AnyNotation),
            Err(BadMove::Notation(NotationError::NoMatch { .. }))
        ));
    }

    #[test]
    fn replay_names_the_first_bad_move() {
        let mut pos = Position::startpos();
        let e = replay(&mut pos, "h2e2 h9g7 e2e9 a0a1".split(' '), Accept::Iccs).unwrap_err();
        assert_eq!((e.index, e.text.as_str(), e.played.len()), (3, "e2e9", 2));
        assert_eq!(pos.ply_from_root(), 2);
        let mut pos = Position::startpos();
        let moves = replay(&mut pos, ["h2e2", "0000", "h0g2"], Accept::IccsAndNull).unwrap();
        assert_eq!(moves[1], Move::NULL);
        assert_eq!(pos.ply_from_root(), 3);
    }
}
