//! `--faces`: the graphical face's targets (BENCHMARKS.md, "The graphical face"). 2048's slide animation on the
//! desktop profile (1280 x 800, no throttling): the intervals between `requestAnimationFrame` timestamps while a
//! slide animates (the 100 ms after each key), and the browser's long animation frames meanwhile. A tap to its
//! redraw on a phone (360 x 780, touch) with the CPU throttled 4x (`Emulation.setCPUThrottlingRate`): from the
//! `pointerup` event's timestamp to the first task after the frame that shows the change (a `MutationObserver` on
//! the face, then `requestAnimationFrame` and a zero timeout), for Mastermind's palette and Clear and Nocca's
//! selection, with the medians of its parts: the wait before the page's first `pointerup` listener runs, and the
//! time to the end of the page's handling (the screen's HTML built and written); beside them the floor, a blank
//! page that only counts taps, timed the same way; each tapped by WebDriver touch actions and by the DevTools
//! protocol's touch events, with the browser's own Event Timing durations. And the page weight of a first game: `gzip -9` of every file the page's server was asked for while a
//! fresh visit opened the menu, started a 2048 game and slid it (the service worker's cache included).

use crate::{gzip_len, median_max};
use parlor_web_e2e::{Error, Key, Result, Session};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// Slides timed.
const SLIDES: usize = 40;
/// How long after a key its slide's frames are counted (the animation's 100 ms and a frame more), in ms.
const ANIMATION_MS: f64 = 120.0;
/// Taps timed on each board.
const TAPS: usize = 40;

/// The recorder of animation frames and keys, and of the browser's long animation frames.
const FRAMES: &str = r#"
window.__f = { stamps: [], keys: [], long: [] };
document.addEventListener('keydown', () => window.__f.keys.push(performance.now()), true);
const loop = (t) => { window.__f.stamps.push(t); requestAnimationFrame(loop); };
requestAnimationFrame(loop);
try {
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__f.long.push(e.duration); })
    .observe({ type: 'long-animation-frame' });
} catch (e) {}
return true;
"#;

/// The recorder of taps to their redraws.
const TAP_TIMES: &str = r#"
window.__t = [];
window.__parts = [];
window.addEventListener('pointerup', (e) => {
  const t0 = e.timeStamp;
  const part = { start: performance.now() - t0 };
  window.__parts.push(part);
  window.addEventListener('pointerup', () => { part.handled = performance.now() - t0; }, { once: true });
  const obs = new MutationObserver(() => {
    obs.disconnect();
    requestAnimationFrame(() => {
      part.frame = performance.now() - t0;
      setTimeout(() => window.__t.push(performance.now() - t0), 0);
    });
  });
  obs.observe(document.getElementById('faces'), { childList: true, subtree: true, attributes: true });
}, true);
// The browser's own account of each tap (the Event Timing API, as Interaction to Next Paint reads it): from the
// touch's timestamp to the next frame's presentation, in steps of 8 ms; taps under 16 ms are not reported.
window.__ev = [];
try {
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) if (e.name === 'pointerup') window.__ev.push(e.duration);
  }).observe({ type: 'event', durationThreshold: 16 });
} catch (e) {}
return true;
"#;

/// The floor under the page's taps: a blank document that only counts taps in a number beside its one button, drawn in the
/// same browser, at the same size and throttle, timed by the same recorder: what any page's tap costs here.
const FLOOR: &str = r#"
document.open();
document.write('<!doctype html><meta name="viewport" content="width=device-width"><div id="faces">'
  + '<button id="floor" style="width:120px;height:60px">tap</button> <span id="count">0</span></div>');
document.close();
let n = 0;
window.addEventListener('pointerup', () => { n += 1; document.getElementById('count').textContent = String(n); });
return true;
"#;

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default()
}

/// Waits (10 s at most) until `script` returns true.
fn wait(page: &Session, what: &str, script: &str) -> Result<()> {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while page.eval(script)? != Value::Bool(true) {
        if std::time::Instant::now() > deadline {
            return Err(Error::new(format!("waited for {what}: {script}")));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}

/// Opens the graphical face on a fresh store and starts game `i` (its setup, then Start), by scripted clicks.
fn start(page: &Session, i: usize, query: &str) -> Result<()> {
    page.open(query)?;
    page.fresh_start()?;
    wait(
        page,
        "the menu",
        "return !!document.querySelector('[data-act=\"setup:0\"]');",
    )?;
    page.eval_with(
        "document.querySelector('[data-act=\"setup:' + arguments[0] + '\"]').click(); return true;",
        vec![i.into()],
    )?;
    wait(
        page,
        "the setup",
        &format!("return !!document.querySelector('[data-act=\"start:{i}\"]');"),
    )?;
    page.eval_with(
        "document.querySelector('[data-act=\"start:' + arguments[0] + '\"]').click(); return true;",
        vec![i.into()],
    )?;
    wait(
        page,
        "the board",
        "return !!document.querySelector('#board');",
    )
}

/// Prints every figure of `--faces`.
pub(crate) fn figures(site: &Path) -> Result<()> {
    let page = Session::launch("web-figures-faces", site)?;
    slides(&page)?;
    taps(&page)?;
    drop(page);
    first_game_weight(site)
}

/// 2048's slides on the desktop profile.
fn slides(page: &Session) -> Result<()> {
    println!(
        "\n## 2048 slide animation, desktop profile (1280x800, CPU as it is, {SLIDES} slides)"
    );
    page.emulate(1280, 800, false)?;
    start(page, 0, "face=graphic&seed=1")?;
    page.eval(FRAMES)?;
    let keys = [Key::Left, Key::Up, Key::Right, Key::Down];
    for n in 0..SLIDES {
        page.press(&[keys[n % keys.len()]])?;
        std::thread::sleep(Duration::from_millis(250));
    }
    let moved = page.eval_string("return document.querySelector('#line').textContent;")?;
    let f = page.eval("return window.__f;")?;
    let stamps = numbers(&f["stamps"]);
    let key_times = numbers(&f["keys"]);
    let long = numbers(&f["long"]);
    let mut frames = Vec::new();
    for &k in &key_times {
        for w in stamps.windows(2) {
            if w[1] > k && w[1] <= k + ANIMATION_MS {
                frames.push(w[1] - w[0]);
            }
        }
    }
    if frames.is_empty() {
        return Err(Error::new(
            "no animation frame was recorded during the slides",
        ));
    }
    let mut sorted = frames.clone();
    let (median, max) = median_max(&mut sorted);
    let p95 = sorted[(sorted.len() * 95 / 100).min(sorted.len() - 1)];
    let over50 = frames.iter().filter(|&&ms| ms > 50.0).count();
    println!(
        "{} frames during {} slides: median {median:.1} ms, 95th percentile {p95:.1} ms, max {max:.1} ms, {over50} \
         over 50 ms (targets: median at most 16.7 ms, none over 50 ms); the last line: {moved}",
        frames.len(),
        key_times.len()
    );
    let long_max = long.iter().copied().fold(0.0, f64::max);
    println!(
        "long animation frames (over 50 ms, the browser's PerformanceObserver) meanwhile: {}{}",
        long.len(),
        if long.is_empty() {
            String::new()
        } else {
            format!(", the longest {long_max:.0} ms")
        }
    );
    Ok(())
}

/// What one board's taps measured: the recorder's times, and the browser's Event Timing durations.
struct Taps {
    times: Vec<f64>,
    events: Vec<f64>,
}

/// How a tap reaches the browser.
#[derive(Clone, Copy)]
enum Finger {
    /// WebDriver touch actions through chromedriver (as the browser tests tap): the touch's timestamp is
    /// chromedriver's, taken before it sends the touch on.
    WebDriver,
    /// The DevTools protocol's touch events (`Input.dispatchTouchEvent`, as Lighthouse and Puppeteer tap): the
    /// browser stamps the touch as it receives it.
    DevTools,
}

/// Taps `selector` once with `finger`, the finger down for 30 ms.
fn tap(page: &Session, selector: &str, finger: Finger) -> Result<()> {
    match finger {
        Finger::WebDriver => page.tap(selector),
        Finger::DevTools => {
            let (x, y) = page.centre(selector)?;
            page.cdp(
                "Input.dispatchTouchEvent",
                serde_json::json!({ "type": "touchStart", "touchPoints": [{ "x": x.round(), "y": y.round() }] }),
            )?;
            std::thread::sleep(Duration::from_millis(30));
            page.cdp(
                "Input.dispatchTouchEvent",
                serde_json::json!({ "type": "touchEnd", "touchPoints": [] }),
            )?;
            Ok(())
        }
    }
}

/// Sets the CPU throttling rate (1: none).
fn throttle(page: &Session, rate: u32) -> Result<()> {
    page.cdp(
        "Emulation.setCPUThrottlingRate",
        serde_json::json!({ "rate": rate }),
    )
    .map(|_| ())
}

/// Taps timed to their redraw on `selectors` in turn, `TAPS` taps with `finger`, at the 4x throttle.
fn timed_taps(page: &Session, selectors: &[&str], finger: Finger) -> Result<Taps> {
    page.eval(TAP_TIMES)?;
    throttle(page, 4)?;
    for n in 0..TAPS {
        tap(page, selectors[n % selectors.len()], finger)?;
        std::thread::sleep(Duration::from_millis(300));
    }
    std::thread::sleep(Duration::from_millis(500));
    throttle(page, 1)?;
    let parts = page.eval("return window.__parts;")?;
    let part = |name: &str| -> Vec<f64> {
        parts
            .as_array()
            .map(|a| a.iter().filter_map(|p| p[name].as_f64()).collect())
            .unwrap_or_default()
    };
    let (mut start, mut handled, mut frame) = (part("start"), part("handled"), part("frame"));
    println!(
        "  of which, medians: {:.1} ms before the page's first listener runs, {:.1} ms to the end of its handling, \
         {:.1} ms to the frame's start (then its style, layout and paint)",
        median_max(&mut start).0,
        median_max(&mut handled).0,
        median_max(&mut frame).0
    );
    Ok(Taps {
        times: numbers(&page.eval("return window.__t;")?),
        events: numbers(&page.eval("return window.__ev;")?),
    })
}

/// Opens the floor: a blank document of its own (no listener, timer or worker of the page's is left running).
fn floor(page: &Session) -> Result<()> {
    page.cdp("Page.navigate", serde_json::json!({ "url": "about:blank" }))?;
    wait(
        page,
        "about:blank",
        "return location.href === 'about:blank' && document.readyState === 'complete';",
    )?;
    page.eval(FLOOR).map(|_| ())
}

/// Taps on a phone with the CPU throttled 4x: each board, and the floor, tapped by both fingers.
fn taps(page: &Session) -> Result<()> {
    println!(
        "\n## A tap to its redraw, phone (360x780, touch), CPU throttled 4x ({TAPS} taps a board and finger)"
    );
    page.emulate(360, 780, true)?;
    let mastermind = [
        "[data-act=\"b:c:0\"]",
        "[data-act=\"b:c:1\"]",
        "[data-act=\"b:c:2\"]",
        "[data-act=\"b:c:3\"]",
        "[data-act=\"b:clear\"]",
    ];
    let nocca = ["[data-act=\"b:sel:0:0\"]"];
    let mut rows = Vec::new();
    for (finger, name) in [
        (Finger::WebDriver, "WebDriver touch actions"),
        (Finger::DevTools, "DevTools touch events"),
    ] {
        println!("{name}:");
        start(page, 1, "face=graphic&seed=1")?;
        rows.push((
            name,
            "Mastermind (4 colours tapped, then Clear)",
            timed_taps(page, &mastermind, finger)?,
        ));
        start(page, 2, "face=graphic&seed=1")?;
        rows.push((
            name,
            "Nocca Nocca (a piece selected, then let go)",
            timed_taps(page, &nocca, finger)?,
        ));
        floor(page)?;
        rows.push((
            name,
            "The floor (a blank page counting taps)",
            timed_taps(page, &["#floor"], finger)?,
        ));
    }
    for (finger, what, taps) in rows {
        let mut sorted = taps.times.clone();
        let (median, max) = median_max(&mut sorted);
        let over = taps.times.iter().filter(|&&ms| ms > 50.0).count();
        let mut events = taps.events.clone();
        let (e_median, e_max) = median_max(&mut events);
        println!(
            "{finger}, {what}: {} taps, median {median:.1} ms, max {max:.1} ms, {over} over 50 ms (target: at most \
             50 ms); Event Timing: {} of the taps over 16 ms, median {e_median:.0} ms, max {e_max:.0} ms",
            taps.times.len(),
            taps.events.len()
        );
    }
    Ok(())
}

/// The page weight of a first game: every file asked for by a fresh visit that plays 2048.
fn first_game_weight(site: &Path) -> Result<()> {
    println!("\n## Page weight of a first game (every file a fresh visit asked for)");
    let page = Session::launch("web-figures-weight", site)?;
    start(&page, 0, "face=graphic&seed=1")?;
    for key in [Key::Left, Key::Up, Key::Right] {
        page.press(&[key])?;
        std::thread::sleep(Duration::from_millis(200));
    }
    // The service worker registers once the page plays and keeps every file of the page.
    std::thread::sleep(Duration::from_secs(3));
    let mut names: Vec<String> = page
        .server()
        .hits()
        .into_iter()
        .filter(|h| h.status == 200)
        .map(|h| match h.path.trim_start_matches('/') {
            "" => "index.html".to_string(),
            name => name.to_string(),
        })
        .collect();
    names.sort();
    names.dedup();
    let mut total = 0;
    for name in &names {
        let bytes = std::fs::read(site.join(name))
            .map_err(|e| Error::new(format!("reading {name}: {e}")))?;
        let gz = gzip_len(&bytes)?;
        total += gz;
        println!("{name:<22} {:>10} B raw {:>10} B gzip -9", bytes.len(), gz);
    }
    println!(
        "{:<22} {:>10.2} MB gzip -9 (target: at most 2.5 MB)",
        "total",
        total as f64 / 1e6
    );
    Ok(())
}
