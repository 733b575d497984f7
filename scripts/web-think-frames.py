#!/usr/bin/env python3
"""Measures the page's frames while the computer thinks, on the page (?worker=0) and in its Web Worker (issue 27).

Needs chromium and chromedriver (/usr/bin) and the built page served (scripts/web-build.sh, then
PORT=8731 scripts/web-serve.sh). Prints, for each, the gaps of a requestAnimationFrame loop and the keys' frames.

    python3 scripts/web-think-frames.py expert|perfect|hint [dom|canvas|webgl2] [http://127.0.0.1:8731]
"""
import json, urllib.request, time, subprocess, tempfile, sys
class WD:
    def __init__(self, port=9731):
        self.base = f"http://127.0.0.1:{port}"
        self.p = subprocess.Popen(["/usr/bin/chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):  # chromedriver listens within a second, or many on a loaded machine
            try:
                self.req("GET", "/status")
                break
            except OSError:
                time.sleep(0.2)
        prof = tempfile.mkdtemp()
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {"binary": "/usr/bin/chromium",
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", f"--user-data-dir={prof}", "--window-size=1200,900"]}}}}
        r = self.req("POST", "/session", caps)
        self.sid = r["value"]["sessionId"]
        # A think on the page holds it for 20 s and more on a loaded machine: past WebDriver's 30 s script default.
        self.req("POST", f"/session/{self.sid}/timeouts", {"script": 300000})
    def req(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        rq = urllib.request.Request(self.base + path, data=data, method=method, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(rq, timeout=300) as f:
            return json.load(f)
    def go(self, url):
        self.req("POST", f"/session/{self.sid}/url", {"url": url})
    def js(self, script, *args):
        return self.req("POST", f"/session/{self.sid}/execute/sync", {"script": script, "args": list(args)})["value"]
    def ajs(self, script, *args):
        return self.req("POST", f"/session/{self.sid}/execute/async", {"script": script, "args": list(args)})["value"]
    def key(self, k):
        self.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: arguments[0], bubbles: true}));", k)
    def screen(self):
        return self.js("return window.parlorScreen ? window.parlorScreen() : null")
    def wait_ready(self):
        for _ in range(200):
            if self.js("return window.parlorReady === true"): return
            time.sleep(0.1)
        raise Exception("not ready")
    def quit(self):
        try: self.req("DELETE", f"/session/{self.sid}")
        finally: self.p.terminate()

def lines(w):
    return [l.rstrip() for l in w.screen().split('\n')]

def set_row(w, label, value):
    for _ in range(6): w.key('ArrowUp')
    for _ in range(12):
        row = [l for l in lines(w) if label in l][0]
        if '▸' in row: break
        w.key('ArrowDown')
    for _ in range(12):
        row = [l for l in lines(w) if label in l][0]
        if f'◀ {value} ▶' in row: return
        w.key('ArrowRight')
        row = [l for l in lines(w) if label in l][0]
    raise Exception(f'{label} never {value}: {row}')


BASE = sys.argv[3] if len(sys.argv) > 3 else "http://127.0.0.1:8731"

INPAGE = """
const [keys, needle, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const press = (k) => document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}));
const gaps = []; const keyMs = []; let last = performance.now(); const t0 = last; let probed = false; let probeAt = -1;
const longTasks = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) longTasks.push([e.startTime - t0, e.duration]); }).observe({type: 'longtask'});
const loop = (t) => {
  gaps.push(t - last); last = t;
  const s = window.parlorScreen();
  if (!probed && t - t0 > 300 && !s.includes(needle)) {
    probed = true; probeAt = t - t0; press('?'); keyMs.push(window.parlorFrameMs()); press('Escape'); keyMs.push(window.parlorFrameMs());
  }
  if (s.includes(needle) || t - t0 > 120000) {
    const line = s.split('\\n').find((l) => l.includes(needle)) || '';
    done({pressMs, probeAt, longTasks, ms: t - t0, gaps, keyMs, line: line.trim(), frameMs: window.parlorFrameMs()});
    return;
  }
  requestAnimationFrame(loop);
};
const p0 = performance.now(); for (const k of keys) press(k); const pressMs = performance.now() - p0;
const firstKeyMs = window.parlorFrameMs();
requestAnimationFrame(loop);
"""

def run(url, setup, keys, needle, label):
    w = WD()
    try:
        w.go(url); w.wait_ready()
        w.key('ArrowDown'); w.key('ArrowDown'); w.key('Enter'); time.sleep(0.2)
        for lab, val in setup: set_row(w, lab, val)
        time.sleep(3)  # the worker has compiled its module
        r = w.ajs(INPAGE, keys, needle)
        gaps = r['gaps']
        srt = sorted(gaps)
        print(f"{label}: the start keys' handlers took {r['pressMs']:.0f} ms, then {r['ms']:.0f} ms to '{needle}'; {len(gaps)} frames, longest gap {max(gaps):.1f} ms, "
              f"median {srt[len(srt)//2]:.1f} ms, {sum(g > 50 for g in gaps)} gaps over 50 ms; "
              f"parlorFrameMs after the start key {r['frameMs']:.1f}; keys while thinking (? then Esc) {['%.1f' % k for k in r['keyMs']]}")
        lt = r['longTasks']
        print(f"    main-thread long tasks (>50 ms): {len(lt)}, longest {max((d for _, d in lt), default=0):.0f} ms; {r['line'][:80]}")
        print(f"    long tasks at (ms after the start keys, duration): {[(round(a), round(d)) for a, d in lt]}; the ? and Esc probe at {r['probeAt']:.0f} ms; "
              f"the gaps over 50 ms end at {[round(sum(gaps[:i + 1])) for i, g in enumerate(gaps) if g > 50]}")
    finally:
        w.quit()

which = sys.argv[1]
backend = sys.argv[2] if len(sys.argv) > 2 else 'webgl2'
for worker in ['0', '1']:
    url = f"{BASE}/?worker={worker}&seed=7&backend={backend}"
    tag = f"{'page' if worker == '0' else 'worker'}, {backend}"
    if which == 'expert':
        run(url, [('Computer level', 'expert'), ('Your colour', 'white'), ('Moves first', 'black')], ['Enter'],
            'computer played', f'Nocca expert first move ({tag})')
    elif which == 'perfect':
        run(url, [('Board', '4x4'), ('Computer level', 'perfect (solved boards)'), ('Your colour', 'black'), ('Moves first', 'black')], ['Enter', 't'],
            'hint:', f'Nocca 4x4 perfect first hint ({tag})')
    elif which == 'hint':
        run(url, [('Your colour', 'black'), ('Moves first', 'black')], ['Enter', 't'], 'hint:', f'Nocca hint 6x5 ({tag})')
