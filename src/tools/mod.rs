//! Command-line tools built on the engine: perft/divide (move generator
//! checks and speed), and later bench and analyse.

pub mod analyse;
pub mod bench;
pub mod perft;
pub mod timeplan;
pub mod tune;
