#!/usr/bin/env python3
"""Plays a `chuhe match` over a Ray cluster, shard by shard.

    scripts/cluster/match.py [options] -- CHUHE-MATCH-ARGUMENTS

The match is cut into N shards (`chuhe match --shard K/N`: every N-th
opening pair), each one Ray task that runs chuhe as the referee on a worker.
The engines' binaries (every `cmd=` path outside the system directories),
the opening file and the referee are shipped to the workers with the job
(Ray runtime_env working_dir), unless --shared says they lie at the same
paths on every node. Finished shards are merged as they arrive (`chuhe
match merge`, so the numbers are the match runner's own) into a live
progress line; with `--sprt` among the match arguments the test is run on
the merged games and the tasks still out are cancelled once it decides.

Resuming: the run directory (--out) keeps every finished shard; running the
same command again skips them. The games, openings and colours are those of
the unsharded `chuhe match` with the same arguments and seed (the seed is
chosen and kept in the run directory if not given).

Example (an SPRT of a new build against a base on the cluster RAY_ADDRESS
points at):

    RAY_ADDRESS=head:6379 scripts/cluster/match.py --out sprt-new -- \\
        --engine cmd=target/release/chuhe name=new \\
        --engine cmd=/tmp/chuhe-base name=base \\
        --each hash=16 --tc 10+0.1 --games 40000 --sprt elo0=0 elo1=5

At the end the merged summary is printed (and kept in OUT/summary.txt), the
games are in OUT/match.pgn and OUT/match.jsonl (or --pgn/--json).
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chuhe_cluster as cc  # noqa: E402

ray = cc.import_ray(HERE)

ROOT = os.path.dirname(os.path.dirname(HERE))

# chuhe match options that take several values.
MULTI = {"--engine", "--each", "--sprt"}


def split_options(args):
    """chuhe match arguments as (option, [values]) in order."""
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if not a.startswith("--"):
            cc.die(f"unexpected '{a}' in the chuhe match arguments")
        if "=" in a:
            name, value = a.split("=", 1)
            out.append((name, [value]))
            i += 1
        elif a in MULTI:
            j = i + 1
            while j < len(args) and not args[j].startswith("--"):
                j += 1
            out.append((a, args[i + 1 : j]))
            i = j
        else:
            if i + 1 >= len(args):
                cc.die(f"{a} needs a value")
            out.append((a, [args[i + 1]]))
            i += 2
    return out


def shard_games(games, opponents, k, n):
    """Games of shard k of n: its pairs p = k-1, k-1+n, ... below
    ceil(games/2), two games each (the last pair one when games is odd),
    for every opponent."""
    pairs = range(k - 1, math.ceil(games / 2), n)
    return opponents * sum(min(2, games - 2 * p) for p in pairs)


def main():
    # The report goes to stdout; Ray prints its notes (a worker died, a
    # task is retried) on stdout too: they go to stderr with the progress.
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="%(prog)s [options] -- CHUHE-MATCH-ARGUMENTS",
    )
    ap.add_argument("--out", default="cluster-match", help="run directory (default: %(default)s)")
    ap.add_argument("--shards", type=int, help="number of shards (default: one per 4 opening pairs)")
    ap.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="games at once within a shard; each shard asks Ray for this many CPUs (default 1)",
    )
    ap.add_argument(
        "--chuhe",
        default=os.path.join(ROOT, "target", "release", "chuhe"),
        help="the chuhe binary that referees the shards and merges them (default: this checkout's release build)",
    )
    ap.add_argument("--address", help="the Ray cluster (default: $RAY_ADDRESS; none: start Ray on this machine)")
    ap.add_argument(
        "--shared",
        action="store_true",
        help="ship nothing: the binaries and files are at the same paths on every node",
    )
    ap.add_argument("--retries", type=int, default=3, help="runs of a failed shard after the first (default 3)")
    ap.add_argument("chuhe_args", nargs=argparse.REMAINDER)
    o = ap.parse_args()
    # The report goes to stdout; Ray prints its notes (a worker died, a
    # task is retried) on stdout too: they go to stderr with the progress.
    report = sys.stdout
    sys.stdout = sys.stderr
    args = o.chuhe_args[1:] if o.chuhe_args[:1] == ["--"] else o.chuhe_args
    if not args:
        ap.error("give the chuhe match arguments after --")
    if not os.path.isfile(o.chuhe):
        cc.die(f"{o.chuhe}: no chuhe binary (cargo build --release, or give --chuhe)")
    chuhe = os.path.abspath(o.chuhe)

    run_dir = cc.RunDir(o.out)
    old_run = {}
    if os.path.exists(os.path.join(o.out, "run.json")):
        with open(os.path.join(o.out, "run.json")) as f:
            old_run = json.load(f)
    ship = cc.Ship(o.out, o.shared)
    referee = ship.add(chuhe, "--chuhe")

    shard_args, sprt, pgn, records_out = [], None, None, None
    games, engines, seed = 100, 0, None
    for name, values in split_options(args):
        if name in ("--shard", "--log"):
            cc.die(f"{name} is not for a cluster run")
        if name == "--concurrency":
            cc.die("give --concurrency before the --, to the driver (games at once per shard)")
        if name == "--sprt":
            sprt = values
            continue
        if name == "--pgn":
            pgn = values[0]
            continue
        if name == "--json":
            records_out = values[0]
            continue
        if name == "--seed":
            seed = int(values[0])
            continue
        if name == "--games":
            games = int(values[0])
        if name in ("--engine", "--each"):
            engines += name == "--engine"
            values = [
                "cmd=" + ship.add(v[4:], "engine") if v.startswith("cmd=") and cc.ships(v[4:]) else v
                for v in values
            ]
        if name == "--openings" and values[0] not in ("builtin", "startpos"):
            values = [ship.add(values[0], "--openings")]
        shard_args += [name] + values
    if engines < 2:
        cc.die("give at least two --engine")
    if seed is None:
        seed = old_run.get("seed", random.randrange(1, 10**9))
    pairs = math.ceil(games / 2)
    n = o.shards or max(1, math.ceil(pairs / 4))
    n = min(n, pairs)
    run = run_dir.check(
        {
            "kind": "match",
            "args": shard_args,
            "seed": seed,
            "shards": n,
            "sprt": sprt,
            "files": ship.hashes,
        }
    )
    shard_args += ["--seed", str(seed), "--concurrency", str(o.concurrency)]
    merge_sprt = ["--sprt"] + sprt if sprt is not None else []
    opponents = engines - 1
    planned = opponents * games

    # Live merging works on the records without their moves (small and
    # quick to read); the final merge reads the shard files.
    live = os.path.join(o.out, "live.jsonl")

    def light(data):
        out = []
        for line in data.decode().splitlines():
            if line.strip():
                rec = json.loads(line)
                rec["moves"] = []
                out.append(json.dumps(rec))
        return "".join(x + "\n" for x in out)

    done = run_dir.done(n, "jsonl")
    with open(live, "w") as f:
        for k in done:
            with open(run_dir.shard_file(k, n, "jsonl"), "rb") as s:
                f.write(light(s.read()))

    def status():
        if os.path.getsize(live) == 0:
            return None
        r = subprocess.run(
            [chuhe, "match", "merge", "--status", live] + merge_sprt,
            capture_output=True,
            text=True,
        )
        if r.returncode != 0:
            cc.die(f"merge failed: {r.stderr.strip()}")
        return json.loads(r.stdout)

    progress = cc.Progress()
    start = time.time()
    state = {"done": len(done), "status": status()}

    def decided():
        s = state["status"]
        return bool(s and s["sprt"] and s["sprt"]["decision"])

    def show():
        s = state["status"]
        text = s["progress"] if s else f"[0/{planned}]"
        progress.line(f"[shards {state['done']}/{n}, {cc.elapsed(start)}] {text}")

    cancelled = 0
    todo = [k for k in range(1, n + 1) if k not in set(done)]
    progress.note(
        f"match: {n} shards of {games * opponents} games (seed {seed}), {len(done)} done before, "
        f"{len(todo)} to play, {o.concurrency} game(s) at once per shard"
    )
    if todo and not decided():
        cc.connect(ray, o.address, ship.runtime_env())
        state["connected"] = time.time() - start
        task = ray.remote(cc.run_shard).options(
            num_cpus=o.concurrency, max_retries=o.retries, retry_exceptions=True
        )
        tag = f"{os.getpid()}"
        refs = {
            task.remote([referee, "match"] + shard_args + ["--shard", f"{k}/{n}", "--json", cc.OUT], tag, k): k
            for k in todo
        }
        show()

        def on_result(k, result):
            data = result["data"]
            got = sum(1 for line in data.splitlines() if line.strip())
            want = shard_games(games, opponents, k, n)
            if got != want:
                cc.die(f"shard {k} returned {got} games, {want} expected:\n{result['stderr']}")
            cc.write_atomic(run_dir.shard_file(k, n, "jsonl"), data)
            with open(live, "a") as f:
                f.write(light(data))
            state["done"] += 1
            state.setdefault("busy", []).append(result["seconds"])
            state["status"] = status()
            show()
            return decided()

        cancelled = cc.collect(ray, refs, on_result, progress, o.retries)
    else:
        show()
    progress.finish()
    if cancelled:
        print(f"match: the SPRT decided; {cancelled} shards cancelled", file=sys.stderr)

    # The final merge: every finished shard, with moves, into the summary,
    # the PGN and the records.
    files = [run_dir.shard_file(k, n, "jsonl") for k in run_dir.done(n, "jsonl")]
    every = os.path.join(o.out, "all-shards.jsonl")
    with open(every, "wb") as f:
        for p in files:
            with open(p, "rb") as s:
                f.write(s.read())
    pgn = pgn or os.path.join(o.out, "match.pgn")
    records_out = records_out or os.path.join(o.out, "match.jsonl")
    r = subprocess.run(
        [chuhe, "match", "merge", every, "--pgn", pgn, "--json", records_out] + merge_sprt,
        capture_output=True,
        text=True,
    )
    os.remove(every)
    if r.returncode != 0:
        cc.die(f"merge failed: {r.stderr.strip()}")
    with open(os.path.join(o.out, "summary.txt"), "w") as f:
        f.write(r.stdout)
    report.write(r.stdout)
    report.flush()
    print(
        f"match: {len(files)} of {n} shards merged in {cc.elapsed(start)}; games in {pgn} and {records_out}",
        file=sys.stderr,
    )
    if "busy" in state:
        print(
            f"match: timing: connected after {state['connected']:.2f} s; shards ran "
            f"{' + '.join(f'{x:.1f}' for x in state['busy'])} = {sum(state['busy']):.1f} s (chuhe's own "
            f"time); wall {time.time() - start:.1f} s",
            file=sys.stderr,
        )
    missing = n - len(files)
    return 0 if missing == 0 or cancelled or decided() else 1


if __name__ == "__main__":
    sys.exit(main())
