//! The crate's public surface stays small: at most [`MAX_PUBLIC_ITEMS`] public declarations in `src/`.
//!
//! The count is a plain scan of the source, not of the compiled API (rustdoc's JSON output is unstable): every line
//! that declares an item `pub` (a `fn`, `struct`, `enum`, `trait`, `type`, `const`, `static`, `mod` or `union`,
//! `unsafe fn` included), outside `pub(crate)` and `pub(super)`, outside test modules (`#[cfg(test)] mod tests`, and
//! the files `tests.rs` and `*_tests.rs`). Struct fields, enum variants and `pub use` re-exports are not counted
//! (a re-export names an item counted where it is declared). An item declared `pub` inside a private module counts
//! too: it should then be `pub(crate)`.

use std::path::{Path, PathBuf};

/// The most public declarations the crate may have.
const MAX_PUBLIC_ITEMS: usize = 250;

/// The kinds of item counted.
const KINDS: [&str; 9] = [
    "fn", "struct", "enum", "trait", "type", "const", "static", "mod", "union",
];

/// Whether `line` declares a public item.
fn declares_public_item(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix("pub ") else {
        return false;
    };
    let rest = rest.strip_prefix("unsafe ").unwrap_or(rest);
    let word = rest.split_whitespace().next().unwrap_or("");
    KINDS.contains(&word)
}

/// The public declarations of one source file, with their line numbers.
fn public_items(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let test_module = line.trim() == "#[cfg(test)]"
            && lines
                .get(i + 1)
                .is_some_and(|next| next.trim().starts_with("mod tests"));
        if test_module {
            break;
        }
        if declares_public_item(line) {
            out.push((i + 1, line.trim().to_string()));
        }
    }
    out
}

/// Every `.rs` file under `dir`, test files left out.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            sources(&path, out);
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_scan_counts_public_declarations_only() {
    let text = "pub fn a() {}\npub(crate) fn b() {}\n    pub struct C {\n        pub field: u8,\n    }\n\
                pub use x::Y;\npub unsafe fn d() {}\npub mod e;\npub(super) const F: u8 = 0;\n\
                #[cfg(test)]\nmod tests {\n    pub fn g() {}\n}\n";
    let found: Vec<usize> = public_items(text).into_iter().map(|(n, _)| n).collect();
    assert_eq!(found, vec![1, 3, 7, 8]);
}

#[test]
fn public_items_stay_within_the_limit() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 10, "the sources were not found");
    let mut total = 0;
    let mut per_file = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let n = public_items(&text).len();
        total += n;
        per_file.push((n, path.strip_prefix(&src).unwrap().display().to_string()));
    }
    per_file.sort_by(|a, b| b.cmp(a));
    assert!(
        total <= MAX_PUBLIC_ITEMS,
        "{total} public items in crates/twenty48/src, at most {MAX_PUBLIC_ITEMS}; the most: {:?}",
        &per_file[..per_file.len().min(10)]
    );
}
