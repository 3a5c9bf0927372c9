//! `bench`: a fixed set of positions searched to a fixed depth with one
//! thread and a 16 MB table. The total node count is the build's search
//! signature (quoted as `Bench: <nodes>` in commits that change search or
//! evaluation), so everything here must be deterministic.

use crate::engine::{SearchSetup, Searcher};
use crate::position::Position;
use crate::time::Limits;
use std::io::Write;
use std::time::Instant;

pub const DEFAULT_DEPTH: i32 = 12;
pub const HASH_MB: usize = 16;

/// Openings, middle games and end games: the perft reference positions and
/// positions from master games (CCPD) at plies 24 to 130.
pub const POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
    "r1bakab1r/9/1c2c4/p3p3p/2p3p2/2P3P2/P3P3P/1C2C4/9/R1BAKAB1R w - - 0 1",
    "3akab2/nC4R2/4b4/p1C1pc3/5r1rp/2P3P2/P3P3P/4B1Nc1/4A4/2BAK2R1 w - - 3 21",
    "2bakc3/4a4/9/8p/N3R4/6P2/2cpPr2P/4B3C/4A4/3AK1B2 w - - 3 31",
    "6b2/4k4/4b4/p3p1r1p/7c1/9/P4R2P/Nc2B4/3CA4/3A1KB2 w - - 3 41",
    "3k1ab2/1c5r1/2n1ba1c1/p1p1p3p/5Npn1/1CP6/P3P1P1P/4C1N2/R8/2BAKAB2 w - - 0 13",
    "2nakab2/9/R3c4/8p/9/9/P1P1P3P/2N1B4/1r2Ap3/R3KArN1 w - - 2 21",
    "Crbak4/5c3/3nba3/p4R2p/9/8P/P3P1P2/2C1B4/4A4/4KAB2 w - - 27 41",
    "2baka3/6c2/4b4/4r4/2p2P2p/4N2R1/P1P1N3P/4B4/9/3AKAB1c w - - 17 51",
    "4kabr1/4a4/2n1b1n2/p1p1p3p/6r2/1NP1P1p2/PcR4cP/1C2C1N2/4A4/2BAK1BR1 w - - 2 13",
    "4kab2/4a1n2/2n1bc3/p1Cr2N1P/1c2p4/P8/2P1P4/N2CB4/4A4/2BAK2R1 w - - 7 21",
    "3aka3/9/9/9/4c4/1R7/2p6/9/4K4/2BA1AB2 w - - 2 66",
    "1rb1kabn1/4a4/4c4/pC2p1C2/2p5p/6P2/P1P1P3P/5cN2/9/1RBAKAB2 w - - 1 13",
    "2bakac2/6r2/2R6/pr2p3p/9/P3P4/1cP1n3P/NR2C4/4A3N/2B1KAB2 w - - 3 21",
    "2b1k4/4a4/2Nab4/pN2p3p/9/9/P3n2rP/9/6R2/3AKABc1 w - - 2 31",
    "3akab2/1r5c1/2n1b4/p3p2Rp/5R3/PNP6/4P1p1P/2N1B4/3rA4/2BAK4 w - - 9 21",
    "3ckab2/4a4/4b4/2R6/2P1C1r1p/9/9/B3R3B/9/1r1AKA3 w - - 0 31",
    "3a1kb2/R8/4ba3/1N7/1PP1c1p1p/9/8r/4B3B/4A4/3AK4 w - - 0 41",
    "2bak1b2/4a2R1/2ncc1n2/p3p1p1p/2pr5/6P2/P1P1P1C1P/C3B1N2/4A4/1NBAK4 w - - 5 13",
    "1n2kab2/c3a4/4b3n/6p1C/N8/4P4/P5c1P/N2CB4/4A4/4KA3 w - - 1 21",
    "2bak4/4a4/4b4/6R1p/p2P5/2C5P/c3c4/4B2rN/4A4/4KAB2 w - - 4 31",
    "2ba1a3/1N2k4/9/3c4p/2p1C1n2/4n1N2/p7P/4BA3/4A4/4K1B2 w - - 26 41",
    "1C2k4/4a3n/3ab4/8R/5Nb2/9/9/5A3/9/1r1AK4 w - - 7 51",
    "2bak1b2/4a4/4ccn2/p1p2C2p/6p2/2P3B2/P3P3P/2N3N2/4A4/3K1AB2 w - - 3 21",
    "3k5/4a4/4ba3/9/2b6/9/9/4B3R/4A4/3AK4 w - - 0 60",
    "4k4/9/4b4/9/9/9/9/4B4/4AN3/3AK4 w - - 0 70",
    "3ak4/4a4/9/9/2P1P4/9/9/9/9/4K4 w - - 0 80",
];

/// How the bench searches: the signature is defined for the default
/// (one thread, [`HASH_MB`], the embedded network, default tunables).
pub type Setup = SearchSetup;

/// The setup whose node count is the signature.
pub fn signature_setup() -> Setup {
    SearchSetup {
        hash_mb: HASH_MB,
        ..SearchSetup::default()
    }
}

/// Runs the bench and writes one line per position plus the totals.
/// Returns the total node count.
pub fn run(depth: i32, out: &mut impl Write) -> std::io::Result<u64> {
    run_with(depth, &signature_setup(), out)
}

/// The bench with another setup: not a signature (threads make node counts
/// vary), but the time to depth and the node rate of each position measure
/// Lazy SMP scaling.
///
/// The positions are searched one after another by one `Engine`, as the
/// moves of a game are: the table is kept and aged between them.
pub fn run_with(depth: i32, setup: &Setup, out: &mut impl Write) -> std::io::Result<u64> {
    let (mut searcher, note) = Searcher::new(setup).map_err(std::io::Error::other)?;
    if let Some(note) = note {
        writeln!(out, "{note}")?;
    }
    let start = Instant::now();
    let mut total = 0u64;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("bench positions are valid");
        let t = Instant::now();
        let answer = searcher.search(pos, Limits::depth(depth));
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let nodes = answer.nodes;
        total += nodes;
        let best = answer.best.map_or("(none)".to_string(), |m| m.to_string());
        writeln!(
            out,
            "Position {:2}/{}: {:>10} nodes, {ms:8.1} ms, best {best}",
            i + 1,
            POSITIONS.len(),
            nodes
        )?;
    }
    let secs = start.elapsed().as_secs_f64();
    writeln!(out, "===========================")?;
    writeln!(out, "Evaluation: {}", searcher.evaluation_name())?;
    writeln!(out, "Total time (ms) : {}", (secs * 1000.0) as u64)?;
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(
        out,
        "Nodes/second: {}",
        (total as f64 / secs.max(1e-9)) as u64
    )?;
    out.flush()?;
    Ok(total)
}
