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
//! File layout, format version 2 (little-endian):
//!
//! | bytes | content |
//! |-------|---------|
//! | 0..4 | magic `CHNN` |
//! | 4..8 | `u32` format version (2) |
//! | 8..32 | `u32` each: inputs, hidden, buckets, QA, QB, SCALE |
//! | 32..40 | `u64` FNV-1a checksum of every byte after this field (40..end) |
//! | 40..44 | `u32` base: 0 = the network's output is the evaluation, 1 = it is a correction added to the classical evaluation |
//! | 44..52 | `u64` with base 1, the signature of the classical evaluation it was trained against; 0 otherwise |
//! | 52..56 | `u32` description length `n` (at most 4,096) |
//! | 56..56+n | description, UTF-8 (how the network was made) |
//! | then | payload: feature weights `i16[INPUTS][HIDDEN]`, feature biases `i16[HIDDEN]`, output weights `i16[BUCKETS][2 * HIDDEN]`, output biases `i32[BUCKETS]` |
//!
//! On load the feature weights and biases are checked against `FT_LIMIT`
//! and the output weights against `OUT_LIMIT`, the bounds the SIMD kernels
//! rely on. Version 1 (no signature, a checksum of the payload only) is
//! refused; the shipped network was converted once.

use super::arch::{BUCKETS, FT_LIMIT, HIDDEN, INPUTS, OUT_LIMIT, QA, QB, SCALE};
use super::simd::{self, Accumulator};
use crate::types::Score;
use crate::zobrist::fnv1a;
use std::fmt;

pub const MAGIC: [u8; 4] = *b"CHNN";
pub const VERSION: u32 = 2;
const HEADER: usize = 56;
/// The checksum covers the file from here to the end.
const CHECKED_FROM: usize = 40;
const MAX_DESCRIPTION: usize = 4096;
const PAYLOAD: usize = (INPUTS * HIDDEN + HIDDEN + BUCKETS * 2 * HIDDEN) * 2 + BUCKETS * 4;

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    Truncated {
        len: usize,
        needed: usize,
    },
    BadMagic,
    Version(u32),
    Architecture {
        found: [u32; 6],
        expected: [u32; 6],
    },
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
                "network format version {v} is not supported (this build reads {VERSION}){}",
                if *v == 1 {
                    "; version 1 does not say which classical evaluation a correction was trained against"
                } else {
                    ""
                }
            ),
            NetError::Architecture { found, expected } => write!(
                f,
                "wrong architecture: inputs/hidden/buckets/QA/QB/scale {found:?}, this build uses {expected:?}"
            ),
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

/// A network ready for inference.
#[derive(Clone)]
pub struct Network {
    /// Feature-major: the row of feature `f` is `ft_weights[f * HIDDEN..]`.
    pub ft_weights: Vec<i16>,
    pub ft_bias: Accumulator,
    /// Bucket-major: bucket `b`'s side-to-move half, then the other half.
    pub out_weights: Vec<i16>,
    pub out_bias: [i32; BUCKETS],
    pub base: Base,
    pub description: String,
    hash: u64,
}

fn architecture() -> [u32; 6] {
    [
        INPUTS as u32,
        HIDDEN as u32,
        BUCKETS as u32,
        QA as u32,
        QB as u32,
        SCALE as u32,
    ]
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

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Network {
    /// A network from its parts (the trainer's output); the hash is computed.
    pub fn new(
        ft_weights: Vec<i16>,
        ft_bias: [i16; HIDDEN],
        out_weights: Vec<i16>,
        out_bias: [i32; BUCKETS],
        base: Base,
        description: String,
    ) -> Network {
        assert_eq!(ft_weights.len(), INPUTS * HIDDEN);
        assert_eq!(out_weights.len(), BUCKETS * 2 * HIDDEN);
        let mut net = Network {
            ft_weights,
            ft_bias: Accumulator(ft_bias),
            out_weights,
            out_bias,
            base,
            description,
            hash: 0,
        };
        net.hash = fnv1a(&net.to_bytes()[CHECKED_FROM..]);
        net
    }

    fn payload(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(PAYLOAD);
        for v in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias.0)
            .chain(&self.out_weights)
        {
            p.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.out_bias {
            p.extend_from_slice(&v.to_le_bytes());
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
        let mut out = Vec::with_capacity(HEADER + desc.len() + PAYLOAD);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for v in architecture() {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&[0; 8]); // the checksum, filled in below
        out.extend_from_slice(&self.base.code().to_le_bytes());
        out.extend_from_slice(&self.base.signature().to_le_bytes());
        out.extend_from_slice(&(desc.len() as u32).to_le_bytes());
        out.extend_from_slice(desc);
        out.extend_from_slice(&self.payload());
        let checksum = fnv1a(&out[CHECKED_FROM..]);
        out[32..CHECKED_FROM].copy_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a file image, checking every header field and the hash.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetError> {
        if b.len() < 4 || b[..4] != MAGIC {
            return Err(if b.len() < 4 {
                NetError::Truncated {
                    len: b.len(),
                    needed: HEADER + PAYLOAD,
                }
            } else {
                NetError::BadMagic
            });
        }
        if b.len() < HEADER {
            return Err(NetError::Truncated {
                len: b.len(),
                needed: HEADER + PAYLOAD,
            });
        }
        let version = u32_at(b, 4);
        if version != VERSION {
            return Err(NetError::Version(version));
        }
        let found: [u32; 6] = std::array::from_fn(|i| u32_at(b, 8 + 4 * i));
        if found != architecture() {
            return Err(NetError::Architecture {
                found,
                expected: architecture(),
            });
        }
        let stored = u64::from_le_bytes(b[32..40].try_into().expect("8 bytes"));
        let signature = u64::from_le_bytes(b[44..52].try_into().expect("8 bytes"));
        let base = match u32_at(b, 40) {
            0 => Base::None,
            1 => Base::Classical(signature),
            other => return Err(NetError::BadBase(other)),
        };
        let desc_len = u32_at(b, 52) as usize;
        if desc_len > MAX_DESCRIPTION {
            return Err(NetError::BadDescription);
        }
        let needed = HEADER + desc_len + PAYLOAD;
        if b.len() < needed {
            return Err(NetError::Truncated {
                len: b.len(),
                needed,
            });
        }
        if b.len() > needed {
            return Err(NetError::TrailingBytes(b.len() - needed));
        }
        let description = std::str::from_utf8(&b[HEADER..HEADER + desc_len])
            .map_err(|_| NetError::BadDescription)?
            .to_string();
        let computed = fnv1a(&b[CHECKED_FROM..]);
        if computed != stored {
            return Err(NetError::HashMismatch { stored, computed });
        }
        let payload = &b[HEADER + desc_len..];
        let mut words = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let ft_weights: Vec<i16> = words.by_ref().take(INPUTS * HIDDEN).collect();
        let ft_bias: [i16; HIDDEN] = std::array::from_fn(|_| words.next().unwrap_or(0));
        let out_weights: Vec<i16> = words.take(BUCKETS * 2 * HIDDEN).collect();
        let tail = &payload[PAYLOAD - BUCKETS * 4..];
        let out_bias: [i32; BUCKETS] = std::array::from_fn(|i| u32_at(tail, 4 * i) as i32);
        in_range("feature weight", &ft_weights, FT_LIMIT)?;
        in_range("feature bias", &ft_bias, FT_LIMIT)?;
        in_range("output weight", &out_weights, OUT_LIMIT)?;
        Ok(Network {
            ft_weights,
            ft_bias: Accumulator(ft_bias),
            out_weights,
            out_bias,
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

    /// The payload hash, which names a network.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The network's output in centipawns, side to move's view, from the
    /// two accumulators and the output bucket (before any base is added).
    #[inline]
    pub fn output(&self, us: &Accumulator, them: &Accumulator, bucket: usize) -> Score {
        let w = &self.out_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        let sum =
            simd::screlu_dot(us, &w[..HIDDEN]).wrapping_add(simd::screlu_dot(them, &w[HIDDEN..]));
        let v = (sum / QA) as i64 + self.out_bias[bucket] as i64;
        (v * SCALE as i64 / (QA * QB) as i64) as Score
    }
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Network({:016x}, {})", self.hash, self.description)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Network {
        let ft: Vec<i16> = (0..INPUTS * HIDDEN).map(|i| (i % 61) as i16 - 30).collect();
        let out: Vec<i16> = (0..BUCKETS * 2 * HIDDEN)
            .map(|i| (i % 41) as i16 - 20)
            .collect();
        Network::new(
            ft,
            [7; HIDDEN],
            out,
            [1, -2, 3, -4, 5, -6, 7, -8],
            Base::Classical(0x0123_4567_89ab_cdef),
            "test net".into(),
        )
    }

    #[test]
    fn file_round_trip() {
        let net = sample();
        let bytes = net.to_bytes();
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.hash(), net.hash());
        assert_eq!(back.ft_weights, net.ft_weights);
        assert_eq!(back.ft_bias.0, net.ft_bias.0);
        assert_eq!(back.out_weights, net.out_weights);
        assert_eq!(back.out_bias, net.out_bias);
        assert_eq!(back.description, "test net");
        assert_eq!(back.base, Base::Classical(0x0123_4567_89ab_cdef));
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = sample().to_bytes();
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::Truncated { .. })
        ));
        assert!(matches!(
            Network::from_bytes(&bytes[..10]),
            Err(NetError::Truncated { .. })
        ));
        assert!(matches!(
            Network::from_bytes(&[]),
            Err(NetError::Truncated { .. })
        ));
        let mut b = bytes.clone();
        b[0] = b'X';
        assert_eq!(Network::from_bytes(&b).unwrap_err(), NetError::BadMagic);
        let mut b = bytes.clone();
        b[4] = 9;
        assert_eq!(Network::from_bytes(&b).unwrap_err(), NetError::Version(9));
        let mut b = bytes.clone();
        b[12] ^= 1; // hidden size
        assert!(matches!(
            Network::from_bytes(&b),
            Err(NetError::Architecture { .. })
        ));
        let mut b = bytes.clone();
        let last = b.len() - 1;
        b[last] ^= 1;
        assert!(matches!(
            Network::from_bytes(&b),
            Err(NetError::HashMismatch { .. })
        ));
        let mut b = bytes.clone();
        b[40] = 7;
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
        ] {
            assert!(!e.to_string().is_empty());
        }
        // The checksum covers the header after it: the base and the
        // signature, the description.
        for at in [44, 48, HEADER] {
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

    #[test]
    fn weights_outside_the_kernels_bounds_are_refused() {
        let good = sample();
        let mut ft = good.ft_weights.clone();
        ft[1234] = FT_LIMIT + 1;
        let net = Network::new(
            ft,
            good.ft_bias.0,
            good.out_weights.clone(),
            good.out_bias,
            Base::None,
            String::new(),
        );
        assert_eq!(
            Network::from_bytes(&net.to_bytes()).unwrap_err(),
            NetError::OutOfRange {
                what: "feature weight",
                index: 1234,
                value: FT_LIMIT + 1,
                limit: FT_LIMIT
            }
        );
        let mut out = good.out_weights.clone();
        out[7] = -OUT_LIMIT - 1;
        let net = Network::new(
            good.ft_weights.clone(),
            good.ft_bias.0,
            out,
            good.out_bias,
            Base::None,
            String::new(),
        );
        assert!(matches!(
            Network::from_bytes(&net.to_bytes()),
            Err(NetError::OutOfRange {
                what: "output weight",
                index: 7,
                ..
            })
        ));
        // At the bounds themselves a network loads.
        let mut ft = good.ft_weights.clone();
        ft[0] = -FT_LIMIT;
        let mut out = good.out_weights.clone();
        out[0] = OUT_LIMIT;
        let net = Network::new(
            ft,
            good.ft_bias.0,
            out,
            good.out_bias,
            Base::None,
            String::new(),
        );
        assert!(Network::from_bytes(&net.to_bytes()).is_ok());
    }

    #[test]
    fn a_long_description_is_cut_on_a_character_boundary() {
        let good = sample();
        // Three-byte characters: 4,096 is not a multiple of three.
        let description = "楚河".repeat(1000);
        let net = Network::new(
            good.ft_weights.clone(),
            good.ft_bias.0,
            good.out_weights.clone(),
            good.out_bias,
            Base::None,
            description.clone(),
        );
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        assert!(back.description.len() <= MAX_DESCRIPTION);
        assert!(back.description.len() > MAX_DESCRIPTION - 3);
        assert!(description.starts_with(&back.description));
    }
}
