//! One JSON record per game: what `chuhe match --json FILE` appends (JSON
//! Lines: one object a line) and `chuhe match merge` reads back.
//!
//! A record says which match it belongs to (`match`: the engines, games
//! per pairing, games planned over the whole match, seed, opening suite
//! and order, event), where it was played (`shard`: `[k, n]`), which game
//! it is (`game`: the 0-based number over the whole match, the PGN round
//! less one; `pairing`: the opponent pairing; `pair`: the opening pair
//! within it), who played which colour, the result and termination, the
//! incident blamed on a side, the opening, every move with the engine's
//! score, depth, time used and clock left, the PGN header values, and each
//! engine's play settings (`settings`: what `--resume` checks). The
//! game number identifies a game within its match whatever the sharding,
//! so merging is idempotent. Example (one line in the file):
//!
//! ```text
//! {"format":"chuhe-match-game/1","match":{"engines":["new","base"],"games":16,
//!  "planned":16,"seed":7,"openings":"builtin","order":"random",
//!  "event":"chuhe match"},"shard":[2,4],"game":2,"pairing":0,"pair":1,
//!  "red":"new","black":"base","red_engine":0,"black_engine":1,
//!  "result":"1-0","termination":"checkmate","incident":null,"detail":null,
//!  "opening":{"index":41,"fen":"rnbakabnr/... w - - 0 1",
//!  "moves":["h2e2","h9g7"],"label":"h2e2 h9g7"},
//!  "moves":[{"move":"h0g2","score":{"cp":25},"depth":9,"ms":12,"clock":null}],
//!  "event":"chuhe match","date":"2026.12.01","time_control":"-",
//!  "settings":["proto=ucci book=off ranks=0 hash=16","proto=ucci book=off ranks=0 hash=16"]}
//! ```

use super::engine::EngineScore;
use super::game::{GameRecord, Incident, MoveRecord, Termination};
use super::openings::{Opening, Order};
use super::record::Header;
use super::{MatchConfig, Task};
use crate::record::games::GameResult;
use crate::types::{Color, Move};
use serde::{Deserialize, Serialize};
use std::io::{self, Write};

/// The `format` value of this version of the record.
pub const FORMAT: &str = "chuhe-match-game/1";

/// What identifies a match: records of one match agree on all of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchId {
    /// Engine names; the first plays the others.
    pub engines: Vec<String>,
    /// Games per pairing (`--games`).
    pub games: u32,
    /// Games in the whole match, all shards.
    pub planned: u32,
    pub seed: u64,
    /// The opening suite: `builtin`, `startpos` or the file given.
    pub openings: String,
    /// `random` or `sequential`.
    pub order: String,
    pub event: String,
}

impl MatchId {
    pub fn of(config: &MatchConfig) -> MatchId {
        MatchId {
            engines: config.engines.iter().map(|e| e.name.clone()).collect(),
            games: config.games,
            planned: super::full_plan(config).len() as u32,
            seed: config.seed,
            openings: config.openings_name.clone(),
            order: match config.order {
                Order::Random => "random",
                Order::Sequential => "sequential",
            }
            .into(),
            event: config.event.clone(),
        }
    }
}

/// An engine's score as reported: `{"cp": 25}` or `{"mate": -3}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoreLine {
    Cp(i32),
    Mate(i32),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IncidentLine {
    /// `red` or `black`.
    pub side: String,
    /// `time loss`, `illegal move`, `crash` or `hang`.
    pub kind: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningLine {
    /// Index in the opening suite.
    pub index: usize,
    pub fen: String,
    /// ICCS moves played from `fen` before the engines take over.
    pub moves: Vec<String>,
    pub label: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveLine {
    /// ICCS.
    #[serde(rename = "move")]
    pub mv: String,
    pub score: Option<ScoreLine>,
    pub depth: Option<u32>,
    /// Milliseconds the engine took.
    pub ms: u64,
    /// The mover's clock after the move, milliseconds; null without a clock.
    pub clock: Option<i64>,
}

/// One game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLine {
    pub format: String,
    #[serde(rename = "match")]
    pub id: MatchId,
    /// `[k, n]`: played by shard k of n.
    pub shard: [u32; 2],
    /// 0-based game number over the whole match (the PGN round less one).
    pub game: u32,
    pub pairing: usize,
    pub pair: u32,
    /// Names of the engines playing Red and Black.
    pub red: String,
    pub black: String,
    /// Their indices in `match.engines`.
    pub red_engine: usize,
    pub black_engine: usize,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The PGN `Termination` text.
    pub termination: String,
    pub incident: Option<IncidentLine>,
    pub detail: Option<String>,
    pub opening: OpeningLine,
    pub moves: Vec<MoveLine>,
    /// PGN header values.
    pub event: String,
    pub date: String,
    pub time_control: String,
    /// Each engine's play settings ([`EngineSpec::play_settings`]), in
    /// `match.engines` order. Absent from records written before they were
    /// recorded.
    ///
    /// [`EngineSpec::play_settings`]: super::engine::EngineSpec::play_settings
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Vec<String>>,
}

fn side_word(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

impl GameLine {
    /// The record of a finished game; `settings` are the engines' play
    /// settings in match order.
    pub fn new(
        id: &MatchId,
        settings: &[String],
        shard: (u32, u32),
        task: &Task,
        header: &Header,
        game: &GameRecord,
    ) -> GameLine {
        let (red, black) = task.colours();
        GameLine {
            format: FORMAT.into(),
            id: id.clone(),
            shard: [shard.0, shard.1],
            game: task.number,
            pairing: task.pairing,
            pair: task.pair,
            red: header.red.clone(),
            black: header.black.clone(),
            red_engine: red,
            black_engine: black,
            result: game.result.pgn().into(),
            termination: game.termination.describe(),
            incident: game.incident.map(|(side, kind)| IncidentLine {
                side: side_word(side).into(),
                kind: kind.word().into(),
            }),
            detail: game.detail.clone(),
            opening: OpeningLine {
                index: task.opening,
                fen: game.opening.fen.clone(),
                moves: game.opening.moves.iter().map(|m| m.to_string()).collect(),
                label: game.opening.label.clone(),
            },
            moves: game
                .moves
                .iter()
                .map(|r| MoveLine {
                    mv: r.mv.to_string(),
                    score: r.score.map(|s| match s {
                        EngineScore::Cp(v) => ScoreLine::Cp(v),
                        EngineScore::Mate(n) => ScoreLine::Mate(n),
                    }),
                    depth: r.depth,
                    ms: r.elapsed_ms,
                    clock: r.clock_ms,
                })
                .collect(),
            event: header.event.clone(),
            date: header.date.clone(),
            time_control: header.time_control.clone(),
            settings: Some(settings.to_vec()),
        }
    }

    /// Writes the record as one line and flushes it.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let mut text = serde_json::to_string(self).map_err(io::Error::other)?;
        text.push('\n');
        out.write_all(text.as_bytes())?;
        out.flush()
    }

    /// Reads one line.
    pub fn parse(line: &str) -> Result<GameLine, String> {
        let g: GameLine = serde_json::from_str(line).map_err(|e| e.to_string())?;
        if g.format != FORMAT {
            return Err(format!("format '{}', expected '{FORMAT}'", g.format));
        }
        let n = g.id.engines.len();
        if n < 2
            || g.red_engine >= n
            || g.black_engine >= n
            || g.red_engine == g.black_engine
            || (g.red_engine != 0 && g.black_engine != 0)
            || g.pairing + 1 != g.red_engine.max(g.black_engine)
            || g.game >= g.id.planned
        {
            return Err(format!(
                "game {}: engines {} and {} of {n} in pairing {} do not fit the match",
                g.game, g.red_engine, g.black_engine, g.pairing
            ));
        }
        Ok(g)
    }

    /// The game as the match runner had it.
    pub fn task(&self) -> Task {
        let first_is_red = self.red_engine == 0;
        Task {
            number: self.game,
            pairing: self.pairing,
            pair: self.pair,
            opening: self.opening.index,
            first: 0,
            second: self.pairing + 1,
            first_is_red,
        }
    }

    /// The PGN header of the game.
    pub fn header(&self) -> Header {
        Header {
            event: self.event.clone(),
            site: "?".into(),
            date: self.date.clone(),
            round: (self.game + 1).to_string(),
            red: self.red.clone(),
            black: self.black.clone(),
            time_control: self.time_control.clone(),
        }
    }

    /// The game record, as [`super::record::write_game`] and the summary
    /// take it.
    pub fn record(&self) -> Result<GameRecord, String> {
        let what = |e: String| format!("game {}: {e}", self.game + 1);
        let mv = |t: &str| Move::parse(t).ok_or_else(|| what(format!("bad move '{t}'")));
        let opening = Opening {
            fen: self.opening.fen.clone(),
            moves: self
                .opening
                .moves
                .iter()
                .map(|t| mv(t))
                .collect::<Result<_, _>>()?,
            label: self.opening.label.clone(),
        };
        let moves = self
            .moves
            .iter()
            .map(|m| {
                Ok(MoveRecord {
                    mv: mv(&m.mv)?,
                    score: m.score.map(|s| match s {
                        ScoreLine::Cp(v) => EngineScore::Cp(v),
                        ScoreLine::Mate(n) => EngineScore::Mate(n),
                    }),
                    depth: m.depth,
                    elapsed_ms: m.ms,
                    clock_ms: m.clock,
                })
            })
            .collect::<Result<_, String>>()?;
        let result = GameResult::from_pgn(&self.result)
            .filter(|r| *r != GameResult::Unfinished)
            .ok_or_else(|| what(format!("bad result '{}'", self.result)))?;
        let termination = Termination::from_describe(&self.termination)
            .ok_or_else(|| what(format!("bad termination '{}'", self.termination)))?;
        let incident = match &self.incident {
            None => None,
            Some(i) => {
                let side = match i.side.as_str() {
                    "red" => Color::Red,
                    "black" => Color::Black,
                    s => return Err(what(format!("bad side '{s}'"))),
                };
                let kind = Incident::from_word(&i.kind)
                    .ok_or_else(|| what(format!("bad incident '{}'", i.kind)))?;
                Some((side, kind))
            }
        };
        Ok(GameRecord {
            opening,
            moves,
            result,
            termination,
            detail: self.detail.clone(),
            incident,
            restart: [false; 2],
        })
    }

    /// Whether `other` is the same game: everything equal but where and
    /// when it was played and the times (a game replayed at a fixed node
    /// count or depth comes out the same; one on a clock need not).
    pub fn same_game(&self, other: &GameLine) -> bool {
        let strip = |g: &GameLine| {
            let mut g = g.clone();
            g.shard = [0, 0];
            g.date.clear();
            for m in &mut g.moves {
                m.ms = 0;
                m.clock = None;
            }
            g
        };
        strip(self) == strip(other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Reason;

    #[test]
    fn a_record_reads_back_as_written() {
        let opening = super::super::openings::parse_text("|h2e2 h9g7")
            .unwrap()
            .remove(0);
        let m = |t: &str| Move::parse(t).unwrap();
        let game = GameRecord {
            opening,
            moves: vec![
                MoveRecord {
                    mv: m("h0g2"),
                    score: Some(EngineScore::Cp(-25)),
                    depth: Some(12),
                    elapsed_ms: 1230,
                    clock_ms: Some(58_770),
                },
                MoveRecord {
                    mv: m("i9h9"),
                    score: Some(EngineScore::Mate(-3)),
                    depth: None,
                    elapsed_ms: 5,
                    clock_ms: None,
                },
            ],
            result: GameResult::Win(Color::Red),
            termination: Termination::Rules(Reason::PerpetualChase),
            detail: Some("a \"quoted\"\nnote".into()),
            incident: Some((Color::Black, Incident::Hang)),
            restart: [false; 2],
        };
        let id = MatchId {
            engines: vec!["a".into(), "b".into(), "c".into()],
            games: 8,
            planned: 16,
            seed: 5,
            openings: "builtin".into(),
            order: "random".into(),
            event: "e".into(),
        };
        let task = Task {
            number: 13,
            pairing: 1,
            pair: 3,
            opening: 17,
            first: 0,
            second: 2,
            first_is_red: false,
        };
        let header = Header {
            event: "e".into(),
            site: "?".into(),
            date: "2026.12.01".into(),
            round: "14".into(),
            red: "c".into(),
            black: "a".into(),
            time_control: "10+0.1".into(),
        };
        let settings = ["proto=ucci book=off ranks=0", "proto=uci", "arg=-q"].map(String::from);
        let line = GameLine::new(&id, &settings, (2, 4), &task, &header, &game);
        let mut out = Vec::new();
        line.write(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches('\n').count(), 1, "{text}");
        assert!(text.contains("\"score\":{\"mate\":-3}"), "{text}");
        let back = GameLine::parse(text.trim_end()).unwrap();
        assert_eq!(back, line);
        // Records from before settings were recorded still read.
        let older = GameLine {
            settings: None,
            ..line.clone()
        };
        let mut out = Vec::new();
        older.write(&mut out).unwrap();
        let older_text = String::from_utf8(out).unwrap();
        assert!(!older_text.contains("settings"), "{older_text}");
        assert_eq!(GameLine::parse(older_text.trim_end()).unwrap(), older);
        assert_eq!(back.task(), task);
        let header_back = back.header();
        assert_eq!(
            (header_back.round, header_back.red, header_back.time_control),
            ("14".to_string(), "c".to_string(), "10+0.1".to_string())
        );
        let g = back.record().unwrap();
        assert_eq!(g.moves, game.moves);
        assert_eq!(g.opening, game.opening);
        assert_eq!(
            (g.result, g.termination, g.incident, g.detail),
            (game.result, game.termination, game.incident, game.detail)
        );
        // Times do not make another game; a result does.
        let mut later = back.clone();
        later.moves[0].ms = 1;
        later.shard = [1, 1];
        assert!(later.same_game(&line));
        later.result = "0-1".into();
        assert!(!later.same_game(&line));
        // Engines that do not fit the pairing are refused.
        let bad = text.replace("\"pairing\":1", "\"pairing\":0");
        assert!(GameLine::parse(bad.trim_end()).is_err());
        let bad = text.replace(FORMAT, "chuhe-match-game/0");
        assert!(GameLine::parse(bad.trim_end()).is_err());
    }
}
