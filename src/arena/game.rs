//! One refereed game between two engine processes.
//!
//! The referee owns the position. Before each move it asks
//! [`rules::judge`] whether the game is over (mate, stalemate — a loss in
//! xiangqi —, the repetition verdicts, the natural move limit, dead
//! material); then the optional score adjudication; then it sends the side
//! to move the start FEN with every move since, and `go` with its clock.
//!
//! A side loses when it
//! - plays an illegal move (the move, FEN and reason are kept), or answers
//!   `nobestmove` while it has legal moves ("no move": UCCI defines it only
//!   for positions without one; an engine's own draw rules do not bind the
//!   referee),
//! - replies after its clock plus the grace ("time forfeit"; if it does not
//!   answer `stop` within a second either, it is also marked hung and its
//!   process is restarted before its next game),
//! - exits or closes its output ("crash"; restarted),
//! - resigns (`bestmove ... resign`), or is adjudicated lost by score.

use super::clock::{GameClock, MatchLimits};
use super::engine::{EngineError, EngineProcess, GoClock, GoCommand, STOP_TIMEOUT};
use super::openings::Opening;
use crate::adjudicate::{ScoreTrail, Verdict};
use crate::position::Position;
use crate::record::games::GameResult;
use crate::replay::{self, Accept};
use crate::rules::{self, Outcome, Reason, RuleSettings};
use crate::types::{Color, Move};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub use super::engine::EngineScore;

pub use crate::adjudicate::{Adjudication, DrawAdjudication};

/// Match-wide settings of the referee.
#[derive(Clone, Debug)]
pub struct RefereeSettings {
    pub rules: RuleSettings,
    /// Milliseconds a reply may overstep the clock (or the move time).
    pub grace_ms: u64,
    /// How long to wait for a move when there is no clock (depth or node
    /// limits only).
    pub hang_timeout: Duration,
    pub adjudication: Adjudication,
}

impl Default for RefereeSettings {
    fn default() -> Self {
        RefereeSettings {
            rules: RuleSettings::default(),
            grace_ms: 100,
            hang_timeout: Duration::from_secs(60),
            adjudication: Adjudication::default(),
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Rules(Reason),
    TimeForfeit,
    IllegalMove,
    /// `nobestmove` (or `bestmove (none)`) while legal moves remain.
    /// ElephantEye answers so when its own draw rules (100 plies without
    /// a capture, bare material, repetition) say the game is over.
    NoMove,
    Crash,
    Resignation,
    AdjudicatedLoss,
    AdjudicatedDraw,
    Aborted,
}

impl Termination {
    /// The PGN `Termination` tag value.
    pub fn describe(self) -> String {
        match self {
            Termination::Rules(r) => r.word().replace('-', " "),
            Termination::TimeForfeit => "time forfeit".into(),
            Termination::IllegalMove => "illegal move".into(),
            Termination::NoMove => "no move".into(),
            Termination::Crash => "engine crash".into(),
            Termination::Resignation => "resignation".into(),
            Termination::AdjudicatedLoss => "adjudication: score".into(),
            Termination::AdjudicatedDraw => "adjudication: draw".into(),
            Termination::Aborted => "unterminated".into(),
        }
    }

    /// Every termination, for reading [`Termination::describe`]'s text back.
    const ALL: [Termination; 15] = [
        Termination::Rules(Reason::Checkmate),
        Termination::Rules(Reason::Stalemate),
        Termination::Rules(Reason::PerpetualCheck),
        Termination::Rules(Reason::PerpetualChase),
        Termination::Rules(Reason::Repetition),
        Termination::Rules(Reason::MoveLimit),
        Termination::Rules(Reason::DeadMaterial),
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::NoMove,
        Termination::Crash,
        Termination::Resignation,
        Termination::AdjudicatedLoss,
        Termination::AdjudicatedDraw,
        Termination::Aborted,
    ];

    /// The termination whose [`Termination::describe`] text is `text`.
    pub fn from_describe(text: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.describe() == text)
    }
}

/// A failure an engine is blamed for, for the per-engine tallies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Incident {
    TimeLoss,
    IllegalMove,
    Crash,
    /// No answer even to `stop`: the process was restarted.
    Hang,
}

impl Incident {
    /// `time loss`, `illegal move`, `crash`, `hang`.
    pub fn word(self) -> &'static str {
        match self {
            Incident::TimeLoss => "time loss",
            Incident::IllegalMove => "illegal move",
            Incident::Crash => "crash",
            Incident::Hang => "hang",
        }
    }

    /// Reads back [`Incident::word`]'s text.
    pub fn from_word(text: &str) -> Option<Incident> {
        [
            Incident::TimeLoss,
            Incident::IllegalMove,
            Incident::Crash,
            Incident::Hang,
        ]
        .into_iter()
        .find(|i| i.word() == text)
    }
}

/// One move as played, with what the engine said about it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    pub mv: Move,
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
    pub elapsed_ms: u64,
    /// The mover's clock after the move (and its increment), if timed.
    pub clock_ms: Option<i64>,
}

/// A finished (or aborted) game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub opening: Opening,
    pub moves: Vec<MoveRecord>,
    pub result: GameResult,
    pub termination: Termination,
    /// Details for the log: the illegal move with its FEN and reason, the
    /// time overstepped, the crash.
    pub detail: Option<String>,
    /// Side blamed for an incident, and which.
    pub incident: Option<(Color, Incident)>,
    /// Sides whose engine must be restarted before its next game.
    pub restart: [bool; 2],
}

fn go_clock(clocks: &[Option<GameClock>; 2]) -> Option<GoClock> {
    if clocks.iter().all(Option::is_none) {
        return None;
    }
    let mut g = GoClock::default();
    for c in Color::BOTH {
        // A side without a clock (a per-engine fixed limit) is reported
        // with its opponent's clock, so UCI engines still see both.
        let clock = clocks[c.index()]
            .as_ref()
            .or(clocks[(!c).index()].as_ref())?;
        g.remaining_ms[c.index()] = clock.remaining_ms().max(0) as u64;
        g.increment_ms[c.index()] = clock.increment_ms();
        g.moves_to_go[c.index()] = clock.moves_to_go();
    }
    Some(g)
}

/// How a game ended: the result and why, the side blamed for an incident
/// (if any) and, for the log, what happened.
struct Ending {
    result: GameResult,
    termination: Termination,
    blame: Option<(Color, Incident)>,
    detail: Option<String>,
}

impl Ending {
    /// An end by the rules or by adjudication: nobody is blamed.
    fn decided(result: GameResult, termination: Termination) -> Ending {
        Ending {
            result,
            termination,
            blame: None,
            detail: None,
        }
    }

    /// `side` loses by `termination`, with `incident` counted against it.
    fn forfeit(
        side: Color,
        termination: Termination,
        incident: Option<Incident>,
        detail: String,
    ) -> Ending {
        Ending {
            result: GameResult::Win(!side),
            termination,
            blame: incident.map(|i| (side, i)),
            detail: Some(detail),
        }
    }
}

impl GameRecord {
    /// Writes `ending` into the record; a crashed or hung engine is marked
    /// for a restart.
    fn end(mut self, ending: Ending) -> GameRecord {
        self.result = ending.result;
        self.termination = ending.termination;
        self.incident = ending.blame;
        self.detail = ending.detail;
        if let Some((side, Incident::Crash | Incident::Hang)) = ending.blame {
            self.restart[side.index()] = true;
        }
        self
    }
}

/// The referee's view of a game under way.
struct Referee<'a> {
    settings: &'a RefereeSettings,
    limits: [&'a MatchLimits; 2],
    opening: &'a Opening,
    pos: Position,
    clocks: [Option<GameClock>; 2],
    /// The opening's moves, then the game's: what the engines are sent.
    moves: Vec<Move>,
    trail: ScoreTrail,
}

impl Referee<'_> {
    /// The end by the rules or by score adjudication, if the game is over.
    fn verdict(&mut self) -> Option<Ending> {
        match rules::judge(&mut self.pos, &self.settings.rules) {
            Outcome::Ongoing => {}
            Outcome::Win { winner, reason } => {
                return Some(Ending::decided(
                    GameResult::Win(winner),
                    Termination::Rules(reason),
                ));
            }
            Outcome::Draw { reason } => {
                return Some(Ending::decided(
                    GameResult::Draw,
                    Termination::Rules(reason),
                ));
            }
        }
        let adjudicated = self
            .trail
            .verdict(&self.settings.adjudication, self.pos.fullmove_number());
        adjudicated.map(|v| match v {
            Verdict::Win(winner) => {
                Ending::decided(GameResult::Win(winner), Termination::AdjudicatedLoss)
            }
            Verdict::Draw => Ending::decided(GameResult::Draw, Termination::AdjudicatedDraw),
        })
    }

    /// The side to move's turn: sends `engine` the game and `go`, waits for
    /// its answer, and plays the move if it came in time and is legal;
    /// else the side forfeits.
    fn turn(&mut self, engine: &mut EngineProcess) -> Result<MoveRecord, Ending> {
        let side = self.pos.side_to_move();
        let i = side.index();
        let lim = self.limits[i];
        let grace = self.settings.grace_ms;
        let who = format!("{} ({})", engine.spec.name, side.name());
        let forfeit =
            |termination, incident, detail| Ending::forfeit(side, termination, incident, detail);

        let req = GoCommand {
            side: Some(side),
            clock: self.clocks[i].as_ref().and_then(|_| go_clock(&self.clocks)),
            movetime_ms: lim.movetime_ms,
            depth: lim.depth,
            nodes: lim.nodes,
        };
        let allowed_ms = match (&self.clocks[i], lim.movetime_ms) {
            (Some(c), _) => c.remaining_ms().max(0) as u64 + grace,
            (None, Some(ms)) => ms + grace,
            (None, None) => self.settings.hang_timeout.as_millis() as u64,
        };
        let reply = match engine.position(&self.opening.fen, &self.moves) {
            Ok(()) => engine.go(&req, Duration::from_millis(allowed_ms)),
            Err(e) => Err((e, Default::default())),
        };
        let reply = match reply {
            Ok(r) => r,
            Err((EngineError::Timeout(_), _)) => {
                let answered = engine.stop(STOP_TIMEOUT);
                let what = if self.clocks[i].is_some() || lim.movetime_ms.is_some() {
                    "its time"
                } else {
                    "the hang timeout"
                };
                let (incident, restarted) = if answered {
                    (Incident::TimeLoss, "")
                } else {
                    (Incident::Hang, " nor after stop: restarted")
                };
                return Err(forfeit(
                    Termination::TimeForfeit,
                    Some(incident),
                    format!("{who} gave no move within {what} ({allowed_ms} ms){restarted}"),
                ));
            }
            Err((e, _)) => {
                return Err(forfeit(
                    Termination::Crash,
                    Some(Incident::Crash),
                    format!("{who} crashed: {e}"),
                ));
            }
        };

        let elapsed_ms = reply.elapsed.as_millis() as u64;
        let overstepped = match (&self.clocks[i], lim.movetime_ms) {
            (Some(c), _) => c.flagged(elapsed_ms, grace).then(|| c.remaining_ms()),
            (None, Some(ms)) => (elapsed_ms > ms + grace).then_some(ms as i64),
            (None, None) => None,
        };
        if let Some(had) = overstepped {
            return Err(forfeit(
                Termination::TimeForfeit,
                Some(Incident::TimeLoss),
                format!("{who} took {elapsed_ms} ms with {had} ms left"),
            ));
        }
        if reply.resign {
            return Err(forfeit(
                Termination::Resignation,
                None,
                format!("{who} resigned"),
            ));
        }
        let Some(text) = reply.bestmove else {
            return Err(forfeit(
                Termination::NoMove,
                Some(Incident::IllegalMove),
                format!(
                    "{who} gave no move in {} although it has legal moves",
                    self.pos.to_fen()
                ),
            ));
        };
        let mv = replay::read_move(&self.pos, &text, Accept::Iccs).map_err(|reason| {
            forfeit(
                Termination::IllegalMove,
                Some(Incident::IllegalMove),
                format!(
                    "{who} played illegal move '{text}' in {}: {reason}",
                    self.pos.to_fen()
                ),
            )
        })?;

        if let Some(c) = self.clocks[i].as_mut() {
            c.punch(elapsed_ms);
        }
        self.trail
            .push(side, reply.info.score.map(EngineScore::value));
        self.pos.make_move(mv);
        self.moves.push(mv);
        Ok(MoveRecord {
            mv,
            score: reply.info.score,
            depth: reply.info.depth,
            elapsed_ms,
            clock_ms: self.clocks[i].as_ref().map(GameClock::remaining_ms),
        })
    }
}

/// Plays one game. `engines` and `limits` are indexed by colour (Red
/// first). `stop` aborts the game between moves.
pub fn play(
    engines: [&mut EngineProcess; 2],
    limits: [&MatchLimits; 2],
    opening: &Opening,
    settings: &RefereeSettings,
    stop: &AtomicBool,
) -> GameRecord {
    let mut record = GameRecord {
        opening: opening.clone(),
        moves: Vec::new(),
        result: GameResult::Unfinished,
        termination: Termination::Aborted,
        detail: None,
        incident: None,
        restart: [false; 2],
    };
    let pos = match opening.position() {
        Ok(p) => p,
        Err(e) => {
            record.detail = Some(format!("bad opening: {e}"));
            return record;
        }
    };
    for side in Color::BOTH {
        let engine = &mut *engines[side.index()];
        if let Err(e) = engine.new_game() {
            let incident = match e {
                EngineError::Timeout(_) => Incident::Hang,
                _ => Incident::Crash,
            };
            let detail = format!("{} failed to start a game: {e}", engine.spec.name);
            return record.end(Ending::forfeit(
                side,
                Termination::Crash,
                Some(incident),
                detail,
            ));
        }
    }

    let mut referee = Referee {
        settings,
        limits,
        opening,
        pos,
        clocks: limits.map(|l| l.tc.as_ref().map(GameClock::new)),
        moves: opening.moves.clone(),
        trail: ScoreTrail::new(),
    };
    loop {
        if let Some(ending) = referee.verdict() {
            return record.end(ending);
        }
        if stop.load(Ordering::Relaxed) {
            return record;
        }
        let side = referee.pos.side_to_move();
        match referee.turn(&mut *engines[side.index()]) {
            Ok(played) => record.moves.push(played),
            Err(ending) => return record.end(ending),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results() {
        assert_eq!(GameResult::Win(Color::Red).pgn(), "1-0");
        assert_eq!(GameResult::Win(Color::Black).points(Color::Red), Some(0.0));
        assert_eq!(GameResult::Draw.points(Color::Black), Some(0.5));
        assert_eq!(GameResult::Unfinished.points(Color::Red), None);
        assert_eq!(
            Termination::Rules(Reason::PerpetualCheck).describe(),
            "perpetual check"
        );
        for t in Termination::ALL {
            assert_eq!(Termination::from_describe(&t.describe()), Some(t));
        }
        assert_eq!(Termination::from_describe("bored"), None);
        for r in [GameResult::Win(Color::Black), GameResult::Draw] {
            assert_eq!(GameResult::from_pgn(r.pgn()), Some(r));
        }
        assert_eq!(Incident::from_word("hang"), Some(Incident::Hang));
        assert_eq!(
            Incident::from_word(Incident::TimeLoss.word()),
            Some(Incident::TimeLoss)
        );
    }
}
