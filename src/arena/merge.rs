//! `chuhe match merge FILE...`: the summary (and PGN) of a match from the
//! JSON records of its games, however they were split over shards, runs or
//! machines.
//!
//! Every record names its match and its game number over the whole match
//! ([`super::json`]). Records of one game found more than once (a file
//! given twice, a shard played twice) count once: the first one read,
//! files taken in the order given. Two records of one game that are not the
//! same game (a shard replayed on a clock can come out differently) are
//! reported; the first is kept. Records of another match, or of engines
//! set otherwise (options, threads, hash...), are an error.
//!
//! The games are counted in game order with the match runner's own
//! accounting ([`MatchSummary::count`]), so a merge of all shards prints
//! exactly the summary the unsharded match prints. The SPRT, when its
//! parameters are given, is evaluated on all the games merged: a driver
//! that merges as shards arrive stops at the first merge that decides.
//!
//! A pair whose two games repeat an earlier pair's move for move (what a
//! single-thread match at fixed nodes plays when an opening comes round
//! again) adds no evidence: the report says how many there are and the
//! Elo of the distinct pairs alone.

use super::json::{GameLine, MatchId};
use super::stats::{self, Hypothesis, Sprt};
use super::{MatchSummary, record};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// `chuhe match merge` arguments.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MergeArgs {
    /// Record files written by `chuhe match --json` (any shards of one
    /// match, in any order; a game found twice counts once).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the merged games to this PGN file (replaced), in game order.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Write the merged records to this file (replaced), one per game, in
    /// game order.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Evaluate the SPRT on the merged games, e.g. `--sprt elo0=0 elo1=5
    /// alpha=0.05 beta=0.05` (the defaults).
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Print one line of JSON (games, W/D/L, pairs, Elo, LLR, decision and
    /// the progress line) instead of the report: for drivers.
    #[arg(long)]
    pub status: bool,
}

impl MergeArgs {
    /// Tokens after `--sprt` that are not `KEY=VALUE` are files: so
    /// `merge --sprt elo1=5 a.json b.json` means what it says.
    pub fn normalised(&self) -> MergeArgs {
        let mut a = self.clone();
        if let Some(tokens) = &self.sprt {
            let (params, files): (Vec<String>, Vec<String>) =
                tokens.iter().cloned().partition(|t| t.contains('='));
            a.sprt = Some(params);
            a.files.extend(files.into_iter().map(PathBuf::from));
        }
        a
    }
}

/// The merged games and their summary.
#[derive(Debug)]
pub struct Merged {
    pub id: MatchId,
    /// One record per game, in game order.
    pub games: Vec<GameLine>,
    pub summary: MatchSummary,
    /// Records skipped because their game was already there.
    pub duplicates: u32,
    /// Of those, the ones that were not the same game, in words.
    pub conflicts: Vec<String>,
    /// Pairs (pairing, pair) whose two games repeat an earlier pair's.
    pub replayed: BTreeSet<(usize, u32)>,
    /// The summary of the games of the other pairs, when some replay.
    pub distinct: Option<MatchSummary>,
}

/// The pairs whose both games repeat, move for move and with the same
/// engines on the same sides, games earlier in game order.
pub fn replayed_pairs(games: &[GameLine]) -> BTreeSet<(usize, u32)> {
    let mut seen = HashSet::new();
    let mut repeats: BTreeMap<(usize, u32), u32> = BTreeMap::new();
    for g in games {
        let moves: Vec<&str> = g.moves.iter().map(|m| m.mv.as_str()).collect();
        let key = (
            g.red_engine,
            g.black_engine,
            g.opening.fen.clone(),
            g.opening.moves.clone(),
            moves.join(" "),
            g.result.clone(),
        );
        if !seen.insert(key) {
            *repeats.entry((g.pairing, g.pair)).or_default() += 1;
        }
    }
    repeats
        .into_iter()
        .filter(|&(_, n)| n == 2)
        .map(|(pair, _)| pair)
        .collect()
}

/// Records with where they came from (`file:line`).
pub type Sourced = Vec<(String, GameLine)>;

/// Reads record files. A last line cut short (a writer killed in the
/// middle of it) is skipped with a warning; any other bad line is an error.
pub fn read_files(files: &[PathBuf], warnings: &mut Vec<String>) -> Result<Sourced, String> {
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let complete = text.is_empty() || text.ends_with('\n');
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{}:{}", path.display(), i + 1);
            match GameLine::parse(line) {
                Ok(g) => out.push((at, g)),
                Err(e) if !complete && i + 1 == lines.len() => {
                    warnings.push(format!("{at}: unfinished last line skipped ({e})"));
                }
                Err(e) => return Err(format!("{at}: {e}")),
            }
        }
    }
    Ok(out)
}

/// Merges records: one per game, all of one match, counted in game order.
pub fn merge(records: Sourced, sprt: Option<Sprt>) -> Result<Merged, String> {
    let Some(id) = records.first().map(|(_, g)| g.id.clone()) else {
        return Err("no games in the files".into());
    };
    let mut games: BTreeMap<u32, (String, GameLine)> = BTreeMap::new();
    let mut duplicates = 0;
    let mut conflicts = Vec::new();
    // The first record that says the engines' settings, and where it is.
    let mut settings: Option<(String, Vec<String>)> = None;
    for (at, g) in records {
        if let Some(s) = &g.settings {
            match &settings {
                None => settings = Some((at.clone(), s.clone())),
                Some((first, kept)) if kept != s => {
                    return Err(format!(
                        "{at}: a game of this match played with engine settings [{}], \
                         those of {first} were [{}]",
                        s.join("; "),
                        kept.join("; ")
                    ));
                }
                Some(_) => {}
            }
        }
        if g.id != id {
            return Err(format!(
                "{at}: a game of another match ({} seed {}, {} games) than the first ({} seed {}, {} games)",
                g.id.engines.join(" vs "),
                g.id.seed,
                g.id.games,
                id.engines.join(" vs "),
                id.seed,
                id.games
            ));
        }
        match games.get(&g.game) {
            None => {
                games.insert(g.game, (at, g));
            }
            Some((first, kept)) => {
                duplicates += 1;
                if !kept.same_game(&g) {
                    conflicts.push(format!(
                        "game {} of {at} differs from that of {first} ({} {} here, {} {} there): the first is kept",
                        g.game + 1,
                        g.result,
                        g.termination,
                        kept.result,
                        kept.termination
                    ));
                }
            }
        }
    }
    let mut summary = MatchSummary::new(id.engines.clone(), id.planned, sprt);
    let games: Vec<GameLine> = games.into_values().map(|(_, g)| g).collect();
    for g in &games {
        summary.count(&g.task(), &g.record()?);
    }
    summary.update_sprt();
    let replayed = replayed_pairs(&games);
    let distinct = if replayed.is_empty() {
        None
    } else {
        let mut d = MatchSummary::new(id.engines.clone(), id.planned, None);
        for g in games
            .iter()
            .filter(|g| !replayed.contains(&(g.pairing, g.pair)))
        {
            d.count(&g.task(), &g.record()?);
        }
        Some(d)
    };
    Ok(Merged {
        id,
        games,
        summary,
        duplicates,
        conflicts,
        replayed,
        distinct,
    })
}

/// A number for JSON, `null` when infinite.
fn finite(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

impl Merged {
    /// The one-line JSON status for drivers.
    pub fn status(&self) -> Value {
        let s = &self.summary;
        let pairings: Vec<Value> = s
            .pairings
            .iter()
            .map(|p| {
                let elo = p.elo();
                json!({
                    "first": s.names[0],
                    "opponent": s.names[p.opponent],
                    "games": p.wdl.games(),
                    "wins": p.wdl.wins,
                    "draws": p.wdl.draws,
                    "losses": p.wdl.losses,
                    "score": p.wdl.score(),
                    "pairs": p.penta.0,
                    "elo": elo.map(|e| finite(e.elo)),
                    "lower": elo.map(|e| finite(e.lower)),
                    "upper": elo.map(|e| finite(e.upper)),
                    "error": elo.map(|e| finite(e.error())),
                    "los": stats::los(&p.wdl),
                })
            })
            .collect();
        let sprt = s.sprt.map(|(sprt, llr, decision)| {
            let (lower, upper) = sprt.bounds();
            json!({
                "elo0": sprt.elo0,
                "elo1": sprt.elo1,
                "alpha": sprt.alpha,
                "beta": sprt.beta,
                "llr": llr,
                "lower": lower,
                "upper": upper,
                "decision": decision.map(|h| match h {
                    Hypothesis::H0 => "H0",
                    Hypothesis::H1 => "H1",
                }),
            })
        });
        json!({
            "games": s.games_played,
            "planned": s.games_planned,
            "duplicates": self.duplicates,
            "conflicts": self.conflicts.len(),
            "replayed_pairs": self.replayed.len(),
            "terminations": s.terminations,
            "pairings": pairings,
            "sprt": sprt,
            "progress": s.progress_line(),
        })
    }

    /// Writes the games as PGN, in game order.
    pub fn write_pgn(&self, out: &mut dyn Write) -> Result<(), String> {
        for g in &self.games {
            record::write_game(out, &g.header(), &g.record()?).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Writes the kept records, in game order.
    pub fn write_json(&self, out: &mut impl Write) -> std::io::Result<()> {
        for g in &self.games {
            g.write(out)?;
        }
        Ok(())
    }
}

fn create(path: &PathBuf) -> Result<BufWriter<File>, String> {
    File::create(path)
        .map(BufWriter::new)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// `chuhe match merge`: the report on stdout (or `--status`), notes on
/// stderr.
pub fn run_cli(args: &MergeArgs) -> Result<(), String> {
    let args = args.normalised();
    if args.files.is_empty() {
        return Err("merge: give the record files (chuhe match --json FILE)".into());
    }
    let sprt = args.sprt.as_ref().map(|t| Sprt::parse(t)).transpose()?;
    let mut warnings = Vec::new();
    let records = read_files(&args.files, &mut warnings)?;
    let read = records.len();
    let merged = merge(records, sprt)?;
    if merged.summary.pairings.len() != 1 && sprt.is_some() {
        return Err("--sprt needs a match of exactly two engines".into());
    }
    for w in warnings.iter().chain(&merged.conflicts) {
        eprintln!("warning: {w}");
    }
    if let Some(path) = &args.pgn {
        let mut out = create(path)?;
        merged.write_pgn(&mut out)?;
        out.flush()
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = &args.json {
        let mut out = create(path)?;
        merged
            .write_json(&mut out)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if args.status {
        println!("{}", merged.status());
    } else {
        let s = &merged.summary;
        eprintln!(
            "Merged {} file{}: {read} records, {} games of {} planned ({} counted twice, skipped)",
            args.files.len(),
            if args.files.len() == 1 { "" } else { "s" },
            s.games_played,
            s.games_planned,
            merged.duplicates
        );
        print!("{}", s.report());
        if let Some(d) = &merged.distinct {
            println!(
                "replayed: {} pairs repeat an earlier pair's games move for move (fixed nodes \
                 over too few openings); they add no evidence. The distinct pairs alone:",
                merged.replayed.len()
            );
            for p in &d.pairings {
                let [a, b, c, e, f] = p.penta.0;
                println!(
                    "  {} vs {}: {} pairs [{a}, {b}, {c}, {e}, {f}], Elo {} (95%, pentanomial)",
                    d.names[0],
                    d.names[p.opponent],
                    p.penta.pairs(),
                    super::elo_text(p.elo())
                );
            }
        }
    }
    Ok(())
}
