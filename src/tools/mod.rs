//! Command-line tools built on the engine: perft/divide (move generator
//! checks and speed), and later bench and analyse.

pub mod judge;
pub mod perft;
