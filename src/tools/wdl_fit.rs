//! `chuhe wdl-fit`: fits the win/draw/loss model of `wdl` to game results.
//!
//! Input: the labelled master-game positions (`ccpd-labels-5k.tsv.xz`, one
//! position a line: `fen, score, best, best_is_capture, result, ply,
//! game`; the score is chuhe's, from the side to move's view, the result
//! Red's). Each position's game result is turned to the side to move's
//! view (win, draw or loss) and counted in a bucket of (material, score);
//! the score is clamped to ±`SCORE_CLAMP`.
//!
//! The fit maximises the likelihood of the observed results under the
//! model (`wdl::probabilities`), over the eight coefficients of the two
//! cubics `a(x)` and `b(x)`, by Adam on the mean log-likelihood of the
//! buckets (in units of 100 cp for good conditioning). Games are split by
//! their index: every tenth game (`game % 10 == 9`) is held out, and the
//! report compares the held-out log-loss with a model without material
//! (`a`, `b` constant) and with no knowledge at all (the overall result
//! rates), then tabulates predicted against observed rates.

use crate::record::labels::Label;
use crate::wdl::{self, MATERIAL_MAX};
use std::io::Write;
use std::path::Path;

/// Scores beyond this are counted at it (they are all but decided).
pub const SCORE_CLAMP: i32 = 2000;
const SCORES: usize = (2 * SCORE_CLAMP + 1) as usize;
const MATERIALS: usize = (MATERIAL_MAX + 1) as usize;

/// Win, draw and loss counts per (material, score).
pub struct Buckets {
    counts: Vec<[u32; 3]>,
}

impl Default for Buckets {
    fn default() -> Self {
        Buckets {
            counts: vec![[0; 3]; MATERIALS * SCORES],
        }
    }
}

impl Buckets {
    fn index(material: i32, score: i32) -> usize {
        let m = material.clamp(0, MATERIAL_MAX) as usize;
        let s = (score.clamp(-SCORE_CLAMP, SCORE_CLAMP) + SCORE_CLAMP) as usize;
        m * SCORES + s
    }

    /// Counts one position: `outcome` 0 win, 1 draw, 2 loss for the side
    /// to move.
    pub fn add(&mut self, material: i32, score: i32, outcome: usize) {
        self.counts[Self::index(material, score)][outcome.min(2)] += 1;
    }

    pub fn total(&self) -> u64 {
        self.counts
            .iter()
            .map(|c| c.iter().map(|&n| u64::from(n)).sum::<u64>())
            .sum()
    }

    /// The filled buckets as (x = material fraction, score, counts).
    fn filled(&self) -> Vec<(f64, f64, [f64; 3])> {
        let mut v = Vec::new();
        for (i, c) in self.counts.iter().enumerate() {
            if c.iter().any(|&n| n > 0) {
                let m = (i / SCORES) as f64;
                let s = (i % SCORES) as f64 - f64::from(SCORE_CLAMP);
                v.push((
                    m / f64::from(MATERIAL_MAX),
                    s,
                    [f64::from(c[0]), f64::from(c[1]), f64::from(c[2])],
                ));
            }
        }
        v
    }
}

/// The model's coefficients, in centipawns: `a` then `b`, each c0..c3,
/// and the score `offset` that counts as level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coefficients {
    pub a: [f64; 4],
    pub b: [f64; 4],
    pub offset: f64,
}

impl Coefficients {
    pub fn committed() -> Coefficients {
        Coefficients {
            a: wdl::A,
            b: wdl::B,
            offset: wdl::OFFSET,
        }
    }

    fn curve(&self, x: f64) -> (f64, f64) {
        let p = |c: &[f64; 4]| ((c[3] * x + c[2]) * x + c[1]) * x + c[0];
        (p(&self.a).max(1.0), p(&self.b).max(10.0))
    }

    /// (win, draw, loss) probabilities, as `wdl::probabilities` computes
    /// them with these coefficients.
    pub fn probabilities(&self, x: f64, score: f64) -> [f64; 3] {
        let (a, b) = self.curve(x);
        let score = score - self.offset;
        let w = 1.0 / (1.0 + (-(score - a) / b).exp());
        let l = 1.0 / (1.0 + ((score + a) / b).exp());
        [w, (1.0 - w - l).max(1e-9), l]
    }
}

/// Mean negative log-likelihood (log-loss, natural log) per position.
pub fn log_loss(c: &Coefficients, buckets: &Buckets) -> f64 {
    let (mut sum, mut n) = (0.0, 0.0);
    for (x, s, counts) in buckets.filled() {
        let p = c.probabilities(x, s);
        for k in 0..3 {
            if counts[k] > 0.0 {
                sum -= counts[k] * p[k].max(1e-12).ln();
                n += counts[k];
            }
        }
    }
    if n > 0.0 { sum / n } else { 0.0 }
}

/// Which coefficients the fit may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `a` and `b` constant (no material dependence).
    Constant,
    /// Both cubic in material.
    Cubic,
    /// Cubic, and the level score moved off zero.
    CubicOffset,
}

/// Maximum-likelihood fit by Adam, from `a = b = 150` cp.
pub fn fit(buckets: &Buckets, shape: Shape, iterations: usize) -> Coefficients {
    let data = buckets.filled();
    let total: f64 = data.iter().map(|d| d.2.iter().sum::<f64>()).sum();
    // Parameters in units of 100 cp: a0..a3, b0..b3, offset.
    let mut p = [1.5, 0.0, 0.0, 0.0, 1.5, 0.0, 0.0, 0.0, 0.0];
    let free: Vec<usize> = match shape {
        Shape::Constant => vec![0, 4],
        Shape::Cubic => (0..8).collect(),
        Shape::CubicOffset => (0..9).collect(),
    };
    let (mut m1, mut m2) = ([0.0f64; 9], [0.0f64; 9]);
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    for t in 1..=iterations {
        let lr = 0.02 * (1.0 - 0.9 * t as f64 / iterations as f64);
        let mut g = [0.0f64; 9];
        for &(x, s, counts) in &data {
            let s = s / 100.0 - p[8];
            let xs = [1.0, x, x * x, x * x * x];
            let a: f64 = (0..4).map(|k| p[k] * xs[k]).sum::<f64>().max(0.01);
            let b: f64 = (0..4).map(|k| p[4 + k] * xs[k]).sum::<f64>().max(0.1);
            let u = (s - a) / b;
            let v = (-s - a) / b;
            let w = 1.0 / (1.0 + (-u).exp());
            let l = 1.0 / (1.0 + (-v).exp());
            let d = (1.0 - w - l).max(1e-9);
            // d(log-likelihood)/du and /dv, summed over the bucket.
            let du = counts[0] * (1.0 - w) - counts[1] * w * (1.0 - w) / d;
            let dv = counts[2] * (1.0 - l) - counts[1] * l * (1.0 - l) / d;
            let da = -(du + dv) / b;
            let db = -(du * u + dv * v) / b;
            // The score enters as s - offset: du/dc = -1/b, dv/dc = 1/b.
            let dc = (dv - du) / b;
            g[8] -= dc / total;
            for k in 0..4 {
                g[k] -= da * xs[k] / total;
                g[4 + k] -= db * xs[k] / total;
            }
        }
        for &k in &free {
            m1[k] = beta1 * m1[k] + (1.0 - beta1) * g[k];
            m2[k] = beta2 * m2[k] + (1.0 - beta2) * g[k] * g[k];
            let mh = m1[k] / (1.0 - beta1.powi(t as i32));
            let vh = m2[k] / (1.0 - beta2.powi(t as i32));
            p[k] -= lr * mh / (vh.sqrt() + eps);
        }
    }
    Coefficients {
        a: [p[0] * 100.0, p[1] * 100.0, p[2] * 100.0, p[3] * 100.0],
        b: [p[4] * 100.0, p[5] * 100.0, p[6] * 100.0, p[7] * 100.0],
        offset: p[8] * 100.0,
    }
}

/// Training and held-out buckets read from the labels file.
pub struct Data {
    pub train: Buckets,
    pub valid: Buckets,
    pub skipped: usize,
}

/// Reads the labels: the CCPD TSV (plain or xz), or training records
/// (`.bin`, `chuhe datagen`'s; e.g. the TSV's positions scored again by
/// `datagen --label` with the evaluation in use). Every `every`-th
/// position is used.
pub fn read(path: &Path, every: usize) -> Result<Data, String> {
    if path.extension().is_some_and(|e| e == "bin") {
        return read_records(path, every);
    }
    let text =
        crate::record::games::read_text(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut data = Data {
        train: Buckets::default(),
        valid: Buckets::default(),
        skipped: 0,
    };
    for (i, line) in text.lines().enumerate() {
        if i % every.max(1) != 0 {
            continue;
        }
        let parsed = Label::parse(line).and_then(|l| {
            let outcome = outcome(l.result.points(l.pos.side_to_move())?);
            Some((wdl::material(&l.pos), l.score, outcome, l.game?))
        });
        match parsed {
            Some((m, s, o, game)) => {
                if game % 10 == 9 {
                    data.valid.add(m, s, o);
                } else {
                    data.train.add(m, s, o);
                }
            }
            None => data.skipped += 1,
        }
    }
    Ok(data)
}

/// The bucket column of a result worth `points` (1, 0.5 or 0) to the side
/// to move: 0 win, 1 draw, 2 loss.
fn outcome(points: f64) -> usize {
    if points > 0.75 {
        0
    } else if points > 0.25 {
        1
    } else {
        2
    }
}

/// Records hold no game number: the held-out tenth is every tenth block
/// of 256 consecutive records (a block is a game or a few).
fn read_records(path: &Path, every: usize) -> Result<Data, String> {
    let records = crate::nnue::data::read_files(&[path.display().to_string()])
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut data = Data {
        train: Buckets::default(),
        valid: Buckets::default(),
        skipped: 0,
    };
    for (i, r) in records.iter().enumerate().step_by(every.max(1)) {
        let (Ok(pos), Some(result)) = (r.to_position(), r.result()) else {
            data.skipped += 1;
            continue;
        };
        let outcome = outcome(f64::from(result.score_for(pos.side_to_move())));
        let buckets = if (i / 256) % 10 == 9 {
            &mut data.valid
        } else {
            &mut data.train
        };
        buckets.add(wdl::material(&pos), i32::from(r.score()), outcome);
    }
    Ok(data)
}

/// The overall result rates as a model: every position gets them.
fn base_rates_loss(train: &Buckets, valid: &Buckets) -> f64 {
    let mut rates = [0.0f64; 3];
    for c in &train.counts {
        for k in 0..3 {
            rates[k] += f64::from(c[k]);
        }
    }
    let n: f64 = rates.iter().sum();
    let (mut sum, mut m) = (0.0, 0.0);
    for c in &valid.counts {
        for k in 0..3 {
            let cnt = f64::from(c[k]);
            if cnt > 0.0 {
                sum -= cnt * (rates[k] / n).ln();
                m += cnt;
            }
        }
    }
    if m > 0.0 { sum / m } else { 0.0 }
}

/// Writes the coefficients as `src/wdl_params.rs`.
pub fn write_params(path: &Path, c: &Coefficients, note: &str) -> Result<(), String> {
    let fmt = |v: &[f64; 4]| {
        v.iter()
            .map(|x| format!("{x:.3}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = format!(
        "//! Coefficients of the win/draw/loss model (`wdl`), written by\n\
         //! `chuhe wdl-fit`. Do not edit by hand.\n\
         //!\n{note}\n\
         /// `a(x)`: c0 + c1 x + c2 x^2 + c3 x^3, centipawns.\n\
         pub const A: [f64; 4] = [{}];\n\
         /// `b(x)`: c0 + c1 x + c2 x^2 + c3 x^3, centipawns.\n\
         pub const B: [f64; 4] = [{}];\n\
         /// The score, centipawns, at which win and loss are equally likely.\n\
         pub const OFFSET: f64 = {:.3};\n",
        fmt(&c.a),
        fmt(&c.b),
        c.offset
    );
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The whole command: read, fit, report, and write `out` if given.
pub fn run(
    path: &Path,
    out: Option<&Path>,
    every: usize,
    iterations: usize,
    w: &mut dyn Write,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let data = read(path, every)?;
    writeln!(
        w,
        "positions: {} training, {} held out (every tenth game), {} unreadable",
        data.train.total(),
        data.valid.total(),
        data.skipped
    )
    .map_err(io)?;
    let constant = fit(&data.train, Shape::Constant, iterations);
    let cubic0 = fit(&data.train, Shape::Cubic, iterations);
    let cubic = fit(&data.train, Shape::CubicOffset, iterations);
    let committed = Coefficients::committed();
    writeln!(w, "held-out log-loss (nats per position, lower is better):").map_err(io)?;
    for (name, value) in [
        (
            "result rates only",
            base_rates_loss(&data.train, &data.valid),
        ),
        ("score, a and b constant", log_loss(&constant, &data.valid)),
        ("score and material", log_loss(&cubic0, &data.valid)),
        ("... and an offset (the fit)", log_loss(&cubic, &data.valid)),
        ("committed coefficients", log_loss(&committed, &data.valid)),
    ] {
        writeln!(w, "  {name:32} {value:.4}").map_err(io)?;
    }
    writeln!(
        w,
        "constant: a = {:.1}, b = {:.1} cp",
        constant.a[0], constant.b[0]
    )
    .map_err(io)?;
    writeln!(
        w,
        "fit: a(x) = {:.1?}, b(x) = {:.1?}, offset {:.1} cp",
        cubic.a, cubic.b, cubic.offset
    )
    .map_err(io)?;
    writeln!(w, "a and b by material (x = material / {MATERIAL_MAX}):").map_err(io)?;
    for m in (0..=MATERIAL_MAX).step_by(6) {
        let (a, b) = cubic.curve(f64::from(m) / f64::from(MATERIAL_MAX));
        writeln!(w, "  material {m:2}: a {a:6.1}  b {b:6.1}").map_err(io)?;
    }
    calibration(&cubic, &data.valid, w).map_err(io)?;
    if let Some(out) = out {
        let note = format!(
            "//! Fitted to {} positions of the master games ({}), every {every} line(s),\n\
             //! held-out log-loss {:.4} (result rates alone: {:.4}).",
            data.train.total(),
            path.file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default(),
            log_loss(&cubic, &data.valid),
            base_rates_loss(&data.train, &data.valid)
        );
        write_params(out, &cubic, &note)?;
        writeln!(w, "wrote {}", out.display()).map_err(io)?;
    }
    Ok(())
}

/// Predicted against observed win/draw/loss rates on the held-out games,
/// by score band and material half.
fn calibration(c: &Coefficients, valid: &Buckets, w: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        w,
        "held-out calibration, per mille (observed / predicted):\n  material  score band        n     win        draw       loss"
    )?;
    let bands = [
        (-2000, -600),
        (-600, -300),
        (-300, -150),
        (-150, -50),
        (-50, 50),
        (50, 150),
        (150, 300),
        (300, 600),
        (600, 2001),
    ];
    let halves = [(0, MATERIAL_MAX / 2), (MATERIAL_MAX / 2 + 1, MATERIAL_MAX)];
    for (m0, m1) in halves {
        for (s0, s1) in bands {
            let (mut obs, mut pred, mut n) = ([0.0f64; 3], [0.0f64; 3], 0.0);
            for m in m0..=m1 {
                for s in s0..s1 {
                    let cnt = valid.counts[Buckets::index(m, s)];
                    let total = f64::from(cnt[0] + cnt[1] + cnt[2]);
                    if total == 0.0 {
                        continue;
                    }
                    let p = c.probabilities(f64::from(m) / f64::from(MATERIAL_MAX), f64::from(s));
                    for k in 0..3 {
                        obs[k] += f64::from(cnt[k]);
                        pred[k] += p[k] * total;
                    }
                    n += total;
                }
            }
            if n < 1.0 {
                continue;
            }
            let pm = |v: f64| (1000.0 * v / n).round();
            writeln!(
                w,
                "  {m0:2}..{m1:2}   {s0:5}..{:5} {n:7}  {:4}/{:<4}  {:4}/{:<4}  {:4}/{:<4}",
                s1.min(2000),
                pm(obs[0]),
                pm(pred[0]),
                pm(obs[1]),
                pm(pred[1]),
                pm(obs[2]),
                pm(pred[2])
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Draws outcomes from known coefficients and checks the fit finds them.
    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = Coefficients {
            a: [90.0, 120.0, 0.0, 0.0],
            b: [80.0, 90.0, 0.0, 0.0],
            offset: 20.0,
        };
        let mut buckets = Buckets::default();
        let mut rng = crate::rng::XorShift(0x1234_5678_9abc_def0);
        let mut rand = || rng.unit();
        for _ in 0..200_000 {
            let m = (rand() * f64::from(MATERIAL_MAX + 1)) as i32;
            let s = ((rand() - 0.5) * 1200.0) as i32;
            let p = truth.probabilities(f64::from(m) / f64::from(MATERIAL_MAX), f64::from(s));
            let r = rand();
            let o = if r < p[0] {
                0
            } else if r < p[0] + p[1] {
                1
            } else {
                2
            };
            buckets.add(m, s, o);
        }
        let got = fit(&buckets, Shape::CubicOffset, 1500);
        assert!((got.offset - 20.0).abs() < 8.0, "{got:?}");
        for x in [0.0, 0.5, 1.0] {
            let (ta, tb) = truth.curve(x);
            let (ga, gb) = got.curve(x);
            assert!((ta - ga).abs() < 15.0, "a({x}): {ga} vs {ta}");
            assert!((tb - gb).abs() < 15.0, "b({x}): {gb} vs {tb}");
        }
        assert!(log_loss(&got, &buckets) <= log_loss(&truth, &buckets) + 1e-3);
    }
}
