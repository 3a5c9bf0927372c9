#!/usr/bin/env bash
# Self-play data from a machine lent for minutes (a many-core machine that
# starts bare and is given back), brought home as parts small enough for
# what such a machine may hand back, and added to the home data store.
#
#   scripts/datagen-device.sh make SECONDS SEED OUTDIR
#       On the lent machine: `chuhe datagen --store` on every core for
#       SECONDS into a fresh store, stopped by SIGTERM (every finished game
#       is kept), then the shard (records and description) packed as
#       OUTDIR/shard-SEED.tar.xz.aa, .ab, ... of at most 15 MiB each.
#       SEED must be new to the home store: `chuhe store` prints its next
#       seed (the lent machine's store starts empty and cannot know it).
#   scripts/datagen-device.sh unpack PARTSDIR [STORE]
#       At home: joins and unpacks every shard-*.tar.xz.* in PARTSDIR and
#       imports the shards with `chuhe store --import`, which refuses a
#       seed or file the store already has, or a shard short of records.
#
# Environment: CHUHE (default target/release/chuhe), OPENINGS (default
# ../shared/data/ccpd-iccs.tsv.xz; a lent machine gets only the checkout,
# so copy it into a git-ignored folder that travels), NODES (default 2500),
# THREADS (default: every core).
set -euo pipefail

CHUHE=${CHUHE:-target/release/chuhe}
OPENINGS=${OPENINGS:-../shared/data/ccpd-iccs.tsv.xz}

usage() {
    sed -n '2,21p' "$0" >&2
    exit 2
}

make_shard() {
    local secs=$1 seed=$2 out=$3
    local store
    store=$(mktemp -d)
    mkdir -p "$out"
    "$CHUHE" datagen --store "$store" --seed "$seed" --threads "${THREADS:-$(nproc)}" \
        --nodes "${NODES:-2500}" --openings "$OPENINGS" >"$out/datagen-$seed.log" 2>&1 &
    local pid=$!
    # Sleep in steps so that a datagen that fails at once ends the wait.
    local t=0
    while [ "$t" -lt "$secs" ] && kill -0 "$pid" 2>/dev/null; do
        sleep 1
        t=$((t + 1))
    done
    kill -TERM "$pid" 2>/dev/null || true
    # The first signal finishes the games under way; a second, a minute
    # later, writes and exits at once.
    for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" || { tail -5 "$out/datagen-$seed.log" >&2; exit 1; }
    tail -2 "$out/datagen-$seed.log"
    (cd "$store" && tar -cf - ./*.bin ./*.json) | xz -T0 -6 |
        split -b 15M - "$out/shard-$seed.tar.xz."
    rm -rf "$store"
    ls -l "$out"
}

unpack() {
    local parts=$1 store=${2:-}
    local tmp
    tmp=$(mktemp -d)
    local found=0
    for first in "$parts"/shard-*.tar.xz.aa; do
        [ -e "$first" ] || continue
        found=1
        local base=${first%.aa}
        mkdir -p "$tmp/$(basename "$base")"
        cat "$base".* | xz -d | tar -xf - -C "$tmp/$(basename "$base")"
        "$CHUHE" store ${store:+--dir "$store"} --import "$tmp/$(basename "$base")" >/dev/null
    done
    rm -rf "$tmp"
    [ "$found" = 1 ] || { echo "no shard-*.tar.xz.aa in $parts" >&2; exit 1; }
    "$CHUHE" store ${store:+--dir "$store"}
}

case "${1:-}" in
make) [ $# -eq 4 ] || usage; make_shard "$2" "$3" "$4" ;;
unpack) [ $# -ge 2 ] || usage; unpack "$2" "${3:-}" ;;
*) usage ;;
esac
