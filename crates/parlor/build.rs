//! Gives `parlor --version` what it cannot know otherwise: how the build was optimised (`PARLOR_BUILD`). The game
//! engines' versions come from the games themselves (each engine crate's `VERSION`).

fn main() {
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
    println!("cargo:rustc-env=PARLOR_BUILD={optimised} (opt-level {opt}, {checks})");
    println!("cargo:rerun-if-changed=build.rs");
}
