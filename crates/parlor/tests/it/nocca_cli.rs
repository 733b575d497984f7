//! `parlor nocca perft | match | bench` and the play flags made from the setting table.

use crate::common::*;

fn json(dir: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let o = run(dir, args, "");
    assert!(o.status.success(), "{args:?}: {}", err(&o));
    serde_json::from_str(&out(&o)).unwrap_or_else(|e| panic!("{e}: {}", out(&o)))
}

#[test]
fn perft_from_the_start_matches_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    for (d, n) in [(1, 21u64), (2, 441), (3, 9240), (4, 193600)] {
        let v = json(dir.path(), &["nocca", "perft", &d.to_string(), "--json"]);
        assert_eq!(v, serde_json::json!({"depth": d, "nodes": n}));
    }
    let o = run(dir.path(), &["nocca", "perft", "3"], "");
    assert_eq!(out(&o).trim(), "perft 3: 9240 nodes");
}

#[test]
fn perft_divide_and_positions() {
    let dir = tempfile::tempdir().unwrap();
    let v = json(dir.path(), &["nocca", "perft", "3", "--divide", "--json"]);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 21);
    let sum: u64 = moves.iter().map(|m| m["nodes"].as_u64().unwrap()).sum();
    assert_eq!(sum, 9240);
    // a1 has 3 steps; d6 has 8, three of them into the goal.
    let p = "b,-,-,-,-/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/-,-,-,-,w/-,-,-,b,- b";
    let v = json(
        dir.path(),
        &["nocca", "perft", "1", "--position", p, "--json"],
    );
    assert_eq!(v["nodes"], 11);
}

#[test]
fn a_position_may_start_with_a_hyphen() {
    // Issue 9, defect 14: a position starting with '-' (an empty cell) was refused as an unknown flag.
    let dir = tempfile::tempdir().unwrap();
    let p = "-,-,-,-,-/-,-,-,-,-/-,-,b,-,-/-,-,-,-,-/-,-,-,-,-/-,-,w,-,- b";
    let v = json(
        dir.path(),
        &["nocca", "perft", "1", "--position", p, "--json"],
    );
    assert_eq!(v["nodes"], 8, "a lone piece in the middle steps 8 ways");
    let o = run(dir.path(), &["nocca", "perft", "3", "--position", p], "");
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).starts_with("perft 3: "), "{}", out(&o));
    let o = run(
        dir.path(),
        &["nocca", "perft", "1", &format!("--position={p}")],
        "",
    );
    assert!(o.status.success(), "{}", err(&o));
}

#[test]
fn perft_on_a_smaller_board() {
    let dir = tempfile::tempdir().unwrap();
    // `--board 3x3` starts from the 3x3 start position, as if it were written out.
    let from_board = json(
        dir.path(),
        &["nocca", "perft", "2", "--board", "3x3", "--json"],
    );
    let from_position = json(
        dir.path(),
        &[
            "nocca",
            "perft",
            "2",
            "--position",
            "b,b,b/-,-,-/w,w,w b",
            "--json",
        ],
    );
    assert_eq!(from_board, from_position);
    let o = run(dir.path(), &["nocca", "perft", "2", "--board", "7x5"], "");
    assert!(!o.status.success());
    assert!(err(&o).contains("3 to 6 rows"), "{}", err(&o));
    let o = run(
        dir.path(),
        &[
            "nocca",
            "perft",
            "2",
            "--board",
            "3x3",
            "--position",
            "b,b,b/-,-,-/w,w,w b",
        ],
        "",
    );
    assert!(!o.status.success(), "--board and --position conflict");
}

#[test]
fn bad_positions_and_levels_fail_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["nocca", "perft", "2", "--position", "b,b/x b"],
        "",
    );
    assert!(!o.status.success());
    assert!(err(&o).contains("bad position"), "{}", err(&o));
    assert!(out(&o).is_empty());
    let o = run(
        dir.path(),
        &["nocca", "match", "--a", "grandmaster", "--b", "1"],
        "",
    );
    assert!(!o.status.success());
    assert!(err(&o).contains("unknown level"), "{}", err(&o));
    for args in [
        &["nocca", "--level", "9"][..],
        &["nocca", "--board", "6x6"],
        &["nocca", "--mode", "three"],
        &["nocca", "--colour", "red"],
    ] {
        let o = run(dir.path(), args, "");
        assert!(!o.status.success(), "{args:?}");
        assert!(out(&o).is_empty(), "{args:?}: {}", out(&o));
    }
}

#[test]
fn help_lists_every_setting_with_its_range() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["nocca", "--help"], "");
    let text = out(&o);
    for flag in [
        "--mode", "--level", "--colour", "--first", "--board", "--seed", "--new",
    ] {
        assert!(text.contains(flag), "{flag}: {text}");
    }
    assert!(text.contains("two (two players)"), "{text}");
    assert!(text.contains("3x3"), "{text}");
    for cmd in ["perft", "match", "bench"] {
        assert!(text.contains(cmd), "{cmd}: {text}");
    }
}

#[test]
fn a_short_match_between_the_lowest_levels() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "nocca", "match", "--a", "beginner", "--b", "1", "--games", "4", "--seed", "7", "--json",
    ];
    let v = json(dir.path(), &args);
    assert_eq!(v["games"], 4);
    let total = v["a_wins"].as_u64().unwrap()
        + v["b_wins"].as_u64().unwrap()
        + v["draws"].as_u64().unwrap();
    assert_eq!(total, 4);
    let (lo, hi) = (
        v["ci95"][0].as_f64().unwrap(),
        v["ci95"][1].as_f64().unwrap(),
    );
    let score = v["score"].as_f64().unwrap();
    assert!(lo <= score && score <= hi, "{v}");
    // The same seed gives the same match.
    assert_eq!(v, json(dir.path(), &args));
    let o = run(
        dir.path(),
        &["nocca", "match", "--a", "1", "--b", "1", "--games", "2"],
        "",
    );
    assert!(out(&o).contains("beginner vs beginner:"), "{}", out(&o));
    assert!(out(&o).contains("95% CI"), "{}", out(&o));
}

/// Rows of different lengths are named as such (rows numbered from 1, as RULES.md numbers them), by every command
/// that reads a position, before anything is computed.
#[test]
fn rows_of_different_lengths_are_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["nocca", "solve", "3x3", "--position", "b,b/-,-,-/w,w,w b"][..],
        &["nocca", "perft", "1", "--position", "b,b/-,-,-/w,w,w b"],
    ] {
        let o = run(dir.path(), args, "");
        assert!(!o.status.success(), "{args:?}");
        assert!(
            err(&o).contains("rows differ in length: row 2 has 3 cells, row 1 has 2"),
            "{args:?}: {}",
            err(&o)
        );
        assert!(!err(&o).contains("row 0"), "{}", err(&o));
    }
}
