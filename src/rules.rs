//! The one judge of game results: mate and stalemate, the repetition rules
//! (perpetual check and chase), the natural move limit and dead material.
//! The match referee (`judge`) and the search (`repetition_verdict`,
//! `move_limit_reached`) both come here, so they cannot disagree.
//!
//! # Move classes (rules.md, "Repetition rules")
//!
//! Every move of a repetition cycle is classed by `classify_last_move` as a
//! check, a chase or idle; `SideRecord` tallies one side's moves and
//! `CycleSummary::loser` is the single verdict function both paths use.
//!
//! A move is a **chase** when, after it, the mover could capture some enemy
//! piece `T` next move with a piece `A` so as to win material, and no such
//! threat on `T` existed before the move. What is implemented:
//!
//! - direct attacks by the moved piece and discovered attacks (every attacker
//!   is examined after the move, not just the one that moved);
//! - `A` may not be a king or a pawn (their attacks are idle), and `T` may not
//!   be a king or a pawn still on its own side of the river;
//! - `A`'s capture must be legal: a pinned attacker threatens nothing;
//! - the threat wins material when `T` is worth more than `A` (chariot 4,
//!   horse = cannon 2, advisor = elephant = crossed pawn 1: a horse or cannon
//!   attacking a chariot, an advisor or elephant attacking a chariot, horse or
//!   cannon), or when `T` has no legal recapture after `A` takes it — so a
//!   protector that is pinned, or whose recapture would leave its own king in
//!   check (also a check given by the capture itself), does not protect;
//! - an attack of a piece on an enemy piece of the same kind that can take it
//!   back (chariot facing chariot, cannons on one line, horses hitting each
//!   other) is an exchange offer, not a chase;
//! - a capture after which the opponent has a mate in one (by a checking
//!   move) is not a threat;
//! - a threat that already existed before the move (on the same target, by
//!   any piece) is not new. If the mover was in check before its move, that
//!   check is ignored when deciding which threats existed: answering a check
//!   does not turn a standing attack into a new chase.
//!
//! Approximated or left out (the same in search and referee, since both
//! use this code):
//!
//! - threats that only exist after a series of checks, and gains through a
//!   longer exchange sequence (e.g. attacking a piece defended once by two
//!   attackers), are not detected: such moves count as idle;
//! - mate threats (杀) are treated as idle, which the rules allow;
//! - a pawn attack is always idle (the "both sides attack every move" pawn
//!   exception is not implemented);
//! - the arbiter's exception for attacks on advisors or elephants from key
//!   defensive points in plainly drawn positions is not implemented;
//! - equal-value pieces of different kinds attacking each other (horse and
//!   cannon) are judged like any other attack, not as an exchange offer;
//! - "threat existed before" ignores whether that earlier capture would have
//!   lost to an immediate mate (so it errs towards idle);
//! - an immediate stalemate after the capture is not looked for, only mates;
//! - "protected" means only that a legal recapture exists, whatever it
//!   costs the recapturing side afterwards; and an attacker that is itself
//!   en prise still threatens (an offered piece that also attacks counts as
//!   a chase);
//! - a crossed pawn counts as the smallest value (the rules let it float).
//!
//! A side whose every move in the cycle is a check or a chase (chasing one
//! piece or several in turn, or mixing checks and chases) is forbidden;
//! one idle move makes it allowed. Cycles longer than `MAX_CYCLE` plies are
//! ruled plain repetition draws.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::movegen::{self, MoveList};
use crate::position::Position;
use crate::types::*;

/// Natural move limit settings. `move_limit` counts full moves (two plies)
/// without a capture; 0 turns the limit off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSettings {
    pub move_limit: u32,
    pub check_cap: u32,
}

impl Default for RuleSettings {
    fn default() -> Self {
        RuleSettings {
            move_limit: 60,
            check_cap: 10,
        }
    }
}

impl RuleSettings {
    /// WXF events and league rapid play-offs: 50 moves.
    pub const fn wxf() -> RuleSettings {
        RuleSettings {
            move_limit: 50,
            check_cap: 10,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Checkmate,
    Stalemate,
    PerpetualCheck,
    /// Perpetual chase, or a cycle of checks and chases with no idle move.
    PerpetualChase,
    Repetition,
    MoveLimit,
    DeadMaterial,
}

impl Reason {
    pub fn word(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::PerpetualChase => "perpetual-chase",
            Reason::Repetition => "repetition",
            Reason::MoveLimit => "move-limit",
            Reason::DeadMaterial => "dead-material",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    Win { winner: Color, reason: Reason },
    Draw { reason: Reason },
}

impl Outcome {
    /// `ongoing`, `red-wins`, `black-wins` or `draw`.
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Ongoing => "ongoing",
            Outcome::Win {
                winner: Color::Red, ..
            } => "red-wins",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "black-wins",
            Outcome::Draw { .. } => "draw",
        }
    }

    pub fn reason(self) -> Option<Reason> {
        match self {
            Outcome::Ongoing => None,
            Outcome::Win { reason, .. } | Outcome::Draw { reason } => Some(reason),
        }
    }

    pub fn is_over(self) -> bool {
        self != Outcome::Ongoing
    }
}

/// What a move does, gravest first in the order check > chase > idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MoveClass {
    Idle,
    Chase,
    Check,
}

impl MoveClass {
    pub fn word(self) -> &'static str {
        match self {
            MoveClass::Idle => "idle",
            MoveClass::Chase => "chase",
            MoveClass::Check => "check",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionVerdict {
    Draw,
    SideToMoveWins,
    SideToMoveLoses,
}

/// One side's moves in a repetition cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideRecord {
    pub moves: u16,
    pub checks: u16,
    pub chases: u16,
}

impl SideRecord {
    fn add(&mut self, c: MoveClass) {
        self.moves += 1;
        match c {
            MoveClass::Check => self.checks += 1,
            MoveClass::Chase => self.chases += 1,
            MoveClass::Idle => {}
        }
    }

    /// Every move attacked (checks, chases or a mix): the side must vary.
    pub fn forbidden(self) -> bool {
        self.moves > 0 && self.checks + self.chases == self.moves
    }

    pub fn perpetual_check(self) -> bool {
        self.moves > 0 && self.checks == self.moves
    }
}

/// The classified moves of one repetition cycle, indexed by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CycleSummary {
    pub sides: [SideRecord; 2],
}

impl CycleSummary {
    /// The verdict (rules.md "Verdict"): the side that must vary and did
    /// not, with the reason, or `None` for a draw.
    pub fn loser(&self) -> Option<(Color, Reason)> {
        let [red, black] = self.sides;
        match (red.perpetual_check(), black.perpetual_check()) {
            (true, false) => return Some((Color::Red, Reason::PerpetualCheck)),
            (false, true) => return Some((Color::Black, Reason::PerpetualCheck)),
            (true, true) => return None,
            (false, false) => {}
        }
        match (red.forbidden(), black.forbidden()) {
            (true, false) => Some((Color::Red, Reason::PerpetualChase)),
            (false, true) => Some((Color::Black, Reason::PerpetualChase)),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Whole-game judge

/// Judges the current position of a game whose whole history is in
/// `pos.states()`. Mate and stalemate come first (mate on the move that
/// reaches the move limit is still mate), then repetition at the third
/// occurrence, the move limit and dead material.
pub fn judge(pos: &mut Position, settings: &RuleSettings) -> Outcome {
    let us = pos.side_to_move();
    if !movegen::has_legal_move(pos) {
        let reason = if pos.in_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        return Outcome::Win {
            winner: !us,
            reason,
        };
    }
    if let Some(outcome) = third_repetition(pos) {
        return outcome;
    }
    if move_limit_reached(pos, settings) {
        return Outcome::Draw {
            reason: Reason::MoveLimit,
        };
    }
    if dead_material(pos) {
        return Outcome::Draw {
            reason: Reason::DeadMaterial,
        };
    }
    Outcome::Ongoing
}

/// Plies back from the current state that a repetition can reach: not past
/// a capture, a null move or the root.
#[inline(always)]
fn reversible_window(pos: &Position) -> usize {
    let st = pos.state();
    (st.rule60.min(st.plies_from_null) as usize).min(pos.ply_from_root())
}

/// If the current position is at least its third occurrence, the verdict on
/// the cycle since the first of the last three occurrences.
fn third_repetition(pos: &mut Position) -> Option<Outcome> {
    let window = reversible_window(pos);
    let states = pos.states();
    let last = states.len() - 1;
    let key = states[last].key;
    let mut seen = 0;
    let mut back = 4;
    while back <= window {
        if states[last - back].key == key {
            seen += 1;
            if seen == 2 {
                break;
            }
        }
        back += 2;
    }
    if seen < 2 {
        return None;
    }
    let outcome = match summarize_cycle(pos, back).and_then(|s| s.loser()) {
        Some((loser, reason)) => Outcome::Win {
            winner: !loser,
            reason,
        },
        None => Outcome::Draw {
            reason: Reason::Repetition,
        },
    };
    Some(outcome)
}

/// Search fast path: the verdict, for the side to move, on the cycle since
/// the nearest earlier occurrence of the current position within the
/// reversible window; `None` when the position has not occurred before.
/// Allocates nothing and leaves `pos` as it found it.
pub fn repetition_verdict(pos: &mut Position) -> Option<RepetitionVerdict> {
    let back = {
        let window = reversible_window(pos);
        let states = pos.states();
        let last = states.len() - 1;
        let key = states[last].key;
        let mut back = 4;
        loop {
            if back > window {
                return None;
            }
            if states[last - back].key == key {
                break back;
            }
            back += 2;
        }
    };
    let us = pos.side_to_move();
    Some(match summarize_cycle(pos, back).and_then(|s| s.loser()) {
        None => RepetitionVerdict::Draw,
        Some((loser, _)) if loser == us => RepetitionVerdict::SideToMoveLoses,
        Some(_) => RepetitionVerdict::SideToMoveWins,
    })
}

/// Longest cycle that `summarize_cycle` classifies; longer ones (over 512
/// moves without a capture) are ruled plain repetition draws.
const MAX_CYCLE: usize = 1024;

/// Classifies the last `plies` moves (a repetition cycle) and tallies them
/// per side. `None` if they reach past a null move, a capture or the root,
/// or are too many. Leaves `pos` as it found it.
pub fn summarize_cycle(pos: &mut Position, plies: usize) -> Option<CycleSummary> {
    if plies == 0 || plies > MAX_CYCLE || plies > reversible_window(pos) {
        return None;
    }
    let mut moves = [Move::NONE; MAX_CYCLE];
    for slot in moves[..plies].iter_mut().rev() {
        *slot = pos.last_move();
        pos.unmake_move();
    }
    let mut summary = CycleSummary::default();
    for &m in &moves[..plies] {
        let mover = pos.side_to_move();
        pos.make_move(m);
        summary.sides[mover.index()].add(classify_last_move(pos));
    }
    Some(summary)
}

// ---------------------------------------------------------------------------
// Natural move limit and dead material

/// Whether a rule result (a repetition, the move limit) can arise at all:
/// a repetition needs at least four plies without a capture (two moves a
/// side), the move limit far more. Quiescence skips the rule tests below.
#[inline(always)]
pub fn rule_result_possible(pos: &Position) -> bool {
    pos.rule60() >= 4
}

/// The move limit's verdict for the side to move, once the limit is
/// reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimitVerdict {
    Draw,
    /// Mated (or stalemated) by the move that reached the limit: mate on
    /// the last move still counts.
    SideToMoveLoses,
}

/// The move limit's verdict, `None` while the limit is not reached. The
/// referee's `judge` gives the same result, as it looks for mate first.
pub fn move_limit_verdict(pos: &Position, settings: &RuleSettings) -> Option<MoveLimitVerdict> {
    move_limit_reached(pos, settings).then(|| {
        if movegen::has_legal_move(pos) {
            MoveLimitVerdict::Draw
        } else {
            MoveLimitVerdict::SideToMoveLoses
        }
    })
}

/// Whether the natural move limit is reached: `2 * move_limit` plies since
/// the last capture, not counting a side's checks beyond its first
/// `check_cap` in the run nor the replies to them. Plies before the root
/// (the FEN's counter) count in full, their checks being unknown.
pub fn move_limit_reached(pos: &Position, settings: &RuleSettings) -> bool {
    let limit = 2 * settings.move_limit as usize;
    let run = pos.rule60() as usize;
    if settings.move_limit == 0 || run < limit {
        return false;
    }
    let states = pos.states();
    let last = states.len() - 1;
    let known = run.min(last);
    let mut counted = run - known;
    let mut checks = [0u32; 2];
    let mut skip_reply = false;
    // The mover of the move into state `last` is the side not to move now;
    // colours alternate going back.
    let first = last + 1 - known;
    for (j, st) in states.iter().enumerate().skip(first) {
        let mover = if (last - j).is_multiple_of(2) {
            !pos.side_to_move()
        } else {
            pos.side_to_move()
        };
        let is_reply = skip_reply;
        skip_reply = false;
        if st.checkers.is_nonempty() {
            checks[mover.index()] += 1;
            if checks[mover.index()] > settings.check_cap {
                skip_reply = true;
                continue;
            }
        }
        if !is_reply {
            counted += 1;
        }
    }
    counted >= limit
}

/// No chariot, horse, cannon or pawn left on either side.
pub fn dead_material(pos: &Position) -> bool {
    (pos.pieces_kind(PieceKind::Chariot)
        | pos.pieces_kind(PieceKind::Horse)
        | pos.pieces_kind(PieceKind::Cannon)
        | pos.pieces_kind(PieceKind::Pawn))
    .is_empty()
}

// ---------------------------------------------------------------------------
// Move classification

/// Classifies the last move made from the positions before and after it.
/// Leaves `pos` as it found it.
pub fn classify_last_move(pos: &mut Position) -> MoveClass {
    let m = pos.last_move();
    if !m.is_some() {
        return MoveClass::Idle;
    }
    if pos.in_check() {
        return MoveClass::Check;
    }
    // The opponent is not in check, so passing is allowed: it puts the mover
    // back on move to ask what it could capture.
    pos.make_null_move();
    let after = threatened(pos, Bitboard::ALL);
    pos.unmake_null_move();
    if after.is_empty() {
        return MoveClass::Idle;
    }
    pos.unmake_move();
    let before = threatened(pos, after);
    pos.make_move(m);
    let new = after & !before;
    if new.is_empty() {
        return MoveClass::Idle;
    }
    pos.make_null_move();
    let mut chase = false;
    for t in new {
        if has_safe_winning_capture(pos, t) {
            chase = true;
            break;
        }
    }
    pos.unmake_null_move();
    if chase {
        MoveClass::Chase
    } else {
        MoveClass::Idle
    }
}

/// Value scale for chases: chariot = 2 horses = 2 cannons; advisor =
/// elephant; a crossed pawn counts with the smallest.
#[inline]
fn chase_value(k: PieceKind) -> u8 {
    match k {
        PieceKind::Chariot => 4,
        PieceKind::Horse | PieceKind::Cannon => 2,
        PieceKind::Advisor | PieceKind::Elephant | PieceKind::Pawn => 1,
        PieceKind::King => 0,
    }
}

/// The enemy pieces within `mask` that the side to move threatens to win
/// next move (before the mate-in-one filter).
fn threatened(pos: &mut Position, mask: Bitboard) -> Bitboard {
    let us = pos.side_to_move();
    let them = !us;
    let uncrossed_pawns = pos.pieces(them, PieceKind::Pawn) & Bitboard::own_half(them);
    let targets = pos.pieces_of(them) & mask & !pos.pieces_kind(PieceKind::King) & !uncrossed_pawns;
    let mut out = Bitboard::EMPTY;
    for t in targets {
        for a in chasers_of(pos, t) {
            if winning_capture(pos, a, t) {
                out = out.with(t);
                break;
            }
        }
    }
    out
}

/// The side to move's pieces that attack `t` and whose attacks may count
/// as chases (not the king, not pawns).
#[inline]
fn chasers_of(pos: &Position, t: Square) -> Bitboard {
    let us = pos.side_to_move();
    pos.attackers_of(t, us, pos.occupancy())
        & !pos.pieces_kind(PieceKind::King)
        & !pos.pieces_kind(PieceKind::Pawn)
}

/// Whether the side to move, taking on `t` with the piece on `a`, wins
/// material by the chase rules: legal, not an exchange offer, and either a
/// higher-value target or one without a legal recapture.
fn winning_capture(pos: &mut Position, a: Square, t: Square) -> bool {
    let us = pos.side_to_move();
    let ak = pos.piece_on(a).kind();
    let tk = pos.piece_on(t).kind();
    if ak == tk
        && pos.attackers_of(a, !us, pos.occupancy()).has(t)
        && capture_is_legal(pos, !us, t, a, Bitboard::EMPTY)
    {
        return false;
    }
    let legal = if pos.in_check() {
        // Only reached for the position before a move that answered a check:
        // the threat is judged as if that check were not there.
        capture_is_legal(pos, us, a, t, pos.checkers())
    } else {
        pos.is_legal(Move::new(a, t))
    };
    if !legal {
        return false;
    }
    if chase_value(tk) > chase_value(ak) {
        return true;
    }
    pos.make_move(Move::new(a, t));
    let protected = has_recapture(pos, t);
    pos.unmake_move();
    !protected
}

/// Whether the side to move can legally capture on `t`.
fn has_recapture(pos: &Position, t: Square) -> bool {
    let us = pos.side_to_move();
    pos.attackers_of(t, us, pos.occupancy())
        .any(|s| pos.is_legal(Move::new(s, t)))
}

/// Whether the capture `from`→`to` by `by` (whichever side is to move)
/// leaves `by`'s king safe, ignoring enemy pieces in `ignore`.
fn capture_is_legal(pos: &Position, by: Color, from: Square, to: Square, ignore: Bitboard) -> bool {
    let occ = pos.occupancy().toggled(from);
    let ksq = if from == pos.king_square(by) {
        to
    } else {
        pos.king_square(by)
    };
    let enemies = !Bitboard::from_square(to) & !ignore;
    if (pos.attackers_of(ksq, !by, occ) & enemies).is_nonempty() {
        return false;
    }
    (attacks::chariot(ksq, occ) & pos.pieces(!by, PieceKind::King)).is_empty()
}

/// Whether some winning capture of `t` by the side to move does not lose
/// at once to mate.
fn has_safe_winning_capture(pos: &mut Position, t: Square) -> bool {
    for a in chasers_of(pos, t) {
        if winning_capture(pos, a, t) {
            pos.make_move(Move::new(a, t));
            let mated = has_mate_in_one(pos);
            pos.unmake_move();
            if !mated {
                return true;
            }
        }
    }
    false
}

/// Whether the side to move can checkmate at once.
fn has_mate_in_one(pos: &mut Position) -> bool {
    let mut list = MoveList::new();
    movegen::generate(pos, movegen::GenKind::All, &mut list);
    for &m in &list {
        if pos.gives_check(m) {
            pos.make_move(m);
            let mate = !movegen::has_legal_move(pos);
            pos.unmake_move();
            if mate {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(fen: &str, text: &str) -> MoveClass {
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let m = crate::replay::read_move(&pos, text, crate::replay::Accept::Iccs)
            .unwrap_or_else(|e| panic!("{text} in {fen}: {e}"));
        pos.make_move(m);
        let key = pos.key();
        let class = classify_last_move(&mut pos);
        assert_eq!(
            (pos.key(), pos.last_move()),
            (key, m),
            "position not restored"
        );
        class
    }

    #[test]
    fn moves_are_classed_as_the_rules_say() {
        use MoveClass::*;
        #[rustfmt::skip]
        let cases: &[(&str, &str, MoveClass)] = &[
            // Chariot to i8 checks the king on e8.
            ("9/4k4/8R/9/9/9/9/9/9/3K5 w - - 0 1", "i7i8", Check),
            // Chariot a7 attacks the unprotected horse d7.
            ("9/4k4/3n5/9/R8/9/9/9/9/3K5 w - - 0 1", "a5a7", Chase),
            // Chariot a7 attacks horse d7, which chariot d5 protects.
            ("9/4k4/3n5/9/R2r5/9/9/9/9/5K3 w - - 0 1", "a5a7", Idle),
            // Horse d7 attacks chariot b8; protected or not, a horse attacking a chariot chases.
            ("1r1k5/1r7/4P4/9/2N6/9/9/9/9/4K4 w - - 0 1", "c5d7", Chase),
            // Advisor e1 attacks chariot d2, protected by chariot d5.
            ("5k3/9/9/9/3r5/9/9/3r5/9/3AK4 w - - 0 1", "d0e1", Chase),
            // Elephant e2 attacks horse c4, protected by pawn c5.
            ("5k3/9/9/9/2p6/2n6/9/9/9/4K1B2 w - - 0 1", "g0e2", Chase),
            // Chariot e4 eyes horse a4 but is pinned on the e-file by chariot e7.
            ("5k3/9/4r4/9/9/n8/9/4R4/9/4K4 w - - 0 1", "e2e4", Idle),
            // The same without the pinning chariot.
            ("5k3/9/9/9/9/n8/9/4R4/9/4K4 w - - 0 1", "e2e4", Chase),
            // Horses c3 and d5 attack each other: an exchange offer.
            ("5k3/9/9/9/3n5/9/9/9/1N7/4K4 w - - 0 1", "b1c3", Idle),
            // Pawn d4 blocks the leg of horse d5, so it cannot take back: a chase.
            ("5k3/9/9/9/3n5/3p5/9/9/1N7/4K4 w - - 0 1", "b1c3", Chase),
            // Cannon a3 attacks horse i3 over the pawn e3.
            ("5k3/9/9/9/9/9/4P3n/9/C8/4K4 w - - 0 1", "a1a3", Chase),
            // The king steps next to an unprotected cannon.
            ("5k3/9/9/9/9/9/9/3c5/4K4/9 w - - 0 1", "e1d1", Idle),
            // A crossed pawn steps next to an unprotected cannon.
            ("3k5/9/3c5/4P4/9/9/9/9/9/5K3 w - - 0 1", "e6d6", Idle),
            // Chariot a1 attacks pawn a6, still on its own side.
            ("4k4/9/9/p8/9/9/9/9/3K5/R8 w - - 0 1", "a0a1", Idle),
            // Chariot b3 keeps the attack chariot a3 already had on horse i3.
            ("5k3/9/9/9/9/9/R7n/9/9/3K5 w - - 0 1", "a3b3", Idle),
            // Cannon e3 unmasks chariot a4 on the unprotected horse i4.
            ("5k3/9/9/9/9/R3C3n/R7n/9/9/3K5 w - - 0 1", "e4e3", Chase),
            // Black escapes a check; its chariot's attack on horse h5 stood before the check.
            ("9/4k3R/9/9/r6N1/9/9/9/9/3K5 b - - 0 1", "e8e9", Idle),
            // Taking a6 would let horse h3-g1 mate, so chariot g6 threatens nothing.
            ("5k3/9/9/n8/9/c5R2/7n1/4p4/9/3AKA3 w - - 0 1", "g4g6", Idle),
            // A chariot move that attacks nothing.
            ("9/4k4/8R/9/9/9/9/9/9/3K5 w - - 0 1", "i7i6", Idle),
        ];
        for &(fen, text, want) in cases {
            assert_eq!(classify(fen, text), want, "{text} in {fen}");
        }
    }

    #[test]
    fn the_root_and_null_moves_are_idle() {
        let mut pos = Position::startpos();
        assert_eq!(classify_last_move(&mut pos), MoveClass::Idle);
        pos.make_null_move();
        assert_eq!(classify_last_move(&mut pos), MoveClass::Idle);
    }

    #[test]
    fn verdict_table() {
        let side = |moves, checks, chases| SideRecord {
            moves,
            checks,
            chases,
        };
        let verdict = |red, black| {
            CycleSummary {
                sides: [red, black],
            }
            .loser()
        };
        // One-sided perpetual check loses, even against perpetual chase.
        assert_eq!(
            verdict(side(2, 2, 0), side(2, 0, 2)),
            Some((Color::Red, Reason::PerpetualCheck))
        );
        assert_eq!(verdict(side(2, 2, 0), side(2, 2, 0)), None);
        // Check + chase with no idle move is forbidden.
        assert_eq!(
            verdict(side(2, 0, 0), side(2, 1, 1)),
            Some((Color::Black, Reason::PerpetualChase))
        );
        // One idle move makes a side allowed.
        assert_eq!(verdict(side(3, 2, 0), side(3, 0, 0)), None);
        assert_eq!(verdict(side(2, 0, 2), side(2, 1, 1)), None);
        assert_eq!(verdict(side(2, 0, 0), side(2, 0, 0)), None);
    }

    #[test]
    fn words_are_stable() {
        assert_eq!(Reason::PerpetualCheck.word(), "perpetual-check");
        assert_eq!(Reason::MoveLimit.word(), "move-limit");
        assert_eq!(
            Outcome::Win {
                winner: Color::Black,
                reason: Reason::Stalemate
            }
            .word(),
            "black-wins"
        );
        assert_eq!(Outcome::Ongoing.reason(), None);
    }
}
