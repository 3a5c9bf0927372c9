//! Drives the real `chuhe` binary over pipes, the way a GUI does.

#![allow(dead_code)]

use chuhe::position::Position;
use chuhe::protocol::{build_position, parse};
use chuhe::replay::{self, Accept};
use chuhe::types::Move;
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How long any single reply may take before a test gives up. Generous:
/// CI has two cores and runs tests in parallel.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub const BIN: &str = env!("CARGO_BIN_EXE_chuhe");

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// Everything received so far, for failure messages.
    pub seen: Vec<String>,
}

impl Engine {
    /// Starts the binary under test (`CHUHE_BIN` names another build).
    pub fn start() -> Engine {
        let bin = std::env::var_os("CHUHE_BIN").unwrap_or_else(|| BIN.into());
        let mut child = Command::new(bin)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting chuhe");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
        }
    }

    /// Starts the engine and completes the handshake of `dialect` (`ucci`
    /// or `uci`).
    pub fn handshake(dialect: &str) -> Engine {
        let mut e = Engine::start();
        e.send(dialect);
        e.expect(&format!("{dialect}ok"));
        e
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("writing to chuhe");
        stdin.flush().expect("flushing to chuhe");
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` if none comes within `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok((t, l)) => {
                self.seen.push(l.clone());
                Some((t, l))
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `done`; returns all of them (the
    /// matching one last) and when the last arrived.
    pub fn until_at(&mut self, what: &str, done: impl Fn(&str) -> bool) -> (Vec<String>, Instant) {
        let deadline = Instant::now() + PATIENCE;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some((t, l)) => {
                    let last = done(&l);
                    got.push(l);
                    if last {
                        return (got, t);
                    }
                }
                None => panic!(
                    "no {what} within {PATIENCE:?}; received so far:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    pub fn until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_at(what, done).0
    }

    /// Reads up to the line equal to `line`.
    pub fn expect(&mut self, line: &str) -> Vec<String> {
        self.until(line, |l| l == line)
    }

    /// Reads up to the next `bestmove`/`nobestmove` and returns that line.
    pub fn best(&mut self) -> String {
        self.until("bestmove", is_answer).pop().unwrap()
    }

    pub fn isready(&mut self) {
        self.send("isready");
        self.expect("readyok");
    }

    /// Asserts that no line arrives within `quiet`.
    pub fn assert_silent(&mut self, quiet: Duration) {
        if let Some((_, l)) = self.next_line(quiet) {
            panic!("unexpected line {l:?}; so far:\n{}", self.seen.join("\n"));
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(s)) = self.child.try_wait() {
                return Some(s);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn is_answer(l: &str) -> bool {
    l.starts_with("bestmove") || l == "nobestmove"
}

/// The position a `position` command's arguments describe.
pub fn position(args: &str) -> Position {
    let tokens: Vec<&str> = args.split_whitespace().collect();
    build_position(&parse::parse_position(&tokens).expect("test position parses"))
        .expect("test position is legal")
}

/// The move of a `bestmove` line, checked to be legal in `pos`.
pub fn legal_best(pos: &Position, line: &str) -> Move {
    let word = line.split_whitespace().nth(1).unwrap_or("");
    replay::read_move(pos, word, Accept::Iccs)
        .unwrap_or_else(|e| panic!("{line:?} in {}: {e}", pos.to_fen()))
}

/// The number after `key` in an `info` line.
pub fn field(line: &str, key: &str) -> Option<i64> {
    let mut it = line.split_whitespace();
    while let Some(w) = it.next() {
        if w == key {
            return it.next()?.parse().ok();
        }
    }
    None
}

/// The (optimum, maximum) of a `time budget` diagnostic, milliseconds.
pub fn budget(line: &str) -> (u64, u64) {
    let nums: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(nums.len() >= 2, "not a budget line: {line}");
    (nums[0], nums[1])
}

/// Checks an `id name` line: `chuhe` and the package version, and, for the
/// binary built with these tests (not another one named by `CHUHE_BIN`),
/// exactly the library's version line with its commit.
pub fn assert_id_name(line: &str) {
    let want = concat!("id name chuhe ", env!("CARGO_PKG_VERSION"));
    assert!(
        line == want || line.starts_with(&format!("{want} (")),
        "{line:?} does not start with {want:?}"
    );
    if std::env::var_os("CHUHE_BIN").is_none() {
        assert_eq!(line, format!("id name {}", chuhe::protocol::NAME_LINE));
    }
}
