//! A UCCI or UCI engine running as a child process.
//!
//! A reader thread forwards each line the engine prints, stamped with the
//! moment it arrived, through a channel; every wait on the engine has a
//! deadline, so a silent or dead engine can never hang the match. Dropping
//! an [`EngineProcess`] sends `quit` and kills the process if it does not exit at
//! once (ElephantEye, for one, never exits on end of input).
//!
//! Dialects: UCCI engines get `ucci`, `setoption <name> <value>`, and clock
//! times in milliseconds when they announce `usemillisec` (seconds
//! otherwise, as the UCCI standard says); UCI engines get `uci`,
//! `setoption name <N> value <V>` and `go wtime/btime/winc/binc`. Moves are
//! ICCS (`h2e2`, ranks 0-9); `ranks=1` converts for UCI engines that number
//! ranks 1-10 (Fairy-Stockfish in UCI mode).

use super::clock::{MatchLimits, TimeControl};
use crate::record::ranks::Ranks;
use crate::types::{Color, Move};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long an engine may take to answer the handshake and `isready`.
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
/// How long an engine may take to answer `stop` after its time ran out
/// before it is declared hung and restarted.
pub const STOP_TIMEOUT: Duration = Duration::from_secs(1);
/// How long `quit` may take before the process is killed.
const QUIT_TIMEOUT: Duration = Duration::from_millis(500);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Ucci,
    Uci,
}

/// Everything needed to start and configure one engine, written on the
/// command line as `KEY=VALUE` tokens (see [`EngineSpec::parse`]).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub protocol: Protocol,
    /// Options sent verbatim after the handshake, in order.
    pub options: Vec<(String, String)>,
    pub threads: Option<u32>,
    pub hash_mb: Option<u32>,
    /// Whether the engine may use its own opening book.
    pub book: bool,
    /// UCI moves with ranks 1-10 instead of 0-9.
    pub ranks_from_one: bool,
    /// Per-engine overrides of the match limits.
    pub limits: MatchLimits,
}

fn parse_number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("engine {key}='{value}' is not a valid number"))
}

fn parse_bool(key: &str, value: &str) -> Result<bool, String> {
    crate::text::parse_bool(value)
        .ok_or_else(|| format!("engine {key}='{value}': expected on or off"))
}

impl EngineSpec {
    /// Builds a spec from `KEY=VALUE` tokens, later tokens overriding
    /// earlier ones (so `--each` tokens go first). Keys:
    /// `cmd` (required), `name`, `arg` (repeatable), `dir`, `proto=ucci|uci`,
    /// `option.<Name>=<value>`, `threads`, `hash` (MB), `book=on|off`,
    /// `ranks=0|1`, and the limits `tc`, `movetime` (ms), `depth`, `nodes`.
    pub fn parse<S: AsRef<str>>(tokens: &[S]) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: String::new(),
            args: Vec::new(),
            dir: None,
            protocol: Protocol::Ucci,
            options: Vec::new(),
            threads: None,
            hash_mb: None,
            book: false,
            ranks_from_one: false,
            limits: MatchLimits::default(),
        };
        for token in tokens {
            let token = token.as_ref();
            let (key, value) = token
                .split_once('=')
                .ok_or_else(|| format!("engine setting '{token}' is not KEY=VALUE"))?;
            match key {
                "cmd" => spec.cmd = value.to_string(),
                "name" => spec.name = value.to_string(),
                "arg" => spec.args.push(value.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "proto" => {
                    spec.protocol = match value.to_ascii_lowercase().as_str() {
                        "ucci" => Protocol::Ucci,
                        "uci" => Protocol::Uci,
                        _ => return Err(format!("engine proto='{value}': expected ucci or uci")),
                    }
                }
                "threads" => spec.threads = Some(parse_number(key, value)?),
                "hash" => spec.hash_mb = Some(parse_number(key, value)?),
                "book" => spec.book = parse_bool(key, value)?,
                "ranks" => {
                    spec.ranks_from_one = match value {
                        "0" => false,
                        "1" => true,
                        _ => return Err(format!("engine ranks='{value}': expected 0 or 1")),
                    }
                }
                "tc" => spec.limits.tc = Some(TimeControl::parse(value)?),
                "movetime" => spec.limits.movetime_ms = Some(parse_number(key, value)?),
                "depth" => spec.limits.depth = Some(parse_number(key, value)?),
                "nodes" => spec.limits.nodes = Some(parse_number(key, value)?),
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.retain(|(n, _)| n != name);
                        spec.options.push((name.to_string(), value.to_string()));
                    }
                    _ => return Err(format!("unknown engine setting '{key}'")),
                },
            }
        }
        if spec.cmd.is_empty() {
            return Err("engine has no cmd=".into());
        }
        if spec.name.is_empty() {
            spec.name = Path::new(&spec.cmd)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| spec.cmd.clone());
        }
        Ok(spec)
    }

    /// What decides this engine's play besides its binary and the clock,
    /// as the `KEY=VALUE` tokens that set it: arguments, protocol, threads,
    /// hash, book, move ranks and options in the order sent. Recorded with
    /// each game so that `--resume` can refuse a run that would play
    /// differently.
    pub fn play_settings(&self) -> String {
        let mut tokens: Vec<String> = self.args.iter().map(|a| format!("arg={a}")).collect();
        tokens.extend([
            format!(
                "proto={}",
                match self.protocol {
                    Protocol::Ucci => "ucci",
                    Protocol::Uci => "uci",
                }
            ),
            format!("book={}", if self.book { "on" } else { "off" }),
            format!("ranks={}", u8::from(self.ranks_from_one)),
        ]);
        if let Some(t) = self.threads {
            tokens.push(format!("threads={t}"));
        }
        if let Some(mb) = self.hash_mb {
            tokens.push(format!("hash={mb}"));
        }
        tokens.extend(self.options.iter().map(|(n, v)| format!("option.{n}={v}")));
        tokens.join(" ")
    }

    /// How this engine numbers ranks.
    fn ranks(&self) -> Ranks {
        if self.ranks_from_one {
            Ranks::FromOne
        } else {
            Ranks::FromZero
        }
    }

    /// Writes a move as this engine expects it.
    pub fn move_to_engine(&self, m: Move) -> String {
        self.ranks().write(m)
    }

    /// Reads a move as this engine writes it, back into ICCS text (still
    /// unchecked: the referee judges it; text that is no move in the
    /// engine's numbering comes back as it was).
    pub fn move_from_engine(&self, text: &str) -> String {
        self.ranks().read(text).unwrap_or_else(|_| text.to_string())
    }
}

/// Traffic log shared by all engines of a match: each line is stamped with
/// the seconds since the match began.
pub struct TrafficLog {
    out: Mutex<BufWriter<File>>,
    start: Instant,
}

impl TrafficLog {
    pub fn create(path: &Path) -> std::io::Result<TrafficLog> {
        Ok(TrafficLog {
            out: Mutex::new(BufWriter::new(File::create(path)?)),
            start: Instant::now(),
        })
    }

    fn write(&self, who: &str, dir: &str, line: &str) {
        let t = self.start.elapsed().as_secs_f64();
        if let Ok(mut out) = self.out.lock() {
            // A failing log must not stop the match.
            let _ = writeln!(out, "{t:10.3} {who} {dir} {line}");
            let _ = out.flush();
        }
    }
}

/// A score as the engine reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawn-like units (UCCI scores, UCI `cp`).
    Cp(i32),
    /// Mate in this many moves (negative: getting mated), UCI `mate`.
    Mate(i32),
}

/// UCCI engines print mate as ±(MATE - plies) with MATE = 10000 (chuhe,
/// ElephantEye); scores this far from zero are read as mate scores.
const UCCI_MATE: i32 = 10_000;
const UCCI_MATE_BOUND: i32 = 9_000;

impl EngineScore {
    /// A single number for adjudication: mates are ±(10000 − plies).
    pub fn value(self) -> i32 {
        match self {
            EngineScore::Cp(v) => v,
            EngineScore::Mate(n) if n > 0 => UCCI_MATE - (2 * n - 1),
            EngineScore::Mate(n) => -UCCI_MATE - 2 * n,
        }
    }
}

impl fmt::Display for EngineScore {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            EngineScore::Cp(v) if v.abs() >= UCCI_MATE_BOUND && v.abs() <= UCCI_MATE => {
                let moves = (UCCI_MATE - v.abs() + 1) / 2;
                write!(f, "{}M{moves}", if v > 0 { "+" } else { "-" })
            }
            EngineScore::Cp(v) => write!(f, "{:+.2}", v as f64 / 100.0),
            EngineScore::Mate(n) => write!(f, "{}M{}", if n > 0 { "+" } else { "-" }, n.abs()),
        }
    }
}

/// The last search report seen before `bestmove`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    pub score: Option<EngineScore>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl SearchInfo {
    /// Folds one `info` line in. Only lines with a score replace the score
    /// and depth, so a trailing `info time .. nodes ..` keeps them.
    fn update(&mut self, line: &str) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let mut depth = None;
        let mut score = None;
        let mut i = 1;
        while i < tokens.len() {
            match tokens[i] {
                "depth" => depth = tokens.get(i + 1).and_then(|t| t.parse().ok()),
                "nodes" => {
                    if let Some(n) = tokens.get(i + 1).and_then(|t| t.parse().ok()) {
                        self.nodes = Some(n);
                    }
                }
                "score" => {
                    score = match tokens.get(i + 1) {
                        Some(&"cp") => tokens
                            .get(i + 2)
                            .and_then(|t| t.parse().ok())
                            .map(EngineScore::Cp),
                        Some(&"mate") => tokens
                            .get(i + 2)
                            .and_then(|t| t.parse().ok())
                            .map(EngineScore::Mate),
                        Some(t) => t.parse().ok().map(EngineScore::Cp),
                        None => None,
                    };
                }
                // Nothing after the PV or a string is a keyword.
                "pv" | "string" | "message" => break,
                _ => {}
            }
            i += 1;
        }
        if score.is_some() {
            self.score = score;
            self.depth = depth.or(self.depth);
        }
    }
}

/// What the engine answered to `go`.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The move text in ICCS (ranks converted), or `None` for `nobestmove`
    /// and `bestmove (none)`.
    pub bestmove: Option<String>,
    pub resign: bool,
    /// Wall time from sending `go` to receiving `bestmove`.
    pub elapsed: Duration,
    pub info: SearchInfo,
}

/// Why an engine gave no usable answer.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// The process closed its output (exited or crashed).
    Exited,
    /// No answer before the deadline; what was waited for.
    Timeout(&'static str),
    /// Writing to the engine failed (it has exited).
    Write(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "could not start: {e}"),
            EngineError::Exited => write!(f, "the engine exited"),
            EngineError::Timeout(what) => write!(f, "no {what} in time"),
            EngineError::Write(e) => write!(f, "could not write to the engine: {e}"),
        }
    }
}

/// One announced option: its name as the engine spells it.
#[derive(Clone, Debug)]
struct OptionInfo {
    name: String,
}

/// The clock information for one `go`.
#[derive(Clone, Copy, Debug, Default)]
pub struct GoClock {
    /// Red's and Black's remaining time, ms (clamped at 0).
    pub remaining_ms: [u64; 2],
    pub increment_ms: [u64; 2],
    pub moves_to_go: [Option<u32>; 2],
}

/// One `go`: the clocks (if timed) and the fixed limits.
#[derive(Clone, Copy, Debug, Default)]
pub struct GoCommand {
    pub side: Option<Color>,
    pub clock: Option<GoClock>,
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

pub struct EngineProcess {
    pub spec: EngineSpec,
    /// `id name` from the handshake, if given.
    pub id_name: Option<String>,
    child: Child,
    stdin: BufWriter<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    options: Vec<OptionInfo>,
    /// UCCI clock times in milliseconds (the engine announced
    /// `usemillisec` and we switched it on).
    millis: bool,
    log: Option<Arc<TrafficLog>>,
    /// Name in the traffic log (`name#instance`).
    tag: String,
}

/// Forwards the lines of an engine's output (`sink`, with the time each
/// arrived) and logs them; stderr has no sink and is only logged.
fn spawn_reader<R: Read + Send + 'static>(
    source: R,
    tag: String,
    log: Option<Arc<TrafficLog>>,
    sink: Option<crossbeam_channel::Sender<(Instant, String)>>,
) -> std::io::Result<()> {
    let line = move |bytes: &[u8], _len: usize| {
        let at = Instant::now();
        // Some engines print GBK or other bytes; lossy text is enough.
        let line = String::from_utf8_lossy(bytes).trim_end().to_string();
        if let Some(log) = &log {
            log.write(&tag, if sink.is_some() { "<" } else { "!" }, &line);
        }
        sink.as_ref().is_none_or(|tx| tx.send((at, line)).is_ok())
    };
    crate::text::spawn_line_reader("engine-output", source, usize::MAX, line, |_| {})
}

impl EngineProcess {
    /// Starts the engine, performs the handshake and sets its options.
    /// `instance` tells apart several processes of one engine in the log.
    pub fn start(
        spec: &EngineSpec,
        instance: usize,
        log: Option<Arc<TrafficLog>>,
    ) -> Result<EngineProcess, EngineError> {
        let tag = format!("{}#{instance}", spec.name);
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", spec.cmd)))?;
        let (tx, rx) = crossbeam_channel::unbounded();
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Spawn("no pipes to the process".into()));
        };
        let mut readers = spawn_reader(stdout, tag.clone(), log.clone(), Some(tx));
        if let Some(stderr) = child.stderr.take() {
            readers = readers.and(spawn_reader(stderr, tag.clone(), log.clone(), None));
        }
        if let Err(e) = readers {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Spawn(format!(
                "cannot start a reader thread: {e}"
            )));
        }
        let mut engine = EngineProcess {
            spec: spec.clone(),
            id_name: None,
            child,
            stdin: BufWriter::new(stdin),
            lines: rx,
            options: Vec::new(),
            millis: false,
            log,
            tag,
        };
        engine.handshake()?;
        engine.configure()?;
        engine.sync()?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(log) = &self.log {
            log.write(&self.tag, ">", line);
        }
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| EngineError::Write(e.to_string()))
    }

    /// The next line before `deadline`.
    fn next_line(
        &self,
        deadline: Instant,
        what: &'static str,
    ) -> Result<(Instant, String), EngineError> {
        match self.lines.recv_deadline(deadline) {
            Ok(x) => Ok(x),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(what)),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Exited),
        }
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        let (hello, ok) = match self.spec.protocol {
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Uci => ("uci", "uciok"),
        };
        self.send(hello)?;
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        loop {
            let (_, line) = self.next_line(deadline, ok)?;
            let line = line.trim();
            if line == ok {
                return Ok(());
            }
            if let Some(name) = line.strip_prefix("id name ") {
                self.id_name = Some(name.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option ")
                && let Some(name) = self.option_name(rest)
            {
                self.options.push(OptionInfo { name });
            }
        }
    }

    /// The option's name from the rest of an `option` line: UCCI puts one
    /// word first; UCI writes `name <words> type ...`.
    fn option_name(&self, rest: &str) -> Option<String> {
        let rest = rest.trim();
        if let Some(after) = rest.strip_prefix("name ") {
            let end = after.find(" type ").unwrap_or(after.len());
            let name = after[..end].trim();
            (!name.is_empty()).then(|| name.to_string())
        } else {
            rest.split_whitespace().next().map(str::to_string)
        }
    }

    /// The announced spelling of the first of `names` the engine knows
    /// (compared ignoring case, and spaces against underscores).
    fn find_option(&self, names: &[&str]) -> Option<String> {
        let norm = |s: &str| s.to_ascii_lowercase().replace(' ', "_");
        names.iter().find_map(|want| {
            self.options
                .iter()
                .find(|o| norm(&o.name) == norm(want))
                .map(|o| o.name.clone())
        })
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let line = match self.spec.protocol {
            Protocol::Ucci if value.is_empty() => format!("setoption {name}"),
            Protocol::Ucci => format!("setoption {name} {value}"),
            Protocol::Uci if value.is_empty() => format!("setoption name {name}"),
            Protocol::Uci => format!("setoption name {name} value {value}"),
        };
        self.send(&line)
    }

    fn configure(&mut self) -> Result<(), EngineError> {
        if self.spec.protocol == Protocol::Ucci
            && let Some(name) = self.find_option(&["usemillisec"])
        {
            self.set_option(&name, "true")?;
            self.millis = true;
        }
        let user_sets = |spec: &EngineSpec, names: &[&str]| {
            spec.options
                .iter()
                .any(|(n, _)| names.iter().any(|w| n.eq_ignore_ascii_case(w)))
        };
        const BOOK: &[&str] = &["usebook", "OwnBook"];
        if !self.spec.book
            && !user_sets(&self.spec, BOOK)
            && let Some(name) = self.find_option(BOOK)
        {
            self.set_option(&name, "false")?;
        }
        if let Some(threads) = self.spec.threads {
            match self.find_option(&["threads"]) {
                Some(name) => self.set_option(&name, &threads.to_string())?,
                None => eprintln!(
                    "warning: {}: no threads option; threads={threads} ignored",
                    self.tag
                ),
            }
        }
        if let Some(mb) = self.spec.hash_mb {
            match self.find_option(&["hashsize", "hash"]) {
                Some(name) => self.set_option(&name, &mb.to_string())?,
                None => eprintln!("warning: {}: no hash option; hash={mb} ignored", self.tag),
            }
        }
        for (name, value) in self.spec.options.clone() {
            let announced = self.find_option(&[name.as_str()]).unwrap_or(name);
            self.set_option(&announced, &value)?;
        }
        Ok(())
    }

    /// `isready` and wait for `readyok`, dropping anything before it.
    fn sync(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        loop {
            let (_, line) = self.next_line(deadline, "readyok")?;
            if line.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        match self.spec.protocol {
            Protocol::Ucci => {
                if let Some(name) = self.find_option(&["newgame"]) {
                    self.set_option(&name, "")?;
                }
            }
            Protocol::Uci => self.send("ucinewgame")?,
        }
        self.sync()
    }

    /// Sends the position: the start FEN and every move since.
    pub fn position(&mut self, start_fen: &str, moves: &[Move]) -> Result<(), EngineError> {
        let mut line = if start_fen == crate::position::START_FEN {
            "position startpos".to_string()
        } else {
            format!("position fen {start_fen}")
        };
        if !moves.is_empty() {
            line.push_str(" moves");
            for &m in moves {
                line.push(' ');
                line.push_str(&self.spec.move_to_engine(m));
            }
        }
        self.send(&line)
    }

    /// The `go` line in this engine's dialect.
    pub fn go_command(&self, req: &GoCommand) -> String {
        let mut go = String::from("go");
        let side = req.side.unwrap_or(Color::Red).index();
        // UCCI clock units: ms with usemillisec, else whole seconds.
        let unit = |ms: u64| if self.millis { ms } else { ms / 1000 };
        match self.spec.protocol {
            Protocol::Ucci => {
                if let Some(c) = req.clock {
                    go += &format!(" time {}", unit(c.remaining_ms[side]));
                    if c.increment_ms[side] > 0 {
                        go += &format!(" increment {}", unit(c.increment_ms[side]));
                    }
                    if let Some(m) = c.moves_to_go[side] {
                        go += &format!(" movestogo {m}");
                    }
                } else if let Some(ms) = req.movetime_ms {
                    // UCCI has no movetime: the whole clock for one move
                    // says the same to every UCCI engine.
                    go += &format!(" time {} movestogo 1", unit(ms));
                }
            }
            Protocol::Uci => {
                if let Some(c) = req.clock {
                    go += &format!(
                        " wtime {} btime {} winc {} binc {}",
                        c.remaining_ms[0], c.remaining_ms[1], c.increment_ms[0], c.increment_ms[1]
                    );
                    if let Some(m) = c.moves_to_go[side] {
                        go += &format!(" movestogo {m}");
                    }
                } else if let Some(ms) = req.movetime_ms {
                    go += &format!(" movetime {ms}");
                }
            }
        }
        if let Some(d) = req.depth {
            go += &format!(" depth {d}");
        }
        if let Some(n) = req.nodes {
            go += &format!(" nodes {n}");
        }
        if go == "go" {
            go += " infinite";
        }
        go
    }

    /// Starts a search and waits for `bestmove` until `deadline` after the
    /// `go` was sent. On `Timeout` the engine is still searching: call
    /// [`EngineProcess::stop`].
    pub fn go(
        &mut self,
        req: &GoCommand,
        allowed: Duration,
    ) -> Result<Reply, (EngineError, SearchInfo)> {
        let line = self.go_command(req);
        let mut info = SearchInfo::default();
        if let Err(e) = self.send(&line) {
            return Err((e, info));
        }
        let start = Instant::now();
        let deadline = start + allowed;
        loop {
            let (at, line) = match self.next_line(deadline, "bestmove") {
                Ok(x) => x,
                Err(e) => return Err((e, info)),
            };
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some("info") => info.update(&line),
                Some("bestmove") => {
                    let mv = tokens
                        .next()
                        .filter(|t| *t != "(none)")
                        .map(|t| self.spec.move_from_engine(t));
                    let resign = tokens.any(|t| t == "resign");
                    return Ok(Reply {
                        bestmove: mv,
                        resign,
                        elapsed: at.saturating_duration_since(start),
                        info,
                    });
                }
                Some("nobestmove") => {
                    return Ok(Reply {
                        bestmove: None,
                        resign: false,
                        elapsed: at.saturating_duration_since(start),
                        info,
                    });
                }
                _ => {}
            }
        }
    }

    /// Stops a search that ran out of time; true if the engine answered
    /// with a best move within `wait` (false: it is hung or dead).
    pub fn stop(&mut self, wait: Duration) -> bool {
        if self.send("stop").is_err() {
            return false;
        }
        let deadline = Instant::now() + wait;
        while let Ok((_, line)) = self.next_line(deadline, "bestmove") {
            let first = line.split_whitespace().next();
            if first == Some("bestmove") || first == Some("nobestmove") {
                return true;
            }
        }
        false
    }

    /// Whether the process is still running.
    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            return;
        }
        let _ = self.send("quit");
        let deadline = Instant::now() + QUIT_TIMEOUT;
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_parsing() {
        let s = EngineSpec::parse(&[
            "threads=2",
            "cmd=/opt/x/eleeye",
            "option.Skill_Level=5",
            "hash=64",
            "proto=UCI",
            "ranks=1",
            "tc=10+0.1",
            "depth=7",
            "option.Skill_Level=6",
            "arg=--quiet",
        ])
        .unwrap();
        assert_eq!(s.name, "eleeye");
        assert_eq!(s.protocol, Protocol::Uci);
        assert_eq!((s.threads, s.hash_mb), (Some(2), Some(64)));
        assert_eq!(
            s.options,
            vec![("Skill_Level".to_string(), "6".to_string())]
        );
        assert_eq!(s.args, vec!["--quiet".to_string()]);
        assert!(s.ranks_from_one && !s.book);
        assert_eq!(s.limits.tc.as_ref().unwrap().to_string(), "10+0.1");
        assert_eq!(s.limits.depth, Some(7));
        for bad in [
            &["name=x"][..],
            &["cmd=x", "proto=xboard"],
            &["cmd=x", "threads=two"],
            &["cmd=x", "colour=red"],
            &["cmd=x", "option.=1"],
            &["cmd=x", "novalue"],
            &["cmd=x", "tc=fast"],
            &["cmd=x", "book=maybe"],
        ] {
            assert!(EngineSpec::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn ranks_from_one_round_trip() {
        let s = EngineSpec::parse(&["cmd=x", "ranks=1"]).unwrap();
        let m = Move::parse("h2e2").unwrap();
        assert_eq!(s.move_to_engine(m), "h3e3");
        assert_eq!(s.move_from_engine("h3e3"), "h2e2");
        assert_eq!(s.move_from_engine("a10a9"), "a9a8");
        // Anything odd passes through for the referee to reject.
        assert_eq!(s.move_from_engine("a11a9"), "a11a9");
        assert_eq!(s.move_from_engine("a1"), "a1");
        assert_eq!(s.move_from_engine("a1a2x"), "a1a2x");
        let plain = EngineSpec::parse(&["cmd=x"]).unwrap();
        assert_eq!(plain.move_to_engine(m), "h2e2");
        assert_eq!(plain.move_from_engine("h2e2"), "h2e2");
    }

    #[test]
    fn info_lines() {
        let mut info = SearchInfo::default();
        info.update("info depth 8 score 4 pv c3c4 h9g7");
        info.update("info time 416 nodes 1702065");
        assert_eq!(info.score, Some(EngineScore::Cp(4)));
        assert_eq!(info.depth, Some(8));
        assert_eq!(info.nodes, Some(1_702_065));
        info.update("info depth 12 seldepth 20 multipv 1 score cp -35 lowerbound nodes 99 pv a0a1");
        assert_eq!(
            (info.score, info.depth),
            (Some(EngineScore::Cp(-35)), Some(12))
        );
        info.update("info depth 13 score mate -3 nodes 100 pv a0a1");
        assert_eq!(info.score, Some(EngineScore::Mate(-3)));
        info.update("info string score 77");
        assert_eq!(info.score, Some(EngineScore::Mate(-3)));
    }

    #[test]
    fn score_display_and_value() {
        assert_eq!(EngineScore::Cp(25).to_string(), "+0.25");
        assert_eq!(EngineScore::Cp(-130).to_string(), "-1.30");
        assert_eq!(EngineScore::Cp(9995).to_string(), "+M3");
        assert_eq!(EngineScore::Cp(-9996).to_string(), "-M2");
        assert_eq!(EngineScore::Mate(4).to_string(), "+M4");
        assert_eq!(EngineScore::Mate(4).value(), 9993);
        assert_eq!(EngineScore::Mate(-2).value(), -9996);
    }
}
