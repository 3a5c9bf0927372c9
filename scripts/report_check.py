#!/usr/bin/env python3
"""Loads a match report (chuhe match --report) in headless Chromium and
checks it as a reader would use it; see scripts/report-check.sh.

Chromium is driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ending in a NUL byte, written to
its fd 3 and read from its fd 4), so nothing but the Python standard
library is needed and no port is opened. The check fails on

- any console error, uncaught exception or browser log error,
- any request the page makes for anything but itself (the page must
  stand alone),
- a board that, after the game's row is clicked and the arrow keys have
  stepped through its moves, does not show the game's final position as
  chuhe replays it from the record (`chuhe board`, the FEN it writes in
  its drawing's data-fen), or does not go back to the start (Home), to
  the end (End) and one move back (ArrowLeft) as it should,
- a board whose drawn pieces are not the FEN's.

Then it writes a screenshot of the page.
"""

import argparse
import base64
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time


class Browser:
    """Chromium with the DevTools protocol on fds 3 and 4."""

    def __init__(self, binary, profile):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def child_fds():
            # os.dup gives fds above 4, so dup2 onto 3 and 4 never meets
            # itself, and dup2 leaves its copies inheritable.
            a, b = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [
            binary, "--headless", "--no-sandbox", "--disable-gpu",
            "--remote-debugging-pipe", "--user-data-dir=" + profile,
            "--no-first-run", "--no-default-browser-check", "--disable-extensions",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--mute-audio", "--hide-scrollbars", "about:blank",
        ]
        self.log = open(os.path.join(profile, "chromium.log"), "w")
        self.proc = subprocess.Popen(
            args, close_fds=False, preexec_fn=child_fds,
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_child, json.dumps(message).encode() + b"\0")
        return self.next_id

    def receive(self, timeout=20):
        deadline = time.time() + timeout
        while b"\0" not in self.buffer:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.from_child], [], [], left)[0]:
                raise RuntimeError("no answer from Chromium")
            chunk = os.read(self.from_child, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=True):
        wanted = self.send(method, params, session)
        while True:
            m = self.receive()
            if m.get("id") == wanted:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_for(self, event, timeout=20):
        for i, m in enumerate(self.events):
            if m.get("method") == event:
                del self.events[i]
                return m
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = self.receive(deadline - time.time())
            if m.get("method") == event:
                return m
            if "method" in m:
                self.events.append(m)
        raise RuntimeError(f"no {event}")

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def key(self, name, code):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", {
                "type": kind, "key": name, "code": name,
                "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code})

    def click(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {
                "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def close(self):
        try:
            self.send("Browser.close", session=False)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35}


def chuhe_fen(chuhe, fen, moves):
    """The position chuhe reaches from `fen` by `moves`: the FEN's
    placement and side to move, as `chuhe board` writes them."""
    svg = subprocess.run(
        [chuhe, "board", "--fen", fen, "--moves", " ".join(moves)],
        check=True, capture_output=True, text=True).stdout
    full = re.search(r'data-fen="([^"]*)"', svg).group(1)
    return " ".join(full.split()[:2])


def problems_in(events):
    """Errors the page caused, and requests for anything but itself."""
    found = []
    for m in events:
        method, p = m.get("method"), m.get("params", {})
        if method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            found.append("exception: " + d.get("exception", {}).get("description", d.get("text", "")))
        elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            found.append("console error: " + " ".join(str(a.get("value", a.get("description")))
                                                      for a in p.get("args", [])))
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            found.append("browser error: " + p["entry"].get("text", ""))
        elif method == "Network.requestWillBeSent":
            url = p.get("request", {}).get("url", "")
            if not url.startswith(("file:", "data:", "about:")):
                found.append("request for " + url)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--page", required=True)
    ap.add_argument("--records", required=True, help="the match's --json file")
    ap.add_argument("--chuhe", required=True)
    ap.add_argument("--screenshot", help="the top of the page, as README shows it")
    ap.add_argument("--whole-page", help="a screenshot of the whole page, to look at")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = ap.parse_args()
    signal.alarm(100)  # a hung browser must not hang CI

    games = [json.loads(line) for line in open(args.records) if line.strip()]
    games.sort(key=lambda g: g["game"])
    profile = tempfile.mkdtemp(prefix="chuhe-report-check-")
    browser = Browser(args.chromium, profile)
    failures = []
    try:
        target = browser.call("Target.createTarget", {"url": "about:blank"}, session=False)
        browser.session = browser.call(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True},
            session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.call(domain + ".enable")
        browser.call("Emulation.setDeviceMetricsOverride", {
            "width": 1400, "height": 1600, "deviceScaleFactor": 1, "mobile": False})
        browser.call("Page.navigate", {"url": "file://" + os.path.abspath(args.page)})
        browser.wait_for("Page.loadEventFired")

        numbers = browser.evaluate("chuheReport.games()")
        if numbers != [g["game"] + 1 for g in games]:
            failures.append(f"the page lists games {numbers}, the records {len(games)}")
        for g in games:
            n = g["game"] + 1
            opening = g["opening"]["moves"]
            plies = opening + [m["move"] for m in g["moves"]]
            start = chuhe_fen(args.chuhe, g["opening"]["fen"], [])
            final = chuhe_fen(args.chuhe, g["opening"]["fen"], plies)
            before = chuhe_fen(args.chuhe, g["opening"]["fen"], plies[:-1])
            # Click the game's row as a reader would.
            box = browser.evaluate(
                f"(function () {{ var r = document.querySelector('tr.game[data-game=\"{n}\"]');"
                " r.scrollIntoView({block: 'center'}); var b = r.getBoundingClientRect();"
                " return [b.left + b.width / 2, b.top + b.height / 2]; })()")
            browser.click(box[0], box[1])
            shown = browser.evaluate("chuheReport.fen()")
            if shown != start:
                failures.append(f"game {n}: chosen, the board shows {shown}, not the start {start}")
            for _ in range(len(plies) + 2):  # two more than there are: it stops at the end
                browser.key("ArrowRight", KEYS["ArrowRight"])
            checks = [("after ArrowRight through every move", final)]
            shown = browser.evaluate("chuheReport.fen()")
            if shown != final:
                failures.append(f"game {n} after {len(plies)} x ArrowRight: the board shows "
                                f"{shown}, chuhe's replay of the record {final}")
            drawn = browser.evaluate(
                "Array.prototype.filter.call(document.querySelectorAll('#viewer svg.xq-board'),"
                " function (s) { return s.style.display !== 'none'; })[0]"
                ".querySelectorAll('g.pieces use').length")
            pieces = sum(c.isalpha() for c in final.split()[0])
            if drawn != pieces:
                failures.append(f"game {n}: {drawn} pieces drawn, the FEN has {pieces}")
            for name, expected in (("ArrowLeft", before), ("Home", start), ("End", final)):
                browser.key(name, KEYS[name])
                shown = browser.evaluate("chuheReport.fen()")
                checks.append((name, expected))
                if shown != expected:
                    failures.append(f"game {n} after {name}: the board shows {shown}, "
                                    f"expected {expected}")
            print(f"game {n}: {len(plies)} plies, {len(checks)} positions checked, final {final}")

        if args.screenshot:
            # A game in the middle: the board, the move list and the list in view.
            n = games[len(games) // 2]["game"] + 1
            browser.evaluate(f"chuheReport.select({n}); chuheReport.go(Math.min(40,"
                             " chuheReport.plies())); window.scrollTo(0, 0); true")
            # Down to the first row of charts (Elo, LLR).
            height = browser.evaluate(
                "Math.ceil(document.querySelector('#charts figure')"
                ".getBoundingClientRect().bottom + 16)")
            png = browser.call("Page.captureScreenshot", {
                "format": "png",
                "clip": {"x": 0, "y": 0, "width": 1400, "height": min(max(height, 600), 1600),
                         "scale": 1}})["data"]
            with open(args.screenshot, "wb") as f:
                f.write(base64.b64decode(png))
            print(f"screenshot: {args.screenshot}")
        if args.whole_page:
            size = browser.evaluate("[document.documentElement.scrollWidth,"
                                    " document.documentElement.scrollHeight]")
            png = browser.call("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}})["data"]
            with open(args.whole_page, "wb") as f:
                f.write(base64.b64decode(png))
        # Let late events (a script error on a timer) arrive.
        browser.evaluate("1")
        failures += problems_in(browser.events)
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"report check passed: {len(games)} games, no console error, no request")


if __name__ == "__main__":
    main()
