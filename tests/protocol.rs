//! Protocol transcripts against the real binary over pipes: UCCI and UCI
//! handshakes and every command, clocks in both dialects and both units,
//! pondering, banned moves, draws and resignation, history across
//! `position`, bad input of every kind, piped analysis and shutdown.
//!
//! Timing checks are upper bounds with wide margins (CI runs tests in
//! parallel on two cores); the latencies themselves are measured by
//! `cargo bench --bench protocol`.

mod common;

use common::*;
use std::time::{Duration, Instant};

const START: &str = "startpos";
/// Red's king alone on d1 against two chariots: lost.
const LOST_FOR_RED: &str = "fen 4k4/9/r7r/9/9/9/9/9/3K5/9 w";
/// The same with Black to move: mate in one (a7d7).
const MATE_IN_ONE: &str = "fen 4k4/9/r7r/9/9/9/9/9/3K5/9 b";
/// Red is checkmated: no legal move.
const MATED: &str = "fen 3k5/9/9/9/9/9/9/9/r8/r3K4 w";
/// Kings and an advisor each: a dead draw.
const LEVEL: &str = "fen 4k4/4a4/9/9/9/9/9/9/4A4/3K5 w";
/// Red is a chariot up.
const WINNING: &str = "fen 4k4/4a4/9/9/9/9/9/4R4/4A4/3K5 w";
/// Red's chariot can take a loose chariot (a0a5); d0d1 is a quiet move.
const FREE_CHARIOT: &str = "fen 3akab2/9/9/9/r8/9/9/9/9/R2K5 w";

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// Turns debug output on in `dialect` (UCCI `setoption debug true`, UCI
/// `debug on`).
fn debug_on(e: &mut Engine, dialect: &str) {
    e.send(if dialect == "ucci" {
        "setoption debug true"
    } else {
        "debug on"
    });
}

/// Sets an option by its UCCI or UCI name, as `dialect` spells it.
fn set_option(e: &mut Engine, dialect: &str, ucci: &str, uci: &str, value: &str) {
    if dialect == "ucci" {
        e.send(&format!("setoption {ucci} {value}"));
    } else {
        e.send(&format!("setoption name {uci} value {value}"));
    }
}

// -------------------------------------------------------------------------
// Handshakes

#[test]
fn nothing_is_printed_before_the_first_command() {
    let mut e = Engine::start();
    e.assert_silent(Duration::from_millis(300));
    e.send("ucci");
    let lines = e.expect("ucciok");
    assert_id_name(&lines[0]);
}

#[test]
fn ucci_handshake_lists_every_standard_option() {
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.expect("ucciok");
    assert_id_name(&lines[0]);
    assert!(lines[1].starts_with("id author "));
    for name in [
        "usemillisec",
        "batch",
        "debug",
        "ponder",
        "usebook",
        "bookfiles",
        "hashsize",
        "threads",
        "newgame",
        "randomness",
        "pruning",
        "knowledge",
        "idle",
        "style",
        "promotion",
        "useegtb",
        "egtbpaths",
        "usennue",
        "evalfile",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option {name} type "))),
            "option {name} missing: {lines:?}"
        );
    }
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    assert!(
        options
            .iter()
            .all(|l| !l.contains(" name ") && !l.contains(" value "))
    );
    assert!(lines.contains(&"option usemillisec type check default true".to_string()));
    assert!(lines.contains(&"option newgame type button".to_string()));
}

#[test]
fn uci_handshake_lists_the_uci_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect("uciok");
    assert_id_name(&lines[0]);
    for name in [
        "Threads",
        "Hash",
        "Clear Hash",
        "Ponder",
        "MultiPV",
        "Move Overhead",
        "UseBook",
        "BookFile",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "option {name} missing: {lines:?}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Move Overhead type spin default 50 "))
    );
}

#[test]
fn the_later_handshake_picks_the_dialect() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok");
    e.send("ucci");
    e.expect("ucciok");
    e.send(&format!("position {MATE_IN_ONE}"));
    e.send("go depth 3");
    let lines = e.until("bestmove", is_answer);
    let info = lines.iter().find(|l| l.starts_with("info depth")).unwrap();
    assert!(!info.contains(" cp ") && !info.contains(" mate "), "{info}");
    assert!(lines.last().unwrap().starts_with("bestmove a7d7"));
}

// -------------------------------------------------------------------------
// UCCI

#[test]
fn ucci_transcript_covers_every_command() {
    let mut e = Engine::handshake("ucci");
    for opt in [
        "setoption usemillisec true",
        "setoption batch false",
        "setoption debug false",
        "setoption ponder true",
        "setoption usebook false",
        "setoption bookfiles <embedded>",
        "setoption hashsize 16",
        "setoption threads 2",
        "setoption randomness none",
        "setoption pruning large",
        "setoption knowledge large",
        "setoption idle none",
        "setoption style normal",
        "setoption promotion false",
        "setoption useegtb false",
        "setoption egtbpaths <empty>",
        "setoption repetition 1",
        "setoption drawmoves 60",
        "setoption drawmoves none",
        "setoption selectivity 2",
        "setoption usehash true",
        "setoption loadbook true",
        "setoption newgame",
        "setoption name Hash value 16",
        "setoption name Clear Hash",
    ] {
        e.send(opt);
    }
    e.send("isready");
    let lines = e.expect("readyok");
    assert_eq!(lines, vec!["readyok"], "options must be taken silently");

    let args = "startpos moves h2e2 h9g7";
    let pos = position(args);
    e.send(&format!("position {args}"));
    e.send("go depth 5");
    let lines = e.until("bestmove", is_answer);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    for l in &infos {
        for key in [
            "depth", "seldepth", "score", "time", "nodes", "nps", "hashfull",
        ] {
            assert!(field(l, key).is_some(), "{key} missing in {l}");
        }
        assert!(l.contains(" pv "), "{l}");
        assert!(!l.contains(" cp "), "UCCI scores are plain: {l}");
    }
    assert_eq!(field(infos.last().unwrap(), "depth"), Some(5));
    let best = lines.last().unwrap();
    legal_best(&pos, best);

    // probe: the table knows the position just searched.
    e.send(&format!("probe {args}"));
    let pop = e
        .until("pophash", |l| l.starts_with("pophash"))
        .pop()
        .unwrap();
    // With two threads the voted move need not be the table's, but the
    // table must hold a legal move and a bound from this search.
    assert!(pop.starts_with("pophash bestmove "), "{pop}");
    legal_best(&pos, &pop["pophash ".len()..]);
    assert!(field(&pop, "depth").is_some_and(|d| d >= 1), "{pop}");
    e.send("probe fen 4k4/9/9/9/9/9/9/9/9/3K5 w");
    assert_eq!(
        e.until("pophash", |l| l.starts_with("pophash"))
            .pop()
            .unwrap(),
        "pophash"
    );

    // Other limits.
    e.send("go nodes 3000");
    legal_best(&pos, &e.best());
    e.send("go time 2000 increment 100 movestogo 10 opptime 2000 oppincrement 100");
    legal_best(&pos, &e.best());
    e.send("go movetime 200");
    legal_best(&pos, &e.best());

    // Bare `go` is infinite: nothing until `stop`.
    e.send("go");
    e.send("isready");
    e.expect("readyok");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    legal_best(&pos, &e.best());

    // Extra commands.
    e.send("perft 2");
    let lines = e.until("perft total", |l| l.starts_with("Nodes searched"));
    let want = chuhe::movegen::perft(&mut pos.clone(), 2);
    assert_eq!(lines.last().unwrap(), &format!("Nodes searched: {want}"));
    e.send("divide 1");
    e.until("divide total", |l| l.starts_with("Nodes searched"));
    e.send("d");
    let lines = e.until("display", |l| l.starts_with("legal moves"));
    assert!(lines.iter().any(|l| l.starts_with("fen ")));
    e.send("eval");
    e.send("help");
    let lines = e.until("help", |l| l.trim_start().starts_with("help "));
    assert!(
        lines.iter().any(|l| l.trim_start().starts_with("perft")),
        "{lines:?}"
    );
    e.send("bench 2");
    e.until("bench", |l| l.starts_with("Nodes/second"));
    e.isready();

    e.send("quit");
    e.expect("bye");
    let status = e.wait_exit(secs(10)).expect("chuhe exits after quit");
    assert!(status.success());
}

#[test]
fn ucci_nobestmove_only_where_listed() {
    let mut e = Engine::handshake("ucci");
    // Stop while idle.
    e.send("stop");
    assert_eq!(e.best(), "nobestmove");
    // No legal move.
    e.send(&format!("position {MATED}"));
    e.send("go depth 5");
    assert_eq!(e.best(), "nobestmove");
    // go depth 0.
    e.send("position startpos");
    e.send("go depth 0");
    assert_eq!(e.best(), "nobestmove");
    // Everywhere else a move.
    e.send("go depth 1");
    assert!(e.best().starts_with("bestmove "));
}

#[test]
fn ucci_draw_offers_and_resignation() {
    let mut e = Engine::handshake("ucci");
    e.send(&format!("position {LEVEL}"));
    e.send("go draw depth 6");
    let best = e.best();
    assert!(best.ends_with(" draw"), "level position, offered: {best}");
    e.send("go depth 6");
    let best = e.best();
    assert!(!best.contains("draw"), "not offered: {best}");

    e.send(&format!("position {WINNING}"));
    e.send("go draw depth 6");
    let best = e.best();
    assert!(!best.contains("draw"), "winning, must decline: {best}");

    // ponderhit draw offers the draw during the search.
    e.send(&format!("position {LEVEL}"));
    e.send("go ponder depth 4");
    e.assert_silent_of_answers(Duration::from_millis(300));
    e.send("ponderhit draw");
    assert!(e.best().ends_with(" draw"));

    // Resignation: only with a clock, and only when the loss is certain
    // in consecutive moves.
    e.send(&format!("position {LOST_FOR_RED}"));
    e.send("go depth 6");
    assert!(!e.best().contains("resign"));
    e.send("go time 3000 increment 0");
    let first = e.best();
    assert!(!first.contains("resign"), "{first}");
    e.send("go time 3000 increment 0");
    let second = e.best();
    assert!(second.ends_with(" resign"), "{second}");
    e.send("setoption newgame");
    e.send("go time 3000 increment 0");
    assert!(!e.best().contains("resign"), "a new game starts afresh");
}

#[test]
fn banmoves_are_honoured_and_cleared_by_position() {
    for dialect in ["ucci", "uci"] {
        let mut e = Engine::handshake(dialect);
        e.send(&format!("position {FREE_CHARIOT}"));
        e.send("go depth 4");
        assert!(e.best().starts_with("bestmove a0a5"));
        e.send("banmoves a0a5");
        e.send("go depth 4");
        let best = e.best();
        assert!(!best.starts_with("bestmove a0a5"), "{best}");
        legal_best(&position(FREE_CHARIOT), &best);
        // All but one banned: that one.
        let pos = position(FREE_CHARIOT);
        let all: Vec<String> = chuhe::movegen::legal_moves(&pos)
            .iter()
            .map(|m| m.to_string())
            .filter(|m| m != "d0d1")
            .collect();
        e.send(&format!("banmoves {}", all.join(" ")));
        e.send("go depth 4");
        assert!(e.best().starts_with("bestmove d0d1"));
        // The next position clears the ban.
        e.send(&format!("position {FREE_CHARIOT}"));
        e.send("go depth 4");
        assert!(e.best().starts_with("bestmove a0a5"));
        // Everything banned: no move.
        let every: Vec<String> = chuhe::movegen::legal_moves(&pos)
            .iter()
            .map(|m| m.to_string())
            .collect();
        e.send(&format!("banmoves {}", every.join(" ")));
        e.send("go depth 4");
        let best = e.best();
        assert!(best == "nobestmove" || best == "bestmove (none)", "{best}");
    }
}

#[test]
fn repetition_history_survives_fen_plus_moves() {
    // Red is lost, but with the history the move d1d0 repeats the
    // position after the FEN: a draw. Without the history it is just lost.
    let mut e = Engine::handshake("ucci");
    e.send("position fen 4k4/9/r7r/9/9/9/9/9/9/3K5 b - - 0 1 moves e9e8 d0d1 e8e9");
    e.send("go depth 8");
    let lines = e.until("bestmove", is_answer);
    assert!(
        lines.last().unwrap().starts_with("bestmove d1d0"),
        "{lines:?}"
    );
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(field(last_info, "score").unwrap().abs() < 50, "{last_info}");

    e.send(&format!("position {LOST_FOR_RED} - - 3 2"));
    e.send("go depth 8");
    let lines = e.until("bestmove", is_answer);
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(field(last_info, "score").unwrap() < -1000, "{last_info}");

    // The same through a whole game from the start position: the history
    // reaches back to the first move.
    let game = "startpos moves h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0";
    e.send(&format!("position {game}"));
    e.send("d");
    let lines = e.until("display", |l| l.starts_with("legal moves"));
    assert!(lines.iter().any(|l| l.contains(" b - - 7 4")), "{lines:?}");
}

#[test]
fn ucci_seconds_and_milliseconds() {
    let mut e = Engine::handshake("ucci");
    e.send("setoption debug true");
    e.send("setoption usebook false");
    e.send("position startpos moves h2e2");
    // Milliseconds (the default we announce).
    e.send("go time 20000 increment 0");
    let (lines, _) = e.until_at("bestmove", is_answer);
    let ms = budget(lines.iter().find(|l| l.contains("time budget")).unwrap());
    // Seconds.
    e.send("setoption usemillisec false");
    e.send("go time 20 increment 0");
    let (lines, _) = e.until_at("bestmove", is_answer);
    let s = budget(lines.iter().find(|l| l.contains("time budget")).unwrap());
    assert_eq!(ms, s, "20000 ms and 20 s are one clock");
    assert!(s.1 < 20_000 && s.1 > 100, "{s:?}");
}

/// Runs one `go` under a clock and checks the move comes within the
/// maximum the time manager reported, plus a margin for a loaded machine.
fn within_budget(dialect: &str, args: &str, go: &str) {
    let mut e = Engine::handshake(dialect);
    debug_on(&mut e, dialect);
    // Opening positions: the book would answer without a budget.
    e.send("setoption usebook false");
    e.send(&format!("position {args}"));
    e.isready();
    let start = Instant::now();
    e.send(go);
    let (lines, at) = e.until_at("bestmove", is_answer);
    let (opt, max) = budget(
        lines
            .iter()
            .find(|l| l.contains("time budget"))
            .unwrap_or_else(|| panic!("no budget: {lines:?}")),
    );
    let took = at.duration_since(start);
    assert!(opt <= max, "{go}: {opt} > {max}");
    assert!(
        took <= Duration::from_millis(max + 1500),
        "{dialect} {go}: took {took:?}, budget max {max} ms"
    );
    legal_best(&position(args), lines.last().unwrap());
}

#[test]
fn real_time_controls_in_both_dialects() {
    // 60 min + 30 s and 10 min + 10 s, late in the game when the clock is
    // low (so the test stays short), for Red and for Black, in each
    // dialect's own words.
    let red = "startpos moves h2e2 h9g7 h0g2 i9h9";
    let black = "startpos moves h2e2 h9g7 h0g2";
    let cases = [
        ("ucci", red, "go time 20000 increment 30000"),
        ("ucci", black, "go time 12000 increment 10000"),
        (
            "uci",
            red,
            "go wtime 20000 btime 900000 winc 30000 binc 30000",
        ),
        (
            "uci",
            black,
            "go wtime 600000 btime 12000 winc 10000 binc 10000",
        ),
    ];
    let handles: Vec<_> = cases
        .into_iter()
        .map(|(d, a, g)| std::thread::spawn(move || within_budget(d, a, g)))
        .collect();
    for h in handles {
        h.join().expect("a time control case failed");
    }
}

#[test]
fn full_clocks_get_a_sane_budget_and_stop_at_once() {
    for (dialect, go) in [
        ("ucci", "go time 3600000 increment 30000"),
        ("ucci", "go time 600000 increment 10000"),
        (
            "uci",
            "go wtime 3600000 btime 3600000 winc 30000 binc 30000",
        ),
        ("uci", "go wtime 600000 btime 600000 winc 10000 binc 10000"),
    ] {
        let mut e = Engine::handshake(dialect);
        debug_on(&mut e, dialect);
        e.send("setoption usebook false");
        e.send("position startpos");
        e.send(go);
        let line = e
            .until("budget", |l| l.contains("time budget"))
            .pop()
            .unwrap();
        let (opt, max) = budget(&line);
        let time = if go.contains("3600000") {
            3_600_000
        } else {
            600_000
        };
        let inc = if go.contains("30000") { 30_000 } else { 10_000 };
        assert!(opt > inc / 2, "{go}: optimum {opt}");
        assert!(opt <= max && max < time / 4, "{go}: {opt}/{max}");
        std::thread::sleep(Duration::from_millis(200));
        let sent = Instant::now();
        e.send("stop");
        let (_, at) = e.until_at("bestmove", is_answer);
        assert!(at.duration_since(sent) < secs(2));
    }
}

#[test]
fn ponder_hit_and_ponder_miss() {
    for dialect in ["ucci", "uci"] {
        let mut e = Engine::handshake(dialect);
        debug_on(&mut e, dialect);
        let args = "startpos moves h2e2 h9g7";
        let pos = position(args);
        // Hit: no answer while pondering; after ponderhit, one within the
        // budget, counted from the ponderhit.
        e.send(&format!("position {args}"));
        let go = if dialect == "ucci" {
            "go ponder time 20000 increment 0"
        } else {
            "go ponder wtime 20000 btime 20000"
        };
        e.send(go);
        let line = e
            .until("budget", |l| l.contains("time budget"))
            .pop()
            .unwrap();
        let (_, max) = budget(&line);
        e.assert_silent_of_answers(Duration::from_millis(max.max(500) + 300));
        let hit = Instant::now();
        e.send("ponderhit");
        let (lines, at) = e.until_at("bestmove", is_answer);
        legal_best(&pos, lines.last().unwrap());
        assert!(at.duration_since(hit) <= Duration::from_millis(max + 1500));

        // A finished ponder search answers at once on ponderhit.
        e.send("go ponder depth 3");
        e.assert_silent_of_answers(Duration::from_millis(500));
        let hit = Instant::now();
        e.send("ponderhit");
        let (lines, at) = e.until_at("bestmove", is_answer);
        legal_best(&pos, lines.last().unwrap());
        assert!(at.duration_since(hit) < secs(2));

        // Miss: stop, then the position after the move really played.
        e.send(go);
        std::thread::sleep(Duration::from_millis(300));
        e.send("stop");
        legal_best(&pos, &e.best());
        let args = "startpos moves h2e2 b9c7";
        e.send(&format!("position {args}"));
        e.send("go depth 4");
        legal_best(&position(args), &e.best());
        e.send("ponderhit");
        let diag = e
            .until("diagnostic", |l| l.starts_with("info "))
            .pop()
            .unwrap();
        assert!(diag.contains("ponderhit"), "{diag}");
    }
}

#[test]
fn infinite_search_stops_and_isready_answers_meanwhile() {
    for dialect in ["ucci", "uci"] {
        let mut e = Engine::handshake(dialect);
        if dialect == "ucci" {
            e.send("setoption threads 2");
        } else {
            e.send("setoption name Threads value 2");
        }
        e.isready();
        e.send("position startpos");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let asked = Instant::now();
        e.send("isready");
        let (lines, at) = e.until_at("readyok", |l| l == "readyok");
        assert!(
            lines.iter().all(|l| !is_answer(l)),
            "isready must not end the search"
        );
        assert!(at.duration_since(asked) < secs(2));
        e.assert_silent_of_answers(Duration::from_millis(300));
        let stopped = Instant::now();
        e.send("stop");
        let (lines, at) = e.until_at("bestmove", is_answer);
        legal_best(&position(START), lines.last().unwrap());
        assert!(at.duration_since(stopped) < secs(2));
        // A second stop: UCCI answers nobestmove (idle), UCI says nothing.
        e.send("stop");
        if dialect == "ucci" {
            assert_eq!(e.best(), "nobestmove");
        } else {
            e.assert_silent(Duration::from_millis(300));
        }
    }
}

#[test]
fn quit_while_searching_says_bye_and_exits() {
    let mut e = Engine::handshake("ucci");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    e.expect("bye");
    let status = e.wait_exit(secs(10)).expect("exits");
    assert!(status.success());

    let mut e = Engine::handshake("uci");
    e.send("go infinite");
    e.send("quit");
    let status = e.wait_exit(secs(10)).expect("exits");
    assert!(status.success());
}

// -------------------------------------------------------------------------
// UCI

#[test]
fn uci_transcript_covers_every_command() {
    let mut e = Engine::handshake("uci");
    for opt in [
        "setoption name Threads value 1",
        "setoption name Hash value 16",
        "setoption name Clear Hash",
        "setoption name Ponder value true",
        "setoption name MultiPV value 3",
        "setoption name Move Overhead value 30",
        "setoption name UseBook value false",
        "setoption name OwnBook value false",
        "setoption name BookFile value <embedded>",
        "setoption name Randomness value none",
        "setoption name Style value normal",
    ] {
        e.send(opt);
    }
    e.send("ucinewgame");
    e.send("isready");
    assert_eq!(e.expect("readyok"), vec!["readyok"]);

    let args = "startpos moves h2e2";
    let pos = position(args);
    e.send(&format!("position {args}"));
    e.send("go depth 5");
    let lines = e.until("bestmove", is_answer);
    let final_depth: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 "))
        .collect();
    for k in 1..=3 {
        assert!(
            final_depth.iter().any(|l| field(l, "multipv") == Some(k)),
            "multipv {k} missing: {lines:?}"
        );
    }
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        if l.contains(" pv ") {
            assert!(
                l.contains(" score cp ") || l.contains(" score mate "),
                "{l}"
            );
            for key in ["seldepth", "multipv", "nodes", "nps", "hashfull", "time"] {
                assert!(field(l, key).is_some(), "{key} missing in {l}");
            }
        }
    }
    let best = lines.last().unwrap();
    legal_best(&pos, best);
    assert!(best.contains(" ponder "), "{best}");

    e.send("setoption name MultiPV value 1");
    // searchmoves restricts the root.
    e.send("go depth 4 searchmoves b9c7 h9g7");
    let best = e.best();
    assert!(
        best.starts_with("bestmove b9c7") || best.starts_with("bestmove h9g7"),
        "{best}"
    );
    // Clocks, movetime, nodes.
    e.send("go wtime 5000 btime 5000 winc 100 binc 100 movestogo 20");
    legal_best(&pos, &e.best());
    e.send("go movetime 150");
    legal_best(&pos, &e.best());
    e.send("go nodes 5000");
    legal_best(&pos, &e.best());

    // Mate scores in moves.
    e.send(&format!("position {MATE_IN_ONE}"));
    e.send("go depth 4");
    let lines = e.until("bestmove", is_answer);
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    e.send(&format!("position {LOST_FOR_RED}"));
    e.send("go depth 4");
    let lines = e.until("bestmove", is_answer);
    assert!(
        lines.iter().any(|l| l.contains(" score mate -1 ")),
        "{lines:?}"
    );
    e.send("go mate 1");
    legal_best(&position(LOST_FOR_RED), &e.best());

    // No legal move.
    e.send(&format!("position {MATED}"));
    e.send("go depth 3");
    assert_eq!(e.best(), "bestmove (none)");

    // UCI quits without a word.
    e.send("quit");
    let status = e.wait_exit(secs(10)).expect("exits");
    assert!(status.success());
    assert!(!e.seen.iter().any(|l| l == "bye"));
}

#[test]
fn each_dialect_accepts_the_others_spellings() {
    let mut e = Engine::handshake("uci");
    e.send("setoption hashsize 16");
    e.send("setoption Move Overhead 40");
    e.send("setoption usemillisec true");
    e.isready();
    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r");
    e.send("go time 3000 increment 100");
    legal_best(&position(START), &e.best());
    e.send("probe startpos");
    e.until("pophash", |l| l.starts_with("pophash"));

    let mut e = Engine::handshake("ucci");
    e.send("setoption name Hash value 16");
    e.send("setoption name Move Overhead value 40");
    e.send("ucinewgame");
    e.isready();
    // A bare FEN line, as one adapter sends it.
    e.send("fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2");
    e.send("go wtime 3000 btime 3000 winc 100 binc 100");
    legal_best(&position("startpos moves h2e2"), &e.best());
    e.send("go movetime 100");
    legal_best(&position("startpos moves h2e2"), &e.best());
}

// -------------------------------------------------------------------------
// Bad input

/// What a bad line does to the session's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leaves {
    /// The last good position stays.
    Position,
    /// A rejected `position`: no position at all, until the next good one.
    Nothing,
}

/// Sends `bad`, then `isready`: every line before `readyok` must be a
/// diagnostic, and there must be `diagnostics` of them (none for input
/// that is ignored by design). Then `go` must give a legal move for the
/// last good position, or, after a rejected `position`, no move at all
/// (and the good position is sent again).
fn survives(
    e: &mut Engine,
    prefix: &str,
    (bad, diagnostics, leaves): (&[u8], usize, Leaves),
    good: &str,
) {
    e.send_bytes(bad);
    e.send("isready");
    let lines = e.expect("readyok");
    let before = &lines[..lines.len() - 1];
    assert!(
        before.iter().all(|l| l.starts_with(prefix)),
        "{:?}: {before:?}",
        String::from_utf8_lossy(&bad[..bad.len().min(60)])
    );
    assert_eq!(
        before.len(),
        diagnostics,
        "{:?}: {before:?}",
        String::from_utf8_lossy(&bad[..bad.len().min(60)])
    );
    e.send("go depth 2");
    let answer = e.until("bestmove", is_answer);
    let (last, before) = answer.split_last().unwrap();
    match leaves {
        Leaves::Position => {
            assert!(before.iter().all(|l| l.starts_with("info ")), "{answer:?}");
            legal_best(&position(good), last);
        }
        Leaves::Nothing => {
            let none = if prefix.starts_with("info message") {
                "nobestmove"
            } else {
                "bestmove (none)"
            };
            assert_eq!(last, none, "{answer:?}");
            assert_eq!(before.len(), 1, "{answer:?}");
            assert!(
                before[0].starts_with(&format!("{prefix}go: no position")),
                "{answer:?}"
            );
            e.send(&format!("position {good}"));
        }
    }
}

fn bad_inputs() -> Vec<(Vec<u8>, usize, Leaves)> {
    let long_line = {
        let mut l = b"position startpos moves ".to_vec();
        while l.len() < 1_000_000 {
            l.extend_from_slice(b"h2e2 h7e7 ");
        }
        l.push(b'\n');
        l
    };
    use Leaves::*;
    let lines: Vec<(&[u8], usize, Leaves)> = vec![
        (
            b"position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w\n",
            1,
            Nothing,
        ),
        (b"position fen 9/9/9 w\n", 1, Nothing),
        (b"position fen\n", 1, Nothing),
        (b"position startpos moves h2e2 h2e2\n", 1, Nothing),
        (b"position startpos moves h2e9x\n", 1, Nothing),
        (b"position\n", 1, Nothing),
        (b"fen 4k4/9/9/9/9/9/9/9/9/4K4 w\n", 1, Nothing),
        (b"frobnicate the engine\n", 1, Position),
        (b"setoption nosuchoption 3\n", 1, Position),
        (b"setoption name No Such Option value 3\n", 1, Position),
        (b"setoption name\n", 1, Position),
        (b"setoption hashsize abc\n", 1, Position),
        (b"setoption hashsize 99999999\n", 1, Position),
        (b"setoption threads 0\n", 1, Position),
        (b"setoption usebook maybe\n", 1, Position),
        (b"setoption style wild\n", 1, Position),
        (b"setoption name Rank Numbering value 2-11\n", 1, Position),
        (b"\xff\xfe\xfd\xfc\n", 1, Position),
        (b"\x01\x02\x1b[31m\n", 1, Position),
        (b"isready\x00\x07\r\n", 0, Position), // cleaned to `isready`: answered apart
        (b"\n\n\r\n   \n\t\n", 0, Position),
        (b"ponderhit\n", 1, Position),
        (b"banmoves zz99 h2e2x\n", 1, Position),
        (b"perft 99\n", 1, Position),
        (b"perft\n", 1, Position),
        (b"bench abc\n", 1, Position),
    ];
    let mut all: Vec<(Vec<u8>, usize, Leaves)> = lines
        .into_iter()
        .map(|(b, n, leaves)| (b.to_vec(), n, leaves))
        .collect();
    all.push((long_line, 1, Nothing));
    all.push((
        vec![b'x'; 60_000].into_iter().chain(*b"\n").collect(),
        1,
        Position,
    ));
    all
}

#[test]
fn bad_input_gets_a_diagnostic_and_changes_nothing() {
    for (dialect, prefix) in [("ucci", "info message "), ("uci", "info string ")] {
        let mut e = Engine::handshake(dialect);
        let good = "startpos moves h2e2 h9g7";
        e.send(&format!("position {good}"));
        for (bad, n, leaves) in bad_inputs() {
            if bad.starts_with(b"isready") {
                // Its own readyok comes first; the one we ask for second.
                e.send_bytes(&bad);
                e.expect("readyok");
                survives(&mut e, prefix, (b"", 0, leaves), good);
            } else {
                survives(&mut e, prefix, (&bad, n, leaves), good);
            }
        }
        // `stop` twice while idle.
        e.send("stop");
        e.send("stop");
        e.send("isready");
        let lines = e.expect("readyok");
        let want: Vec<&str> = if dialect == "ucci" {
            vec!["nobestmove", "nobestmove", "readyok"]
        } else {
            vec!["readyok"]
        };
        assert_eq!(lines, want);
        // Probing a bad position still answers pophash.
        e.send("probe fen not/a/fen w");
        let lines = e.until("pophash", |l| l.starts_with("pophash"));
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with(prefix));
    }
}

/// The no-move answer of `dialect`.
fn no_move(dialect: &str) -> &'static str {
    if dialect == "ucci" {
        "nobestmove"
    } else {
        "bestmove (none)"
    }
}

/// The diagnostic prefix of `dialect`.
fn diag_prefix(dialect: &str) -> &'static str {
    if dialect == "ucci" {
        "info message "
    } else {
        "info string "
    }
}

/// Sends `line` and asserts that the diagnostic it draws (the next line
/// that starts with `prefix`) contains `want`.
fn diagnostic_says(e: &mut Engine, line: &str, prefix: &str, want: &str) {
    e.send(line);
    let lines = e.until("a diagnostic", |l| l.starts_with(prefix));
    let diag = lines.last().unwrap();
    assert!(diag.contains(want), "{line}: {diag}");
}

#[test]
fn a_rejected_position_leaves_no_position() {
    for dialect in ["ucci", "uci"] {
        let mut e = Engine::handshake(dialect);
        let prefix = diag_prefix(dialect);
        set_option(&mut e, dialect, "usebook", "UseBook", "false");
        // A good position with a banned move and Black to move...
        e.send("position startpos moves h2e2");
        e.send("banmoves h9g7");
        e.send("go depth 2");
        legal_best(&position("startpos moves h2e2"), &e.best());
        // ...then lines that must each leave no position, the word that was
        // wrong named in the diagnostic.
        let cases = [
            (
                "position startpos moves h2e2 h9g7 h0g2 zz9z",
                "move 4 'zz9z' is not a move",
            ),
            (
                "position startpos moves h2e2 h2e2",
                "move 2 'h2e2' is not legal",
            ),
            (
                "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
                "kings face each other",
            ),
            ("position fen rnbakabnr/9/1c5c1/9/9 w", "expected 10"),
            (
                "position startpos moves e3e4 0000 e4e5 0000 e5e6 0000 e6f7",
                "move 7 'e6f7' is not legal",
            ),
            ("position startpos garbage", "unexpected 'garbage'"),
        ];
        for (line, why) in cases {
            e.send(line);
            let diag = e.until("the rejection", |l| l.starts_with(prefix));
            let diag = diag.last().unwrap();
            assert!(
                diag.contains("position rejected") && diag.contains(why),
                "{line}: {diag}"
            );
            // Every go until the next good position: no move, at once, with
            // a diagnostic; never a search of the old position.
            for go in ["go depth 3", "go wtime 60000 btime 60000", "go infinite"] {
                e.send(go);
                let lines = e.until("the answer", is_answer);
                assert_eq!(
                    lines.last().unwrap(),
                    no_move(dialect),
                    "{line} / {go}: {lines:?}"
                );
                assert_eq!(lines.len(), 2, "{line} / {go}: {lines:?}");
                assert!(
                    lines[0].starts_with(&format!("{prefix}go: no position")),
                    "{lines:?}"
                );
                assert!(lines[0].contains(why), "{lines:?}");
            }
            // Nothing to ban in, and no old position to show.
            e.send("banmoves h0g2");
            e.send("perft 1");
            e.send("isready");
            let lines = e.expect("readyok");
            assert_eq!(lines.len(), 3, "{lines:?}");
            assert!(
                lines[..2]
                    .iter()
                    .all(|l| l.starts_with(prefix) && l.contains("no position")),
                "{lines:?}"
            );
        }
        // The next good position ends it; the old banmoves are gone.
        e.send("position startpos moves h2e2");
        e.send("go depth 2");
        legal_best(&position("startpos moves h2e2"), &e.best());
        e.send("quit");
    }
}

#[test]
fn a_composed_problem_is_played() {
    // The position users sent: a black pawn on its own back rank (f9), which
    // no game can bring it to. Red mates at once: e8e9? no: the chariot
    // d2d9 is met by the advisor; the search must just play a legal move.
    let composed = "fen 3akp3/4a4/9/9/9/9/9/3R5/4A4/4KA3 w - - 0 1";
    for dialect in ["ucci", "uci"] {
        let mut e = Engine::handshake(dialect);
        let prefix = diag_prefix(dialect);
        e.send(&format!("position {composed}"));
        let note = e.until("a note", |l| l.starts_with(prefix));
        assert!(
            note[0].contains("black pawn on f9, a point no game reaches"),
            "{note:?}"
        );
        e.send("go depth 6");
        legal_best(&position(composed), &e.best());
        // Red pawns behind their start, an advisor on e0, an elephant on e4.
        let odd = "fen 4k4/9/r8/9/9/4B4/1P5P1/2P3P2/4P4/3KA4 b - - 0 1";
        e.send(&format!("position {odd}"));
        e.send("go depth 5");
        legal_best(&position(odd), &e.best());
        // What the rules forbid is still refused, saying which rule.
        diagnostic_says(
            &mut e,
            "position fen 4k4/9/9/9/2B6/9/9/9/3K5/9 w",
            prefix,
            "red elephant on c5, across the river",
        );
        diagnostic_says(
            &mut e,
            "position fen 4k4/4A4/9/9/9/9/9/9/3K5/9 w",
            prefix,
            "red advisor on e8, outside its palace",
        );
        e.send("go depth 3");
        assert_eq!(e.best(), no_move(dialect));
        e.send("quit");
    }
}

/// The moves of a line (`bestmove`, `pv`), read with ranks 1-10 and
/// checked legal from `pos` on.
fn legal_from_one(pos: &chuhe::position::Position, words: &[&str]) {
    use chuhe::record::ranks::Ranks;
    let mut pos = pos.clone();
    for w in words {
        let iccs = Ranks::FromOne
            .read(w)
            .unwrap_or_else(|_| panic!("{w} is not 1-10"));
        let m = chuhe::replay::read_move(&pos, &iccs, chuhe::replay::Accept::Iccs)
            .unwrap_or_else(|e| panic!("{w} ({iccs}) in {}: {e}", pos.to_fen()));
        pos.make_move(m);
    }
}

/// Checks a search's output in ranks 1-10: every move of every `pv` and
/// `currmove`, the best move and the ponder move.
fn answers_in_ranks_one_to_ten(e: &mut Engine, pos: &chuhe::position::Position) {
    let lines = e.until("bestmove", is_answer);
    let mut pvs = 0;
    for l in &lines {
        let words: Vec<&str> = l.split_whitespace().collect();
        if let Some(at) = words.iter().position(|w| *w == "pv") {
            legal_from_one(pos, &words[at + 1..]);
            pvs += 1;
        }
        if let Some(at) = words.iter().position(|w| *w == "currmove") {
            legal_from_one(pos, &words[at + 1..at + 2]);
        }
    }
    assert!(pvs > 0, "{lines:?}");
    let best: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!(best[0], "bestmove", "{lines:?}");
    match best.get(2) {
        Some(&"ponder") => legal_from_one(pos, &[best[1], best[3]]),
        _ => legal_from_one(pos, &best[1..2]),
    }
}

#[test]
fn uci_hosts_that_number_ranks_one_to_ten() {
    // `auto`: a list that reads only one way switches the session.
    let mut e = Engine::handshake("uci");
    e.send("setoption name UseBook value false");
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos moves h3e3");
    let note = e.until("the switch", |l| l.starts_with("info string"));
    assert!(note[0].contains("ranks 1-10"), "{note:?}");
    e.send("go depth 5");
    answers_in_ranks_one_to_ten(&mut e, &position("startpos moves h2e2"));
    // A rank 10 is read the same way; the numbering stays for the game.
    e.send("position startpos moves h3e3 h10g8");
    e.send("go depth 5");
    answers_in_ranks_one_to_ten(&mut e, &position("startpos moves h2e2 h9g7"));
    e.send("position startpos");
    e.send("go depth 4");
    answers_in_ranks_one_to_ten(&mut e, &position("startpos"));
    // Clock and searchmoves in the host's numbering too.
    e.send("position startpos moves h3e3 h10g8 h1g3");
    e.send("go searchmoves i10h10 depth 3");
    assert_eq!(e.best().split_whitespace().nth(1), Some("i10h10"));
    // b10c8 is b9c7 in ICCS: banned, the only move searched leaves none.
    e.send("banmoves b10c8");
    e.send("go depth 1 searchmoves b10c8");
    assert_eq!(e.best(), "bestmove (none)");
    e.send("quit");

    // Pinned: `1-10` from the start position with chuhe to move (where
    // `auto` has nothing to go on), and `0-9` refuses a 1-10 list.
    let mut e = Engine::handshake("uci");
    e.send("setoption name UseBook value false");
    e.send("setoption name Rank Numbering value 1-10");
    e.send("position startpos");
    e.send("go depth 4");
    answers_in_ranks_one_to_ten(&mut e, &position("startpos"));
    e.send("setoption name Rank Numbering value 0-9");
    diagnostic_says(
        &mut e,
        "position startpos moves h3e3",
        "info string",
        "move 1 'h3e3' is not legal",
    );
    e.send("go depth 2");
    assert_eq!(e.best(), "bestmove (none)");
    diagnostic_says(
        &mut e,
        "position startpos moves h2e2 h10g8",
        "info string",
        "move 2 'h10g8' is not a move in ranks 0-9",
    );
    e.send("quit");
}

#[test]
fn uci_hosts_that_number_ranks_zero_to_nine() {
    // `auto` keeps 0-9 for a list that reads both ways, and for 0-9 hosts.
    let mut e = Engine::handshake("uci");
    e.send("setoption name UseBook value false");
    e.send("position startpos moves h2e2 h9g7 h0g2");
    e.send("go depth 5");
    let lines = e.until("bestmove", is_answer);
    let pos = position("startpos moves h2e2 h9g7 h0g2");
    for l in &lines {
        let words: Vec<&str> = l.split_whitespace().collect();
        if let Some(at) = words.iter().position(|w| *w == "pv") {
            let mut p = pos.clone();
            chuhe::replay::replay(
                &mut p,
                words[at + 1..].iter().copied(),
                chuhe::replay::Accept::Iccs,
            )
            .unwrap_or_else(|e| panic!("{l}: {e}"));
        }
    }
    legal_best(&pos, lines.last().unwrap());
    // UCCI is 0-9 by definition: `auto` never switches there.
    let mut e = Engine::handshake("ucci");
    diagnostic_says(
        &mut e,
        "position startpos moves h3e3",
        "info message",
        "position rejected",
    );
    e.send("go depth 2");
    assert_eq!(e.best(), "nobestmove");
}

#[test]
fn a_rule_result_is_not_reported_as_mate() {
    // Red has checked on i9/i8 while Black's king stepped e8/e9: checking
    // again completes a cycle of nothing but checks, which loses for Red by
    // the perpetual-check rule. Hosts must not read that as a mate (UCI2WB
    // turns `score mate` into a mate claim that XBoard's referee rejects).
    let game = "fen 8R/4k4/9/9/9/9/9/9/9/3K5 w moves i9i8 e8e9 i8i9 e9e8";
    let loss = chuhe::types::RULE_WIN - 1;
    for (dialect, score) in [
        ("uci", format!("score cp -{loss} ")),
        ("ucci", format!("score -{loss} ")),
    ] {
        let mut e = Engine::handshake(dialect);
        e.send(&format!("position {game}"));
        e.send("go depth 6 searchmoves i9i8");
        let lines = e.until("bestmove", is_answer);
        assert!(lines.iter().any(|l| l.contains(&score)), "{lines:?}");
        assert!(!lines.iter().any(|l| l.contains("mate")), "{lines:?}");
        e.send("quit");
    }
}

#[test]
fn bad_go_values_still_get_a_move() {
    for dialect in ["ucci", "uci"] {
        let mut e = Engine::handshake(dialect);
        for go in [
            "go depth -1",
            "go depth abc",
            "go nodes -5",
            "go movetime xyz",
            "go depth",
            "go time -100 increment -5",
        ] {
            e.send(go);
            let lines = e.until("bestmove", is_answer);
            legal_best(&position(START), lines.last().unwrap());
            if go != "go time -100 increment -5" {
                assert!(
                    lines
                        .iter()
                        .any(|l| l.starts_with("info message go:")
                            || l.starts_with("info string go:")),
                    "{go}: {lines:?}"
                );
            }
        }
        e.isready();
    }
}

#[test]
fn go_before_position_and_go_while_searching() {
    let mut e = Engine::handshake("ucci");
    e.send("go depth 3");
    legal_best(&position(START), &e.best());
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    // The first search answers for the start position, the second after h2e2.
    let first = e.best();
    legal_best(&position(START), &first);
    let second = e.best();
    legal_best(&position("startpos moves h2e2"), &second);
}

#[test]
fn batch_mode_holds_input_until_the_answer() {
    let mut e = Engine::handshake("ucci");
    e.send("setoption batch true");
    e.send("position startpos");
    e.send("go depth 6");
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    let first = e.best();
    legal_best(&position(START), &first);
    legal_best(&position("startpos moves h2e2"), &e.best());
    assert!(!e.seen.iter().any(|l| l.contains("go while searching")));
}

// -------------------------------------------------------------------------
// Pipes

#[test]
fn piped_analysis_prints_the_search_and_a_move() {
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "printf 'position fen {fen}\\ngo depth 8\\n' | {BIN}"
        ))
        .output()
        .expect("running sh");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 8 ")),
        "{text}"
    );
    let best = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
    legal_best(&position(&format!("fen {fen}")), best);
    assert_eq!(lines.last(), Some(&"bye"));

    // `go infinite` at the end of input is stopped at once.
    let started = Instant::now();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "printf 'uci\\nposition startpos\\ngo infinite\\n' | {BIN}"
        ))
        .output()
        .expect("running sh");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
    assert!(started.elapsed() < secs(10));
}

#[test]
fn end_of_input_mid_search_answers_then_exits() {
    let mut e = Engine::handshake("ucci");
    e.send("go depth 7");
    e.close_input();
    legal_best(&position(START), &e.best());
    e.expect("bye");
    assert!(e.wait_exit(secs(10)).expect("exits").success());
}

// -------------------------------------------------------------------------

trait QuietAnswers {
    /// Lines may arrive, but no `bestmove` within `quiet`.
    fn assert_silent_of_answers(&mut self, quiet: Duration);
}

impl QuietAnswers for Engine {
    fn assert_silent_of_answers(&mut self, quiet: Duration) {
        let deadline = Instant::now() + quiet;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            match self.next_line(left) {
                Some((_, l)) => assert!(!is_answer(&l), "early answer {l:?}"),
                None => return,
            }
        }
    }
}

#[test]
fn the_embedded_book_answers_at_once_in_both_dialects() {
    for (dialect, info) in [
        ("ucci", "info message book move"),
        ("uci", "info string book move"),
    ] {
        let mut e = Engine::handshake(dialect);
        e.send("position startpos");
        // A long clock: only the book can answer this quickly.
        e.send("go wtime 3600000 btime 3600000 winc 30000 binc 30000");
        let asked = Instant::now();
        let (lines, at) = e.until_at("bestmove", is_answer);
        let book = lines
            .iter()
            .find(|l| l.starts_with(info))
            .expect("a book line");
        let mv = book.split_whitespace().nth(4).unwrap().to_string();
        assert!(lines.last().unwrap().starts_with(&format!("bestmove {mv}")));
        assert!(
            at.duration_since(asked) < secs(2),
            "{dialect}: book move took too long"
        );
        legal_best(&position("startpos"), lines.last().unwrap());
        // With the book off the same request searches.
        set_option(&mut e, dialect, "usebook", "OwnBook", "false");
        e.send("go depth 4");
        let lines = e.until("bestmove", is_answer);
        assert!(lines.iter().all(|l| !l.contains("book move")));
        assert!(lines.iter().any(|l| l.starts_with("info depth")));
    }
}

#[test]
fn network_options_switch_the_evaluation_and_bad_files_change_nothing() {
    let dir = std::env::temp_dir();
    let pid = std::process::id();
    let missing = dir.join(format!("chuhe-missing-{pid}.nnue"));
    let truncated = dir.join(format!("chuhe-truncated-{pid}.nnue"));
    let wrong = dir.join(format!("chuhe-wrong-{pid}.nnue"));
    let good = dir.join(format!("chuhe-good-{pid}.nnue"));
    let net = chuhe::nnue::embedded().to_bytes();
    std::fs::write(&truncated, &net[..net.len() / 2]).unwrap();
    let mut other = net.clone();
    other[12] ^= 1; // another hidden-layer size in the header
    std::fs::write(&wrong, &other).unwrap();
    std::fs::write(&good, &net).unwrap();
    for (dialect, diag, set) in [
        ("ucci", "info message", "setoption evalfile"),
        ("uci", "info string", "setoption name EvalFile value"),
    ] {
        let mut e = Engine::handshake(dialect);
        set_option(&mut e, dialect, "usennue", "Use NNUE", "true");
        e.send("eval");
        let l = e.until("evaluation line", |l| l.starts_with("evaluation: "));
        assert!(
            l.last()
                .unwrap()
                .starts_with("evaluation: NNUE, network <embedded>"),
            "{l:?}"
        );
        for (path, why) in [
            (&missing, "No such file"),
            (&truncated, "truncated"),
            (&wrong, "wrong architecture"),
        ] {
            e.send(&format!("{set} {}", path.display()));
            let l = e.until("diagnostic", |l| l.starts_with(diag));
            let text = l.last().unwrap();
            assert!(
                text.contains(why) && text.contains("still using network <embedded>"),
                "{text}"
            );
            e.isready();
        }
        // Still the embedded network, still searching.
        e.send("eval");
        let l = e.until("evaluation line", |l| l.starts_with("evaluation: "));
        assert!(l.last().unwrap().contains("network <embedded>"), "{l:?}");
        e.send(&format!("{set} {}", good.display()));
        e.send("eval");
        let l = e.until("evaluation line", |l| l.starts_with("evaluation: "));
        assert!(
            l.last().unwrap().contains(&good.display().to_string()),
            "{l:?}"
        );
        set_option(&mut e, dialect, "usennue", "Use NNUE", "false");
        e.send("eval");
        let l = e.until("evaluation line", |l| l.starts_with("evaluation: "));
        assert!(
            l.last().unwrap().starts_with("evaluation: classical"),
            "{l:?}"
        );
        e.send("position startpos moves h2e2");
        e.send("go depth 5");
        legal_best(&position("startpos moves h2e2"), &e.best());
    }
    for p in [truncated, wrong, good] {
        let _ = std::fs::remove_file(p);
    }
}

// -------------------------------------------------------------------------
// UCI_Variant, UCI_ShowWDL, strength levels

#[test]
fn uci_variant_is_xiangqi_only() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect("uciok");
    assert!(
        lines.contains(
            &"option name UCI_Variant type combo default xiangqi var xiangqi".to_string()
        ),
        "{lines:?}"
    );
    e.send("setoption name UCI_Variant value xiangqi");
    e.isready();
    e.send("setoption name UCI_Variant value chess");
    let lines = e.until("diagnostic", |l| l.starts_with("info string"));
    assert!(lines.last().unwrap().contains("xiangqi only"), "{lines:?}");
}

#[test]
fn show_wdl_adds_chances_to_info_lines() {
    for (dialect, set) in [
        ("uci", "setoption name UCI_ShowWDL value true"),
        ("ucci", "setoption showwdl true"),
    ] {
        let mut e = Engine::handshake(dialect);
        e.send("setoption usebook false");
        e.send(&format!("position {WINNING}"));
        e.send("go depth 6");
        let lines = e.until("bestmove", is_answer);
        assert!(lines.iter().all(|l| !l.contains(" wdl ")), "off by default");
        e.send(set);
        e.send("go depth 6");
        let lines = e.until("bestmove", is_answer);
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert!(!infos.is_empty());
        for l in &infos {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|&x| x == "wdl").expect(l);
            let wdl: Vec<i64> = words[at + 1..at + 4]
                .iter()
                .map(|x| x.parse().unwrap())
                .collect();
            assert_eq!(wdl.iter().sum::<i64>(), 1000, "{l}");
            // Right after the score (and its bound), as Stockfish prints it.
            assert!(words[..at].contains(&"score"), "{l}");
        }
        // A chariot up: Red is clearly winning.
        let last = infos.last().unwrap();
        assert!(field(last, "wdl").unwrap() > 800, "{last}");
    }
}

#[test]
fn strength_options_in_both_dialects() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect("uciok");
    for o in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_ShowWDL type check default false",
    ] {
        assert!(lines.contains(&o.to_string()), "{o}: {lines:?}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Elo type spin default "))
    );
    e.send("ucci");
    let lines = e.expect("ucciok");
    for o in [
        "option skilllevel ",
        "option limitstrength ",
        "option elo ",
        "option showwdl ",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(o)), "{o}: {lines:?}");
    }
    // A weakened search still answers with a legal move, at once.
    e.send("setoption skilllevel 0");
    e.send("setoption usebook false");
    e.send("position startpos moves h2e2");
    e.send("go time 60000 increment 0");
    let mut pos = position("startpos moves h2e2");
    let m = legal_best(&pos, &e.best());
    pos.make_move(m);
    e.send("setoption skilllevel 20");
    e.send("setoption limitstrength true");
    e.send("setoption elo 1500");
    e.send("go depth 30");
    legal_best(&position("startpos moves h2e2"), &e.best());
}
