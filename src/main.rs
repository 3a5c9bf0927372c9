//! The `chuhe` binary: with no subcommand it runs the protocol loop (UCCI or
//! UCI on stdin/stdout); subcommands run the tools.

use chuhe::position::Position;
use chuhe::tools::book::BookCommand;
use chuhe::tools::perft::{self, LeafCounting};
use clap::{Parser, Subcommand};
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
    /// Opening book: build, probe, stats.
    Book {
        #[command(subcommand)]
        command: BookCommand,
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
        Some(Command::Book { command }) => chuhe::tools::book::run(command, &mut out),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
