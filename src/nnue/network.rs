//! The quantised network and its file format.
//!
//! The shape and the quantisation are in `arch`.
//!
//! A network may be trained as a correction to the classical evaluation
//! (`Base::Classical`): the evaluation is then the classical one plus the
//! network's output. With little training data this lets the network learn
//! only what the hand-written terms miss. Such a network means something
//! only on top of the classical evaluation it was trained against, so its
//! header records that evaluation's signature (`eval::signature`), and
//! `evaluate::check` refuses it on any other.
//!
//! File layout, format version 3 (little-endian):
//!
//! | bytes | content |
//! |-------|---------|
//! | 0..4 | magic `CHNN` |
//! | 4..8 | `u32` format version (3) |
//! | 8..28 | `u32` each, the shape: input buckets (0 none, 1 king palace), accumulator width, first and second dense layer widths (0 = none), output buckets |
//! | 28..40 | `u32` each: QA, QB, SCALE |
//! | 40..48 | `u64` FNV-1a checksum of every byte after this field (48..end) |
//! | 48..52 | `u32` base: 0 = the network's output is the evaluation, 1 = it is a correction added to the classical evaluation |
//! | 52..60 | `u64` with base 1, the signature of the classical evaluation it was trained against; 0 otherwise |
//! | 60..64 | `u32` description length `n` (at most 4,096) |
//! | 64..64+n | description, UTF-8 (how the network was made) |
//! | then | feature weights `i16[inputs][hidden]`, feature biases `i16[hidden]` |
//! | then, straight head | output weights `i16[buckets][2 * hidden]`, output biases `i32[buckets]` |
//! | or, layered head | per bucket: `i8[l2][2 * hidden]` weights and `f32[l2]` biases; with `l3`, `f32[l3][l2]` and `f32[l3]`; then `f32[last]` output weights and one `f32` output bias |
//!
//! On load the feature weights and biases are checked against `FT_LIMIT`,
//! the straight head's weights against `OUT_LIMIT`, the first dense
//! layer's against ±127 (the bounds the SIMD kernels rely on) and the
//! `f32` ones for being finite and within
//! `LAYER_CLIP`. Format version 2 (the first generation: the shape
//! `256/8`, a 56-byte header without the shape) is still read; version 1
//! (no signature) is refused.

use super::arch::{
    ACT_SCALE, FT_LIMIT, InputBuckets, LAYER_CLIP, MAX_LAYER, OUT_LIMIT, QA, QB, SCALE, Shape,
};
use super::simd;
use crate::types::{DECISIVE_BOUND, Score};
use crate::zobrist::fnv1a;
use std::fmt;

pub const MAGIC: [u8; 4] = *b"CHNN";
pub const VERSION: u32 = 3;
const HEADER: usize = 64;
/// The checksum covers the file from here to the end.
const CHECKED_FROM: usize = 48;
const MAX_DESCRIPTION: usize = 4096;

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    Truncated {
        len: usize,
        needed: usize,
    },
    BadMagic,
    Version(u32),
    /// A shape this build cannot run, or quantisation constants of another
    /// build.
    Architecture(String),
    BadDescription,
    BadBase(u32),
    HashMismatch {
        stored: u64,
        computed: u64,
    },
    /// A weight outside the bounds the SIMD kernels rely on.
    OutOfRange {
        what: &'static str,
        index: usize,
        value: i16,
        limit: i16,
    },
    /// A float weight that is not finite or beyond `LAYER_CLIP`.
    BadFloat {
        what: &'static str,
        index: usize,
    },
    TrailingBytes(usize),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            NetError::Truncated { len, needed } => {
                write!(
                    f,
                    "file is truncated ({len} bytes, a network needs {needed})"
                )
            }
            NetError::BadMagic => write!(f, "not a chuhe network file (bad magic)"),
            NetError::Version(v) => write!(
                f,
                "network format version {v} is not supported (this build reads 2 and {VERSION}){}",
                if *v == 1 {
                    "; version 1 does not say which classical evaluation a correction was trained against"
                } else {
                    ""
                }
            ),
            NetError::Architecture(why) => write!(f, "wrong architecture: {why}"),
            NetError::BadDescription => write!(f, "network description is not UTF-8 or too long"),
            NetError::BadBase(b) => write!(f, "unknown evaluation base {b} in the network header"),
            NetError::HashMismatch { stored, computed } => write!(
                f,
                "network file is damaged (checksum {computed:016x}, header says {stored:016x})"
            ),
            NetError::OutOfRange {
                what,
                index,
                value,
                limit,
            } => write!(
                f,
                "{what} {index} is {value}, outside ±{limit}, the range the evaluation code relies on"
            ),
            NetError::BadFloat { what, index } => write!(
                f,
                "{what} {index} is not a finite number within ±{LAYER_CLIP}"
            ),
            NetError::TrailingBytes(n) => write!(f, "{n} unexpected bytes after the network"),
        }
    }
}

impl std::error::Error for NetError {}

/// What the network's output is added to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// Nothing: the output is the whole evaluation.
    None,
    /// The classical evaluation (`eval::evaluate`) whose signature
    /// (`eval::signature`) is given.
    Classical(u64),
}

impl Base {
    fn code(self) -> u32 {
        match self {
            Base::None => 0,
            Base::Classical(_) => 1,
        }
    }

    fn signature(self) -> u64 {
        match self {
            Base::None => 0,
            Base::Classical(s) => s,
        }
    }
}

/// The dense layers of one output bucket.
#[derive(Clone, Debug, PartialEq)]
pub struct Layers {
    /// `l2` rows of `2 * hidden` weights (side to move's half first),
    /// scaled by `QB`.
    pub w2: Vec<i8>,
    pub b2: Vec<f32>,
    /// `l3` rows of `l2` weights (empty without a second layer).
    pub w3: Vec<f32>,
    pub b3: Vec<f32>,
    /// The output neuron's weights over the last layer.
    pub wo: Vec<f32>,
    pub bo: f32,
}

/// Everything after the accumulators.
#[derive(Clone, Debug, PartialEq)]
pub enum Head {
    /// The squared clipped ReLU of the accumulators straight to the output:
    /// per bucket `2 * hidden` weights (side to move's half first) scaled
    /// by `QB`, and a bias scaled by `QA * QB`.
    Straight { weights: Vec<i16>, bias: Vec<i32> },
    /// Dense layers, one stack per output bucket.
    Layers(Vec<Layers>),
}

/// A network ready for inference.
#[derive(Clone)]
pub struct Network {
    pub shape: Shape,
    /// Feature-major: the row of feature `f` is
    /// `ft_weights[f * hidden..(f + 1) * hidden]`.
    pub ft_weights: Vec<i16>,
    pub ft_bias: Vec<i16>,
    pub head: Head,
    pub base: Base,
    pub description: String,
    hash: u64,
    /// Each bucket's first dense layer in the kernel's layout
    /// (`simd::dense_index`); empty for the straight head.
    dense: Vec<Vec<i8>>,
}

/// The first dense layers of `head` in the kernel's layout.
fn dense_layout(shape: &Shape, head: &Head) -> Vec<Vec<i8>> {
    let Head::Layers(stacks) = head else {
        return Vec::new();
    };
    let inputs = 2 * shape.hidden;
    stacks
        .iter()
        .map(|l| {
            let mut w = vec![0i8; l.w2.len()];
            for i in 0..shape.l2 {
                for j in 0..inputs {
                    w[simd::dense_index(i, j, shape.l2)] = l.w2[i * inputs + j];
                }
            }
            w
        })
        .collect()
}

fn constants() -> [u32; 3] {
    [QA as u32, QB as u32, SCALE as u32]
}

/// Every value of `values` within `±limit`.
fn in_range(what: &'static str, values: &[i16], limit: i16) -> Result<(), NetError> {
    match values.iter().position(|v| v.unsigned_abs() > limit as u16) {
        None => Ok(()),
        Some(index) => Err(NetError::OutOfRange {
            what,
            index,
            value: values[index],
            limit,
        }),
    }
}

/// Every value of `values` finite and within `±LAYER_CLIP`.
fn finite(what: &'static str, values: &[f32]) -> Result<(), NetError> {
    match values
        .iter()
        .position(|v| !v.is_finite() || v.abs() > LAYER_CLIP)
    {
        None => Ok(()),
        Some(index) => Err(NetError::BadFloat { what, index }),
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The payload's size for `shape`, in bytes.
fn payload_len(shape: &Shape) -> usize {
    let h = shape.hidden;
    let ft = (shape.inputs() * h + h) * 2;
    let head = if shape.l2 == 0 {
        shape.out_buckets * (2 * h * 2 + 4)
    } else {
        let floats = shape.l2 + shape.l3 * shape.l2 + shape.l3 + shape.last() + 1;
        shape.out_buckets * (shape.l2 * 2 * h + floats * 4)
    };
    ft + head
}

/// Reads little-endian numbers off the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn i16s(&mut self, n: usize) -> Vec<i16> {
        let (now, rest) = self.0.split_at(n * 2);
        self.0 = rest;
        now.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect()
    }

    fn i8s(&mut self, n: usize) -> Vec<i8> {
        let (now, rest) = self.0.split_at(n);
        self.0 = rest;
        now.iter().map(|&b| b as i8).collect()
    }

    fn i32s(&mut self, n: usize) -> Vec<i32> {
        let (now, rest) = self.0.split_at(n * 4);
        self.0 = rest;
        now.chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    fn f32s(&mut self, n: usize) -> Vec<f32> {
        self.i32s(n)
            .into_iter()
            .map(|v| f32::from_bits(v as u32))
            .collect()
    }
}

impl Network {
    /// A network from its parts (the trainer's output); the hash is computed.
    /// Panics if the parts do not fit `shape`.
    pub fn new(
        shape: Shape,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        head: Head,
        base: Base,
        description: String,
    ) -> Network {
        shape.check().expect("a shape this build supports");
        assert_eq!(ft_weights.len(), shape.inputs() * shape.hidden);
        assert_eq!(ft_bias.len(), shape.hidden);
        let h2 = 2 * shape.hidden;
        match &head {
            Head::Straight { weights, bias } => {
                assert_eq!(shape.l2, 0);
                assert_eq!(weights.len(), shape.out_buckets * h2);
                assert_eq!(bias.len(), shape.out_buckets);
            }
            Head::Layers(stacks) => {
                assert!(shape.l2 > 0);
                assert_eq!(stacks.len(), shape.out_buckets);
                for l in stacks {
                    assert_eq!(l.w2.len(), shape.l2 * h2);
                    assert_eq!(l.b2.len(), shape.l2);
                    assert_eq!(l.w3.len(), shape.l3 * shape.l2);
                    assert_eq!(l.b3.len(), shape.l3);
                    assert_eq!(l.wo.len(), shape.last());
                }
            }
        }
        let mut net = Network {
            dense: dense_layout(&shape, &head),
            shape,
            ft_weights,
            ft_bias,
            head,
            base,
            description,
            hash: 0,
        };
        net.hash = fnv1a(&net.to_bytes()[CHECKED_FROM..]);
        net
    }

    fn payload(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(payload_len(&self.shape));
        let i16s = |p: &mut Vec<u8>, v: &[i16]| v.iter().for_each(|x| p.extend(x.to_le_bytes()));
        let f32s = |p: &mut Vec<u8>, v: &[f32]| v.iter().for_each(|x| p.extend(x.to_le_bytes()));
        i16s(&mut p, &self.ft_weights);
        i16s(&mut p, &self.ft_bias);
        match &self.head {
            Head::Straight { weights, bias } => {
                i16s(&mut p, weights);
                bias.iter().for_each(|x| p.extend(x.to_le_bytes()));
            }
            Head::Layers(stacks) => {
                for l in stacks {
                    p.extend(l.w2.iter().map(|&x| x as u8));
                    f32s(&mut p, &l.b2);
                    f32s(&mut p, &l.w3);
                    f32s(&mut p, &l.b3);
                    f32s(&mut p, &l.wo);
                    f32s(&mut p, &[l.bo]);
                }
            }
        }
        p
    }

    /// The file image.
    pub fn to_bytes(&self) -> Vec<u8> {
        // A long description is cut on a character boundary, so that it
        // stays UTF-8.
        let mut cut = self.description.len().min(MAX_DESCRIPTION);
        while !self.description.is_char_boundary(cut) {
            cut -= 1;
        }
        let desc = &self.description.as_bytes()[..cut];
        let s = &self.shape;
        let mut out = Vec::with_capacity(HEADER + desc.len() + payload_len(s));
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let fields = [
            s.input_buckets.code(),
            s.hidden as u32,
            s.l2 as u32,
            s.l3 as u32,
            s.out_buckets as u32,
        ];
        for v in fields.into_iter().chain(constants()) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&[0; 8]); // the checksum, filled in below
        out.extend_from_slice(&self.base.code().to_le_bytes());
        out.extend_from_slice(&self.base.signature().to_le_bytes());
        out.extend_from_slice(&(desc.len() as u32).to_le_bytes());
        out.extend_from_slice(desc);
        out.extend_from_slice(&self.payload());
        let checksum = fnv1a(&out[CHECKED_FROM..]);
        out[40..CHECKED_FROM].copy_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a file image, checking every header field and the hash.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetError> {
        if b.len() < 8 {
            return Err(if b.len() >= 4 && b[..4] != MAGIC {
                NetError::BadMagic
            } else {
                NetError::Truncated {
                    len: b.len(),
                    needed: HEADER,
                }
            });
        }
        if b[..4] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let version = u32_at(b, 4);
        // Where the fields sit: format 2 had no shape fields.
        let (header, checked_from, shape, base_at) = match version {
            VERSION => {
                if b.len() < HEADER {
                    return Err(NetError::Truncated {
                        len: b.len(),
                        needed: HEADER,
                    });
                }
                let shape = Shape {
                    input_buckets: InputBuckets::from_code(u32_at(b, 8)).ok_or_else(|| {
                        NetError::Architecture(format!("input buckets code {}", u32_at(b, 8)))
                    })?,
                    hidden: u32_at(b, 12) as usize,
                    l2: u32_at(b, 16) as usize,
                    l3: u32_at(b, 20) as usize,
                    out_buckets: u32_at(b, 24) as usize,
                };
                shape.check().map_err(NetError::Architecture)?;
                let found: [u32; 3] = std::array::from_fn(|i| u32_at(b, 28 + 4 * i));
                if found != constants() {
                    return Err(NetError::Architecture(format!(
                        "QA/QB/scale {found:?}, this build uses {:?}",
                        constants()
                    )));
                }
                (HEADER, CHECKED_FROM, shape, 48)
            }
            2 => {
                if b.len() < 56 {
                    return Err(NetError::Truncated {
                        len: b.len(),
                        needed: 56,
                    });
                }
                let found: [u32; 6] = std::array::from_fn(|i| u32_at(b, 8 + 4 * i));
                let expected = [1260, 256, 8, QA as u32, QB as u32, SCALE as u32];
                if found != expected {
                    return Err(NetError::Architecture(format!(
                        "format 2 with inputs/hidden/buckets/QA/QB/scale {found:?}, this build reads {expected:?}"
                    )));
                }
                let shape = Shape {
                    out_buckets: 8,
                    ..Shape::FIRST
                };
                (56, 40, shape, 40)
            }
            other => return Err(NetError::Version(other)),
        };
        let stored = u64::from_le_bytes(
            b[checked_from - 8..checked_from]
                .try_into()
                .expect("8 bytes"),
        );
        let signature =
            u64::from_le_bytes(b[base_at + 4..base_at + 12].try_into().expect("8 bytes"));
        let base = match u32_at(b, base_at) {
            0 => Base::None,
            1 => Base::Classical(signature),
            other => return Err(NetError::BadBase(other)),
        };
        let desc_len = u32_at(b, header - 4) as usize;
        if desc_len > MAX_DESCRIPTION {
            return Err(NetError::BadDescription);
        }
        let needed = header + desc_len + payload_len(&shape);
        if b.len() < needed {
            return Err(NetError::Truncated {
                len: b.len(),
                needed,
            });
        }
        if b.len() > needed {
            return Err(NetError::TrailingBytes(b.len() - needed));
        }
        let description = std::str::from_utf8(&b[header..header + desc_len])
            .map_err(|_| NetError::BadDescription)?
            .to_string();
        let computed = fnv1a(&b[checked_from..]);
        if computed != stored {
            return Err(NetError::HashMismatch { stored, computed });
        }
        let mut r = Reader(&b[header + desc_len..]);
        let h = shape.hidden;
        let ft_weights = r.i16s(shape.inputs() * h);
        let ft_bias = r.i16s(h);
        in_range("feature weight", &ft_weights, FT_LIMIT)?;
        in_range("feature bias", &ft_bias, FT_LIMIT)?;
        let head = if shape.l2 == 0 {
            let weights = r.i16s(shape.out_buckets * 2 * h);
            in_range("output weight", &weights, OUT_LIMIT)?;
            Head::Straight {
                weights,
                bias: r.i32s(shape.out_buckets),
            }
        } else {
            let mut stacks = Vec::with_capacity(shape.out_buckets);
            for _ in 0..shape.out_buckets {
                let l = Layers {
                    w2: r.i8s(shape.l2 * 2 * h),
                    b2: r.f32s(shape.l2),
                    w3: r.f32s(shape.l3 * shape.l2),
                    b3: r.f32s(shape.l3),
                    wo: r.f32s(shape.last()),
                    bo: r.f32s(1)[0],
                };
                if let Some(index) = l.w2.iter().position(|&w| w == i8::MIN) {
                    return Err(NetError::OutOfRange {
                        what: "dense weight",
                        index,
                        value: i8::MIN as i16,
                        limit: i8::MAX as i16,
                    });
                }
                for (what, v) in [
                    ("dense bias", &l.b2),
                    ("second dense weight", &l.w3),
                    ("second dense bias", &l.b3),
                    ("output weight", &l.wo),
                ] {
                    finite(what, v)?;
                }
                finite("output bias", &[l.bo])?;
                stacks.push(l);
            }
            Head::Layers(stacks)
        };
        // Format 2's checksum covers the same bytes as format 3's (from the
        // base on), so a converted network keeps its name.
        Ok(Network {
            dense: dense_layout(&shape, &head),
            shape,
            ft_weights,
            ft_bias,
            head,
            base,
            description,
            hash: stored,
        })
    }

    /// Reads a network file, naming the file in any error.
    pub fn load(path: &str) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
    }

    /// The checksum of the file image, which names a network.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The network's output in centipawns, side to move's view, from the
    /// two accumulators (`hidden` long each) and the output bucket (before
    /// any base is added). `scratch` is working space of `2 * hidden`.
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize, scratch: &mut [u8]) -> Score {
        let h = self.shape.hidden;
        match &self.head {
            Head::Straight { weights, bias } => {
                let w = &weights[bucket * 2 * h..(bucket + 1) * 2 * h];
                let sum =
                    simd::screlu_dot(us, &w[..h]).wrapping_add(simd::screlu_dot(them, &w[h..]));
                let v = (sum / QA) as i64 + bias[bucket] as i64;
                (v * SCALE as i64 / (QA * QB) as i64) as Score
            }
            Head::Layers(stacks) => {
                let l = &stacks[bucket];
                let act = &mut scratch[..2 * h];
                simd::activate(us, &mut act[..h]);
                simd::activate(them, &mut act[h..]);
                let unit = 1.0 / (QB as f32 * ACT_SCALE);
                let mut sums = [0i32; MAX_LAYER];
                simd::dense(act, &self.dense[bucket], &mut sums[..self.shape.l2]);
                let mut x = [0f32; MAX_LAYER];
                for (i, xi) in x[..self.shape.l2].iter_mut().enumerate() {
                    *xi = (sums[i] as f32 * unit + l.b2[i]).clamp(0.0, 1.0);
                }
                let mut y = [0f32; MAX_LAYER];
                let last: &[f32] = if self.shape.l3 > 0 {
                    let l2 = self.shape.l2;
                    for (k, yk) in y[..self.shape.l3].iter_mut().enumerate() {
                        *yk = dense(&l.w3[k * l2..(k + 1) * l2], &x[..l2], l.b3[k]).clamp(0.0, 1.0);
                    }
                    &y[..self.shape.l3]
                } else {
                    &x[..self.shape.l2]
                };
                let out = dense(&l.wo, last, l.bo) * SCALE as f32;
                out.round()
                    .clamp(-(DECISIVE_BOUND - 1) as f32, (DECISIVE_BOUND - 1) as f32)
                    as Score
            }
        }
    }
}

/// `bias + w . x`, summed in order (the same rounding everywhere).
#[inline(always)]
fn dense(w: &[f32], x: &[f32], bias: f32) -> f32 {
    w.iter().zip(x).fold(bias, |s, (w, x)| s + w * x)
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "Network({:016x}, {}, {})",
            self.hash, self.shape, self.description
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A network of `shape` with weights from a fixed pattern.
    pub(crate) fn patterned(shape: Shape, base: Base) -> Network {
        let h = shape.hidden;
        let ft: Vec<i16> = (0..shape.inputs() * h)
            .map(|i| (i % 61) as i16 - 30)
            .collect();
        let head = if shape.l2 == 0 {
            Head::Straight {
                weights: (0..shape.out_buckets * 2 * h)
                    .map(|i| (i % 41) as i16 - 20)
                    .collect(),
                bias: (0..shape.out_buckets as i32).map(|b| b * 3 - 7).collect(),
            }
        } else {
            Head::Layers(
                (0..shape.out_buckets)
                    .map(|b| Layers {
                        w2: (0..shape.l2 * 2 * h)
                            .map(|i| ((i + b) % 37) as i8 - 18)
                            .collect(),
                        b2: (0..shape.l2).map(|i| i as f32 * 0.01).collect(),
                        w3: (0..shape.l3 * shape.l2)
                            .map(|i| (i % 7) as f32 * 0.1 - 0.3)
                            .collect(),
                        b3: vec![0.05; shape.l3],
                        wo: (0..shape.last())
                            .map(|i| (i % 5) as f32 * 0.2 - 0.4)
                            .collect(),
                        bo: 0.01 * b as f32,
                    })
                    .collect(),
            )
        };
        Network::new(shape, ft, vec![7; h], head, base, "test net".into())
    }

    fn sample() -> Network {
        patterned(
            Shape {
                out_buckets: 8,
                ..Shape::FIRST
            },
            Base::Classical(0x0123_4567_89ab_cdef),
        )
    }

    fn layered() -> Network {
        patterned(Shape::parse("k6-64-16-8/3").unwrap(), Base::None)
    }

    /// The same network in format 2's layout, as the first generation's
    /// trainer wrote it.
    fn format2_image(net: &Network) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        for v in [2u32, 1260, 256, 8, QA as u32, QB as u32, SCALE as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&[0; 8]);
        out.extend_from_slice(&net.base.code().to_le_bytes());
        out.extend_from_slice(&net.base.signature().to_le_bytes());
        out.extend_from_slice(&(net.description.len() as u32).to_le_bytes());
        out.extend_from_slice(net.description.as_bytes());
        out.extend_from_slice(&net.payload());
        let checksum = fnv1a(&out[40..]);
        out[32..40].copy_from_slice(&checksum.to_le_bytes());
        out
    }

    #[test]
    fn file_round_trip() {
        for net in [sample(), layered()] {
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), HEADER + 8 + payload_len(&net.shape));
            let back = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back.hash(), net.hash());
            assert_eq!(back.shape, net.shape);
            assert_eq!(back.ft_weights, net.ft_weights);
            assert_eq!(back.ft_bias, net.ft_bias);
            assert_eq!(back.head, net.head);
            assert_eq!(back.description, "test net");
            assert_eq!(back.base, net.base);
        }
    }

    #[test]
    fn format_2_is_read_as_the_first_generation() {
        let net = sample();
        let back = Network::from_bytes(&format2_image(&net)).unwrap();
        assert_eq!(back.shape.to_string(), "256/8");
        assert_eq!(back.head, net.head);
        assert_eq!(back.base, net.base);
        // Named by its image in the current format.
        assert_eq!(back.hash(), net.hash());
        let mut b = format2_image(&net);
        b[12] ^= 1; // the hidden width
        assert!(matches!(
            Network::from_bytes(&b),
            Err(NetError::Architecture(_))
        ));
        let mut b = format2_image(&net);
        let last = b.len() - 1;
        b[last] ^= 1;
        assert!(matches!(
            Network::from_bytes(&b),
            Err(NetError::HashMismatch { .. })
        ));
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = sample().to_bytes();
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::Truncated { .. })
        ));
        for n in [0, 3, 10, 40] {
            assert!(
                matches!(
                    Network::from_bytes(&bytes[..n]),
                    Err(NetError::Truncated { .. })
                ),
                "{n} bytes"
            );
        }
        let mut b = bytes.clone();
        b[0] = b'X';
        assert_eq!(Network::from_bytes(&b).unwrap_err(), NetError::BadMagic);
        let mut b = bytes.clone();
        b[4] = 9;
        assert_eq!(Network::from_bytes(&b).unwrap_err(), NetError::Version(9));
        for (at, value) in [
            (8, 2),
            (12, 100),
            (16, 65),
            (20, 4),
            (24, 0),
            (24, 9),
            (28, 1),
        ] {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&(value as u32).to_le_bytes());
            assert!(
                matches!(Network::from_bytes(&b), Err(NetError::Architecture(_))),
                "field at {at} = {value}"
            );
        }
        let mut b = bytes.clone();
        let last = b.len() - 1;
        b[last] ^= 1;
        assert!(matches!(
            Network::from_bytes(&b),
            Err(NetError::HashMismatch { .. })
        ));
        let mut b = bytes.clone();
        b[48] = 7;
        assert_eq!(Network::from_bytes(&b).unwrap_err(), NetError::BadBase(7));
        let mut b = bytes.clone();
        b.push(0);
        assert_eq!(
            Network::from_bytes(&b).unwrap_err(),
            NetError::TrailingBytes(1)
        );
        for e in [
            NetError::BadMagic,
            NetError::Version(2),
            NetError::BadDescription,
            NetError::BadFloat {
                what: "x",
                index: 1,
            },
        ] {
            assert!(!e.to_string().is_empty());
        }
        // The checksum covers the header after it: the base and the
        // signature, the description.
        for at in [52, 56, HEADER] {
            let mut b = bytes.clone();
            b[at] ^= 1;
            assert!(
                matches!(Network::from_bytes(&b), Err(NetError::HashMismatch { .. })),
                "byte {at}"
            );
        }
        // A version 1 file is refused, saying why.
        let mut b = bytes.clone();
        b[4] = 1;
        let e = Network::from_bytes(&b).unwrap_err();
        assert_eq!(e, NetError::Version(1));
        assert!(e.to_string().contains("classical evaluation"), "{e}");
    }

    /// `net` with one change, rebuilt so that its checksum is right.
    fn changed(net: &Network, change: impl FnOnce(&mut Network)) -> Vec<u8> {
        let mut n = net.clone();
        change(&mut n);
        Network::new(
            n.shape,
            n.ft_weights,
            n.ft_bias,
            n.head,
            n.base,
            n.description,
        )
        .to_bytes()
    }

    #[test]
    fn weights_outside_the_kernels_bounds_are_refused() {
        let good = sample();
        let bytes = changed(&good, |n| n.ft_weights[1234] = FT_LIMIT + 1);
        assert_eq!(
            Network::from_bytes(&bytes).unwrap_err(),
            NetError::OutOfRange {
                what: "feature weight",
                index: 1234,
                value: FT_LIMIT + 1,
                limit: FT_LIMIT
            }
        );
        let bytes = changed(&good, |n| {
            if let Head::Straight { weights, .. } = &mut n.head {
                weights[7] = -OUT_LIMIT - 1;
            }
        });
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::OutOfRange {
                what: "output weight",
                index: 7,
                ..
            })
        ));
        // At the bounds themselves a network loads.
        let bytes = changed(&good, |n| {
            n.ft_weights[0] = -FT_LIMIT;
            if let Head::Straight { weights, .. } = &mut n.head {
                weights[0] = OUT_LIMIT;
            }
        });
        assert!(Network::from_bytes(&bytes).is_ok());
        // The layered head's weights are checked too.
        let net = layered();
        let stack = |n: &mut Network| match &mut n.head {
            Head::Layers(s) => s[1].clone(),
            Head::Straight { .. } => unreachable!(),
        };
        for (what, change) in [
            (
                "dense weight",
                Box::new(|l: &mut Layers| l.w2[3] = i8::MIN) as Box<dyn Fn(&mut Layers)>,
            ),
            ("dense bias", Box::new(|l: &mut Layers| l.b2[0] = f32::NAN)),
            (
                "second dense weight",
                Box::new(|l: &mut Layers| l.w3[2] = LAYER_CLIP * 2.0),
            ),
            (
                "output weight",
                Box::new(|l: &mut Layers| l.wo[0] = f32::INFINITY),
            ),
            (
                "output bias",
                Box::new(|l: &mut Layers| l.bo = -f32::INFINITY),
            ),
        ] {
            let bytes = changed(&net, |n| {
                let mut l = stack(n);
                change(&mut l);
                if let Head::Layers(s) = &mut n.head {
                    s[1] = l;
                }
            });
            let e = Network::from_bytes(&bytes).unwrap_err();
            let named = match &e {
                NetError::OutOfRange { what, .. } | NetError::BadFloat { what, .. } => *what,
                _ => "",
            };
            assert_eq!(named, what, "{e}");
        }
    }

    #[test]
    fn a_long_description_is_cut_on_a_character_boundary() {
        // Three-byte characters: 4,096 is not a multiple of three.
        let description = "楚河".repeat(1000);
        let bytes = changed(&sample(), |n| n.description = description.clone());
        let back = Network::from_bytes(&bytes).unwrap();
        assert!(back.description.len() <= MAX_DESCRIPTION);
        assert!(back.description.len() > MAX_DESCRIPTION - 3);
        assert!(description.starts_with(&back.description));
    }

    #[test]
    fn the_layered_head_computes_what_its_float_model_says() {
        let net = layered();
        let h = net.shape.hidden;
        let us: Vec<i16> = (0..h as i16).map(|i| i * 9 - 100).collect();
        let them: Vec<i16> = (0..h as i16).map(|i| 300 - i * 7).collect();
        let mut scratch = vec![0u8; 2 * h];
        let Head::Layers(stacks) = &net.head else {
            unreachable!()
        };
        for (b, l) in stacks.iter().enumerate() {
            // The float model: screlu inputs, crelu layers.
            let x: Vec<f32> = us
                .iter()
                .chain(&them)
                .map(|&a| (a as f32 / QA as f32).clamp(0.0, 1.0).powi(2))
                .collect();
            let z2: Vec<f32> = (0..net.shape.l2)
                .map(|i| {
                    let w = &l.w2[i * 2 * h..(i + 1) * 2 * h];
                    let s: f32 = w
                        .iter()
                        .zip(&x)
                        .map(|(w, x)| *w as f32 / QB as f32 * x)
                        .sum();
                    (s + l.b2[i]).clamp(0.0, 1.0)
                })
                .collect();
            let z3: Vec<f32> = (0..net.shape.l3)
                .map(|k| {
                    dense(
                        &l.w3[k * net.shape.l2..(k + 1) * net.shape.l2],
                        &z2,
                        l.b3[k],
                    )
                    .clamp(0.0, 1.0)
                })
                .collect();
            let want = dense(&l.wo, &z3, l.bo) * SCALE as f32;
            let got = net.output(&us, &them, b, &mut scratch);
            assert!(
                (got as f32 - want).abs() <= 2.0 + want.abs() * 0.02,
                "bucket {b}: {got} vs {want}"
            );
        }
    }
}
