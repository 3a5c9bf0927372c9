#!/usr/bin/env bash
# Calibrates the strength levels (`Skill Level`, `UCI_Elo`) by matches
# between neighbouring even levels, level 20 being full strength, and
# prints the table that docs/levels.md and skill::ELO_TABLE
# carry: each step's match result with its 95% interval, and the rating
# of each level on a scale where level 0 is 1000 (intervals add up along
# the chain, in quadrature).
set -euo pipefail
source "$(dirname "$0")/lib-match.sh"

usage() {
    cat <<USAGE
Usage: scripts/calibrate-levels.sh [options]

Options:
  -t, --tc TC        time control per game (default 10+0.1)
  -g, --games N      games per step (default 80; each opening twice)
      --last-games N games for the last step (default: --games), which
                     costs the most: its top level plays at full speed
  -l, --levels LIST  levels of the chain, ascending (default "0 2 4 ... 20")
  -o, --out DIR      PGN and summaries (default calibrate-<date>)
  -h, --help         this help
Environment: CHUHE=the chuhe binary (default target/release/chuhe, built if
missing). Matches run one game at a time under nice; resignation is
adjudicated at 1000 cp for 3 moves.
USAGE
}

tc=10+0.1 games=80 last_games="" levels="0 2 4 6 8 10 12 14 16 18 20"
out="calibrate-$(date +%Y%m%d-%H%M%S)"
while [ $# -gt 0 ]; do
    case "$1" in
    -t | --tc) tc=$2; shift 2 ;;
    -g | --games) games=$2; shift 2 ;;
    --last-games) last_games=$2; shift 2 ;;
    -l | --levels) levels=$2; shift 2 ;;
    -o | --out) out=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
find_chuhe
mkdir -p "$out"
# A private copy: a rebuild during the run must not change the players.
bin="$out/chuhe"
cp "$CHUHE" "$bin"

read -r -a chain <<<"$levels"
echo "| step | games | W | D | L | Elo of the step (95%) |"
echo "|---|---|---|---|---|---|"
rows=()
rating=1000 var=0
rows+=("| ${chain[0]} | 1000 | - |")
for ((i = 1; i < ${#chain[@]}; i++)); do
    lo=${chain[$((i - 1))]} hi=${chain[$i]}
    summary="$out/L$hi-vs-L$lo.txt"
    n_games=$games
    if [ "$i" -eq $((${#chain[@]} - 1)) ] && [ -n "$last_games" ]; then
        n_games=$last_games
    fi
    nice -n 10 "$bin" match \
        --engine "cmd=$bin" "name=L$hi" "option.skilllevel=$hi" \
        --engine "cmd=$bin" "name=L$lo" "option.skilllevel=$lo" \
        --each hash=16 --tc "$tc" --games "$n_games" --concurrency 1 \
        --resign-score 1000 --resign-moves 3 \
        --pgn "$out/L$hi-vs-L$lo.pgn" >"$summary" 2>/dev/null
    # "Lhi vs Llo: N games, W w D d L l (p%)" and "Elo e ± m (95%, ...)"
    n=0 w=0 d=0 l=0 elo=0 err=inf
    read -r n w d l < <(sed -n 's/.*: \([0-9]*\) games, W \([0-9]*\) D \([0-9]*\) L \([0-9]*\).*/\1 \2 \3 \4/p' "$summary") || true
    read -r elo err < <(sed -n 's/^  Elo \([-+0-9.inf]*\) ± \([0-9.inf]*\) .*/\1 \2/p' "$summary" | head -1) || true
    echo "| $lo → $hi | $n | $w | $d | $l | $elo ± $err |"
    read -r rating var < <(awk -v r="$rating" -v v="$var" -v e="$elo" -v m="$err" \
        'BEGIN { if (e ~ /inf/) e = (e ~ /-/) ? -800 : 800; if (m ~ /inf/) m = 1000;
                printf "%.1f %.1f\n", r + e, v + m * m }')
    rows+=("| $hi | $(printf '%.0f' "$rating") | ± $(awk -v v="$var" 'BEGIN { printf "%.0f", sqrt(v) }') |")
done
echo
echo "| level | rating | 95% (chain) |"
echo "|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "tc $tc, $games games per step${last_games:+ ($last_games for the last)}, binary $(sha256sum "$bin" | cut -c1-12), results in $out/"
