# Shared by match.sh, gauntlet.sh, sprt.sh and calibrate-levels.sh: finds
# (or builds) the chuhe binary that runs the match, turns engine arguments
# into --engine tokens, and (match.sh, gauntlet.sh) reads the common options
# and runs the match. Sourced, not run.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Sets CHUHE: $CHUHE if set, else target/release/chuhe (built if missing).
find_chuhe() {
    if [ -n "${CHUHE:-}" ]; then
        return
    fi
    CHUHE="$ROOT/target/release/chuhe"
    if [ ! -x "$CHUHE" ]; then
        echo "building $CHUHE ..." >&2
        (cd "$ROOT" && cargo build --release --quiet) || exit 2
    fi
}

# Sets TOKENS to the --engine tokens for "PATH" (named after the file) or
# "NAME=PATH".
engine_tokens() {
    local spec=$1
    case "$spec" in
    *=*) TOKENS=("cmd=${spec#*=}" "name=${spec%%=*}") ;;
    *) TOKENS=("cmd=$spec" "name=$(basename "$spec")") ;;
    esac
}

# The body of match.sh and gauntlet.sh: reads their options and engines
# from the arguments after the first two, then runs `chuhe match`.
# $1: the PGN file's default prefix (`match`, `gauntlet`); $2: how many
# engines: `pair` (exactly two) or `gauntlet` (two or more). The caller
# defines `usage`.
run_match() {
    local prefix=$1 count=$2
    shift 2
    local tc=10+0.1 games=100 conc=1 pgn hash=16
    pgn="$prefix-$(date +%Y%m%d-%H%M%S).pgn"
    local engines=() extra=()
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
    local n=${#engines[@]}
    if [ "$n" -lt 2 ] || { [ "$count" = pair ] && [ "$n" -ne 2 ]; }; then
        usage >&2
        exit 2
    fi
    find_chuhe
    local args=(match) e
    for e in "${engines[@]}"; do
        engine_tokens "$e"
        args+=(--engine "${TOKENS[@]}")
    done
    args+=(--each "hash=$hash" --tc "$tc" --games "$games" --concurrency "$conc" --pgn "$pgn")
    echo "+ $CHUHE ${args[*]} ${extra[*]:-}" >&2
    exec "$CHUHE" "${args[@]}" "${extra[@]}"
}
