//! Placeholder for the rules module (issue 3 replaces this file): repetition
//! as a plain draw, the natural move limit without the check cap, and dead
//! material. The API matches the contract the searcher is written against.

use crate::position::Position;
use crate::types::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSettings {
    pub move_limit: u32,
    pub check_cap: u32,
}

impl Default for RuleSettings {
    fn default() -> Self {
        RuleSettings {
            move_limit: 60,
            check_cap: 10,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionVerdict {
    Draw,
    SideToMoveWins,
    SideToMoveLoses,
}

pub fn repetition_verdict(pos: &mut Position) -> Option<RepetitionVerdict> {
    let states = pos.states();
    let n = states.len();
    let st = &states[n - 1];
    let window = (st.rule60.min(st.plies_from_null) as usize).min(n - 1);
    let mut i = 4;
    while i <= window {
        if states[n - 1 - i].key == st.key {
            return Some(RepetitionVerdict::Draw);
        }
        i += 2;
    }
    None
}

pub fn move_limit_reached(pos: &Position, settings: &RuleSettings) -> bool {
    pos.rule60() >= 2 * settings.move_limit
}

pub fn dead_material(pos: &Position) -> bool {
    let k = |p| pos.pieces_kind(p);
    (k(PieceKind::Chariot) | k(PieceKind::Horse) | k(PieceKind::Cannon) | k(PieceKind::Pawn))
        .is_empty()
}
