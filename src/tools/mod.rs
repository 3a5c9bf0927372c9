//! Command-line tools built on the engine (perft and bench, which the
//! protocol also runs, live in `crate::perft` and `crate::bench`): analyse, book (build, probe, stats), judge,
//! timeplan, tune (evaluation weights), spsa (search tunables), mates
//! (the mate and stalemate suite), openings (the match opening suite),
//! datagen and its data store, train and wdl-fit.

pub mod analyse;
pub mod book;
pub mod datagen;
pub mod datastore;
pub mod judge;
pub mod mates;
pub mod openings;
pub mod spsa;
pub mod timeplan;
pub mod train;
pub mod tune;
pub mod wdl_fit;
