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
# different ports can run side by side. Everything started is stopped by
# process id (the ids are kept in /tmp/chuhe-ray-PORT/pids), never by name.
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

start() {
    local workers=${1:-2} per=${2:-1}
    [ -x "$ray" ] || die "no Ray: run scripts/cluster/setup.sh first"
    [ -e "$state/pids" ] && die "a cluster is up on port $port (stop it first)"
    mkdir -p "$state"
    : >"$state/pids"
    # Small object stores: shards return a few MB at most.
    local common=(--block --disable-usage-stats --object-store-memory 80000000)
    setsid "$ray" start --head --node-ip-address 127.0.0.1 --port "$port" \
        --num-cpus 0 --include-dashboard false --temp-dir "$state/r" \
        "${common[@]}" >"$state/head.log" 2>&1 &
    echo $! >>"$state/pids"
    for _ in $(seq 120); do
        grep -q "Ray runtime started" "$state/head.log" && break
        sleep 0.5
    done
    grep -q "Ray runtime started" "$state/head.log" || { cat "$state/head.log" >&2; stop; die "the head did not start"; }
    # One node at a time: nodes started together on one machine can race
    # for the same ports.
    local have=0
    for i in $(seq "$workers"); do
        setsid "$ray" start --address "$address" --node-ip-address 127.0.0.1 \
            --num-cpus "$per" "${common[@]}" >"$state/worker$i.log" 2>&1 &
        echo $! >>"$state/pids"
        for _ in $(seq 60); do
            have=$(cpus)
            [ "$have" -ge $((i * per)) ] && break
            sleep 1
        done
        if [ "$have" -lt $((i * per)) ]; then
            cat "$state/worker$i.log" >&2
            stop
            die "worker $i did not come up ($have CPUs)"
        fi
    done
    echo "local Ray cluster up: head + $workers workers x $per CPU, RAY_ADDRESS=$address"
}

stop() {
    [ -e "$state/pids" ] || return 0
    local pids sessions=() left
    pids=$(cat "$state/pids")
    # Each `ray start --block` leads a session of its own (setsid): its
    # raylet, agents and worker processes. TERM makes it stop them all.
    for p in $pids; do
        sessions+=("$p")
        kill -TERM "$p" 2>/dev/null || true
    done
    for _ in $(seq 40); do
        left=$(for s in "${sessions[@]}"; do ps -o pid= -s "$s" 2>/dev/null || true; done)
        [ -z "$left" ] && break
        sleep 0.5
    done
    left=$(for s in "${sessions[@]}"; do ps -o pid= -s "$s" 2>/dev/null || true; done)
    if [ -n "$left" ]; then
        # shellcheck disable=SC2086
        kill -KILL $left 2>/dev/null || true
    fi
    rm -rf "$state"
    echo "local Ray cluster on port $port stopped"
}

case "${1:-}" in
start) shift; start "$@" ;;
stop) stop ;;
address) echo "$address" ;;
*) die "usage: local-cluster.sh start [WORKERS] [CPUS_EACH] | address | stop" ;;
esac
