//! The game data the data tests read: `../shared/data` beside the checkout
//! (or beside its parent, for a worktree), not part of the repository.
//!
//! Without it a data test skips itself with a `SKIPPED:` line, so that a
//! fresh clone's `cargo test` passes. With `CHUHE_REQUIRE_DATA=1` (which
//! `.ci/run` sets: CI always has the data) a missing file fails the test
//! instead, so the data tests cannot quietly stop running.

use std::path::PathBuf;

/// The variable that turns a skip into a failure.
pub const REQUIRE_DATA: &str = "CHUHE_REQUIRE_DATA";

/// The shared data file `name`; `None` (after saying so) when it is
/// absent, unless [`REQUIRE_DATA`] is `1`: then a missing file panics.
pub fn shared_file(name: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let found = [root.join("../shared/data"), root.join("../../shared/data")]
        .into_iter()
        .map(|d| d.join(name))
        .find(|f| f.is_file());
    if found.is_none() {
        assert!(
            std::env::var(REQUIRE_DATA).as_deref() != Ok("1"),
            "{name} not found in ../shared/data, and {REQUIRE_DATA}=1 requires it"
        );
        println!("SKIPPED: {name} not found in ../shared/data");
    }
    found
}
