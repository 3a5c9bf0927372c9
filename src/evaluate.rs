//! The static evaluation the search and the engine use: the classical
//! evaluation, the network alone, or the network as a correction added to
//! the classical evaluation, as the network's header says it was trained
//! (`nnue::Base`).
//!
//! The network (`nnue`) knows only its own output and the classical
//! evaluation (`eval`) knows nothing of networks; adding the two is this
//! module's one job, so that neither depends on the other.

use crate::eval;
use crate::nnue::{self, Base, Network, NnueStack};
use crate::options::Level;
use crate::position::Position;
use crate::types::Score;

/// The evaluation of the search's position through its accumulator stack.
#[inline]
pub fn with_network(stack: &mut NnueStack, pos: &Position) -> Score {
    stack.output(pos) + base(stack.network(), pos)
}

/// The network's evaluation of `pos`, computed from scratch.
pub fn with_network_full(net: &Network, pos: &Position) -> Score {
    nnue::output_full(net, pos) + base(net, pos)
}

/// The classical evaluation at a `knowledge` level.
#[inline]
pub fn classical(pos: &Position, knowledge: Level) -> Score {
    eval::evaluate_at(pos, knowledge)
}

/// What the network's output is added to.
#[inline]
fn base(net: &Network, pos: &Position) -> Score {
    match net.base {
        Base::None => 0,
        Base::Classical(_) => eval::evaluate(pos),
    }
}

/// Whether `net` can be used with this build's evaluation: a correction
/// must have been trained against this very classical evaluation (its code
/// version and weights; a `chuhe tune` run changes them), or its output
/// means nothing.
pub fn check(net: &Network) -> Result<(), String> {
    match net.base {
        Base::Classical(sig) if sig != eval::signature() => Err(format!(
            "the network is a correction to another classical evaluation (signature {sig:016x}, this build's is {:016x}): train it again on this one (`chuhe train --on-classical`)",
            eval::signature()
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_to_another_classical_evaluation_are_refused() {
        // The embedded network is a whole evaluation (no base); were it a
        // correction, this fails after `chuhe tune` (or a change to `eval`
        // with its VERSION bumped) until the network is trained again.
        check(&nnue::embedded()).unwrap();
        let mut other = (*nnue::embedded()).clone();
        other.base = Base::Classical(eval::signature() ^ 1);
        assert!(
            check(&other)
                .unwrap_err()
                .contains("another classical evaluation")
        );
        other.base = Base::None;
        assert!(check(&other).is_ok());
    }

    #[test]
    fn the_embedded_network_has_a_sane_scale() {
        // The start position is close to level, a chariot up is clearly
        // winning.
        let net = nnue::embedded();
        let start = with_network_full(&net, &Position::startpos());
        assert!(start.abs() < 100, "start position {start}");
        let up = Position::from_fen(
            "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap();
        let e = with_network_full(&net, &up);
        assert!(e > 150, "a chariot up: {e}");
    }
}
