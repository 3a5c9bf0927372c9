#!/usr/bin/env bash
# Creates scripts/cluster/.venv, a virtual environment with Ray from PyPI
# (the version pinned in requirements.txt), for match.py, datagen.py and
# local-cluster.sh. Run it on the driver's machine and on every cluster node
# (or install requirements.txt into the nodes' Python some other way).
#
#   scripts/cluster/setup.sh            uses python3
#   PYTHON=python3.11 scripts/cluster/setup.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
venv=$here/.venv
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))'; then
    echo "setup.sh: $python is older than Python 3.9" >&2
    exit 2
fi
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
"$venv/bin/python" -c 'import ray, sys; print(f"ray {ray.__version__} in {sys.prefix}")'
