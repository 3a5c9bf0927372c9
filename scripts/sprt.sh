#!/usr/bin/env bash
# SPRT of a new chuhe build against a base build with `chuhe match`.
set -euo pipefail
source "$(dirname "$0")/lib-match.sh"

usage() {
    cat <<USAGE
Usage: scripts/sprt.sh [options] [-- more chuhe match options]

Plays NEW against BASE until the SPRT accepts H1 (NEW is at least elo1
stronger) or H0 (at most elo0), or --games run out. Anything after -- goes
to chuhe match unchanged.

Options:
  -n, --new BIN          the new build (default target/release/chuhe, built)
  -b, --base BIN         the base build
  -r, --base-ref REF     build the base from git REF (e.g. main) in a temporary
                         worktree instead of --base
  -t, --tc TC            time control, seconds (default 10+0.1)
      --elo0 E / --elo1 E   hypotheses (default 0 and 5)
      --alpha A / --beta B  error rates (default 0.05 each)
  -g, --games N          at most N games (default 20000)
  -c, --concurrency K    games at once (default 1)
  -o, --pgn FILE         PGN output (default sprt-<date>.pgn)
  -H, --hash MB          hash per engine (default 16)
  -h, --help             this help

Example: scripts/sprt.sh --base-ref main --tc 10+0.1 --concurrency 2
USAGE
}

new="" base="" base_ref="" tc=10+0.1 elo0=0 elo1=5 alpha=0.05 beta=0.05
games=20000 conc=1 pgn="sprt-$(date +%Y%m%d-%H%M%S).pgn" hash=16 extra=()
while [ $# -gt 0 ]; do
    case "$1" in
    -n | --new) new=$2; shift 2 ;;
    -b | --base) base=$2; shift 2 ;;
    -r | --base-ref) base_ref=$2; shift 2 ;;
    -t | --tc) tc=$2; shift 2 ;;
    --elo0) elo0=$2; shift 2 ;;
    --elo1) elo1=$2; shift 2 ;;
    --alpha) alpha=$2; shift 2 ;;
    --beta) beta=$2; shift 2 ;;
    -g | --games) games=$2; shift 2 ;;
    -c | --concurrency) conc=$2; shift 2 ;;
    -o | --pgn) pgn=$2; shift 2 ;;
    -H | --hash) hash=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
if [ -z "$base" ] && [ -z "$base_ref" ]; then
    echo "give --base BIN or --base-ref REF (see --help)" >&2
    exit 2
fi
find_chuhe
if [ -z "$new" ]; then
    new="$ROOT/target/release/chuhe"
    (cd "$ROOT" && cargo build --release --quiet) || exit 2
fi
if [ -n "$base_ref" ]; then
    tmp=$(mktemp -d)
    trap 'git -C "$ROOT" worktree remove --force "$tmp/src" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
    git -C "$ROOT" worktree add --detach "$tmp/src" "$base_ref" >/dev/null
    echo "building base $base_ref ..." >&2
    (cd "$tmp/src" && CARGO_TARGET_DIR="$tmp/target" cargo build --release --quiet) || exit 2
    base="$tmp/target/release/chuhe"
fi
args=(match --engine "cmd=$new" name=new --engine "cmd=$base" name=base
    --each "hash=$hash" threads=1 --tc "$tc" --games "$games" --concurrency "$conc"
    --pgn "$pgn" --sprt "elo0=$elo0" "elo1=$elo1" "alpha=$alpha" "beta=$beta")
echo "+ $CHUHE ${args[*]} ${extra[*]:-}" >&2
"$CHUHE" "${args[@]}" "${extra[@]}"
