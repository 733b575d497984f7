//! The house reads top down (docs/ARCHITECTURE.md): the program's top, the registry, the game folders, the front
//! ends, the settings, the mid end, storage, and the machine's services; no file imports a room above its own or a
//! sibling front end, outside its tests.

use std::path::Path;

/// Every room of `crates/parlor/src` and its floor (higher imports lower).
const ROOMS: &[(&str, u8)] = &[
    ("terminal_app", 9),
    ("registry", 8),
    ("online", 8),
    ("games", 7),
    ("cli", 6),
    ("tui", 5),
    ("plain", 5),
    ("settings", 4),
    ("mid", 3),
    ("storage", 2),
    ("host", 1),
    ("figures", 1),
    ("input", 1),
    ("paths", 1),
];

fn floor(room: &str) -> Option<u8> {
    ROOMS.iter().find(|(r, _)| *r == room).map(|&(_, f)| f)
}

/// The rooms a line names through `crate::room` or `crate::{room, ...}`.
fn named_rooms(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in line.match_indices("crate::") {
        let rest = &line[i + "crate::".len()..];
        let names: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => group
                .split('}')
                .next()
                .unwrap_or("")
                .split(',')
                .map(|n| n.trim().split("::").next().unwrap_or(""))
                .collect(),
            None => vec![
                rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .next()
                    .unwrap_or(""),
            ],
        };
        out.extend(
            names
                .into_iter()
                .filter(|n| !n.is_empty())
                .map(str::to_string),
        );
    }
    out
}

#[test]
fn no_import_runs_back_up_and_front_ends_do_not_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    crate::common::walk_rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    let mut read = 0;
    for path in &files {
        let rel = path.strip_prefix(&src).unwrap();
        let first = rel.iter().next().unwrap().to_string_lossy();
        let room = first.trim_end_matches(".rs");
        let name = rel.file_name().unwrap().to_string_lossy();
        if room == "lib" || room == "main" || name.ends_with("tests.rs") {
            continue;
        }
        let here = floor(room)
            .unwrap_or_else(|| panic!("{} is in no room: add it to ROOMS", rel.display()));
        let text = std::fs::read_to_string(path).unwrap();
        read += 1;
        for (n, line) in text.lines().enumerate() {
            // The tests at the end of a file may use anything.
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            if line.trim_start().starts_with("//") {
                continue;
            }
            for other in named_rooms(line) {
                let Some(there) = floor(&other) else { continue };
                if other != room && there >= here {
                    wrong.push(format!(
                        "{}:{}: {room} imports {other}: {}",
                        rel.display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(read > 50, "only {read} source files read");
    assert!(
        wrong.is_empty(),
        "imports that run back up or sideways:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_check_sees_an_import_in_each_form() {
    assert_eq!(named_rooms("use crate::tui::keys::Binding;"), ["tui"]);
    assert_eq!(
        named_rooms("use crate::{cli, menu_view, tui};"),
        ["cli", "menu_view", "tui"]
    );
    assert_eq!(named_rooms("let x = crate::mid::find(g, n);"), ["mid"]);
    assert!(named_rooms("let crate_name = 1;").is_empty());
}
