//! What an installed `parlor` carries beside the games, through the real binary: shell completions, the manual page
//! and the version text.

mod common;
use common::{err, out};
use std::process::{Command, Output};

/// Runs the binary with `args` (no data directory is touched by these commands).
fn parlor(args: &[&str]) -> Output {
    Command::new(common::BIN)
        .args(args)
        .output()
        .expect("run parlor")
}

/// The commands every completion script and the manual page must know.
const COMMANDS: &[&str] = &[
    "2048",
    "mastermind",
    "nocca",
    "history",
    "scores",
    "replay",
    "data-dir",
    "completions",
    "man",
];

#[test]
fn completions_for_each_shell_know_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = parlor(&["completions", shell]);
        assert!(o.status.success(), "{shell}: {}", err(&o));
        let script = out(&o);
        assert!(script.len() > 1000, "{shell}: script too short:\n{script}");
        for c in COMMANDS {
            assert!(script.contains(c), "{shell} script does not mention {c}");
        }
        // Flags of subcommands are there too, not just the top level (fish names long flags `-l seed`).
        let seed = if shell == "fish" { "-l seed" } else { "--seed" };
        assert!(script.contains(seed), "{shell}: no {seed}");
    }
    assert!(out(&parlor(&["completions", "bash"])).contains("complete -F _parlor"));
    assert!(out(&parlor(&["completions", "zsh"])).starts_with("#compdef parlor"));
    assert!(out(&parlor(&["completions", "fish"])).contains("complete -c parlor"));
}

#[test]
fn completions_refuse_an_unknown_shell() {
    let o = parlor(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("invalid value 'tcsh'"), "{}", err(&o));
    assert!(out(&o).is_empty());
}

#[test]
fn man_prints_a_roff_page() {
    let o = parlor(&["man"]);
    assert!(o.status.success(), "{}", err(&o));
    let page = out(&o);
    assert!(
        page.starts_with(".ie \\n(.g .ds Aq"),
        "roff preamble:\n{page}"
    );
    assert!(page.contains("\n.TH parlor 1 "), "title line:\n{page}");
    for section in [
        ".SH NAME",
        ".SH SYNOPSIS",
        ".SH DESCRIPTION",
        ".SH OPTIONS",
        ".SH SUBCOMMANDS",
        ".SH VERSION",
    ] {
        assert!(page.contains(section), "no {section}");
    }
    for c in COMMANDS {
        assert!(
            page.contains(&format!("parlor\\-{}", c.replace('-', "\\-"))),
            "no {c}"
        );
    }
    assert!(
        page.contains("\\-\\-no\\-mouse"),
        "the global flags are listed"
    );
}

#[test]
fn man_dir_writes_one_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let o = parlor(&["man", "--dir", dir.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).is_empty());
    for name in [
        "parlor.1",
        "parlor-2048.1",
        "parlor-mastermind.1",
        "parlor-nocca.1",
        "parlor-history.1",
    ] {
        let page = std::fs::read_to_string(dir.path().join(name)).unwrap_or_default();
        assert!(page.contains(".TH "), "{name} is not a man page");
    }
}

/// `version = "..."` of a manifest's `[package]`, or of the workspace when it says `version.workspace = true`.
fn manifest_version(crate_dir: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/crates/{crate_dir}/Cargo.toml")).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("version"))
        .expect("a version line");
    if line.starts_with("version.workspace") {
        let ws = std::fs::read_to_string(format!("{root}/Cargo.toml")).unwrap();
        let after = &ws[ws.find("[workspace.package]").unwrap()..];
        let l = after.lines().find(|l| l.starts_with("version")).unwrap();
        return l.split('"').nth(1).unwrap().to_string();
    }
    line.split('"').nth(1).unwrap().to_string()
}

#[test]
fn version_names_the_engines_and_the_build() {
    let o = parlor(&["--version"]);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(format!("parlor {}", env!("CARGO_PKG_VERSION")).as_str())
    );
    let engines = format!(
        "engines: twenty48 {}, mastermind {}, nocca {}",
        manifest_version("twenty48"),
        manifest_version("mastermind"),
        manifest_version("nocca")
    );
    assert_eq!(lines.next(), Some(engines.as_str()));
    let build = lines.next().unwrap_or_default();
    // This test binary's parlor is built with the test profile: whatever it is, the line must say it.
    let expected_checks = if cfg!(debug_assertions) {
        "debug assertions on"
    } else {
        "debug assertions off"
    };
    assert!(
        build.starts_with("build: optimised (opt-level ")
            || build.starts_with("build: not optimised (opt-level 0"),
        "{build}"
    );
    assert!(build.ends_with(&format!("{expected_checks})")), "{build}");
    // -V stays one line.
    assert_eq!(
        out(&parlor(&["-V"])),
        format!("parlor {}\n", env!("CARGO_PKG_VERSION"))
    );
}
