//! Cost of the rules' search entry points: the repetition scan when nothing
//! repeats (every search node pays it), and the verdict when a cycle is
//! found (classifying each of its moves).

use chuhe::movegen;
use chuhe::position::Position;
use chuhe::rng::XorShift;
use chuhe::rules;
use chuhe::types::Move;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// `plies` quiet moves from the start position with no position repeated.
fn quiet_game(plies: usize) -> Position {
    let mut pos = Position::startpos();
    let mut seen = vec![pos.key()];
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    while pos.ply_from_root() < plies {
        let quiet: Vec<Move> = movegen::legal_moves(&pos)
            .iter()
            .copied()
            .filter(|m| pos.piece_on(m.to()).is_none())
            .collect();
        let start = rng.below(quiet.len());
        let made = (0..quiet.len()).any(|k| {
            pos.make_move(quiet[(start + k) % quiet.len()]);
            if seen.contains(&pos.key()) || pos.in_check() {
                pos.unmake_move();
                false
            } else {
                seen.push(pos.key());
                true
            }
        });
        assert!(made);
    }
    pos
}

fn play(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves.split_ascii_whitespace() {
        pos.make_move(Move::parse(m).unwrap());
    }
    pos
}

fn bench_repetition(c: &mut Criterion) {
    let mut g = c.benchmark_group("repetition_verdict");
    for plies in [10, 100] {
        let mut pos = quiet_game(plies);
        assert!(rules::repetition_verdict(&mut pos).is_none());
        g.bench_function(format!("no repetition, {plies} reversible plies"), |b| {
            b.iter(|| rules::repetition_verdict(black_box(&mut pos)));
        });
    }
    // Full armies, both sides shuffling a piece out and back.
    let mut pos = play(chuhe::position::START_FEN, "h2e2 h9g7 e2h2 g7h9");
    assert!(rules::repetition_verdict(&mut pos).is_some());
    g.bench_function("4-ply cycle, start position", |b| {
        b.iter(|| rules::repetition_verdict(black_box(&mut pos)));
    });
    // A perpetual chase with few pieces.
    let mut pos = play(
        "9/4k4/3n5/9/R8/9/9/9/9/3K5 w - - 0 1",
        "a5a7 d7c5 a7a5 c5d7",
    );
    assert!(rules::repetition_verdict(&mut pos).is_some());
    g.bench_function("4-ply cycle, chariot chasing a horse", |b| {
        b.iter(|| rules::repetition_verdict(black_box(&mut pos)));
    });
    g.finish();
}

fn bench_move_limit(c: &mut Criterion) {
    let settings = rules::RuleSettings::default();
    let pos = quiet_game(100);
    c.bench_function("move_limit_reached, 100 plies (below the limit)", |b| {
        b.iter(|| rules::move_limit_reached(black_box(&pos), &settings));
    });
}

criterion_group!(benches, bench_repetition, bench_move_limit);
criterion_main!(benches);
