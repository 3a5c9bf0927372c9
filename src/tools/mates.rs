//! `mates`: a mate-and-stalemate suite made from the ends of real games,
//! and a runner that measures how much of it the search solves.
//!
//! `build` reads every game of a game file (CCPD TSV or PGN, plain or
//! `.xz`, through the one game reader), judges it with the rules module's
//! referee (`tools::judge`, `rules::judge`), keeps the games that end with
//! the side to move having no legal move (checkmate or stalemate, both
//! lost in xiangqi), and takes the positions 1, 3, 5, ... plies before the
//! end, the winner to move. A brute-force solver, independent
//! of the search, decides for each the shortest forced win by "no legal
//! move left" within `max_moves` moves and every first move that forces
//! it; positions without one (the loser erred late) are left out.
//!
//! The suite file has one position per line, tab-separated:
//!
//! `fen <TAB> moves-to-win <TAB> winning first moves (ICCS, space-separated) <TAB> source`
//!
//! where `source` names the game line and how it ended. Lines starting
//! with `#` are comments. A `*` for the winning moves marks a mate too long
//! for the brute-force solver (one an opponent announced in a game, say):
//! any first move counts, once the search proves a win within
//! `moves-to-win`.
//!
//! `run` searches each position with a fixed time or node count (and `go
//! mate n`, which stops early once a win in n is proved) and counts it
//! solved when the best move is one of the winning first moves (or, for
//! `*`, when the score is a proved win in time).

use crate::engine::{SearchSetup, Searcher};
use crate::movegen::{self, MoveList};
use crate::position::Position;
use crate::record::games::{Game, read_games};
use crate::rules::{self, Outcome, Reason, RuleSettings};
use crate::time::Limits;
use crate::tools::judge;
use crate::types::*;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Where the suite lives in the repository.
pub const DEFAULT_SUITE: &str = "tests/data/mate-suite.tsv";

/// Positions closer to the game's natural move limit than this many plies
/// are left out: the suite's FENs carry no history, and the limit could
/// turn a win into a draw.
const MOVE_LIMIT_MARGIN: u32 = 20;

/// One suite position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    pub fen: String,
    /// The shortest forced win, in moves of the side to move.
    pub moves_to_win: u32,
    /// Every first move that forces the win within `moves_to_win`; empty
    /// (`*` in the file) when they are not known and a proved win by any
    /// move counts.
    pub winning: Vec<Move>,
    /// Where the position comes from.
    pub source: String,
}

impl SuiteEntry {
    pub fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}",
            self.fen,
            self.moves_to_win,
            self.winning_text(),
            self.source
        )
    }

    /// The winning moves as the file writes them.
    pub fn winning_text(&self) -> String {
        if self.winning.is_empty() {
            return "*".to_string();
        }
        let moves: Vec<String> = self.winning.iter().map(|m| m.to_string()).collect();
        moves.join(" ")
    }

    /// Whether a search's answer solves the position.
    pub fn solved_by(&self, best: Option<Move>, score: Score) -> bool {
        if self.winning.is_empty() {
            // A win in n moves is a mate score n * 2 - 1 plies from the root.
            best.is_some() && score >= MATE - (2 * self.moves_to_win as Score - 1)
        } else {
            best.is_some_and(|m| self.winning.contains(&m))
        }
    }

    /// Reads a suite line; `None` for comments and blank lines.
    pub fn parse(line: &str) -> Option<Result<SuiteEntry, String>> {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 3 {
            return Some(Err(format!("expected 4 tab-separated fields: {line}")));
        }
        let parse = || -> Result<SuiteEntry, String> {
            Position::from_fen(f[0]).map_err(|e| format!("bad FEN {}: {e}", f[0]))?;
            let moves_to_win = f[1]
                .parse()
                .map_err(|_| format!("bad move count {}", f[1]))?;
            let winning = if f[2].trim() == "*" {
                Vec::new()
            } else {
                let moves = f[2]
                    .split_whitespace()
                    .map(|t| Move::parse(t).ok_or_else(|| format!("bad move {t}")))
                    .collect::<Result<Vec<Move>, String>>()?;
                if moves.is_empty() {
                    return Err(format!("no winning moves (give `*` for any): {line}"));
                }
                moves
            };
            Ok(SuiteEntry {
                fen: f[0].to_string(),
                moves_to_win,
                winning,
                source: f.get(3).unwrap_or(&"").to_string(),
            })
        };
        Some(parse())
    }
}

/// Reads a whole suite file.
pub fn read_suite(path: &Path) -> Result<Vec<SuiteEntry>, String> {
    let text =
        crate::record::games::read_text(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines().filter_map(SuiteEntry::parse).collect()
}

// ---------------------------------------------------------------------------
// The brute-force solver

/// Whether the side to move can leave the opponent without a legal move
/// within `n` of its own moves, whatever the opponent replies. Plain
/// minimax over legal moves, checking moves first: no evaluation, no
/// pruning, nothing shared with the search it is used to test.
pub fn forced_win(pos: &mut Position, n: u32) -> bool {
    n > 0 && ordered_moves(pos).iter().any(|&m| wins_with(pos, m, n))
}

/// Whether `m` forces the win within `n` moves (this one included).
pub fn wins_with(pos: &mut Position, m: Move, n: u32) -> bool {
    pos.make_move(m);
    let replies = movegen::legal_moves(pos);
    let win = replies.is_empty()
        || (n > 1
            && replies.iter().all(|&r| {
                pos.make_move(r);
                let w = forced_win(pos, n - 1);
                pos.unmake_move();
                w
            }));
    pos.unmake_move();
    win
}

/// Legal moves, checks first (wins are found sooner).
fn ordered_moves(pos: &Position) -> MoveList {
    let all = movegen::legal_moves(pos);
    let mut out = MoveList::new();
    for &m in &all {
        if pos.gives_check(m) {
            out.push(m);
        }
    }
    for &m in &all {
        if !pos.gives_check(m) {
            out.push(m);
        }
    }
    out
}

/// The shortest forced win within `max_moves` and every first move that
/// forces it, or `None`.
pub fn solve(pos: &mut Position, max_moves: u32) -> Option<(u32, Vec<Move>)> {
    for n in 1..=max_moves {
        let winning: Vec<Move> = ordered_moves(pos)
            .iter()
            .copied()
            .filter(|&m| wins_with(pos, m, n))
            .collect();
        if !winning.is_empty() {
            let mut sorted = winning;
            sorted.sort_by_key(|m| m.to_string());
            return Some((n, sorted));
        }
    }
    None
}

// ---------------------------------------------------------------------------
// Building

/// What `build` found.
#[derive(Default, Debug)]
pub struct BuildStats {
    pub games: usize,
    pub unreadable: usize,
    pub no_move_endings: usize,
    /// Of those, games the rules had ended before (the move limit or a
    /// repetition verdict) and the players played on.
    pub ended_earlier: usize,
    pub checkmates: usize,
    pub stalemates: usize,
    pub candidates: usize,
    pub kept: usize,
    pub by_moves: [usize; 8],
}

/// Builds the suite from `games` (as the game reader gives them; the
/// source names a game by its number in the file, from 1).
pub fn build_from_games(
    games: &[Game],
    max_moves: u32,
    mut progress: impl FnMut(usize),
) -> (Vec<SuiteEntry>, BuildStats) {
    let settings = RuleSettings::default();
    let mut stats = BuildStats::default();
    let mut suite = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let max_plies = 2 * max_moves as usize - 1;
    for (number, game) in games.iter().enumerate() {
        stats.games += 1;
        if game.problem.is_some() {
            stats.unreadable += 1;
            continue;
        }
        let moves = &game.moves;
        // The referee judges the game after every move, and its final
        // position.
        let (verdict, mut end) = judge::judge_moves(&game.start, moves, &settings, None);
        let reason = match rules::judge(&mut end, &settings) {
            Outcome::Win { reason, .. }
                if matches!(reason, Reason::Checkmate | Reason::Stalemate) =>
            {
                reason
            }
            _ => continue,
        };
        stats.no_move_endings += 1;
        if verdict.ply < moves.len() {
            // Played on after the rules had ended the game (the move limit,
            // a repetition): the positions still make puzzles, away from
            // the limit (below).
            stats.ended_earlier += 1;
        }
        match reason {
            Reason::Checkmate => stats.checkmates += 1,
            _ => stats.stalemates += 1,
        }
        progress(stats.no_move_endings);
        // The positions 1, 3, 5, ... plies before the end, winner to move,
        // nearest the end first.
        let mut before_end = Vec::new();
        let mut pos = game.start.clone();
        for (i, &m) in moves.iter().enumerate() {
            let plies = moves.len() - i;
            if plies <= max_plies && plies % 2 == 1 {
                before_end.push((plies, pos.clone()));
            }
            pos.make_move(m);
        }
        for (plies, mut pos) in before_end.into_iter().rev() {
            let n = plies.div_ceil(2) as u32;
            stats.candidates += 1;
            if pos.rule60() + 2 * max_moves + MOVE_LIMIT_MARGIN > 2 * settings.move_limit {
                continue;
            }
            let fen = pos.to_fen();
            if !seen.insert(fen.clone()) {
                continue;
            }
            let Some((moves_to_win, winning)) = solve(&mut pos, n) else {
                continue;
            };
            stats.kept += 1;
            stats.by_moves[(moves_to_win as usize).min(7)] += 1;
            suite.push(SuiteEntry {
                fen,
                moves_to_win,
                winning,
                source: format!(
                    "game {} {} {plies} {} before the end",
                    number + 1,
                    reason.word(),
                    if plies == 1 { "ply" } else { "plies" }
                ),
            });
        }
    }
    (suite, stats)
}

/// `chuhe mates build`.
pub fn build(
    games: &Path,
    out_path: &Path,
    max_moves: u32,
    out: &mut impl Write,
) -> Result<(), String> {
    let t = Instant::now();
    let read = read_games(games, usize::MAX)?;
    let (suite, s) = build_from_games(&read, max_moves, |_| {});
    let mut file = String::new();
    file.push_str(&format!(
        "# Mate and stalemate suite: positions 1 to {} plies before the end of the\n\
         # master games that end with no legal move, winner to move, from\n\
         # {} (CCPD, CC BY 4.0). Built by `chuhe mates build`; see\n\
         # src/tools/mates.rs for the format. {} games, {} end with no legal move\n\
         # ({} checkmates, {} stalemates); {} of {} candidate positions have a\n\
         # forced win within {} moves.\n",
        2 * max_moves - 1,
        games
            .file_name()
            .map_or("?".into(), |n| n.to_string_lossy()),
        s.games,
        s.no_move_endings,
        s.checkmates,
        s.stalemates,
        s.kept,
        s.candidates,
        max_moves,
    ));
    for e in &suite {
        file.push_str(&e.line());
        file.push('\n');
    }
    std::fs::write(out_path, file).map_err(|e| format!("{}: {e}", out_path.display()))?;
    let by: Vec<String> = (1..=max_moves as usize)
        .map(|n| format!("win in {n}: {}", s.by_moves[n]))
        .collect();
    writeln!(
        out,
        "{} games ({} unreadable), {} end with no legal move ({} checkmate, {} stalemate; \
         {} played on after the rules had ended the game)\n\
         {} positions kept of {} candidates ({}), written to {} in {:.1} s",
        s.games,
        s.unreadable,
        s.no_move_endings,
        s.checkmates,
        s.stalemates,
        s.ended_earlier,
        s.kept,
        s.candidates,
        by.join(", "),
        out_path.display(),
        t.elapsed().as_secs_f64()
    )
    .map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------
// Running

/// How `run` searches each position.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub movetime_ms: u64,
    /// A node count per position instead of the time: the same answers on
    /// every machine (one thread).
    pub nodes: Option<u64>,
    /// Threads, table and evaluation: the engine's own by default.
    pub setup: SearchSetup,
    /// Only the first `limit` positions (all if `None`).
    pub limit: Option<usize>,
}

/// One position's result.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub best: Option<Move>,
    pub score: Score,
    pub solved: bool,
    pub ms: u64,
    pub nodes: u64,
}

/// Searches one suite position as a new game.
pub fn attempt(searcher: &mut Searcher, e: &SuiteEntry, opts: &RunOptions) -> Attempt {
    let pos = Position::from_fen(&e.fen).expect("suite FENs are checked when read");
    searcher.new_game();
    let limits = Limits {
        movetime: opts.nodes.is_none().then_some(opts.movetime_ms),
        nodes: opts.nodes,
        mate: Some(e.moves_to_win),
        ..Limits::default()
    };
    let t = Instant::now();
    let answer = searcher.search(pos, limits);
    let ms = t.elapsed().as_millis() as u64;
    Attempt {
        best: answer.best,
        score: answer.score,
        solved: e.solved_by(answer.best, answer.score),
        ms,
        nodes: answer.nodes,
    }
}

/// `chuhe mates run`: prints each unsolved position and the solve rate.
pub fn run(suite_path: &Path, opts: &RunOptions, out: &mut impl Write) -> Result<(), String> {
    let suite = read_suite(suite_path)?;
    let n = opts.limit.unwrap_or(suite.len()).min(suite.len());
    let io = |e: std::io::Error| e.to_string();
    let (mut searcher, note) = Searcher::new(&opts.setup)?;
    if let Some(note) = note {
        writeln!(out, "{note}").map_err(io)?;
    }
    let t = Instant::now();
    let mut solved = 0;
    let mut nodes = 0u64;
    let mut by_moves = [(0usize, 0usize); 8];
    for (i, e) in suite[..n].iter().enumerate() {
        let a = attempt(&mut searcher, e, opts);
        nodes += a.nodes;
        let k = (e.moves_to_win as usize).min(7);
        by_moves[k].1 += 1;
        if a.solved {
            solved += 1;
            by_moves[k].0 += 1;
        } else {
            let best = a.best.map_or("(none)".to_string(), |m| m.to_string());
            writeln!(
                out,
                "unsolved {}/{n}: {}  win in {}: {}  played {best} score {} ({})",
                i + 1,
                e.fen,
                e.moves_to_win,
                e.winning_text(),
                a.score,
                e.source
            )
            .map_err(io)?;
        }
    }
    let by: Vec<String> = by_moves
        .iter()
        .enumerate()
        .filter(|(_, c)| c.1 > 0)
        .map(|(k, c)| {
            let more = if k == 7 { "+" } else { "" };
            format!("win in {k}{more}: {}/{}", c.0, c.1)
        })
        .collect();
    let limit = match opts.nodes {
        Some(n) => format!("{n} nodes"),
        None => format!("{} ms", opts.movetime_ms),
    };
    writeln!(
        out,
        "solved {solved} of {n} ({:.1}%) at {limit} per position, {} thread(s), {} MB, {}; {}; \
         {nodes} nodes; {:.0} s",
        100.0 * solved as f64 / n.max(1) as f64,
        opts.setup.threads,
        opts.setup.hash_mb,
        searcher.evaluation_name(),
        by.join(", "),
        t.elapsed().as_secs_f64()
    )
    .map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::games::parse_games;

    #[test]
    fn solver_finds_mates_and_stalemates() {
        // Stalemate in 1 (issue 13's example).
        let mut pos = Position::from_fen("9/2P6/3k5/9/3n5/3c5/9/3C5/9/2B1K1B2 w").unwrap();
        let (n, moves) = solve(&mut pos, 2).unwrap();
        assert_eq!((n, moves), (1, vec![Move::parse("d2d3").unwrap()]));
        // Two chariots: mate in 1 by either back-rank move.
        let mut pos = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/1R1K5 w").unwrap();
        let (n, moves) = solve(&mut pos, 1).unwrap();
        assert_eq!(n, 1);
        assert!(moves.contains(&Move::parse("b0b9").unwrap()));
        // A bare king each: nothing forced.
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w").unwrap();
        assert!(solve(&mut pos, 2).is_none());
    }

    #[test]
    fn suite_lines_round_trip() {
        let e = SuiteEntry {
            fen: "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1".into(),
            moves_to_win: 1,
            winning: vec![Move::parse("b0b9").unwrap(), Move::parse("a8a9").unwrap()],
            source: "hand made".into(),
        };
        assert_eq!(SuiteEntry::parse(&e.line()), Some(Ok(e.clone())));
        assert_eq!(SuiteEntry::parse("# comment"), None);
        assert!(matches!(SuiteEntry::parse("x\t1\tb0b9\ty"), Some(Err(_))));
        // No moves at all is an error; `*` is "any move that proves it".
        let fen = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";
        assert!(matches!(
            SuiteEntry::parse(&format!("{fen}\t1\t\ty")),
            Some(Err(_))
        ));
        let any = SuiteEntry {
            winning: vec![],
            ..e
        };
        assert!(any.line().contains("\t*\t"));
        assert_eq!(SuiteEntry::parse(&any.line()), Some(Ok(any)));
    }

    #[test]
    fn a_proved_win_in_time_solves_an_entry_without_moves() {
        let e = SuiteEntry {
            fen: "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1".into(),
            moves_to_win: 3,
            winning: vec![],
            source: String::new(),
        };
        let m = Move::parse("b0b9");
        // Mate in 3 moves is 5 plies; in 4 (7 plies) is too slow.
        assert!(e.solved_by(m, MATE - 5));
        assert!(e.solved_by(m, MATE - 1));
        assert!(!e.solved_by(m, MATE - 7));
        assert!(!e.solved_by(m, 900));
        assert!(!e.solved_by(None, MATE - 1));
        let listed = SuiteEntry {
            winning: vec![Move::parse("a8a9").unwrap()],
            ..e
        };
        assert!(!listed.solved_by(m, MATE - 1));
        assert!(listed.solved_by(Move::parse("a8a9"), 0));
    }

    #[test]
    fn build_keeps_positions_before_a_game_ending_without_moves() {
        // A made-up "game" from the two-chariot position: one move, mate.
        let games = |line| parse_games(line, usize::MAX);
        let line = "1-0\tA00\tr\tb\t\t4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1\tb0b9";
        let (suite, stats) = build_from_games(&games(line), 3, |_| {});
        assert_eq!((stats.no_move_endings, stats.checkmates), (1, 1));
        assert_eq!(suite.len(), 1);
        assert_eq!(suite[0].moves_to_win, 1);
        assert!(suite[0].winning.contains(&Move::parse("b0b9").unwrap()));
        // A game that ends otherwise gives nothing.
        let line = "1-0\tA00\tr\tb\t\t4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1\tb0b1";
        assert!(build_from_games(&games(line), 3, |_| {}).0.is_empty());
    }
}
