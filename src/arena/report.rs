//! The match report: one HTML page that anyone can open from disk and read
//! (`chuhe match --report FILE`, rewritten as the games finish, and `chuhe
//! match report RECORDS... -o FILE` afterwards, from the `--json` records
//! of one match, shards included).
//!
//! The page stands alone: its style, its charts (SVG, drawn here by
//! [`super::plot`]), its board (drawn by [`crate::diagram`]), its data and
//! a small script are all inside it; it loads nothing and links nowhere.
//! It shows
//!
//! - the results of each pairing (W/D/L, score, draw ratio, Elo with its
//!   95% interval from game pairs, LOS, pair counts) and the SPRT's LLR
//!   against its bounds, all from [`super::stats`] through the match
//!   runner's own accounting ([`MatchSummary::count`]), games taken in
//!   game order;
//! - charts: Elo and its interval over the games, the LLR over the games
//!   (with an SPRT), each engine's average time per move and clock left by
//!   its move number in the game, and the first engine's score by opening;
//! - how the games ended, with the side that lost each way (for perpetual
//!   check and chase: the side that broke the rule), and each engine's
//!   incidents and timings;
//! - every game in a list; a click shows it on the board, which steps
//!   through the moves (buttons, arrow keys, Home and End), beside the
//!   move list in Chinese notation and ICCS with each engine's score,
//!   depth, time and clock, over a graph of the scores.
//!
//! The script knows nothing of the rules: it replays a game by moving the
//! piece on a move's first point to its second, as every xiangqi move
//! does, and places the pieces by the numbers the drawn board carries
//! ([`crate::diagram`]). It keeps the position shown, as FEN placement and
//! side to move, in the `data-fen` of `#viewer` (what the browser check,
//! `scripts/report-check.sh`, compares with chuhe's own replay), and the
//! game and move in the address (`#g12p30`), so a reload stays put.
//!
//! The page is written to a temporary file beside the target and renamed,
//! so a browser never reads half of it; a running match rewrites it at
//! most every few seconds, and the page of a running match reloads itself
//! every 30 seconds.

use super::MatchSummary;
use super::json::{GameLine, MatchId};
use super::merge;
use super::plot::{Bar, BarChart, LineChart, Rule, Series};
use super::stats::{self, Hypothesis, Sprt, Wdl};
use crate::diagram::{self, escape};
use crate::notation::{self, Script};
use crate::position::Position;
use crate::record::games::GameResult;
use crate::types::{Color, Move};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const STYLE: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("report.js");

/// Colours of the engines in the charts, by their index in the match.
const PALETTE: [&str; 8] = [
    "#1f6fd1", "#e07b00", "#2a9d3a", "#9b36b7", "#c0392b", "#17a2b8", "#7f6a00", "#666666",
];

fn colour(engine: usize) -> &'static str {
    PALETTE[engine % PALETTE.len()]
}

/// `chuhe match report` arguments.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ReportArgs {
    /// Record files written by `chuhe match --json` (any shards of one
    /// match; a game found twice counts once).
    #[arg(value_name = "RECORDS")]
    pub files: Vec<PathBuf>,
    /// The page to write (replaced).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// The match's SPRT, for its LLR: `--sprt elo0=0 elo1=5 alpha=0.05
    /// beta=0.05` (the defaults).
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
}

/// `chuhe match report`: the page of the games in the record files.
pub fn run_cli(args: &ReportArgs) -> Result<(), String> {
    // Tokens after `--sprt` that are not KEY=VALUE are files, as in merge.
    let mut files = args.files.clone();
    let sprt = match &args.sprt {
        Some(tokens) => {
            let (params, more): (Vec<String>, Vec<String>) =
                tokens.iter().cloned().partition(|t| t.contains('='));
            files.extend(more.into_iter().map(PathBuf::from));
            Some(Sprt::parse(&params)?)
        }
        None => None,
    };
    if files.is_empty() {
        return Err("report: give the record files (chuhe match --json FILE)".into());
    }
    let mut warnings = Vec::new();
    let merged = merge::merge(merge::read_files(&files, &mut warnings)?, sprt)?;
    if merged.summary.pairings.len() != 1 && sprt.is_some() {
        return Err("--sprt needs a match of exactly two engines".into());
    }
    for w in warnings.iter().chain(&merged.conflicts) {
        eprintln!("warning: {w}");
    }
    let mut page = Page::new(sprt);
    for g in merged.games {
        page.add(g);
    }
    page.write(&args.output, false)?;
    eprintln!(
        "{}: {} games",
        args.output.display(),
        merged.summary.games_played
    );
    Ok(())
}

/// The games of a match, ready to be written as a page.
#[derive(Debug, Default)]
pub struct Page {
    sprt: Option<Sprt>,
    /// By game number: the record, and what the board viewer gets of it
    /// (worked out once: the Chinese notation needs a replay).
    games: BTreeMap<u32, (GameLine, Value)>,
}

impl Page {
    pub fn new(sprt: Option<Sprt>) -> Page {
        Page {
            sprt,
            games: BTreeMap::new(),
        }
    }

    /// Adds a game; a game number already there keeps its first record.
    pub fn add(&mut self, game: GameLine) {
        self.games.entry(game.game).or_insert_with(|| {
            let viewer = viewer_game(&game);
            (game, viewer)
        });
    }

    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The records, in game order.
    pub fn records(&self) -> impl Iterator<Item = &GameLine> {
        self.games.values().map(|(g, _)| g)
    }

    /// The page; `live` for a match still running.
    pub fn html(&self, live: bool) -> Result<String, String> {
        let records: Vec<&GameLine> = self.records().collect();
        let Some(first) = records.first() else {
            return Ok(empty_page(live));
        };
        let id = &first.id;
        let progress = progress(id, &records, self.sprt)?;
        let mut h = String::with_capacity(64 * 1024 + 1024 * records.len());
        let title = format!("{} — chuhe match report", id.engines.join(" vs "));
        let _ = write!(
            h,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <meta name=\"generator\" content=\"chuhe {}\">{}<title>{}</title>\
             <link rel=\"icon\" href=\"data:,\"><style>{STYLE}</style></head><body>\n",
            escape(env!("CHUHE_VERSION")),
            if live {
                "<meta http-equiv=\"refresh\" content=\"30\">"
            } else {
                ""
            },
            escape(&title)
        );
        header(&mut h, id, &records, &progress.summary, live);
        h.push_str("<main>\n");
        results(&mut h, &progress.summary);
        viewer(&mut h, &records);
        charts(&mut h, id, &records, &progress);
        endings_section(&mut h, &records);
        engines_section(&mut h, &progress.summary);
        let _ = writeln!(
            h,
            "</main><footer>Written by chuhe {} from {} game records{}. The page \
             stands alone: nothing in it is fetched from anywhere.</footer>",
            escape(env!("CHUHE_VERSION")),
            records.len(),
            if live {
                "; the match is running and the page is rewritten as games finish"
            } else {
                ""
            }
        );
        let data = json!({
            "engines": id.engines,
            "games": self.games.values().map(|(_, v)| v).collect::<Vec<_>>(),
        });
        // `<` only occurs inside JSON strings, where `\u003c` means the
        // same: no `</script>` can end the block early.
        let data = serde_json::to_string(&data)
            .map_err(|e| e.to_string())?
            .replace('<', "\\u003c");
        let _ = write!(
            h,
            "<script type=\"application/json\" id=\"report-data\">{data}</script>\n\
             <script>{SCRIPT}</script>\n</body></html>\n"
        );
        Ok(h)
    }

    /// Writes the page to `path` through a temporary file beside it.
    pub fn write(&self, path: &Path, live: bool) -> Result<(), String> {
        write_replacing(path, &self.html(live)?)
    }
}

/// Writes `text` to `path` by way of a temporary file in the same folder,
/// renamed over it: a reader sees the old file or the new one.
pub fn write_replacing(path: &Path, text: &str) -> Result<(), String> {
    let name = path
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", path.display()))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    std::fs::write(&tmp, text).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}

fn empty_page(live: bool) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">{}\
         <title>chuhe match report</title><link rel=\"icon\" href=\"data:,\">\
         <style>{STYLE}</style></head><body><header><h1>chuhe match</h1>\
         <p class=\"sub\">No game has finished yet.</p></header></body></html>\n",
        if live {
            "<meta http-equiv=\"refresh\" content=\"10\">"
        } else {
            ""
        }
    )
}

// ---------------------------------------------------------------------------
// The figures

/// The Elo of a pairing after one of its games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloPoint {
    /// Games of the pairing counted so far.
    pub games: u32,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

/// The match counted game by game.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The summary of all the games.
    pub summary: MatchSummary,
    /// Per pairing, its Elo after each of its games (once it has one).
    pub elo: Vec<Vec<EloPoint>>,
    /// With an SPRT: the games played and the LLR after each game.
    pub llr: Vec<(u32, f64)>,
}

/// Counts `games` (in game order) as the match runner does, noting the
/// Elo of each pairing and the LLR after every game.
pub fn progress(id: &MatchId, games: &[&GameLine], sprt: Option<Sprt>) -> Result<Progress, String> {
    let mut summary = MatchSummary::new(id.engines.clone(), id.planned, sprt);
    let mut elo = vec![Vec::new(); summary.pairings.len()];
    let mut llr = Vec::new();
    for g in games {
        let task = g.task();
        if !summary.count(&task, &g.record()?) {
            continue;
        }
        let p = &summary.pairings[task.pairing];
        if let Some(e) = p.elo() {
            elo[task.pairing].push(EloPoint {
                games: p.wdl.games(),
                elo: e.elo,
                lower: e.lower,
                upper: e.upper,
            });
        }
        if sprt.is_some() {
            summary.update_sprt();
            if let Some((_, value, _)) = summary.sprt {
                llr.push((summary.games_played, value));
            }
        }
    }
    summary.update_sprt();
    Ok(Progress { summary, elo, llr })
}

/// A running mean.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Mean {
    pub sum: f64,
    pub count: u32,
}

impl Mean {
    pub fn add(&mut self, x: f64) {
        self.sum += x;
        self.count += 1;
    }

    pub fn value(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }
}

/// One engine's thinking time and clock, averaged over the games by its
/// move number in the game (index 0: its first move after the opening).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveTimes {
    /// Games the engine played.
    pub games: u32,
    /// Milliseconds the move took.
    pub ms: Vec<Mean>,
    /// Milliseconds left on its clock after the move (timed games only).
    pub clock: Vec<Mean>,
}

impl MoveTimes {
    /// The means with enough games behind them to plot: at least a tenth
    /// of the engine's games (and one), as `(move number, mean)`.
    pub fn plotted(&self, means: &[Mean], scale: f64) -> Vec<(f64, f64)> {
        let enough = (self.games / 10).max(1);
        means
            .iter()
            .enumerate()
            .take_while(|(_, m)| m.count >= enough)
            .filter_map(|(i, m)| m.value().map(|v| ((i + 1) as f64, v * scale)))
            .collect()
    }
}

/// The side to move once the opening of `g` is played.
fn side_after_opening(g: &GameLine) -> Result<Color, String> {
    let start = Position::from_fen(&g.opening.fen)
        .map_err(|e| format!("game {}: opening FEN: {e:?}", g.game + 1))?;
    let side = start.side_to_move();
    Ok(if g.opening.moves.len() % 2 == 1 {
        !side
    } else {
        side
    })
}

/// Each engine's time per move and clock by its move number.
pub fn times_by_move(engines: usize, games: &[&GameLine]) -> Result<Vec<MoveTimes>, String> {
    let mut out = vec![MoveTimes::default(); engines];
    for g in games {
        let by_colour = [g.red_engine, g.black_engine];
        for e in by_colour {
            out[e].games += 1;
        }
        let mut side = side_after_opening(g)?;
        let mut number = [0usize; 2];
        for m in &g.moves {
            let t = &mut out[by_colour[side.index()]];
            let i = number[side.index()];
            number[side.index()] += 1;
            if t.ms.len() <= i {
                t.ms.resize(i + 1, Mean::default());
                t.clock.resize(i + 1, Mean::default());
            }
            t.ms[i].add(m.ms as f64);
            if let Some(c) = m.clock {
                t.clock[i].add(c as f64);
            }
            side = !side;
        }
    }
    Ok(out)
}

/// The first engine's results with one opening.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningScore {
    /// Index in the suite.
    pub index: usize,
    pub label: String,
    pub wdl: Wdl,
}

/// The first engine's results by opening, in suite order.
pub fn score_by_opening(games: &[&GameLine]) -> Vec<OpeningScore> {
    let mut by: BTreeMap<usize, OpeningScore> = BTreeMap::new();
    for g in games {
        let Some(points) =
            GameResult::from_pgn(&g.result).and_then(|r| r.points(g.task().first_side()))
        else {
            continue;
        };
        by.entry(g.opening.index)
            .or_insert_with(|| OpeningScore {
                index: g.opening.index,
                label: g.opening.label.clone(),
                wdl: Wdl::default(),
            })
            .wdl
            .add(points);
    }
    by.into_values().collect()
}

/// The games that ended one way.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ending {
    /// The PGN `Termination` text.
    pub what: String,
    pub games: u32,
    pub red_wins: u32,
    pub black_wins: u32,
    pub draws: u32,
    /// The losers, as `(engine, colour)`: the side mated, the side that
    /// broke the repetition rules, flagged, moved illegally, crashed.
    pub losers: BTreeMap<(String, &'static str), u32>,
}

/// The games by how they ended, the commonest first.
pub fn endings(games: &[&GameLine]) -> Vec<Ending> {
    let mut by: BTreeMap<&str, Ending> = BTreeMap::new();
    for g in games {
        let e = by.entry(&g.termination).or_insert_with(|| Ending {
            what: g.termination.clone(),
            ..Ending::default()
        });
        e.games += 1;
        match GameResult::from_pgn(&g.result) {
            Some(GameResult::Win(winner)) => {
                if winner == Color::Red {
                    e.red_wins += 1;
                } else {
                    e.black_wins += 1;
                }
                let loser = match winner {
                    Color::Red => (g.black.clone(), "Black"),
                    Color::Black => (g.red.clone(), "Red"),
                };
                *e.losers.entry(loser).or_default() += 1;
            }
            Some(GameResult::Draw) => e.draws += 1,
            _ => {}
        }
    }
    let mut out: Vec<Ending> = by.into_values().collect();
    out.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.what.cmp(&b.what)));
    out
}

// ---------------------------------------------------------------------------
// The board viewer's data

/// A score as the viewer shows it, from the mover's side: centipawns as a
/// number, mates as text (`#3`: mates in 3, `#-3`: is mated in 3).
fn score_value(s: Option<super::json::ScoreLine>) -> Value {
    match s {
        None => Value::Null,
        Some(super::json::ScoreLine::Cp(cp)) => json!(cp),
        Some(super::json::ScoreLine::Mate(n)) => json!(format!("#{n}")),
    }
}

/// What the viewer gets of a game: the start (FEN as chuhe writes it, and
/// the side to move), every move from the opening's first (ICCS and
/// Chinese), how many of them are the opening's, and the engines' words
/// on each of theirs.
fn viewer_game(g: &GameLine) -> Value {
    let start = Position::from_fen(&g.opening.fen).ok();
    let mut cn = Vec::new();
    let mut iccs = Vec::new();
    let texts = g.opening.moves.iter().chain(g.moves.iter().map(|m| &m.mv));
    let mut pos = start.clone();
    for text in texts {
        iccs.push(text.clone());
        // A move that does not replay (a record edited by hand) stops the
        // Chinese notation; the viewer still moves the pieces.
        let chinese = match (pos.as_mut(), Move::parse(text)) {
            (Some(p), Some(m)) => match notation::to_chinese(p, m, Script::Simplified) {
                Ok(t) => {
                    p.make_move(m);
                    Some(t)
                }
                Err(_) => None,
            },
            _ => None,
        };
        if chinese.is_none() {
            pos = None;
        }
        cn.push(chinese.unwrap_or_default());
    }
    let incident = g
        .incident
        .as_ref()
        .map(|i| format!("{} by {}", i.kind, i.side));
    json!({
        "n": g.game + 1,
        "red": g.red_engine,
        "black": g.black_engine,
        "res": g.result,
        "term": g.termination,
        "inc": incident,
        "detail": g.detail,
        "open": g.opening.label,
        "fen": start.as_ref().map_or_else(|| g.opening.fen.clone(), Position::to_fen),
        "side": start.as_ref().map_or(0, |p| p.side_to_move().index()),
        "book": g.opening.moves.len(),
        "mv": iccs,
        "cn": cn,
        "sc": g.moves.iter().map(|m| score_value(m.score)).collect::<Vec<_>>(),
        "d": g.moves.iter().map(|m| m.depth).collect::<Vec<_>>(),
        "ms": g.moves.iter().map(|m| m.ms).collect::<Vec<_>>(),
        "cl": g.moves.iter().map(|m| m.clock).collect::<Vec<_>>(),
    })
}

// ---------------------------------------------------------------------------
// The sections

fn header(h: &mut String, id: &MatchId, games: &[&GameLine], s: &MatchSummary, live: bool) {
    let last = games.last().expect("games");
    let mut dates: Vec<&str> = games.iter().map(|g| g.date.as_str()).collect();
    dates.sort_unstable();
    dates.dedup();
    let date = match dates.as_slice() {
        [] => String::new(),
        [d] => d.to_string(),
        [a, .., b] => format!("{a} – {b}"),
    };
    let shards: Vec<[u32; 2]> = {
        let mut v: Vec<[u32; 2]> = games.iter().map(|g| g.shard).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let shard_note = match shards.as_slice() {
        [[_, 1]] => String::new(),
        [[k, n]] => format!(" · shard {k}/{n}"),
        many => format!(" · {} shards", many.len()),
    };
    let _ = write!(
        h,
        "<header><h1>{}</h1><p class=\"sub\">{} · {} of {} games · time control {} · \
         openings {} ({}, seed {}){shard_note} · {}</p>",
        escape(&id.engines.join(" vs ")),
        escape(&id.event),
        s.games_played,
        s.games_planned,
        escape(&last.time_control),
        escape(&id.openings),
        escape(&id.order),
        id.seed,
        escape(&date),
    );
    if live {
        h.push_str(
            "<p class=\"live\">The match is running: this page is rewritten as games \
             finish and reloads itself every 30 seconds.</p>",
        );
    }
    h.push_str("</header>\n");
}

fn elo_cell(e: Option<stats::EloEstimate>) -> (String, String) {
    match e {
        Some(e) => {
            let err = if e.error().is_finite() {
                format!("{:.1}", e.error())
            } else {
                "inf".into()
            };
            (
                format!("{} ± {err}", stats::format_elo(e.elo)),
                format!(
                    "[{}, {}]",
                    stats::format_elo(e.lower),
                    stats::format_elo(e.upper)
                ),
            )
        }
        None => ("–".into(), "–".into()),
    }
}

fn results(h: &mut String, s: &MatchSummary) {
    h.push_str(
        "<section id=\"results\"><h2>Results</h2><table class=\"results\"><thead><tr>\
         <th class=\"l\">pairing</th><th>games</th><th>W</th><th>D</th><th>L</th>\
         <th>score</th><th>draws</th><th>Elo</th><th>95% interval</th><th>LOS</th>\
         <th title=\"game pairs by the first engine's points: 0, ½, 1, 1½, 2\">pairs 0–2</th>\
         </tr></thead><tbody>",
    );
    for p in &s.pairings {
        let games = p.wdl.games();
        let pct = |n: u32| {
            if games == 0 {
                "–".to_string()
            } else {
                format!("{:.1}%", 100.0 * n as f64 / games as f64)
            }
        };
        let (elo, interval) = elo_cell(p.elo());
        let unit = if p.penta.pairs() > 0 {
            "pentanomial: from game pairs"
        } else {
            "trinomial: no pair complete yet"
        };
        let c = p.penta.0;
        let _ = write!(
            h,
            "<tr><td class=\"l\"><b>{}</b> vs {}</td><td>{games}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td class=\"elo\" title=\"{unit}\">{elo}</td>\
             <td>{interval}</td><td>{:.1}%</td><td>{} {} {} {} {}</td></tr>",
            escape(&s.names[0]),
            escape(&s.names[p.opponent]),
            p.wdl.wins,
            p.wdl.draws,
            p.wdl.losses,
            p.wdl
                .score()
                .map_or("–".into(), |x| format!("{:.1}%", 100.0 * x)),
            pct(p.wdl.draws),
            stats::los(&p.wdl) * 100.0,
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        );
    }
    h.push_str("</tbody></table>");
    if let Some((sprt, llr, decision)) = s.sprt {
        let (lo, hi) = sprt.bounds();
        let verdict = match decision {
            Some(Hypothesis::H1) => "<b class=\"h1\">H1 accepted</b>",
            Some(Hypothesis::H0) => "<b class=\"h0\">H0 accepted</b>",
            None => "no decision yet",
        };
        let _ = write!(
            h,
            "<p class=\"sprt\">SPRT elo0 = {} elo1 = {} (α = {}, β = {}): LLR <b>{llr:.2}</b> \
             within ({lo:.2}, {hi:.2}): {verdict}.</p>",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        );
    }
    h.push_str(
        "<p class=\"note\">From the first engine's side. Elo is from the score with its 95% \
         interval from the variance of game pairs (each opening is played twice, colours \
         swapped); LOS is the likelihood that the first engine is the stronger.</p></section>\n",
    );
}

fn viewer(h: &mut String, games: &[&GameLine]) {
    let start = games
        .first()
        .and_then(|g| Position::from_fen(&g.opening.fen).ok())
        .unwrap_or_else(Position::startpos);
    h.push_str(
        "<section id=\"games\"><h2>Games</h2><div class=\"viewer-row\">\
         <div id=\"viewer\" data-fen=\"\"><div class=\"boards\">",
    );
    for (flip, id) in [(false, "xqa"), (true, "xqb")] {
        let svg = diagram::svg(
            &start,
            &diagram::Options {
                flip,
                id: id.into(),
                ..diagram::Options::default()
            },
        );
        if flip {
            h.push_str(&svg.replacen("<svg ", "<svg style=\"display:none\" ", 1));
        } else {
            h.push_str(&svg);
        }
    }
    h.push_str(
        "</div><div class=\"controls\">\
         <button type=\"button\" data-go=\"start\" title=\"start (Home)\">«</button>\
         <button type=\"button\" data-go=\"back\" title=\"back (←)\">‹</button>\
         <button type=\"button\" data-go=\"forward\" title=\"forward (→)\">›</button>\
         <button type=\"button\" data-go=\"end\" title=\"end (End)\">»</button>\
         <button type=\"button\" data-go=\"flip\" title=\"turn the board\">⇅</button>\
         <span id=\"ply\"></span></div><div id=\"game-info\"></div>\
         <svg id=\"score-graph\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 400 110\">\
         </svg></div>\
         <div id=\"moves\"><p class=\"note\">Choose a game in the list.</p></div>\
         <div id=\"game-list\"><input id=\"filter\" type=\"search\" placeholder=\"filter games: \
         engine, result, ending, opening\" aria-label=\"filter games\">\
         <table><thead><tr><th>#</th><th class=\"l\">Red</th><th class=\"l\">Black</th>\
         <th>result</th><th class=\"l\">ending</th><th>plies</th><th class=\"l\">opening</th>\
         </tr></thead><tbody>",
    );
    for g in games {
        let class = match g.result.as_str() {
            "1-0" => "red-win",
            "0-1" => "black-win",
            _ => "draw",
        };
        let _ = write!(
            h,
            "<tr class=\"game\" data-game=\"{n}\"><td>{n}</td><td class=\"l\">{}</td>\
             <td class=\"l\">{}</td><td class=\"{class}\">{}</td><td class=\"l\">{}</td>\
             <td>{}</td><td class=\"l iccs opening\">{}</td></tr>",
            escape(&g.red),
            escape(&g.black),
            escape(&g.result),
            escape(&g.termination),
            g.opening.moves.len() + g.moves.len(),
            escape(&g.opening.label),
            n = g.game + 1,
        );
    }
    h.push_str(
        "</tbody></table></div></div><p class=\"note\">Click a game, then step with ← and →, \
         Home and End, or click a move or the graph. Scores are each engine's own, from its \
         side; the graph shows them from Red's side (up: Red better).</p></section>\n",
    );
}

/// The y range of an Elo chart: the intervals after the first tenth of
/// each pairing's games (the very first are all but unbounded), and zero.
fn elo_range(series: &[Vec<EloPoint>]) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    let mut any = false;
    for s in series {
        for p in s.iter().skip(s.len() / 10) {
            if p.lower.is_finite() && p.upper.is_finite() {
                lo = lo.min(p.lower);
                hi = hi.max(p.upper);
                any = true;
            }
        }
    }
    any.then(|| {
        let pad = (hi - lo).max(10.0) * 0.05;
        ((lo - pad).max(-1200.0), (hi + pad).min(1200.0))
    })
}

fn figure(h: &mut String, svg: &str, caption: &str) {
    let _ = write!(
        h,
        "<figure>{svg}<figcaption>{}</figcaption></figure>",
        escape(caption)
    );
}

fn charts(h: &mut String, id: &MatchId, games: &[&GameLine], progress: &Progress) {
    h.push_str("<section id=\"charts\"><h2>Charts</h2><div class=\"charts\">");
    let names = &id.engines;
    let elo = LineChart {
        id: "chart-elo".into(),
        title: "Elo over the games".into(),
        x_label: "games played".into(),
        y_label: "Elo".into(),
        series: progress
            .elo
            .iter()
            .enumerate()
            .map(|(i, points)| Series {
                name: format!("{} vs {}", names[0], names[i + 1]),
                colour: colour(i + 1).into(),
                points: points.iter().map(|p| (p.games as f64, p.elo)).collect(),
                band: points
                    .iter()
                    .map(|p| (p.games as f64, p.lower, p.upper))
                    .collect(),
                dashed: false,
            })
            .collect(),
        rules: vec![Rule {
            y: 0.0,
            label: "equal".into(),
            colour: "#777".into(),
        }],
        y_range: elo_range(&progress.elo),
    };
    let finite = progress.elo.iter().flatten().any(|p| p.elo.is_finite());
    figure(
        h,
        &elo.svg(),
        if finite {
            "The first engine's Elo after each game, with its 95% interval (shaded)."
        } else {
            "The first engine's Elo after each game, with its 95% interval (shaded): \
             none yet, one side has scored every point."
        },
    );
    if let Some((sprt, _, _)) = progress.summary.sprt {
        let (lo, hi) = sprt.bounds();
        let chart = LineChart {
            id: "chart-llr".into(),
            title: "SPRT log-likelihood ratio".into(),
            x_label: "games played".into(),
            y_label: "LLR".into(),
            series: vec![Series {
                name: "LLR".into(),
                colour: colour(1).into(),
                points: progress.llr.iter().map(|&(n, l)| (n as f64, l)).collect(),
                ..Series::default()
            }],
            rules: vec![
                Rule {
                    y: hi,
                    label: format!("H1: elo ≥ {}", sprt.elo1),
                    colour: "#2a9d3a".into(),
                },
                Rule {
                    y: lo,
                    label: format!("H0: elo ≤ {}", sprt.elo0),
                    colour: "#c0392b".into(),
                },
            ],
            y_range: None,
        };
        figure(
            h,
            &chart.svg(),
            "The test stops when the LLR leaves the band between its bounds.",
        );
    }
    // Times: milliseconds when the engines answer within two seconds.
    let times = times_by_move(names.len(), games).unwrap_or_default();
    let slowest = times
        .iter()
        .flat_map(|t| t.ms.iter().filter_map(Mean::value))
        .fold(0.0f64, f64::max);
    let (unit, scale) = if slowest < 2000.0 {
        ("ms", 1.0)
    } else {
        ("s", 0.001)
    };
    let per_engine = |pick: &dyn Fn(&MoveTimes) -> &Vec<Mean>, scale: f64| -> Vec<Series> {
        times
            .iter()
            .enumerate()
            .filter(|(_, t)| t.games > 0)
            .map(|(i, t)| Series {
                name: names[i].clone(),
                colour: colour(i).into(),
                points: t.plotted(pick(t), scale),
                ..Series::default()
            })
            .collect()
    };
    let chart = LineChart {
        id: "chart-time".into(),
        title: "Time per move".into(),
        x_label: "the engine's move number in the game".into(),
        y_label: format!("average time ({unit})"),
        series: per_engine(&|t| &t.ms, scale),
        rules: Vec::new(),
        y_range: None,
    };
    figure(
        h,
        &chart.svg(),
        "Each engine's average thinking time by its move number, over the games that \
         lasted that long (at least a tenth of its games).",
    );
    if times.iter().any(|t| t.clock.iter().any(|m| m.count > 0)) {
        let chart = LineChart {
            id: "chart-clock".into(),
            title: "Clock left".into(),
            x_label: "the engine's move number in the game".into(),
            y_label: "average clock after the move (s)".into(),
            series: per_engine(&|t| &t.clock, 0.001),
            rules: Vec::new(),
            y_range: None,
        };
        figure(
            h,
            &chart.svg(),
            "Each engine's average time left on its clock after its move (increment included).",
        );
    }
    let mut openings = score_by_opening(games);
    let score = |o: &OpeningScore| o.wdl.score().unwrap_or(0.5);
    openings.sort_by(|a, b| score(b).total_cmp(&score(a)).then(a.index.cmp(&b.index)));
    let bars = openings
        .iter()
        .map(|o| {
            let s = 100.0 * score(o);
            Bar {
                value: s,
                colour: if s > 50.0 {
                    "#2a9d3a"
                } else if s < 50.0 {
                    "#c0392b"
                } else {
                    "#999"
                }
                .into(),
                tip: format!(
                    "opening {}: {} · W {} D {} L {} · {s:.0}%",
                    o.index + 1,
                    o.label,
                    o.wdl.wins,
                    o.wdl.draws,
                    o.wdl.losses
                ),
            }
        })
        .collect();
    let chart = BarChart {
        id: "chart-openings".into(),
        title: format!("{}'s score by opening", names[0]),
        x_label: format!("{} openings, best first (hover for each)", openings.len()),
        y_label: "score (%)".into(),
        bars,
        y_range: (0.0, 100.0),
        rule: Some(Rule {
            y: 50.0,
            label: "50%".into(),
            colour: "#555".into(),
        }),
    };
    figure(
        h,
        &chart.svg(),
        "The first engine's points per game with each opening (both colours).",
    );
    h.push_str("</div><details><summary>Openings table</summary><table><thead><tr><th>#</th>\
                <th class=\"l\">moves</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th>\
                </tr></thead><tbody>");
    openings.sort_by_key(|o| o.index);
    for o in &openings {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"l iccs\">{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{:.0}%</td></tr>",
            o.index + 1,
            escape(&o.label),
            o.wdl.games(),
            o.wdl.wins,
            o.wdl.draws,
            o.wdl.losses,
            100.0 * score(o)
        );
    }
    h.push_str("</tbody></table></details></section>\n");
}

fn endings_section(h: &mut String, games: &[&GameLine]) {
    h.push_str(
        "<section id=\"endings\"><h2>How the games ended</h2><table><thead><tr>\
         <th class=\"l\">ending</th><th>games</th><th>Red won</th><th>Black won</th>\
         <th>drawn</th><th class=\"l\">lost by</th></tr></thead><tbody>",
    );
    for e in endings(games) {
        let losers: Vec<String> = e
            .losers
            .iter()
            .map(|((name, side), n)| format!("{} ({side}) {n}", escape(name)))
            .collect();
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td class=\"l\">{}</td></tr>",
            escape(&e.what),
            e.games,
            e.red_wins,
            e.black_wins,
            e.draws,
            losers.join(", ")
        );
    }
    h.push_str(
        "</tbody></table><p class=\"note\">The loser of a perpetual check or chase is the \
         side that broke the rule; of a time forfeit, illegal move or crash, the engine that \
         flagged, moved illegally or crashed. The referee is chuhe's rules module.</p></section>\n",
    );
}

fn engines_section(h: &mut String, s: &MatchSummary) {
    h.push_str(
        "<section id=\"engines\"><h2>Engines</h2><table><thead><tr><th class=\"l\">engine</th>\
         <th>games</th><th>moves</th><th>time per move</th><th>lowest clock</th>\
         <th>time losses</th><th>illegal moves</th><th>crashes</th><th>hangs</th></tr></thead><tbody>",
    );
    for (i, (name, t)) in s.names.iter().zip(&s.tallies).enumerate() {
        let _ = write!(
            h,
            "<tr><td class=\"l\"><span class=\"swatch\" style=\"background:{}\"></span>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            colour(i),
            escape(name),
            t.games,
            t.moves,
            t.ms_per_move()
                .map_or("–".into(), |ms| format!("{ms:.0} ms")),
            t.lowest_clock_ms
                .map_or("–".into(), |c| format!("{:.2} s", c as f64 / 1000.0)),
            t.time_losses,
            t.illegal_moves,
            t.crashes,
            t.hangs
        );
    }
    h.push_str("</tbody></table></section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::json::{IncidentLine, MoveLine, OpeningLine, ScoreLine};

    fn id() -> MatchId {
        MatchId {
            engines: vec!["new".into(), "base".into()],
            games: 8,
            planned: 8,
            seed: 1,
            openings: "builtin".into(),
            order: "random".into(),
            event: "test".into(),
        }
    }

    /// Game `n` (0-based) of a two-engine match: even games have the first
    /// engine as Red. `moves`: (ICCS, ms, clock).
    fn game(
        n: u32,
        result: &str,
        termination: &str,
        moves: &[(&str, u64, Option<i64>)],
    ) -> GameLine {
        let first_red = n.is_multiple_of(2);
        let (red, black) = if first_red { (0, 1) } else { (1, 0) };
        let names = ["new", "base"];
        GameLine {
            format: super::super::json::FORMAT.into(),
            id: id(),
            shard: [1, 1],
            game: n,
            pairing: 0,
            pair: n / 2,
            red: names[red].into(),
            black: names[black].into(),
            red_engine: red,
            black_engine: black,
            result: result.into(),
            termination: termination.into(),
            incident: None,
            detail: None,
            opening: OpeningLine {
                index: (n / 2) as usize,
                fen: crate::position::START_FEN.into(),
                moves: vec!["h2e2".into()],
                label: "h2e2".into(),
            },
            moves: moves
                .iter()
                .map(|&(mv, ms, clock)| MoveLine {
                    mv: mv.into(),
                    score: Some(ScoreLine::Cp(10)),
                    depth: Some(5),
                    ms,
                    clock,
                })
                .collect(),
            event: "test".into(),
            date: "2026.12.02".into(),
            time_control: "10+0.1".into(),
            settings: None,
        }
    }

    const MOVES: [(&str, u64, Option<i64>); 3] = [
        ("h9g7", 100, Some(9_000)),
        ("h0g2", 300, Some(8_000)),
        ("i9h9", 200, Some(7_000)),
    ];

    #[test]
    fn time_per_move_is_averaged_by_each_engines_move_number() {
        // Opening h2e2 (Red): Black moves first after it. Game 0: new is
        // Red, so base plays h9g7 and i9h9, new plays h0g2; game 1 the other
        // way round.
        let g0 = game(0, "1-0", "checkmate", &MOVES);
        let g1 = game(
            1,
            "0-1",
            "checkmate",
            &[("h9g7", 500, Some(5_000)), ("h0g2", 700, None)],
        );
        let times = times_by_move(2, &[&g0, &g1]).unwrap();
        let (new, base) = (&times[0], &times[1]);
        assert_eq!((new.games, base.games), (2, 2));
        // new's first moves: h0g2 (300 ms) in game 0, h9g7 (500 ms) in game 1.
        assert_eq!(new.ms[0].value(), Some(400.0));
        assert_eq!(new.ms.len(), 1);
        assert_eq!(new.clock[0].value(), Some(6_500.0));
        // base: first moves 100 and 700 ms; its second move only in game 0.
        assert_eq!(base.ms[0].value(), Some(400.0));
        assert_eq!(base.ms[1].value(), Some(200.0));
        // The second game's h0g2 has no clock: one clock value at move 1.
        assert_eq!(
            base.clock[0],
            Mean {
                sum: 9_000.0,
                count: 1
            }
        );
        // Plotted in seconds; base's second move stands on one game of
        // two, which is a tenth of them (and one).
        assert_eq!(new.plotted(&new.ms, 0.001), [(1.0, 0.4)]);
        assert_eq!(base.plotted(&base.ms, 1.0), [(1.0, 400.0), (2.0, 200.0)]);
        let many = MoveTimes {
            games: 30,
            ms: vec![
                Mean {
                    sum: 30.0,
                    count: 30,
                },
                Mean { sum: 2.0, count: 2 },
            ],
            clock: Vec::new(),
        };
        assert_eq!(
            many.plotted(&many.ms, 1.0),
            [(1.0, 1.0)],
            "2 of 30 is too few"
        );
    }

    #[test]
    fn elo_and_llr_follow_the_games() {
        // new wins game 0 (Red) and game 1 (Black), draws 2 and 3.
        let games = [
            game(0, "1-0", "checkmate", &MOVES),
            game(1, "0-1", "checkmate", &MOVES[..2]),
            game(2, "1/2-1/2", "move limit", &MOVES),
            game(3, "1/2-1/2", "repetition", &MOVES),
        ];
        let refs: Vec<&GameLine> = games.iter().collect();
        let sprt = Sprt::default();
        let p = progress(&id(), &refs, Some(sprt)).unwrap();
        assert_eq!(p.summary.games_played, 4);
        let w = p.summary.pairings[0].wdl;
        assert_eq!((w.wins, w.draws, w.losses), (2, 2, 0));
        let elo = &p.elo[0];
        assert_eq!(
            elo.iter().map(|e| e.games).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        // After one game, one win: unbounded; after all four, the
        // pentanomial estimate of the two pairs (WW, DD).
        assert!(elo[0].elo.is_infinite());
        let last = stats::elo_pentanomial(&stats::Penta([0, 0, 1, 0, 1])).unwrap();
        assert_eq!(elo[3].elo, last.elo);
        assert_eq!((elo[3].lower, elo[3].upper), (last.lower, last.upper));
        // The LLR after each game, the last one the summary's.
        assert_eq!(p.llr.len(), 4);
        assert_eq!(p.llr[0], (1, 0.0), "no pair yet");
        let (_, llr, _) = p.summary.sprt.unwrap();
        assert_eq!(p.llr[3], (4, llr));
        assert_eq!(llr, sprt.llr_pentanomial(&stats::Penta([0, 0, 1, 0, 1])));
        assert!(progress(&id(), &refs, None).unwrap().llr.is_empty());
    }

    #[test]
    fn openings_and_endings() {
        let mut lost = game(1, "1-0", "perpetual check", &MOVES);
        lost.incident = None;
        let mut flag = game(2, "0-1", "time forfeit", &MOVES);
        flag.incident = Some(IncidentLine {
            side: "red".into(),
            kind: "time loss".into(),
        });
        let games = [game(0, "1-0", "checkmate", &MOVES), lost, flag];
        let refs: Vec<&GameLine> = games.iter().collect();
        let o = score_by_opening(&refs);
        // Games 0 and 1 share opening 0: new won as Red, lost as Black.
        assert_eq!(o.len(), 2);
        assert_eq!((o[0].index, o[0].wdl.wins, o[0].wdl.losses), (0, 1, 1));
        assert_eq!((o[1].index, o[1].wdl.losses), (1, 1));
        let e = endings(&refs);
        assert_eq!(e.len(), 3);
        let check = e.iter().find(|e| e.what == "perpetual check").unwrap();
        // Game 1: base is Red and won, so new (Black) broke the rule.
        assert_eq!(check.red_wins, 1);
        assert_eq!(
            check.losers.iter().collect::<Vec<_>>(),
            [(&("new".to_string(), "Black"), &1)]
        );
        let time = e.iter().find(|e| e.what == "time forfeit").unwrap();
        assert_eq!(time.losers.keys().next().unwrap().1, "Red");
    }

    #[test]
    fn the_page_stands_alone() {
        let mut games: Vec<GameLine> = (0..4)
            .map(|n| {
                game(
                    n,
                    ["1-0", "0-1", "1/2-1/2", "1/2-1/2"][n as usize],
                    "checkmate",
                    &MOVES,
                )
            })
            .collect();
        games[1].red = "<script>".into();
        let mut page = Page::new(Some(Sprt::default()));
        for g in games.iter().rev() {
            page.add(g.clone());
        }
        page.add(games[0].clone());
        assert_eq!(page.len(), 4);
        let html = page.html(false).unwrap();
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(!html.contains("<script>\"") && !html.contains("<td class=\"l\"><script>"));
        assert!(html.contains("&lt;script&gt;"));
        // No address outside the page but the SVG namespace.
        let outside = html
            .replace("http://www.w3.org/2000/svg", "")
            .matches("://")
            .count();
        assert_eq!(outside, 0);
        assert!(!html.contains(" src=") && !html.contains("<link rel=\"stylesheet\""));
        for part in [
            "chart-elo",
            "chart-llr",
            "chart-time",
            "chart-clock",
            "chart-openings",
        ] {
            assert!(html.contains(&format!("id=\"{part}\"")), "{part}");
        }
        // Two boards (Red's view and Black's), four games in the list and
        // in the data, the Chinese notation of the opening move.
        assert_eq!(html.matches("class=\"xq-board\"").count(), 2);
        assert_eq!(html.matches("<tr class=\"game\"").count(), 4);
        assert!(html.contains("炮二平五"));
        assert!(!html.contains("http-equiv=\"refresh\""));
        assert!(page.html(true).unwrap().contains("http-equiv=\"refresh\""));
        // The data block parses back, with the game numbers in order.
        let data = html.split("id=\"report-data\">").nth(1).unwrap();
        let data: Value = serde_json::from_str(&data[..data.find("</script>").unwrap()]).unwrap();
        let numbers: Vec<u64> = data["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["n"].as_u64().unwrap())
            .collect();
        assert_eq!(numbers, [1, 2, 3, 4]);
        assert_eq!(data["games"][0]["cn"][1], "马8进7");
        assert_eq!(data["games"][0]["book"], 1);
        assert_eq!(data["games"][1]["red"], 1);
    }

    #[test]
    fn writing_replaces_the_file_whole() {
        let dir = std::env::temp_dir().join(format!("chuhe-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.html");
        write_replacing(&path, "one").unwrap();
        write_replacing(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left");
        std::fs::remove_dir_all(&dir).unwrap();
        let empty = Page::new(None).html(true).unwrap();
        assert!(empty.contains("No game has finished yet"));
    }
}
