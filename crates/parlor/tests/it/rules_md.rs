//! RULES.md is Parlor's own rule book: its tables are read here and every row is checked against the engines, so
//! the book and the programs cannot drift apart.

use std::collections::HashMap;

fn rules() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../RULES.md"))
        .expect("RULES.md at the root")
}

/// The rows of the first table whose header line starts with `header`, as cells without backticks.
fn table(text: &str, header: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with(header))
        .unwrap_or_else(|| panic!("no table {header:?} in RULES.md"));
    lines[start + 2..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().trim_matches('`').to_string())
                .collect()
        })
        .collect()
}

#[test]
fn the_slide_table_holds_for_every_row_and_its_mirror() {
    let rows = table(&rules(), "| row | left | points |");
    assert!(rows.len() >= 5);
    for r in rows {
        let cells = |s: &str| {
            s.split_whitespace()
                .map(|c| c.replace('.', "0"))
                .collect::<Vec<_>>()
                .join(",")
        };
        let board: twenty48::Board = format!("{}/0,0,0,0/0,0,0,0/0,0,0,0", cells(&r[0]))
            .parse()
            .unwrap();
        let slid = board.slide(twenty48::Direction::Left);
        let want: twenty48::Board = format!("{}/0,0,0,0/0,0,0,0/0,0,0,0", cells(&r[1]))
            .parse()
            .unwrap();
        assert_eq!(slid.board, want, "row {:?}", r[0]);
        assert_eq!(slid.gained.to_string(), r[2], "points of {:?}", r[0]);
        // Right is the same rule turned: reverse the row and its result.
        let rev = |s: &str| s.split_whitespace().rev().collect::<Vec<_>>().join(" ");
        let board: twenty48::Board = format!("{}/0,0,0,0/0,0,0,0/0,0,0,0", cells(&rev(&r[0])))
            .parse()
            .unwrap();
        let want: twenty48::Board = format!("{}/0,0,0,0/0,0,0,0/0,0,0,0", cells(&rev(&r[1])))
            .parse()
            .unwrap();
        assert_eq!(
            board.slide(twenty48::Direction::Right).board,
            want,
            "mirror of {:?}",
            r[0]
        );
    }
}

#[test]
fn the_mastermind_presets_are_as_written() {
    for r in table(&rules(), "| preset | colours | pegs |") {
        let v = mastermind::Variant::preset(&r[0]).unwrap();
        assert_eq!(v.colours().to_string(), r[1], "{}", r[0]);
        assert_eq!(v.pegs().to_string(), r[2], "{}", r[0]);
        assert_eq!(v.guesses().to_string(), r[3], "{}", r[0]);
        assert_eq!(v.secret_repeats(), r[4] == "yes", "{}", r[0]);
        assert_eq!(v.guess_repeats(), r[5] == "yes", "{}", r[0]);
        assert_eq!(v.secret_count().to_string(), r[6], "{}", r[0]);
    }
}

#[test]
fn the_feedback_examples_are_exact() {
    let v = mastermind::Variant::preset("classic").unwrap();
    for r in table(&rules(), "| secret | guess | black | white |") {
        let fb = mastermind::feedback(v.parse_code(&r[0]).unwrap(), v.parse_code(&r[1]).unwrap());
        assert_eq!(
            (fb.black.to_string(), fb.white.to_string()),
            (r[2].clone(), r[3].clone()),
            "{r:?}"
        );
    }
}

#[test]
fn the_nocca_start_and_perft_figures_are_as_written() {
    let text = rules();
    let start = nocca::Position::start(nocca::Dims::STANDARD);
    assert!(
        text.contains(&format!("`{start}`")),
        "the start position {start} is written in RULES.md"
    );
    let perft: HashMap<u32, u64> = table(&text, "| depth | nodes |")
        .iter()
        .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
        .collect();
    assert!(perft.len() >= 4);
    for (depth, nodes) in perft {
        assert_eq!(nocca::perft(&start, depth), nodes, "perft {depth}");
    }
}

/// RULES.md, Words: the glossary names every word the issue-24 pass settled on.
#[test]
fn the_glossary_defines_each_word_once() {
    let rows = table(&rules(), "| word | means |");
    let words: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    for w in [
        "move",
        "score",
        "points",
        "guesses",
        "ply, plies",
        "black peg",
        "white peg",
        "square",
        "piece",
        "step",
    ] {
        assert_eq!(
            words.iter().filter(|&&x| x == w).count(),
            1,
            "{w} in {words:?}"
        );
    }
}

/// Whether `text` holds `word` as a whole word (or its plural): not inside another (`milestone` holds no stone).
fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..]
            .trim_start_matches('s')
            .chars()
            .next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// RULES.md, Words: one word for one idea. The words the glossary replaced appear in no text a player reads: the
/// README, RULES.md, and the string literals of the app (comments are the programmers').
#[test]
fn no_text_uses_a_word_the_glossary_replaced() {
    // (word, the glossary's word): the seed's "stone" is a piece; a half-move is a ply.
    let replaced = [
        ("stone", "piece"),
        ("half-move", "ply"),
        ("halfmove", "ply"),
        ("key peg", "black or white peg"),
    ];
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut texts: Vec<(String, String)> = ["README.md", "RULES.md"]
        .iter()
        .map(|f| {
            (
                f.to_string(),
                std::fs::read_to_string(format!("{root}/{f}")).unwrap(),
            )
        })
        .collect();
    fn walk(dir: &std::path::Path, into: &mut Vec<(String, String)>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, into);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let code: String = std::fs::read_to_string(&p)
                    .unwrap()
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .map(|l| format!("{l}\n"))
                    .collect();
                into.push((p.display().to_string(), code));
            }
        }
    }
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut texts,
    );
    let mut found = Vec::new();
    for (file, text) in &texts {
        for (n, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            for (old, new) in replaced {
                // Naming the seed's own word, to say what it became, is allowed.
                if contains_word(&lower, old) && !lower.contains("the seed's") {
                    found.push(format!("{file}:{}: '{old}' (say '{new}'): {line}", n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
