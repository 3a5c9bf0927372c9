//! UCCI printing: the handshake, search reports and replies as UCCI hosts
//! read them. Scores are plain integers; diagnostics are `info message`.

use super::{Dialect, NAME_LINE};
use crate::options::EngineOptions;
use crate::record::ranks::Ranks;
use crate::search::IterationInfo;
use crate::types::Move;

pub fn handshake(o: &EngineOptions) -> Vec<String> {
    let mut lines = vec![
        format!("id name {NAME_LINE}"),
        format!("id author {}", super::AUTHORS),
    ];
    lines.extend(super::options::announcements(Dialect::Ucci, o));
    lines.push("ucciok".to_string());
    lines
}

/// `wdl`: win/draw/loss per mille, printed after the score when given.
pub fn iteration(i: &IterationInfo, wdl: Option<(u32, u32, u32)>, ranks: Ranks) -> String {
    let multipv = if i.multipv > 1 {
        format!(" multipv {}", i.multipv)
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {}{multipv} score {}{} time {} nodes {} nps {} hashfull {} pv {}",
        i.depth,
        i.seldepth,
        i.score,
        super::wdl_text(wdl),
        i.time_ms,
        i.nodes,
        i.nps,
        i.hashfull,
        ranks.write_list(&i.pv)
    )
}

pub fn current_move(mv: Move, number: usize, ranks: Ranks) -> String {
    format!("info currmove {} currmovenumber {number}", ranks.write(mv))
}

pub fn message(text: &str) -> String {
    format!("info message {text}")
}

/// `suffix`: `draw` or `resign`, when the game calls for one.
pub fn best_move(
    best: Option<Move>,
    ponder: Option<Move>,
    suffix: Option<&str>,
    ranks: Ranks,
) -> String {
    let Some(best) = best else {
        return "nobestmove".to_string();
    };
    let mut s = format!("bestmove {}", ranks.write(best));
    if let Some(p) = ponder {
        s.push_str(&format!(" ponder {}", ranks.write(p)));
    }
    if let Some(x) = suffix {
        s.push(' ');
        s.push_str(x);
    }
    s
}
