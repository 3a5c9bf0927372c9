#!/usr/bin/env bash
# Rebuilds the embedded opening book, book/chuhe.book, from the CCPD master
# games (see book/README.md). Extra arguments go to `chuhe book build`.
# Run from anywhere; needs ../shared/data/ccpd-iccs.tsv.xz beside the repository
# (or DATA=/path/to/data).
# The build is deterministic: the same games and options give the same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${DATA:-}" ]; then
    DATA=../shared/data
    [ -e "$DATA" ] || DATA=../../shared/data   # a git worktree one level deeper
fi
cargo run --release --quiet -- book build \
    --games "$DATA/ccpd-iccs.tsv.xz" --out book/chuhe.book "$@"
