//! The two ways UCI hosts number xiangqi ranks, and the reading and
//! writing of coordinate moves in either: the protocol speaks to hosts in
//! their numbering, the match runner to engines in theirs.
//!
//! Pikafish, Cyclone and XBoard's UCI2WB number ranks 0-9 (as ICCS does);
//! cutechess, Sjaak II and Fairy-Stockfish number them 1-10, so that the
//! opening `h2e2` is `h3e3` there. FEN is the same in both. The session
//! reads every move the host sends in the host's numbering and writes every
//! move it prints in it; internally a move is always 0-9.
//!
//! With `Rank Numbering` set to `auto` the session starts at 0-9 and
//! switches when a `position` line can be read only the other way: a rank
//! `10`, or a move list that is legal only in the other numbering.

use crate::types::{Move, Square};

/// How the host numbers ranks, as the session currently believes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ranks {
    /// `a0`..`i9`, ICCS: Red's back rank is 0.
    #[default]
    FromZero,
    /// `a1`..`i10`: Red's back rank is 1.
    FromOne,
}

impl Ranks {
    pub fn other(self) -> Ranks {
        match self {
            Ranks::FromZero => Ranks::FromOne,
            Ranks::FromOne => Ranks::FromZero,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Ranks::FromZero => "0-9",
            Ranks::FromOne => "1-10",
        }
    }

    fn offset(self) -> u8 {
        match self {
            Ranks::FromZero => 0,
            Ranks::FromOne => 1,
        }
    }

    /// A point as the host writes it: `f9`, or `f10` with ranks 1-10.
    pub fn point(self, sq: Square) -> String {
        format!(
            "{}{}",
            (b'a' + sq.file()) as char,
            sq.rank() + self.offset()
        )
    }

    /// A move as the host writes it.
    pub fn write(self, m: Move) -> String {
        if !m.is_some() {
            return m.to_string();
        }
        format!("{}{}", self.point(m.from()), self.point(m.to()))
    }

    /// Moves as the host writes them, space-separated.
    pub fn write_list(self, moves: &[Move]) -> String {
        moves
            .iter()
            .map(|&m| self.write(m))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A word the host sent, as ICCS (ranks 0-9), when it is two points in
    /// this numbering. Any other word (the null move `0000`, a typo) comes
    /// back unchanged, for the move reader to accept or name.
    pub fn read(self, word: &str) -> Result<String, NotInNumbering> {
        let Some((a, b)) = points(word) else {
            return Ok(word.to_string());
        };
        let lo = self.offset();
        let hi = lo + 9;
        let mut out = String::with_capacity(4);
        for (file, rank) in [a, b] {
            if rank < lo || rank > hi {
                return Err(NotInNumbering);
            }
            out.push(file);
            out.push((b'0' + rank - lo) as char);
        }
        Ok(out)
    }

    /// Every word of `words` read in this numbering (see [`Ranks::read`]).
    pub fn read_all(self, words: &[String]) -> Result<Vec<String>, NotInNumbering> {
        words.iter().map(|w| self.read(w)).collect()
    }
}

/// A move word whose rank lies outside the numbering it was read in (a
/// `10` read as 0-9, a `0` read as 1-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotInNumbering;

/// The two points of a coordinate move word (`h2e2`, `h10h9`): each a file
/// letter and a rank from 0 to 10. `None` for anything else.
fn points(word: &str) -> Option<((char, u8), (char, u8))> {
    let b = word.as_bytes();
    let file = |i: usize| -> Option<(char, usize)> {
        let c = (*b.get(i)? as char).to_ascii_lowercase();
        ('a'..='i').contains(&c).then_some((c, i + 1))
    };
    let rank = |i: usize| -> Option<(u8, usize)> {
        let d = |j: usize| b.get(j).filter(|c| c.is_ascii_digit()).map(|c| c - b'0');
        match (d(i)?, d(i + 1)) {
            (1, Some(0)) => Some((10, i + 2)),
            (r, _) => Some((r, i + 1)),
        }
    };
    let (f1, i) = file(0)?;
    let (r1, i) = rank(i)?;
    let (f2, i) = file(i)?;
    let (r2, i) = rank(i)?;
    (i == b.len()).then_some(((f1, r1), (f2, r2)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::new(
            Square::parse(&s[..2]).unwrap(),
            Square::parse(&s[2..]).unwrap(),
        )
    }

    #[test]
    fn moves_are_written_in_the_hosts_numbering() {
        assert_eq!(Ranks::FromZero.write(mv("h2e2")), "h2e2");
        assert_eq!(Ranks::FromOne.write(mv("h2e2")), "h3e3");
        assert_eq!(Ranks::FromOne.write(mv("a9a8")), "a10a9");
        assert_eq!(
            Ranks::FromOne.write_list(&[mv("h2e2"), mv("h9g7")]),
            "h3e3 h10g8"
        );
        assert_eq!(Ranks::FromOne.write(Move::NONE), Move::NONE.to_string());
    }

    #[test]
    fn words_are_read_in_the_hosts_numbering() {
        assert_eq!(Ranks::FromOne.read("h3e3"), Ok("h2e2".to_string()));
        assert_eq!(Ranks::FromOne.read("a10A9"), Ok("a9a8".to_string()));
        assert_eq!(Ranks::FromZero.read("h2e2"), Ok("h2e2".to_string()));
        assert_eq!(Ranks::FromZero.read("a10a9"), Err(NotInNumbering));
        assert_eq!(Ranks::FromOne.read("a0a1"), Err(NotInNumbering));
        // Not a coordinate move: left for the move reader to judge.
        for w in ["0000", "h2e", "h2e2x", "j1j2", "h11h9", "炮二平五", ""] {
            assert_eq!(Ranks::FromOne.read(w), Ok(w.to_string()), "{w}");
        }
    }

    #[test]
    fn every_move_round_trips_in_both_numberings() {
        for from in Square::all() {
            for to in Square::all().filter(|&to| to != from) {
                let m = Move::new(from, to);
                for r in [Ranks::FromZero, Ranks::FromOne] {
                    assert_eq!(r.read(&r.write(m)), Ok(m.to_string()));
                }
            }
        }
    }
}
