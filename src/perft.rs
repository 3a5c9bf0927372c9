//! `perft` and `divide`: count the leaves of the legal move tree, for
//! checking the move generator against reference counts and timing it.

use crate::movegen;
use crate::position::Position;
use std::io::Write;
use std::time::Instant;

/// How leaves are counted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LeafCounting {
    /// The last ply is counted from the legal move list, its moves not made
    /// (the method Stockfish-family engines use for their perft figures).
    Bulk,
    /// Every move, leaves included, is made and unmade.
    MakeUnmake,
}

impl LeafCounting {
    pub fn describe(self) -> &'static str {
        match self {
            LeafCounting::Bulk => {
                "bulk counting: the last ply is counted from the legal move list, its moves not made"
            }
            LeafCounting::MakeUnmake => "full: every leaf move is made and unmade",
        }
    }
}

/// Runs perft and writes the report; returns the node count.
pub fn run_perft(
    pos: &mut Position,
    depth: u32,
    counting: LeafCounting,
    out: &mut impl Write,
) -> std::io::Result<u64> {
    let start = Instant::now();
    let nodes = match counting {
        LeafCounting::Bulk => movegen::perft(pos, depth),
        LeafCounting::MakeUnmake => movegen::perft_full(pos, depth),
    };
    write_summary(out, depth, counting, nodes, start)?;
    Ok(nodes)
}

/// Runs divide: one `<move>: <count>` line per root move, then the summary.
pub fn run_divide(pos: &mut Position, depth: u32, out: &mut impl Write) -> std::io::Result<u64> {
    let start = Instant::now();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        for (m, n) in movegen::divide(pos, depth) {
            writeln!(out, "{m}: {n}")?;
            total += n;
        }
    }
    write_summary(out, depth, LeafCounting::Bulk, total, start)?;
    Ok(total)
}

fn write_summary(
    out: &mut impl Write,
    depth: u32,
    counting: LeafCounting,
    nodes: u64,
    start: Instant,
) -> std::io::Result<()> {
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    writeln!(out, "Depth: {depth} ({})", counting.describe())?;
    writeln!(out, "Time: {:.3} s", secs)?;
    writeln!(out, "Nodes/second: {:.0}", nps)?;
    writeln!(out, "Nodes searched: {nodes}")?;
    out.flush()
}
