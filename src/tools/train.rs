//! `train`: fits the network to training records (`nnue::data`) and writes
//! the quantised network file.
//!
//! The model is the inference network in `f32`: per perspective, the sum of
//! the active features' weight rows plus a bias, a squared clipped ReLU,
//! then the output bucket's neuron. The prediction is
//! `sigmoid(SCALE * y / K)`; the target blends the search score and the
//! game result, `lambda * sigmoid(score / K) + (1 - lambda) * result`, both
//! from the side to move's view; the loss is the mean squared error.
//! Adam, mini-batches, a step-decayed learning rate, weights clipped to
//! the ranges the quantised kernels need. Every batch is split over the
//! threads, each with its own gradient; the gradients are summed before
//! each step, so the result does not depend on the thread count beyond
//! float rounding.
//!
//! Xiangqi's rules are symmetric left to right, so each position may be
//! seen mirrored (`mirror`): half the samples of every epoch, chosen at
//! random, are reflected, which doubles the data the net sees.
//!
//! Validation: whole blocks of records (a block is a few dozen games'
//! worth, so one game's positions stay together) are held out, or a
//! separate validation file is given; its loss is printed each epoch.
//! After each epoch the float weights and Adam's moments are saved as a
//! checkpoint (`OUT.ckpt`, to resume from) and the quantised network is
//! written to `OUT`, so a stopped run still leaves a usable network.
//!
//! With `rounded_from`, the later epochs train the network as its file
//! rounds it (`Model::on_grid`; docs/nnue.md has what it did in play).

use crate::nnue::arch::{
    FT_CLIP, InputBuckets, LAYER_CLIP, MAX_LAYER, OUT_CLIP, PIECE_INPUTS, QA, QB, SCALE, Shape,
};
use crate::nnue::data::{self, Record};
use crate::nnue::features;
use crate::nnue::network::{Base, Head, Layers, Network};
use crate::nnue::simd;
use crate::rng::SplitMix;
use crate::types::{PieceKind, Square};
use std::io::Write;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub data: Vec<String>,
    /// Validation records; when empty, `val_share` of the blocks of `data`.
    pub validation: Vec<String>,
    pub val_share: f64,
    pub out: String,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// Multiply the learning rate by `lr_drop` every `lr_drop_every` epochs.
    pub lr_drop: f32,
    pub lr_drop_every: usize,
    /// Weight of the search score in the target (the rest is the result).
    pub lambda: f32,
    /// Score scale of the sigmoid, centipawns (`sigmoid(score / k)`).
    pub k: f32,
    pub threads: usize,
    pub seed: u64,
    pub mirror: bool,
    /// Use at most this many training records.
    pub max_positions: Option<usize>,
    pub resume: Option<String>,
    /// Start from this network file's weights instead of random ones
    /// (fine-tuning a shipped network on new data).
    pub init: Option<String>,
    /// Extra text for the network's description.
    pub note: String,
    /// Train the network as a correction to this base evaluation.
    pub base: Base,
    /// The network's shape.
    pub shape: Shape,
    /// Write the network of the epoch with the lowest validation loss,
    /// not the last one (a big shape on little data overfits).
    pub keep_best: bool,
    /// From this epoch on (1-based), train the network as the file rounds
    /// it: see `Model::on_grid`.
    pub rounded_from: Option<usize>,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            data: Vec::new(),
            validation: Vec::new(),
            val_share: 0.02,
            out: "chuhe.nnue".into(),
            epochs: 12,
            batch: 16_384,
            lr: 0.001,
            lr_drop: 0.3,
            lr_drop_every: 5,
            lambda: 0.5,
            k: 260.0,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            mirror: true,
            max_positions: None,
            resume: None,
            init: None,
            note: String::new(),
            base: Base::None,
            shape: Shape::FIRST,
            keep_best: false,
            rounded_from: None,
        }
    }
}

/// Records per validation block (at most: small sets use smaller blocks,
/// a hundredth of the set).
const BLOCK: usize = 4096;

/// Where each part of a shape's parameters sits in the flat parameter
/// vector: feature weights, with king input buckets the shared factor
/// rows, feature biases, then the head: straight, the output weights of
/// every bucket then their biases; layered, per bucket
/// `w2, b2, w3, b3, wo, bo` (the order of the file).
///
/// The factor rows: with king input buckets a piece on a point has one row
/// per bucket, and a bucket the kings rarely visit sees few samples, so
/// its rows learn slowly and overfit (k6 shapes did, before this). Each
/// piece-point feature therefore also has one row shared by every bucket,
/// trained on every sample; the network file holds, per bucket, the sum
/// of the two (`Model::quantise` folds them), so the engine never knows.
#[derive(Clone, Copy, Debug)]
struct Layout {
    shape: Shape,
    /// Start of the factor rows (equal to `b1` without input buckets).
    factor: usize,
    /// Start of the feature biases.
    b1: usize,
    /// Start of the head.
    head: usize,
    /// Parameters of one bucket's layered head.
    stack: usize,
    len: usize,
}

/// Offsets within one bucket's layered head.
#[derive(Clone, Copy)]
struct Stack {
    w2: usize,
    b2: usize,
    w3: usize,
    b3: usize,
    wo: usize,
    bo: usize,
}

impl Layout {
    fn new(shape: Shape) -> Layout {
        let h = shape.hidden;
        let factor = shape.inputs() * h;
        let b1 = factor + Layout::factor_rows(shape) * h;
        let head = b1 + h;
        let stack = shape.l2 * 2 * h + shape.l2 + shape.l3 * shape.l2 + shape.l3 + shape.last() + 1;
        let len = if shape.l2 == 0 {
            head + shape.out_buckets * (2 * h + 1)
        } else {
            head + shape.out_buckets * stack
        };
        Layout {
            shape,
            factor,
            b1,
            head,
            stack,
            len,
        }
    }

    /// Whether a shape trains with shared factor rows: every shape with
    /// input buckets does (one row per piece-point feature, added to each
    /// bucket's row and folded into them when the network is written).
    fn factored(shape: Shape) -> bool {
        shape.input_buckets != InputBuckets::None
    }

    fn factor_rows(shape: Shape) -> usize {
        if Layout::factored(shape) {
            PIECE_INPUTS
        } else {
            0
        }
    }

    /// The straight head's output weights of `bucket`, and its bias.
    fn straight(&self, bucket: usize) -> (usize, usize) {
        let h2 = 2 * self.shape.hidden;
        (
            self.head + bucket * h2,
            self.head + self.shape.out_buckets * h2 + bucket,
        )
    }

    fn stack(&self, bucket: usize) -> Stack {
        let s = &self.shape;
        let w2 = self.head + bucket * self.stack;
        let b2 = w2 + s.l2 * 2 * s.hidden;
        let w3 = b2 + s.l2;
        let b3 = w3 + s.l3 * s.l2;
        let wo = b3 + s.l3;
        Stack {
            w2,
            b2,
            w3,
            b3,
            wo,
            bo: wo + s.last(),
        }
    }

    /// The largest magnitude each parameter may take: the ranges the
    /// quantised network needs.
    fn clips(&self) -> Vec<(std::ops::Range<usize>, f32)> {
        let mut c = vec![(0..self.head, FT_CLIP)];
        if self.shape.l2 == 0 {
            let (w, b) = self.straight(0);
            c.push((w..b, OUT_CLIP));
            c.push((b..self.len, f32::MAX));
        } else {
            for bucket in 0..self.shape.out_buckets {
                let st = self.stack(bucket);
                c.push((st.w2..st.b2, OUT_CLIP));
                c.push((st.b2..st.bo + 1, LAYER_CLIP));
            }
        }
        c
    }
}

/// The float model: the flat parameter vector (see `Layout`).
#[derive(Clone)]
pub struct Model {
    pub shape: Shape,
    pub p: Vec<f32>,
}

impl Model {
    pub fn init(shape: Shape, seed: u64) -> Model {
        let lay = Layout::new(shape);
        let mut rng = SplitMix(seed);
        let mut uniform =
            |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        let mut p = vec![0.0; lay.len];
        // With factor rows, they start random and the bucket rows at zero:
        // the model starts as the network without buckets, and a bucket
        // learns only how it differs.
        let random = if Layout::factored(shape) {
            lay.factor..lay.b1
        } else {
            0..lay.b1
        };
        for w in &mut p[random] {
            *w = uniform(0.1);
        }
        let h2 = 2 * shape.hidden;
        if shape.l2 == 0 {
            let (w, b) = lay.straight(0);
            for x in &mut p[w..b] {
                *x = uniform(1.0 / (h2 as f32).sqrt());
            }
        } else {
            for bucket in 0..shape.out_buckets {
                let st = lay.stack(bucket);
                // Biases start the clipped ReLUs in their active range.
                for (from, to, a) in [
                    (st.w2, st.b2, 1.0 / (h2 as f32).sqrt()),
                    (st.w3, st.b3, 1.0 / (shape.l2 as f32).sqrt()),
                    (st.wo, st.bo, 1.0 / (shape.last() as f32).sqrt()),
                ] {
                    for x in &mut p[from..to] {
                        *x = uniform(a);
                    }
                }
                p[st.b2..st.w3].fill(0.25);
                p[st.b3..st.wo].fill(0.25);
            }
        }
        Model { shape, p }
    }

    /// The float model of a quantised network, to train on from where it
    /// stands (`--init`): every weight divided by the scale `quantise`
    /// multiplied it by, so `quantise` gives the same network back. With
    /// input buckets the folded rows become the bucket rows and the shared
    /// factor rows start at zero.
    pub fn from_network(net: &Network) -> Model {
        Model::from_rounded(net.shape, &net.ft_weights, &net.ft_bias, &net.head)
    }

    /// The float model of a network's integer parts (`from_network`).
    fn from_rounded(shape: Shape, ft_weights: &[i16], ft_bias: &[i16], head: &Head) -> Model {
        let lay = Layout::new(shape);
        let mut p = vec![0.0; lay.len];
        let deq = |x: i16, s: i32| x as f32 / s as f32;
        for (w, &q) in p[..lay.factor].iter_mut().zip(ft_weights) {
            *w = deq(q, QA);
        }
        for (w, &q) in p[lay.b1..lay.head].iter_mut().zip(ft_bias) {
            *w = deq(q, QA);
        }
        match head {
            Head::Straight { weights, bias } => {
                let (w, b) = lay.straight(0);
                for (x, &q) in p[w..b].iter_mut().zip(weights) {
                    *x = deq(q, QB);
                }
                for (x, &q) in p[b..lay.len].iter_mut().zip(bias) {
                    *x = q as f32 / (QA * QB) as f32;
                }
            }
            Head::Layers(stacks) => {
                for (bucket, l) in stacks.iter().enumerate() {
                    let st = lay.stack(bucket);
                    for (x, &q) in p[st.w2..st.b2].iter_mut().zip(&l.w2) {
                        *x = deq(q.into(), QB);
                    }
                    p[st.b2..st.w3].copy_from_slice(&l.b2);
                    p[st.w3..st.b3].copy_from_slice(&l.w3);
                    p[st.b3..st.wo].copy_from_slice(&l.b3);
                    p[st.wo..st.bo].copy_from_slice(&l.wo);
                    p[st.bo] = l.bo;
                }
            }
        }
        Model { shape, p }
    }

    /// The model as the network file holds it: every weight on the grid
    /// that `quantise` rounds to. Training on this model's output and
    /// gradient while Adam updates the float weights (the straight-through
    /// estimator) lets steps far smaller than the grid add up until a
    /// weight crosses to the next grid point. Plain float training does
    /// not: a fine-tune at a low learning rate moves most weights of the
    /// network it starts from by less than half a grid step (an output
    /// weight's step is 1/64), the float loss already counts the gain, and
    /// rounding the file takes it back.
    pub fn on_grid(&self) -> Model {
        let (ft, bias, head) = self.rounded();
        Model::from_rounded(self.shape, &ft, &bias, &head)
    }

    /// This model, or with `rounded` the model on the grid: the network a
    /// training step or a validation pass sees.
    fn as_trained(&self, rounded: bool) -> std::borrow::Cow<'_, Model> {
        if rounded {
            std::borrow::Cow::Owned(self.on_grid())
        } else {
            std::borrow::Cow::Borrowed(self)
        }
    }

    /// The quantised network.
    pub fn quantise(&self, base: Base, description: String) -> Network {
        let (ft, bias, head) = self.rounded();
        Network::new(self.shape, ft, bias, head, base, description)
    }

    /// The network's integer parts: feature weights, feature biases, head.
    /// Training rounded calls this every batch (`on_grid`), so it stops
    /// short of `Network::new`, which serialises and hashes the network.
    fn rounded(&self) -> (Vec<i16>, Vec<i16>, Head) {
        let lay = Layout::new(self.shape);
        let q16 = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        // Each bucket's row plus the shared factor row; the sum kept within
        // the clip that keeps the engine's accumulators from overflowing.
        let shared = &self.p[lay.factor..lay.b1];
        let ft = self.p[..lay.factor]
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let folded = match shared.len() {
                    0 => x,
                    n => x + shared[i % n],
                };
                q16(folded.clamp(-FT_CLIP, FT_CLIP), QA)
            })
            .collect();
        let bias = self.p[lay.b1..lay.head]
            .iter()
            .map(|&x| q16(x, QA))
            .collect();
        let head = if self.shape.l2 == 0 {
            let (w, b) = lay.straight(0);
            Head::Straight {
                weights: self.p[w..b].iter().map(|&x| q16(x, QB)).collect(),
                bias: self.p[b..lay.len]
                    .iter()
                    .map(|&x| (x * (QA * QB) as f32).round() as i32)
                    .collect(),
            }
        } else {
            Head::Layers(
                (0..self.shape.out_buckets)
                    .map(|bucket| {
                        let st = lay.stack(bucket);
                        Layers {
                            w2: self.p[st.w2..st.b2]
                                .iter()
                                .map(|&x| (x * QB as f32).round().clamp(-127.0, 127.0) as i8)
                                .collect(),
                            b2: self.p[st.b2..st.w3].to_vec(),
                            w3: self.p[st.w3..st.b3].to_vec(),
                            b3: self.p[st.b3..st.wo].to_vec(),
                            wo: self.p[st.wo..st.bo].to_vec(),
                            bo: self.p[st.bo],
                        }
                    })
                    .collect(),
            )
        };
        (ft, bias, head)
    }
}

/// One sample's inputs: the rows to add for each perspective, `n` piece
/// features and, with input buckets, their `n` shared factor rows after
/// them (`len` rows in all).
struct Sample {
    us: [u16; 64],
    them: [u16; 64],
    n: usize,
    len: usize,
    bucket: usize,
    target: f32,
    /// The base evaluation, in output units (centipawns / SCALE).
    base: f32,
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The records with their base evaluations (empty without a base).
struct Data<'a> {
    records: &'a [Record],
    base: &'a [f32],
}

fn sample(data: &Data, i: u32, mirror: bool, opts: &TrainOptions) -> Sample {
    let r = &data.records[i as usize];
    let side = r.side();
    let mut s = Sample {
        us: [0; 64],
        them: [0; 64],
        n: 0,
        len: 0,
        bucket: 0,
        target: 0.0,
        base: data.base.get(i as usize).copied().unwrap_or(0.0),
    };
    let place = |sq: Square| if mirror { sq.mirror() } else { sq };
    // The kings first: with input buckets they decide how each side sees
    // the board (without, the view is the same wherever they stand).
    let buckets = opts.shape.input_buckets;
    let mut kings = [Square::from_index(0); 2];
    if buckets != InputBuckets::None {
        r.for_each_piece(|p, sq| {
            if p.kind() == PieceKind::King {
                kings[p.color().index()] = place(sq);
            }
        });
    }
    let view_us = features::king_view(buckets, side, kings[side.index()]);
    let view_them = features::king_view(buckets, !side, kings[(!side).index()]);
    r.for_each_piece(|p, sq| {
        let sq = place(sq);
        if s.n < 32 {
            s.us[s.n] = features::index(view_us, side, p, sq) as u16;
            s.them[s.n] = features::index(view_them, !side, p, sq) as u16;
            s.n += 1;
        }
    });
    s.len = s.n;
    if Layout::factored(opts.shape) {
        let shared = opts.shape.inputs();
        for k in 0..s.n {
            s.us[s.n + k] = (shared + s.us[k] as usize % PIECE_INPUTS) as u16;
            s.them[s.n + k] = (shared + s.them[k] as usize % PIECE_INPUTS) as u16;
        }
        s.len = 2 * s.n;
    }
    s.bucket = features::bucket(s.n as u32, opts.shape.out_buckets);
    let result = r.result().map_or(0.5, |w| w.score_for(side));
    s.target = opts.lambda * sigmoid(r.score() as f32 / opts.k) + (1.0 - opts.lambda) * result;
    s
}

/// One thread's working space for the forward and backward passes.
struct Scratch {
    /// The two accumulators, side to move's first.
    acc: Vec<f32>,
    /// Their activations (the layered head's input).
    x: Vec<f32>,
    /// The gradient with respect to the accumulators.
    da: Vec<f32>,
    z2: [f32; MAX_LAYER],
    z3: [f32; MAX_LAYER],
}

impl Scratch {
    fn new(shape: &Shape) -> Scratch {
        Scratch {
            acc: vec![0.0; 2 * shape.hidden],
            x: vec![0.0; 2 * shape.hidden],
            da: vec![0.0; 2 * shape.hidden],
            z2: [0.0; MAX_LAYER],
            z3: [0.0; MAX_LAYER],
        }
    }
}

/// `a . b` with eight running sums, so that the compiler can use vector
/// registers (a single running sum would make every add wait for the last).
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut sums = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            sums[i] += x[i] * y[i];
        }
    }
    sums.iter().sum::<f32>() + tail
}

#[inline(always)]
fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// The derivative of the clipped ReLU (0 at and beyond the clips).
#[inline(always)]
fn crelu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 1.0 } else { 0.0 }
}

/// The forward pass; leaves the intermediate values in `sc` and returns the
/// output.
#[inline(always)]
fn forward(m: &[f32], lay: &Layout, s: &Sample, sc: &mut Scratch) -> f32 {
    let h = lay.shape.hidden;
    for (side, feats) in [&s.us, &s.them].into_iter().enumerate() {
        let a = &mut sc.acc[side * h..(side + 1) * h];
        a.copy_from_slice(&m[lay.b1..lay.head]);
        for &f in &feats[..s.len] {
            let row = &m[f as usize * h..(f as usize + 1) * h];
            for (x, w) in a.iter_mut().zip(row) {
                *x += w;
            }
        }
    }
    for (x, a) in sc.x.iter_mut().zip(&sc.acc) {
        let c = crelu(*a);
        *x = c * c;
    }
    if lay.shape.l2 == 0 {
        let (w, b) = lay.straight(s.bucket);
        let w2 = &m[w..w + 2 * h];
        return m[b] + s.base + dot(&sc.x, w2);
    }
    let (l2, l3) = (lay.shape.l2, lay.shape.l3);
    let st = lay.stack(s.bucket);
    for i in 0..l2 {
        let w = &m[st.w2 + i * 2 * h..st.w2 + (i + 1) * 2 * h];
        sc.z2[i] = m[st.b2 + i] + dot(&sc.x, w);
    }
    let mut out = m[st.bo] + s.base;
    if l3 == 0 {
        for i in 0..l2 {
            out += m[st.wo + i] * crelu(sc.z2[i]);
        }
        return out;
    }
    for k in 0..l3 {
        let w = &m[st.w3 + k * l2..st.w3 + (k + 1) * l2];
        sc.z3[k] = m[st.b3 + k]
            + w.iter()
                .zip(&sc.z2[..l2])
                .map(|(w, z)| w * crelu(*z))
                .sum::<f32>();
        out += m[st.wo + k] * crelu(sc.z3[k]);
    }
    out
}

/// Loss of one sample and, when `grad` is given, its gradient added in.
#[inline(always)]
fn step_sample(
    m: &[f32],
    lay: &Layout,
    s: &Sample,
    k: f32,
    sc: &mut Scratch,
    grad: Option<&mut [f32]>,
) -> f32 {
    let out = forward(m, lay, s, sc);
    let z = out * SCALE as f32 / k;
    let p = sigmoid(z);
    let err = p - s.target;
    let Some(g) = grad else {
        return err * err;
    };
    let dy = 2.0 * err * p * (1.0 - p) * SCALE as f32 / k;
    let h = lay.shape.hidden;
    // The gradient with respect to the activations, into `sc.da`.
    if lay.shape.l2 == 0 {
        let (w, b) = lay.straight(s.bucket);
        g[b] += dy;
        for j in 0..2 * h {
            g[w + j] += dy * sc.x[j];
            sc.da[j] = dy * m[w + j];
        }
    } else {
        let (l2, l3) = (lay.shape.l2, lay.shape.l3);
        let st = lay.stack(s.bucket);
        g[st.bo] += dy;
        let mut dz2 = [0f32; MAX_LAYER];
        if l3 == 0 {
            for i in 0..l2 {
                g[st.wo + i] += dy * crelu(sc.z2[i]);
                dz2[i] = dy * m[st.wo + i] * crelu_slope(sc.z2[i]);
            }
        } else {
            for kk in 0..l3 {
                g[st.wo + kk] += dy * crelu(sc.z3[kk]);
                let dz3 = dy * m[st.wo + kk] * crelu_slope(sc.z3[kk]);
                if dz3 == 0.0 {
                    continue;
                }
                g[st.b3 + kk] += dz3;
                for i in 0..l2 {
                    g[st.w3 + kk * l2 + i] += dz3 * crelu(sc.z2[i]);
                    dz2[i] += dz3 * m[st.w3 + kk * l2 + i];
                }
            }
            for (d, z) in dz2[..l2].iter_mut().zip(&sc.z2) {
                *d *= crelu_slope(*z);
            }
        }
        sc.da.fill(0.0);
        for (i, &d) in dz2[..l2].iter().enumerate() {
            if d == 0.0 {
                continue;
            }
            g[st.b2 + i] += d;
            let row = st.w2 + i * 2 * h;
            for (gw, x) in g[row..row + 2 * h].iter_mut().zip(&sc.x) {
                *gw += d * x;
            }
            for (da, w) in sc.da.iter_mut().zip(&m[row..row + 2 * h]) {
                *da += d * w;
            }
        }
    }
    // Through the squared clipped ReLU to the accumulators.
    for (da, a) in sc.da.iter_mut().zip(&sc.acc) {
        *da = if *a > 0.0 && *a < 1.0 {
            *da * 2.0 * a
        } else {
            0.0
        };
    }
    for (side, feats) in [&s.us, &s.them].into_iter().enumerate() {
        let da = &sc.da[side * h..(side + 1) * h];
        for (gb, d) in g[lay.b1..lay.head].iter_mut().zip(da) {
            *gb += d;
        }
        for &ft in &feats[..s.len] {
            let row = &mut g[ft as usize * h..(ft as usize + 1) * h];
            for (gw, d) in row.iter_mut().zip(da) {
                *gw += d;
            }
        }
    }
    err * err
}

/// Runs `samples` through the model, adding gradients to `grad` when
/// given; returns the summed loss. Compiled twice (AVX2+FMA and baseline)
/// and chosen at run time: the loops are the same, only the vector width
/// differs.
fn run_chunk(
    m: &[f32],
    data: &Data,
    idx: &[(u32, bool)],
    opts: &TrainOptions,
    mut grad: Option<&mut [f32]>,
) -> f64 {
    #[inline(always)]
    fn body(
        m: &[f32],
        data: &Data,
        idx: &[(u32, bool)],
        opts: &TrainOptions,
        grad: &mut Option<&mut [f32]>,
    ) -> f64 {
        let lay = Layout::new(opts.shape);
        let mut sc = Scratch::new(&opts.shape);
        let mut loss = 0.0f64;
        for &(i, mirror) in idx {
            let s = sample(data, i, mirror, opts);
            loss += step_sample(m, &lay, &s, opts.k, &mut sc, grad.as_deref_mut()) as f64;
        }
        loss
    }
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2,fma")]
        fn wide(
            m: &[f32],
            data: &Data,
            idx: &[(u32, bool)],
            opts: &TrainOptions,
            grad: &mut Option<&mut [f32]>,
        ) -> f64 {
            body(m, data, idx, opts, grad)
        }
        if simd::avx2_enabled() && is_x86_feature_detected!("fma") {
            // SAFETY: the CPU supports AVX2 and FMA (checked just above).
            return unsafe { wide(m, data, idx, opts, &mut grad) };
        }
    }
    body(m, data, idx, opts, &mut grad)
}

/// Adam's state.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: u64,
}

impl Adam {
    fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
        }
    }

    /// One step; each range of parameters is kept within its clip.
    fn step(&mut self, p: &mut [f32], g: &[f32], lr: f32, clips: &[(std::ops::Range<usize>, f32)]) {
        const BETA1: f32 = 0.9;
        const BETA2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - BETA1.powi(self.t.min(i32::MAX as u64) as i32);
        let c2 = 1.0 - BETA2.powi(self.t.min(i32::MAX as u64) as i32);
        let step = lr * c2.sqrt() / c1;
        for (range, clip) in clips {
            for i in range.clone() {
                let gi = g[i];
                self.m[i] = BETA1 * self.m[i] + (1.0 - BETA1) * gi;
                self.v[i] = BETA2 * self.v[i] + (1.0 - BETA2) * gi * gi;
                p[i] = (p[i] - step * self.m[i] / (self.v[i].sqrt() + EPS)).clamp(-clip, *clip);
            }
        }
    }
}

/// Checkpoint: magic, epoch, Adam step, the shape's text (a `u32` length,
/// then UTF-8), then parameters and both moments.
const CKPT_MAGIC: &[u8; 8] = b"CHNNCKP2";

fn save_checkpoint(path: &str, model: &Model, adam: &Adam, epoch: usize) -> std::io::Result<()> {
    let shape = model.shape.to_string();
    let mut out = Vec::with_capacity(28 + shape.len() + model.p.len() * 12);
    out.extend_from_slice(CKPT_MAGIC);
    out.extend_from_slice(&(epoch as u64).to_le_bytes());
    out.extend_from_slice(&adam.t.to_le_bytes());
    out.extend_from_slice(&(shape.len() as u32).to_le_bytes());
    out.extend_from_slice(shape.as_bytes());
    for v in model.p.iter().chain(&adam.m).chain(&adam.v) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, out)?;
    std::fs::rename(tmp, path)
}

/// The model of the network file `path`, which must have the shape and
/// the base (whole evaluation or a correction of this classical
/// evaluation) that the run trains.
fn init_from(path: &str, opts: &TrainOptions) -> Result<Model, String> {
    let net = Network::load(path)?;
    if net.shape != opts.shape {
        return Err(format!(
            "{path}: its shape is {}, the run trains {} (give --shape {})",
            net.shape, opts.shape, net.shape
        ));
    }
    if net.base != opts.base {
        return Err(format!(
            "{path}: the network is {}, the run trains {}",
            base_name(net.base),
            base_name(opts.base)
        ));
    }
    Ok(Model::from_network(&net))
}

fn base_name(base: Base) -> String {
    match base {
        Base::None => "a whole evaluation".into(),
        Base::Classical(s) => format!("a correction of the classical evaluation {s:016x}"),
    }
}

fn load_checkpoint(path: &str, shape: Shape) -> Result<(Model, Adam, usize), String> {
    let b = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let len = Layout::new(shape).len;
    let text = shape.to_string();
    let header = 28 + text.len();
    if b.len() < header
        || &b[..8] != CKPT_MAGIC
        || b[24..28] != (text.len() as u32).to_le_bytes()
        || &b[28..header] != text.as_bytes()
        || b.len() != header + len * 12
    {
        return Err(format!("{path}: not a checkpoint of a {text} network"));
    }
    let epoch = u64::from_le_bytes(b[8..16].try_into().expect("8 bytes")) as usize;
    let t = u64::from_le_bytes(b[16..24].try_into().expect("8 bytes"));
    let floats: Vec<f32> = b[header..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let (p, rest) = floats.split_at(len);
    let (m, v) = rest.split_at(len);
    Ok((
        Model {
            shape,
            p: p.to_vec(),
        },
        Adam {
            m: m.to_vec(),
            v: v.to_vec(),
            t,
        },
        epoch,
    ))
}

/// Mean loss over `idx` (no mirroring), using every thread.
fn mean_loss(model: &Model, data: &Data, idx: &[u32], opts: &TrainOptions) -> f64 {
    if idx.is_empty() {
        return f64::NAN;
    }
    let pairs: Vec<(u32, bool)> = idx.iter().map(|&i| (i, false)).collect();
    let per = pairs.len().div_ceil(opts.threads.max(1));
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = pairs
            .chunks(per.max(1))
            .map(|c| s.spawn(move || run_chunk(&model.p, data, c, opts, None)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    });
    total / idx.len() as f64
}

/// The quantised network's mean loss over `idx`: checks that quantising
/// lost little.
fn quantised_loss(net: &Network, data: &Data, idx: &[u32], opts: &TrainOptions) -> f64 {
    let mut total = 0.0f64;
    let h = net.shape.hidden;
    let mut acc = vec![0i16; 2 * h];
    let mut scratch = vec![0u8; 2 * h];
    for &i in idx {
        let s = sample(data, i, false, opts);
        let us: Vec<usize> = s.us[..s.n].iter().map(|&f| f as usize).collect();
        let them: Vec<usize> = s.them[..s.n].iter().map(|&f| f as usize).collect();
        let (a, b) = acc.split_at_mut(h);
        simd::refresh(a, &net.ft_bias, &net.ft_weights, &us);
        simd::refresh(b, &net.ft_bias, &net.ft_weights, &them);
        let cp = net.output(a, b, s.bucket, &mut scratch) as f32 + s.base * SCALE as f32;
        let e = sigmoid(cp / opts.k) - s.target;
        total += (e * e) as f64;
    }
    total / idx.len().max(1) as f64
}

/// The classical evaluation's mean loss over `idx` with the same target:
/// the yardstick a network must beat.
fn classical_loss(data: &Data, idx: &[u32], opts: &TrainOptions) -> f64 {
    let mut total = 0.0f64;
    let mut n = 0usize;
    for &i in idx {
        let Ok(pos) = data.records[i as usize].to_position() else {
            continue;
        };
        let s = sample(data, i, false, opts);
        let cp = crate::eval::evaluate(&pos) as f32;
        let e = sigmoid(cp / opts.k) - s.target;
        total += (e * e) as f64;
        n += 1;
    }
    total / n.max(1) as f64
}

/// The classical evaluation of every record, side to move's view, in
/// output units (centipawns / SCALE).
fn classical_bases(records: &[Record], threads: usize) -> Vec<f32> {
    let per = records.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = records
            .chunks(per)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|r| {
                            r.to_position()
                                .map_or(0.0, |p| crate::eval::evaluate(&p) as f32 / SCALE as f32)
                        })
                        .collect::<Vec<f32>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

fn shuffle<T>(v: &mut [T], rng: &mut SplitMix) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
}

/// Trains as `opts` says, reporting to `log`.
pub fn run(opts: &TrainOptions, log: &mut impl Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let t0 = Instant::now();
    let mut records = data::read_files(&opts.data).map_err(io)?;
    for (i, r) in records.iter().enumerate() {
        if let Err(e) = r.decode() {
            return Err(format!("record {i}: {e}"));
        }
    }
    let mut rng = SplitMix(opts.seed);
    // Hold out whole blocks, or read the validation files.
    let (mut train, val): (Vec<u32>, Vec<u32>) = if opts.validation.is_empty() {
        let block = (records.len() / 100).clamp(1, BLOCK);
        let blocks = records.len().div_ceil(block);
        let mut order: Vec<usize> = (0..blocks).collect();
        shuffle(&mut order, &mut rng);
        let n_val =
            ((blocks as f64 * opts.val_share).round() as usize).min(blocks.saturating_sub(1));
        let mut is_val = vec![false; blocks];
        for &b in &order[..n_val] {
            is_val[b] = true;
        }
        (0..records.len() as u32).partition(|&i| !is_val[i as usize / block])
    } else {
        let v = data::read_files(&opts.validation).map_err(io)?;
        let first = records.len() as u32;
        records.extend(v);
        (
            (0..first).collect(),
            (first..records.len() as u32).collect(),
        )
    };
    if let Some(max) = opts.max_positions {
        shuffle(&mut train, &mut rng);
        train.truncate(max);
    }
    if train.is_empty() {
        return Err("no training records".into());
    }
    let base = match opts.base {
        Base::None => Vec::new(),
        Base::Classical(_) => classical_bases(&records, opts.threads),
    };
    let data = Data {
        records: &records,
        base: &base,
    };
    // A fixed sample of the validation set for the quantised check.
    let val_check: Vec<u32> = val
        .iter()
        .copied()
        .step_by((val.len() / 50_000).max(1))
        .collect();
    writeln!(
        log,
        "train: {} training and {} validation positions ({:.1} s to load); {} threads, {} kernels",
        train.len(),
        val.len(),
        t0.elapsed().as_secs_f64(),
        opts.threads,
        simd::kernel_name()
    )
    .map_err(io)?;

    let ckpt = format!("{}.ckpt", opts.out);
    let layout = Layout::new(opts.shape);
    let clips = layout.clips();
    let (mut model, mut adam, first_epoch) = match &opts.resume {
        Some(path) => {
            let (m, a, e) = load_checkpoint(path, opts.shape)?;
            writeln!(log, "train: resumed from {path} after epoch {e}").map_err(io)?;
            (m, a, e)
        }
        None => match &opts.init {
            Some(path) => {
                let model = init_from(path, opts)?;
                // The loss to beat: the starting network on this held-out set.
                writeln!(
                    log,
                    "train: starting from the weights of {path}, validation loss {:.6}",
                    mean_loss(&model, &data, &val, opts)
                )
                .map_err(io)?;
                (model, Adam::new(layout.len), 0)
            }
            None => (Model::init(opts.shape, opts.seed), Adam::new(layout.len), 0),
        },
    };
    writeln!(
        log,
        "train: shape {} ({} parameters)",
        opts.shape, layout.len
    )
    .map_err(io)?;
    let threads = opts.threads.max(1);
    let mut grads: Vec<Vec<f32>> = (0..threads).map(|_| vec![0.0; layout.len]).collect();
    // With `keep_best`: the lowest validation loss, its epoch and model.
    let mut best: Option<(f64, usize, Model)> = None;
    let batch = opts.batch.max(threads);
    for epoch in first_epoch..opts.epochs {
        let t = Instant::now();
        let lr = opts.lr
            * opts
                .lr_drop
                .powi((epoch / opts.lr_drop_every.max(1)) as i32);
        let mut order: Vec<(u32, bool)> = train
            .iter()
            .map(|&i| (i, opts.mirror && rng.next_u64() & 1 == 1))
            .collect();
        shuffle(&mut order, &mut rng);
        let rounded = opts.rounded_from.is_some_and(|e| epoch + 1 >= e);
        let mut train_loss = 0.0f64;
        for chunk in order.chunks(batch) {
            let at = model.as_trained(rounded);
            let at = &*at;
            let per = chunk.len().div_ceil(threads);
            let losses: Vec<f64> = std::thread::scope(|s| {
                let handles: Vec<_> = chunk
                    .chunks(per)
                    .zip(grads.iter_mut())
                    .map(|(part, g)| {
                        let data = &data;
                        s.spawn(move || {
                            g.fill(0.0);
                            run_chunk(&at.p, data, part, opts, Some(g))
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(f64::NAN))
                    .collect()
            });
            train_loss += losses.iter().sum::<f64>();
            let used = chunk.len().div_ceil(per);
            let (first, rest) = grads.split_at_mut(1);
            let g = &mut first[0];
            for other in rest.iter().take(used - 1) {
                for (a, b) in g.iter_mut().zip(other) {
                    *a += b;
                }
            }
            let scale = 1.0 / chunk.len() as f32;
            for a in g.iter_mut() {
                *a *= scale;
            }
            adam.step(&mut model.p, g, lr, &clips);
        }
        let train_loss = train_loss / order.len() as f64;
        // The network as trained: rounded, when the run trains it rounded.
        let trained = model.as_trained(rounded);
        let trained = &*trained;
        let val_loss = mean_loss(trained, &data, &val, opts);
        // The same loss against the score alone and the result alone, to
        // compare runs with different lambdas.
        let against = |lambda: f32| {
            let o = TrainOptions {
                lambda,
                ..opts.clone()
            };
            mean_loss(trained, &data, &val_check, &o)
        };
        let (vs_score, vs_result) = (against(1.0), against(0.0));
        let secs = t.elapsed().as_secs_f64();
        writeln!(
            log,
            "epoch {:3}: lr {lr:.2e}, train loss {train_loss:.6}, validation loss {val_loss:.6} (score alone {vs_score:.6}, result alone {vs_result:.6}), {secs:.1} s ({:.0} pos/s), total {:.0} s",
            epoch + 1,
            order.len() as f64 / secs,
            t0.elapsed().as_secs_f64()
        )
        .map_err(io)?;
        save_checkpoint(&ckpt, &model, &adam, epoch + 1).map_err(io)?;
        // `keep_best` compares the networks as they would be written. Once a
        // run trains rounded, its losses are those of the rounded network, so
        // its float epochs are judged rounded too: a float loss is lower by
        // what rounding will take back, and would win across the boundary.
        let keep_loss = if opts.keep_best && opts.rounded_from.is_some() && !rounded {
            let written = mean_loss(&model.on_grid(), &data, &val, opts);
            writeln!(
                log,
                "keep-best: epoch {:3} rounded, validation loss {written:.6}",
                epoch + 1
            )
            .map_err(io)?;
            written
        } else {
            val_loss
        };
        if !opts.keep_best || best.as_ref().is_none_or(|b| keep_loss < b.0) {
            let net = model.quantise(opts.base, description(opts, train.len(), epoch + 1));
            std::fs::write(&opts.out, net.to_bytes()).map_err(|e| format!("{}: {e}", opts.out))?;
            if opts.keep_best {
                best = Some((keep_loss, epoch + 1, model.clone()));
            }
        } else if let Some((loss, at, _)) = &best {
            writeln!(
                log,
                "train: {} keeps the network of epoch {at} (validation loss {loss:.6})",
                opts.out
            )
            .map_err(io)?;
        }
    }
    let (model, epochs) = match best {
        Some((_, at, m)) => (m, at),
        None => (model, opts.epochs),
    };
    let net = model.quantise(opts.base, description(opts, train.len(), epochs));
    // The float loss reported beside the quantised one is that of the model
    // the last epoch trained: rounded, if it was trained rounded.
    let model = model.as_trained(opts.rounded_from.is_some_and(|e| e <= epochs));
    std::fs::write(&opts.out, net.to_bytes()).map_err(|e| format!("{}: {e}", opts.out))?;
    let classical = |lambda: f32| {
        let o = TrainOptions {
            lambda,
            ..opts.clone()
        };
        classical_loss(&data, &val_check, &o)
    };
    writeln!(
        log,
        "train: classical evaluation on the validation sample: score alone {:.6}, result alone {:.6}",
        classical(1.0),
        classical(0.0)
    )
    .map_err(io)?;
    writeln!(
        log,
        "train: wrote {} (hash {:016x}); quantised validation loss {:.6} vs float {:.6} (classical evaluation {:.6}) on {} positions; {:.0} s in all",
        opts.out,
        net.hash(),
        quantised_loss(&net, &data, &val_check, opts),
        mean_loss(&model, &data, &val_check, opts),
        classical_loss(&data, &val_check, opts),
        val_check.len(),
        t0.elapsed().as_secs_f64()
    )
    .map_err(io)?;
    Ok(())
}

/// The last part of a path, for a network's description.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn description(opts: &TrainOptions, positions: usize, epochs: usize) -> String {
    let files: Vec<&str> = opts.data.iter().map(|p| file_name(p)).collect();
    let mut d = format!(
        "chuhe train: {positions} positions from {}; shape {}, base {:?}, epochs {epochs}, batch {}, lr {} x{} every {}, lambda {}, k {}, mirror {}, seed {}",
        files.join(" "),
        opts.shape,
        opts.base,
        opts.batch,
        opts.lr,
        opts.lr_drop,
        opts.lr_drop_every,
        opts.lambda,
        opts.k,
        opts.mirror,
        opts.seed
    );
    if Layout::factored(opts.shape) {
        d += ", bucket rows trained with shared factor rows";
    }
    if let Some(init) = &opts.init {
        d += &format!(", started from {}", file_name(init));
    }
    if let Some(e) = opts.rounded_from {
        d += &format!(", trained rounded from epoch {e}");
    }
    if opts.keep_best {
        d += &format!(" (the best of {} epochs by validation loss)", opts.epochs);
    }
    if !opts.note.is_empty() {
        d += "; ";
        d += &opts.note;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::data::Wdl;
    use crate::options::Level;
    use crate::position::Position;

    /// The analytic gradient matches finite differences, for every part of
    /// both kinds of head.
    #[test]
    fn gradient_matches_finite_differences() {
        for text in ["256/8", "k6-32-8/2", "k6-32-8-4/2"] {
            let shape = Shape::parse(text).unwrap();
            let opts = TrainOptions {
                shape,
                ..TrainOptions::default()
            };
            let lay = Layout::new(shape);
            let mut model = Model::init(shape, 3);
            // Push some accumulators into the active region.
            for b in &mut model.p[lay.b1..lay.head] {
                *b = 0.3;
            }
            let pos = Position::from_fen(
                "2bakab2/9/4c4/p3p3p/2p3p2/9/P1P1P1P1P/4C4/4A4/2BK1AB2 w - - 0 1",
            )
            .unwrap();
            let r = Record::new(&pos, 120, 30, Wdl::RedWins);
            let records = [r];
            let data = Data {
                records: &records,
                base: &[],
            };
            let s = sample(&data, 0, false, &opts);
            let mut sc = Scratch::new(&shape);
            let mut g = vec![0.0; lay.len];
            step_sample(&model.p, &lay, &s, opts.k, &mut sc, Some(&mut g));
            let h = shape.hidden;
            let mut probes = vec![
                s.us[0] as usize * h + 5,
                s.them[1] as usize * h + 2,
                lay.b1 + 7,
            ];
            if s.len > s.n {
                // A shared factor row of each perspective.
                probes.extend([s.us[s.n] as usize * h + 4, s.them[s.n + 2] as usize * h + 1]);
            }
            if shape.l2 == 0 {
                let (w, b) = lay.straight(s.bucket);
                probes.extend([w + 3, w + h + 9, b]);
            } else {
                let st = lay.stack(s.bucket);
                probes.extend([st.w2 + 3, st.w2 + 2 * h + h + 1, st.b2 + 1, st.wo, st.bo]);
                if shape.l3 > 0 {
                    probes.extend([st.w3 + 2, st.b3 + 1]);
                }
            }
            for &i in &probes {
                let d = 1e-3;
                let loss =
                    |p: &[f32]| step_sample(p, &lay, &s, opts.k, &mut Scratch::new(&shape), None);
                let mut plus = model.clone();
                plus.p[i] += d;
                let mut minus = model.clone();
                minus.p[i] -= d;
                let num = (loss(&plus.p) - loss(&minus.p)) / (2.0 * d);
                assert!(
                    (num - g[i]).abs() <= 1e-4 + 0.05 * num.abs(),
                    "{text}: param {i}: numeric {num} analytic {}",
                    g[i]
                );
            }
        }
    }

    /// `from_network` inverts `quantise`: a network read back into a model
    /// and written again is the same network, for both kinds of head, and
    /// `--init` refuses a file of another shape or kind.
    #[test]
    fn a_network_read_back_quantises_to_itself() {
        for text in ["256/2", "k6-32-16/1", "64-16-8/2"] {
            let shape = Shape::parse(text).unwrap();
            let mut model = Model::init(shape, 5);
            // Biases and shared rows away from their starting values.
            let lay = Layout::new(shape);
            for (i, w) in model.p[lay.factor..lay.head].iter_mut().enumerate() {
                *w += (i % 7) as f32 * 0.01 - 0.03;
            }
            let net = model.quantise(Base::None, "first".into());
            let again = Model::from_network(&net).quantise(Base::None, "second".into());
            assert_eq!(net.ft_weights, again.ft_weights, "{text}");
            assert_eq!(net.ft_bias, again.ft_bias, "{text}");
            assert_eq!(net.head, again.head, "{text}");
            assert_eq!(net.shape, again.shape, "{text}");
            // The rounded model is the network's, and a fixed point.
            let grid = model.on_grid();
            assert_eq!(
                grid.quantise(Base::None, "first".into()).hash(),
                net.hash(),
                "{text}"
            );
            assert_eq!(grid.on_grid().p, grid.p, "{text}");
        }
        let path = std::env::temp_dir().join(format!("chuhe-init-{}.nnue", std::process::id()));
        let net = Model::init(Shape::FIRST, 1).quantise(Base::None, String::new());
        std::fs::write(&path, net.to_bytes()).unwrap();
        let path = path.to_string_lossy().into_owned();
        let opts = TrainOptions::default();
        assert!(init_from(&path, &opts).is_ok());
        let refusal = |opts: &TrainOptions| init_from(&path, opts).err().unwrap();
        let wider = TrainOptions {
            shape: Shape::parse("512/1").unwrap(),
            ..TrainOptions::default()
        };
        assert!(refusal(&wider).contains("shape is 256/1"));
        let correction = TrainOptions {
            base: Base::Classical(crate::eval::signature()),
            ..TrainOptions::default()
        };
        assert!(refusal(&correction).contains("whole evaluation"));
        let _ = std::fs::remove_file(&path);
    }

    /// A few epochs on a small self-made set lower the loss, and the
    /// quantised network agrees with the float model.
    #[test]
    fn training_lowers_the_loss_and_quantises_faithfully() {
        let dir = std::env::temp_dir();
        let data = dir.join(format!("chuhe-train-{}.bin", std::process::id()));
        let out = dir.join(format!("chuhe-train-{}.nnue", std::process::id()));
        let mut records = Vec::new();
        let mut pos = Position::startpos();
        let mut lcg = crate::rng::Lcg(11u64);
        for i in 0..20_000 {
            let moves = crate::movegen::legal_moves(&pos);
            if moves.is_empty() || i % 100 == 0 {
                pos = Position::startpos();
                continue;
            }
            pos.make_move(moves.as_slice()[(lcg.next_u64() >> 33) as usize % moves.len()]);
            // Label: the material balance, so there is something to learn.
            let ev = crate::eval::evaluate_at(&pos, Level::None);
            records.push(Record::new(&pos, ev as i16, i, Wdl::Draw));
        }
        let mut f = std::fs::File::create(&data).unwrap();
        data::write_records(&mut f, &records).unwrap();
        // The first generation's shape, and one with king buckets and
        // dense layers.
        for (shape, rounded) in [
            ("256/1", false),
            ("k6-32-16/1", false),
            ("64-16-8/1", false),
            ("k6-64/1", true),
            // Rounded from epoch 4 and keeping the best: the float epochs
            // are judged by their rounded loss.
            ("64/1", true),
        ] {
            let opts = TrainOptions {
                data: vec![data.to_string_lossy().into_owned()],
                out: out.to_string_lossy().into_owned(),
                epochs: 6,
                batch: 512,
                lr: 0.003,
                lambda: 1.0,
                val_share: 0.2,
                threads: 2,
                shape: Shape::parse(shape).unwrap(),
                // Two shapes keep their best epoch, one of them rounded.
                keep_best: shape == "64-16-8/1" || shape == "64/1",
                rounded_from: rounded.then_some(4),
                ..TrainOptions::default()
            };
            let mut log = Vec::new();
            run(&opts, &mut log).unwrap();
            let text = String::from_utf8(log).unwrap();
            let losses: Vec<f64> = text
                .lines()
                .filter(|l| l.starts_with("epoch"))
                .filter_map(|l| l.split("validation loss ").nth(1))
                .filter_map(|t| t.split_whitespace().next()?.parse().ok())
                .collect();
            assert_eq!(losses.len(), 6, "{shape}: {text}");
            assert!(losses[5] < losses[0] * 0.8, "{shape}: {text}");
            let net = Network::load(&opts.out).unwrap();
            assert!(net.description.contains("chuhe train"));
            assert_eq!(
                net.description.contains("the best of 6 epochs"),
                opts.keep_best
            );
            let last = text.lines().last().unwrap();
            // The number after `label` in the report's last line.
            let after = |label: &str| -> f64 {
                let rest = last.split(label).nth(1).expect(label);
                rest.split(' ').next().unwrap().parse().unwrap()
            };
            let (q, fl) = (after("quantised validation loss "), after(" vs float "));
            assert!((q - fl).abs() < 0.002 + 0.05 * fl, "{shape}: {text}");
            // With `keep_best` and rounding, each float epoch is also
            // reported rounded, and that loss is the one compared.
            let judged: Vec<f64> = text
                .lines()
                .filter(|l| l.starts_with("keep-best: epoch"))
                .filter_map(|l| l.split("validation loss ").nth(1))
                .filter_map(|t| t.trim().parse().ok())
                .collect();
            assert_eq!(judged.len(), if opts.keep_best && rounded { 3 } else { 0 });
            let written: Vec<f64> = judged
                .iter()
                .chain(&losses[judged.len()..])
                .copied()
                .collect();
            // The epoch written (0-based): the last, or with `keep_best` the
            // one whose written network had the lowest loss.
            let kept = if opts.keep_best {
                (0..6)
                    .min_by(|&a, &b| written[a].total_cmp(&written[b]))
                    .unwrap()
            } else {
                5
            };
            // Written from a rounded epoch, the float model is the network
            // itself: only the engine's integer truncations part them.
            if rounded && kept >= 3 {
                assert!((q - fl).abs() < 1e-4 + 1e-3 * fl, "{shape}: {last}");
            }
            if rounded {
                assert!(net.description.contains("trained rounded from epoch 4"));
            }
            // The float loss reported is that of the epoch written.
            let want = losses[kept];
            assert!((fl - want).abs() <= 1e-6 + 1e-4 * want, "{shape}: {text}");
            assert_eq!(net.shape.to_string(), shape);
        }
        for p in [&data, &out] {
            let _ = std::fs::remove_file(p);
        }
        let _ = std::fs::remove_file(format!("{}.ckpt", out.to_string_lossy()));
    }
}
