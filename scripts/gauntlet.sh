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

tc=10+0.1 games=100 conc=1 pgn="gauntlet-$(date +%Y%m%d-%H%M%S).pgn" hash=16
engines=() extra=()
while [ $# -gt 0 ]; do
    case "$1" in
    -t | --tc) tc=$2; shift 2 ;;
    -g | --games) games=$2; shift 2 ;;
    -c | --concurrency) conc=$2; shift 2 ;;
    -o | --pgn) pgn=$2; shift 2 ;;
    -H | --hash) hash=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    *) engines+=("$1"); shift ;;
    esac
done
if [ ${#engines[@]} -lt 2 ]; then
    usage >&2
    exit 2
fi
find_chuhe
args=(match)
for e in "${engines[@]}"; do
    engine_tokens "$e"
    args+=(--engine "${TOKENS[@]}")
done
args+=(--each "hash=$hash" --tc "$tc" --games "$games" --concurrency "$conc" --pgn "$pgn")
echo "+ $CHUHE ${args[*]} ${extra[*]:-}" >&2
exec "$CHUHE" "${args[@]}" "${extra[@]}"
