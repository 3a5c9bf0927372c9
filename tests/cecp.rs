//! The CECP dialect driven over pipes the way XBoard drives an engine:
//! the handshake, games with chuhe on either side, clocks, pondering,
//! analysis, take-backs, options, result claims, and bad input. These
//! transcripts find in seconds, without a display, what
//! `scripts/xboard-check.sh` proves in a real XBoard window.

mod common;

use chuhe::position::Position;
use chuhe::replay::{self, Accept};
use chuhe::types::Move;
use common::*;
use std::time::{Duration, Instant};

/// XBoard's start position for xiangqi (horses `H`, elephants `E`).
const XBOARD_START: &str = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1";
/// Black to move mates in one (a7d7).
const MATE_IN_ONE: &str = "4k4/9/r7r/9/9/9/9/9/3K5/9 b - - 0 1";
/// Red to move; after a7a8 nothing has been captured for 120 plies.
const MOVE_LIMIT: &str = "4k4/9/9/9/9/9/R8/9/9/3K5 w - - 119 80";

/// Starts chuhe and completes XBoard's handshake; returns the engine and
/// the `feature` lines.
fn xboard() -> (Engine, Vec<String>) {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let lines = e.expect("feature done=1");
    (e, lines)
}

/// What XBoard sends at the start of every game.
fn new_game(e: &mut Engine) {
    for l in [
        "new",
        "variant xiangqi",
        "random",
        "level 40 0:30 0",
        "post",
        "easy",
    ] {
        e.send(l);
    }
    e.send("option UseBook=0");
    ping(e, 1);
}

fn ping(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    e.expect(&format!("pong {n}"))
}

/// Reads up to chuhe's next `move` and returns the move, checked legal.
fn engine_move(e: &mut Engine, pos: &Position) -> (Move, Vec<String>) {
    let lines = e.until("move", |l| l.starts_with("move "));
    let m = engine_move_line(pos, lines.last().unwrap());
    (m, lines)
}

/// The move of a `move <m>` line, checked legal in `pos`.
fn engine_move_line(pos: &Position, line: &str) -> Move {
    let word = line
        .strip_prefix("move ")
        .unwrap_or_else(|| panic!("not a move line: {line:?}"));
    replay::read_move(pos, word, Accept::Iccs)
        .unwrap_or_else(|e| panic!("{line} in {}: {e}", pos.to_fen()))
}

fn is_thinking(l: &str) -> bool {
    let f: Vec<&str> = l.split_whitespace().collect();
    f.len() >= 5 && f[..4].iter().all(|t| t.parse::<i64>().is_ok())
}

fn first_legal(pos: &Position) -> Move {
    *chuhe::movegen::legal_moves(pos).iter().next().unwrap()
}

#[test]
fn handshake_announces_the_features_xboard_needs() {
    let mut e = Engine::start();
    e.send("xboard");
    e.assert_silent(Duration::from_millis(200));
    let start = Instant::now();
    e.send("protover 2");
    let lines = e.expect("feature done=1");
    assert!(start.elapsed() < Duration::from_secs(5));
    let first = &lines[0];
    for f in [
        "myname=\"chuhe ",
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "time=1",
        "memory=1",
        "smp=1",
        "colors=0",
        "sigint=0",
        "analyze=1",
        "playother=1",
    ] {
        assert!(first.contains(f), "{f} missing: {first}");
    }
    let options: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("feature option="))
        .collect();
    for o in [
        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"UCI_LimitStrength -check 0\"",
        "feature option=\"Clear Hash -button\"",
        "feature option=\"Style -combo solid /// *normal /// risky\"",
    ] {
        assert!(options.iter().any(|l| l.as_str() == o), "{o}: {options:?}");
    }
    // XBoard's own commands stand for these.
    assert!(
        options
            .iter()
            .all(|l| !l.contains("\"Hash ") && !l.contains("Threads"))
    );
    assert_eq!(lines.last().unwrap(), "feature done=1");
    e.send("accepted usermove");
    e.send("rejected pause");
    ping(&mut e, 7);
}

#[test]
fn a_game_as_black_then_as_red() {
    let (mut e, _) = xboard();
    new_game(&mut e);
    let mut pos = Position::startpos();
    // chuhe plays Black: it answers each of our moves.
    for ply in 0..6 {
        let ours = first_legal(&pos);
        e.send("time 3000");
        e.send("otim 3000");
        e.send(&format!("usermove {ours}"));
        pos.make_move(ours);
        let (m, lines) = engine_move(&mut e, &pos);
        pos.make_move(m);
        let thinking: Vec<&String> = lines.iter().filter(|l| is_thinking(l)).collect();
        assert!(!thinking.is_empty(), "post is on, ply {ply}: {lines:?}");
        for l in thinking {
            let pv = l.split_whitespace().nth(4).unwrap();
            assert!(
                Move::parse(pv.trim_end_matches(['!', '?'])).is_some(),
                "{l}"
            );
        }
        assert!(
            lines
                .iter()
                .all(|l| is_thinking(l) || l.starts_with("move ")),
            "{lines:?}"
        );
    }
    // XBoard ends the game, then starts another with chuhe as Red.
    e.send("result 1/2-1/2 {Game drawn by agreement}");
    e.send("force");
    new_game(&mut e);
    e.send("nopost");
    let mut pos = Position::startpos();
    e.send("time 3000");
    e.send("otim 3000");
    e.send("go");
    let (m, lines) = engine_move(&mut e, &pos);
    assert!(lines.iter().all(|l| !is_thinking(l)), "nopost: {lines:?}");
    pos.make_move(m);
    let reply = first_legal(&pos);
    e.send(&format!("usermove {reply}"));
    pos.make_move(reply);
    let (m, _) = engine_move(&mut e, &pos);
    pos.make_move(m);
    // Bare moves (protocol 1 style) are understood too.
    let reply = first_legal(&pos);
    e.send(&reply.to_string());
    pos.make_move(reply);
    engine_move(&mut e, &pos);
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(10)).is_some());
}

#[test]
fn illegal_moves_and_bad_lines() {
    let (mut e, _) = xboard();
    new_game(&mut e);
    e.send("force");
    e.send("usermove h2h8");
    e.expect("Illegal move: h2h8");
    e.send("usermove z0z1");
    e.expect("Illegal move: z0z1");
    e.send("usermove");
    let l = e.until("error", |l| l.starts_with("Error"));
    assert_eq!(
        l.last().unwrap(),
        "Error (usermove takes one move): usermove"
    );
    for (line, reason) in [
        ("frobnicate 3", "unknown command"),
        ("variant chess", "variant not supported"),
        ("level 40", "level takes MPS BASE INC"),
        ("level x y z", "level takes MPS BASE INC"),
        ("st -3", "st takes a number of seconds"),
        ("sd 0", "sd takes a depth of 1 or more"),
        ("time abc", "takes centiseconds"),
        ("memory 0", "takes a number of 1 or more"),
        ("option NoSuchOption=3", "unknown option"),
        (
            "option Skill Level=99",
            "option skilllevel: '99' is out of range 0..20",
        ),
        ("undo", "no move to take back"),
        ("exit", "command not legal now"),
        ("edit", "command not supported"),
    ] {
        e.send(line);
        let got = e.until("error", |l| l.starts_with("Error"));
        assert_eq!(got.last().unwrap(), &format!("Error ({reason}): {line}"));
    }
    // A bad setboard: refused, and moves stay illegal until a good one.
    e.send("setboard 9/9/9 w");
    let got = e.until("tellusererror", |l| l.starts_with("tellusererror"));
    assert!(got[0].starts_with("Error (illegal position: "), "{got:?}");
    e.send("usermove h2e2");
    e.expect("Illegal move: h2e2");
    e.send(&format!("setboard {XBOARD_START}"));
    e.send("usermove h2e2");
    // Nothing changed for bad input: the game goes on from here.
    ping(&mut e, 2);
    e.send("go");
    let mut pos = Position::startpos();
    pos.make_move(Move::parse("h2e2").unwrap());
    engine_move(&mut e, &pos);
    // Garbage bytes never break the session.
    e.send_bytes(b"\xff\xfe\x00\x01usermove \x80\n");
    e.send(&"x".repeat(100_000));
    ping(&mut e, 3);
}

#[test]
fn results_are_claimed_by_the_rules() {
    let (mut e, _) = xboard();
    new_game(&mut e);
    // chuhe mates: the move, then the claim.
    e.send("force");
    e.send(&format!("setboard {MATE_IN_ONE}"));
    e.send("go");
    let lines = e.until("result", |l| l.starts_with("0-1"));
    let n = lines.len();
    let pos = Position::from_fen(MATE_IN_ONE).unwrap();
    engine_move_line(&pos, &lines[n - 2]);
    assert_eq!(lines[n - 1], "0-1 {Black mates}");
    // The opponent's move ends the game: claimed at once, no move.
    e.send("new");
    e.send("force");
    e.send("setboard 4k4/9/r7r/9/9/9/9/9/3K5/9 b - - 0 1");
    e.send("playother");
    e.send("usermove a7d7");
    e.expect("0-1 {Black mates}");
    ping(&mut e, 2);
    // The natural move limit (120 plies without a capture).
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {MOVE_LIMIT}"));
    e.send("playother");
    e.send("usermove a3a4");
    e.expect("1/2-1/2 {Draw by the natural move limit}");
    // A perpetual check by Red, chuhe playing Black: the third occurrence
    // loses for Red, but XBoard forfeits an engine that claims such a win
    // (it rules on perpetuals itself), so chuhe plays on without a claim.
    let checks = [
        "a1a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9",
    ];
    e.send("new");
    e.send("force");
    e.send("setboard 9/4k4/9/9/9/9/9/9/R8/3K5 w - - 0 1");
    for m in &checks[..8] {
        e.send(&format!("usermove {m}"));
    }
    e.send("playother");
    e.send("usermove a9a8");
    let lines = e.until("move", |l| l.starts_with("move "));
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("0-1") || l.starts_with("1-0")),
        "a win by the repetition rules was claimed: {lines:?}"
    );
    ping(&mut e, 3);
    // The same cycle with chuhe as Red, the side at fault, completed by
    // Black's move: chuhe concedes.
    e.send("new");
    e.send("force");
    e.send("setboard 9/4k4/9/9/9/9/9/9/R8/3K5 w - - 0 1");
    for m in &checks[..9] {
        e.send(&format!("usermove {m}"));
    }
    e.send("playother");
    e.send("usermove e8e9");
    e.expect("0-1 {Red loses by perpetual check}");
    ping(&mut e, 3);
}

#[test]
fn ping_waits_for_the_move_being_thought_about() {
    let (mut e, _) = xboard();
    new_game(&mut e);
    e.send("st 1");
    e.send("go");
    e.send("ping 5");
    let lines = e.expect("pong 5");
    let at = lines
        .iter()
        .position(|l| l.starts_with("move "))
        .expect("move before pong");
    assert_eq!(at, lines.len() - 2, "{lines:?}");
}

#[test]
fn move_now_and_force_cut_the_search() {
    let (mut e, _) = xboard();
    new_game(&mut e);
    e.send("level 40 60 0");
    e.send("time 360000");
    e.send("otim 360000");
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    e.send("?");
    engine_move(&mut e, &Position::startpos());
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );

    // force while thinking: no move ever comes for that search.
    e.send("new");
    e.send("option UseBook=0");
    e.send("time 360000");
    e.send("go");
    std::thread::sleep(Duration::from_millis(200));
    e.send("force");
    let lines = ping(&mut e, 9);
    assert!(lines.iter().all(|l| !l.starts_with("move ")), "{lines:?}");
    e.assert_silent_of_moves(Duration::from_millis(500));
}

#[test]
fn pondering_on_the_expected_reply() {
    let (mut e, _) = xboard();
    new_game(&mut e);
    e.send("hard");
    e.send("level 0 1 0");
    let mut pos = Position::startpos();
    e.send("time 6000");
    e.send("otim 6000");
    e.send("usermove h2e2");
    pos.make_move(Move::parse("h2e2").unwrap());
    let (m, _) = engine_move(&mut e, &pos);
    pos.make_move(m);
    e.send("hint");
    let hint = e.until("hint", |l| l.starts_with("Hint: ")).pop().unwrap();
    let predicted = Move::parse(&hint["Hint: ".len()..]).unwrap();
    assert!(pos.is_legal(predicted));
    // The predicted move: the ponder search becomes the move's search.
    std::thread::sleep(Duration::from_millis(300));
    e.send("time 6000");
    e.send("otim 6000");
    e.send(&format!("usermove {predicted}"));
    pos.make_move(predicted);
    let (m, _) = engine_move(&mut e, &pos);
    pos.make_move(m);
    // Another move: the ponder search is dropped, a new one plays.
    let other = chuhe::movegen::legal_moves(&pos)
        .iter()
        .copied()
        .find(|&x| {
            let mut after = pos.clone();
            after.make_move(x);
            chuhe::movegen::has_legal_move(&after)
        })
        .unwrap();
    e.send(&format!("usermove {other}"));
    pos.make_move(other);
    engine_move(&mut e, &pos);
    e.send("easy");
    e.send("force");
    ping(&mut e, 4);
}

#[test]
fn analyze_mode_follows_the_board() {
    let (mut e, _) = xboard();
    new_game(&mut e);
    e.send("force");
    e.send("post");
    e.send("analyze");
    let lines = e.until("thinking", |l| is_thinking(l) && l.starts_with("3 "));
    assert!(lines.iter().all(|l| !l.starts_with("move ")));
    e.send("usermove h2e2");
    e.send(".");
    let stat = e
        .until("stat01", |l| l.starts_with("stat01: "))
        .pop()
        .unwrap();
    let fields: Vec<&str> = stat.split_whitespace().collect();
    assert!(fields.len() >= 6, "{stat}");
    assert!(
        fields[1..6].iter().all(|f| f.parse::<u64>().is_ok()),
        "{stat}"
    );
    e.send("undo");
    e.send(&format!("setboard {XBOARD_START}"));
    e.send("new");
    e.send("exit");
    let lines = ping(&mut e, 6);
    assert!(lines.iter().all(|l| !l.starts_with("move ")), "{lines:?}");
    e.assert_silent_of_moves(Duration::from_millis(300));
}

#[test]
fn take_backs_options_and_limits() {
    let (mut e, _) = xboard();
    new_game(&mut e);
    e.send("force");
    for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("undo");
    e.send("remove");
    // Two moves back and one more: h2e2 stands; Black to move.
    e.send("memory 32");
    e.send("cores 1");
    e.send("option Skill Level=3");
    e.send("option UCI_LimitStrength=1");
    e.send("option UCI_Elo=1500");
    e.send("option Clear Hash");
    e.send("option Style=risky");
    e.send("sd 3");
    e.send("nps 20000");
    e.send("st 1");
    ping(&mut e, 1);
    e.send("go");
    let mut pos = Position::startpos();
    pos.make_move(Move::parse("h2e2").unwrap());
    let (_, lines) = engine_move(&mut e, &pos);
    let depths: Vec<i64> = lines
        .iter()
        .filter(|l| is_thinking(l))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert!(depths.iter().all(|&d| d <= 3), "sd 3: {lines:?}");
    // `uci` switches dialect mid-session.
    e.send("uci");
    e.expect("uciok");
}

impl Engine {
    /// Asserts no `move` line arrives within `quiet`.
    fn assert_silent_of_moves(&mut self, quiet: Duration) {
        let deadline = Instant::now() + quiet;
        while let Some((_, l)) = self.next_line(deadline.saturating_duration_since(Instant::now()))
        {
            assert!(!l.starts_with("move "), "unexpected {l:?}");
        }
    }
}
