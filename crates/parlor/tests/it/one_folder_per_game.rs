//! One folder per game: no generic source file names a game.
//!
//! The rule: every `.rs` file of `crates/parlor/src` outside `games/` and `registry.rs` is generic, and its code
//! (string literals included, test modules included) names no game: not its type (`Twenty48`, `Mastermind`,
//! `Nocca`, or a name made from them such as `DailyMastermind`), not its crate or folder (`twenty48::`,
//! `mastermind::`, `nocca::`, `games::nocca`), not its id (`"2048"`, `"mastermind"`, `"nocca"`). Comments and doc
//! comments may name a game, as an example only. A generic file reaches games through the registry
//! (`registry.rs`) and the game traits (`mid/game.rs`, `tui/game.rs`); a game's own code lives in
//! `games/<game>/`. docs/ARCHITECTURE.md states the same rule.
//!
//! [`NOT_YET_MOVED`] lists the generic files that still name a game, each with what is left: the test fails on
//! a game named in any other file (naming the file and the line), and on a listed file that no longer names one
//! (so the list only shrinks). The page's crate (`crates/web/src`) is walked by the same rule: its games' own
//! part (boards, the faces' registry, the engines' workloads) lives in its `games/`, and everything else there (the
//! faces, the worker, the online client, the store) names no game.

use std::path::Path;

/// Generic files that still name a game, and why: none (the list only shrinks; a file that must name a game
/// belongs in `games/<game>/`).
const NOT_YET_MOVED: &[(&str, &str)] = &[];

/// What names a game in code.
const NAMES: &[&str] = &[
    "Twenty48",
    "Mastermind",
    "Nocca",
    "twenty48",
    "mastermind",
    "nocca",
    "\"2048\"",
];

/// The code of each line of `text` with its comments taken out (`//` outside string literals; a string may run
/// over several lines).
fn code_lines(text: &str) -> Vec<String> {
    let mut in_string = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let chars: Vec<char> = line.chars().collect();
        let mut code = String::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if in_string {
                code.push(c);
                if c == '\\' {
                    if let Some(&n) = chars.get(i + 1) {
                        code.push(n);
                    }
                    i += 2;
                    continue;
                }
                if c == '"' {
                    in_string = false;
                }
            } else if c == '/' && chars.get(i + 1) == Some(&'/') {
                break;
            } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
                // A character literal such as '"'.
                code.extend(&chars[i..i + 3]);
                i += 3;
                continue;
            } else if c == '\'' && chars.get(i + 1) == Some(&'\\') {
                // An escaped character literal such as '\''.
                let end = (i + 2..chars.len())
                    .find(|&j| chars[j] == '\'')
                    .unwrap_or(chars.len() - 1);
                code.extend(&chars[i..=end]);
                i = end + 1;
                continue;
            } else {
                code.push(c);
                if c == '"' {
                    in_string = true;
                }
            }
            i += 1;
        }
        out.push(code);
    }
    out
}

/// The lines of the generic files under `src` (every `.rs` file outside `games/` and `registry.rs`) that name a
/// game, as `crate/src/path:line: name: code`, and the number of generic files walked. `listed` files are left out
/// of the lines and returned apart when they name none.
fn named_in(src: &Path, label: &str, listed: &[(&str, &str)]) -> (Vec<String>, Vec<String>, usize) {
    let mut files = Vec::new();
    crate::common::walk_rust_files(src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    let mut clean_but_listed = Vec::new();
    let mut walked = 0;
    for path in &files {
        let rel = path
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("games/") || rel == "registry.rs" {
            continue;
        }
        walked += 1;
        let text = std::fs::read_to_string(path).unwrap();
        let named: Vec<String> = code_lines(&text)
            .iter()
            .enumerate()
            .filter_map(|(n, code)| {
                NAMES
                    .iter()
                    .find(|name| code.contains(*name))
                    .map(|name| format!("{label}/{rel}:{}: {name}: {}", n + 1, code.trim()))
            })
            .collect();
        let is_listed = listed.iter().any(|(f, _)| *f == rel);
        if is_listed && named.is_empty() {
            clean_but_listed.push(rel);
        } else if !is_listed {
            wrong.extend(named);
        }
    }
    (wrong, clean_but_listed, walked)
}

#[test]
fn no_generic_file_names_a_game() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (wrong, clean_but_listed, walked) = named_in(&src, "crates/parlor/src", NOT_YET_MOVED);
    assert!(
        walked > 50,
        "only {walked} generic files found under {src:?}"
    );
    assert!(
        wrong.is_empty(),
        "generic files name a game (move the code to games/<game>/ behind a trait method or a registry entry):\n{}",
        wrong.join("\n")
    );
    assert!(
        clean_but_listed.is_empty(),
        "these files name no game any more: take them out of NOT_YET_MOVED: {clean_but_listed:?}"
    );
}

/// The page's crate by the same rule: its `games/` holds each game's board, the faces' registry and the engines'
/// workloads; the faces, the worker (`think.rs`), the online client and the store name no game.
#[test]
fn no_generic_file_of_the_page_names_a_game() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/src");
    let (wrong, _, walked) = named_in(&src, "crates/web/src", &[]);
    assert!(
        walked > 30,
        "only {walked} generic files found under {src:?}"
    );
    assert!(
        src.join("games").is_dir() && src.join("think.rs").is_file(),
        "the page's games/ and its worker are where this test looks"
    );
    assert!(
        wrong.is_empty(),
        "generic files of the page name a game (move the code to crates/web/src/games/<game>/):\n{}",
        wrong.join("\n")
    );
}

/// The comment stripper keeps strings whole (a `//` inside one is text) and drops comments.
#[test]
fn comments_are_taken_out_and_strings_kept() {
    let code = code_lines(
        "let a = \"ws://x\"; // Nocca\nlet c = '\"'; let d = \"2048\";\n/// Mastermind\nlet e = \"a \\\" b // c\";",
    );
    assert_eq!(code[0], "let a = \"ws://x\"; ");
    assert_eq!(code[1], "let c = '\"'; let d = \"2048\";");
    assert_eq!(code[2], "");
    assert_eq!(code[3], "let e = \"a \\\" b // c\";");
}
