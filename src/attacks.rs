//! Attack tables for every piece, computed at compile time.
//!
//! Sliding pieces (chariot, cannon, and the king's "flying general" look down
//! its file) use line lookups: a rank's nine occupancy bits are contiguous in
//! the normal layout and a file's ten bits are contiguous in the file-major
//! layout the position keeps beside it, so each line is one shift, one mask
//! and one small table read. The tables total about 40 KB and stay in cache.
//!
//! Horses and elephants are blocked by a piece on the leg or the eye; their
//! tables list, per square, each blocking point with the targets it guards.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// Marks an unused slot in the leg/eye tables.
const NO_SQ: u8 = 0xff;

// ---------------------------------------------------------------------------
// Line tables (ranks: 9 points, files: 10 points)

/// Chariot reach along a line of `n` points from position `p` with occupancy `occ`.
const fn line_slide(n: u32, p: u32, occ: u32) -> u16 {
    let mut out = 0u16;
    let mut i = p + 1;
    while i < n {
        out |= 1 << i;
        if occ >> i & 1 != 0 {
            break;
        }
        i += 1;
    }
    let mut i = p as i32 - 1;
    while i >= 0 {
        out |= 1 << i;
        if occ >> i & 1 != 0 {
            break;
        }
        i -= 1;
    }
    out
}

/// Cannon captures along a line: the first occupied point beyond the first
/// occupied point (the screen), in each direction.
const fn line_cannon(n: u32, p: u32, occ: u32) -> u16 {
    let mut out = 0u16;
    let mut screen = false;
    let mut i = p + 1;
    while i < n {
        if occ >> i & 1 != 0 {
            if screen {
                out |= 1 << i;
                break;
            }
            screen = true;
        }
        i += 1;
    }
    let mut screen = false;
    let mut i = p as i32 - 1;
    while i >= 0 {
        if occ >> i & 1 != 0 {
            if screen {
                out |= 1 << i;
                break;
            }
            screen = true;
        }
        i -= 1;
    }
    out
}

const fn rank_table(cannon: bool) -> [[u16; 512]; 9] {
    let mut t = [[0u16; 512]; 9];
    let mut p = 0;
    while p < 9 {
        let mut occ = 0;
        while occ < 512 {
            t[p][occ] = if cannon {
                line_cannon(9, p as u32, occ as u32)
            } else {
                line_slide(9, p as u32, occ as u32)
            };
            occ += 1;
        }
        p += 1;
    }
    t
}

const fn file_table(cannon: bool) -> [[u16; 1024]; 10] {
    let mut t = [[0u16; 1024]; 10];
    let mut p = 0;
    while p < 10 {
        let mut occ = 0;
        while occ < 1024 {
            t[p][occ] = if cannon {
                line_cannon(10, p as u32, occ as u32)
            } else {
                line_slide(10, p as u32, occ as u32)
            };
            occ += 1;
        }
        p += 1;
    }
    t
}

/// Spreads ten rank bits of one file to their places on file a (bit i → 9i).
const fn file_spread_table() -> [u128; 1024] {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut i = 0;
        while i < 10 {
            if m >> i & 1 != 0 {
                t[m] |= 1u128 << (9 * i);
            }
            i += 1;
        }
        m += 1;
    }
    t
}

static RANK_SLIDE: [[u16; 512]; 9] = rank_table(false);
static RANK_CANNON: [[u16; 512]; 9] = rank_table(true);
static FILE_SLIDE: [[u16; 1024]; 10] = file_table(false);
static FILE_CANNON: [[u16; 1024]; 10] = file_table(true);
static FILE_SPREAD: [u128; 1024] = file_spread_table();

/// Occupancy of both layouts, as the position keeps it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Occupancy {
    /// Normal layout, bit `rank * 9 + file`.
    pub by_rank: u128,
    /// File-major layout, bit `file * 10 + rank`.
    pub by_file: u128,
}

impl Occupancy {
    #[inline(always)]
    pub fn bitboard(self) -> Bitboard {
        Bitboard(self.by_rank)
    }

    /// Flips one point in both layouts.
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.by_rank ^= 1u128 << sq.index();
        self.by_file ^= crate::bitboard::file_major_bit(sq);
    }

    #[inline(always)]
    pub fn toggled(mut self, sq: Square) -> Occupancy {
        self.toggle(sq);
        self
    }

    #[inline(always)]
    fn rank_bits(self, sq: Square) -> usize {
        ((self.by_rank >> (sq.rank() as u32 * 9)) & 0x1ff) as usize
    }

    #[inline(always)]
    fn file_bits(self, sq: Square) -> usize {
        ((self.by_file >> (sq.file() as u32 * 10)) & 0x3ff) as usize
    }
}

#[inline(always)]
fn from_lines(sq: Square, rank_mask: u16, file_mask: u16) -> Bitboard {
    let r = (rank_mask as u128) << (sq.rank() as u32 * 9);
    let f = FILE_SPREAD[file_mask as usize] << sq.file();
    Bitboard(r | f)
}

/// Points a chariot on `sq` reaches (up to and including the first piece).
#[inline(always)]
pub fn chariot(sq: Square, occ: Occupancy) -> Bitboard {
    let rm = RANK_SLIDE[sq.file() as usize][occ.rank_bits(sq)];
    let fm = FILE_SLIDE[sq.rank() as usize][occ.file_bits(sq)];
    from_lines(sq, rm, fm)
}

/// Points a cannon on `sq` could capture on (the piece beyond a screen, of
/// either colour: mask with the enemy before use). Its quiet moves are the
/// empty points of `chariot`.
#[inline(always)]
pub fn cannon(sq: Square, occ: Occupancy) -> Bitboard {
    let rm = RANK_CANNON[sq.file() as usize][occ.rank_bits(sq)];
    let fm = FILE_CANNON[sq.rank() as usize][occ.file_bits(sq)];
    from_lines(sq, rm, fm)
}

/// Points along `sq`'s file a sliding piece reaches (used for flying general).
#[inline(always)]
pub fn file_slide(sq: Square, occ: Occupancy) -> Bitboard {
    let fm = FILE_SLIDE[sq.rank() as usize][occ.file_bits(sq)];
    Bitboard(FILE_SPREAD[fm as usize] << sq.file())
}

/// The points strictly between two squares on one rank or file (empty if
/// they share neither).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let span = (1u128 << hi.index()) - (1u128 << (lo.index() + 1));
    if lo.rank() == hi.rank() {
        Bitboard(span)
    } else if lo.file() == hi.file() {
        Bitboard(span) & Bitboard::file(lo.file())
    } else {
        Bitboard::EMPTY
    }
}

/// Whether two squares share a rank or a file.
#[inline]
pub fn aligned(a: Square, b: Square) -> bool {
    a.rank() == b.rank() || a.file() == b.file()
}

// ---------------------------------------------------------------------------
// Stepping pieces

const fn sq_offset(sq: usize, df: i32, dr: i32) -> Option<usize> {
    let f = (sq % 9) as i32 + df;
    let r = (sq / 9) as i32 + dr;
    if f < 0 || f > 8 || r < 0 || r > 9 {
        None
    } else {
        Some((r * 9 + f) as usize)
    }
}

const fn in_any_palace(sq: usize) -> bool {
    let f = sq % 9;
    let r = sq / 9;
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

const fn same_half(a: usize, b: usize) -> bool {
    (a < 45) == (b < 45)
}

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

const fn king_table() -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        if in_any_palace(sq) {
            let mut d = 0;
            while d < 4 {
                if let Some(to) = sq_offset(sq, ORTHO[d].0, ORTHO[d].1)
                    && in_any_palace(to)
                {
                    t[sq] |= 1u128 << to;
                }
                d += 1;
            }
        }
        sq += 1;
    }
    t
}

const fn advisor_table() -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        if in_any_palace(sq) {
            let mut d = 0;
            while d < 4 {
                if let Some(to) = sq_offset(sq, DIAG[d].0, DIAG[d].1)
                    && in_any_palace(to)
                {
                    t[sq] |= 1u128 << to;
                }
                d += 1;
            }
        }
        sq += 1;
    }
    t
}

/// Per square, up to four (blocking point, targets it guards) pairs.
#[derive(Clone, Copy)]
pub struct Blockable {
    pub block: [u8; 4],
    pub targets: [u128; 4],
}

const EMPTY_BLOCKABLE: Blockable = Blockable {
    block: [NO_SQ; 4],
    targets: [0; 4],
};

/// Elephant: two points diagonally, eye in the middle, never across the river.
const fn elephant_table() -> [Blockable; 90] {
    let mut t = [EMPTY_BLOCKABLE; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAG[d];
            if let Some(to) = sq_offset(sq, 2 * df, 2 * dr)
                && same_half(sq, to)
                && let Some(eye) = sq_offset(sq, df, dr)
            {
                t[sq].block[d] = eye as u8;
                t[sq].targets[d] = 1u128 << to;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Horse moves: leg is the orthogonal neighbour; the two targets beyond it.
const fn horse_table() -> [Blockable; 90] {
    let mut t = [EMPTY_BLOCKABLE; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHO[d];
            if let Some(leg) = sq_offset(sq, df, dr) {
                let mut targets = 0u128;
                // Outward diagonals from the leg: keep the direction, add ±1 across.
                let (a, b) = if df != 0 {
                    ((df, 1), (df, -1))
                } else {
                    ((1, dr), (-1, dr))
                };
                if let Some(to) = sq_offset(leg, a.0, a.1) {
                    targets |= 1u128 << to;
                }
                if let Some(to) = sq_offset(leg, b.0, b.1) {
                    targets |= 1u128 << to;
                }
                if targets != 0 {
                    t[sq].block[d] = leg as u8;
                    t[sq].targets[d] = targets;
                }
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Reverse horse: the horses that attack a square. The leg of such a horse is
/// a diagonal neighbour of the target; the horse stands one step further out,
/// orthogonally, from that leg.
const fn horse_attacker_table() -> [Blockable; 90] {
    let mut t = [EMPTY_BLOCKABLE; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAG[d];
            if let Some(leg) = sq_offset(sq, df, dr) {
                let mut from = 0u128;
                if let Some(h) = sq_offset(leg, df, 0) {
                    from |= 1u128 << h;
                }
                if let Some(h) = sq_offset(leg, 0, dr) {
                    from |= 1u128 << h;
                }
                if from != 0 {
                    t[sq].block[d] = leg as u8;
                    t[sq].targets[d] = from;
                }
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Pawn attacks per colour: forward, and sideways once across the river.
const fn pawn_table() -> [[u128; 90]; 2] {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd = if c == 0 { 1 } else { -1 };
        let mut sq = 0;
        while sq < 90 {
            if let Some(to) = sq_offset(sq, 0, fwd) {
                t[c][sq] |= 1u128 << to;
            }
            let crossed = if c == 0 { sq >= 45 } else { sq < 45 };
            if crossed {
                if let Some(to) = sq_offset(sq, 1, 0) {
                    t[c][sq] |= 1u128 << to;
                }
                if let Some(to) = sq_offset(sq, -1, 0) {
                    t[c][sq] |= 1u128 << to;
                }
            }
            sq += 1;
        }
        c += 1;
    }
    t
}

/// Inverse of `pawn_table`: the squares from which a pawn of colour c attacks sq.
const fn pawn_attacker_table() -> [[u128; 90]; 2] {
    let fwd = pawn_table();
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let mut to = 0;
            while to < 90 {
                if fwd[c][from] >> to & 1 != 0 {
                    t[c][to] |= 1u128 << from;
                }
                to += 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
}

static KING: [u128; 90] = king_table();
static ADVISOR: [u128; 90] = advisor_table();
static ELEPHANT: [Blockable; 90] = elephant_table();
static HORSE: [Blockable; 90] = horse_table();
static HORSE_ATTACKERS: [Blockable; 90] = horse_attacker_table();
static PAWN: [[u128; 90]; 2] = pawn_table();
static PAWN_ATTACKERS: [[u128; 90]; 2] = pawn_attacker_table();

/// King steps inside the palace (not counting the flying general).
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

#[inline(always)]
pub fn advisor(sq: Square) -> Bitboard {
    Bitboard(ADVISOR[sq.index()])
}

#[inline(always)]
fn blockable(t: &Blockable, occ: u128) -> Bitboard {
    let mut out = 0u128;
    for i in 0..4 {
        let b = t.block[i];
        if b != NO_SQ && occ >> b & 1 == 0 {
            out |= t.targets[i];
        }
    }
    Bitboard(out)
}

#[inline(always)]
pub fn elephant(sq: Square, occ: Bitboard) -> Bitboard {
    blockable(&ELEPHANT[sq.index()], occ.0)
}

#[inline(always)]
pub fn horse(sq: Square, occ: Bitboard) -> Bitboard {
    blockable(&HORSE[sq.index()], occ.0)
}

/// Squares from which a horse would attack `sq` given `occ` (legs free).
#[inline(always)]
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    blockable(&HORSE_ATTACKERS[sq.index()], occ.0)
}

/// The horses among `horses` that attack `sq` given `occ`. Only the legs
/// of the slots where a horse stands are looked at, and in most positions
/// no horse stands on any: the attack tests of search and SEE ask this.
#[inline(always)]
pub fn horse_attackers_among(sq: Square, occ: Bitboard, horses: Bitboard) -> Bitboard {
    blockable_among(&HORSE_ATTACKERS[sq.index()], occ.0, horses.0)
}

/// The elephants among `elephants` that attack `sq` given `occ` (the
/// move is its own reverse, eye and all).
#[inline(always)]
pub fn elephant_attackers_among(sq: Square, occ: Bitboard, elephants: Bitboard) -> Bitboard {
    blockable_among(&ELEPHANT[sq.index()], occ.0, elephants.0)
}

/// `blockable` limited to `pieces`: a slot's block point is read only when
/// one of the pieces stands on its targets (an empty slot has none).
#[inline(always)]
fn blockable_among(t: &Blockable, occ: u128, pieces: u128) -> Bitboard {
    let mut out = 0u128;
    for i in 0..4 {
        let hit = t.targets[i] & pieces;
        if hit != 0 && occ >> t.block[i] & 1 == 0 {
            out |= hit;
        }
    }
    Bitboard(out)
}

/// The leg points of horses that could attack `sq`, with the horse squares
/// each leg guards. Used to find horse "pins" (a piece on a leg).
#[inline(always)]
pub fn horse_attacker_legs(sq: Square) -> &'static Blockable {
    &HORSE_ATTACKERS[sq.index()]
}

#[inline(always)]
pub fn elephant_eyes(sq: Square) -> &'static Blockable {
    &ELEPHANT[sq.index()]
}

#[inline(always)]
pub fn horse_legs(sq: Square) -> &'static Blockable {
    &HORSE[sq.index()]
}

#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares from which a `color` pawn attacks `sq`.
#[inline(always)]
pub fn pawn_attackers(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKERS[color.index()][sq.index()])
}

/// Whether `b` is a real square in a `Blockable` slot.
#[inline(always)]
pub fn slot_square(b: u8) -> Option<Square> {
    (b != NO_SQ).then(|| Square::from_index(b as usize))
}

/// Points the rules confine each piece kind to: kings and advisors never
/// leave their palace, elephants never cross the river; the rest go
/// anywhere. A position (a composed problem, say) may put any piece on any
/// point inside its bounds, even one no game can bring it to, and the move
/// tables serve it there. The bounds are also what the king-attack test
/// relies on: no advisor or elephant can ever attack the enemy king.
pub fn confined(color: Color, kind: crate::types::PieceKind) -> Bitboard {
    use crate::types::PieceKind::*;
    match kind {
        King | Advisor => Bitboard::palace(color),
        Elephant => Bitboard::own_half(color),
        _ => Bitboard::ALL,
    }
}

/// Points each piece kind can reach in a game from the start position (a
/// composed problem may place pieces elsewhere inside [`confined`]).
pub fn reachable(color: Color, kind: crate::types::PieceKind) -> Bitboard {
    use crate::types::PieceKind::*;
    let own = Bitboard::own_half(color);
    match kind {
        King => Bitboard::palace(color),
        Advisor => {
            let p = Bitboard::palace(color);
            // Corners and centre of the palace.
            let mut b = Bitboard::EMPTY;
            for sq in p {
                let (f, r) = (sq.file(), sq.rank() % 7);
                if (f + r) % 2 == 1 {
                    b = b.with(sq);
                }
            }
            b
        }
        Elephant => {
            let mut b = Bitboard::EMPTY;
            for sq in own {
                let (f, r) = (sq.file(), sq.rank());
                let rr = if color == Color::Red { r } else { 9 - r };
                if (f % 4 == 2 && rr % 4 == 0) || (f % 4 == 0 && rr == 2) {
                    b = b.with(sq);
                }
            }
            b
        }
        Pawn => {
            let mut b = Bitboard::EMPTY;
            for sq in Square::all() {
                let rr = if color == Color::Red {
                    sq.rank()
                } else {
                    9 - sq.rank()
                };
                if rr >= 5 || ((rr == 3 || rr == 4) && sq.file() % 2 == 0) {
                    b = b.with(sq);
                }
            }
            b
        }
        _ => Bitboard::ALL,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceKind;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn occ_of(squares: &[&str]) -> Occupancy {
        let mut o = Occupancy::default();
        for s in squares {
            o.toggle(sq(s));
        }
        o
    }

    #[test]
    fn chariot_stops_at_first_piece() {
        let o = occ_of(&["e4", "e7", "b4"]);
        let a = chariot(sq("e4"), o);
        assert!(a.has(sq("e7")) && !a.has(sq("e8")));
        assert!(a.has(sq("b4")) && !a.has(sq("a4")));
        assert!(a.has(sq("e0")) && a.has(sq("i4")));
        assert_eq!(a.count(), 3 + 4 + 3 + 4);
    }

    #[test]
    fn cannon_jumps_one_screen() {
        let o = occ_of(&["b2", "b7", "b9", "e2", "h2"]);
        let a = cannon(sq("b2"), o);
        assert!(a.has(sq("b9")));
        assert!(a.has(sq("h2")));
        assert_eq!(a.count(), 2);
    }

    #[test]
    fn horse_and_elephant_respect_blocks() {
        let empty = Bitboard::EMPTY;
        assert_eq!(horse(sq("b0"), empty).count(), 3);
        assert_eq!(horse(sq("e4"), empty).count(), 8);
        let legged = horse(sq("b0"), Bitboard::from_square(sq("b1")));
        assert_eq!(legged, Bitboard::from_square(sq("d1")));
        assert_eq!(elephant(sq("c0"), empty).count(), 2);
        assert_eq!(
            elephant(sq("c4"), empty).count(),
            2,
            "never crosses the river"
        );
        assert_eq!(
            elephant(sq("c0"), Bitboard::from_square(sq("d1"))),
            Bitboard::from_square(sq("a2"))
        );
    }

    #[test]
    fn horse_attackers_invert_horse_moves() {
        for occ_seed in 0..50u64 {
            let mut rng = crate::rng::XorShift(occ_seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            let mut occ = Bitboard::EMPTY;
            for s in Square::all() {
                if rng.next_u64().is_multiple_of(3) {
                    occ = occ.with(s);
                }
            }
            // Pieces to look among: a random third of the points.
            let mut some = Bitboard::EMPTY;
            for s in Square::all() {
                if rng.next_u64().is_multiple_of(3) {
                    some = some.with(s);
                }
            }
            for t in Square::all() {
                let from_rev = horse_attackers(t, occ);
                for h in Square::all() {
                    assert_eq!(from_rev.has(h), horse(h, occ).has(t), "{h}->{t}");
                }
                assert_eq!(horse_attackers_among(t, occ, some), from_rev & some);
                assert_eq!(
                    elephant_attackers_among(t, occ, some),
                    elephant(t, occ) & some
                );
            }
        }
    }

    #[test]
    fn pawn_attackers_invert_pawn_moves() {
        for c in Color::BOTH {
            for t in Square::all() {
                for f in Square::all() {
                    assert_eq!(pawn_attackers(c, t).has(f), pawn(c, f).has(t));
                }
            }
        }
        assert_eq!(pawn(Color::Red, sq("c3")).count(), 1);
        assert_eq!(pawn(Color::Red, sq("c5")).count(), 3);
        assert_eq!(pawn(Color::Black, sq("c4")).count(), 3);
        assert_eq!(pawn(Color::Red, sq("a9")).count(), 1);
    }

    #[test]
    fn palace_pieces() {
        assert_eq!(king(sq("e1")).count(), 4);
        assert_eq!(king(sq("d0")).count(), 2);
        assert_eq!(advisor(sq("e8")).count(), 4);
        assert_eq!(advisor(sq("d9")).count(), 1);
        assert_eq!(reachable(Color::Red, PieceKind::Advisor).count(), 5);
        assert_eq!(reachable(Color::Black, PieceKind::Elephant).count(), 7);
        assert_eq!(reachable(Color::Red, PieceKind::Pawn).count(), 45 + 10);
        assert!(reachable(Color::Black, PieceKind::Elephant).has(sq("e7")));
        assert!(reachable(Color::Red, PieceKind::Elephant).has(sq("a2")));
        assert_eq!(confined(Color::Red, PieceKind::Advisor).count(), 9);
        assert_eq!(confined(Color::Black, PieceKind::Elephant).count(), 45);
        assert_eq!(confined(Color::Black, PieceKind::Pawn).count(), 90);
        for kind in PieceKind::ALL {
            for c in Color::BOTH {
                let (r, b) = (reachable(c, kind), confined(c, kind));
                assert_eq!(
                    r & b,
                    r,
                    "{kind:?}: every reachable point is inside the bounds"
                );
            }
        }
    }

    #[test]
    fn between_is_exclusive() {
        assert_eq!(between(sq("e0"), sq("e9")).count(), 8);
        assert_eq!(between(sq("a3"), sq("i3")).count(), 7);
        assert_eq!(between(sq("a3"), sq("b4")).count(), 0);
        assert_eq!(between(sq("e0"), sq("e1")).count(), 0);
    }
}
