//! No source file of the workspace has over [`MOST`] lines of code outside tests and data tables (issue 51): a file
//! that grows past it mixes topics and splits by topic, as `crates/mastermind/src/optimal/` did.
//!
//! The rule, over every `crates/*/src/**/*.rs`:
//! - A line of code is a line that is neither blank nor only a comment: lines whose text starts with `//` (doc
//!   comments included) and the lines of a `/* ... */` block with nothing after its end are not counted.
//! - Tests are not counted: files of tests (named `tests.rs` or `*_tests.rs`) are left out, and in other files a
//!   top-level `#[cfg(test)]` module (from the attribute to the `}` that closes it in the first column, as rustfmt
//!   writes it).
//! - Data tables (a file that is a literal table, listed in [`DATA_TABLES`]) are left out.

use std::path::Path;

/// The most lines of code a source file may have.
const MOST: usize = 800;

/// Files that are data tables (paths from the workspace root), exempt from [`MOST`]. None today.
const DATA_TABLES: &[&str] = &[];

/// Whether `path` is a file of tests by its name.
fn is_test_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n == "tests.rs" || n.ends_with("_tests.rs"))
}

/// The lines of code of a source text, by the rule of this module.
fn lines_of_code(text: &str) -> usize {
    let mut count = 0;
    let mut in_block = false;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.starts_with("mod ") && next.ends_with('{'))
        {
            // A top-level test module: skipped to its closing brace in the first column.
            for inner in lines.by_ref() {
                if inner == "}" {
                    break;
                }
            }
            continue;
        }
        let mut s = line.trim();
        if in_block {
            match s.find("*/") {
                Some(end) => {
                    in_block = false;
                    s = s[end + 2..].trim();
                }
                None => continue,
            }
        }
        if s.is_empty() || s.starts_with("//") {
            continue;
        }
        if let Some(rest) = s.strip_prefix("/*") {
            match rest.find("*/") {
                Some(end) if rest[end + 2..].trim().is_empty() => continue,
                Some(_) => {}
                None => {
                    in_block = true;
                    continue;
                }
            }
        }
        count += 1;
    }
    count
}

/// The rule counts code, not comments, blank lines or tests.
#[test]
fn the_count_leaves_out_comments_blank_lines_and_tests() {
    let text = "//! A module.\n\n/// A function.\nfn f() {\n    // a comment\n    /* a block */\n    g(); /* after */\n}\n\
                /*\n  many\n  lines\n*/\nconst A: u8 = 1;\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n";
    assert_eq!(
        lines_of_code(text),
        4,
        "fn f, g(), the closing brace, const A"
    );
    // A test module that is not at the top level, or not a module, counts.
    assert_eq!(
        lines_of_code("fn f() {\n    #[cfg(test)]\n    g();\n}\n"),
        4
    );
}

/// Every source file of every crate has at most [`MOST`] lines of code; the failure names each file over.
#[test]
fn no_source_file_is_over_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for krate in std::fs::read_dir(root.join("crates")).unwrap() {
        let src = krate.unwrap().path().join("src");
        if src.is_dir() {
            crate::common::walk_rust_files(&src, &mut files);
        }
    }
    assert!(
        files.len() > 100,
        "the walk found only {} source files under {}",
        files.len(),
        root.display()
    );
    files.sort();
    let mut over = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if is_test_file(path) || DATA_TABLES.contains(&rel.as_str()) {
            continue;
        }
        let n = lines_of_code(&std::fs::read_to_string(path).unwrap());
        if n > MOST {
            over.push(format!("{rel}: {n} lines of code"));
        }
    }
    assert!(
        over.is_empty(),
        "source files over {MOST} lines of code (split them by topic):\n{}",
        over.join("\n")
    );
}
