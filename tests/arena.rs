//! Match runner tests against fake engines (tests/engines/fake.sh, run by
//! /bin/sh) that shuffle, play illegal moves, crash, hang or overstep their
//! clock, and a short chuhe-vs-chuhe match.

#![cfg(unix)]

mod shared_data;

use chuhe::arena::cli::MatchArgs;
use chuhe::arena::{self, MatchConfig, MatchSummary};
use clap::Parser;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: MatchArgs,
}

const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/fake.sh");

/// Engine tokens for a fake in `mode`.
fn fake(name: &str, mode: &str, arg: Option<&str>) -> Vec<String> {
    let mut v = vec![
        "--engine".to_string(),
        "cmd=/bin/sh".into(),
        format!("arg={FAKE}"),
        format!("arg={mode}"),
        format!("name={name}"),
    ];
    if let Some(a) = arg {
        v.push(format!("arg={a}"));
    }
    v
}

fn temp_path(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("chuhe-arena-{}-{tag}-{n}", std::process::id()))
}

fn config(engines: &[Vec<String>], options: &str) -> MatchConfig {
    let mut argv = vec!["match".to_string()];
    for e in engines {
        argv.extend(e.iter().cloned());
    }
    argv.extend(options.split_whitespace().map(str::to_string));
    let cli = Cli::try_parse_from(&argv).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
    cli.args.to_config().unwrap()
}

/// Runs a match from the start position with a PGN file; returns the
/// summary and the PGN text.
fn run(engines: &[Vec<String>], options: &str) -> (MatchSummary, String) {
    let pgn = temp_path("pgn");
    let options = format!(
        "--openings startpos --openings-order sequential --pgn {} {options}",
        pgn.display()
    );
    let summary = arena::run(config(engines, &options)).unwrap();
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let _ = std::fs::remove_file(&pgn);
    (summary, text)
}

fn ended(s: &MatchSummary, how: &str) -> u32 {
    s.terminations.get(how).copied().unwrap_or(0)
}

#[test]
fn shufflers_draw_by_repetition() {
    let (s, pgn) = run(
        &[fake("a", "shuffle", None), fake("b", "shuffle", None)],
        "--games 2 --depth 3",
    );
    let p = &s.pairings[0];
    assert_eq!((p.wdl.wins, p.wdl.draws, p.wdl.losses), (0, 2, 0));
    assert_eq!(p.penta.0, [0, 0, 1, 0, 0]);
    assert_eq!(ended(&s, "repetition"), 2, "{:?}", s.terminations);
    assert_eq!(pgn.matches("[Result \"1/2-1/2\"]").count(), 2);
    // The third occurrence of the start position comes after eight plies.
    assert!(pgn.contains("[PlyCount \"8\"]"), "{pgn}");
    assert!(pgn.contains("[Red \"a\"]") && pgn.contains("[Red \"b\"]"));
}

#[test]
fn illegal_move_loses_and_is_logged() {
    let (s, pgn) = run(
        &[fake("good", "shuffle", None), fake("bad", "illegal", None)],
        "--games 2 --depth 3",
    );
    let p = &s.pairings[0];
    assert_eq!((p.wdl.wins, p.wdl.draws, p.wdl.losses), (2, 0, 0));
    assert_eq!(s.tallies[1].illegal_moves, 2);
    assert_eq!(s.tallies[0].illegal_moves, 0);
    assert_eq!(ended(&s, "illegal move"), 2);
    // As Red it tries a0a5 at once; as Black a9a5 after Red's first move.
    assert!(
        pgn.contains(
            "illegal move 'a0a5' in rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
        ),
        "{pgn}"
    );
    assert!(pgn.contains("illegal move 'a9a5'"), "{pgn}");
    assert!(pgn.contains("cannot move to a5"), "{pgn}");
    assert!(pgn.contains("[Termination \"illegal move\"]"));
}

#[test]
fn no_move_loses() {
    let (s, pgn) = run(
        &[fake("none", "none", None), fake("good", "shuffle", None)],
        "--games 2 --depth 3",
    );
    assert_eq!(s.pairings[0].wdl.losses, 2);
    assert_eq!(s.tallies[0].illegal_moves, 2);
    assert_eq!(ended(&s, "no move"), 2, "{:?}", s.terminations);
    assert!(pgn.contains("gave no move in rnbakabnr/"), "{pgn}");
}

#[test]
fn silent_engine_loses_on_time_and_is_restarted() {
    let (s, pgn) = run(
        &[
            fake("good", "shuffle", None),
            fake("silent", "silent", None),
        ],
        "--games 2 --tc 0.3+0",
    );
    let p = &s.pairings[0];
    assert_eq!((p.wdl.wins, p.wdl.losses), (2, 0));
    assert_eq!(s.tallies[1].hangs, 2);
    assert_eq!(s.tallies[1].time_losses, 2);
    assert_eq!(ended(&s, "time forfeit"), 2);
    assert!(pgn.contains("nor after stop: restarted"), "{pgn}");
}

#[test]
fn silent_engine_without_clock_hits_the_hang_timeout() {
    let (s, _) = run(
        &[
            fake("silent", "silent", None),
            fake("good", "shuffle", None),
        ],
        "--games 1 --depth 5 --hang-timeout 1",
    );
    assert_eq!(s.pairings[0].wdl.losses, 1);
    assert_eq!(s.tallies[0].hangs, 1);
}

#[test]
fn crash_mid_game_loses_and_the_engine_restarts() {
    // The crasher exits on its second `go` of each process: it plays one
    // move, then dies; restarted, it does the same in the next game.
    let (s, pgn) = run(
        &[
            fake("crasher", "crash", Some("2")),
            fake("good", "shuffle", None),
        ],
        "--games 2 --depth 3",
    );
    let p = &s.pairings[0];
    assert_eq!((p.wdl.wins, p.wdl.losses), (0, 2));
    assert_eq!(s.tallies[0].crashes, 2);
    assert_eq!(ended(&s, "engine crash"), 2);
    assert!(pgn.contains("crashed"), "{pgn}");
    // Each game has the crasher's one move (and the opponent's).
    assert!(pgn.contains("1. a0a1"), "{pgn}");
}

#[test]
fn slow_engine_flags() {
    // 700 ms per move on a 300 ms clock (+100 ms grace): it answers the
    // `stop`, so it is a time loss but not a hang.
    let (s, pgn) = run(
        &[
            fake("slow", "slow", Some("700")),
            fake("good", "shuffle", None),
        ],
        "--games 2 --tc 0.3+0",
    );
    assert_eq!(s.pairings[0].wdl.losses, 2);
    assert_eq!(s.tallies[0].time_losses, 2);
    assert_eq!(s.tallies[0].hangs, 0);
    assert_eq!(s.tallies[1].time_losses, 0);
    assert!(pgn.contains("[Termination \"time forfeit\"]"));
    // The good engine started with 300 ms and no increment.
    let lowest = s.tallies[1]
        .lowest_clock_ms
        .expect("a clocked game has clock figures");
    assert!((0..=300).contains(&lowest), "{lowest}");
}

#[test]
fn thinking_time_is_charged_to_the_engine_that_moved() {
    // After the one-move opening Black moves first, so a side count
    // started from Red would credit each engine with the other's moves.
    // The slow engine sleeps 300 ms a move, the shuffler answers at once.
    let book = temp_path("fen");
    std::fs::write(
        &book,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1|h2e2\n",
    )
    .unwrap();
    let engines = [
        fake("slow", "slow", Some("300")),
        fake("quick", "shuffle", None),
    ];
    let options = format!(
        "--games 2 --movetime 1000 --grace 2000 --openings {}",
        book.display()
    );
    let s = arena::run(config(&engines, &options)).unwrap();
    let _ = std::fs::remove_file(&book);
    let (slow, quick) = (&s.tallies[0], &s.tallies[1]);
    assert!(slow.moves > 0 && quick.moves > 0, "{:?}", s.tallies);
    let (slow_ms, quick_ms) = (slow.ms_per_move().unwrap(), quick.ms_per_move().unwrap());
    assert!(slow_ms >= 300.0, "slow {slow_ms} ms/move");
    assert!(quick_ms < 300.0, "quick {quick_ms} ms/move");
    // A fixed move time is no clock.
    assert_eq!(slow.lowest_clock_ms, None);
    assert!(s.report().contains("ms/move"), "{}", s.report());
    // The depth each engine reported (the fake says 1 when slow, 3 else),
    // averaged over its own moves only.
    assert_eq!(slow.mean_depth(), Some(1.0));
    assert_eq!(quick.mean_depth(), Some(3.0));
    assert!(s.report().contains("depth 3.0"), "{}", s.report());
}

#[test]
fn slow_reply_inside_the_grace_is_accepted() {
    // 150 ms per move with a fixed 100 ms per move: 50 ms late, inside the
    // grace. The grace is wide (2 s) because the fake engine starts `awk`
    // and `sleep` for every reply, which on a loaded machine can take
    // hundreds of milliseconds; what is tested is that lateness inside the
    // grace is forgiven, not how tight the grace is.
    let (s, _) = run(
        &[
            fake("slow", "slow", Some("150")),
            fake("good", "shuffle", None),
        ],
        "--games 2 --movetime 100 --grace 2000",
    );
    assert_eq!(s.pairings[0].wdl.draws, 2, "{:?}", s.terminations);
    assert_eq!(s.tallies[0].time_losses, 0);
}

#[test]
fn resignation_loses() {
    let (s, _) = run(
        &[
            fake("quitter", "resign", None),
            fake("good", "shuffle", None),
        ],
        "--games 2 --depth 2",
    );
    assert_eq!(s.pairings[0].wdl.losses, 2);
    assert_eq!(ended(&s, "resignation"), 2);
}

#[test]
fn score_adjudication_is_off_by_default_and_works_when_asked() {
    let engines = [
        fake("up", "scored", Some("800")),
        fake("down", "scored", Some("-800")),
    ];
    // Off: the shufflers' repetition ends the game.
    let (s, _) = run(&engines, "--games 2 --depth 1");
    assert_eq!(ended(&s, "repetition"), 2, "{:?}", s.terminations);
    // Both agree for two moves each: the side at -800 loses.
    let (s, pgn) = run(
        &engines,
        "--games 2 --depth 1 --resign-score 500 --resign-moves 2",
    );
    assert_eq!(ended(&s, "adjudication: score"), 2, "{:?}", s.terminations);
    assert_eq!(s.pairings[0].wdl.wins, 2);
    assert!(pgn.contains("[PlyCount \"4\"]"), "{pgn}");
    // Draw adjudication from move 1, one score each within ±20.
    let quiet = [fake("a", "shuffle", None), fake("b", "shuffle", None)];
    let (s, _) = run(
        &quiet,
        "--games 2 --depth 1 --draw-score 20 --draw-moves-after 1 --draw-count 1",
    );
    assert_eq!(ended(&s, "adjudication: draw"), 2, "{:?}", s.terminations);
}

/// Both sides play `moves` from `fen`; returns the summary and the PGN.
fn scripted(fen: &str, moves: &str, options: &str) -> (MatchSummary, String) {
    let book = temp_path("fen");
    std::fs::write(&book, format!("{fen}|\n")).unwrap();
    let list = moves.split_whitespace().collect::<Vec<_>>().join(",");
    let engines = [
        fake("a", "script", Some(&list)),
        fake("b", "script", Some(&list)),
    ];
    let pgn = temp_path("pgn");
    let options = format!(
        "--games 1 --depth 1 --openings {} --pgn {} {options}",
        book.display(),
        pgn.display()
    );
    let summary = arena::run(config(&engines, &options)).unwrap();
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&book);
    (summary, text)
}

#[test]
fn referee_applies_the_rules() {
    // Red checks with the chariot on ranks 9 and 8 while the king steps
    // between e9 and e8: the third occurrence comes at ply 9, and the side
    // that checks every move loses.
    let (s, pgn) = scripted(
        "4k4/9/7R1/9/9/9/9/9/9/3K5 w - - 0 1",
        "h7h9 e9e8 h9h8 e8e9 h8h9 e9e8 h9h8 e8e9 h8h9 e9e8 h9h8",
        "",
    );
    assert_eq!(ended(&s, "perpetual check"), 1, "{:?}", s.terminations);
    assert!(
        pgn.contains("[Result \"0-1\"]") && pgn.contains("[PlyCount \"9\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[FEN \"4k4/9/7R1/9/9/9/9/9/9/3K5 w - - 0 1\"]"),
        "{pgn}"
    );

    let (s, pgn) = scripted("3k5/4P4/9/9/9/9/9/9/9/R4K3 w - - 0 1", "a0a9", "");
    assert_eq!(ended(&s, "checkmate"), 1, "{:?}", s.terminations);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");

    // Black, to move after the king step, has no move and is not in
    // check: stalemate loses.
    let (s, pgn) = scripted("3k5/4P4/9/9/9/9/9/9/9/5K3 w - - 0 1", "f0f1", "");
    assert_eq!(ended(&s, "stalemate"), 1, "{:?}", s.terminations);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");

    // Natural move limit, lowered to one move for the test.
    let (s, _) = scripted(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "a0a1 a9a8 a1a0 a8a9",
        "--draw-moves 1",
    );
    assert_eq!(ended(&s, "move limit"), 1, "{:?}", s.terminations);

    // Kings and advisors only: drawn before anyone moves.
    let (s, pgn) = scripted("4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1", "e0f0", "");
    assert_eq!(ended(&s, "dead material"), 1, "{:?}", s.terminations);
    assert!(pgn.contains("[PlyCount \"0\"]"), "{pgn}");
}

fn recorded(proto: &str, options: &str) -> String {
    let log = temp_path("rec");
    let mut rec = fake("rec", "record", Some(&log.to_string_lossy()));
    rec.extend([
        format!("proto={proto}"),
        "hash=32".into(),
        "threads=2".into(),
    ]);
    let _ = run(&[rec, fake("good", "shuffle", None)], options);
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    text
}

#[test]
fn ucci_dialect_on_the_wire() {
    let t = recorded("ucci", "--games 1 --tc 5+0.1");
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines[0], "ucci");
    for want in [
        "setoption usemillisec true",
        "setoption usebook false",
        "setoption threads 2",
        "setoption hashsize 32",
        "setoption newgame",
        "isready",
        "position startpos",
        "go time 5000 increment 100",
        "position startpos moves a0a1 a9a8",
        "position startpos moves a0a1 a9a8 a1a0 a8a9 a0a1 a9a8",
    ] {
        assert!(lines.contains(&want), "missing '{want}' in:\n{t}");
    }
    // The clock only goes down by what was used (plus the increment).
    let second = lines
        .iter()
        .filter(|l| l.starts_with("go time"))
        .nth(1)
        .unwrap();
    let ms: i64 = second.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(ms > 4000 && ms <= 5100, "{second}");
    assert_eq!(lines.last(), Some(&"quit"), "{t}");
}

#[test]
fn uci_dialect_on_the_wire() {
    let t = recorded("uci", "--games 1 --tc 40/5+0");
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines[0], "uci");
    for want in [
        "setoption name Hash value 32",
        "setoption name Threads value 2",
        "ucinewgame",
        "go wtime 5000 btime 5000 winc 0 binc 0 movestogo 40",
    ] {
        assert!(lines.contains(&want), "missing '{want}' in:\n{t}");
    }
    assert!(!t.contains("usebook"), "{t}");
}

#[test]
fn movetime_in_both_dialects() {
    let t = recorded("ucci", "--games 1 --movetime 250");
    assert!(t.lines().any(|l| l == "go time 250 movestogo 1"), "{t}");
    let t = recorded("uci", "--games 1 --movetime 250 --depth 9");
    assert!(t.lines().any(|l| l == "go movetime 250 depth 9"), "{t}");
}

#[test]
fn sprt_stops_the_match() {
    // The shuffler beats the illegal-move engine in every game, so H1
    // (+400 Elo or more) is accepted long before 200 games.
    let (s, _) = run(
        &[fake("good", "shuffle", None), fake("bad", "illegal", None)],
        "--games 200 --depth 1 --sprt elo0=0 elo1=400 alpha=0.05 beta=0.05",
    );
    let (_, llr, decision) = s.sprt.unwrap();
    assert_eq!(
        decision,
        Some(chuhe::arena::stats::Hypothesis::H1),
        "llr {llr}"
    );
    assert!(llr >= 2.94);
    assert!(s.games_played < 40, "{} games", s.games_played);
    assert_eq!(s.games_played % 2, 0);
    assert_eq!(s.pairings[0].penta.0[4] * 2, s.games_played);
    assert!(s.report().contains("H1 accepted"));
}

#[test]
fn gauntlet_with_concurrency() {
    let (s, pgn) = run(
        &[
            fake("hero", "shuffle", None),
            fake("bad", "illegal", None),
            fake("twin", "shuffle", None),
        ],
        "--games 4 --depth 2 --concurrency 2",
    );
    assert_eq!(s.pairings.len(), 2);
    assert_eq!(s.pairings[0].opponent, 1);
    assert_eq!(s.pairings[0].wdl.wins, 4);
    assert_eq!(s.pairings[1].opponent, 2);
    assert_eq!(s.pairings[1].wdl.draws, 4);
    assert_eq!(s.games_played, 8);
    assert_eq!(s.tallies[0].games, 8);
    assert_eq!(pgn.matches("[Event ").count(), 8);
}

#[test]
fn openings_file_is_used_and_validated() {
    let dir = temp_path("book");
    std::fs::write(&dir, "# two openings\n|h2e2 h9g7\n|c3c4\n").unwrap();
    // The fakes' chariot shuffle does not fit these openings; the games
    // end in a move or two. What is checked is the position sent.
    let log = temp_path("rec");
    let rec = fake("rec", "record", Some(&log.to_string_lossy()));
    let engines = [rec, fake("bad", "illegal", None)];
    let options = format!(
        "--games 4 --depth 1 --openings {} --openings-order sequential",
        dir.display()
    );
    let summary = arena::run(config(&engines, &options)).unwrap();
    assert_eq!(summary.games_played, 4);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("position startpos moves h2e2 h9g7"), "{text}");
    assert!(text.contains("position startpos moves c3c4"), "{text}");
    std::fs::write(&dir, "|h2e2 h2e3\n").unwrap();
    let mut argv = vec!["match".to_string()];
    argv.extend(fake("a", "shuffle", None));
    argv.extend(fake("b", "shuffle", None));
    argv.extend(["--depth", "1", "--openings"].map(String::from));
    argv.push(dir.display().to_string());
    let err = Cli::try_parse_from(&argv)
        .unwrap()
        .args
        .to_config()
        .unwrap_err();
    assert!(err.contains("h2e3"), "{err}");
    let _ = std::fs::remove_file(&dir);
    let _ = std::fs::remove_file(&log);
}

#[test]
fn fixed_node_matches_warn_when_openings_would_repeat() {
    let engines = [fake("a", "shuffle", None), fake("b", "shuffle", None)];
    let warns = |options: &str| arena::repeated_games_warning(&config(&engines, options));
    // The built-in suite has about a hundred lines: 200 pairs repeat them.
    assert!(warns("--games 400 --nodes 1000").is_some());
    assert!(warns("--games 400 --depth 6").is_some());
    assert!(warns("--games 100 --nodes 1000").is_none());
    // A clock, or more than one thread, varies the games.
    assert!(warns("--games 400 --tc 1+0.01").is_none());
    assert!(warns("--games 400 --nodes 1000 --each threads=2").is_none());
    // A wide enough suite does not repeat.
    let wide = concat!(env!("CARGO_MANIFEST_DIR"), "/book/openings-wide.txt");
    assert!(warns(&format!("--games 400 --nodes 1000 --openings {wide}")).is_none());
}

/// Fixed-depth games from one opening replay themselves: the merge finds
/// the second pair to be the first again and counts the distinct pairs.
#[test]
fn merge_finds_replayed_pairs() {
    let json = temp_path("replays.jsonl");
    let engines = [fake("a", "shuffle", None), fake("b", "shuffle", None)];
    let options = format!(
        "--openings startpos --games 6 --depth 3 --json {}",
        json.display()
    );
    arena::run(config(&engines, &options)).unwrap();
    let mut warnings = Vec::new();
    let read = arena::merge::read_files(std::slice::from_ref(&json), &mut warnings).unwrap();
    let merged = arena::merge::merge(read, None).unwrap();
    let _ = std::fs::remove_file(&json);
    assert_eq!(merged.summary.pairings[0].penta.pairs(), 3);
    assert_eq!(merged.replayed.len(), 2, "pairs 1 and 2 replay pair 0");
    let distinct = merged.distinct.expect("a summary of the distinct pairs");
    assert_eq!(distinct.pairings[0].penta.pairs(), 1);
    assert_eq!(distinct.games_played, 2);
    // A match whose pairs differ has no replays.
    let games: Vec<_> = merged.games.iter().take(2).cloned().collect();
    assert!(arena::merge::replayed_pairs(&games).is_empty());
}

#[test]
fn missing_engine_is_an_error_not_a_hang() {
    let engines = [
        vec!["--engine".to_string(), "cmd=/nonexistent/engine".into()],
        fake("good", "shuffle", None),
    ];
    let err = arena::run(config(&engines, "--games 2 --depth 1 --openings startpos")).unwrap_err();
    assert!(err.contains("/nonexistent/engine"), "{err}");
}

#[test]
fn command_line_prints_the_summary() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chuhe"));
    cmd.arg("match");
    cmd.args(fake("good", "shuffle", None));
    cmd.args(fake("bad", "illegal", None));
    cmd.args(["--games", "2", "--depth", "1", "--openings", "startpos"]);
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("good vs bad: 2 games, W 2 D 0 L 0 (100.0%)"),
        "{stdout}"
    );
    assert!(stdout.contains("LOS"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("illegal move"), "{stderr}");
    assert!(stderr.contains("[2/2]"), "{stderr}");
    // Errors exit with status 2 and say why.
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["match", "--engine", "cmd=x", "--depth", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("two --engine"));
}

/// No engine lost on time, moved illegally, crashed or hung.
fn assert_every_game_ended_by_the_rules(s: &MatchSummary) {
    for t in &s.tallies {
        assert_eq!(
            (t.time_losses, t.illegal_moves, t.crashes, t.hangs),
            (0, 0, 0, 0),
            "{}",
            s.report()
        );
    }
}

/// A short chuhe-vs-chuhe match at a fixed depth: every game must end by
/// the rules (no crash, hang, illegal move or time loss).
#[test]
fn chuhe_against_itself() {
    let bin = env!("CARGO_BIN_EXE_chuhe");
    let engines = [
        vec![
            "--engine".to_string(),
            format!("cmd={bin}"),
            "name=chuhe-a".into(),
            "hash=16".into(),
        ],
        vec![
            "--engine".to_string(),
            format!("cmd={bin}"),
            "name=chuhe-b".into(),
            "hash=16".into(),
        ],
    ];
    let pgn = temp_path("self");
    let options = format!(
        "--games 2 --depth 3 --openings-order sequential --draw-moves 30 --pgn {}",
        pgn.display()
    );
    let s = arena::run(config(&engines, &options)).unwrap();
    assert_eq!(s.games_played, 2);
    assert_every_game_ended_by_the_rules(&s);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let _ = std::fs::remove_file(&pgn);
    assert_eq!(text.matches("[Event ").count(), 2);
}

/// chuhe as a UCI engine that numbers ranks 1-10 (`ranks=1`) against one
/// that numbers them 0-9: `Rank Numbering auto` reads the host's numbering
/// from the opening's moves, a pinned `1-10` needs none. No illegal move.
#[test]
fn chuhe_in_both_rank_numberings() {
    let bin = env!("CARGO_BIN_EXE_chuhe");
    let engine = |name: &str, extra: &[&str]| -> Vec<String> {
        let mut e = vec![
            "--engine".to_string(),
            format!("cmd={bin}"),
            format!("name={name}"),
            "proto=uci".into(),
            "hash=16".into(),
        ];
        e.extend(extra.iter().map(|s| s.to_string()));
        e
    };
    let cases = [
        (
            engine("one-auto", &["ranks=1", "option.Rank Numbering=auto"]),
            "--games 24 --depth 2 --openings-order sequential",
        ),
        // From the start position `auto` has nothing to read when chuhe
        // has the first move: pinned, it needs nothing.
        (
            engine("one-pinned", &["ranks=1", "option.Rank Numbering=1-10"]),
            "--games 2 --depth 2 --openings startpos",
        ),
    ];
    for (one, options) in cases {
        let engines = [one, engine("zero", &[])];
        let s = arena::run(config(&engines, options)).unwrap();
        assert_every_game_ended_by_the_rules(&s);
    }
}

/// Runs `chuhe match` (the binary) with `args`; panics unless it succeeds;
/// returns stdout.
/// Runs the binary; returns its report without the timing lines, the
/// one part that differs between two plays of the same games.
fn chuhe(args: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    untimed(&String::from_utf8(out.stdout).unwrap())
}

fn untimed(report: &str) -> String {
    report
        .lines()
        .filter(|l| !l.starts_with(chuhe::arena::TIMING_PREFIX))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn records(path: &PathBuf) -> Vec<chuhe::arena::json::GameLine> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| chuhe::arena::json::GameLine::parse(l).unwrap())
        .collect()
}

/// `chuhe match merge a b` fails with usage status 2, saying `why`.
fn merge_is_refused(a: &PathBuf, b: &PathBuf, why: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(["match", "merge"])
        .arg(a)
        .arg(b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(why),
        "{out:?}"
    );
}

/// Shards of a chuhe-vs-chuhe match at a fixed node count play the
/// unsharded match's games, each once; merged, any way, they give its
/// summary, game for game.
#[test]
fn shards_merge_into_the_unsharded_match() {
    let bin = env!("CARGO_BIN_EXE_chuhe");
    let base: Vec<String> = format!(
        "match --engine cmd={bin} name=a --engine cmd={bin} name=b option.knowledge=medium \
         --each hash=8 --nodes 1500 --games 10 --seed 11 --draw-moves 30"
    )
    .split_whitespace()
    .map(String::from)
    .collect();
    let with = |extra: &[String]| -> Vec<String> { base.iter().chain(extra).cloned().collect() };
    let whole = temp_path("whole.jsonl");
    let whole_pgn = temp_path("whole.pgn");
    let whole_html = temp_path("whole.html");
    let report = chuhe(&with(&[
        "--concurrency".into(),
        "2".into(),
        "--json".into(),
        whole.display().to_string(),
        "--pgn".into(),
        whole_pgn.display().to_string(),
        "--report".into(),
        whole_html.display().to_string(),
    ]));
    let all = records(&whole);
    assert_eq!(all.len(), 10);
    // Three shards of five pairs: pairs 0 3 | 1 4 | 2.
    let mut parts = Vec::new();
    for k in 1..=3 {
        let part = temp_path(&format!("shard{k}.jsonl"));
        chuhe(&with(&[
            "--shard".into(),
            format!("{k}/3"),
            "--json".into(),
            part.display().to_string(),
        ]));
        let games = records(&part);
        let pairs: Vec<u32> = games.iter().map(|g| g.pair).collect();
        let want: Vec<u32> = (0..5).filter(|p| p % 3 == k - 1).collect();
        let mut got = pairs.clone();
        got.sort();
        got.dedup();
        assert_eq!(got, want, "shard {k}");
        assert_eq!(games.len(), 2 * want.len());
        for g in &games {
            assert_eq!(g.shard, [k, 3]);
            let twin = all.iter().find(|w| w.game == g.game).unwrap();
            assert!(twin.same_game(g), "game {} differs", g.game);
        }
        parts.push(part);
    }
    // Merged in any order, with a shard given twice and a line cut short
    // at the end of another, the summary is the unsharded one.
    let cut = temp_path("cut.jsonl");
    let mut text = std::fs::read_to_string(&parts[0]).unwrap();
    let half = std::fs::read_to_string(&parts[1]).unwrap();
    text.push_str(&half[..half.len() / 3]);
    std::fs::write(&cut, text).unwrap();
    let merged_pgn = temp_path("merged.pgn");
    let mut args: Vec<String> = vec!["match".into(), "merge".into()];
    for p in [&parts[2], &cut, &parts[1], &parts[0]] {
        args.push(p.display().to_string());
    }
    args.extend(["--pgn".into(), merged_pgn.display().to_string()]);
    assert_eq!(chuhe(&args), report);
    // The PGN has the same games (times aside), in game order.
    let pgn = std::fs::read_to_string(&merged_pgn).unwrap();
    let rounds: Vec<u32> = chuhe::record::pgn::parse_games(&pgn)
        .iter()
        .map(|g| g.tag("Round").unwrap().parse().unwrap())
        .collect();
    assert_eq!(rounds, (1..=10).collect::<Vec<u32>>());
    let whole_games =
        chuhe::record::pgn::parse_games(&std::fs::read_to_string(&whole_pgn).unwrap());
    let merged_games = chuhe::record::pgn::parse_games(&pgn);
    for g in &merged_games {
        let round = g.tag("Round");
        let w = whole_games
            .iter()
            .find(|w| w.tag("Round") == round)
            .unwrap();
        // Tags alike but the date (a run may cross midnight).
        let tags = |g: &chuhe::record::pgn::PgnGame| -> Vec<(String, String)> {
            g.tags
                .iter()
                .filter(|(k, _)| k != "Date")
                .cloned()
                .collect()
        };
        assert_eq!(tags(w), tags(g));
        assert_eq!(w.replay().unwrap().1, g.replay().unwrap().1);
    }
    // The match's page is the page `match report` makes of its records;
    // the shards' page has the same results.
    let page = std::fs::read_to_string(&whole_html).unwrap();
    let rebuilt = temp_path("rebuilt.html");
    let mut args: Vec<String> = vec!["match".into(), "report".into()];
    args.extend([whole.display().to_string(), "-o".into()]);
    args.push(rebuilt.display().to_string());
    chuhe(&args);
    assert!(
        page == std::fs::read_to_string(&rebuilt).unwrap(),
        "pages differ"
    );
    let mut args: Vec<String> = vec!["match".into(), "report".into(), "-o".into()];
    args.push(rebuilt.display().to_string());
    args.extend(parts.iter().map(|p| p.display().to_string()));
    chuhe(&args);
    let shards_page = std::fs::read_to_string(&rebuilt).unwrap();
    let results = |page: &str| -> String {
        let from = page.find("<section id=\"results\">").unwrap();
        page[from..from + page[from..].find("</section>").unwrap()].to_string()
    };
    assert_eq!(results(&page), results(&shards_page));
    assert!(shards_page.contains(" · 3 shards"));
    assert_eq!(shards_page.matches("<tr class=\"game\"").count(), 10);
    // A machine-readable status with the SPRT evaluated on the merge.
    let mut args: Vec<String> = vec!["match".into(), "merge".into(), "--status".into()];
    args.extend(["--sprt".into(), "elo1=10".into()]);
    args.extend(parts.iter().map(|p| p.display().to_string()));
    let status = chuhe(&args);
    assert!(status.contains("\"games\":10"), "{status}");
    assert!(status.contains("\"planned\":10"), "{status}");
    assert!(status.contains("\"llr\":"), "{status}");
    // Records of another match are refused.
    let other = temp_path("other.jsonl");
    std::fs::write(
        &other,
        std::fs::read_to_string(&whole)
            .unwrap()
            .replace("\"seed\":11", "\"seed\":12"),
    )
    .unwrap();
    merge_is_refused(&whole, &other, "another match");
    // So is a shard played with the engines set otherwise.
    let otherwise = temp_path("otherwise.jsonl");
    let text = std::fs::read_to_string(&parts[1]).unwrap();
    assert!(text.contains("option.knowledge=medium"), "{text}");
    std::fs::write(
        &otherwise,
        text.replace("option.knowledge=medium", "option.knowledge=low"),
    )
    .unwrap();
    merge_is_refused(&parts[0], &otherwise, "engine settings");
    for p in parts
        .iter()
        .chain([&whole, &whole_pgn, &cut, &merged_pgn, &other, &otherwise])
        .chain([&whole_html, &rebuilt])
    {
        let _ = std::fs::remove_file(p);
    }
}

/// A match stopped part-way (its record file cut in the middle of a line)
/// and resumed plays only the games it lacks and ends with the summary of
/// the match played in one go; a finished match resumes to its summary
/// without playing; records of another match, or of engines set otherwise,
/// are refused; records of an older chuhe, without settings, are trusted.
#[test]
fn resumed_match_plays_only_the_missing_games() {
    let bin = env!("CARGO_BIN_EXE_chuhe");
    let args = |seed: u32, json: &PathBuf| -> Vec<String> {
        format!(
            "match --engine cmd={bin} name=a --engine cmd={bin} name=b option.knowledge=medium \
             --each hash=8 --nodes 1500 --games 8 --seed {seed} --draw-moves 30 \
             --sprt elo0=0 elo1=5 --resume --json {}",
            json.display()
        )
        .split_whitespace()
        .map(String::from)
        .collect()
    };
    let whole = temp_path("resume-whole.jsonl");
    // No file yet: --resume starts the match.
    let report = chuhe(&args(5, &whole));
    let all = records(&whole);
    assert_eq!(all.len(), 8);

    let part = temp_path("resume-part.jsonl");
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let kept = format!("{}\n", lines[..3].join("\n"));
    std::fs::write(&part, format!("{kept}{}", &lines[3][..lines[3].len() / 2])).unwrap();
    assert_eq!(chuhe(&args(5, &part)), report);
    let resumed = records(&part);
    assert!(std::fs::read_to_string(&part).unwrap().starts_with(&kept));
    assert_eq!(resumed.len(), 8, "each game once, the cut line gone");
    for g in &resumed {
        let twin = all.iter().find(|w| w.game == g.game).unwrap();
        assert!(twin.same_game(g), "game {} differs", g.game);
    }

    // Finished: nothing is played, nothing is written.
    let before = std::fs::read_to_string(&part).unwrap();
    assert_eq!(chuhe(&args(5, &part)), report);
    assert_eq!(std::fs::read_to_string(&part).unwrap(), before);

    let out = Command::new(bin).args(args(6, &part)).output().unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("another match"),
        "{out:?}"
    );

    // Same match, but b set otherwise: it would not play the same games.
    let otherwise: Vec<String> = args(5, &part)
        .into_iter()
        .map(|a| a.replace("knowledge=medium", "knowledge=low"))
        .collect();
    let out = Command::new(bin).args(&otherwise).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("engine settings") && stderr.contains("option.knowledge=low"),
        "{out:?}"
    );

    // Records written before settings were recorded: taken on trust.
    let mut older = Vec::new();
    for g in records(&part) {
        let g = chuhe::arena::json::GameLine {
            settings: None,
            ..g
        };
        g.write(&mut older).unwrap();
    }
    std::fs::write(&part, &older).unwrap();
    let out = Command::new(bin).args(args(5, &part)).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(untimed(&String::from_utf8_lossy(&out.stdout)), report);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("8 records do not say"),
        "{out:?}"
    );
    assert_eq!(std::fs::read(&part).unwrap(), older, "nothing played");
    for p in [&whole, &part] {
        let _ = std::fs::remove_file(p);
    }
}

// ---------------------------------------------------------------------------
// Real data (skipped when absent, unless CHUHE_REQUIRE_DATA=1)

#[test]
fn committed_opening_suites_are_rebuilt_exactly_from_the_master_games() {
    use chuhe::tools::openings::{SuiteRules, build_suite};
    let Some(tsv) = shared_data::shared_file("ccpd-iccs.tsv.xz") else {
        return;
    };
    let games = chuhe::record::games::read_games(&tsv, usize::MAX).unwrap();
    assert!(
        build_suite(&games, SuiteRules::DEFAULT) == chuhe::arena::openings::BUILTIN,
        "book/openings.txt is not what `chuhe openings build` makes: rebuild it"
    );
    let wide = concat!(env!("CARGO_MANIFEST_DIR"), "/book/openings-wide.txt");
    assert!(
        build_suite(&games, SuiteRules::WIDE) == std::fs::read_to_string(wide).unwrap(),
        "book/openings-wide.txt is not what `chuhe openings build --wide` makes: rebuild it"
    );
}
