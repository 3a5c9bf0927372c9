#!/usr/bin/env bash
# Lazy SMP scaling: time to a fixed depth and node rate over the bench
# positions, for several thread counts, against one thread.
#
#   scripts/smp-scaling.sh [--bin PATH] [--depth D] [--hash MB] [--threads "1 2 4"] [--keep DIR]
#                          [--set NAME=VALUE]...
#
# Prints one row per thread count: total nodes/second, its ratio to one
# thread, and the geometric mean over positions of the time-to-depth
# speedup. Positions that take under 20 ms with one thread are left out of
# the time ratio (too short to time). --keep saves each run's bench output.
set -euo pipefail

bin=target/release/chuhe
depth=12
hash=128
threads="1 2"
keep=""
set_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin=$2; shift 2 ;;
        --depth) depth=$2; shift 2 ;;
        --hash) hash=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --keep) keep=$2; shift 2 ;;
        --set) set_args+=(--set "$2"); shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in $threads; do
    "$bin" bench "$depth" --threads "$t" --hash "$hash" "${set_args[@]}" > "$tmp/t$t.txt"
    if [ -n "$keep" ]; then
        mkdir -p "$keep" && cp "$tmp/t$t.txt" "$keep/bench-t$t.txt"
    fi
done

printf "%8s %12s %10s %14s\n" threads "nodes/s" "nps ratio" "ttd speedup"
base_nps=$(awk '/^Nodes\/second/ {print $2}' "$tmp/t1.txt")
for t in $threads; do
    nps=$(awk '/^Nodes\/second/ {print $2}' "$tmp/t$t.txt")
    speedup=$(paste <(awk '/^Position/ {print $5}' "$tmp/t1.txt") \
                    <(awk '/^Position/ {print $5}' "$tmp/t$t.txt") |
        awk '$1 >= 20 { s += log($1 / $2); n++ } END { if (n) printf "%.2f", exp(s / n); else print "n/a" }')
    ratio=$(awk -v a="$nps" -v b="$base_nps" 'BEGIN { printf "%.2f", a / b }')
    printf "%8s %12s %10s %14s\n" "$t" "$nps" "$ratio" "$speedup"
done
