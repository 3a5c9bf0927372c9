//! Move generator speed: perft from the start position (bulk-counted and
//! full make/unmake) and legal generation over a set of varied positions.

use chuhe::movegen::{self, perft, perft_full};
use chuhe::position::Position;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
];

fn bench_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("startpos perft 4 (bulk)", |b| {
        let mut pos = Position::startpos();
        b.iter(|| black_box(perft(&mut pos, 4)));
    });
    g.bench_function("startpos perft 3 (make/unmake every leaf)", |b| {
        let mut pos = Position::startpos();
        b.iter(|| black_box(perft_full(&mut pos, 3)));
    });
    g.finish();
}

fn bench_generate(c: &mut Criterion) {
    let positions: Vec<Position> = POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    c.bench_function("legal moves, 5 positions", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                n += movegen::legal_moves(black_box(p)).len();
            }
            n
        });
    });
    c.bench_function("make+unmake all legal moves, 5 positions", |b| {
        let mut positions = positions.clone();
        b.iter(|| {
            for p in positions.iter_mut() {
                for &m in &movegen::legal_moves(p) {
                    p.make_move(m);
                    p.unmake_move();
                }
            }
        });
    });
}

criterion_group!(benches, bench_perft, bench_generate);
criterion_main!(benches);
