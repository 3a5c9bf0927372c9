//! `openings build`: the default opening suite of `chuhe match`
//! (`book/openings.txt`), chosen from master games for engine testing:
//! varied, balanced, no near-duplicates; and, with `--wide`, a suite of
//! many more lines (`book/openings-wide.txt`) for matches at a fixed number
//! of nodes, where one opening always gives the same game.
//!
//! - Every game from the start position with a result and at least
//!   `plies + 2` moves gives its first `plies` plies as a candidate line.
//!   Lines that reach the same position (transpositions) or its left-right
//!   mirror image are one candidate, written in the move order and the
//!   orientation the masters used most.
//! - A candidate needs at least `min_games` games, and Red's score in them
//!   must lie in `RED_SCORE` (the masters' average is 55.9%): lopsided lines
//!   make game pairs that only measure the opening.
//! - Candidates are taken by frequency, at most `per_four` per position
//!   after four plies and `per_two` per position after two, until `count`
//!   lines are chosen.
//!
//! The output depends only on the games: ties are broken by the position's
//! text key and the move text.

use crate::position::{Position, START_FEN};
use crate::record::games::{Game, GameResult, read_games};
use crate::types::{Color, Move, Square};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;

const RED_SCORE: std::ops::RangeInclusive<f64> = 0.40..=0.72;

/// The rules that choose a suite's lines (see the module's comment).
#[derive(Clone, Copy, Debug)]
pub struct SuiteRules {
    pub plies: usize,
    pub count: usize,
    pub min_games: u32,
    pub per_four: u32,
    pub per_two: u32,
    /// What the file's first line calls the suite.
    pub title: &'static str,
}

impl SuiteRules {
    /// `book/openings.txt`, the built-in suite: 100 well-trodden lines, for
    /// matches at a time control (whose timing varies the games).
    pub const DEFAULT: SuiteRules = SuiteRules {
        plies: 8,
        count: 100,
        min_games: 15,
        per_four: 3,
        per_two: 14,
        title: "default opening suite",
    };

    /// `book/openings-wide.txt`: as many lines as the games allow (up to a
    /// line for every pair of a 2,000-game match) for matches at a fixed
    /// number of nodes, where a repeated opening replays its game. Two
    /// games suffice (with the balance filter: one win each, or two
    /// draws), and the caps only stop one opening system from filling it.
    pub const WIDE: SuiteRules = SuiteRules {
        plies: 10,
        count: 1000,
        min_games: 2,
        per_four: 100,
        per_two: 400,
        title: "wide opening suite (fixed-node matches)",
    };
}

/// The side to move and the 90 points, rank 0 first, as text: a position's
/// identity, ordered as the suite's tie-breaks need. `mirror` reads each
/// rank from the other end.
fn key(pos: &Position, mirror: bool) -> String {
    let mut k = String::with_capacity(91);
    k.push(if pos.side_to_move() == Color::Red {
        'w'
    } else {
        'b'
    });
    for rank in 0..10 {
        for file in 0..9 {
            let file = if mirror { 8 - file } else { file };
            let p = pos.piece_on(Square::new(file, rank));
            k.push(if p.is_none() { '.' } else { p.letter() });
        }
    }
    k
}

/// The position after `moves` from the start, as the smaller of its key and
/// its mirror image's, and whether that is the position as played.
fn canonical(moves: &[Move]) -> (String, bool) {
    let mut pos = Position::startpos();
    for &m in moves {
        pos.make_move(m);
    }
    let (k, mk) = (key(&pos, false), key(&pos, true));
    let as_played = k <= mk;
    (if as_played { k } else { mk }, as_played)
}

fn mirrored(moves: &[Move]) -> Vec<Move> {
    moves.iter().map(|m| m.mirror()).collect()
}

fn move_text(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

#[derive(Default)]
struct Candidate {
    games: u32,
    red_points: f64,
    /// Move sequences (in the canonical orientation) and their counts.
    sequences: BTreeMap<Vec<String>, u32>,
    /// Games played in the canonical orientation, and mirrored.
    as_played: u32,
    mirrored: u32,
}

/// The suite file's text, from the games.
pub fn build_suite(games: &[Game], rules: SuiteRules) -> String {
    let mut used = 0;
    let mut candidates: HashMap<String, Candidate> = HashMap::new();
    for game in games {
        let red_points = match game.result {
            Some(GameResult::Win(Color::Red)) => 1.0,
            Some(GameResult::Win(Color::Black)) => 0.0,
            Some(GameResult::Draw) => 0.5,
            _ => continue,
        };
        if game.moves.len() < rules.plies + 2 || game.start.to_fen() != START_FEN {
            continue;
        }
        used += 1;
        let line = &game.moves[..rules.plies];
        let (key, as_played) = canonical(line);
        let c = candidates.entry(key).or_default();
        c.games += 1;
        c.red_points += red_points;
        let seq = if as_played {
            line.to_vec()
        } else {
            mirrored(line)
        };
        *c.sequences.entry(move_text(&seq)).or_default() += 1;
        if as_played {
            c.as_played += 1;
        } else {
            c.mirrored += 1;
        }
    }

    let mut ranked: Vec<(&String, &Candidate)> = candidates.iter().collect();
    ranked.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(b.0)));
    let mut chosen = Vec::new();
    let mut per_four: HashMap<String, u32> = HashMap::new();
    let mut per_two: HashMap<String, u32> = HashMap::new();
    for (_, c) in ranked {
        if chosen.len() == rules.count {
            break;
        }
        let red = c.red_points / f64::from(c.games);
        if c.games < rules.min_games || !RED_SCORE.contains(&red) {
            continue;
        }
        // The most played order (the first in text order among equals),
        // in the orientation most games had.
        let (text, _) = c
            .sequences
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .expect("a candidate has a sequence");
        let mut seq: Vec<Move> = text.iter().filter_map(|t| Move::parse(t)).collect();
        if c.mirrored > c.as_played {
            seq = mirrored(&seq);
        }
        let four = canonical(&seq[..4]).0;
        let two = canonical(&seq[..2]).0;
        if per_four.get(&four).copied().unwrap_or(0) >= rules.per_four
            || per_two.get(&two).copied().unwrap_or(0) >= rules.per_two
        {
            continue;
        }
        *per_four.entry(four).or_default() += 1;
        *per_two.entry(two).or_default() += 1;
        chosen.push((seq, c.games, red));
    }

    let mut out = String::new();
    let _ = writeln!(
        out,
        "# chuhe match: {}, FEN|moves per line (ICCS moves).",
        rules.title
    );
    let _ = writeln!(
        out,
        "# {} lines of {} plies, the most played in {used} master games",
        chosen.len(),
        rules.plies
    );
    out.push_str(
        "# that pass the balance filter; made by `chuhe openings build` (the rules\n\
         # are in src/tools/openings.rs). Comments after each line: games, Red's score.\n\
         #\n\
         # Derived from the Chinese Chess Practical Dataset (CCPD), CC BY 4.0:\n\
         #   Yu-Han Tseng and Bo-Nian Chen (2026). Chinese Chess Practical Dataset (CCPD).\n\
         #   Retrieved from https://github.com/Yvonne761/Chinese-Chess-Practical-Dataset\n\
         #   https://creativecommons.org/licenses/by/4.0/\n\
         # Changes: master games converted to ICCS moves; only opening move sequences\n\
         # are kept here (first plies of many games, counted and filtered as above).\n",
    );
    for (seq, games, red) in chosen {
        let _ = writeln!(
            out,
            "{START_FEN}|{}  # {games} games, red {:.0}%",
            move_text(&seq).join(" "),
            red * 100.0
        );
    }
    out
}

/// `chuhe openings build`: reads the games and writes the suite.
pub fn build(games: &Path, out: &Path, rules: SuiteRules) -> Result<String, String> {
    let read = read_games(games, rules.plies + 2)?;
    let text = build_suite(&read, rules);
    std::fs::write(out, &text).map_err(|e| format!("{}: {e}", out.display()))?;
    let lines = text.lines().filter(|l| !l.starts_with('#')).count();
    Ok(format!(
        "{lines} openings from {} games written to {}",
        read.len(),
        out.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::games::parse_games;

    #[test]
    fn mirror_images_and_transpositions_are_one_candidate() {
        let a = ["h2e2", "h9g7", "h0g2", "i9h9"].map(|t| Move::parse(t).unwrap());
        let b = ["h0g2", "h9g7", "h2e2", "i9h9"].map(|t| Move::parse(t).unwrap());
        assert_eq!(canonical(&a).0, canonical(&b).0);
        assert_eq!(canonical(&a).0, canonical(&mirrored(&a)).0);
        assert_ne!(canonical(&a).1, canonical(&mirrored(&a)).1);
    }

    #[test]
    fn a_balanced_line_played_often_enough_is_chosen() {
        let line = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b2b6 h7h3 c3c4 a9b9";
        let mut tsv = String::new();
        let rules = SuiteRules::DEFAULT;
        for i in 0..rules.min_games {
            let result = if i % 2 == 0 { "1-0" } else { "0-1" };
            let _ = writeln!(tsv, "{result}\tC00\tr\tb\t\t{START_FEN}\t{line}");
        }
        let suite = build_suite(&parse_games(&tsv, usize::MAX), rules);
        let openings: Vec<&str> = suite.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(openings.len(), 1, "{suite}");
        assert!(openings[0].contains("|h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b2b6 h7h3  # 15 games"));
        // Too few games: nothing.
        let few: String = tsv.lines().take(3).map(|l| format!("{l}\n")).collect();
        let suite = build_suite(&parse_games(&few, usize::MAX), rules);
        assert!(suite.lines().all(|l| l.starts_with('#')));
    }
}
