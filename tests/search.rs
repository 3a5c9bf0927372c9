//! Search sanity: mates found with the right score, forced replies, rule
//! scoring, determinism, the shared table under concurrency, and Lazy SMP
//! starting and stopping cleanly.

use chuhe::movegen;
use chuhe::options::{Character, Level, Style};
use chuhe::position::Position;
use chuhe::rng::XorShift;
use chuhe::search::{Report, SearchJob};
use chuhe::thread::ThreadPool;
use chuhe::time::Limits;
use chuhe::tt::TranspositionTable;
use chuhe::types::*;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Outcome {
    best: Option<Move>,
    score: Score,
}

fn search_with(pos: Position, limits: Limits, threads: usize, filter: Vec<Move>) -> Outcome {
    let tt = Arc::new(TranspositionTable::new(16));
    let mut pool = ThreadPool::new(threads);
    let out = Arc::new(Mutex::new(None));
    let sink = out.clone();
    let reporter = Arc::new(move |r: Report| {
        if let Report::BestMove { best, score, .. } = r {
            *sink.lock().unwrap() = Some(Outcome { best, score });
        }
    });
    let mut job = SearchJob::new(pos, limits, tt, threads, reporter);
    job.root_filter = filter;
    pool.start(job);
    pool.wait();
    out.lock().unwrap().take().expect("a BestMove report")
}

fn search(fen: &str, depth: i32) -> Outcome {
    search_with(
        Position::from_fen(fen).unwrap(),
        Limits::depth(depth),
        1,
        vec![],
    )
}

/// Whether the side to move can force mate within `n` of its own moves
/// (brute force, independent of the engine's search).
fn forced_mate(pos: &mut Position, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    for &m in &movegen::legal_moves(pos) {
        pos.make_move(m);
        let replies = movegen::legal_moves(pos);
        let wins = replies.is_empty()
            || (n > 1
                && replies.iter().all(|&r| {
                    pos.make_move(r);
                    let w = forced_mate(pos, n - 1);
                    pos.unmake_move();
                    w
                }));
        pos.unmake_move();
        if wins {
            return true;
        }
    }
    false
}

/// (FEN, moves to mate, note). Most come from master games (CCPD) a few
/// plies before they ended in mate; the first three are built by hand.
const MATES: &[(&str, u32, &str)] = &[
    (
        "4k4/R8/9/9/9/9/9/9/9/1R1K5 w",
        1,
        "two chariots on the back ranks",
    ),
    (
        "3aka3/R8/9/7N1/9/9/9/9/9/3K5 w",
        1,
        "horse on the palace corner",
    ),
    (
        "3aka3/9/9/9/1C7/4C4/9/9/9/3K5 w",
        1,
        "double cannon on the file",
    ),
    (
        "5k3/3R5/5a3/3C5/9/9/c5P1P/4Cr3/1n1K5/3A2B2 b",
        1,
        "black cannon mates",
    ),
    (
        "4ka2N/r2R3c1/4b4/p1N1p3p/5n3/2P6/P3P3P/9/2nCA4/2B1KA3 w",
        1,
        "horse mate",
    ),
    (
        "C1bak4/3Na4/4b4/7R1/6r1p/2B6/P3P3P/1c1A1n3/4K4/3n1AB2 b",
        1,
        "black chariot mates",
    ),
    (
        "3k1ab2/6N2/3a2c2/3P2n2/n3p3p/9/4P3P/4B1N2/3C5/3AKAB2 w",
        1,
        "pawn mate",
    ),
    (
        "3ak4/2C1a2Nn/b3b4/3PC4/8p/4c4/5c3/4B4/4A4/2BAK4 w",
        2,
        "cannon mate in 2",
    ),
    (
        "3k1a2N/r5Rc1/4b4/p1N1p3p/5n3/2P6/P3P3P/9/2nCA4/2B1KA3 w",
        2,
        "horse mate in 2",
    ),
    (
        "5R3/3kn4/3N5/p2r2p1p/9/2P3P2/P3c3P/3CB4/4A4/4KAB2 w",
        2,
        "chariot mate in 2",
    ),
    (
        "3k1ab2/4a4/6C1b/5N3/P3c4/2B6/5n1n1/9/9/2B1K4 b",
        2,
        "black cannon mate in 2",
    ),
    (
        "1R1rka2N/r5Rc1/4b4/p1N1p3p/5n3/2P6/P3P3P/9/2nCA4/2B1KA3 w",
        3,
        "horse mate in 3",
    ),
    (
        "5k3/3R5/5a3/3C5/9/9/c1n3P1P/3K5/4C4/3A1rB2 b",
        3,
        "black cannon mate in 3",
    ),
    (
        "1r3a3/4aR3/4k1n2/2P5p/2b1C4/3C5/3cP1p1P/8B/9/2BAKA3 w",
        3,
        "cannon mate in 3",
    ),
    (
        "3k1a1R1/4n4/3N5/p2r2p1p/9/2P3P2/P3c3P/3CB4/4A4/4KAB2 w",
        3,
        "chariot mate in 3",
    ),
];

#[test]
fn finds_mates_with_exact_scores() {
    for &(fen, n, note) in MATES {
        let r = search(fen, 2 * n as i32 + 8);
        assert_eq!(r.score, MATE - (2 * n as Score - 1), "{note}: {fen}");
        let m = r.best.expect("a move");
        let mut pos = Position::from_fen(fen).unwrap();
        assert!(movegen::legal_moves(&pos).contains(m));
        if n <= 2 {
            // The position really is a mate in n, and the move keeps it one.
            assert!(forced_mate(&mut pos, n), "{note}: not a mate in {n}");
            assert!(
                !forced_mate(&mut pos, n - 1),
                "{note}: mate is shorter than {n}"
            );
            pos.make_move(m);
            let replies = movegen::legal_moves(&pos);
            assert!(
                replies.iter().all(|&r| {
                    pos.make_move(r);
                    let w = forced_mate(&mut pos, n - 1);
                    pos.unmake_move();
                    w
                }),
                "{note}: {m} does not force mate"
            );
        }
    }
}

#[test]
fn single_legal_move_is_played_at_depth_one() {
    // The black king is in check from the chariot and has one way out.
    let fen = "4k4/9/9/9/9/9/9/9/3R5/5K3 b";
    let pos = Position::from_fen(fen).unwrap();
    let legal = movegen::legal_moves(&pos);
    assert_eq!(legal.len(), 1);
    let r = search(fen, 1);
    assert_eq!(r.best, Some(legal.as_slice()[0]));
    // Under a clock the lone move is answered at once.
    let clock = Limits {
        clock: Some(chuhe::time::Clock {
            time: 600_000,
            increment: 10_000,
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let t = Instant::now();
    let r = search_with(pos, clock, 1, vec![]);
    assert_eq!(r.best, Some(legal.as_slice()[0]));
    // Wide enough for a loaded two-core machine.
    assert!(t.elapsed() < Duration::from_secs(5));
}

#[test]
fn stalemate_is_a_loss_for_the_side_without_moves() {
    // Black to move, not in check, no legal move: the chariot covers e9,
    // the horse d8. Black has lost.
    let fen = "3k5/9/9/2N6/4R4/9/9/9/9/5K3 b";
    let pos = Position::from_fen(fen).unwrap();
    assert!(!pos.in_check() && movegen::legal_moves(&pos).is_empty());
    let r = search(fen, 3);
    assert_eq!((r.best, r.score), (None, 0));
    // Red to move can stalemate (chariot to the e-file) or play a quiet
    // chariot move; stalemating wins and must be preferred.
    let fen = "3k5/9/9/2N6/R8/9/9/9/9/5K3 w";
    let stalemate = Move::parse("a5e5").unwrap();
    let quiet = Move::parse("a5a4").unwrap();
    let pos = Position::from_fen(fen).unwrap();
    let r = search_with(pos.clone(), Limits::depth(4), 1, vec![quiet, stalemate]);
    assert_eq!(r.best, Some(stalemate));
    assert_eq!(r.score, MATE - 1);
    let mut after = pos;
    after.make_move(stalemate);
    assert!(!after.in_check() && movegen::legal_moves(&after).is_empty());
}

#[test]
fn bench_is_deterministic() {
    let mut a = Vec::new();
    let mut b = Vec::new();
    let na = chuhe::bench::run(6, &mut a).unwrap();
    let nb = chuhe::bench::run(6, &mut b).unwrap();
    assert_eq!(na, nb);
    assert!(na > 10_000);
}

#[test]
fn tt_entries_never_mix_under_concurrency() {
    let tt = Arc::new(TranspositionTable::new(1));
    // Data derived from the key: any hit must carry its own key's data.
    fn data_for(key: u64) -> (Move, Score, i32) {
        let from = Square::from_index((key % 90) as usize);
        let to = Square::from_index(((key >> 8) % 90) as usize);
        let mv = if from == to {
            Move::NONE
        } else {
            Move::new(from, to)
        };
        (
            mv,
            ((key >> 16) % 2000) as Score - 1000,
            ((key >> 32) % 60) as i32,
        )
    }
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let tt = tt.clone();
            std::thread::spawn(move || {
                let mut rng = XorShift(0x1234_5678_u64 + t);
                let mut hits = 0;
                for _ in 0..400_000 {
                    let x = rng.next_u64();
                    // A small key space so that threads collide on entries.
                    let key = ((x >> 1) % 50_000).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    let (mv, score, depth) = data_for(key);
                    if x & 1 == 0 {
                        tt.store(key, 0, mv, score, score / 2, depth, Bound::Exact, false);
                    } else if let Some(h) = tt.probe(key, 0) {
                        hits += 1;
                        assert_eq!(
                            (h.mv, h.score, h.eval),
                            (mv, score, score / 2),
                            "key {key:x}"
                        );
                    }
                }
                hits
            })
        })
        .collect();
    let hits: u32 = handles.into_iter().map(|h| h.join().unwrap()).sum();
    assert!(hits > 1000);
}

#[test]
fn threads_return_legal_moves_and_stop_on_request() {
    for threads in [1, 2, 4] {
        let pos = Position::startpos();
        let legal = movegen::legal_moves(&pos);
        let tt = Arc::new(TranspositionTable::new(16));
        let mut pool = ThreadPool::new(threads);
        let out = Arc::new(Mutex::new(None));
        let sink = out.clone();
        let reporter = Arc::new(move |r: Report| {
            if let Report::BestMove { best, .. } = r {
                *sink.lock().unwrap() = Some((best, Instant::now()));
            }
        });
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        pool.start(SearchJob::new(pos, limits, tt, threads, reporter));
        std::thread::sleep(Duration::from_millis(300));
        assert!(pool.is_searching(), "infinite search ended by itself");
        let asked = Instant::now();
        pool.stop();
        pool.wait();
        let (best, at) = out.lock().unwrap().take().expect("BestMove after stop");
        assert!(legal.contains(best.unwrap()), "{threads} threads");
        assert!(
            at.duration_since(asked) < Duration::from_secs(3),
            "{threads} threads slow to stop"
        );
    }
}

#[test]
fn movetime_is_respected() {
    let t = Instant::now();
    let r = search_with(Position::startpos(), Limits::movetime(300), 2, vec![]);
    assert!(r.best.is_some());
    let el = t.elapsed();
    assert!(
        el >= Duration::from_millis(200) && el < Duration::from_millis(3000),
        "{el:?}"
    );
}

#[test]
fn avoids_completing_a_perpetual_check() {
    // Red's chariot has checked on i9/i8 while the king stepped e8/e9; the
    // game is back at its start. Checking again on i8 would repeat a
    // position after a cycle of nothing but checks: a loss for Red by the
    // perpetual-check rule. Any quiet chariot move keeps Red's win.
    let mut pos = Position::from_fen("8R/4k4/9/9/9/9/9/9/9/3K5 w").unwrap();
    for m in ["i9i8", "e8e9", "i8i9", "e9e8"] {
        pos.make_move(Move::parse(m).unwrap());
    }
    let repeat = Move::parse("i9i8").unwrap();
    let quiet = Move::parse("i9h9").unwrap();
    let only_repeat = search_with(pos.clone(), Limits::depth(6), 1, vec![repeat]);
    assert_eq!(
        only_repeat.score,
        -(RULE_WIN - 1),
        "completing the cycle loses at once, by the rules, not by mate"
    );
    let r = search_with(pos.clone(), Limits::depth(6), 1, vec![repeat, quiet]);
    assert_eq!(r.best, Some(quiet));
    assert!(r.score > 0);
    let free = search_with(pos, Limits::depth(8), 1, vec![]);
    assert_ne!(free.best, Some(repeat));
}

fn search_character(
    pos: Position,
    depth: i32,
    filter: Vec<Move>,
    character: Character,
) -> (Outcome, u64) {
    let tt = Arc::new(TranspositionTable::new(16));
    let mut pool = ThreadPool::new(1);
    let out = Arc::new(Mutex::new(None));
    let sink = out.clone();
    let reporter = Arc::new(move |r: Report| {
        if let Report::BestMove { best, score, .. } = r {
            *sink.lock().unwrap() = Some(Outcome { best, score });
        }
    });
    let mut job = SearchJob::new(pos, Limits::depth(depth), tt, 1, reporter);
    job.root_filter = filter;
    job.character = character;
    let job = pool.start(job);
    pool.wait();
    let nodes = job.total_nodes();
    (
        out.lock().unwrap().take().expect("a BestMove report"),
        nodes,
    )
}

#[test]
fn style_sets_the_value_of_a_draw() {
    // Both kings have stepped out and back: one more step repeats a
    // position of the game after idle moves only, a draw.
    let mut pos = Position::from_fen("4k3r/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
    for m in ["d0d1", "e9e8", "d1d0", "e8e9"] {
        pos.make_move(Move::parse(m).unwrap());
    }
    let repeat = vec![Move::parse("d0d1").unwrap()];
    let score = |style| {
        let c = Character {
            style,
            ..Character::default()
        };
        search_character(pos.clone(), 4, repeat.clone(), c).0.score
    };
    let (solid, normal, risky) = (
        score(Style::Solid),
        score(Style::Normal),
        score(Style::Risky),
    );
    assert!(normal.abs() <= 1, "{normal}");
    assert!(
        (14..=16).contains(&solid),
        "solid values a draw above zero: {solid}"
    );
    assert!(
        (-26..=-24).contains(&risky),
        "risky values a draw below zero: {risky}"
    );
}

#[test]
fn pruning_and_knowledge_levels_change_the_search() {
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w";
    let pos = Position::from_fen(fen).unwrap();
    let at = |pruning, knowledge| {
        let c = Character {
            pruning,
            knowledge,
            ..Character::default()
        };
        search_character(pos.clone(), 7, vec![], c)
    };
    let (full, full_nodes) = at(Level::Large, Level::Large);
    let (_, unpruned_nodes) = at(Level::None, Level::Large);
    assert!(
        unpruned_nodes > 2 * full_nodes,
        "{unpruned_nodes} vs {full_nodes}"
    );
    let (material, _) = at(Level::Large, Level::None);
    assert!(full.best.is_some() && material.best.is_some());
    // Knowledge: `none` counts material only, so a pawn on a3 or on c3
    // (nothing to capture within the horizon) scores the same; `small`
    // adds placement and tells them apart, as do the levels above it.
    let knowing = |fen: &str, knowledge| {
        let c = Character {
            knowledge,
            ..Character::default()
        };
        search_character(Position::from_fen(fen).unwrap(), 5, vec![], c)
            .0
            .score
    };
    let (a3, c3) = ("3k5/9/9/9/9/9/P8/9/9/4K4 w", "3k5/9/9/9/9/9/2P6/9/9/4K4 w");
    assert_eq!(knowing(a3, Level::None), knowing(c3, Level::None));
    assert!(knowing(a3, Level::None) > 0, "a pawn up");
    for level in [Level::Small, Level::Medium, Level::Large] {
        assert_ne!(knowing(a3, level), knowing(c3, level), "{level:?}");
    }
    // A mate is found at every pruning level.
    let (fen, n, _) = MATES[8];
    for level in [Level::None, Level::Small, Level::Medium, Level::Large] {
        let c = Character {
            pruning: level,
            ..Character::default()
        };
        let (r, _) = search_character(
            Position::from_fen(fen).unwrap(),
            2 * n as i32 + 8,
            vec![],
            c,
        );
        assert_eq!(r.score, MATE - (2 * n as Score - 1), "pruning {level:?}");
    }
}

#[test]
fn move_limits_below_ten_plies_search_cleanly() {
    // The table's near-the-limit guard once computed `2 * limit - 20` in
    // unsigned arithmetic, which underflows (a panic in debug builds) for
    // limits under 10 moves; 0 turns the limit off.
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    for limit in [0, 1, 5, 9, 10] {
        let tt = Arc::new(TranspositionTable::new(4));
        let mut pool = ThreadPool::new(1);
        let out = Arc::new(Mutex::new(None));
        let sink = out.clone();
        let reporter = Arc::new(move |r: Report| {
            if let Report::BestMove { best, .. } = r {
                *sink.lock().unwrap() = Some(best);
            }
        });
        let pos = Position::from_fen(fen).unwrap();
        let mut job = SearchJob::new(pos.clone(), Limits::depth(6), tt, 1, reporter);
        job.rules.move_limit = limit;
        pool.start(job);
        pool.wait();
        let best = out.lock().unwrap().take().flatten();
        assert!(
            best.is_some_and(|m| movegen::legal_moves(&pos).contains(m)),
            "limit {limit}"
        );
    }
}

/// A move seen from the other side of the board (as `colour_swapped`
/// turns it round).
fn turned(m: Move) -> Move {
    Move::new(
        Square::from_index(89 - m.from().index()),
        Square::from_index(89 - m.to().index()),
    )
}

/// Searches `fen` and its colour-swapped twin at each depth and checks that
/// a win by leaving the opponent without a move in `plies` plies is found,
/// with one of the `winning` first moves.
fn assert_no_move_win(fen: &str, winning: &[&str], plies: Score, depths: &[i32]) {
    let winning: Vec<Move> = winning.iter().map(|m| Move::parse(m).unwrap()).collect();
    for swapped in [false, true] {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut expect = winning.clone();
        if swapped {
            pos = pos.colour_swapped();
            expect = expect.into_iter().map(turned).collect();
        }
        // The position really is such a win, by brute force.
        let n = (plies as u32).div_ceil(2);
        assert!(forced_mate(&mut pos, n) && !forced_mate(&mut pos, n - 1));
        for &d in depths {
            let r = search_with(pos.clone(), Limits::depth(d), 1, vec![]);
            let side = if swapped { "black" } else { "red" };
            assert_eq!(r.score, MATE - plies, "{side}, depth {d}: {}", pos.to_fen());
            let best = r.best.expect("a move");
            assert!(
                expect.contains(&best),
                "{side}, depth {d}: {best} is not one of {expect:?}"
            );
        }
    }
}

#[test]
fn stalemate_in_one_is_found_at_every_depth() {
    // Issue 13's example: the cannon to d3 takes Black's last moves (the
    // horse and cannon are pinned to the d-file, d8 is the pawn's, e7
    // faces the red king). Black is not in check: a stalemate, a win.
    assert_no_move_win(
        "9/2P6/3k5/9/3n5/3c5/9/3C5/9/2B1K1B2 w - - 0 1",
        &["d2d3"],
        1,
        &[1, 2, 3, 6, 16],
    );
}

#[test]
fn stalemate_in_two_by_a_waiting_move_is_found() {
    // Black's only move is the cannon d3-d4; Red waits with an elephant
    // or king move and stalemates with d2d3 next (issue 13's example).
    assert_no_move_win(
        "9/2P6/3k5/9/3n5/9/3c5/3C5/9/2B1K1B2 w - - 0 1",
        &["c0a2", "g0i2", "e0e1"],
        3,
        &[8, 12, 16],
    );
    // Here the cannon closes in: Black's only reply is the cannon up to
    // d5, the cannon follows to d4, and Black is stalemated.
    assert_no_move_win(
        "9/2P6/3k5/3n5/9/3c5/9/3C5/9/2B1K1B2 w - - 0 1",
        &["d2d3"],
        3,
        &[8, 12, 16],
    );
}

#[test]
fn tunables_travel_with_the_job_and_defaults_change_nothing() {
    use chuhe::tunables::Tunables;
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w";
    // One pool throughout: a worker must rebuild what depends on the
    // tunables (the reduction table) when they change, and back.
    let mut pool = ThreadPool::new(1);
    let mut nodes = |t: Tunables| {
        let tt = Arc::new(TranspositionTable::new(16));
        pool.clear_history();
        let reporter = Arc::new(|_: Report| {});
        let pos = Position::from_fen(fen).unwrap();
        let mut job = SearchJob::new(pos, Limits::depth(9), tt, 1, reporter);
        job.tunables = t;
        let job = pool.start(job);
        pool.wait();
        job.total_nodes()
    };
    let default = nodes(Tunables::default());
    let mut wide = Tunables::default();
    wide.set_by_name("lmr_divisor", Some("400"))
        .unwrap()
        .unwrap();
    wide.set_by_name("rfp_margin", Some("250"))
        .unwrap()
        .unwrap();
    let changed = nodes(wide);
    assert_ne!(default, changed);
    assert_eq!(nodes(Tunables::default()), default);
}
