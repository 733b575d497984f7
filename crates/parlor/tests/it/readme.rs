//! Every claim of README.md about the command line is run: each `parlor` command line in its code blocks and in its
//! inline code parses with the command line's own clap definitions, each example shown with its output (`$ parlor
//! ...` and the lines under it) prints exactly that through the real binary, the plain-mode example plays through a
//! pipe, and each flag the README names (`--seed`, `--no-limit`, ...) is a flag of some command.

use crate::common::{err, out, parlor};
use std::collections::BTreeSet;
use std::io::Write;
use std::process::Stdio;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md")
}

/// The fenced code blocks: (language, lines).
fn blocks(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut current: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        if let Some(lang) = line.strip_prefix("```") {
            match current.take() {
                Some(block) => out.push(block),
                None => current = Some((lang.trim().to_string(), Vec::new())),
            }
        } else if let Some((_, lines)) = &mut current {
            lines.push(line.to_string());
        }
    }
    out
}

/// The text outside fenced code blocks.
fn prose(text: &str) -> String {
    let mut keep = true;
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("```") {
            keep = !keep;
            continue;
        }
        if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The inline code spans of `text` (a span opened by n backticks closes with n; line breaks read as spaces).
fn inline_code(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'`' {
            i += 1;
            continue;
        }
        let n = b[i..].iter().take_while(|&&c| c == b'`').count();
        let fence = "`".repeat(n);
        let start = i + n;
        match text[start..].find(&fence) {
            Some(len) => {
                spans.push(
                    text[start..start + len]
                        .replace('\n', " ")
                        .trim()
                        .to_string(),
                );
                i = start + len + n;
            }
            None => break,
        }
    }
    spans
}

/// Splits a command line as a POSIX shell would split its words (single and double quotes, no expansion).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(word);
    }
    out
}

/// A command line's `parlor` commands: the line split at `&&`, `|` and `;`, each part's redirection (`> FILE`) and
/// comment (`# ...`) dropped, and only the parts that run `parlor` kept (as their words after `parlor`).
fn parlor_commands(line: &str) -> Vec<Vec<String>> {
    let line = line.trim().trim_start_matches("$ ");
    let line = match line.find(" #") {
        Some(i) => &line[..i],
        None => line,
    };
    line.split("&&")
        .flat_map(|p| p.split('|'))
        .flat_map(|p| p.split(';'))
        .filter_map(|part| {
            let part = part.split('>').next().unwrap_or_default();
            let w = words(part);
            (w.first().map(String::as_str) == Some("parlor")).then(|| w[1..].to_vec())
        })
        .collect()
}

/// A word the README writes for the reader to fill in (`GAME`, `FILE`, `RxC`, `[--game G]`, `a|b`, `3..8`).
fn placeholder(word: &str) -> bool {
    let w = word.trim_matches(|c| c == '[' || c == ']');
    word.starts_with('[')
        || word.ends_with(']')
        || word.contains("...")
        || word.contains("..")
        || word.contains('|')
        || (w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
        || w == "RxC"
}

/// Parses `args` (after `parlor`) with the command line's own definitions: Ok, or clap's message.
fn parses(args: &[String]) -> Result<(), String> {
    let mut all = vec!["parlor".to_string()];
    all.extend(args.iter().cloned());
    match parlor::terminal_app::command().try_get_matches_from(all) {
        Ok(_) => Ok(()),
        Err(e)
            if matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            ) =>
        {
            Ok(())
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The subcommand `args` names (the words up to the first flag or placeholder), and the flags it and the global
/// options take.
fn flags_of(args: &[String]) -> (String, BTreeSet<String>) {
    let mut cmd = parlor::terminal_app::command();
    cmd.build();
    let mut path = vec!["parlor".to_string()];
    let mut flags = long_flags(&cmd);
    let mut here = &cmd;
    for w in args {
        if w.starts_with('-') || placeholder(w) {
            break;
        }
        match here.find_subcommand(w) {
            Some(sub) => {
                here = sub;
                path.push(w.clone());
                flags.extend(long_flags(here));
            }
            None => break,
        }
    }
    (path.join(" "), flags)
}

fn long_flags(cmd: &clap::Command) -> BTreeSet<String> {
    cmd.get_arguments()
        .flat_map(|a| {
            a.get_long_and_visible_aliases()
                .unwrap_or_default()
                .into_iter()
                .chain(a.get_all_aliases().unwrap_or_default())
        })
        .map(|l| format!("--{l}"))
        .chain(["--help".to_string(), "--version".to_string()])
        .collect()
}

/// Every long flag of every command.
fn every_flag() -> BTreeSet<String> {
    fn walk(cmd: &clap::Command, into: &mut BTreeSet<String>) {
        into.extend(long_flags(cmd));
        for sub in cmd.get_subcommands() {
            walk(sub, into);
        }
    }
    let mut cmd = parlor::terminal_app::command();
    cmd.build();
    let mut all = BTreeSet::new();
    walk(&cmd, &mut all);
    all
}

/// The flags named in a piece of text: `--name` up to the first character a flag cannot hold (so the README's
/// `--[no-]flag` shorthand is read whole, and refused).
fn named_flags(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("--") {
        let after = &rest[i + 2..];
        let len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '[' || c == ']'))
            .unwrap_or(after.len());
        let name = &after[..len];
        let before = rest[..i].chars().last();
        if !name.is_empty() && !matches!(before, Some(c) if c.is_ascii_alphanumeric()) {
            out.push(format!("--{}", name.trim_end_matches(']')));
        }
        rest = &after[len..];
    }
    out
}

/// Checks one command line (after `parlor`): parsed whole when it has no placeholder, else its flags looked up on
/// the subcommand it names (`GAME`: on every game's). Returns the problems.
fn check_line(source: &str, args: &[String]) -> Vec<String> {
    if args.first().map(String::as_str) == Some("GAME") {
        return parlor::registry::GAMES
            .iter()
            .flat_map(|g| {
                let mut each = args.to_vec();
                each[0] = g.id().to_string();
                check_line(source, &each)
            })
            .collect();
    }
    if args.iter().any(|w| placeholder(w)) {
        let (path, flags) = flags_of(args);
        args.iter()
            .flat_map(|w| named_flags(w))
            .filter(|f| !flags.contains(f))
            .map(|f| format!("{source}: `{path}` has no flag {f}"))
            .collect()
    } else {
        match parses(args) {
            Ok(()) => Vec::new(),
            Err(e) => vec![format!(
                "{source}: `parlor {}` does not parse: {e}",
                args.join(" ")
            )],
        }
    }
}

#[test]
fn every_command_line_in_the_code_blocks_parses() {
    let text = readme();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (lang, lines) in blocks(&text) {
        if !(lang.is_empty() || lang == "sh") {
            continue;
        }
        for line in &lines {
            // The synopsis block lines end with a description after two or more spaces.
            let command = match line.find("   ") {
                Some(i) if lang.is_empty() => &line[..i],
                _ => line.as_str(),
            };
            for args in parlor_commands(command) {
                checked += 1;
                problems.extend(check_line(line, &args));
            }
        }
    }
    assert!(checked >= 30, "only {checked} command lines found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_command_line_in_the_text_parses() {
    let text = prose(&readme());
    let mut problems = Vec::new();
    let mut checked = 0;
    for span in inline_code(&text) {
        for args in parlor_commands(&span) {
            checked += 1;
            // A command named in a sentence (`parlor completions`) need not carry its arguments: it must exist.
            let (path, _) = flags_of(&args);
            if path.split(' ').count() == args.len() + 1 {
                continue;
            }
            problems.extend(check_line(&span, &args));
        }
    }
    assert!(checked >= 10, "only {checked} inline command lines found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_flag_the_readme_names_exists() {
    let all = every_flag();
    let text = readme();
    let mut named: BTreeSet<String> = BTreeSet::new();
    for span in inline_code(&prose(&text)) {
        if span.starts_with("--") {
            named.extend(named_flags(&span));
        }
        for args in parlor_commands(&span) {
            named.extend(args.iter().flat_map(|w| named_flags(w)));
        }
    }
    for (lang, lines) in blocks(&text) {
        if lang.is_empty() || lang == "sh" {
            for line in lines {
                for args in parlor_commands(&line) {
                    named.extend(args.iter().flat_map(|w| named_flags(w)));
                }
            }
        }
    }
    // Cargo's own flags, in the install and test recipes.
    for cargo in [
        "--locked",
        "--release",
        "--workspace",
        "--path",
        "--git",
        "--include-ignored",
        "--lib",
        "--no-default-features",
        "--target",
    ] {
        named.remove(cargo);
    }
    assert!(
        named.len() >= 40,
        "only {} flags named: {named:?}",
        named.len()
    );
    let missing: Vec<&String> = named.iter().filter(|f| !all.contains(*f)).collect();
    assert!(
        missing.is_empty(),
        "README names flags no command has: {missing:?}"
    );
}

/// The shorthand the README once used for two flags that do not exist is caught by the checks above.
#[test]
fn the_checks_catch_a_flag_that_does_not_exist() {
    assert_eq!(
        named_flags("--[no-]secret-repeats"),
        ["--[no-]secret-repeats"]
    );
    assert!(!every_flag().contains("--[no-]secret-repeats"));
    let args = words("mastermind --colours 2..10 --[no-]secret-repeats");
    assert_eq!(check_line("x", &args).len(), 1);
    assert!(parses(&words("mastermind solve --strategy lucky")).is_err());
    assert!(parses(&words("nocca --board 4x5 --level perfect")).is_ok());
}

/// `$ parlor ...` followed by its output: the real binary prints exactly that.
#[test]
fn every_example_with_its_output_prints_that_output() {
    let text = readme();
    let mut ran = 0;
    for (lang, lines) in blocks(&text) {
        if lang != "sh" {
            continue;
        }
        for (i, line) in lines.iter().enumerate() {
            let Some(command) = line.strip_prefix("$ ") else {
                continue;
            };
            let shown: Vec<&str> = lines[i + 1..]
                .iter()
                .take_while(|l| !l.starts_with("$ "))
                .map(String::as_str)
                .collect();
            if shown.is_empty() {
                continue;
            }
            let args = &parlor_commands(command)[0];
            let dir = tempfile::tempdir().unwrap();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = parlor(dir.path(), &args)
                .stdin(Stdio::null())
                .output()
                .unwrap();
            assert!(o.status.success(), "{command}: {}", err(&o));
            assert_eq!(out(&o).trim_end(), shown.join("\n"), "{command}");
            ran += 1;
        }
    }
    assert!(ran >= 4, "only {ran} examples with output");
}

/// The plain-mode example (`printf '...' | parlor ...`) plays through a pipe and quits cleanly.
#[test]
fn the_plain_mode_example_plays_through_a_pipe() {
    let text = readme();
    let line = blocks(&text)
        .into_iter()
        .flat_map(|(_, lines)| lines)
        .find(|l| l.starts_with("printf ") && l.contains("| parlor"))
        .expect("README has a plain-mode example");
    let (input, command) = line.split_once('|').unwrap();
    let input = words(input)[1].replace("\\n", "\n");
    let args = &parlor_commands(command)[0];
    let dir = tempfile::tempdir().unwrap();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut child = parlor(dir.path(), &args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{line}: {}", err(&o));
    assert!(out(&o).contains("Score"), "{}", out(&o));
}

/// The README's first command, `cargo run --release` at the root, runs the parlor binary: the workspace's default
/// member is this package (`cargo metadata`, as cargo itself reads the manifests), whose one binary is `parlor`.
/// (CI builds the release profile as the static binary; this checks the command's choice without building.)
#[test]
fn cargo_run_at_the_root_runs_the_parlor_binary() {
    let first = readme()
        .lines()
        .find(|l| l.starts_with("cargo run"))
        .map(str::to_string);
    assert_eq!(
        first
            .as_deref()
            .and_then(|l| l.split('#').next())
            .map(str::trim),
        Some("cargo run --release"),
        "the README's first cargo command"
    );
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let o = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(o.status.success(), "cargo metadata: {}", err(&o));
    let meta: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let defaults = meta["workspace_default_members"].as_array().unwrap();
    assert_eq!(defaults.len(), 1, "{defaults:?}");
    let package = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == defaults[0])
        .unwrap();
    assert_eq!(package["name"], "parlor");
    let bins: Vec<&str> = package["targets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["kind"].as_array().unwrap().iter().any(|k| k == "bin"))
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(bins, ["parlor"], "one binary, or cargo run would ask which");
    // Its required feature is a default one, so the plain command builds it.
    let defaults = &package["features"]["default"];
    assert!(
        defaults.as_array().unwrap().iter().any(|f| f == "terminal"),
        "{defaults}"
    );
}

/// The workspace's root, where README.md and docs/ are.
fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The documents a reader is sent to: README.md and every Markdown file of docs/, as (path from the root, text).
fn documents() -> Vec<(String, String)> {
    let mut docs = vec![("README.md".to_string(), readme())];
    let dir = root().join("docs");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("docs/ at the root")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .collect();
    names.sort();
    for name in names {
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        docs.push((format!("docs/{name}"), text));
    }
    docs
}

/// Why `line` reads as a development diary rather than a description of what is: a session number, a sitting, a
/// commit hash (7 to 40 hex digits, letters and digits both), a date, or a plan said not to be built. None if it
/// reads as neither.
fn diary(line: &str) -> Option<String> {
    let lower = line.to_lowercase();
    if lower.contains("none of this is built") {
        return Some("\"None of this is built\"".to_string());
    }
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    for pair in words.windows(2) {
        if matches!(pair[0], "session" | "sessions") && pair[1].chars().all(|c| c.is_ascii_digit())
        {
            return Some(format!("\"{} {}\"", pair[0], pair[1]));
        }
    }
    if let Some(w) = words.iter().find(|w| w.starts_with("sitting")) {
        return Some(format!("\"{w}\""));
    }
    let hash = words.iter().find(|w| {
        (7..=40).contains(&w.len())
            && w.chars().all(|c| c.is_ascii_hexdigit())
            && w.chars().any(|c| c.is_ascii_digit())
            && w.chars().any(|c| c.is_ascii_alphabetic())
    });
    if let Some(h) = hash {
        return Some(format!("a commit hash, {h}"));
    }
    // A date as ISO writes it: four digits, a hyphen, two digits, a hyphen, two digits.
    let b = line.as_bytes();
    let date = (0..b.len().saturating_sub(9)).find(|&i| {
        b"dddd-dd-dd".iter().zip(&b[i..i + 10]).all(|(&want, &c)| {
            if want == b'd' {
                c.is_ascii_digit()
            } else {
                c == want
            }
        })
    });
    date.map(|i| format!("a date, {}", &line[i..i + 10]))
}

#[test]
fn the_readme_is_a_manual_of_at_most_400_lines() {
    let lines = readme().lines().count();
    assert!(lines <= 400, "README.md has {lines} lines; at most 400");
}

#[test]
fn no_document_is_a_development_diary() {
    let mut found = Vec::new();
    for (file, text) in documents() {
        for (n, line) in text.lines().enumerate() {
            if let Some(why) = diary(line) {
                found.push(format!("{file}:{}: {why}: {line}", n + 1));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The diary check catches what it is meant to, and not the figures a manual states.
#[test]
fn the_diary_check_catches_a_diary() {
    for line in [
        "measured in session 19 on a quiet machine",
        "Clients built before this rule (Session 15 and older)",
        "which the second sitting measured",
        "`git show 6996a44:crates/twenty48/weights/x.p48`",
        "on the release binary of commit 0c0c580",
        "(2026-11-26, 11:10-11:12 UTC)",
        "Past one machine, several servers would share one database. None of this is built.",
    ] {
        assert!(diary(line).is_some(), "not caught: {line}");
    }
    for line in [
        "Network and stores together are 15,906,880 bytes, 2082636952 positions",
        "a session does autosave; plain-mode sessions fed arbitrary bytes",
        "`parlor 2048 slide 2,2,2,2/4,4,8,0 left`, ChaCha8, CRC-32, `YYYY-MM-DD`, deadbeef",
    ] {
        assert_eq!(diary(line), None, "{line}");
    }
}

/// The links of a Markdown text outside code: the targets of `[text](target)` and of `[name]: target` lines.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text).lines() {
        // Inline code is no link: `[x](y)` in backticks is left out.
        let mut plain = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                plain.push_str(part);
            }
        }
        if let Some(rest) = plain.trim_start().strip_prefix('[')
            && let Some((_, target)) = rest.split_once("]: ")
        {
            out.push(
                target
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            );
        }
        let mut rest = plain.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].split_whitespace().next().unwrap_or_default();
            out.push(target.trim_matches(['<', '>']).to_string());
            rest = &after[end..];
        }
    }
    out
}

/// The anchors GitHub gives a Markdown text's headings: lower case, spaces as hyphens, other punctuation dropped,
/// and a repeated heading numbered (`-1`, `-2`, ...).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
    let mut out = BTreeSet::new();
    for line in prose(text).lines() {
        let Some(title) = line.strip_prefix('#') else {
            continue;
        };
        let title = title.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let slug: String = title
            .trim()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                '-' | '_' => Some(c),
                c if c.is_alphanumeric() => Some(c),
                _ => None,
            })
            .flat_map(char::to_lowercase)
            .collect();
        let n = seen.entry(slug.clone()).or_default();
        out.insert(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    out
}

#[test]
fn every_relative_link_of_the_documents_leads_somewhere() {
    let root = root();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (file, text) in documents() {
        let dir = std::path::Path::new(&file)
            .parent()
            .unwrap_or(std::path::Path::new(""))
            .to_path_buf();
        for target in links(&text) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let to = if path.is_empty() {
                root.join(&file)
            } else {
                root.join(&dir).join(path)
            };
            if !to.exists() {
                problems.push(format!("{file}: ({target}): no file {}", to.display()));
                continue;
            }
            if let Some(anchor) = anchor
                && to.extension().is_some_and(|x| x == "md")
            {
                let heads = anchors(&std::fs::read_to_string(&to).unwrap());
                if !heads.contains(anchor) {
                    problems.push(format!("{file}: ({target}): no heading #{anchor} there"));
                }
            }
        }
    }
    assert!(checked >= 20, "only {checked} relative links found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The link check reads links as Markdown does, and anchors as GitHub makes them.
#[test]
fn the_link_check_reads_links_and_anchors() {
    assert_eq!(
        links("See [RULES.md](RULES.md) and [a](docs/A.md#x \"t\"), not `[b](c)`.\n[r]: LICENSE\n"),
        ["RULES.md", "docs/A.md#x", "LICENSE"]
    );
    let heads = anchors(
        "# Parlor\n## Where data lives\n### Nocca Nocca (ノッカノッカ)\n## Tests\n## Tests\n",
    );
    for a in [
        "parlor",
        "where-data-lives",
        "nocca-nocca-ノッカノッカ",
        "tests",
        "tests-1",
    ] {
        assert!(heads.contains(a), "{a} not in {heads:?}");
    }
}
