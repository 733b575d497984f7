//! `parlor nocca perft | match | bench`: the analysis commands.

mod common;
use common::*;

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
    let o = run(dir.path(), &["nocca", "--level", "9"], "");
    assert!(!o.status.success());
}

#[test]
fn a_short_match_between_the_lowest_levels() {
    let dir = tempfile::tempdir().unwrap();
    let v = json(
        dir.path(),
        &[
            "nocca", "match", "--a", "beginner", "--b", "1", "--games", "4", "--seed", "7",
            "--json",
        ],
    );
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
    let again = json(
        dir.path(),
        &[
            "nocca", "match", "--a", "beginner", "--b", "1", "--games", "4", "--seed", "7",
            "--json",
        ],
    );
    assert_eq!(v, again);
    let o = run(
        dir.path(),
        &["nocca", "match", "--a", "1", "--b", "1", "--games", "2"],
        "",
    );
    assert!(out(&o).contains("beginner vs beginner:"), "{}", out(&o));
    assert!(out(&o).contains("95% CI"), "{}", out(&o));
}
