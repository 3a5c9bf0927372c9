//! Engine-vs-engine matches (`chuhe match`): engine processes speaking UCCI
//! or UCI, real clocks, a referee that applies our own rules, PGN output,
//! Elo with error bars and an SPRT stop.
//!
//! - [`engine`]: the engine process client (handshake, options, `go` in
//!   each dialect, deadlines everywhere, kill on drop);
//! - [`clock`]: time controls and clocks;
//! - [`game`]: one refereed game;
//! - [`openings`]: opening suites (`FEN|moves` lines or PGN; a built-in
//!   default derived from master games);
//! - [`record`]: PGN output;
//! - [`stats`]: Elo, LOS, pentanomial counts, SPRT;
//! - [`json`]: one JSON record per game (`--json`), read back by
//! - [`merge`]: `chuhe match merge`, the summary and PGN of any set of
//!   such files (the shards of one match);
//! - [`tally`]: `chuhe match tally`, an SPRT from pair counts written down
//!   by earlier sessions whose records are gone;
//! - [`report`]: the HTML page of a match (`--report`, rewritten as games
//!   finish, and `chuhe match report` from the records), its charts drawn
//!   by [`plot`];
//! - [`cli`]: the command-line arguments.
//!
//! With two engines the match is one pairing; with more, the first engine
//! plays each of the others (a gauntlet). Each opening is played twice
//! with colours swapped; the two games form a pair for the pentanomial
//! statistics. `--concurrency K` runs K games at once, each worker with its
//! own engine processes. When the SPRT decides, games under way are
//! stopped at their next move and not counted.
//!
//! Shards: `--shard K/N` plays only the opening pairs numbered `K-1`,
//! `K-1+N`, `K-1+2N`, ... of the whole match's plan (pair `p` holds games
//! `2p` and `2p+1` of each pairing), with the openings, colours and game
//! numbers the unsharded run gives them. The plan depends only on the
//! arguments and `--seed`, so N processes on N machines play the whole
//! match between them, each game once, and `chuhe match merge` puts their
//! `--json` files back together.
//!
//! Resume: `--resume` reads the `--json` file of a stopped run, counts its
//! games and plays the rest of the same plan into the same file.

pub mod cli;
pub mod clock;
pub mod engine;
pub mod game;
pub mod json;
pub mod merge;
pub mod openings;
pub mod plot;
pub mod record;
pub mod report;
pub mod stats;
pub mod tally;

use clock::MatchLimits;
use crossbeam_channel::{Receiver, Sender};
use engine::{EngineProcess, EngineSpec, TrafficLog};
use game::{GameRecord, Incident, RefereeSettings};
use openings::{Opening, Order};
use stats::{EloEstimate, Hypothesis, Penta, Sprt, Wdl};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use crate::types::Color;

/// Everything a match needs, checked.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    /// Limits for every engine (each engine's own settings override).
    pub limits: MatchLimits,
    /// Games per pairing.
    pub games: u32,
    pub concurrency: usize,
    pub openings: Vec<Opening>,
    /// Where the openings came from, for the header.
    pub openings_name: String,
    pub order: Order,
    pub seed: u64,
    pub referee: RefereeSettings,
    pub sprt: Option<Sprt>,
    pub pgn: Option<PathBuf>,
    pub log: Option<PathBuf>,
    pub event: String,
    /// `(k, n)`: play only shard `k` of `n` (1-based; `(1, 1)` is the
    /// whole match).
    pub shard: (u32, u32),
    /// Append one JSON record per finished game to this file.
    pub json: Option<PathBuf>,
    /// Count the games already recorded in `json` and play only the rest.
    pub resume: bool,
    /// Write the HTML report here, rewritten as games finish.
    pub report: Option<PathBuf>,
}

/// One game to play: engine `first` against `second`, `first` has Red
/// when `first_is_red`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    /// 0-based game number over the whole match.
    pub number: u32,
    /// Index of the opponent pairing (0 for a two-engine match).
    pub pairing: usize,
    /// Pair number within the pairing: the two games of a pair share it.
    pub pair: u32,
    /// Index of the opening in the suite.
    pub opening: usize,
    pub first: usize,
    pub second: usize,
    pub first_is_red: bool,
}

impl Task {
    /// Engine indices of (Red, Black).
    pub fn colours(&self) -> (usize, usize) {
        if self.first_is_red {
            (self.first, self.second)
        } else {
            (self.second, self.first)
        }
    }

    /// The side the first engine plays.
    pub fn first_side(&self) -> Color {
        if self.first_is_red {
            Color::Red
        } else {
            Color::Black
        }
    }
}

/// The games of this run in the order they are started: the whole match's
/// plan ([`full_plan`]) cut down to the pairs of the configured shard.
pub fn plan(config: &MatchConfig) -> Vec<Task> {
    let (k, n) = config.shard;
    full_plan(config)
        .into_iter()
        .filter(|t| n <= 1 || t.pair % n == k - 1)
        .collect()
}

/// The games of the whole match in the order they are started: for each
/// opening pair, each opponent in turn, both colours.
pub fn full_plan(config: &MatchConfig) -> Vec<Task> {
    let opponents = config.engines.len() - 1;
    let pairs = config.games.div_ceil(2) as usize;
    let order = openings::schedule(config.openings.len(), pairs, config.order, config.seed);
    let mut tasks = Vec::new();
    for (pair, &opening) in order.iter().enumerate() {
        for opp in 0..opponents {
            for g in 0..2u32 {
                if pair as u32 * 2 + g >= config.games {
                    continue;
                }
                tasks.push(Task {
                    number: tasks.len() as u32,
                    pairing: opp,
                    pair: pair as u32,
                    opening,
                    first: 0,
                    second: opp + 1,
                    first_is_red: g == 0,
                });
            }
        }
    }
    tasks
}

enum Message {
    Done(Task, Box<GameRecord>),
    Fatal(String),
}

/// What a worker shares with the others.
struct Shared {
    config: MatchConfig,
    limits: Vec<MatchLimits>,
    log: Option<Arc<TrafficLog>>,
    stop: AtomicBool,
}

fn worker(id: usize, shared: Arc<Shared>, tasks: Receiver<Task>, results: Sender<Message>) {
    let n = shared.config.engines.len();
    let mut engines: Vec<Option<EngineProcess>> = (0..n).map(|_| None).collect();
    let mut starts = 0;
    while let Ok(task) = tasks.recv() {
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        for idx in [task.first, task.second] {
            if engines[idx].is_none() {
                starts += 1;
                let spec = &shared.config.engines[idx];
                match EngineProcess::start(spec, id * 1000 + starts, shared.log.clone()) {
                    Ok(e) => engines[idx] = Some(e),
                    Err(e) => {
                        let _ = results.send(Message::Fatal(format!("{}: {e}", spec.name)));
                        return;
                    }
                }
            }
        }
        let (red, black) = if task.first_is_red {
            (task.first, task.second)
        } else {
            (task.second, task.first)
        };
        let Ok([Some(r), Some(b)]) = engines.get_disjoint_mut([red, black]) else {
            let _ = results.send(Message::Fatal("internal: engine slots".into()));
            return;
        };
        let record = game::play(
            [r, b],
            [&shared.limits[red], &shared.limits[black]],
            &shared.config.openings[task.opening],
            &shared.config.referee,
            &shared.stop,
        );
        for (side, idx) in [(Color::Red, red), (Color::Black, black)] {
            if record.restart[side.index()] {
                // Dropping kills the process; the next game starts afresh.
                engines[idx] = None;
            }
        }
        if results.send(Message::Done(task, Box::new(record))).is_err() {
            return;
        }
    }
}

/// How the report's timing lines begin ([`MatchSummary::report`]).
pub const TIMING_PREFIX: &str = "time ";

/// Tallies per engine: failures, and the time its moves took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineTally {
    pub games: u32,
    pub time_losses: u32,
    pub illegal_moves: u32,
    pub crashes: u32,
    pub hangs: u32,
    /// Moves played and the thinking time they took (from `go` to
    /// `bestmove`, as the referee timed them).
    pub moves: u64,
    pub think_ms: u64,
    /// The depths the engine reported for its moves, summed, and how many
    /// moves reported one: how deep each engine sees in the same time.
    pub depth_sum: u64,
    pub depth_moves: u64,
    /// The least time this engine had left on its clock after a move
    /// (increment included): how close it came to flagging. `None`
    /// without a clock.
    pub lowest_clock_ms: Option<i64>,
}

impl EngineTally {
    /// Average thinking time per move, milliseconds.
    pub fn ms_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.think_ms as f64 / self.moves as f64)
    }

    /// Average reported depth over the moves that reported one.
    pub fn mean_depth(&self) -> Option<f64> {
        (self.depth_moves > 0).then(|| self.depth_sum as f64 / self.depth_moves as f64)
    }

    fn count_move(&mut self, m: &game::MoveRecord) {
        self.moves += 1;
        self.think_ms += m.elapsed_ms;
        if let Some(d) = m.depth {
            self.depth_sum += u64::from(d);
            self.depth_moves += 1;
        }
        if let Some(c) = m.clock_ms {
            self.lowest_clock_ms = Some(self.lowest_clock_ms.map_or(c, |l| l.min(c)));
        }
    }
}

/// Results of the first engine against one opponent.
#[derive(Clone, Debug, Default)]
pub struct PairingResult {
    pub opponent: usize,
    pub wdl: Wdl,
    pub penta: Penta,
    /// The first finished game's points of each pair still waiting for
    /// its partner.
    pending: HashMap<u32, f64>,
}

impl PairingResult {
    /// Elo with its interval: from pairs when there are any, else from
    /// single games.
    pub fn elo(&self) -> Option<EloEstimate> {
        if self.penta.pairs() > 0 {
            stats::elo_pentanomial(&self.penta)
        } else {
            stats::elo_trinomial(&self.wdl)
        }
    }
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub names: Vec<String>,
    pub pairings: Vec<PairingResult>,
    pub tallies: Vec<EngineTally>,
    pub sprt: Option<(Sprt, f64, Option<Hypothesis>)>,
    /// Games by how they ended (PGN `Termination` text).
    pub terminations: BTreeMap<String, u32>,
    pub games_played: u32,
    pub games_planned: u32,
}

/// The live one-line display on stderr: redrawn in place on a terminal,
/// one line per game otherwise.
struct Progress {
    tty: bool,
    width: usize,
}

impl Progress {
    fn line(&mut self, text: &str) {
        let mut err = std::io::stderr().lock();
        if self.tty {
            let pad = self.width.saturating_sub(text.chars().count());
            let _ = write!(err, "\r{text}{}", " ".repeat(pad));
            self.width = text.chars().count();
        } else {
            let _ = writeln!(err, "{text}");
        }
        let _ = err.flush();
    }

    /// A message that stays (an incident, a warning).
    fn note(&mut self, text: &str) {
        let mut err = std::io::stderr().lock();
        if self.tty && self.width > 0 {
            let _ = write!(err, "\r{}\r", " ".repeat(self.width));
            self.width = 0;
        }
        let _ = writeln!(err, "{text}");
    }

    fn finish(&mut self) {
        if self.tty && self.width > 0 {
            let _ = writeln!(std::io::stderr());
            self.width = 0;
        }
    }
}

fn elo_text(e: Option<EloEstimate>) -> String {
    match e {
        Some(e) if e.error().is_finite() => {
            format!("{} ± {:.1}", stats::format_elo(e.elo), e.error())
        }
        Some(e) => format!("{} ± inf", stats::format_elo(e.elo)),
        None => "-".into(),
    }
}

impl MatchSummary {
    /// An empty summary for engines `names` (the first plays the others).
    pub fn new(names: Vec<String>, games_planned: u32, sprt: Option<Sprt>) -> MatchSummary {
        MatchSummary {
            pairings: (1..names.len())
                .map(|opponent| PairingResult {
                    opponent,
                    ..PairingResult::default()
                })
                .collect(),
            tallies: vec![EngineTally::default(); names.len()],
            names,
            sprt: sprt.map(|s| (s, 0.0, None)),
            terminations: BTreeMap::new(),
            games_played: 0,
            games_planned,
        }
    }

    /// Counts one finished game; `false` (nothing counted) when it was
    /// stopped before its end.
    pub fn count(&mut self, task: &Task, game: &GameRecord) -> bool {
        let Some(points) = game.result.points(task.first_side()) else {
            return false;
        };
        let (red, black) = task.colours();
        self.games_played += 1;
        *self
            .terminations
            .entry(game.termination.describe())
            .or_default() += 1;
        let by_colour = [red, black];
        for idx in by_colour {
            self.tallies[idx].games += 1;
        }
        // The game's moves alternate from the side to move after the
        // opening (openings are checked when loaded; one that does not
        // replay gives no time figures).
        if let Ok(start) = game.opening.position() {
            let mut side = start.side_to_move();
            for m in &game.moves {
                self.tallies[by_colour[side.index()]].count_move(m);
                side = !side;
            }
        }
        if let Some((side, incident)) = game.incident {
            let t = &mut self.tallies[by_colour[side.index()]];
            match incident {
                Incident::TimeLoss => t.time_losses += 1,
                Incident::IllegalMove => t.illegal_moves += 1,
                Incident::Crash => t.crashes += 1,
                Incident::Hang => {
                    t.time_losses += 1;
                    t.hangs += 1;
                }
            }
        }
        let p = &mut self.pairings[task.pairing];
        p.wdl.add(points);
        if let Some(other) = p.pending.remove(&task.pair) {
            p.penta.add_pair(other, points);
        } else {
            p.pending.insert(task.pair, points);
        }
        true
    }

    /// Whether an SPRT runs and has decided.
    pub fn sprt_decided(&self) -> bool {
        self.sprt.is_some_and(|(_, _, decision)| decision.is_some())
    }

    /// Recomputes the SPRT's LLR from the pairs counted so far; `true`
    /// when the test has decided.
    pub fn update_sprt(&mut self) -> bool {
        match self.sprt.as_mut() {
            Some((sprt, llr, decision)) => {
                *llr = sprt.llr_pentanomial(&self.pairings[0].penta);
                *decision = sprt.decide(*llr);
                decision.is_some()
            }
            None => false,
        }
    }

    /// The live progress line: `[played/planned] A vs B: W .. D .. L ..
    /// (score) Elo .. ± ..` and the LLR with its bounds.
    pub fn progress_line(&self) -> String {
        let mut s = format!("[{}/{}]", self.games_played, self.games_planned);
        for p in &self.pairings {
            let score = p.wdl.score().map(|x| x * 100.0).unwrap_or(50.0);
            let _ = write!(
                s,
                " {} vs {}: W {} D {} L {} ({score:.1}%) Elo {}",
                self.names[0],
                self.names[p.opponent],
                p.wdl.wins,
                p.wdl.draws,
                p.wdl.losses,
                elo_text(p.elo())
            );
        }
        if let Some((sprt, llr, _)) = self.sprt {
            let (lo, hi) = sprt.bounds();
            let _ = write!(s, " LLR {llr:.2} ({lo:.2}, {hi:.2})");
        }
        s
    }

    /// The final report.
    pub fn report(&self) -> String {
        let mut s = String::new();
        for p in &self.pairings {
            let (a, b) = (&self.names[0], &self.names[p.opponent]);
            let score = p.wdl.score().map(|x| x * 100.0).unwrap_or(50.0);
            let _ = writeln!(
                s,
                "{a} vs {b}: {} games, W {} D {} L {} ({score:.1}%)",
                p.wdl.games(),
                p.wdl.wins,
                p.wdl.draws,
                p.wdl.losses
            );
            let unit = if p.penta.pairs() > 0 {
                let n = p.penta.pairs();
                format!("pentanomial, {n} pair{}", if n == 1 { "" } else { "s" })
            } else {
                "trinomial".to_string()
            };
            let _ = writeln!(
                s,
                "  Elo {} (95%, {unit}), LOS {:.1}%",
                elo_text(p.elo()),
                stats::los(&p.wdl) * 100.0
            );
            if p.penta.pairs() > 0 {
                let _ = writeln!(
                    s,
                    "  trinomial Elo {} (95%, games as independent)",
                    elo_text(stats::elo_trinomial(&p.wdl))
                );
            }
            let c = p.penta.0;
            let _ = writeln!(
                s,
                "  pairs by {a}'s points [0, 0.5, 1, 1.5, 2]: {} {} {} {} {}",
                c[0], c[1], c[2], c[3], c[4]
            );
        }
        if let Some((sprt, llr, decision)) = self.sprt {
            let _ = writeln!(s, "{}", sprt.summary_line(llr, decision));
        }
        let ends: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(s, "terminations: {}", ends.join(", "));
        let w = self
            .names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        let _ = writeln!(
            s,
            "{:<w$}  games  time losses  illegal moves  crashes  hangs",
            "engine"
        );
        for (name, t) in self.names.iter().zip(&self.tallies) {
            let _ = writeln!(
                s,
                "{name:<w$}  {:>5}  {:>11}  {:>13}  {:>7}  {:>5}",
                t.games, t.time_losses, t.illegal_moves, t.crashes, t.hangs
            );
        }
        // Timings last and on lines of their own: they are the one part of
        // the report that a replay of the same games does not reproduce.
        for (name, t) in self.names.iter().zip(&self.tallies) {
            if let Some(ms) = t.ms_per_move() {
                let depth = t
                    .mean_depth()
                    .map_or(String::new(), |d| format!(", depth {d:.1}"));
                let lowest = t
                    .lowest_clock_ms
                    .map_or(String::new(), |c| format!(", lowest clock {c} ms"));
                let _ = writeln!(
                    s,
                    "{TIMING_PREFIX}{name}: {ms:.0} ms/move over {} moves{depth}{lowest}",
                    t.moves
                );
            }
        }
        s
    }
}

/// Opens `path` for appending (creating it), if one is given.
fn open_append(path: Option<&PathBuf>) -> Result<Option<File>, String> {
    path.map(|path| {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))
    })
    .transpose()
}

/// How often a running match rewrites its report, at most: a page of
/// hundreds of games takes a moment to write.
const REPORT_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// The report of a running match: its games so far and when the page was
/// last written.
struct LiveReport {
    path: PathBuf,
    page: report::Page,
    written: Option<std::time::Instant>,
}

impl LiveReport {
    fn write(&mut self, live: bool) -> Result<(), String> {
        self.written = Some(std::time::Instant::now());
        self.page.write(&self.path, live)
    }
}

/// Where finished games go: the PGN file, the JSON records and the report,
/// each when asked for.
struct Outputs {
    pgn: Option<File>,
    json: Option<File>,
    report: Option<LiveReport>,
    match_id: json::MatchId,
    /// Each engine's play settings, recorded with every game.
    settings: Vec<String>,
    event: String,
    shard: (u32, u32),
    date: String,
    names: Vec<String>,
    /// Each engine's time control as the PGN `TimeControl` tag writes it.
    time_controls: Vec<String>,
}

impl Outputs {
    fn open(config: &MatchConfig, limits: &[MatchLimits]) -> Result<Outputs, String> {
        Ok(Outputs {
            pgn: open_append(config.pgn.as_ref())?,
            json: open_append(config.json.as_ref())?,
            report: config.report.clone().map(|path| LiveReport {
                path,
                page: report::Page::new(config.sprt),
                written: None,
            }),
            match_id: json::MatchId::of(config),
            settings: config.engines.iter().map(|e| e.play_settings()).collect(),
            event: config.event.clone(),
            shard: config.shard,
            date: record::today(),
            names: config.engines.iter().map(|e| e.name.clone()).collect(),
            time_controls: limits.iter().map(MatchLimits::pgn_time_control).collect(),
        })
    }

    fn header(&self, task: &Task) -> record::Header {
        let (red, black) = task.colours();
        let tc = &self.time_controls;
        record::Header {
            event: self.event.clone(),
            site: "?".into(),
            date: self.date.clone(),
            round: (task.number + 1).to_string(),
            red: self.names[red].clone(),
            black: self.names[black].clone(),
            time_control: if tc[red] == tc[black] {
                tc[red].clone()
            } else {
                format!("{} / {}", tc[red], tc[black])
            },
        }
    }

    /// The JSON record of a finished game.
    fn record(&self, task: &Task, game: &GameRecord) -> json::GameLine {
        json::GameLine::new(
            &self.match_id,
            &self.settings,
            self.shard,
            task,
            &self.header(task),
            game,
        )
    }

    /// Writes a finished game to each output; the first failure, if any.
    fn write(&mut self, task: &Task, game: &GameRecord) -> Result<(), String> {
        let header = self.header(task);
        let mut failure = None;
        if let Some(out) = self.pgn.as_mut()
            && let Err(e) = record::write_game(out, &header, game).and_then(|()| out.flush())
        {
            failure.get_or_insert(format!("writing the PGN: {e}"));
        }
        if self.json.is_some() || self.report.is_some() {
            let line = self.record(task, game);
            if let Some(out) = self.json.as_mut()
                && let Err(e) = line.write(out)
            {
                failure.get_or_insert(format!("writing the JSON records: {e}"));
            }
            if let Some(r) = self.report.as_mut() {
                r.page.add(line);
                if r.written.is_none_or(|t| t.elapsed() >= REPORT_EVERY)
                    && let Err(e) = r.write(true)
                {
                    failure.get_or_insert(format!("writing the report: {e}"));
                }
            }
        }
        failure.map_or(Ok(()), Err)
    }
}

/// The games of this run already recorded in the `--json` file, for
/// `--resume`: each with its task in the plan, in game order, each once.
///
/// Every record must belong to this match and shard and agree with the
/// plan (opening and colours), the time control and the engines' play
/// settings (options, threads, hash...; records written before settings
/// were recorded are taken on trust, with a warning), so a resumed run
/// counts exactly the games the first run played and plays the rest as it
/// would have. A last line cut short (the runner killed while writing) is
/// removed from the file before the new records are appended after the
/// good ones.
fn recorded_games(
    config: &MatchConfig,
    tasks: &[Task],
    outputs: &Outputs,
) -> Result<Vec<(Task, GameRecord, json::GameLine)>, String> {
    let Some(path) = config.json.as_ref().filter(|_| config.resume) else {
        return Ok(Vec::new());
    };
    // `Outputs::open` has created the file if there was none.
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        // Appending after a partial line would corrupt the record after it.
        OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(whole as u64))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("{}: unfinished last line removed", path.display());
    }
    let id = json::MatchId::of(config);
    let shard = [config.shard.0, config.shard.1];
    let mut games = BTreeMap::new();
    let mut unsettled = 0;
    for (at, g) in merge::read_files(std::slice::from_ref(path), &mut Vec::new())? {
        if g.id != id || g.shard != shard {
            return Err(format!(
                "{at}: a game of another match ({} seed {}, {} games, shard {}/{}) than this one \
                 ({} seed {}, {} games, shard {}/{}): --resume needs the arguments the match was started with",
                g.id.engines.join(" vs "),
                g.id.seed,
                g.id.games,
                g.shard[0],
                g.shard[1],
                id.engines.join(" vs "),
                id.seed,
                id.games,
                shard[0],
                shard[1]
            ));
        }
        let task = g.task();
        // `tasks` is in game-number order (a shard keeps the plan's order).
        let planned = tasks.binary_search_by_key(&task.number, |t| t.number);
        if planned.map(|i| &tasks[i]) != Ok(&task) {
            return Err(format!(
                "{at}: game {} does not fit this match's plan (another opening suite?)",
                task.number + 1
            ));
        }
        let tc = outputs.header(&task).time_control;
        if g.time_control != tc {
            return Err(format!(
                "{at}: game {} was played at {}, this run plays {tc}",
                task.number + 1,
                g.time_control
            ));
        }
        match &g.settings {
            None => unsettled += 1,
            Some(s) if *s != outputs.settings => {
                return Err(format!(
                    "{at}: game {} was played with engine settings [{}], this run sets [{}]",
                    task.number + 1,
                    s.join("; "),
                    outputs.settings.join("; ")
                ));
            }
            Some(_) => {}
        }
        let record = g.record()?;
        games.entry(task.number).or_insert((task, record, g));
    }
    if unsettled > 0 {
        eprintln!(
            "{}: {unsettled} records do not say the engines' settings (written by an older \
             chuhe): taken as this run's",
            path.display()
        );
    }
    Ok(games.into_values().collect())
}

/// The line that opens a match on stderr.
fn match_line(config: &MatchConfig, limits: &[MatchLimits], games: usize) -> String {
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let described: Vec<String> = limits.iter().map(MatchLimits::describe).collect();
    let (k, n) = config.shard;
    format!(
        "Match: {} ({} games per pairing{}, {}), openings {} ({} lines, {} order, seed {}), concurrency {}",
        names.join(" vs "),
        config.games,
        if n > 1 {
            format!("; shard {k}/{n}: {games} games")
        } else {
            String::new()
        },
        if described.iter().all(|t| *t == described[0]) {
            described[0].clone()
        } else {
            described.join(" / ")
        },
        config.openings_name,
        config.openings.len(),
        match config.order {
            Order::Random => "random",
            Order::Sequential => "sequential",
        },
        config.seed,
        config.concurrency
    )
}

/// A warning when the match will replay games: with every engine limited
/// by depth or nodes alone on one thread, an opening played again gives the
/// same pair of games, which counts one result twice and makes the Elo
/// interval look narrower than the evidence is.
pub fn repeated_games_warning(config: &MatchConfig) -> Option<String> {
    let pairs = config.games.div_ceil(2) as usize;
    let repeatable = config.engines.iter().all(|e| {
        e.threads.unwrap_or(1) <= 1 && config.limits.overridden_by(&e.limits).is_repeatable()
    });
    (repeatable && pairs > config.openings.len()).then(|| {
        format!(
            "warning: {pairs} game pairs from {} openings at fixed depth or nodes: a repeated \
             opening replays the same games, and the interval counts them as new; use a wider \
             suite (--openings book/openings-wide.txt) or fewer games",
            config.openings.len()
        )
    })
}

/// Runs a match and returns its results. Progress goes to stderr.
pub fn run(config: MatchConfig) -> Result<MatchSummary, String> {
    let log = match &config.log {
        Some(path) => Some(Arc::new(
            TrafficLog::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        None => None,
    };
    let tasks = plan(&config);
    let limits: Vec<MatchLimits> = config
        .engines
        .iter()
        .map(|e| config.limits.overridden_by(&e.limits))
        .collect();
    let mut outputs = Outputs::open(&config, &limits)?;
    let recorded = recorded_games(&config, &tasks, &outputs)?;
    let names = outputs.names.clone();
    let mut summary = MatchSummary::new(names.clone(), tasks.len() as u32, config.sprt);
    let mut progress = Progress {
        tty: std::io::stderr().is_terminal(),
        width: 0,
    };
    progress.note(&match_line(&config, &limits, tasks.len()));
    if let Some(warning) = repeated_games_warning(&config) {
        progress.note(&warning);
    }
    for (task, game, line) in &recorded {
        summary.count(task, game);
        if let Some(r) = outputs.report.as_mut() {
            r.page.add(line.clone());
        }
    }
    // The page is there from the start (with the resumed games, if any);
    // the first finished game rewrites it at once.
    if let Some(r) = &outputs.report {
        r.page.write(&r.path, true)?;
    }
    if config.resume {
        summary.update_sprt();
        progress.note(&format!(
            "Resumed: {} games already recorded; {}",
            recorded.len(),
            summary.progress_line()
        ));
    }
    let played: std::collections::HashSet<u32> =
        recorded.iter().map(|(t, _, _)| t.number).collect();
    let tasks: Vec<Task> = if summary.sprt_decided() {
        Vec::new()
    } else {
        tasks
            .into_iter()
            .filter(|t| !played.contains(&t.number))
            .collect()
    };

    let shared = Arc::new(Shared {
        config: config.clone(),
        limits,
        log,
        stop: AtomicBool::new(false),
    });
    let (task_tx, task_rx) = crossbeam_channel::unbounded();
    for t in &tasks {
        let _ = task_tx.send(*t);
    }
    drop(task_tx);
    let (res_tx, res_rx) = crossbeam_channel::unbounded();
    let workers: Vec<_> = (0..config.concurrency.min(tasks.len()).max(1))
        .map(|id| {
            let (shared, rx, tx) = (shared.clone(), task_rx.clone(), res_tx.clone());
            thread::spawn(move || worker(id, shared, rx, tx))
        })
        .collect();
    drop(res_tx);

    // The first fatal error stops the match and is its answer.
    let mut fatal = None;
    let mut fail = |e: String| {
        fatal.get_or_insert(e);
        shared.stop.store(true, Ordering::Relaxed);
    };
    for msg in res_rx.iter() {
        let (task, game) = match msg {
            Message::Fatal(e) => {
                fail(e);
                continue;
            }
            Message::Done(task, game) => (task, game),
        };
        if summary.sprt_decided() {
            // Finished after the SPRT decided (it was already under way):
            // the decision stands on the games before it.
            continue;
        }
        if !summary.count(&task, &game) {
            continue; // aborted by a stop: not counted, not written
        }
        if let Some(detail) = &game.detail {
            progress.note(&format!("game {}: {detail}", task.number + 1));
        }
        if summary.update_sprt() {
            shared.stop.store(true, Ordering::Relaxed);
        }
        if let Err(e) = outputs.write(&task, &game) {
            fail(e);
        }
        if !progress.tty {
            let (red, black) = task.colours();
            progress.line(&format!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                task.number + 1,
                names[red],
                names[black],
                game.result.pgn(),
                game.termination.describe()
            ));
        }
        progress.line(&summary.progress_line());
    }
    for w in workers {
        let _ = w.join();
    }
    progress.finish();
    if let Some(r) = outputs.report.as_mut()
        && let Err(e) = r.write(false)
    {
        fatal.get_or_insert(format!("writing the report: {e}"));
    }
    match fatal {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

/// `chuhe match`: runs the match and prints the summary on stdout;
/// `chuhe match merge`: merges record files.
pub fn run_cli(args: &cli::MatchArgs) -> Result<(), String> {
    if let Some(m) = &args.merge {
        return merge::run_cli(m);
    }
    if let Some(r) = &args.report {
        return report::run_cli(r);
    }
    if let Some(t) = &args.tally {
        return tally::run_cli(t);
    }
    let config = args.to_config()?;
    let summary = run(config)?;
    print!("{}", summary.report());
    Ok(())
}
