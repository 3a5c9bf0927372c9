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
pub mod notation;
pub mod pgn;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod thread;
pub mod time;
pub mod tools;
pub mod tt;
pub mod tunables;
pub mod types;
pub mod zobrist;
