//! Prints the browser figures of BENCHMARKS.md ("The browser"): the page's weight (wasm and JS, raw and gzip -9),
//! its first screen (`parlorFirstDrawMs` over fresh loads), key to redraw (`parlorFrameMs()` over 50 key presses in
//! 2048, then over keys that redraw the whole screen: a new game, the help on and off, the menu, the statistics and
//! history screens, with the browser's style and layout forced and counted in), and the engines' speed in the page
//! (`parlorBench`: wall time, and on Linux the CPU time of the page's thread, which a loaded machine disturbs less),
//! with the machine's load before and after.
//!
//! `--first-screen` prints only the weight of a first game and its first screen, the CPU as it is and throttled 4x.
//! `--faces` prints only the graphical face's targets: 2048's slide animation frames, a tap to its redraw at 4x CPU
//! throttling, the weight of a first game (`faces.rs`).
//!
//! `cargo run -p parlor-web-e2e --bin web-figures [-- --native]`: the page is `$PARLOR_WEB_DIR` or `target/web`;
//! `--native` also runs `cargo run --release -p parlor-web --example native_bench` and prints what it says, for the
//! ratio. `--draw` prints only the whole-screen walk (`--walks N` rounds of it, 3 unless told), with each screen's
//! figures apart (its keys, median, max, how many over 16 ms, how many the help's prepared layer showed), to compare
//! two builds of the page run by turns. Both walks end with what the keys waited for: the page's log (`?timing=1`,
//! `window.parlorLog`: its keys, ticks and help warm-up slices, the browser's long animation frames and slow key
//! events) and, on Linux, the page's thread's CPU time and its time waiting for a CPU over each press (`schedstat`),
//! for every key over 16 ms or that waited at least 4 ms for the page's thread.

use flate2::Compression;
use flate2::write::GzEncoder;
use parlor_web_e2e::{Error, Key, Result, Session, workspace_root};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

mod faces;
mod first;

pub(crate) const LOADS: usize = 5;
const PRESSES: usize = 50;
/// Runs of each workload (the first is cold: the engine's tables are built and the browser has only its baseline
/// compilation of the wasm; the best is what the page runs at once warm, as natively).
const RUNS: usize = 5;
/// Rounds of the walk through whole-screen changes.
const WALKS: usize = 3;

const WORKLOADS: [(&str, &str); 3] = [
    (
        "twenty48-slides",
        "1,000,000 2048 slides of random boards from seed 1",
    ),
    ("nocca-perft6", "Nocca Nocca perft(6) from the start"),
    ("mastermind-optimal", "the classic 4x6 optimal solve"),
];

fn main() {
    if let Err(e) = run() {
        eprintln!("web-figures: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let native = args.iter().any(|a| a == "--native");
    let walks = match args.iter().position(|a| a == "--walks") {
        Some(i) => args
            .get(i + 1)
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| *n > 0)
            .ok_or_else(|| Error::new("--walks needs a number of rounds"))?,
        None => WALKS,
    };
    let site = site()?;
    println!("page: {}", site.display());
    println!("load average before: {}", load_average());
    if args.iter().any(|a| a == "--first-screen") {
        return first::first_screen(&site);
    }
    if args.iter().any(|a| a == "--faces") {
        faces::figures(&site)?;
        println!("\nload average after: {}", load_average());
        return Ok(());
    }
    if args.iter().any(|a| a == "--draw") {
        let page = Session::launch("web-figures", &site)?;
        println!("\n## Key to redraw, whole screens ({walks} walks)");
        whole_screens(&page, walks)?;
        drop(page);
        println!("\nload average after: {}", load_average());
        return Ok(());
    }

    println!("\n## Page weight (not counting 2048 data)");
    let mut total_gz = 0;
    for name in ["parlor_web_bg.wasm", "parlor_web.js", "index.html"] {
        let file = site.join(name);
        let bytes = std::fs::read(&file)
            .map_err(|e| Error::new(format!("reading {}: {e}", file.display())))?;
        let gz = gzip_len(&bytes)?;
        total_gz += gz;
        println!("{name:<22} {:>10} B raw {:>10} B gzip -9", bytes.len(), gz);
    }
    println!(
        "{:<22} {:>10.2} MB gzip -9 (target: at most 3 MB)",
        "total",
        total_gz as f64 / 1e6
    );

    let page = Session::launch("web-figures", &site)?;
    println!("\n## First screen ({LOADS} fresh loads, no cache)");
    let mut firsts = Vec::new();
    for _ in 0..LOADS {
        page.open("")?;
        firsts.push(page.first_draw_ms()?);
    }
    let (median, max) = median_max(&mut firsts);
    println!("parlorFirstDrawMs: median {median:.0} ms, max {max:.0} ms (target: at most 1000 ms)");

    println!("\n## Key to redraw ({PRESSES} arrow presses in a 2048 game)");
    let frames = key_to_redraw(&page)?;
    let mut sorted = frames.clone();
    let (median, max) = median_max(&mut sorted);
    let p90 = sorted[(sorted.len() * 9 / 10).min(sorted.len() - 1)];
    let over = frames.iter().filter(|ms| **ms > 16.0).count();
    println!(
        "parlorFrameMs(): {} redraws, median {median:.1} ms, 90th percentile {p90:.1} ms, max {max:.1} ms, \
         {over} over 16 ms (target: at most 16 ms)",
        frames.len()
    );
    let slowest: Vec<String> = sorted
        .iter()
        .rev()
        .take(5)
        .map(|ms| format!("{ms:.1}"))
        .collect();
    println!("the slowest five: {} ms", slowest.join(", "));

    println!(
        "\n## Key to redraw, whole screens ({walks} walks: a new game, help on and off, the menu, statistics, history)"
    );
    whole_screens(&page, walks)?;

    println!("\n## Engines in the page (parlorBench)");
    let thread = PageThread::find(&page)?;
    for (name, what) in WORKLOADS {
        let mut times = Vec::new();
        let mut cpu = Vec::new();
        for _ in 0..RUNS {
            let before = thread.as_ref().and_then(PageThread::cpu_ms);
            times.push(page.bench(name)?);
            if let (Some(b), Some(a)) = (before, thread.as_ref().and_then(PageThread::cpu_ms)) {
                cpu.push(a - b);
            }
        }
        let best = times.iter().copied().fold(f64::INFINITY, f64::min);
        let cpu = if cpu.len() == RUNS {
            let mut sorted = cpu.clone();
            let (median, _) = median_max(&mut sorted);
            format!(
                ", the page's thread's CPU: best {:.0} ms, median {median:.0} ms",
                sorted[0]
            )
        } else {
            String::new()
        };
        println!(
            "{name:<20} first {:>6.0} ms, best of {RUNS} {best:>6.0} ms{cpu}  ({what})",
            times[0]
        );
    }
    drop(page);
    println!("\nload average after: {}", load_average());

    if native {
        println!("\n## Native (cargo run --release -p parlor-web --example native_bench)");
        let status = std::process::Command::new("cargo")
            .args([
                "run",
                "--release",
                "-p",
                "parlor-web",
                "--example",
                "native_bench",
            ])
            .current_dir(workspace_root())
            .status()?;
        if !status.success() {
            return Err(Error::new(format!("native_bench failed: {status}")));
        }
    }
    Ok(())
}

fn site() -> Result<PathBuf> {
    let named = std::env::var_os(parlor_web_e2e::WEB_DIR_VAR)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from("target/web"), PathBuf::from);
    let site = if named.is_absolute() {
        named
    } else {
        workspace_root().join(named)
    };
    if site.join("index.html").is_file() {
        Ok(site)
    } else {
        Err(Error::new(format!(
            "no built page in {} (scripts/web-build.sh builds it)",
            site.display()
        )))
    }
}

pub(crate) fn gzip_len(bytes: &[u8]) -> Result<usize> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(bytes)?;
    Ok(gz.finish()?.len())
}

pub(crate) fn median_max(values: &mut [f64]) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    match values {
        [] => (f64::NAN, f64::NAN),
        _ => (values[values.len() / 2], values[values.len() - 1]),
    }
}

/// Presses arrows in a fresh 2048 game (menu: Enter on its first row, Enter on the setup form) and reads
/// `parlorFrameMs()` after each press that redrew the screen.
fn key_to_redraw(page: &Session) -> Result<Vec<f64>> {
    page.fresh_start()?;
    page.wait_text("New game: 2048")?;
    page.press(&[Key::Enter])?;
    page.wait_text("new game of 2048")?;
    page.press(&[Key::Enter])?;
    page.wait_text("Moves 0")?;
    let arrows = [Key::Left, Key::Up, Key::Right, Key::Down];
    let mut frames = Vec::new();
    for i in 0..PRESSES {
        let before = page.screen()?;
        page.press(&[arrows[i % 4]])?;
        if page
            .wait_change(&before, Duration::from_millis(500))
            .is_ok()
        {
            // Let a slide's animation end, so that the next key measures its own redraw.
            std::thread::sleep(Duration::from_millis(150));
            frames.push(page.frame_ms()?);
        }
        if page.screen()?.contains("Game over") {
            page.type_text("r")?;
            std::thread::sleep(Duration::from_millis(300));
            page.type_text("y")?;
        }
    }
    if frames.is_empty() {
        return Err(Error::new("no key press redrew the 2048 board"));
    }
    Ok(frames)
}

fn load_average() -> String {
    std::fs::read_to_string(Path::new("/proc/loadavg"))
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// One key of the walk (a character, or a [`Key`] as WebDriver's character for it), and what it shows.
type Step = (char, &'static str);

/// A timed key: what it showed, `parlorFrameMs()`, its parts (`parlorDraw.key`: the event's wait for the page's
/// thread, the app taking it, the redraw's render, flush and layout, ms), its entry in the page's log (`key`:
/// `stamp`, `start`, `end`, `frameRan`, in the page's `performance.now()`), and what the page's thread did in
/// the press's whole window by `/proc` (CPU time run and time spent runnable but waiting for a CPU, ms).
struct Timed {
    what: String,
    ms: f64,
    parts: [f64; 5],
    entry: serde_json::Value,
    thread: Option<(f64, f64)>,
    /// `parlorDraw.layersShown` after the key (frames shown by the help's prepared layer).
    layers: f64,
    /// `parlorDraw.sheetsShown` after the key (frames shown on another kept sheet than the last), and the rows
    /// the key's frame wrote (`lastRows`).
    sheets: f64,
    rows: f64,
    /// `parlorDraw.preparedShown` after the key (frames shown on a sheet prepared in idle time for that key).
    prepared: f64,
}

/// Presses `key`, waits for the screen to change, and reads `parlorFrameMs()` and the page's split of the redraw.
fn timed_press(
    page: &Session,
    thread: Option<&PageThread>,
    key: char,
    what: &str,
    out: &mut Vec<Timed>,
) -> Result<()> {
    let before = page.screen()?;
    let sched_before = thread.and_then(PageThread::sched);
    page.type_text(&key.to_string())?;
    page.wait_change(&before, Duration::from_secs(5))
        .map_err(|e| Error::new(format!("{what}: {e}")))?;
    let sched_after = thread.and_then(PageThread::sched);
    // Let the frame paint and any animation end, so that the next key measures its own redraw.
    std::thread::sleep(Duration::from_millis(200));
    let d = page.eval(
        "const d = window.parlorDraw || {}; const log = window.parlorLog || []; \
         const keys = log.filter((e) => e.kind === 'key'); \
         return [d.key || [], keys.length ? keys[keys.length - 1] : null, d.layersShown || 0, \
         d.sheetsShown || 0, d.lastRows || 0, d.preparedShown || 0];",
    )?;
    let part = |i: usize| {
        d[0].get(i)
            .and_then(serde_json::Value::as_f64)
            .unwrap_or(f64::NAN)
    };
    out.push(Timed {
        what: what.to_string(),
        ms: page.frame_ms()?,
        parts: [part(0), part(1), part(2), part(3), part(4)],
        entry: d[1].clone(),
        layers: d[2].as_f64().unwrap_or(0.0),
        sheets: d[3].as_f64().unwrap_or(0.0),
        rows: d[4].as_f64().unwrap_or(0.0),
        prepared: d[5].as_f64().unwrap_or(0.0),
        thread: match (sched_before, sched_after) {
            (Some(b), Some(a)) => Some((a.0 - b.0, a.1 - b.1)),
            _ => None,
        },
    });
    Ok(())
}

/// Moves the menu's cursor (unmeasured) to the row naming `label`, then opens it (measured).
fn open_row(
    page: &Session,
    thread: Option<&PageThread>,
    label: &'static str,
    out: &mut Vec<Timed>,
) -> Result<()> {
    for _ in 0..20 {
        let screen = page.screen()?;
        if screen.lines().any(|l| l.contains('▸') && l.contains(label)) {
            return timed_press(page, thread, char::from(Key::Enter), label, out);
        }
        page.press(&[Key::Down])?;
        std::thread::sleep(Duration::from_millis(50));
    }
    Err(Error::new(format!("no menu row {label:?}")))
}

/// Walks through whole-screen changes with `?timing=1` (the page forces the browser's style and layout after each
/// redraw, so `parlorFrameMs()` counts them in) `walks` times and prints what the keys took, in all and per screen.
fn whole_screens(page: &Session, walks: usize) -> Result<()> {
    page.open("timing=1&seed=3")?;
    page.fresh_start()?;
    page.wait_text("New game: 2048")?;
    let backend = page.eval_string("return String(window.parlorBackend);")?;
    let thread = PageThread::find(page)?;
    let thread = thread.as_ref();
    let (enter, escape) = (char::from(Key::Enter), char::from(Key::Escape));
    let game: [Step; 8] = [
        (enter, "2048 setup"),
        (enter, "2048 new game"),
        ('?', "help on"),
        (escape, "help off"),
        ('r', "new game? asked"),
        ('y', "new game"),
        ('q', "menu"),
        ('?', "menu help on"),
    ];
    let mut out = Vec::new();
    for _ in 0..walks {
        for (key, what) in game {
            timed_press(page, thread, key, what, &mut out)?;
        }
        timed_press(page, thread, escape, "menu help off", &mut out)?;
        open_row(page, thread, "Statistics", &mut out)?;
        timed_press(page, thread, escape, "menu", &mut out)?;
        open_row(page, thread, "History", &mut out)?;
        timed_press(page, thread, escape, "menu", &mut out)?;
        for _ in 0..20 {
            let screen = page.screen()?;
            if screen
                .lines()
                .any(|l| l.contains('▸') && l.contains("2048"))
            {
                break;
            }
            page.press(&[Key::Up])?;
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let mut frames: Vec<f64> = out.iter().map(|r| r.ms).collect();
    let over = frames.iter().filter(|ms| **ms > 16.0).count();
    let (median, max) = median_max(&mut frames);
    let p90 = frames[(frames.len() * 9 / 10).min(frames.len() - 1)];
    println!(
        "backend {backend}, parlorFrameMs() with layout: {} keys, median {median:.1} ms, 90th percentile {p90:.1} ms, \
         max {max:.1} ms, {over} over 16 ms (target: at most 16 ms)",
        out.len()
    );
    for (i, name) in [
        "wait (the keydown waiting for the page's thread)",
        "handle (the app taking the key)",
        "render (the screens into the buffer)",
        "flush (the document written)",
        "layout (the browser's style and layout)",
    ]
    .iter()
    .enumerate()
    {
        let mut part: Vec<f64> = out
            .iter()
            .map(|r| r.parts[i])
            .filter(|v| v.is_finite())
            .collect();
        let (median, max) = median_max(&mut part);
        println!("  {name}: median {median:.1} ms, max {max:.1} ms");
    }
    let mut screens: Vec<&str> = Vec::new();
    for r in &out {
        if !screens.contains(&r.what.as_str()) {
            screens.push(&r.what);
        }
    }
    // Which keys showed the prepared layer instead of writing rows.
    let layered: Vec<bool> = out
        .iter()
        .enumerate()
        .map(|(i, r)| r.layers > if i == 0 { 0.0 } else { out[i - 1].layers })
        .collect();
    for screen in screens {
        let shown = out
            .iter()
            .zip(&layered)
            .filter(|(r, l)| r.what == screen && **l)
            .count();
        let mut frames: Vec<f64> = out
            .iter()
            .filter(|r| r.what == screen)
            .map(|r| r.ms)
            .collect();
        let over = frames.iter().filter(|ms| **ms > 16.0).count();
        let n = frames.len();
        let (median, max) = median_max(&mut frames);
        // Keys shown on a kept sheet (another than the last key's), and how many of them wrote no row.
        let on_sheet: Vec<&Timed> = out
            .iter()
            .enumerate()
            .filter(|(i, r)| {
                r.what == screen && r.sheets > if *i == 0 { 0.0 } else { out[i - 1].sheets }
            })
            .map(|(_, r)| r)
            .collect();
        let mut layer = if shown > 0 {
            format!(", {shown} by the prepared layer")
        } else {
            String::new()
        };
        if !on_sheet.is_empty() {
            let unwritten = on_sheet.iter().filter(|r| r.rows == 0.0).count();
            let mut rows: Vec<f64> = on_sheet.iter().map(|r| r.rows).collect();
            layer.push_str(&format!(
                ", {} on a kept sheet ({unwritten} writing no row; rows written: median {:.0})",
                on_sheet.len(),
                median_max(&mut rows).0
            ));
        }
        // Of those, the keys shown on a sheet prepared in idle time for them (the menu's Enter, the setup's).
        let prepared = out
            .iter()
            .enumerate()
            .filter(|(i, r)| {
                r.what == screen && r.prepared > if *i == 0 { 0.0 } else { out[i - 1].prepared }
            })
            .count();
        if prepared > 0 {
            layer.push_str(&format!(", {prepared} from a prepared sheet"));
        }
        // The median of each part of this screen's keys.
        let part = |i: usize| {
            let mut v: Vec<f64> = out
                .iter()
                .filter(|r| r.what == screen)
                .map(|r| r.parts[i])
                .filter(|v| v.is_finite())
                .collect();
            median_max(&mut v).0
        };
        // The median of a field of this screen's keys' log entries (the flush's split, when the key wrote rows).
        let logged = |name: &str| {
            let mut v: Vec<f64> = out
                .iter()
                .filter(|r| r.what == screen)
                .map(|r| field(&r.entry, name))
                .filter(|v| v.is_finite())
                .collect();
            if v.is_empty() {
                f64::NAN
            } else {
                median_max(&mut v).0
            }
        };
        let layer = format!(
            "{layer} (medians: wait {:.1}, handle {:.1}, render {:.1}, flush {:.1} = pick {:.1} + html {:.1} + write {:.1} + the rest, \
             layout {:.1})",
            part(0),
            part(1),
            part(2),
            part(3),
            logged("pick"),
            logged("html"),
            logged("write"),
            part(4)
        );
        println!(
            "  {screen:<16} {n:>3} keys, median {median:>5.1} ms, max {max:>5.1} ms, {over} over 16 ms{layer}"
        );
    }
    let log = page.eval("return window.parlorLog || [];")?;
    let log = log.as_array().cloned().unwrap_or_default();
    attribute_waits(&out, &log);
    out.sort_by(|a, b| b.ms.total_cmp(&a.ms));
    let slowest: Vec<String> = out
        .iter()
        .take(5)
        .map(|r| format!("{} {:.1}", r.what, r.ms))
        .collect();
    println!("the slowest five: {} ms", slowest.join(", "));
    Ok(())
}

/// A number field of a log entry, NaN when missing.
fn field(entry: &serde_json::Value, name: &str) -> f64 {
    entry
        .get(name)
        .and_then(serde_json::Value::as_f64)
        .unwrap_or(f64::NAN)
}

/// How long `[from, to]` and an entry's `[start, end]` overlap, ms (0 when they do not).
fn overlap(entry: &serde_json::Value, from: f64, to: f64) -> f64 {
    let (s, e) = (field(entry, "start"), field(entry, "end"));
    if s.is_finite() && e.is_finite() {
        (e.min(to) - s.max(from)).max(0.0)
    } else {
        0.0
    }
}

/// Keys whose wait for the page's thread is at least this long are explained one by one (ms), as is every key over
/// 16 ms.
const WAIT_SHOWN_MS: f64 = 4.0;

/// Prints what the page's thread was doing while keys waited for it: in all (the waits' sum, and how much of it
/// the page's own help warm-up slices and app ticks overlapped), and for each key over 16 ms or whose wait was at
/// least [`WAIT_SHOWN_MS`]: the page's log entries (`warm`, `tick`, the browser's long animation frames `loaf`)
/// overlapping its wait, the animation frame that ran last before it, the page's thread's CPU and run-queue wait
/// over the press (`/proc`'s `schedstat`; a wait there is another process holding the CPU), and the browser's own
/// record of the key event (`event`: input delay and time to the next paint) when it was slow.
fn attribute_waits(out: &[Timed], log: &[serde_json::Value]) {
    let kind = |e: &serde_json::Value, k: &str| e.get("kind").and_then(|v| v.as_str()) == Some(k);
    let text = |e: &serde_json::Value, k: &str| {
        e.get(k)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let (mut waits, mut by_warm, mut by_tick, mut by_loaf) = (0.0, 0.0, 0.0, 0.0);
    for r in out {
        let (stamp, start) = (field(&r.entry, "stamp"), field(&r.entry, "start"));
        if !(stamp.is_finite() && start.is_finite()) {
            continue;
        }
        waits += start - stamp;
        for e in log {
            let o = overlap(e, stamp, start);
            if kind(e, "warm") {
                by_warm += o;
            } else if kind(e, "tick") {
                by_tick += o;
            } else if kind(e, "loaf") {
                by_loaf += o;
            }
        }
    }
    let warms: Vec<f64> = log
        .iter()
        .filter(|e| kind(e, "warm") && !text(e, "what").starts_with("put off"))
        .map(|e| field(e, "end") - field(e, "start"))
        .collect();
    let put_off = |why: &str| {
        log.iter()
            .filter(|e| kind(e, "warm") && text(e, "what").ends_with(why))
            .count()
    };
    let mut lefts: Vec<f64> = log
        .iter()
        .filter(|e| kind(e, "warm"))
        .map(|e| field(e, "left"))
        .filter(|v| v.is_finite())
        .collect();
    let (left_median, left_max) = median_max(&mut lefts);
    let mut sorted = warms.clone();
    let (median, max) = median_max(&mut sorted);
    println!(
        "  waits: {waits:.1} ms in all over {} keys; overlapped by the help warm-up {by_warm:.1} ms, by the app's \
         ticks {by_tick:.1} ms, by the browser's long animation frames {by_loaf:.1} ms",
        out.len()
    );
    println!(
        "  help warm-up: {} slices run (median {median:.1} ms, max {max:.1} ms); idle periods put off: {} with \
         input pending, {} too short (the idle time given: median {left_median:.1} ms, max {left_max:.1} ms)",
        warms.len(),
        put_off("input pending"),
        put_off("idle too short"),
    );
    let unused: Vec<String> = log
        .iter()
        .filter(|e| kind(e, "layer"))
        .map(|e| {
            format!(
                "{} ({} rows ready, {} cells differ)",
                text(e, "what"),
                field(e, "rows"),
                field(e, "differ")
            )
        })
        .collect();
    if !unused.is_empty() {
        println!(
            "  whole screens written while a prepared layer was there (why it was not shown): {}",
            unused.join("; ")
        );
    }
    let notes: Vec<String> = log
        .iter()
        .filter(|e| kind(e, "note"))
        .map(|e| text(e, "what"))
        .collect();
    if !notes.is_empty() {
        println!("  the page noted: {}", notes.join("; "));
    }
    for r in out {
        let (stamp, start) = (field(&r.entry, "stamp"), field(&r.entry, "start"));
        // A page without the log (an older build) still has the wait in its split of the key.
        let wait = if (start - stamp).is_finite() {
            start - stamp
        } else {
            r.parts[0]
        };
        if !(r.ms > 16.0 || wait >= WAIT_SHOWN_MS) {
            continue;
        }
        let mut during = Vec::new();
        for e in log {
            let o = overlap(e, stamp - 0.5, start);
            if o > 0.0 && !kind(e, "key") && !kind(e, "event") {
                during.push(format!(
                    "{} {:?} {:.1} ms (from {:+.1})",
                    text(e, "kind"),
                    text(e, "what"),
                    field(e, "end") - field(e, "start"),
                    field(e, "start") - stamp
                ));
            }
        }
        let frame = field(&r.entry, "frameRan") - stamp;
        // A thread that ran less than the key's own handler is not the page's (the renderer was not the one found).
        let own = r.parts[1..4].iter().filter(|v| v.is_finite()).sum::<f64>();
        let thread = match r.thread {
            Some((cpu, queued)) if cpu + 0.5 >= own => {
                format!(
                    "page's thread over the press: {cpu:.1} ms CPU, {queued:.1} ms waiting for a CPU"
                )
            }
            Some((cpu, _)) => format!(
                "the thread read ran {cpu:.1} ms over the press, less than the key's own work: not the page's"
            ),
            None => "the page's thread not found".to_string(),
        };
        let event = log
            .iter()
            .find(|e| kind(e, "event") && (field(e, "start") - stamp).abs() < 1.0)
            .map(|e| {
                format!(
                    "; the browser: input delay {:.1} ms, to the next paint {:.1} ms",
                    field(e, "processing") - field(e, "start"),
                    field(e, "end") - field(e, "start")
                )
            })
            .unwrap_or_default();
        println!(
            "  {} {:.1} ms: waited {wait:.1} ms; during the wait: {}; last animation frame ran {frame:+.1} ms from the \
             key; handle {:.1}, render {:.1}, flush {:.1}, layout {:.1} ms; {thread}{event}",
            r.what,
            r.ms,
            if during.is_empty() {
                "nothing of the page's".to_string()
            } else {
                during.join(", ")
            },
            r.parts[1],
            r.parts[2],
            r.parts[3],
            r.parts[4],
        );
    }
}

/// The page's main thread in its renderer process (Linux: `/proc`), found as the renderer whose main thread ran
/// during one warm-up run of a workload; its CPU time is read from `schedstat`.
struct PageThread {
    schedstat: PathBuf,
}

impl PageThread {
    /// The main threads of every Chromium renderer on the machine, by pid.
    fn renderers() -> Vec<PathBuf> {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        dir.filter_map(|e| e.ok())
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .chars()
                    .all(|c| c.is_ascii_digit())
            })
            .filter(|e| {
                std::fs::read(e.path().join("cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains("--type=renderer"))
            })
            .map(|e| {
                let pid = e.file_name();
                e.path().join("task").join(&pid).join("schedstat")
            })
            .collect()
    }

    /// The thread, after one warm-up run of the Mastermind workload; `None` off Linux.
    fn find(page: &Session) -> Result<Option<PageThread>> {
        let before: Vec<(PathBuf, f64)> = Self::renderers()
            .into_iter()
            .filter_map(|p| Some((p.clone(), cpu_ms(&p)?)))
            .collect();
        page.bench("mastermind-optimal")?;
        Ok(before
            .into_iter()
            .filter_map(|(p, b)| Some((cpu_ms(&p)? - b, p)))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, schedstat)| PageThread { schedstat }))
    }

    /// The thread's CPU time so far, ms.
    fn cpu_ms(&self) -> Option<f64> {
        cpu_ms(&self.schedstat)
    }

    /// The thread's CPU time and its time runnable but waiting for a CPU so far, ms.
    fn sched(&self) -> Option<(f64, f64)> {
        let text = std::fs::read_to_string(&self.schedstat).ok()?;
        let mut fields = text.split_whitespace();
        let run: f64 = fields.next()?.parse().ok()?;
        let queued: f64 = fields.next()?.parse().ok()?;
        Some((run / 1e6, queued / 1e6))
    }
}

/// The CPU time in a `schedstat` file, ms.
fn cpu_ms(schedstat: &Path) -> Option<f64> {
    let text = std::fs::read_to_string(schedstat).ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e6)
}
