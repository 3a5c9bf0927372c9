//! `datagen`: training positions for the network, scored by chuhe's own
//! search.
//!
//! Four sources, one output format (`nnue::data`, 32 bytes a position):
//!
//! * **self-play** (the default): games of chuhe against itself at a fixed
//!   node count per move, each starting either from the start position
//!   after a few random legal plies or from a position of a master game.
//!   Every game is played to its end as `rules` judges it (mate,
//!   stalemate, perpetual check or chase, repetition, move limit, dead
//!   material), or adjudicated when the score has stayed decisive, or
//!   level, for long enough;
//! * **`--from-games`**: the positions of existing games (TSV or PGN),
//!   each searched and labelled with that game's result;
//! * **`--label`**: existing records searched again by the current engine
//!   (the result and ply are kept, the score replaced);
//! * **`--from-labels`**: a TSV of positions already scored by chuhe (the
//!   `ccpd-labels` layout: fen, score, best, best-is-capture, result for
//!   Red, ply, game), converted without searching.
//!
//! Kept positions are quiet ones: the side to move not in check, the best
//! move not a capture, the score not a mate score.
//!
//! Every game (self-play) or source game (`--from-games`) is numbered, and
//! game `g`'s random choices come from `seed` and `g` alone; each search
//! starts from an empty table and history. So a run is reproducible
//! whatever the thread count, and runs with distinct seeds, or with
//! distinct shards of one seed (`--shard K/N` takes the games numbered
//! `K-1` modulo `N`), are disjoint and can be concatenated.
//!
//! Sharding: with `--shard K/N --games G`, the run makes the shard's first
//! `G` items, numbers `K-1`, `K-1+N`, ..., `K-1+(G-1)N` of the whole run;
//! so N shards of G games are, records and all, the unsharded run of N·G
//! games (in another order). A shard stopped by `--positions` is cut
//! where its threads happened to be, so a reproducible shard is one
//! bounded by `--games` (or by the end of the source). A shard written
//! again replaces its output (unless `--append`): rerunning a failed shard
//! does not duplicate its records. `scripts/cluster/datagen.py` runs the
//! shards over a Ray cluster.

use crate::adjudicate::{Adjudication, DrawAdjudication, ScoreTrail, Verdict};
use crate::engine::{self, SearchSetup};
use crate::movegen;
use crate::nnue::data::{self, Record, Wdl};
use crate::position::Position;
use crate::record::games::{Game, GameResult, read_games};
use crate::record::labels::Label;
use crate::rng::SplitMix;
use crate::rules::{self, Outcome, RuleSettings};
use crate::time::Limits;
use crate::tools::datastore::{self, ShardInfo};
use crate::types::*;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Nodes a self-play move searches. 2,500 rather than 5,000: twice the
/// positions per CPU hour made the better network in a match (+83 Elo at
/// equal self-play time, docs/nnue.md); to be measured again once the data
/// store holds about ten million positions.
pub const DEFAULT_NODES: u64 = 2_500;

/// Signals asking the run to stop (the binary's SIGINT/SIGTERM handler
/// counts them here). The first makes the run write what it has at once
/// and stop after the games under way; the second ends the process right
/// after that write.
pub static STOP_REQUESTS: AtomicUsize = AtomicUsize::new(0);

/// How often the records are flushed to disk (and a store's shard
/// description rewritten).
const FLUSH_EVERY: Duration = Duration::from_secs(5);
/// How often the progress line is printed.
const REPORT_EVERY: Duration = Duration::from_secs(10);

/// Where the positions come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// Self-play games; `openings` are master games to start from.
    SelfPlay { openings: Option<String> },
    /// The positions of the games in this file.
    Games(String),
    /// Records to score again.
    Relabel(String),
    /// A TSV of positions already scored.
    Labels(String),
}

impl Source {
    /// For a shard's description: `selfplay`, `games FILE`, ...
    pub fn describe(&self) -> String {
        match self {
            Source::SelfPlay { openings: None } => "selfplay".into(),
            Source::SelfPlay {
                openings: Some(masters),
            } => format!("selfplay openings {masters}"),
            Source::Games(f) => format!("games {f}"),
            Source::Relabel(f) => format!("relabel {f}"),
            Source::Labels(f) => format!("labels {f}"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct DatagenOptions {
    pub source: Source,
    pub out: String,
    pub nodes: u64,
    pub threads: usize,
    pub seed: u64,
    /// Stop after about this many positions (whole games are kept).
    pub positions: Option<u64>,
    /// Stop after this many games (self-play) or source games.
    pub games: Option<u64>,
    /// This run's shard: (k, n) with 1 <= k <= n.
    pub shard: (u64, u64),
    /// Share of self-play games that start from a master-game position.
    pub master_share: f64,
    /// Random plies from the start position (the other games), at least.
    pub random_plies: u32,
    /// Skip the positions of source games before this ply.
    pub min_ply: u32,
    /// Append to `out` instead of replacing it.
    pub append: bool,
    /// Search with the classical evaluation instead of the network.
    pub classical: bool,
    /// Search with the network in this file instead of the embedded one.
    pub evalfile: Option<String>,
    /// The data store `out` is a shard of (its description is kept up to
    /// date there), if any.
    pub store: Option<PathBuf>,
}

impl Default for DatagenOptions {
    fn default() -> Self {
        DatagenOptions {
            source: Source::SelfPlay { openings: None },
            out: "data.bin".into(),
            nodes: DEFAULT_NODES,
            threads: 1,
            seed: 1,
            positions: None,
            games: None,
            shard: (1, 1),
            master_share: 0.5,
            random_plies: 6,
            min_ply: 8,
            append: false,
            classical: false,
            evalfile: None,
            store: None,
        }
    }
}

/// Self-play adjudication, by the match runner's rules (`adjudicate`):
/// won once the score has stayed at or beyond 1,000 cp for the same side
/// over 8 plies (4 scores of each side), drawn once both sides' last 8
/// scores lie within 15 cp from move 61 on. `MAX_GAME_PLIES` ends any game
/// as a draw.
const ADJUDICATION: Adjudication = Adjudication {
    resign: Some((1_000, 4)),
    draw: Some(DrawAdjudication {
        score: 15,
        after_move: 61,
        count: 8,
    }),
};
const MAX_GAME_PLIES: usize = 600;
/// A random opening whose score is beyond this is too lopsided to play.
const OPENING_MAX_SCORE: Score = 400;
/// Starts drawn for one game before giving up on it.
const OPENING_TRIES: usize = 50;

/// Each datagen thread's table, MB: small, since every search is short.
const TABLE_MB: usize = 8;

/// One thread's searcher: an engine with one search thread and its own
/// small table, cleared before each game so that results do not depend on
/// what the thread did before.
struct Searcher {
    engine: engine::Searcher,
    nodes: u64,
}

impl Searcher {
    fn new(opts: &DatagenOptions) -> Result<Searcher, String> {
        let setup = SearchSetup {
            threads: 1,
            hash_mb: TABLE_MB,
            classical: opts.classical,
            evalfile: opts.evalfile.clone(),
            ..SearchSetup::default()
        };
        let (engine, _cut) = engine::Searcher::new(&setup)?;
        Ok(Searcher {
            engine,
            nodes: opts.nodes,
        })
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// The best move and its score (side to move's view) at the fixed node
    /// count, or `None` when there is no legal move.
    fn search(&mut self, pos: &Position) -> Option<(Move, Score)> {
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let answer = self.engine.search(pos.clone(), limits);
        answer.best.map(|best| (best, answer.score))
    }
}

/// Whether a searched position is kept: not in check, the best move quiet,
/// the score not a mate.
pub fn keep(pos: &Position, best: Move, score: Score) -> bool {
    !pos.in_check() && pos.piece_on(best.to()).is_none() && score.abs() < DECISIVE_BOUND
}

fn clamp_score(s: Score) -> i16 {
    s.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1) as i16
}

/// The random generator of game `g`.
fn game_rng(seed: u64, g: u64) -> SplitMix {
    let mut r = SplitMix(seed ^ g.wrapping_mul(0xA076_1D64_78BD_642F));
    r.next_u64();
    r
}

/// A self-play game's positions: the records (result not yet set) and the
/// result.
struct PlayedGame {
    records: Vec<Record>,
    result: Wdl,
}

/// A start for game `g`: a master-game position or random plies from the
/// start position, with its ply number. `None` when the random start came
/// out lopsided or ended the game (the caller tries the next game number).
fn opening(
    rng: &mut SplitMix,
    masters: &[Game],
    opts: &DatagenOptions,
    searcher: &mut Searcher,
) -> Option<(Position, u32)> {
    let from_master = !masters.is_empty()
        && (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= opts.master_share;
    let (mut pos, mut ply) = if from_master {
        let game = &masters[rng.below(masters.len() as u64) as usize];
        let lo = opts.min_ply as usize;
        let hi = game.moves.len().saturating_sub(10).min(60);
        if hi <= lo {
            return None;
        }
        let stop = lo + rng.below((hi - lo) as u64) as usize;
        let mut pos = game.start.clone();
        for &m in &game.moves[..stop] {
            pos.make_move(m);
        }
        (pos, stop as u32)
    } else {
        (Position::startpos(), 0)
    };
    // One or two random plies after a master position, more from the start.
    let extra = if from_master {
        rng.below(3) as u32
    } else {
        opts.random_plies + rng.below(3) as u32
    };
    for _ in 0..extra {
        let moves = movegen::legal_moves(&pos);
        if moves.is_empty() {
            return None;
        }
        pos.make_move(moves.as_slice()[rng.below(moves.len() as u64) as usize]);
        ply += 1;
    }
    if rules::judge(&mut pos, &RuleSettings::default()).is_over() {
        return None;
    }
    let (_, score) = searcher.search(&pos)?;
    (score.abs() <= OPENING_MAX_SCORE).then_some((pos, ply))
}

/// Plays one self-play game from `pos` to its end.
fn play_game(mut pos: Position, start_ply: u32, searcher: &mut Searcher) -> PlayedGame {
    let settings = RuleSettings::default();
    let mut records = Vec::new();
    let mut trail = ScoreTrail::new();
    let mut ply = start_ply;
    let result = loop {
        match rules::judge(&mut pos, &settings) {
            Outcome::Win { winner, .. } => break Wdl::win_for(winner),
            Outcome::Draw { .. } => break Wdl::Draw,
            Outcome::Ongoing => {}
        }
        if pos.ply_from_root() >= MAX_GAME_PLIES {
            break Wdl::Draw;
        }
        let Some((best, score)) = searcher.search(&pos) else {
            // No legal move: `judge` would have said so; be safe anyway.
            break Wdl::win_for(!pos.side_to_move());
        };
        let us = pos.side_to_move();
        if score.abs() >= DECISIVE_BOUND {
            break Wdl::win_for(if score > 0 { us } else { !us });
        }
        trail.push(us, Some(score));
        match trail.verdict(&ADJUDICATION, pos.fullmove_number()) {
            Some(Verdict::Win(winner)) => break Wdl::win_for(winner),
            Some(Verdict::Draw) => break Wdl::Draw,
            None => {}
        }
        if keep(&pos, best, score) {
            records.push(Record::new(&pos, clamp_score(score), ply, Wdl::Draw));
        }
        pos.make_move(best);
        ply += 1;
    };
    for r in &mut records {
        r.set_result(result);
    }
    PlayedGame { records, result }
}

/// Counts shared by the threads, for the progress line and the stop rule.
#[derive(Default)]
struct Progress {
    positions: AtomicU64,
    games: AtomicU64,
    /// Results of finished games: black wins, draws, red wins.
    results: [AtomicU64; 3],
    done: AtomicBool,
}

struct Output {
    file: Mutex<BufWriter<std::fs::File>>,
}

/// The output buffer: a whole number of records, so that the writes a
/// full buffer forces never end inside a record.
const OUTPUT_BUFFER: usize = 1 << 20;
const _: () = assert!(OUTPUT_BUFFER.is_multiple_of(data::RECORD_SIZE));

impl Output {
    fn open(path: &str, append: bool) -> Result<Output, String> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(path)
            .map_err(|e| format!("{path}: {e}"))?;
        Ok(Output {
            file: Mutex::new(BufWriter::with_capacity(OUTPUT_BUFFER, file)),
        })
    }

    fn write(&self, records: &[Record]) -> Result<(), String> {
        let mut f = self
            .file
            .lock()
            .map_err(|_| "output lock poisoned".to_string())?;
        data::write_records(&mut *f, records).map_err(|e| e.to_string())
    }

    fn flush(&self) -> Result<(), String> {
        let mut f = self
            .file
            .lock()
            .map_err(|_| "output lock poisoned".to_string())?;
        f.flush().map_err(|e| e.to_string())
    }
}

/// Runs `datagen` as `opts` says, printing progress to `log`.
pub fn run(opts: &DatagenOptions, log: &mut (impl Write + Send)) -> Result<(), String> {
    let (k, n) = opts.shard;
    if n == 0 || k == 0 || k > n {
        return Err(format!("bad shard {k}/{n}: expected K/N with 1 <= K <= N"));
    }
    let out = Output::open(&opts.out, opts.append)?;
    let progress = Progress::default();
    let start = Instant::now();
    let threads = opts.threads.max(1);
    let log = Mutex::new(log);
    let say = |line: String| {
        if let Ok(mut l) = log.lock() {
            let _ = writeln!(l, "{line}");
        }
    };

    // The work: a list of numbered items (games to play or to read,
    // records to score) that the threads take in turn.
    let work = Work::load(opts)?;
    if let Some(items) = items_in_shard(opts, &work) {
        say(format!("datagen: {items} items in this shard"));
    }
    let searchers = (0..threads)
        .map(|_| Searcher::new(opts))
        .collect::<Result<Vec<_>, _>>()?;
    let evaluation = searchers
        .first()
        .map_or(String::new(), |s| s.engine.evaluation_tag());
    if let Some(s) = searchers.first() {
        say(format!(
            "datagen: evaluation {}",
            s.engine.evaluation_name()
        ));
    }
    let started = datastore::now();
    let describe = |complete: bool| -> Result<(), String> {
        let Some(dir) = &opts.store else {
            return Ok(());
        };
        let file = Path::new(&opts.out)
            .file_name()
            .map_or(String::new(), |f| f.to_string_lossy().into_owned());
        let info = ShardInfo {
            file,
            engine: env!("CHUHE_VERSION").to_string(),
            evaluation: evaluation.clone(),
            nodes: opts.nodes,
            seed: opts.seed,
            source: opts.source.describe(),
            games: progress.games.load(Ordering::Relaxed),
            positions: progress.positions.load(Ordering::Relaxed),
            started,
            updated: datastore::now(),
            complete,
        };
        datastore::write_info(dir, &info)?;
        datastore::write_manifest(dir)
    };
    describe(false)?;
    let next = AtomicU64::new(0);
    let active = AtomicUsize::new(threads);
    let failed: Mutex<Option<String>> = Mutex::new(None);
    // A write failure ends the run for every thread; the error is its answer.
    let fail = |e: String| {
        if let Ok(mut f) = failed.lock() {
            *f = Some(e);
        }
        progress.done.store(true, Ordering::Relaxed);
    };
    // Item `i` of this shard is item `i * n + k - 1` of the whole run; with
    // `--games`, exactly the first that many items of the shard are made.
    let limit = opts.games.unwrap_or(u64::MAX);

    std::thread::scope(|s| {
        for mut searcher in searchers {
            let (progress, next, active, out, work, fail) =
                (&progress, &next, &active, &out, &work, &fail);
            s.spawn(move || {
                while !progress.done.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= limit {
                        break;
                    }
                    let Some(records) = work.item(i * n + (k - 1), opts, &mut searcher, progress)
                    else {
                        break;
                    };
                    if let Err(e) = out.write(&records) {
                        fail(e);
                        break;
                    }
                    let total = progress
                        .positions
                        .fetch_add(records.len() as u64, Ordering::Relaxed)
                        + records.len() as u64;
                    if opts.positions.is_some_and(|p| total >= p) {
                        progress.done.store(true, Ordering::Relaxed);
                    }
                }
                if active.fetch_sub(1, Ordering::AcqRel) == 1 {
                    progress.done.store(true, Ordering::Relaxed);
                }
            });
        }
        // The records so far on disk every few seconds, and a progress line
        // now and then, until the workers are done: a run killed outright
        // keeps all but its last seconds, in whole records. A stop request
        // writes at once.
        s.spawn(|| {
            let (mut flushed, mut reported) = (Instant::now(), Instant::now());
            let mut stops_seen = 0;
            while !progress.done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let stops = STOP_REQUESTS.load(Ordering::Relaxed);
                if flushed.elapsed() >= FLUSH_EVERY || stops > stops_seen {
                    flushed = Instant::now();
                    if let Err(e) = out.flush().and_then(|()| describe(false)) {
                        fail(e);
                    }
                }
                if stops > stops_seen {
                    stops_seen = stops;
                    say("datagen: stop requested: records written; stopping after the games under way (again to stop now)".into());
                    progress.done.store(true, Ordering::Relaxed);
                }
                if reported.elapsed() >= REPORT_EVERY {
                    reported = Instant::now();
                    say(progress_line(&progress, start, opts, &work));
                }
            }
            // Workers finishing their games; a second request ends the
            // process with what is on disk.
            while active.load(Ordering::Relaxed) > 0 {
                std::thread::sleep(Duration::from_millis(50));
                if STOP_REQUESTS.load(Ordering::Relaxed) > stops_seen.max(1) {
                    let _ = out.flush().and_then(|()| describe(true));
                    std::process::exit(130);
                }
            }
        });
    });
    progress.done.store(true, Ordering::Relaxed);
    out.flush()?;
    describe(true)?;
    if let Ok(Some(e)) = failed.lock().map(|f| f.clone()) {
        return Err(e);
    }
    say(progress_line(&progress, start, opts, &work));
    say(format!(
        "datagen: done in {:.0} s, written to {}",
        start.elapsed().as_secs_f64(),
        opts.out
    ));
    Ok(())
}

fn progress_line(p: &Progress, start: Instant, opts: &DatagenOptions, work: &Work) -> String {
    let pos = p.positions.load(Ordering::Relaxed);
    let games = p.games.load(Ordering::Relaxed);
    let secs = start.elapsed().as_secs_f64().max(1e-3);
    let rate = pos as f64 / secs;
    let [b, d, r] = [0, 1, 2].map(|i| p.results[i].load(Ordering::Relaxed));
    let mut line = format!(
        "datagen: {pos} positions, {rate:.0} pos/s, {games} games (red {r} draw {d} black {b})"
    );
    let eta = match (opts.positions, opts.games, items_in_shard(opts, work)) {
        (Some(target), _, _) if rate > 0.0 => Some(target.saturating_sub(pos) as f64 / rate),
        (None, Some(target), _) if games > 0 => {
            Some(target.saturating_sub(games) as f64 * secs / games as f64)
        }
        (None, None, Some(total)) if games > 0 => {
            Some(total.saturating_sub(games) as f64 * secs / games as f64)
        }
        _ => None,
    };
    if let Some(eta) = eta {
        let eta = eta as u64;
        line += &format!(", ETA {}h{:02}m{:02}s", eta / 3600, eta / 60 % 60, eta % 60);
    }
    line
}

/// The items shard K of N makes: those numbered K-1, K-1+N, ... below the
/// run's total, when finite.
fn items_in_shard(opts: &DatagenOptions, work: &Work) -> Option<u64> {
    work.len().map(|total| shard_share(total, opts.shard))
}

/// How many of `total` items numbered from 0 are K-1 plus a multiple of N.
fn shard_share(total: u64, (k, n): (u64, u64)) -> u64 {
    (total + n).saturating_sub(k) / n.max(1)
}

/// The numbered items of one run.
enum Work {
    SelfPlay { masters: Vec<Game> },
    Games(Vec<Game>),
    Relabel(Vec<Record>),
    Labels(Vec<Record>),
}

/// Records per item when relabelling (so threads share work finely).
const RELABEL_CHUNK: usize = 256;

impl Work {
    fn load(opts: &DatagenOptions) -> Result<Work, String> {
        Ok(match &opts.source {
            Source::SelfPlay { openings } => Work::SelfPlay {
                masters: match openings {
                    Some(path) => read_games(Path::new(path), usize::MAX)?,
                    None => Vec::new(),
                },
            },
            Source::Games(path) => Work::Games(read_games(Path::new(path), usize::MAX)?),
            Source::Relabel(path) => Work::Relabel(
                data::read_files(std::slice::from_ref(path)).map_err(|e| e.to_string())?,
            ),
            Source::Labels(path) => Work::Labels(read_label_tsv(path)?),
        })
    }

    /// Items in the whole run (all shards), when finite.
    fn len(&self) -> Option<u64> {
        match self {
            Work::SelfPlay { .. } => None,
            Work::Games(g) => Some(g.len() as u64),
            Work::Relabel(r) | Work::Labels(r) => Some(r.len().div_ceil(RELABEL_CHUNK) as u64),
        }
    }

    /// The records of item `g`, or `None` when there is no such item.
    fn item(
        &self,
        g: u64,
        opts: &DatagenOptions,
        searcher: &mut Searcher,
        progress: &Progress,
    ) -> Option<Vec<Record>> {
        if self.len().is_some_and(|n| g >= n) {
            return None;
        }
        let count_game = |result: Option<Wdl>| {
            progress.games.fetch_add(1, Ordering::Relaxed);
            if let Some(r) = result {
                progress.results[r as usize].fetch_add(1, Ordering::Relaxed);
            }
        };
        match self {
            Work::SelfPlay { masters } => {
                let mut rng = game_rng(opts.seed, g);
                searcher.new_game();
                // A lopsided or finished random start is drawn again (from
                // the same generator, so the game stays reproducible).
                let Some((pos, ply)) =
                    (0..OPENING_TRIES).find_map(|_| opening(&mut rng, masters, opts, searcher))
                else {
                    return Some(Vec::new());
                };
                let game = play_game(pos, ply, searcher);
                count_game(Some(game.result));
                Some(game.records)
            }
            Work::Games(games) => {
                let game = &games[g as usize];
                let result = game.result.and_then(|r| match r {
                    GameResult::Win(Color::Red) => Some(Wdl::RedWins),
                    GameResult::Win(Color::Black) => Some(Wdl::BlackWins),
                    GameResult::Draw => Some(Wdl::Draw),
                    GameResult::Unfinished => None,
                });
                count_game(result);
                let Some(result) = result else {
                    return Some(Vec::new());
                };
                searcher.new_game();
                let mut pos = game.start.clone();
                let mut records = Vec::new();
                for (ply, &m) in game.moves.iter().enumerate() {
                    if ply as u32 >= opts.min_ply
                        && !pos.in_check()
                        && let Some((best, score)) = searcher.search(&pos)
                        && keep(&pos, best, score)
                    {
                        records.push(Record::new(&pos, clamp_score(score), ply as u32, result));
                    }
                    pos.make_move(m);
                }
                Some(records)
            }
            Work::Relabel(all) | Work::Labels(all) => {
                let lo = g as usize * RELABEL_CHUNK;
                let chunk = &all[lo..(lo + RELABEL_CHUNK).min(all.len())];
                count_game(None);
                if matches!(self, Work::Labels(_)) {
                    return Some(chunk.to_vec());
                }
                searcher.new_game();
                let mut out = Vec::with_capacity(chunk.len());
                for r in chunk {
                    let Ok(pos) = r.to_position() else { continue };
                    if let Some((best, score)) = searcher.search(&pos)
                        && keep(&pos, best, score)
                    {
                        let mut r = *r;
                        r.set_score(clamp_score(score));
                        out.push(r);
                    }
                }
                Some(out)
            }
        }
    }
}

/// Reads positions already scored by chuhe, in the `ccpd-labels` TSV layout
/// (fen, score, best, best-is-capture, result for Red, ply, game), keeping
/// the quiet ones.
pub fn read_label_tsv(path: &str) -> Result<Vec<Record>, String> {
    let text =
        crate::record::games::read_text(Path::new(path)).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(label) = Label::parse(line) else {
            if !line.trim().is_empty() {
                log::warn!("{path}: line {} not understood, skipped", i + 1);
            }
            continue;
        };
        let result = match label.result {
            GameResult::Win(winner) => Wdl::win_for(winner),
            _ => Wdl::Draw,
        };
        if let Some(best) = label.best
            && label.pos.is_pseudo_legal(best)
            && keep(&label.pos, best, label.score)
        {
            out.push(Record::new(
                &label.pos,
                clamp_score(label.score),
                label.ply,
                result,
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(out: &str) -> DatagenOptions {
        DatagenOptions {
            out: out.into(),
            nodes: 300,
            games: Some(3),
            seed: 7,
            ..DatagenOptions::default()
        }
    }

    fn temp(name: &str) -> String {
        std::env::temp_dir()
            .join(format!("chuhe-datagen-{}-{name}", std::process::id()))
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn self_play_is_reproducible_and_quiet() {
        let (a, b) = (temp("a"), temp("b"));
        let mut sink = Vec::new();
        run(&opts(&a), &mut sink).unwrap();
        let mut two = opts(&b);
        two.threads = 2;
        run(&two, &mut sink).unwrap();
        let ra = data::read_files(std::slice::from_ref(&a)).unwrap();
        let rb = data::read_files(std::slice::from_ref(&b)).unwrap();
        assert!(!ra.is_empty());
        // Same games whatever the thread count (order may differ).
        let mut sa: Vec<[u8; 32]> = ra.iter().map(|r| r.0).collect();
        let mut sb: Vec<[u8; 32]> = rb.iter().map(|r| r.0).collect();
        sa.sort();
        sb.sort();
        assert_eq!(sa, sb);
        for r in &ra {
            let pos = r.to_position().unwrap();
            assert!(!pos.in_check());
            assert!((r.score() as Score).abs() < MATE_BOUND);
            assert!(r.result().is_some());
        }
        let _ = std::fs::remove_file(a);
        let _ = std::fs::remove_file(b);
    }

    #[test]
    fn self_play_shards_make_the_whole_run() {
        // Games 0..4 in one run; shard 1/2 makes games 0 and 2, shard 2/2
        // games 1 and 3 (`--games` counts the games of the shard).
        let mut sink = Vec::new();
        let mut whole = opts(&temp("sp-whole"));
        whole.games = Some(4);
        run(&whole, &mut sink).unwrap();
        let mut parts: Vec<[u8; 32]> = Vec::new();
        for k in 1..=2 {
            let mut s = opts(&temp(&format!("sp-part{k}")));
            s.games = Some(2);
            s.shard = (k, 2);
            run(&s, &mut sink).unwrap();
            parts.extend(
                data::read_files(&[s.out.clone()])
                    .unwrap()
                    .iter()
                    .map(|r| r.0),
            );
            let _ = std::fs::remove_file(&s.out);
        }
        let mut w: Vec<[u8; 32]> = data::read_files(std::slice::from_ref(&whole.out))
            .unwrap()
            .iter()
            .map(|r| r.0)
            .collect();
        w.sort();
        parts.sort();
        assert!(!w.is_empty());
        assert_eq!(w, parts);
        let _ = std::fs::remove_file(&whole.out);
    }

    #[test]
    fn a_shard_counts_its_own_items() {
        assert_eq!(shard_share(3855, (1, 5)), 771);
        assert_eq!(shard_share(3855, (5, 5)), 771);
        assert_eq!(shard_share(3, (1, 2)), 2);
        assert_eq!(shard_share(3, (2, 2)), 1);
        assert_eq!(shard_share(1, (3, 4)), 0);
        assert_eq!(shard_share(7, (1, 1)), 7);
    }

    #[test]
    fn shards_are_disjoint_and_cover_the_games() {
        let whole = temp("whole");
        let mut sink = Vec::new();
        let mut o = opts(&whole);
        o.games = None;
        o.source = Source::Games(temp("games.tsv"));
        let tsv = "1-0\tA00\tr\tb\t\t".to_string()
            + crate::position::START_FEN
            + "\th2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b2b6 g6g5 b0c2 c6c5\n";
        let tsv = tsv.clone() + &tsv.replace("1-0", "0-1").replace("b2b6", "g3g4");
        std::fs::write(temp("games.tsv"), &tsv).unwrap();
        o.min_ply = 2;
        run(&o, &mut sink).unwrap();
        let mut parts = Vec::new();
        for k in 1..=2 {
            let mut s = o.clone();
            s.out = temp(&format!("part{k}"));
            s.shard = (k, 2);
            run(&s, &mut sink).unwrap();
            parts.extend(data::read_files(&[s.out.clone()]).unwrap());
            let _ = std::fs::remove_file(&s.out);
        }
        let mut w: Vec<[u8; 32]> = data::read_files(std::slice::from_ref(&whole))
            .unwrap()
            .iter()
            .map(|r| r.0)
            .collect();
        let mut p: Vec<[u8; 32]> = parts.iter().map(|r| r.0).collect();
        w.sort();
        p.sort();
        assert!(!w.is_empty());
        assert_eq!(w, p);
        let _ = std::fs::remove_file(whole);
        let _ = std::fs::remove_file(temp("games.tsv"));
    }
}
