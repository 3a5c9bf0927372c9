//! Legal move generation into a fixed-size list.
//!
//! Moves are generated per piece from the attack tables and filtered for
//! legality with the position's check info: a move by a piece that is not a
//! blocker, landing off the screen gaps, while not in check, is legal without
//! further work; the rest (king moves, blockers, screen gaps, all moves in
//! check) get the full "is my king attacked afterwards" test, which in a
//! single check only the moves that take the checker, block it or move
//! its cannon's screen are given. The search's
//! move picker asks for moves by the movement rules alone
//! (`pseudo_legal`) and tests each as it comes up.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::*;
use std::mem::MaybeUninit;

/// No xiangqi position has more than 128 pseudo-legal moves (the most a full
/// army can reach is about 120).
pub const MAX_MOVES: usize = 128;

/// A list of at most `MAX_MOVES` items whose unused slots stay unwritten:
/// lists are made at every node (the generated moves, the move picker's
/// scored moves, the moves tried), and filling them with blanks first cost
/// about 4% of the search's instructions (callgrind, `chuhe bench 9`).
#[derive(Clone, Copy)]
pub struct FixedList<T: Copy> {
    items: [MaybeUninit<T>; MAX_MOVES],
    len: usize,
}

/// The legal moves of a position, or any list of moves.
pub type MoveList = FixedList<Move>;

impl<T: Copy> Default for FixedList<T> {
    fn default() -> Self {
        FixedList::new()
    }
}

impl<T: Copy> FixedList<T> {
    #[inline(always)]
    pub fn new() -> FixedList<T> {
        FixedList {
            items: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, x: T) {
        debug_assert!(self.len < MAX_MOVES);
        // The bound holds by the counting argument above; the check keeps a
        // corrupted position from writing out of bounds in release builds.
        if self.len < MAX_MOVES {
            self.items[self.len] = MaybeUninit::new(x);
            self.len += 1;
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `push` writes each slot before `len` grows over it and
        // `clear` only shrinks `len`, so the first `len` slots hold values;
        // `MaybeUninit<T>` has the layout of `T`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<T>(), self.len) }
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<T>(), self.len) }
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }
}

impl<T: Copy + PartialEq> FixedList<T> {
    pub fn contains(&self, x: T) -> bool {
        self.as_slice().contains(&x)
    }
}

impl<'a, T: Copy> IntoIterator for &'a FixedList<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenKind {
    /// Every legal move.
    All,
    /// Legal captures only.
    Captures,
    /// Legal non-captures only.
    Quiets,
}

/// All legal moves.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, GenKind::All, &mut list);
    list
}

/// Legal captures (for quiescence when not in check).
pub fn captures(pos: &Position, list: &mut MoveList) {
    generate(pos, GenKind::Captures, list);
}

/// Legal moves when in check (every move that resolves the check).
pub fn evasions(pos: &Position, list: &mut MoveList) {
    debug_assert!(pos.in_check());
    generate(pos, GenKind::All, list);
}

/// Appends the legal moves of `kind` to `list`.
pub fn generate(pos: &Position, kind: GenKind, list: &mut MoveList) {
    generate_into::<true>(pos, kind, list);
}

/// Appends the moves of `kind` that follow the pieces' movement rules,
/// not yet tested for legality: the move picker tests each with
/// `Position::is_legal` when it comes up, so that the many moves a node
/// never reaches (a cut-off, late-move pruning) skip the test of whether
/// they expose the king, about a tenth of the search's time when every
/// generated move paid for it. Not for a side in check: its evasions come
/// from `evasions`.
pub fn pseudo_legal(pos: &Position, kind: GenKind, list: &mut MoveList) {
    debug_assert!(!pos.in_check());
    generate_into::<false>(pos, kind, list);
}

/// Where a piece other than the king must land to end a single check:
/// on the checker, or between it and the king (a chariot's or cannon's
/// line, a horse's leg); and the cannon's screen, which may instead step
/// off the line anywhere. In check by two pieces, or out of check, every
/// point (and no screen). In check almost every move fails the legality
/// test; this skips the test for the moves that cannot pass it.
#[inline]
fn single_check_rescues(pos: &Position) -> (Bitboard, Bitboard) {
    let checkers = pos.state().checkers;
    if checkers.is_empty() || checkers.more_than_one() {
        return (Bitboard::ALL, Bitboard::EMPTY);
    }
    let checker = checkers.lsb();
    let ksq = pos.king_square(pos.side_to_move());
    let on_checker = Bitboard::EMPTY.with(checker);
    match pos.piece_on(checker).kind() {
        PieceKind::Chariot => (on_checker | attacks::between(checker, ksq), Bitboard::EMPTY),
        PieceKind::Cannon => {
            let line = attacks::between(checker, ksq);
            (on_checker | line, line & pos.occupied())
        }
        PieceKind::Horse => {
            let legs = attacks::horse_attacker_legs(ksq);
            let mut rescue = on_checker;
            for i in 0..4 {
                if legs.targets[i] >> checker.index() & 1 != 0 {
                    rescue = rescue.with(Square::from_index(legs.block[i] as usize));
                }
            }
            (rescue, Bitboard::EMPTY)
        }
        PieceKind::Pawn => (on_checker, Bitboard::EMPTY),
        _ => (Bitboard::ALL, Bitboard::EMPTY),
    }
}

/// The generator: `LEGAL` filters the moves for legality as it goes.
#[inline(always)]
fn generate_into<const LEGAL: bool>(pos: &Position, kind: GenKind, list: &mut MoveList) {
    let us = pos.side_to_move();
    let them = !us;
    let own = pos.pieces_of(us);
    let enemy = pos.pieces_of(them);
    let occ = pos.occupancy();
    let occ_bb = occ.bitboard();
    let targets = match kind {
        GenKind::All => !own,
        GenKind::Captures => enemy,
        GenKind::Quiets => !occ_bb,
    };
    let st = pos.state();
    let in_check = st.checkers.is_nonempty();
    // Pieces whose every move needs the full test.
    let careful = if in_check { own } else { st.blockers & own };
    let gaps = if in_check {
        Bitboard::ALL
    } else {
        st.screen_gaps
    };
    let (rescues, screen) = if LEGAL && in_check {
        single_check_rescues(pos)
    } else {
        (Bitboard::ALL, Bitboard::EMPTY)
    };

    let emit = |from: Square, dests: Bitboard, list: &mut MoveList| {
        if !LEGAL {
            for to in dests {
                list.push(Move::new(from, to));
            }
        } else if careful.has(from) {
            let dests = if screen.has(from) {
                dests
            } else {
                dests & rescues
            };
            for to in dests {
                let m = Move::new(from, to);
                if pos.is_legal(m) {
                    list.push(m);
                }
            }
        } else {
            for to in dests & !gaps {
                list.push(Move::new(from, to));
            }
            for to in dests & gaps {
                let m = Move::new(from, to);
                if pos.is_legal(m) {
                    list.push(m);
                }
            }
        }
    };

    for from in pos.pieces(us, PieceKind::Chariot) {
        emit(from, attacks::chariot(from, occ) & targets, list);
    }
    for from in pos.pieces(us, PieceKind::Cannon) {
        let mut d = Bitboard::EMPTY;
        if kind != GenKind::Captures {
            d |= attacks::chariot(from, occ) & !occ_bb;
        }
        if kind != GenKind::Quiets {
            d |= attacks::cannon(from, occ) & enemy;
        }
        emit(from, d, list);
    }
    for from in pos.pieces(us, PieceKind::Horse) {
        emit(from, attacks::horse(from, occ_bb) & targets, list);
    }
    for from in pos.pieces(us, PieceKind::Pawn) {
        emit(from, attacks::pawn(us, from) & targets, list);
    }
    for from in pos.pieces(us, PieceKind::Elephant) {
        emit(from, attacks::elephant(from, occ_bb) & targets, list);
    }
    for from in pos.pieces(us, PieceKind::Advisor) {
        emit(from, attacks::advisor(from) & targets, list);
    }
    let ksq = pos.king_square(us);
    for to in attacks::king(ksq) & targets {
        let m = Move::new(ksq, to);
        if !LEGAL || pos.is_legal(m) {
            list.push(m);
        }
    }
}

/// Whether the side to move has at least one legal move. Cheap enough for
/// the search to ask wherever a stalemate could otherwise go unseen: in
/// almost every position a chariot or cannon that shields nothing stands
/// next to an empty point that opens no line onto its king, and stepping
/// there is legal; that is a few shifts, no table lookup. Otherwise the
/// moves are counted until the first one.
#[inline]
pub fn has_legal_move(pos: &Position) -> bool {
    let st = pos.state();
    if st.checkers.is_empty() {
        let us = pos.side_to_move();
        let sliders =
            (pos.pieces(us, PieceKind::Chariot) | pos.pieces(us, PieceKind::Cannon)) & !st.blockers;
        if (orthogonal_steps(sliders) & !pos.occupied() & !st.screen_gaps).is_nonempty() {
            return true;
        }
    }
    has_more_legal_moves_than(pos, 0)
}

/// The points one step along a rank or file from the points of `b`.
#[inline(always)]
fn orthogonal_steps(b: Bitboard) -> Bitboard {
    const NOT_FILE_A: u128 = !Bitboard::file(0).0;
    const NOT_FILE_I: u128 = !Bitboard::file(8).0;
    let x = b.0;
    Bitboard(
        ((x << 9) | (x >> 9) | ((x << 1) & NOT_FILE_A) | ((x >> 1) & NOT_FILE_I)) & Bitboard::ALL.0,
    )
}

/// Whether the side to move has more than `n` legal moves, counted only as
/// far as needed: the most mobile pieces first, and a piece that shields
/// nothing counts its safe destinations in one step.
pub fn has_more_legal_moves_than(pos: &Position, n: usize) -> bool {
    let us = pos.side_to_move();
    let own = pos.pieces_of(us);
    let enemy = pos.pieces_of(!us);
    let occ = pos.occupancy();
    let occ_bb = occ.bitboard();
    let st = pos.state();
    let in_check = st.checkers.is_nonempty();
    let careful = if in_check { own } else { st.blockers & own };
    let gaps = if in_check {
        Bitboard::ALL
    } else {
        st.screen_gaps
    };
    let (rescues, screen) = single_check_rescues(pos);
    let mut found = 0usize;
    // Adds the legal moves of a piece on `from` among `dests` to `found`,
    // stopping once it passes `n`.
    let mut count = |from: Square, dests: Bitboard| -> bool {
        let unsure = if careful.has(from) {
            if screen.has(from) {
                dests
            } else {
                dests & rescues
            }
        } else {
            found += (dests & !gaps).count() as usize;
            if found > n {
                return true;
            }
            dests & gaps
        };
        for to in unsure {
            if pos.is_legal(Move::new(from, to)) {
                found += 1;
                if found > n {
                    return true;
                }
            }
        }
        false
    };
    for from in pos.pieces(us, PieceKind::Chariot) {
        if count(from, attacks::chariot(from, occ) & !own) {
            return true;
        }
    }
    for from in pos.pieces(us, PieceKind::Horse) {
        if count(from, attacks::horse(from, occ_bb) & !own) {
            return true;
        }
    }
    for from in pos.pieces(us, PieceKind::Cannon) {
        let d = (attacks::chariot(from, occ) & !occ_bb) | (attacks::cannon(from, occ) & enemy);
        if count(from, d) {
            return true;
        }
    }
    for from in pos.pieces(us, PieceKind::Pawn) {
        if count(from, attacks::pawn(us, from) & !own) {
            return true;
        }
    }
    for from in pos.pieces(us, PieceKind::Advisor) {
        if count(from, attacks::advisor(from) & !own) {
            return true;
        }
    }
    for from in pos.pieces(us, PieceKind::Elephant) {
        if count(from, attacks::elephant(from, occ_bb) & !own) {
            return true;
        }
    }
    let ksq = pos.king_square(us);
    for to in attacks::king(ksq) & !own {
        if pos.is_legal(Move::new(ksq, to)) {
            found += 1;
            if found > n {
                return true;
            }
        }
    }
    false
}

/// Counts leaf nodes of the legal move tree. At depth 1 the moves are
/// counted from the list without being made ("bulk counting").
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let list = legal_moves(pos);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in &list {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// Perft that makes and unmakes every move, leaves included: measures the
/// full cost of `make_move`/`unmake_move`.
pub fn perft_full(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let list = legal_moves(pos);
    let mut nodes = 0;
    for &m in &list {
        pos.make_move(m);
        nodes += perft_full(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// Per-root-move counts, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let list = legal_moves(pos);
    let mut out = Vec::with_capacity(list.len());
    for &m in &list {
        pos.make_move(m);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.unmake_move();
        out.push((m, n));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::XorShift;

    /// Every move that follows the movement rules, each given the full
    /// legality test: what the generator's shortcuts must agree with.
    fn legal_the_long_way(pos: &Position) -> Vec<Move> {
        let mut list = MoveList::new();
        generate_into::<false>(pos, GenKind::All, &mut list);
        let mut v: Vec<Move> = list.iter().copied().filter(|&m| pos.is_legal(m)).collect();
        v.sort_by_key(|m| m.raw());
        v
    }

    /// Positions in check are many here (more than 500 asserted), with
    /// every kind of checker, so that a wrong rescue point (a horse's
    /// leg, a cannon's screen) shows as a missing move.
    #[test]
    fn shortcuts_agree_with_the_full_test_along_random_games() {
        let fens = [
            crate::position::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
            "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
        ];
        let mut rng = XorShift(0x5eed_cafe);
        let mut checks = 0;
        for fen in fens {
            for _ in 0..60 {
                let mut pos = Position::from_fen(fen).unwrap();
                for _ in 0..120 {
                    let want = legal_the_long_way(&pos);
                    let mut got: Vec<Move> = legal_moves(&pos).iter().copied().collect();
                    got.sort_by_key(|m| m.raw());
                    assert_eq!(got, want, "{}", pos.to_fen());
                    assert_eq!(has_legal_move(&pos), !want.is_empty(), "{}", pos.to_fen());
                    for n in [0, 1, 2, 5] {
                        assert_eq!(
                            has_more_legal_moves_than(&pos, n),
                            want.len() > n,
                            "{n} in {}",
                            pos.to_fen()
                        );
                    }
                    checks += pos.in_check() as usize;
                    if want.is_empty() {
                        break;
                    }
                    pos.make_move(want[rng.below(want.len())]);
                }
            }
        }
        assert!(checks > 500, "only {checks} positions in check");
    }
}
