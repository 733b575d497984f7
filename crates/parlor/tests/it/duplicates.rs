//! At most [`MOST`] pairs of places in `crates/parlor/src` share six or more lines of the same shape (issue 51): a
//! piece of logic written twice is written once, as a function, a helper, a macro or a table, so that a fix made in
//! one place cannot miss the other.
//!
//! The rule, over every `crates/parlor/src/**/*.rs` (tests inside it included):
//! - Each line is read as a row of tokens. Blank lines, comment-only lines (`//…`, and the lines of a `/* … */`
//!   block), imports (`use …;` to its `;`, `mod name;`) and lines that are only punctuation (braces, brackets,
//!   parentheses, `;` `,` `:` `.`) are passed over: they are not rows, and a run goes on across them.
//! - A row's shape is its tokens with every identifier written `x`, every string and character literal `s` and
//!   every number `0`; keywords and punctuation stay as written, white space and trailing comments go.
//! - A window is [`RUN`] consecutive rows. Two windows match when their rows are the same text, or when they have
//!   the same shapes and are substantial: at least [`TOKENS`] tokens and [`STATEMENTS`] statements. A statement is
//!   a row that starts with a statement keyword (`let`, `if`, `for`, `return`, …), assigns with a lone `=`, or has 8
//!   tokens or more; not an attribute `#[…]`, not a declaration that opens a block (`pub fn f(…) {`, `impl … {`),
//!   and not a row pairing two plain operands (a match arm `A::B => C::B,`, a field `base: pair(1, x),`). A shape
//!   alone is not enough for thin windows (struct fields, match tables, lists of short calls), which share shapes
//!   without sharing logic.
//! - A window that stands in more than [`COMMON`] places is an idiom of the language, not a repeat, and is left out.
//! - The matching windows of two places are merged while they overlap or touch on both sides, so that one pair of
//!   places (two line ranges, in two files or one) counts once however long their shared run. Two windows of one
//!   file that overlap each other never pair.
//!
//! The failure lists each pair as `file:first-last ~ file:first-last` (the lines of the shared run on each side).

use std::collections::BTreeMap;
use std::path::Path;

/// The most pairs of places that may share a run.
const MOST: usize = 10;

/// How many consecutive rows make a run.
const RUN: usize = 6;

/// The fewest tokens a window of rows needs to match by shape alone.
const TOKENS: usize = 24;

/// The fewest statements a window of rows needs to match by shape alone.
const STATEMENTS: usize = 2;

/// The most places a window may stand in before it is an idiom rather than a repeat.
const COMMON: usize = 8;

/// Keywords that start a statement.
const STATEMENT_WORDS: &[&str] = &[
    "let", "if", "for", "while", "loop", "return", "else", "break", "continue", "unsafe",
];

/// Keywords that start a declaration: a row of one that opens a block or a list is not a statement.
const DECLARATION_WORDS: &[&str] = &["pub", "impl", "struct", "enum", "trait", "union", "type"];

/// Rust's keywords: kept as written in a shape (every other word is an identifier).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while",
];

/// One counted line of a file.
#[derive(Debug)]
struct Row {
    /// Its line number, from 1.
    line: usize,
    /// Its text, white space folded.
    text: String,
    /// Its shape: the tokens with identifiers, literals and numbers replaced (see the module's rule).
    shape: String,
    /// How many tokens it has.
    tokens: usize,
    /// Whether it counts as a statement.
    statement: bool,
}

/// The tokens of a line of code, normalised: `x` for an identifier, `s` for a string or character literal, `0` for
/// a number, keywords and punctuation as written. A `//` comment ends the line; a string left open runs to its end.
fn shape_tokens(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            break;
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // `r"…"`, `r#"…"#` and `b"…"`: the prefix opens a string.
            if matches!(word.as_str(), "r" | "b" | "br") && matches!(chars.get(i), Some('"' | '#'))
            {
                let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
                if chars.get(i + hashes) == Some(&'"') {
                    i = string_end(&chars, i + hashes + 1, word != "b", hashes);
                    out.push("s".into());
                    continue;
                }
            }
            out.push(if KEYWORDS.contains(&word.as_str()) {
                word
            } else {
                "x".into()
            });
        } else if c.is_ascii_digit() {
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '.')
            {
                // `0..n`: a range, not a decimal point.
                if chars[i] == '.' && chars.get(i + 1) == Some(&'.') {
                    break;
                }
                i += 1;
            }
            out.push("0".into());
        } else if c == '"' {
            i = string_end(&chars, i + 1, false, 0);
            out.push("s".into());
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{…}'), else a lifetime's tick.
            let escaped = chars.get(i + 1) == Some(&'\\');
            let close = if escaped {
                chars[i + 2..]
                    .iter()
                    .position(|&c| c == '\'')
                    .map(|p| i + 2 + p)
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match close {
                Some(end) => {
                    out.push("s".into());
                    i = end + 1;
                }
                None => {
                    out.push("'".into());
                    i += 1;
                }
            }
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

/// Where a string whose text starts at `i` ends (just after its closing quote and `hashes` marks `#`), or the end of
/// the line for a string left open; a `raw` string has no escapes.
fn string_end(chars: &[char], mut i: usize, raw: bool, hashes: usize) -> usize {
    while i < chars.len() {
        if chars[i] == '"'
            && chars[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return i + 1 + hashes;
        }
        i += if chars[i] == '\\' && !raw { 2 } else { 1 };
    }
    chars.len()
}

/// Whether a row of these tokens is a statement (see the module's rule).
fn is_statement(tokens: &[String]) -> bool {
    let Some(first) = tokens.first() else {
        return false;
    };
    if first == "#" || is_pairing(tokens) {
        return false;
    }
    if STATEMENT_WORDS.contains(&first.as_str()) {
        return true;
    }
    // A lone `=`: not `==`, `<=`, `>=`, `!=` or `=>` (`+=` is an assignment too).
    let assigns = tokens.iter().enumerate().any(|(k, t)| {
        t == "="
            && tokens.get(k + 1).is_none_or(|n| n != "=" && n != ">")
            && (k == 0 || !matches!(tokens[k - 1].as_str(), "=" | "!" | "<" | ">"))
    });
    let opens = tokens
        .last()
        .is_some_and(|t| matches!(t.as_str(), "{" | "(" | ":"));
    if DECLARATION_WORDS.contains(&first.as_str()) && opens && !assigns {
        return false;
    }
    assigns || tokens.len() >= 8
}

/// Whether a row pairs two plain operands: `left => right`, `left: right` or `left -> right`, an optional `,` or
/// `;` after, each side a name, literal or path, or a call of one with plain arguments (a match arm, a field).
fn is_pairing(tokens: &[String]) -> bool {
    let mut t: Vec<&str> = tokens.iter().map(String::as_str).collect();
    if matches!(t.last(), Some(&("," | ";"))) {
        t.pop();
    }
    let plain = |side: &[&str]| -> bool {
        let word = |w: &str| {
            w == "s" || w == "0" || w.starts_with(|c: char| c.is_alphabetic() || c == '_')
        };
        let call = side.iter().position(|&w| w == "(");
        let (path, args) = match call {
            Some(open) if side.last() == Some(&")") => {
                (&side[..open], &side[open + 1..side.len() - 1])
            }
            Some(_) => return false,
            None => (side, &[][..]),
        };
        !path.is_empty()
            && path.iter().all(|&w| word(w) || w == ":" || w == ".")
            && args
                .iter()
                .all(|&w| word(w) || matches!(w, ":" | "." | ","))
    };
    (1..t.len()).any(|k| {
        let (sep, width) = match (t[k], t.get(k + 1)) {
            ("=", Some(&">")) | ("-", Some(&">")) => (true, 2),
            (":", next) => (t[k - 1] != ":" && next != Some(&":"), 1),
            _ => (false, 0),
        };
        sep && k + width < t.len() && plain(&t[..k]) && plain(&t[k + width..])
    })
}

/// The counted rows of a source text, by the module's rule.
fn rows(text: &str) -> Vec<Row> {
    let mut out = Vec::new();
    let mut in_comment = false;
    let mut in_use = false;
    for (n, line) in text.lines().enumerate() {
        let s = line.trim();
        if in_comment {
            in_comment = !s.contains("*/");
            continue;
        }
        if s.starts_with("/*") {
            in_comment = !s.contains("*/");
            continue;
        }
        let import =
            s.starts_with("use ") || s.starts_with("pub use ") || s.starts_with("pub(crate) use ");
        if in_use || import {
            in_use = !s.ends_with(';');
            continue;
        }
        let module = (s.starts_with("mod ") || s.starts_with("pub mod ")) && s.ends_with(';');
        if s.is_empty() || s.starts_with("//") || module {
            continue;
        }
        let tokens = shape_tokens(s);
        let punctuation = |t: &String| {
            matches!(
                t.as_str(),
                "{" | "}" | "(" | ")" | "[" | "]" | ";" | "," | ":" | "."
            )
        };
        if tokens.iter().all(punctuation) {
            continue;
        }
        out.push(Row {
            line: n + 1,
            text: s.split_whitespace().collect::<Vec<_>>().join(" "),
            shape: tokens.join(" "),
            tokens: tokens.len(),
            statement: is_statement(&tokens),
        });
    }
    out
}

/// Two places sharing a run: the file and first and last line of each side.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pair {
    a: (String, usize, usize),
    b: (String, usize, usize),
}

impl std::fmt::Display for Pair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (a, b) = (&self.a, &self.b);
        write!(f, "{}:{}-{} ~ {}:{}-{}", a.0, a.1, a.2, b.0, b.1, b.2)
    }
}

/// The pairs of places the files (named, with their texts) share runs in, by the module's rule, in the order of
/// their first side.
fn pairs(files: &[(String, String)]) -> Vec<Pair> {
    let rows: Vec<Vec<Row>> = files.iter().map(|(_, text)| rows(text)).collect();
    // Every window, by what it matches on: (file, first row, last row).
    let mut windows: BTreeMap<String, Vec<(usize, usize, usize)>> = BTreeMap::new();
    for (f, file_rows) in rows.iter().enumerate() {
        for (start, w) in file_rows.windows(RUN).enumerate() {
            let tokens: usize = w.iter().map(|r| r.tokens).sum();
            let statements = w.iter().filter(|r| r.statement).count();
            let key = if tokens >= TOKENS && statements >= STATEMENTS {
                let shapes: Vec<&str> = w.iter().map(|r| r.shape.as_str()).collect();
                format!("shape\n{}", shapes.join("\n"))
            } else {
                let texts: Vec<&str> = w.iter().map(|r| r.text.as_str()).collect();
                format!("text\n{}", texts.join("\n"))
            };
            windows
                .entry(key)
                .or_default()
                .push((f, start, start + RUN - 1));
        }
    }
    // Matching windows, by the pair of files: (first and last row on one side, then on the other).
    let mut hits: BTreeMap<(usize, usize), Vec<[usize; 4]>> = BTreeMap::new();
    for places in windows.values().filter(|p| p.len() <= COMMON) {
        for (i, &(fa, a1, a2)) in places.iter().enumerate() {
            for &(fb, b1, b2) in &places[i + 1..] {
                if fa == fb && b1 <= a2 {
                    continue;
                }
                hits.entry((fa, fb)).or_default().push([a1, a2, b1, b2]);
            }
        }
    }
    let mut out = Vec::new();
    for ((fa, fb), mut found) in hits {
        found.sort_unstable();
        let mut runs: Vec<[usize; 4]> = Vec::new();
        for [a1, a2, b1, b2] in found {
            // Overlapping or touching on both sides.
            let joins = |r: &[usize; 4]| {
                a1 <= r[1] + 1 && r[0] <= a2 + 1 && b1 <= r[3] + 1 && r[2] <= b2 + 1
            };
            match runs.iter_mut().find(|r| joins(r)) {
                Some(r) => *r = [r[0].min(a1), r[1].max(a2), r[2].min(b1), r[3].max(b2)],
                None => runs.push([a1, a2, b1, b2]),
            }
        }
        let side = |f: usize, first: usize, last: usize| {
            (files[f].0.clone(), rows[f][first].line, rows[f][last].line)
        };
        out.extend(runs.into_iter().map(|[a1, a2, b1, b2]| Pair {
            a: side(fa, a1, a2),
            b: side(fb, b1, b2),
        }));
    }
    out.sort_by(|x, y| (&x.a, &x.b).cmp(&(&y.a, &y.b)));
    out
}

/// `Ok` with the pairs when there are at most `most`, else the failure's text listing every pair.
fn check(files: &[(String, String)], most: usize) -> Result<Vec<Pair>, String> {
    let found = pairs(files);
    if found.len() <= most {
        return Ok(found);
    }
    let list: Vec<String> = found.iter().map(Pair::to_string).collect();
    Err(format!(
        "{} pairs of places share a run of {RUN} or more lines of the same shape (at most {most}): write the logic \
         once (a function, a helper, a macro or a table)\n{}",
        found.len(),
        list.join("\n")
    ))
}

/// A function of 7 substantial lines whose shape depends on `k` (each `k` its own shape), names changed by `name`.
fn synthetic_function(k: usize, name: &str) -> String {
    let calls = ".then()".repeat(k);
    let mut text = format!("fn {name}_{k}(input: &str) -> usize {{\n");
    for line in 0..7 {
        text += &format!("    let {name}_{line} = input.len(){calls} + {line};\n");
    }
    text + "    0\n}\n"
}

/// A run repeated with other names and values is found once, on its lines, and code with no repeat gives none.
#[test]
fn a_run_of_the_same_shape_is_one_pair_on_its_lines() {
    let a = format!("//! A file.\n\n{}", synthetic_function(1, "left"));
    let b = format!(
        "use std::fmt;\n\n// A comment.\n{}",
        synthetic_function(1, "right")
    );
    let found = pairs(&[("a.rs".into(), a.clone()), ("b.rs".into(), b)]);
    let listed: Vec<String> = found.iter().map(Pair::to_string).collect();
    assert_eq!(listed, ["a.rs:3-11 ~ b.rs:4-12"]);
    // Each shape once: no pair.
    let other = synthetic_function(2, "left");
    assert_eq!(pairs(&[("a.rs".into(), a), ("c.rs".into(), other)]), []);
    // Thin lines (fields) with the same shape are not a repeat; the same lines to the letter are.
    let fields = |names: &[&str]| {
        names
            .iter()
            .map(|n| format!("    pub {n}: u32,\n"))
            .collect::<String>()
    };
    let thin = [
        ("d.rs".into(), fields(&["a", "b", "c", "d", "e", "f"])),
        ("e.rs".into(), fields(&["g", "h", "i", "j", "k", "l"])),
    ];
    assert_eq!(pairs(&thin), []);
    let same = [
        ("d.rs".into(), fields(&["a", "b", "c", "d", "e", "f"])),
        ("e.rs".into(), fields(&["a", "b", "c", "d", "e", "f"])),
    ];
    assert_eq!(pairs(&same).len(), 1);
}

/// The check fails past the limit, naming every pair by file and lines.
#[test]
fn the_check_fails_past_the_limit_and_names_the_places() {
    let files: Vec<(String, String)> = (0..=MOST)
        .flat_map(|k| {
            [
                (format!("a{k}.rs"), synthetic_function(k, "one")),
                (format!("b{k}.rs"), synthetic_function(k, "two")),
            ]
        })
        .collect();
    let failure = check(&files, MOST).expect_err("one pair over the limit");
    assert!(
        failure.starts_with(&format!("{} pairs", MOST + 1)),
        "{failure}"
    );
    for k in 0..=MOST {
        assert!(
            failure.contains(&format!("a{k}.rs:1-9 ~ b{k}.rs:1-9")),
            "{failure}"
        );
    }
    assert_eq!(check(&files[2..], MOST).map(|p| p.len()), Ok(MOST));
}

/// The tokens: identifiers, strings, characters and numbers replaced; keywords, lifetimes and punctuation kept.
#[test]
fn shapes_replace_names_literals_and_numbers() {
    assert_eq!(
        shape_tokens(r#"let n = f("a \" b", 'c', 0x1f, 1.5); // note"#).join(" "),
        "let x = x ( s , s , 0 , 0 ) ;"
    );
    assert_eq!(
        shape_tokens("fn f<'a>(x: &'a str) -> Self { 0..n }").join(" "),
        "fn x < ' x > ( x : & ' x x ) - > Self { 0 . . x }"
    );
    assert_eq!(
        shape_tokens(r##"r#"raw "quoted""# + b"bytes""##).join(" "),
        "s + s"
    );
}

/// Statements are told from match arms, fields, declarations and attributes.
#[test]
fn statements_are_told_from_arms_fields_and_declarations() {
    let statement = |line: &str| is_statement(&shape_tokens(line));
    for line in [
        "let a = b;",
        "x += 1;",
        "if a {",
        "return;",
        "foo(a, b, c).bar(d);",
    ] {
        assert!(statement(line), "{line}");
    }
    for line in [
        "ct::KeyCode::Left => KeyCode::Left,",
        "base: pair(0x1c1c1c, Gray, 0x2, Black),",
        "pub fn f(a: u8) -> Result<u8, Error> {",
        "impl From<ct::KeyCode> for KeyCode {",
        "#[derive(Clone, Debug, PartialEq, Eq)]",
        "a == b",
    ] {
        assert!(!statement(line), "{line}");
    }
}

/// At most [`MOST`] pairs of places in `crates/parlor/src` share a run; the failure lists them.
#[test]
fn the_sources_repeat_themselves_in_at_most_ten_pairs_of_places() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    crate::common::walk_rust_files(&root.join("src"), &mut paths);
    assert!(
        paths.len() > 100,
        "the walk found only {} source files",
        paths.len()
    );
    paths.sort();
    let files: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (
                format!("crates/parlor/{rel}"),
                std::fs::read_to_string(p).unwrap(),
            )
        })
        .collect();
    if let Err(failure) = check(&files, MOST) {
        panic!("{failure}");
    }
}
