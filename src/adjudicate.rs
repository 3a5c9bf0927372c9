//! Score adjudication: ending a game early when the engines' own scores
//! have agreed for long enough that it is won or drawn. The match runner
//! and self-play data generation both judge by this one rule set.
//!
//! Scores are kept per side, each from that side's own point of view, as
//! engines report them; a move without a score (a book move, an engine that
//! did not say) breaks any run. The rules, each optional:
//!
//! - **win**: a side whose last `moves` scores are all at or below
//!   `-score`, while its opponent's last `moves` are all at or above
//!   `score`, loses;
//! - **draw**: once the game has reached move `after_move`, both sides'
//!   last `count` scores all within ±`score` make a draw.

use crate::types::Color;

/// Which adjudication rules apply; none unless set.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    /// `(score, moves)` of the win rule.
    pub resign: Option<(i32, u32)>,
    pub draw: Option<DrawAdjudication>,
}

/// The draw rule's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawAdjudication {
    pub score: i32,
    /// The full-move number from which the rule applies.
    pub after_move: u32,
    /// Scores of each side that must all lie within ±`score`.
    pub count: u32,
}

/// What adjudication decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win(Color),
    Draw,
}

/// The scores each side reported, from its own point of view.
#[derive(Clone, Debug, Default)]
pub struct ScoreTrail([Vec<Option<i32>>; 2]);

impl ScoreTrail {
    pub fn new() -> ScoreTrail {
        ScoreTrail::default()
    }

    /// Records the score `side` gave with its move.
    pub fn push(&mut self, side: Color, score: Option<i32>) {
        self.0[side.index()].push(score);
    }

    /// Whether the last `n` scores of `side` all satisfy `test`.
    fn last_all(&self, side: Color, n: u32, test: impl Fn(i32) -> bool) -> bool {
        let v = &self.0[side.index()];
        let n = n.max(1) as usize;
        v.len() >= n && v[v.len() - n..].iter().all(|s| s.is_some_and(&test))
    }

    /// The verdict of `adj` on the scores so far, at full move `fullmove`.
    pub fn verdict(&self, adj: &Adjudication, fullmove: u32) -> Option<Verdict> {
        if let Some((score, moves)) = adj.resign {
            for side in Color::BOTH {
                if self.last_all(side, moves, |s| s <= -score)
                    && self.last_all(!side, moves, |s| s >= score)
                {
                    return Some(Verdict::Win(!side));
                }
            }
        }
        if let Some(d) = adj.draw
            && fullmove >= d.after_move
            && Color::BOTH
                .iter()
                .all(|&c| self.last_all(c, d.count, |s| s.abs() <= d.score))
        {
            return Some(Verdict::Draw);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trail(red: &[Option<i32>], black: &[Option<i32>]) -> ScoreTrail {
        ScoreTrail([red.to_vec(), black.to_vec()])
    }

    #[test]
    fn wins_and_draws_need_both_sides_to_agree_long_enough() {
        let adj = Adjudication {
            resign: Some((600, 3)),
            draw: Some(DrawAdjudication {
                score: 10,
                after_move: 30,
                count: 2,
            }),
        };
        let mut t = ScoreTrail::new();
        for _ in 0..3 {
            t.push(Color::Red, Some(700));
            t.push(Color::Black, Some(-650));
        }
        assert_eq!(t.verdict(&adj, 10), Some(Verdict::Win(Color::Red)));
        // One missing score breaks the run.
        t.0[1][1] = None;
        assert_eq!(t.verdict(&adj, 10), None);
        // The loser must agree: a side that still thinks itself fine is
        // not adjudicated lost.
        let hopeful = trail(&[Some(700); 3], &[Some(-650), Some(-650), Some(-100)]);
        assert_eq!(hopeful.verdict(&adj, 10), None);
        let black_wins = trail(&[Some(-900); 3], &[Some(600); 3]);
        assert_eq!(
            black_wins.verdict(&adj, 10),
            Some(Verdict::Win(Color::Black))
        );
        let mut d = trail(&[Some(5), Some(-3)], &[Some(0), Some(10)]);
        assert_eq!(d.verdict(&adj, 29), None);
        assert_eq!(d.verdict(&adj, 30), Some(Verdict::Draw));
        d.push(Color::Black, Some(11));
        assert_eq!(d.verdict(&adj, 40), None);
        assert_eq!(t.verdict(&Adjudication::default(), 99), None);
    }
}
