//! `timeplan`: the time manager's allocation for each move of a simulated
//! game under a time control (the match runner's syntax, e.g.
//! `40/5400:10/900+30`), scaled by the default tunables' `Spend` as the
//! engine plays, assuming every move uses exactly its optimum. Shows at a
//! glance how a clock is spread over a game without playing for hours.

use crate::clock::{GameClock, TimeControl};
use crate::time::{Budget, Spend, allocate};
use crate::tunables::Tunables;
use std::io::Write;

pub const OVERHEAD_MS: u64 = 50;

/// One planned move: the clock before it (ms) and the time manager's budget.
pub fn plan(tc: &TimeControl, moves: u32) -> Vec<(u64, Budget)> {
    let mut clock = GameClock::new(tc);
    let spend = Spend::of(&Tunables::default());
    (1..=moves)
        .map(|mv| {
            let go = clock.go_clock();
            let b = spend.scale(allocate(&go, mv, OVERHEAD_MS));
            clock.punch(b.optimum.as_millis() as u64 + OVERHEAD_MS);
            (go.time, b)
        })
        .collect()
}

pub fn run(out: &mut impl Write, tc: &TimeControl, moves: u32) -> std::io::Result<()> {
    writeln!(
        out,
        "move  clock(s)  optimum(s)  maximum(s)  (tc {tc}, overhead {OVERHEAD_MS} ms, each move uses its optimum)"
    )?;
    for (i, (clock_ms, b)) in plan(tc, moves).iter().enumerate() {
        writeln!(
            out,
            "{:4}  {:8.1}  {:10.2}  {:10.2}",
            i + 1,
            *clock_ms as f64 / 1000.0,
            b.optimum.as_secs_f64(),
            b.maximum.as_secs_f64()
        )?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_is_spread_over_its_moves_and_refilled() {
        let tc = TimeControl::parse("40/600:20/300").unwrap();
        let p = plan(&tc, 70);
        for (clock, b) in &p {
            assert!(b.maximum.as_millis() as u64 + OVERHEAD_MS <= *clock);
        }
        // Move 41 starts the second session with its 300 s added.
        assert!(p[40].0 > p[39].0 + 250_000, "{} {}", p[39].0, p[40].0);
        // Within a session the clock only runs down.
        assert!(p[..40].windows(2).all(|w| w[1].0 < w[0].0));
    }
}
