//! The engine facade: the game position with its history, the settings the
//! host chose, the transposition table, the search threads and (later) the
//! opening book, behind one type that the protocol layer drives.
//!
//! The engine never prints. Search output goes to the `Reporter` it was
//! built with; everything else comes back as return values.
//!
//! Resources are allocated lazily: nothing is allocated before the first
//! `prepare` (the protocol calls it on `isready` and `go`). A change of hash
//! size or thread count while a search runs is only recorded; it takes
//! effect at the next `prepare` after the search has ended, because the
//! running search holds the table and the threads.

use crate::book::BookSet;
use crate::evaluate;
use crate::movegen;
use crate::nnue::{self, Network};
use crate::options::*;
use crate::position::Position;
use crate::replay::is_legal_move;
use crate::rules::RuleSettings;
use crate::search::{Reporter, SearchJob};
use crate::skill::{self, Skill};
use crate::thread::{MAX_THREADS, ThreadPool};
use crate::time::{self, Budget, Limits};
use crate::tt::{TranspositionTable, TtHit};
use crate::tunables::Tunables;
use crate::types::*;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// One `go`: the limits and the root moves the host allows (`searchmoves`;
/// empty = all). `banmoves` are the engine's own state.
#[derive(Clone, Debug, Default)]
pub struct GoRequest {
    pub limits: Limits,
    pub searchmoves: Vec<Move>,
}

/// What `go` did.
#[derive(Clone, Debug, PartialEq)]
pub enum GoOutcome {
    /// The search runs; its reports and one `BestMove` follow through the
    /// reporter. `budget` is the time manager's allotment when a clock was
    /// given.
    Searching { budget: Option<Budget> },
    /// The book answered at once; no search was started.
    Book { mv: Move, weight: u32 },
    /// No root move may be played (none is legal, or all are banned or
    /// excluded); no search was started.
    NoLegalMove,
    /// No search thread could be started: the first allowed move, so that
    /// the host still gets an answer.
    Unsearched { mv: Move },
}

pub struct Engine {
    pos: Position,
    banned: Vec<Move>,
    pub options: EngineOptions,
    tt: Option<Arc<TranspositionTable>>,
    tt_mb: usize,
    pool: Option<ThreadPool>,
    reporter: Reporter,
    /// Seed for root noise and the book's choice, new for every game.
    seed: u64,
    /// Which evaluation the table's stored evaluations were made by.
    last_evaluation: Option<u64>,
    /// The network in use when `use_nnue` is on, and the `eval_file` value
    /// it was loaded from.
    network: Arc<Network>,
    network_source: String,
    /// The opening books, loaded on first use from `book_source`.
    book: Option<BookSet>,
    /// The `bookfiles` value `book` was loaded from.
    book_source: String,
    /// Stands in for the book in tests of the engine alone.
    #[cfg(test)]
    pub(crate) test_book: Option<(Move, u32)>,
}

impl Engine {
    /// An engine at the start position with default options. Allocates
    /// nothing: the table and threads come with the first `prepare`.
    pub fn new(reporter: Reporter) -> Engine {
        Engine {
            pos: Position::startpos(),
            banned: Vec::new(),
            options: EngineOptions::default(),
            tt: None,
            tt_mb: 0,
            pool: None,
            reporter,
            seed: fresh_seed(),
            book: None,
            book_source: String::new(),
            last_evaluation: None,
            network: nnue::embedded(),
            network_source: EMBEDDED_NETWORK.to_string(),
            #[cfg(test)]
            test_book: None,
        }
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Sets the position (with its move history) and clears `banmoves`.
    pub fn set_position(&mut self, pos: Position) {
        self.pos = pos;
        self.banned.clear();
    }

    /// Root moves the engine must not play in the current position.
    pub fn banned(&self) -> &[Move] {
        &self.banned
    }

    pub fn set_banned(&mut self, moves: Vec<Move>) {
        self.banned = moves;
    }

    /// Whether the table and threads are allocated.
    pub fn is_prepared(&self) -> bool {
        self.tt.is_some() && self.pool.is_some()
    }

    /// Allocates or resizes the table and the threads to the options. Does
    /// nothing while a search runs (the change waits for the next call).
    /// Never fails: a table larger than the memory the machine has free is
    /// cut to fit, a size the allocator refuses is halved until it is
    /// granted, and a thread the system will not start leaves the pool
    /// smaller; each of these comes back as one note for the host, and the
    /// options are set to what was granted.
    pub fn prepare(&mut self) -> Option<String> {
        if self.is_searching() {
            return None;
        }
        let mut notes = Vec::new();
        let want_mb = self.options.hash_mb.clamp(1, MAX_HASH_MB);
        if self.tt.is_none() || self.tt_mb != want_mb {
            // The pool's last job still holds the old table: drop both so
            // that the old and the new table never coexist in memory.
            self.pool = None;
            self.tt = None;
            let (tt, mb, note) = allocate_table(want_mb, crate::tt::available_memory_mb());
            self.tt = Some(Arc::new(tt));
            notes.extend(note);
            self.tt_mb = mb;
            self.options.hash_mb = mb;
        }
        let threads = self.options.threads.clamp(1, MAX_THREADS);
        if self.pool.as_ref().is_none_or(|p| p.size() != threads) {
            self.pool = None; // join the old threads first
            match ThreadPool::start_threads(threads) {
                Ok(pool) => {
                    if pool.size() < threads {
                        notes.push(format!(
                            "could start only {} of {threads} search threads, using {}",
                            pool.size(),
                            pool.size()
                        ));
                        self.options.threads = pool.size();
                    }
                    self.pool = Some(pool);
                }
                Err(e) => notes.push(format!(
                    "could not start a search thread ({e}); moves are chosen without search"
                )),
            }
        }
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    /// Whether a search runs (its `BestMove` not yet sent).
    pub fn is_searching(&self) -> bool {
        self.pool.as_ref().is_some_and(|p| p.is_searching())
    }

    /// Whether the running search waits for `ponderhit`.
    pub fn is_pondering(&self) -> bool {
        self.is_searching()
            && self
                .pool
                .as_ref()
                .and_then(|p| p.current_job())
                .is_some_and(|j| j.pondering.load(Ordering::Acquire))
    }

    /// Whether the running search ends only on `stop` (infinite) or is
    /// waiting for `ponderhit`.
    pub fn runs_unbounded(&self) -> bool {
        self.is_searching()
            && self
                .pool
                .as_ref()
                .and_then(|p| p.current_job())
                .is_some_and(|j| j.limits.infinite || j.pondering.load(Ordering::Acquire))
    }

    /// The time manager's allotment for a clock in the current position.
    pub fn budget(&self, limits: &Limits) -> Option<Budget> {
        limits
            .clock
            .as_ref()
            .map(|c| time::allocate(c, self.pos.fullmove_number(), self.options.move_overhead))
    }

    /// Starts a search of the current position (stopping one that runs).
    pub fn go(&mut self, req: GoRequest) -> GoOutcome {
        if self.is_searching() {
            self.stop();
            self.wait();
        }
        self.prepare();
        let legal = movegen::legal_moves(&self.pos);
        let allowed: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| req.searchmoves.is_empty() || req.searchmoves.contains(m))
            .filter(|m| !self.banned.contains(m))
            .collect();
        if allowed.is_empty() {
            return GoOutcome::NoLegalMove;
        }
        // The book answers games, not analysis or pondering, and only when
        // the host leaves the choice of move to us.
        if self.options.use_book
            && !req.limits.ponder
            && !req.limits.infinite
            && req.searchmoves.is_empty()
            && let Some((mv, weight)) = self.book_move()
            && allowed.contains(&mv)
        {
            return GoOutcome::Book { mv, weight };
        }
        let mut req = req;
        // A weakened level narrows the game search and chooses among
        // several lines; analysis (`go infinite`) stays at full strength.
        let skill = Skill::from_options(
            self.options.skill_level,
            self.options.limit_strength,
            self.options.elo,
        )
        .filter(|_| !req.limits.infinite);
        if let Some(s) = skill {
            let l = &mut req.limits;
            l.depth = Some(l.depth.map_or(s.depth_cap(), |d| d.min(s.depth_cap())));
            l.nodes = Some(l.nodes.map_or(s.node_cap(), |n| n.min(s.node_cap())));
        }
        let budget = self.budget(&req.limits);
        let tt = match &self.tt {
            Some(tt) => tt.clone(),
            None => Arc::new(TranspositionTable::new(1)),
        };
        let character = Character {
            pruning: self.options.pruning,
            knowledge: self.options.knowledge,
            style: self.options.style,
        };
        let network = self.network_in_use();
        let evaluation = match &network {
            Some(net) => net.hash() | 1,
            None => character.knowledge as u64 * 2,
        };
        if self.last_evaluation.is_some_and(|e| e != evaluation) {
            // Stored evaluations were made by another evaluation.
            tt.clear();
        }
        self.last_evaluation = Some(evaluation);
        tt.new_search();
        let Some(pool) = self.pool.as_mut() else {
            // No search thread could start (`prepare` said so): any legal
            // move beats leaving the host without an answer.
            return GoOutcome::Unsearched { mv: allowed[0] };
        };
        let mut job = SearchJob::new(
            self.pos.clone(),
            req.limits,
            tt,
            pool.size(),
            self.reporter.clone(),
        );
        let allowed_count = allowed.len();
        job.root_filter = if allowed.len() == legal.len() {
            Vec::new()
        } else {
            allowed
        };
        job.multipv = self.options.multipv.clamp(1, MAX_MULTIPV);
        if let Some(s) = skill {
            let lines = s.lines().max(job.multipv).min(allowed_count);
            job.reporter = skill::Filter::reporter(
                s,
                self.reporter.clone(),
                job.multipv,
                lines,
                self.seed ^ self.pos.key() ^ 0x5ca1_ab1e,
            );
            job.multipv = lines;
        }
        job.rules = RuleSettings {
            move_limit: self.options.move_limit,
            ..RuleSettings::default()
        };
        job.move_overhead = self.options.move_overhead;
        job.root_noise = root_noise(self.options.randomness);
        job.seed = self.seed ^ self.pos.key();
        job.character = character;
        job.tunables = self.options.tunables;
        job.network = network;
        pool.start(job);
        GoOutcome::Searching { budget }
    }

    /// The network the search evaluates with, or `None` for the classical
    /// evaluation (`use_nnue` off, or `knowledge` below full).
    fn network_in_use(&self) -> Option<Arc<Network>> {
        (self.options.use_nnue && self.options.knowledge == Level::Large)
            .then(|| self.network.clone())
    }

    /// Loads the network named by the `eval_file` option (if not loaded
    /// already) and describes it. When the file cannot be used, the engine
    /// keeps its current network, `eval_file` goes back to naming it, and
    /// the error says why.
    pub fn load_network(&mut self) -> Result<String, String> {
        if self.options.eval_file != self.network_source {
            let want = self.options.eval_file.clone();
            let loaded = if want == EMBEDDED_NETWORK {
                Ok(nnue::embedded())
            } else {
                Network::load(&want)
                    .and_then(|net| {
                        evaluate::check(&net)
                            .map(|()| net)
                            .map_err(|e| format!("{want}: {e}"))
                    })
                    .map(Arc::new)
            };
            match loaded {
                Ok(net) => {
                    self.network = net;
                    self.network_source = want;
                }
                Err(e) => {
                    self.options.eval_file = self.network_source.clone();
                    return Err(format!(
                        "evalfile not loaded: {e}; still using {}",
                        self.network_name()
                    ));
                }
            }
        }
        Ok(format!("evalfile: {}", self.network_name()))
    }

    /// The evaluation a tool's `--classical`/`--evalfile` flags ask for:
    /// the classical evaluation, a network file, or the build's default.
    pub fn choose_evaluation(
        &mut self,
        classical: bool,
        evalfile: Option<&str>,
    ) -> Result<(), String> {
        self.options.use_nnue = !classical;
        match evalfile {
            Some(path) if !classical => {
                self.options.eval_file = path.to_string();
                self.load_network().map(|_| ())
            }
            _ => Ok(()),
        }
    }

    /// The settings of a search run by a tool rather than a host: `setup`'s
    /// table, threads, tunables and evaluation, and no book.
    pub fn configure_for_tools(&mut self, setup: &SearchSetup) -> Result<(), String> {
        self.options.hash_mb = setup.hash_mb;
        self.options.threads = setup.threads;
        self.options.tunables = setup.tunables;
        self.options.use_book = false;
        self.choose_evaluation(setup.classical, setup.evalfile.as_deref())
    }

    /// The loaded network, named by its source, hash and shape.
    pub fn network_name(&self) -> String {
        format!(
            "network {} ({:016x}, shape {})",
            self.network_source,
            self.network.hash(),
            self.network.shape
        )
    }

    /// Which evaluation a search would use now, in words.
    pub fn evaluation_name(&self) -> String {
        match self.network_in_use() {
            Some(_) => format!(
                "NNUE, {}, {} kernels",
                self.network_name(),
                nnue::simd::kernel_name()
            ),
            None if !self.options.use_nnue => "classical (usennue is off)".to_string(),
            None => format!("classical (knowledge {})", self.options.knowledge.name()),
        }
    }

    /// The static evaluation of the current position by the evaluation in
    /// use, side to move's view.
    pub fn static_evaluation(&self) -> Score {
        match self.network_in_use() {
            Some(net) => evaluate::with_network_full(&net, &self.pos),
            None => evaluate::classical(&self.pos, self.options.knowledge),
        }
    }

    /// Loads the books named by the `bookfiles` option (if not loaded
    /// already) and describes them, or says why they could not be read.
    /// A failed load leaves no book: the engine then searches every move.
    pub fn load_book(&mut self) -> Result<String, String> {
        if self.book.is_none() || self.book_source != self.options.book_files {
            self.book_source = self.options.book_files.clone();
            self.book = None;
            self.book = Some(BookSet::load(&self.book_source).map_err(|e| e.to_string())?);
        }
        let set = self.book.as_ref().expect("loaded above");
        let parts: Vec<String> = set
            .books()
            .map(|(name, b)| format!("{name} ({}, {} positions)", b.format_name(), b.positions()))
            .collect();
        Ok(format!("book: {}", parts.join("; ")))
    }

    /// The book's move for the current position and its weight: the
    /// weighted choice of `randomness` (`none` = always the heaviest),
    /// never a move that repeats a position of the game.
    fn book_move(&mut self) -> Option<(Move, u32)> {
        #[cfg(test)]
        if self.test_book.is_some() {
            return self.test_book;
        }
        self.load_book().ok()?;
        let book = self.book.as_ref()?;
        let seed = self.seed ^ self.pos.key();
        book.choose(&self.pos, self.options.randomness, seed)
            .map(|b| (b.mv, b.weight))
    }

    /// The nodes the last search has visited so far (all threads).
    pub fn nodes_searched(&self) -> u64 {
        self.pool
            .as_ref()
            .and_then(|p| p.current_job())
            .map_or(0, |j| j.total_nodes())
    }

    /// Asks the running search to stop; its `BestMove` follows at once.
    pub fn stop(&self) {
        if let Some(p) = &self.pool {
            p.stop();
        }
    }

    /// The predicted move was played: the clock starts now.
    pub fn ponderhit(&self) {
        if let Some(p) = &self.pool {
            p.ponderhit();
        }
    }

    /// Blocks until the running search has sent its `BestMove`.
    pub fn wait(&self) {
        if let Some(p) = &self.pool {
            p.wait();
        }
    }

    /// A new game: stops any search, forgets the table and the histories,
    /// draws a new seed.
    pub fn new_game(&mut self) {
        self.stop();
        self.wait();
        if let Some(tt) = &self.tt {
            tt.clear();
        }
        if let Some(p) = self.pool.as_mut() {
            p.clear_history();
        }
        self.banned.clear();
        self.seed = fresh_seed();
    }

    /// Empties the table. Safe during a search (entries are atomics); the
    /// search goes on with what it stores from then on.
    pub fn clear_hash(&self) {
        if let Some(tt) = &self.tt {
            tt.clear();
        }
    }

    /// What the table knows of `pos`.
    pub fn probe(&self, pos: &Position) -> Option<TtHit> {
        self.tt.as_ref()?.probe(pos.key(), 0)
    }

    /// A move to ponder on after `best` when the search's line ended early:
    /// the table's move in the position after `best`, if it is legal there.
    pub fn ponder_guess(&self, root: &Position, best: Move) -> Option<Move> {
        if !is_legal_move(root, best) {
            return None;
        }
        let mut pos = root.clone();
        pos.make_move(best);
        let hit = self.probe(&pos)?;
        is_legal_move(&pos, hit.mv).then_some(hit.mv)
    }
}

/// How a [`Searcher`] is set up: the table, the threads, the evaluation
/// and the tunables. The default is the engine's own: one thread, the
/// embedded network, default tunables.
#[derive(Clone, Debug)]
pub struct SearchSetup {
    pub threads: usize,
    pub hash_mb: usize,
    /// Search with the classical evaluation instead of the network.
    pub classical: bool,
    /// Search with the network in this file instead of the embedded one.
    pub evalfile: Option<String>,
    pub tunables: Tunables,
}

impl Default for SearchSetup {
    fn default() -> Self {
        SearchSetup {
            threads: 1,
            hash_mb: 16,
            classical: false,
            evalfile: None,
            tunables: Tunables::default(),
        }
    }
}

/// What one search answered.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Answer {
    /// `None` when the position has no legal move.
    pub best: Option<Move>,
    /// Side to move's view.
    pub score: Score,
    pub depth: Depth,
    /// Nodes visited, all threads.
    pub nodes: u64,
}

/// The one way for a program to run searches itself, one at a time, and
/// use their answers: the benchmark, the mate suite and self-play data.
/// It is an [`Engine`] with the book off and a reporter that keeps the
/// final answer, so these searches evaluate, allocate and apply the rules
/// exactly as the engine does in a game; only the protocol is left out.
pub struct Searcher {
    engine: Engine,
    answer: Arc<std::sync::Mutex<Answer>>,
}

impl Searcher {
    /// A searcher with its table and threads allocated, and the note
    /// `Engine::prepare` gave if it had to cut them. Fails only when the
    /// network file cannot be used.
    pub fn new(setup: &SearchSetup) -> Result<(Searcher, Option<String>), String> {
        let answer = Arc::new(std::sync::Mutex::new(Answer::default()));
        let sink = answer.clone();
        let mut engine = Engine::new(Arc::new(move |r: crate::search::Report| {
            if let (
                crate::search::Report::BestMove {
                    best, score, depth, ..
                },
                Ok(mut a),
            ) = (r, sink.lock())
            {
                a.best = best;
                a.score = score;
                a.depth = depth;
            }
        }));
        engine.configure_for_tools(setup)?;
        let note = engine.prepare();
        Ok((Searcher { engine, answer }, note))
    }

    /// Forgets the table and the histories, as between games.
    pub fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Searches `pos` (with its history, which the repetition rules read)
    /// to `limits` and waits for the answer.
    pub fn search(&mut self, pos: Position, limits: Limits) -> Answer {
        if let Ok(mut a) = self.answer.lock() {
            *a = Answer::default();
        }
        self.engine.set_position(pos);
        let outcome = self.engine.go(GoRequest {
            limits,
            searchmoves: Vec::new(),
        });
        self.engine.wait();
        let mut answer = self.answer.lock().map(|a| *a).unwrap_or_default();
        answer.nodes = self.engine.nodes_searched();
        if let GoOutcome::Unsearched { mv } = outcome {
            answer.best = Some(mv);
        }
        answer
    }

    /// The evaluation in use, for logs.
    pub fn evaluation_name(&self) -> String {
        self.engine.evaluation_name()
    }

    /// The evaluation in use, short: `nnue <network hash>` or `classical`.
    pub fn evaluation_tag(&self) -> String {
        match self.engine.network_in_use() {
            Some(net) => format!("nnue {:016x}", net.hash()),
            None => "classical".into(),
        }
    }
}

/// The share of the machine's free memory a hash table may take: the rest
/// is left to the system, the other threads' tables and other programs.
const TABLE_SHARE_OF_FREE_MEMORY: (usize, usize) = (3, 4);

/// A table of `want_mb`, or of the largest size that fits: at most
/// three quarters of `free_mb` (the memory the system has available, when
/// known), halved while the allocator refuses. The note says what was cut.
fn allocate_table(
    want_mb: usize,
    free_mb: Option<usize>,
) -> (TranspositionTable, usize, Option<String>) {
    let fits =
        free_mb.map(|f| (f * TABLE_SHARE_OF_FREE_MEMORY.0 / TABLE_SHARE_OF_FREE_MEMORY.1).max(1));
    let mut mb = fits.map_or(want_mb, |f| want_mb.min(f));
    let tt = loop {
        match TranspositionTable::try_new(mb) {
            Ok(tt) => break tt,
            Err(_) if mb > 1 => mb /= 2,
            // Even 1 MB failed: the process is nearly out of memory; this
            // small table is the last resort.
            Err(_) => break TranspositionTable::new(1),
        }
    };
    let note = (mb != want_mb).then(|| match free_mb {
        Some(free) if fits.is_some_and(|f| want_mb > f) => format!(
            "hash table of {want_mb} MB does not fit the {free} MB of free memory, using {mb} MB"
        ),
        _ => format!("could not allocate {want_mb} MB for the hash table, using {mb} MB"),
    });
    (tt, mb, note)
}

/// A seed that differs from game to game and from process to process.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    // One SplitMix64 step spreads the bits of the clock.
    crate::rng::splitmix(nanos ^ ((std::process::id() as u64) << 32)).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Report;
    use std::sync::Mutex;

    fn collecting() -> (Reporter, Arc<Mutex<Vec<Report>>>) {
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = log.clone();
        let reporter: Reporter = Arc::new(move |r| sink.lock().unwrap().push(r));
        (reporter, log)
    }

    fn best_of(log: &Mutex<Vec<Report>>) -> Option<Move> {
        log.lock().unwrap().iter().find_map(|r| match r {
            Report::BestMove { best, .. } => Some(best.unwrap_or(Move::NONE)),
            _ => None,
        })
    }

    #[test]
    fn nothing_is_allocated_before_prepare() {
        let (rep, _) = collecting();
        let mut e = Engine::new(rep);
        assert!(!e.is_prepared());
        assert_eq!(e.prepare(), None);
        assert!(e.is_prepared());
    }

    #[test]
    fn banned_moves_are_not_played_and_all_banned_means_no_move() {
        let (rep, log) = collecting();
        let mut e = Engine::new(rep);
        // Red king alone on its back rank with one legal reply pattern.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        let legal: Vec<Move> = movegen::legal_moves(&pos).iter().copied().collect();
        assert!(legal.len() >= 2);
        e.set_position(pos.clone());
        e.set_banned(legal[1..].to_vec());
        let out = e.go(GoRequest {
            limits: Limits::depth(3),
            ..GoRequest::default()
        });
        assert!(matches!(out, GoOutcome::Searching { .. }));
        e.wait();
        assert_eq!(best_of(&log), Some(legal[0]));
        e.set_banned(legal.clone());
        assert_eq!(
            e.go(GoRequest {
                limits: Limits::depth(3),
                ..GoRequest::default()
            }),
            GoOutcome::NoLegalMove
        );
        // A new position clears the ban.
        e.set_position(pos);
        assert!(e.banned().is_empty());
    }

    #[test]
    fn hash_resize_waits_for_the_search_to_end() {
        let (rep, _) = collecting();
        let mut e = Engine::new(rep);
        e.options.hash_mb = 2;
        e.prepare();
        e.go(GoRequest {
            limits: Limits {
                infinite: true,
                ..Limits::default()
            },
            ..GoRequest::default()
        });
        assert!(e.is_searching());
        e.options.hash_mb = 4;
        e.prepare();
        assert_eq!(e.tt_mb, 2, "no resize under a running search");
        e.stop();
        e.wait();
        e.prepare();
        assert_eq!(e.tt_mb, 4);
    }

    #[test]
    fn a_book_move_is_played_without_a_search_in_games_only() {
        let (rep, log) = collecting();
        let mut e = Engine::new(rep);
        let h2e2 = Move::parse("h2e2").unwrap();
        e.test_book = Some((h2e2, 7));
        let game = GoRequest {
            limits: Limits::depth(5),
            ..GoRequest::default()
        };
        assert_eq!(
            e.go(game.clone()),
            GoOutcome::Book {
                mv: h2e2,
                weight: 7
            }
        );
        assert!(!e.is_searching() && log.lock().unwrap().is_empty());
        // Not when banned, not when analysing, not with the book off.
        e.set_banned(vec![h2e2]);
        assert!(matches!(e.go(game.clone()), GoOutcome::Searching { .. }));
        e.wait();
        e.set_banned(Vec::new());
        let analysis = GoRequest {
            limits: Limits {
                infinite: true,
                ..Limits::default()
            },
            ..GoRequest::default()
        };
        assert!(matches!(e.go(analysis), GoOutcome::Searching { .. }));
        e.stop();
        e.wait();
        e.options.use_book = false;
        assert!(matches!(e.go(game), GoOutcome::Searching { .. }));
        e.wait();
    }

    #[test]
    fn a_table_too_large_for_free_memory_is_cut_to_fit() {
        let (tt, mb, note) = allocate_table(200, Some(100));
        assert_eq!((mb, tt.size_bytes()), (75, 75 * 1024 * 1024));
        let note = note.expect("a note");
        assert!(
            note.contains("200 MB") && note.contains("using 75 MB"),
            "{note}"
        );
        let (_, mb, note) = allocate_table(4, Some(100));
        assert_eq!((mb, note), (4, None));
        let (_, mb, note) = allocate_table(4, None);
        assert_eq!((mb, note), (4, None));
        // A size no allocator grants is halved until one is.
        let (_, mb, note) = allocate_table(usize::MAX / (1 << 21), None);
        assert!(mb < usize::MAX / (1 << 21) && note.is_some());
    }

    #[test]
    fn randomness_levels_grow() {
        let all = [
            Randomness::None,
            Randomness::Tiny,
            Randomness::Small,
            Randomness::Medium,
            Randomness::Large,
            Randomness::Huge,
        ];
        let n: Vec<Score> = all.iter().map(|&r| root_noise(r)).collect();
        for r in all {
            assert_eq!(Randomness::parse(r.name()), Some(r));
        }
        assert!(n.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(n[0], 0);
    }

    #[test]
    fn the_searcher_answers_each_search_and_nothing_without_a_move() {
        let (mut searcher, note) = Searcher::new(&SearchSetup {
            hash_mb: 1,
            ..SearchSetup::default()
        })
        .expect("the embedded network loads");
        assert_eq!(note, None);
        // A composed position: Red has a mate in one.
        let mate = Position::from_fen("3k5/9/3P5/9/9/9/9/9/3R5/4K4 w - - 0 1").unwrap();
        let a = searcher.search(mate.clone(), Limits::depth(4));
        assert!(a.best.is_some() && a.score >= MATE_BOUND, "{a:?}");
        assert!(a.nodes > 0);
        let mut after = mate;
        after.make_move(a.best.unwrap());
        assert!(movegen::legal_moves(&after).is_empty());
        // The mated side has no move: no answer, and no stale one.
        let none = searcher.search(after, Limits::depth(4));
        assert_eq!(none.best, None);
        searcher.new_game();
        let start = searcher.search(Position::startpos(), Limits::depth(3));
        assert!(start.best.is_some() && start.score.abs() < MATE_BOUND);
    }

    #[test]
    fn a_node_limit_stops_the_search_at_that_count() {
        let (mut searcher, _) = Searcher::new(&SearchSetup {
            hash_mb: 1,
            ..SearchSetup::default()
        })
        .expect("the embedded network loads");
        let at = |s: &mut Searcher, n: u64| {
            s.new_game();
            let limits = Limits {
                nodes: Some(n),
                ..Limits::default()
            };
            s.search(Position::startpos(), limits).nodes
        };
        // Not the next multiple of the 1,024-node beat: the limit itself,
        // give or take the nodes entered while the search unwinds.
        for n in [500, 700, 2_500, 5_000] {
            let nodes = at(&mut searcher, n);
            assert!((n..n + 64).contains(&nodes), "nodes {n}: searched {nodes}");
        }
    }
}
