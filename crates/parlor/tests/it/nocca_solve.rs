//! `parlor nocca solve`: counts, the start value, a position's moves, the table file and a damaged table.

use crate::common::*;

fn json(dir: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let o = run(dir, args, "");
    assert!(o.status.success(), "{args:?}: {}", err(&o));
    serde_json::from_str(&out(&o)).unwrap_or_else(|e| panic!("{e}: {}", out(&o)))
}

#[test]
fn solves_3x3_then_loads_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let v = json(dir.path(), &["nocca", "solve", "3x3", "--json"]);
    assert_eq!(v["board"], "3x3");
    assert_eq!(v["source"], "solved");
    let (won, lost, drawn) = (
        v["won"].as_u64().unwrap(),
        v["lost"].as_u64().unwrap(),
        v["drawn"].as_u64().unwrap(),
    );
    assert_eq!(won + lost + drawn, v["positions"].as_u64().unwrap());
    assert!(won > 0 && lost > 0);
    let start = &v["start"];
    let d = start["distance"].as_u64();
    match start["value"].as_str().unwrap() {
        "win" => assert_eq!(d.unwrap() % 2, 1),
        "loss" => assert_eq!(d.unwrap() % 2, 0),
        other => assert_eq!((other, d), ("draw", None)),
    }
    assert!(dir.path().join("tables/nocca-3x3.table").exists());
    let again = json(dir.path(), &["nocca", "solve", "3x3", "--json"]);
    assert_eq!(again["source"], "loaded");
    assert_eq!(again["start"], v["start"]);
    assert_eq!(again["won"], v["won"]);
}

#[test]
fn a_position_and_its_moves() {
    let dir = tempfile::tempdir().unwrap();
    // Black's piece on c3 stands on White's home row: stepping on wins at once. The position starts with '-'.
    let p = "-,b,b/w,-,-/w,w,b b";
    let v = json(
        dir.path(),
        &["nocca", "solve", "3x3", "--position", p, "--json"],
    );
    assert_eq!(v["position"]["value"], "win");
    assert_eq!(v["position"]["distance"], 1);
    let moves = v["position"]["moves"].as_array().unwrap();
    assert!(
        moves
            .iter()
            .any(|m| m["move"] == "c3k" && m["distance"] == 1)
    );
    let o = run(dir.path(), &["nocca", "solve", "3x3", "--position", p], "");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("win in 1 for black"), "{text}");
    assert!(text.contains("c3k: win in 1"), "{text}");
}

#[test]
fn bad_input_and_a_damaged_table() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["nocca", "solve", "7x3"][..],
        &["nocca", "solve", "3x3", "--position", "b,b/x b"],
        &["nocca", "solve", "3x4", "--position", "b,b,b/-,-,-/w,w,w b"],
        &["nocca", "solve", "3x3", "--position", "b,-,-/-,-,-/w,w,w b"],
    ] {
        let o = run(dir.path(), args, "");
        assert!(!o.status.success(), "{args:?}");
        assert!(!err(&o).is_empty() && out(&o).is_empty(), "{args:?}");
    }
    // 6x5 needs 74 GB: refused before anything is allocated (where less memory is available).
    let available_gb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let line = m
                .lines()
                .find(|l| l.starts_with("MemAvailable:"))?
                .to_string();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map(|kb| kb / 1_000_000);
    if available_gb.is_some_and(|gb| gb < 70) {
        let o = run(dir.path(), &["nocca", "solve", "6x5"], "");
        assert!(!o.status.success());
        assert!(
            err(&o).contains("needs about 75 GB of memory"),
            "{}",
            err(&o)
        );
    }
    let v = json(dir.path(), &["nocca", "solve", "3x3", "--json"]);
    let path = dir.path().join("tables/nocca-3x3.table");
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let o = run(dir.path(), &["nocca", "solve", "3x3", "--json"], "");
    assert!(o.status.success(), "{}", err(&o));
    assert!(err(&o).contains("damaged"), "{}", err(&o));
    let again: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(again["source"], "solved");
    assert_eq!(again["won"], v["won"]);
}
