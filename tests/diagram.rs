//! The board tools through the binary: `chuhe board` (FEN and moves in,
//! SVG out, with arrows) and `chuhe analyse --svg` (the principal
//! variation's first moves as arrows). The drawing itself is tested beside
//! its code (src/diagram.rs).

use std::path::PathBuf;
use std::process::Command;

fn chuhe(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chuhe"))
        .args(args)
        .output()
        .unwrap()
}

fn temp_path(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("chuhe-diagram-{}-{tag}", std::process::id()))
}

/// The pieces drawn (`<use>` of a piece, not of the last-move mark).
fn pieces(svg: &str) -> usize {
    svg.matches("<use href=\"#xq-r").count() + svg.matches("<use href=\"#xq-b").count()
}

#[test]
fn board_draws_the_position_after_the_moves() {
    let out = chuhe(&[
        "board",
        "--moves",
        "h2e2 h9g7 h0g2 g6g5",
        "--arrows",
        "i0h0 b9c7",
        "--last-move",
    ]);
    assert!(out.status.success(), "{out:?}");
    let svg = String::from_utf8(out.stdout).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(
        svg.contains(
            "data-fen=\"rnbakab1r/9/1c4nc1/p1p1p3p/6p2/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3\""
        ),
        "{svg}"
    );
    assert_eq!(pieces(&svg), 32);
    assert_eq!(svg.matches("class=\"arrow\"").count(), 2);
    assert_eq!(svg.matches("<use href=\"#xq-mark\"").count(), 2);
    assert!(svg.contains("class=\"coords\""));

    // Flipped, without coordinates, into a file.
    let path = temp_path("flip.svg");
    let out = chuhe(&[
        "board",
        "--fen",
        "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
        "--flip",
        "--no-coordinates",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let svg = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(pieces(&svg), 3);
    assert!(svg.contains("data-flip=\"1\"") && !svg.contains("class=\"coords\""));

    // Bad input is named.
    let out = chuhe(&["board", "--moves", "h2e2 h2e2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("move 2 (h2e2) is not legal"));
    let out = chuhe(&["board", "--arrows", "h2"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn analyse_draws_its_principal_variation() {
    let path = temp_path("analyse.svg");
    let out = chuhe(&[
        "analyse",
        "--depth",
        "5",
        "--hash",
        "8",
        "--moves",
        "h2e2",
        "--svg",
        path.to_str().unwrap(),
        "--pv-arrows",
        "2",
        "--last-move",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let svg = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(text.contains("diagram written to"), "{text}");
    // Two arrows, the first from the best move's first point.
    assert_eq!(svg.matches("class=\"arrow\"").count(), 2, "{svg}");
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("best move "))
        .unwrap()
        .split([' ', ','])
        .next()
        .unwrap()
        .to_string();
    let from = chuhe::types::Square::parse(&best[..2]).unwrap();
    let (x, y) = chuhe::diagram::Geometry::new(&chuhe::diagram::Options::default()).point(from);
    let first = svg.find("class=\"arrow\"").unwrap();
    let last = svg.rfind("class=\"arrow\"").unwrap();
    // Arrows are drawn last first: the best move's is the last line.
    assert!(
        svg[last..].contains(&format!("x1=\"{x}\" y1=\"{y}\"")),
        "{best}: {svg}"
    );
    assert!(first < last);
    assert!(
        svg.contains("data-fen=\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")
    );
    assert_eq!(svg.matches("<use href=\"#xq-mark\"").count(), 2);
}
