//! Move text: hand-checked positions (tandem pieces, three to five pawns on
//! a file, pawns doubled on two files), the parser's variants and errors,
//! and round trips over random playouts.

use chuhe::movegen;
use chuhe::notation::{NotationError, Script, parse_move, to_chinese, to_wxf};
use chuhe::position::Position;
use chuhe::rng::XorShift as Rng;
use chuhe::types::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(s: &str) -> Move {
    Move::parse(s).unwrap()
}

/// (FEN, move, simplified, traditional, WXF), each written out by hand.
const WRITTEN: &[(&str, &str, &str, &str, &str)] = &[
    // Start position, both sides.
    (START, "h2e2", "炮二平五", "炮二平五", "C2=5"),
    (START, "h0g2", "马二进三", "馬二進三", "H2+3"),
    (START, "b0c2", "马八进七", "馬八進七", "H8+7"),
    (START, "h2h9", "炮二进七", "炮二進七", "C2+7"),
    (START, "c3c4", "兵七进一", "兵七進一", "P7+1"),
    (START, "g0e2", "相三进五", "相三進五", "E3+5"),
    (START, "f0e1", "仕四进五", "仕四進五", "A4+5"),
    (START, "e0e1", "帅五进一", "帥五進一", "K5+1"),
    (START, "i0i2", "车一进二", "車一進二", "R1+2"),
    (AFTER_C25, "h9g7", "马8进7", "馬８進７", "H8+7"),
    (AFTER_C25, "h7e7", "炮8平5", "炮８平５", "C8=5"),
    (AFTER_C25, "b7b0", "炮2进7", "炮２進７", "C2+7"),
    (AFTER_C25, "g6g5", "卒7进1", "卒７進１", "P7+1"),
    (AFTER_C25, "c9e7", "象3进5", "象３進５", "E3+5"),
    (AFTER_C25, "d9e8", "士4进5", "士４進５", "A4+5"),
    (AFTER_C25, "e9e8", "将5进1", "將５進１", "K5+1"),
    (AFTER_C25, "a9a7", "车1进2", "車１進２", "R1+2"),
    // Two red chariots on file 七 (c4 front, c2 rear).
    (CHARIOTS, "c4c7", "前车进三", "前車進三", "R++3"),
    (CHARIOTS, "c2c3", "后车进一", "後車進一", "R-+1"),
    (CHARIOTS, "c2a2", "后车平九", "後車平九", "R-=9"),
    (CHARIOTS, "c2c0", "后车退二", "後車退二", "R--2"),
    (CHARIOTS, "c4i4", "前车平一", "前車平一", "R+=1"),
    // Two black horses on file 3 (c5 front, c7 rear: Black's front is
    // towards rank 0).
    (HORSES, "c5e6", "前马退5", "前馬退５", "H+-5"),
    (HORSES, "c7e6", "后马进5", "後馬進５", "H-+5"),
    (HORSES, "c5d3", "前马进4", "前馬進４", "H++4"),
    (HORSES, "c7b9", "后马退2", "後馬退２", "H--2"),
    // Three red pawns on file 五: e7, e6, e5.
    (PAWNS3, "e7e8", "前兵进一", "前兵進一", "P++1"),
    (PAWNS3, "e6d6", "中兵平六", "中兵平六", "P5=6"),
    (PAWNS3, "e5f5", "后兵平四", "後兵平四", "P-=4"),
    // Four on a file: 一…四 from the front; WXF ++, P+, P-, --.
    (PAWNS4, "e8e9", "一兵进一", "一兵進一", "+++1"),
    (PAWNS4, "e7d7", "二兵平六", "二兵平六", "P+=6"),
    (PAWNS4, "e6f6", "三兵平四", "三兵平四", "P-=4"),
    (PAWNS4, "e5d5", "四兵平六", "四兵平六", "--=6"),
    // Five on a file (e4 cannot move).
    (PAWNS5, "e8f8", "一兵平四", "一兵平四", "++=4"),
    (PAWNS5, "e7d7", "二兵平六", "二兵平六", "P+=6"),
    (PAWNS5, "e6d6", "三兵平六", "三兵平六", "P5=6"),
    (PAWNS5, "e5d5", "四兵平六", "四兵平六", "P-=6"),
    // Pawns doubled on files 七 (c6, c5) and 三 (g6, g5), a lone one on 九.
    (TWO_FILES, "c6c7", "前兵七进一", "前兵七進一", "7++1"),
    (TWO_FILES, "c5b5", "后兵七平八", "後兵七平八", "7-=8"),
    (TWO_FILES, "g6h6", "前兵三平二", "前兵三平二", "3+=2"),
    (TWO_FILES, "g5f5", "后兵三平四", "後兵三平四", "3-=4"),
    (TWO_FILES, "a3a4", "兵九进一", "兵九進一", "P9+1"),
    // Three on 七 (c7, c6, c5) and two on 三 (g6, g5).
    (THREE_TWO, "c7c8", "前兵七进一", "前兵七進一", "7++1"),
    (THREE_TWO, "c6b6", "中兵七平八", "中兵七平八", "77=8"),
    (THREE_TWO, "c5d5", "后兵七平六", "後兵七平六", "7-=6"),
    (THREE_TWO, "g5h5", "后兵三平二", "後兵三平二", "3-=2"),
    // Two black pawns on file 3: c2 front, c3 rear.
    (BLACK_PAWNS, "c2d2", "前卒平4", "前卒平４", "P+=4"),
    (BLACK_PAWNS, "c3b3", "后卒平2", "後卒平２", "P-=2"),
    (BLACK_PAWNS, "c2c1", "前卒进1", "前卒進１", "P++1"),
    // Advisors (d2 front, d0 rear) and elephants (c4 front, c0 rear).
    (ADVISORS, "d2e1", "前仕退五", "前仕退五", "A+-5"),
    (ADVISORS, "d0e1", "后仕进五", "後仕進五", "A-+5"),
    (ELEPHANTS, "c4e2", "前相退五", "前相退五", "E+-5"),
    (ELEPHANTS, "c0a2", "后相进九", "後相進九", "E-+9"),
    // Kings sideways.
    (KINGS_BLACK, "e9f9", "将5平6", "將５平６", "K5=6"),
    (KINGS_RED, "d0d1", "帅六进一", "帥六進一", "K6+1"),
];

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const AFTER_C25: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
const CHARIOTS: &str = "3k5/9/9/9/9/2R6/9/2R6/9/4K4 w - - 0 1";
const HORSES: &str = "3k5/9/2n6/9/2n6/9/9/9/9/4K4 b - - 0 1";
const PAWNS3: &str = "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1";
const PAWNS4: &str = "3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1";
const PAWNS5: &str = "3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/5K3 w - - 0 1";
const TWO_FILES: &str = "3k5/9/9/2P3P2/2P3P2/9/P8/9/9/5K3 w - - 0 1";
const THREE_TWO: &str = "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/5K3 w - - 0 1";
const BLACK_PAWNS: &str = "4k4/9/9/9/9/9/2p6/2p6/9/3K5 b - - 0 1";
const ADVISORS: &str = "3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1";
const ELEPHANTS: &str = "3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1";
const KINGS_BLACK: &str = "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1";
const KINGS_RED: &str = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";

#[test]
fn hand_checked_moves_are_written_and_read_back() {
    for &(fen, m, simplified, traditional, wxf) in WRITTEN {
        let p = pos(fen);
        let m = mv(m);
        assert_eq!(
            to_chinese(&p, m, Script::Simplified).as_deref(),
            Ok(simplified),
            "{fen} {m}"
        );
        assert_eq!(
            to_chinese(&p, m, Script::Traditional).as_deref(),
            Ok(traditional),
            "{fen} {m}"
        );
        assert_eq!(to_wxf(&p, m).as_deref(), Ok(wxf), "{fen} {m}");
        for text in [simplified, traditional, wxf] {
            assert_eq!(parse_move(&p, text), Ok(m), "{fen}: {text}");
        }
    }
}

/// Text in the many spellings found in the wild, each with the move it
/// names (or `None` when it must be rejected as ambiguous).
const READ: &[(&str, &str, Option<&str>)] = &[
    (START, "炮二平五", Some("h2e2")),
    (START, " 炮 二 平 五 ", Some("h2e2")),
    (START, "傌二進三", Some("h0g2")),
    (START, "俥一進一", Some("i0i1")),
    (START, "帥五進一", Some("e0e1")),
    (START, "C2.5", Some("h2e2")),
    (START, "C25", Some("h2e2")),
    (START, "c2=5", Some("h2e2")),
    (START, "h2+3", Some("h0g2")),
    (START, "h2e2", Some("h2e2")),
    (START, "H2E2", Some("h2e2")),
    (START, "H2-E2", Some("h2e2")),
    (AFTER_C25, "馬８進７", Some("h9g7")),
    (AFTER_C25, "马8进7", Some("h9g7")),
    (AFTER_C25, "砲８平５", Some("h7e7")),
    (AFTER_C25, "包8平5", Some("h7e7")),
    (AFTER_C25, "c8.5", Some("h7e7")),
    (AFTER_C25, "將５進１", Some("e9e8")),
    // A file number for one of a pair, when only one of them can do it
    // (game records write this): the rear chariot c2 cannot go up two.
    (CHARIOTS, "车七进二", Some("c4c6")),
    (CHARIOTS, "車七退二", Some("c2c0")),
    (CHARIOTS, "车七进一", None),
    (CHARIOTS, "前車平一", Some("c4i4")),
    (CHARIOTS, "車前平一", Some("c4i4")),
    (CHARIOTS, "+R=1", Some("c4i4")),
    (CHARIOTS, "R+.1", Some("c4i4")),
    (CHARIOTS, "r-=9", Some("c2a2")),
    (CHARIOTS, "-R.9", Some("c2a2")),
    (HORSES, "马3进5", None),
    (HORSES, "前马进4", Some("c5d3")),
    (HORSES, "後馬進５", Some("c7e6")),
    (HORSES, "马前退5", Some("c5e6")),
    (PAWNS3, "兵五平六", None),
    (PAWNS3, "兵五进一", Some("e7e8")),
    (PAWNS3, "中兵平六", Some("e6d6")),
    (PAWNS3, "P5=6", Some("e6d6")),
    (PAWNS3, "P5.6", Some("e6d6")),
    (PAWNS4, "前兵平四", Some("e8f8")),
    (PAWNS4, "后兵平四", Some("e5f5")),
    (PAWNS4, "++.4", Some("e8f8")),
    // xqbase.com numbering across two doubled files: 三 (g6 一, g5 二)
    // before 七 (c6 三, c5 四).
    (TWO_FILES, "一兵进一", Some("g6g7")),
    (TWO_FILES, "四兵平八", Some("c5b5")),
    (TWO_FILES, "前兵进一", None),
    (TWO_FILES, "前兵平二", Some("g6h6")),
    (TWO_FILES, "前七平八", Some("c6b6")),
    (TWO_FILES, "二兵七平八", Some("c5b5")),
    (TWO_FILES, "13+1", Some("g6g7")),
    (TWO_FILES, "7-.8", Some("c5b5")),
    (ADVISORS, "仕六进五", Some("d0e1")),
    (ADVISORS, "仕六退五", Some("d2e1")),
    (ADVISORS, "A6+5", Some("d0e1")),
    (ELEPHANTS, "相七进五", Some("c0e2")),
    (ELEPHANTS, "相七退五", Some("c4e2")),
];

#[test]
fn spellings_in_the_wild_are_read() {
    for &(fen, text, want) in READ {
        let p = pos(fen);
        let got = parse_move(&p, text);
        match want {
            Some(m) => assert_eq!(got, Ok(mv(m)), "{fen}: {text}"),
            None => assert!(
                matches!(&got, Err(NotationError::Ambiguous { moves, .. }) if moves.len() >= 2),
                "{fen}: {text} gave {got:?}"
            ),
        }
    }
}

#[test]
fn errors_name_the_problem() {
    let p = pos(START);
    let cases: &[(&str, &str)] = &[
        ("", "empty"),
        ("炮二平", "four or five"),
        ("炮二走五", "unexpected character '走'"),
        ("炮二平5", "mixes"),
        ("炮２平５", "fits no legal move"), // Black's digits with Red to move
        ("马8进7", "fits no legal move"),
        ("車一平二", "fits no legal move"),
        ("C2x5", "direction"),
        ("Q2=5", "which piece"),
        ("e3e5", "fits no legal move"),
        ("六兵平五", "five"),
    ];
    for &(text, needle) in cases {
        let e = parse_move(&p, text).expect_err(text).to_string();
        assert!(e.contains(needle), "{text}: {e}");
    }
    let e = parse_move(&pos(CHARIOTS), "车七进一")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("ambiguous") && e.contains("c4c5") && e.contains("c2c3"),
        "{e}"
    );
    // A move that is not legal cannot be written.
    let kings = pos(KINGS_RED);
    assert_eq!(
        to_chinese(&kings, mv("d0e0"), Script::Simplified),
        Err(NotationError::NotLegal(mv("d0e0")))
    );
    assert!(to_wxf(&kings, Move::NULL).is_err());
}

#[test]
fn junk_never_panics() {
    let p = pos(THREE_TWO);
    let alphabet: Vec<char> = "车馬兵卒前后中一二三九1９+-=.CPRH3 平进退x後"
        .chars()
        .collect();
    let mut rng = Rng(7);
    for _ in 0..20_000 {
        let len = rng.below(7);
        let s: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let _ = parse_move(&p, &s);
    }
}

/// Every legal move of every position along random games, written in each
/// notation and read back. The games favour pawn moves so that tandem pawns
/// (three on a file, two doubled files) come up often; the test counts them
/// so that it cannot pass without exercising those forms.
#[test]
fn round_trip_over_random_playouts() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut moves_checked, mut with_file, mut three_on_file, mut numbered) = (0u64, 0, 0, 0);
    for game in 0..120 {
        // Half the games start with all pawns across the river (or already
        // stacked), where they pile up on files quickly.
        let mut p = match game % 4 {
            0 => pos("3k5/9/9/P1P1P1P1P/9/9/p1p1p1p1p/9/9/4K4 w - - 0 1"),
            1 => pos("3k5/4P4/4P4/4P4/4P4/4P4/9/p1p1p1p1p/9/5K3 w - - 0 1"),
            2 => pos("3k5/9/9/P1P6/9/4p4/4p4/4p4/4p4/5K3 b - - 0 1"),
            _ => Position::startpos(),
        };
        for _ply in 0..160 {
            let list = movegen::legal_moves(&p);
            if list.is_empty() {
                break;
            }
            for &m in list.iter() {
                let simplified = to_chinese(&p, m, Script::Simplified).unwrap();
                let traditional = to_chinese(&p, m, Script::Traditional).unwrap();
                let wxf = to_wxf(&p, m).unwrap();
                for text in [&simplified, &traditional, &wxf] {
                    assert_eq!(
                        parse_move(&p, text),
                        Ok(m),
                        "game {game}: {} {m} written {text}",
                        p.to_fen()
                    );
                }
                moves_checked += 1;
                if simplified.chars().count() == 5 {
                    with_file += 1;
                }
                if simplified.starts_with('中') {
                    three_on_file += 1;
                }
                if simplified.starts_with(['一', '二', '三', '四', '五']) {
                    numbered += 1;
                }
            }
            let pawn_moves: Vec<Move> = list
                .iter()
                .copied()
                .filter(|m| p.piece_on(m.from()).kind() == PieceKind::Pawn)
                .collect();
            // Pawn moves onto a file that already holds one of ours stack them.
            let us = p.side_to_move();
            let stacking: Vec<Move> = pawn_moves
                .iter()
                .copied()
                .filter(|m| {
                    m.from().file() != m.to().file()
                        && Square::all().any(|s| {
                            s.file() == m.to().file()
                                && p.piece_on(s) == Piece::new(us, PieceKind::Pawn)
                        })
                })
                .collect();
            let m = if !stacking.is_empty() && rng.below(2) > 0 {
                stacking[rng.below(stacking.len())]
            } else if !pawn_moves.is_empty() && rng.below(3) > 0 {
                pawn_moves[rng.below(pawn_moves.len())]
            } else {
                list.as_slice()[rng.below(list.len())]
            };
            p.make_move(m);
        }
    }
    println!(
        "round trip: {moves_checked} moves, {with_file} with the file written, \
         {three_on_file} middle pawns, {numbered} of four or five on a file"
    );
    assert!(moves_checked > 200_000);
    assert!(with_file > 100, "only {with_file} two-file pawn moves");
    assert!(three_on_file > 20, "only {three_on_file} middle-pawn moves");
    assert!(numbered > 0, "no move of four or five pawns on a file");
}
