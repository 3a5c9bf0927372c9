//! Command-line tools built on the engine: perft/divide (move generator
//! checks and speed), bench, analyse, book (build, probe, stats), judge,
//! timeplan, tune (evaluation weights), spsa (search tunables), and mates
//! (the mate and stalemate suite).

pub mod analyse;
pub mod bench;
pub mod book;
pub mod datagen;
pub mod judge;
pub mod mates;
pub mod perft;
pub mod spsa;
pub mod timeplan;
pub mod train;
pub mod tune;
pub mod wdl_fit;
