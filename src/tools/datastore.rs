//! The training-data store: where self-play data accumulates between
//! working sessions, outside any work tree.
//!
//! The store is a directory (`--store DIR`; by default `$CHUHE_DATA`, else
//! `$XDG_DATA_HOME/chuhe/data`, else `~/.local/share/chuhe/data`). Each
//! `chuhe datagen --store` run adds one shard: `NAME.bin` (records, see
//! `nnue::data`) and beside it `NAME.json`, what made it: the engine
//! version (with its commit), the evaluation and network hash, nodes per
//! move, seed, source, and the games and positions written so far. The run
//! rewrites the JSON (to a temporary file, then renamed) each time it
//! flushes its records, so a shard killed at any moment describes what its
//! `.bin` holds up to its last few seconds. `MANIFEST.tsv` lists every
//! shard with its totals; it is made again from the JSON files by every
//! run, so concurrent runs never lose each other's lines. A run given no
//! `--seed` takes one above every seed in the store, so shards never
//! repeat each other's games.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What made a shard, and how much it holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// The `.bin` file's name within the store.
    pub file: String,
    /// `chuhe --version`'s line: version, commit, `-dirty`.
    pub engine: String,
    /// `classical`, or `nnue` with the network's hash.
    pub evaluation: String,
    pub nodes: u64,
    pub seed: u64,
    /// `selfplay`, `games FILE`, `relabel FILE` or `labels FILE`.
    pub source: String,
    pub games: u64,
    pub positions: u64,
    /// Seconds since the Unix epoch.
    pub started: u64,
    pub updated: u64,
    /// True once the run ended by itself (or by a signal, after its last
    /// flush); false while it runs or if it was killed.
    pub complete: bool,
}

/// The store directory the environment names.
pub fn default_dir() -> PathBuf {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = var("CHUHE_DATA") {
        return PathBuf::from(d);
    }
    let base = var("XDG_DATA_HOME").map(PathBuf::from).unwrap_or_else(|| {
        var("HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("."))
            .join(".local/share")
    });
    base.join("chuhe/data")
}

/// Every shard the store describes, by file name.
pub fn shards(dir: &Path) -> Result<Vec<ShardInfo>, String> {
    let mut out = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|x| x == "json") {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let info: ShardInfo = serde_json::from_str(&text)
                .map_err(|e| format!("{}: not a shard description: {e}", path.display()))?;
            out.push(info);
        }
    }
    out.sort_by(|a, b| a.file.cmp(&b.file));
    Ok(out)
}

/// A seed above every seed in the store.
pub fn next_seed(shards: &[ShardInfo]) -> u64 {
    shards.iter().map(|s| s.seed + 1).max().unwrap_or(1)
}

/// A new shard's file stem: the source, the time and the seed.
pub fn shard_name(source: &str, started: u64, seed: u64) -> String {
    let kind = source.split(' ').next().unwrap_or("data");
    format!("{kind}-{started}-s{seed}")
}

/// Writes `info` beside its `.bin` (atomically: a reader never sees half).
pub fn write_info(dir: &Path, info: &ShardInfo) -> Result<(), String> {
    let stem = info.file.trim_end_matches(".bin");
    let json = serde_json::to_string_pretty(info).map_err(|e| e.to_string())?;
    replace_file(&dir.join(format!("{stem}.json")), &json)
}

/// Makes `MANIFEST.tsv` again from the shard descriptions.
pub fn write_manifest(dir: &Path) -> Result<(), String> {
    replace_file(&dir.join("MANIFEST.tsv"), &manifest(&shards(dir)?))
}

/// The manifest's text: a header, one line a shard, a total line.
pub fn manifest(shards: &[ShardInfo]) -> String {
    let mut text = String::from(
        "file\tengine\tevaluation\tnodes\tseed\tsource\tgames\tpositions\tstarted\tupdated\tcomplete\n",
    );
    for s in shards {
        text += &format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            s.file,
            s.engine,
            s.evaluation,
            s.nodes,
            s.seed,
            s.source,
            s.games,
            s.positions,
            s.started,
            s.updated,
            s.complete
        );
    }
    let games: u64 = shards.iter().map(|s| s.games).sum();
    let positions: u64 = shards.iter().map(|s| s.positions).sum();
    text += &format!(
        "# total\t{} shards\t\t\t\t\t{games}\t{positions}\t\t\t\n",
        shards.len()
    );
    text
}

fn replace_file(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Seconds since the Unix epoch.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(file: &str, seed: u64, positions: u64) -> ShardInfo {
        ShardInfo {
            file: file.into(),
            engine: "0.1.0 (abc1234)".into(),
            evaluation: "nnue b1f4e71c2ff4d03f".into(),
            nodes: 5000,
            seed,
            source: "selfplay".into(),
            games: positions / 100,
            positions,
            started: 1,
            updated: 2,
            complete: true,
        }
    }

    #[test]
    fn shards_are_described_listed_and_seeded_apart() {
        let dir = std::env::temp_dir().join(format!("chuhe-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(next_seed(&shards(&dir).unwrap()), 1);
        write_info(&dir, &info("selfplay-5-s3.bin", 3, 1000)).unwrap();
        write_info(&dir, &info("selfplay-4-s7.bin", 7, 500)).unwrap();
        let listed = shards(&dir).unwrap();
        assert_eq!(listed.len(), 2);
        assert_eq!(listed[0], info("selfplay-4-s7.bin", 7, 500));
        assert_eq!(next_seed(&listed), 8);
        write_manifest(&dir).unwrap();
        let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
        assert!(
            text.lines().last().unwrap().contains("\t15\t1500\t"),
            "{text}"
        );
        // Rewriting a shard's description replaces it.
        write_info(&dir, &info("selfplay-4-s7.bin", 7, 900)).unwrap();
        assert_eq!(shards(&dir).unwrap()[0].positions, 900);
        assert_eq!(shard_name("games x.tsv", 12, 4), "games-12-s4");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
