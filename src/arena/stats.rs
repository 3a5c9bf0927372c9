//! Match statistics: Elo from a score with a 95% interval, likelihood of
//! superiority, pentanomial counts of game pairs, and the sequential
//! probability ratio test that stops a match early.
//!
//! All figures are from the first engine's point of view. Elo is the
//! logistic model: an expected score `s` means `-400 log10(1/s - 1)` Elo.
//!
//! The error bars come from the sample variance of the unit being counted:
//! single games (trinomial: win, draw, loss) or, when the match plays each
//! opening twice with colours swapped, game pairs (pentanomial: a pair
//! scores 0, ½, 1, 1½ or 2 points). Pairs are the better unit: the two games
//! of a pair are correlated through their opening, and treating them as
//! independent overstates the error when openings are unbalanced.
//!
//! The SPRT is the generalised SPRT that Fishtest and fastchess run: the
//! log-likelihood ratio of the observed frequencies of the unit scores
//! (pairs, or games) under the two most likely distributions whose expected
//! score is `s0` (the score of `elo0`) and `s1` (of `elo1`). That maximum
//! likelihood distribution has the closed form `p_i = q_i / (1 + θ (a_i -
//! s))`, with `q_i` the observed frequencies, `a_i` the unit scores, and `θ`
//! the root of `Σ q_i (a_i - s) / (1 + θ (a_i - s)) = 0` (M. Van den Bergh,
//! "Comments on Normalized Elo", proposition 1.1), so
//! `LLR = N Σ q_i ln(p1_i / p0_i)`. For large samples it approaches the
//! normal approximation `N (s1 - s0) (2m - s0 - s1) / (2v)` (sample mean
//! `m`, variance `v`), which on a handful of games overshoots: one pair won
//! twice would already stop a test there. The test stops when the LLR
//! leaves `(ln(β/(1-α)), ln((1-β)/α))`.

/// 97.5th percentile of the standard normal distribution (two-sided 95%).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points scored per game (0..1); `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// Adds one game's result: `points` is 1, ½ or 0 for the first engine.
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

/// Counts of game pairs by the first engine's points over the pair:
/// index 0..=4 is 0, ½, 1, 1½, 2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u32; 5]);

impl Penta {
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Adds a pair from its two game scores (each 0, ½ or 1).
    pub fn add_pair(&mut self, a: f64, b: f64) {
        let half_points = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[half_points] += 1;
    }
}

/// Expected score of a side `elo` points stronger.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives expected score `score`; ±infinity at 1
/// and 0.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Error function, Abramowitz and Stegun 7.1.26 (absolute error below
/// 1.5e-7, plenty for a percentage printed to one decimal).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Standard normal cumulative distribution.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// Likelihood of superiority: the probability that the first engine is the
/// stronger, given its wins and losses (draws carry no information here).
pub fn los(wdl: &Wdl) -> f64 {
    let (w, l) = (wdl.wins as f64, wdl.losses as f64);
    if w + l == 0.0 {
        return 0.5;
    }
    normal_cdf((w - l) / (w + l).sqrt())
}

/// An Elo estimate with its two-sided 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    /// Half the interval's width, the "±" figure. Infinite when a bound
    /// is at a score of 0 or 1.
    pub fn error(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Mean and variance of a distribution over scores given as counts.
fn mean_variance(scores: &[f64], counts: &[f64]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return None;
    }
    let mean = scores.iter().zip(counts).map(|(s, c)| s * c).sum::<f64>() / n;
    let var = scores
        .iter()
        .zip(counts)
        .map(|(s, c)| c * (s - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

fn estimate(scores: &[f64], counts: &[f64]) -> Option<EloEstimate> {
    let (n, mean, var) = mean_variance(scores, counts)?;
    let half = Z_95 * (var / n).sqrt();
    Some(EloEstimate {
        elo: score_to_elo(mean),
        lower: score_to_elo(mean - half),
        upper: score_to_elo(mean + half),
    })
}

const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

fn wdl_counts(wdl: &Wdl) -> [f64; 3] {
    [wdl.losses as f64, wdl.draws as f64, wdl.wins as f64]
}

fn penta_counts(p: &Penta) -> [f64; 5] {
    p.0.map(|c| c as f64)
}

/// Elo with a 95% interval from the variance of single games.
pub fn elo_trinomial(wdl: &Wdl) -> Option<EloEstimate> {
    estimate(&GAME_SCORES, &wdl_counts(wdl))
}

/// Elo with a 95% interval from the variance of game pairs.
pub fn elo_pentanomial(p: &Penta) -> Option<EloEstimate> {
    estimate(&PAIR_SCORES, &penta_counts(p))
}

/// Which hypothesis the SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hypothesis {
    /// The difference is at most `elo0`.
    H0,
    /// The difference is at least `elo1`.
    H1,
}

/// SPRT parameters: test Elo `elo0` against `elo1` with error rates
/// `alpha` (accepting H1 when H0 holds) and `beta` (the reverse).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Default for Sprt {
    fn default() -> Self {
        Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

/// Zero counts get this weight so that an early sample with, say, no
/// losses yet does not have a variance of zero (the same device Fishtest
/// and fastchess use).
const REGULARIZE: f64 = 1e-3;

/// The distribution closest (in likelihood) to the frequencies `freq` over
/// `scores` whose expected score is `s`: `freq_i / (1 + θ (a_i - s))`, with
/// θ found by bisection. `freq` must be positive everywhere and `s` must lie
/// strictly between the smallest and largest score.
fn mle_with_mean(scores: &[f64], freq: &[f64], s: f64) -> Vec<f64> {
    let lo_score = scores.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_score = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // 1 + θ (a_i - s) > 0 for every i bounds θ to this open interval, at
    // whose ends the function below runs to +∞ and -∞.
    let (mut lo, mut hi) = (-1.0 / (hi_score - s), -1.0 / (lo_score - s));
    let f = |theta: f64| -> f64 {
        scores
            .iter()
            .zip(freq)
            .map(|(a, q)| q * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    // f decreases in θ; 200 halvings reach the limit of f64 precision.
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    scores
        .iter()
        .zip(freq)
        .map(|(a, q)| q / (1.0 + theta * (a - s)))
        .collect()
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order, all
    /// optional; the defaults are those values).
    pub fn parse<S: AsRef<str>>(tokens: &[S]) -> Result<Sprt, String> {
        let mut sprt = Sprt::default();
        for tok in tokens {
            for item in tok.as_ref().split_whitespace() {
                let (key, value) = item
                    .split_once('=')
                    .ok_or_else(|| format!("SPRT parameter '{item}' is not KEY=VALUE"))?;
                let v: f64 = value
                    .parse()
                    .ok()
                    .filter(|v: &f64| v.is_finite())
                    .ok_or_else(|| format!("SPRT parameter {key}: '{value}' is not a number"))?;
                match key {
                    "elo0" => sprt.elo0 = v,
                    "elo1" => sprt.elo1 = v,
                    "alpha" => sprt.alpha = v,
                    "beta" => sprt.beta = v,
                    _ => return Err(format!("unknown SPRT parameter '{key}'")),
                }
            }
        }
        if !(sprt.alpha > 0.0 && sprt.alpha < 0.5 && sprt.beta > 0.0 && sprt.beta < 0.5) {
            return Err("SPRT alpha and beta must lie strictly between 0 and 0.5".into());
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err("SPRT elo1 must be greater than elo0".into());
        }
        Ok(sprt)
    }

    /// The (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    fn llr(&self, scores: &[f64], counts: &[f64]) -> f64 {
        let n: f64 = counts.iter().sum();
        if n <= 0.0 {
            return 0.0;
        }
        let regularized: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0.0 { REGULARIZE } else { c })
            .collect();
        let total: f64 = regularized.iter().sum();
        let freq: Vec<f64> = regularized.iter().map(|c| c / total).collect();
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        let p0 = mle_with_mean(scores, &freq, s0);
        let p1 = mle_with_mean(scores, &freq, s1);
        n * freq
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(q, (a, b))| q * (b.ln() - a.ln()))
            .sum::<f64>()
    }

    /// The normal approximation of the LLR (see the module notes), for
    /// comparison.
    pub fn llr_normal_approx(&self, scores: &[f64], counts: &[f64]) -> f64 {
        let Some((n, mean, var)) = mean_variance(scores, counts) else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// LLR from game pairs.
    pub fn llr_pentanomial(&self, p: &Penta) -> f64 {
        self.llr(&PAIR_SCORES, &penta_counts(p))
    }

    /// LLR from single games (when games are not paired).
    pub fn llr_trinomial(&self, wdl: &Wdl) -> f64 {
        self.llr(&GAME_SCORES, &wdl_counts(wdl))
    }

    /// The summary's SPRT line: parameters, LLR within its bounds, and
    /// the decision.
    pub fn summary_line(&self, llr: f64, decision: Option<Hypothesis>) -> String {
        let (lo, hi) = self.bounds();
        let verdict = match decision {
            Some(Hypothesis::H1) => "H1 accepted",
            Some(Hypothesis::H0) => "H0 accepted",
            None => "no decision",
        };
        format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} ({lo:.2}, {hi:.2}), {verdict}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }

    /// The accepted hypothesis once `llr` leaves the bounds.
    pub fn decide(&self, llr: f64) -> Option<Hypothesis> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Hypothesis::H1)
        } else if llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}

/// `+12.3`, `-4.0`, `+inf`.
pub fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Adding 0.0 turns -0.0 into +0.0.
        format!("{:+.1}", elo + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn elo_of_known_scores() {
        // -400 log10(0.45/0.55) = 34.8601...
        assert!(close(score_to_elo(0.55), 34.860, 1e-3));
        assert!(close(score_to_elo(0.5), 0.0, 1e-12));
        assert!(close(score_to_elo(0.45), -34.860, 1e-3));
        // 10^(1/2) = 3.1623: a 200 Elo edge scores 0.7597.
        assert!(close(elo_to_score(200.0), 0.759_747, 1e-6));
        assert!(close(score_to_elo(elo_to_score(123.4)), 123.4, 1e-9));
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
        assert_eq!(format_elo(-0.0), "+0.0");
        assert_eq!(format_elo(-3.26), "-3.3");
        assert_eq!(format_elo(f64::INFINITY), "+inf");
    }

    #[test]
    fn erf_matches_tables() {
        // erf(0.5) = 0.5204999, erf(1) = 0.8427008, erf(2) = 0.9953223.
        assert!(close(erf(0.5), 0.520_499_9, 2e-7));
        assert!(close(erf(1.0), 0.842_700_8, 2e-7));
        assert!(close(erf(2.0), 0.995_322_3, 2e-7));
        assert!(close(erf(-1.0), -0.842_700_8, 2e-7));
        assert!(close(normal_cdf(Z_95), 0.975, 1e-6));
    }

    #[test]
    fn los_of_known_records() {
        // W=60 L=40: Phi(20/sqrt(100)) = Phi(2) = 0.97725.
        let wdl = Wdl {
            wins: 60,
            draws: 17,
            losses: 40,
        };
        assert!(close(los(&wdl), 0.977_250, 1e-5));
        // W=10 L=10: exactly a coin toss; nothing decisive: 0.5 too.
        assert!(close(
            los(&Wdl {
                wins: 10,
                draws: 0,
                losses: 10
            }),
            0.5,
            1e-7
        ));
        assert!(close(los(&Wdl::default()), 0.5, 1e-7));
        // W=5 L=0: Phi(sqrt 5) = Phi(2.2360680) = 0.987326.
        assert!(close(
            los(&Wdl {
                wins: 5,
                draws: 3,
                losses: 0
            }),
            0.987_326,
            1e-5
        ));
    }

    #[test]
    fn trinomial_interval_by_hand() {
        // 60 wins, 40 losses, no draws: mean 0.6, variance 0.24 per game,
        // standard error sqrt(0.0024) = 0.0489898; 1.959964 of it is
        // 0.0960178, so the score interval is [0.5039822, 0.6960178]:
        // Elo 70.437 in [2.767, 143.909].
        let e = elo_trinomial(&Wdl {
            wins: 60,
            draws: 0,
            losses: 40,
        })
        .unwrap();
        assert!(close(e.elo, 70.437, 1e-3), "{e:?}");
        assert!(close(e.lower, 2.767, 1e-3), "{e:?}");
        assert!(close(e.upper, 143.909, 1e-3), "{e:?}");
        assert!(elo_trinomial(&Wdl::default()).is_none());
    }

    #[test]
    fn pentanomial_interval_by_hand() {
        // Pairs [0, ½, 1, 1½, 2] points: 5 20 50 20 5 — symmetric, mean 0.5.
        // Pair-score variance (0..1 scale): (2*5*0.25 + 2*20*0.0625)/100
        // = 0.05; se = sqrt(0.05/100) = 0.0223607; half width 0.0438261.
        // Elo bounds: -400 log10(1/0.5438261 - 1) = 30.5319.
        let e = elo_pentanomial(&Penta([5, 20, 50, 20, 5])).unwrap();
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.upper, 30.5319, 1e-3), "{e:?}");
        assert!(close(e.lower, -30.5319, 1e-3), "{e:?}");
        // The same 200 games counted one by one: W 30, D 140, L 30, game
        // variance 0.075, so the mean of a pair of independent games would
        // vary by 0.0375 < 0.05. These pairs agree more often than
        // independent games would (5 LL and 5 WW where 2.25 are expected),
        // so the pair-based interval is the wider, honest one.
        let mut wdl = Wdl::default();
        // 5 pairs LL, 20 LD, 50 DD, 20 WD, 5 WW.
        for (n, a, b) in [
            (5, 0.0, 0.0),
            (20, 0.0, 0.5),
            (50, 0.5, 0.5),
            (20, 1.0, 0.5),
            (5, 1.0, 1.0),
        ] {
            for _ in 0..n {
                wdl.add(a);
                wdl.add(b);
            }
        }
        assert_eq!((wdl.wins, wdl.draws, wdl.losses), (30, 140, 30));
        let t = elo_trinomial(&wdl).unwrap();
        assert!(t.error() < e.error());
    }

    #[test]
    fn penta_counts_pairs() {
        let mut p = Penta::default();
        p.add_pair(1.0, 0.0);
        p.add_pair(0.5, 0.5);
        p.add_pair(1.0, 1.0);
        p.add_pair(0.0, 0.5);
        assert_eq!(p.0, [0, 1, 2, 0, 1]);
        assert_eq!(p.pairs(), 4);
    }

    #[test]
    fn sprt_bounds_and_parse() {
        let s = Sprt::parse(&["elo0=0 elo1=5", "alpha=0.05", "beta=0.05"]).unwrap();
        let (lo, hi) = s.bounds();
        // ln(0.05/0.95) = -2.944439.
        assert!(close(lo, -2.944_439, 1e-6));
        assert!(close(hi, 2.944_439, 1e-6));
        let t = Sprt::parse(&["alpha=0.05 beta=0.1"]).unwrap();
        // ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372.
        assert!(close(t.bounds().0, -2.251_292, 1e-6));
        assert!(close(t.bounds().1, 2.890_372, 1e-6));
        assert!(Sprt::parse(&["elo0=5 elo1=0"]).is_err());
        assert!(Sprt::parse(&["alpha=0"]).is_err());
        assert!(Sprt::parse(&["gamma=1"]).is_err());
        assert!(Sprt::parse(&["elo0"]).is_err());
        assert!(Sprt::parse(&["elo0=x"]).is_err());
    }

    #[test]
    fn sprt_llr_by_hand() {
        // Pairs 10 30 100 40 20 (200 pairs). Mean pair score
        // (30*.25 + 100*.5 + 40*.75 + 20)/200 = 0.5375; variance
        // (10*.5375^2 + 30*.2875^2 + 100*.0375^2 + 40*.2125^2 + 20*.4625^2)/200
        // = 0.0579688. s0 = 0.5, s1 = elo_to_score(5) = 0.5071955.
        // Normal approximation:
        // LLR = 200 * 0.0071955 * (1.075 - 1.0071955) / (2 * 0.0579688)
        //     = 0.841595.
        // The exact multinomial LLR, computed separately (Python, the
        // same formula solved by bisection): 0.827331.
        let s = Sprt::default();
        let counts = [10.0, 30.0, 100.0, 40.0, 20.0];
        let approx = s.llr_normal_approx(&PAIR_SCORES, &counts);
        assert!(close(approx, 0.841_595, 1e-5), "{approx}");
        let llr = s.llr_pentanomial(&Penta([10, 30, 100, 40, 20]));
        assert!(close(llr, 0.827_331, 1e-5), "{llr}");
        assert_eq!(s.decide(llr), None);
        assert_eq!(s.decide(3.0), Some(Hypothesis::H1));
        assert_eq!(s.decide(-3.0), Some(Hypothesis::H0));
        assert_eq!(s.llr_pentanomial(&Penta::default()), 0.0);
        // Same frequencies, 100 times the pairs: 100 times the LLR.
        let big = s.llr_pentanomial(&Penta([1000, 3000, 10000, 4000, 2000]));
        assert!(close(big, 82.7331, 1e-3), "{big}");
        // One pair won twice says little (0.014259, by the same Python
        // check); the normal approximation would have stopped the test.
        let one = s.llr_pentanomial(&Penta([0, 0, 0, 0, 1]));
        assert!(close(one, 0.014_259, 1e-5), "{one}");
        assert_eq!(s.decide(one), None);
        // Trinomial: L 40, D 20, W 60 -> 0.330570.
        let tri = s.llr_trinomial(&Wdl {
            wins: 60,
            draws: 20,
            losses: 40,
        });
        assert!(close(tri, 0.330_570, 1e-5), "{tri}");
    }

    #[test]
    fn mle_keeps_the_mean_and_the_total() {
        let freq = [0.1, 0.15, 0.5, 0.2, 0.05];
        for s in [0.3, 0.5, 0.507, 0.7] {
            let p = mle_with_mean(&PAIR_SCORES, &freq, s);
            let total: f64 = p.iter().sum();
            let mean: f64 = p.iter().zip(&PAIR_SCORES).map(|(p, a)| p * a).sum();
            assert!(close(total, 1.0, 1e-9), "{p:?}");
            assert!(close(mean, s, 1e-9), "{p:?}");
        }
    }

    /// Plays simulated pairs with per-game win/draw/loss probabilities for
    /// a given true Elo and draw rate until the SPRT decides.
    fn simulate(true_elo: f64, seed: u64) -> (Hypothesis, u32) {
        let sprt = Sprt::default();
        let mut rng = crate::rng::SplitMix(seed);
        let score = elo_to_score(true_elo);
        let draw = 0.4;
        let win = score - draw / 2.0;
        let mut penta = Penta::default();
        let mut game = || {
            let x = rng.unit();
            if x < win {
                1.0
            } else if x < win + draw {
                0.5
            } else {
                0.0
            }
        };
        for _ in 0..1_000_000 {
            let (a, b) = (game(), game());
            penta.add_pair(a, b);
            if let Some(h) = sprt.decide(sprt.llr_pentanomial(&penta)) {
                return (h, penta.pairs());
            }
        }
        panic!("SPRT did not stop");
    }

    #[test]
    fn sprt_accepts_the_true_hypothesis_on_synthetic_matches() {
        // With alpha = beta = 0.05 each run errs with probability about
        // 5%; a majority vote over 21 runs is all but certain to be right.
        let runs = 21;
        let h1 = (0..runs)
            .filter(|&i| simulate(15.0, 1 + i).0 == Hypothesis::H1)
            .count();
        assert!(h1 >= 18, "H1 accepted {h1} of {runs} at +15 Elo");
        let h0 = (0..runs)
            .filter(|&i| simulate(-10.0, 100 + i).0 == Hypothesis::H0)
            .count();
        assert!(h0 >= 18, "H0 accepted {h0} of {runs} at -10 Elo");
    }
}
