//! How games and moves are written down: move notation (Chinese, WXF;
//! ICCS lives with `Move`), PGN read and written, and the one game reader
//! that yields `Game`s from PGN or the CCPD TSV, plain or xz; the CCPD
//! labels, positions scored by chuhe; and the two rank numberings of
//! coordinate moves that UCI hosts use (`ranks`).
//!
//! Nothing here decides legality by itself: moves are checked through
//! `crate::replay`, results through `crate::rules`.

pub mod games;
pub mod labels;
pub mod pgn;
pub mod ranks;
