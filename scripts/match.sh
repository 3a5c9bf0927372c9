#!/usr/bin/env bash
# Plays a match between two engines with `chuhe match`.
set -euo pipefail
source "$(dirname "$0")/lib-match.sh"

usage() {
    cat <<USAGE
Usage: scripts/match.sh [options] ENGINE_A ENGINE_B [-- more chuhe match options]

An ENGINE is a command path (named after its file) or NAME=PATH; engines
speak UCCI. Anything after -- goes to chuhe match unchanged, e.g.
-- --each threads=2 --sprt elo0=0 elo1=5 (see chuhe match --help).

Options:
  -t, --tc TC            time control, seconds (default 10+0.1; 40/60 for sessions)
  -g, --games N          games (default 100; each opening twice, colours swapped)
  -c, --concurrency K    games at once (default 1)
  -o, --pgn FILE         PGN output (default match-<date>.pgn)
  -H, --hash MB          hash per engine (default 16)
  -h, --help             this help
Environment: CHUHE=path of the chuhe binary that runs the match
(default target/release/chuhe, built if missing).

Example: scripts/match.sh -t 10+0.1 -g 200 ./target/release/chuhe eleeye=/opt/eleeye/eleeye
USAGE
}

run_match match pair "$@"
