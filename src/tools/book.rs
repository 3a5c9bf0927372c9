//! `chuhe book build | probe | stats`: make the opening book from game
//! files, look a position up, and describe a book.
//!
//! Game files (PGN or CCPD TSV, plain or xz) are read by [`crate::record::games`].

use crate::book::{Book, BookBuilder, BookMove, BookSet, BuildRule, BuildSummary, EMBEDDED_NAME};
use crate::notation::{self, Script};
use crate::position::Position;
use crate::record::games::read_games;
use crate::replay::{self, Accept::AnyNotation};
use clap::Subcommand;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book from game files (PGN or CCPD TSV, plain or .xz).
    Build {
        /// Game files.
        #[arg(long = "games", required = true, num_args = 1..)]
        games: Vec<PathBuf>,
        /// Where to write the book.
        #[arg(long)]
        out: PathBuf,
        /// Keep a move only if at least this many games played it.
        #[arg(long, default_value_t = BuildRule::default().min_games)]
        min_games: u32,
        /// Count only moves of the first P plies of each game.
        #[arg(long, default_value_t = BuildRule::default().max_ply)]
        max_ply: usize,
        /// Keep a move only if it scored at least its side's average score
        /// minus this margin.
        #[arg(long, default_value_t = BuildRule::default().score_margin)]
        score_margin: f64,
    },
    /// Show the book moves of a position.
    Probe {
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from it first (ICCS, Chinese or WXF, space separated).
        #[arg(long, default_value = "")]
        moves: String,
        /// Books to use, separated by ';' (default: the embedded book).
        #[arg(long, default_value = EMBEDDED_NAME)]
        book: String,
    },
    /// Describe books: size, depth, and (with --games) how much of a game
    /// collection they cover.
    Stats {
        /// Books, separated by ';' (default: the embedded book).
        #[arg(long, default_value = EMBEDDED_NAME)]
        book: String,
        /// Game files to measure coverage on.
        #[arg(long, num_args = 1..)]
        games: Vec<PathBuf>,
    },
}

/// Runs a `book` subcommand, writing its report to `out`.
pub fn run(command: BookCommand, out: &mut impl Write) -> Result<(), String> {
    match command {
        BookCommand::Build {
            games,
            out: path,
            min_games,
            max_ply,
            score_margin,
        } => {
            let rule = BuildRule {
                min_games: min_games.max(1),
                max_ply,
                score_margin,
            };
            build(&games, &path, rule, out)
        }
        BookCommand::Probe { fen, moves, book } => probe(fen.as_deref(), &moves, &book, out),
        BookCommand::Stats { book, games } => stats(&book, &games, out),
    }
}

/// Builds a book from game files and writes it to `path`.
pub fn build_book(
    games: &[PathBuf],
    rule: BuildRule,
    out: &mut impl Write,
) -> Result<(Vec<u8>, BuildSummary), String> {
    let mut builder = BookBuilder::new(rule);
    for path in games {
        let records = read_games(path, rule.max_ply)?;
        let (mut used, mut no_result, mut cut) = (0usize, 0usize, 0usize);
        for g in &records {
            if let Some(p) = &g.problem {
                cut += 1;
                log::debug!("{}: {p}", path.display());
            }
            match g.result {
                Some(r) => {
                    builder.add_game(&g.start, &g.moves, r);
                    used += 1;
                }
                None => no_result += 1,
            }
        }
        writeln!(
            out,
            "{}: {} games, {used} used, {no_result} without a result, {cut} with an unreadable move (kept up to it)",
            path.display(),
            records.len()
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(builder.finish())
}

fn build(
    games: &[PathBuf],
    path: &Path,
    rule: BuildRule,
    out: &mut impl Write,
) -> Result<(), String> {
    let (bytes, s) = build_book(games, rule, out)?;
    std::fs::write(path, &bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    writeln!(
        out,
        "rule: min-games {}, max-ply {}, score-margin {:.3} (Red average {:.3}, Black {:.3})\n\
         {} games, {} plies, {} distinct position-moves; kept {} moves in {} positions; \
         wrote {} bytes to {}",
        rule.min_games,
        rule.max_ply,
        rule.score_margin,
        s.side_score[0],
        s.side_score[1],
        s.games,
        s.plies,
        s.candidate_moves,
        s.moves,
        s.positions,
        s.bytes,
        path.display()
    )
    .map_err(|e| e.to_string())
}

fn describe(pos: &Position, bm: &BookMove) -> String {
    let chinese = notation::to_chinese(pos, bm.mv, Script::Simplified).unwrap_or_default();
    let stats = match bm.score() {
        Some(s) => format!(
            "  games {:>6}  +{} ={} -{}  score {:>5.1}%",
            bm.games(),
            bm.wins,
            bm.draws,
            bm.losses,
            100.0 * s
        ),
        None => String::new(),
    };
    format!("{} {chinese}  weight {:>6}{stats}", bm.mv, bm.weight)
}

fn probe(fen: Option<&str>, moves: &str, books: &str, out: &mut impl Write) -> Result<(), String> {
    let set = BookSet::load(books).map_err(|e| e.to_string())?;
    let mut pos = match fen {
        Some(f) => Position::from_fen(f).map_err(|e| format!("invalid FEN: {e}"))?,
        None => Position::startpos(),
    };
    replay::replay(&mut pos, moves.split_whitespace(), AnyNotation)
        .map_err(|e| e.reason.to_string())?;
    let found = set.probe(&pos);
    let total: u64 = found.iter().map(|b| b.weight as u64).sum();
    writeln!(out, "{}", pos.to_fen()).map_err(|e| e.to_string())?;
    if found.is_empty() {
        writeln!(out, "no book move").map_err(|e| e.to_string())?;
    }
    for bm in &found {
        writeln!(
            out,
            "{}  ({:.1}% of the weight)",
            describe(&pos, bm),
            100.0 * bm.weight as f64 / total.max(1) as f64
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Longest line of book moves from `pos`, memoised by position key; a
/// position met again on the current line (a cycle) ends the line.
fn longest_line(
    book: &Book,
    pos: &mut Position,
    memo: &mut HashMap<u64, usize>,
    on_line: &mut Vec<u64>,
) -> usize {
    let key = pos.key();
    if let Some(&d) = memo.get(&key) {
        return d;
    }
    if on_line.contains(&key) {
        return 0;
    }
    on_line.push(key);
    let mut best = 0;
    for bm in book.probe(pos) {
        pos.make_move(bm.mv);
        best = best.max(1 + longest_line(book, pos, memo, on_line));
        pos.unmake_move();
    }
    on_line.pop();
    memo.insert(key, best);
    best
}

fn stats(books: &str, games: &[PathBuf], out: &mut impl Write) -> Result<(), String> {
    let set = BookSet::load(books).map_err(|e| e.to_string())?;
    let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    for (name, book) in set.books() {
        let mut memo = HashMap::new();
        let depth = longest_line(book, &mut Position::startpos(), &mut memo, &mut Vec::new());
        let in_book = memo.values().filter(|&&d| d > 0).count();
        w(
            out,
            format!(
                "{name}: {} format, {} positions, {} moves, {} bytes; from the start position \
                 {in_book} positions are reached by book moves, the longest book line has {depth} plies",
                book.format_name(),
                book.positions(),
                book.records(),
                book.bytes()
            ),
        )?;
    }
    for path in games {
        let records = read_games(path, usize::MAX)?;
        let (mut first_total, mut first_in_book, mut plies_in_book) = (0u64, 0u64, 0u64);
        let mut position_hits = 0u64;
        let mut position_total = 0u64;
        for g in &records {
            let Some(&first) = g.moves.first() else {
                continue;
            };
            first_total += 1;
            let mut pos = g.start.clone();
            if set.probe(&pos).iter().any(|b| b.mv == first) {
                first_in_book += 1;
            }
            // Plies until the game first leaves the book.
            let mut following = true;
            let first_plies = &g.moves[..g.moves.len().min(60)];
            // An illegal move ends the game's walk.
            let _ = replay::walk(&mut pos, first_plies, |pos, _, m| {
                let moves = set.probe(pos);
                if following && moves.iter().any(|b| b.mv == m) {
                    plies_in_book += 1;
                } else {
                    following = false;
                }
                position_total += 1;
                position_hits += !moves.is_empty() as u64;
            });
        }
        let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
        w(
            out,
            format!(
                "{}: first moves in the book {first_in_book}/{first_total} ({:.2}%); games follow \
                 the book for {:.1} plies on average; {:.1}% of the positions of their first 60 \
                 plies have book moves",
                path.display(),
                pct(first_in_book, first_total),
                plies_in_book as f64 / first_total.max(1) as f64,
                pct(position_hits, position_total)
            ),
        )?;
    }
    Ok(())
}
