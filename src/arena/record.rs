//! PGN output for match games.
//!
//! Tags: the roster `Event Site Date Round Red Black Result`, then `Game`,
//! `FEN` (when the game does not start from the start position),
//! `TimeControl`, `Termination`, `Opening` and `PlyCount`. The movetext
//! is ICCS (`h2e2`) from the start position, opening moves included; each
//! engine move carries a comment with the Chinese move text, the engine's
//! score and depth, the time used and the clock left:
//! `1. h2e2 {炮二平五 +0.25/12 1.230s [%clk 0:00:58.770]}`. Why a game
//! ended early (illegal move with its FEN, time overstepped, crash) is a
//! comment before the result.

use super::game::{GameRecord, MoveRecord};
use crate::notation::{self, Script};
use crate::position::{Position, START_FEN};
use crate::types::{Color, Move};
use std::io::{self, Write};
use std::time::{SystemTime, UNIX_EPOCH};

/// The Chinese text of a move (`炮二平五`), for the comments; the ICCS
/// text if the move is not legal (refereed moves always are).
pub fn move_text(pos: &Position, m: Move) -> String {
    notation::to_chinese(pos, m, Script::Simplified).unwrap_or_else(|_| m.to_string())
}

/// Per-game tag values the match supplies.
#[derive(Clone, Debug)]
pub struct Header {
    pub event: String,
    pub site: String,
    pub date: String,
    pub round: String,
    pub red: String,
    pub black: String,
    pub time_control: String,
}

/// Today's date as PGN writes it (`2026.11.30`, UTC).
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Gregorian date of a day count from 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `h:mm:ss.mmm` for a `%clk` annotation.
fn clock_text(ms: i64) -> String {
    let ms = ms.max(0);
    format!(
        "{}:{:02}:{:02}.{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

fn move_comment(pos: &Position, r: &MoveRecord) -> String {
    let mut c = move_text(pos, r.mv);
    if let Some(score) = r.score {
        c += &format!(" {score}");
        if let Some(d) = r.depth {
            c += &format!("/{d}");
        }
    }
    c += &format!(" {:.3}s", r.elapsed_ms as f64 / 1000.0);
    if let Some(ms) = r.clock_ms {
        c += &format!(" [%clk {}]", clock_text(ms));
    }
    c
}

/// Appends movetext tokens, wrapping lines before 80 columns.
struct Wrapper {
    text: String,
    line_len: usize,
}

impl Wrapper {
    fn push(&mut self, token: &str) {
        let len = token.chars().count();
        if self.line_len > 0 && self.line_len + 1 + len > 79 {
            self.text.push('\n');
            self.line_len = 0;
        } else if self.line_len > 0 {
            self.text.push(' ');
            self.line_len += 1;
        }
        self.text.push_str(token);
        self.line_len += len;
    }
}

/// Writes one game.
pub fn write_game(out: &mut dyn Write, header: &Header, game: &GameRecord) -> io::Result<()> {
    let opening = &game.opening;
    let tags: Vec<(&str, String)> = vec![
        ("Event", header.event.clone()),
        ("Site", header.site.clone()),
        ("Date", header.date.clone()),
        ("Round", header.round.clone()),
        ("Red", header.red.clone()),
        ("Black", header.black.clone()),
        ("Result", game.result.pgn().to_string()),
        ("Game", "Chinese Chess".to_string()),
    ];
    for (k, v) in &tags {
        writeln!(out, "[{k} \"{}\"]", escape(v))?;
    }
    if opening.fen != START_FEN {
        writeln!(out, "[FEN \"{}\"]", escape(&opening.fen))?;
    }
    writeln!(out, "[TimeControl \"{}\"]", escape(&header.time_control))?;
    writeln!(
        out,
        "[Termination \"{}\"]",
        escape(&game.termination.describe())
    )?;
    writeln!(out, "[Opening \"{}\"]", escape(&opening.label))?;
    writeln!(
        out,
        "[PlyCount \"{}\"]",
        opening.moves.len() + game.moves.len()
    )?;
    writeln!(out)?;

    let mut w = Wrapper {
        text: String::new(),
        line_len: 0,
    };
    let Ok(mut pos) = Position::from_fen(&opening.fen) else {
        // Openings are validated when loaded; nothing to replay otherwise.
        w.push(game.result.pgn());
        return writeln!(out, "{}\n", w.text);
    };
    let book = opening.moves.iter().map(|&m| (m, None));
    let played = game.moves.iter().map(|r| (r.mv, Some(r)));
    let mut first = true;
    for (m, rec) in book.chain(played) {
        let number = pos.fullmove_number();
        if pos.side_to_move() == Color::Red {
            w.push(&format!("{number}."));
        } else if first {
            w.push(&format!("{number}..."));
        }
        first = false;
        w.push(&m.to_string());
        if let Some(r) = rec {
            w.push(&format!("{{{}}}", move_comment(&pos, r)));
        }
        if !crate::replay::is_legal_move(&pos, m) {
            // Cannot happen for refereed moves; stop rather than corrupt.
            break;
        }
        pos.make_move(m);
    }
    if let Some(detail) = &game.detail {
        w.push(&format!("{{{}}}", detail.replace('}', ")")));
    }
    w.push(game.result.pgn());
    writeln!(out, "{}\n", w.text)
}

#[cfg(test)]
mod tests {
    use super::super::game::Termination;
    use super::super::openings::Opening;
    use super::*;
    use crate::record::games::GameResult;
    use crate::rules::Reason;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn clocks() {
        assert_eq!(clock_text(58_770), "0:00:58.770");
        assert_eq!(clock_text(3_723_004), "1:02:03.004");
        assert_eq!(clock_text(-5), "0:00:00.000");
    }

    fn header() -> Header {
        Header {
            event: "test \"match\"".into(),
            site: "here".into(),
            date: "2026.01.02".into(),
            round: "3".into(),
            red: "A".into(),
            black: "B".into(),
            time_control: "10+0.1".into(),
        }
    }

    #[test]
    fn writes_a_game() {
        let opening = super::super::openings::parse_text("|h2e2 h9g7")
            .unwrap()
            .remove(0);
        let m = |t: &str| Move::parse(t).unwrap();
        let game = GameRecord {
            opening,
            moves: vec![
                MoveRecord {
                    mv: m("h0g2"),
                    score: Some(super::super::engine::EngineScore::Cp(25)),
                    depth: Some(12),
                    elapsed_ms: 1230,
                    clock_ms: Some(58_770),
                },
                MoveRecord {
                    mv: m("i9h9"),
                    score: None,
                    depth: None,
                    elapsed_ms: 5,
                    clock_ms: None,
                },
            ],
            result: GameResult::Win(Color::Black),
            termination: Termination::Rules(Reason::Checkmate),
            detail: Some("note {x}".into()),
            incident: None,
            restart: [false; 2],
        };
        let mut out = Vec::new();
        write_game(&mut out, &header(), &game).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("[Event \"test \\\"match\\\"\"]\n[Site \"here\"]\n"));
        assert!(text.contains("[Result \"0-1\"]"));
        assert!(text.contains("[Termination \"checkmate\"]"));
        assert!(text.contains("[Opening \"h2e2 h9g7\"]"));
        assert!(text.contains("[PlyCount \"4\"]"));
        assert!(!text.contains("[FEN"));
        assert!(text.contains("1. h2e2 h9g7 2. h0g2 {"), "{text}");
        let flat = text.replace('\n', " ");
        assert!(
            flat.contains(
                "2. h0g2 {马二进三 +0.25/12 1.230s [%clk 0:00:58.770]} i9h9 {车9平8 0.005s}"
            ),
            "{text}"
        );
        assert!(flat.contains("{note {x)} 0-1"), "{text}");

        // Our PGN reads back through the project's PGN reader.
        let games = crate::record::pgn::parse_games(&text);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].result(), Some("0-1"));
        assert_eq!(games[0].tag("Termination"), Some("checkmate"));
        let (_, moves) = games[0].replay().unwrap();
        let iccs: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(iccs, ["h2e2", "h9g7", "h0g2", "i9h9"]);
    }

    #[test]
    fn black_to_move_start_gets_a_fen_and_ellipsis() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
        let opening = Opening {
            fen: Position::from_fen(fen).unwrap().to_fen(),
            moves: vec![Move::parse("h9g7").unwrap()],
            label: "x".into(),
        };
        let game = GameRecord {
            opening,
            moves: Vec::new(),
            result: GameResult::Draw,
            termination: Termination::AdjudicatedDraw,
            detail: None,
            incident: None,
            restart: [false; 2],
        };
        let mut out = Vec::new();
        write_game(&mut out, &header(), &game).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains(&format!("[FEN \"{fen}\"]")));
        assert!(text.contains("\n1... h9g7 1/2-1/2\n"), "{text}");
    }
}
