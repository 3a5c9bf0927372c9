//! The board: piece placement, side to move, Zobrist key, and the state stack
//! that lets `make_move`/`unmake_move` run without allocating.
//!
//! Besides placement, every state records what legality testing needs:
//! the pieces checking the side to move, the pieces whose removal would expose
//! its king (`blockers`: chariot/king lines with one piece between, cannon
//! lines with two, horse legs), and the empty points between its king and an
//! enemy cannon with nothing between them (`screen_gaps`: a piece landing
//! there becomes a screen and gives check). A move that touches neither set
//! cannot expose the king, so most moves skip the full attack test.

use crate::attacks::{self, Occupancy};
use crate::bitboard::Bitboard;
use crate::types::*;
use crate::zobrist;
use std::fmt;

pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Everything `unmake_move` needs to restore, plus per-state legality data.
#[derive(Clone, Copy, Debug)]
pub struct StateInfo {
    pub key: u64,
    /// Key of the pawns alone (the correction history's pawn-structure index).
    pub pawn_key: u64,
    /// Key of how many pieces of each kind each side has (the correction
    /// history's material index).
    pub material_key: u64,
    /// Per colour, the key of that side's pieces other than pawns (king
    /// included): the correction history's finest index, one that changes
    /// with every move of that side's officers.
    pub nonpawn_keys: [u64; 2],
    /// The move that produced this state (`Move::NONE` at the root).
    pub last_move: Move,
    /// The piece that move captured, if any.
    pub captured: Piece,
    /// Plies since the last capture (the FEN's fifth field at the root).
    pub rule60: u16,
    /// Plies since the last null move (or since the root): repetition scans stop there.
    pub plies_from_null: u16,
    pub checkers: Bitboard,
    pub blockers: Bitboard,
    pub screen_gaps: Bitboard,
}

/// What stands on the lines into one king: see `Position::king_lines`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingLines {
    /// Enemy pieces giving check.
    pub checkers: Bitboard,
    /// Pieces (of either colour) whose removal would expose the king.
    pub blockers: Bitboard,
    /// Empty points where any piece would become a checking cannon's screen.
    pub screen_gaps: Bitboard,
}

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    RankCount(usize),
    RankWidth {
        rank: u8,
        width: u32,
    },
    UnknownLetter(char),
    TooMany {
        color: Color,
        kind: PieceKind,
    },
    MissingKing(Color),
    /// A king or advisor outside its palace, an elephant across the river.
    OutOfBounds {
        color: Color,
        kind: PieceKind,
        square: Square,
    },
    KingsFacing,
    SideNotToMoveInCheck,
    MissingSide,
    BadSide(String),
    BadNumber(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount(n) => write!(f, "FEN board has {n} ranks, expected 10"),
            FenError::RankWidth { rank, width } => write!(
                f,
                "FEN rank {rank} (counted from the top) covers {width} files, expected 9"
            ),
            FenError::UnknownLetter(c) => write!(f, "unknown piece letter '{c}' in FEN"),
            FenError::TooMany { color, kind } => write!(
                f,
                "{} has more than {} {}{} in FEN",
                color.name(),
                kind.max_count(),
                kind.name(),
                if kind.max_count() > 1 { "s" } else { "" }
            ),
            FenError::MissingKing(c) => write!(f, "{} king missing in FEN", c.name()),
            FenError::OutOfBounds {
                color,
                kind,
                square,
            } => {
                let rule = match kind {
                    PieceKind::Elephant => "across the river, which elephants never cross",
                    _ => "outside its palace, which it never leaves",
                };
                write!(f, "{} {} on {square}, {rule}", color.name(), kind.name())
            }
            FenError::KingsFacing => write!(f, "the kings face each other on an open file"),
            FenError::SideNotToMoveInCheck => write!(f, "the side not to move is in check"),
            FenError::MissingSide => write!(f, "FEN has no side-to-move field"),
            FenError::BadSide(s) => write!(f, "side to move '{s}' is not w, r or b"),
            FenError::BadNumber(s) => write!(f, "'{s}' is not a valid move counter in FEN"),
        }
    }
}

impl std::error::Error for FenError {}

#[derive(Clone)]
pub struct Position {
    board: [Piece; 90],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
    occ: Occupancy,
    side: Color,
    kings: [Square; 2],
    /// Full-move number and side to move of the root (FEN field 6 and 2).
    root_fullmove: u32,
    root_side: Color,
    /// `states[0]` is the root; the last one is current.
    states: Vec<StateInfo>,
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("start FEN is valid")
    }

    // -----------------------------------------------------------------------
    // Accessors

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// Every point's piece (`Piece::NONE` where empty), by point index.
    #[inline(always)]
    pub fn board(&self) -> &[Piece; 90] {
        &self.board
    }

    #[inline(always)]
    pub fn occupancy(&self) -> Occupancy {
        self.occ
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.occ.bitboard()
    }

    #[inline(always)]
    pub fn pieces_of(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    #[inline(always)]
    pub fn pieces_kind(&self, k: PieceKind) -> Bitboard {
        self.by_kind[k.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceKind) -> Bitboard {
        self.by_color[c.index()] & self.by_kind[k.index()]
    }

    /// A piece on a point no game from the start position can bring it to
    /// (a composed problem's pawn on its own back rank, say), if any: such
    /// a position is playable, and a host may want to hear that it is
    /// unusual.
    pub fn unreachable_piece(&self) -> Option<(Piece, Square)> {
        Color::BOTH.into_iter().find_map(|c| {
            PieceKind::ALL.into_iter().find_map(|k| {
                let odd = self.pieces(c, k) & !attacks::reachable(c, k);
                odd.is_nonempty().then(|| {
                    let sq = odd.lsb();
                    (self.piece_on(sq), sq)
                })
            })
        })
    }

    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        self.kings[c.index()]
    }

    #[inline(always)]
    pub fn state(&self) -> &StateInfo {
        // The stack is never empty: the root state is pushed at creation.
        self.states.last().expect("state stack is never empty")
    }

    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.state().key
    }

    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.state().pawn_key
    }

    #[inline(always)]
    pub fn material_key(&self) -> u64 {
        self.state().material_key
    }

    /// The key of `c`'s pieces other than pawns.
    #[inline(always)]
    pub fn nonpawn_key(&self, c: Color) -> u64 {
        self.state().nonpawn_keys[c.index()]
    }

    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.state().checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.state().checkers.is_nonempty()
    }

    #[inline(always)]
    pub fn blockers(&self) -> Bitboard {
        self.state().blockers
    }

    #[inline(always)]
    pub fn screen_gaps(&self) -> Bitboard {
        self.state().screen_gaps
    }

    /// Plies since the last capture, counting the FEN's counter at the root.
    #[inline(always)]
    pub fn rule60(&self) -> u32 {
        self.state().rule60 as u32
    }

    /// Plies made since the root position.
    #[inline(always)]
    pub fn ply_from_root(&self) -> usize {
        self.states.len() - 1
    }

    /// The states from the root to the current one (inclusive).
    #[inline(always)]
    pub fn states(&self) -> &[StateInfo] {
        &self.states
    }

    pub fn last_move(&self) -> Move {
        self.state().last_move
    }

    /// The moves made since the root, in order.
    pub fn moves_from_root(&self) -> impl Iterator<Item = Move> + '_ {
        self.states[1..].iter().map(|s| s.last_move)
    }

    /// The move number (FEN field 6) of the current position.
    pub fn fullmove_number(&self) -> u32 {
        let black_began = self.root_side == Color::Black;
        self.root_fullmove + (self.ply_from_root() as u32 + black_began as u32) / 2
    }

    // -----------------------------------------------------------------------
    // FEN

    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let board_text = fields.next().ok_or(FenError::Empty)?;
        let ranks: Vec<&str> = board_text.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut pos = Position {
            board: [Piece::NONE; 90],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 7],
            occ: Occupancy::default(),
            side: Color::Red,
            kings: [Square::from_index(0); 2],
            root_fullmove: 1,
            root_side: Color::Red,
            states: Vec::with_capacity(512),
        };
        let mut counts = [[0u32; 7]; 2];
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file: u32 = 0;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::UnknownLetter(c));
                    }
                    file += d;
                } else {
                    let p = Piece::from_letter(c).ok_or(FenError::UnknownLetter(c))?;
                    if file < 9 {
                        let n = &mut counts[p.color().index()][p.kind().index()];
                        *n += 1;
                        if *n > p.kind().max_count() {
                            return Err(FenError::TooMany {
                                color: p.color(),
                                kind: p.kind(),
                            });
                        }
                        pos.put(p, Square::new(file as u8, rank));
                    }
                    file += 1;
                }
                if file > 9 {
                    break;
                }
            }
            if file != 9 {
                return Err(FenError::RankWidth {
                    rank: i as u8 + 1,
                    width: file,
                });
            }
        }
        for c in Color::BOTH {
            if counts[c.index()][PieceKind::King.index()] == 0 {
                return Err(FenError::MissingKing(c));
            }
            for k in PieceKind::ALL {
                let outside = pos.pieces(c, k) & !attacks::confined(c, k);
                if outside.is_nonempty() {
                    return Err(FenError::OutOfBounds {
                        color: c,
                        kind: k,
                        square: outside.lsb(),
                    });
                }
            }
        }
        pos.side = match fields.next() {
            None => return Err(FenError::MissingSide),
            Some("w" | "r" | "W" | "R") => Color::Red,
            Some("b" | "B") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.chars().take(16).collect())),
        };
        // Fields 3 and 4 are placeholders ("- -") in xiangqi FEN.
        let _ = fields.next();
        let _ = fields.next();
        let parse_num = |s: Option<&str>, default: u32| -> Result<u32, FenError> {
            match s {
                None => Ok(default),
                Some(t) => t
                    .parse::<u32>()
                    .map_err(|_| FenError::BadNumber(t.chars().take(16).collect())),
            }
        };
        pos.root_side = pos.side;
        let rule60 = parse_num(fields.next(), 0)?.min(1000) as u16;
        pos.root_fullmove = parse_num(fields.next(), 1)?.clamp(1, 100_000);

        let (rk, bk) = (pos.kings[0], pos.kings[1]);
        if rk.file() == bk.file() && (attacks::between(rk, bk) & pos.occupied()).is_empty() {
            return Err(FenError::KingsFacing);
        }
        let them = !pos.side;
        if pos
            .attackers_of(pos.kings[them.index()], pos.side, pos.occ)
            .is_nonempty()
        {
            return Err(FenError::SideNotToMoveInCheck);
        }
        let mut st = StateInfo {
            key: pos.compute_key(),
            pawn_key: pos.compute_pawn_key(),
            material_key: pos.compute_material_key(),
            nonpawn_keys: Color::BOTH.map(|c| pos.compute_nonpawn_key(c)),
            last_move: Move::NONE,
            captured: Piece::NONE,
            rule60,
            plies_from_null: 0,
            checkers: Bitboard::EMPTY,
            blockers: Bitboard::EMPTY,
            screen_gaps: Bitboard::EMPTY,
        };
        pos.compute_check_info(&mut st);
        pos.states.push(st);
        Ok(pos)
    }

    pub fn to_fen(&self) -> String {
        let s = placement_fen(&self.board);
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        format!(
            "{s} {side} - - {} {}",
            self.rule60(),
            self.fullmove_number()
        )
    }

    /// The key recomputed from the placement (for tests and debugging).
    pub fn compute_key(&self) -> u64 {
        let mut key = self.placement_key(self.occupied());
        if self.side == Color::Black {
            key ^= zobrist::side();
        }
        key
    }

    /// The Zobrist key of the pieces on `squares`, from the placement.
    fn placement_key(&self, squares: Bitboard) -> u64 {
        squares.into_iter().fold(0, |key, sq| {
            key ^ zobrist::piece_square(self.board[sq.index()], sq)
        })
    }

    /// The pawn key recomputed from the placement.
    pub fn compute_pawn_key(&self) -> u64 {
        self.placement_key(self.pieces_kind(PieceKind::Pawn))
    }

    /// `c`'s non-pawn key recomputed from the placement.
    pub fn compute_nonpawn_key(&self, c: Color) -> u64 {
        self.placement_key(self.pieces_of(c) & !self.pieces_kind(PieceKind::Pawn))
    }

    /// The material key recomputed from the placement.
    pub fn compute_material_key(&self) -> u64 {
        let mut key = 0;
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                for nth in 0..self.pieces(c, k).count() as usize {
                    key ^= zobrist::material(p, nth);
                }
            }
        }
        key
    }

    /// The same position reflected left-right (history is not carried over).
    pub fn mirrored(&self) -> Position {
        let fen = self.to_fen();
        let (board, tail) = fen.split_once(' ').unwrap_or((&fen, "w"));
        // Reversing each rank's text reflects it: digits stay run lengths.
        let ranks: Vec<String> = board
            .split('/')
            .map(|r| r.chars().rev().collect())
            .collect();
        Position::from_fen(&format!("{} {tail}", ranks.join("/")))
            .expect("the mirror of a legal position is legal")
    }

    /// The same position seen from the other side: the board turned round,
    /// every piece changing colour, the other side to move (history is not
    /// carried over). Evaluation and rules must treat it exactly alike.
    pub fn colour_swapped(&self) -> Position {
        let fen = self.to_fen();
        let mut fields: Vec<&str> = fen.split(' ').collect();
        // Turning the board round reverses the text of the whole board.
        let board: String = fields[0]
            .chars()
            .rev()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        fields[0] = &board;
        fields[1] = if self.side == Color::Red { "b" } else { "w" };
        Position::from_fen(&fields.join(" ")).expect("the colour swap of a legal position is legal")
    }

    // -----------------------------------------------------------------------
    // Board edits

    #[inline(always)]
    fn put(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = p;
        let b = Bitboard::from_square(sq);
        self.by_color[p.color().index()] |= b;
        self.by_kind[p.kind().index()] |= b;
        self.occ.toggle(sq);
        if p.kind() == PieceKind::King {
            self.kings[p.color().index()] = sq;
        }
    }

    #[inline(always)]
    fn remove(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = Piece::NONE;
        let b = Bitboard::from_square(sq);
        self.by_color[p.color().index()] ^= b;
        self.by_kind[p.kind().index()] ^= b;
        self.occ.toggle(sq);
    }

    /// Moves `p` from `from` to the empty point `to`.
    #[inline(always)]
    fn shift(&mut self, p: Piece, from: Square, to: Square) {
        self.board[from.index()] = Piece::NONE;
        self.board[to.index()] = p;
        let b = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_color[p.color().index()] ^= b;
        self.by_kind[p.kind().index()] ^= b;
        self.occ.toggle(from);
        self.occ.toggle(to);
        if p.kind() == PieceKind::King {
            self.kings[p.color().index()] = to;
        }
    }

    // -----------------------------------------------------------------------
    // Make / unmake

    /// Plays a legal move. The caller guarantees legality (the move came from
    /// the generator or passed `is_legal`).
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let pc = self.board[from.index()];
        let captured = self.board[to.index()];
        debug_assert!(pc.is_some() && pc.color() == self.side);
        let prev = *self.state();
        let mut key = prev.key ^ zobrist::side();
        let mut pawn_key = prev.pawn_key;
        let mut material_key = prev.material_key;
        let mut nonpawn_keys = prev.nonpawn_keys;
        // A piece's key toggles the pawn key or its side's non-pawn key.
        let mut toggle_structure = |p: Piece, k: u64| {
            if p.kind() == PieceKind::Pawn {
                pawn_key ^= k;
            } else {
                nonpawn_keys[p.color().index()] ^= k;
            }
        };
        if captured.is_some() {
            self.remove(captured, to);
            let sq_key = zobrist::piece_square(captured, to);
            key ^= sq_key;
            toggle_structure(captured, sq_key);
            let left = self.pieces(captured.color(), captured.kind()).count() as usize;
            material_key ^= zobrist::material(captured, left);
        }
        self.shift(pc, from, to);
        let move_key = zobrist::piece_square(pc, from) ^ zobrist::piece_square(pc, to);
        key ^= move_key;
        toggle_structure(pc, move_key);
        self.side = !self.side;
        let mut st = StateInfo {
            key,
            pawn_key,
            material_key,
            nonpawn_keys,
            last_move: m,
            captured,
            rule60: if captured.is_some() {
                0
            } else {
                prev.rule60.saturating_add(1)
            },
            plies_from_null: prev.plies_from_null.saturating_add(1),
            checkers: Bitboard::EMPTY,
            blockers: Bitboard::EMPTY,
            screen_gaps: Bitboard::EMPTY,
        };
        self.compute_check_info(&mut st);
        self.states.push(st);
    }

    /// Takes back the last move made with `make_move`.
    pub fn unmake_move(&mut self) {
        debug_assert!(self.states.len() > 1);
        let st = self.states.pop().expect("unmake without a move");
        let m = st.last_move;
        self.side = !self.side;
        let (from, to) = (m.from(), m.to());
        let pc = self.board[to.index()];
        self.shift(pc, to, from);
        if st.captured.is_some() {
            self.put(st.captured, to);
        }
    }

    /// Passes the move (for null-move pruning). Not allowed in check.
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.in_check());
        let prev = *self.state();
        self.side = !self.side;
        let mut st = StateInfo {
            key: prev.key ^ zobrist::side(),
            pawn_key: prev.pawn_key,
            material_key: prev.material_key,
            nonpawn_keys: prev.nonpawn_keys,
            last_move: Move::NULL,
            captured: Piece::NONE,
            rule60: prev.rule60.saturating_add(1),
            plies_from_null: 0,
            checkers: Bitboard::EMPTY,
            blockers: Bitboard::EMPTY,
            screen_gaps: Bitboard::EMPTY,
        };
        self.compute_check_info(&mut st);
        self.states.push(st);
    }

    pub fn unmake_null_move(&mut self) {
        debug_assert!(self.state().last_move == Move::NULL);
        self.states.pop();
        self.side = !self.side;
    }

    /// Forgets the history before the current state, keeping it as the new
    /// root (used by long-running tests; the protocol keeps full history).
    pub fn clear_history(&mut self) {
        let st = *self.state();
        let fullmove = self.fullmove_number();
        self.states.clear();
        self.states.push(st);
        self.root_fullmove = fullmove;
        self.root_side = self.side;
    }

    // -----------------------------------------------------------------------
    // Attacks and legality

    /// Pieces of `by` that attack `sq` given occupancy `occ` (excluding the
    /// flying-general look: use `king_sees` for that).
    #[inline(always)]
    pub fn attackers_of(&self, sq: Square, by: Color, occ: Occupancy) -> Bitboard {
        self.attackers_masked(sq, by, occ, Bitboard::ALL)
    }

    /// Like `attackers_of`, with `by`'s pieces limited to `mask` (used to drop
    /// a piece about to be captured).
    #[inline(always)]
    fn attackers_masked(&self, sq: Square, by: Color, occ: Occupancy, mask: Bitboard) -> Bitboard {
        let them = self.by_color[by.index()] & mask;
        let k = &self.by_kind;
        let occ_bb = occ.bitboard();
        (attacks::chariot(sq, occ) & k[PieceKind::Chariot.index()]
            | attacks::cannon(sq, occ) & k[PieceKind::Cannon.index()]
            | attacks::horse_attackers_among(sq, occ_bb, k[PieceKind::Horse.index()] & them)
            | attacks::pawn_attackers(by, sq) & k[PieceKind::Pawn.index()]
            | attacks::advisor(sq) & k[PieceKind::Advisor.index()]
            | attacks::elephant_attackers_among(sq, occ_bb, k[PieceKind::Elephant.index()] & them)
            | attacks::king(sq) & k[PieceKind::King.index()])
            & them
    }

    /// Whether `by`'s pieces (limited to `mask`) attack the king square `ksq`,
    /// counting the flying general. Only attackers that can reach a palace
    /// point are tested.
    #[inline(always)]
    fn king_attacked(&self, ksq: Square, by: Color, occ: Occupancy, mask: Bitboard) -> bool {
        let them = self.by_color[by.index()] & mask;
        let k = &self.by_kind;
        let occ_bb = occ.bitboard();
        let sliders = k[PieceKind::Chariot.index()] | k[PieceKind::King.index()];
        (attacks::chariot(ksq, occ) & sliders & them).is_nonempty()
            || (attacks::cannon(ksq, occ) & k[PieceKind::Cannon.index()] & them).is_nonempty()
            || attacks::horse_attackers_among(ksq, occ_bb, k[PieceKind::Horse.index()] & them)
                .is_nonempty()
            || (attacks::pawn_attackers(by, ksq) & k[PieceKind::Pawn.index()] & them).is_nonempty()
    }

    /// Fills checkers, blockers and screen gaps for the side to move.
    fn compute_check_info(&self, st: &mut StateInfo) {
        let lines = self.king_lines(self.side);
        st.checkers = lines.checkers;
        st.blockers = lines.blockers;
        st.screen_gaps = lines.screen_gaps;
    }

    /// Checkers, blockers and screen gaps around `us`'s king, whichever side
    /// is to move (the evaluation asks about both kings).
    ///
    /// What an enemy chariot, cannon or king on the king's rank or file
    /// does depends only on how many pieces stand between: a chariot with
    /// none checks, with one pins it (so does the other king, the flying
    /// general); a cannon with none leaves gaps a piece could fill as its
    /// screen, with one checks, with two pins both. Rarely more than three
    /// such pieces are on the king's lines, so counting the pieces between
    /// each is cheaper than walking the lines outward from the king.
    pub fn king_lines(&self, us: Color) -> KingLines {
        let them = !us;
        let ksq = self.kings[us.index()];
        let occ_bb = self.occ.bitboard();
        let enemy = self.by_color[them.index()];
        let k = &self.by_kind;
        let on_lines = (Bitboard::rank(ksq.rank()) | Bitboard::file(ksq.file())) & enemy;
        let chariots = k[PieceKind::Chariot.index()] & on_lines;
        let cannons = k[PieceKind::Cannon.index()] & on_lines;

        let mut checkers = Bitboard::EMPTY;
        let mut blockers = Bitboard::EMPTY;
        let mut gaps = Bitboard::EMPTY;
        for s in chariots | k[PieceKind::King.index()] & on_lines {
            let between = attacks::between(ksq, s) & occ_bb;
            if between.is_empty() {
                // The other king facing ours is no check: the position
                // could not arise.
                checkers |= chariots & Bitboard::from_square(s);
            } else if !between.more_than_one() {
                blockers |= between;
            }
        }
        for s in cannons {
            let line = attacks::between(ksq, s);
            let between = line & occ_bb;
            match between.count() {
                0 => gaps |= line,
                1 => checkers = checkers.with(s),
                2 => blockers |= between,
                _ => {}
            }
        }

        let horse_sources =
            attacks::horse_attackers(ksq, Bitboard::EMPTY) & k[PieceKind::Horse.index()] & enemy;
        if horse_sources.is_nonempty() {
            checkers |= attacks::horse_attackers_among(ksq, occ_bb, horse_sources);
            let legs = attacks::horse_attacker_legs(ksq);
            for i in 0..4 {
                if let Some(leg) = attacks::slot_square(legs.block[i])
                    && occ_bb.has(leg)
                    && (Bitboard(legs.targets[i]) & horse_sources).is_nonempty()
                {
                    blockers = blockers.with(leg);
                }
            }
        }
        checkers |= attacks::pawn_attackers(them, ksq) & k[PieceKind::Pawn.index()] & enemy;
        KingLines {
            checkers,
            blockers,
            screen_gaps: gaps,
        }
    }

    /// Whether our king would be attacked after the pseudo-legal move `m`.
    #[inline]
    fn exposes_king(&self, m: Move) -> bool {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let mut occ = self.occ;
        occ.toggle(from);
        if self.board[to.index()].is_none() {
            occ.toggle(to);
        }
        let ksq = if from == self.kings[us.index()] {
            to
        } else {
            self.kings[us.index()]
        };
        self.king_attacked(ksq, !us, occ, !Bitboard::from_square(to))
    }

    /// Legality of a pseudo-legal move (one the piece can make by its
    /// movement rules): it must not leave our king attacked or facing the
    /// enemy king.
    #[inline(always)]
    pub fn is_legal(&self, m: Move) -> bool {
        let st = self.state();
        let from = m.from();
        if st.checkers.is_nonempty()
            || from == self.kings[self.side.index()]
            || st.blockers.has(from)
            || st.screen_gaps.has(m.to())
        {
            !self.exposes_king(m)
        } else {
            true
        }
    }

    /// Whether `m` follows its piece's movement rules in this position
    /// (used to validate moves from the hash table, the book or a host).
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        if !m.is_some() {
            return false;
        }
        let (from, to) = (m.from(), m.to());
        let pc = self.board[from.index()];
        if pc.is_none() || pc.color() != self.side {
            return false;
        }
        let target = self.board[to.index()];
        if target.is_some() && target.color() == self.side {
            return false;
        }
        self.piece_moves(pc, from).has(to)
    }

    /// The points a piece on `from` may move to by its movement rules
    /// (ignoring king safety), excluding points held by its own side.
    pub fn piece_moves(&self, pc: Piece, from: Square) -> Bitboard {
        let own = self.by_color[pc.color().index()];
        let occ_bb = self.occupied();
        let t = match pc.kind() {
            PieceKind::King => attacks::king(from),
            PieceKind::Advisor => attacks::advisor(from),
            PieceKind::Elephant => attacks::elephant(from, occ_bb),
            PieceKind::Horse => attacks::horse(from, occ_bb),
            PieceKind::Chariot => attacks::chariot(from, self.occ),
            PieceKind::Cannon => {
                (attacks::chariot(from, self.occ) & !occ_bb)
                    | (attacks::cannon(from, self.occ) & self.by_color[(!pc.color()).index()])
            }
            PieceKind::Pawn => attacks::pawn(pc.color(), from),
        };
        t & !own
    }

    /// The points the piece on `from` attacks (could capture on if an enemy
    /// stood there), given the current occupancy.
    pub fn piece_attacks(&self, pc: Piece, from: Square) -> Bitboard {
        let occ_bb = self.occupied();
        match pc.kind() {
            PieceKind::King => attacks::king(from),
            PieceKind::Advisor => attacks::advisor(from),
            PieceKind::Elephant => attacks::elephant(from, occ_bb),
            PieceKind::Horse => attacks::horse(from, occ_bb),
            PieceKind::Chariot => attacks::chariot(from, self.occ),
            PieceKind::Cannon => attacks::cannon(from, self.occ),
            PieceKind::Pawn => attacks::pawn(pc.color(), from),
        }
    }

    /// Whether the legal move `m` checks the opponent.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let ksq = self.kings[(!self.side).index()];
        let on_king_lines = |s: Square| s.rank() == ksq.rank() || s.file() == ksq.file();
        // Most moves start and end off the enemy king's rank and file and
        // leave no leg of a horse that could reach him: they open and close
        // no line and free no horse, so only the moved piece itself can
        // check, and only a horse or a pawn can from off those lines.
        if !on_king_lines(from)
            && !on_king_lines(to)
            && !attacks::horse_attacker_legs(ksq)
                .block
                .contains(&(from.index() as u8))
        {
            return match self.board[from.index()].kind() {
                PieceKind::Horse => attacks::horse_attackers(ksq, self.occ.bitboard()).has(to),
                PieceKind::Pawn => attacks::pawn_attackers(self.side, ksq).has(to),
                _ => false,
            };
        }
        self.gives_check_by_lines(m)
    }

    /// `gives_check` the long way: every attack on the enemy king on the
    /// board after the move. A chariot of ours on his rank or file checks
    /// with nothing between, a cannon with one piece (as in `king_lines`).
    fn gives_check_by_lines(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let moved = self.board[from.index()].kind();
        let us = self.side;
        let ksq = self.kings[(!us).index()];
        let occ = self.occ.bitboard().without(from).with(to);
        // Our pieces of a kind after the move: `from` vacated, `to` holds
        // the moved piece (an enemy piece taken there was never ours).
        let ours = |k: PieceKind| {
            let b = (self.by_kind[k.index()] & self.by_color[us.index()]).without(from);
            if moved == k { b.with(to) } else { b }
        };
        let lines = Bitboard::rank(ksq.rank()) | Bitboard::file(ksq.file());
        for s in ours(PieceKind::Chariot) & lines {
            if (attacks::between(ksq, s) & occ).is_empty() {
                return true;
            }
        }
        for s in ours(PieceKind::Cannon) & lines {
            if (attacks::between(ksq, s) & occ).count() == 1 {
                return true;
            }
        }
        attacks::horse_attackers_among(ksq, occ, ours(PieceKind::Horse)).is_nonempty()
            || (attacks::pawn_attackers(us, ksq) & ours(PieceKind::Pawn)).is_nonempty()
    }

    /// Whether the side to move has a piece that can attack from afar
    /// (chariot, horse or cannon): null-move pruning is unsafe without one.
    pub fn has_major_pieces(&self, c: Color) -> bool {
        let k = &self.by_kind;
        ((k[PieceKind::Chariot.index()]
            | k[PieceKind::Horse.index()]
            | k[PieceKind::Cannon.index()])
            & self.by_color[c.index()])
        .is_nonempty()
    }

    // -----------------------------------------------------------------------
    // Static exchange evaluation

    /// Whether the exchange sequence started by `m` on its target point wins
    /// at least `threshold` (in `see_value` units), both sides recapturing
    /// with their least valuable attacker. Attackers are recomputed after each
    /// capture because removing a piece can open a chariot line, give a
    /// cannon a screen, take a cannon's screen away, or free a horse's leg.
    pub fn see_ge(&self, m: Move, threshold: Score) -> bool {
        let (from, to) = (m.from(), m.to());
        let mut swap = see_value(self.board[to.index()]) - threshold;
        if swap < 0 {
            return false;
        }
        swap = see_value(self.board[from.index()]) - swap;
        if swap <= 0 {
            return true;
        }
        let mut occ = self.occ;
        occ.toggle(from);
        if self.board[to.index()].is_none() {
            occ.toggle(to);
        }
        let mut stm = self.side;
        let mut res = true;
        // The square's current occupant (after each capture) is excluded.
        loop {
            stm = !stm;
            let present = occ.bitboard() & !Bitboard::from_square(to);
            let stm_att = self.attackers_of(to, stm, occ) & present;
            if stm_att.is_empty() {
                break;
            }
            res = !res;
            let mut chosen = None;
            for k in SEE_ORDER {
                let b = stm_att & self.by_kind[k.index()];
                if b.is_nonempty() {
                    chosen = Some((k, b.lsb()));
                    break;
                }
            }
            let (kind, sq) = chosen.expect("attacker set is non-empty");
            if kind == PieceKind::King {
                // The king may only capture if nothing can recapture.
                let other = self.attackers_of(to, !stm, occ.toggled(sq)) & present;
                return if other.is_nonempty() { !res } else { res };
            }
            swap = see_value(Piece::new(stm, kind)) - swap;
            if swap < res as Score {
                break;
            }
            occ.toggle(sq);
        }
        res
    }
}

const SEE_ORDER: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Chariot,
    PieceKind::King,
];

/// The piece-placement field of FEN for `board` (indexed by
/// `Square::index`): ranks 9 to 0, `/` between them, digits for runs of
/// empty points.
pub fn placement_fen(board: &[Piece; 90]) -> String {
    let mut s = String::with_capacity(96);
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            let p = board[Square::new(file, rank).index()];
            if p.is_none() {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push(char::from(b'0' + empty));
                    empty = 0;
                }
                s.push(p.letter());
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// Exchange values for SEE and capture ordering (not evaluation weights: the
/// evaluation's own values live in `eval.rs`).
#[inline(always)]
pub fn see_value(p: Piece) -> Score {
    if p.is_none() {
        return 0;
    }
    match p.kind() {
        PieceKind::King => 10_000,
        PieceKind::Advisor => 200,
        PieceKind::Elephant => 200,
        PieceKind::Horse => 450,
        PieceKind::Chariot => 1000,
        PieceKind::Cannon => 450,
        PieceKind::Pawn => 100,
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for rank in (0..10).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9 {
                let p = self.board[Square::new(file, rank).index()];
                write!(f, " {}", if p.is_none() { '.' } else { p.letter() })?;
            }
            writeln!(f)?;
            if rank == 5 {
                writeln!(f, "   ~~~~~~~~~~~~~~~~~")?;
            }
        }
        writeln!(f, "   a b c d e f g h i")?;
        writeln!(f, "FEN: {}", self.to_fen())?;
        write!(f, "Key: {:016x}", self.key())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
