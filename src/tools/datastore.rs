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

/// What a shard's `.bin` holds against its description: `Ok` with a note
/// when it holds more records than described (a run killed between a
/// flush and its description), an error when it is missing, holds fewer,
/// or is not whole records.
pub fn check(dir: &Path, info: &ShardInfo) -> Result<Option<String>, String> {
    use crate::nnue::data::RECORD_SIZE;
    let path = dir.join(&info.file);
    let bytes = std::fs::metadata(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    let size = RECORD_SIZE as u64;
    if bytes % size != 0 {
        return Err(format!(
            "{}: {bytes} bytes is not a whole number of {size}-byte records",
            info.file
        ));
    }
    let records = bytes / size;
    match records.cmp(&info.positions) {
        std::cmp::Ordering::Less => Err(format!(
            "{}: {records} records, fewer than the {} its description counts",
            info.file, info.positions
        )),
        std::cmp::Ordering::Equal => Ok(None),
        std::cmp::Ordering::Greater => Ok(Some(format!(
            "{}: {records} records, {} more than described (written after its last description)",
            info.file,
            records - info.positions
        ))),
    }
}

/// Copies every shard of the store `src` (its `.bin` and `.json`) into
/// `dir`, so that data made elsewhere (a lent machine, another session's
/// disk) joins the store with its description. Refused as a whole, before
/// anything is copied, when a shard fails [`check`], or when `dir` already
/// holds a file of that name or another shard with its seed: two shards of
/// one seed would be the same games. Returns the shards copied.
pub fn import(dir: &Path, src: &Path) -> Result<Vec<ShardInfo>, String> {
    let here = shards(dir)?;
    let incoming = shards(src)?;
    if incoming.is_empty() {
        return Err(format!("{}: no shard descriptions (*.json)", src.display()));
    }
    for s in &incoming {
        check(src, s)?;
        if let Some(h) = here.iter().find(|h| h.file == s.file || h.seed == s.seed) {
            return Err(format!(
                "{}: the store already has {} (seed {}); not imported",
                s.file, h.file, h.seed
            ));
        }
        if incoming.iter().filter(|o| o.seed == s.seed).count() > 1 {
            return Err(format!(
                "{}: seed {} twice in {}",
                s.file,
                s.seed,
                src.display()
            ));
        }
    }
    for s in &incoming {
        let stem = s.file.trim_end_matches(".bin");
        for ext in ["bin", "json"] {
            let name = format!("{stem}.{ext}");
            // Copy under a temporary name and rename, so an interrupted
            // import never leaves a shard that looks whole.
            let tmp = dir.join(format!("{name}.import{}", std::process::id()));
            std::fs::copy(src.join(&name), &tmp).map_err(|e| format!("{name}: {e}"))?;
            std::fs::rename(&tmp, dir.join(&name)).map_err(|e| format!("{name}: {e}"))?;
        }
    }
    write_manifest(dir)?;
    Ok(incoming)
}

/// `chuhe store`: imports the stores in `imports`, checks every shard
/// against its description (notes and errors to stderr), writes
/// `MANIFEST.tsv` and prints it to `out` with the next free seed. An error
/// if a shard does not match its description.
pub fn run(dir: &Path, imports: &[String], out: &mut impl std::io::Write) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for src in imports {
        for s in import(dir, Path::new(src))? {
            eprintln!("store: imported {} ({} positions)", s.file, s.positions);
        }
    }
    let shards = shards(dir)?;
    let mut bad = 0;
    for s in &shards {
        match check(dir, s) {
            Ok(None) => {}
            Ok(Some(note)) => eprintln!("store: {note}"),
            Err(e) => {
                eprintln!("store: {e}");
                bad += 1;
            }
        }
    }
    let text = manifest(&shards);
    replace_file(&dir.join("MANIFEST.tsv"), &text)?;
    writeln!(out, "{text}# next seed\t{}", next_seed(&shards)).map_err(|e| e.to_string())?;
    if bad > 0 {
        return Err(format!("{bad} shard(s) do not match their descriptions"));
    }
    Ok(())
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

    #[test]
    fn import_copies_checked_shards_and_refuses_clashes() {
        let root = std::env::temp_dir().join(format!("chuhe-import-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (home, away) = (root.join("home"), root.join("away"));
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&away).unwrap();
        let put = |dir: &Path, s: &ShardInfo, records: usize| {
            std::fs::write(dir.join(&s.file), vec![0u8; records * 32]).unwrap();
            write_info(dir, s).unwrap();
        };
        put(&home, &info("selfplay-1-s1.bin", 1, 100), 100);
        // A clash of seeds is refused, and nothing is copied.
        put(&away, &info("selfplay-2-s2.bin", 2, 50), 50);
        put(&away, &info("selfplay-3-s1.bin", 1, 70), 70);
        assert!(import(&home, &away).unwrap_err().contains("seed 1"));
        assert_eq!(shards(&home).unwrap().len(), 1);
        // So is a shard whose records fall short of its description.
        std::fs::remove_file(away.join("selfplay-3-s1.bin")).unwrap();
        std::fs::remove_file(away.join("selfplay-3-s1.json")).unwrap();
        put(&away, &info("selfplay-4-s4.bin", 4, 80), 79);
        assert!(import(&home, &away).unwrap_err().contains("fewer"));
        // More records than described is a note, not an error.
        put(&away, &info("selfplay-4-s4.bin", 4, 80), 81);
        let s4 = info("selfplay-4-s4.bin", 4, 80);
        assert!(check(&away, &s4).unwrap().unwrap().contains("1 more"));
        let copied = import(&home, &away).unwrap();
        assert_eq!(copied.len(), 2);
        assert_eq!(shards(&home).unwrap().len(), 3);
        assert_eq!(
            std::fs::read(home.join("selfplay-4-s4.bin")).unwrap().len(),
            81 * 32
        );
        let manifest = std::fs::read_to_string(home.join("MANIFEST.tsv")).unwrap();
        assert!(
            manifest.lines().last().unwrap().contains("\t230\t"),
            "{manifest}"
        );
        // Importing the same shards again is refused by name.
        assert!(import(&home, &away).is_err());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
