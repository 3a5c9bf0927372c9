//! `spsa`: tunes the search's tunables (`crate::tunables`) by simultaneous
//! perturbation stochastic approximation, playing `chuhe match` games
//! between two copies of one engine binary whose tunables are set through
//! hidden options: no rebuild per step.
//!
//! Each iteration `k` perturbs every tuned value at once by `±c_k` (the
//! sign drawn at random per value), plays game pairs between the "plus"
//! and the "minus" settings from the match openings, and moves each value
//! by `a_k / c_k * (wins - losses of plus) * sign`. The gains follow the
//! usual schedule (as in Fishtest): `c_k = c / k^0.101` with `c` chosen so
//! that the last iteration's perturbation is the tunable's SPSA step, and
//! `a_k = a / (A + k)^0.602` with `A` a tenth of the iterations and `a`
//! chosen so that the last iteration's `a_k / c_k^2` is `r_end`.
//!
//! The state (iteration and current values) is written after every
//! iteration to `--state`, and read back from it to resume.

use crate::arena::{self, cli::MatchArgs};
use crate::rng::XorShift;
use crate::tunables::{SPECS, Spec, Tunables};
use clap::Parser;
use std::io::Write;
use std::path::Path;

/// How to run the tuner.
#[derive(Clone, Debug)]
pub struct SpsaOptions {
    /// The engine binary (a chuhe build with these tunables).
    pub engine: String,
    pub iterations: u32,
    /// Game pairs per iteration (each opening with both colours).
    pub pairs: u32,
    /// `chuhe match` limits, e.g. `["--tc", "2+0.02"]` or `["--nodes", "20000"]`.
    pub limits: Vec<String>,
    pub concurrency: usize,
    pub hash_mb: u32,
    /// Tunables to tune (names; empty = all).
    pub params: Vec<String>,
    /// Final learning rate (Fishtest's `r_end`).
    pub r_end: f64,
    pub seed: u64,
    /// Where the state is kept (and resumed from).
    pub state: String,
}

/// The tuner's state: the iteration reached and each tuned value.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub iteration: u32,
    /// `(index in SPECS, value)`.
    pub values: Vec<(usize, f64)>,
}

impl State {
    fn text(&self) -> String {
        let mut s = format!("iteration {}\n", self.iteration);
        for &(i, v) in &self.values {
            s.push_str(&format!("{} {v:.4}\n", SPECS[i].name));
        }
        s
    }

    fn parse(text: &str) -> Result<State, String> {
        let mut st = State {
            iteration: 0,
            values: Vec::new(),
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let mut w = line.split_whitespace();
            let (Some(name), Some(value)) = (w.next(), w.next()) else {
                return Err(format!("bad state line: {line}"));
            };
            if name == "iteration" {
                st.iteration = value.parse().map_err(|_| format!("bad line: {line}"))?;
                continue;
            }
            let i = Tunables::index_of(name).ok_or_else(|| format!("no tunable {name}"))?;
            let v: f64 = value.parse().map_err(|_| format!("bad line: {line}"))?;
            st.values.push((i, v));
        }
        Ok(st)
    }

    /// The tunables, rounded, with every value not tuned at its default.
    pub fn tunables(&self) -> Tunables {
        let mut t = Tunables::default();
        for &(i, v) in &self.values {
            let _ = t.set(i, clamp_round(&SPECS[i], v));
        }
        t
    }
}

fn clamp_round(s: &Spec, v: f64) -> i32 {
    (v.round() as i32).clamp(s.min, s.max)
}

/// The gain schedule for `iterations` iterations.
#[derive(Clone, Copy, Debug)]
pub struct Gains {
    iterations: f64,
    big_a: f64,
    r_end: f64,
}

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

impl Gains {
    pub fn new(iterations: u32, r_end: f64) -> Gains {
        let n = iterations.max(1) as f64;
        Gains {
            iterations: n,
            big_a: 0.1 * n,
            r_end,
        }
    }

    /// The perturbation of a tunable whose last-iteration perturbation is
    /// `c_end`, at iteration `k` (from 1).
    pub fn c(&self, c_end: f64, k: u32) -> f64 {
        c_end * self.iterations.powf(GAMMA) / (k as f64).powf(GAMMA)
    }

    /// The step size `a_k` for that tunable.
    pub fn a(&self, c_end: f64, k: u32) -> f64 {
        let a = self.r_end * c_end * c_end * (self.big_a + self.iterations).powf(ALPHA);
        a / (self.big_a + k as f64).powf(ALPHA)
    }
}

#[derive(Parser)]
struct MatchCommand {
    #[command(flatten)]
    args: MatchArgs,
}

/// Plays one iteration's games; returns wins minus losses of the first.
fn play(opts: &SpsaOptions, plus: &Tunables, minus: &Tunables, seed: u64) -> Result<i64, String> {
    let engine = |name: &str, t: &Tunables| {
        let mut tokens = vec![
            format!("cmd={}", opts.engine),
            format!("name={name}"),
            "proto=uci".to_string(),
            format!("hash={}", opts.hash_mb),
            "threads=1".to_string(),
        ];
        for (i, spec) in SPECS.iter().enumerate() {
            tokens.push(format!("option.{}={}", spec.name, t.get(i)));
        }
        tokens
    };
    let mut argv: Vec<String> = vec!["match".into(), "--engine".into()];
    argv.extend(engine("plus", plus));
    argv.push("--engine".into());
    argv.extend(engine("minus", minus));
    argv.extend(opts.limits.iter().cloned());
    argv.extend([
        "--games".to_string(),
        (2 * opts.pairs).to_string(),
        "--concurrency".to_string(),
        opts.concurrency.to_string(),
        "--seed".to_string(),
        seed.to_string(),
        "--event".to_string(),
        "chuhe spsa".to_string(),
    ]);
    let cmd = MatchCommand::try_parse_from(&argv).map_err(|e| e.to_string())?;
    let summary = arena::run(cmd.args.to_config()?)?;
    let wdl = summary.pairings.first().map(|p| p.wdl).unwrap_or_default();
    Ok(wdl.wins as i64 - wdl.losses as i64)
}

/// `chuhe spsa`: runs the iterations, printing one line each.
pub fn run(opts: &SpsaOptions, out: &mut impl Write) -> Result<(), String> {
    let tuned: Vec<usize> = if opts.params.is_empty() {
        (0..SPECS.len()).collect()
    } else {
        opts.params
            .iter()
            .map(|n| Tunables::index_of(n).ok_or_else(|| format!("no tunable {n}")))
            .collect::<Result<_, _>>()?
    };
    let state_path = Path::new(&opts.state);
    let mut state = match std::fs::read_to_string(state_path) {
        Ok(text) => State::parse(&text)?,
        Err(_) => State {
            iteration: 0,
            values: tuned
                .iter()
                .map(|&i| (i, SPECS[i].default as f64))
                .collect(),
        },
    };
    let gains = Gains::new(opts.iterations, opts.r_end);
    let mut rng = XorShift(opts.seed | 1);
    let io = |e: std::io::Error| e.to_string();
    while state.iteration < opts.iterations {
        let k = state.iteration + 1;
        let mut plus = state.tunables();
        let mut minus = state.tunables();
        let mut signs = Vec::with_capacity(state.values.len());
        for &(i, v) in &state.values {
            let s = &SPECS[i];
            let c = gains.c(s.step as f64, k);
            let sign = rng.sign();
            let _ = plus.set(i, clamp_round(s, v + c * sign));
            let _ = minus.set(i, clamp_round(s, v - c * sign));
            signs.push(sign);
        }
        let result = play(opts, &plus, &minus, opts.seed.wrapping_add(k as u64))?;
        for (slot, sign) in state.values.iter_mut().zip(&signs) {
            let s = &SPECS[slot.0];
            let step = s.step as f64;
            let delta = gains.a(step, k) / gains.c(step, k) * result as f64 * sign;
            slot.1 = (slot.1 + delta).clamp(s.min as f64, s.max as f64);
        }
        state.iteration = k;
        std::fs::write(state_path, state.text())
            .map_err(|e| format!("{}: {e}", state_path.display()))?;
        let moved: Vec<String> = state
            .values
            .iter()
            .filter(|&&(i, v)| clamp_round(&SPECS[i], v) != SPECS[i].default)
            .map(|&(i, v)| format!("{}={v:.1}", SPECS[i].name))
            .collect();
        writeln!(
            out,
            "iteration {k}/{}: plus-minus {result:+}; off default: {}",
            opts.iterations,
            if moved.is_empty() {
                "none".to_string()
            } else {
                moved.join(" ")
            }
        )
        .map_err(io)?;
    }
    let changed = state.tunables().changed();
    writeln!(
        out,
        "final (state in {}): {}",
        state_path.display(),
        if changed.is_empty() {
            "all defaults".to_string()
        } else {
            changed.join(" ")
        }
    )
    .map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gains_end_at_the_step_and_r_end() {
        let g = Gains::new(1000, 0.002);
        assert!((g.c(10.0, 1000) - 10.0).abs() < 1e-9);
        assert!(g.c(10.0, 1) > g.c(10.0, 500));
        let r = g.a(10.0, 1000) / (g.c(10.0, 1000) * g.c(10.0, 1000));
        assert!((r - 0.002).abs() < 1e-12);
        assert!(g.a(10.0, 1) > g.a(10.0, 1000));
    }

    #[test]
    fn state_round_trips() {
        let st = State {
            iteration: 7,
            values: vec![(0, 8.25), (2, 41.5)],
        };
        assert_eq!(State::parse(&st.text()), Ok(st.clone()));
        let t = st.tunables();
        assert_eq!(t.get(0), 8);
        assert_eq!(t.get(2), 42);
        assert!(State::parse("nonsense 1\n").is_err());
    }
}
