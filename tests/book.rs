//! Opening book: the build rule on hand-made games, the file format, mirror
//! folding, probing, the weighted choice (legality, repetition, seeds),
//! book sets, the embedded book, and, when the data is present, the real
//! master games and ElephantEye's BOOK.DAT.

mod shared_data;

use chuhe::book::{self, Book, BookBuilder, BookMove, BookSet, BuildRule, Record};
use chuhe::movegen;
use chuhe::options::Randomness;
use chuhe::position::Position;
use chuhe::record::games::GameResult;
use chuhe::tools::book::build_book;
use chuhe::types::*;
use shared_data::shared_file as data_file;
use std::borrow::Cow;
use std::collections::HashSet;

fn mv(s: &str) -> Move {
    Move::parse(s).unwrap()
}

fn play(moves: &str) -> Position {
    let mut p = Position::startpos();
    for m in moves.split_whitespace() {
        let m = mv(m);
        assert!(movegen::legal_moves(&p).contains(m), "{m}");
        p.make_move(m);
    }
    p
}

fn add(b: &mut BookBuilder, moves: &str, result: &str) {
    let list: Vec<Move> = moves.split_whitespace().map(mv).collect();
    b.add_game(
        &Position::startpos(),
        &list,
        GameResult::parse(result).unwrap(),
    );
}

/// Nine games whose tallies are worked out by hand in the comments.
fn sample_book() -> (Vec<u8>, book::BuildSummary) {
    let rule = BuildRule {
        min_games: 2,
        max_ply: 3,
        score_margin: 0.2,
    };
    let mut b = BookBuilder::new(rule);
    add(&mut b, "h2e2 h9g7 h0g2 i9h9", "1-0"); // G1
    add(&mut b, "h2e2 h9g7 h0g2", "1/2-1/2"); // G2
    add(&mut b, "h2e2 h9g7 h0g2", "0-1"); // G3
    add(&mut b, "b2e2 b9c7", "0-1"); // G4: the mirror image of G1-G3's start
    add(&mut b, "c3c4", "1/2-1/2"); // G5
    add(&mut b, "c3c4", "1/2-1/2"); // G6
    add(&mut b, "g3g4", "0-1"); // G7
    add(&mut b, "g0e2", "0-1"); // G8
    add(&mut b, "g0e2", "0-1"); // G9
    b.finish()
}

fn bm(m: &str, weight: u32, wins: u32, draws: u32, losses: u32) -> BookMove {
    BookMove {
        mv: mv(m),
        weight,
        wins,
        draws,
        losses,
    }
}

fn set_of(name: &str, bytes: Vec<u8>) -> BookSet {
    let mut set = BookSet::empty();
    set.push(name, Book::from_bytes(name, Cow::Owned(bytes)).unwrap());
    set
}

#[test]
fn build_rule_on_hand_made_games() {
    // Red over the nine games: 1 win (G1), 3 draws, 5 losses: score 2.5/9,
    // threshold 0.278 - 0.2 = 0.078. Black: 6.5/9 = 0.722, threshold 0.522.
    let (bytes, s) = sample_book();
    assert_eq!(s.games, 9);
    assert!((s.side_score[0] - 2.5 / 9.0).abs() < 1e-9);
    assert!((s.side_score[1] - 6.5 / 9.0).abs() < 1e-9);
    // Kept: h2e2 and c3c4 at the start, h9g7 after h2e2 (folded with b9c7
    // after b2e2), h0g2 after that. Dropped: g3g4 and b2e2 (one game each),
    // g0e2 (two games, score 0), i9h9 (ply 4 > max-ply 3).
    assert_eq!((s.positions, s.moves), (3, 4));
    let set = set_of("sample", bytes);
    // Weight = 2 wins + draws + 1.
    assert_eq!(
        set.probe(&Position::startpos()),
        vec![bm("h2e2", 4, 1, 1, 1), bm("c3c4", 3, 0, 2, 0)]
    );
    // After h2e2, Black's h9g7: G1 lost, G2 drawn, G3 won, and G4's b9c7
    // (won) folded in: score 2.5/4 = 0.625 ≥ 0.522.
    assert_eq!(set.probe(&play("h2e2")), vec![bm("h9g7", 6, 2, 1, 1)]);
    // The mirror position answers with the mirrored move, same counts.
    assert_eq!(set.probe(&play("b2e2")), vec![bm("b9c7", 6, 2, 1, 1)]);
    assert_eq!(set.probe(&play("h2e2 h9g7")), vec![bm("h0g2", 4, 1, 1, 1)]);
    assert_eq!(set.probe(&play("b2e2 b9c7")), vec![bm("b0c2", 4, 1, 1, 1)]);
    assert!(set.probe(&play("h2e2 h9g7 h0g2")).is_empty());
    assert!(set.probe(&play("g3g4")).is_empty());
}

#[test]
fn file_format_is_sorted_and_parsed_back() {
    let (bytes, s) = sample_book();
    assert_eq!(bytes.len(), book::HEADER_LEN + 4 * book::RECORD_LEN);
    assert_eq!(s.bytes, bytes.len());
    assert_eq!(&bytes[..8], b"CHUHEBK1");
    let Book::Chuhe(b) = Book::from_bytes("x", Cow::Owned(bytes.clone())).unwrap() else {
        panic!("not read as a chuhe book");
    };
    let keys: Vec<u64> = (0..b.len()).map(|i| b.record(i).key).collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(b.positions(), 3);
    // The start position is symmetric: its key is its own mirror's.
    let (k, m) = book::book_keys(&Position::startpos());
    assert_eq!(k, m);
    assert_eq!(b.lookup(k).len(), 2);
    // The same games give the same bytes.
    assert_eq!(sample_book().0, bytes);
}

/// A book whose start position holds an illegal move (as a key collision
/// or a corrupt file could) next to a legal one.
fn book_with_illegal_start_move() -> BookSet {
    let (key, _) = book::book_keys(&Position::startpos());
    let sq = |s: &str| Square::parse(s).unwrap().index() as u8;
    let rec = |from: &str, to: &str, weight: u16| Record {
        key,
        from: sq(from),
        to: sq(to),
        weight,
        wins: 0,
        draws: 0,
        losses: 0,
    };
    let mut records = vec![rec("e3", "e5", 60000), rec("h2", "e2", 1)];
    set_of("bad", book::encode(&mut records))
}

#[test]
fn illegal_book_moves_are_never_offered() {
    let set = book_with_illegal_start_move();
    let start = Position::startpos();
    assert_eq!(set.probe(&start), vec![bm("h2e2", 1, 0, 0, 0)]);
    for seed in 0..50 {
        for r in [Randomness::None, Randomness::Medium, Randomness::Huge] {
            assert_eq!(set.choose(&start, r, seed).map(|b| b.mv), Some(mv("h2e2")));
        }
    }
}

#[test]
fn choice_follows_weights_and_seeds() {
    let (bytes, _) = sample_book();
    let set = set_of("sample", bytes);
    let start = Position::startpos();
    // none: always the heaviest (h2e2, weight 4, against c3c4's 3).
    for seed in 0..20 {
        assert_eq!(
            set.choose(&start, Randomness::None, seed).unwrap().mv,
            mv("h2e2")
        );
    }
    // A seed fixes the draw.
    for seed in 0..20 {
        assert_eq!(
            set.choose(&start, Randomness::Medium, seed),
            set.choose(&start, Randomness::Medium, seed)
        );
    }
    // Frequencies: medium ~ 4:3, tiny ~ 4^4:3^4 (256:81), huge 1:1.
    let share = |r: Randomness| {
        let n = 20_000u64;
        let hits = (0..n)
            .filter(|&s| set.choose(&start, r, s).unwrap().mv == mv("h2e2"))
            .count();
        hits as f64 / n as f64
    };
    assert!((share(Randomness::Medium) - 4.0 / 7.0).abs() < 0.02);
    assert!((share(Randomness::Tiny) - 256.0 / 337.0).abs() < 0.02);
    assert!((share(Randomness::Huge) - 0.5).abs() < 0.02);
    assert!((share(Randomness::Large) - 2.0 / (2.0 + 3f64.sqrt())).abs() < 0.02);
}

#[test]
fn choice_never_repeats_a_position() {
    // Horses out and back: after h0g2 h9g7 g2h0 the book's only move g7h9
    // would bring back the start position.
    let mut b = BookBuilder::new(BuildRule {
        min_games: 1,
        max_ply: 8,
        score_margin: 1.0,
    });
    add(&mut b, "h0g2 h9g7 g2h0 g7h9 h2e2", "1/2-1/2");
    let set = set_of("shuffle", b.finish().0);
    let pos = play("h0g2 h9g7 g2h0");
    assert_eq!(set.probe(&pos), vec![bm("g7h9", 2, 0, 1, 0)]);
    for r in [Randomness::None, Randomness::Medium, Randomness::Huge] {
        assert_eq!(set.choose(&pos, r, 1), None);
    }
    // The same position without that history may play it.
    let fresh = Position::from_fen(&pos.to_fen()).unwrap();
    assert_eq!(
        set.choose(&fresh, Randomness::None, 1).map(|b| b.mv),
        Some(mv("g7h9"))
    );
}

#[test]
fn book_sets_answer_in_priority_order() {
    let (sample, _) = sample_book();
    let mut set = BookSet::empty();
    set.push(
        "bad",
        Book::from_bytes("bad", Cow::Owned(bad_bytes())).unwrap(),
    );
    set.push("sample", Book::from_bytes("s", Cow::Owned(sample)).unwrap());
    // The first book knows the start position.
    assert_eq!(
        set.probe(&Position::startpos()),
        vec![bm("h2e2", 1, 0, 0, 0)]
    );
    // It knows nothing after h2e2: the second book answers.
    assert_eq!(set.probe(&play("h2e2")), vec![bm("h9g7", 6, 2, 1, 1)]);
    assert!(set.probe(&play("c3c4 c6c5")).is_empty());
}

fn bad_bytes() -> Vec<u8> {
    let set = book_with_illegal_start_move();
    let (_, b) = set.books().next().unwrap();
    let Book::Chuhe(c) = b else { unreachable!() };
    let mut records: Vec<Record> = (0..c.len()).map(|i| c.record(i)).collect();
    book::encode(&mut records)
}

#[test]
fn loading_reports_problems() {
    let dir = std::env::temp_dir().join(format!("chuhe-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"not a book at all").unwrap();
    let ours = dir.join("ours.book");
    std::fs::write(&ours, sample_book().0).unwrap();
    let missing = dir.join("missing.book");

    let e = BookSet::load(missing.to_str().unwrap()).err().unwrap();
    assert!(matches!(&e, book::BookError::Io { path, .. } if path.contains("missing.book")));
    let e = BookSet::load(junk.to_str().unwrap()).err().unwrap();
    assert!(matches!(&e, book::BookError::Format { path, .. } if path.contains("junk.bin")));
    assert!(e.to_string().contains("junk.bin"));
    assert_eq!(BookSet::load(" ; ").err(), Some(book::BookError::NoFiles));

    let set = BookSet::load(&format!("{} ; <embedded>", ours.display())).unwrap();
    let names: Vec<&str> = set.books().map(|(n, _)| n).collect();
    assert_eq!(names, [ours.to_str().unwrap(), "<embedded>"]);
    // The sample book answers first; the embedded one where it has nothing.
    assert_eq!(set.probe(&Position::startpos())[0].mv, mv("h2e2"));
    assert!(!set.probe(&play("h2e2 h7e7")).is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn embedded_book_is_usable() {
    let set = BookSet::embedded();
    let (_, b) = set.books().next().expect("embedded book loads");
    assert_eq!(b.format_name(), "chuhe");
    assert!(
        b.bytes() < 2_000_000,
        "embedded book is {} bytes",
        b.bytes()
    );
    assert!(b.positions() > 1000);
    // The master games open with the central cannon more than anything else
    // (data README: 15,534 of 26,188 games), so it weighs most.
    let start = set.probe(&Position::startpos());
    assert_eq!(start[0].mv, mv("h2e2"));
    assert!(start.len() >= 5);
    let pick = set.choose(&Position::startpos(), Randomness::Medium, 42);
    assert!(pick.is_some_and(|p| start.contains(&p)));
}

// ---------------------------------------------------------------------------
// Real data (skipped when absent, unless CHUHE_REQUIRE_DATA=1)

#[test]
fn committed_book_is_rebuilt_exactly_from_the_master_games() {
    let Some(tsv) = data_file("ccpd-iccs.tsv.xz") else {
        return;
    };
    let (bytes, s) = build_book(&[tsv], BuildRule::default(), &mut std::io::sink()).unwrap();
    println!(
        "rebuilt book: {} positions, {} moves, {} bytes",
        s.positions, s.moves, s.bytes
    );
    assert!(
        bytes == book::EMBEDDED_BOOK,
        "book/chuhe.book is not what scripts/build-book.sh builds: rebuild it"
    );
}

#[test]
fn chinese_pgn_builds_the_same_book_as_coordinates() {
    let (Some(tsv), Some(pgn)) = (
        data_file("ccpd-iccs.tsv.xz"),
        data_file("ccpd-games.pgn.xz"),
    ) else {
        return;
    };
    let rule = BuildRule::default();
    let (_, from_tsv) = build_book(&[tsv], rule, &mut std::io::sink()).unwrap();
    let (bytes, from_pgn) = build_book(&[pgn], rule, &mut std::io::sink()).unwrap();
    println!("TSV: {from_tsv:?}\nPGN: {from_pgn:?}");
    // The PGN has one game more (the data README): at most its first
    // max-ply moves change tallies (it also shifts the side averages by a
    // hair, which could tip a move sitting on the threshold).
    assert_eq!(from_pgn.games, from_tsv.games + 1);
    let records = |b: &[u8]| -> Vec<Record> {
        let Ok(Book::Chuhe(c)) = Book::from_bytes("x", Cow::Owned(b.to_vec())) else {
            panic!("not a chuhe book");
        };
        (0..c.len()).map(|i| c.record(i)).collect()
    };
    let a: HashSet<Record> = records(book::EMBEDDED_BOOK).into_iter().collect();
    let b: HashSet<Record> = records(&bytes).into_iter().collect();
    let only_a = a.difference(&b).count();
    let only_b = b.difference(&a).count();
    println!("records only in the TSV book: {only_a}, only in the PGN book: {only_b}");
    assert!(only_a <= rule.max_ply && only_b <= rule.max_ply);
}

#[test]
fn embedded_book_covers_master_first_moves() {
    let Some(tsv) = data_file("ccpd-iccs.tsv.xz") else {
        return;
    };
    let set = BookSet::embedded();
    let games = chuhe::record::games::read_games(&tsv, 1).unwrap();
    let start = Position::startpos();
    let book_moves = set.probe(&start);
    let covered = games
        .iter()
        .filter(|g| {
            g.moves
                .first()
                .is_some_and(|m| book_moves.iter().any(|b| b.mv == *m))
        })
        .count();
    let share = covered as f64 / games.len() as f64;
    println!(
        "first moves covered: {covered}/{} ({:.2}%)",
        games.len(),
        100.0 * share
    );
    assert!(share > 0.99);
}

#[test]
fn reads_elephanteye_book_dat() {
    let Some(path) = data_file("eleeye-BOOK.DAT") else {
        return;
    };
    let set = BookSet::load(path.to_str().unwrap()).unwrap();
    let (_, b) = set.books().next().unwrap();
    assert_eq!(b.format_name(), "ElephantEye BOOK.DAT");
    assert_eq!(b.records(), 12_081);
    // Check values from shared/docs/book-formats.md.
    let start = set.probe(&Position::startpos());
    assert_eq!(start.len(), 16);
    let weight = |moves: &[BookMove], m: &str| {
        moves
            .iter()
            .find(|b| b.mv == mv(m))
            .map(|b| b.weight)
            .unwrap_or_else(|| panic!("{m} missing"))
    };
    for (m, w) in [
        ("h2e2", 1473),
        ("b2e2", 1473),
        ("c3c4", 546),
        ("g3g4", 546),
        ("c0e2", 311),
        ("g0e2", 311),
    ] {
        assert_eq!(weight(&start, m), w, "{m}");
    }
    assert!(start.iter().all(|b| b.weight <= 1473));
    // After h2e2 the replies are stored for the mirror position only.
    let reply = set.probe(&play("h2e2"));
    let got: Vec<(String, u32)> = reply.iter().map(|b| (b.mv.to_string(), b.weight)).collect();
    let want: Vec<(String, u32)> = [("h9g7", 761), ("b9c7", 172), ("h7e7", 97), ("b7e7", 1)]
        .iter()
        .map(|&(m, w)| (m.to_string(), w))
        .collect();
    assert_eq!(got, want);
    assert!(
        set.choose(&play("h2e2"), Randomness::Medium, 3)
            .is_some_and(|c| reply.contains(&c))
    );
}
