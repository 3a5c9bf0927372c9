#!/usr/bin/env bash
# Drives the release binary through the `cchess` Python package's
# UcciEngine and UciEngine (a client we did not write), from a throw-away
# virtual environment under target/. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --quiet
target=${CARGO_TARGET_DIR:-$PWD/target}
venv=$target/cchess-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "cchess==1.25.5"
timeout 120 "$venv/bin/python" scripts/cchess_drive.py "$target/release/chuhe"
