//! `analyse`: search one position and print each iteration in a form meant
//! for people (score in pawns, node counts with units, the principal
//! variation), then the best move; with a picture asked for, the position
//! as an SVG diagram with the principal variation's first moves as arrows
//! ([`crate::diagram`]).

use crate::diagram;
use crate::engine::{Engine, GoRequest, SearchSetup};
use crate::position::Position;
use crate::search::Report;
use crate::time::Limits;
use crate::types::*;
use std::io::Write;
use std::sync::{Arc, Mutex};

pub struct AnalyseOptions {
    pub limits: Limits,
    /// Table, threads and evaluation.
    pub setup: SearchSetup,
    pub multipv: usize,
    /// Draw the position with the principal variation's first moves.
    pub picture: Option<Picture>,
}

/// `analyse --svg`: where the diagram goes and how it is drawn.
pub struct Picture {
    pub path: std::path::PathBuf,
    /// The drawing (its arrows are the principal variation's).
    pub options: diagram::Options,
    /// How many of the principal variation's moves get an arrow.
    pub pv_moves: usize,
}

/// Formats a score for people: pawns with two decimals, or "mate in N".
pub fn format_score(s: Score) -> String {
    if s >= MATE_BOUND {
        format!("mate in {}", (MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        format!("mated in {}", (MATE + s + 1) / 2)
    } else if s >= DECISIVE_BOUND {
        format!("wins by the repetition rules in {}", (RULE_WIN - s + 1) / 2)
    } else if s <= -DECISIVE_BOUND {
        format!(
            "loses by the repetition rules in {}",
            (RULE_WIN + s + 1) / 2
        )
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

/// Searches `pos` through an `Engine` set as `opts` says; fails only when
/// the network file cannot be used.
pub fn run(
    pos: Position,
    opts: AnalyseOptions,
    out: Arc<Mutex<dyn Write + Send>>,
) -> Result<(), String> {
    let sink = out.clone();
    // The last principal variation (the first line's), for the picture.
    let pv: Arc<Mutex<Vec<Move>>> = Arc::new(Mutex::new(Vec::new()));
    let pv_seen = pv.clone();
    let reporter = Arc::new(move |r: Report| {
        match &r {
            Report::Iteration(i) if i.multipv <= 1 && !i.pv.is_empty() => {
                if let Ok(mut p) = pv_seen.lock() {
                    p.clone_from(&i.pv);
                }
            }
            Report::BestMove {
                best: Some(best),
                ponder,
                ..
            } => {
                // The move played leads the arrows, whatever the last line said.
                if let Ok(mut p) = pv_seen.lock()
                    && p.first() != Some(best)
                {
                    *p = std::iter::once(*best).chain(*ponder).collect();
                }
            }
            _ => {}
        }
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
    let mut engine = Engine::new(reporter);
    engine.configure_for_tools(&opts.setup)?;
    engine.options.multipv = opts.multipv.max(1);
    let note = engine.prepare();
    if let Ok(mut w) = out.lock() {
        if let Some(note) = note {
            let _ = writeln!(w, "{note}");
        }
        let _ = writeln!(w, "evaluation: {}", engine.evaluation_name());
    }
    let start = opts.picture.as_ref().map(|_| pos.clone());
    engine.set_position(pos);
    engine.go(GoRequest {
        limits: opts.limits,
        searchmoves: Vec::new(),
    });
    engine.wait();
    if let (Some(picture), Some(start)) = (opts.picture, start) {
        let line = pv.lock().map(|p| p.clone()).unwrap_or_default();
        let options = diagram::Options {
            arrows: line.into_iter().take(picture.pv_moves).collect(),
            ..picture.options
        };
        std::fs::write(&picture.path, diagram::svg(&start, &options))
            .map_err(|e| format!("{}: {e}", picture.path.display()))?;
        if let Ok(mut w) = out.lock() {
            let _ = writeln!(w, "diagram written to {}", picture.path.display());
        }
    }
    Ok(())
}
