#!/usr/bin/env bash
# The match report in a real browser: plays a short real match (chuhe
# at 12 000 nodes a move against itself at 6 000, 4 games on a 10+0.1 clock, an
# SPRT running) with --report and --json, checks that `chuhe match report`
# builds the same page from the records, then loads the page in headless
# Chromium (scripts/report_check.py): no console error, no request for
# anything outside the page, and the board, stepped through each game with
# the arrow keys, shows the final position chuhe replays from the record.
# Writes a screenshot of the page to docs/report.png, the picture README
# shows (`--screenshot FILE` puts it elsewhere: CI writes it under target/
# so that a check leaves the checkout as it found it). Installs chromium
# and a CJK font with apt-get when they are missing. Exits non-zero on any
# failure.
#
#   bash scripts/report-check.sh [--screenshot FILE]
set -euo pipefail
cd "$(dirname "$0")/.."

screenshot=docs/report.png
if [ "${1:-}" = "--screenshot" ] && [ -n "${2:-}" ]; then
    screenshot=$2
    mkdir -p "$(dirname "$screenshot")"
elif [ -n "${1:-}" ]; then
    echo "usage: bash scripts/report-check.sh [--screenshot FILE]" >&2
    exit 2
fi

if ! command -v chromium >/dev/null 2>&1; then
    echo "installing chromium (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# The pieces' characters need a font with Chinese; the check itself does
# not, but the screenshot would show empty boxes.
if ! fc-list :lang=zh 2>/dev/null | grep -q .; then
    echo "installing a CJK font (apt-get fonts-wqy-microhei)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei >/dev/null ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei >/dev/null; }
fi

cargo build --release --quiet
chuhe="$PWD/${CARGO_TARGET_DIR:-target}/release/chuhe"
case "${CARGO_TARGET_DIR:-}" in /*) chuhe="$CARGO_TARGET_DIR/release/chuhe" ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
"$chuhe" match --engine cmd="$chuhe" name=chuhe-12k nodes=12000 \
    --engine cmd="$chuhe" name=chuhe-6k nodes=6000 \
    --each hash=16 threads=1 --tc 10+0.1 --games 4 --seed 3 \
    --sprt elo0=0 elo1=10 --json "$work/match.jsonl" --report "$work/match.html" \
    >"$work/summary.txt" 2>"$work/progress.txt" || { cat "$work/progress.txt"; exit 1; }
echo "match: $(( $(date +%s) - start )) s, $(wc -c <"$work/match.html") bytes of report"

"$chuhe" match report "$work/match.jsonl" -o "$work/rebuilt.html" --sprt elo0=0 elo1=10 2>/dev/null
if ! cmp -s "$work/match.html" "$work/rebuilt.html"; then
    echo "FAIL: chuhe match report does not rebuild the page the match wrote" >&2
    diff <(tr '>' '\n' <"$work/match.html") <(tr '>' '\n' <"$work/rebuilt.html") | head -20 >&2
    exit 1
fi
echo "chuhe match report rebuilds the same page from the records"

timeout 110 python3 scripts/report_check.py --page "$work/match.html" \
    --records "$work/match.jsonl" --chuhe "$chuhe" --screenshot "$screenshot"
echo "report check: $(( $(date +%s) - start )) s in all"
