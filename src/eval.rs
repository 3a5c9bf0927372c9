//! Static evaluation, from the side to move's point of view.
//!
//! Every weight lives in `Params` (the tuned values are in `eval_params.in`,
//! written by `chuhe tune`). Terms are (middle game, end game) pairs,
//! blended by a material phase; a scale factor then pulls known drawish
//! material balances toward zero.
//!
//! The evaluation is linear in the weights before tapering, which is what
//! makes Texel tuning simple: `evaluate_traced` reports which weights were
//! used with which signed count, and the tuner fits them to game results.
//!
//! Terms:
//! * material and piece-square tables (left-right symmetric, indexed by
//!   distance from the edge file and rank from the owner's back rank);
//! * mobility of chariots, horses and cannons;
//! * king safety: advisors and elephants left, pressure on the enemy palace
//!   (a table indexed by attack units), cannons lined up on the king's file
//!   or rank (hollow cannon with nothing between, or with two screens);
//! * pieces pinned against their own king (by chariot, cannon or horse leg);
//! * pawn structure: crossed pawns side by side;
//! * connected advisors and elephants;
//! * end-game scaling of drawish material (not tuned).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::options::Level;
use crate::position::Position;
use crate::types::*;

/// A (middle game, end game) pair.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pair(pub i32, pub i32);

impl std::ops::Add for Pair {
    type Output = Pair;
    #[inline(always)]
    fn add(self, o: Pair) -> Pair {
        Pair(self.0 + o.0, self.1 + o.1)
    }
}

impl std::ops::Sub for Pair {
    type Output = Pair;
    #[inline(always)]
    fn sub(self, o: Pair) -> Pair {
        Pair(self.0 - o.0, self.1 - o.1)
    }
}

impl std::ops::AddAssign for Pair {
    #[inline(always)]
    fn add_assign(&mut self, o: Pair) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl std::ops::SubAssign for Pair {
    #[inline(always)]
    fn sub_assign(&mut self, o: Pair) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

impl std::ops::Mul<i32> for Pair {
    type Output = Pair;
    #[inline(always)]
    fn mul(self, k: i32) -> Pair {
        Pair(self.0 * k, self.1 * k)
    }
}

/// Phase weight of each kind (king, advisor, elephant, horse, chariot, cannon, pawn).
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
/// Full middle-game phase: both sides' chariots, horses and cannons.
pub const PHASE_MAX: i32 = 2 * (2 * 2 + 2 * 4 + 2 * 2);
/// Scale factor meaning "no scaling".
pub const SCALE_NORMAL: i32 = 64;
/// King-danger table size (attack units are capped here).
pub const DANGER_UNITS: usize = 16;

/// All evaluation weights, named for the evaluation. The tuner sees them as
/// one flat list of `Pair`s in declaration order ([`Params::to_flat`],
/// [`Params::set_flat`]), walked field by field (no pointer cast);
/// `repr(C)` keeps the memory order the declaration order, which
/// [`Params::index_of`] relies on.
#[repr(C)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Material per kind.
    pub material: [Pair; 7],
    /// Piece-square bonus per kind, `[relative rank][half file]`.
    pub pst: [[[Pair; 5]; 10]; 7],
    /// By number of points a chariot reaches (empty or enemy).
    pub chariot_mobility: [Pair; 18],
    /// By number of points a horse reaches.
    pub horse_mobility: [Pair; 9],
    /// By number of empty points a cannon can move to.
    pub cannon_mobility: [Pair; 18],
    /// Our king's guard, `[advisors][elephants]`.
    pub shelter: [[Pair; 3]; 3],
    /// Our pressure on the enemy palace, by attack units.
    pub king_attack: [Pair; DANGER_UNITS],
    /// Our cannon on the enemy king's `[file, rank]` with `[0, 1, 2]`
    /// pieces between (0: the hollow cannon; 2: a cannon behind two screens).
    pub cannon_aim: [[Pair; 3]; 2],
    /// Our chariot on the enemy king's `[file, rank]` with 0..=2 pieces between.
    pub chariot_aim: [[Pair; 3]; 2],
    /// Our piece of this kind pinned against our own king.
    pub pinned: [Pair; 7],
    /// Crossed pawns standing side by side (per pair).
    pub linked_pawns: Pair,
    /// Advisors, and elephants, that protect each other.
    pub linked_advisors: Pair,
    pub linked_elephants: Pair,
    /// Bonus for having the move.
    pub tempo: Pair,
}

/// Attack units per attacking kind reaching the enemy palace.
const ATTACK_UNITS: [usize; 7] = [0, 0, 0, 2, 3, 2, 1];

impl Params {
    pub const LEN: usize = std::mem::size_of::<Params>() / std::mem::size_of::<Pair>();

    /// Each field as a run of pairs, in declaration order (as `FIELDS`).
    fn runs(&self) -> [&[Pair]; 14] {
        [
            &self.material,
            self.pst.as_flattened().as_flattened(),
            &self.chariot_mobility,
            &self.horse_mobility,
            &self.cannon_mobility,
            self.shelter.as_flattened(),
            &self.king_attack,
            self.cannon_aim.as_flattened(),
            self.chariot_aim.as_flattened(),
            &self.pinned,
            std::slice::from_ref(&self.linked_pawns),
            std::slice::from_ref(&self.linked_advisors),
            std::slice::from_ref(&self.linked_elephants),
            std::slice::from_ref(&self.tempo),
        ]
    }

    /// `runs`, to write.
    fn runs_mut(&mut self) -> [&mut [Pair]; 14] {
        [
            &mut self.material,
            self.pst.as_flattened_mut().as_flattened_mut(),
            &mut self.chariot_mobility,
            &mut self.horse_mobility,
            &mut self.cannon_mobility,
            self.shelter.as_flattened_mut(),
            &mut self.king_attack,
            self.cannon_aim.as_flattened_mut(),
            self.chariot_aim.as_flattened_mut(),
            &mut self.pinned,
            std::slice::from_mut(&mut self.linked_pawns),
            std::slice::from_mut(&mut self.linked_advisors),
            std::slice::from_mut(&mut self.linked_elephants),
            std::slice::from_mut(&mut self.tempo),
        ]
    }

    /// The weights as one flat list (`LEN` pairs), in declaration order.
    pub fn to_flat(&self) -> Vec<Pair> {
        self.runs().concat()
    }

    /// Sets the weights from a flat list in `to_flat`'s order.
    pub fn set_flat(&mut self, flat: &[Pair]) {
        assert_eq!(flat.len(), Self::LEN, "a flat list of every weight");
        for (dst, src) in self.runs_mut().into_iter().flatten().zip(flat) {
            *dst = *src;
        }
    }

    /// Index of `field` (a reference into `self`) in the flat array.
    #[inline(always)]
    pub fn index_of(&self, field: &Pair) -> usize {
        (field as *const Pair as usize - self as *const Params as usize)
            / std::mem::size_of::<Pair>()
    }

    /// Name of the weight at flat index `i` (for reports).
    pub fn name_of(i: usize) -> String {
        let mut base = 0;
        for (name, dims) in FIELDS {
            let n: usize = dims.iter().product();
            if i < base + n {
                return format!("{name}[{}]", i - base);
            }
            base += n;
        }
        format!("?{i}")
    }
}

/// Every field of `Params` in declaration order, with its array shape
/// (empty for a single pair). The tuner's source writer and `name_of`
/// walk this list; the assertion below keeps it in step with the struct.
pub const FIELDS: &[(&str, &[usize])] = &[
    ("material", &[7]),
    ("pst", &[7, 10, 5]),
    ("chariot_mobility", &[18]),
    ("horse_mobility", &[9]),
    ("cannon_mobility", &[18]),
    ("shelter", &[3, 3]),
    ("king_attack", &[DANGER_UNITS]),
    ("cannon_aim", &[2, 3]),
    ("chariot_aim", &[2, 3]),
    ("pinned", &[7]),
    ("linked_pawns", &[]),
    ("linked_advisors", &[]),
    ("linked_elephants", &[]),
    ("tempo", &[]),
];

const fn fields_len() -> usize {
    let mut total = 0;
    let mut i = 0;
    while i < FIELDS.len() {
        let dims = FIELDS[i].1;
        let mut n = 1;
        let mut j = 0;
        while j < dims.len() {
            n *= dims[j];
            j += 1;
        }
        total += n;
        i += 1;
    }
    total
}

const _: () = assert!(fields_len() == Params::LEN);
const _: () = assert!(std::mem::size_of::<Params>() == Params::LEN * std::mem::size_of::<Pair>());

/// The tuned weights: `eval_params.in`, which `chuhe tune` writes, is the
/// value (a `Params` expression of `p(mg, eg)` pairs), so that the data
/// needs no module of its own and nothing there depends back on this one.
#[rustfmt::skip]
pub const PARAMS: Params = include!("eval_params.in");

/// The classical evaluation's code version: bump it when a change to the
/// code (not the weights) changes what the evaluation returns, so that a
/// network trained as a correction to the old one is refused.
pub const VERSION: u32 = 1;

/// The signature of this build's classical evaluation: its code version and
/// every weight. A correction network records the signature it was trained
/// against (`nnue::Base::Classical`), and `evaluate` refuses a mismatch.
pub fn signature() -> u64 {
    let mut bytes = VERSION.to_le_bytes().to_vec();
    for Pair(mg, eg) in PARAMS.to_flat() {
        bytes.extend_from_slice(&mg.to_le_bytes());
        bytes.extend_from_slice(&eg.to_le_bytes());
    }
    crate::zobrist::fnv1a(&bytes)
}

/// A weight pair as `eval_params.in` writes it.
const fn p(mg: i32, eg: i32) -> Pair {
    Pair(mg, eg)
}

/// Receives the weights an evaluation used, with signed counts (positive
/// for Red). The plain evaluation uses `NoTrace`, which compiles away.
pub trait Trace {
    fn add(&mut self, index: usize, count: i32);
}

pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: i32) {}
}

/// File index for the symmetric tables: distance from the nearer edge.
#[inline(always)]
pub fn half_file(sq: Square) -> usize {
    let f = sq.file() as usize;
    f.min(8 - f)
}

/// Rank counted from `c`'s own back rank.
#[inline(always)]
pub fn relative_rank(c: Color, sq: Square) -> usize {
    match c {
        Color::Red => sq.rank() as usize,
        Color::Black => 9 - sq.rank() as usize,
    }
}

/// The middle-game phase, 0 (bare end game) ..= PHASE_MAX.
#[inline(always)]
pub fn phase(pos: &Position) -> i32 {
    let mut ph = 0;
    for k in [PieceKind::Horse, PieceKind::Chariot, PieceKind::Cannon] {
        ph += PHASE_WEIGHT[k.index()] * pos.pieces_kind(k).count() as i32;
    }
    ph.min(PHASE_MAX)
}

/// Blends a (middle game, end game) pair by phase.
#[inline(always)]
pub fn taper(s: Pair, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (PHASE_MAX - phase)) / PHASE_MAX
}

/// Accumulates weights for one side, with that side's sign.
struct Acc<'a, T: Trace> {
    params: &'a Params,
    trace: &'a mut T,
    sign: i32,
    sum: Pair,
    knowledge: Level,
}

impl<T: Trace> Acc<'_, T> {
    #[inline(always)]
    fn add(&mut self, w: &Pair) {
        self.sum += *w;
        self.trace.add(self.params.index_of(w), self.sign);
    }

    #[inline(always)]
    fn add_n(&mut self, w: &Pair, n: i32) {
        self.sum += *w * n;
        self.trace.add(self.params.index_of(w), self.sign * n);
    }
}

/// One side's terms (positive = good for `c`).
#[inline(always)]
fn side_terms<T: Trace>(pos: &Position, c: Color, acc: &mut Acc<'_, T>) {
    let p = acc.params;
    let them = !c;
    let own = pos.pieces_of(c);
    let occ = pos.occupancy();
    let occ_bb = occ.bitboard();
    let enemy_king = pos.king_square(them);
    let enemy_palace = Bitboard::palace(them);
    let king_lines = Bitboard::rank(enemy_king.rank()) | Bitboard::file(enemy_king.file());
    let mut units = 0usize;
    // Lower `knowledge` levels stop after material, or after placement.
    let placement = acc.knowledge >= Level::Small;
    let activity = acc.knowledge >= Level::Medium;
    let safety = acc.knowledge >= Level::Large;

    for k in PieceKind::ALL {
        for sq in pos.pieces(c, k) {
            acc.add(&p.material[k.index()]);
            if !placement {
                continue;
            }
            acc.add(&p.pst[k.index()][relative_rank(c, sq)][half_file(sq)]);
            if !activity {
                continue;
            }
            match k {
                PieceKind::Chariot => {
                    let att = attacks::chariot(sq, occ);
                    acc.add(&p.chariot_mobility[(att & !own).count().min(17) as usize]);
                    if (att & enemy_palace).is_nonempty() {
                        units += ATTACK_UNITS[k.index()];
                    }
                    if safety && king_lines.has(sq) {
                        let between = (attacks::between(sq, enemy_king) & occ_bb).count();
                        if between <= 2 {
                            let line = (sq.rank() == enemy_king.rank()) as usize;
                            acc.add(&p.chariot_aim[line][between as usize]);
                        }
                    }
                }
                PieceKind::Horse => {
                    let att = attacks::horse(sq, occ_bb);
                    acc.add(&p.horse_mobility[(att & !own).count() as usize]);
                    if (att & enemy_palace).is_nonempty() {
                        units += ATTACK_UNITS[k.index()];
                    }
                }
                PieceKind::Cannon => {
                    let quiet = attacks::chariot(sq, occ) & !occ_bb;
                    acc.add(&p.cannon_mobility[quiet.count().min(17) as usize]);
                    if safety && king_lines.has(sq) {
                        let between = (attacks::between(sq, enemy_king) & occ_bb).count();
                        if between <= 2 {
                            let line = (sq.rank() == enemy_king.rank()) as usize;
                            acc.add(&p.cannon_aim[line][between as usize]);
                            units += ATTACK_UNITS[k.index()];
                        }
                    } else if (attacks::cannon(sq, occ) & enemy_palace).is_nonempty() {
                        units += ATTACK_UNITS[k.index()];
                    }
                }
                PieceKind::Pawn if (attacks::pawn(c, sq) & enemy_palace).is_nonempty() => {
                    units += ATTACK_UNITS[k.index()];
                }
                _ => {}
            }
        }
    }
    if !activity {
        return;
    }
    let advisors = pos.pieces(c, PieceKind::Advisor);
    let elephants = pos.pieces(c, PieceKind::Elephant);
    if safety {
        acc.add(&p.king_attack[units.min(DANGER_UNITS - 1)]);
        acc.add(&p.shelter[advisors.count().min(2) as usize][elephants.count().min(2) as usize]);
    }
    if advisors.count() == 2 && (attacks::advisor(advisors.lsb()) & advisors).is_nonempty() {
        acc.add(&p.linked_advisors);
    }
    if elephants.count() == 2
        && (attacks::elephant(elephants.lsb(), occ_bb) & elephants).is_nonempty()
    {
        acc.add(&p.linked_elephants);
    }

    let crossed = pos.pieces(c, PieceKind::Pawn) & !Bitboard::own_half(c);
    let right_neighbours = Bitboard((crossed.0 << 1) & !Bitboard::file(0).0) & crossed;
    if right_neighbours.is_nonempty() {
        acc.add_n(&p.linked_pawns, right_neighbours.count() as i32);
    }

    if !safety {
        return;
    }
    // The side to move's blockers are already in the position's state.
    let blockers = if c == pos.side_to_move() {
        pos.blockers()
    } else {
        pos.king_lines(c).blockers
    };
    let pinned = blockers & own;
    for sq in pinned {
        acc.add(&p.pinned[pos.piece_on(sq).kind().index()]);
    }
}

/// End-game scale for the side `strong` that the score favours:
/// `SCALE_NORMAL` means no scaling, 0 a dead draw.
#[inline(always)]
pub fn scale_factor(pos: &Position, strong: Color) -> i32 {
    let weak = !strong;
    let count = |c: Color, k: PieceKind| pos.pieces(c, k).count();
    let (r, n, c, pw) = (
        count(strong, PieceKind::Chariot),
        count(strong, PieceKind::Horse),
        count(strong, PieceKind::Cannon),
        count(strong, PieceKind::Pawn),
    );
    let crossed = (pos.pieces(strong, PieceKind::Pawn) & !Bitboard::own_half(strong)).count();
    let weak_guards = count(weak, PieceKind::Advisor) + count(weak, PieceKind::Elephant);
    let weak_majors = count(weak, PieceKind::Chariot)
        + count(weak, PieceKind::Horse)
        + count(weak, PieceKind::Cannon);
    if r + n + c + crossed == 0 {
        // Nothing that can cross the river and attack: no way to mate.
        return 0;
    }
    if r + n + c == 0 {
        // Pawns only: one pawn rarely beats a guarded king.
        return match (crossed, weak_guards) {
            (1, 0) => 40,
            (1, _) => 12,
            (2, g) if g >= 3 => 32,
            _ => SCALE_NORMAL,
        };
    }
    if r == 0 && n + c == 1 && pw == 0 {
        // A lone horse or cannon cannot force mate against any guard.
        return if weak_guards > 0 || weak_majors > 0 {
            4
        } else {
            24
        };
    }
    if r == 1 && n + c + crossed == 0 {
        if count(weak, PieceKind::Chariot) >= 1 {
            return 12;
        }
        if weak_majors >= 1 && weak_guards >= 2 {
            return 24;
        }
    }
    SCALE_NORMAL
}

/// Red-minus-Black terms before tapering, reporting used weights to `trace`.
#[inline(always)]
pub fn terms<T: Trace>(pos: &Position, params: &Params, knowledge: Level, trace: &mut T) -> Pair {
    let mut acc = Acc {
        params,
        trace,
        sign: 1,
        sum: Pair(0, 0),
        knowledge,
    };
    side_terms(pos, Color::Red, &mut acc);
    let red = acc.sum;
    acc.sum = Pair(0, 0);
    acc.sign = -1;
    side_terms(pos, Color::Black, &mut acc);
    let black = acc.sum;
    let stm_sign = if pos.side_to_move() == Color::Red {
        1
    } else {
        -1
    };
    acc.sign = stm_sign;
    acc.sum = Pair(0, 0);
    acc.add(&params.tempo);
    red - black + acc.sum * stm_sign
}

/// The full evaluation from Red's view with its parts: (score, phase, scale).
pub fn evaluate_red<T: Trace>(pos: &Position, params: &Params, trace: &mut T) -> (i32, i32, i32) {
    evaluate_red_at(pos, params, Level::Large, trace)
}

/// The evaluation from Red's view at a `knowledge` level (see `evaluate_at`).
///
/// The evaluation counts bits (mobility, guards, pieces) more than any
/// other part of the engine, and a portable x86-64 build has no `popcnt`
/// instruction: it counts them in a dozen instructions each. So the
/// evaluation is compiled twice, once with `popcnt`, and the CPU picks:
/// the same code and the same scores, 6.7% fewer instructions for the
/// whole search (callgrind, `chuhe bench 9`).
#[inline]
pub fn evaluate_red_at<T: Trace>(
    pos: &Position,
    params: &Params,
    knowledge: Level,
    trace: &mut T,
) -> (i32, i32, i32) {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    if popcnt::available() {
        // SAFETY: the CPU has `popcnt`, checked at run time.
        return unsafe { popcnt::evaluate_red_at(pos, params, knowledge, trace) };
    }
    evaluate_red_body(pos, params, knowledge, trace)
}

/// The evaluation compiled for CPUs with `popcnt` (see `evaluate_red_at`).
#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
mod popcnt {
    use super::*;

    /// Whether this CPU has `popcnt` (std caches the answer).
    #[inline(always)]
    pub fn available() -> bool {
        std::arch::is_x86_feature_detected!("popcnt")
    }

    /// `evaluate_red_body` with `popcnt` for every bit count inlined into it.
    ///
    /// # Safety
    /// Only on a CPU with `popcnt` (`available()`).
    #[target_feature(enable = "popcnt")]
    pub unsafe fn evaluate_red_at<T: Trace>(
        pos: &Position,
        params: &Params,
        knowledge: Level,
        trace: &mut T,
    ) -> (i32, i32, i32) {
        evaluate_red_body(pos, params, knowledge, trace)
    }
}

/// `evaluate_red_at`'s work, inlined into each of its two builds together
/// with the terms, the phase and the scale it calls.
#[inline(always)]
fn evaluate_red_body<T: Trace>(
    pos: &Position,
    params: &Params,
    knowledge: Level,
    trace: &mut T,
) -> (i32, i32, i32) {
    let t = terms(pos, params, knowledge, trace);
    let ph = phase(pos);
    let tapered = taper(t, ph);
    let strong = if tapered >= 0 {
        Color::Red
    } else {
        Color::Black
    };
    let scale = if knowledge >= Level::Medium {
        scale_factor(pos, strong)
    } else {
        SCALE_NORMAL
    };
    (tapered * scale / SCALE_NORMAL, ph, scale)
}

/// The static evaluation, from the side to move's view, clamped well inside
/// the mate range.
#[inline]
pub fn evaluate(pos: &Position) -> Score {
    evaluate_with(pos, &PARAMS)
}

/// The evaluation with only part of its knowledge (the UCCI `knowledge`
/// option): `none` counts material, `small` adds placement, `medium`
/// mobility, pawn and guard structure and end-game scaling, `large` (the
/// default) king safety, aimed pieces and pins.
pub fn evaluate_at(pos: &Position, knowledge: Level) -> Score {
    side_to_move_view(
        pos,
        evaluate_red_at(pos, &PARAMS, knowledge, &mut NoTrace).0,
    )
}

fn side_to_move_view(pos: &Position, red: i32) -> Score {
    let stm = if pos.side_to_move() == Color::Red {
        red
    } else {
        -red
    };
    stm.clamp(-MATE_BOUND + 1000, MATE_BOUND - 1000)
}

pub fn evaluate_with(pos: &Position, params: &Params) -> Score {
    side_to_move_view(pos, evaluate_red(pos, params, &mut NoTrace).0)
}

/// A human-readable breakdown (for the `eval` command).
pub fn describe(pos: &Position) -> String {
    struct Sum(Vec<(usize, i32)>);
    impl Trace for Sum {
        fn add(&mut self, index: usize, count: i32) {
            self.0.push((index, count));
        }
    }
    let mut t = Sum(Vec::new());
    let (red, ph, scale) = evaluate_red(pos, &PARAMS, &mut t);
    let flat = PARAMS.to_flat();
    let mut groups: Vec<(String, Pair)> = Vec::new();
    for (i, n) in t.0 {
        let name = Params::name_of(i);
        let group = name.split('[').next().unwrap_or("").to_string();
        let v = flat[i] * n;
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some(e) => e.1 += v,
            None => groups.push((group, v)),
        }
    }
    let mut out = String::from("term               middle    end   (Red minus Black)\n");
    for (g, v) in groups {
        out.push_str(&format!("{g:<18} {:6} {:6}\n", v.0, v.1));
    }
    out.push_str(&format!(
        "phase {ph}/{PHASE_MAX}, scale {scale}/{SCALE_NORMAL}\n\
         total: {red} for Red, {} for the side to move",
        evaluate(pos)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_builds_of_the_evaluation_agree() {
        // The dispatcher's answer (the `popcnt` build where the CPU has it)
        // equals the portable body's, at every knowledge level, over the
        // positions of random games.
        let mut rng = crate::rng::SplitMix(7);
        for _game in 0..20 {
            let mut pos = Position::startpos();
            for _ply in 0..120 {
                for level in [Level::None, Level::Small, Level::Medium, Level::Large] {
                    assert_eq!(
                        evaluate_red_at(&pos, &PARAMS, level, &mut NoTrace),
                        evaluate_red_body(&pos, &PARAMS, level, &mut NoTrace),
                        "{}",
                        pos.to_fen()
                    );
                }
                let moves = crate::movegen::legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.below(moves.len() as u64) as usize];
                pos.make_move(m);
            }
        }
    }

    #[test]
    fn start_position_is_balanced() {
        let pos = Position::startpos();
        assert_eq!(evaluate(&pos), taper(PARAMS.tempo, PHASE_MAX));
        assert_eq!(phase(&pos), PHASE_MAX);
    }

    #[test]
    fn mirror_and_colour_symmetry() {
        let fens = [
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&pos.mirrored()));
            // The same position with colours swapped (board rotated).
            assert_eq!(evaluate(&pos), evaluate(&pos.colour_swapped()), "{fen}");
        }
    }

    #[test]
    fn trace_reproduces_the_score() {
        struct Rec(Vec<(usize, i32)>);
        impl Trace for Rec {
            fn add(&mut self, i: usize, n: i32) {
                self.0.push((i, n));
            }
        }
        let pos = Position::from_fen(
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        )
        .unwrap();
        let mut rec = Rec(Vec::new());
        let total = terms(&pos, &PARAMS, Level::Large, &mut rec);
        let flat = PARAMS.to_flat();
        let mut sum = Pair(0, 0);
        for (i, n) in rec.0 {
            sum += flat[i] * n;
        }
        assert_eq!(sum, total);
    }

    #[test]
    fn knowledge_levels_add_terms_in_order() {
        let pos = Position::from_fen(
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        )
        .unwrap();
        // `none` is material and tempo alone.
        let mut material = Pair(0, 0);
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                let n = pos.pieces(c, k).count() as i32;
                let v = PARAMS.material[k.index()] * n;
                material = if c == Color::Red {
                    material + v
                } else {
                    material - v
                };
            }
        }
        let expected = taper(material + PARAMS.tempo, phase(&pos));
        assert_eq!(evaluate_at(&pos, Level::None), expected);
        assert_eq!(evaluate_at(&pos, Level::Large), evaluate(&pos));
        let values: Vec<Score> = Level::ALL.iter().map(|&l| evaluate_at(&pos, l)).collect();
        assert!(values.windows(2).all(|w| w[0] != w[1]), "{values:?}");
    }

    #[test]
    fn flat_view_indexes_fields() {
        let p = &PARAMS;
        assert_eq!(p.index_of(&p.material[0]), 0);
        assert_eq!(p.index_of(&p.pst[0][0][0]), 7);
        assert_eq!(p.index_of(&p.tempo), Params::LEN - 1);
        assert_eq!(Params::name_of(Params::LEN - 1), "tempo[0]");
        assert_eq!(Params::name_of(8), "pst[1]");
        // The flat list walks the fields in memory order, each as FIELDS
        // says, so index_of and to_flat agree on every weight.
        for (run, (name, dims)) in p.runs().iter().zip(FIELDS) {
            assert_eq!(run.len(), dims.iter().product::<usize>(), "{name}");
        }
        let flat = p.to_flat();
        assert_eq!(flat.len(), Params::LEN);
        for (i, w) in p.runs().into_iter().flatten().enumerate() {
            assert_eq!(p.index_of(w), i);
            assert_eq!(flat[i], *w);
        }
        let mut q = Params {
            tempo: Pair(1, 2),
            ..PARAMS
        };
        q.set_flat(&flat);
        assert_eq!(&q, p);
    }

    #[test]
    fn extra_chariot_is_winning_and_lone_cannon_is_not() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/5K3 w").unwrap();
        assert!(evaluate(&pos) > 500);
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/5K3 b").unwrap();
        assert!(evaluate(&pos) < -500);
        let cannon = Position::from_fen("3ak4/4a4/9/9/9/9/9/9/3C5/5K3 w").unwrap();
        assert!(evaluate(&cannon).abs() < 100, "{}", evaluate(&cannon));
    }
}
