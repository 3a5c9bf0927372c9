//! Time controls and game clocks: the one model of a clock that the match
//! runner's referee, CECP's `level` and `timeplan` all use. A search sees
//! only its [`time::Clock`](crate::time::Clock), which [`GameClock::go_clock`]
//! gives.
//!
//! A time control is written in seconds (decimals allowed):
//!
//! - `60+0.5`: 60 s for the whole game, 0.5 s added after each move
//!   (Fischer increment);
//! - `40/90`: 90 s for every 40 moves (the session repeats);
//! - `40/5400:10/900+30`: 5400 s for the first 40 moves, then 900 s for
//!   every further 10, with 30 s added after each move;
//! - `40/600:300`: 600 s for 40 moves, then 300 s for the rest of the game.
//!
//! Sessions are separated by `:`; the last one repeats when it has a move
//! count, and lasts the rest of the game when it has none. The increment,
//! if any, follows the last session. This is the PGN `TimeControl` syntax
//! with an increment allowed on session controls.
//!
//! The clock of the side to move runs from the moment `go` is sent until
//! `bestmove` arrives. A side whose reply takes longer than its clock plus
//! the grace loses on time; the grace (default 100 ms) absorbs pipe and
//! scheduling overhead that the engine cannot see.

use crate::time;
use std::fmt;

/// One session: `moves` moves (or the rest of the game) in `time_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Session {
    pub moves: Option<u32>,
    pub time_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub sessions: Vec<Session>,
    pub increment_ms: u64,
}

/// Parses seconds with up to three decimals into milliseconds.
fn parse_seconds(text: &str, what: &str) -> Result<u64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{what} '{text}' is not a number of seconds"))?;
    if !v.is_finite() || !(0.0..=1e9).contains(&v) {
        return Err(format!("{what} '{text}' is out of range"));
    }
    Ok((v * 1000.0).round() as u64)
}

/// Milliseconds as seconds, without trailing zeros (`10`, `0.1`).
pub fn format_seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').to_string()
    }
}

impl TimeControl {
    /// Sudden death with an increment.
    pub fn fischer(base_ms: u64, increment_ms: u64) -> TimeControl {
        TimeControl {
            sessions: vec![Session {
                moves: None,
                time_ms: base_ms,
            }],
            increment_ms,
        }
    }

    /// CECP's `level MPS BASE INC`: `base_ms` for every `mps` moves (`mps`
    /// 0: for the whole game), `inc_ms` added after each move.
    pub fn level(mps: u32, base_ms: u64, inc_ms: u64) -> Result<TimeControl, String> {
        if base_ms == 0 && inc_ms == 0 {
            return Err(format!("level {mps} 0 0 leaves no time to play"));
        }
        Ok(TimeControl {
            sessions: vec![Session {
                moves: (mps > 0).then_some(mps),
                time_ms: base_ms,
            }],
            increment_ms: inc_ms,
        })
    }

    /// Moves left to play in the current session after `played` moves of
    /// one side (what `movestogo` says), or `None` in sudden death.
    pub fn moves_to_go(&self, played: u32) -> Option<u32> {
        let mut played = played;
        for (i, s) in self.sessions.iter().enumerate() {
            let moves = s.moves?;
            if played < moves {
                return Some(moves - played);
            }
            if i + 1 == self.sessions.len() {
                // The last session repeats.
                return Some(moves - played % moves);
            }
            played -= moves;
        }
        None
    }

    /// Reads the match runner's syntax (see the module notes).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("empty time control".into());
        }
        let (sessions_text, increment_ms) = match text.rsplit_once('+') {
            Some((s, inc)) => (s, parse_seconds(inc, "increment")?),
            None => (text, 0),
        };
        let mut sessions = Vec::new();
        let parts: Vec<&str> = sessions_text.split(':').collect();
        for (i, part) in parts.iter().enumerate() {
            let session = match part.split_once('/') {
                Some((moves, time)) => {
                    let moves: u32 =
                        moves
                            .trim()
                            .parse()
                            .ok()
                            .filter(|&m| m > 0)
                            .ok_or_else(|| {
                                format!("time control '{text}': '{moves}' is not a move count")
                            })?;
                    Session {
                        moves: Some(moves),
                        time_ms: parse_seconds(time, "session time")?,
                    }
                }
                None => {
                    if i + 1 != parts.len() {
                        return Err(format!(
                            "time control '{text}': only the last session may omit its move count"
                        ));
                    }
                    Session {
                        moves: None,
                        time_ms: parse_seconds(part, "base time")?,
                    }
                }
            };
            sessions.push(session);
        }
        if sessions[0].time_ms == 0 && increment_ms == 0 {
            return Err(format!("time control '{text}' gives no time at all"));
        }
        Ok(TimeControl {
            sessions,
            increment_ms,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for (i, s) in self.sessions.iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            if let Some(m) = s.moves {
                write!(f, "{m}/")?;
            }
            f.write_str(&format_seconds(s.time_ms))?;
        }
        if self.increment_ms > 0 {
            write!(f, "+{}", format_seconds(self.increment_ms))?;
        }
        Ok(())
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct GameClock {
    tc: TimeControl,
    /// Milliseconds left; negative once the side has overstepped.
    remaining_ms: i64,
    session: usize,
    /// Moves left in the current session (`None` for sudden death).
    moves_left: Option<u32>,
}

impl GameClock {
    pub fn new(tc: &TimeControl) -> GameClock {
        let first = tc.sessions[0];
        GameClock {
            tc: tc.clone(),
            remaining_ms: first.time_ms as i64,
            session: 0,
            moves_left: first.moves,
        }
    }

    /// The clock as a search is given it (`go wtime … movestogo …`).
    pub fn go_clock(&self) -> time::Clock {
        time::Clock {
            time: self.remaining_ms.max(0) as u64,
            increment: self.tc.increment_ms,
            moves_to_go: self.moves_left,
        }
    }

    pub fn remaining_ms(&self) -> i64 {
        self.remaining_ms
    }

    /// Moves to play before the next time is added (for `movestogo`).
    pub fn moves_to_go(&self) -> Option<u32> {
        self.moves_left
    }

    pub fn increment_ms(&self) -> u64 {
        self.tc.increment_ms
    }

    /// Whether a move that took `elapsed_ms` oversteps the clock by more
    /// than `grace_ms`.
    pub fn flagged(&self, elapsed_ms: u64, grace_ms: u64) -> bool {
        elapsed_ms as i64 > self.remaining_ms + grace_ms as i64
    }

    /// Charges a completed move: subtracts its time, adds the increment and
    /// starts the next session when this one's moves are done. Time used
    /// inside the grace is charged too, so the clock can read slightly
    /// negative; the next `go` then reports zero.
    pub fn punch(&mut self, elapsed_ms: u64) {
        self.remaining_ms -= elapsed_ms as i64;
        self.remaining_ms += self.tc.increment_ms as i64;
        if let Some(left) = self.moves_left {
            if left <= 1 {
                self.session = (self.session + 1).min(self.tc.sessions.len() - 1);
                let next = self.tc.sessions[self.session];
                self.remaining_ms += next.time_ms as i64;
                self.moves_left = next.moves;
            } else {
                self.moves_left = Some(left - 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let tc = TimeControl::parse("60+0.5").unwrap();
        assert_eq!(tc, TimeControl::fischer(60_000, 500));
        assert_eq!(tc.to_string(), "60+0.5");
        let tc = TimeControl::parse("40/5400:10/900+30").unwrap();
        assert_eq!(
            tc.sessions,
            vec![
                Session {
                    moves: Some(40),
                    time_ms: 5_400_000
                },
                Session {
                    moves: Some(10),
                    time_ms: 900_000
                }
            ]
        );
        assert_eq!(tc.increment_ms, 30_000);
        assert_eq!(tc.to_string(), "40/5400:10/900+30");
        assert_eq!(TimeControl::parse("10+0.1").unwrap().to_string(), "10+0.1");
        assert_eq!(TimeControl::parse("0.25").unwrap().to_string(), "0.25");
        assert_eq!(
            TimeControl::parse("40/600:300").unwrap().to_string(),
            "40/600:300"
        );
        for bad in [
            "",
            "x",
            "60+",
            "+1",
            "0/60",
            "300:40/600",
            "-5",
            "0+0",
            "40/",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn fischer_clock() {
        let mut c = GameClock::new(&TimeControl::parse("10+0.1").unwrap());
        assert_eq!(c.moves_to_go(), None);
        c.punch(1_000);
        assert_eq!(c.remaining_ms(), 9_100);
        assert!(!c.flagged(9_150, 100));
        assert!(c.flagged(9_201, 100));
    }

    #[test]
    fn sessions_repeat_and_chain() {
        let mut c = GameClock::new(&TimeControl::parse("2/10:3/6").unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        c.punch(4_000);
        assert_eq!((c.remaining_ms(), c.moves_to_go()), (6_000, Some(1)));
        // The second move ends the first session: the next one's time and
        // move count arrive.
        c.punch(5_000);
        assert_eq!((c.remaining_ms(), c.moves_to_go()), (7_000, Some(3)));
        for _ in 0..3 {
            c.punch(1_000);
        }
        // The last session repeats.
        assert_eq!((c.remaining_ms(), c.moves_to_go()), (10_000, Some(3)));

        // The clock and the time control agree on the moves to go.
        let tc = TimeControl::parse("2/10:3/6").unwrap();
        let mut c = GameClock::new(&tc);
        for played in 0..12 {
            assert_eq!(c.moves_to_go(), tc.moves_to_go(played), "{played}");
            assert_eq!(c.go_clock().moves_to_go, c.moves_to_go());
            c.punch(100);
        }
        let mut sd = GameClock::new(&TimeControl::parse("1/5:2").unwrap());
        sd.punch(1_000);
        assert_eq!((sd.remaining_ms(), sd.moves_to_go()), (6_000, None));
        assert_eq!(TimeControl::parse("1/5:2").unwrap().moves_to_go(7), None);
    }

    #[test]
    fn cecp_levels() {
        let tc = TimeControl::level(40, 300_000, 0).unwrap();
        assert_eq!(tc.to_string(), "40/300");
        assert_eq!(
            (tc.moves_to_go(0), tc.moves_to_go(39), tc.moves_to_go(40)),
            (Some(40), Some(1), Some(40))
        );
        let inc = TimeControl::level(0, 120_000, 2_000).unwrap();
        assert_eq!(
            (inc.to_string(), inc.moves_to_go(10)),
            ("120+2".into(), None)
        );
        assert!(TimeControl::level(40, 0, 0).is_err());
        assert!(TimeControl::level(0, 0, 1_000).is_ok());
        let mut c = GameClock::new(&TimeControl::level(0, 0, 1_000).unwrap());
        assert_eq!(c.go_clock().time, 0);
        c.punch(1_500);
        assert_eq!(c.go_clock().time, 0, "an overdrawn clock reads zero");
    }
}
