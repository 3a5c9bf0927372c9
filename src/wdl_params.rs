//! Coefficients of the win/draw/loss model (`wdl`), written by
//! `chuhe wdl-fit`. Do not edit by hand.
//!
//! Fitted to 1172243 positions of the master games (ccpd-labels-5k.tsv.xz), every 1 line(s),
//! held-out log-loss 0.8925 (result rates alone: 1.0990).
/// `a(x)`: c0 + c1 x + c2 x^2 + c3 x^3, centipawns.
pub const A: [f64; 4] = [490.099, -690.179, -74.643, 515.887];
/// `b(x)`: c0 + c1 x + c2 x^2 + c3 x^3, centipawns.
pub const B: [f64; 4] = [261.415, -278.889, 66.381, 308.209];
/// The score, centipawns, at which win and loss are equally likely.
pub const OFFSET: f64 = 26.902;
