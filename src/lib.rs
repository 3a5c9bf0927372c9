//! chuhe: a xiangqi engine. See `README.md` for use and
//! `docs`-level design notes in each module's header.

pub mod attacks;
pub mod bitboard;
pub mod movegen;
pub mod position;
pub mod rules;
pub mod tools;
pub mod types;
pub mod zobrist;
