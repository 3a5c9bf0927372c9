//! The match report's charts as SVG: lines over a shared x axis (with an
//! optional band around a line, for an interval) and bars with a reference
//! line. Axes get round-numbered ticks; points that are not finite break a
//! line; whatever falls outside the chosen range is clipped.

use crate::diagram::escape;
use std::fmt::Write;

/// Size of every chart, and the margins around its plotting area.
const WIDTH: f64 = 560.0;
const HEIGHT: f64 = 280.0;
const LEFT: f64 = 58.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 42.0;

/// One line, with an optional band (an interval around it).
#[derive(Clone, Debug, Default)]
pub struct Series {
    pub name: String,
    pub colour: String,
    pub points: Vec<(f64, f64)>,
    /// `(x, low, high)`.
    pub band: Vec<(f64, f64, f64)>,
    pub dashed: bool,
}

/// A horizontal line across the chart: zero, a bound.
#[derive(Clone, Debug)]
pub struct Rule {
    pub y: f64,
    pub label: String,
    pub colour: String,
}

#[derive(Clone, Debug, Default)]
pub struct LineChart {
    /// Unique in the page (it names the clipping path).
    pub id: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    pub rules: Vec<Rule>,
    /// The y range; by default the data's (and the rules').
    pub y_range: Option<(f64, f64)>,
}

/// One bar: its value, its colour and the text shown on hovering it.
#[derive(Clone, Debug)]
pub struct Bar {
    pub value: f64,
    pub colour: String,
    pub tip: String,
}

#[derive(Clone, Debug, Default)]
pub struct BarChart {
    pub id: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub bars: Vec<Bar>,
    pub y_range: (f64, f64),
    pub rule: Option<Rule>,
}

/// Round tick values covering `lo..=hi`, about `n` of them: steps of 1, 2
/// or 5 times a power of ten.
pub fn ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    ticks_at_least(lo, hi, n, 0.0)
}

/// [`ticks`] at least `min_step` apart (1 for counts: no tick at 2.5
/// games).
fn ticks_at_least(lo: f64, hi: f64, n: usize, min_step: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return vec![lo];
    }
    let raw = ((hi - lo) / n.max(1) as f64).max(min_step);
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// A tick's text: no more decimals than the step needs.
fn tick_text(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    let t = format!("{:.*}", decimals, v + 0.0);
    if t == "-0" { "0".into() } else { t }
}

/// The range a set of values spans, widened a little; a range of one
/// value is widened to one around it.
fn span(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return None;
    }
    if hi - lo < 1e-9 {
        return Some((lo - 1.0, hi + 1.0));
    }
    let pad = (hi - lo) * 0.05;
    Some((lo - pad, hi + pad))
}

struct Frame {
    x: (f64, f64),
    y: (f64, f64),
}

impl Frame {
    fn px(&self, x: f64) -> f64 {
        LEFT + (x - self.x.0) / (self.x.1 - self.x.0) * (WIDTH - LEFT - RIGHT)
    }
    fn py(&self, y: f64) -> f64 {
        HEIGHT - BOTTOM - (y - self.y.0) / (self.y.1 - self.y.0) * (HEIGHT - TOP - BOTTOM)
    }
}

/// The frame, the ticks and grid lines, the labels and the clip path.
/// `x_ticks`: the smallest step between ticks on the x axis, or `None`
/// for no x ticks.
fn axes(
    s: &mut String,
    f: &Frame,
    id: &str,
    title: &str,
    x_label: &str,
    y_label: &str,
    x_ticks: Option<f64>,
) {
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         class=\"chart\" id=\"{id}\" font-family=\"sans-serif\" font-size=\"11\">\
         <clipPath id=\"{id}-clip\"><rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\"/></clipPath>\
         <text x=\"{}\" y=\"18\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\">{}</text>",
        WIDTH - LEFT - RIGHT,
        HEIGHT - TOP - BOTTOM,
        (LEFT + WIDTH - RIGHT) / 2.0,
        escape(title)
    );
    s.push_str("<g class=\"grid\" stroke=\"#ddd\" stroke-width=\"1\">");
    let yt = ticks(f.y.0, f.y.1, 5);
    let ystep = if yt.len() > 1 { yt[1] - yt[0] } else { 1.0 };
    for &v in &yt {
        let y = f.py(v);
        let _ = write!(
            s,
            "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/>",
            WIDTH - RIGHT
        );
    }
    s.push_str("</g><g fill=\"#444\">");
    for &v in &yt {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" dominant-baseline=\"central\">{}</text>",
            LEFT - 6.0,
            f.py(v),
            tick_text(v, ystep)
        );
    }
    if let Some(min_step) = x_ticks {
        let xt = ticks_at_least(f.x.0, f.x.1, 8, min_step);
        let xstep = if xt.len() > 1 { xt[1] - xt[0] } else { 1.0 };
        for &v in &xt {
            let _ = write!(
                s,
                "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                f.px(v),
                HEIGHT - BOTTOM + 15.0,
                tick_text(v, xstep)
            );
        }
    }
    let _ = write!(
        s,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>\
         <text transform=\"translate(14 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text></g>\
         <rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888\"/>",
        (LEFT + WIDTH - RIGHT) / 2.0,
        HEIGHT - 8.0,
        escape(x_label),
        (TOP + HEIGHT - BOTTOM) / 2.0,
        escape(y_label),
        WIDTH - LEFT - RIGHT,
        HEIGHT - TOP - BOTTOM
    );
}

fn rule(s: &mut String, f: &Frame, r: &Rule) {
    if !(f.y.0..=f.y.1).contains(&r.y) {
        return;
    }
    let y = f.py(r.y);
    // The label above the line, or below it when the line runs along the top.
    let label_y = if y - TOP < 16.0 { y + 12.0 } else { y - 4.0 };
    let _ = write!(
        s,
        "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"{}\" \
         stroke-dasharray=\"5 3\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"{}\">{}</text>",
        WIDTH - RIGHT,
        escape(&r.colour),
        WIDTH - RIGHT - 4.0,
        label_y,
        escape(&r.colour),
        escape(&r.label)
    );
}

/// A path through the finite points, broken where one is not.
fn path(points: impl Iterator<Item = (f64, f64)>, f: &Frame) -> String {
    let mut d = String::new();
    let mut pen_down = false;
    for (x, y) in points {
        if x.is_finite() && y.is_finite() {
            let _ = write!(
                d,
                "{}{:.1},{:.1}",
                if pen_down { 'L' } else { 'M' },
                f.px(x),
                f.py(y)
            );
            pen_down = true;
        } else {
            pen_down = false;
        }
    }
    d
}

impl LineChart {
    /// The x range of the data: lines run to the frame.
    fn x_range(&self) -> (f64, f64) {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for s in &self.series {
            for &(x, _) in s.points.iter().filter(|p| p.0.is_finite()) {
                lo = lo.min(x);
                hi = hi.max(x);
            }
        }
        if lo > hi { (0.0, 1.0) } else { (lo, hi) }
    }

    fn y_range_of_data(&self) -> (f64, f64) {
        let ys = self
            .series
            .iter()
            .flat_map(|s| {
                s.points
                    .iter()
                    .map(|p| p.1)
                    .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
            })
            .chain(self.rules.iter().map(|r| r.y));
        span(ys).unwrap_or((-1.0, 1.0))
    }

    pub fn svg(&self) -> String {
        let (x0, x1) = self.x_range();
        let f = Frame {
            x: if x1 > x0 {
                (x0, x1)
            } else {
                (x0 - 1.0, x0 + 1.0)
            },
            y: self.y_range.unwrap_or_else(|| self.y_range_of_data()),
        };
        let mut s = String::new();
        // Whole-number x values (games, moves) get whole-number ticks.
        let whole = self
            .series
            .iter()
            .flat_map(|s| &s.points)
            .all(|p| p.0.fract() == 0.0);
        let min_step = if whole { 1.0 } else { 0.0 };
        axes(
            &mut s,
            &f,
            &self.id,
            &self.title,
            &self.x_label,
            &self.y_label,
            Some(min_step),
        );
        let _ = write!(s, "<g clip-path=\"url(#{}-clip)\">", self.id);
        for r in &self.rules {
            rule(&mut s, &f, r);
        }
        for series in &self.series {
            let colour = escape(&series.colour);
            let band: Vec<_> = series
                .band
                .iter()
                .filter(|b| b.0.is_finite() && b.1.is_finite() && b.2.is_finite())
                .collect();
            if band.len() > 1 {
                let upper = band.iter().map(|b| (b.0, b.2));
                let lower = band.iter().rev().map(|b| (b.0, b.1));
                let d = path(upper.chain(lower), &f);
                let _ = write!(
                    s,
                    "<path d=\"{d}Z\" fill=\"{colour}\" fill-opacity=\"0.18\"/>"
                );
            }
            let d = path(series.points.iter().copied(), &f);
            if !d.is_empty() {
                let dash = if series.dashed {
                    " stroke-dasharray=\"6 3\""
                } else {
                    ""
                };
                let _ = write!(
                    s,
                    "<path d=\"{d}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.8\"{dash}/>"
                );
            }
            // A lone point would not show as a line.
            if series.points.iter().filter(|p| p.1.is_finite()).count() == 1 {
                let (x, y) = *series.points.iter().find(|p| p.1.is_finite()).unwrap();
                let _ = write!(
                    s,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{colour}\"/>",
                    f.px(x),
                    f.py(y)
                );
            }
        }
        s.push_str("</g>");
        legend(&mut s, &self.series);
        s.push_str("</svg>");
        s
    }
}

/// Names and colours in the top-left corner of the plotting area.
fn legend(s: &mut String, series: &[Series]) {
    let named: Vec<&Series> = series.iter().filter(|s| !s.name.is_empty()).collect();
    if named.len() < 2 {
        return;
    }
    s.push_str("<g class=\"legend\">");
    for (i, series) in named.iter().enumerate() {
        let y = TOP + 12.0 + 14.0 * i as f64;
        let dash = if series.dashed {
            " stroke-dasharray=\"6 3\""
        } else {
            ""
        };
        let _ = write!(
            s,
            "<line x1=\"{}\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\" stroke=\"{c}\" stroke-width=\"2\"{dash}/>\
             <text x=\"{}\" y=\"{y}\" dominant-baseline=\"central\" fill=\"#222\">{}</text>",
            LEFT + 8.0,
            LEFT + 26.0,
            LEFT + 30.0,
            escape(&series.name),
            c = escape(&series.colour),
        );
    }
    s.push_str("</g>");
}

impl BarChart {
    pub fn svg(&self) -> String {
        let n = self.bars.len().max(1) as f64;
        let f = Frame {
            x: (0.0, n),
            y: self.y_range,
        };
        let mut s = String::new();
        axes(
            &mut s,
            &f,
            &self.id,
            &self.title,
            &self.x_label,
            &self.y_label,
            None,
        );
        let _ = write!(s, "<g clip-path=\"url(#{}-clip)\">", self.id);
        let slot = f.px(1.0) - f.px(0.0);
        // A few openings do not make a few slabs: bars are 24 wide at most.
        let gap = if slot > 6.0 {
            (slot * 0.15).max(slot - 24.0)
        } else {
            0.0
        };
        let base = f.py(self.y_range.0.max(0.0).min(self.y_range.1));
        for (i, b) in self.bars.iter().enumerate() {
            let top = f.py(b.value.clamp(self.y_range.0, self.y_range.1));
            let (y, h) = if top < base {
                (top, base - top)
            } else {
                (base, top - base)
            };
            let _ = write!(
                s,
                "<rect x=\"{:.2}\" y=\"{y:.1}\" width=\"{:.2}\" height=\"{:.1}\" fill=\"{}\"><title>{}</title></rect>",
                f.px(i as f64) + gap / 2.0,
                (slot - gap).max(0.5),
                h.max(0.5),
                escape(&b.colour),
                escape(&b.tip)
            );
        }
        if let Some(r) = &self.rule {
            rule(&mut s, &f, r);
        }
        s.push_str("</g></svg>");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(ticks(0.0, 10.0, 5), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(-33.0, 47.0, 4), [-20.0, 0.0, 20.0, 40.0]);
        assert_eq!(
            ticks(0.5, 1.0, 5),
            [0.5, 0.6, 0.7, 0.8, 0.9, 1.0].map(|v: f64| {
                // The same arithmetic as the ticks: k * step.
                (v * 10.0).round() * 0.1
            })
        );
        assert_eq!(tick_text(0.30000000000000004, 0.1), "0.3");
        assert_eq!(tick_text(-0.0, 1.0), "0");
        assert_eq!(tick_text(1500.0, 500.0), "1500");
        assert_eq!(ticks(3.0, 3.0, 5), [3.0]);
        assert_eq!(ticks_at_least(1.0, 4.0, 8, 1.0), [1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn lines_break_at_missing_points_and_stay_in_the_frame() {
        let chart = LineChart {
            id: "t".into(),
            title: "Elo <over> games".into(),
            series: vec![Series {
                name: "a".into(),
                colour: "#f00".into(),
                points: vec![(1.0, 0.0), (2.0, f64::INFINITY), (3.0, 5.0), (4.0, 10.0)],
                band: vec![(1.0, -1.0, 1.0), (3.0, 4.0, 6.0), (4.0, 8.0, 12.0)],
                dashed: false,
            }],
            rules: vec![Rule {
                y: 0.0,
                label: "zero".into(),
                colour: "#888".into(),
            }],
            ..LineChart::default()
        };
        let svg = chart.svg();
        assert!(svg.contains("Elo &lt;over&gt; games"));
        // Two pieces of line: M..., then M...L...
        let line = svg
            .split("<path d=\"")
            .filter(|p| p.contains("fill=\"none\""))
            .last()
            .unwrap();
        assert_eq!(line.matches('M').count(), 2, "{line}");
        assert_eq!(line.matches('L').count(), 1, "{line}");
        // The x axis runs from the first point to the last.
        assert!(line.starts_with(&format!("M{LEFT:.1},")), "{line}");
        assert!(svg.contains(&format!("L{:.1},", WIDTH - RIGHT)), "{svg}");
        assert!(svg.contains("clip-path=\"url(#t-clip)\""));
        assert!(svg.contains(">zero</text>"));
    }

    #[test]
    fn bars_have_tips_and_a_rule() {
        let chart = BarChart {
            id: "b".into(),
            title: "score by opening".into(),
            bars: vec![
                Bar {
                    value: 75.0,
                    colour: "green".into(),
                    tip: "h2e2: 3/4".into(),
                },
                Bar {
                    value: 25.0,
                    colour: "red".into(),
                    tip: "c3c4: 1/4".into(),
                },
            ],
            y_range: (0.0, 100.0),
            rule: Some(Rule {
                y: 50.0,
                label: "50%".into(),
                colour: "#555".into(),
            }),
            ..BarChart::default()
        };
        let svg = chart.svg();
        assert_eq!(
            svg.matches("<rect x=").count(),
            4,
            "clip, frame and two bars"
        );
        assert!(svg.contains("<title>h2e2: 3/4</title>"));
        // The 75% bar is three times as tall as the 25% one.
        let heights: Vec<f64> = svg
            .split("height=\"")
            .skip(3)
            .map(|t| t[..t.find('"').unwrap()].parse().unwrap())
            .take(2)
            .collect();
        assert!((heights[0] - 3.0 * heights[1]).abs() < 0.5, "{heights:?}");
    }
}
