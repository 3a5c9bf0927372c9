//! chuhe: a xiangqi (Chinese chess) engine speaking UCCI, UCI and CECP,
//! with an opening book, a rules judge and an engine-match runner. See
//! `README.md` for use; each module's header gives its design notes.
//!
//! # Module map
//!
//! One entry a module: what it owns, then after `Uses:` what it may use
//! from the crate outside its tests, besides [`types`], which every module
//! may use. The groups are layers: a module uses only modules of its own
//! group or of the groups above it, and no modules use each other in a
//! circle, here or among the files of one module. The engine core (from
//! the foundations to the search) stays flat, as in Stockfish.
//! `tests/module_map.rs` reads this map and every `crate::` path in
//! `src/`, and fails on an edge the map does not list and on any circle.
//!
//! **Foundations**
//! - [`types`]: colours, pieces, squares, moves, scores. Uses: nothing.
//! - [`rng`]: the small seeded generators (SplitMix64, xorshift, LCG). Uses: nothing.
//! - [`text`]: on/off words, clipped quotes of input, the line-reader thread. Uses: nothing.
//! - [`bitboard`]: sets of the 90 points in a `u128`. Uses: nothing.
//! - [`attacks`]: every piece's attack tables, built at compile time, and the points the rules confine each piece to. Uses: bitboard.
//! - [`zobrist`]: the hash keys, and FNV-1a. Uses: rng.
//!
//! **The board and its rules**
//! - [`position`]: placement, side to move, key, the state stack, make/unmake, FEN. Uses: attacks, bitboard, zobrist.
//! - [`movegen`]: legal moves into a fixed list. Uses: attacks, bitboard, position.
//! - [`notation`]: move text in Chinese and WXF, written and read (ICCS lives with `Move`). Uses: bitboard, movegen, position, text.
//! - [`rules`]: game results (mate, stalemate, perpetual check and chase, move limit, dead material). Uses: attacks, bitboard, movegen, position.
//! - [`replay`]: the one legal replay: move text in any notation checked legal and made. Uses: notation, position.
//! - [`diagram`]: the board drawn as SVG (discs with their characters, river, palaces, coordinates, flip, last move, arrows), for the match report and the `board` and `analyse --svg` tools. Uses: position.
//! - [`perft`]: leaf counts of the legal move tree (`perft`, `divide`). Uses: movegen, position.
//!
//! **Evaluation and search**
//! - [`eval`]: the classical evaluation, its tuned weights included from `eval_params.in`, its signature. Uses: attacks, bitboard, options (`Level`), position, zobrist (`fnv1a`).
//! - [`nnue`]: the network: its shape (`nnue::arch`), weights and file format, accumulators, training records; its output only. Uses: position, zobrist (`fnv1a`).
//! - [`evaluate`]: the evaluation the search uses: classical, network, or network plus classical, and whether a network fits this classical evaluation. Uses: eval, nnue, options (`Level`), position.
//! - [`wdl`], [`wdl_params`]: win/draw/loss chances from a score, and the fitted coefficients. Uses: position, wdl_params.
//! - [`history`]: the move-ordering history tables. Uses: nothing.
//! - [`movepick`]: the staged move picker. Uses: history, movegen, position.
//! - [`tt`]: the transposition table shared by the threads. Uses: nothing.
//! - [`tunables`]: the search's tunable numbers. Uses: nothing.
//! - [`options`]: every setting the host can change (`EngineOptions`), its defaults and limits, and the option values the core reads (`Level`, `Style`, `Character`, `Randomness`, `RankNumbering`). Uses: tunables.
//! - [`time`]: search limits and the time budget. Uses: tunables.
//! - [`search`]: one thread's search. Uses: attacks, evaluate, history, movegen, movepick, nnue (the accumulator stack), options, position, rules, time, tt, tunables.
//! - [`thread`]: the Lazy SMP pool of search threads. Uses: movegen, search.
//! - [`skill`]: playing strength below the best. Uses: options, rng, search (its reports).
//!
//! **Around the engine**
//! - [`clock`]: time controls (the match runner's `--tc`, CECP's `level`) and the game clock that runs down under one. Uses: time.
//! - [`adjudicate`]: score adjudication (won or drawn by the engines' agreeing scores), for matches and self-play alike. Uses: nothing.
//! - [`record`]: how games are written down: [`record::pgn`] PGN read,
//!   [`record::games`] the one game reader (PGN or CCPD TSV, plain or xz,
//!   into `Game`s with one `GameResult`), [`record::labels`] the CCPD
//!   labels, [`record::ranks`] coordinate moves in the 0-9 and 1-10 rank
//!   numbering of UCI hosts. Uses: position, replay.
//! - [`book`]: the opening book: chuhe's format, ElephantEye's, the embedded book, the weighted choice, the builder. Uses: movegen, options (`Randomness`), position, record, rng, zobrist.
//! - [`engine`]: the facade a front end drives: the game, the options' values, the table, the threads, the book; and [`engine::Searcher`], the one API for tools that run searches themselves. Uses: book, evaluate, movegen, nnue, options, position, replay, rng, rules, search, skill, thread, time, tt, tunables.
//! - [`bench`](mod@bench): the fixed search whose node count is the build's signature, played through one `engine::Searcher` as a game's moves are. Uses: engine, position, time.
//!
//! **Front ends**
//! - [`protocol`]: UCCI, UCI and CECP sessions on a byte stream. Uses: bench, clock (`level`), engine, eval (its terms for `eval`), movegen, options, perft, position, record (`ranks`), replay, rules, search, skill, text, thread, time, tt, wdl.
//! - [`arena`]: matches between engine processes: client, clocks, referee, openings, PGN (written here, with the engines' comments) and JSON records, statistics, the HTML report. Uses: adjudicate, clock, diagram, notation, position, record, replay, rng, rules, text.
//! - [`tools`]: the command-line tools (analyse, book, judge, timeplan, tune, spsa, datagen, train, wdl-fit, mates). Uses: anything above.
//! - `main.rs`, the binary: the command line. Uses: anything above.
//!
//! # Data flow
//!
//! - **Playing.** The host's bytes → [`protocol`]'s reader thread
//!   ([`text::spawn_line_reader`]) → a command → [`engine`]: the position
//!   ([`replay`]), the options, the book ([`book`]) → [`thread`]'s pool →
//!   [`search`] in each thread ([`movepick`], [`evaluate`]: [`eval`] and/or
//!   [`nnue`], [`tt`],
//!   [`rules`] for results inside the tree) → reports back over the
//!   protocol's channel → printed in the host's dialect.
//! - **Matches.** [`arena`] starts the engines as processes, sends each
//!   the game and `go`, checks every answer ([`replay`]), ends games by
//!   [`rules`], and writes PGN, JSON records and the statistics.
//! - **Offline data.** Game files (PGN or the CCPD TSV, read by [`record::games`])
//!   → [`tools`]: `book build` → `book/chuhe.book` (embedded by [`book`]),
//!   `tune` → `eval_params.in`, `wdl-fit` → `wdl_params.rs`, `datagen` and
//!   `train` → the network [`nnue`] embeds.

pub mod adjudicate;
pub mod arena;
pub mod attacks;
pub mod bench;
pub mod bitboard;
pub mod book;
pub mod clock;
pub mod diagram;
pub mod engine;
pub mod eval;
pub mod evaluate;
pub mod history;
pub mod movegen;
pub mod movepick;
pub mod nnue;
pub mod notation;
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
