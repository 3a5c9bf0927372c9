//! Board diagrams as SVG: the one drawing of a xiangqi board that the match
//! report (`chuhe match --report`), `chuhe board` and `chuhe analyse --svg`
//! share.
//!
//! The board is the printed one: nine files by ten ranks of lines, the
//! river between the fifth and sixth ranks (the inner files broken there,
//! 楚河 漢界 written in it), the palaces' diagonals, the small marks on the
//! cannons' and pawns' starting points. Pieces are round discs on the
//! points, each with its Chinese character, red or black (帅仕相马车炮兵
//! for Red, 将士象马车炮卒 for Black, the characters the move notation
//! writes). Red is at the bottom unless the board is flipped for Black's
//! view. Coordinates, when asked for, go on the edges: the ICCS rank
//! digits on the left and file letters under the board (so `h2e2` can be
//! read off it), and each side's traditional file numbers on its own edge
//! (九…一 under Red's side, 1…9 over Black's).
//!
//! Each piece is drawn once in `<defs>` (`{id}-rK`, `{id}-bp`: the prefix,
//! the side's initial, the piece's FEN letter) and placed with `<use>`, and
//! the root element carries the geometry and the position as data
//! attributes (`data-x0`, `data-y0`, `data-cell`, `data-flip`, `data-id`,
//! `data-fen`): a page's script moves the pieces of a drawn board by the
//! same numbers (the match report does). The last move is marked by a
//! square around its two points (`{id}-mark`); arrows show moves, the
//! first one boldest, numbered when there are several.

use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceKind, Square};
use std::fmt::Write;

/// Distance between two neighbouring points.
pub const CELL: i32 = 40;
/// Radius of a piece's disc.
pub const PIECE_RADIUS: i32 = 18;

/// How to draw a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Black at the bottom (Black's view).
    pub flip: bool,
    /// Coordinates on the edges.
    pub coordinates: bool,
    /// The move to mark as the last one played.
    pub last_move: Option<Move>,
    /// Moves drawn as arrows, in order: a principal variation's first
    /// moves, say.
    pub arrows: Vec<Move>,
    /// Prefix of the ids inside the drawing: two boards in one page need
    /// two prefixes.
    pub id: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            flip: false,
            coordinates: true,
            last_move: None,
            arrows: Vec::new(),
            id: "xq".into(),
        }
    }
}

/// Where the points of a board lie in its drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// The top-left point of the grid.
    pub x0: i32,
    pub y0: i32,
    pub width: i32,
    pub height: i32,
    pub flip: bool,
}

impl Geometry {
    pub fn new(options: &Options) -> Geometry {
        // Room for half a disc around the grid, more for the coordinates:
        // a column of rank digits on the left (and as much on the right,
        // for balance), a row of file numbers on top, and file numbers
        // then file letters under the board.
        let (side, top, bottom) = if options.coordinates {
            (46, 42, 70)
        } else {
            (24, 24, 24)
        };
        Geometry {
            x0: side,
            y0: top,
            width: 8 * CELL + 2 * side,
            height: 9 * CELL + top + bottom,
            flip: options.flip,
        }
    }

    /// The column (0 on the left) and row (0 at the top) of `sq`.
    pub fn cell(&self, sq: Square) -> (i32, i32) {
        let (f, r) = (sq.file() as i32, sq.rank() as i32);
        if self.flip { (8 - f, r) } else { (f, 9 - r) }
    }

    /// The centre of `sq` in the drawing.
    pub fn point(&self, sq: Square) -> (i32, i32) {
        let (c, r) = self.cell(sq);
        (self.x0 + c * CELL, self.y0 + r * CELL)
    }

    /// The centre of column `c`, row `r`.
    fn at(&self, c: i32, r: i32) -> (i32, i32) {
        (self.x0 + c * CELL, self.y0 + r * CELL)
    }
}

/// The character on a piece.
pub fn piece_char(p: Piece) -> char {
    match (p.color(), p.kind()) {
        (Color::Red, PieceKind::King) => '帅',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Red, PieceKind::Pawn) => '兵',
        (Color::Black, PieceKind::King) => '将',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Black, PieceKind::Elephant) => '象',
        (Color::Black, PieceKind::Pawn) => '卒',
        (_, PieceKind::Horse) => '马',
        (_, PieceKind::Chariot) => '车',
        (_, PieceKind::Cannon) => '炮',
    }
}

/// The id of a piece's drawing in `<defs>`: `{prefix}-rK`, `{prefix}-bp`.
pub fn piece_id(prefix: &str, p: Piece) -> String {
    let side = match p.color() {
        Color::Red => 'r',
        Color::Black => 'b',
    };
    format!("{prefix}-{side}{}", p.letter())
}

/// Text for an XML attribute or element.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Fonts for the pieces' characters, the first one present wins.
pub const CJK_FONTS: &str = "'KaiTi','STKaiti','AR PL UKai CN','Noto Serif CJK SC',\
'Source Han Serif SC','Songti SC','SimSun','PingFang SC','Microsoft YaHei',\
'WenQuanYi Micro Hei','WenQuanYi Zen Hei','Noto Sans CJK SC',serif";

const BOARD_FILL: &str = "#f1d9a8";
const LINE: &str = "#6b4a2b";
const RED: &str = "#c0392b";
const BLACK: &str = "#1c1c1c";
/// The first arrow and the others of the same side; the reply's colour.
const ARROW_COLOURS: [&str; 2] = ["#1f6fd1", "#e07b00"];

/// The board with `pos`'s pieces: a standalone SVG document (it also goes
/// into HTML as it is).
pub fn svg(pos: &Position, options: &Options) -> String {
    let g = Geometry::new(options);
    let id = escape(&options.id);
    let mut s = String::with_capacity(16 * 1024);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" \
         height=\"{h}\" class=\"xq-board\" data-id=\"{id}\" data-x0=\"{x0}\" data-y0=\"{y0}\" \
         data-cell=\"{CELL}\" data-flip=\"{flip}\" data-fen=\"{fen}\" role=\"img\" \
         font-family=\"{CJK_FONTS}\">",
        w = g.width,
        h = g.height,
        x0 = g.x0,
        y0 = g.y0,
        flip = u8::from(options.flip),
        fen = escape(&pos.to_fen()),
    );
    let _ = write!(s, "<title>{}</title>", escape(&pos.to_fen()));
    defs(&mut s, &id);
    grid(&mut s, &g);
    if options.coordinates {
        coordinates(&mut s, &g);
    }
    s.push_str("<g class=\"marks\">");
    if let Some(m) = options.last_move.filter(|m| m.is_some()) {
        for sq in [m.from(), m.to()] {
            let (x, y) = g.point(sq);
            let _ = write!(s, "<use href=\"#{id}-mark\" x=\"{x}\" y=\"{y}\"/>");
        }
    }
    s.push_str("</g><g class=\"pieces\">");
    for sq in Square::all() {
        let p = pos.piece_on(sq);
        if p.is_some() {
            let (x, y) = g.point(sq);
            let _ = write!(
                s,
                "<use href=\"#{}\" x=\"{x}\" y=\"{y}\"/>",
                piece_id(&id, p)
            );
        }
    }
    s.push_str("</g>");
    arrows(&mut s, &g, &id, &options.arrows);
    s.push_str("</svg>\n");
    s
}

/// The pieces, the last-move mark and the arrow heads.
fn defs(s: &mut String, id: &str) {
    s.push_str("<defs>");
    for color in Color::BOTH {
        let ink = match color {
            Color::Red => RED,
            Color::Black => BLACK,
        };
        for kind in PieceKind::ALL {
            let p = Piece::new(color, kind);
            let _ = write!(
                s,
                "<g id=\"{pid}\" class=\"piece\"><circle r=\"{PIECE_RADIUS}\" fill=\"#fbf1dc\" \
                 stroke=\"{ink}\" stroke-width=\"1.6\"/><circle r=\"{inner}\" fill=\"none\" \
                 stroke=\"{ink}\" stroke-width=\"0.8\"/><text y=\"0.5\" text-anchor=\"middle\" \
                 dominant-baseline=\"central\" font-size=\"21\" fill=\"{ink}\">{c}</text></g>",
                pid = piece_id(id, p),
                inner = PIECE_RADIUS - 3,
                c = piece_char(p),
            );
        }
    }
    let half = CELL / 2 - 1;
    let _ = write!(
        s,
        "<g id=\"{id}-mark\"><rect x=\"-{half}\" y=\"-{half}\" width=\"{w}\" height=\"{w}\" \
         rx=\"4\" fill=\"#f7e07a\" fill-opacity=\"0.75\" stroke=\"#c9a21a\" stroke-width=\"1.5\"/></g>",
        w = 2 * half
    );
    for (i, colour) in ARROW_COLOURS.iter().enumerate() {
        let _ = write!(
            s,
            "<marker id=\"{id}-head{i}\" viewBox=\"0 0 10 10\" refX=\"6\" refY=\"5\" \
             markerWidth=\"3.2\" markerHeight=\"3.2\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" \
             fill=\"{colour}\"/></marker>"
        );
    }
    s.push_str("</defs>");
}

/// The wood, the lines, the river, the palaces and the point marks.
fn grid(s: &mut String, g: &Geometry) {
    let (x1, y1) = g.at(8, 9);
    let pad = CELL / 2 + 2;
    let _ = write!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\" fill=\"{BOARD_FILL}\"/>",
        g.x0 - pad,
        g.y0 - pad,
        8 * CELL + 2 * pad,
        9 * CELL + 2 * pad
    );
    let _ = write!(
        s,
        "<g stroke=\"{LINE}\" stroke-width=\"1.2\" fill=\"none\" stroke-linecap=\"square\">"
    );
    // The frame, a little heavier.
    let _ = write!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" stroke-width=\"2\"/>",
        g.x0,
        g.y0,
        8 * CELL,
        9 * CELL
    );
    let mut d = String::new();
    for r in 1..9 {
        let (xa, y) = g.at(0, r);
        let _ = write!(d, "M{xa},{y}H{x1}");
    }
    // Inner files stop at the river.
    for c in 1..8 {
        let (x, ya) = g.at(c, 0);
        let (_, yb) = g.at(c, 4);
        let (_, yc) = g.at(c, 5);
        let _ = write!(d, "M{x},{ya}V{yb}M{x},{yc}V{y1}");
    }
    // The palaces' diagonals.
    for (ra, rb) in [(0, 2), (7, 9)] {
        let (xa, ya) = g.at(3, ra);
        let (xb, yb) = g.at(5, rb);
        let _ = write!(d, "M{xa},{ya}L{xb},{yb}M{xb},{ya}L{xa},{yb}");
    }
    // Marks on the cannons' and pawns' starting points (the same set seen
    // from either side, so the flip does not move them).
    let marks = [(1, 2), (7, 2), (0, 3), (2, 3), (4, 3), (6, 3), (8, 3)];
    let (gap, len) = (3, 7);
    for (c, r) in marks.iter().flat_map(|&(c, r)| [(c, r), (c, 9 - r)]) {
        let (x, y) = g.at(c, r);
        for dx in [-1, 1] {
            if (c == 0 && dx < 0) || (c == 8 && dx > 0) {
                continue;
            }
            for dy in [-1, 1] {
                let _ = write!(
                    d,
                    "M{},{}V{}H{}",
                    x + dx * gap,
                    y + dy * (gap + len),
                    y + dy * gap,
                    x + dx * (gap + len)
                );
            }
        }
    }
    let _ = write!(s, "<path d=\"{d}\"/></g>");
    let (_, yr) = g.at(0, 4);
    let ym = yr + CELL / 2;
    for (c, text) in [(2, "楚　河"), (6, "漢　界")] {
        let (x, _) = g.at(c, 0);
        let _ = write!(
            s,
            "<text x=\"{x}\" y=\"{ym}\" text-anchor=\"middle\" dominant-baseline=\"central\" \
             font-size=\"22\" fill=\"{LINE}\" \
             fill-opacity=\"0.8\">{text}</text>"
        );
    }
}

/// Rank digits on the left, file letters under the board, each side's
/// file numbers on its own edge.
fn coordinates(s: &mut String, g: &Geometry) {
    const RED_FILES: [&str; 9] = ["九", "八", "七", "六", "五", "四", "三", "二", "一"];
    let _ = write!(
        s,
        "<g class=\"coords\" font-size=\"13\" fill=\"{LINE}\" \
         text-anchor=\"middle\" dominant-baseline=\"central\">"
    );
    let pad = CELL / 2 + 2;
    for rank in 0..10u8 {
        let (_, y) = g.point(Square::new(0, rank));
        let _ = write!(s, "<text x=\"{}\" y=\"{y}\">{rank}</text>", g.x0 - pad - 10);
    }
    let (bottom, top) = if g.flip {
        (Color::Black, Color::Red)
    } else {
        (Color::Red, Color::Black)
    };
    let y_top = g.y0 - pad - 10;
    let y_bottom = g.y0 + 9 * CELL + pad + 10;
    for file in 0..9u8 {
        let (x, _) = g.point(Square::new(file, 0));
        for (side, y) in [(top, y_top), (bottom, y_bottom)] {
            let number = match side {
                Color::Red => RED_FILES[file as usize].to_string(),
                Color::Black => (file + 1).to_string(),
            };
            let _ = write!(s, "<text x=\"{x}\" y=\"{y}\">{number}</text>");
        }
        let _ = write!(
            s,
            "<text x=\"{x}\" y=\"{}\" font-style=\"italic\">{}</text>",
            y_bottom + 18,
            (b'a' + file) as char
        );
    }
    s.push_str("</g>");
}

/// Arrows for `moves`: the first (the move to play) boldest, the sides'
/// moves in two colours, each numbered when there are several.
fn arrows(s: &mut String, g: &Geometry, id: &str, moves: &[Move]) {
    let moves: Vec<Move> = moves.iter().copied().filter(|m| m.is_some()).collect();
    if moves.is_empty() {
        return;
    }
    s.push_str("<g class=\"arrows\" stroke-linecap=\"round\">");
    // Later moves under earlier ones.
    for (i, m) in moves.iter().enumerate().rev() {
        let colour = i % 2;
        let (xa, ya) = g.point(m.from());
        let (xb, yb) = g.point(m.to());
        // Stop short of the target's centre so the head points at it.
        let (dx, dy) = ((xb - xa) as f64, (yb - ya) as f64);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let back = 10.0;
        let (xe, ye) = (xb as f64 - dx / len * back, yb as f64 - dy / len * back);
        let width = if i == 0 { 7 } else { 5 };
        let opacity = if i < 2 { 0.85 } else { 0.6 };
        let _ = write!(
            s,
            "<line class=\"arrow\" x1=\"{xa}\" y1=\"{ya}\" x2=\"{xe:.1}\" y2=\"{ye:.1}\" \
             stroke=\"{}\" stroke-width=\"{width}\" stroke-opacity=\"{opacity}\" \
             marker-end=\"url(#{id}-head{colour})\"/>",
            ARROW_COLOURS[colour]
        );
        if moves.len() > 1 {
            // Near the start, so that a one-step arrow's number does not
            // hide its head.
            let (xm, ym) = (
                xa as f64 + 0.3 * (xe - xa as f64),
                ya as f64 + 0.3 * (ye - ya as f64),
            );
            let _ = write!(
                s,
                "<circle cx=\"{xm:.1}\" cy=\"{ym:.1}\" r=\"8\" fill=\"{}\"/><text x=\"{xm:.1}\" \
                 y=\"{ym:.1}\" text-anchor=\"middle\" dominant-baseline=\"central\" \
                 font-family=\"sans-serif\" font-size=\"11\" font-weight=\"bold\" \
                 fill=\"#fff\">{}</text>",
                ARROW_COLOURS[colour],
                i + 1
            );
        }
    }
    s.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses_of<'a>(svg: &'a str, id: &str) -> Vec<&'a str> {
        let needle = format!("<use href=\"#{id}");
        svg.match_indices(&needle)
            .map(|(i, _)| &svg[i..i + svg[i..].find("/>").unwrap()])
            .collect()
    }

    /// The (x, y) of the one piece drawn with id `pid`.
    fn place(svg: &str, pid: &str) -> (i32, i32) {
        let found = uses_of(svg, pid);
        assert_eq!(found.len(), 1, "{pid}: {found:?}");
        let num = |key: &str| -> i32 {
            let t = found[0].split(key).nth(1).unwrap();
            t[..t.find('"').unwrap()].parse().unwrap()
        };
        (num(" x=\""), num(" y=\""))
    }

    #[test]
    fn every_piece_is_drawn_once_with_its_character() {
        let pos = Position::startpos();
        let svg = svg(&pos, &Options::default());
        assert_eq!(uses_of(&svg, "xq-r").len(), 16);
        assert_eq!(uses_of(&svg, "xq-b").len(), 16);
        for c in [
            '帅', '将', '仕', '士', '相', '象', '马', '车', '炮', '兵', '卒',
        ] {
            assert!(svg.contains(c), "{c}");
        }
        // Two pieces left: two drawn.
        let bare = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
        let svg = super::svg(&bare, &Options::default());
        assert_eq!(uses_of(&svg, "xq-").len(), 2, "{svg}");
        assert!(svg.contains("data-fen=\"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\""));
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn points_and_the_flip() {
        let pos = Position::startpos();
        let o = Options::default();
        let g = Geometry::new(&o);
        let svg = svg(&pos, &o);
        // Red's king on e0: middle column, bottom row.
        assert_eq!(place(&svg, "xq-rK"), (g.x0 + 4 * CELL, g.y0 + 9 * CELL));
        assert_eq!(place(&svg, "xq-bk"), (g.x0 + 4 * CELL, g.y0));
        // Black's left chariot (a9) in the top-left corner.
        let a9 = Square::new(0, 9);
        assert_eq!(g.point(a9), (g.x0, g.y0));
        let flipped = Options {
            flip: true,
            ..Options::default()
        };
        let gf = Geometry::new(&flipped);
        let svg = super::svg(&pos, &flipped);
        assert_eq!(place(&svg, "xq-rK"), (gf.x0 + 4 * CELL, gf.y0));
        assert_eq!(place(&svg, "xq-bk"), (gf.x0 + 4 * CELL, gf.y0 + 9 * CELL));
        // a9 goes to the bottom right, i0 to the top left.
        assert_eq!(gf.point(a9), (gf.x0 + 8 * CELL, gf.y0 + 9 * CELL));
        assert_eq!(gf.point(Square::new(8, 0)), (gf.x0, gf.y0));
        assert!(svg.contains("data-flip=\"1\""));
        // Every point is inside the drawing, the discs too.
        for o in [&o, &flipped] {
            let g = Geometry::new(o);
            for sq in Square::all() {
                let (x, y) = g.point(sq);
                assert!(x - PIECE_RADIUS >= 0 && x + PIECE_RADIUS <= g.width);
                assert!(y - PIECE_RADIUS >= 0 && y + PIECE_RADIUS <= g.height);
            }
        }
    }

    #[test]
    fn coordinates_follow_the_view() {
        let pos = Position::startpos();
        let with = svg(&pos, &Options::default());
        assert!(with.contains("class=\"coords\""));
        // File letters left to right for Red, right to left for Black.
        let at = |svg: &str, text: &str| {
            svg.find(&format!(">{text}</text>"))
                .unwrap_or_else(|| panic!("{text}"))
        };
        assert!(at(&with, "a") < at(&with, "i"));
        assert!(with.contains(">九</text>") && with.contains(">9</text>"));
        let g = Geometry::new(&Options::default());
        let x_of_a = g.point(Square::new(0, 0)).0;
        assert!(with.contains(&format!(
            "<text x=\"{x_of_a}\" y=\"{}\"",
            g.y0 + 9 * CELL + 22 + 28
        )));
        let without = svg(
            &pos,
            &Options {
                coordinates: false,
                ..Options::default()
            },
        );
        assert!(!without.contains("class=\"coords\""));
        assert!(
            Geometry::new(&Options::default()).width
                > Geometry::new(&Options {
                    coordinates: false,
                    ..Options::default()
                })
                .width
        );
    }

    #[test]
    fn arrows_and_the_last_move() {
        let mut pos = Position::startpos();
        let m = |t: &str| Move::parse(t).unwrap();
        pos.make_move(m("h2e2"));
        let o = Options {
            last_move: Some(m("h2e2")),
            arrows: vec![m("h9g7"), m("h0g2"), m("i9h9")],
            id: "b1".into(),
            ..Options::default()
        };
        let svg = svg(&pos, &o);
        assert_eq!(uses_of(&svg, "b1-mark").len(), 2);
        assert_eq!(svg.matches("class=\"arrow\"").count(), 3);
        assert!(svg.contains("url(#b1-head0)") && svg.contains("url(#b1-head1)"));
        // The first arrow starts on h9.
        let (x, y) = Geometry::new(&o).point(Square::new(7, 9));
        assert!(svg.contains(&format!("x1=\"{x}\" y1=\"{y}\"")));
        // The cannon now stands on e2.
        let (ex, ey) = Geometry::new(&o).point(Square::new(4, 2));
        assert!(svg.contains(&format!("<use href=\"#b1-rC\" x=\"{ex}\" y=\"{ey}\"/>")));
        let one = super::svg(
            &pos,
            &Options {
                arrows: vec![m("h9g7")],
                ..Options::default()
            },
        );
        assert_eq!(one.matches("class=\"arrow\"").count(), 1);
        assert!(!one.contains("<circle cx="), "a lone arrow is not numbered");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
