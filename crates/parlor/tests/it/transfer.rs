//! `parlor export` and `parlor import` (README, Where data lives): the whole store as one file, the format a
//! browser's Parlor exports too, carried from one data directory to another without a game recorded twice.

use crate::common::*;
use std::path::Path;

/// Plays a finished 2048 game on 3x3 and leaves a second game in progress, in `dir`.
fn fill(dir: &Path) {
    let done = run(
        dir,
        &["2048", "--size", "3", "--seed", "9"],
        &cycle_moves(300),
    );
    assert!(out(&done).contains("Recorded as game #1"), "{}", out(&done));
    let kept = run(dir, &["2048", "--seed", "12"], "a\nd\ns\nq\n");
    assert!(out(&kept).contains("Game saved."), "{}", out(&kept));
}

fn history(dir: &Path) -> serde_json::Value {
    let h = run(dir, &["history", "--json"], "");
    assert!(h.status.success(), "{}", err(&h));
    serde_json::from_str(&out(&h)).unwrap()
}

#[test]
fn a_store_exported_and_imported_elsewhere_holds_the_same_games_once() {
    let from = tempfile::tempdir().unwrap();
    let to = tempfile::tempdir().unwrap();
    fill(from.path());
    let file = from.path().join("parlor-export.json");
    let file_arg = file.to_str().unwrap();
    let e = run(from.path(), &["export", file_arg], "");
    assert!(e.status.success(), "{}", err(&e));
    assert!(
        err(&e).contains("exported 1 finished game, 1 game in progress, 0 set-aside rows"),
        "{}",
        err(&e)
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["format"], "parlor-store");
    assert_eq!(v["version"], 1);
    assert!(v["settings"].as_str().unwrap().contains("theme"), "{text}");

    let i = run(to.path(), &["import", file_arg], "");
    assert!(i.status.success(), "{}", err(&i));
    assert!(
        err(&i).contains(
            "parlor-export.json: 1 finished game added (0 already here), 1 game in progress added (0 already here)"
        ),
        "{}",
        err(&i)
    );
    assert!(err(&i).contains("settings were not applied"), "{}", err(&i));
    let (a, b) = (history(from.path()), history(to.path()));
    assert_eq!(a, b, "the same finished game, field for field");
    // The replay of the imported game rebuilds it.
    let r = run(to.path(), &["replay", "1"], "");
    assert!(out(&r).contains("Game over"), "{}", out(&r));
    // The game in progress continues where it was left.
    let resumed = run(to.path(), &["2048"], "q\n");
    assert!(
        out(&resumed).contains("Continuing your game in progress"),
        "{}",
        out(&resumed)
    );
    assert!(out(&resumed).contains("seed 12"), "{}", out(&resumed));

    // Importing the same file again adds nothing.
    let again = run(to.path(), &["import", file_arg], "");
    assert!(again.status.success(), "{}", err(&again));
    assert!(
        err(&again).contains(
            "parlor-export.json: 0 finished games added (1 already here), 0 games in progress added (1 already here)"
        ),
        "{}",
        err(&again)
    );
    assert_eq!(history(to.path()).as_array().unwrap().len(), 1);
}

#[test]
fn a_damaged_or_newer_file_is_refused_and_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    fill(dir.path());
    let before = history(dir.path());
    let cases = [
        ("not json", "not a Parlor store (not JSON"),
        (
            "{\"format\": \"other\"}",
            "not a Parlor store (no \"format\"",
        ),
        (
            "{\"format\": \"parlor-store\", \"version\": 99, \"games\": []}",
            "from a newer Parlor (store version 99",
        ),
    ];
    for (text, says) in cases {
        let file = dir.path().join("bad.json");
        std::fs::write(&file, text).unwrap();
        let i = run(dir.path(), &["import", file.to_str().unwrap()], "");
        assert!(!i.status.success(), "{text}: {}", err(&i));
        assert!(err(&i).contains(says), "{text}: {}", err(&i));
        assert_eq!(history(dir.path()), before, "{text}");
    }
    let missing = run(dir.path(), &["import", "/nonexistent/parlor.json"], "");
    assert!(!missing.status.success());
    assert!(
        err(&missing).contains("reading /nonexistent/parlor.json"),
        "{}",
        err(&missing)
    );
}

#[test]
fn a_row_that_does_not_read_is_counted_and_the_rest_imported() {
    let from = tempfile::tempdir().unwrap();
    let to = tempfile::tempdir().unwrap();
    fill(from.path());
    let e = run(from.path(), &["export"], "");
    assert!(e.status.success(), "{}", err(&e));
    let mut v: serde_json::Value = serde_json::from_str(&out(&e)).unwrap();
    // A finished game with its score spoilt, beside the sound one.
    let mut bad = v["games"][0].clone();
    bad["score"] = serde_json::Value::from("lots");
    v["games"].as_array_mut().unwrap().push(bad);
    let file = to.path().join("mixed.json");
    std::fs::write(&file, v.to_string()).unwrap();
    let i = run(to.path(), &["import", file.to_str().unwrap()], "");
    assert!(i.status.success(), "{}", err(&i));
    assert!(err(&i).contains("1 finished game added"), "{}", err(&i));
    assert!(
        err(&i).contains("1 set-aside row that does not read as a game stays in the file only"),
        "{}",
        err(&i)
    );
    assert!(
        err(&i).contains("1 row of the file did not read"),
        "{}",
        err(&i)
    );
    assert_eq!(history(to.path()).as_array().unwrap().len(), 1);
}

#[test]
fn the_files_settings_are_taken_only_when_asked_and_only_when_sound() {
    let from = tempfile::tempdir().unwrap();
    let to = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    fill(from.path());
    let e = run(from.path(), &["export"], "");
    let mut v: serde_json::Value = serde_json::from_str(&out(&e)).unwrap();
    v["settings"] = serde_json::Value::from("theme = \"light\"\n");
    let file = to.path().join("light.json");
    std::fs::write(&file, v.to_string()).unwrap();
    let cfg = config.path().to_str().unwrap();
    let i = run(
        to.path(),
        &[
            "--config-dir",
            cfg,
            "import",
            "--settings",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert!(i.status.success(), "{}", err(&i));
    let s = run(to.path(), &["--config-dir", cfg, "settings"], "");
    assert!(out(&s).contains("theme = \"light\""), "{}", out(&s));

    // Settings with a mistake: nothing at all is imported.
    v["settings"] = serde_json::Value::from("theme = \"plaid\"\n");
    std::fs::write(&file, v.to_string()).unwrap();
    let other = tempfile::tempdir().unwrap();
    let bad = run(
        other.path(),
        &[
            "--config-dir",
            cfg,
            "import",
            "--settings",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert!(!bad.status.success());
    assert!(
        err(&bad).contains("the file's settings have a mistake (line 1"),
        "{}",
        err(&bad)
    );
    assert_eq!(history(other.path()).as_array().unwrap().len(), 0);
    let s = run(to.path(), &["--config-dir", cfg, "settings"], "");
    assert!(out(&s).contains("theme = \"light\""), "kept: {}", out(&s));
}
