//! UCI printing, as Pikafish-era xiangqi GUIs read it: `score cp|mate`,
//! `info string` diagnostics, `bestmove (none)` when there is no move.

use super::{Dialect, NAME_LINE};
use crate::options::EngineOptions;
use crate::record::ranks::Ranks;
use crate::search::IterationInfo;
use crate::types::*;

pub fn handshake(o: &EngineOptions) -> Vec<String> {
    let mut lines = vec![
        format!("id name {NAME_LINE}"),
        format!("id author {}", super::AUTHORS),
    ];
    lines.extend(super::options::announcements(Dialect::Uci, o));
    lines.push("uciok".to_string());
    lines
}

/// `cp <v>`, or `mate <n>` in moves (negative when we are mated).
pub fn score(s: Score) -> String {
    if s >= MATE_BOUND {
        format!("mate {}", (MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        format!("mate -{}", (MATE + s) / 2)
    } else {
        format!("cp {s}")
    }
}

/// `wdl`: win/draw/loss per mille, printed after the score when given.
pub fn iteration(i: &IterationInfo, wdl: Option<(u32, u32, u32)>, ranks: Ranks) -> String {
    let bound = match i.bound {
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
        _ => "",
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound}{} nodes {} nps {} hashfull {} time {} pv {}",
        i.depth,
        i.seldepth,
        i.multipv,
        score(i.score),
        super::wdl_text(wdl),
        i.nodes,
        i.nps,
        i.hashfull,
        i.time_ms,
        ranks.write_list(&i.pv)
    )
}

pub fn current_move(depth: Depth, mv: Move, number: usize, ranks: Ranks) -> String {
    let mv = ranks.write(mv);
    format!("info depth {depth} currmove {mv} currmovenumber {number}")
}

pub fn message(text: &str) -> String {
    format!("info string {text}")
}

pub fn best_move(best: Option<Move>, ponder: Option<Move>, ranks: Ranks) -> String {
    match (best, ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", ranks.write(b), ranks.write(p)),
        (Some(b), None) => format!("bestmove {}", ranks.write(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(score(37), "cp 37");
        assert_eq!(score(-37), "cp -37");
        assert_eq!(score(MATE - 1), "mate 1");
        assert_eq!(score(MATE - 3), "mate 2");
        assert_eq!(score(-MATE + 2), "mate -1");
        assert_eq!(score(-MATE + 4), "mate -2");
    }
}
