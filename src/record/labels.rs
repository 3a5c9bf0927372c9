//! Positions scored by chuhe, in the layout of the CCPD labels
//! (`ccpd-labels-5k.tsv.xz`): one position a line, tab-separated,
//! `fen, score, best, best_is_capture, result, ply, game`. The score is
//! chuhe's, centipawns from the side to move's view; the result is the
//! game's for Red (1, 0.5 or 0); `game` numbers the source game.
//!
//! `datagen --from-labels` (training records) and `wdl-fit` read them here.

use crate::position::Position;
use crate::record::games::GameResult;
use crate::types::{Color, Move, Score};

#[derive(Clone, Debug)]
pub struct Label {
    pub pos: Position,
    pub score: Score,
    /// The search's best move (`None` when the field is not a move).
    pub best: Option<Move>,
    /// The game's result: a win or a draw.
    pub result: GameResult,
    pub ply: u32,
    /// The source game's number, when the line has it.
    pub game: Option<u64>,
}

impl Label {
    /// Reads one line; `None` for a line that is not a label (a header,
    /// a damaged line).
    pub fn parse(line: &str) -> Option<Label> {
        let f: Vec<&str> = line.split('\t').map(str::trim).collect();
        if f.len() < 6 {
            return None;
        }
        let result = match f[4].parse::<f64>().ok()? {
            1.0 => GameResult::Win(Color::Red),
            0.5 => GameResult::Draw,
            0.0 => GameResult::Win(Color::Black),
            _ => return None,
        };
        Some(Label {
            pos: Position::from_fen(f[0]).ok()?,
            score: f[1].parse().ok()?,
            best: Move::parse(f[2]),
            result,
            ply: f[5].parse().ok()?,
            game: f.get(6).and_then(|g| g.parse().ok()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_and_damage_is_refused() {
        let line = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\t\
                    12\th2e2\t0\t0.5\t0\t7";
        let l = Label::parse(line).unwrap();
        assert_eq!((l.score, l.ply, l.game), (12, 0, Some(7)));
        assert_eq!(l.best, Move::parse("h2e2"));
        assert_eq!(l.result, GameResult::Draw);
        assert!(Label::parse("fen\tscore\tbest\tcapture\tresult\tply\tgame").is_none());
        assert!(Label::parse(&line.replace("\t0.5\t", "\t0.7\t")).is_none());
        assert!(
            Label::parse(&line.replace("\t7", ""))
                .unwrap()
                .game
                .is_none()
        );
    }
}
