//! Command-line tools built on the engine: perft/divide (move generator
//! checks and speed), book (build, probe, stats), and later bench and
//! analyse.

pub mod analyse;
pub mod bench;
pub mod book;
pub mod datagen;
pub mod judge;
pub mod perft;
pub mod timeplan;
pub mod train;
pub mod tune;
pub mod wdl_fit;
