//! Text to typed commands, shared by both dialects: every spelling either
//! dialect uses is accepted here, whichever dialect is in use.
//!
//! Parsing never fails on unknown tokens inside a command (they are skipped,
//! as both protocols ask); it fails only on an unknown command word or on a
//! command that cannot mean anything (`perft` without a depth). Problems
//! with single values come back inside the command so that the rest of it
//! can still be obeyed.

use crate::text::{clip, parse_bool};

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Ucci,
    Uci,
    /// CECP (XBoard/WinBoard) handshake: the rest of the session is CECP.
    Xboard,
    IsReady,
    /// UCI `debug on|off`.
    Debug(bool),
    SetOption(OptionSpec),
    /// UCI `ucinewgame` (UCCI says `setoption newgame`).
    NewGame,
    Position(PositionSpec),
    BanMoves(Vec<String>),
    Go(Box<GoParams>),
    PonderHit {
        draw: bool,
    },
    Stop,
    /// `probe` with no position probes the current one.
    Probe(Option<PositionSpec>),
    Quit,
    Perft(u32),
    Divide(u32),
    Bench(Option<i32>),
    Display,
    Eval,
    Help,
    /// UCI `register`: nothing to register; accepted and ignored.
    Register,
}

/// `setoption` in one of its spellings.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionSpec {
    /// `setoption name <Name words> [value <value words>]`.
    Named { name: String, value: Option<String> },
    /// `setoption <name> [<value>]`: where the name ends is known only to
    /// the option table, so the words stay apart.
    Bare(Vec<String>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base {
    StartPos,
    Fen(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    pub base: Base,
    pub moves: Vec<String>,
}

/// A `go` line as written, values unconverted. Clock values are kept as
/// the host wrote them (UCCI `time` may be in seconds).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GoParams {
    pub ponder: bool,
    pub draw: bool,
    pub infinite: bool,
    pub depth: Option<i64>,
    pub nodes: Option<i64>,
    pub mate: Option<i64>,
    /// Milliseconds in every dialect.
    pub movetime: Option<f64>,
    /// UCCI clock: our time, increment, moves to go (units per `usemillisec`).
    pub time: Option<f64>,
    pub increment: Option<f64>,
    pub movestogo: Option<i64>,
    pub opptime: Option<f64>,
    pub oppincrement: Option<f64>,
    pub oppmovestogo: Option<i64>,
    /// UCI clocks, milliseconds.
    pub wtime: Option<f64>,
    pub btime: Option<f64>,
    pub winc: Option<f64>,
    pub binc: Option<f64>,
    pub searchmoves: Vec<String>,
    /// One text per value that could not be read.
    pub problems: Vec<String>,
}

impl GoParams {
    /// Whether anything but `stop` can end the search.
    pub fn has_limit(&self) -> bool {
        self.depth.is_some()
            || self.nodes.is_some()
            || self.mate.is_some()
            || self.movetime.is_some()
            || self.time.is_some()
            || self.wtime.is_some()
            || self.btime.is_some()
    }
}

/// Quotes host text in a diagnostic: printable, short, one line.
pub fn quote(s: &str) -> String {
    let printable: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    format!("'{}'", clip(&printable, "..."))
}

/// Turns raw input bytes into a line of text: invalid UTF-8 becomes U+FFFD,
/// control characters (the `\r` of `\r\n` hosts among them) and byte-order
/// marks become spaces.
pub fn clean_line(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .chars()
        .map(|c| {
            if c.is_control() || c == '\u{feff}' {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// Parses one line. `Ok(None)`: nothing to do (blank line).
pub fn parse_command(line: &str) -> Result<Option<Command>, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = tokens.first() else {
        return Ok(None);
    };
    let word = first.to_ascii_lowercase();
    let rest = &tokens[1..];
    let cmd = match word.as_str() {
        "ucci" => Command::Ucci,
        "uci" => Command::Uci,
        "xboard" => Command::Xboard,
        "isready" => Command::IsReady,
        "debug" => Command::Debug(match rest.first().map(|s| s.to_ascii_lowercase()) {
            None => true,
            Some(v) => {
                parse_bool(&v).ok_or_else(|| format!("debug takes on or off, not {}", quote(&v)))?
            }
        }),
        "setoption" => Command::SetOption(parse_setoption(rest)?),
        "ucinewgame" => Command::NewGame,
        "position" => Command::Position(parse_position(rest)?),
        // One adapter sends the position without the `position` word.
        "fen" | "startpos" => Command::Position(parse_position(&tokens)?),
        "banmoves" => Command::BanMoves(rest.iter().map(|s| s.to_string()).collect()),
        "go" => Command::Go(Box::new(parse_go(rest))),
        "ponderhit" => Command::PonderHit {
            draw: rest.iter().any(|t| t.eq_ignore_ascii_case("draw")),
        },
        "stop" => Command::Stop,
        "probe" => Command::Probe(if rest.is_empty() {
            None
        } else {
            Some(parse_position(rest)?)
        }),
        "quit" | "exit" => Command::Quit,
        "perft" => Command::Perft(parse_depth_arg("perft", rest)?),
        "divide" => Command::Divide(parse_depth_arg("divide", rest)?),
        "bench" => Command::Bench(match rest.first() {
            None => None,
            Some(t) => Some(
                t.parse::<i32>()
                    .map_err(|_| format!("bench depth {} is not a number", quote(t)))?,
            ),
        }),
        "d" | "display" => Command::Display,
        "eval" => Command::Eval,
        "help" => Command::Help,
        "register" => Command::Register,
        _ => return Err(format!("unknown command {}", quote(first))),
    };
    Ok(Some(cmd))
}

fn parse_depth_arg(cmd: &str, rest: &[&str]) -> Result<u32, String> {
    let t = rest.first().ok_or_else(|| format!("{cmd} needs a depth"))?;
    t.parse::<u32>()
        .map_err(|_| format!("{cmd} depth {} is not a number", quote(t)))
}

fn parse_setoption(rest: &[&str]) -> Result<OptionSpec, String> {
    if rest.is_empty() {
        return Err("setoption needs an option name".to_string());
    }
    if !rest[0].eq_ignore_ascii_case("name") {
        return Ok(OptionSpec::Bare(
            rest.iter().map(|s| s.to_string()).collect(),
        ));
    }
    let body = &rest[1..];
    let value_at = body.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let (name, value) = match value_at {
        Some(i) => (&body[..i], Some(body[i + 1..].join(" "))),
        None => (body, None),
    };
    if name.is_empty() {
        return Err("setoption name needs an option name".to_string());
    }
    Ok(OptionSpec::Named {
        name: name.join(" "),
        value,
    })
}

/// `startpos [moves ...]`, `fen <FEN fields> [moves ...]`, or a bare FEN.
/// Whether a line is meant as a `position` command (its first word is
/// `position`, or `fen`/`startpos` as one adapter sends it), parsable or not.
pub fn is_position_line(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    ["position", "fen", "startpos"]
        .iter()
        .any(|w| first.eq_ignore_ascii_case(w))
}

pub fn parse_position(tokens: &[&str]) -> Result<PositionSpec, String> {
    let Some(first) = tokens.first() else {
        return Err("position needs startpos or fen".to_string());
    };
    let moves_at = tokens
        .iter()
        .position(|t| t.eq_ignore_ascii_case("moves"))
        .unwrap_or(tokens.len());
    let moves: Vec<String> = tokens[(moves_at + 1).min(tokens.len())..]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let base = if first.eq_ignore_ascii_case("startpos") {
        if moves_at > 1 {
            return Err(format!(
                "unexpected {} after startpos",
                quote(&tokens[1..moves_at].join(" "))
            ));
        }
        Base::StartPos
    } else {
        // `fen` is optional before the FEN itself (`position <FEN>`).
        let start = usize::from(first.eq_ignore_ascii_case("fen"));
        if start >= moves_at {
            return Err("position fen needs a FEN".to_string());
        }
        Base::Fen(tokens[start..moves_at].join(" "))
    };
    Ok(PositionSpec { base, moves })
}

/// Reads an integer; values too large for 64 bits saturate rather than fail.
pub fn parse_int(t: &str) -> Option<i64> {
    if let Ok(v) = t.parse::<i64>() {
        return Some(v);
    }
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(if neg {
        i64::MIN
    } else {
        i64::MAX
    })
}

/// Reads a time value: an integer, or a decimal for hosts that send
/// fractional seconds.
fn parse_time(t: &str) -> Option<f64> {
    if let Some(v) = parse_int(t) {
        return Some(v as f64);
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "ponder"
            | "draw"
            | "infinite"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "time"
            | "increment"
            | "movestogo"
            | "opptime"
            | "oppincrement"
            | "oppmovestogo"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "searchmoves"
    )
}

/// Parses the tokens after `go`, in any order.
pub fn parse_go(tokens: &[&str]) -> GoParams {
    let mut g = GoParams::default();
    let lower: Vec<String> = tokens.iter().map(|t| t.to_ascii_lowercase()).collect();
    let mut i = 0;
    while i < lower.len() {
        let key = lower[i].as_str();
        i += 1;
        match key {
            "ponder" => g.ponder = true,
            "draw" => g.draw = true,
            "infinite" => g.infinite = true,
            "searchmoves" => {
                while i < lower.len() && !is_go_keyword(&lower[i]) {
                    g.searchmoves.push(lower[i].clone());
                    i += 1;
                }
            }
            "depth" | "nodes" | "mate" | "movestogo" | "oppmovestogo" => {
                let v = value(&lower, &mut i, key, &mut g.problems, parse_int);
                let slot = match key {
                    "depth" => &mut g.depth,
                    "nodes" => &mut g.nodes,
                    "mate" => &mut g.mate,
                    "movestogo" => &mut g.movestogo,
                    _ => &mut g.oppmovestogo,
                };
                if v.is_some() {
                    *slot = v;
                }
            }
            "movetime" | "time" | "increment" | "opptime" | "oppincrement" | "wtime" | "btime"
            | "winc" | "binc" => {
                let v = value(&lower, &mut i, key, &mut g.problems, parse_time);
                let slot = match key {
                    "movetime" => &mut g.movetime,
                    "time" => &mut g.time,
                    "increment" => &mut g.increment,
                    "opptime" => &mut g.opptime,
                    "oppincrement" => &mut g.oppincrement,
                    "wtime" => &mut g.wtime,
                    "btime" => &mut g.btime,
                    "winc" => &mut g.winc,
                    _ => &mut g.binc,
                };
                if v.is_some() {
                    *slot = v;
                }
            }
            _ => {} // unknown tokens are ignored, as both protocols ask
        }
    }
    g
}

/// Takes the value after `key`. A missing value (end of line, or the next
/// keyword) and an unreadable one are recorded as problems; an unreadable
/// value is consumed, a keyword is not.
fn value<T>(
    tokens: &[String],
    i: &mut usize,
    key: &str,
    problems: &mut Vec<String>,
    read: impl Fn(&str) -> Option<T>,
) -> Option<T> {
    match tokens.get(*i) {
        None => {
            problems.push(format!("{key} needs a value"));
            None
        }
        Some(t) if is_go_keyword(t) => {
            problems.push(format!("{key} needs a value"));
            None
        }
        Some(t) => {
            *i += 1;
            let v = read(t);
            if v.is_none() {
                problems.push(format!("{key} {} is not a number", quote(t)));
            }
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(s: &str) -> Command {
        parse_command(s).unwrap().unwrap()
    }

    #[test]
    fn positions_in_every_spelling() {
        let want = PositionSpec {
            base: Base::StartPos,
            moves: vec!["h2e2".into(), "h9g7".into()],
        };
        assert_eq!(
            cmd("position startpos moves h2e2 h9g7"),
            Command::Position(want.clone())
        );
        assert_eq!(cmd("startpos moves h2e2 h9g7"), Command::Position(want));
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        for line in [
            format!("position fen {fen} moves h2e2"),
            format!("fen {fen} moves h2e2"),
            format!("position {fen} moves h2e2"),
        ] {
            assert_eq!(
                cmd(&line),
                Command::Position(PositionSpec {
                    base: Base::Fen(fen.to_string()),
                    moves: vec!["h2e2".into()],
                })
            );
        }
        assert!(parse_command("position").is_err());
        assert!(parse_command("position fen").is_err());
        assert!(parse_command("position fen moves h2e2").is_err());
        assert!(parse_command("position startpos junk").is_err());
    }

    #[test]
    fn go_tokens_in_any_order() {
        let Command::Go(g) = cmd("go draw time 60000 increment 1000 depth 12 ponder foo") else {
            panic!()
        };
        assert!(g.ponder && g.draw && !g.infinite);
        assert_eq!(g.time, Some(60000.0));
        assert_eq!(g.increment, Some(1000.0));
        assert_eq!(g.depth, Some(12));
        assert!(g.problems.is_empty());
        let Command::Go(g) = cmd("go wtime 1000 btime 2000 winc 5 binc 6 movestogo 9") else {
            panic!()
        };
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.binc, g.movestogo),
            (Some(1000.0), Some(2000.0), Some(5.0), Some(6.0), Some(9))
        );
        let Command::Go(g) = cmd("go searchmoves h2e2 b2e2 depth 3") else {
            panic!()
        };
        assert_eq!(g.searchmoves, vec!["h2e2", "b2e2"]);
        assert_eq!(g.depth, Some(3));
    }

    #[test]
    fn go_values_that_cannot_be_read_are_named() {
        let Command::Go(g) = cmd("go depth abc nodes") else {
            panic!()
        };
        assert_eq!(g.depth, None);
        assert_eq!(g.problems.len(), 2);
        assert!(g.problems[0].contains("'abc'"));
        let Command::Go(g) = cmd("go depth movetime 100") else {
            panic!()
        };
        assert_eq!(g.movetime, Some(100.0));
        assert_eq!(g.problems, vec!["depth needs a value"]);
        let Command::Go(g) = cmd("go depth 99999999999999999999999 time 1.5") else {
            panic!()
        };
        assert_eq!(g.depth, Some(i64::MAX));
        assert_eq!(g.time, Some(1.5));
    }

    #[test]
    fn setoption_spellings() {
        assert_eq!(
            cmd("setoption name Move Overhead value 100"),
            Command::SetOption(OptionSpec::Named {
                name: "Move Overhead".into(),
                value: Some("100".into())
            })
        );
        assert_eq!(
            cmd("setoption name Clear Hash"),
            Command::SetOption(OptionSpec::Named {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            cmd("setoption hashsize 128"),
            Command::SetOption(OptionSpec::Bare(vec!["hashsize".into(), "128".into()]))
        );
        assert!(parse_command("setoption").is_err());
        assert!(parse_command("setoption name value 3").is_err());
    }

    #[test]
    fn cleaning_and_quoting_keep_one_line() {
        assert_eq!(clean_line(b"isready\r"), "isready ");
        assert_eq!(clean_line(b"\xef\xbb\xbfucci"), " ucci");
        assert_eq!(clean_line(b"go\x00depth\x1b3"), "go depth 3");
        assert!(clean_line(b"\xff\xfe").contains('\u{fffd}'));
        let q = quote(&"x".repeat(1000));
        assert!(q.len() < 60);
        assert!(!quote("a\nb").contains('\n'));
    }

    #[test]
    fn commands_and_errors() {
        assert_eq!(parse_command("   ").unwrap(), None);
        assert_eq!(cmd("ISREADY"), Command::IsReady);
        assert_eq!(cmd("ponderhit draw"), Command::PonderHit { draw: true });
        assert_eq!(cmd("probe"), Command::Probe(None));
        assert_eq!(cmd("perft 3"), Command::Perft(3));
        assert_eq!(cmd("debug off"), Command::Debug(false));
        assert!(parse_command("perft").is_err());
        assert!(parse_command("perft -1").is_err());
        assert!(
            parse_command("frobnicate")
                .unwrap_err()
                .contains("frobnicate")
        );
    }
}
