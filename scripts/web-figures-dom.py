#!/usr/bin/env python3
"""What the document's part of a whole-screen redraw costs, by markup (issue 27, "key to redraw").

Opens the served page in headless Chromium, starts a 2048 game and takes each row's HTML as the page's DOM backend
wrote it (`#term_rows`, crates/web/src/rowdom.rs) for the game's screen (A) and then for its help overlay (B). Then,
in the page, it writes B over A again and again in several ways (the markup and CSS a variant names), each time
after a painted frame, and times the writing (the `innerHTML` assignments: the browser parsing the rows) and the
style and layout forced right after (`offsetHeight`). The variants take turns within each round, so that a busy
machine disturbs them alike. Prints, per variant, the minimum (the cost itself), the quartile, the median and the
90th percentile of the total, and of each part.

Needs chromium and chromedriver (/usr/bin) and the built page served (scripts/web-build.sh, then
PORT=8731 scripts/web-serve.sh):

    python3 scripts/web-figures-dom.py [rounds, 40 unless told] [http://127.0.0.1:8731]
"""
import importlib.util, os, re, sys, time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("draw", os.path.join(here, "web-figures-draw.py"))
draw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(draw)

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 40
BASE = sys.argv[2] if len(sys.argv) > 2 else "http://127.0.0.1:8731"
GRAB = "return Array.from(document.querySelectorAll('#term_rows > pre')).map(r => r.innerHTML);"

# Each variant: a name, the rows' HTML of A and B as that variant writes them, CSS added to the page meanwhile,
# the style each row (<pre>) carries besides its height, and whether the grid is written as one assignment.
BENCH = r"""
const [variants, rounds, done] = arguments;
const grid = document.getElementById('term_rows');
const term = document.getElementById('term');
const height = grid.firstElementChild.getAttribute('style');
const sheet = document.createElement('style');
document.head.appendChild(sheet);
const whole = (rows, extra) => rows.map((r) => '<pre style="' + height + extra + '">' + r + '</pre>').join('');
const painted = () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 30)));
const times = variants.map(() => []);
(async () => {
  for (let i = 0; i < rounds; i++) {
    for (let k = 0; k < variants.length; k++) {
      const v = (i + k) % variants.length;
      const [name, A, B, css, extra, at_once] = variants[v];
      sheet.textContent = css;
      grid.innerHTML = whole(A, extra);
      const W = whole(B, extra);
      term.offsetHeight;
      await painted();
      const t0 = performance.now();
      if (at_once) {
        grid.innerHTML = W;
      } else {
        const rows = grid.children;
        for (let y = 0; y < rows.length; y++) rows[y].innerHTML = B[y];
      }
      const t1 = performance.now();
      term.offsetHeight;
      const t2 = performance.now();
      times[v].push([t1 - t0, t2 - t1]);
    }
  }
  sheet.remove();
  done(times);
})();
"""

IB = r"display:inline-block;width:(\d+)ch;"


def classes(rows, looks, width_class):
    """Each run's look as a class (the stylesheet's), its width inline or as a class too."""
    def sub(m):
        look = re.sub(IB, "", m.group(1))
        width = re.search(IB, m.group(1)).group(1)
        name = looks.setdefault(look, f"l{len(looks)}")
        return f'<span class="{name} w{width}">' if width_class else f'<span class="{name}" style="width:{width}ch">'
    return [re.sub(r'<span style="([^"]*)">', sub, r) for r in rows]


def looks_css(looks):
    return ("#term_rows span{display:inline-block}\n" + "\n".join(f".{c}{{{s}}}" for s, c in looks.items())
            + "\n" + "\n".join(f".w{i}{{width:{i}ch}}" for i in range(1, 400)))


def q(values, f):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * f))]


def main():
    w = draw.WD(9611)
    try:
        w.go(BASE + "/?seed=3&backend=dom")
        w.wait_ready()
        out = []
        draw.press(w, "Enter", "2048 setup", out)
        draw.press(w, "Enter", "2048 new game", out)
        time.sleep(0.3)
        a = w.js(GRAB)
        draw.press(w, "?", "help on", out)
        time.sleep(0.3)
        b = w.js(GRAB)
        looks, widths = {}, {}
        ca, cb = classes(a, looks, False), classes(b, looks, False)
        wa, wb = classes(a, widths, True), classes(b, widths, True)
        plain = lambda rows: [re.sub(IB, "", r) for r in rows]
        strict = "contain:strict;overflow:hidden;"
        variants = [
            ("as the page writes it", a, b, "", "", False),
            ("rows contain: strict", a, b, "", strict, False),
            ("rows contain: content", a, b, "", "contain:content;", False),
            ("no inline-block", plain(a), plain(b), "", "", False),
            ("looks as classes", ca, cb, looks_css(looks), "", False),
            ("looks, widths as classes", wa, wb, looks_css(widths), "", False),
            ("the grid at once", a, b, "", "", True),
            ("grid at once, strict", a, b, "", strict, True),
        ]
        runs = sum(r.count("<span") for r in b)
        print(f"help overlay: {len(b)} rows, {runs} runs, {sum(len(r) for r in b)} characters of HTML; "
              f"{ROUNDS} rounds; load average {' '.join(open('/proc/loadavg').read().split()[:3])}")
        times = w.req("POST", f"/session/{w.sid}/execute/async",
                      {"script": BENCH, "args": [[list(v) for v in variants], ROUNDS]})["value"]
        print(f"{'variant':<26} {'total: min':>10} {'q25':>5} {'median':>6} {'q90':>5} | {'write: min':>10} {'median':>6} "
              f"| {'layout: min':>11} {'median':>6}  (ms)")
        for (name, *_), t in zip(variants, times):
            total = [x + y for x, y in t]
            write = [x for x, _ in t]
            layout = [y for _, y in t]
            print(f"{name:<26} {min(total):>10.1f} {q(total, .25):>5.1f} {q(total, .5):>6.1f} {q(total, .9):>5.1f} | "
                  f"{min(write):>10.1f} {q(write, .5):>6.1f} | {min(layout):>11.1f} {q(layout, .5):>6.1f}")
        print(f"load average after: {' '.join(open('/proc/loadavg').read().split()[:3])}")
    finally:
        w.quit()


if __name__ == "__main__":
    main()
