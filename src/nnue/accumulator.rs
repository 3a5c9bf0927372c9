//! The accumulators of one search thread, one pair per ply, kept in step
//! with the position by `push_move`/`push_null`/`pop` (the search calls
//! them beside `make_move`/`unmake_move`).
//!
//! Pushing a move only records what it changed on the board (the moved
//! piece's two points and any captured piece); the accumulator itself is
//! brought up to date when an evaluation asks for it, from the nearest ply
//! below whose accumulator is known, by adding and subtracting those
//! features' weight rows. Nodes cut off before they evaluate thus cost
//! nothing, and popping is free. No feature depends on where the kings
//! stand, so a full refresh is only needed at the root.

use super::features::{self, INPUTS};
use super::network::Network;
use super::simd::{self, Accumulator};
use crate::position::Position;
use crate::types::*;
use std::sync::Arc;

/// What one ply changed: at most one piece put down and two taken up.
#[derive(Clone, Copy, Default)]
struct Delta {
    added: Option<(Piece, Square)>,
    removed: [Option<(Piece, Square)>; 2],
}

#[derive(Clone, Copy, Default)]
struct Entry {
    /// Indexed by perspective colour.
    acc: [Accumulator; 2],
    computed: bool,
    delta: Delta,
}

/// One thread's accumulator stack over one network.
pub struct NnueStack {
    net: Arc<Network>,
    entries: Vec<Entry>,
    top: usize,
}

impl NnueStack {
    pub fn new(net: Arc<Network>) -> NnueStack {
        NnueStack {
            net,
            entries: vec![Entry::default(); MAX_PLY + 16],
            top: 0,
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Starts over at `pos` (the search root) with a full refresh.
    pub fn reset(&mut self, pos: &Position) {
        self.top = 0;
        let e = &mut self.entries[0];
        for persp in Color::BOTH {
            refresh(&self.net, pos, persp, &mut e.acc[persp.index()]);
        }
        e.computed = true;
    }

    fn push(&mut self, delta: Delta) {
        self.top += 1;
        if self.top == self.entries.len() {
            self.entries.push(Entry::default());
        }
        let e = &mut self.entries[self.top];
        e.computed = false;
        e.delta = delta;
    }

    /// Records the move `m` about to be made in `pos`.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        let pc = pos.piece_on(m.from());
        let captured = pos.piece_on(m.to());
        self.push(Delta {
            added: Some((pc, m.to())),
            removed: [
                Some((pc, m.from())),
                captured.is_some().then_some((captured, m.to())),
            ],
        });
    }

    /// Records a null move (nothing changes on the board).
    #[inline]
    pub fn push_null(&mut self) {
        self.push(Delta::default());
    }

    /// Forgets the last push.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0);
        self.top = self.top.saturating_sub(1);
    }

    /// The network's output for `pos` (which must be the position the
    /// pushes led to), side to move's view; `evaluate` adds what the
    /// network was trained against.
    pub fn output(&mut self, pos: &Position) -> Score {
        self.bring_up_to_date();
        let e = &self.entries[self.top];
        let us = pos.side_to_move();
        let bucket = features::bucket(pos.occupied().count());
        self.net
            .output(&e.acc[us.index()], &e.acc[(!us).index()], bucket)
    }

    fn bring_up_to_date(&mut self) {
        let mut base = self.top;
        while !self.entries[base].computed {
            // Entry 0 is always computed after `reset`.
            base -= 1;
        }
        for i in base + 1..=self.top {
            let (below, here) = self.entries.split_at_mut(i);
            let (prev, cur) = (&below[i - 1], &mut here[0]);
            for persp in Color::BOTH {
                let mut add = [0usize; 1];
                let mut sub = [0usize; 2];
                let n_add = cur.delta.added.map_or(0, |(p, s)| {
                    add[0] = features::index(persp, p, s);
                    1
                });
                let mut n_sub = 0;
                for &(p, s) in cur.delta.removed.iter().flatten() {
                    sub[n_sub] = features::index(persp, p, s);
                    n_sub += 1;
                }
                simd::update(
                    &mut cur.acc[persp.index()],
                    &prev.acc[persp.index()],
                    &self.net.ft_weights,
                    &add[..n_add],
                    &sub[..n_sub],
                );
            }
            cur.computed = true;
        }
    }

    /// The current accumulators (for tests: they must equal a refresh).
    pub fn current(&mut self) -> [Accumulator; 2] {
        self.bring_up_to_date();
        self.entries[self.top].acc
    }
}

/// The accumulator of `persp` computed from scratch.
pub fn refresh(net: &Network, pos: &Position, persp: Color, acc: &mut Accumulator) {
    let mut feats = [0usize; 32];
    let mut n = 0;
    for sq in pos.occupied() {
        if n < feats.len() {
            feats[n] = features::index(persp, pos.piece_on(sq), sq);
            debug_assert!(feats[n] < INPUTS);
            n += 1;
        }
    }
    simd::refresh(acc, &net.ft_bias, &net.ft_weights, &feats[..n]);
}

/// The network's output for `pos` computed from scratch.
pub fn output_full(net: &Network, pos: &Position) -> Score {
    let mut acc = [Accumulator::default(); 2];
    for persp in Color::BOTH {
        refresh(net, pos, persp, &mut acc[persp.index()]);
    }
    let us = pos.side_to_move();
    net.output(
        &acc[us.index()],
        &acc[(!us).index()],
        features::bucket(pos.occupied().count()),
    )
}
