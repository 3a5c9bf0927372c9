//! The `chuhe` binary: with no subcommand it runs the protocol loop (UCCI or
//! UCI on stdin/stdout); subcommands run the tools.

use chuhe::bench;
use chuhe::engine::SearchSetup;
use chuhe::perft::{self, LeafCounting};
use chuhe::position::Position;
use chuhe::replay::{self, Accept};
use chuhe::rules::{MoveClass, RuleSettings};
use chuhe::thread::MAX_THREADS;
use chuhe::time::Limits;
use chuhe::tools::book::BookCommand;
use chuhe::tools::judge;
use chuhe::tools::{analyse, mates, openings, timeplan, tune};
use chuhe::tunables::Tunables;
use chuhe::types::Move;
use clap::{Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

#[derive(Parser)]
#[command(
    name = "chuhe",
    version = chuhe::VERSION,
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
    /// Search the fixed bench positions (1 thread, 16 MB hash); the node
    /// total is the build's search signature.
    Bench {
        /// Depth per position.
        #[arg(default_value_t = chuhe::bench::DEFAULT_DEPTH)]
        depth: i32,
        /// Search threads (the signature is defined for 1).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash table, MB (the signature is defined for 16).
        #[arg(long, default_value_t = chuhe::bench::HASH_MB)]
        hash: usize,
        #[command(flatten)]
        eval: EvalChoice,
        /// Set a search tunable, `NAME=VALUE` (repeatable; see `chuhe tunables`).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
    },
    /// Analyse a position and print each iteration.
    Analyse {
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the position, ICCS (`h2e2 h9g7`).
        #[arg(long)]
        moves: Option<String>,
        #[arg(long, conflicts_with = "movetime")]
        depth: Option<i32>,
        /// Milliseconds to think.
        #[arg(long)]
        movetime: Option<u64>,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash table size, MB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        #[arg(long, default_value_t = 1)]
        multipv: usize,
        #[command(flatten)]
        eval: EvalChoice,
        /// Also draw the position as an SVG diagram, with the principal
        /// variation's first moves as arrows, to this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<String>,
        /// Moves of the principal variation drawn as arrows.
        #[arg(long, default_value_t = 3, value_name = "N")]
        pv_arrows: usize,
        #[command(flatten)]
        drawing: DrawingArgs,
    },
    /// Draw a position as an SVG diagram: FEN and moves in, the board out,
    /// with optional arrows (the drawing of `match --report` and `analyse
    /// --svg`).
    Board {
        /// Position to start from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the position, ICCS (`h2e2 h9g7`).
        #[arg(long)]
        moves: Option<String>,
        /// Moves drawn as arrows, ICCS, the first boldest (a principal
        /// variation, or moves to compare).
        #[arg(long)]
        arrows: Option<String>,
        /// Where to write the SVG (default: standard output).
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<String>,
        #[command(flatten)]
        drawing: DrawingArgs,
    },
    /// Fit the evaluation weights to game results (Texel tuning) and write
    /// them as Rust source.
    Tune {
        /// Game files, plain or xz-compressed: master-games TSV, or PGN (as
        /// `chuhe match` writes it).
        #[arg(long, required = true, num_args = 1..)]
        games: Vec<String>,
        /// Where to write the weights.
        #[arg(long, default_value = "src/eval_params.in")]
        out: String,
        #[arg(long, default_value_t = 400)]
        epochs: usize,
        #[arg(long, default_value_t = 2_000_000)]
        max_positions: usize,
        /// Keep every k-th position of a game.
        #[arg(long, default_value_t = 2)]
        every: usize,
        /// Skip the first plies of each game.
        #[arg(long, default_value_t = 16)]
        min_ply: usize,
        #[arg(long, default_value_t = 2.0)]
        learning_rate: f64,
        /// L2 pull toward the starting weights (per unit squared).
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
    },
    /// Tune the search's tunables by SPSA: game pairs between two copies
    /// of an engine binary with perturbed settings (hidden options, no
    /// rebuild), as `chuhe match` plays them.
    Spsa {
        /// The engine to tune (a chuhe build; default: this binary).
        #[arg(long)]
        engine: Option<String>,
        #[arg(long, default_value_t = 1000)]
        iterations: u32,
        /// Game pairs per iteration.
        #[arg(long, default_value_t = 1)]
        pairs: u32,
        /// Time control per game (chuhe match --tc), unless --nodes.
        #[arg(long, default_value = "2+0.02")]
        tc: String,
        /// Fixed nodes per move instead of a clock.
        #[arg(long)]
        nodes: Option<u64>,
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        /// Hash per engine, MB.
        #[arg(long, default_value_t = 16)]
        hash: u32,
        /// Tunables to tune (default: all), comma-separated.
        #[arg(long, value_delimiter = ',')]
        params: Vec<String>,
        /// Learning rate at the last iteration.
        #[arg(long, default_value_t = 0.002)]
        r_end: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// State file, written every iteration and resumed from.
        #[arg(long, default_value = "spsa-state.txt")]
        state: String,
    },
    /// List the search's tunables (hidden engine options for SPSA tuners):
    /// name, default, range and SPSA step.
    Tunables,
    /// Generate training positions for the network: self-play at a fixed
    /// node count (default), or scored positions of existing games or data.
    Datagen(Box<DatagenArgs>),
    /// The training-data store: check every shard against its description,
    /// make MANIFEST.tsv again and print it; `--import` first copies in the
    /// shards of another store (one made on a lent machine, say).
    Store {
        /// The store (default: $CHUHE_DATA, else
        /// $XDG_DATA_HOME/chuhe/data, else ~/.local/share/chuhe/data).
        #[arg(long)]
        dir: Option<String>,
        /// A store whose shards to copy in; refused as a whole if one of
        /// them is short of records or repeats a file name or seed.
        #[arg(long)]
        import: Vec<String>,
    },
    /// Train the evaluation network on datagen records and write the
    /// quantised network file.
    Train(Box<TrainArgs>),
    /// Fit the win/draw/loss model (UCI_ShowWDL) to the master games'
    /// results against chuhe's scores, and write its coefficients.
    WdlFit {
        /// The labelled positions (ccpd-labels-5k.tsv.xz, plain or xz).
        #[arg(long, default_value = "../shared/data/ccpd-labels-5k.tsv.xz")]
        data: String,
        /// Where to write the coefficients (e.g. src/wdl_params.rs); none:
        /// report only.
        #[arg(long)]
        out: Option<String>,
        /// Use every k-th position.
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// Adam iterations.
        #[arg(long, default_value_t = 3000)]
        iterations: usize,
    },
    /// Print the time the time manager allots per move over a simulated game.
    Timeplan {
        /// The time control, as `chuhe match --tc` takes it: `600+10`,
        /// `40/5400:10/900+30`, `40/600:300`.
        #[arg(long)]
        tc: String,
        #[arg(long, default_value_t = 40)]
        moves: u32,
    },
    /// Mate and stalemate suite from the ends of master games: build it,
    /// or run the search on it and report the solve rate.
    Mates {
        #[command(subcommand)]
        command: MatesCommand,
    },
    /// Opening book: build, probe, stats.
    Book {
        #[command(subcommand)]
        command: BookCommand,
    },
    /// The default opening suite of `chuhe match` (book/openings.txt).
    Openings {
        #[command(subcommand)]
        command: OpeningsCommand,
    },
    /// Play an engine-vs-engine match (UCCI or UCI engines), refereed by
    /// chuhe's rules, with PGN output, Elo and an optional SPRT stop.
    Match(Box<chuhe::arena::cli::MatchArgs>),
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

/// How `board` and `analyse --svg` draw the board.
#[derive(clap::Args)]
struct DrawingArgs {
    /// Black's view: Black at the bottom.
    #[arg(long)]
    flip: bool,
    /// No coordinates on the edges.
    #[arg(long)]
    no_coordinates: bool,
    /// Mark the last of --moves on the board.
    #[arg(long)]
    last_move: bool,
}

impl DrawingArgs {
    fn options(&self, pos: &Position) -> chuhe::diagram::Options {
        chuhe::diagram::Options {
            flip: self.flip,
            coordinates: !self.no_coordinates,
            last_move: self.last_move.then(|| pos.last_move()),
            ..chuhe::diagram::Options::default()
        }
    }
}

#[derive(Subcommand)]
enum OpeningsCommand {
    /// Choose the suite from master games (see src/tools/openings.rs).
    Build {
        /// Master games, CCPD TSV or PGN (plain or .xz).
        #[arg(long, default_value = "../shared/data/ccpd-iccs.tsv.xz")]
        games: String,
        /// Output file [default: book/openings.txt, or book/openings-wide.txt with --wide]
        #[arg(long)]
        out: Option<String>,
        /// The wide suite: up to 1,000 lines of 10 plies (832 from the CCPD
        /// games), for fixed-node matches, where one opening always replays
        /// the same game.
        #[arg(long)]
        wide: bool,
    },
}

#[derive(Subcommand)]
enum MatesCommand {
    /// Write the suite: positions a few plies before each game's end by
    /// mate or stalemate, with every winning first move (brute force).
    Build {
        /// Master games, CCPD ICCS TSV (plain or .xz).
        #[arg(long)]
        games: String,
        #[arg(long, default_value = mates::DEFAULT_SUITE)]
        out: String,
        /// Longest forced win looked for, in moves of the winner (4 takes
        /// a few minutes).
        #[arg(long, default_value_t = 4)]
        max_moves: u32,
    },
    /// Search every suite position and count the winning first moves.
    Run {
        #[arg(long, default_value = mates::DEFAULT_SUITE)]
        suite: String,
        /// Milliseconds per position (the search stops early once it has
        /// proved the win).
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        /// Nodes per position instead of the time (reproducible with one
        /// thread).
        #[arg(long, conflicts_with = "movetime")]
        nodes: Option<u64>,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash table, MB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Only the first N positions.
        #[arg(long)]
        limit: Option<usize>,
        #[command(flatten)]
        eval: EvalChoice,
        /// Set a search tunable, `NAME=VALUE` (repeatable; see `chuhe tunables`).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        set: Vec<String>,
    },
}

/// Which evaluation a search tool uses: the engine's default network
/// unless told otherwise.
#[derive(clap::Args)]
struct EvalChoice {
    /// Search with the classical evaluation instead of the network.
    #[arg(long, conflicts_with = "evalfile")]
    classical: bool,
    /// Search with this network file instead of the embedded one.
    #[arg(long)]
    evalfile: Option<String>,
}

#[derive(clap::Args)]
struct DatagenArgs {
    #[command(flatten)]
    eval: EvalChoice,
    /// Output file (32-byte records; see src/nnue/data.rs).
    #[arg(long, required_unless_present = "store", conflicts_with = "store")]
    out: Option<String>,
    /// Add a shard to the data store (DIR, or $CHUHE_DATA, or
    /// ~/.local/share/chuhe/data): NAME.bin, NAME.json, MANIFEST.tsv.
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "")]
    store: Option<String>,
    /// Append to the output instead of replacing it.
    #[arg(long)]
    append: bool,
    /// Nodes searched per position.
    #[arg(long, default_value_t = chuhe::tools::datagen::DEFAULT_NODES)]
    nodes: u64,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the random choices; distinct seeds give disjoint data
    /// (default 1, or with --store one above every seed in the store).
    #[arg(long)]
    seed: Option<u64>,
    /// Stop after about this many positions.
    #[arg(long)]
    positions: Option<u64>,
    /// Stop after this many games (self-play) or source games.
    #[arg(long)]
    games: Option<u64>,
    /// Make only shard K of N (`--shard 3/8`): games K-1, K-1+N, ...
    #[arg(long, default_value = "1/1")]
    shard: String,
    /// Self-play: master games (TSV or PGN, plain or .xz) to start from.
    #[arg(long)]
    openings: Option<String>,
    /// Self-play: share of games that start from a master-game position.
    #[arg(long, default_value_t = 0.5)]
    master_share: f64,
    /// Self-play: random plies played from the start position (plus 0-2).
    #[arg(long, default_value_t = 6)]
    random_plies: u32,
    /// Score the positions of these games instead of playing (TSV or PGN).
    #[arg(long, conflicts_with_all = ["label", "from_labels"])]
    from_games: Option<String>,
    /// Score the records of this file again with the current engine.
    #[arg(long, conflicts_with_all = ["from_games", "from_labels"])]
    label: Option<String>,
    /// Convert a TSV of positions already scored (ccpd-labels layout).
    #[arg(long, conflicts_with_all = ["from_games", "label"])]
    from_labels: Option<String>,
    /// Skip positions of source games before this ply.
    #[arg(long, default_value_t = 8)]
    min_ply: u32,
}

#[derive(clap::Args)]
struct TrainArgs {
    /// Training record files (chuhe datagen output).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<String>,
    /// Validation record files (default: hold out --val-share of the data).
    #[arg(long, num_args = 1..)]
    validation: Vec<String>,
    #[arg(long, default_value_t = 0.02)]
    val_share: f64,
    /// The network file to write (a checkpoint goes to OUT.ckpt).
    #[arg(long)]
    out: String,
    #[arg(long, default_value_t = 12)]
    epochs: usize,
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Learning-rate factor applied every --lr-drop-every epochs.
    #[arg(long, default_value_t = 0.3)]
    lr_drop: f32,
    #[arg(long, default_value_t = 5)]
    lr_drop_every: usize,
    /// Weight of the search score in the target; the rest is the game result.
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Sigmoid scale in centipawns: win probability = sigmoid(score / K).
    #[arg(long, default_value_t = 260.0)]
    k: f32,
    /// Threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Do not show positions mirrored left-right.
    #[arg(long)]
    no_mirror: bool,
    /// Use at most this many training positions.
    #[arg(long)]
    max_positions: Option<usize>,
    /// Continue from a checkpoint (OUT.ckpt of an earlier run).
    #[arg(long)]
    resume: Option<String>,
    /// Start from the weights of this network file (of the same shape and
    /// kind) instead of random ones: fine-tune a network on new data.
    #[arg(long, conflicts_with = "resume")]
    init: Option<String>,
    /// Text added to the network's description.
    #[arg(long, default_value = "")]
    note: String,
    /// Train the network as a correction added to the classical evaluation.
    #[arg(long)]
    on_classical: bool,
    /// The network's shape: `[k6-]HIDDEN[-L2[-L3]][/OUTPUT_BUCKETS]`, e.g.
    /// `256/1` (the first generation) or `k6-512-16-32/8` (king input
    /// buckets, two dense layers, eight output buckets by material).
    #[arg(long, default_value = "256/1", value_parser = chuhe::nnue::arch::Shape::parse)]
    shape: chuhe::nnue::arch::Shape,
    /// Write the network of the epoch with the lowest validation loss
    /// instead of the last epoch's (with --rounded-from, the loss of each
    /// epoch's rounded network, the one that would be written).
    #[arg(long)]
    keep_best: bool,
    /// From this epoch on (1 = every epoch), train the network as its
    /// file rounds it: the loss and gradient of the rounded weights update
    /// the float ones, so a fine-tune's small steps are not rounded away.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    rounded_from: Option<u64>,
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("bad shard '{s}': expected K/N with 1 <= K <= N");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

fn position_from(fen: Option<&str>) -> Result<Position, String> {
    match fen {
        None => Ok(Position::startpos()),
        Some(f) => Position::from_fen(f).map_err(|e| format!("invalid FEN: {e}")),
    }
}

/// Plays ICCS moves on `pos`, naming the first one that is not legal.
fn apply_moves(mut pos: Position, moves: Option<&str>) -> Result<Position, String> {
    let texts = moves.unwrap_or("").split_whitespace();
    replay::replay(&mut pos, texts, Accept::Iccs)
        .map_err(|e| format!("move {} ({}) is not legal", e.index, e.text))?;
    Ok(pos)
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            if std::io::stdin().is_terminal() {
                eprintln!(
                    "{}: waiting for `ucci`, `uci` or `help`",
                    chuhe::protocol::NAME_LINE
                );
            }
            chuhe::protocol::run_stdio();
            Ok(())
        }
        Some(cmd) => run_tool(cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_tool(cmd: Command) -> Result<(), String> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let io = |r: std::io::Result<u64>| r.map(|_| ()).map_err(|e| e.to_string());
    match cmd {
        Command::Perft { depth, fen, full } => {
            let mut pos = position_from(fen.as_deref())?;
            let counting = if full {
                LeafCounting::MakeUnmake
            } else {
                LeafCounting::Bulk
            };
            io(perft::run_perft(&mut pos, depth, counting, &mut out))
        }
        Command::Divide { depth, fen } => {
            let mut pos = position_from(fen.as_deref())?;
            io(perft::run_divide(&mut pos, depth, &mut out))
        }
        Command::Bench {
            depth,
            threads,
            hash,
            eval,
            set,
        } => {
            let setup = bench::Setup {
                threads: threads.clamp(1, MAX_THREADS),
                hash_mb: hash.clamp(1, chuhe::options::MAX_HASH_MB),
                classical: eval.classical,
                evalfile: eval.evalfile,
                tunables: Tunables::with_assignments(&set)?,
            };
            io(bench::run_with(depth.clamp(1, 64), &setup, &mut out))
        }
        Command::Analyse {
            fen,
            moves,
            depth,
            movetime,
            threads,
            hash,
            multipv,
            eval,
            svg,
            pv_arrows,
            drawing,
        } => {
            let pos = apply_moves(position_from(fen.as_deref())?, moves.as_deref())?;
            let picture = svg.map(|path| analyse::Picture {
                path: path.into(),
                options: drawing.options(&pos),
                pv_moves: pv_arrows,
            });
            let limits = match (depth, movetime) {
                (_, Some(ms)) => Limits::movetime(ms),
                (Some(d), None) => Limits::depth(d),
                (None, None) => Limits::depth(14),
            };
            let opts = analyse::AnalyseOptions {
                limits,
                setup: SearchSetup {
                    threads: threads.clamp(1, MAX_THREADS),
                    hash_mb: hash.clamp(1, chuhe::options::MAX_HASH_MB),
                    classical: eval.classical,
                    evalfile: eval.evalfile,
                    ..SearchSetup::default()
                },
                multipv,
                picture,
            };
            drop(out);
            let sink: Arc<Mutex<dyn Write + Send>> = Arc::new(Mutex::new(std::io::stdout()));
            analyse::run(pos, opts, sink)
        }
        Command::Board {
            fen,
            moves,
            arrows,
            output,
            drawing,
        } => {
            let pos = apply_moves(position_from(fen.as_deref())?, moves.as_deref())?;
            let arrows = arrows
                .unwrap_or_default()
                .split_whitespace()
                .map(|t| Move::parse(t).ok_or_else(|| format!("arrow '{t}' is not an ICCS move")))
                .collect::<Result<Vec<_>, _>>()?;
            let svg = chuhe::diagram::svg(
                &pos,
                &chuhe::diagram::Options {
                    arrows,
                    ..drawing.options(&pos)
                },
            );
            match output.as_deref() {
                None | Some("-") => out.write_all(svg.as_bytes()).map_err(|e| e.to_string()),
                Some(path) => std::fs::write(path, svg).map_err(|e| format!("{path}: {e}")),
            }
        }
        Command::Tune {
            games,
            out: path,
            epochs,
            max_positions,
            every,
            min_ply,
            learning_rate,
            l2,
        } => {
            let opts = tune::TuneOptions {
                min_ply,
                every: every.max(1),
                max_positions,
                epochs,
                learning_rate,
                l2,
            };
            tune::run(&games, &path, &opts, &mut out)
        }
        Command::Datagen(a) => {
            use chuhe::tools::datagen::{self, DatagenOptions, Source};
            let source = match (a.from_games, a.label, a.from_labels) {
                (Some(g), _, _) => Source::Games(g),
                (_, Some(l), _) => Source::Relabel(l),
                (_, _, Some(t)) => Source::Labels(t),
                _ => Source::SelfPlay {
                    openings: a.openings,
                },
            };
            use chuhe::tools::datastore;
            let (out_file, seed, store) = match (a.out, a.store) {
                (Some(file), None) => (file, a.seed.unwrap_or(1), None),
                (_, Some(dir)) => {
                    let dir = match dir.as_str() {
                        "" => datastore::default_dir(),
                        d => std::path::PathBuf::from(d),
                    };
                    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                    let seed = match a.seed {
                        Some(s) => s,
                        None => datastore::next_seed(&datastore::shards(&dir)?),
                    };
                    let name = datastore::shard_name(&source.describe(), datastore::now(), seed);
                    let out = dir
                        .join(format!("{name}.bin"))
                        .to_string_lossy()
                        .into_owned();
                    eprintln!("datagen: shard {out} (seed {seed})");
                    (out, seed, Some(dir))
                }
                (None, None) => return Err("datagen needs --out FILE or --store [DIR]".into()),
            };
            // SIGINT/SIGTERM: write the records so far and stop cleanly.
            if let Err(e) = ctrlc::set_handler(|| {
                datagen::STOP_REQUESTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }) {
                eprintln!(
                    "datagen: no signal handler ({e}); records are still flushed every few seconds"
                );
            }
            let opts = DatagenOptions {
                source,
                out: out_file,
                nodes: a.nodes.max(1),
                threads: a.threads.clamp(1, MAX_THREADS),
                seed,
                positions: a.positions,
                games: a.games,
                shard: parse_shard(&a.shard)?,
                master_share: a.master_share.clamp(0.0, 1.0),
                random_plies: a.random_plies,
                min_ply: a.min_ply,
                append: a.append,
                classical: a.eval.classical,
                evalfile: a.eval.evalfile,
                store,
            };
            drop(out);
            datagen::run(&opts, &mut std::io::stderr())
        }
        Command::Train(a) => {
            use chuhe::tools::train::{self, TrainOptions};
            let defaults = TrainOptions::default();
            let opts = TrainOptions {
                data: a.data,
                validation: a.validation,
                val_share: a.val_share.clamp(0.0, 0.5),
                out: a.out,
                epochs: a.epochs,
                batch: a.batch.max(1),
                lr: a.lr,
                lr_drop: a.lr_drop,
                lr_drop_every: a.lr_drop_every.max(1),
                lambda: a.lambda.clamp(0.0, 1.0),
                k: a.k.max(1.0),
                threads: a.threads.unwrap_or(defaults.threads).clamp(1, MAX_THREADS),
                seed: a.seed,
                mirror: !a.no_mirror,
                max_positions: a.max_positions,
                resume: a.resume,
                init: a.init,
                note: a.note,
                shape: a.shape,
                keep_best: a.keep_best,
                rounded_from: a.rounded_from.map(|e| e as usize),
                base: if a.on_classical {
                    chuhe::nnue::Base::Classical(chuhe::eval::signature())
                } else {
                    chuhe::nnue::Base::None
                },
            };
            train::run(&opts, &mut out)
        }
        Command::Book { command } => chuhe::tools::book::run(command, &mut out),
        Command::Spsa {
            engine,
            iterations,
            pairs,
            tc,
            nodes,
            concurrency,
            hash,
            params,
            r_end,
            seed,
            state,
        } => {
            let engine = match engine {
                Some(e) => e,
                None => std::env::current_exe()
                    .map_err(|e| e.to_string())?
                    .to_string_lossy()
                    .into_owned(),
            };
            let limits = match nodes {
                Some(n) => vec!["--nodes".to_string(), n.to_string()],
                None => vec!["--tc".to_string(), tc],
            };
            let opts = chuhe::tools::spsa::SpsaOptions {
                engine,
                iterations,
                pairs: pairs.max(1),
                limits,
                concurrency: concurrency.max(1),
                hash_mb: hash.max(1),
                params,
                r_end,
                seed,
                state,
            };
            chuhe::tools::spsa::run(&opts, &mut out)
        }
        Command::Store { dir, import } => {
            use chuhe::tools::datastore;
            let dir = dir.map_or_else(datastore::default_dir, std::path::PathBuf::from);
            datastore::run(&dir, &import, &mut std::io::stdout())
        }
        Command::Tunables => {
            let mut text = String::from("# name default min max step: meaning\n");
            for s in chuhe::tunables::SPECS {
                text.push_str(&format!(
                    "{} {} {} {} {}: {}\n",
                    s.name,
                    s.default,
                    s.min,
                    s.max,
                    s.step,
                    s.doc.trim()
                ));
            }
            out.write_all(text.as_bytes()).map_err(|e| e.to_string())
        }
        Command::Openings {
            command:
                OpeningsCommand::Build {
                    games,
                    out: path,
                    wide,
                },
        } => {
            let (rules, default_out) = if wide {
                (openings::SuiteRules::WIDE, "book/openings-wide.txt")
            } else {
                (openings::SuiteRules::DEFAULT, "book/openings.txt")
            };
            let path = path.unwrap_or_else(|| default_out.to_string());
            openings::build(Path::new(&games), Path::new(&path), rules)
                .and_then(|said| writeln!(out, "{said}").map_err(|e| e.to_string()))
        }
        Command::Mates { command } => match command {
            MatesCommand::Build {
                games,
                out: path,
                max_moves,
            } => mates::build(
                Path::new(&games),
                Path::new(&path),
                max_moves.clamp(1, 4),
                &mut out,
            ),
            MatesCommand::Run {
                suite,
                movetime,
                nodes,
                threads,
                hash,
                limit,
                eval,
                set,
            } => {
                let opts = mates::RunOptions {
                    movetime_ms: movetime,
                    nodes,
                    setup: SearchSetup {
                        threads: threads.clamp(1, MAX_THREADS),
                        hash_mb: hash.clamp(1, chuhe::options::MAX_HASH_MB),
                        classical: eval.classical,
                        evalfile: eval.evalfile,
                        tunables: Tunables::with_assignments(&set)?,
                    },
                    limit,
                };
                mates::run(Path::new(&suite), &opts, &mut out)
            }
        },
        Command::WdlFit {
            data,
            out: path,
            every,
            iterations,
        } => chuhe::tools::wdl_fit::run(
            std::path::Path::new(&data),
            path.as_deref().map(std::path::Path::new),
            every,
            iterations.max(1),
            &mut out,
        ),
        Command::Judge {
            fen,
            moves,
            draw_moves,
            check_cap,
            trace,
        } => {
            let settings = RuleSettings {
                move_limit: draw_moves,
                check_cap,
            };
            let mut print = |ply: usize, m: Move, class: MoveClass| {
                eprintln!("ply {ply} {m} {}", class.word());
            };
            let tracer: Option<&mut dyn FnMut(usize, Move, MoveClass)> =
                if trace { Some(&mut print) } else { None };
            let v = judge::judge_game_traced(fen.as_deref(), &moves, &settings, tracer)
                .map_err(|e| e.to_string())?;
            if v.moves_after_end > 0 {
                eprintln!(
                    "note: {} move(s) after the end of the game were ignored",
                    v.moves_after_end
                );
            }
            writeln!(out, "{}", v.line()).map_err(|e| e.to_string())
        }
        Command::Timeplan { tc, moves } => {
            let tc = chuhe::clock::TimeControl::parse(&tc)?;
            timeplan::run(&mut out, &tc, moves).map_err(|e| e.to_string())
        }
        Command::Match(args) => {
            drop(out);
            chuhe::arena::run_cli(&args)
        }
    }
}
