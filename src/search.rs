//! One search thread's work: iterative deepening with aspiration windows,
//! principal-variation search, quiescence, and the usual pruning and
//! reduction heuristics. Game results inside the tree (repetitions with the
//! perpetual check/chase verdicts, the natural move limit) come from
//! `rules`, never from code of this module's own.
//!
//! Threads share the transposition table, the stop flag and their node
//! counters through `SearchJob`; everything else here is per thread.

use crate::attacks;
use crate::evaluate;
use crate::history::{
    CORRECTION_GRAIN, CorrectionKeys, CorrectionWeights, Histories, NULL_SLOT, stat_bonus,
};
use crate::movegen::{self, MoveList};
use crate::movepick::{MovePicker, PickerKind, cont_slot};
use crate::nnue::{self, Network, NnueStack};
use crate::options::{self, Character, Level, Style};
use crate::position::{Position, see_value};
use crate::rules::{self, MoveLimitVerdict, RepetitionVerdict, RuleSettings};
use crate::time::{Limits, Spend, TimeManager};
use crate::tt::{TranspositionTable, TtHit};
use crate::tunables::Tunables;
use crate::types::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One line of search output, formatted by the protocol layer.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    /// A finished (or, on a fail, partial) iteration for one principal variation.
    Iteration(IterationInfo),
    /// The root move being searched (sent at most about once a second).
    CurrentMove {
        depth: Depth,
        mv: Move,
        number: usize,
    },
    /// The search is over.
    BestMove {
        best: Option<Move>,
        ponder: Option<Move>,
        score: Score,
        depth: Depth,
    },
    /// Free text for the user.
    Message(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct IterationInfo {
    pub depth: Depth,
    pub seldepth: usize,
    /// 1-based index of the principal variation.
    pub multipv: usize,
    pub score: Score,
    /// `Exact`, or `Lower`/`Upper` when the aspiration window failed.
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

pub type Reporter = Arc<dyn Fn(Report) + Send + Sync>;

/// What one thread publishes to the others while it searches, on its own
/// cache line so that writers do not contend.
#[repr(align(64))]
#[derive(Default)]
pub struct ThreadShare {
    /// Nodes searched so far.
    pub nodes: AtomicU64,
    /// The thread's recent best-move changes (`f64` bits), which the main
    /// thread's time manager reads across all threads.
    pub move_changes: AtomicU64,
}

/// What every thread of one search shares.
pub struct SearchJob {
    pub root: Position,
    pub limits: Limits,
    /// Root moves allowed (after `banmoves`/`searchmoves`); empty = all.
    pub root_filter: Vec<Move>,
    pub multipv: usize,
    pub rules: RuleSettings,
    pub tt: Arc<TranspositionTable>,
    pub stop: AtomicBool,
    /// True while pondering: time limits wait for `ponderhit`.
    pub pondering: AtomicBool,
    /// One slot per thread.
    pub shares: Vec<ThreadShare>,
    pub reporter: Reporter,
    pub start: Instant,
    pub move_overhead: u64,
    /// Per-thread results for the best-thread vote.
    pub results: Mutex<Vec<Option<ThreadResult>>>,
    /// Noise amplitude added to root move scores for variety (0 = none).
    pub root_noise: i32,
    pub seed: u64,
    /// When `ponderhit` arrived (the clock's real start).
    pub ponderhit_at: Mutex<Option<Instant>>,
    pub character: Character,
    /// Margins, reductions and limits (defaults unless a tuner set them).
    pub tunables: Tunables,
    /// The network to evaluate with (`None`: the classical evaluation). It
    /// is used at full `knowledge` only; lower levels are classical.
    pub network: Option<Arc<Network>>,
}

impl SearchJob {
    /// A job with default settings: all root moves, one PV, default rules,
    /// 50 ms move overhead, no root noise.
    pub fn new(
        root: Position,
        limits: Limits,
        tt: Arc<TranspositionTable>,
        threads: usize,
        reporter: Reporter,
    ) -> SearchJob {
        let threads = threads.max(1);
        SearchJob {
            root,
            pondering: AtomicBool::new(limits.ponder),
            limits,
            root_filter: Vec::new(),
            multipv: 1,
            rules: RuleSettings::default(),
            tt,
            stop: AtomicBool::new(false),
            shares: (0..threads).map(|_| ThreadShare::default()).collect(),
            reporter,
            start: Instant::now(),
            move_overhead: 50,
            results: Mutex::new(vec![None; threads]),
            root_noise: 0,
            seed: 0,
            ponderhit_at: Mutex::new(None),
            character: Character::default(),
            tunables: Tunables::default(),
            network: options::DEFAULT_USE_NNUE.then(nnue::embedded),
        }
    }

    pub fn total_nodes(&self) -> u64 {
        self.shares
            .iter()
            .map(|s| s.nodes.load(Ordering::Relaxed))
            .sum()
    }

    /// The threads' recent best-move changes, averaged: how unsettled the
    /// root is across the whole search, not only on the main thread.
    pub fn average_move_changes(&self) -> f64 {
        let total: f64 = self
            .shares
            .iter()
            .map(|s| f64::from_bits(s.move_changes.load(Ordering::Relaxed)))
            .sum();
        total / self.shares.len().max(1) as f64
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A thread's answer, for the vote.
#[derive(Clone, Debug)]
pub struct ThreadResult {
    pub best: Move,
    pub score: Score,
    pub depth: Depth,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: Score,
    pub prev_score: Score,
    /// Average of recent scores, for aspiration windows.
    pub avg_score: Score,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    pub bound: Bound,
    /// Nodes spent on this move in this search (this thread's).
    pub effort: u64,
}

impl RootMove {
    fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            prev_score: -INFINITE,
            avg_score: -INFINITE,
            seldepth: 0,
            pv: vec![mv],
            bound: Bound::Exact,
            effort: 0,
        }
    }
}

/// Per-ply search state.
#[derive(Clone, Copy)]
struct Frame {
    /// The move made from this ply (`Move::NULL` for a null move).
    mv: Move,
    /// Continuation-history slot of that move.
    cont_slot: usize,
    /// Static evaluation at this ply (-INFINITE in check).
    static_eval: Score,
    killers: [Move; 2],
    /// The move a singular-extension search leaves out at this ply.
    excluded: Move,
    /// Beta cut-offs found at this ply since the parent node started its
    /// moves (two for one without a hash move): many say the parent's
    /// moves keep being refuted.
    cutoffs: u32,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            mv: Move::NONE,
            cont_slot: NULL_SLOT,
            static_eval: 0,
            killers: [Move::NONE; 2],
            excluded: Move::NONE,
            cutoffs: 0,
        }
    }
}

/// What the steps of one main-search node share.
#[derive(Clone, Copy)]
struct Node {
    ply: usize,
    depth: Depth,
    /// On the principal variation (the root included).
    pv: bool,
    root: bool,
    /// Expected to fail high.
    cut: bool,
    in_check: bool,
    static_eval: Score,
    improving: bool,
    /// The opponent's position got worse with its last move: our static
    /// evaluation is above the negation of its one.
    opponent_worsening: bool,
    /// On the principal variation now or when the table's entry was stored.
    tt_pv: bool,
    /// The hash move is a capture.
    tt_capture: bool,
    /// The move a singular-extension search of this node leaves out.
    excluded: Move,
}

/// The outcome of step 8b's singular-extension test.
enum Singular {
    /// The test does not apply to this move.
    NotTried,
    /// Plies to add to (or, negative, take off) the move's depth.
    Extend(Depth),
    /// A second move also beats beta: the node's score.
    MultiCut(Score),
}

/// What the steps of the move loop know about one move.
struct MoveInfo {
    m: Move,
    /// 1-based number of the move in this node.
    number: i32,
    is_capture: bool,
    gives_check: bool,
    /// A killer or the counter move.
    refutation: bool,
    /// Quiet-move history (0 for captures).
    history: i32,
}

/// Step 8a's verdict on a move.
enum MovePrune {
    Search,
    Skip,
    /// Skip this move and every quiet move after it.
    SkipQuiets,
}

/// More beta cut-offs than this among a node's children so far (see
/// `Frame::cutoffs`) make its later moves reduce `lmr_cutoffs` more.
const CUTOFFS_MANY: u32 = 3;

/// A side with at most this many legal moves may be near a stalemate:
/// it gets no null move (having to move may be its undoing), and its
/// opponent's pruning spares the moves that would leave it none (a
/// stalemate hides behind a quiet move, which futility and late-move
/// pruning would skip).
const STALEMATE_WATCH: usize = 4;

/// Depth at which quiescence stores a stand-pat score; as a minimum depth
/// for a table cut-off it accepts every entry.
const QS_DEPTH: Depth = -1;

/// The score of giving mate `ply` plies from the root, for the mating side.
#[inline(always)]
const fn mate_in(ply: usize) -> Score {
    MATE - ply as Score
}

/// The score of being mated (or stalemated) `ply` plies from the root.
#[inline(always)]
const fn mated_in(ply: usize) -> Score {
    -(MATE - ply as Score)
}

/// The score of winning by the repetition rules `ply` plies from the root
/// (the opponent checked or chased perpetually): decided, but not a mate.
#[inline(always)]
const fn rule_win_in(ply: usize) -> Score {
    RULE_WIN - ply as Score
}

/// How much an aspiration window widens after each fail, in percent.
const ASPIRATION_GROWTH_PCT: Score = 50;

/// Frames before ply 0, so that `ply - 4` is always a valid index.
const FRAME_OFFSET: usize = 4;

/// Late-move reduction table, `[depth][move number]`, in plies times 1024:
/// `base + ln(depth) * ln(move number) / divisor` plies, the two tunables
/// in hundredths.
fn reduction_table(t: &Tunables) -> Box<[[i32; 64]; 64]> {
    let base = t.lmr_base as f64 / 100.0;
    let divisor = t.lmr_divisor as f64 / 100.0;
    let mut table = Box::new([[0i32; 64]; 64]);
    for (d, row) in table.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (1024.0 * (base + (d as f64).ln() * (m as f64).ln() / divisor)) as i32;
        }
    }
    table
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum NodeType {
    Root,
    Pv,
    NonPv,
}

/// One search thread.
pub struct Worker {
    pub id: usize,
    pub hist: Histories,
    reductions: Box<[[i32; 64]; 64]>,
    /// The search's tunable numbers, from the job.
    tun: Tunables,
    // Per-search state:
    pos: Position,
    frames: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: Vec<usize>,
    pub root_moves: Vec<RootMove>,
    nodes: u64,
    seldepth: usize,
    root_depth: Depth,
    pv_idx: usize,
    pub completed_depth: Depth,
    best_move_changes: f64,
    last_currmove_report: Option<Instant>,
    tm: Option<TimeManager>,
    nodes_limit: Option<u64>,
    /// The node count at which this thread checks the limits off its usual
    /// 1,024-node beat: the node limit itself, so that `go nodes N` stops at
    /// N (one thread) rather than at the next multiple of 1,024.
    exact_stop_at: u64,
    was_pondering: bool,
    /// Recent static evaluations by key (positions recur often in a tree).
    eval_cache: Vec<(u64, Score)>,
    /// The search's character, from the job: evaluation knowledge, forward
    /// pruning, and the draw value for the side the engine plays.
    knowledge: Level,
    prune: Pruning,
    contempt: Score,
    root_side: Color,
    /// The accumulators when evaluating with a network.
    nnue: Option<NnueStack>,
    /// Which evaluation `eval_cache` holds (0: classical at `knowledge`).
    eval_id: u64,
    /// The natural move limit in plies (0: off), from the job's rules.
    move_limit_plies: i32,
}

/// Forward pruning at one `pruning` level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pruning {
    /// Any forward pruning at all (reverse futility, null move, late-move,
    /// futility, SEE and history pruning); `none` turns it all off.
    forward: bool,
    razor: bool,
    /// Percent applied to every pruning margin and late-move count.
    scale: i32,
    null_min_depth: Depth,
}

/// The `pruning` levels below full: every margin and late-move count
/// widened by this percentage, and null move only from this depth on.
const PRUNING_MEDIUM_SCALE: i32 = 150;
const PRUNING_MEDIUM_NULL_DEPTH: Depth = 4;
const PRUNING_SMALL_SCALE: i32 = 250;
const PRUNING_SMALL_NULL_DEPTH: Depth = 6;

impl Pruning {
    fn at(level: Level, t: &Tunables) -> Pruning {
        match level {
            Level::Large => Pruning {
                forward: true,
                razor: true,
                scale: 100,
                null_min_depth: t.nmp_depth,
            },
            Level::Medium => Pruning {
                forward: true,
                razor: false,
                scale: PRUNING_MEDIUM_SCALE,
                null_min_depth: PRUNING_MEDIUM_NULL_DEPTH,
            },
            Level::Small => Pruning {
                forward: true,
                razor: false,
                scale: PRUNING_SMALL_SCALE,
                null_min_depth: PRUNING_SMALL_NULL_DEPTH,
            },
            Level::None => Pruning {
                forward: false,
                razor: false,
                scale: 100,
                null_min_depth: MAX_PLY as Depth,
            },
        }
    }

    /// A pruning margin or late-move count at this level (larger = less
    /// pruning).
    #[inline(always)]
    fn scaled(self, v: i32) -> i32 {
        v * self.scale / 100
    }
}

/// What a draw is worth to the side the engine plays with `style solid`
/// (takes safe draws) and `style risky` (plays on, as if a quarter pawn
/// down).
const CONTEMPT_SOLID: Score = 15;
const CONTEMPT_RISKY: Score = -25;

/// What a draw is worth to the side the engine plays, by style.
fn contempt(style: Style) -> Score {
    match style {
        Style::Solid => CONTEMPT_SOLID,
        Style::Normal => 0,
        Style::Risky => CONTEMPT_RISKY,
    }
}

/// A job with this seed makes the main search thread panic (unit tests of
/// the pool's recovery).
#[cfg(test)]
pub(crate) const PANIC_SEED_FOR_TESTS: u64 = 0x5eed_dead_5eed_dead;

/// Entries in the per-thread evaluation cache (a power of two).
const EVAL_CACHE_SIZE: usize = 1 << 16;

impl Worker {
    pub fn new(id: usize) -> Worker {
        Worker {
            id,
            hist: Histories::default(),
            reductions: reduction_table(&Tunables::default()),
            tun: Tunables::default(),
            pos: Position::startpos(),
            frames: vec![Frame::default(); MAX_PLY + FRAME_OFFSET + 4],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            root_moves: Vec::new(),
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            pv_idx: 0,
            completed_depth: 0,
            best_move_changes: 0.0,
            last_currmove_report: None,
            tm: None,
            nodes_limit: None,
            exact_stop_at: u64::MAX,
            was_pondering: false,
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE],
            knowledge: Level::Large,
            prune: Pruning::at(Level::Large, &Tunables::default()),
            contempt: 0,
            root_side: Color::Red,
            nnue: None,
            eval_id: 0,
            move_limit_plies: 0,
        }
    }

    pub fn clear_history(&mut self) {
        self.hist.clear();
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Three views of the position's value: the static evaluation (the
    /// table's copy when it has one; the table keeps it uncorrected), that
    /// evaluation moved by the correction history and damped by the plies
    /// since the last capture, and that one sharpened by a stored score
    /// whose bound allows it.
    fn evals(&mut self, tt_hit: Option<TtHit>) -> (Score, Score, Score) {
        let raw = match tt_hit {
            Some(h) if h.eval != -INFINITE && h.eval.abs() < DECISIVE_BOUND => h.eval,
            _ => self.static_eval(),
        };
        let corrected = self.damped(self.corrected(raw));
        let sharpened = match tt_hit {
            Some(h)
                if h.score.abs() < DECISIVE_BOUND
                    && match h.bound {
                        Bound::Exact => true,
                        Bound::Lower => h.score > corrected,
                        Bound::Upper => h.score < corrected,
                        Bound::None => false,
                    } =>
            {
                h.score
            }
            _ => corrected,
        };
        (raw, corrected, sharpened)
    }

    /// `eval` shrunk toward the draw by `eval_limit_damp` percent at the
    /// natural move limit, linearly in the plies since the last capture
    /// (none when the limit is off). The table and the cache keep the
    /// evaluation undamped: the key does not know the count.
    #[inline(always)]
    fn damped(&self, eval: Score) -> Score {
        let limit = self.move_limit_plies;
        if self.tun.eval_limit_damp == 0 || limit == 0 {
            return eval;
        }
        let run = (self.pos.rule60() as i32).min(limit);
        eval - eval * run * self.tun.eval_limit_damp / (100 * limit)
    }

    /// Whether the correction history has any weight: with every weight 0
    /// it is off, neither read nor written.
    #[inline(always)]
    fn corrections_on(&self) -> bool {
        self.tun.corr_pawn != 0 || self.tun.corr_material != 0 || self.tun.corr_nonpawn != 0
    }

    /// The keys of the current position's correction entries.
    #[inline(always)]
    fn correction_keys(&self) -> CorrectionKeys {
        CorrectionKeys {
            pawn: self.pos.pawn_key(),
            material: self.pos.material_key(),
            nonpawn: Color::BOTH.map(|c| self.pos.nonpawn_key(c)),
        }
    }

    /// `raw` moved by what the correction history has learnt about this
    /// pawn structure, material and placing of officers, kept short of the
    /// decisive band.
    #[inline]
    fn corrected(&self, raw: Score) -> Score {
        if !self.corrections_on() {
            return raw;
        }
        let weights = CorrectionWeights {
            pawn: self.tun.corr_pawn,
            material: self.tun.corr_material,
            nonpawn: self.tun.corr_nonpawn,
        };
        let c = self.hist.correction.correction(
            self.pos.side_to_move(),
            &self.correction_keys(),
            &weights,
        );
        (raw + c).clamp(-DECISIVE_BOUND + 1, DECISIVE_BOUND - 1)
    }

    /// Teaches the correction history how far the search's `best` score
    /// ran from the static evaluation `static_eval` at `depth`, when the
    /// bound says which way: a fail-high above the evaluation or a
    /// fail-low below it. A capture as the best move explains the gap by
    /// material, not by a misjudged position, and is left out.
    fn update_correction(
        &mut self,
        depth: Depth,
        static_eval: Score,
        best: Score,
        bound: Bound,
        best_move: Move,
    ) {
        if !self.corrections_on()
            || best.abs() >= DECISIVE_BOUND
            || (best_move.is_some() && self.pos.piece_on(best_move.to()).is_some())
            || (bound == Bound::Lower && best <= static_eval)
            || (bound == Bound::Upper && best >= static_eval)
        {
            return;
        }
        let bonus = (best - static_eval) * depth * CORRECTION_GRAIN / self.tun.corr_div;
        let keys = self.correction_keys();
        self.hist
            .correction
            .update(self.pos.side_to_move(), &keys, bonus);
    }

    /// The static evaluation of the current position, through the cache.
    #[inline]
    fn static_eval(&mut self) -> Score {
        let key = self.pos.key();
        let slot = &mut self.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)];
        if slot.0 == key {
            return slot.1;
        }
        let e = match self.nnue.as_mut() {
            Some(stack) => evaluate::with_network(stack, &self.pos),
            None => evaluate::classical(&self.pos, self.knowledge),
        };
        *slot = (key, e);
        e
    }

    // Making and taking back moves: every change of the search position
    // goes through these four, so that the accumulators follow the board.

    /// Makes `m`, keeping the accumulators in step.
    #[inline(always)]
    fn do_move(&mut self, m: Move) {
        if let Some(stack) = self.nnue.as_mut() {
            stack.push_move(&self.pos, m);
        }
        self.pos.make_move(m);
    }

    #[inline(always)]
    fn undo_move(&mut self) {
        self.pos.unmake_move();
        if let Some(stack) = self.nnue.as_mut() {
            stack.pop();
        }
    }

    #[inline(always)]
    fn do_null_move(&mut self) {
        if let Some(stack) = self.nnue.as_mut() {
            stack.push_null();
        }
        self.pos.make_null_move();
    }

    #[inline(always)]
    fn undo_null_move(&mut self) {
        self.pos.unmake_null_move();
        if let Some(stack) = self.nnue.as_mut() {
            stack.pop();
        }
    }

    /// Sets up the evaluation the job asks for: the network's accumulators
    /// at the root, or none for the classical evaluation.
    fn set_evaluation(&mut self, job: &SearchJob) {
        let net = job
            .network
            .as_ref()
            .filter(|_| job.character.knowledge == Level::Large);
        let id = match net {
            Some(n) => n.hash() | 1,
            None => job.character.knowledge as u64 * 2,
        };
        if id != self.eval_id {
            // Cached evaluations were made by another evaluation.
            self.eval_cache.fill((0, 0));
            self.eval_id = id;
        }
        self.knowledge = job.character.knowledge;
        match net {
            Some(net) => {
                if !self
                    .nnue
                    .as_ref()
                    .is_some_and(|s| Arc::ptr_eq(s.network(), net))
                {
                    self.nnue = Some(NnueStack::new(net.clone()));
                }
                if let Some(stack) = self.nnue.as_mut() {
                    stack.reset(&self.pos);
                }
            }
            None => self.nnue = None,
        }
    }

    /// Runs iterative deepening for `job` until done or stopped, leaving the
    /// thread's answer in `job.results`.
    pub fn run(&mut self, job: &SearchJob) {
        #[cfg(test)]
        if job.seed == PANIC_SEED_FOR_TESTS && self.id == 0 {
            panic!("test: a search thread fails");
        }
        self.pos = job.root.clone();
        self.nodes = 0;
        self.seldepth = 0;
        self.completed_depth = 0;
        self.best_move_changes = 0.0;
        self.last_currmove_report = None;
        self.frames.fill(Frame::default());
        self.nodes_limit = job.limits.nodes;
        self.exact_stop_at = job.limits.nodes.unwrap_or(u64::MAX);
        self.was_pondering = job.limits.ponder;
        self.set_evaluation(job);
        if self.tun != job.tunables {
            self.tun = job.tunables;
            self.reductions = reduction_table(&self.tun);
        }
        self.prune = Pruning::at(job.character.pruning, &self.tun);
        self.contempt = contempt(job.character.style);
        self.move_limit_plies = 2 * job.rules.move_limit.min(1000) as i32;
        self.root_side = job.root.side_to_move();
        self.tm = self.is_main().then(|| {
            TimeManager::new(
                &job.limits,
                job.root.fullmove_number(),
                job.move_overhead,
                &Spend::of(&job.tunables),
            )
        });
        let legal = movegen::legal_moves(&self.pos);
        self.root_moves = legal
            .iter()
            .filter(|m| job.root_filter.is_empty() || job.root_filter.contains(m))
            .map(|&m| RootMove::new(m))
            .collect();
        if self.root_moves.is_empty() {
            self.publish(job, None);
            return;
        }
        self.iterative_deepening(job);
        let best = &self.root_moves[0];
        self.publish(
            job,
            Some(ThreadResult {
                best: best.mv,
                score: best.score,
                depth: self.completed_depth,
                pv: best.pv.clone(),
            }),
        );
    }

    fn publish(&self, job: &SearchJob, r: Option<ThreadResult>) {
        job.shares[self.id]
            .nodes
            .store(self.nodes, Ordering::Relaxed);
        if let Ok(mut results) = job.results.lock()
            && self.id < results.len()
        {
            results[self.id] = r;
        }
    }

    fn iterative_deepening(&mut self, job: &SearchJob) {
        let max_depth = job
            .limits
            .depth
            .unwrap_or(MAX_PLY as Depth - 8)
            .clamp(1, MAX_PLY as Depth - 8);
        let multipv = job.multipv.clamp(1, self.root_moves.len());
        let mut last_best = Move::NONE;
        let mut stable_iterations = 0u32;
        let mut prev_best_score = -INFINITE;
        // A lone legal move needs no thought when the clock is running.
        let single_reply = self.root_moves.len() == 1 && job.limits.uses_clock();

        let mut depth = 0;
        while depth < max_depth {
            depth += 1;
            if !searches_depth(self.id, depth, max_depth, self.tun.smp_skip != 0) {
                continue;
            }
            self.root_depth = depth;
            self.best_move_changes *= 0.5;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(job, depth);
                // Keep the searched PV lines in order, the rest after.
                self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
                if job.stopped() {
                    break;
                }
                if self.is_main() {
                    self.report_pvs(job, depth, pv_idx + 1);
                }
            }
            if job.stopped() {
                break;
            }
            self.completed_depth = depth;
            job.shares[self.id]
                .move_changes
                .store(self.best_move_changes.to_bits(), Ordering::Relaxed);

            if !self.is_main() {
                continue;
            }
            let best = &self.root_moves[0];
            if let Some(mate) = job.limits.mate
                && best.score >= MATE_BOUND
                && MATE - best.score <= 2 * mate as Score
            {
                break;
            }
            if best.mv == last_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
                last_best = best.mv;
            }
            let drop = if prev_best_score > -INFINITE {
                prev_best_score - best.score
            } else {
                0
            };
            prev_best_score = best.score;
            if single_reply {
                break;
            }
            let pondering = job.pondering.load(Ordering::Relaxed);
            if let Some(tm) = self.tm.as_mut() {
                let effort = best.effort as f64 / self.nodes.max(1) as f64;
                tm.update_stability(job.average_move_changes(), drop, stable_iterations, effort);
                if !pondering && tm.should_stop_after_iteration() {
                    break;
                }
            }
        }
    }

    fn aspiration(&mut self, job: &SearchJob, depth: Depth) {
        let prev = self.root_moves[self.pv_idx].avg_score;
        let t = &self.tun;
        let mut delta = t.asp_delta + (prev.abs() / t.asp_score_divisor).min(t.asp_score_max);
        let (mut alpha, mut beta) = if depth >= t.asp_depth && prev > -INFINITE {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.search(job, NodeType::Root, 0, alpha, beta, depth, false);
            // Stable sort keeps the previous order among equal scores.
            self.root_moves[self.pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if job.stopped() {
                return;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                self.root_moves[self.pv_idx].bound = Bound::Upper;
                self.report_fail(job, depth);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                self.root_moves[self.pv_idx].bound = Bound::Lower;
                self.report_fail(job, depth);
            } else {
                self.root_moves[self.pv_idx].bound = Bound::Exact;
                let rm = &mut self.root_moves[self.pv_idx];
                rm.avg_score = if rm.avg_score == -INFINITE {
                    score
                } else {
                    (2 * score + rm.avg_score) / 3
                };
                return;
            }
            delta += delta * ASPIRATION_GROWTH_PCT / 100;
        }
    }

    /// Reports a failed aspiration search once the search has run a while
    /// (GUIs like to see the score move, but not on every quick re-search).
    fn report_fail(&self, job: &SearchJob, depth: Depth) {
        if self.is_main() && job.start.elapsed() > Duration::from_secs(3) {
            self.report_pvs(job, depth, self.pv_idx + 1);
        }
    }

    fn report_pvs(&self, job: &SearchJob, depth: Depth, lines: usize) {
        let elapsed = job.start.elapsed();
        let nodes = job.total_nodes().max(self.nodes);
        let ms = elapsed.as_millis() as u64;
        let nps = if elapsed.as_secs_f64() > 0.0 {
            (nodes as f64 / elapsed.as_secs_f64()) as u64
        } else {
            0
        };
        let hashfull = job.tt.hashfull();
        for (i, rm) in self.root_moves.iter().take(lines).enumerate() {
            let (score, d) = if rm.score == -INFINITE {
                // Not searched at this depth yet: show the last result.
                (rm.prev_score, (depth - 1).max(1))
            } else {
                (rm.score, depth)
            };
            if score == -INFINITE {
                continue;
            }
            (job.reporter)(Report::Iteration(IterationInfo {
                depth: d,
                seldepth: rm.seldepth.max(d as usize),
                multipv: i + 1,
                score,
                bound: if i == self.pv_idx {
                    rm.bound
                } else {
                    Bound::Exact
                },
                nodes,
                nps,
                time_ms: ms,
                hashfull,
                pv: rm.pv.clone(),
            }));
        }
    }

    /// Called every node: counts it and, on the main thread, checks the
    /// clock and the node limit every so often.
    #[inline(always)]
    fn tick(&mut self, job: &SearchJob) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 || self.nodes == self.exact_stop_at {
            job.shares[self.id]
                .nodes
                .store(self.nodes, Ordering::Relaxed);
            if self.is_main() {
                self.check_limits(job);
            }
        }
    }

    /// The start of every node, in the main search and in quiescence alike:
    /// counts it, empties its PV and raises the selective depth. True when
    /// the search has been told to stop, and the node must return at once.
    #[inline(always)]
    fn enter_node(&mut self, job: &SearchJob, pv_node: bool, ply: usize) -> bool {
        self.tick(job);
        if pv_node {
            self.pv_len[ply] = 0;
            self.seldepth = self.seldepth.max(ply + 1);
        }
        job.stopped()
    }

    fn check_limits(&mut self, job: &SearchJob) {
        if self.root_depth <= 1 {
            // Always finish depth 1 so there is a move to play.
            return;
        }
        if let Some(limit) = self.nodes_limit
            && job.total_nodes() >= limit
        {
            job.stop();
        }
        let pondering = job.pondering.load(Ordering::Relaxed);
        if self.was_pondering && !pondering {
            // `ponderhit`: our clock started when it arrived.
            self.was_pondering = false;
            let at = job.ponderhit_at.lock().ok().and_then(|t| *t);
            if let Some(tm) = self.tm.as_mut() {
                tm.restart_at(at.unwrap_or_else(Instant::now));
            }
        }
        if let Some(tm) = self.tm.as_ref()
            && !pondering
            && !job.limits.infinite
            && tm.out_of_time()
        {
            job.stop();
        }
    }

    // -----------------------------------------------------------------------
    // Frames: per-ply state, with `FRAME_OFFSET` blank frames before the root.

    #[inline(always)]
    fn frame(&self, ply: usize) -> &Frame {
        &self.frames[ply + FRAME_OFFSET]
    }

    #[inline(always)]
    fn frame_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply + FRAME_OFFSET]
    }

    /// The frame `k` plies before `ply` (blank before the root).
    #[inline(always)]
    fn frame_back(&self, ply: usize, k: usize) -> &Frame {
        debug_assert!(k <= FRAME_OFFSET);
        &self.frames[ply + FRAME_OFFSET - k]
    }

    /// Records in the frame at `ply` the move about to be made from it.
    #[inline(always)]
    fn record_move(&mut self, ply: usize, m: Move) {
        let moved = self.pos.piece_on(m.from());
        let f = self.frame_mut(ply);
        f.mv = m;
        f.cont_slot = cont_slot(moved, m.to());
    }

    /// Continuation-history slots of the moves 1, 2 and 4 plies back.
    #[inline(always)]
    fn cont_slots(&self, ply: usize) -> [usize; 3] {
        [
            self.frame_back(ply, 1).cont_slot,
            self.frame_back(ply, 2).cont_slot,
            self.frame_back(ply, 4).cont_slot,
        ]
    }

    // -----------------------------------------------------------------------
    // Scores that need no search.

    /// Score of a draw, with a tiny node-dependent jitter that keeps the
    /// search from settling for the first repetition it finds.
    #[inline(always)]
    fn draw_score(&self) -> Score {
        let jitter = 1 - (self.nodes & 2) as Score;
        if self.pos.side_to_move() == self.root_side {
            jitter + self.contempt
        } else {
            jitter - self.contempt
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        self.pv[ply][0] = m;
        for i in 0..child_len.min(MAX_PLY - 1) {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len.min(MAX_PLY - 1) + 1;
    }

    /// Game-rule results at a non-root node: repetition verdicts and the
    /// natural move limit.
    fn rule_result(&mut self, job: &SearchJob, ply: usize) -> Option<Score> {
        if let Some(v) = rules::repetition_verdict(&mut self.pos) {
            return Some(match v {
                RepetitionVerdict::Draw => self.draw_score(),
                RepetitionVerdict::SideToMoveWins => rule_win_in(ply),
                RepetitionVerdict::SideToMoveLoses => -rule_win_in(ply),
            });
        }
        rules::move_limit_verdict(&self.pos, &job.rules).map(|v| match v {
            MoveLimitVerdict::Draw => self.draw_score(),
            MoveLimitVerdict::SideToMoveLoses => mated_in(ply),
        })
    }

    /// The score returned at the ply cap, where the search stops deepening.
    #[inline]
    fn score_at_ply_cap(&mut self, in_check: bool) -> Score {
        if in_check { 0 } else { self.static_eval() }
    }

    /// Whether the natural move limit is more than 20 plies away (or off),
    /// so that a stored score, which may predate the limit, can be trusted.
    #[inline(always)]
    fn far_from_move_limit(&self, job: &SearchJob) -> bool {
        let limit = job.rules.move_limit;
        limit == 0 || self.pos.rule60() + 20 < limit.saturating_mul(2)
    }

    /// Whether a table entry settles a node searched to `depth` with the
    /// window `(alpha, beta)`: deep enough, a bound on the right side of
    /// the window, and not so near the move limit that it may be stale.
    #[inline(always)]
    fn tt_cuts(&self, job: &SearchJob, h: &TtHit, depth: Depth, alpha: Score, beta: Score) -> bool {
        h.depth >= depth
            && h.score != -INFINITE
            && match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
                Bound::None => false,
            }
            && self.far_from_move_limit(job)
    }

    /// `score`, unless the side to move has no legal move: then it has lost
    /// (a stalemate loses in xiangqi), whatever the evaluation says. The
    /// move loop sees this by itself; every path that returns without
    /// reaching it asks here. Nearly free: `has_legal_move` stops at the
    /// first move, usually the first chariot's.
    #[inline(always)]
    fn unless_stalemated(&self, ply: usize, score: Score) -> Score {
        if movegen::has_legal_move(&self.pos) {
            score
        } else {
            mated_in(ply)
        }
    }

    /// Whether the static evaluation has risen since our previous move.
    #[inline(always)]
    fn improving(&self, ply: usize, static_eval: Score) -> bool {
        let two = self.frame_back(ply, 2).static_eval;
        ply >= 2 && static_eval != -INFINITE && two != -INFINITE && static_eval > two
    }

    /// Whether the opponent's last move made its own position worse by
    /// the static evaluations: ours now is above the negation of its one.
    fn opponent_worsening(&self, ply: usize, static_eval: Score) -> bool {
        let one = self.frame_back(ply, 1).static_eval;
        ply >= 1 && static_eval != -INFINITE && one != -INFINITE && static_eval + one > 2
    }

    // -----------------------------------------------------------------------
    // The main search.

    /// Principal-variation search of one node; the score is from the side to
    /// move's point of view. The numbered steps:
    ///
    ///  1. At the horizon, hand over to quiescence.
    ///  2. Count the node; stop when asked.
    ///  3. Below the root: the game rules (repetition verdicts, the move
    ///     limit), the ply cap, and mate-distance pruning.
    ///  4. Transposition table: probe, and return a stored score that
    ///     settles this window.
    ///  5. Static evaluation and whether it is improving.
    ///  6. Whole-node pruning outside the principal variation and out of
    ///     check: reverse futility, razoring, null move.
    ///  7. Internal iterative reduction when there is no hash move.
    ///  8. The moves, best first: for each, shallow-depth pruning, the check
    ///     extension, a reduced or full-depth search, and the bookkeeping of
    ///     the best score.
    ///  9. No legal move: mated (checkmate and stalemate both lose).
    /// 10. Reward the best move and punish the others in the histories.
    /// 11. Store the result in the transposition table.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        job: &SearchJob,
        nt: NodeType,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        depth: Depth,
        cut_node: bool,
    ) -> Score {
        let root = nt == NodeType::Root;
        let pv_node = nt != NodeType::NonPv;
        debug_assert!(-INFINITE <= alpha && alpha < beta && beta <= INFINITE);
        debug_assert!(pv_node || alpha + 1 == beta, "null window off the PV");
        debug_assert!(root == (ply == 0) && ply < MAX_PLY);
        debug_assert!(depth < MAX_PLY as Depth);

        // 1. Horizon.
        if depth <= 0 {
            return self.qsearch(job, pv_node, ply, alpha, beta, self.tun.qs_checks != 0);
        }

        // 2. Count the node.
        if self.enter_node(job, pv_node, ply) {
            return 0;
        }
        let in_check = self.pos.in_check();
        // A singular-extension search of this node without its hash move:
        // it neither cuts on the table nor stores in it.
        let excluded = self.frame(ply).excluded;

        // 3. Results that need no search.
        if !root {
            if let Some(s) = self.rule_result(job, ply) {
                return s;
            }
            if ply >= MAX_PLY - 4 {
                return self.score_at_ply_cap(in_check);
            }
            // Mate distance pruning: no result here beats a shorter mate.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // 4. Transposition table.
        let key = self.pos.key();
        let tt_hit = job.tt.probe(key, ply);
        let tt_move = if root {
            self.root_moves[self.pv_idx].mv
        } else {
            tt_hit.map_or(Move::NONE, |h| h.mv)
        };
        let tt_pv = pv_node || tt_hit.is_some_and(|h| h.pv);
        if !pv_node
            && excluded == Move::NONE
            && let Some(h) = tt_hit
            && self.tt_cuts(job, &h, depth, alpha, beta)
        {
            if h.score >= beta && h.mv.is_some() && self.pos.piece_on(h.mv.to()).is_none() {
                // A quiet hash move that refutes this node earns history.
                self.update_quiet_stats(ply, h.mv, &[], stat_bonus(depth));
            }
            return h.score;
        }

        // 5. Static evaluation.
        let (raw_eval, static_eval, eval) = if in_check {
            (-INFINITE, -INFINITE, -INFINITE)
        } else {
            self.evals(tt_hit)
        };
        self.frame_mut(ply).static_eval = static_eval;
        self.frame_mut(ply + 1).killers = [Move::NONE; 2];
        self.frame_mut(ply + 1).cutoffs = 0;
        self.frame_mut(ply + 2).killers = [Move::NONE; 2];
        let improving = self.improving(ply, static_eval);
        let opponent_worsening = self.opponent_worsening(ply, static_eval);
        let node = Node {
            ply,
            depth,
            pv: pv_node,
            root,
            cut: cut_node,
            in_check,
            static_eval,
            improving,
            opponent_worsening,
            tt_pv,
            tt_capture: tt_move.is_some() && self.pos.piece_on(tt_move.to()).is_some(),
            excluded,
        };

        // 6. Whole-node pruning. A cut-off stands only if the side to move
        // has a move at all (razoring's quiescence checks for itself).
        if !pv_node && !in_check && excluded == Move::NONE {
            if let Some(s) = self.reverse_futility(&node, eval, beta) {
                return self.unless_stalemated(ply, s);
            }
            if let Some(s) = self.razor(job, &node, eval, alpha) {
                return s;
            }
            if cut_node && let Some(s) = self.null_move(job, &node, eval, beta) {
                return self.unless_stalemated(ply, s);
            }
            if let Some(s) = self.probcut(job, &node, tt_hit, raw_eval, beta) {
                return s;
            }
        }

        // 7. Internal iterative reduction: without a hash move this node was
        // probably not worth much before; search it shallower.
        let depth = if root || tt_move.is_some() || depth < self.tun.iir_depth {
            depth
        } else if pv_node {
            (depth - self.tun.iir_pv_plies).max(1)
        } else if cut_node {
            depth - 1
        } else {
            depth
        };
        let node = Node { depth, ..node };

        // 8. The moves.
        let cont = self.cont_slots(ply);
        let counter = self.counter_move(ply);
        let killers = self.frame(ply).killers;
        let mut picker =
            MovePicker::new(&self.pos, PickerKind::Main, tt_move, killers, counter, cont);
        let mut root_index = self.pv_idx;
        let mut best_score = -INFINITE;
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        let mut quiets_tried = MoveList::new();
        let mut captures_tried = MoveList::new();
        let us = self.pos.side_to_move();
        // Whether the opponent has few moves (asked once, when first needed).
        let mut opponent_short: Option<bool> = None;

        loop {
            let m = if root {
                if root_index >= self.root_moves.len() {
                    break;
                }
                root_index += 1;
                self.root_moves[root_index - 1].mv
            } else {
                match picker.next(&self.pos, &self.hist) {
                    Some(m) if m == excluded => continue,
                    Some(m) => m,
                    None => break,
                }
            };
            move_count += 1;
            if root {
                self.report_current_move(job, depth, m, move_count);
            }
            let moved = self.pos.piece_on(m.from());
            let is_capture = self.pos.piece_on(m.to()).is_some();
            let mv = MoveInfo {
                m,
                number: move_count,
                is_capture,
                gives_check: self.pos.gives_check(m),
                refutation: m == killers[0] || m == killers[1] || m == counter,
                history: if is_capture {
                    0
                } else {
                    self.hist.butterfly.get(us, m)
                        + self.hist.continuation.get(cont[0], moved, m.to())
                        + self.hist.continuation.get(cont[1], moved, m.to())
                        + if self.tun.hist_cont4 == 0 {
                            0
                        } else {
                            self.hist.continuation.get(cont[2], moved, m.to()) * self.tun.hist_cont4
                                / 100
                        }
                },
            };

            // 8a. Shallow-depth pruning, once a non-losing score is in hand;
            // but never of a move that leaves the opponent without a move
            // when it is short of them.
            if !root && best_score > -DECISIVE_BOUND {
                let verdict = self.shallow_prune(&node, &mv, alpha);
                let verdict = if matches!(verdict, MovePrune::Search)
                    || in_check
                    || !*opponent_short.get_or_insert_with(|| self.opponent_short_of_moves())
                {
                    verdict
                } else if self.leaves_no_move(m) {
                    MovePrune::Search
                } else {
                    // Later quiet moves must still be looked at.
                    MovePrune::Skip
                };
                match verdict {
                    MovePrune::Search => {}
                    MovePrune::Skip => continue,
                    MovePrune::SkipQuiets => {
                        picker.skip_quiets = true;
                        continue;
                    }
                }
            }

            // 8b. Extensions, bounded so that perpetual-check lines cannot
            // grow the tree without end: the hash move by how singular it
            // is, else a check by one ply at nodes deep enough.
            let extension = if (ply as Depth) >= 2 * self.root_depth {
                0
            } else {
                match self.singular_extension(job, &node, tt_hit, m, beta) {
                    Singular::Extend(e) => e,
                    Singular::MultiCut(s) => return s,
                    Singular::NotTried => {
                        (mv.gives_check && depth >= self.tun.check_ext_depth) as Depth
                    }
                }
            };
            let new_depth = depth - 1 + extension;

            // 8c. Search the move.
            self.record_move(ply, m);
            let nodes_before = self.nodes;
            self.do_move(m);
            job.tt.prefetch(self.pos.key());
            let score = self.search_move(job, &node, &mv, alpha, beta, best_score, new_depth);
            self.undo_move();
            if root {
                self.root_moves[root_index - 1].effort += self.nodes - nodes_before;
            }
            if job.stopped() {
                return 0;
            }

            // 8d. Keep the best.
            if root {
                self.update_root_move(job, m, move_count, score, alpha);
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if pv_node && !root {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        self.frame_mut(ply).cutoffs += 1 + (tt_move == Move::NONE) as u32;
                        break;
                    }
                    alpha = score;
                }
            }
            if m != best_move {
                if is_capture {
                    captures_tried.push(m);
                } else {
                    quiets_tried.push(m);
                }
            }
        }

        // 9. No legal move: mate or stalemate, both lost in xiangqi. A
        // singular search with no move but the excluded one fails low.
        if move_count == 0 {
            return if excluded.is_some() {
                alpha
            } else {
                mated_in(ply)
            };
        }

        // 10. Histories.
        if best_move.is_some() {
            self.update_histories(ply, depth, best_move, &quiets_tried, &captures_tried);
        }

        // 11. Transposition table (the evaluation uncorrected) and the
        // correction history. At the root only the first PV line's result
        // describes the position; a singular search, which left a move
        // out, describes none.
        if !(root && self.pv_idx > 0) && excluded == Move::NONE {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if pv_node && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            job.tt.store(
                key, ply, best_move, best_score, raw_eval, depth, bound, tt_pv,
            );
            if !in_check {
                self.update_correction(depth, static_eval, best_score, bound, best_move);
            }
        }
        debug_assert!(best_score > -INFINITE && best_score < INFINITE);
        best_score
    }

    /// Step 6, ProbCut: a good capture whose reply searched four plies
    /// shallower still holds a margin above beta would, with high
    /// probability, cut at full depth: cut now. Captures that cannot win
    /// the margin by exchange alone (SEE) are not tried; a stored score
    /// from a deep enough search that falls short of the margin says the
    /// attempt would fail. Quiescence screens each capture first. The side
    /// to move has a move (the capture), so no stalemate hides behind it.
    fn probcut(
        &mut self,
        job: &SearchJob,
        node: &Node,
        tt_hit: Option<TtHit>,
        raw_eval: Score,
        beta: Score,
    ) -> Option<Score> {
        let (ply, depth) = (node.ply, node.depth);
        let t = &self.tun;
        if t.probcut_depth == 0 || depth < t.probcut_depth || beta.abs() >= DECISIVE_BOUND {
            return None;
        }
        let probcut_beta = beta + t.probcut_margin
            - if node.improving {
                t.probcut_improving
            } else {
                0
            };
        if let Some(h) = tt_hit
            && h.depth >= depth - 3
            && h.score != -INFINITE
            && h.score < probcut_beta
        {
            return None;
        }
        let tt_move = tt_hit.map_or(Move::NONE, |h| h.mv);
        let cont = self.cont_slots(ply);
        let mut picker = MovePicker::new(
            &self.pos,
            PickerKind::Quiescence,
            tt_move,
            [Move::NONE; 2],
            Move::NONE,
            cont,
        );
        let threshold = probcut_beta - node.static_eval;
        while let Some(m) = picker.next(&self.pos, &self.hist) {
            if !self.pos.see_ge(m, threshold) {
                continue;
            }
            self.record_move(ply, m);
            self.do_move(m);
            job.tt.prefetch(self.pos.key());
            let mut v = -self.qsearch(job, false, ply + 1, -probcut_beta, -probcut_beta + 1, false);
            if v >= probcut_beta {
                v = -self.search(
                    job,
                    NodeType::NonPv,
                    ply + 1,
                    -probcut_beta,
                    -probcut_beta + 1,
                    depth - 4,
                    !node.cut,
                );
            }
            self.undo_move();
            if job.stopped() {
                return Some(0);
            }
            if v >= probcut_beta && v.abs() < DECISIVE_BOUND {
                job.tt.store(
                    self.pos.key(),
                    ply,
                    m,
                    v,
                    raw_eval,
                    depth - 3,
                    Bound::Lower,
                    node.tt_pv,
                );
                return Some(v - (probcut_beta - beta));
            }
        }
        None
    }

    /// Step 8b, singular extension: the hash move, stored as a lower bound
    /// from a search nearly as deep as this one, is searched again with
    /// every other move at half depth against a bar a little below its
    /// score. If none reaches the bar the hash move is singular, the only
    /// good move, and gets one more ply (two off the PV when the rest fall
    /// far short). If the bar is above beta and a second move reaches it,
    /// two moves refute this node: cut (multi-cut). If the hash score is
    /// above beta, or this is a cut node, or another move matched the hash
    /// score, the hash move is searched shallower instead.
    fn singular_extension(
        &mut self,
        job: &SearchJob,
        node: &Node,
        tt_hit: Option<TtHit>,
        m: Move,
        beta: Score,
    ) -> Singular {
        let (ply, depth) = (node.ply, node.depth);
        let t = &self.tun;
        let Some(h) = tt_hit else {
            return Singular::NotTried;
        };
        // Off the root the hash move is the table's.
        if node.root
            || m != h.mv
            || node.excluded.is_some()
            || t.se_depth == 0
            || depth < t.se_depth
            || h.depth < depth - 3
            || !matches!(h.bound, Bound::Lower | Bound::Exact)
            || h.score.abs() >= DECISIVE_BOUND
        {
            return Singular::NotTried;
        }
        let singular_beta = h.score - t.se_margin * depth / 64;
        let double_margin = t.se_double;
        self.frame_mut(ply).excluded = m;
        let v = self.search(
            job,
            NodeType::NonPv,
            ply,
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            node.cut,
        );
        self.frame_mut(ply).excluded = Move::NONE;
        if v < singular_beta {
            let double =
                !node.pv && v < singular_beta - double_margin && (ply as Depth) < self.root_depth;
            Singular::Extend(1 + double as Depth)
        } else if singular_beta >= beta && !job.stopped() {
            Singular::MultiCut(singular_beta)
        } else if h.score >= beta {
            Singular::Extend(-2 + node.pv as Depth)
        } else if node.cut {
            Singular::Extend(-2)
        } else if h.score <= v {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Step 6, reverse futility: far above beta at low depth, cut.
    #[inline(always)]
    fn reverse_futility(&self, node: &Node, eval: Score, beta: Score) -> Option<Score> {
        let prune = self.prune;
        (prune.forward
            && node.depth <= self.tun.rfp_depth
            && eval.abs() < DECISIVE_BOUND
            && eval
                - prune.scaled(self.futility_margin(
                    node.depth,
                    node.improving,
                    node.opponent_worsening,
                ))
                >= beta)
            .then_some((eval + beta) / 2)
    }

    /// Step 6, razoring: hopelessly below alpha, see whether captures save
    /// the node; if not, it fails low.
    #[inline(always)]
    fn razor(&mut self, job: &SearchJob, node: &Node, eval: Score, alpha: Score) -> Option<Score> {
        let d = node.depth;
        let t = &self.tun;
        if !(self.prune.razor
            && d <= t.razor_depth
            && eval + t.razor_base + t.razor_depth_sq * d * d < alpha)
        {
            return None;
        }
        let v = self.qsearch(
            job,
            false,
            node.ply,
            alpha - 1,
            alpha,
            self.tun.qs_checks != 0,
        );
        (v < alpha).then_some(v)
    }

    /// Step 6, null move: if passing still leaves us at or above beta after
    /// a reduced search, cut. Only with a chariot, horse or cannon to move,
    /// since xiangqi end games of advisors, elephants and pawns are full of
    /// zugzwang; and not with only a few legal moves, where having to move
    /// may be what loses (the last moves walking into a stalemate).
    fn null_move(
        &mut self,
        job: &SearchJob,
        node: &Node,
        eval: Score,
        beta: Score,
    ) -> Option<Score> {
        let (ply, depth) = (node.ply, node.depth);
        let prune = self.prune;
        if !(prune.forward
            && depth >= prune.null_min_depth
            && eval >= beta
            && node.static_eval
                >= beta - self.tun.nmp_eval_per_depth * depth + self.tun.nmp_eval_base
            && self.frame_back(ply, 1).mv != Move::NULL
            && self.pos.has_major_pieces(self.pos.side_to_move())
            && beta.abs() < DECISIVE_BOUND
            && !self.short_of_moves())
        {
            return None;
        }
        // Deeper null-move reductions measured +27 ± 24 Elo over 384 games
        // against 3 + depth / 4 (3+0.03 s, SPRT cut at LLR 1.57).
        let t = &self.tun;
        let r = t.nmp_base
            + depth / t.nmp_depth_divisor
            + ((eval - beta) / t.nmp_eval_divisor).min(t.nmp_eval_max);
        let f = self.frame_mut(ply);
        f.mv = Move::NULL;
        f.cont_slot = NULL_SLOT;
        self.do_null_move();
        let v = -self.search(
            job,
            NodeType::NonPv,
            ply + 1,
            -beta,
            -beta + 1,
            depth - r,
            false,
        );
        self.undo_null_move();
        if job.stopped() {
            return Some(0);
        }
        // A mate found after passing is not proof of one: return beta.
        (v >= beta).then_some(if v >= DECISIVE_BOUND { beta } else { v })
    }

    /// The counter move to the opponent's last move, if any.
    #[inline(always)]
    fn counter_move(&self, ply: usize) -> Move {
        let prev = self.frame_back(ply, 1).mv;
        if prev.is_some() {
            let pc = self.pos.piece_on(prev.to());
            if pc.is_some() {
                return self.hist.counters.get(pc, prev.to());
            }
        }
        Move::NONE
    }

    /// Whether `m` captures on the point the previous move went to.
    fn is_recapture(&self, ply: usize, m: Move) -> bool {
        let previous = self.frame_back(ply, 1).mv;
        previous.is_some() && previous.to() == m.to()
    }

    /// Whether the side to move has at most `STALEMATE_WATCH` legal moves.
    fn short_of_moves(&self) -> bool {
        !movegen::has_more_legal_moves_than(&self.pos, STALEMATE_WATCH)
    }

    /// Whether the opponent would have at most `STALEMATE_WATCH` legal
    /// moves if we passed: then one quiet move of ours may take its last
    /// ones, and a stalemate wins as surely as a mate. Not in check.
    fn opponent_short_of_moves(&mut self) -> bool {
        // Quick answer first: a chariot with many free points has more
        // moves than one quiet move of ours can take away.
        let them = !self.pos.side_to_move();
        let theirs = self.pos.pieces_of(them);
        let occ = self.pos.occupancy();
        if self
            .pos
            .pieces(them, PieceKind::Chariot)
            .any(|sq| (attacks::chariot(sq, occ) & !theirs).count() as usize > 2 * STALEMATE_WATCH)
        {
            return false;
        }
        self.do_null_move();
        let few = self.short_of_moves();
        self.undo_null_move();
        few
    }

    /// Whether `m` leaves the opponent without a legal move (mate or
    /// stalemate).
    fn leaves_no_move(&mut self, m: Move) -> bool {
        self.do_move(m);
        let none = !movegen::has_legal_move(&self.pos);
        self.undo_move();
        none
    }

    /// Sends the root move being searched, at most about once a second.
    fn report_current_move(&mut self, job: &SearchJob, depth: Depth, m: Move, number: i32) {
        if !self.is_main() || job.start.elapsed() <= Duration::from_millis(1000) {
            return;
        }
        let now = Instant::now();
        if self
            .last_currmove_report
            .is_none_or(|t| now.duration_since(t) >= Duration::from_millis(1000))
        {
            self.last_currmove_report = Some(now);
            (job.reporter)(Report::CurrentMove {
                depth,
                mv: m,
                number: number as usize + self.pv_idx,
            });
        }
    }

    /// Margin for reverse futility pruning.
    #[inline(always)]
    fn futility_margin(&self, depth: Depth, improving: bool, opponent_worsening: bool) -> Score {
        let t = &self.tun;
        (t.rfp_margin
            - t.rfp_improving * improving as Score
            - t.rfp_worsening * opponent_worsening as Score)
            * depth
    }

    /// Quiet moves after this many are not searched at low depth.
    #[inline(always)]
    fn late_move_limit(&self, depth: Depth, improving: bool) -> i32 {
        let base = self.tun.lmp_base + depth * depth;
        if improving { base } else { base / 2 + 1 }
    }

    /// Step 8a: whether a move is worth searching at this depth.
    #[inline(always)]
    fn shallow_prune(&self, node: &Node, mv: &MoveInfo, alpha: Score) -> MovePrune {
        let prune = self.prune;
        if !prune.forward || !self.pos.has_major_pieces(self.pos.side_to_move()) {
            return MovePrune::Search;
        }
        let t = &self.tun;
        let depth = node.depth;
        let r = self.reduction(depth, mv.number, node.improving);
        let lmr_depth = (depth - 1 - r / 1024).max(0);
        let m = mv.m;
        let see_margin = if mv.gives_check {
            t.see_check
        } else {
            t.see_noisy
        };
        if !mv.is_capture && !mv.gives_check {
            // Late-move pruning: enough quiet moves tried.
            if mv.number >= prune.scaled(self.late_move_limit(depth, node.improving)) {
                return MovePrune::SkipQuiets;
            }
            // Futility: even a good quiet move leaves us below alpha.
            if !node.in_check
                && lmr_depth <= t.fp_depth
                && node.static_eval
                    + prune.scaled(t.fp_base + t.fp_per_depth * lmr_depth)
                    + mv.history / t.fp_history_divisor
                    <= alpha
            {
                return MovePrune::Skip;
            }
            // History: the move has failed here too often.
            if lmr_depth <= t.hp_depth && mv.history < -prune.scaled(t.hp_per_depth * depth) {
                return MovePrune::Skip;
            }
            // SEE: the move loses material.
            if !self
                .pos
                .see_ge(m, -prune.scaled(t.see_quiet * lmr_depth * lmr_depth))
            {
                return MovePrune::Skip;
            }
        } else if depth <= t.see_noisy_depth
            && !self.pos.see_ge(m, -prune.scaled(see_margin * depth))
        {
            return MovePrune::Skip;
        }
        MovePrune::Search
    }

    /// Step 8c: searches the move just made. Late moves get a reduced
    /// null-window search first, then a full-depth null-window one if they
    /// beat alpha; on the principal variation, a move that may raise alpha
    /// gets the full window.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_move(
        &mut self,
        job: &SearchJob,
        node: &Node,
        mv: &MoveInfo,
        alpha: Score,
        beta: Score,
        best_score: Score,
        mut new_depth: Depth,
    ) -> Score {
        let ply = node.ply;
        let (lmr_captures, lmr_deeper) = (self.tun.lmr_captures, self.tun.lmr_deeper);
        // A late move is first searched reduced; it, and any move but a PV
        // node's first, then gets a null-window search at full depth unless
        // the reduced search already failed low. A PV node's first move goes
        // straight to the full-window search below.
        let mut score = alpha + 1;
        let zero_window_at_full_depth = if node.depth >= 2
            && mv.number > 1 + node.root as i32
            && (!mv.is_capture || node.cut || (lmr_captures != 0 && !node.tt_pv))
        {
            let r = self.late_move_reduction(node, mv);
            let reduced = (new_depth - r / 1024).clamp(1, new_depth.max(1));
            score = -self.search(
                job,
                NodeType::NonPv,
                ply + 1,
                -alpha - 1,
                -alpha,
                reduced,
                true,
            );
            if score > alpha && reduced < new_depth && lmr_deeper > 0 {
                // How far the reduced search beat the best score so far
                // says how deep the full one should go.
                let deeper = score > best_score + lmr_deeper + 2 * new_depth;
                let shallower = score < best_score + new_depth;
                new_depth += deeper as Depth - shallower as Depth;
            }
            score > alpha && reduced < new_depth
        } else {
            !node.pv || mv.number > 1
        };
        if zero_window_at_full_depth {
            score = -self.search(
                job,
                NodeType::NonPv,
                ply + 1,
                -alpha - 1,
                -alpha,
                new_depth,
                !node.cut,
            );
        }
        if node.pv && (mv.number == 1 || (score > alpha && (node.root || score < beta))) {
            score = -self.search(job, NodeType::Pv, ply + 1, -beta, -alpha, new_depth, false);
        }
        score
    }

    /// The late-move reduction of a move, in plies times 1024.
    #[inline(always)]
    fn late_move_reduction(&self, node: &Node, mv: &MoveInfo) -> i32 {
        let t = &self.tun;
        let mut r = self.reduction(node.depth, mv.number, node.improving);
        if !node.pv {
            r += t.lmr_non_pv;
        }
        if node.cut {
            r += t.lmr_cut;
        }
        if node.tt_pv {
            r -= t.lmr_tt_pv;
        }
        if mv.refutation {
            r -= t.lmr_refutation;
        }
        if mv.gives_check {
            r -= t.lmr_check;
        }
        if node.tt_capture && !mv.is_capture {
            r += t.lmr_tt_capture;
        }
        if self.frame(node.ply + 1).cutoffs > CUTOFFS_MANY {
            r += t.lmr_cutoffs;
        }
        r - mv.history * 1024 / t.lmr_history_divisor
    }

    /// Step 8d at the root: the move's score and line, or -INFINITE when it
    /// failed low (its true score is unknown).
    fn update_root_move(
        &mut self,
        job: &SearchJob,
        m: Move,
        number: i32,
        score: Score,
        alpha: Score,
    ) {
        let seldepth = self.seldepth;
        let idx = self.root_moves.iter().position(|r| r.mv == m).unwrap_or(0);
        let child_len = self.pv_len[1];
        let child: Vec<Move> = self.pv[1][..child_len].to_vec();
        let rm = &mut self.root_moves[idx];
        if number == 1 || score > alpha {
            rm.score = score + root_noise(job.root_noise, job.seed, m);
            rm.seldepth = seldepth;
            rm.pv.clear();
            rm.pv.push(m);
            rm.pv.extend_from_slice(&child);
            if number > 1 {
                self.best_move_changes += 1.0;
            }
        } else {
            rm.score = -INFINITE;
        }
    }

    /// Step 10: the best move's bonus, the maluses of the moves tried
    /// before it.
    fn update_histories(
        &mut self,
        ply: usize,
        depth: Depth,
        best: Move,
        quiets: &MoveList,
        captures: &MoveList,
    ) {
        let bonus = stat_bonus(depth);
        if self.pos.piece_on(best.to()).is_none() {
            self.update_quiet_stats(ply, best, quiets.as_slice(), bonus);
        } else {
            let pc = self.pos.piece_on(best.from());
            let cap = self.pos.piece_on(best.to());
            self.hist.captures.update(pc, best.to(), cap.kind(), bonus);
        }
        for &c in captures.as_slice() {
            let pc = self.pos.piece_on(c.from());
            let cap = self.pos.piece_on(c.to());
            if cap.is_some() {
                self.hist.captures.update(pc, c.to(), cap.kind(), -bonus);
            }
        }
    }

    fn update_quiet_stats(&mut self, ply: usize, best: Move, others: &[Move], bonus: i32) {
        let us = self.pos.side_to_move();
        let f = self.frame_mut(ply);
        if f.killers[0] != best {
            f.killers[1] = f.killers[0];
            f.killers[0] = best;
        }
        let slots = self.cont_slots(ply);
        let pc = self.pos.piece_on(best.from());
        self.hist.butterfly.update(us, best, bonus);
        for s in slots {
            self.hist.continuation.update(s, pc, best.to(), bonus);
        }
        for &m in others {
            let p = self.pos.piece_on(m.from());
            self.hist.butterfly.update(us, m, -bonus);
            for s in slots {
                self.hist.continuation.update(s, p, m.to(), -bonus);
            }
        }
        let prev = self.frame_back(ply, 1).mv;
        if prev.is_some() {
            let prev_pc = self.pos.piece_on(prev.to());
            if prev_pc.is_some() {
                self.hist.counters.set(prev_pc, prev.to(), best);
            }
        }
    }

    #[inline(always)]
    fn reduction(&self, depth: Depth, move_count: i32, improving: bool) -> i32 {
        let r = self.reductions[(depth as usize).min(63)][(move_count as usize).min(63)];
        if improving {
            r
        } else {
            r + self.tun.lmr_not_improving
        }
    }

    // -----------------------------------------------------------------------
    // Quiescence.

    /// Quiescence search: captures only (every evasion in check), so that
    /// the static evaluation is only trusted in quiet positions. The steps:
    ///
    /// 1. Count the node; stop when asked.
    /// 2. The game rules (only when a repetition or the move limit is
    ///    possible) and the ply cap.
    /// 3. Transposition table: return a stored score that settles the window.
    /// 4. Stand pat (not in check): the static evaluation is a lower bound;
    ///    it may already reach beta, if the side to move has a move at all.
    /// 5. The captures, skipping those that cannot reach alpha (delta
    ///    pruning) or lose material (SEE); with `quiet_checks` (the first
    ///    ply, tunable `qs_checks`), then the quiet checks that lose no
    ///    material.
    /// 6. No legal move (in check, or a quiet position with no capture and
    ///    no other move): mated.
    /// 7. Store the result in the transposition table.
    fn qsearch(
        &mut self,
        job: &SearchJob,
        pv_node: bool,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        quiet_checks: bool,
    ) -> Score {
        debug_assert!(-INFINITE <= alpha && alpha < beta && beta <= INFINITE);
        debug_assert!(pv_node || alpha + 1 == beta, "null window off the PV");
        debug_assert!(ply < MAX_PLY);

        // 1. Count the node.
        if self.enter_node(job, pv_node, ply) {
            return 0;
        }
        let in_check = self.pos.in_check();

        // 2. Results that need no search.
        if rules::rule_result_possible(&self.pos)
            && let Some(s) = self.rule_result(job, ply)
        {
            return s;
        }
        if ply >= MAX_PLY - 4 {
            return self.score_at_ply_cap(in_check);
        }

        // 3. Transposition table (any stored depth will do here).
        let key = self.pos.key();
        let tt_hit = job.tt.probe(key, ply);
        if !pv_node
            && let Some(h) = tt_hit
            && self.tt_cuts(job, &h, QS_DEPTH, alpha, beta)
        {
            return h.score;
        }

        // 4. Stand pat.
        let mut best_score;
        let (raw_eval, static_eval);
        if in_check {
            best_score = -INFINITE;
            raw_eval = -INFINITE;
            static_eval = -INFINITE;
        } else {
            (raw_eval, static_eval, best_score) = self.evals(tt_hit);
            if best_score >= beta {
                // Standing pat needs a move to stand on: without one the
                // side to move is stalemated.
                if !movegen::has_legal_move(&self.pos) {
                    return mated_in(ply);
                }
                if tt_hit.is_none() {
                    job.tt.store(
                        key,
                        ply,
                        Move::NONE,
                        best_score,
                        raw_eval,
                        QS_DEPTH,
                        Bound::Lower,
                        false,
                    );
                }
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        // 5. Captures (or evasions).
        let tt_move = tt_hit.map_or(Move::NONE, |h| h.mv);
        let cont = [
            self.frame_back(ply, 1).cont_slot,
            self.frame_back(ply, 2).cont_slot,
            NULL_SLOT,
        ];
        let kind = if quiet_checks && !in_check {
            PickerKind::QuiescenceChecks
        } else {
            PickerKind::Quiescence
        };
        let mut picker =
            MovePicker::new(&self.pos, kind, tt_move, [Move::NONE; 2], Move::NONE, cont);
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        let mut quiet_evasions = 0;
        let (move_limit, evasion_limit) = (self.tun.qs_move_limit, self.tun.qs_evasion_limit);
        while let Some(m) = picker.next(&self.pos, &self.hist) {
            move_count += 1;
            if best_score > -DECISIVE_BOUND {
                if !in_check {
                    // Move-count pruning: the first captures in order are the
                    // ones that matter, unless a later one recaptures or checks.
                    if move_limit > 0
                        && move_count > move_limit
                        && !self.is_recapture(ply, m)
                        && !self.pos.gives_check(m)
                    {
                        continue;
                    }
                    // Delta pruning: even winning this piece cannot reach alpha.
                    let gain =
                        static_eval + see_value(self.pos.piece_on(m.to())) + self.tun.qs_delta;
                    if gain <= alpha && !self.pos.gives_check(m) {
                        best_score = best_score.max(gain);
                        continue;
                    }
                    if !self.pos.see_ge(m, 0) {
                        continue;
                    }
                } else if evasion_limit > 0 && quiet_evasions >= evasion_limit {
                    // Mate is escaped; quiet evasions come last and rarely
                    // do better than the first ones.
                    break;
                }
            }
            if in_check && evasion_limit > 0 && self.pos.piece_on(m.to()).is_none() {
                quiet_evasions += 1;
            }
            self.record_move(ply, m);
            self.do_move(m);
            job.tt.prefetch(self.pos.key());
            let score = -self.qsearch(job, pv_node, ply + 1, -beta, -alpha, false);
            self.undo_move();
            if job.stopped() {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }

        // 6. No legal move: mated, or stalemated (a capture would have been
        // counted, so only a quiet position needs the test).
        if move_count == 0 && (in_check || !movegen::has_legal_move(&self.pos)) {
            return mated_in(ply);
        }

        // 7. Transposition table.
        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        job.tt
            .store(key, ply, best_move, best_score, raw_eval, 0, bound, false);
        debug_assert!(best_score > -INFINITE && best_score < INFINITE);
        best_score
    }
}

/// Whether thread `id` searches iteration `depth` of a search that ends at
/// `max_depth`. With `skipping`, helpers skip depths in staggered blocks so
/// that the threads spread over several depths (thread 1 searches the even
/// ones, thread 2 the odd ones, thread 3 pairs, ...), but never the last
/// depth of a depth-limited search: a helper that skipped it would sit idle
/// through the costliest iteration.
fn searches_depth(id: usize, depth: Depth, max_depth: Depth, skipping: bool) -> bool {
    id == 0 || !skipping || depth >= max_depth || !skip_depth(id, depth)
}

/// The staggered blocks (the pattern Stockfish once used): helper `id`
/// skips blocks of `SIZE` depths, offset by `PHASE`, cycling after 20.
fn skip_depth(id: usize, depth: Depth) -> bool {
    const SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    let i = (id - 1) % 20;
    ((depth + PHASE[i]) / SIZE[i]) % 2 != 0
}

/// Deterministic per-move noise in `[-amp, amp]` for variety at the root.
fn root_noise(amp: i32, seed: u64, m: Move) -> Score {
    if amp == 0 {
        return 0;
    }
    let mut x = seed ^ (m.raw() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 29;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 32;
    (x % (2 * amp as u64 + 1)) as Score - amp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_spread_over_depths_but_all_search_the_last() {
        let searched = |id, skipping| -> Vec<Depth> {
            (1..=9)
                .filter(|&d| searches_depth(id, d, 9, skipping))
                .collect()
        };
        assert_eq!(searched(0, true), (1..=9).collect::<Vec<_>>());
        assert_eq!(searched(1, true), [2, 4, 6, 8, 9]);
        assert_eq!(searched(2, true), [1, 3, 5, 7, 9]);
        assert_eq!(searched(3, true), [1, 4, 5, 8, 9]);
        assert_eq!(searched(3, false), (1..=9).collect::<Vec<_>>());
    }

    #[test]
    fn root_noise_is_bounded_and_deterministic() {
        let m = Move::parse("h2e2").unwrap();
        for seed in 0..100 {
            let n = root_noise(10, seed, m);
            assert!((-10..=10).contains(&n));
            assert_eq!(n, root_noise(10, seed, m));
        }
        assert_eq!(root_noise(0, 5, m), 0);
    }

    #[test]
    fn evaluations_shrink_with_the_plies_since_the_last_capture() {
        let fen = |counter: u32| {
            format!("2bakab2/9/4c4/p1p1p1p1p/9/9/P1P1P1P1P/1NC1B4/9/2BAKA3 w - - {counter} 40")
        };
        let mut w = Worker::new(0);
        w.move_limit_plies = 120;
        let mut damped = |counter: u32, damp: i32, eval: Score| {
            w.pos = Position::from_fen(&fen(counter)).unwrap();
            w.tun.eval_limit_damp = damp;
            w.damped(eval)
        };
        assert_eq!(damped(80, 0, 600), 600, "off");
        assert_eq!(damped(0, 50, 600), 600, "just after a capture");
        assert_eq!(damped(60, 50, 600), 450);
        assert_eq!(damped(80, 50, -600), -400, "both signs");
        assert_eq!(damped(300, 50, 600), 300, "at most the limit's share");
        // A move made counts: 81 plies.
        w.pos = Position::from_fen(&fen(80)).unwrap();
        w.tun.eval_limit_damp = 100;
        w.pos.make_move(Move::parse("b2c4").unwrap());
        assert_eq!(w.damped(120), 39);
        // With the limit off there is nothing to shrink toward.
        w.move_limit_plies = 0;
        assert_eq!(w.damped(120), 120);
    }
}
