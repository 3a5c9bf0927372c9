//! chuhe: a xiangqi engine. See `README.md` for use and
//! `docs`-level design notes in each module's header.

pub mod arena;
pub mod attacks;
pub mod bitboard;
pub mod book;
pub mod engine;
pub mod eval;
pub mod eval_params;
pub mod history;
pub mod movegen;
pub mod movepick;
pub mod nnue;
pub mod notation;
pub mod pgn;
pub mod position;
pub mod protocol;
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
