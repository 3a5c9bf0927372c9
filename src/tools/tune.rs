//! `tune`: Texel tuning of the evaluation weights on labelled positions.
//!
//! Positions come from games (the master games' ICCS file, or PGN files
//! written by `chuhe match`) and are labelled with the game's result from
//! Red's view. Only quiet positions are kept: not in check, past the
//! opening, with no capture that wins material by SEE for the side to move.
//! The evaluation is linear in its weights before tapering and scaling, so
//! each position is stored once as its list of (weight, signed count) and
//! the fit is plain gradient descent (Adam) on the mean squared error
//! between the result and `sigmoid(K * eval)`, with K fitted first and then
//! held fixed.

use crate::eval::{self, FIELDS, PHASE_MAX, Pair, Params, SCALE_NORMAL, Trace};
use crate::movegen::{self, GenKind, MoveList};
use crate::position::Position;
use crate::record::games::{Game, read_games};
use crate::replay;
use crate::types::*;
use std::io::Write;

/// One labelled position in linear form.
struct Sample {
    result: f32,
    phase: u8,
    scale: u8,
    start: u32,
    len: u16,
}

/// All samples, features stored contiguously.
#[derive(Default)]
pub struct Dataset {
    samples: Vec<Sample>,
    features: Vec<(u16, i16)>,
}

struct Collect(Vec<(u16, i16)>);

impl Trace for Collect {
    fn add(&mut self, index: usize, count: i32) {
        self.0.push((index as u16, count as i16));
    }
}

pub struct TuneOptions {
    /// Skip plies before this one (book moves teach nothing).
    pub min_ply: usize,
    /// Keep every k-th position of a game.
    pub every: usize,
    /// Stop reading after this many positions.
    pub max_positions: usize,
    pub epochs: usize,
    pub learning_rate: f64,
    /// L2 pull of every weight toward its starting value, per unit squared
    /// (0 = none). Rarely seen weights (a pawn on an odd square) otherwise
    /// wander on little evidence.
    pub l2: f64,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            min_ply: 16,
            every: 2,
            max_positions: 2_000_000,
            epochs: 400,
            learning_rate: 2.0,
            l2: 0.0,
        }
    }
}

/// Whether a position is quiet enough to label: no check, no capture that
/// wins material for the side to move.
fn is_quiet(pos: &Position) -> bool {
    if pos.in_check() {
        return false;
    }
    let mut caps = MoveList::new();
    movegen::generate(pos, GenKind::Captures, &mut caps);
    caps.iter().all(|&m| !pos.see_ge(m, 1))
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    fn push(&mut self, pos: &Position, result: f32) {
        let mut c = Collect(Vec::with_capacity(96));
        let (_, phase, scale) = eval::evaluate_red(pos, &eval::PARAMS, &mut c);
        // Merge repeated indices so each weight appears once per sample.
        c.0.sort_unstable_by_key(|&(i, _)| i);
        let mut merged: Vec<(u16, i16)> = Vec::with_capacity(c.0.len());
        for (i, n) in c.0 {
            match merged.last_mut() {
                Some(last) if last.0 == i => last.1 += n,
                _ => merged.push((i, n)),
            }
        }
        // Weights whose counts cancel (e.g. equal pieces) carry no signal.
        merged.retain(|f| f.1 != 0);
        let start = self.features.len() as u32;
        let len = merged.len() as u16;
        self.features.extend(merged);
        self.samples.push(Sample {
            result,
            phase: phase as u8,
            scale: scale as u8,
            start,
            len,
        });
    }

    /// Adds the quiet positions of one game (start position, moves, result
    /// 1, 0.5 or 0 for Red). Returns positions added.
    pub fn add_game(
        &mut self,
        mut pos: Position,
        moves: &[Move],
        result: f32,
        opts: &TuneOptions,
    ) -> usize {
        let mut added = 0;
        // An illegal move ends the game's positions.
        let _ = replay::walk(&mut pos, moves, |pos, ply, _| {
            if ply >= opts.min_ply && ply % opts.every == 0 && is_quiet(pos) {
                self.push(pos, result);
                added += 1;
            }
        });
        added
    }

    /// Adds the games that have a result (1-0, 0-1 or a draw), as far
    /// as they could be read, until the set holds `max_positions`.
    /// Returns the games used.
    pub fn add_games(&mut self, games: &[Game], opts: &TuneOptions) -> usize {
        let mut used = 0;
        for g in games {
            let Some(red_points) = g.result.and_then(|r| r.points(Color::Red)) else {
                continue;
            };
            self.add_game(g.start.clone(), &g.moves, red_points as f32, opts);
            used += 1;
            if self.len() >= opts.max_positions {
                break;
            }
        }
        used
    }
}

/// Red's evaluation of a sample under `w` (flat mg/eg weights).
#[inline]
fn predict(s: &Sample, feats: &[(u16, i16)], w: &[(f64, f64)]) -> (f64, f64, f64) {
    let mut mg = 0.0;
    let mut eg = 0.0;
    for &(i, n) in &feats[s.start as usize..s.start as usize + s.len as usize] {
        let (a, b) = w[i as usize];
        mg += a * n as f64;
        eg += b * n as f64;
    }
    let ph = s.phase as f64 / PHASE_MAX as f64;
    let sc = s.scale as f64 / SCALE_NORMAL as f64;
    ((mg * ph + eg * (1.0 - ph)) * sc, ph, sc)
}

#[inline]
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e / 400.0 * std::f64::consts::LN_10).exp())
}

fn mse(ds: &Dataset, idx: &[usize], w: &[(f64, f64)], k: f64) -> f64 {
    let mut sum = 0.0;
    for &i in idx {
        let s = &ds.samples[i];
        let (e, _, _) = predict(s, &ds.features, w);
        let d = s.result as f64 - sigmoid(k, e);
        sum += d * d;
    }
    sum / idx.len().max(1) as f64
}

/// The K that best fits the current weights (golden-section search).
fn fit_k(ds: &Dataset, idx: &[usize], w: &[(f64, f64)]) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 3.0f64);
    let g = 0.618_033_988_75;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if mse(ds, idx, w, a) < mse(ds, idx, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Weights that tuning never moves: the king's material (always present on
/// both sides, so it has no signal) and the pawn's middle-game material,
/// which anchors the scale (about 100 per pawn, as the protocol promises).
fn frozen(i: usize) -> (bool, bool) {
    match i {
        0 => (true, true),
        6 => (true, false),
        _ => (false, false),
    }
}

/// Runs Adam on the training split; reports progress to `log`.
pub fn tune(
    ds: &Dataset,
    start: &Params,
    opts: &TuneOptions,
    log: &mut impl Write,
) -> std::io::Result<Params> {
    let n = ds.len();
    // Every 20th position is held out to check the fit generalises.
    let (valid, train): (Vec<usize>, Vec<usize>) = (0..n).partition(|i| i % 20 == 0);
    let start_flat = start.to_flat();
    let mut w: Vec<(f64, f64)> = start_flat
        .iter()
        .map(|p| (p.0 as f64, p.1 as f64))
        .collect();
    let k = fit_k(ds, &train, &w);
    writeln!(
        log,
        "positions: {} train, {} validation; K = {k:.4}",
        train.len(),
        valid.len()
    )?;
    writeln!(
        log,
        "start: train MSE {:.6}, validation MSE {:.6}",
        mse(ds, &train, &w, k),
        mse(ds, &valid, &w, k)
    )?;
    let len = w.len();
    let (mut m1, mut m2) = (vec![(0.0, 0.0); len], vec![(0.0, 0.0); len]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    for epoch in 1..=opts.epochs {
        let grad = gradient(ds, &train, &w, k, threads);
        let t = epoch as i32;
        for i in 0..len {
            let (fm, fe) = frozen(i);
            let s0 = start_flat[i];
            let g = (
                grad[i].0 + 2.0 * opts.l2 * (w[i].0 - s0.0 as f64),
                grad[i].1 + 2.0 * opts.l2 * (w[i].1 - s0.1 as f64),
            );
            m1[i].0 = b1 * m1[i].0 + (1.0 - b1) * g.0;
            m1[i].1 = b1 * m1[i].1 + (1.0 - b1) * g.1;
            m2[i].0 = b2 * m2[i].0 + (1.0 - b2) * g.0 * g.0;
            m2[i].1 = b2 * m2[i].1 + (1.0 - b2) * g.1 * g.1;
            let c1 = 1.0 - b1.powi(t);
            let c2 = 1.0 - b2.powi(t);
            if !fm {
                w[i].0 -= opts.learning_rate * (m1[i].0 / c1) / ((m2[i].0 / c2).sqrt() + eps);
            }
            if !fe {
                w[i].1 -= opts.learning_rate * (m1[i].1 / c1) / ((m2[i].1 / c2).sqrt() + eps);
            }
        }
        if epoch % 25 == 0 || epoch == opts.epochs {
            writeln!(
                log,
                "epoch {epoch:4}: train MSE {:.6}, validation MSE {:.6}",
                mse(ds, &train, &w, k),
                mse(ds, &valid, &w, k)
            )?;
        }
    }
    let mut out = start.clone();
    let rounded: Vec<Pair> = w
        .iter()
        .map(|src| Pair(src.0.round() as i32, src.1.round() as i32))
        .collect();
    out.set_flat(&rounded);
    Ok(out)
}

/// Gradient of the MSE over `idx`, split across threads.
fn gradient(
    ds: &Dataset,
    idx: &[usize],
    w: &[(f64, f64)],
    k: f64,
    threads: usize,
) -> Vec<(f64, f64)> {
    let chunk = idx.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Vec<(f64, f64)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = idx
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut g = vec![(0.0, 0.0); w.len()];
                    for &i in part {
                        let s = &ds.samples[i];
                        let (e, ph, sc) = predict(s, &ds.features, w);
                        let p = sigmoid(k, e);
                        // d/de of (r - p)^2 = -2 (r - p) p (1 - p) k ln10 / 400.
                        let d = -2.0
                            * (s.result as f64 - p)
                            * p
                            * (1.0 - p)
                            * k
                            * std::f64::consts::LN_10
                            / 400.0
                            * sc;
                        for &(f, n) in
                            &ds.features[s.start as usize..s.start as usize + s.len as usize]
                        {
                            let gi = &mut g[f as usize];
                            gi.0 += d * ph * n as f64;
                            gi.1 += d * (1.0 - ph) * n as f64;
                        }
                    }
                    g
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("gradient thread"))
            .collect()
    });
    let mut total = vec![(0.0, 0.0); w.len()];
    for p in parts {
        for (t, g) in total.iter_mut().zip(p) {
            t.0 += g.0;
            t.1 += g.1;
        }
    }
    let n = idx.len().max(1) as f64;
    for t in &mut total {
        t.0 /= n;
        t.1 /= n;
    }
    total
}

/// The `tune` command: read games, fit, write the weights file.
pub fn run(
    games: &[String],
    out_path: &str,
    opts: &TuneOptions,
    log: &mut impl Write,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let mut ds = Dataset::default();
    for path in games {
        let read = read_games(std::path::Path::new(path), usize::MAX)?;
        let n = ds.add_games(&read, opts);
        writeln!(log, "{path}: {n} games, {} positions so far", ds.len()).map_err(io)?;
    }
    if ds.is_empty() {
        return Err("no positions to tune on".into());
    }
    let tuned = tune(&ds, &eval::PARAMS, opts, log).map_err(io)?;
    let provenance = format!(
        "Last tuned on {} positions from: {}.",
        ds.len(),
        games
            .iter()
            .map(|g| g.rsplit('/').next().unwrap_or(g))
            .collect::<Vec<_>>()
            .join(", ")
    );
    std::fs::write(out_path, to_source(&tuned, &provenance))
        .map_err(|e| format!("{out_path}: {e}"))?;
    writeln!(log, "wrote {out_path}").map_err(io)?;
    Ok(())
}

/// Renders `params` as `src/eval_params.in`: comments, then the `Params`
/// expression that `eval::PARAMS` includes.
pub fn to_source(params: &Params, provenance: &str) -> String {
    let flat = params.to_flat();
    let mut s = String::new();
    s.push_str(
        "// Evaluation weights, every one named (see `eval::Params` for what each\n\
         // means): the value of `eval::PARAMS`, which includes this file. Written\n\
         // by `chuhe tune` (docs/tuning.md); a tuning run starts from the\n\
         // values here.\n",
    );
    for line in provenance.lines() {
        s.push_str(&format!("// {line}\n"));
    }
    s.push_str("Params {\n");
    let mut at = 0;
    for (name, dims) in FIELDS {
        s.push_str(&format!("    {name}: "));
        render(&mut s, &flat[at..], dims, 1);
        at += dims.iter().product::<usize>();
        s.push_str(",\n");
    }
    s.push_str("}\n");
    s
}

fn render(s: &mut String, flat: &[Pair], dims: &[usize], indent: usize) {
    match dims {
        [] => s.push_str(&format!("p({}, {})", flat[0].0, flat[0].1)),
        [n] => {
            s.push('[');
            for (i, p) in flat[..*n].iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                s.push_str(&format!("p({}, {})", p.0, p.1));
            }
            s.push(']');
        }
        [n, rest @ ..] => {
            let inner: usize = rest.iter().product();
            s.push_str("[\n");
            for i in 0..*n {
                s.push_str(&"    ".repeat(indent + 1));
                render(s, &flat[i * inner..], rest, indent + 1);
                s.push_str(",\n");
            }
            s.push_str(&"    ".repeat(indent));
            s.push(']');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_weights_are_what_the_renderer_writes() {
        let committed = include_str!("../eval_params.in");
        let provenance: Vec<&str> = committed
            .lines()
            .skip(4)
            .take_while(|l| l.starts_with("// "))
            .map(|l| &l[3..])
            .collect();
        assert_eq!(to_source(&eval::PARAMS, &provenance.join("\n")), committed);
    }

    #[test]
    fn source_round_trips_the_current_params() {
        let src = to_source(&eval::PARAMS, "test");
        // The current file was written by the same renderer (or by hand in
        // the same layout): parsing back every p(a, b) gives the flat array.
        let mut vals = Vec::new();
        for part in src.split("p(").skip(1) {
            let inner = &part[..part.find(')').unwrap()];
            let mut it = inner.split(',').map(|t| t.trim().parse::<i32>().unwrap());
            vals.push(Pair(it.next().unwrap(), it.next().unwrap()));
        }
        assert_eq!(vals, eval::PARAMS.to_flat());
    }

    #[test]
    fn tuning_moves_toward_results() {
        // A toy set: Red up a chariot wins, positions otherwise equal draw.
        let mut ds = Dataset::default();
        let win = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/5K3 w").unwrap();
        let draw = Position::from_fen("3k5/9/9/9/9/9/9/9/9/5K3 w").unwrap();
        for _ in 0..50 {
            ds.push(&win, 1.0);
            ds.push(&draw, 0.5);
        }
        assert_eq!(ds.len(), 100);
        let mut sink = Vec::new();
        let tuned = tune(
            &ds,
            &eval::PARAMS,
            &TuneOptions {
                epochs: 50,
                ..TuneOptions::default()
            },
            &mut sink,
        )
        .unwrap();
        assert_eq!(tuned.material[0], eval::PARAMS.material[0], "king frozen");
        let text = String::from_utf8(sink).unwrap();
        assert!(text.contains("epoch   50"));
    }
}
