#!/usr/bin/env bash
# Proof in a real GUI: XBoard, under a virtual X display, plays chuhe
# against MaxQi (the xiangqi engine of Debian's fairymax package, which
# xboard depends on): one game with chuhe speaking CECP natively, one with
# chuhe speaking UCI through a protocol adapter (`xboard -fUCI`). Saves each
# game's PGN, XBoard's debug log and a screenshot of the window, and fails
# unless both games end normally (mate, stalemate, a rule draw or a result
# claimed by the rules; resignation counts too) with no illegal move, no
# forfeit, no engine crash and no protocol error from chuhe.
#
# Nothing may hang it: XBoard never flags an engine that stops answering,
# so the script watches the debug log. A game that writes nothing for 90 s
# is stopped (its whole process group, TERM then KILL) and blamed on the
# engine that owed a move; every game also has a hard limit from its clock.
# MaxQi's crashes and stalls replay the game with a WARNING (three tries).
#
# The adapter: polyglot is what XBoard uses for -fUCI by default, but
# Debian's polyglot (2.0.4) is a chess-only build: it announces
# variants="normal" whatever the engine says and checks moves on a chess
# board. The script asks polyglot what it supports and, when xiangqi is not
# among it, runs the UCI game through uci2wb, HGM's adapter, which reads
# chuhe's UCI_Variant option and passes ICCS moves through unchanged.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)

usage() {
    cat <<USAGE
Usage: scripts/xboard-check.sh [options]

Options:
  -o, --out DIR     where games, logs and screenshots go (default target/xboard-check)
  -t, --tc MIN:SEC  base time per side (default 0:40)
  -i, --inc SEC     increment per move (default 0.3)
  -h, --help        this help
Environment: CHUHE=the chuhe binary (default target/release/chuhe, built if
missing). Installs xboard, fairymax, polyglot, uci2wb, xvfb, x11-apps, x11-utils and
imagemagick with apt-get when they are missing (needs root or sudo).
USAGE
}

out="$ROOT/target/xboard-check" tc=0:40 inc=0.3
while [ $# -gt 0 ]; do
    case "$1" in
    -o | --out) out=$2; shift 2 ;;
    -t | --tc) tc=$2; shift 2 ;;
    -i | --inc) inc=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

say() { echo "xboard-check: $*"; }
fail() { echo "xboard-check: FAILED: $*" >&2; exit 1; }

# --- tools ----------------------------------------------------------------
XBOARD=/usr/games/xboard MAXQI=/usr/games/maxqi POLYGLOT=/usr/games/polyglot
UCI2WB=/usr/games/uci2wb
missing=()
[ -x "$XBOARD" ] || missing+=(xboard)
[ -x "$MAXQI" ] || missing+=(fairymax)
[ -x "$POLYGLOT" ] || missing+=(polyglot)
[ -x "$UCI2WB" ] || missing+=(uci2wb)
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v xwd >/dev/null || missing+=(x11-apps)
command -v xwininfo >/dev/null || missing+=(x11-utils)
# /usr/bin/convert: ImageMagick (a stand-in elsewhere on PATH may not read xwd)
[ -x /usr/bin/convert ] || missing+=(imagemagick)
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq >/dev/null
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
for t in "$XBOARD" "$MAXQI" "$POLYGLOT" "$UCI2WB" /usr/bin/convert; do
    [ -x "$t" ] || fail "$t is missing after installing"
done
if [ -z "${CHUHE:-}" ]; then
    CHUHE="$ROOT/target/release/chuhe"
    [ -x "$CHUHE" ] || (cd "$ROOT" && cargo build --release --quiet)
fi

rm -rf "$out"
mkdir -p "$out/work"
out=$(cd "$out" && pwd)
# A private copy of the engine, so that a rebuild cannot change it mid-game.
cp "$CHUHE" "$out/work/chuhe"
engine="$out/work/chuhe"

# --- display --------------------------------------------------------------
display=""
for n in $(seq 90 140); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then
        display=":$n"
        break
    fi
done
[ -n "$display" ] || fail "no free X display number"
Xvfb "$display" -screen 0 1000x760x24 -nolisten tcp >"$out/work/xvfb.log" 2>&1 &
xvfb_pid=$!
cleanup() {
    kill "$xvfb_pid" 2>/dev/null || true
    wait "$xvfb_pid" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 100); do
    [ -e "/tmp/.X11-unix/X${display#:}" ] && break
    sleep 0.1
done
[ -e "/tmp/.X11-unix/X${display#:}" ] || fail "Xvfb did not start (see $out/work/xvfb.log)"
export DISPLAY=$display

# --- which UCI adapter ----------------------------------------------------
pg_variants=$(printf 'xboard\nprotover 2\nquit\n' |
    timeout 10 "$POLYGLOT" -noini -ec "$engine" -ed "$out/work" 2>/dev/null |
    sed -n 's/^feature variants="\(.*\)"/\1/p' | head -1) || true
if [[ ",$pg_variants," == *,xiangqi,* ]]; then
    adapter_name=polyglot
    adapter='/usr/games/polyglot -noini -ec "%fcp" -ed "%fd"'
else
    say "polyglot offers variants=\"$pg_variants\" for chuhe (a chess-only build): the UCI game goes through uci2wb"
    adapter_name=uci2wb
    # `debug` puts everything chuhe says into XBoard's log as # comments.
    adapter='/usr/games/uci2wb debug "%fcp" "%fd"'
fi

# --- one game -------------------------------------------------------------
# Whether MaxQi, a child of the XBoard under timeout PID $1, has died
# (a zombie): XBoard then hangs instead of ending the game.
maxqi_died() {
    local xboard
    xboard=$(pgrep -P "$1" | head -n 1) || return 1
    [ -n "$xboard" ] || return 1
    ps -o stat=,comm= --ppid "$xboard" 2>/dev/null | grep -q '^Z.*maxqi'
}

# The engine (first|second) that owes a move in XBoard's debug log $1: the
# last one sent `go` or the opponent's move that has not answered since.
engine_on_move() {
    awk '
        / >(first|second) *: *(go|usermove|[a-i][0-9][a-i][0-9])/ {
            owes = ($2 ~ /^>first/) ? "first" : "second"
        }
        / <(first|second) *: *move / {
            side = ($2 ~ /^<first/) ? "first" : "second"
            if (side == owes) owes = ""
        }
        END { print owes }' "$1"
}

# Stops the game under timeout PID $1 and everything in its process group
# (timeout leads one: XBoard, the engines, the adapter): TERM, then KILL,
# so that no step of the check can wait for ever on a stuck process.
stop_game() {
    kill -TERM -- "-$1" 2>/dev/null || true
    for _ in $(seq 50); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL -- "-$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# Seconds after which a game with this clock must be over: both sides
# spend their base time and the increments of 300 moves, plus a minute of
# start-up and slack. Anything longer is a hang.
game_limit() {
    local base=$1 inc=$2
    local secs=$((10#${base%%:*} * 60 + 10#${base##*:}))
    awk -v b="$secs" -v i="$inc" 'BEGIN { printf "%d", 2 * (b + 300 * i) + 60 }'
}
limit=$(game_limit "$tc" "$inc")
# Without a line in XBoard's log for this long, the game is stuck (both
# engines post their thinking, so a live game writes every few seconds).
stall_secs=90

# play NAME chuhe-is-first(1|0) [extra xboard args...]
# MaxQi (not chuhe) segfaults or stalls now and then in deep searches; such
# a game is played again, with a WARNING. A third failure of MaxQi fails
# the check.
play() {
    local attempt rc
    for attempt in 1 2 3; do
        rc=0
        play_once "$@" || rc=$?
        [ "$rc" -eq 3 ] || return 0
        say "WARNING: $1: MaxQi failed (not chuhe); playing the game again"
    done
    fail "$1: MaxQi failed three times"
}

# Returns 3 when MaxQi crashed or stalled; fails the check when chuhe (or
# its adapter, or XBoard) did.
play_once() {
    local name=$1 first=$2
    shift 2
    rm -f "$out/$name.pgn" "$out/$name.debug" "$out/$name.png"
    local players maxqi_side
    if [ "$first" = 1 ]; then
        players=(-fcp "$engine" -fd "$out/work" -scp "$MAXQI" -sd "$out/work")
        maxqi_side=second
    else
        players=(-fcp "$MAXQI" -fd "$out/work" -scp "$engine" -sd "$out/work")
        maxqi_side=first
    fi
    say "game '$name' ($tc + ${inc}s, at most ${limit} s), chuhe plays $([ "$first" = 1 ] && echo Red || echo Black)"
    timeout -k 10 "$limit" "$XBOARD" -variant xiangqi "${players[@]}" "$@" \
        -mg 1 -tc "$tc" -inc "$inc" -sgf "$out/$name.pgn" -pgnExtendedInfo true \
        -debug -nameOfDebugFile "$out/$name.debug" \
        -settingsFile "$out/work/xboardrc" -saveSettingsOnExit false \
        -xponder -xexit -showThinking true -size Medium \
        >"$out/work/$name.out" 2>&1 &
    local xb=$! shots=0 size=-1 still=0
    # A screenshot every two seconds while the game runs; the last one
    # taken before XBoard closes its window is kept.
    while kill -0 "$xb" 2>/dev/null; do
        sleep 2
        if maxqi_died "$xb"; then
            stop_game "$xb"
            return 3
        fi
        local now
        now=$(stat -c %s "$out/$name.debug" 2>/dev/null || echo 0)
        if [ "$now" = "$size" ]; then
            still=$((still + 2))
        else
            size=$now still=0
        fi
        if [ "$still" -ge "$stall_secs" ]; then
            local owes
            owes=$(engine_on_move "$out/$name.debug")
            stop_game "$xb"
            say "$name: no word from XBoard or either engine for ${still} s; '${owes:-nobody}' was to move"
            tail -n 15 "$out/$name.debug" | sed 's/^/  | /' >&2
            [ "$owes" = "$maxqi_side" ] && return 3
            fail "$name: the game stalled with chuhe (or XBoard) to move"
        fi
        local win
        win=$(timeout 10 xwininfo -root -tree 2>/dev/null | awk '/"Xboard"/ && / vs\. / { print $1; exit }') || true
        if [ -n "$win" ] && timeout 10 xwd -id "$win" -silent 2>/dev/null >"$out/work/shot.xwd" &&
            timeout 20 /usr/bin/convert "xwd:$out/work/shot.xwd" "$out/work/shot.png" 2>/dev/null &&
            kill -0 "$xb" 2>/dev/null; then
            mv "$out/work/shot.png" "$out/$name.png"
            shots=$((shots + 1))
        fi
    done
    local rc=0
    wait "$xb" || rc=$?
    if [ "$rc" -ne 0 ]; then
        # XBoard exits (it never pops up a dialog: -xexit) when an engine's
        # pipe closes; MaxQi's crash is retried, anything else fails.
        if grep -a -q -i -E "(${maxqi_side}|maxqi).*exited unexpectedly|exited unexpectedly.*maxqi" \
            "$out/work/$name.out" "$out/$name.debug" 2>/dev/null; then
            return 3
        fi
        [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] &&
            fail "$name: still running after ${limit} s (see $out/$name.debug)"
        fail "$name: xboard exited with status $rc (see $out/work/$name.out)"
    fi
    [ "$shots" -gt 0 ] || fail "$name: no screenshot could be taken"
}

# check NAME side(first|second)
check() {
    local name=$1 side=$2 pgn="$out/$1.pgn" log="$out/$1.debug"
    [ -s "$pgn" ] || fail "$name: no PGN saved"
    [ -s "$log" ] || fail "$name: no XBoard debug log"
    local games result ending
    games=$(grep -c '^\[Result ' "$pgn")
    [ "$games" -eq 1 ] || fail "$name: $games games in $pgn, expected 1"
    result=$(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$pgn")
    case "$result" in
    1-0 | 0-1 | 1/2-1/2) ;;
    *) fail "$name: result '$result' is not a finished game" ;;
    esac
    # The last comment before the result is how the game ended.
    ending=$(tr '\n' ' ' <"$pgn" | grep -o '{[^}]*} *\(1-0\|0-1\|1/2-1/2\) *$' | sed 's/^{\([^}]*\)}.*/\1/') || true
    say "$name: $result {$ending}"
    # Any false claim fails, the adapter's too: chuhe reports a win by the
    # repetition rules (the opponent's perpetual check or chase) as a `cp`
    # score in a band of its own, never as `score mate`, so UCI2WB has no
    # mate to claim.
    if grep -q -i -E 'illegal|forfeit|time|crash|false|abort|disconnect|exit|died|lost contact|unfinished' <<<"$ending"; then
        fail "$name: the game did not end normally: {$ending}"
    fi
    grep -q -i -E 'mate|stalemate|no legal move|perpetual|repetition|move limit|rule|material|resign|draw' <<<"$ending" ||
        fail "$name: unknown ending {$ending}"
    # Nothing went wrong on the way: no illegal move from either engine or
    # from XBoard's referee, no crash, no protocol error from chuhe.
    local tag="<$side"
    [ "$side" = first ] && tag="<first :" || tag="<second:"
    if grep -a -n -i -E '(<first :|<second:) *illegal move|illegal move.*(first|second)|forfeit|exited unexpectedly|engine crash|died' "$log" >"$out/work/$name.bad"; then
        head -5 "$out/work/$name.bad" >&2
        fail "$name: illegal move, forfeit or crash in $log"
    fi
    if grep -a -n -E "^[0-9]+ $tag (Error|tellusererror)" "$log" |
        grep -v -E "$adapter_garbage" >"$out/work/$name.errors"; then
        head -5 "$out/work/$name.errors" >&2
        fail "$name: chuhe (or its adapter) answered with an error"
    fi
    # Through the adapter: chuhe's own diagnostics are comments in the log.
    if grep -a -n -i -E 'engine said: info (string|message) .*(ignored|rejected|not legal|unknown|illegal)' "$log" >"$out/work/$name.diag"; then
        head -5 "$out/work/$name.diag" >&2
        fail "$name: chuhe rejected a command from the adapter"
    fi
}

# uci2wb 4.1 answers the stray bytes XBoard sends after `usermove` with an
# error of garbage, and XBoard's protocol-1 colour commands (`black`,
# `white`, sent because uci2wb does not announce colors=0) with an error:
# the adapter's own replies to XBoard, which never reach chuhe (chuhe's
# answers come through as `# engine said:` lines, checked below).
adapter_garbage='Error \(unknown command\): ([^a-z]*|black|white)$'

play native 1
check native first
play "uci-$adapter_name" 0 -sUCI -adapterCommand "$adapter"
check "uci-$adapter_name" second

cp "$out/native.png" "$out/xboard.png"
say "PASSED: games, logs and screenshots in $out (native.png, uci-$adapter_name.png)"
