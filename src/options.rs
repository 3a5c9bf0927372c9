//! The engine's options: every setting the host can change
//! (`EngineOptions`), their defaults and limits, and the value types of
//! the UCCI options that the core acts on (`Level` for `pruning`,
//! `knowledge` and `idle`; `Style`; their bundle `Character`; the book's
//! and the root's `Randomness`).
//!
//! The core (evaluation, search, book) reads these values; the engine
//! facade holds them; the protocol's option table (`protocol::options`)
//! names, announces, checks and stores them.

use crate::tunables::Tunables;
use crate::types::Score;

pub const DEFAULT_HASH_MB: usize = 64;
pub const MAX_HASH_MB: usize = 32 * 1024;
pub const MAX_MULTIPV: usize = 128;
pub const DEFAULT_MOVE_OVERHEAD: u64 = 50;
pub const MAX_MOVE_OVERHEAD: u64 = 10_000;
/// The natural move limit (moves per side without a capture), as the rules
/// count it.
pub const DEFAULT_MOVE_LIMIT: u32 = 60;
pub const MIN_MOVE_LIMIT: u32 = 10;
pub const MAX_MOVE_LIMIT: u32 = 1000;
/// Whether this build evaluates with the network by default (the
/// `Use NNUE` option's default).
pub const DEFAULT_USE_NNUE: bool = true;
/// The `EvalFile` value that names the network built into the binary.
pub const EMBEDDED_NETWORK: &str = "<embedded>";
/// The top `Skill Level`: the engine unweakened (the default).
pub const MAX_SKILL_LEVEL: u32 = 20;
/// `UCI_Elo`'s default: the bottom of the level table (`skill::MIN_ELO`,
/// which a unit test there holds equal).
pub const DEFAULT_ELO: i32 = 1000;
/// The `bookfiles` value that names the book built into the binary.
pub const EMBEDDED_BOOK: &str = "<embedded>";

/// Amplitude of the noise that `randomness` adds to root move scores, in
/// score units (a pawn is about 100): from invisible to a clear weakening.
/// The same setting steers the book's weighted choice.
pub const fn root_noise(r: Randomness) -> Score {
    match r {
        Randomness::None => 0,
        Randomness::Tiny => 4,
        Randomness::Small => 8,
        Randomness::Medium => 16,
        Randomness::Large => 32,
        Randomness::Huge => 64,
    }
}

/// Every setting the host can change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    /// Milliseconds reserved per move for the host's and the pipe's lag.
    pub move_overhead: u64,
    /// The host may ask us to ponder (informative; `go ponder` is what counts).
    pub ponder: bool,
    pub use_book: bool,
    /// `;`-separated book files, or `EMBEDDED_BOOK`.
    pub book_files: String,
    /// Root noise and book variety. `none` by default (not the book's own
    /// default), so that a fresh engine plays reproducibly.
    pub randomness: Randomness,
    pub pruning: Level,
    pub knowledge: Level,
    pub style: Style,
    /// How much CPU to leave to others while thinking (stored, not acted on).
    pub idle: Level,
    pub use_egtb: bool,
    pub egtb_paths: String,
    /// Natural move limit in moves per side.
    pub move_limit: u32,
    /// Extra diagnostics on stdout (e.g. the time budget of each move).
    pub debug: bool,
    /// UCCI batch mode: input that arrives during a finite search waits until
    /// its `bestmove`.
    pub batch: bool,
    /// UCCI clock values in milliseconds (true) or seconds (false).
    pub use_millisec: bool,
    /// The search's margins, reductions and limits: hidden options for
    /// tuners (`setoption name <tunable> value <n>`), defaults otherwise.
    pub tunables: Tunables,
    /// Evaluate with the network (at full `knowledge`); false: classical.
    pub use_nnue: bool,
    /// The network file, or `EMBEDDED_NETWORK`.
    pub eval_file: String,
    /// `Skill Level`: 0..=20, 20 = full strength (see `skill`).
    pub skill_level: u32,
    /// `UCI_LimitStrength`: play at the level `UCI_Elo` names.
    pub limit_strength: bool,
    /// `UCI_Elo`: the rating to play at when `limit_strength` is on.
    pub elo: i32,
    /// `UCI_ShowWDL`: add win/draw/loss chances to search reports.
    pub show_wdl: bool,
    /// `Rank Numbering`: how the host numbers ranks in move text.
    pub rank_numbering: RankNumbering,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            ponder: false,
            use_book: true,
            book_files: EMBEDDED_BOOK.to_string(),
            randomness: Randomness::None,
            pruning: Level::Large,
            knowledge: Level::Large,
            style: Style::Normal,
            idle: Level::None,
            use_egtb: false,
            egtb_paths: String::new(),
            move_limit: DEFAULT_MOVE_LIMIT,
            debug: false,
            batch: false,
            use_millisec: true,
            tunables: Tunables::default(),
            use_nnue: DEFAULT_USE_NNUE,
            eval_file: EMBEDDED_NETWORK.to_string(),
            skill_level: MAX_SKILL_LEVEL,
            limit_strength: false,
            elo: DEFAULT_ELO,
            show_wdl: false,
            rank_numbering: RankNumbering::Auto,
        }
    }
}

/// How much of a feature to use: the levels of the UCCI `pruning` and
/// `knowledge` options, in increasing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Level {
    None,
    Small,
    Medium,
    #[default]
    Large,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::None, Level::Small, Level::Medium, Level::Large];

    pub const fn name(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Small => "small",
            Level::Medium => "medium",
            Level::Large => "large",
        }
    }
}

/// How the host numbers ranks in move text (the `Rank Numbering` option):
/// `auto` reads it from what the host sends (see `record::ranks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RankNumbering {
    #[default]
    Auto,
    /// Ranks 0-9, as ICCS, UCCI, Pikafish and UCI2WB write them.
    FromZero,
    /// Ranks 1-10, as cutechess, Sjaak II and Fairy-Stockfish write them.
    FromOne,
}

impl RankNumbering {
    pub const ALL: [RankNumbering; 3] = [
        RankNumbering::Auto,
        RankNumbering::FromZero,
        RankNumbering::FromOne,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            RankNumbering::Auto => "auto",
            RankNumbering::FromZero => "0-9",
            RankNumbering::FromOne => "1-10",
        }
    }
}

/// Playing style (the UCCI `style` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Style {
    Solid,
    #[default]
    Normal,
    Risky,
}

impl Style {
    pub const ALL: [Style; 3] = [Style::Solid, Style::Normal, Style::Risky];

    pub const fn name(self) -> &'static str {
        match self {
            Style::Solid => "solid",
            Style::Normal => "normal",
            Style::Risky => "risky",
        }
    }
}

/// The host's wishes for the engine's character; the defaults are the
/// engine at full strength.
///
/// * `knowledge`: how much of the evaluation to use (see `eval::evaluate_at`).
/// * `pruning`: how boldly to prune; `none` searches every move to full
///   depth bar late-move reductions, smaller levels widen the margins.
/// * `style`: what a draw is worth to the side the engine plays:
///   `risky` counts it as a loss of a quarter pawn and so plays on,
///   `solid` as a small gain and so takes safe draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Character {
    pub pruning: Level,
    pub knowledge: Level,
    pub style: Style,
}

/// How adventurous the engine's choices are (the UCCI `randomness`
/// values): the book's weighted choice (`book::choice`) and the noise on
/// root move scores (`root_noise`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Randomness {
    /// Always the heaviest move (ties: the first in book order).
    None,
    /// weight⁴: nearly always one of the heaviest.
    Tiny,
    /// weight².
    Small,
    /// weight: in proportion to the weights, as the book's builder meant.
    #[default]
    Medium,
    /// √weight.
    Large,
    /// Every book move equally.
    Huge,
}

impl Randomness {
    /// Parses a UCCI `randomness` value (case-insensitive).
    pub fn parse(s: &str) -> Option<Randomness> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "none" => Randomness::None,
            "tiny" => Randomness::Tiny,
            "small" => Randomness::Small,
            "medium" => Randomness::Medium,
            "large" => Randomness::Large,
            "huge" => Randomness::Huge,
            _ => return None,
        })
    }

    /// The UCCI word for the value.
    pub const fn name(self) -> &'static str {
        match self {
            Randomness::None => "none",
            Randomness::Tiny => "tiny",
            Randomness::Small => "small",
            Randomness::Medium => "medium",
            Randomness::Large => "large",
            Randomness::Huge => "huge",
        }
    }
}
