#!/usr/bin/env bash
# A Ray cluster on this machine alone: a head node that runs no tasks
# (--num-cpus 0) and W worker nodes of C CPUs each, every one a separate
# `ray start --block` process (its own raylet, its own worker processes), so
# shards run on "other nodes" as they would on a real cluster. For tests
# and measurements; a real cluster is started the same way, one
# `ray start` per machine (see README.md, "Running on a cluster").
#
#   scripts/cluster/local-cluster.sh start [W] [C]   (default 2 workers of 1 CPU)
#   scripts/cluster/local-cluster.sh address         prints the RAY_ADDRESS
#   scripts/cluster/local-cluster.sh stop
#
# CHUHE_RAY_PORT (default 26379) picks the head's port; clusters with
# different ports can run side by side. All the cluster's processes form one
# session of their own (one scheduling group where the kernel groups by
# session, as Linux's autogroup does: the cluster competes for the CPU like
# one program, not one per node). Stopping ends that session's processes by
# process id (kept in /tmp/chuhe-ray-PORT), never by name.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ray=$here/.venv/bin/ray
python=$here/.venv/bin/python
port=${CHUHE_RAY_PORT:-26379}
state=/tmp/chuhe-ray-$port
address=127.0.0.1:$port
export RAY_USAGE_STATS_ENABLED=0

die() { echo "local-cluster.sh: $*" >&2; exit 2; }

# CPUs the cluster offers (0 while it is not up).
cpus() {
    RAY_ADDRESS=$address timeout 60 "$python" -c '
import ray
ray.init(log_to_driver=False, logging_level="ERROR")
print(int(ray.cluster_resources().get("CPU", 0)))' 2>/dev/null || echo 0
}

# Runs in the cluster's session: starts the nodes one by one (nodes started
# together on one machine can race for the same ports), then waits on them.
run() {
    local workers=$1 per=$2 have=0
    # Small object stores: shards return a few MB at most.
    local common=(--block --disable-usage-stats --object-store-memory 80000000)
    "$ray" start --head --node-ip-address 127.0.0.1 --port "$port" \
        --num-cpus 0 --include-dashboard false --temp-dir "$state/r" \
        "${common[@]}" >"$state/head.log" 2>&1 &
    echo $! >>"$state/pids"
    for _ in $(seq 120); do
        grep -q "Ray runtime started" "$state/head.log" && break
        sleep 0.5
    done
    grep -q "Ray runtime started" "$state/head.log" || { echo "the head did not start" >"$state/failed"; return; }
    for i in $(seq "$workers"); do
        "$ray" start --address "$address" --node-ip-address 127.0.0.1 \
            --num-cpus "$per" "${common[@]}" >"$state/worker$i.log" 2>&1 &
        echo $! >>"$state/pids"
        for _ in $(seq 60); do
            have=$(cpus)
            [ "$have" -ge $((i * per)) ] && break
            sleep 1
        done
        if [ "$have" -lt $((i * per)) ]; then
            echo "worker $i did not come up ($have CPUs)" >"$state/failed"
            return
        fi
    done
    touch "$state/up"
    wait
}

start() {
    local workers=${1:-2} per=${2:-1}
    [ -x "$ray" ] || die "no Ray: run scripts/cluster/setup.sh first"
    [ -e "$state/session" ] && die "a cluster is up on port $port (stop it first)"
    mkdir -p "$state"
    : >"$state/pids"
    setsid "$0" _run "$workers" "$per" >"$state/run.log" 2>&1 &
    echo $! >"$state/session"
    for _ in $(seq 600); do
        [ -e "$state/up" ] || [ -e "$state/failed" ] && break
        sleep 0.5
    done
    if [ ! -e "$state/up" ]; then
        cat "$state"/*.log >&2 || true
        local why
        why=$(cat "$state/failed" 2>/dev/null || echo "timed out")
        stop >/dev/null
        die "$why"
    fi
    echo "local Ray cluster up: head + $workers workers x $per CPU, RAY_ADDRESS=$address"
}

# Processes of session $1 but zombies (which only their parent can reap).
alive() { ps -o pid=,stat= -s "$1" 2>/dev/null | awk '$2 !~ /^Z/ {print $1}' || true; }

stop() {
    [ -e "$state/session" ] || return 0
    local sid left
    sid=$(cat "$state/session")
    # TERM to each `ray start --block` makes it stop its node's processes.
    # shellcheck disable=SC2046
    kill -TERM $(cat "$state/pids") 2>/dev/null || true
    for _ in $(seq 40); do
        left=$(alive "$sid")
        [ -z "$left" ] && break
        sleep 0.5
    done
    left=$(alive "$sid")
    if [ -n "$left" ]; then
        # shellcheck disable=SC2086
        kill -KILL $left 2>/dev/null || true
    fi
    rm -rf "$state"
    echo "local Ray cluster on port $port stopped"
}

case "${1:-}" in
start) shift; start "$@" ;;
_run) shift; run "$@" ;;
stop) stop ;;
address) echo "$address" ;;
*) die "usage: local-cluster.sh start [WORKERS] [CPUS_EACH] | address | stop" ;;
esac
