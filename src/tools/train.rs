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

use crate::nnue::arch::{FT_CLIP, HIDDEN, OUT_CLIP, QA, QB, SCALE};
use crate::nnue::data::{self, Record};
use crate::nnue::features::{self, BUCKETS, INPUTS};
use crate::nnue::network::{Base, Network};
use crate::nnue::simd::{self, Accumulator};
use crate::rng::SplitMix;
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
    /// Extra text for the network's description.
    pub note: String,
    /// Train the network as a correction to this base evaluation.
    pub base: Base,
    /// One output layer for all material (copied into every bucket of the
    /// file), to measure what the material buckets bring.
    pub single_bucket: bool,
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
            note: String::new(),
            base: Base::None,
            single_bucket: false,
        }
    }
}

/// Records per validation block (at most: small sets use smaller blocks,
/// a hundredth of the set).
const BLOCK: usize = 4096;
const FT_LEN: usize = INPUTS * HIDDEN;
const OUT_LEN: usize = BUCKETS * 2 * HIDDEN;
/// All parameters in one flat vector: feature weights, feature biases,
/// output weights, output biases.
const N_PARAMS: usize = FT_LEN + HIDDEN + OUT_LEN + BUCKETS;
const B1: usize = FT_LEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + OUT_LEN;

/// The float model: the flat parameter vector (see `N_PARAMS`).
#[derive(Clone)]
pub struct Model {
    pub p: Vec<f32>,
}

impl Model {
    pub fn init(seed: u64) -> Model {
        let mut rng = SplitMix(seed);
        let mut uniform =
            |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        let mut p = vec![0.0; N_PARAMS];
        for w in &mut p[..FT_LEN] {
            *w = uniform(0.1);
        }
        for w in &mut p[W2..B2] {
            *w = uniform(1.0 / (2.0 * HIDDEN as f32).sqrt());
        }
        Model { p }
    }

    /// The quantised network. With `single_bucket`, bucket 0's output
    /// layer is copied into every bucket.
    pub fn quantise(&self, base: Base, single_bucket: bool, description: String) -> Network {
        if single_bucket {
            let mut m = self.clone();
            let (first, rest) = m.p[W2..B2].split_at_mut(2 * HIDDEN);
            for chunk in rest.chunks_mut(2 * HIDDEN) {
                chunk.copy_from_slice(first);
            }
            let b0 = m.p[B2];
            m.p[B2..].fill(b0);
            return m.quantise(base, false, description);
        }
        let q16 = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        let ft = self.p[..FT_LEN].iter().map(|&x| q16(x, QA)).collect();
        let bias = std::array::from_fn(|j| q16(self.p[B1 + j], QA));
        let out = self.p[W2..B2].iter().map(|&x| q16(x, QB)).collect();
        let ob = std::array::from_fn(|b| (self.p[B2 + b] * (QA * QB) as f32).round() as i32);
        Network::new(ft, bias, out, ob, base, description)
    }
}

/// One sample's inputs.
struct Sample {
    us: [u16; 32],
    them: [u16; 32],
    n: usize,
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
        us: [0; 32],
        them: [0; 32],
        n: 0,
        bucket: 0,
        target: 0.0,
        base: data.base.get(i as usize).copied().unwrap_or(0.0),
    };
    r.for_each_piece(|p, sq| {
        let sq = if mirror { sq.mirror() } else { sq };
        if s.n < 32 {
            s.us[s.n] = features::index(side, p, sq) as u16;
            s.them[s.n] = features::index(!side, p, sq) as u16;
            s.n += 1;
        }
    });
    s.bucket = if opts.single_bucket {
        0
    } else {
        features::bucket(s.n as u32)
    };
    let result = r.result().map_or(0.5, |w| w.score_for(side));
    s.target = opts.lambda * sigmoid(r.score() as f32 / opts.k) + (1.0 - opts.lambda) * result;
    s
}

/// The forward pass: the accumulators, their activations and the output.
struct Forward {
    acc: [[f32; HIDDEN]; 2],
    out: f32,
}

#[inline(always)]
fn forward(m: &[f32], s: &Sample) -> Forward {
    let mut acc = [[0f32; HIDDEN]; 2];
    for (side, feats) in [&s.us, &s.them].into_iter().enumerate() {
        let a = &mut acc[side];
        a.copy_from_slice(&m[B1..B1 + HIDDEN]);
        for &f in &feats[..s.n] {
            let row = &m[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
            for (x, w) in a.iter_mut().zip(row) {
                *x += w;
            }
        }
    }
    let w2 = &m[W2 + s.bucket * 2 * HIDDEN..W2 + (s.bucket + 1) * 2 * HIDDEN];
    let mut out = m[B2 + s.bucket] + s.base;
    for side in 0..2 {
        for (x, w) in acc[side]
            .iter()
            .zip(&w2[side * HIDDEN..(side + 1) * HIDDEN])
        {
            let c = x.clamp(0.0, 1.0);
            out += c * c * w;
        }
    }
    Forward { acc, out }
}

/// Loss of one sample and, when `grad` is given, its gradient added in.
#[inline(always)]
fn step_sample(m: &[f32], s: &Sample, k: f32, grad: Option<&mut [f32]>) -> f32 {
    let f = forward(m, s);
    let z = f.out * SCALE as f32 / k;
    let p = sigmoid(z);
    let err = p - s.target;
    let Some(g) = grad else {
        return err * err;
    };
    let dy = 2.0 * err * p * (1.0 - p) * SCALE as f32 / k;
    let o = W2 + s.bucket * 2 * HIDDEN;
    g[B2 + s.bucket] += dy;
    for side in 0..2 {
        let feats = if side == 0 { &s.us } else { &s.them };
        let mut da = [0f32; HIDDEN];
        for j in 0..HIDDEN {
            let x = f.acc[side][j];
            let c = x.clamp(0.0, 1.0);
            let w = m[o + side * HIDDEN + j];
            g[o + side * HIDDEN + j] += dy * c * c;
            da[j] = if x > 0.0 && x < 1.0 {
                dy * w * 2.0 * x
            } else {
                0.0
            };
        }
        for (gb, d) in g[B1..B1 + HIDDEN].iter_mut().zip(&da) {
            *gb += d;
        }
        for &ft in &feats[..s.n] {
            let row = &mut g[ft as usize * HIDDEN..(ft as usize + 1) * HIDDEN];
            for (gw, d) in row.iter_mut().zip(&da) {
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
        let mut loss = 0.0f64;
        for &(i, mirror) in idx {
            let s = sample(data, i, mirror, opts);
            loss += step_sample(m, &s, opts.k, grad.as_deref_mut()) as f64;
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
    fn new() -> Adam {
        Adam {
            m: vec![0.0; N_PARAMS],
            v: vec![0.0; N_PARAMS],
            t: 0,
        }
    }

    fn step(&mut self, p: &mut [f32], g: &[f32], lr: f32) {
        const BETA1: f32 = 0.9;
        const BETA2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - BETA1.powi(self.t.min(i32::MAX as u64) as i32);
        let c2 = 1.0 - BETA2.powi(self.t.min(i32::MAX as u64) as i32);
        let step = lr * c2.sqrt() / c1;
        for i in 0..N_PARAMS {
            let gi = g[i];
            self.m[i] = BETA1 * self.m[i] + (1.0 - BETA1) * gi;
            self.v[i] = BETA2 * self.v[i] + (1.0 - BETA2) * gi * gi;
            let clip = if i < W2 {
                FT_CLIP
            } else if i < B2 {
                OUT_CLIP
            } else {
                f32::MAX
            };
            p[i] = (p[i] - step * self.m[i] / (self.v[i].sqrt() + EPS)).clamp(-clip, clip);
        }
    }
}

/// Checkpoint: magic, epoch, Adam step, then parameters and both moments.
const CKPT_MAGIC: &[u8; 8] = b"CHNNCKP1";

fn save_checkpoint(path: &str, model: &Model, adam: &Adam, epoch: usize) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(24 + N_PARAMS * 12);
    out.extend_from_slice(CKPT_MAGIC);
    out.extend_from_slice(&(epoch as u64).to_le_bytes());
    out.extend_from_slice(&adam.t.to_le_bytes());
    for v in model.p.iter().chain(&adam.m).chain(&adam.v) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, out)?;
    std::fs::rename(tmp, path)
}

fn load_checkpoint(path: &str) -> Result<(Model, Adam, usize), String> {
    let b = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    if b.len() != 24 + N_PARAMS * 12 || &b[..8] != CKPT_MAGIC {
        return Err(format!("{path}: not a checkpoint of this architecture"));
    }
    let epoch = u64::from_le_bytes(b[8..16].try_into().expect("8 bytes")) as usize;
    let t = u64::from_le_bytes(b[16..24].try_into().expect("8 bytes"));
    let floats: Vec<f32> = b[24..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let (p, rest) = floats.split_at(N_PARAMS);
    let (m, v) = rest.split_at(N_PARAMS);
    Ok((
        Model { p: p.to_vec() },
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
    let mut acc = [Accumulator::default(), Accumulator::default()];
    for &i in idx {
        let s = sample(data, i, false, opts);
        let us: Vec<usize> = s.us[..s.n].iter().map(|&f| f as usize).collect();
        let them: Vec<usize> = s.them[..s.n].iter().map(|&f| f as usize).collect();
        simd::refresh(&mut acc[0], &net.ft_bias, &net.ft_weights, &us);
        simd::refresh(&mut acc[1], &net.ft_bias, &net.ft_weights, &them);
        let cp = net.output(&acc[0], &acc[1], s.bucket) as f32 + s.base * SCALE as f32;
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
    let (mut model, mut adam, first_epoch) = match &opts.resume {
        Some(path) => {
            let (m, a, e) = load_checkpoint(path)?;
            writeln!(log, "train: resumed from {path} after epoch {e}").map_err(io)?;
            (m, a, e)
        }
        None => (Model::init(opts.seed), Adam::new(), 0),
    };
    let threads = opts.threads.max(1);
    let mut grads: Vec<Vec<f32>> = (0..threads).map(|_| vec![0.0; N_PARAMS]).collect();
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
        let mut train_loss = 0.0f64;
        for chunk in order.chunks(batch) {
            let per = chunk.len().div_ceil(threads);
            let losses: Vec<f64> = std::thread::scope(|s| {
                let handles: Vec<_> = chunk
                    .chunks(per)
                    .zip(grads.iter_mut())
                    .map(|(part, g)| {
                        let model = &model;
                        let data = &data;
                        s.spawn(move || {
                            g.fill(0.0);
                            run_chunk(&model.p, data, part, opts, Some(g))
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
            adam.step(&mut model.p, g, lr);
        }
        let train_loss = train_loss / order.len() as f64;
        let val_loss = mean_loss(&model, &data, &val, opts);
        // The same loss against the score alone and the result alone, to
        // compare runs with different lambdas.
        let against = |lambda: f32| {
            let o = TrainOptions {
                lambda,
                ..opts.clone()
            };
            mean_loss(&model, &data, &val_check, &o)
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
        let net = model.quantise(
            opts.base,
            opts.single_bucket,
            description(opts, train.len(), epoch + 1),
        );
        std::fs::write(&opts.out, net.to_bytes()).map_err(|e| format!("{}: {e}", opts.out))?;
    }
    let net = model.quantise(
        opts.base,
        opts.single_bucket,
        description(opts, train.len(), opts.epochs),
    );
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

fn description(opts: &TrainOptions, positions: usize, epochs: usize) -> String {
    let files: Vec<&str> = opts
        .data
        .iter()
        .map(|p| p.rsplit('/').next().unwrap_or(p))
        .collect();
    let mut d = format!(
        "chuhe train: {positions} positions from {}; base {:?}, single bucket {}, epochs {epochs}, batch {}, lr {} x{} every {}, lambda {}, k {}, mirror {}, seed {}",
        files.join(" "),
        opts.base,
        opts.single_bucket,
        opts.batch,
        opts.lr,
        opts.lr_drop,
        opts.lr_drop_every,
        opts.lambda,
        opts.k,
        opts.mirror,
        opts.seed
    );
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

    /// The analytic gradient matches finite differences.
    #[test]
    fn gradient_matches_finite_differences() {
        let opts = TrainOptions::default();
        let mut model = Model::init(3);
        // Push some accumulators into the active region.
        for b in &mut model.p[B1..B1 + HIDDEN] {
            *b = 0.3;
        }
        let pos =
            Position::from_fen("2bakab2/9/4c4/p3p3p/2p3p2/9/P1P1P1P1P/4C4/9/2BAKAB2 w - - 0 1")
                .unwrap();
        let r = Record::new(&pos, 120, 30, Wdl::RedWins);
        let records = [r];
        let data = Data {
            records: &records,
            base: &[],
        };
        let s = sample(&data, 0, false, &opts);
        let mut g = vec![0.0; N_PARAMS];
        step_sample(&model.p, &s, opts.k, Some(&mut g));
        let probes = [
            s.us[0] as usize * HIDDEN + 5,
            B1 + 7,
            W2 + s.bucket * 2 * HIDDEN + 3,
            W2 + s.bucket * 2 * HIDDEN + HIDDEN + 9,
            B2 + s.bucket,
        ];
        for &i in &probes {
            let h = 1e-3;
            let mut plus = model.clone();
            plus.p[i] += h;
            let mut minus = model.clone();
            minus.p[i] -= h;
            let num = (step_sample(&plus.p, &s, opts.k, None)
                - step_sample(&minus.p, &s, opts.k, None))
                / (2.0 * h);
            assert!(
                (num - g[i]).abs() <= 1e-4 + 0.05 * num.abs(),
                "param {i}: numeric {num} analytic {}",
                g[i]
            );
        }
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
        let opts = TrainOptions {
            data: vec![data.to_string_lossy().into_owned()],
            out: out.to_string_lossy().into_owned(),
            epochs: 6,
            batch: 512,
            lr: 0.003,
            lambda: 1.0,
            val_share: 0.2,
            threads: 2,
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
        assert_eq!(losses.len(), 6, "{text}");
        assert!(losses[5] < losses[0] * 0.8, "{text}");
        let net = Network::load(&opts.out).unwrap();
        assert!(net.description.contains("chuhe train"));
        let last = text.lines().last().unwrap();
        let q: f64 = last
            .split("quantised validation loss ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let fl: f64 = last
            .split(" vs float ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((q - fl).abs() < 0.002 + 0.05 * fl, "{last}");
        for p in [&data, &out] {
            let _ = std::fs::remove_file(p);
        }
        let _ = std::fs::remove_file(format!("{}.ckpt", opts.out));
    }
}
