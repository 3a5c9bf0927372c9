//! Evaluation and search speed: the static evaluation over the bench
//! positions, and a fixed-depth single-thread search of a few of them.

use chuhe::bench::POSITIONS;
use chuhe::eval;
use chuhe::position::Position;
use chuhe::search::SearchJob;
use chuhe::thread::ThreadPool;
use chuhe::time::Limits;
use chuhe::tt::TranspositionTable;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;

fn bench_eval(c: &mut Criterion) {
    let positions: Vec<Position> = POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    c.bench_function("evaluate, 38 bench positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| eval::evaluate(black_box(p)))
                .sum::<i32>()
        });
    });
}

fn bench_search(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    let mut pool = ThreadPool::new(1);
    for (name, fen) in [
        ("start", POSITIONS[0]),
        ("middle game", POSITIONS[13]),
        ("end game", POSITIONS[22]),
    ] {
        g.bench_function(format!("depth 9, {name}"), |b| {
            b.iter(|| {
                let tt = Arc::new(TranspositionTable::new(16));
                let job = SearchJob::new(
                    Position::from_fen(fen).unwrap(),
                    Limits::depth(9),
                    tt,
                    1,
                    Arc::new(|_| {}),
                );
                let job = pool.start(job);
                pool.wait();
                job.total_nodes()
            });
        });
    }
    g.finish();
}

criterion_group!(benches, bench_eval, bench_search);
criterion_main!(benches);
