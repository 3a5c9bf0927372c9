//! The protocol layer: UCCI and UCI on a byte stream in and a byte stream
//! out (stdin/stdout for the binary).
//!
//! A reader thread cuts the input into lines and forwards them over one
//! channel; the search's reports arrive over the same channel, so the
//! session sees input and output in the order they happened and is the one
//! writer of the output. `stop`, `ponderhit`, `isready` and `quit` are
//! handled while a search runs because the session never blocks on the
//! search; it only blocks on the channel.
//!
//! The first `ucci`, `uci` or `xboard` picks the dialect (a later one
//! switches); before any, replies are in UCCI. UCCI and UCI accept every
//! spelling in `parse`; only printing differs (`ucci.rs`, `uci.rs`). CECP
//! (`cecp.rs`) has its own commands and keeps the game itself.

pub mod cecp;
pub mod options;
pub mod parse;
pub mod ucci;
pub mod uci;

use crate::engine::{Engine, GoOutcome, GoRequest};
use crate::eval;
use crate::movegen;
use crate::options::RankNumbering;
use crate::position::Position;
use crate::record::ranks::Ranks;
use crate::replay::{self, Accept, BadMove, is_legal_move as is_legal};
use crate::search::{IterationInfo, Report, Reporter};
use crate::text;
use crate::time::{Clock, Limits};
use crate::tt::TtHit;
use crate::types::*;
use crate::wdl;
use crate::{bench, perft};
use crossbeam_channel::{Receiver, Sender, unbounded};
use options::Effect;
use parse::{Base, Command, GoParams, OptionSpec, PositionSpec, parse_command, quote};
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::sync::Arc;

/// The engine's name and version (`chuhe` + [`crate::VERSION`]): the UCCI
/// and UCI `id name`, the CECP `myname`, the `--version` line.
pub const NAME_LINE: &str = concat!("chuhe ", env!("CHUHE_VERSION"));
pub const AUTHORS: &str = "the chuhe authors";

/// Longest input line obeyed; a longer one is dropped with a diagnostic.
/// A game of ten thousand moves still fits.
pub const MAX_LINE: usize = 64 * 1024;
/// Deepest `perft`/`divide` the protocol runs (they block the input loop;
/// `chuhe perft` on the command line has no such cap).
pub const MAX_PERFT_DEPTH: u32 = 5;
pub const MAX_BENCH_DEPTH: i32 = 20;
/// Deepest `go depth` honoured (the search's own ceiling).
const MAX_GO_DEPTH: i64 = (MAX_PLY - 8) as i64;

/// An offered draw is accepted when our score lies within this of zero.
pub const DRAW_ACCEPT: Score = 20;
/// With a clock running, resign after `RESIGN_MOVES` searches in a row
/// scoring at most `RESIGN_SCORE` (a chariot and a half down), or after
/// `RESIGN_MATED_MOVES` in a row that found a forced loss.
pub const RESIGN_SCORE: Score = -1500;
pub const RESIGN_MOVES: u32 = 4;
pub const RESIGN_MATED_MOVES: u32 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Ucci,
    Uci,
    /// XBoard/WinBoard (`xboard`, then `protover 2`).
    Cecp,
}

enum Event {
    Line(String),
    /// A line longer than `MAX_LINE`, with its length; its text is dropped.
    /// Whether it was a `position` line goes with it.
    TooLong {
        len: usize,
        position: bool,
    },
    Eof,
    Report(Report),
}

/// A `bestmove` owed to the host, in the order the searches were started.
struct Pending {
    root: Position,
    draw_offered: bool,
    clocked: bool,
    /// Still waiting for `ponderhit`: a `stop` now is a ponder miss, whose
    /// answer the host throws away.
    pondering: bool,
    /// Answered from the book (its weight), not searched.
    book_weight: Option<u32>,
    /// The rank numbering the host's `position` was read in: the answer
    /// is written in it.
    ranks: Ranks,
}

/// Runs the protocol until `quit` or the end of `input`. Returns when the
/// session is over; the engine's threads are joined on the way out.
pub fn run<R: Read + Send + 'static, W: Write>(input: R, output: W) {
    run_with(input, output, |_| {});
}

/// `run`, with a hook to adjust the engine before the session starts.
fn run_with<R: Read + Send + 'static, W: Write>(
    input: R,
    output: W,
    configure: impl FnOnce(&mut Engine),
) {
    let (tx, rx) = unbounded();
    spawn_reader(input, tx.clone());
    let report_tx = tx.clone();
    let reporter: Reporter = Arc::new(move |r| {
        let _ = report_tx.send(Event::Report(r));
    });
    let mut engine = Engine::new(reporter);
    configure(&mut engine);
    let mut session = Session {
        out: output,
        dialect: Dialect::Ucci,
        engine,
        tx,
        rx,
        pending: VecDeque::new(),
        deferred: VecDeque::new(),
        eof: false,
        quitting: false,
        broken: false,
        lost_streak: 0,
        mated_streak: 0,
        cecp: cecp::State::default(),
        seen_ranks: Ranks::FromZero,
        no_position: None,
    };
    session.run_loop();
}

/// `run` on the process's stdin and stdout.
pub fn run_stdio() {
    run(std::io::stdin(), std::io::stdout());
}

/// Starts the input thread: lines of at most `MAX_LINE` bytes (a longer
/// one is reported by its length), then `Eof` (also on a read error).
fn spawn_reader<R: Read + Send + 'static>(input: R, tx: Sender<Event>) {
    let end_tx = tx.clone();
    let fallback = tx.clone();
    let line = move |bytes: &[u8], len: usize| {
        let event = if len > MAX_LINE {
            let head = parse::clean_line(&bytes[..bytes.len().min(64)]);
            Event::TooLong {
                len,
                position: parse::is_position_line(&head),
            }
        } else {
            Event::Line(parse::clean_line(bytes))
        };
        tx.send(event).is_ok()
    };
    let end = move |error: Option<std::io::Error>| {
        if let Some(e) = error {
            log::warn!("input: {e}");
        }
        let _ = end_tx.send(Event::Eof);
    };
    if text::spawn_line_reader("input", input, MAX_LINE, line, end).is_err() {
        log::error!("cannot start the input thread");
        let _ = fallback.send(Event::Eof);
    }
}

/// ` wdl W D L`, or nothing.
pub fn wdl_text(wdl: Option<(u32, u32, u32)>) -> String {
    wdl.map(|(w, d, l)| format!(" wdl {w} {d} {l}"))
        .unwrap_or_default()
}

pub fn move_list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

struct Session<W: Write> {
    out: W,
    dialect: Dialect,
    engine: Engine,
    /// The session's own way into the channel, for answers that must queue
    /// behind reports already sent (a book move after a stopped search).
    tx: Sender<Event>,
    rx: Receiver<Event>,
    pending: VecDeque<Pending>,
    /// Batch mode: lines held back until the running search has answered.
    deferred: VecDeque<String>,
    eof: bool,
    quitting: bool,
    /// The output is gone (the host closed the pipe).
    broken: bool,
    lost_streak: u32,
    mated_streak: u32,
    /// The game and its settings while the dialect is CECP.
    cecp: cecp::State,
    /// The rank numbering `auto` has settled on (see [`crate::record::ranks`]).
    seen_ranks: Ranks,
    /// Why the last `position` was refused: until the next good one there
    /// is no position, and `go` gets no move.
    no_position: Option<String>,
}

impl<W: Write> Session<W> {
    fn run_loop(&mut self) {
        loop {
            if self.broken {
                break;
            }
            if self.eof {
                self.stop_unending_search();
            }
            if self.pending.is_empty() {
                if !self.quitting
                    && let Some(line) = self.deferred.pop_front()
                {
                    self.line(&line);
                    continue;
                }
                if self.quitting || self.eof {
                    break;
                }
            }
            let Ok(event) = self.rx.recv() else {
                break;
            };
            match event {
                Event::Report(r) => self.report(r),
                Event::Line(_) | Event::TooLong { .. } if self.quitting => {}
                Event::Line(l) => {
                    if self.holds_input() {
                        self.deferred.push_back(l);
                    } else {
                        self.line(&l);
                    }
                }
                Event::TooLong { len, position } => {
                    let why = format!("line of {len} bytes ignored: longer than {MAX_LINE} bytes");
                    if position && self.dialect != Dialect::Cecp {
                        self.reject_position(why);
                    } else {
                        self.diag(&why);
                    }
                }
                Event::Eof => self.eof = true,
            }
        }
        // Whatever still runs (the host went away mid-search) is stopped;
        // its reports have nowhere to go.
        self.engine.stop();
        self.engine.wait();
        // Only `quit` or the end of input get here with the output intact.
        if self.dialect == Dialect::Ucci {
            self.emit("bye");
        }
    }

    /// End of input: a finite search may finish, but one that would wait
    /// for a `stop` or `ponderhit` that can no longer come is stopped.
    fn stop_unending_search(&mut self) {
        if self.engine.is_searching() && self.engine.runs_unbounded() {
            self.engine.stop();
        }
    }

    /// UCCI batch mode: input waits while a finite search runs, or while
    /// an answer given without a search (book, no legal move) is on its way.
    fn holds_input(&self) -> bool {
        self.engine.options.batch
            && !self.pending.is_empty()
            && !(self.engine.is_searching() && self.engine.runs_unbounded())
    }

    // ---------------------------------------------------------------------
    // Output

    fn emit(&mut self, line: &str) {
        if self.broken {
            return;
        }
        log::debug!(">> {line}");
        let written = self
            .out
            .write_all(line.as_bytes())
            .and_then(|()| self.out.write_all(b"\n"))
            .and_then(|()| self.out.flush());
        if let Err(e) = written {
            log::warn!("output closed: {e}");
            self.broken = true;
            self.engine.stop();
        }
    }

    /// Win/draw/loss chances for an iteration's score, when the host asked
    /// for them (`UCI_ShowWDL`), judged on the searched position's material.
    fn wdl(&self, i: &IterationInfo) -> Option<(u32, u32, u32)> {
        if !self.engine.options.show_wdl {
            return None;
        }
        let root = self
            .pending
            .front()
            .map_or(self.engine.position(), |p| &p.root);
        Some(wdl::wdl(i.score, wdl::material(root)))
    }

    /// A diagnostic or message for the user, one line.
    fn diag(&mut self, text: &str) {
        let line = match self.dialect {
            Dialect::Ucci => ucci::message(text),
            Dialect::Uci => uci::message(text),
            Dialect::Cecp => cecp::comment(text),
        };
        self.emit(&line);
    }

    /// The numbering of the position being searched, for its reports.
    fn searched_ranks(&self) -> Ranks {
        self.pending.front().map_or(self.ranks(), |p| p.ranks)
    }

    fn report(&mut self, r: Report) {
        if self.dialect == Dialect::Cecp {
            return self.cecp_report(r);
        }
        match r {
            Report::Iteration(i) => {
                let wdl = self.wdl(&i);
                let ranks = self.searched_ranks();
                let line = match self.dialect {
                    Dialect::Ucci => ucci::iteration(&i, wdl, ranks),
                    _ => uci::iteration(&i, wdl, ranks),
                };
                self.emit(&line);
            }
            Report::CurrentMove { depth, mv, number } => {
                let ranks = self.searched_ranks();
                let line = match self.dialect {
                    Dialect::Ucci => ucci::current_move(mv, number, ranks),
                    _ => uci::current_move(depth, mv, number, ranks),
                };
                self.emit(&line);
            }
            Report::Message(text) => self.diag(&text),
            Report::BestMove {
                best,
                ponder,
                score,
                ..
            } => self.best_move(best, ponder, score),
        }
    }

    fn best_move(&mut self, best: Option<Move>, ponder: Option<Move>, score: Score) {
        let pending = self.pending.pop_front();
        let ranks = pending.as_ref().map_or(self.ranks(), |p| p.ranks);
        if let (Some(p), Some(mv)) = (&pending, best)
            && let Some(w) = p.book_weight
        {
            let mv = ranks.write(mv);
            self.diag(&format!("book move {mv} weight {w}"));
        }
        let ponder = match (ponder, best, &pending) {
            (Some(p), _, _) => Some(p),
            (None, Some(b), Some(p)) if p.book_weight.is_none() => {
                self.engine.ponder_guess(&p.root, b)
            }
            _ => None,
        };
        let suffix = match (&pending, best) {
            (Some(p), Some(_)) if p.book_weight.is_none() => self.verdict(p, score),
            _ => None,
        };
        let line = match self.dialect {
            Dialect::Ucci => ucci::best_move(best, ponder, suffix, ranks),
            _ => uci::best_move(best, ponder, ranks),
        };
        self.emit(&line);
    }

    /// `draw` when a draw was offered and the score is level; `resign` when
    /// a clocked game has been clearly lost for several moves.
    fn verdict(&mut self, p: &Pending, score: Score) -> Option<&'static str> {
        // A ponder miss is not our move, and a search stopped before its
        // first iteration has no score worth judging.
        if p.pondering || score.abs() > MATE {
            return None;
        }
        if p.clocked {
            self.mated_streak = if score <= -DECISIVE_BOUND {
                self.mated_streak + 1
            } else {
                0
            };
            self.lost_streak = if score <= RESIGN_SCORE {
                self.lost_streak + 1
            } else {
                0
            };
        }
        if p.draw_offered && score.abs() <= DRAW_ACCEPT {
            Some("draw")
        } else if p.clocked
            && (self.mated_streak >= RESIGN_MATED_MOVES || self.lost_streak >= RESIGN_MOVES)
        {
            Some("resign")
        } else {
            None
        }
    }

    // ---------------------------------------------------------------------
    // Input

    fn line(&mut self, text: &str) {
        log::debug!("<< {text}");
        if self.dialect == Dialect::Cecp {
            return self.cecp_line(text);
        }
        match parse_command(text) {
            Ok(None) => {}
            Ok(Some(cmd)) => self.command(cmd),
            // A `position` line we cannot even parse still means the host
            // has moved on from the old position.
            Err(e) if parse::is_position_line(text) => self.reject_position(e),
            Err(e) => self.diag(&e),
        }
    }

    fn command(&mut self, cmd: Command) {
        match cmd {
            Command::Ucci => {
                self.dialect = Dialect::Ucci;
                for l in ucci::handshake(&self.engine.options) {
                    self.emit(&l);
                }
            }
            Command::Uci => {
                self.dialect = Dialect::Uci;
                for l in uci::handshake(&self.engine.options) {
                    self.emit(&l);
                }
            }
            Command::Xboard => {
                self.dialect = Dialect::Cecp;
                self.cecp_start();
            }
            Command::IsReady => {
                if !self.searching()
                    && let Some(note) = self.engine.prepare()
                {
                    self.diag(&note);
                }
                self.emit("readyok");
            }
            Command::Debug(on) => self.engine.options.debug = on,
            Command::SetOption(spec) => self.set_option(spec),
            Command::NewGame => self.new_game(),
            Command::Position(spec) => self.set_position(&spec),
            Command::BanMoves(words) => self.ban_moves(&words),
            Command::Go(g) => self.go(*g),
            Command::PonderHit { draw } => {
                if self.engine.is_pondering() {
                    if let Some(p) = self.pending.back_mut() {
                        p.draw_offered |= draw;
                        p.pondering = false;
                    }
                    self.engine.ponderhit();
                } else {
                    self.diag("ponderhit ignored: no search is pondering");
                }
            }
            Command::Stop => {
                if !self.pending.is_empty() {
                    self.engine.stop();
                } else if self.dialect == Dialect::Ucci {
                    self.emit("nobestmove");
                }
            }
            Command::Probe(spec) => self.probe(spec.as_ref()),
            Command::Quit => {
                self.quitting = true;
                self.engine.stop();
            }
            Command::Register => {}
            Command::Help => {
                for l in HELP {
                    self.emit(l);
                }
            }
            Command::Display => self.display(),
            Command::Eval => {
                if self.lacks_position("eval") {
                    return;
                }
                self.emit(&format!(
                    "evaluation: {}: {} for the side to move",
                    self.engine.evaluation_name(),
                    self.engine.static_evaluation()
                ));
                self.emit("classical evaluation terms:");
                let text = eval::describe(self.engine.position());
                for l in text.lines() {
                    self.emit(l);
                }
            }
            Command::Perft(d) => {
                if !self.busy("perft") {
                    self.perft(d, false);
                }
            }
            Command::Divide(d) => {
                if !self.busy("divide") {
                    self.perft(d, true);
                }
            }
            Command::Bench(d) => {
                if self.busy("bench") {
                    return;
                }
                let depth = d.unwrap_or(bench::DEFAULT_DEPTH).clamp(1, MAX_BENCH_DEPTH);
                if let Err(e) = bench::run(depth, &mut self.out) {
                    log::warn!("bench output: {e}");
                    self.broken = true;
                }
            }
        }
    }

    /// Whether a search is still running. Once every `go` has had its
    /// answer the search is over, though its threads may still be finishing
    /// the few instructions after their report: wait those out, so that a
    /// command sent right after `bestmove` never finds the engine busy.
    fn searching(&mut self) -> bool {
        if self.pending.is_empty() {
            self.engine.wait();
            return false;
        }
        self.engine.is_searching()
    }

    /// Tools that block the input loop refuse to run under a search.
    fn busy(&mut self, what: &str) -> bool {
        let busy = self.searching();
        if busy {
            self.diag(&format!(
                "{what} ignored: a search is running (stop it first)"
            ));
        }
        busy
    }

    fn new_game(&mut self) {
        self.engine.new_game();
        self.lost_streak = 0;
        self.mated_streak = 0;
    }

    fn set_option(&mut self, spec: OptionSpec) {
        let (def, value, silent) = match spec {
            OptionSpec::Named { name, value } => match options::find(&name) {
                Some(d) => (d, value, options::silent_name(&name)),
                None => return self.set_tunable(&name, value.as_deref()),
            },
            OptionSpec::Bare(words) => match options::split_bare(&words) {
                Some((d, value)) => (d, value, options::silent_name(&words[0])),
                None => {
                    let name = words.first().map(String::as_str).unwrap_or("");
                    let value = words.get(1..).map(|w| w.join(" "));
                    return self.set_tunable(name, value.as_deref());
                }
            },
        };
        match self.set_option_def(def, value.as_deref()) {
            Ok(()) => {}
            Err(_) if silent => {}
            Err(e) => self.diag(&e),
        }
    }

    /// Sets one option; notes go to the host, a refused value comes back.
    fn set_option_def(
        &mut self,
        def: &'static options::OptionDef,
        value: Option<&str>,
    ) -> Result<(), String> {
        match options::apply(def, value, &mut self.engine.options)? {
            Effect::Stored if def.id == options::OptionId::EvalFile => {
                // Read the network now, so a bad file is reported at once.
                match self.engine.load_network() {
                    Ok(summary) if self.engine.options.debug => self.diag(&summary),
                    Ok(_) => {}
                    Err(e) => return Err(e),
                }
            }
            Effect::Stored if def.id == options::OptionId::BookFiles => {
                // Read the books now, so a bad path is reported at once.
                match self.engine.load_book() {
                    Ok(summary) if self.engine.options.debug => self.diag(&summary),
                    Ok(_) => {}
                    Err(e) => return Err(e),
                }
            }
            Effect::Stored => {
                let resizes = matches!(
                    def.id,
                    options::OptionId::HashSize | options::OptionId::Threads
                );
                if resizes && self.searching() {
                    self.diag(&format!(
                        "{} takes effect after the current search",
                        def.ucci
                    ));
                }
            }
            Effect::Note(n) => self.diag(&n),
            Effect::NewGame => self.new_game(),
            Effect::ClearHash => self.engine.clear_hash(),
        }
        Ok(())
    }

    /// The search's tunables are hidden options (for SPSA tuners): set one,
    /// or say that no option has this name.
    fn set_tunable(&mut self, name: &str, value: Option<&str>) {
        match self.engine.options.tunables.set_by_name(name, value) {
            Some(Ok(())) => {}
            Some(Err(e)) => self.diag(&format!("option {e}")),
            None => self.diag(&format!("unknown option {}", quote(name))),
        }
    }

    fn ban_moves(&mut self, words: &[String]) {
        if self.lacks_position("banmoves") {
            return;
        }
        let ranks = self.ranks();
        let pos = self.engine.position();
        let mut banned = Vec::new();
        let mut bad = Vec::new();
        for w in words {
            let read = ranks.read(w).ok();
            match read.and_then(|w| replay::read_move(pos, &w, Accept::Iccs).ok()) {
                Some(m) => banned.push(m),
                None => bad.push(quote(w)),
            }
        }
        self.engine.set_banned(banned);
        if !bad.is_empty() {
            self.diag(&format!(
                "banmoves: not legal here, ignored: {}",
                bad.join(" ")
            ));
        }
    }

    /// The host's rank numbering: the pinned one, or what `auto` has seen.
    fn ranks(&self) -> Ranks {
        match self.engine.options.rank_numbering {
            RankNumbering::FromZero => Ranks::FromZero,
            RankNumbering::FromOne => Ranks::FromOne,
            RankNumbering::Auto => self.seen_ranks,
        }
    }

    /// `position`: the new position, or, when the line is bad, none at all
    /// (its banmoves and side to move go with the old one). With `Rank
    /// Numbering` on `auto`, a UCI line that reads only in the other
    /// numbering switches the session to it.
    fn set_position(&mut self, spec: &PositionSpec) {
        let ranks = self.ranks();
        let mut result = build_position_in(spec, ranks);
        let auto = self.engine.options.rank_numbering == RankNumbering::Auto
            && self.dialect == Dialect::Uci;
        if let Err(first) = &result
            && auto
        {
            match build_position_in(spec, ranks.other()) {
                Ok(pos) => {
                    self.seen_ranks = ranks.other();
                    self.diag(&format!(
                        "rank numbering: the host's moves read only with ranks {}; reading and writing moves that way from now on",
                        ranks.other().name()
                    ));
                    result = Ok(pos);
                }
                Err(second) if second.moves_read > first.moves_read => result = Err(second),
                Err(_) => {}
            }
        }
        match result {
            Ok(pos) => {
                self.no_position = None;
                if let Some((piece, sq)) = pos.unreachable_piece() {
                    self.diag(&format!(
                        "note: {} {} on {}, a point no game reaches; played as a composed position",
                        piece.color().name(),
                        piece.kind().name(),
                        self.ranks().point(sq)
                    ));
                }
                self.engine.set_position(pos);
            }
            Err(r) => self.reject_position(r.reason),
        }
    }

    /// A bad `position` line: the old position (its banmoves and side to
    /// move with it) is gone, and none takes its place.
    fn reject_position(&mut self, reason: String) {
        self.diag(&format!(
            "position rejected: {reason}; no position until the next good one"
        ));
        self.engine.set_banned(Vec::new());
        self.no_position = Some(reason);
    }

    /// Whether a command that needs a position finds none (the last
    /// `position` was rejected); says so to the host.
    fn lacks_position(&mut self, what: &str) -> bool {
        let lacks = self.no_position.is_some();
        if lacks {
            self.diag(&format!(
                "{what} ignored: no position (the last position was rejected)"
            ));
        }
        lacks
    }

    fn go(&mut self, g: GoParams) {
        if let Some(why) = self.no_position.clone() {
            // Never a move for a position the host did not send.
            self.diag(&format!(
                "go: no position to search (the last position was rejected: {why})"
            ));
            if self.searching() {
                // Its answer goes out first, as the host expects.
                self.engine.stop();
                self.engine.wait();
            }
            let pending = Pending {
                root: self.engine.position().clone(),
                draw_offered: false,
                clocked: false,
                pondering: g.ponder,
                book_weight: None,
                ranks: self.ranks(),
            };
            self.answer_now(pending, None);
            return;
        }
        let mut problems: Vec<String> = g.problems.clone();
        let limits = self.limits(&g, &mut problems);
        let searchmoves = self.search_moves(&g.searchmoves, &mut problems);
        for p in &problems {
            self.diag(&format!("go: {p}"));
        }
        if self.searching() {
            self.diag("go while searching: the running search is stopped first");
        }
        let root = self.engine.position().clone();
        let pending = Pending {
            root,
            draw_offered: g.draw,
            clocked: limits.as_ref().is_some_and(|l| l.clock.is_some()),
            pondering: g.ponder,
            book_weight: None,
            ranks: self.ranks(),
        };
        // `go depth 0` asks for no move at all (UCCI answers `nobestmove`).
        let Some(limits) = limits else {
            self.answer_now(pending, None);
            return;
        };
        if let Some(note) = self.engine.prepare() {
            self.diag(&note);
        }
        self.start_go(
            pending,
            GoRequest {
                limits,
                searchmoves,
            },
        );
    }

    /// Hands `request` to the engine: a search, whose answer `pending`
    /// owes, or an answer now (a book move, no legal move, a move played
    /// without a search).
    fn start_go(&mut self, mut pending: Pending, request: GoRequest) {
        let debug = self.engine.options.debug;
        match self.engine.go(request) {
            GoOutcome::Searching { budget } => {
                if debug && let Some(b) = budget {
                    self.diag(&format!(
                        "time budget: optimum {} ms, maximum {} ms",
                        b.optimum.as_millis(),
                        b.maximum.as_millis()
                    ));
                }
                self.pending.push_back(pending);
            }
            GoOutcome::Book { mv, weight } => {
                pending.book_weight = Some(weight);
                self.answer_now(pending, Some(mv));
            }
            GoOutcome::NoLegalMove => self.answer_now(pending, None),
            GoOutcome::Unsearched { mv } => self.answer_now(pending, Some(mv)),
        }
    }

    /// Answers a `go` without a search. The answer goes through the
    /// channel so that it follows any report of an earlier search.
    fn answer_now(&mut self, pending: Pending, best: Option<Move>) {
        self.pending.push_back(pending);
        let _ = self.tx.send(Event::Report(Report::BestMove {
            best,
            ponder: None,
            score: 0,
            depth: 0,
        }));
    }

    /// The search limits of a `go`; `None` for UCCI `go depth 0`.
    fn limits(&self, g: &GoParams, problems: &mut Vec<String>) -> Option<Limits> {
        let red = self.engine.position().side_to_move() == Color::Red;
        // UCCI clock values are seconds unless `usemillisec` is on; the UCI
        // tokens and `movetime` are always milliseconds.
        let unit = if self.engine.options.use_millisec {
            1.0
        } else {
            1000.0
        };
        let ms = |v: f64| -> u64 { v.clamp(0.0, 1e15) as u64 };
        let own_time = g
            .time
            .map(|t| t * unit)
            .or(if red { g.wtime } else { g.btime });
        let own_inc = g
            .increment
            .map(|t| t * unit)
            .or(if red { g.winc } else { g.binc })
            .unwrap_or(0.0);
        let mut limits = Limits {
            clock: own_time.map(|t| Clock {
                time: ms(t),
                increment: ms(own_inc),
                moves_to_go: g.movestogo.filter(|&m| m > 0).map(|m| m.min(1000) as u32),
            }),
            movetime: g.movetime.map(ms),
            ponder: g.ponder,
            infinite: g.infinite,
            ..Limits::default()
        };
        let before = problems.len();
        match g.nodes {
            Some(n) if n > 0 => limits.nodes = Some(n as u64),
            Some(n) => problems.push(format!("nodes {n} is out of range (at least 1)")),
            None => {}
        }
        match g.mate {
            Some(m) if m > 0 => limits.mate = Some(m.min(MAX_GO_DEPTH) as u32),
            Some(m) => problems.push(format!("mate {m} is out of range (at least 1)")),
            None => {}
        }
        match g.depth {
            Some(0) if self.dialect == Dialect::Ucci => return None,
            Some(0) => limits.depth = Some(1),
            Some(d) if d > 0 => limits.depth = Some(d.min(MAX_GO_DEPTH) as i32),
            Some(d) => problems.push(format!("depth {d} is out of range (0 or more)")),
            None => {}
        }
        let any_problem = !g.problems.is_empty() || problems.len() > before;
        if !limits.is_finite() && !limits.infinite {
            if any_problem && !g.ponder {
                // The host meant a limit we could not read: a quick answer
                // serves it better than a search that waits for `stop`.
                problems.push("no usable limit left, searching to depth 1".to_string());
                limits.depth = Some(1);
            } else {
                limits.infinite = true; // bare `go` (or `go ponder`)
            }
        }
        Some(limits)
    }

    fn search_moves(&self, words: &[String], problems: &mut Vec<String>) -> Vec<Move> {
        let ranks = self.ranks();
        let pos = self.engine.position();
        let mut moves = Vec::new();
        let mut bad = Vec::new();
        for w in words {
            let read = ranks.read(w).ok();
            match read.and_then(|w| replay::read_move(pos, &w, Accept::Iccs).ok()) {
                Some(m) => moves.push(m),
                None => bad.push(quote(w)),
            }
        }
        if !bad.is_empty() {
            problems.push(format!(
                "searchmoves: not legal here, ignored: {}",
                bad.join(" ")
            ));
        }
        moves
    }

    fn probe(&mut self, spec: Option<&PositionSpec>) {
        if spec.is_none() && self.lacks_position("probe") {
            return self.emit("pophash");
        }
        let ranks = self.ranks();
        let pos = match spec.map(|s| build_position_in(s, ranks)) {
            None => Ok(self.engine.position().clone()),
            Some(r) => r.map_err(|r| r.reason),
        };
        let line = match pos {
            Ok(pos) => pophash(self.engine.probe(&pos), &pos),
            Err(e) => {
                self.diag(&format!("probe: {e}"));
                "pophash".to_string()
            }
        };
        self.emit(&line);
    }

    fn perft(&mut self, depth: u32, divide: bool) {
        if self.lacks_position(if divide { "divide" } else { "perft" }) {
            return;
        }
        if depth > MAX_PERFT_DEPTH {
            return self.diag(&format!(
                "perft depth {depth} is too deep here (at most {MAX_PERFT_DEPTH}); use `chuhe perft`"
            ));
        }
        let mut pos = self.engine.position().clone();
        let result = if divide {
            perft::run_divide(&mut pos, depth, &mut self.out)
        } else {
            perft::run_perft(&mut pos, depth, perft::LeafCounting::Bulk, &mut self.out)
        };
        if let Err(e) = result {
            log::warn!("perft output: {e}");
            self.broken = true;
        }
    }

    fn display(&mut self) {
        if self.lacks_position("d") {
            return;
        }
        let pos = self.engine.position().clone();
        let mut lines = vec![format!("engine {NAME_LINE}")];
        for rank in (0..10u8).rev() {
            let mut row = format!("{rank} ");
            for file in 0..9u8 {
                let p = pos.piece_on(Square::new(file, rank));
                row.push(' ');
                row.push(if p.is_some() { p.letter() } else { '.' });
            }
            lines.push(row);
        }
        lines.push("   a b c d e f g h i".to_string());
        lines.push(format!("fen {}", pos.to_fen()));
        lines.push(format!("key {:016x}", pos.key()));
        lines.push(format!(
            "side to move {}{}",
            pos.side_to_move().name(),
            if pos.in_check() { ", in check" } else { "" }
        ));
        let legal = movegen::legal_moves(&pos);
        let legal: Vec<Move> = legal.iter().copied().collect();
        lines.push(format!(
            "legal moves ({}) {}",
            legal.len(),
            move_list(&legal)
        ));
        if !self.engine.banned().is_empty() {
            lines.push(format!("banned {}", move_list(self.engine.banned())));
        }
        for l in lines {
            self.emit(&l);
        }
    }
}

/// The position a `position` (or `probe`) line describes, its moves read
/// with ranks 0-9 (see [`build_position_in`]).
pub fn build_position(spec: &PositionSpec) -> Result<Position, String> {
    build_position_in(spec, Ranks::FromZero).map_err(|r| r.reason)
}

/// Why a `position` line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// How many of its moves were read and played before the bad one (0
    /// for a bad FEN): of two readings of a line, the one that got
    /// further names the likelier mistake.
    pub moves_read: usize,
    /// The diagnostic, quoting the host's own word.
    pub reason: String,
}

/// The position a `position` (or `probe`) line describes, its moves read
/// in the host's rank numbering, with every move made so that the history
/// holds each earlier position.
pub fn build_position_in(spec: &PositionSpec, ranks: Ranks) -> Result<Position, Rejection> {
    let reject = |moves_read: usize, reason: String| Rejection { moves_read, reason };
    let mut pos = match &spec.base {
        Base::StartPos => Position::startpos(),
        Base::Fen(fen) => Position::from_fen(fen)
            .map_err(|e| reject(0, format!("invalid FEN {}: {e}", quote(fen))))?,
    };
    let mut moves = Vec::with_capacity(spec.moves.len());
    for (i, word) in spec.moves.iter().enumerate() {
        match ranks.read(word) {
            Ok(m) => moves.push(m),
            Err(_) => {
                let why = format!(
                    "move {} {} is not a move in ranks {}",
                    i + 1,
                    quote(word),
                    ranks.name()
                );
                // The moves before it may still be illegal: name the first
                // problem in the list.
                return match replay::replay(
                    &mut pos,
                    moves.iter().map(String::as_str),
                    Accept::IccsAndNull,
                ) {
                    Ok(_) => Err(reject(i, why)),
                    Err(e) => Err(replay_rejection(&e, &spec.moves, &pos)),
                };
            }
        }
    }
    if let Err(e) = replay::replay(
        &mut pos,
        moves.iter().map(String::as_str),
        Accept::IccsAndNull,
    ) {
        return Err(replay_rejection(&e, &spec.moves, &pos));
    }
    Ok(pos)
}

/// The diagnostic for a move the replay refused; `pos` is where it stopped.
fn replay_rejection(e: &replay::ReplayError, words: &[String], pos: &Position) -> Rejection {
    let i = e.index;
    let word = quote(&words[i - 1]);
    let reason = match e.reason {
        BadMove::Null { .. } => format!("move {i} {word}: a side in check cannot pass"),
        BadMove::Illegal { .. } => format!("move {i} {word} is not legal in {}", pos.to_fen()),
        _ => format!("move {i} {word} is not a move"),
    };
    Rejection {
        moves_read: i - 1,
        reason,
    }
}

/// The ElephantEye-style answer to `probe`.
fn pophash(hit: Option<TtHit>, pos: &Position) -> String {
    let mut s = "pophash".to_string();
    let Some(h) = hit else {
        return s;
    };
    if is_legal(pos, h.mv) {
        s.push_str(&format!(" bestmove {}", h.mv));
    }
    let (lower, upper) = match h.bound {
        Bound::Exact => (true, true),
        Bound::Lower => (true, false),
        Bound::Upper => (false, true),
        Bound::None => (false, false),
    };
    if lower {
        s.push_str(&format!(" lowerbound {} depth {}", h.score, h.depth));
    }
    if upper {
        s.push_str(&format!(" upperbound {} depth {}", h.score, h.depth));
    }
    s
}

const HELP: &[&str] = &[
    concat!(
        "chuhe ",
        env!("CHUHE_VERSION"),
        " speaks UCCI, UCI and CECP; send `ucci`, `uci` or `xboard` first. Commands:"
    ),
    "  ucci | uci                      handshake: names, options, ucciok/uciok",
    "  xboard, protover 2              CECP (XBoard/WinBoard): the engine keeps the game; see README",
    "  isready                         answers readyok (allocates the hash table if needed)",
    "  setoption <name> [<value>]      also: setoption name <Name> value <v>",
    "  ucinewgame                      new game (UCCI: setoption newgame)",
    "  position {startpos | fen <FEN>} [moves <m1> ...]",
    "  banmoves <m1> ...               root moves not to play in this position",
    "  go [ponder] [draw] [depth d | nodes n | movetime ms | time t [increment i] [movestogo m] |",
    "     wtime/btime/winc/binc ... | mate n | infinite] [searchmoves m ...]",
    "  ponderhit [draw]                the predicted move was played",
    "  stop                            stop and answer bestmove (UCCI idle: nobestmove)",
    "  probe [position args]           what the hash table knows (pophash ...)",
    "  quit                            exit (UCCI answers bye)",
    "  perft <d> | divide <d>          move-path counts of the current position (d <= 5)",
    "  bench [depth]                   fixed search test; the node total is the build's signature",
    "  d | display                     engine version, board, FEN, key and legal moves",
    "  eval                            static evaluation and its terms",
    "  help                            this text",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::XorShift as Rng;

    /// Runs a whole session in-process on `input` and returns its output.
    fn session(input: &[u8]) -> String {
        let mut out = Vec::new();
        run(std::io::Cursor::new(input.to_vec()), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn piped_analysis_finishes_a_finite_search() {
        let out = session(b"setoption usebook false\nposition startpos moves h2e2\ngo depth 3\n");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")));
        let best = lines.iter().find(|l| l.starts_with("bestmove ")).unwrap();
        let mut pos = Position::startpos();
        pos.make_move(Move::parse("h2e2").unwrap());
        let m = Move::parse(best.split(' ').nth(1).unwrap()).unwrap();
        assert!(is_legal(&pos, m), "{best}");
        assert_eq!(lines.last(), Some(&"bye"));
    }

    #[test]
    fn infinite_search_at_end_of_input_is_stopped() {
        let out = session(b"uci\nposition startpos\ngo infinite\n");
        assert!(out.contains("uciok"));
        assert!(out.lines().any(|l| l.starts_with("bestmove ")));
        assert!(!out.contains("bye"));
    }

    #[test]
    fn book_moves_are_announced_and_answered_at_once() {
        let h2e2 = Move::parse("h2e2").unwrap();
        for (hello, note, best) in [
            (
                "ucci",
                "info message book move h2e2 weight 9",
                "bestmove h2e2",
            ),
            (
                "uci",
                "info string book move h2e2 weight 9",
                "bestmove h2e2",
            ),
        ] {
            let mut out = Vec::new();
            let input = format!("{hello}\nposition startpos\ngo depth 20\n");
            run_with(std::io::Cursor::new(input.into_bytes()), &mut out, |e| {
                e.test_book = Some((h2e2, 9));
            });
            let out = String::from_utf8(out).unwrap();
            let lines: Vec<&str> = out.lines().collect();
            let at = lines.iter().position(|l| *l == note).expect(&out);
            assert_eq!(lines[at + 1], best, "{out}");
            assert!(!out.contains("info depth"), "no search: {out}");
        }
    }

    #[test]
    fn nothing_before_the_first_command() {
        assert_eq!(session(b""), "bye\n");
    }

    #[test]
    fn history_reaches_the_search() {
        let spec = PositionSpec {
            base: Base::StartPos,
            moves: ["h2e2", "h9g7", "h0g2", "i9h9"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        };
        let pos = build_position(&spec).unwrap();
        assert_eq!(pos.states().len(), 5);
        let bad = PositionSpec {
            moves: vec!["h2e2".into(), "h2e2".into()],
            ..spec
        };
        assert!(build_position(&bad).unwrap_err().contains("move 2"));
    }

    const WORDS: &[&str] = &[
        "ucci",
        "uci",
        "isready",
        "setoption",
        "name",
        "value",
        "position",
        "startpos",
        "fen",
        "moves",
        "banmoves",
        "ponderhit",
        "stop",
        "probe",
        "d",
        "eval",
        "help",
        "draw",
        "hashsize",
        "Hash",
        "threads",
        "1",
        "0",
        "-1",
        "abc",
        "99999999999999999999",
        "true",
        "off",
        "h2e2",
        "h9g7",
        "b0c2",
        "0000",
        "e0e1",
        "i9i8",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9",
        "9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "w",
        "b",
        "-",
        "Move",
        "Overhead",
        "randomness",
        "huge",
        "style",
        "risky",
        "\u{fffd}",
        "ucinewgame",
        "debug",
        "on",
        "register",
    ];

    #[test]
    fn random_bytes_never_break_the_parsers() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let len = rng.below(80);
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            let line = parse::clean_line(&bytes);
            let _ = parse_command(&line);
            let _ = Position::from_fen(&line);
            let _ = parse::parse_go(&line.split_whitespace().collect::<Vec<_>>());
            // Lines made of real words reach deeper into the parsers.
            let words: Vec<&str> = (0..rng.below(12))
                .map(|_| WORDS[rng.below(WORDS.len())])
                .collect();
            let line = words.join(if rng.below(2) == 0 { " " } else { "/" });
            if let Ok(Some(Command::Position(spec))) = parse_command(&line) {
                let _ = build_position(&spec);
            }
            let _ = Position::from_fen(&line);
        }
    }

    const CECP_WORDS: &[&str] = &[
        "new",
        "variant",
        "xiangqi",
        "force",
        "go",
        "playother",
        "usermove",
        "h2e2",
        "h9g7",
        "b0c2",
        "a9a8",
        "e0e1",
        "setboard",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9",
        "9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "4k4/9/r7r/9/9/9/9/9/3K5/9",
        "w",
        "b",
        "-",
        "0",
        "1",
        "undo",
        "remove",
        "sd",
        "2",
        "nps",
        "5000",
        "otim",
        "ping",
        "post",
        "nopost",
        "analyze",
        "exit",
        ".",
        "?",
        "hard",
        "easy",
        "memory",
        "cores",
        "option",
        "Skill Level=3",
        "MultiPV=2",
        "Style=risky",
        "UseBook=0",
        "Clear Hash",
        "result",
        "1-0",
        "{Red mates}",
        "draw",
        "hint",
        "bk",
        "random",
        "computer",
        "name",
        "accepted",
        "rejected",
        "protover",
        "-1",
        "abc",
        "99999999999999999999",
        "\u{fffd}",
        "d",
        "eval",
        "white",
        "edit",
    ];

    #[test]
    fn random_cecp_sessions_never_break_the_engine() {
        let mut rng = Rng(0xc0ffee);
        for round in 0..40 {
            let mut input = b"xboard\nprotover 2\nst 0.02\nsd 3\n".to_vec();
            for _ in 0..rng.below(30) {
                if rng.below(5) == 0 {
                    input.extend((0..rng.below(40)).map(|_| rng.next_u64() as u8));
                } else {
                    let words: Vec<&str> = (0..1 + rng.below(6))
                        .map(|_| CECP_WORDS[rng.below(CECP_WORDS.len())])
                        .collect();
                    input.extend(words.join(" ").bytes());
                }
                input.push(b'\n');
            }
            input.extend(b"exit\nnew\nsd 2\ngo\nping 99\n");
            let out = session(&input);
            let lines: Vec<&str> = out.lines().collect();
            let pong = lines.iter().rposition(|l| *l == "pong 99");
            let pong = pong.unwrap_or_else(|| panic!("round {round}: no pong\n{out}"));
            let mv = lines[..pong].iter().rposition(|l| l.starts_with("move "));
            let mv = mv.unwrap_or_else(|| panic!("round {round}: no move\n{out}"));
            let m = Move::parse(&lines[mv]["move ".len()..]).unwrap();
            assert!(is_legal(&Position::startpos(), m), "{out}");
        }
    }

    #[test]
    fn random_sessions_never_break_the_engine() {
        let mut rng = Rng(12345);
        for _ in 0..40 {
            let mut input = Vec::new();
            for _ in 0..rng.below(30) {
                if rng.below(4) == 0 {
                    input.extend((0..rng.below(40)).map(|_| rng.next_u64() as u8));
                } else {
                    let words: Vec<&str> = (0..rng.below(8))
                        .map(|_| WORDS[rng.below(WORDS.len())])
                        .collect();
                    input.extend(words.join(" ").bytes());
                }
                input.push(b'\n');
            }
            input.extend(b"isready\nposition startpos\ngo depth 1\n");
            let out = session(&input);
            assert!(out.lines().any(|l| l == "readyok"), "{out}");
            assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
        }
    }
}
