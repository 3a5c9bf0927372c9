#!/usr/bin/env bash
# The cluster drivers on a local Ray cluster (a head and two worker nodes on
# this machine), checked against plain chuhe:
#
# 1. a 16-game fixed-node match in 4 shards equals the unsharded
#    `chuhe match` with the same seed, summary and game for game;
# 2. a rerun resumes: nothing is played again; a lost shard is replayed
#    alone and the result is the same;
# 3. faults: the Ray worker running one shard and the referee of another
#    are killed mid-shard; both shards are retried, and the counts are
#    still those of the unsharded match (no game lost or counted twice);
# 4. an SPRT stops early and cancels the shards still out;
# 5. datagen.py in 4 shards makes the records of the unsharded datagen.
#
# Installs Ray with setup.sh if needed. Takes a few minutes on two cores.
# CHUHE_RAY_PORT (default 26479) is the local cluster's port.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export CHUHE_RAY_PORT=${CHUHE_RAY_PORT:-26479}
export RAY_USAGE_STATS_ENABLED=0

step() { echo "== cluster test: $*"; }
fail() { echo "cluster test FAILED: $*" >&2; exit 1; }

step "build and setup"
(cd "$root" && cargo build --release --quiet)
bin=$root/target/release/chuhe
"$here/setup.sh"
python=$here/.venv/bin/python

tmp=$(mktemp -d /tmp/chuhe-cluster-test.XXXXXX)
cleanup() {
    "$here/local-cluster.sh" stop >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT

step "local cluster: head + 2 workers of 1 CPU"
"$here/local-cluster.sh" start 2 1
RAY_ADDRESS=$("$here/local-cluster.sh" address)
export RAY_ADDRESS

# The same match everywhere: full strength against the medium evaluation,
# 3000 nodes a move, 16 games from the built-in suite in random order.
match_args=(--engine "cmd=$bin" name=full --engine "cmd=$bin" name=medium
    option.knowledge=medium --each hash=16 --nodes 3000 --games 16 --seed 7)

# Games of a record file, with games counted twice / differing, as JSON.
status() { "$bin" match merge --status "$@" 2>/dev/null; }
field() { "$python" -c "import json,sys; print(json.load(sys.stdin)$1)"; }
# Two summaries compared without their timing lines, the one part that
# differs between two plays of the same games.
same_summary() { diff <(grep -v '^time ' "$1") <(grep -v '^time ' "$2"); }

step "1. reference: unsharded chuhe match --concurrency 2"
"$bin" match "${match_args[@]}" --concurrency 2 --json "$tmp/ref.jsonl" \
    >"$tmp/ref.txt" 2>/dev/null
cat "$tmp/ref.txt"

step "1. the same match in 4 shards on the cluster"
"$here/match.py" --out "$tmp/run" --shards 4 -- "${match_args[@]}" >"$tmp/run.txt"
same_summary "$tmp/ref.txt" "$tmp/run.txt" || fail "sharded summary differs from the unsharded one"
s=$(status "$tmp/ref.jsonl" "$tmp/run/match.jsonl")
[ "$(echo "$s" | field '["games"]')" = 16 ] || fail "merged games: $s"
[ "$(echo "$s" | field '["duplicates"]')" = 16 ] || fail "not every game found in both: $s"
[ "$(echo "$s" | field '["conflicts"]')" = 0 ] || fail "games differ between the runs: $s"
echo "summary and all 16 games equal to the unsharded match"

step "2. resume: a rerun plays nothing; a lost shard is replayed alone"
"$here/match.py" --out "$tmp/run" --shards 4 -- "${match_args[@]}" >"$tmp/rerun.txt" 2>"$tmp/rerun.err"
grep -q "4 done before, 0 to play" "$tmp/rerun.err" || fail "rerun: $(cat "$tmp/rerun.err")"
same_summary "$tmp/ref.txt" "$tmp/rerun.txt" || fail "rerun summary differs"
rm "$tmp/run/shards/shard-00003-of-00004.jsonl"
"$here/match.py" --out "$tmp/run" --shards 4 -- "${match_args[@]}" >"$tmp/rerun.txt" 2>"$tmp/rerun.err"
grep -q "3 done before, 1 to play" "$tmp/rerun.err" || fail "resume: $(cat "$tmp/rerun.err")"
same_summary "$tmp/ref.txt" "$tmp/rerun.txt" || fail "resumed summary differs"
# Another run in the same directory is refused.
if "$here/match.py" --out "$tmp/run" --shards 4 -- "${match_args[@]}" --draw-moves 50 >/dev/null 2>&1; then
    fail "a different run was accepted in the same directory"
fi
echo "resumed"

step "3. faults: a Ray worker and a referee killed mid-shard"
# Slower shards (two of 8 games, one game at a time) leave time to strike.
"$here/match.py" --out "$tmp/fault" --shards 2 -- "${match_args[@]}" \
    >"$tmp/fault.txt" 2>"$tmp/fault.err" &
driver=$!
# A shard's referee runs with --json /tmp/chuhe-shard-<driver pid>-<k>-...;
# its parent is the Ray worker process running the task.
find_referee() {
    ps -eo pid=,ppid=,stat=,args= | awk -v tag="/tmp/chuhe-shard-$driver-$1-" \
        '$3 !~ /^Z/ && index($0, tag) && $4 ~ /chuhe$/ {print $1, $2; exit}'
}
wait_referee() {
    for _ in $(seq 300); do
        r=$(find_referee "$1")
        [ -n "$r" ] && { echo "$r"; return; }
        sleep 0.1
    done
}
# Gone, or a zombie waiting for init to reap it.
dead() { ! ps -o stat= -p "$1" 2>/dev/null | grep -qv Z; }
r1=$(wait_referee 1)
r2=$(wait_referee 2)
[ -n "$r1" ] && [ -n "$r2" ] || fail "the referees of shards 1 and 2 were not seen"
sleep 0.7 # a game or two into each shard
set -- $r1
referee=$1 worker=$2
ps -o args= -p "$worker" | grep -q "ray::" || fail "parent $worker of the referee is not a Ray worker"
engines=$(ps -o pid= --ppid "$referee" || true)
set -- $r2
echo "killing Ray worker $worker (shard 1: referee $referee, engines" $engines") and referee $1 (shard 2)"
kill -KILL "$worker" "$1"
sleep 1
dead "$referee" || fail "the referee $referee outlived its worker"
for e in $engines; do dead "$e" || fail "engine $e outlived its referee"; done
wait "$driver" || fail "driver failed: $(cat "$tmp/fault.err")"
same_summary "$tmp/ref.txt" "$tmp/fault.txt" || fail "summary after the faults differs"
s=$(status "$tmp/ref.jsonl" "$tmp/fault/match.jsonl")
[ "$(echo "$s" | field '["duplicates"]')" = 16 ] || fail "games after the faults: $s"
[ "$(echo "$s" | field '["conflicts"]')" = 0 ] || fail "games after the faults differ: $s"
s=$(status "$tmp/fault/match.jsonl")
[ "$(echo "$s" | field '["games"]')" = 16 ] || fail "counted after the faults: $s"
grep -E "retried|exited with" "$tmp/fault.err" | cut -c1-160 || fail "Ray reported no retry"
echo "both shards retried; 16 games, each once, as the unsharded match"

step "4. SPRT: stops early, cancels the shards still out"
sprt_args=(--engine "cmd=$bin" name=full nodes=20000 --engine "cmd=$bin" name=weak
    option.skilllevel=0 --each hash=8 --nodes 2000 --games 200 --seed 3
    --sprt elo0=0 elo1=150 alpha=0.1 beta=0.1)
"$here/match.py" --out "$tmp/sprt" --shards 50 -- "${sprt_args[@]}" >"$tmp/sprt.txt" 2>"$tmp/sprt.err" &
driver=$!
wait "$driver" || fail "SPRT driver failed: $(cat "$tmp/sprt.err")"
cat "$tmp/sprt.txt"
grep -q "H1 accepted" "$tmp/sprt.txt" || fail "SPRT: $(cat "$tmp/sprt.txt")"
grep -q "shards cancelled" "$tmp/sprt.err" || fail "no shard cancelled: $(cat "$tmp/sprt.err")"
merged=$(ls "$tmp/sprt/shards" | wc -l)
[ "$merged" -lt 50 ] || fail "all $merged shards were played"
sleep 2
left=$(ps -eo stat=,args= | awk '$1 !~ /^Z/' | grep -c "[c]huhe-shard-$driver-" || true)
[ "$left" = 0 ] || fail "$left shard processes left after the cancel"
echo "decided after $merged of 50 shards; the rest cancelled"

step "5. datagen.py: 4 shards of 2 games = chuhe datagen --games 8"
"$bin" datagen --out "$tmp/whole.bin" --games 8 --nodes 300 --seed 5 2>/dev/null
"$here/datagen.py" --out "$tmp/dg" --games 8 --shard-games 2 -- --nodes 300 --seed 5 >/dev/null
"$here/datagen.py" --out "$tmp/dg" --games 8 --shard-games 2 -- --nodes 300 --seed 5 2>"$tmp/dg.err" >/dev/null
grep -q "4 done before, 0 to make" "$tmp/dg.err" || fail "datagen rerun: $(cat "$tmp/dg.err")"
"$python" - "$tmp/whole.bin" "$tmp/dg/data.bin" <<'EOF'
import sys
a, b = (open(p, "rb").read() for p in sys.argv[1:])
recs = lambda d: sorted(d[i : i + 32] for i in range(0, len(d), 32))
assert a and recs(a) == recs(b), f"{len(a)} bytes unsharded, {len(b)} from the shards"
print(f"{len(a) // 32} positions, the same records")
EOF

step "passed"
