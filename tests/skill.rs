//! Strength levels: above the lowest level chuhe never leaves a chariot to
//! be taken for nothing in one move when it could avoid it, whatever the
//! random choice does; and the levels really do choose other moves.

use chuhe::engine::{Engine, GoRequest};
use chuhe::movegen;
use chuhe::position::Position;
use chuhe::rng::XorShift;
use chuhe::search::{Report, Reporter};
use chuhe::time::{Clock, Limits};
use chuhe::types::*;
use std::sync::{Arc, Mutex};

fn engine() -> (Engine, Arc<Mutex<Vec<Report>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = log.clone();
    let reporter: Reporter = Arc::new(move |r| sink.lock().unwrap().push(r));
    let mut e = Engine::new(reporter);
    e.options.use_book = false;
    e.options.hash_mb = 4;
    e.prepare();
    (e, log)
}

/// Plays one game move at `level` and returns it.
fn play(e: &mut Engine, log: &Mutex<Vec<Report>>, pos: &Position, level: u32) -> Move {
    log.lock().unwrap().clear();
    e.new_game(); // a fresh seed for the random choice
    e.options.skill_level = level;
    e.set_position(pos.clone());
    e.go(GoRequest {
        limits: Limits {
            clock: Some(Clock {
                time: 60_000,
                increment: 0,
                moves_to_go: None,
            }),
            ..Limits::default()
        },
        searchmoves: Vec::new(),
    });
    e.wait();
    let best = log.lock().unwrap().iter().find_map(|r| match r {
        Report::BestMove { best, .. } => *best,
        _ => None,
    });
    best.expect("a move")
}

/// Whether after `m` the opponent wins a chariot of ours for nothing, or
/// for at most a pawn: its static exchange gains 800 or more (a chariot
/// being 1000) beyond what `m` itself took. Giving a chariot for a horse or
/// cannon is a bad trade, not a hanging piece.
fn hangs_a_chariot(pos: &Position, m: Move) -> bool {
    let taken = chuhe::position::see_value(pos.piece_on(m.to()));
    let mut after = pos.clone();
    after.make_move(m);
    movegen::legal_moves(&after).iter().any(|&c| {
        let victim = after.piece_on(c.to());
        victim.is_some() && victim.kind() == PieceKind::Chariot && after.see_ge(c, 800 + taken)
    })
}

/// Positions from short random games (a fixed generator): chariots out,
/// pieces in contact.
fn positions() -> Vec<Position> {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let mut out = Vec::new();
    while out.len() < 24 {
        let mut pos = Position::startpos();
        for _ in 0..(12 + out.len() % 14) {
            let moves = movegen::legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            pos.make_move(m);
        }
        let moves = movegen::legal_moves(&pos);
        let avoidable = moves.iter().any(|&m| !hangs_a_chariot(&pos, m));
        let tempting = moves.iter().any(|&m| hangs_a_chariot(&pos, m));
        if avoidable && tempting && !pos.in_check() {
            pos.clear_history();
            out.push(pos);
        }
    }
    out
}

#[test]
fn no_level_above_the_lowest_hangs_a_chariot() {
    let (mut e, log) = engine();
    let mut varied = 0;
    for pos in positions() {
        let best = play(&mut e, &log, &pos, 20);
        for level in [1, 3, 6, 10] {
            for _ in 0..3 {
                let m = play(&mut e, &log, &pos, level);
                assert!(
                    !hangs_a_chariot(&pos, m) || hangs_a_chariot(&pos, best),
                    "level {level} played {m}, leaving a chariot en prise in {}",
                    pos.to_fen()
                );
                varied += usize::from(m != best);
            }
        }
    }
    // The weaker levels do not just copy full strength.
    assert!(
        varied > 20,
        "only {varied} moves differed from full strength"
    );
}
