//! Search limits and the time budget.
//!
//! The time manager turns a clock into two numbers: an *optimum* (soft) time,
//! which iterative deepening scales up or down by how settled the search is
//! and stops after, and a *maximum* (hard) time at which the search is cut off
//! mid-iteration. Both are measured from the moment the clock starts (the
//! `go`, or the `ponderhit` when pondering) and always leave the move
//! overhead and a safety margin on the clock.

use crate::tunables::Tunables;
use std::time::{Duration, Instant};

/// What the host said about the clock, all in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left on our clock.
    pub time: u64,
    /// Fischer increment per move.
    pub increment: u64,
    /// Moves until the next time control (`None`: sudden death or increment).
    pub moves_to_go: Option<u32>,
}

/// Everything that can bound a search.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Fixed time per move, milliseconds.
    pub movetime: Option<u64>,
    /// Search for a mate in this many moves (UCI `go mate`): stops once found.
    pub mate: Option<u32>,
    pub clock: Option<Clock>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Pondering: the clock starts at `ponderhit`.
    pub ponder: bool,
}

impl Limits {
    pub fn depth(d: i32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }

    /// Whether anything but an explicit stop ends this search.
    pub fn is_finite(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.movetime.is_some()
                || self.clock.is_some()
                || self.mate.is_some())
    }

    /// Whether the search stops on its own only by time.
    pub fn uses_clock(&self) -> bool {
        self.clock.is_some() || self.movetime.is_some()
    }
}

/// Soft and hard time for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub optimum: Duration,
    pub maximum: Duration,
}

/// Time allocation for a clock at a given move of the game.
///
/// * `fullmove`: the move number of the game (1-based), used to guess how
///   many moves remain when the clock does not say.
/// * `overhead`: the host's and the pipe's lag per move, reserved on every move.
pub fn allocate(clock: &Clock, fullmove: u32, overhead: u64) -> Budget {
    // What stays on the clock beyond the overhead, whatever happens: a
    // share of the time within bounds (ms), and the lag of the moves still
    // to come in the session (at most `LAG_MOVES_MAX` of them;
    // `LAG_MOVES_SUDDEN_DEATH` without a session), at most `LAG_MAX_SHARE`
    // of the time.
    const SAFETY_SHARE: f64 = 0.02;
    const SAFETY_MIN_MS: f64 = 10.0;
    const SAFETY_MAX_MS: f64 = 1000.0;
    const LAG_MOVES_SUDDEN_DEATH: f64 = 20.0;
    const LAG_MOVES_MAX: u32 = 40;
    const LAG_MAX_SHARE: f64 = 0.25;
    let time = clock.time as f64;
    let inc = clock.increment as f64;
    let overhead = overhead as f64;
    let future_lag = overhead
        * clock
            .moves_to_go
            .map_or(LAG_MOVES_SUDDEN_DEATH, |m| f64::from(m.min(LAG_MOVES_MAX)));
    let safety = (time * SAFETY_SHARE).clamp(SAFETY_MIN_MS, SAFETY_MAX_MS);
    let usable = (time - overhead - safety - future_lag.min(time * LAG_MAX_SHARE)).max(0.0);

    let (optimum, maximum) = match clock.moves_to_go {
        Some(mtg) if mtg > 0 => {
            // Spread the session's time over its remaining moves, keeping a
            // small reserve for the last ones; the increment is earned per move.
            let mtg = mtg.min(80) as f64;
            let per_move = (usable + inc * (mtg - 1.0)) / (mtg + 1.0).max(1.5);
            let opt = if mtg <= 1.0 {
                usable * 0.6
            } else {
                per_move.min(usable * 0.5)
            };
            let max_share = if mtg <= 1.0 {
                0.85
            } else {
                (3.0 / mtg).clamp(0.15, 0.5)
            };
            let max = (opt * 4.0).min(usable * max_share).max(opt);
            (opt, max)
        }
        _ => {
            // Sudden death or increment: assume a horizon of moves that
            // shrinks as the game goes on (xiangqi games last 40 to 80 moves),
            // never below 30 so a long game keeps time for its end.
            let horizon = (50.0 - fullmove as f64 * 0.4).clamp(30.0, 50.0);
            let per_move = usable / horizon + inc * 0.9;
            let opt = per_move.min(usable * 0.25);
            let max = (opt * 4.0)
                .min(usable * 0.2 + inc * 0.5)
                .min(usable)
                .max(opt);
            (opt, max)
        }
    };
    Budget {
        optimum: Duration::from_millis(optimum.max(1.0) as u64),
        maximum: Duration::from_millis(maximum.max(1.0) as u64),
    }
}

/// Tracks time during one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    budget: Option<Budget>,
    /// Fixed move time (hard limit with no soft scaling).
    movetime: Option<Duration>,
    /// Scale for the optimum from search stability, updated per iteration.
    scale: f64,
    /// Share of the soft limit after which no new iteration starts.
    stop_share: f64,
    /// The best move's share of the nodes from which the optimum is
    /// scaled by `effort_scale`.
    effort_share: f64,
    effort_scale: f64,
}

/// How much of its allotment a search spends (`Tunables::tm_optimum` and
/// `tm_stop`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spend {
    /// The optimum, percent of the allotment's.
    pub optimum_pct: i32,
    /// No iteration starts past this percent of the soft limit.
    pub stop_pct: i32,
    /// A best move that took this percent of the nodes or more ...
    pub effort_pct: i32,
    /// ... scales the optimum to this percent.
    pub effort_scale_pct: i32,
}

impl Spend {
    /// The spend the tunables `t` set; `Tunables::default()` gives the
    /// engine's own.
    pub fn of(t: &Tunables) -> Spend {
        Spend {
            optimum_pct: t.tm_optimum,
            stop_pct: t.tm_stop,
            effort_pct: t.tm_effort,
            effort_scale_pct: t.tm_effort_scale,
        }
    }

    /// The allotment `b` with its optimum scaled (never past the maximum).
    pub fn scale(&self, b: Budget) -> Budget {
        Budget {
            optimum: b
                .optimum
                .mul_f64(f64::from(self.optimum_pct) / 100.0)
                .min(b.maximum),
            maximum: b.maximum,
        }
    }
}

impl TimeManager {
    /// The manager of one search. `spend` scales the allotment's optimum
    /// (`Tunables::tm_optimum`, percent; never past the maximum) and
    /// `stop_share` is how much of the soft limit an iteration may start
    /// after (`Tunables::tm_stop`, percent).
    pub fn new(limits: &Limits, fullmove: u32, overhead: u64, spend: &Spend) -> TimeManager {
        let budget = limits
            .clock
            .as_ref()
            .map(|c| spend.scale(allocate(c, fullmove, overhead)));
        let movetime = limits
            .movetime
            .map(|ms| Duration::from_millis(ms.saturating_sub(overhead.min(ms / 2)).max(1)));
        TimeManager {
            start: Instant::now(),
            budget,
            movetime,
            scale: 1.0,
            stop_share: f64::from(spend.stop_pct) / 100.0,
            effort_share: f64::from(spend.effort_pct) / 100.0,
            effort_scale: f64::from(spend.effort_scale_pct) / 100.0,
        }
    }

    /// Restarts the clock from `at` (the moment `ponderhit` arrived).
    pub fn restart_at(&mut self, at: Instant) {
        self.start = at;
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn budget(&self) -> Option<Budget> {
        self.budget
    }

    /// The hard limit, if any: the search must stop at once past it.
    pub fn maximum(&self) -> Option<Duration> {
        match (self.movetime, self.budget) {
            (Some(m), _) => Some(m),
            (None, Some(b)) => Some(b.maximum),
            _ => None,
        }
    }

    /// The current soft limit, scaled by stability, never past the maximum.
    pub fn soft_limit(&self) -> Option<Duration> {
        let b = self.budget?;
        let scaled = b.optimum.mul_f64(self.scale);
        Some(scaled.min(b.maximum))
    }

    /// Updates the stability scale after an iteration:
    /// * `best_move_changes`: how often the best move changed recently
    ///   (decayed over iterations);
    /// * `score_drop`: how far the score fell since the previous iterations
    ///   (positive = worse);
    /// * `stable_iterations`: how many iterations the best move has held;
    /// * `best_effort`: the best move's share of the search's nodes (a
    ///   move that took nearly all of them has no rival worth the time).
    pub fn update_stability(
        &mut self,
        best_move_changes: f64,
        score_drop: i32,
        stable_iterations: u32,
        best_effort: f64,
    ) {
        let instability = 1.0 + 0.6 * best_move_changes.min(3.0);
        let falling = 1.0 + (score_drop.clamp(0, 200) as f64) / 250.0;
        let settled = if stable_iterations >= 6 {
            0.55
        } else if stable_iterations >= 3 {
            0.8
        } else {
            1.0
        };
        let effort = if best_effort >= self.effort_share {
            self.effort_scale
        } else {
            1.0
        };
        self.scale = (instability * falling * settled * effort).clamp(0.4, 2.5);
    }

    /// Whether to stop after finishing an iteration: past the soft limit, or
    /// so close to it that the next iteration would not finish anyway.
    pub fn should_stop_after_iteration(&self) -> bool {
        match self.soft_limit() {
            Some(soft) => self.elapsed() >= soft.mul_f64(self.stop_share),
            None => false,
        }
    }

    /// Whether the hard limit has passed.
    pub fn out_of_time(&self) -> bool {
        match self.maximum() {
            Some(m) => self.elapsed() >= m,
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time: u64, increment: u64, moves_to_go: Option<u32>) -> Clock {
        Clock {
            time,
            increment,
            moves_to_go,
        }
    }

    /// Plays a simulated game in which every eighth move runs to the hard
    /// limit (a crisis) and the others use their optimum, each plus the
    /// overhead, and checks the clock never runs out.
    fn simulate(mut c: Clock, moves: u32, session: Option<(u32, u64)>) {
        let overhead = 50;
        let mut to_go = c.moves_to_go;
        for mv in 1..=moves {
            c.moves_to_go = to_go;
            let b = allocate(&c, mv, overhead);
            assert!(b.optimum <= b.maximum, "move {mv}: {b:?}");
            let used = if mv % 8 == 0 { b.maximum } else { b.optimum }.as_millis() as u64;
            assert!(
                used + overhead < c.time,
                "move {mv}: used {used} with {} left",
                c.time
            );
            c.time = c.time - used - overhead + c.increment;
            if let Some(n) = to_go.as_mut() {
                *n -= 1;
                if *n == 0 {
                    let (more_moves, more_time) = session.expect("session repeats");
                    *n = more_moves;
                    c.time += more_time;
                }
            }
        }
    }

    #[test]
    fn never_flags_under_real_controls() {
        simulate(clock(3_600_000, 30_000, None), 150, None);
        simulate(clock(600_000, 10_000, None), 150, None);
        simulate(clock(300_000, 0, None), 120, None);
        simulate(clock(5_400_000, 0, Some(40)), 100, Some((10, 900_000)));
        simulate(clock(600_000, 0, Some(40)), 100, Some((30, 300_000)));
        simulate(clock(300_000, 0, Some(30)), 150, Some((30, 300_000)));
        simulate(clock(1_000, 100, None), 300, None);
    }

    #[test]
    fn increment_games_spend_more_than_the_increment_early() {
        let b = allocate(&clock(600_000, 10_000, None), 1, 50);
        assert!(b.optimum > Duration::from_millis(10_000));
        assert!(b.optimum < Duration::from_millis(60_000));
    }

    #[test]
    fn stability_scales_the_soft_limit() {
        let limits = Limits {
            clock: Some(clock(600_000, 10_000, None)),
            ..Limits::default()
        };
        let mut tm = TimeManager::new(&limits, 10, 50, &Spend::of(&Tunables::default()));
        let base = tm.soft_limit().unwrap();
        tm.update_stability(0.0, 0, 8, 0.5);
        assert!(tm.soft_limit().unwrap() < base);
        tm.update_stability(2.0, 80, 0, 0.5);
        assert!(tm.soft_limit().unwrap() > base);
        assert!(tm.soft_limit().unwrap() <= tm.maximum().unwrap());
    }

    #[test]
    fn a_best_move_with_nearly_all_the_nodes_shortens_the_move() {
        let limits = Limits {
            clock: Some(clock(600_000, 10_000, None)),
            ..Limits::default()
        };
        let mut t = Tunables::default();
        // Off by default: the share changes nothing.
        let mut tm = TimeManager::new(&limits, 10, 50, &Spend::of(&t));
        tm.update_stability(0.0, 0, 0, 0.5);
        let even = tm.soft_limit().unwrap();
        tm.update_stability(0.0, 0, 0, 0.99);
        assert_eq!(tm.soft_limit().unwrap(), even);
        t.tm_effort_scale = 76;
        let mut tm = TimeManager::new(&limits, 10, 50, &Spend::of(&t));
        tm.update_stability(0.0, 0, 0, 0.5);
        assert_eq!(tm.soft_limit().unwrap(), even);
        tm.update_stability(0.0, 0, 0, 0.99);
        let short = tm.soft_limit().unwrap();
        assert!(
            short < even.mul_f64(0.8) && short > even.mul_f64(0.7),
            "{short:?} vs {even:?}"
        );
    }

    #[test]
    fn spend_scales_the_optimum() {
        let engines = Spend::of(&Tunables::default());
        let limits = Limits {
            clock: Some(clock(10_000, 100, None)),
            ..Limits::default()
        };
        let as_allotted = Spend {
            optimum_pct: 100,
            ..engines
        };
        let base = TimeManager::new(&limits, 1, 50, &as_allotted)
            .budget()
            .unwrap();
        let more = Spend {
            optimum_pct: 150,
            ..engines
        };
        let more = TimeManager::new(&limits, 1, 50, &more).budget().unwrap();
        assert_eq!(more.maximum, base.maximum);
        let want = base.optimum.mul_f64(1.5).min(base.maximum);
        assert!(
            more.optimum.abs_diff(want) <= Duration::from_millis(1),
            "{more:?} vs {base:?}"
        );
        let huge = Spend {
            optimum_pct: 1000,
            ..engines
        };
        let huge = TimeManager::new(&limits, 1, 50, &huge).budget().unwrap();
        assert_eq!(huge.optimum, base.maximum);
    }
}
