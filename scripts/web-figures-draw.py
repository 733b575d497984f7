#!/usr/bin/env python3
"""Where a whole-screen redraw's time goes in the page, per backend (issue 27, "key to redraw").

Drives headless Chromium over the served page with `?timing=1`, which makes the page force the browser's style and
layout right after each redraw and time it. For each key of a fixed walk through whole-screen changes (a 2048 game
started, the help on and off, a new game, the menu, its help, the statistics and history screens), it reads
`window.parlorDraw` (the page's split of the redraw: `renderMs` the screens drawing into ratatui's buffer, `flushMs`
the backend writing the document, `layoutMs` the browser's style and layout) and `parlorFrameMs()` (keydown to the
end of all that), and prints each key, then per backend the median and the maximum of each part.

Needs chromium and chromedriver (/usr/bin) and the built page served (scripts/web-build.sh, then
PORT=8731 scripts/web-serve.sh):

    python3 scripts/web-figures-draw.py [rounds] [backends, comma separated] [http://127.0.0.1:8731]
"""
import json, os, statistics, subprocess, sys, tempfile, time, urllib.request


class WD:
    """A chromedriver session on headless Chromium, spoken to over WebDriver's JSON."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.p = subprocess.Popen(["/usr/bin/chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                self.req("GET", "/status")
                break
            except OSError:
                time.sleep(0.2)
        prof = tempfile.mkdtemp()
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--user-data-dir={prof}", "--window-size=1200,900"] + os.environ.get("CHROMIUM_ARGS", "").split()
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome",
                                                 "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args}}}}
        self.sid = self.req("POST", "/session", caps)["value"]["sessionId"]

    def req(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        rq = urllib.request.Request(self.base + path, data=data, method=method,
                                    headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(rq, timeout=300) as f:
            return json.load(f)

    def go(self, url):
        self.req("POST", f"/session/{self.sid}/url", {"url": url})

    def js(self, script, *args):
        return self.req("POST", f"/session/{self.sid}/execute/sync", {"script": script, "args": list(args)})["value"]

    def wait_ready(self):
        for _ in range(300):
            if self.js("return window.parlorReady === true"):
                return
            time.sleep(0.1)
        raise Exception("the page never said it was ready")

    def quit(self):
        try:
            self.req("DELETE", f"/session/{self.sid}")
        finally:
            self.p.terminate()


PRESS = """
document.dispatchEvent(new KeyboardEvent('keydown', {key: arguments[0], bubbles: true}));
const d = window.parlorDraw || {};
return {frameMs: window.parlorFrameMs(), renderMs: d.renderMs, flushMs: d.flushMs, layoutMs: d.layoutMs,
        rows: d.lastRows, runs: d.lastRuns, cells: d.lastCells, screen: window.parlorScreen()};
"""


def press(w, key, what, out):
    time.sleep(0.25)  # the previous frame painted and a 2048 slide's animation ended
    r = w.js(PRESS, key)
    r["key"], r["what"] = key, what
    out.append(r)
    return r["screen"]


def selected(screen):
    return next((l for l in screen.split("\n") if "▸" in l), "")


def to_row(w, label, out):
    """Moves the menu's cursor to the row naming `label` (its presses are not counted) and opens it."""
    for _ in range(20):
        screen = w.js("return window.parlorScreen()")
        if label in selected(screen):
            return press(w, "Enter", label, out)
        w.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowDown', bubbles: true}));")
    raise Exception(f"no menu row {label}")


def walk(w, out):
    """One walk through whole-screen changes, from the menu back to it."""
    press(w, "Enter", "2048 setup", out)
    press(w, "Enter", "2048 new game", out)
    press(w, "?", "help on", out)
    press(w, "Escape", "help off", out)
    press(w, "ArrowLeft", "a slide", out)
    press(w, "r", "new game? asked", out)
    press(w, "y", "new game", out)
    press(w, "q", "menu", out)
    press(w, "?", "menu help on", out)
    press(w, "Escape", "menu help off", out)
    to_row(w, "Statistics", out)
    press(w, "Escape", "menu", out)
    to_row(w, "History", out)
    press(w, "Escape", "menu", out)
    for _ in range(20):  # back to the top row
        if "2048" in selected(w.js("return window.parlorScreen()")):
            break
        w.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowUp', bubbles: true}));")


def summary(values):
    values = sorted(v for v in values if v is not None)
    if not values:
        return "-"
    return f"median {statistics.median(values):6.1f}, max {values[-1]:6.1f}"


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    backends = (sys.argv[2] if len(sys.argv) > 2 else "ratzilla-dom,dom,canvas").split(",")
    base = sys.argv[3] if len(sys.argv) > 3 else "http://127.0.0.1:8731"
    print(f"load average before: {open('/proc/loadavg').read().split()[:3]}")
    for backend in backends:
        w = WD(9700 + os.getpid() % 200)
        try:
            w.go(f"{base}/?timing=1&seed=3&backend={backend}")
            w.wait_ready()
            out = []
            for _ in range(rounds):
                walk(w, out)
            print(f"\n## backend {backend} ({w.js('return window.parlorBackend')}), {len(out)} keys, ms "
                  "(frame = keydown to drawn and laid out)")
            for r in out:
                print(f"  {r['what']:<16} frame {r['frameMs']:6.1f} = render {r['renderMs']:5.1f} + flush "
                      f"{r['flushMs']:6.1f} + layout {r['layoutMs']:6.1f}  rows {r['rows']} runs {r['runs']} "
                      f"cells {r['cells']}")
            for part in ["frameMs", "renderMs", "flushMs", "layoutMs"]:
                print(f"  {part:<9} {summary(r[part] for r in out)}")
            print(f"  over 16 ms: {sum(r['frameMs'] > 16 for r in out)} of {len(out)}")
        finally:
            w.quit()
    print(f"\nload average after: {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main()
