//! `timeplan`: the time manager's allocation for each move of a simulated
//! game (scaled by the default tunables' `Spend`, as the engine plays), assuming
//! every move uses exactly its optimum. Shows at a glance how a clock is
//! spread over a game without playing for hours.

use crate::time::{Clock, Spend, allocate};
use crate::tunables::Tunables;
use std::io::Write;

pub const OVERHEAD_MS: u64 = 50;

pub fn run(
    out: &mut impl Write,
    time: u64,
    inc: u64,
    movestogo: Option<u32>,
    session: Option<(u32, u64)>,
    moves: u32,
) -> std::io::Result<()> {
    let mut clock = Clock {
        time,
        increment: inc,
        moves_to_go: movestogo,
    };
    writeln!(
        out,
        "move  clock(s)  optimum(s)  maximum(s)  (overhead {OVERHEAD_MS} ms, each move uses its optimum)"
    )?;
    let spend = Spend::of(&Tunables::default());
    for mv in 1..=moves {
        let b = spend.scale(allocate(&clock, mv, OVERHEAD_MS));
        writeln!(
            out,
            "{mv:4}  {:8.1}  {:10.2}  {:10.2}",
            clock.time as f64 / 1000.0,
            b.optimum.as_secs_f64(),
            b.maximum.as_secs_f64()
        )?;
        let used = b.optimum.as_millis() as u64 + OVERHEAD_MS;
        clock.time = clock.time.saturating_sub(used) + inc;
        if let Some(n) = clock.moves_to_go.as_mut() {
            *n -= 1;
            if *n == 0 {
                match session {
                    Some((m, t)) => {
                        *n = m;
                        clock.time += t;
                    }
                    None => clock.moves_to_go = None,
                }
            }
        }
    }
    out.flush()
}
