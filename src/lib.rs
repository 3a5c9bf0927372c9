//! chuhe: a xiangqi (Chinese chess) engine speaking UCCI, UCI and CECP,
//! with an opening book, a rules judge and an engine-match runner. See
//! `README.md` for use; each module's header gives its design notes.
//!
//! # Module map
//!
//! One line a module: what it owns; then what it may use from the crate
//! (outside its tests), besides [`types`], which every module may use. The
//! groups are layers: a module uses only modules of its own group or of the
//! groups above it. The engine core (from the foundations to the search)
//! stays flat, as in Stockfish.
//!
//! **Foundations**
//! - [`types`]: colours, pieces, squares, moves, scores; uses nothing.
//! - [`rng`]: the small seeded generators (SplitMix64, xorshift, LCG); nothing.
//! - [`text`]: on/off words, clipped quotes of input, the line-reader thread; nothing.
//! - [`bitboard`]: sets of the 90 points in a `u128`; nothing.
//! - [`attacks`]: every piece's attack tables, built at compile time; bitboard.
//! - [`zobrist`]: the hash keys; rng.
//!
//! **The board and its rules**
//! - [`position`]: placement, side to move, key, the state stack, make/unmake, FEN; attacks, bitboard, zobrist.
//! - [`movegen`]: legal moves into a fixed list; attacks, bitboard, position.
//! - [`rules`]: game results (mate, stalemate, perpetual check and chase, move limit, dead material); attacks, bitboard, movegen, position.
//! - [`replay`]: the one legal replay: move text (any notation [`record::notation`] reads) checked legal and made; record::notation, position.
//!
//! **Evaluation and search**
//! - [`eval`], [`eval_params`]: the classical evaluation and its tuned weights; attacks, bitboard, options (`Level`), position.
//! - [`nnue`]: the network evaluation and its accumulators; eval, position.
//! - [`wdl`], [`wdl_params`]: win/draw/loss chances from a score; position.
//! - [`history`]: the move-ordering history tables; nothing.
//! - [`movepick`]: the staged move picker; history, movegen, position.
//! - [`tt`]: the transposition table shared by the threads; nothing.
//! - [`tunables`]: the search's tunable numbers; nothing.
//! - [`options`]: every setting the host can change (`EngineOptions`), defaults and limits, and the option values the core reads (`Level`, `Style`, `Character`, `Randomness`); nnue and skill (defaults), tunables.
//! - [`time`]: search limits and the time budget; nothing.
//! - [`search`]: one thread's search; attacks, eval, history, movegen, movepick, nnue, options (`Character`), position, rules, time, tt, tunables.
//! - [`thread`]: the Lazy SMP pool of search threads; movegen, search.
//! - [`skill`]: playing strength below the best; rng, search.
//!
//! **Around the engine**
//! - [`record`]: how games and moves are written down, in three files:
//!   [`record::notation`] move text in Chinese and WXF, written and read
//!   (ICCS lives with `Move`; bitboard, movegen, position, text);
//!   [`record::pgn`] PGN text, tag pairs and movetext, read and written
//!   (position, replay); [`record::games`] the one game reader, PGN or CCPD
//!   TSV files, plain or xz, into `Game`s with one `GameResult` (pgn,
//!   position, replay); [`record::ranks`] coordinate moves in the 0-9 and
//!   the 1-10 rank numbering of UCI hosts (nothing).
//! - [`perft`]: leaf counts of the legal move tree (`perft`, `divide`); movegen, position.
//! - [`book`]: the opening book: chuhe's format, ElephantEye's, the embedded book, the weighted choice, the builder; record::games, movegen, options (`Randomness`), position, rng, zobrist.
//! - [`engine`]: the facade a front end drives: the game, the options' values, the table, the threads, the book; book, eval, movegen, nnue, options, position, replay, rng, rules, search, skill, thread, time, tt.
//! - [`bench`](mod@bench): the fixed search whose node count is the build's signature, played through one `Engine` as a game's moves are; engine, position, search (its reports), time.
//!
//! **Front ends**
//! - [`protocol`]: UCCI, UCI and CECP sessions on a byte stream; engine and what it exposes (eval, movegen, nnue, options, position, rules, search, skill, thread, time, tt, wdl), record (`ranks`), replay, text, bench, perft.
//! - [`arena`]: matches between engine processes: client, clocks, referee, openings, PGN and JSON records, statistics; record, position, replay, rng, rules, text.
//! - [`tools`]: the command-line tools (analyse, book, judge, timeplan, tune, spsa, datagen, train, wdl-fit, mates); anything above, and arena (spsa, datagen).
//! - `main.rs`, the binary: the command line; protocol, tools, arena and the types their arguments need.
//!
//! # Data flow
//!
//! - **Playing.** The host's bytes → [`protocol`]'s reader thread
//!   ([`text::spawn_line_reader`]) → a command → [`engine`]: the position
//!   ([`replay`]), the options, the book ([`book`]) → [`thread`]'s pool →
//!   [`search`] in each thread ([`movepick`], [`eval`] or [`nnue`], [`tt`],
//!   [`rules`] for results inside the tree) → reports back over the
//!   protocol's channel → printed in the host's dialect.
//! - **Matches.** [`arena`] starts the engines as processes, sends each
//!   the game and `go`, checks every answer ([`replay`]), ends games by
//!   [`rules`], and writes PGN, JSON records and the statistics.
//! - **Offline data.** Game files (PGN or the CCPD TSV, read by [`record::games`])
//!   → [`tools`]: `book build` → `book/chuhe.book` (embedded by [`book`]),
//!   `tune` → `eval_params.rs`, `wdl-fit` → `wdl_params.rs`, `datagen` and
//!   `train` → the network [`nnue`] embeds.

pub mod arena;
pub mod attacks;
pub mod bench;
pub mod bitboard;
pub mod book;
pub mod engine;
pub mod eval;
pub mod eval_params;
pub mod history;
pub mod movegen;
pub mod movepick;
pub mod nnue;
pub mod options;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod record;
pub mod replay;
pub mod rng;
pub mod rules;
pub mod search;
pub mod skill;
pub mod text;
pub mod thread;
pub mod time;
pub mod tools;
pub mod tt;
pub mod tunables;
pub mod types;
pub mod wdl;
pub mod wdl_params;
pub mod zobrist;

/// This build's version: the package version, then for a build from a git
/// checkout the short commit and `-dirty` for uncommitted changes, e.g.
/// `0.1.0 (c9887f2)` or `0.1.0 (c9887f2-dirty)`; the bare package version
/// when the build had no git information (see `build.rs`).
pub const VERSION: &str = env!("CHUHE_VERSION");
