#!/usr/bin/env bash
# Plays chuhe (at a given strength) against MaxQi in XBoard, without a
# window (-noGUI on a virtual display), colours alternating, and prints the
# score with an Elo estimate. MaxQi speaks only CECP, so `chuhe match`
# cannot run it; XBoard can. Used for the "against MaxQi" column of the
# strength-level table in README.md.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)

usage() {
    cat <<USAGE
Usage: scripts/xboard-match.sh [options]

Options:
  -l, --level N     chuhe's Skill Level (default 20 = full strength)
  -g, --games N     games (default 20; colours alternate)
  -t, --tc MIN:SEC  base time per side (default 0:10)
  -i, --inc SEC     increment (default 0.1)
  -o, --out DIR     PGN and debug log (default target/xboard-match-L<level>)
  -h, --help        this help
Needs xboard, fairymax and xvfb (scripts/xboard-check.sh installs them).
Environment: CHUHE=the chuhe binary (default target/release/chuhe).
USAGE
}

level=20 games=20 tc=0:10 inc=0.1 out=""
while [ $# -gt 0 ]; do
    case "$1" in
    -l | --level) level=$2; shift 2 ;;
    -g | --games) games=$2; shift 2 ;;
    -t | --tc) tc=$2; shift 2 ;;
    -i | --inc) inc=$2; shift 2 ;;
    -o | --out) out=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
out=${out:-$ROOT/target/xboard-match-L$level}
CHUHE=${CHUHE:-$ROOT/target/release/chuhe}
[ -x "$CHUHE" ] || (cd "$ROOT" && cargo build --release --quiet)
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/games.pgn"
cp "$CHUHE" "$out/chuhe"

display=""
for n in $(seq 141 190); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then
        display=":$n"
        break
    fi
done
[ -n "$display" ] || { echo "no free X display" >&2; exit 1; }
Xvfb "$display" -screen 0 800x600x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
trap 'kill $xvfb_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    [ -e "/tmp/.X11-unix/X${display#:}" ] && break
    sleep 0.1
done

DISPLAY=$display nice -n 10 /usr/games/xboard -noGUI -variant xiangqi \
    -fcp "$out/chuhe" -fd "$out" -fn "chuhe-L$level" \
    -firstOptions "Skill Level=$level,UseBook=0" \
    -scp /usr/games/maxqi -sd "$out" \
    -mg "$games" -tc "$tc" -inc "$inc" -sgf "$out/games.pgn" \
    -debug -nameOfDebugFile "$out/xboard.debug" \
    -settingsFile "$out/xboardrc" -saveSettingsOnExit false -xexit -xponder \
    >"$out/xboard.out" 2>&1 || true

# chuhe's points from the PGN (it is "chuhe-L<level>" in White or Black).
awk -v me="chuhe-L$level" '
    /^\[White / { white = $0 }
    /^\[Result / {
        r = $2; gsub(/[]"]/, "", r)
        mine = index(white, me) > 0
        if (r == "1-0") { if (mine) w++; else l++ }
        else if (r == "0-1") { if (mine) l++; else w++ }
        else if (r == "1/2-1/2") d++
    }
    END {
        n = w + d + l
        if (n == 0) { print "no finished games"; exit 1 }
        p = (w + d / 2) / n
        var = (w * (1 - p) ^ 2 + d * (0.5 - p) ^ 2 + l * p ^ 2) / n
        se = sqrt(var / n)
        printf "chuhe L%s vs MaxQi: %d games, W %d D %d L %d (%.1f%%)", substr(me, 8), n, w, d, l, 100 * p
        lo = p - 1.96 * se; hi = p + 1.96 * se
        printf ", Elo %s (95%%: %s .. %s)\n", e(p), e(lo), e(hi)
    }
    function e(x) {
        if (x <= 0) return "-inf"
        if (x >= 1) return "+inf"
        return sprintf("%+.0f", -400 * log(1 / x - 1) / log(10))
    }
' "$out/games.pgn"
