//! The `chuhe` binary: with no subcommand it runs the protocol loop (UCCI or
//! UCI on stdin/stdout); subcommands run the tools.

use chuhe::position::Position;
use chuhe::rules::{MoveClass, RuleSettings};
use chuhe::tools::judge;
use chuhe::tools::perft::{self, LeafCounting};
use chuhe::types::Move;
use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "chuhe",
    version,
    about = "chuhe, a xiangqi engine (UCCI and UCI)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree to a depth.
    Perft {
        depth: u32,
        /// Position to start from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Make and unmake every leaf move instead of counting the last ply
        /// from the move list.
        #[arg(long)]
        full: bool,
    },
    /// Perft split by root move.
    Divide {
        depth: u32,
        #[arg(long)]
        fen: Option<String>,
    },
    /// Replay a game and print the rules' verdict:
    /// `result <ongoing|red-wins|black-wins|draw> reason <word> ply <n>`.
    Judge {
        /// Position the game starts from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// The moves played, ICCS, separated by spaces ("h2e2 h9g7").
        #[arg(long, default_value = "")]
        moves: String,
        /// Natural move limit in full moves without a capture (50 for WXF
        /// events; 0 turns it off).
        #[arg(long, default_value_t = RuleSettings::default().move_limit)]
        draw_moves: u32,
        /// Checks per side in a run that count towards the move limit.
        #[arg(long, default_value_t = RuleSettings::default().check_cap)]
        check_cap: u32,
        /// Print each move's class (check, chase, idle) to stderr.
        #[arg(long)]
        trace: bool,
    },
}

fn position_from(fen: Option<&str>) -> Result<Position, String> {
    match fen {
        None => Ok(Position::startpos()),
        Some(f) => Position::from_fen(f).map_err(|e| format!("invalid FEN: {e}")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = match cli.command {
        None => {
            eprintln!(
                "chuhe {}: the protocol loop is not built yet",
                env!("CARGO_PKG_VERSION")
            );
            Ok(())
        }
        Some(Command::Perft { depth, fen, full }) => {
            position_from(fen.as_deref()).and_then(|mut pos| {
                let counting = if full {
                    LeafCounting::MakeUnmake
                } else {
                    LeafCounting::Bulk
                };
                perft::run_perft(&mut pos, depth, counting, &mut out)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })
        }
        Some(Command::Divide { depth, fen }) => {
            position_from(fen.as_deref()).and_then(|mut pos| {
                perft::run_divide(&mut pos, depth, &mut out)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })
        }
        Some(Command::Judge {
            fen,
            moves,
            draw_moves,
            check_cap,
            trace,
        }) => {
            let settings = RuleSettings {
                move_limit: draw_moves,
                check_cap,
            };
            let mut print = |ply: usize, m: Move, class: MoveClass| {
                eprintln!("ply {ply} {m} {}", class.word());
            };
            let tracer: Option<&mut dyn FnMut(usize, Move, MoveClass)> =
                if trace { Some(&mut print) } else { None };
            judge::judge_game_traced(fen.as_deref(), &moves, &settings, tracer)
                .map_err(|e| e.to_string())
                .and_then(|v| {
                    if v.moves_after_end > 0 {
                        eprintln!(
                            "note: {} move(s) after the end of the game were ignored",
                            v.moves_after_end
                        );
                    }
                    writeln!(out, "{}", v.line()).map_err(|e| e.to_string())
                })
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
