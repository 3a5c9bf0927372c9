"""Drive chuhe through a client we did not write: the `cchess` package's
UcciEngine and UciEngine (PyPI). Plays a few moves in each dialect, checks
each answer with cchess's own board, runs an infinite analysis and stops it,
and quits. Exits non-zero on any failure and prints what it saw.

Usage: python cchess_drive.py /abs/path/to/chuhe
"""

import sys
import time

from cchess import ChessBoard
from cchess.common import FULL_INIT_FEN
from cchess.engine import UcciEngine, UciEngine

TIMEOUT = 30.0


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def next_answer(engine, infos):
    """Collects info lines until a bestmove-type action; returns it."""
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        action = engine.get_action()
        if action is None:
            time.sleep(0.02)
            continue
        kind = action["action"]
        if kind == "info_move":
            infos.append(action)
        elif kind in ("bestmove", "dead", "draw"):
            return action
    fail(f"no bestmove within {TIMEOUT} s")


def load(cls, path):
    engine = cls()
    if not engine.load(path):
        fail(f"{cls.__name__} could not start {path}")
    if not engine.wait_for_ready(timeout=10):
        fail(f"{cls.__name__}: no handshake reply")
    name = engine.ids.get("name", "")
    if not name.startswith("chuhe"):
        fail(f"{cls.__name__}: id name is {name!r}")
    return engine


def play(cls, path, plies, go_params, options):
    engine = load(cls, path)
    for key, value in options.items():
        engine.set_option(key, value)
    board = ChessBoard(FULL_INIT_FEN)
    moves = []
    infos = []
    for _ in range(plies):
        fen = board.to_fen()
        engine.go_from(fen, go_params)
        action = next_answer(engine, infos)
        if action["action"] != "bestmove":
            fail(f"{cls.__name__}: {action.get('raw_msg')} in {fen}")
        iccs = action["move"]
        if board.move_iccs(iccs) is None:
            fail(f"{cls.__name__}: cchess rejects {iccs} in {fen}")
        board.next_turn()
        moves.append(iccs)
    scored = [i for i in infos if "score" in i or "mate" in i]
    if not scored:
        fail(f"{cls.__name__}: no scored info lines")
    depths = [i.get("depth", 0) for i in infos]

    # Analysis: an infinite search stopped by the client.
    engine.go_from(board.to_fen(), {"infinite": ""})
    time.sleep(0.5)
    engine._send_cmd("stop")
    action = next_answer(engine, infos)
    if action["action"] != "bestmove":
        fail(f"{cls.__name__}: analysis ended with {action.get('raw_msg')}")

    engine.quit()
    try:
        engine.process.wait(timeout=10)
    except Exception:
        fail(f"{cls.__name__}: did not exit after quit")
    print(
        f"{cls.__name__}: {engine.ids.get('name')} / {engine.ids.get('author')}, "
        f"{len(engine.options)} options announced; played {' '.join(moves)}; "
        f"{len(infos)} info lines (max depth {max(depths)}, last score "
        f"{scored[-1].get('score', scored[-1].get('mate'))}); analysis answered "
        f"{action['move']}; exit code {engine.process.returncode}"
    )


def main():
    if len(sys.argv) != 2:
        fail("usage: cchess_drive.py /abs/path/to/chuhe")
    path = sys.argv[1]
    # cchess sends `setoption name X value Y` in both dialects and ends
    # lines with \r\n; chuhe must take both.
    # The book is off so that every move shows the client a search.
    play(UcciEngine, path, 6, {"depth": 6}, {"hashsize": 16, "usebook": "false"})
    play(UciEngine, path, 6, {"movetime": 150}, {"Hash": 16, "UseBook": "false"})
    print("cchess: all checks passed")


if __name__ == "__main__":
    main()
