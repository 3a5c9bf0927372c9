#!/usr/bin/env python3
"""Generates training data with `chuhe datagen` over a Ray cluster, shard by
shard.

    scripts/cluster/datagen.py --games TOTAL [options] -- CHUHE-DATAGEN-ARGUMENTS

The run is cut into N shards of G games (`chuhe datagen --shard K/N --games
G`: games K-1, K-1+N, ... of the whole run, each with its own seed), each
one Ray task on a worker; together they are the unsharded run of N*G games,
record for record (in another order). Files named by --openings,
--from-games, --label and --from-labels and the chuhe binary are shipped to
the workers with the job (Ray runtime_env working_dir), unless --shared says
they lie at the same paths on every node. The progress line counts games,
positions and results as shards arrive.

Resuming: the run directory (--out) keeps every finished shard
(shards/shard-K-of-N.bin with its counts beside it); running the same
command again skips them. When all shards are done their records are
joined, in shard order, into OUT/data.bin (or --output).

Example:

    RAY_ADDRESS=head:6379 scripts/cluster/datagen.py --out dg-s1 --games 200000 \\
        --shard-games 200 -- --nodes 2500 --seed 1 \\
        --openings ../shared/data/ccpd-iccs.tsv.xz
"""

import argparse
import json
import math
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chuhe_cluster as cc  # noqa: E402

ray = cc.import_ray(HERE)

ROOT = os.path.dirname(os.path.dirname(HERE))
RECORD = 32  # bytes per position (src/nnue/data.rs)
SHIPPED = {"--openings", "--from-games", "--label", "--from-labels"}
DRIVER = {
    "--out": "give --out to the driver (the run directory) and --output for the joined file",
    "--shard": "the driver picks the shards",
    "--games": "give --games to the driver (the total)",
    "--threads": "give --threads to the driver (threads per shard)",
    "--append": "shards are written whole",
    "--positions": "a shard cut by a position count is not reproducible: give --games to the driver",
}
LINE = re.compile(r"(\d+) positions, .* (\d+) games \(red (\d+) draw (\d+) black (\d+)\)")


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="%(prog)s --games TOTAL [options] -- CHUHE-DATAGEN-ARGUMENTS",
    )
    ap.add_argument("--games", type=int, required=True, help="games (or source games) in all (rounded up to whole shards)")
    ap.add_argument("--shard-games", type=int, default=100, help="games per shard (default %(default)s)")
    ap.add_argument("--out", default="cluster-datagen", help="run directory (default: %(default)s)")
    ap.add_argument("--output", help="the joined records (default: OUT/data.bin)")
    ap.add_argument("--threads", type=int, default=1, help="threads per shard; each shard asks Ray for this many CPUs (default 1)")
    ap.add_argument(
        "--chuhe",
        default=os.path.join(ROOT, "target", "release", "chuhe"),
        help="the chuhe binary that generates the data (default: this checkout's release build)",
    )
    ap.add_argument("--address", help="the Ray cluster (default: $RAY_ADDRESS; none: start Ray on this machine)")
    ap.add_argument("--shared", action="store_true", help="ship nothing: the binary and files are at the same paths on every node")
    ap.add_argument("--retries", type=int, default=3, help="runs of a failed shard after the first (default 3)")
    ap.add_argument("chuhe_args", nargs=argparse.REMAINDER)
    o = ap.parse_args()
    # The report goes to stdout; Ray prints its notes (a worker died, a
    # task is retried) on stdout too: they go to stderr with the progress.
    report = sys.stdout
    sys.stdout = sys.stderr
    args = o.chuhe_args[1:] if o.chuhe_args[:1] == ["--"] else o.chuhe_args
    if not os.path.isfile(o.chuhe):
        cc.die(f"{o.chuhe}: no chuhe binary (cargo build --release, or give --chuhe)")
    if o.games < 1 or o.shard_games < 1:
        cc.die("--games and --shard-games must be at least 1")

    run_dir = cc.RunDir(o.out)
    ship = cc.Ship(o.out, o.shared)
    chuhe = ship.add(os.path.abspath(o.chuhe), "--chuhe")
    shard_args, i = [], 0
    while i < len(args):
        a = args[i]
        name, value = (a.split("=", 1) + [None])[:2] if a.startswith("--") else (a, None)
        if not name.startswith("--"):
            cc.die(f"unexpected '{a}' in the chuhe datagen arguments")
        if name in DRIVER:
            cc.die(f"{name}: {DRIVER[name]}")
        if value is None:
            if i + 1 >= len(args):
                cc.die(f"{name} needs a value")
            value = args[i + 1]
            i += 1
        i += 1
        if name in SHIPPED:
            value = ship.add(value, name)
        shard_args += [name, value]

    g = o.shard_games
    n = math.ceil(o.games / g)
    run_dir.check({"kind": "datagen", "args": shard_args, "shards": n, "shard_games": g, "files": ship.hashes})
    shard_args += ["--threads", str(o.threads)]

    totals = {"positions": 0, "games": 0, "red": 0, "draw": 0, "black": 0}
    done = run_dir.done(n, "bin")
    for k in done:
        with open(run_dir.shard_file(k, n, "json")) as f:
            for key, v in json.load(f).items():
                totals[key] += v

    progress = cc.Progress()
    start = time.time()
    state = {"done": len(done), "new_positions": 0}

    def show():
        rate = state["new_positions"] / max(1e-3, time.time() - start)
        t = totals
        progress.line(
            f"[shards {state['done']}/{n}, {cc.elapsed(start)}] {t['games']} games, {t['positions']} positions "
            f"(red {t['red']} draw {t['draw']} black {t['black']}), {rate:.0f} pos/s"
        )

    todo = [k for k in range(1, n + 1) if k not in set(done)]
    progress.note(f"datagen: {n} shards of {g} games ({n * g} in all), {len(done)} done before, {len(todo)} to make")
    if todo:
        cc.connect(ray, o.address, ship.runtime_env())
        task = ray.remote(cc.run_shard).options(num_cpus=o.threads, max_retries=o.retries, retry_exceptions=True)
        tag = f"{os.getpid()}"
        refs = {
            task.remote(
                [chuhe, "datagen"] + shard_args + ["--shard", f"{k}/{n}", "--games", str(g), "--out", cc.OUT], tag, k
            ): k
            for k in todo
        }
        show()

        def on_result(k, result):
            data = result["data"]
            if len(data) % RECORD:
                cc.die(f"shard {k}: {len(data)} bytes is not a whole number of records")
            found = LINE.findall(result["stderr"])
            last = found[-1] if found else ("0", "0", "0", "0", "0")
            counts = dict(zip(("positions", "games", "red", "draw", "black"), map(int, last)))
            counts["positions"] = len(data) // RECORD
            # The counts first: the .bin is what marks the shard done.
            cc.write_atomic(run_dir.shard_file(k, n, "json"), json.dumps(counts).encode())
            cc.write_atomic(run_dir.shard_file(k, n, "bin"), data)
            for key, v in counts.items():
                totals[key] += v
            state["done"] += 1
            state["new_positions"] += counts["positions"]
            show()
            return False

        cc.collect(ray, refs, on_result, progress, o.retries)
    else:
        show()
    progress.finish()

    output = o.output or os.path.join(o.out, "data.bin")
    tmp = output + ".part"
    with open(tmp, "wb") as f:
        for k in range(1, n + 1):
            with open(run_dir.shard_file(k, n, "bin"), "rb") as s:
                f.write(s.read())
    os.replace(tmp, output)
    print(
        f"datagen: {n} shards, {totals['games']} games, {totals['positions']} positions in {output} "
        f"({cc.elapsed(start)})",
        file=report,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
