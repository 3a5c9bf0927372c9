//! Command-line arguments of `chuhe match`.
//!
//! `--engine` takes several `KEY=VALUE` tokens per occurrence (as
//! cutechess-cli does), so the occurrences are read through clap's builder
//! API; everything else is derived.

use super::MatchConfig;
use super::clock::{MatchLimits, TimeControl};
use super::engine::EngineSpec;
use super::game::{Adjudication, DrawAdjudication, RefereeSettings};
use super::merge::MergeArgs;
use super::openings::{self, Opening, Order};
use super::report::ReportArgs;
use super::stats::Sprt;
use super::tally::TallyArgs;
use crate::rules::RuleSettings;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use std::path::PathBuf;
use std::time::Duration;

fn parse_tc(s: &str) -> Result<TimeControl, String> {
    TimeControl::parse(s)
}

/// `K/N` with 1 <= K <= N.
pub fn parse_shard(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("bad shard '{s}': expected K/N with 1 <= K <= N");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u32, u32) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderArg {
    Random,
    Sequential,
}

/// Every option of `chuhe match` but `--engine`.
#[derive(Args, Debug, Clone)]
pub struct MatchOptions {
    /// Settings for every engine, before each engine's own (same keys as
    /// --engine).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", action = ArgAction::Append)]
    pub each: Vec<String>,
    /// Time control in seconds: `60+0.5` (base + increment), `40/90`
    /// (moves/time, repeating), `40/5400:10/900+30` (sessions).
    #[arg(long, value_parser = parse_tc, value_name = "TC")]
    pub tc: Option<TimeControl>,
    /// Fixed time per move, milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Fixed search depth (alone, or on top of a clock).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Fixed node count (alone, or on top of a clock).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Games per pairing (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Opening file (`FEN|moves` lines or PGN), `builtin` (the default
    /// suite, book/openings.txt) or `startpos`.
    #[arg(long, default_value = "builtin", value_name = "FILE")]
    pub openings: String,
    /// Order in which openings are used.
    #[arg(long, value_enum, default_value_t = OrderArg::Random)]
    pub openings_order: OrderArg,
    /// Seed for the opening order (default: from the clock; printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the games to this PGN file (appended).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Log all engine traffic to this file.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// PGN Event tag.
    #[arg(long, default_value = "chuhe match")]
    pub event: String,
    /// Natural move limit: a draw after this many moves without a capture.
    #[arg(long, default_value_t = 60)]
    pub draw_moves: u32,
    /// Checks per side that count towards the natural move limit.
    #[arg(long, default_value_t = 10)]
    pub check_cap: u32,
    /// Adjudicate a loss when the loser's last --resign-moves scores are
    /// all <= -CP and the winner's all >= CP. Off by default.
    #[arg(long, value_name = "CP")]
    pub resign_score: Option<i32>,
    /// Scores in a row, per side, for --resign-score.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub resign_moves: u32,
    /// Adjudicate a draw when, from move --draw-moves-after on, both sides'
    /// last --draw-count scores lie within ±CP. Off by default.
    #[arg(long, value_name = "CP")]
    pub draw_score: Option<i32>,
    /// First move number at which --draw-score may apply.
    #[arg(long, default_value_t = 40, value_name = "MOVE")]
    pub draw_moves_after: u32,
    /// Scores in a row, per side, for --draw-score.
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub draw_count: u32,
    /// Milliseconds a reply may overstep its clock (process overhead).
    #[arg(long, default_value_t = 100, value_name = "MS")]
    pub grace: u64,
    /// Seconds to wait for a move when there is no clock (depth or nodes
    /// only) before the engine is declared hung.
    #[arg(long, default_value_t = 60, value_name = "SECONDS")]
    pub hang_timeout: u64,
    /// Stop when the sequential probability ratio test decides, e.g.
    /// `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05` (these are the defaults).
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Play only shard K of N: the opening pairs numbered K-1, K-1+N,
    /// K-1+2N, ... of the whole match, with the openings, colours and game
    /// numbers the unsharded match gives them (needs --seed when the
    /// opening order is random; the SPRT is then `chuhe match merge`'s).
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u32, u32)>,
    /// Append one JSON record per finished game to this file (JSON Lines;
    /// `chuhe match merge` reads them back).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Go on with the match whose records are in the --json file: its games
    /// count as played and the rest are played (same engines, --games,
    /// --seed, openings and shard as the run that wrote them).
    #[arg(long, requires = "json")]
    pub resume: bool,
    /// Write the match's report to this HTML page (replaced): results,
    /// charts and every game on a board, one file that opens from disk.
    /// A running match rewrites it as games finish.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

/// `chuhe match` arguments: the options plus one token list per engine.
#[derive(Debug, Clone)]
pub struct MatchArgs {
    pub options: MatchOptions,
    pub engines: Vec<Vec<String>>,
    /// `chuhe match merge ...`, when given.
    pub merge: Option<MergeArgs>,
    /// `chuhe match report ...`, when given.
    pub report: Option<ReportArgs>,
    /// `chuhe match tally ...`, when given.
    pub tally: Option<TallyArgs>,
}

const ENGINE_HELP: &str = "An engine, as KEY=VALUE tokens (give at least two --engine): \
cmd=PATH (required), name=NAME, arg=ARG (repeatable), dir=DIR, proto=ucci|uci (default ucci), \
threads=N, hash=MB, option.NAME=VALUE, book=on|off (default off: usebook/OwnBook false), \
ranks=0|1 (1: UCI moves numbered from rank 1), and per-engine limits tc=, movetime=, depth=, nodes=";

const EXAMPLES: &str = "Examples:
  chuhe match --engine cmd=./chuhe name=new --engine cmd=./chuhe-base name=base \\
      --each hash=64 threads=1 --tc 10+0.1 --games 200 --concurrency 2 --pgn new-base.pgn \\
      --report new-base.html
  chuhe match --engine cmd=./chuhe --engine cmd=eleeye --tc 40/60 --sprt elo0=0 elo1=5
  chuhe match --engine cmd=./chuhe --engine cmd=fairy-stockfish proto=ucci --depth 8
  chuhe match --engine cmd=./chuhe --engine cmd=./base --nodes 20000 --games 400 \
      --seed 7 --shard 3/10 --json shard3.jsonl      (one tenth of the match)
  chuhe match merge shard*.jsonl --pgn all.pgn --sprt elo0=0 elo1=5
  chuhe match report shard*.jsonl -o match.html --sprt elo0=0 elo1=5
  chuhe match tally --pairs 4,23,20,18,4 --pairs 10,40,60,45,12 --sprt elo0=0 elo1=5

A game is lost by an illegal move (logged with its FEN and reason), nobestmove
while legal moves remain, a reply later than the clock plus --grace, a crash or
hang (the engine is restarted), resignation, mate or stalemate; repetition
verdicts, the natural move limit and dead material follow chuhe's rules.
ElephantEye answers nobestmove after 50 moves without a capture (its own rule):
against it, use --draw-moves 50. The summary (stdout) gives W/D/L, Elo with a 95% interval, LOS,
pentanomial pair counts and, per engine, time losses / illegal moves / crashes /
hangs, milliseconds per move and the lowest clock after a move.";

impl FromArgMatches for MatchArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let options = MatchOptions::from_arg_matches(m)?;
        let engines = m
            .get_occurrences::<String>("engine")
            .map(|occ| occ.map(|vals| vals.cloned().collect()).collect())
            .unwrap_or_default();
        let merge = m
            .subcommand_matches("merge")
            .map(MergeArgs::from_arg_matches)
            .transpose()?;
        let report = m
            .subcommand_matches("report")
            .map(ReportArgs::from_arg_matches)
            .transpose()?;
        let tally = m
            .subcommand_matches("tally")
            .map(TallyArgs::from_arg_matches)
            .transpose()?;
        Ok(MatchArgs {
            options,
            engines,
            merge,
            report,
            tally,
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = MatchArgs::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for MatchArgs {
    fn augment_args(cmd: Command) -> Command {
        MatchOptions::augment_args(cmd)
            .after_help(EXAMPLES)
            .args_conflicts_with_subcommands(true)
            .subcommand(MergeArgs::augment_args(Command::new("merge")).about(
                "Combine the JSON records of a match's games (the --json files of its \
                 shards) into its summary and PGN; each game counts once",
            ))
            .subcommand(ReportArgs::augment_args(Command::new("report")).about(
                "Write the HTML report of a match from the JSON records of its games \
                 (the --json files of its shards): results, charts, every game on a board",
            ))
            .subcommand(TallyArgs::augment_args(Command::new("tally")).about(
                "An SPRT and the Elo from pentanomial pair counts alone (--pairs, one per \
                 batch): one test continued over sessions whose records are gone",
            ))
            .arg(
                Arg::new("engine")
                    .long("engine")
                    .num_args(1..)
                    .action(ArgAction::Append)
                    .value_name("KEY=VALUE")
                    .help(ENGINE_HELP),
            )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        MatchArgs::augment_args(cmd)
    }
}

fn seed_from_clock() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
        % 1_000_000_000
}

impl MatchArgs {
    /// Checks the arguments and builds the match configuration.
    pub fn to_config(&self) -> Result<MatchConfig, String> {
        let o = &self.options;
        if self.engines.len() < 2 {
            return Err("give at least two --engine".into());
        }
        let engines = self
            .engines
            .iter()
            .map(|tokens| {
                let all: Vec<&String> = o.each.iter().chain(tokens).collect();
                EngineSpec::parse(&all)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let limits = MatchLimits {
            tc: o.tc.clone(),
            movetime_ms: o.movetime,
            depth: o.depth,
            nodes: o.nodes,
        };
        for e in &engines {
            let l = limits.overridden_by(&e.limits);
            if l.is_empty() {
                return Err(format!(
                    "{}: no limit: give --tc, --movetime, --depth or --nodes",
                    e.name
                ));
            }
            if l.tc.is_some() && l.movetime_ms.is_some() {
                return Err(format!("{}: give a clock or a move time, not both", e.name));
            }
        }
        if o.games == 0 || o.concurrency == 0 {
            return Err("--games and --concurrency must be at least 1".into());
        }
        let sprt = match &o.sprt {
            Some(tokens) => {
                if engines.len() != 2 {
                    return Err("--sprt needs exactly two engines".into());
                }
                Some(Sprt::parse(tokens)?)
            }
            None => None,
        };
        let shard = o.shard.unwrap_or((1, 1));
        if shard.1 > 1 {
            if sprt.is_some() {
                return Err("--sprt with --shard: a shard plays all its games; give \
                            --sprt to `chuhe match merge`, which decides on all shards"
                    .into());
            }
            if o.seed.is_none() && o.openings_order == OrderArg::Random {
                return Err("--shard needs --seed (every shard must shuffle the \
                            openings alike) or --openings-order sequential"
                    .into());
            }
        }
        if o.resume && o.seed.is_none() && o.openings_order == OrderArg::Random {
            return Err("--resume needs the --seed the match was started with".into());
        }
        let (openings, openings_name): (Vec<Opening>, String) = match o.openings.as_str() {
            "builtin" => (openings::parse_text(openings::BUILTIN)?, "builtin".into()),
            "startpos" => (vec![Opening::startpos()], "startpos".into()),
            path => (
                openings::load(std::path::Path::new(path))?,
                path.to_string(),
            ),
        };
        let adjudication = Adjudication {
            resign: o.resign_score.map(|s| (s.abs(), o.resign_moves.max(1))),
            draw: o.draw_score.map(|s| DrawAdjudication {
                score: s.abs(),
                after_move: o.draw_moves_after,
                count: o.draw_count.max(1),
            }),
        };
        Ok(MatchConfig {
            engines,
            limits,
            games: o.games,
            concurrency: o.concurrency,
            openings,
            openings_name,
            order: match o.openings_order {
                OrderArg::Random => Order::Random,
                OrderArg::Sequential => Order::Sequential,
            },
            seed: o.seed.unwrap_or_else(seed_from_clock),
            referee: RefereeSettings {
                rules: RuleSettings {
                    move_limit: o.draw_moves,
                    check_cap: o.check_cap,
                },
                grace_ms: o.grace,
                hang_timeout: Duration::from_secs(o.hang_timeout.max(1)),
                adjudication,
            },
            sprt,
            pgn: o.pgn.clone(),
            log: o.log.clone(),
            event: o.event.clone(),
            shard,
            json: o.json.clone(),
            resume: o.resume,
            report: o.report.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn parse(line: &str) -> Result<MatchArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("match").chain(line.split_whitespace())).map(|c| c.args)
    }

    #[test]
    fn engines_keep_their_tokens_apart() {
        let a = parse(
            "--engine cmd=a name=A threads=2 --tc 10+0.1 --engine cmd=b proto=uci \
             --each hash=32 --sprt elo0=0 elo1=10 --games 20",
        )
        .unwrap();
        assert_eq!(a.engines.len(), 2);
        assert_eq!(a.engines[0], ["cmd=a", "name=A", "threads=2"]);
        assert_eq!(a.engines[1], ["cmd=b", "proto=uci"]);
        let c = a.to_config().unwrap();
        assert_eq!(c.engines[0].name, "A");
        assert_eq!(c.engines[1].hash_mb, Some(32));
        assert_eq!(c.engines[0].threads, Some(2));
        assert_eq!(c.sprt.unwrap().elo1, 10.0);
        assert_eq!(c.games, 20);
        assert_eq!(c.limits.tc.as_ref().unwrap().to_string(), "10+0.1");
        assert!(c.openings.len() > 50);
    }

    #[test]
    fn bare_sprt_takes_the_defaults() {
        let a = parse("--engine cmd=a --engine cmd=b --depth 3 --sprt").unwrap();
        assert_eq!(a.to_config().unwrap().sprt, Some(Sprt::default()));
    }

    #[test]
    fn shards_and_merge() {
        assert_eq!(parse_shard("3/8"), Ok((3, 8)));
        for bad in ["0/2", "3/2", "2", "a/b", "1/0"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        let a =
            parse("--engine cmd=a --engine cmd=b --depth 3 --seed 4 --shard 2/5 --json x").unwrap();
        let c = a.to_config().unwrap();
        assert_eq!(c.shard, (2, 5));
        assert_eq!(c.json, Some(PathBuf::from("x")));
        assert!(a.merge.is_none());
        let whole = parse("--engine cmd=a --engine cmd=b --depth 3").unwrap();
        assert_eq!(whole.to_config().unwrap().shard, (1, 1));
        for line in [
            // Each shard would shuffle the openings its own way.
            "--engine cmd=a --engine cmd=b --depth 3 --shard 1/2",
            // A shard's SPRT would stop on a part of the games.
            "--engine cmd=a --engine cmd=b --depth 3 --seed 1 --shard 1/2 --sprt",
        ] {
            assert!(parse(line).unwrap().to_config().is_err(), "{line}");
        }
        let ok = "--engine cmd=a --engine cmd=b --depth 3 --shard 1/2 --openings-order sequential";
        assert!(parse(ok).unwrap().to_config().is_ok());

        let m = parse("merge a.jsonl b.jsonl --pgn all.pgn --sprt elo1=10 c.jsonl")
            .unwrap()
            .merge
            .unwrap()
            .normalised();
        assert_eq!(
            m.files,
            ["a.jsonl", "b.jsonl", "c.jsonl"].map(PathBuf::from)
        );
        assert_eq!(m.sprt, Some(vec!["elo1=10".to_string()]));
        assert_eq!(m.pgn, Some(PathBuf::from("all.pgn")));
        // Match options do not mix with merge.
        assert!(parse("--games 4 merge a.jsonl").is_err());
    }

    #[test]
    fn rejects_bad_matches() {
        for line in [
            "--engine cmd=a --depth 3",
            "--engine cmd=a --engine cmd=b",
            "--engine cmd=a --engine cmd=b --tc 1+0 --movetime 100",
            "--engine cmd=a --engine cmd=b --engine cmd=c --depth 2 --sprt",
            "--engine cmd=a --engine cmd=b --depth 2 --games 0",
            "--engine cmd=a --engine name=b --depth 2",
            "--engine cmd=a --engine cmd=b --depth 2 --openings /nonexistent/file",
            // Resuming needs the records and the seed that shuffled them.
            "--engine cmd=a --engine cmd=b --depth 2 --seed 3 --resume",
            "--engine cmd=a --engine cmd=b --depth 2 --json x --resume",
        ] {
            let r = parse(line)
                .map_err(|e| e.to_string())
                .and_then(|a| a.to_config().map(|_| ()));
            assert!(r.is_err(), "{line}");
        }
        assert!(parse("--engine cmd=a --engine cmd=b --tc fast").is_err());
    }
}
