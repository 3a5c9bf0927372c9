//! The search's tunable numbers in one table: pruning margins and depth
//! limits, null-move and late-move reductions, move-count limits, the
//! aspiration window, quiescence's delta margin, and how much of its
//! allotment the time manager spends. Each has a default
//! (the value the engine is built and benched with), a range, and an SPSA
//! step (the perturbation a tuner tries first, about a twentieth of the
//! range).
//!
//! The values travel with each search (`SearchJob::tunables`), so a tuner
//! can set them at run time through hidden engine options
//! (`setoption name rfp_margin value 120`; names match like every option,
//! ignoring case, spaces, `_` and `-`) and play matches between perturbed
//! settings without rebuilding. `chuhe tunables` lists them. Hosts never
//! see them in the handshake.
//!
//! Reductions are in plies times 1024 (`lmr_*`), percentages are in
//! hundredths (`lmr_base`, `lmr_divisor`), margins in score units (a pawn
//! is about 100).

/// One tunable's description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA perturbation size.
    pub step: i32,
    pub doc: &'static str,
}

macro_rules! tunables {
    ($( $(#[doc = $doc:literal])+ $name:ident = $default:literal, $min:literal..=$max:literal, step $step:literal; )+) => {
        /// The search's tunable numbers (see the module header).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Tunables {
            $( $(#[doc = $doc])+ pub $name: i32, )+
        }

        impl Default for Tunables {
            fn default() -> Self {
                Tunables { $( $name: $default, )+ }
            }
        }

        /// Every tunable, in declaration order.
        pub const SPECS: &[Spec] = &[
            $( Spec {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                step: $step,
                doc: concat!($($doc),+),
            }, )+
        ];

        impl Tunables {
            /// The value of the tunable at `index` in `SPECS`.
            pub fn get(&self, index: usize) -> i32 {
                let mut i = 0;
                $(
                    if i == index {
                        return self.$name;
                    }
                    i += 1;
                )+
                let _ = i;
                panic!("no tunable {index}")
            }

            fn slot(&mut self, index: usize) -> &mut i32 {
                let mut i = 0;
                $(
                    if i == index {
                        return &mut self.$name;
                    }
                    i += 1;
                )+
                let _ = i;
                panic!("no tunable {index}")
            }
        }
    };
}

tunables! {
    /// Reverse futility: deepest node it applies to.
    rfp_depth = 8, 3..=14, step 1;
    /// Reverse futility: margin per ply of depth.
    rfp_margin = 110, 40..=250, step 10;
    /// Reverse futility: margin per ply taken off when improving.
    rfp_improving = 40, 0..=100, step 6;
    /// Reverse futility: margin per ply taken off when the opponent's last
    /// move worsened its position (0, off, until an SPRT of 15 accepts it).
    rfp_worsening = 0, 0..=60, step 4;
    /// Razoring: deepest node it applies to.
    razor_depth = 3, 1..=6, step 1;
    /// Razoring: margin at depth 0.
    razor_base = 250, 50..=600, step 30;
    /// Razoring: margin per depth squared.
    razor_depth_sq = 200, 50..=500, step 25;
    /// Null move: shallowest node it applies to (at full pruning).
    nmp_depth = 3, 2..=6, step 1;
    /// Null move: the static evaluation may fall short of beta by this
    /// much per ply of depth ...
    nmp_eval_per_depth = 20, 0..=60, step 4;
    /// ... less this margin.
    nmp_eval_base = 200, 0..=400, step 25;
    /// Null move: base reduction in plies.
    nmp_base = 4, 2..=6, step 1;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_depth_divisor = 3, 2..=6, step 1;
    /// Null move: one more ply per this much evaluation above beta ...
    nmp_eval_divisor = 200, 80..=400, step 20;
    /// ... up to this many plies.
    nmp_eval_max = 3, 0..=5, step 1;
    /// Internal iterative reduction: shallowest node it applies to.
    iir_depth = 4, 2..=8, step 1;
    /// Internal iterative reduction: plies taken off a PV node without a
    /// hash move (1 as at cut nodes; on trial at 3, as Pikafish does).
    iir_pv_plies = 1, 1..=4, step 1;
    /// Late-move pruning: quiet moves tried at depth d before the rest
    /// are skipped is this plus d squared (about half when not improving).
    lmp_base = 3, 1..=8, step 1;
    /// Futility pruning of quiet moves: deepest reduced depth.
    fp_depth = 8, 3..=12, step 1;
    /// Futility pruning: margin at reduced depth 0.
    fp_base = 120, 40..=300, step 15;
    /// Futility pruning: margin per ply of reduced depth.
    fp_per_depth = 110, 40..=250, step 10;
    /// Futility pruning: history counts one unit of margin per this much.
    fp_history_divisor = 64, 16..=256, step 8;
    /// History pruning: deepest reduced depth.
    hp_depth = 4, 1..=8, step 1;
    /// History pruning: a quiet move with history below minus this per
    /// ply of depth is skipped.
    hp_per_depth = 3500, 1000..=8000, step 300;
    /// SEE pruning of quiet moves: threshold per reduced depth squared.
    see_quiet = 25, 5..=80, step 4;
    /// SEE pruning of captures and checks: deepest node.
    see_noisy_depth = 8, 3..=12, step 1;
    /// SEE pruning of captures and checks: threshold per ply of depth.
    see_noisy = 160, 50..=300, step 12;
    /// SEE pruning of checking moves (captures or not): threshold per ply
    /// of depth. Mating attacks in xiangqi sacrifice on a check (a chariot
    /// for a guard, a horse for a cannon's screen); a wider margin than
    /// for plain captures won its SPRT (docs/tuning.md).
    see_check = 300, 50..=1000, step 24;
    /// Late-move reductions: table base, hundredths of a ply.
    lmr_base = 40, 0..=120, step 6;
    /// Late-move reductions: table divisor of ln(depth) * ln(move number),
    /// in hundredths.
    lmr_divisor = 220, 140..=400, step 12;
    /// LMR: extra reduction when not improving (plies x 1024).
    lmr_not_improving = 512, 0..=1536, step 96;
    /// LMR: extra reduction off the principal variation.
    lmr_non_pv = 1024, 0..=2048, step 128;
    /// LMR: extra reduction at expected cut nodes.
    lmr_cut = 1024, 0..=2048, step 128;
    /// LMR: less reduction at nodes that are or were on the PV.
    lmr_tt_pv = 1024, 0..=2048, step 128;
    /// LMR: less reduction for killers and the counter move.
    lmr_refutation = 1024, 0..=2048, step 128;
    /// LMR: less reduction for checking moves.
    lmr_check = 512, 0..=1536, step 96;
    /// LMR: more reduction for quiet moves when the hash move is a capture
    /// (0, off, until an SPRT of 1024 accepts it).
    lmr_tt_capture = 0, 0..=2048, step 128;
    /// LMR: more reduction when the node's earlier moves were refuted by
    /// more than three beta cut-offs among its children (Stockfish's
    /// cutoffCnt; 0, off, until an SPRT of 1024 accepts it).
    lmr_cutoffs = 0, 0..=2048, step 128;
    /// LMR: captures are reduced off the principal variation's past too,
    /// not only at cut nodes (0, off, until an SPRT of 1 accepts it).
    lmr_captures = 0, 0..=1, step 1;
    /// LMR: a reduced move that beats alpha is searched a ply deeper when
    /// it beats the best score by this plus two per ply, a ply shallower
    /// when it does not beat it by the depth (0, off, until an SPRT of 40
    /// accepts it).
    lmr_deeper = 0, 0..=120, step 6;
    /// LMR and shallow pruning: weight, in percent, of the continuation
    /// history four plies back in the quiet history they read (0, off,
    /// until an SPRT of 100 accepts it; move ordering always reads it).
    hist_cont4 = 0, 0..=200, step 12;
    /// LMR: one ply less reduction per this much quiet history.
    lmr_history_divisor = 12000, 4000..=30000, step 1000;
    /// Aspiration windows from this depth on (full window before).
    asp_depth = 4, 2..=8, step 1;
    /// Aspiration window: initial half-width ...
    asp_delta = 20, 5..=60, step 3;
    /// ... plus the previous score divided by this ...
    asp_score_divisor = 64, 16..=256, step 12;
    /// ... at most this much more.
    asp_score_max = 100, 0..=300, step 15;
    /// Quiescence delta pruning: margin over the captured piece's value.
    qs_delta = 200, 50..=500, step 25;
    /// Quiescence, not in check: captures searched at most, once a score
    /// is in hand; later ones that neither check nor recapture on the
    /// previous move's point are skipped (0, off, until an SPRT of 2, as
    /// Pikafish, accepts it).
    qs_move_limit = 0, 0..=8, step 1;
    /// Quiescence, in check: quiet evasions searched at most once one
    /// evasion has escaped mate; the rest are skipped (0, off, until an
    /// SPRT of 2, as Pikafish, accepts it).
    qs_evasion_limit = 0, 0..=8, step 1;
    /// Quiescence: at its first ply (entered from the main search), quiet
    /// checks after the captures (1: on). Pikafish-HCE's way (Stockfish's
    /// until 2024): mating attacks in xiangqi run through checks.
    qs_checks = 0, 0..=1, step 1;
    // Correction history is off (every weight 0) until an SPRT of some
    // weights accepts it (docs/tuning.md has the trials).
    /// Correction history: weight of the pawn-structure table, 256ths.
    corr_pawn = 0, 0..=512, step 24;
    /// Correction history: weight of the material table, 256ths.
    corr_material = 0, 0..=512, step 24;
    /// Correction history: weight of each side's non-pawn table (both
    /// applied), 256ths.
    corr_nonpawn = 0, 0..=512, step 24;
    /// Correction history: an update moves an entry by the search's error
    /// times depth over this. At weight 256 an entry is applied whole, so
    /// 8 learns about 19 times faster than Stockfish's tables (whose
    /// weights apply about a nineteenth of an entry); 128 comes near their
    /// pace.
    corr_div = 8, 4..=256, step 8;
    /// Evaluation: percent taken off at the natural move limit, shrinking
    /// it toward the draw linearly with the plies since the last capture,
    /// so that an advantage that makes no progress is worth less the longer
    /// it lasts (0, off, until an SPRT of 50 accepts it).
    eval_limit_damp = 0, 0..=100, step 5;
    // ProbCut is off (probcut_depth 0) until its SPRT, run with
    // `option.probcut_depth=5`, accepts it.
    /// ProbCut: shallowest node it applies to (0: off).
    probcut_depth = 0, 0..=10, step 1;
    /// ProbCut: a capture that holds this far above beta in a search four
    /// plies shallower cuts the node ...
    probcut_margin = 200, 80..=400, step 15;
    /// ... this much less when the position is improving.
    probcut_improving = 50, 0..=150, step 8;
    // Singular extensions at 6 passed their SPRT against 0 (off) at
    // 5+0.05: +18.4 ± 9.4 Elo over 2,306 games in four batches, LLR 3.40.
    /// Singular extensions: shallowest node they apply to (0: off).
    se_depth = 6, 0..=12, step 1;
    /// Singular extensions: the singular beta lies this far below the
    /// hash score, in 64ths of a score unit per ply of depth.
    se_margin = 96, 16..=256, step 8;
    /// Singular extensions: a second ply of extension off the principal
    /// variation when the other moves fall this far short.
    se_double = 20, 0..=100, step 4;
    /// Check extension: a checking move is extended one ply only at nodes
    /// this deep or deeper (1: every check; on trial at 8, as the Stockfish
    /// family extends only deep checks, until its SPRT decides).
    check_ext_depth = 1, 1..=16, step 1;
    /// Lazy SMP: helper threads skip depths in staggered blocks (1) or search every depth (0).
    smp_skip = 1, 0..=1, step 1;
    // 130 passed SPRTs against 100 at 3+0.03 (+21.5 ± 14.4, 810 games) and
    // 10+0.1 (+34.4 ± 18.3, 416 games).
    /// Time: the optimum time for a move, percent of the time manager's allotment.
    tm_optimum = 130, 50..=250, step 10;
    /// Time: after an iteration, stop once this percent of the (stability-scaled) optimum has passed.
    tm_stop = 70, 40..=100, step 5;
    // The best move's node share is off (tm_effort_scale 100) until its
    // SPRT, run with `option.tm_effort_scale=76`, accepts it.
    /// Time: when the best move took at least this percent of the search's
    /// nodes ...
    tm_effort = 93, 50..=100, step 2;
    /// ... the optimum is scaled to this percent (100: no change).
    tm_effort_scale = 100, 40..=100, step 4;
}

impl Tunables {
    /// The index in `SPECS` of the tunable called `name` (case, spaces,
    /// `_` and `-` ignored).
    pub fn index_of(name: &str) -> Option<usize> {
        let n = normalise(name);
        SPECS.iter().position(|s| normalise(s.name) == n)
    }

    /// Sets the tunable at `index`, refusing values out of its range.
    pub fn set(&mut self, index: usize, value: i32) -> Result<(), String> {
        let s = &SPECS[index];
        if !(s.min..=s.max).contains(&value) {
            return Err(format!(
                "{}: {value} is out of range {}..{}",
                s.name, s.min, s.max
            ));
        }
        *self.slot(index) = value;
        Ok(())
    }

    /// Sets the tunable called `name` from text: `None` if there is no such
    /// tunable, else whether the value was taken.
    pub fn set_by_name(&mut self, name: &str, value: Option<&str>) -> Option<Result<(), String>> {
        let i = Tunables::index_of(name)?;
        let s = &SPECS[i];
        let raw = value.map(str::trim).unwrap_or("");
        Some(match raw.parse::<i32>() {
            Ok(v) => self.set(i, v),
            Err(_) => Err(format!("{}: {raw:?} is not a whole number", s.name)),
        })
    }

    /// The defaults with `NAME=VALUE` assignments applied, as a command
    /// line gives them.
    pub fn with_assignments(assignments: &[String]) -> Result<Tunables, String> {
        let mut t = Tunables::default();
        for a in assignments {
            let (name, value) = a
                .split_once('=')
                .ok_or_else(|| format!("{a:?}: expected NAME=VALUE"))?;
            t.set_by_name(name, Some(value))
                .ok_or_else(|| format!("no tunable called {name:?} (see `chuhe tunables`)"))??;
        }
        Ok(t)
    }

    /// The values that differ from the defaults, as `name=value` words.
    pub fn changed(&self) -> Vec<String> {
        let d = Tunables::default();
        (0..SPECS.len())
            .filter(|&i| self.get(i) != d.get(i))
            .map(|i| format!("{}={}", SPECS[i].name, self.get(i)))
            .collect()
    }
}

fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_sane_and_match_the_defaults() {
        let d = Tunables::default();
        assert!(SPECS.len() >= 25);
        for (i, s) in SPECS.iter().enumerate() {
            assert_eq!(d.get(i), s.default, "{}", s.name);
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            assert!(s.step > 0 && s.step <= s.max - s.min, "{}", s.name);
            assert!(!s.doc.is_empty());
            if s.name.ends_with("divisor") {
                assert!(s.min > 0, "{} may not reach zero", s.name);
            }
            assert_eq!(Tunables::index_of(s.name), Some(i));
        }
    }

    #[test]
    fn assignments_apply_in_order_and_fail_clearly() {
        let t = Tunables::with_assignments(&["smp_skip=0".into(), "asp-delta=30".into()]).unwrap();
        assert_eq!((t.smp_skip, t.asp_delta), (0, 30));
        assert!(Tunables::with_assignments(&["asp_delta".into()]).is_err());
        assert!(Tunables::with_assignments(&["nothing=1".into()]).is_err());
        assert!(Tunables::with_assignments(&["smp_skip=2".into()]).is_err());
    }

    #[test]
    fn set_by_name_checks_names_and_ranges() {
        let mut t = Tunables::default();
        assert_eq!(t.set_by_name("RFP Margin", Some("120")), Some(Ok(())));
        assert_eq!(t.rfp_margin, 120);
        assert!(matches!(
            t.set_by_name("rfp_margin", Some("9999")),
            Some(Err(_))
        ));
        assert!(matches!(
            t.set_by_name("rfp_margin", Some("x")),
            Some(Err(_))
        ));
        assert!(matches!(t.set_by_name("rfp_margin", None), Some(Err(_))));
        assert_eq!(t.rfp_margin, 120);
        assert_eq!(t.set_by_name("no_such_thing", Some("1")), None);
        assert_eq!(t.changed(), vec!["rfp_margin=120".to_string()]);
    }
}
