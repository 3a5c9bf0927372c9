//! CECP, the XBoard/WinBoard ("xboard") protocol, version 2, for xiangqi.
//!
//! Unlike UCCI and UCI, CECP leaves the game to the engine: the engine
//! keeps the position, knows which side it plays (or none: force mode),
//! starts thinking when it is on move, and prints `move <m>` itself. Moves
//! are ICCS coordinates (`h2e2`, ranks 0-9), which is how XBoard writes
//! them on its ten-rank xiangqi board.
//!
//! Every search this dialect starts has a purpose, queued in step with the
//! session's `pending` answers: play a move, ponder on a predicted move,
//! analyse, or nothing (a search that was cut off by `force`, `new`, a
//! ponder miss and the like, whose answer is thrown away). So a stale
//! answer can never become a move, and `pong` can follow at once.
//!
//! Results are claimed by `rules` (mate, stalemate, perpetual check or
//! chase, the natural move limit, dead material) as `1-0 {...}`, `0-1
//! {...}` or `1/2-1/2 {...}`. A move the GUI sends that is not legal gets
//! `Illegal move: <m>` and changes nothing; any other bad line gets
//! `Error (<reason>): <line>`; notes go out as `# ...` comments.

use super::options::{self, Kind, OptionId};
use super::parse::{parse_command, parse_int};
use super::{DRAW_ACCEPT, NAME_LINE, Pending, Session, is_legal, move_list};
use crate::clock::{Session as ClockSession, TimeControl};
use crate::engine::GoRequest;
use crate::movegen;
use crate::options::EngineOptions;
use crate::position::Position;
use crate::replay::{self, Accept};
use crate::rules::{self, Outcome, Reason, RuleSettings};
use crate::search::{IterationInfo, Report};
use crate::text::parse_bool;
use crate::time::{self, Clock, Limits};
use crate::types::*;
use std::collections::VecDeque;
use std::io::Write;

/// Longest echo of a bad line in an `Error (...)` reply.
const ECHO_LIMIT: usize = 200;

/// What a search was started for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Our move: play the answer.
    Play,
    /// Thinking on the opponent's time, assuming this reply.
    Ponder(Move),
    /// Analyze mode: the answer is not played.
    Analyze,
    /// Cut off; its answer is dropped.
    Discard,
}

/// The time control before the host sends one: `level 40 5 0`.
fn default_level() -> TimeControl {
    TimeControl {
        sessions: vec![ClockSession {
            moves: Some(40),
            time_ms: 300_000,
        }],
        increment_ms: 0,
    }
}

/// `level` or `st`, whichever came last.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Pace {
    /// `level MPS BASE INC`.
    Clock(TimeControl),
    /// `st`: at most this long for every move.
    PerMove { ms: u64 },
}

/// The CECP game state.
pub struct State {
    game: Position,
    /// The side the engine plays; `None` in force mode.
    side: Option<Color>,
    post: bool,
    ponder: bool,
    analyzing: bool,
    tc: Pace,
    depth: Option<i32>,
    /// `nps`: nodes stand in for seconds.
    nps: Option<u64>,
    /// Our and the opponent's clocks, centiseconds (`time`, `otim`).
    time_cs: Option<i64>,
    otim_cs: Option<i64>,
    searches: VecDeque<Purpose>,
    /// A result was claimed or announced: no more moves of our own.
    game_over: bool,
    /// The last `setboard` was refused: moves are illegal until the next
    /// `new` or good `setboard`.
    bad_setup: bool,
    /// Our last searched score (for draw offers).
    last_score: Option<Score>,
    /// The reply we expect after our move (`hint`, pondering).
    hint: Option<Move>,
    /// `pong`s held back until the move being thought about is out.
    pongs: Vec<String>,
    /// The latest iteration and root move, for `.` in analyze mode.
    last_iteration: Option<(Depth, u64, u64)>,
    current_move: Option<(Move, usize)>,
}

impl Default for State {
    fn default() -> Self {
        State {
            game: Position::startpos(),
            side: Some(Color::Black),
            post: false,
            ponder: false,
            analyzing: false,
            tc: Pace::Clock(default_level()),
            depth: None,
            nps: None,
            time_cs: None,
            otim_cs: None,
            searches: VecDeque::new(),
            game_over: false,
            bad_setup: false,
            last_score: None,
            hint: None,
            pongs: Vec::new(),
            last_iteration: None,
            current_move: None,
        }
    }
}

// -------------------------------------------------------------------------
// Text in and out (pure)

/// `Error (<reason>): <line>`, the line shortened if very long.
pub fn error(reason: &str, line: &str) -> String {
    let mut echo: String = line.trim().chars().take(ECHO_LIMIT).collect();
    if line.trim().chars().count() > ECHO_LIMIT {
        echo.push_str("...");
    }
    format!("Error ({reason}): {echo}")
}

/// A note for the log: XBoard ignores lines that start with `#`.
pub fn comment(text: &str) -> String {
    format!("# {text}")
}

/// CECP scores: centipawns, mate in N moves as ±(100000 + N).
pub fn score(s: Score) -> i64 {
    if s >= MATE_BOUND {
        100_000 + i64::from((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        -100_000 - i64::from((MATE + s) / 2)
    } else {
        i64::from(s)
    }
}

/// A thinking line: `depth score centiseconds nodes pv`, the PV ending in
/// `?` for a fail low (upper bound) and `!` for a fail high.
pub fn thinking(i: &IterationInfo) -> String {
    let mark = match i.bound {
        Bound::Upper => "?",
        Bound::Lower => "!",
        _ => "",
    };
    format!(
        "{} {} {} {} {}{mark}",
        i.depth,
        score(i.score),
        i.time_ms / 10,
        i.nodes,
        move_list(&i.pv)
    )
}

/// The claim for a finished game, in CECP's result syntax.
pub fn result_line(o: Outcome) -> Option<String> {
    let (code, text) = match o {
        Outcome::Ongoing => return None,
        Outcome::Win { winner, reason } => {
            let code = if winner == Color::Red { "1-0" } else { "0-1" };
            let (w, l) = if winner == Color::Red {
                ("Red", "Black")
            } else {
                ("Black", "Red")
            };
            let text = match reason {
                Reason::Checkmate => format!("{w} mates"),
                Reason::Stalemate => format!("{l} has no legal move"),
                Reason::PerpetualCheck => format!("{l} loses by perpetual check"),
                Reason::PerpetualChase => format!("{l} loses by perpetual chase"),
                other => format!("{w} wins: {}", other.word()),
            };
            (code, text)
        }
        Outcome::Draw { reason } => {
            let text = match reason {
                Reason::Repetition => "Draw by repetition".to_string(),
                Reason::MoveLimit => "Draw by the natural move limit".to_string(),
                Reason::DeadMaterial => "Draw: neither side can mate".to_string(),
                other => format!("Draw: {}", other.word()),
            };
            ("1/2-1/2", text)
        }
    };
    Some(format!("{code} {{{text}}}"))
}

/// The `feature` lines answering `protover`: the protocol features, the
/// options XBoard cannot set with its own commands, and `done=1`.
pub fn features(o: &EngineOptions) -> Vec<String> {
    let mut lines = vec![format!(
        "feature myname=\"{NAME_LINE}\" variants=\"xiangqi\" setboard=1 usermove=1 ping=1 \
         playother=1 time=1 draw=1 reuse=1 analyze=1 colors=0 sigint=0 sigterm=0 memory=1 \
         smp=1 nps=1 debug=1 san=0 name=0 pause=0 exclude=0 setscore=0"
    )];
    lines.extend(options::cecp_announcements(o));
    lines.push("feature done=1".to_string());
    lines
}

/// Whether a word can only be a move in coordinates (`h2e2`).
fn looks_like_move(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 4
        && b[0].is_ascii_lowercase()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_lowercase()
        && b[3].is_ascii_digit()
}

/// `BASE` of `level`: minutes, or `MIN:SEC`; extra characters after the
/// number (a future session's time) are ignored, as the protocol asks.
fn parse_base(t: &str) -> Option<u64> {
    let digits = |s: &str| -> Option<u64> {
        let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        s[..end].parse::<u64>().ok()
    };
    let ms = match t.split_once(':') {
        Some((m, s)) => digits(m)?.checked_mul(60)?.checked_add(digits(s)?)?,
        None => digits(t)?.checked_mul(60)?,
    };
    ms.checked_mul(1000)
}

/// Seconds, possibly fractional, to milliseconds.
fn parse_seconds(t: &str) -> Option<u64> {
    let v = t
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)?;
    Some((v * 1000.0).min(1e15) as u64)
}

// -------------------------------------------------------------------------
// The session in CECP

impl<W: Write> Session<W> {
    /// `xboard`: the rest of the session speaks CECP, starting from a new
    /// game at the start position.
    pub(super) fn cecp_start(&mut self) {
        self.cecp = State::default();
        self.engine.set_position(self.cecp.game.clone());
    }

    pub(super) fn cecp_line(&mut self, text: &str) {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let Some(&first) = tokens.first() else {
            return;
        };
        let args = &tokens[1..];
        let rest = text.trim_start()[first.len()..].trim();
        match first {
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" => {}
            "protover" => {
                for l in features(&self.engine.options) {
                    self.emit(&l);
                }
            }
            "new" => self.cecp_new(),
            "variant" => {
                if !args
                    .first()
                    .is_some_and(|v| v.eq_ignore_ascii_case("xiangqi"))
                {
                    self.emit(&error("variant not supported", text));
                }
            }
            "force" => {
                self.cecp_cut_off();
                self.cecp.side = None;
            }
            "go" => {
                self.cecp_cut_off();
                self.cecp.side = Some(self.cecp.game.side_to_move());
                self.cecp.game_over = false;
                if !self.cecp_claim() {
                    self.cecp_think();
                }
            }
            "playother" => {
                self.cecp_cut_off();
                self.cecp.side = Some(!self.cecp.game.side_to_move());
                self.cecp.game_over = false;
                self.cecp.hint = self
                    .engine
                    .probe(&self.cecp.game)
                    .map(|h| h.mv)
                    .filter(|&m| is_legal(&self.cecp.game, m));
                self.cecp_start_pondering();
            }
            "usermove" => match args {
                [m] => self.cecp_user_move(m),
                _ => self.emit(&error("usermove takes one move", text)),
            },
            "setboard" => self.cecp_setboard(rest, text),
            "undo" => self.cecp_take_back(1, text),
            "remove" => self.cecp_take_back(2, text),
            "level" => self.cecp_level(args, text),
            "st" => match args.first().and_then(|t| parse_seconds(t)) {
                Some(ms) if args.len() == 1 && ms > 0 => self.cecp.tc = Pace::PerMove { ms },
                _ => self.emit(&error("st takes a number of seconds", text)),
            },
            "sd" => match args.first().and_then(|t| t.parse::<i32>().ok()) {
                Some(d) if args.len() == 1 && d > 0 => {
                    self.cecp.depth = Some(d.min(MAX_PLY as i32 - 8));
                }
                _ => self.emit(&error("sd takes a depth of 1 or more", text)),
            },
            "nps" => match args.first().and_then(|t| t.parse::<u64>().ok()) {
                Some(n) if args.len() == 1 => self.cecp.nps = (n > 0).then_some(n),
                _ => self.emit(&error("nps takes a node rate", text)),
            },
            "time" | "otim" => match args.first().and_then(|t| parse_int(t)) {
                Some(cs) if args.len() == 1 => {
                    let slot = if first == "time" {
                        &mut self.cecp.time_cs
                    } else {
                        &mut self.cecp.otim_cs
                    };
                    *slot = Some(cs);
                }
                _ => self.emit(&error("takes centiseconds", text)),
            },
            "ping" => {
                let pong = format!("pong {rest}");
                if self.cecp.searches.contains(&Purpose::Play) {
                    self.cecp.pongs.push(pong);
                } else {
                    self.emit(&pong);
                }
            }
            "post" => self.cecp.post = true,
            "nopost" => self.cecp.post = false,
            "hard" => self.cecp.ponder = true,
            "easy" => {
                self.cecp.ponder = false;
                if matches!(self.cecp.searches.back(), Some(Purpose::Ponder(_))) {
                    self.cecp_cut_off();
                }
            }
            "?" => {
                if self.cecp.searches.back() == Some(&Purpose::Play) {
                    self.engine.stop();
                }
            }
            "analyze" => {
                self.cecp_cut_off();
                self.cecp.side = None;
                self.cecp.analyzing = true;
                self.cecp_search(Purpose::Analyze);
            }
            "exit" => {
                if self.cecp.analyzing {
                    self.cecp_cut_off();
                    self.cecp.analyzing = false;
                } else {
                    self.emit(&error("command not legal now", text));
                }
            }
            "." => self.cecp_status(),
            "draw" => {
                let level = self.cecp.last_score.is_some_and(|s| s.abs() <= DRAW_ACCEPT);
                if level && !self.cecp.game_over && self.cecp.side.is_some() {
                    self.emit("offer draw");
                }
            }
            "hint" => {
                if let Some(m) = self.cecp.hint.filter(|&m| is_legal(&self.cecp.game, m)) {
                    self.emit(&format!("Hint: {m}"));
                }
            }
            "bk" => {
                self.emit(" chuhe shows no book moves here");
                self.emit("");
            }
            "result" => {
                self.cecp_cut_off();
                self.cecp.game_over = true;
            }
            "memory" | "cores" => {
                let id = if first == "memory" {
                    OptionId::HashSize
                } else {
                    OptionId::Threads
                };
                match args.first().and_then(|t| parse_int(t)) {
                    Some(n) if args.len() == 1 && n >= 1 => {
                        let def = options::by_id(id);
                        let max = match def.kind {
                            Kind::Spin { max, .. } => max,
                            _ => n,
                        };
                        if let Err(e) = self.set_option_def(def, Some(&n.min(max).to_string())) {
                            self.emit(&error(&e, text));
                        }
                    }
                    _ => self.emit(&error("takes a number of 1 or more", text)),
                }
            }
            "option" => self.cecp_option(rest, text),
            "quit" => {
                for p in self.cecp.searches.iter_mut() {
                    *p = Purpose::Discard;
                }
                self.quitting = true;
                self.engine.stop();
            }
            // Shared commands, and the other dialects' handshakes.
            "uci" | "ucci" | "isready" | "d" | "display" | "eval" | "perft" | "divide"
            | "bench" | "help" => {
                self.engine.set_position(self.cecp.game.clone());
                match parse_command(text) {
                    Ok(Some(cmd)) => self.command(cmd),
                    Ok(None) => {}
                    Err(e) => self.emit(&error(&e, text)),
                }
            }
            "white" | "black" | "edit" | "pause" | "resume" | "exclude" | "include"
            | "setscore" | "lift" | "put" | "hover" | "egtpath" => {
                self.emit(&error("command not supported", text));
            }
            _ if tokens.len() == 1 && looks_like_move(first) => self.cecp_user_move(first),
            _ => self.emit(&error("unknown command", text)),
        }
    }

    /// Stops whatever runs and drops its answer.
    fn cecp_cut_off(&mut self) {
        if self.cecp.searches.iter().any(|&p| p != Purpose::Discard) {
            self.engine.stop();
            for p in self.cecp.searches.iter_mut() {
                *p = Purpose::Discard;
            }
        }
        self.flush_pongs();
    }

    fn flush_pongs(&mut self) {
        if !self.cecp.searches.contains(&Purpose::Play) {
            for p in std::mem::take(&mut self.cecp.pongs) {
                self.emit(&p);
            }
        }
    }

    fn cecp_new(&mut self) {
        self.cecp_cut_off();
        let keep = State {
            post: self.cecp.post,
            ponder: self.cecp.ponder,
            analyzing: self.cecp.analyzing,
            tc: self.cecp.tc.clone(),
            time_cs: self.cecp.time_cs,
            otim_cs: self.cecp.otim_cs,
            searches: std::mem::take(&mut self.cecp.searches),
            pongs: std::mem::take(&mut self.cecp.pongs),
            ..State::default()
        };
        self.cecp = keep;
        self.new_game();
        self.engine.set_position(self.cecp.game.clone());
        if self.cecp.analyzing {
            self.cecp.side = None;
            self.cecp_search(Purpose::Analyze);
        }
    }

    /// The game position changed under analysis: analyse the new one.
    fn cecp_reanalyse(&mut self) {
        self.engine.set_position(self.cecp.game.clone());
        if self.cecp.analyzing {
            self.cecp_cut_off();
            self.cecp_search(Purpose::Analyze);
        }
    }

    fn cecp_user_move(&mut self, word: &str) {
        let mv = replay::read_move(&self.cecp.game, word, Accept::Iccs).ok();
        let Some(mv) = mv.filter(|_| !self.cecp.bad_setup) else {
            self.emit(&format!("Illegal move: {word}"));
            return;
        };
        // The predicted move: the ponder search becomes our search.
        let hit = self.cecp.searches.back() == Some(&Purpose::Ponder(mv));
        if hit {
            if let Some(slot) = self.cecp.searches.back_mut() {
                *slot = Purpose::Play;
            }
            if let Some(p) = self.pending.back_mut() {
                p.pondering = false;
            }
            self.engine.ponderhit();
        } else {
            self.cecp_cut_off();
        }
        self.cecp.game.make_move(mv);
        self.cecp.hint = None;
        if self.cecp.analyzing {
            self.cecp_reanalyse();
            return;
        }
        if !hit {
            self.engine.set_position(self.cecp.game.clone());
        }
        if self.cecp.side.is_some() && !self.cecp.game_over && self.cecp_claim() {
            self.cecp_cut_off();
            return;
        }
        if !hit {
            self.cecp_think();
        }
    }

    /// Starts our move if we are on move and free to play.
    fn cecp_think(&mut self) {
        let to_move = self.cecp.game.side_to_move();
        if self.cecp.side == Some(to_move)
            && !self.cecp.game_over
            && !self.cecp.analyzing
            && !self.cecp.searches.contains(&Purpose::Play)
        {
            self.cecp_search(Purpose::Play);
        }
    }

    /// After our move, with pondering on: think on the expected reply.
    fn cecp_start_pondering(&mut self) {
        let game = &self.cecp.game;
        if !self.cecp.ponder
            || self.cecp.game_over
            || self.cecp.analyzing
            || self.cecp.side != Some(!game.side_to_move())
        {
            return;
        }
        let Some(m) = self.cecp.hint.filter(|&m| is_legal(game, m)) else {
            return;
        };
        let mut after = game.clone();
        after.make_move(m);
        if movegen::has_legal_move(&after) {
            self.cecp_search(Purpose::Ponder(m));
        }
    }

    fn cecp_search(&mut self, purpose: Purpose) {
        let mut root = self.cecp.game.clone();
        if let Purpose::Ponder(m) = purpose {
            root.make_move(m);
        }
        let limits = match purpose {
            Purpose::Analyze | Purpose::Discard => Limits {
                infinite: true,
                ..Limits::default()
            },
            Purpose::Play => self.cecp_limits(&root, false),
            Purpose::Ponder(_) => self.cecp_limits(&root, true),
        };
        self.engine.set_position(root.clone());
        if let Some(note) = self.engine.prepare() {
            self.diag(&note);
        }
        let pending = Pending {
            root,
            draw_offered: false,
            clocked: limits.clock.is_some(),
            pondering: limits.ponder,
            book_weight: None,
            ranks: crate::record::ranks::Ranks::FromZero,
        };
        self.cecp.searches.push_back(purpose);
        self.start_go(
            pending,
            GoRequest {
                limits,
                searchmoves: Vec::new(),
            },
        );
    }

    /// The limits for our move (or for pondering on it) under the time
    /// control, `sd` and `nps`.
    fn cecp_limits(&self, root: &Position, ponder: bool) -> Limits {
        let mut l = Limits {
            depth: self.cecp.depth,
            ponder,
            ..Limits::default()
        };
        match &self.cecp.tc {
            Pace::PerMove { ms } => l.movetime = Some(*ms),
            Pace::Clock(tc) => {
                // The host's `time` is the truth; before it, the level's.
                let time = self.cecp.time_cs.map_or(tc.sessions[0].time_ms, |cs| {
                    (cs.max(0) as u64).saturating_mul(10)
                });
                l.clock = Some(Clock {
                    time,
                    increment: tc.increment_ms,
                    moves_to_go: tc.moves_to_go(root.fullmove_number().saturating_sub(1)),
                });
            }
        }
        if let Some(nps) = self.cecp.nps {
            // Nodes are the clock: spend what the time plan allows.
            let overhead = self.engine.options.move_overhead;
            let ms = match (l.movetime, l.clock) {
                (Some(ms), _) => ms,
                (None, Some(c)) => time::allocate(&c, root.fullmove_number(), overhead)
                    .optimum
                    .as_millis() as u64,
                _ => 1000,
            };
            l.nodes = Some((nps.saturating_mul(ms) / 1000).max(1));
            l.movetime = None;
            l.clock = None;
        }
        l
    }

    /// Claims the result if the game is over by the rules; returns whether
    /// it was.
    ///
    /// Except a win of our own by the repetition rules. XBoard accepts an
    /// engine's claim of its own win only when its referee has flagged the
    /// position itself (mate, stalemate), and it judges perpetual check and
    /// chase on its own, when the side at fault repeats a position for the
    /// `-repeatsToDraw`th time (6 by default): any earlier claim is a "False
    /// win claim" that forfeits the game (seen in scripts/xboard-check.sh).
    /// So chuhe plays on and lets the host rule; the side at fault must vary
    /// or lose. A loss of our own by those rules is conceded.
    fn cecp_claim(&mut self) -> bool {
        let settings = RuleSettings {
            move_limit: self.engine.options.move_limit,
            ..RuleSettings::default()
        };
        let mut pos = self.cecp.game.clone();
        let outcome = rules::judge(&mut pos, &settings);
        if let Outcome::Win {
            winner,
            reason: Reason::PerpetualCheck | Reason::PerpetualChase,
        } = outcome
            && self.cecp.side == Some(winner)
        {
            return false;
        }
        match result_line(outcome) {
            Some(line) => {
                self.emit(&line);
                self.cecp.game_over = true;
                true
            }
            None => false,
        }
    }

    fn cecp_setboard(&mut self, fen: &str, text: &str) {
        self.cecp_cut_off();
        match Position::from_fen(fen) {
            Ok(pos) => {
                self.cecp.game = pos;
                self.cecp.bad_setup = false;
                self.cecp.game_over = false;
                self.cecp.hint = None;
                self.cecp_reanalyse();
            }
            Err(e) => {
                self.cecp.bad_setup = true;
                self.emit(&error(&format!("illegal position: {e}"), text));
                self.emit("tellusererror Illegal position");
            }
        }
    }

    fn cecp_take_back(&mut self, plies: usize, text: &str) {
        self.cecp_cut_off();
        if self.cecp.game.ply_from_root() < plies {
            self.emit(&error("no move to take back", text));
            return;
        }
        for _ in 0..plies {
            self.cecp.game.unmake_move();
        }
        self.cecp.game_over = false;
        self.cecp.hint = None;
        self.cecp_reanalyse();
    }

    fn cecp_level(&mut self, args: &[&str], text: &str) {
        let parsed = match args {
            [mps, base, inc] => (|| {
                let mps = u32::try_from(parse_int(mps)?).ok()?;
                Some(TimeControl::level(
                    mps,
                    parse_base(base)?,
                    parse_seconds(inc)?,
                ))
            })(),
            _ => None,
        };
        match parsed {
            Some(Ok(tc)) => {
                self.cecp.tc = Pace::Clock(tc);
                self.cecp.time_cs = None;
                self.cecp.otim_cs = None;
            }
            Some(Err(why)) => self.emit(&error(&why, text)),
            None => self.emit(&error("level takes MPS BASE INC", text)),
        }
    }

    /// `option NAME[=VALUE]`.
    fn cecp_option(&mut self, rest: &str, text: &str) {
        let (name, value) = match rest.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        let Some(def) = options::find(name).filter(|_| !name.is_empty()) else {
            self.emit(&error("unknown option", text));
            return;
        };
        // XBoard sends check boxes as 1 and 0.
        let value = match (def.kind, value) {
            (Kind::Check, Some(v)) => parse_bool(v).map(|b| b.to_string()),
            (_, v) => v.map(str::to_string),
        };
        if let Err(e) = self.set_option_def(def, value.as_deref()) {
            self.emit(&error(&e, text));
        }
    }

    /// `.` in analyze mode: `stat01: time nodes depth left total [move]`.
    fn cecp_status(&mut self) {
        if !self.cecp.analyzing {
            return;
        }
        let total = movegen::legal_moves(&self.cecp.game).len();
        let (depth, nodes, ms) = self.cecp.last_iteration.unwrap_or((0, 0, 0));
        let (mv, number) = match self.cecp.current_move {
            Some((m, n)) => (format!(" {m}"), n),
            None => (String::new(), total),
        };
        let left = total.saturating_sub(number);
        self.emit(&format!(
            "stat01: {} {nodes} {depth} {left} {total}{mv}",
            ms / 10
        ));
    }

    /// A search report in CECP.
    pub(super) fn cecp_report(&mut self, r: Report) {
        let live = self
            .cecp
            .searches
            .front()
            .is_some_and(|&p| p != Purpose::Discard);
        match r {
            Report::Iteration(i) => {
                if !live {
                    return;
                }
                self.cecp.last_iteration = Some((i.depth, i.nodes, i.time_ms));
                if self.cecp.post || self.cecp.analyzing {
                    self.emit(&thinking(&i));
                }
            }
            Report::CurrentMove { mv, number, .. } => {
                if live {
                    self.cecp.current_move = Some((mv, number));
                }
            }
            Report::Message(text) => self.diag(&text),
            Report::BestMove {
                best,
                ponder,
                score,
                ..
            } => self.cecp_best_move(best, ponder, score),
        }
    }

    fn cecp_best_move(&mut self, best: Option<Move>, ponder: Option<Move>, score: Score) {
        let pending = self.pending.pop_front();
        let purpose = self.cecp.searches.pop_front().unwrap_or(Purpose::Discard);
        self.cecp.current_move = None;
        if purpose == Purpose::Play
            && let Some(p) = pending
        {
            self.cecp_play(&p, best, ponder, score);
        }
        self.flush_pongs();
    }

    fn cecp_play(&mut self, p: &Pending, best: Option<Move>, ponder: Option<Move>, score: Score) {
        let Some(mv) = best.filter(|&m| is_legal(&self.cecp.game, m)) else {
            // No move to play: the rules say how the game ended.
            if !self.cecp_claim() {
                self.diag("no legal move to play");
            }
            return;
        };
        if let Some(w) = p.book_weight {
            self.diag(&format!("book move {mv} weight {w}"));
        } else {
            self.cecp.last_score = Some(score);
            if self.verdict(p, score) == Some("resign") {
                self.emit("resign");
                self.cecp.game_over = true;
                return;
            }
        }
        self.cecp.hint = match ponder {
            Some(m) => Some(m),
            None if p.book_weight.is_none() => self.engine.ponder_guess(&p.root, mv),
            None => None,
        };
        self.cecp.game.make_move(mv);
        self.engine.set_position(self.cecp.game.clone());
        self.emit(&format!("move {mv}"));
        if !self.cecp_claim() {
            self.cecp_start_pondering();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_thinking_lines() {
        assert_eq!(score(35), 35);
        assert_eq!(score(MATE - 1), 100_001);
        assert_eq!(score(MATE - 3), 100_002);
        assert_eq!(score(-MATE + 2), -100_001);
        let i = IterationInfo {
            depth: 9,
            seldepth: 12,
            multipv: 1,
            score: 156,
            bound: Bound::Exact,
            nodes: 48000,
            nps: 1,
            time_ms: 10_840,
            hashfull: 0,
            pv: vec![Move::parse("h2e2").unwrap(), Move::parse("h9g7").unwrap()],
        };
        assert_eq!(thinking(&i), "9 156 1084 48000 h2e2 h9g7");
        let low = IterationInfo {
            bound: Bound::Upper,
            ..i
        };
        assert_eq!(thinking(&low), "9 156 1084 48000 h2e2 h9g7?");
    }

    #[test]
    fn results_in_cecp_syntax() {
        assert_eq!(result_line(Outcome::Ongoing), None);
        assert_eq!(
            result_line(Outcome::Win {
                winner: Color::Red,
                reason: Reason::Checkmate
            })
            .unwrap(),
            "1-0 {Red mates}"
        );
        assert_eq!(
            result_line(Outcome::Win {
                winner: Color::Red,
                reason: Reason::PerpetualChase
            })
            .unwrap(),
            "1-0 {Black loses by perpetual chase}"
        );
        assert!(
            result_line(Outcome::Draw {
                reason: Reason::MoveLimit
            })
            .unwrap()
            .starts_with("1/2-1/2 {")
        );
    }

    #[test]
    fn level_values() {
        assert_eq!(parse_base("5"), Some(300_000));
        assert_eq!(parse_base("0:30"), Some(30_000));
        assert_eq!(parse_base("25+5"), Some(1_500_000));
        assert_eq!(parse_base("x"), None);
        assert_eq!(parse_base("99999999999999999999"), None);
        assert_eq!(parse_seconds("0.5"), Some(500));
        assert_eq!(parse_seconds("-1"), None);
        assert_eq!(parse_seconds("nan"), None);
        assert!(looks_like_move("h2e2") && !looks_like_move("h2e") && !looks_like_move("Nf3"));
        assert_eq!(
            error("unknown command", "frob x"),
            "Error (unknown command): frob x"
        );
        assert!(error("x", &"y".repeat(1000)).len() < 260);
    }
}
