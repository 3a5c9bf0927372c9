//! Protocol latencies of the release binary over pipes, the numbers
//! protocol.md promises: start to `ucciok` (50 ms), `isready` while a
//! 2-thread search runs (50 ms), `stop` to `bestmove` (20 ms), and
//! `ponderhit` to `bestmove` once a ponder search has finished.
//!
//! `cargo bench --bench protocol` prints median and worst of each;
//! `CHUHE_BIN=<path>` measures another build of the binary.

#[path = "../tests/common/mod.rs"]
mod common;

use common::Engine;
use std::time::{Duration, Instant};

const RUNS: usize = 20;

fn report(what: &str, promise_ms: f64, mut samples: Vec<Duration>) {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let median = ms(samples[samples.len() / 2]);
    let worst = ms(*samples.last().unwrap());
    println!(
        "{what:<40} median {median:7.2} ms   worst {worst:7.2} ms   (promise {promise_ms} ms, {} runs)",
        samples.len()
    );
}

fn main() {
    // Start to ucciok: from spawning the process to reading the reply.
    let startup: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            let mut e = Engine::start();
            e.send("ucci");
            let (_, at) = e.until_at("ucciok", |l| l == "ucciok");
            at.duration_since(t)
        })
        .collect();
    report("start -> ucciok", 50.0, startup);

    let mut e = Engine::handshake("ucci");
    e.send("setoption threads 2");
    e.isready();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let ready: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            e.send("isready");
            let (_, at) = e.until_at("readyok", |l| l == "readyok");
            std::thread::sleep(Duration::from_millis(50));
            at.duration_since(t)
        })
        .collect();
    report("isready while searching (2 threads)", 50.0, ready);
    e.send("stop");
    e.best();

    for threads in [1, 2] {
        e.send(&format!("setoption threads {threads}"));
        e.isready();
        let stop: Vec<Duration> = (0..RUNS)
            .map(|_| {
                e.send("go infinite");
                std::thread::sleep(Duration::from_millis(200));
                let t = Instant::now();
                e.send("stop");
                let (_, at) = e.until_at("bestmove", common::is_answer);
                at.duration_since(t)
            })
            .collect();
        report(&format!("stop -> bestmove ({threads} threads)"), 20.0, stop);
    }

    let hit: Vec<Duration> = (0..RUNS)
        .map(|_| {
            e.send("go ponder depth 4");
            std::thread::sleep(Duration::from_millis(200));
            let t = Instant::now();
            e.send("ponderhit");
            let (_, at) = e.until_at("bestmove", common::is_answer);
            at.duration_since(t)
        })
        .collect();
    report("ponderhit -> bestmove (2 threads)", 20.0, hit);
    e.send("quit");
}
