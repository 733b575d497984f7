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
