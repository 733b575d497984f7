//! `--first-screen`: the weight of a first game and its first screen, the CPU as it is and throttled 4x.

use crate::{LOADS, gzip_len, median_max};
use parlor_web_e2e::{Error, Result, Session};
use std::path::Path;

/// `--first-screen`: the weight of everything a first game needs (gzip -9), and the first screen
/// (`parlorFirstDrawMs`, from the navigation's start) over fresh loads without the service worker (`?sw=0`: every
/// file fetched and the wasm compiled each time), with the CPU as it is and throttled 4x through the DevTools
/// protocol (`Emulation.setCPUThrottlingRate`).
pub(crate) fn first_screen(site: &Path) -> Result<()> {
    weight(site)?;
    first_loads(site)
}

/// Prints the weight of every file a first game loads, raw and with `gzip -9`, and their total.
fn weight(site: &Path) -> Result<()> {
    println!("\n## Page weight of a first game");
    let mut total_gz = 0;
    for name in [
        "parlor_web_bg.wasm",
        "parlor_web.js",
        "index.html",
        "worker.js",
        "sw.js",
        "manifest.webmanifest",
        "icon.svg",
    ] {
        let bytes = std::fs::read(site.join(name))
            .map_err(|e| Error::new(format!("reading {name}: {e}")))?;
        let gz = gzip_len(&bytes)?;
        total_gz += gz;
        println!("{name:<22} {:>10} B raw {:>10} B gzip -9", bytes.len(), gz);
    }
    println!(
        "{:<22} {:>10.2} MB gzip -9 (target: at most 2.5 MB)",
        "total",
        total_gz as f64 / 1e6
    );
    Ok(())
}

/// The first screen over fresh loads, the CPU as it is and throttled 4x.
fn first_loads(site: &Path) -> Result<()> {
    let page = Session::launch("web-figures", site)?;
    for rate in [1.0, 4.0] {
        page.cdp(
            "Emulation.setCPUThrottlingRate",
            serde_json::json!({ "rate": rate }),
        )?;
        let mut firsts = Vec::new();
        for _ in 0..LOADS {
            page.open("sw=0")?;
            firsts.push(page.first_draw_ms()?);
        }
        let (median, max) = median_max(&mut firsts);
        println!(
            "CPU x{rate}: parlorFirstDrawMs median {median:.0} ms, max {max:.0} ms over {LOADS} loads (target at x4: at most 1500 ms)"
        );
    }
    Ok(())
}
