//! Playing strength below the engine's best: `Skill Level` (0..=20, 20 is
//! full strength) and `UCI_LimitStrength` + `UCI_Elo`, which picks the
//! level whose calibrated rating is nearest (fractional levels in between).
//!
//! A weakened search is the normal search with two limits and one choice:
//!
//! * it may go only so deep and search only so many nodes (both grow
//!   geometrically with the level);
//! * it searches several lines (MultiPV) and, with a chance that falls as
//!   the level rises, plays one of the other lines instead of the best one,
//!   but only a line whose score lies within a margin of the best. Above
//!   the lowest level the margin stays under the value of a horse, so a
//!   searched line that drops a chariot (or a horse) is never chosen; the
//!   quiescence search behind every line sees pieces left hanging to a
//!   direct capture.
//!
//! The engine applies this to game searches only: `go infinite` (analysis)
//! always runs at full strength. Nothing here touches the search itself:
//! the engine narrows the limits, raises the MultiPV count, and `Filter`
//! sits between the search and the host, hiding the extra lines and
//! replacing the best move when the choice says so.

use crate::options;
use crate::rng::SplitMix;
use crate::search::{IterationInfo, Report, Reporter};
use crate::types::*;
use std::sync::{Arc, Mutex};

/// The top level: the engine unweakened.
pub const MAX_LEVEL: u32 = options::MAX_SKILL_LEVEL;

/// Calibrated ratings of the levels, by matches between neighbouring even
/// levels (`scripts/calibrate-levels.sh`, 10 s + 0.1 s, 100 games a step,
/// with the network; docs/levels.md), on a scale where level 0
/// is 1000. Level 20 is full strength; its step from level 18 is bridged
/// through ElephantEye, which both played (the direct match ended 57-3-0,
/// too one-sided to measure): level 18 scored 57.9% against it in 140
/// games (+55), full strength +478, a step of 423. `UCI_Elo` is read against this table; odd
/// levels lie between their neighbours.
pub const ELO_TABLE: [(u32, i32); 11] = [
    (0, 1000),
    (2, 1147),
    (4, 1225),
    (6, 1385),
    (8, 1544),
    (10, 1833),
    (12, 2114),
    (14, 2437),
    (16, 2775),
    (18, 3057),
    (20, 3480),
];

/// The lowest and highest `UCI_Elo` values that mean something.
pub const MIN_ELO: i32 = ELO_TABLE[0].1;
pub const MAX_ELO: i32 = ELO_TABLE[ELO_TABLE.len() - 1].1;

/// A weakened strength: a level in `0.0..MAX_LEVEL`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    level: f64,
}

impl Skill {
    /// The strength the options ask for, or `None` for full strength.
    /// With both set, the weaker of `Skill Level` and `UCI_Elo` wins.
    pub fn from_options(skill_level: u32, limit_strength: bool, elo: i32) -> Option<Skill> {
        let mut level = f64::from(skill_level.min(MAX_LEVEL));
        if limit_strength {
            level = level.min(level_for_elo(elo));
        }
        Skill::at(level)
    }

    /// `None` at `MAX_LEVEL` and above.
    pub fn at(level: f64) -> Option<Skill> {
        (level < f64::from(MAX_LEVEL)).then_some(Skill {
            level: level.max(0.0),
        })
    }

    pub fn level(self) -> f64 {
        self.level
    }

    /// The deepest iteration: 1 at levels 0 and 1, one more every two levels.
    pub fn depth_cap(self) -> Depth {
        1 + (self.level / 2.0).floor() as Depth
    }

    /// Nodes per move: 300 times 1.35 per level (about 90,000 at level
    /// 19), but never under 4,000, so that up to level 8 the depth cap
    /// alone holds the search back (a node cap under a few thousand cuts
    /// the deepest iteration short and makes two levels play alike).
    pub fn node_cap(self) -> u64 {
        (300.0 * 1.35f64.powf(self.level)).round().max(4000.0) as u64
    }

    /// Lines searched to choose from.
    pub fn lines(self) -> usize {
        4
    }

    /// How far below the best line's score a line may be and still be
    /// played: 900 at level 0 (anything goes), below 400 from level 1 on,
    /// shrinking to a few tenths of a pawn at level 19.
    pub fn margin(self) -> Score {
        if self.level < 1.0 {
            900
        } else {
            (10.0 + 380.0 * (1.0 - self.level / f64::from(MAX_LEVEL))).round() as Score
        }
    }

    /// Chance of playing another line than the best: 60% at level 0,
    /// 3% at level 19.
    pub fn deviation_chance(self) -> f64 {
        0.6 * (1.0 - self.level / f64::from(MAX_LEVEL))
    }

    /// Which of `lines` (best first, as `(score, ...)`) to play, from a
    /// seed. Index 0 unless the deviation happens and another line lies
    /// within the margin; then a line nearer the best is likelier.
    pub fn choose(self, scores: &[Score], seed: u64) -> usize {
        let Some(&best) = scores.first() else {
            return 0;
        };
        let mut rng = SplitMix(seed);
        if rng.unit() >= self.deviation_chance() || best.abs() >= DECISIVE_BOUND {
            return 0;
        }
        let margin = self.margin();
        let temperature = f64::from(margin.max(1)) / 3.0;
        let weights: Vec<(usize, f64)> = scores
            .iter()
            .enumerate()
            .skip(1)
            .filter(|&(_, &s)| s > -DECISIVE_BOUND && best - s <= margin)
            .map(|(i, &s)| (i, (-f64::from(best - s) / temperature).exp()))
            .collect();
        let total: f64 = weights.iter().map(|w| w.1).sum();
        if weights.is_empty() || total <= 0.0 {
            return 0;
        }
        let mut pick = rng.unit() * total;
        for &(i, w) in &weights {
            if pick < w {
                return i;
            }
            pick -= w;
        }
        weights[weights.len() - 1].0
    }
}

/// The level whose calibrated rating matches `elo`, interpolated between
/// the table's entries.
pub fn level_for_elo(elo: i32) -> f64 {
    let (first, last) = (ELO_TABLE[0], ELO_TABLE[ELO_TABLE.len() - 1]);
    if elo <= first.1 {
        return f64::from(first.0);
    }
    if elo >= last.1 {
        return f64::from(last.0);
    }
    for w in ELO_TABLE.windows(2) {
        let ((l0, e0), (l1, e1)) = (w[0], w[1]);
        if elo <= e1 && e1 > e0 {
            let t = f64::from(elo - e0) / f64::from(e1 - e0);
            return f64::from(l0) + t * f64::from(l1 - l0);
        }
    }
    f64::from(last.0)
}

/// The calibrated rating of a (fractional) level.
pub fn elo_for_level(level: f64) -> i32 {
    for w in ELO_TABLE.windows(2) {
        let ((l0, e0), (l1, e1)) = (w[0], w[1]);
        if level <= f64::from(l1) {
            let t = ((level - f64::from(l0)) / f64::from(l1 - l0)).clamp(0.0, 1.0);
            return (f64::from(e0) + t * f64::from(e1 - e0)).round() as i32;
        }
    }
    MAX_ELO
}

/// What the filter has seen of the running search.
#[derive(Default)]
struct Seen {
    /// Lines of the iteration being reported, by MultiPV index.
    current: Vec<IterationInfo>,
    /// The last iteration whose every line was reported.
    complete: Vec<IterationInfo>,
    /// What the host last got for each of its lines, so that a line the
    /// search reports again unchanged (it repeats the lines above the one
    /// it has just searched) reaches the host once.
    forwarded: Vec<(Depth, Score, Vec<Move>)>,
}

/// Sits between a weakened search and the host's reporter: passes on the
/// lines the host asked for (its own MultiPV count), keeps the rest to
/// choose from, and replaces the best move by the skill's choice.
pub struct Filter {
    skill: Skill,
    inner: Reporter,
    host_lines: usize,
    lines: usize,
    seed: u64,
    seen: Mutex<Seen>,
}

impl Filter {
    /// `lines`: the MultiPV count the search runs with (at most the number
    /// of root moves); `host_lines`: how many of them the host sees.
    pub fn reporter(
        skill: Skill,
        inner: Reporter,
        host_lines: usize,
        lines: usize,
        seed: u64,
    ) -> Reporter {
        let filter = Arc::new(Filter {
            skill,
            inner,
            host_lines: host_lines.max(1),
            lines: lines.max(1),
            seed,
            seen: Mutex::new(Seen::default()),
        });
        Arc::new(move |r| filter.pass(r))
    }

    fn pass(&self, r: Report) {
        match r {
            Report::Iteration(i) => {
                let mut forward = i.multipv <= self.host_lines;
                if let Ok(mut seen) = self.seen.lock() {
                    if i.multipv == 1 {
                        seen.current.clear();
                    }
                    if i.multipv == seen.current.len() + 1 && i.bound == Bound::Exact {
                        seen.current.push(i.clone());
                        if seen.current.len() == self.lines {
                            seen.complete = std::mem::take(&mut seen.current);
                        }
                    }
                    if forward {
                        let slot = i.multipv - 1;
                        if seen.forwarded.len() <= slot {
                            seen.forwarded.resize(slot + 1, (0, 0, Vec::new()));
                        }
                        let key = (i.depth, i.score, i.pv.clone());
                        forward = seen.forwarded[slot] != key;
                        seen.forwarded[slot] = key;
                    }
                }
                if forward {
                    (self.inner)(Report::Iteration(i));
                }
            }
            Report::BestMove {
                best,
                ponder,
                score,
                depth,
            } => {
                let chosen = self.seen.lock().ok().and_then(|seen| {
                    let scores: Vec<Score> = seen.complete.iter().map(|l| l.score).collect();
                    let k = self.skill.choose(&scores, self.seed);
                    (k > 0).then(|| seen.complete[k].clone())
                });
                let report = match chosen {
                    Some(line) => Report::BestMove {
                        best: line.pv.first().copied(),
                        ponder: line.pv.get(1).copied(),
                        score: line.score,
                        depth: line.depth,
                    },
                    None => Report::BestMove {
                        best,
                        ponder,
                        score,
                        depth,
                    },
                };
                (self.inner)(report);
            }
            other => (self.inner)(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger() {
        let skills: Vec<Skill> = (0..MAX_LEVEL)
            .map(|l| Skill::at(f64::from(l)).unwrap())
            .collect();
        for w in skills.windows(2) {
            assert!(w[0].node_cap() <= w[1].node_cap());
            assert!(w[0].depth_cap() <= w[1].depth_cap());
            assert!(w[0].margin() >= w[1].margin());
            assert!(w[0].deviation_chance() > w[1].deviation_chance());
        }
        assert!(Skill::at(20.0).is_none());
        assert_eq!(Skill::from_options(20, false, MIN_ELO), None);
        assert_eq!(
            Skill::from_options(20, true, MIN_ELO).map(Skill::level),
            Some(0.0)
        );
        assert_eq!(
            Skill::from_options(5, true, MAX_ELO).map(Skill::level),
            Some(5.0)
        );
        // Above level 0, no line that drops a horse (about 400) is eligible.
        for s in &skills[1..] {
            assert!(s.margin() < 400, "{s:?}");
        }
    }

    #[test]
    fn the_choice_stays_within_the_margin() {
        let s = Skill::at(1.0).unwrap();
        let scores = [50, 20, -900, -950];
        let mut deviations = 0;
        for seed in 0..2000 {
            let k = s.choose(&scores, seed);
            assert!(k < 2, "seed {seed} chose {k}");
            deviations += usize::from(k == 1);
        }
        // About 57% of choices deviate at level 1.
        assert!((900..1400).contains(&deviations), "{deviations}");
        // A found mate is always played.
        assert_eq!(s.choose(&[MATE - 3, 10, 5], 7), 0);
        assert_eq!(s.choose(&[], 7), 0);
    }

    #[test]
    fn the_options_defaults_match_the_table() {
        assert_eq!(options::DEFAULT_ELO, MIN_ELO);
        assert_eq!(ELO_TABLE[ELO_TABLE.len() - 1].0, options::MAX_SKILL_LEVEL);
    }

    #[test]
    fn elo_maps_to_levels_and_back() {
        for &(level, elo) in &ELO_TABLE {
            if ELO_TABLE.iter().filter(|e| e.1 == elo).count() == 1 {
                assert!((level_for_elo(elo) - f64::from(level)).abs() < 1e-9);
                assert_eq!(elo_for_level(f64::from(level)), elo);
            }
        }
        assert_eq!(level_for_elo(MIN_ELO - 500), 0.0);
        assert_eq!(level_for_elo(MAX_ELO + 500), f64::from(MAX_LEVEL));
    }
}
