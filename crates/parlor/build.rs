//! Gives `parlor --version` what it cannot know otherwise: the game engines' versions, read from their manifests
//! beside this crate (`PARLOR_ENGINES`), and how the build was optimised (`PARLOR_BUILD`).

use std::path::Path;

/// The `version` of a manifest's `section` (`[package]`), following `version.workspace = true` to the workspace's
/// `[workspace.package]`; `None` if it cannot be read.
fn version_in(manifest: &Path, section: &str) -> Option<String> {
    let text = std::fs::read_to_string(manifest).ok()?;
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == section;
        } else if inside && let Some(rest) = line.strip_prefix("version") {
            let rest = rest.trim_start();
            if rest.starts_with(".workspace") {
                let root = manifest.parent()?.parent()?.parent()?.join("Cargo.toml");
                return version_in(&root, "[workspace.package]");
            }
            let value = rest.strip_prefix('=')?.trim();
            return Some(value.trim_matches('"').to_string());
        }
    }
    None
}

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let engines: Vec<String> = ["twenty48", "mastermind", "nocca"]
        .iter()
        .map(|name| {
            let manifest = Path::new(&dir).join("..").join(name).join("Cargo.toml");
            println!("cargo:rerun-if-changed={}", manifest.display());
            let version = version_in(&manifest, "[package]").unwrap_or_else(|| "unknown".into());
            format!("{name} {version}")
        })
        .collect();
    let opt = std::env::var("OPT_LEVEL").unwrap_or_else(|_| "?".into());
    let optimised = if opt == "0" {
        "not optimised"
    } else {
        "optimised"
    };
    let checks = if std::env::var_os("CARGO_CFG_DEBUG_ASSERTIONS").is_some() {
        "debug assertions on"
    } else {
        "debug assertions off"
    };
    println!("cargo:rustc-env=PARLOR_ENGINES={}", engines.join(", "));
    println!("cargo:rustc-env=PARLOR_BUILD={optimised} (opt-level {opt}, {checks})");
    println!("cargo:rerun-if-changed=build.rs");
}
