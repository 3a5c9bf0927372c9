"""What match.py and datagen.py share: the run directory, shipping the
binaries to the workers, the Ray task that runs one shard, and the loop that
collects shards as they finish.

A run lives in one directory (--out):

    run.json          the run: command, shard count, the shipped files' hashes
    shards/           one file per finished shard (written whole, atomically)
    ship/             the files the workers get (Ray runtime_env working_dir)

A shard's result reaches the disk only complete (written to a temporary
name, then renamed), and a rerun with the same directory skips every shard
that has a file: so a run killed at any point resumes where it stopped, and
a shard is never counted from two attempts.

A shard is one Ray task: it runs chuhe (the referee of a match, or datagen)
as a child process on the worker, in a scratch directory of its own, and
returns the output file's bytes to the driver (no shared file system is
needed). The child is killed with the worker (Linux parent-death signal), so
a worker that dies takes its shard's processes with it; Ray then runs the
task again (max_retries), on this or another node.
"""

import ctypes
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# Placeholders in a shard's command line, replaced on the worker.
SHIP = "{ship}"  # the directory holding the shipped files
OUT = "{out}"  # the shard's output file

# System directories: commands there are on every node and are not shipped.
SYSTEM_DIRS = ("/bin/", "/sbin/", "/usr/", "/lib/", "/lib64/", "/etc/")


def die(msg):
    print(f"{os.path.basename(sys.argv[0])}: {msg}", file=sys.stderr)
    sys.exit(2)


def import_ray(here):
    """The ray module: imported here, or from the virtual environment that
    setup.sh makes in HERE/.venv (the driver re-executes itself under that
    environment's Python), or a clear error."""
    try:
        import ray

        return ray
    except ImportError:
        venv = os.path.join(here, ".venv")
        if os.path.exists(venv) and os.path.abspath(sys.prefix) != venv:
            python = os.path.join(venv, "bin", "python")
            os.execv(python, [python] + sys.argv)
        die("the ray package is missing: run scripts/cluster/setup.sh first")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_atomic(path, data):
    """Writes `data` (bytes) to `path` whole or not at all."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class Ship:
    """Files sent to the workers: copied into RUN/ship under names that
    carry their content hash, and referred to as {ship}/NAME in commands.
    With shared=True nothing is copied: paths are used as given (a shared
    file system, the same path on every node)."""

    def __init__(self, run_dir, shared):
        self.dir = os.path.join(run_dir, "ship")
        self.shared = shared
        self.hashes = {}  # name in the ship -> sha256
        if not shared:
            os.makedirs(self.dir, exist_ok=True)

    def add(self, path, what):
        if not os.path.isfile(path):
            die(f"{what} '{path}' is not a file")
        if self.shared:
            self.hashes[os.path.abspath(path)] = sha256(path)
            return os.path.abspath(path)
        digest = sha256(path)
        name = f"{digest[:12]}-{os.path.basename(path)}"
        target = os.path.join(self.dir, name)
        if not os.path.exists(target):
            shutil.copy2(path, target + ".part")
            os.replace(target + ".part", target)
        self.hashes[name] = digest
        return f"{SHIP}/{name}"

    def runtime_env(self):
        if self.shared:
            return {}
        # Old shipped files (of earlier runs' binaries) are not sent.
        for name in os.listdir(self.dir):
            if name not in self.hashes:
                os.remove(os.path.join(self.dir, name))
        return {"working_dir": self.dir}


def ships(value):
    """Whether a command path is shipped (not a system command or a bare
    name looked up on the worker's PATH)."""
    return "/" in value and not value.startswith(SYSTEM_DIRS)


class RunDir:
    """The run directory and its run.json."""

    def __init__(self, path):
        self.path = path
        self.shards = os.path.join(path, "shards")
        os.makedirs(self.shards, exist_ok=True)

    def check(self, run):
        """Stores `run` (a dict) or checks it against the stored one: a
        directory holds one run, so finished shards are never mixed with
        another run's."""
        path = os.path.join(self.path, "run.json")
        if os.path.exists(path):
            with open(path) as f:
                old = json.load(f)
            if old != run:
                diffs = [k for k in sorted(set(old) | set(run)) if old.get(k) != run.get(k)]
                die(
                    f"{self.path} holds another run (different {', '.join(diffs)}); "
                    "give another --out, or delete it to start again"
                )
            return old
        write_atomic(path, (json.dumps(run, indent=1, sort_keys=True) + "\n").encode())
        return run

    def shard_file(self, k, n, ext):
        return os.path.join(self.shards, f"shard-{k:05d}-of-{n:05d}.{ext}")

    def done(self, n, ext):
        return [k for k in range(1, n + 1) if os.path.exists(self.shard_file(k, n, ext))]


def _die_with(parent):
    """For the child, before exec: SIGKILL when the parent (the Ray worker)
    dies, so a killed or cancelled worker leaves no shard running (Linux;
    elsewhere the child goes on alone). A parent already gone by then (a
    cancel while the shard starts) means exit at once."""

    def arm():
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
        if os.getppid() != parent:
            os._exit(1)

    return arm


class ShardFailed(Exception):
    pass


def run_shard(argv, tag, k):
    """The body of the Ray task: runs `argv` ({ship} and {out} replaced)
    in a scratch directory; returns the output file's bytes and the tail of
    the child's stderr. A failure (non-zero exit) raises, and Ray retries."""
    ship = os.getcwd()
    work = tempfile.mkdtemp(prefix=f"chuhe-shard-{tag}-{k}-")
    out = os.path.join(work, "out")
    argv = [a.replace(SHIP, ship).replace(OUT, out) for a in argv]
    for a in argv:
        # Shipped files keep their mode in Ray's package, but be sure.
        if a.startswith(ship + "/") and os.path.isfile(a) and not os.access(a, os.X_OK):
            try:
                os.chmod(a, 0o755)
            except OSError:
                pass
    start = time.time()
    proc = None
    try:
        with open(os.path.join(work, "stderr"), "w+b") as err:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                cwd=work,
                preexec_fn=_die_with(os.getpid()),
            )
            rc = proc.wait()
            err.seek(0)
            tail = err.read()[-4000:].decode(errors="replace")
        if rc != 0:
            raise ShardFailed(f"shard {k}: {os.path.basename(argv[0])} exited with {rc}:\n{tail}")
        data = b""
        if os.path.exists(out):
            with open(out, "rb") as f:
                data = f.read()
        return {"data": data, "stderr": tail, "seconds": time.time() - start, "pid": os.getpid()}
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        shutil.rmtree(work, ignore_errors=True)


def connect(ray, address, runtime_env):
    """Connects to the cluster (--address, else RAY_ADDRESS, else a Ray
    started here for this run) with the shipped files as working dir."""
    kwargs = {"runtime_env": runtime_env, "log_to_driver": False, "logging_level": "WARNING"}
    if address:
        kwargs["address"] = address
    where = address or os.environ.get("RAY_ADDRESS")
    if not where:
        print("no --address or RAY_ADDRESS: starting Ray on this machine", file=sys.stderr)
    ray.init(**kwargs)
    cpus = int(ray.cluster_resources().get("CPU", 0))
    print(f"Ray cluster {where or '(local)'}: {len(ray.nodes())} nodes, {cpus} CPUs", file=sys.stderr)
    # Shard tasks are pickled by value: a worker needs no copy of this file.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])


class Progress:
    """One status line on stderr: redrawn in place on a terminal, one line
    per update otherwise."""

    def __init__(self):
        self.tty = sys.stderr.isatty()
        self.width = 0

    def line(self, text):
        if self.tty:
            sys.stderr.write("\r" + text + " " * max(0, self.width - len(text)))
            self.width = len(text)
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def note(self, text):
        if self.tty and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            self.width = 0
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def finish(self):
        if self.tty and self.width:
            sys.stderr.write("\n")
            self.width = 0


def elapsed(start):
    s = int(time.time() - start)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def collect(ray, refs, on_result, progress, retries):
    """Waits for the shard tasks `refs` ({ref: k}), calling on_result(k,
    result) for each as it finishes; on_result returns True to stop (the
    SPRT decided), and the tasks still out are cancelled. A shard that
    fails after its retries stops the run with its error (finished shards
    are kept). Returns the number of tasks cancelled."""
    pending = dict(refs)
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            k = pending.pop(ref)
            try:
                result = ray.get(ref)
            except ray.exceptions.RayError as e:
                for r in pending:
                    ray.cancel(r, force=True)
                progress.finish()
                die(f"shard {k} failed after {retries} retries: {e}")
            if on_result(k, result):
                for r in pending:
                    ray.cancel(r, force=True)
                return len(pending)
    return 0
