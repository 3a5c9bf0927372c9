//! What each side of a match may use per move: a time control (the clock
//! itself lives in [`crate::clock`]), a fixed time per move, a depth or a
//! node limit.

use crate::clock::format_seconds;
pub use crate::clock::{GameClock, Session, TimeControl};

/// What a side may use per move: a clock or a fixed time per move, and
/// optionally a depth or node limit (alone or on top of the time).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchLimits {
    pub tc: Option<TimeControl>,
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl MatchLimits {
    /// These limits with an engine's own settings on top: a clock or a
    /// move time given for the engine replaces both time settings; depth
    /// and nodes replace one by one.
    pub fn overridden_by(&self, own: &MatchLimits) -> MatchLimits {
        let (tc, movetime_ms) = if own.tc.is_some() || own.movetime_ms.is_some() {
            (own.tc.clone(), own.movetime_ms)
        } else {
            (self.tc.clone(), self.movetime_ms)
        };
        MatchLimits {
            tc,
            movetime_ms,
            depth: own.depth.or(self.depth),
            nodes: own.nodes.or(self.nodes),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.tc.is_none()
            && self.movetime_ms.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
    }

    /// Whether a search under these limits depends on nothing but the
    /// position (a depth or node limit, no clock): a single-threaded engine
    /// then plays the same game from the same opening every time.
    pub fn is_repeatable(&self) -> bool {
        self.tc.is_none()
            && self.movetime_ms.is_none()
            && (self.depth.is_some() || self.nodes.is_some())
    }

    /// For people: `tc 10+0.1`, `movetime 500 ms, depth 8`, `nodes 1000`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = &self.tc {
            parts.push(format!("tc {tc}"));
        }
        if let Some(ms) = self.movetime_ms {
            parts.push(format!("movetime {ms} ms"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if parts.is_empty() {
            "no limit".into()
        } else {
            parts.join(", ")
        }
    }

    /// The PGN `TimeControl` value: the clock, `N/move` style `movetime`
    /// as the PGN standard writes it (`*N` seconds per move), or `-`.
    pub fn pgn_time_control(&self) -> String {
        match (&self.tc, self.movetime_ms) {
            (Some(tc), _) => tc.to_string(),
            (None, Some(ms)) => format!("*{}", format_seconds(ms)),
            (None, None) => "-".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_override() {
        let global = MatchLimits {
            tc: Some(TimeControl::fischer(10_000, 100)),
            depth: Some(5),
            ..MatchLimits::default()
        };
        let own = MatchLimits {
            movetime_ms: Some(500),
            nodes: Some(1000),
            ..MatchLimits::default()
        };
        let l = global.overridden_by(&own);
        assert_eq!(
            (l.tc.clone(), l.movetime_ms, l.depth, l.nodes),
            (None, Some(500), Some(5), Some(1000))
        );
        assert_eq!(global.overridden_by(&MatchLimits::default()), global);
        assert_eq!(global.pgn_time_control(), "10+0.1");
        assert_eq!(own.pgn_time_control(), "*0.5");
        assert_eq!(l.describe(), "movetime 500 ms, depth 5, nodes 1000");
        assert_eq!(global.describe(), "tc 10+0.1, depth 5");
        assert_eq!(MatchLimits::default().pgn_time_control(), "-");
        assert!(MatchLimits::default().is_empty() && !own.is_empty());
    }
}
