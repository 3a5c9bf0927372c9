//! No option value may hang the engine: a hash size beyond the machine's
//! memory and the largest thread count still get `readyok` and a legal
//! move, with one diagnostic line when the engine had to settle for less.

mod common;

use common::*;
use std::time::{Duration, Instant};

/// The engine process's resident memory, in MB (Linux only).
fn resident_mb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

#[test]
fn a_hash_size_beyond_memory_still_answers() {
    // 32768 MB is inside the advertised range and more than this kind of
    // machine has. The table is cut to fit free memory (or the allocator's
    // refusal), and it is not touched before use: nothing here commits
    // gigabytes.
    let free_mb = chuhe::tt::available_memory_mb();
    for (dialect, set, no_book) in [
        (
            "uci",
            "setoption name Hash value 32768",
            "setoption name UseBook value false",
        ),
        (
            "ucci",
            "setoption hashsize 32768",
            "setoption usebook false",
        ),
    ] {
        let mut e = Engine::handshake(dialect);
        e.send(no_book);
        e.send(set);
        let asked = Instant::now();
        e.send("isready");
        let lines = e.expect("readyok");
        assert!(
            asked.elapsed() < Duration::from_secs(10),
            "{dialect}: readyok took {:?}",
            asked.elapsed()
        );
        let notes: Vec<&String> = lines.iter().filter(|l| l.contains("hash table")).collect();
        if free_mb.is_some_and(|f| f < 32768) {
            assert_eq!(notes.len(), 1, "{dialect}: {lines:?}");
            assert!(notes[0].starts_with("info "), "{}", notes[0]);
        }
        let pos = position("startpos moves h2e2");
        e.send("position startpos moves h2e2");
        e.send("go depth 6");
        let best = e.best();
        legal_best(&pos, &best);
        if let Some(rss) = resident_mb(e.pid()) {
            assert!(
                rss < 1024,
                "{dialect}: {rss} MB resident after a small search"
            );
        }
        e.isready();
        e.send("quit");
        assert!(
            e.wait_exit(Duration::from_secs(10)).is_some(),
            "{dialect}: quit ignored"
        );
    }
}

#[test]
fn the_largest_thread_count_still_answers() {
    let mut e = Engine::handshake("uci");
    e.send("setoption name UseBook value false");
    e.send("setoption name Threads value 256");
    e.isready();
    e.send("position startpos");
    e.send("go depth 4");
    let best = e.best();
    legal_best(&position("startpos"), &best);
    e.send("quit");
    assert!(
        e.wait_exit(Duration::from_secs(20)).is_some(),
        "quit ignored"
    );
}
