#!/usr/bin/env bash
# Plays one engine against several others with `chuhe match`.
set -euo pipefail
source "$(dirname "$0")/lib-match.sh"

usage() {
    cat <<USAGE
Usage: scripts/gauntlet.sh [options] HERO OPPONENT... [-- more chuhe match options]

HERO plays every OPPONENT; the summary has one block per opponent.
An engine is a command path (named after its file) or NAME=PATH; engines
speak UCCI. Anything after -- goes to chuhe match unchanged.

Options:
  -t, --tc TC            time control, seconds (default 10+0.1)
  -g, --games N          games per opponent (default 100)
  -c, --concurrency K    games at once (default 1)
  -o, --pgn FILE         PGN output (default gauntlet-<date>.pgn)
  -H, --hash MB          hash per engine (default 16)
  -h, --help             this help
Environment: CHUHE=path of the chuhe binary that runs the match.

Example: scripts/gauntlet.sh -g 50 ./target/release/chuhe /opt/eleeye/eleeye fsf=/opt/fsf/fairy-stockfish
USAGE
}

run_match gauntlet gauntlet "$@"
