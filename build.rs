//! Build script: the version line that identifies a build.
//!
//! Sets `CHUHE_VERSION` for the crate: the package version, followed for a
//! build from a git checkout by the short commit and `-dirty` when tracked
//! files differ from that commit, e.g. `0.1.0 (c9887f2-dirty)`. A packaged
//! crate has no `.git` but records the commit it was packaged from in
//! `.cargo_vcs_info.json`, which is read instead. With neither (or no `git`
//! program) the line is the bare package version.
//!
//! Cargo reruns this script when HEAD moves (checkout, commit, reset: the
//! HEAD file, its reflog, the branch ref), when the index changes (`git
//! add`), and when the binary's own inputs change (`src/`, `book/`, the
//! manifest and lock file), so `-dirty` appears as soon as a source edit is
//! built. An edit only to files the binary does not use (README, tests)
//! does not rebuild it and so does not mark it dirty.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let version = std::env::var("CARGO_PKG_VERSION").expect("set by cargo");

    for input in ["src", "book", "Cargo.toml", "Cargo.lock", "build.rs"] {
        watch(&manifest_dir.join(input));
    }

    let commit = git_commit(&manifest_dir).or_else(|| packaged_commit(&manifest_dir));
    let line = match commit {
        Some(c) => format!("{version} ({c})"),
        None => version,
    };
    println!("cargo:rustc-env=CHUHE_VERSION={line}");
}

/// Asks cargo to rerun this script when `path` changes. Only existing paths
/// are named: cargo treats a missing one as always changed, which would
/// rebuild the crate on every run.
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// Runs `git` in `dir` and returns its trimmed output, or `None` when git
/// is missing or fails. Optional locks are off so that `status` never
/// rewrites the index (which would make cargo rerun this script again).
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.trim().to_string())
}

/// `<short commit>[-dirty]` when the crate is the top of a git work tree.
/// A crate unpacked somewhere inside another repository (`target/package/`,
/// a vendored copy) is not, and gets no commit from it.
fn git_commit(dir: &Path) -> Option<String> {
    let top = PathBuf::from(git(dir, &["rev-parse", "--show-toplevel"])?);
    if top.canonicalize().ok()? != dir.canonicalize().ok()? {
        return None;
    }
    let short = git(dir, &["rev-parse", "--short", "HEAD"])?;

    // The files that move with HEAD and the index. `--git-path` resolves
    // them for linked worktrees too (HEAD and index per worktree, refs and
    // packed-refs in the common directory).
    let mut paths = vec![
        "HEAD".to_string(),
        "index".to_string(),
        "logs/HEAD".to_string(),
    ];
    paths.push("packed-refs".to_string());
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        paths.push(branch);
    }
    for p in paths {
        if let Some(resolved) = git(dir, &["rev-parse", "--git-path", &p]) {
            watch(&dir.join(resolved));
        }
    }

    // Tracked files only: an untracked file changes nothing until it is
    // added (and then it is in the index, which is watched).
    let status = git(dir, &["status", "--porcelain", "--untracked-files=no"])?;
    Some(if status.is_empty() {
        short
    } else {
        format!("{short}-dirty")
    })
}

/// The commit `cargo package` recorded, from `.cargo_vcs_info.json`:
/// `{"git": {"sha1": "<40 hex>", "dirty": true}, "path_in_vcs": ""}`.
fn packaged_commit(dir: &Path) -> Option<String> {
    let path = dir.join(".cargo_vcs_info.json");
    watch(&path);
    let text = std::fs::read_to_string(&path).ok()?;
    let after = &text[text.find("\"sha1\"")? + "\"sha1\"".len()..];
    let start = after.find('"')? + 1;
    let sha: String = after[start..]
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect();
    if sha.len() < 7 {
        return None;
    }
    let dirty = text.contains("\"dirty\": true") || text.contains("\"dirty\":true");
    Some(format!(
        "{}{}",
        &sha[..7],
        if dirty { "-dirty" } else { "" }
    ))
}
