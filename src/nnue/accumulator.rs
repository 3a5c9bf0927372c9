//! The accumulators of one search thread, one pair per ply, kept in step
//! with the position by `push_move`/`push_null`/`pop` (the search calls
//! them beside `make_move`/`unmake_move`).
//!
//! Pushing a move only records what it changed on the board (the moved
//! piece's two points and any captured piece); an accumulator is brought
//! up to date when an evaluation asks for it, from the nearest ply below
//! whose accumulator is known, by adding and subtracting those features'
//! weight rows. Nodes cut off before they evaluate thus cost nothing, and
//! popping is free. With king input buckets a move of a side's own king
//! changes how that side sees the board (`features::KingView`): its
//! accumulator is then computed afresh, the other side's goes on
//! incrementally.
//!
//! Computing afresh goes through a cache (`RefreshCache`, Stockfish's
//! "Finny table"): for each perspective and view, the accumulator of the
//! board it last computed and that board. A refresh starts from the
//! cached accumulator and adds and subtracts only the pieces that differ,
//! a handful near the search tree's root instead of all of them.

use super::arch::InputBuckets;
use super::features::{self, KingView};
use super::network::Network;
use super::simd;
use crate::position::Position;
use crate::types::*;
use std::sync::Arc;

/// What one ply changed: at most one piece put down and two taken up, and
/// for each perspective whether its own king moved to another view.
#[derive(Clone, Copy, Default)]
struct Delta {
    added: Option<(Piece, Square)>,
    removed: [Option<(Piece, Square)>; 2],
    new_view: [bool; 2],
}

#[derive(Clone, Copy, Default)]
struct Entry {
    /// Indexed by perspective colour: whether that accumulator is known.
    computed: [bool; 2],
    /// How each perspective sees the board at this ply.
    views: [KingView; 2],
    delta: Delta,
}

/// One thread's accumulator stack over one network.
pub struct NnueStack {
    net: Arc<Network>,
    /// The accumulator width.
    width: usize,
    entries: Vec<Entry>,
    /// Entry `i`'s accumulator of perspective `c` is
    /// `acc[(2 * i + c) * width..][..width]`.
    acc: Vec<i16>,
    top: usize,
    /// Working space of the network's head.
    scratch: Vec<u8>,
    cache: RefreshCache,
}

/// For each perspective and view, the last board refreshed in that view
/// and its accumulator (see the top of this file).
struct RefreshCache {
    width: usize,
    boards: Vec<[Piece; 90]>,
    /// Entry `e`'s accumulator is `acc[e * width..][..width]`.
    acc: Vec<i16>,
}

/// Views per perspective: each king bucket, mirrored or not.
const VIEWS: usize = 2 * InputBuckets::KingPalace.count();

impl RefreshCache {
    fn new(net: &Network) -> RefreshCache {
        let width = net.shape.hidden;
        // Every entry starts as the empty board: the bias alone.
        let acc = (0..2 * VIEWS)
            .flat_map(|_| net.ft_bias.iter().copied())
            .collect();
        RefreshCache {
            width,
            boards: vec![[Piece::NONE; 90]; 2 * VIEWS],
            acc,
        }
    }

    /// Computes `persp`'s accumulator of `pos` into `out`, through the
    /// cached entry of its view; returns the view.
    fn refresh(
        &mut self,
        net: &Network,
        pos: &Position,
        persp: Color,
        out: &mut [i16],
    ) -> KingView {
        let view = features::king_view(net.shape.input_buckets, persp, pos.king_square(persp));
        let e = persp.index() * VIEWS + view.bucket as usize * 2 + view.mirror as usize;
        let w = self.width;
        // Each board holds at most 32 pieces, so neither list overflows.
        let (mut add, mut sub) = ([0usize; 32], [0usize; 32]);
        let (mut n_add, mut n_sub) = (0, 0);
        let cached = &mut self.boards[e];
        for (i, (&now, old)) in pos.board().iter().zip(cached.iter_mut()).enumerate() {
            if now == *old {
                continue;
            }
            let sq = Square::from_index(i);
            if old.is_some() {
                sub[n_sub] = features::index(view, persp, *old, sq);
                n_sub += 1;
            }
            if now.is_some() {
                add[n_add] = features::index(view, persp, now, sq);
                n_add += 1;
            }
            *old = now;
        }
        let cached = &mut self.acc[e * w..(e + 1) * w];
        simd::update_in_place(cached, &net.ft_weights, &add[..n_add], &sub[..n_sub]);
        out.copy_from_slice(cached);
        view
    }
}

impl NnueStack {
    pub fn new(net: Arc<Network>) -> NnueStack {
        let width = net.shape.hidden;
        let plies = MAX_PLY + 16;
        NnueStack {
            cache: RefreshCache::new(&net),
            net,
            width,
            entries: vec![Entry::default(); plies],
            acc: vec![0; plies * 2 * width],
            top: 0,
            scratch: vec![0; 2 * width],
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    fn slot(&self, ply: usize, persp: Color) -> std::ops::Range<usize> {
        let at = (2 * ply + persp.index()) * self.width;
        at..at + self.width
    }

    /// Starts over at `pos` (the search root) with a full refresh.
    pub fn reset(&mut self, pos: &Position) {
        self.top = 0;
        for persp in Color::BOTH {
            let slot = self.slot(0, persp);
            self.entries[0].views[persp.index()] =
                refresh(&self.net, pos, persp, &mut self.acc[slot]);
        }
        self.entries[0].computed = [true; 2];
    }

    fn push(&mut self, delta: Delta, views: [KingView; 2]) {
        self.top += 1;
        if self.top == self.entries.len() {
            self.entries.push(Entry::default());
            self.acc.resize(self.entries.len() * 2 * self.width, 0);
        }
        self.entries[self.top] = Entry {
            computed: [false; 2],
            views,
            delta,
        };
    }

    /// Records the move `m` about to be made in `pos`.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        let pc = pos.piece_on(m.from());
        let captured = pos.piece_on(m.to());
        let mut views = self.entries[self.top].views;
        let mut new_view = [false; 2];
        if pc.kind() == PieceKind::King {
            let c = pc.color();
            let v = features::king_view(self.net.shape.input_buckets, c, m.to());
            new_view[c.index()] = v != views[c.index()];
            views[c.index()] = v;
        }
        self.push(
            Delta {
                added: Some((pc, m.to())),
                removed: [
                    Some((pc, m.from())),
                    captured.is_some().then_some((captured, m.to())),
                ],
                new_view,
            },
            views,
        );
    }

    /// Records a null move (nothing changes on the board).
    #[inline]
    pub fn push_null(&mut self) {
        let views = self.entries[self.top].views;
        self.push(Delta::default(), views);
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
        for persp in Color::BOTH {
            self.bring_up_to_date(pos, persp);
        }
        let us = pos.side_to_move();
        let bucket = features::bucket(pos.occupied().count(), self.net.shape.out_buckets);
        let (a, b) = (self.slot(self.top, us), self.slot(self.top, !us));
        self.net
            .output(&self.acc[a], &self.acc[b], bucket, &mut self.scratch)
    }

    fn bring_up_to_date(&mut self, pos: &Position, persp: Color) {
        let p = persp.index();
        let mut base = self.top;
        while !self.entries[base].computed[p] {
            if self.entries[base].delta.new_view[p] {
                // The king moved to another view on the way: nothing below
                // helps; compute this ply's accumulator from the position.
                let slot = self.slot(self.top, persp);
                self.cache
                    .refresh(&self.net, pos, persp, &mut self.acc[slot]);
                self.entries[self.top].computed[p] = true;
                return;
            }
            // Entry 0 is always computed after `reset`.
            base -= 1;
        }
        let w = self.width;
        for i in base + 1..=self.top {
            let e = self.entries[i];
            let mut add = [0usize; 1];
            let mut sub = [0usize; 2];
            let view = e.views[p];
            let n_add = e.delta.added.map_or(0, |(pc, s)| {
                add[0] = features::index(view, persp, pc, s);
                1
            });
            let mut n_sub = 0;
            for &(pc, s) in e.delta.removed.iter().flatten() {
                sub[n_sub] = features::index(view, persp, pc, s);
                n_sub += 1;
            }
            let at = (2 * i + p) * w;
            let below = (2 * (i - 1) + p) * w;
            let (lo, hi) = self.acc.split_at_mut(at);
            simd::update(
                &mut hi[..w],
                &lo[below..below + w],
                &self.net.ft_weights,
                &add[..n_add],
                &sub[..n_sub],
            );
            self.entries[i].computed[p] = true;
        }
    }

    /// The current accumulators, by perspective (for tests: they must equal
    /// a refresh).
    pub fn current(&mut self, pos: &Position) -> [Vec<i16>; 2] {
        Color::BOTH.map(|persp| {
            self.bring_up_to_date(pos, persp);
            self.acc[self.slot(self.top, persp)].to_vec()
        })
    }
}

/// The accumulator of `persp` computed from scratch; returns the view it
/// was computed in.
pub fn refresh(net: &Network, pos: &Position, persp: Color, acc: &mut [i16]) -> KingView {
    let view = features::king_view(net.shape.input_buckets, persp, pos.king_square(persp));
    let mut feats = [0usize; 32];
    let mut n = 0;
    for sq in pos.occupied() {
        if n < feats.len() {
            feats[n] = features::index(view, persp, pos.piece_on(sq), sq);
            debug_assert!(feats[n] < net.shape.inputs());
            n += 1;
        }
    }
    simd::refresh(acc, &net.ft_bias, &net.ft_weights, &feats[..n]);
    view
}

/// The network's output for `pos` computed from scratch.
pub fn output_full(net: &Network, pos: &Position) -> Score {
    let h = net.shape.hidden;
    let mut acc = vec![0i16; 2 * h];
    let us = pos.side_to_move();
    let (a, b) = acc.split_at_mut(h);
    refresh(net, pos, us, a);
    refresh(net, pos, !us, b);
    let mut scratch = vec![0u8; 2 * h];
    net.output(
        a,
        b,
        features::bucket(pos.occupied().count(), net.shape.out_buckets),
        &mut scratch,
    )
}
