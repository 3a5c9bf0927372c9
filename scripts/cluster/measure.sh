#!/usr/bin/env bash
# Measures the Ray driver against plain chuhe on one machine: the same
# 16-game fixed-node match (a) unsharded, `chuhe match --concurrency 2`;
# (b) match.py in 4 shards on a local cluster of two 1-CPU worker nodes;
# (c) match.py in 4 shards on a local cluster of one 1-CPU worker node.
# The three are run in turn, REPEATS times, so that other load on the
# machine falls on all of them alike; the medians give the driver's overhead
# (b against a) and the speed-up from one worker to two (c against b).
# Wall-clock seconds of the whole command: the driver's include connecting,
# shipping the binaries, merging and writing the PGN; the clusters are
# started once beforehand (their start-up time is printed separately).
# Each cluster is one session, and (a) runs in a session of its own, so that
# where the kernel shares the CPU between sessions (Linux's autogroup) each
# of them competes with the machine's other work on the same terms.
#
#   scripts/cluster/measure.sh [NODES] [REPEATS]      (default 30000 and 5)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
nodes=${1:-30000}
repeats=${2:-5}
bin=$root/target/release/chuhe
[ -x "$bin" ] || (cd "$root" && cargo build --release --quiet)
[ -x "$here/.venv/bin/python" ] || "$here/setup.sh"
export RAY_USAGE_STATS_ENABLED=0
two=26579 one=26679
tmp=$(mktemp -d /tmp/chuhe-cluster-measure.XXXXXX)
cleanup() {
    CHUHE_RAY_PORT=$two "$here/local-cluster.sh" stop >/dev/null 2>&1 || true
    CHUHE_RAY_PORT=$one "$here/local-cluster.sh" stop >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT

now() { date +%s.%N; }
t0=$(now)
CHUHE_RAY_PORT=$two "$here/local-cluster.sh" start 2 1
t1=$(now)
CHUHE_RAY_PORT=$one "$here/local-cluster.sh" start 1 1
t2=$(now)
echo "cluster start-up: $(echo "$t1 - $t0" | bc) s (head + 2 workers), $(echo "$t2 - $t1" | bc) s (head + 1 worker)"

args=(--engine "cmd=$bin" name=full --engine "cmd=$bin" name=medium option.knowledge=medium
    --each hash=16 --nodes "$nodes" --games 16 --seed 7)
: >"$tmp/a" ; : >"$tmp/b" ; : >"$tmp/c"
run() { # label command...
    local label=$1 s e
    shift
    s=$(now)
    "$@" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
    e=$(now)
    echo "$e - $s" | bc >>"$tmp/$label"
    printf '%s %6.2f s  %s\n' "$label" "$(echo "$e - $s" | bc)" "$(head -1 "$tmp/out")"
}
for r in $(seq "$repeats"); do
    echo "round $r"
    for label in a b c; do
        rm -rf "$tmp/run"
        case $label in
        a) run a setsid -w "$bin" match "${args[@]}" --concurrency 2 --pgn "$tmp/a.pgn" ;;
        b) run b env RAY_ADDRESS=127.0.0.1:$two "$here/match.py" --out "$tmp/run" --shards 4 -- "${args[@]}" ;;
        c) run c env RAY_ADDRESS=127.0.0.1:$one "$here/match.py" --out "$tmp/run" --shards 4 -- "${args[@]}" ;;
        esac
    done
done
median() { sort -n "$1" | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
ma=$(median "$tmp/a") mb=$(median "$tmp/b") mc=$(median "$tmp/c")
echo "medians of $repeats: (a) chuhe match --concurrency 2: $ma s; (b) match.py, 2 workers: $mb s; (c) match.py, 1 worker: $mc s"
awk -v a="$ma" -v b="$mb" -v c="$mc" 'BEGIN {
    printf "driver overhead (b/a - 1): %+.1f%%; speed-up from 1 to 2 workers (c/b): %.2fx\n", (b / a - 1) * 100, c / b }'
