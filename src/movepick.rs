//! Staged move ordering: the hash move first, then winning captures by
//! victim value and capture history, killers and the counter move, quiet
//! moves by history, and losing captures last. Moves are generated only when
//! their stage comes up, so a cutoff by the hash move or a good capture
//! never pays for generating quiets.

use crate::history::{ContinuationHistory, Histories};
use crate::movegen::{self, FixedList, GenKind, MoveList};
use crate::position::{Position, see_value};
use crate::types::*;

/// Capture ordering (most valuable victim first, least valuable attacker
/// next): the victim's value times `VICTIM_WEIGHT`, plus the capture
/// history over `CAPTURE_HISTORY_DIVISOR`, less the attacker's value over
/// `ATTACKER_DIVISOR`.
const VICTIM_WEIGHT: i32 = 16;
const CAPTURE_HISTORY_DIVISOR: i32 = 8;
const ATTACKER_DIVISOR: i32 = 8;

#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    GenQuietChecks,
    QuietChecks,
    Done,
}

#[derive(Clone, Copy)]
struct Scored {
    mv: Move,
    score: i32,
}

/// Which search is asking.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PickerKind {
    /// Main search: every move.
    Main,
    /// Quiescence: captures only (every evasion when in check).
    Quiescence,
    /// Quiescence's first ply: the captures, then the quiet checks.
    QuiescenceChecks,
}

pub struct MovePicker {
    stage: Stage,
    kind: PickerKind,
    in_check: bool,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// Continuation-history slots of the moves 1, 2 and 4 plies back.
    cont: [usize; 3],
    /// The generated moves of the current stage with their scores; those
    /// before `cur` have been yielded.
    moves: FixedList<Scored>,
    cur: usize,
    /// Captures that lose material, kept for the last stage.
    bad: MoveList,
    bad_cur: usize,
    /// Set by the search to stop yielding quiet moves (late-move pruning).
    pub skip_quiets: bool,
}

impl MovePicker {
    pub fn new(
        pos: &Position,
        kind: PickerKind,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        cont: [usize; 3],
    ) -> MovePicker {
        let in_check = pos.in_check();
        let usable_tt = tt_move.is_some()
            && pos.is_pseudo_legal(tt_move)
            && pos.is_legal(tt_move)
            && (kind == PickerKind::Main || in_check || pos.piece_on(tt_move.to()).is_some());
        MovePicker {
            stage: if usable_tt {
                Stage::TtMove
            } else {
                Stage::GenCaptures
            },
            kind,
            in_check,
            tt_move: if usable_tt { tt_move } else { Move::NONE },
            killers,
            counter,
            cont,
            moves: FixedList::new(),
            cur: 0,
            bad: MoveList::new(),
            bad_cur: 0,
            skip_quiets: false,
        }
    }

    /// Whether `m` is a quiet move worth trying from a refutation table.
    fn usable_quiet(&self, pos: &Position, m: Move) -> bool {
        m.is_some()
            && m != self.tt_move
            && pos.piece_on(m.to()).is_none()
            && pos.is_pseudo_legal(m)
            && pos.is_legal(m)
    }

    fn load(&mut self, list: &MoveList) {
        self.moves.clear();
        self.cur = 0;
        for &m in list {
            if m != self.tt_move {
                self.moves.push(Scored { mv: m, score: 0 });
            }
        }
    }

    fn score_captures(&mut self, pos: &Position, h: &Histories) {
        for s in self.moves.as_mut_slice() {
            let moved = pos.piece_on(s.mv.from());
            let victim = pos.piece_on(s.mv.to());
            s.score = if victim.is_some() {
                see_value(victim) * VICTIM_WEIGHT
                    + h.captures.get(moved, s.mv.to(), victim.kind()) / CAPTURE_HISTORY_DIVISOR
                    - see_value(moved) / ATTACKER_DIVISOR
            } else {
                0
            };
        }
    }

    fn score_quiets(&mut self, pos: &Position, h: &Histories) {
        let us = pos.side_to_move();
        let cont = self.cont;
        for s in self.moves.as_mut_slice() {
            let pc = pos.piece_on(s.mv.from());
            let to = s.mv.to();
            s.score = h.butterfly.get(us, s.mv)
                + 2 * h.continuation.get(cont[0], pc, to)
                + h.continuation.get(cont[1], pc, to)
                + h.continuation.get(cont[2], pc, to) / 2;
        }
    }

    /// Evasions: captures by victim value ahead of quiets by history.
    fn score_evasions(&mut self, pos: &Position, h: &Histories) {
        let us = pos.side_to_move();
        let cont = self.cont;
        for s in self.moves.as_mut_slice() {
            let pc = pos.piece_on(s.mv.from());
            let victim = pos.piece_on(s.mv.to());
            s.score = if victim.is_some() {
                1 << 24 | (see_value(victim) * VICTIM_WEIGHT - see_value(pc) / ATTACKER_DIVISOR)
            } else {
                h.butterfly.get(us, s.mv) + 2 * h.continuation.get(cont[0], pc, s.mv.to())
            };
        }
    }

    /// Takes the best-scored move left, the earliest of equals, and keeps
    /// the others in their order: the order a stable sort would give, paid
    /// for only as far as the search gets. Most nodes cut after a move or
    /// two, or skip late quiets, so sorting the whole list up front (the
    /// quiet list is some forty moves) was mostly wasted.
    #[inline(always)]
    fn pick_best(&mut self) -> Move {
        let cur = self.cur;
        let v = &mut self.moves.as_mut_slice()[cur..];
        let mut best = 0;
        for i in 1..v.len() {
            if v[i].score > v[best].score {
                best = i;
            }
        }
        v[..=best].rotate_right(1);
        self.cur += 1;
        v[0].mv
    }

    /// The next move to try, or `None` when all are done. Every move
    /// returned is legal: captures and quiets are generated by the
    /// pieces' movement rules only and tested for legality as they come
    /// up (evasions are generated legal).
    pub fn next(&mut self, pos: &Position, h: &Histories) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenCaptures;
                    return Some(self.tt_move);
                }
                Stage::GenCaptures => {
                    let mut list = MoveList::new();
                    if self.in_check {
                        movegen::evasions(pos, &mut list);
                        self.load(&list);
                        self.score_evasions(pos, h);
                        // Evasions are yielded from the quiet stage's loop.
                        self.stage = Stage::Quiets;
                        continue;
                    }
                    movegen::pseudo_legal(pos, GenKind::Captures, &mut list);
                    self.load(&list);
                    self.score_captures(pos, h);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    while self.cur < self.moves.len() {
                        let m = self.pick_best();
                        if !pos.is_legal(m) {
                            continue;
                        }
                        if self.kind != PickerKind::Main || pos.see_ge(m, 0) {
                            return Some(m);
                        }
                        self.bad.push(m);
                    }
                    self.stage = match self.kind {
                        PickerKind::Main => Stage::Killer1,
                        PickerKind::Quiescence => Stage::Done,
                        PickerKind::QuiescenceChecks => Stage::GenQuietChecks,
                    };
                }
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    let k = self.killers[0];
                    if !self.skip_quiets && self.usable_quiet(pos, k) {
                        return Some(k);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    let k = self.killers[1];
                    if !self.skip_quiets && k != self.killers[0] && self.usable_quiet(pos, k) {
                        return Some(k);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    let c = self.counter;
                    if !self.skip_quiets
                        && c != self.killers[0]
                        && c != self.killers[1]
                        && self.usable_quiet(pos, c)
                    {
                        return Some(c);
                    }
                }
                Stage::GenQuiets => {
                    self.stage = Stage::Quiets;
                    if self.skip_quiets {
                        self.moves.clear();
                        self.cur = 0;
                        continue;
                    }
                    let mut list = MoveList::new();
                    movegen::pseudo_legal(pos, GenKind::Quiets, &mut list);
                    self.load(&list);
                    self.score_quiets(pos, h);
                }
                Stage::Quiets => {
                    while self.cur < self.moves.len() {
                        if self.skip_quiets && !self.in_check {
                            self.cur = self.moves.len();
                            break;
                        }
                        let m = self.pick_best();
                        if self.in_check {
                            return Some(m);
                        }
                        if m != self.killers[0]
                            && m != self.killers[1]
                            && m != self.counter
                            && pos.is_legal(m)
                        {
                            return Some(m);
                        }
                    }
                    self.stage = if self.in_check {
                        Stage::Done
                    } else {
                        Stage::BadCaptures
                    };
                }
                Stage::BadCaptures => {
                    if self.bad_cur < self.bad.len() {
                        self.bad_cur += 1;
                        return Some(self.bad.as_slice()[self.bad_cur - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenQuietChecks => {
                    let mut list = MoveList::new();
                    movegen::pseudo_legal(pos, GenKind::Quiets, &mut list);
                    self.moves.clear();
                    self.cur = 0;
                    for &m in &list {
                        if m != self.tt_move && pos.is_legal(m) && pos.gives_check(m) {
                            self.moves.push(Scored { mv: m, score: 0 });
                        }
                    }
                    self.score_quiets(pos, h);
                    self.stage = Stage::QuietChecks;
                }
                Stage::QuietChecks => {
                    if self.cur < self.moves.len() {
                        return Some(self.pick_best());
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

/// The continuation-history slot of a move just played.
#[inline(always)]
pub fn cont_slot(moved: Piece, to: Square) -> usize {
    ContinuationHistory::slot(moved, to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::NULL_SLOT;

    fn all_picked(pos: &Position, kind: PickerKind, tt: Move) -> Vec<Move> {
        let h = Histories::default();
        let mut mp = MovePicker::new(pos, kind, tt, [Move::NONE; 2], Move::NONE, [NULL_SLOT; 3]);
        let mut out = vec![];
        while let Some(m) = mp.next(pos, &h) {
            out.push(m);
        }
        out
    }

    #[test]
    fn yields_every_legal_move_once() {
        let fens = [
            crate::position::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            "4k4/9/9/9/9/9/9/9/3r5/3K5 w", // in check
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let legal = movegen::legal_moves(&pos);
            let tt = legal.as_slice()[legal.len() / 2];
            for t in [Move::NONE, tt, Move::parse("a0a9").unwrap()] {
                let mut got = all_picked(&pos, PickerKind::Main, t);
                assert_eq!(got.len(), legal.len(), "{fen}");
                got.sort_by_key(|m| m.raw());
                got.dedup();
                assert_eq!(got.len(), legal.len(), "duplicates in {fen}");
            }
            let q = all_picked(&pos, PickerKind::Quiescence, Move::NONE);
            let qc = all_picked(&pos, PickerKind::QuiescenceChecks, Move::NONE);
            if pos.in_check() {
                assert_eq!(q.len(), legal.len());
            } else {
                assert!(q.iter().all(|m| pos.piece_on(m.to()).is_some()));
                // The same captures, then every quiet check once.
                assert_eq!(qc[..q.len()], q[..]);
                let checks: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| pos.piece_on(m.to()).is_none() && pos.gives_check(m))
                    .collect();
                let mut rest = qc[q.len()..].to_vec();
                rest.sort_by_key(|m| m.raw());
                let mut want = checks;
                want.sort_by_key(|m| m.raw());
                assert_eq!(rest, want, "{fen}");
            }
        }
    }

    #[test]
    fn good_captures_come_before_quiets() {
        let pos = Position::from_fen("3k5/9/9/9/4r4/9/9/9/4R4/5K3 w").unwrap();
        let picked = all_picked(&pos, PickerKind::Main, Move::NONE);
        assert_eq!(picked[0], Move::parse("e1e5").unwrap());
    }
}
