//! Prints the browser figures of BENCHMARKS.md ("The browser"): the page's weight (wasm and JS, raw and gzip -9),
//! its first screen (`parlorFirstDrawMs` over fresh loads), key to redraw (`parlorFrameMs()` over 50 key presses in
//! 2048), and the engines' speed in the page (`parlorBench`), with the machine's load before and after.
//!
//! `cargo run -p parlor-web-e2e --bin web-figures [-- --native]`: the page is `$PARLOR_WEB_DIR` or `target/web`;
//! `--native` also runs `cargo run --release -p parlor-web --example native_bench` and prints what it says, for the
//! ratio.

use flate2::Compression;
use flate2::write::GzEncoder;
use parlor_web_e2e::{Error, Key, Result, Session, workspace_root};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

const LOADS: usize = 5;
const PRESSES: usize = 50;
/// Runs of each workload (the first is cold: the engine's tables are built and the browser has only its baseline
/// compilation of the wasm; the best is what the page runs at once warm, as natively).
const RUNS: usize = 3;

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
    let native = std::env::args().any(|a| a == "--native");
    let site = site()?;
    println!("page: {}", site.display());
    println!("load average before: {}", load_average());

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

    println!("\n## Engines in the page (parlorBench)");
    for (name, what) in WORKLOADS {
        let mut times = Vec::new();
        for _ in 0..RUNS {
            times.push(page.bench(name)?);
        }
        let best = times.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "{name:<20} first {:>6.0} ms, best of {RUNS} {best:>6.0} ms  ({what})",
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

fn gzip_len(bytes: &[u8]) -> Result<usize> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(bytes)?;
    Ok(gz.finish()?.len())
}

fn median_max(values: &mut [f64]) -> (f64, f64) {
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
