# Shared by match.sh, sprt.sh and gauntlet.sh: finds (or builds) the chuhe
# binary that runs the match. Sourced, not run.

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
