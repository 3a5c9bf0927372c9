//! The version line that identifies a build: `chuhe --version`, the
//! handshakes' `id name`, the first lines of `d` and `help`, and that a build
//! from a git checkout names the checkout's commit.

mod common;

use common::*;
use std::path::Path;
use std::process::Command;

const PKG: &str = env!("CARGO_PKG_VERSION");

/// `VERSION` is the package version, then optionally ` (<commit>)` or
/// ` (<commit>-dirty)` with a hexadecimal short commit.
#[test]
fn version_has_the_documented_shape() {
    let v = chuhe::VERSION;
    assert!(v.starts_with(PKG), "{v}");
    let rest = &v[PKG.len()..];
    if rest.is_empty() {
        return;
    }
    let inner = rest
        .strip_prefix(" (")
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{v}: expected ` (<commit>)` after the version"));
    let commit = inner.strip_suffix("-dirty").unwrap_or(inner);
    assert!(
        commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit()),
        "{v}"
    );
    assert_eq!(chuhe::protocol::NAME_LINE, format!("chuhe {v}"));
}

#[test]
fn command_line_version() {
    let out = Command::new(BIN)
        .arg("--version")
        .output()
        .expect("run chuhe");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, format!("chuhe {}\n", chuhe::VERSION));
    assert!(text.starts_with(&format!("chuhe {PKG}")));
}

#[test]
fn handshakes_display_and_help_show_the_version() {
    for (hello, done) in [("ucci", "ucciok"), ("uci", "uciok")] {
        let mut e = Engine::start();
        e.send(hello);
        let lines = e.expect(done);
        assert_id_name(&lines[0]);
    }
    let mut e = Engine::handshake("ucci");
    e.send("d");
    let lines = e.until("display", |l| l.starts_with("legal moves"));
    assert_eq!(
        lines[0],
        format!("engine {}", chuhe::protocol::NAME_LINE),
        "{lines:?}"
    );
    e.send("help");
    let lines = e.until("help", |l| l.trim_start().starts_with("help "));
    assert!(
        lines[0].starts_with(&format!("{} speaks ", chuhe::protocol::NAME_LINE)),
        "{lines:?}"
    );
}

/// Built from a git checkout (this crate is the top of a work tree and git
/// runs), the version names the checked-out commit. Whether `-dirty` is
/// right is not checked here: an edit made after the build to a file the
/// binary does not use changes the answer without a rebuild.
#[test]
fn a_build_from_git_names_its_commit() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let Some(top) = git(&["rev-parse", "--show-toplevel"]) else {
        println!("SKIPPED: not a git checkout, or no git");
        return;
    };
    if Path::new(&top).canonicalize().ok() != dir.canonicalize().ok() {
        println!("SKIPPED: the crate is not the top of its git work tree");
        return;
    }
    let short = git(&["rev-parse", "--short", "HEAD"]).expect("HEAD");
    let v = chuhe::VERSION;
    assert!(
        v == format!("{PKG} ({short})") || v == format!("{PKG} ({short}-dirty)"),
        "{v} does not name HEAD {short}"
    );
}
