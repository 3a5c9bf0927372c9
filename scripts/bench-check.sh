#!/usr/bin/env bash
# Bench signature check: the node count of `chuhe bench` (depth 12, one
# thread, 16 MB) must equal the last `Bench: <nodes>` line in the commit
# log, so that a change of search or evaluation never lands unannounced.
#
#   scripts/bench-check.sh [--bin PATH]
#
# Builds the release binary unless --bin is given. Needs the history (a
# clone, not a shallow checkout). Exit 0 when the signatures agree, 1 when
# they differ (the message says which commit to amend), 2 on other errors.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin=$2; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

if [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = "true" ]; then
    echo "bench-check: shallow clone; fetch the history (git fetch --unshallow)" >&2
    exit 2
fi
# The newest commit (log order) whose message has a Bench line, and its
# count. (awk reads to the end: an early exit would stop git log by SIGPIPE.)
line=$(git log --format='@@commit %H%n%B' HEAD | awk '
    $1 == "@@commit" { commit = $2; next }
    !found && /^Bench: [0-9]+[[:space:]]*$/ { print commit, $2; found = 1 }')
if [ -z "$line" ]; then
    echo "bench-check: no 'Bench: <nodes>' line in the commit log" >&2
    exit 2
fi
read -r commit expected <<<"$line"

if [ -z "$bin" ]; then
    cargo build --release --quiet
    bin=${CARGO_TARGET_DIR:-target}/release/chuhe
fi
actual=$("$bin" bench | awk '/^Nodes searched:/ { print $3 }')
if [ -z "$actual" ]; then
    echo "bench-check: '$bin bench' printed no 'Nodes searched' line" >&2
    exit 2
fi
if [ "$actual" != "$expected" ]; then
    echo "bench-check: FAILED: bench gives $actual nodes, but the last Bench line" \
        "(commit ${commit:0:10}) says $expected." >&2
    echo "A change of search or evaluation must end its commit message with" \
        "'Bench: $actual'; a refactor must leave the count unchanged." >&2
    exit 1
fi
echo "bench-check: Bench: $actual (as stated in commit ${commit:0:10})"
