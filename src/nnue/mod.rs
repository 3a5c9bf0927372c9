//! The neural network evaluation (NNUE): an efficiently updatable network
//! whose first layer is kept up to date move by move.
//!
//! * `arch`: the network's shape and quantisation, which everything else
//!   (the trainer too) reads;
//! * `features`: what the network sees (piece × point per perspective) and
//!   the output bucket;
//! * `network`: the quantised weights, the file format and the output layer;
//! * `simd`: the hot loops, AVX2 and a bit-identical scalar twin;
//! * `accumulator`: one search thread's accumulator stack;
//! * `data`: the training records that `chuhe datagen` writes and
//!   `chuhe train` reads.

pub mod accumulator;
pub mod arch;
pub mod data;
pub mod features;
pub mod network;
pub mod simd;

pub use accumulator::{NnueStack, output_full};
pub use network::{Base, NetError, Network};

use once_cell::sync::Lazy;
use std::sync::Arc;

/// The network built into the binary (docs/nnue.md gives the commands
/// that made it).
static EMBEDDED_BYTES: &[u8] = include_bytes!("default.nnue");

static EMBEDDED: Lazy<Arc<Network>> = Lazy::new(|| {
    Arc::new(
        Network::from_bytes(EMBEDDED_BYTES)
            .expect("the embedded network is valid (a unit test reads it)"),
    )
});

/// The network built into the binary.
pub fn embedded() -> Arc<Network> {
    EMBEDDED.clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen;
    use crate::position::Position;
    use arch::Shape;
    use network::Head;
    use std::sync::Arc;

    /// A network of `shape` with pseudo-random weights in the trained
    /// ranges.
    pub(crate) fn random_network(seed: u64, shape: Shape) -> Network {
        let mut lcg = crate::rng::Lcg(seed);
        let mut next = move |m: i64| ((lcg.next_u64() >> 33) as i64 % (2 * m + 1) - m) as i16;
        let h = shape.hidden;
        let ft = (0..shape.inputs() * h).map(|_| next(120)).collect();
        let bias = (0..h).map(|_| next(200)).collect();
        let head = if shape.l2 == 0 {
            Head::Straight {
                weights: (0..shape.out_buckets * 2 * h).map(|_| next(127)).collect(),
                bias: vec![0; shape.out_buckets],
            }
        } else {
            Head::Layers(
                (0..shape.out_buckets)
                    .map(|_| network::Layers {
                        w2: (0..shape.l2 * 2 * h)
                            .map(|_| (next(127) / 8) as i8)
                            .collect(),
                        b2: (0..shape.l2).map(|_| next(100) as f32 * 0.005).collect(),
                        w3: (0..shape.l3 * shape.l2)
                            .map(|_| next(100) as f32 * 0.01)
                            .collect(),
                        b3: (0..shape.l3).map(|_| next(100) as f32 * 0.005).collect(),
                        wo: (0..shape.last()).map(|_| next(100) as f32 * 0.01).collect(),
                        bo: 0.0,
                    })
                    .collect(),
            )
        };
        Network::new(shape, ft, bias, head, Base::None, "random".into())
    }

    #[test]
    fn incremental_accumulators_equal_a_refresh() {
        for shape in ["256/8", "k6-64-16-8/3"] {
            let mut net = random_network(5, Shape::parse(shape).unwrap());
            // A correction network, so that the base is checked too.
            net.base = Base::Classical(0);
            check_incremental_updates(Arc::new(net));
        }
    }

    fn check_incremental_updates(net: Arc<Network>) {
        let mut stack = NnueStack::new(net.clone());
        let mut lcg = crate::rng::Lcg(17);
        let mut rand = |n: usize| (lcg.next_u64() >> 33) as usize % n;
        let mut checked = 0;
        // With king buckets each king move refreshes through the cache.
        let mut king_moves = 0;
        for game in 0..30 {
            let mut pos = Position::startpos();
            stack.reset(&pos);
            let mut depth = 0;
            for _ply in 0..200 {
                let moves = movegen::legal_moves(&pos);
                // Sometimes take moves back, sometimes pass, as a search does.
                let r = rand(10);
                if (r == 0 || moves.is_empty()) && depth > 0 {
                    pos.unmake_move();
                    stack.pop();
                    depth -= 1;
                } else if moves.is_empty() {
                    break;
                } else if r == 1 && !pos.in_check() && depth > 0 {
                    pos.make_null_move();
                    stack.push_null();
                    if rand(2) == 0 {
                        let _ = stack.output(&pos);
                    }
                    pos.unmake_null_move();
                    stack.pop();
                } else {
                    let m = moves.as_slice()[rand(moves.len())];
                    if pos.piece_on(m.from()).kind() == crate::types::PieceKind::King {
                        king_moves += 1;
                    }
                    stack.push_move(&pos, m);
                    pos.make_move(m);
                    depth += 1;
                }
                // Evaluate only now and then, so updates span several plies.
                if rand(3) == 0 || game % 5 == 0 {
                    let acc = stack.current(&pos);
                    for persp in crate::types::Color::BOTH {
                        let mut fresh = vec![0; net.shape.hidden];
                        accumulator::refresh(&net, &pos, persp, &mut fresh);
                        assert_eq!(acc[persp.index()], fresh, "game {game} {pos:?}");
                    }
                    assert_eq!(stack.output(&pos), output_full(&net, &pos));
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "only {checked} positions checked");
        assert!(king_moves > 100, "only {king_moves} king moves");
    }

    #[test]
    fn embedded_network_is_valid() {
        let net = Network::from_bytes(EMBEDDED_BYTES).unwrap();
        assert!(
            net.description.starts_with("chuhe train"),
            "{}",
            net.description
        );
        // Its scale is checked where its output is used: `evaluate`.
    }

    #[test]
    fn colour_swap_gives_the_same_evaluation() {
        for shape in ["256/8", "k6-64-16-8/3"] {
            colour_swap(&random_network(9, Shape::parse(shape).unwrap()));
        }
    }

    fn colour_swap(net: &Network) {
        let mut pos = Position::startpos();
        let mut lcg = crate::rng::Lcg(3);
        for _ in 0..120 {
            let moves = movegen::legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves.as_slice()[(lcg.next_u64() >> 33) as usize % moves.len()]);
            assert_eq!(
                output_full(net, &pos),
                output_full(net, &pos.colour_swapped())
            );
        }
    }
}
