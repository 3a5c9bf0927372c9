//! Building a book from games: tallies per position and move, and the rule
//! that decides which moves are kept (see `book/README.md`).

use super::{canonical_key, format::Record, format::encode};
use crate::position::Position;
use crate::record::games::GameResult;
use crate::types::*;
use std::collections::HashMap;

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
