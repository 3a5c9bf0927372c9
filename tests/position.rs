//! Position invariants: make/unmake, incremental keys, FEN round trips and
//! rejections, and random playouts checked against a slow reference
//! legality test.

use chuhe::bitboard::Bitboard;
use chuhe::movegen::{self, GenKind, MoveList};
use chuhe::position::{FenError, Position, START_FEN};
use chuhe::types::*;

use chuhe::rng::XorShift as Rng;

const FENS: &[&str] = &[
    START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    // Composed problems: pieces where no game brings them (a black pawn on
    // its own back rank; red pawns behind their start and on odd files of
    // their own half; advisors off the diagonals; elephants off their seven
    // points), which chuhe plays all the same.
    "3akp3/4a4/9/9/9/9/9/3R5/4A4/4KA3 w - - 0 1",
    "4k4/9/r8/9/9/4B4/1P5P1/2P3P2/4P4/3KA4 b - - 0 1",
    "2bk1a3/3pa1p2/1p1p1p3/9/9/2B6/9/2N6/4A4/3A1K1R1 b - - 0 1",
    "3k5/3a5/R3bp3/4p4/1N7/9/1P7/3A5/B2K3P1/5c3 w - - 0 1",
];

/// Slow, obviously-correct legality: make the move, then ask whether the
/// mover's king is attacked or faces the other king.
fn reference_legal(pos: &mut Position, m: Move) -> bool {
    let us = pos.side_to_move();
    pos.make_move(m);
    let ksq = pos.king_square(us);
    let attacked = pos.attackers_of(ksq, !us, pos.occupancy()).is_nonempty();
    let (a, b) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
    let facing =
        a.file() == b.file() && (chuhe::attacks::between(a, b) & pos.occupied()).is_empty();
    pos.unmake_move();
    !attacked && !facing
}

fn reference_moves(pos: &mut Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let mut out = vec![];
    for from in pos.pieces_of(us) {
        let pc = pos.piece_on(from);
        for to in pos.piece_moves(pc, from) {
            let m = Move::new(from, to);
            if reference_legal(pos, m) {
                out.push(m);
            }
        }
    }
    out.sort_by_key(|m| m.raw());
    out
}

fn sorted(list: &MoveList) -> Vec<Move> {
    let mut v = list.as_slice().to_vec();
    v.sort_by_key(|m| m.raw());
    v
}

/// Checks every invariant of one position against slow recomputation.
fn check_position(pos: &mut Position) {
    assert_eq!(
        pos.key(),
        pos.compute_key(),
        "incremental key drifted: {pos:?}"
    );
    assert_eq!(pos.pawn_key(), pos.compute_pawn_key(), "pawn key: {pos:?}");
    assert_eq!(
        pos.material_key(),
        pos.compute_material_key(),
        "material key: {pos:?}"
    );
    for c in Color::BOTH {
        assert_eq!(
            pos.nonpawn_key(c),
            pos.compute_nonpawn_key(c),
            "{c:?}'s non-pawn key: {pos:?}"
        );
    }
    let fen = pos.to_fen();
    let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(back.to_fen(), fen);
    assert_eq!(back.key(), pos.key());
    let legal = movegen::legal_moves(pos);
    assert_eq!(sorted(&legal), reference_moves(pos), "{fen}");
    let mut caps = MoveList::new();
    movegen::generate(pos, GenKind::Captures, &mut caps);
    let mut quiets = MoveList::new();
    movegen::generate(pos, GenKind::Quiets, &mut quiets);
    assert_eq!(caps.len() + quiets.len(), legal.len());
    assert!(caps.iter().all(|m| pos.piece_on(m.to()).is_some()));
    assert!(quiets.iter().all(|m| pos.piece_on(m.to()).is_none()));
    let us = pos.side_to_move();
    let in_check = pos
        .attackers_of(pos.king_square(us), !us, pos.occupancy())
        .is_nonempty();
    assert_eq!(pos.in_check(), in_check);
    for &m in &legal {
        assert!(pos.is_pseudo_legal(m));
        assert!(pos.is_legal(m));
        let gives = pos.gives_check(m);
        let before = pos.key();
        pos.make_move(m);
        assert_eq!(pos.in_check(), gives, "gives_check({m}) in {fen}");
        pos.unmake_move();
        assert_eq!(pos.key(), before);
        assert_eq!(pos.to_fen(), fen, "unmake of {m} did not restore");
    }
}

#[test]
fn random_playouts_stay_legal() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for &fen in FENS {
        for _ in 0..25 {
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..150 {
                check_position(&mut pos);
                let legal = movegen::legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                let m = legal.as_slice()[rng.below(legal.len())];
                pos.make_move(m);
            }
            // Unwinding the whole game returns to the start exactly.
            while pos.ply_from_root() > 0 {
                pos.unmake_move();
            }
            assert_eq!(pos.to_fen(), Position::from_fen(fen).unwrap().to_fen());
        }
    }
}

#[test]
fn null_move_flips_side_and_restores() {
    let mut pos = Position::startpos();
    let key = pos.key();
    pos.make_null_move();
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.key(), pos.compute_key());
    assert_ne!(pos.key(), key);
    pos.unmake_null_move();
    assert_eq!(pos.key(), key);
    assert_eq!(pos.to_fen(), START_FEN);
}

#[test]
fn fen_round_trips_and_aliases() {
    for &fen in FENS {
        assert_eq!(Position::from_fen(fen).unwrap().to_fen(), fen);
    }
    let aliases = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r";
    assert_eq!(Position::from_fen(aliases).unwrap().to_fen(), START_FEN);
    let black = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b")
        .unwrap();
    assert_eq!(black.side_to_move(), Color::Black);
    let counters = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 37 51").unwrap();
    assert_eq!(counters.rule60(), 37);
    assert!(counters.to_fen().ends_with(" 37 51"));
}

#[test]
fn fen_rejections_name_the_problem() {
    type Expect = fn(&FenError) -> bool;
    let cases: &[(&str, Expect)] = &[
        ("", |e| *e == FenError::Empty),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
            |e| matches!(e, FenError::RankCount(9)),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w",
            |e| matches!(e, FenError::RankCount(11)),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/8/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            |e| matches!(e, FenError::RankWidth { rank: 6, width: 8 }),
        ),
        (
            "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            |e| matches!(e, FenError::RankWidth { rank: 1, .. }),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
            |e| *e == FenError::UnknownLetter('X'),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB0R w",
            |e| *e == FenError::UnknownLetter('0'),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/4R4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            |e| {
                matches!(
                    e,
                    FenError::TooMany {
                        color: Color::Red,
                        kind: PieceKind::Chariot
                    }
                )
            },
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/p8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            |e| {
                matches!(
                    e,
                    FenError::TooMany {
                        color: Color::Black,
                        kind: PieceKind::Pawn
                    }
                )
            },
        ),
        (
            "rnbakakbnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
            |e| matches!(e, FenError::RankWidth { .. } | FenError::TooMany { .. }),
        ),
        (
            "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            |e| *e == FenError::MissingKing(Color::Black),
        ),
        ("4k4/9/9/9/9/9/9/9/9/3A5 w", |e| {
            *e == FenError::MissingKing(Color::Red)
        }),
        // Bounds the rules set: an advisor outside its palace, an elephant
        // across the river, a king outside its palace.
        ("4k4/9/9/9/9/9/9/9/3K5/A8 w", |e| {
            matches!(
                e,
                FenError::OutOfBounds {
                    kind: PieceKind::Advisor,
                    ..
                }
            )
        }),
        ("4k4/4A4/9/9/9/9/9/9/3K5/9 w", |e| {
            matches!(
                e,
                FenError::OutOfBounds {
                    kind: PieceKind::Advisor,
                    ..
                }
            )
        }),
        ("4k4/9/9/9/2B6/9/9/9/3K5/9 w", |e| {
            matches!(
                e,
                FenError::OutOfBounds {
                    kind: PieceKind::Elephant,
                    ..
                }
            )
        }),
        ("4k4/9/9/9/9/2b6/9/9/3K5/9 w", |e| {
            matches!(
                e,
                FenError::OutOfBounds {
                    kind: PieceKind::Elephant,
                    ..
                }
            )
        }),
        ("6k2/9/9/9/9/9/9/9/9/3K5 w", |e| {
            matches!(
                e,
                FenError::OutOfBounds {
                    kind: PieceKind::King,
                    ..
                }
            )
        }),
        ("3k5/9/9/9/9/9/9/9/9/4K1K2 w", |e| {
            matches!(
                e,
                FenError::TooMany {
                    kind: PieceKind::King,
                    ..
                }
            )
        }),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", |e| *e == FenError::KingsFacing),
        ("3k5/9/9/9/9/9/9/9/9/3RK4 w", |e| {
            *e == FenError::SideNotToMoveInCheck
        }),
        ("3k5/9/9/9/9/9/9/9/9/4K4 x", |e| {
            matches!(e, FenError::BadSide(_))
        }),
        ("3k5/9/9/9/9/9/9/9/9/4K4", |e| *e == FenError::MissingSide),
        ("3k5/9/9/9/9/9/9/9/9/4K4 w - - x 1", |e| {
            matches!(e, FenError::BadNumber(_))
        }),
    ];
    for (fen, expect) in cases {
        match Position::from_fen(fen) {
            Ok(_) => panic!("accepted invalid FEN {fen:?}"),
            Err(e) => {
                assert!(expect(&e), "{fen:?} rejected with unexpected error {e:?}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
}

#[test]
fn fen_parser_never_panics_on_garbage() {
    let mut rng = Rng(99);
    let alphabet: Vec<char> = "rnbakcpRNBAKCPEH0123456789/ -wb\u{00e9}\u{7ea2}\t"
        .chars()
        .collect();
    for _ in 0..20_000 {
        let len = rng.below(80);
        let s: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let _ = Position::from_fen(&s);
    }
    // Mutations of valid FENs hit the deeper checks.
    for _ in 0..20_000 {
        let mut chars: Vec<char> = FENS[rng.below(FENS.len())].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let i = rng.below(chars.len());
            chars[i] = alphabet[rng.below(alphabet.len())];
        }
        let s: String = chars.into_iter().collect();
        if let Ok(p) = Position::from_fen(&s) {
            assert_eq!(p.key(), p.compute_key());
        }
    }
}

#[test]
fn see_orders_exchanges() {
    // Red chariot takes a pawn defended by a horse: loses material.
    let pos = Position::from_fen("3k5/9/9/2n6/4p4/9/9/9/4R4/5K3 w").unwrap();
    let m = Move::parse("e1e5").unwrap();
    assert!(pos.is_legal(m));
    assert!(!pos.see_ge(m, 0), "the horse recaptures the chariot");
    assert!(pos.see_ge(m, -900));
    assert!(!pos.see_ge(m, -899));
    let undefended = Position::from_fen("3k5/9/9/9/4p4/9/9/9/4R4/5K3 w").unwrap();
    assert!(undefended.see_ge(m, 0));
    assert!(undefended.see_ge(m, 100));
    assert!(!undefended.see_ge(m, 101));
    let defended = Position::from_fen("3k5/9/4r4/9/4p4/9/9/9/4R4/5K3 w").unwrap();
    assert!(
        !defended.see_ge(m, 1),
        "chariot for pawn, recaptured by chariot"
    );
    assert!(defended.see_ge(m, -900));
    // A cannon capture whose screen is the captured piece's defender line.
    let cannon = Position::from_fen("3k5/9/9/4p4/4p4/9/9/4C4/9/5K3 w").unwrap();
    let c = Move::parse("e2e6").unwrap();
    assert!(cannon.is_legal(c));
    assert!(cannon.see_ge(c, 100));
    // An advisor's recapture frees the leg of the horse on c7, which takes
    // back: cannon 450, chariot lost 1000, advisor 200.
    let leg = Position::from_fen("5k3/4c4/2Na5/9/4R4/9/9/9/9/3K5 w").unwrap();
    let m = Move::parse("e5e8").unwrap();
    assert!(leg.see_ge(m, -350));
    assert!(!leg.see_ge(m, -349));
}

#[test]
fn bitboards_agree_with_board() {
    let pos = Position::startpos();
    assert_eq!(pos.occupied().count(), 32);
    assert_eq!(pos.pieces(Color::Red, PieceKind::Pawn).count(), 5);
    let all = Color::BOTH
        .iter()
        .fold(Bitboard::EMPTY, |b, &c| b | pos.pieces_of(c));
    assert_eq!(all, pos.occupied());
}

#[test]
fn move_counting_agrees_with_the_generator() {
    // Positions without a legal move: stalemates (not in check) and mates.
    let stuck = [
        "3k5/9/9/2N6/4R4/9/9/9/9/5K3 b",
        "1R2k4/R8/9/9/9/9/9/9/9/3K5 b",
    ];
    let d2d3 = {
        let mut p = Position::from_fen("9/2P6/3k5/9/3n5/3c5/9/3C5/9/2B1K1B2 w").unwrap();
        p.make_move(Move::parse("d2d3").unwrap());
        p
    };
    fn check(pos: &Position, seen: &mut [usize; 2]) {
        let count = movegen::legal_moves(pos).len();
        let any = count > 0;
        assert_eq!(movegen::has_legal_move(pos), any, "{}", pos.to_fen());
        for n in [0, 1, 2, 4, 8, count.saturating_sub(1), count, count + 1] {
            let more = movegen::has_more_legal_moves_than(pos, n);
            assert_eq!(more, count > n, "{n} of {count}: {}", pos.to_fen());
        }
        seen[any as usize] += 1;
    }
    let mut seen = [0usize; 2];
    check(&d2d3, &mut seen);
    for fen in stuck {
        check(&Position::from_fen(fen).unwrap(), &mut seen);
    }
    assert_eq!(seen[1], 0, "all fixed cases have no move");
    // Random playouts, many through sparse end games where few moves are
    // left to find.
    let sparse = [
        "3k5/9/9/2N6/R8/9/9/9/9/5K3 w",
        "4k4/4a4/9/9/9/9/9/9/4p4/3K5 w",
        "2bak4/4a4/4b4/9/9/9/9/4B4/4A4/2BAK4 w",
        "3ak4/9/4b4/9/2c6/9/9/4B4/9/3AK4 w",
    ];
    let mut rng = Rng(7);
    for fen in FENS.iter().chain(sparse.iter()) {
        for _ in 0..30 {
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..150 {
                check(&pos, &mut seen);
                let moves = movegen::legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves.as_slice()[rng.below(moves.len())]);
            }
        }
    }
    assert!(
        seen[0] > 5,
        "playouts reached positions without a move: {seen:?}"
    );
}
