//! What an installed `parlor` carries beside the games, through the real binary: shell completions, the manual page
//! and the version text.

use crate::common;
use crate::common::{err, out};
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
        ".SH KEYS",
        ".SH FILES",
        ".SH ENVIRONMENT",
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
    for needed in [
        "PARLOR_DATA_DIR",
        "PARLOR_CONFIG_DIR",
        "PARLOR_2048_WEIGHTS",
        "NO_COLOR",
        "settings.toml",
    ] {
        assert!(page.contains(needed), "no {needed}");
    }
    // The version's three lines stay three lines once rendered: a break between each.
    let version = page.split(".SH VERSION\n").nth(1).unwrap_or_default();
    let lines: Vec<&str> = version.lines().collect();
    assert_eq!(lines.len(), 5, "{version}");
    assert!(
        lines[0].starts_with("parlor ") && lines[2].starts_with("engines: "),
        "{version}"
    );
    assert_eq!((lines[1], lines[3]), (".br", ".br"), "{version}");
    assert!(lines[4].starts_with("build: "), "{version}");
}

/// The README's recipe installs every page the manual names: run it (into a temporary directory) and find each
/// `parlor-COMMAND(1)` that parlor.1 refers to.
#[test]
fn the_readme_recipe_installs_every_page_the_manual_names() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let recipe = readme
        .lines()
        .find(|l| l.starts_with("parlor man "))
        .expect("README installs the manual");
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("man1");
    let args: Vec<String> = recipe
        .split('#')
        .next()
        .unwrap()
        .split_whitespace()
        .skip(1)
        .map(|w| {
            if w.starts_with('~') {
                target.display().to_string()
            } else {
                w.to_string()
            }
        })
        .collect();
    assert_eq!(args, ["man", "--dir", target.to_str().unwrap()], "{recipe}");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = parlor(&args);
    assert!(o.status.success(), "{}", err(&o));
    let main = std::fs::read_to_string(target.join("parlor.1")).unwrap();
    assert!(main.contains(".SH KEYS"), "parlor.1 is Parlor's own page");
    let mut named = 0;
    for line in main
        .lines()
        .filter(|l| l.starts_with("parlor\\-") && l.ends_with("(1)"))
    {
        let name = line["parlor\\-".len()..line.len() - 3].replace("\\-", "-");
        assert!(
            target.join(format!("parlor-{name}.1")).exists(),
            "parlor.1 names parlor-{name}(1), which the recipe does not install"
        );
        named += 1;
    }
    assert!(named >= 9, "only {named} pages named");
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
        "engines: parlor-2048 {}, parlor-mastermind {}, nocca {}",
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

/// What bash offers after `parlor WORDS...` with the cursor on the last word, with the generated script loaded
/// (and `complete -p parlor`, which shows the script registered itself).
fn bash_completes(words: &[&str]) -> (String, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("parlor.bash");
    std::fs::write(&script, out(&parlor(&["completions", "bash"]))).unwrap();
    // Files that a file-name completion would offer: none of them may come back.
    std::fs::write(dir.path().join("decoy-file"), "").unwrap();
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{}'; complete -p parlor; COMP_WORDS=(parlor {}); COMP_CWORD={}; COMP_LINE=\"${{COMP_WORDS[*]}}\"; \
         COMP_POINT=${{#COMP_LINE}}; _parlor parlor \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        words.len()
    );
    let o = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .current_dir(dir.path())
        .output()
        .expect("run bash");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let mut lines = text.lines();
    let registered = lines.next().unwrap_or_default().to_string();
    (registered, lines.map(str::to_string).collect())
}

/// Every option's values complete as words (`--level` its levels, `--board` the boards), never as file names; only
/// the options that take a path complete files.
#[test]
fn bash_completes_every_option_s_values_and_no_file_names() {
    let (registered, _) = bash_completes(&["--"]);
    assert!(
        registered.starts_with("complete ")
            && registered.contains("_parlor")
            && registered.ends_with(" parlor"),
        "{registered}"
    );
    for (words, expected) in [
        (
            &["nocca", "--level", ""][..],
            &["beginner", "casual", "strong", "expert", "perfect"][..],
        ),
        (&["nocca", "--mode", ""], &["two", "computer", "watch"]),
        (&["nocca", "--board", "4"], &["4x3", "4x4", "4x5"]),
        (&["nocca", "perft", "--board", "6"], &["6x3", "6x4", "6x5"]),
        (&["nocca", "solve", "3"], &["3x3", "3x4", "3x5"]),
        (&["nocca", "match", "--a", "s"], &["strong"]),
        (
            &["mastermind", "--variant", ""],
            &["seed", "classic", "super", "bulls-cows", "custom"],
        ),
        (&["mastermind", "--role", ""], &["breaker", "maker"]),
        (&["mastermind", "--secret-repeats", ""], &["yes", "no"]),
        (
            &["mastermind", "solve", "--strategy", "e"],
            &["expected-size", "entropy"],
        ),
        (
            &["mastermind", "solve", "--variant", "s"],
            &["seed", "super"],
        ),
        (
            &["mastermind", "feedback", "--guess-repeats", "y"],
            &["yes"],
        ),
        (&["2048", "--size", ""], &["3", "4", "5", "6", "7", "8"]),
        (&["2048", "--target", "20"], &["2048"]),
        (&["2048", "slide", "2,2", "l"], &["left"]),
        (&["2048", "auto", "--eval", ""], &["network", "heuristic"]),
        (&["history", "--game", ""], &["2048", "mastermind", "nocca"]),
        (&["scores", "--game", "n"], &["nocca"]),
        (&["stats", "--game", "m"], &["mastermind"]),
        (&["completions", "z"], &["zsh"]),
        (&["--theme", "h"], &["high-contrast"]),
    ] {
        let (_, offered) = bash_completes(words);
        let mut offered = offered;
        offered.sort();
        let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(offered, want, "parlor {}", words.join(" "));
    }
    // Numbers, seeds, codes and positions are typed: nothing is offered, file names least of all.
    for words in [
        &["2048", "--seed", ""][..],
        &["2048", "slide", ""],
        &["2048", "--four-chance", ""],
        &["2048", "auto", "--games", ""],
        &["mastermind", "feedback", ""],
        &["mastermind", "--colours", "1"],
        &["nocca", "perft", "--position", ""],
        &["replay", ""],
        &["history", "--limit", ""],
        &["scores", "--variant", ""],
    ] {
        let (_, offered) = bash_completes(words);
        assert!(
            !offered.iter().any(|w| w.contains("decoy")),
            "parlor {}: file names offered: {offered:?}",
            words.join(" ")
        );
    }
    // A path is still completed as one.
    let (_, offered) = bash_completes(&["2048", "train", "--checkpoint", "dec"]);
    assert_eq!(offered, ["decoy-file"]);
}

/// The zsh script (zsh itself need not be installed): every option that takes a value either lists its values, says
/// it takes no file (an empty action), or completes a path; `_default` (file names) is never the fallback.
#[test]
fn zsh_completes_every_option_s_values_and_no_file_names() {
    let script = out(&parlor(&["completions", "zsh"]));
    for (option, values) in [
        ("--level", "(beginner casual strong expert perfect)"),
        ("--mode", "(two computer watch)"),
        (
            "--board",
            "(3x3 3x4 3x5 4x3 4x4 4x5 5x3 5x4 5x5 6x3 6x4 6x5)",
        ),
        ("--variant", "(seed classic super bulls-cows custom)"),
        ("--role", "(breaker maker)"),
        (
            "--strategy",
            "(knuth knuth-sorted expected-size entropy most-parts optimal best)",
        ),
        ("--game", "(2048 mastermind nocca)"),
        ("--secret-repeats", "(yes no)"),
        ("--eval", "(network heuristic)"),
    ] {
        assert!(
            script.lines().any(
                |l| l.starts_with(&format!("'{option}=")) && l.contains(&format!(":{values}'"))
            ),
            "zsh: {option} does not complete {values}"
        );
    }
    assert!(
        !script.contains("_default"),
        "some option completes file names"
    );
    for line in script.lines().filter(|l| l.contains(":_files")) {
        // An option that excludes others is written `'(--other)--option=...'`: the option follows the group.
        let spec = line.trim_start_matches('\'');
        let spec = match spec.strip_prefix('(') {
            Some(rest) => rest.split_once(')').map_or(rest, |(_, option)| option),
            None => spec,
        };
        assert!(
            [
                "--data-dir=",
                "--config-dir=",
                "--ca-cert=",
                "--dir=",
                "--checkpoint=",
                "--log=",
                // `parlor serve`'s log file.
                "--log-file=",
                // The file of `parlor export` (optional) and `parlor import`.
                "::file -- ",
                ":file -- ",
            ]
            .iter()
            .any(|o| spec.starts_with(o)),
            "only paths complete files: {line}"
        );
    }
}
