//! The Chinese move parser against real game records: every move of the
//! CCPD master games (PGN, traditional characters) must name the same move
//! as the ICCS coordinates of the same games (TSV). Skips itself when the
//! data is absent (it is not part of the repository), unless
//! CHUHE_REQUIRE_DATA=1 (see `shared_data`).

mod shared_data;

use chuhe::notation::{self, Script};
use chuhe::position::Position;
use chuhe::record::pgn;
use chuhe::types::Move;

/// The PGN's tags as the TSV writes them (trimmed, tabs as spaces).
fn tsv_field(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ").trim().to_string()
}

#[test]
fn chinese_moves_agree_with_coordinates() {
    let (Some(pgn_file), Some(tsv_file)) = (
        shared_data::shared_file("ccpd-games.pgn.xz"),
        shared_data::shared_file("ccpd-iccs.tsv.xz"),
    ) else {
        return;
    };
    let pgn_text = chuhe::record::games::read_text(&pgn_file).expect("read PGN");
    let tsv_text = chuhe::record::games::read_text(&tsv_file).expect("read TSV");
    let games = pgn::parse_games(&pgn_text);
    let lines: Vec<&str> = tsv_text.lines().collect();
    // The README: the TSV lacks exactly one game of the PGN.
    assert_eq!(games.len(), lines.len() + 1, "game counts");

    // Every game in release builds; every eighth (over 3,000) in debug.
    let step = if cfg!(debug_assertions) { 8 } else { 1 };
    let (mut checked_games, mut checked_moves, mut skipped) = (0usize, 0usize, Vec::new());
    let (mut same_text, mut file_for_tandem) = (0usize, 0usize);
    let mut next_line = 0;
    for (gi, game) in games.iter().enumerate() {
        let fields: Vec<&str> = lines
            .get(next_line)
            .map(|l| l.split('\t').collect())
            .unwrap_or_default();
        let tag = |name| tsv_field(game.tag(name).unwrap_or(""));
        let aligned = fields.len() == 7
            && fields[0] == tag("Result")
            && fields[1] == tag("ECCO")
            && fields[2] == tag("Red")
            && fields[3] == tag("Black")
            && fields[4] == tag("Date");
        if !aligned {
            skipped.push(game.tag("CCPDFile").unwrap_or("?").to_string());
            continue;
        }
        next_line += 1;
        if gi % step != 0 {
            continue;
        }
        let coords: Vec<&str> = fields[6].split_whitespace().collect();
        assert_eq!(coords.len(), game.moves.len(), "game {gi}: move counts");
        let mut pos = Position::from_fen(fields[5]).expect("TSV start FEN");
        for (ply, (text, coord)) in game.moves.iter().zip(&coords).enumerate() {
            let want = Move::parse(coord).expect("TSV move");
            let got = notation::parse_move(&pos, text);
            assert_eq!(
                got,
                Ok(want),
                "game {gi} ({}) ply {}: '{text}' in {}",
                tag("CCPDFile"),
                ply + 1,
                pos.to_fen()
            );
            // Our own rendering matches the record's, except that the
            // record sometimes names one of two like pieces on a file by
            // the file when only that one can make the move.
            let ours = notation::to_chinese(&pos, want, Script::Traditional).expect("legal");
            if ours == *text {
                same_text += 1;
            } else {
                let record_plain = !text.starts_with(['前', '後', '中']);
                let ours_tandem = ours.starts_with(['前', '後', '中']);
                assert!(
                    record_plain && ours_tandem,
                    "game {gi} ply {}: we write '{ours}', the record '{text}'",
                    ply + 1
                );
                file_for_tandem += 1;
            }
            pos.make_move(want);
            checked_moves += 1;
        }
        checked_games += 1;
    }
    println!(
        "CCPD: {checked_games} games, {checked_moves} moves parsed and matched the ICCS moves; \
         our rendering equals the record's for {same_text}, the record names a tandem piece by \
         its file for {file_for_tandem}; PGN games without a TSV line: {skipped:?}"
    );
    assert_eq!(skipped.len(), 1, "exactly one PGN game lacks a TSV line");
    assert_eq!(next_line, lines.len(), "every TSV line was paired");
    assert!(checked_games >= 2_000);
}
