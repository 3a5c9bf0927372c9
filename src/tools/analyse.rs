//! `analyse`: search one position and print each iteration in a form meant
//! for people (score in pawns, node counts with units, the principal
//! variation), then the best move.

use crate::position::Position;
use crate::search::{Report, SearchJob};
use crate::thread::ThreadPool;
use crate::time::Limits;
use crate::tt::TranspositionTable;
use crate::types::*;
use std::io::Write;
use std::sync::{Arc, Mutex};

pub struct AnalyseOptions {
    pub limits: Limits,
    pub threads: usize,
    pub hash_mb: usize,
    pub multipv: usize,
    /// The network to evaluate with (`None`: classical).
    pub network: Option<Arc<crate::nnue::Network>>,
}

/// Formats a score for people: pawns with two decimals, or "mate in N".
pub fn format_score(s: Score) -> String {
    if s >= MATE_BOUND {
        format!("mate in {}", (MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        format!("mated in {}", (MATE + s + 1) / 2)
    } else {
        format!("{:+.2}", s as f64 / 100.0)
    }
}

/// Node counts with a unit: 950, 12.3k, 4.56M.
pub fn format_count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=9_999_999 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.2}M", n as f64 / 1e6),
    }
}

pub fn run(pos: Position, opts: AnalyseOptions, out: Arc<Mutex<dyn Write + Send>>) {
    let tt = Arc::new(TranspositionTable::new(opts.hash_mb));
    let mut pool = ThreadPool::new(opts.threads);
    let sink = out.clone();
    let reporter = Arc::new(move |r: Report| {
        let Ok(mut w) = sink.lock() else { return };
        let _ = match r {
            Report::Iteration(i) => {
                let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
                let bound = match i.bound {
                    Bound::Lower => " (lower bound)",
                    Bound::Upper => " (upper bound)",
                    _ => "",
                };
                let line = if i.multipv > 1 {
                    format!(" #{}", i.multipv)
                } else {
                    String::new()
                };
                writeln!(
                    w,
                    "depth {:2}/{:<2}{line} score {}{bound}  nodes {}  nps {}  time {:.2}s  pv {}",
                    i.depth,
                    i.seldepth,
                    format_score(i.score),
                    format_count(i.nodes),
                    format_count(i.nps),
                    i.time_ms as f64 / 1000.0,
                    pv.join(" ")
                )
            }
            Report::BestMove {
                best,
                ponder,
                score,
                depth,
            } => {
                let best = best.map_or("(none)".to_string(), |m| m.to_string());
                let ponder = ponder.map_or(String::new(), |m| format!(" (expecting {m})"));
                writeln!(
                    w,
                    "best move {best}{ponder}, score {} at depth {depth}",
                    format_score(score)
                )
            }
            Report::CurrentMove { .. } => Ok(()),
            Report::Message(m) => writeln!(w, "{m}"),
        };
        let _ = w.flush();
    });
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(
            w,
            "evaluation: {}",
            crate::bench::evaluation_name(opts.network.as_deref())
        );
    }
    let mut job = SearchJob::new(pos, opts.limits, tt, pool.size(), reporter);
    job.multipv = opts.multipv.max(1);
    job.network = opts.network;
    pool.start(job);
    pool.wait();
}
