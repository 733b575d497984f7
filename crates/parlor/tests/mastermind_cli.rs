//! `parlor mastermind feedback` and `solve`: one JSON object with --json, errors on stderr.

mod common;
use common::*;

fn json(args: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), args, "");
    assert!(o.status.success(), "{}", err(&o));
    serde_json::from_str(&out(&o)).unwrap()
}

#[test]
fn feedback_counts_black_and_white() {
    assert_eq!(
        json(&["mastermind", "feedback", "1 2 3 4", "2 1 3 5", "--json"]),
        serde_json::json!({"black": 1, "white": 2})
    );
    // Repeated colours use the exact formula (classic allows them in the secret).
    assert_eq!(
        json(&[
            "mastermind",
            "feedback",
            "1123",
            "1111",
            "--variant",
            "classic",
            "--json"
        ]),
        serde_json::json!({"black": 2, "white": 0})
    );
    assert_eq!(
        json(&[
            "mastermind",
            "feedback",
            "0123",
            "3210",
            "--variant",
            "bulls-cows",
            "--json"
        ]),
        serde_json::json!({"black": 0, "white": 4})
    );
}

#[test]
fn feedback_refuses_bad_codes_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["mastermind", "feedback", "1123", "1111"], "");
    assert!(!o.status.success());
    assert!(err(&o).contains("RED is repeated"), "{}", err(&o));
    let o = run(
        dir.path(),
        &["mastermind", "feedback", "1 2 3", "1 2 3 4"],
        "",
    );
    assert!(
        err(&o).contains("wrong length: got 3 colours, need 4"),
        "{}",
        err(&o)
    );
}

#[test]
fn solve_classic_knuth_totals_5801() {
    assert_eq!(
        json(&[
            "mastermind",
            "solve",
            "--variant",
            "classic",
            "--strategy",
            "knuth",
            "--json"
        ]),
        serde_json::json!({"total": 5801, "codes": 1296, "average": 4.476, "max": 5,
            "histogram": [0, 1, 6, 62, 533, 694]})
    );
}

#[test]
fn solve_readable_line_and_default_strategy() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["mastermind", "solve", "--strategy", "knuth"],
        "",
    );
    assert_eq!(
        out(&o).trim(),
        "seed, knuth: 1485 guesses over 360 codes, average 4.125, at most 5; codes found in k guesses \
         (k = 0, 1, ...): 0 1 1 50 208 100"
    );
    let v = json(&["mastermind", "solve", "--json"]);
    assert_eq!(v["codes"], 360);
}

#[test]
fn invalid_variants_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    for (args, reason) in [
        (
            vec!["--colours", "3", "--pegs", "5", "--no-secret-repeats"],
            "3 colours cannot fill 5 pegs",
        ),
        (vec!["--colours", "11"], "11 colours is out of range"),
        (vec!["--pegs", "9"], "9 pegs is out of range"),
        (
            vec!["--secret-repeats", "--no-guess-repeats"],
            "needs guesses that may repeat",
        ),
        (vec!["--variant", "huge"], "unknown variant 'huge'"),
        (vec!["--strategy", "lucky"], "unknown strategy 'lucky'"),
    ] {
        let mut a = vec!["mastermind"];
        a.extend(args);
        let o = run(dir.path(), &a, "");
        assert!(!o.status.success());
        assert!(err(&o).contains(reason), "{a:?}: {}", err(&o));
    }
    // A custom variant plays: 4 colours, 3 pegs.
    let o = run(
        dir.path(),
        &["mastermind", "--colours", "4", "--pegs", "3", "--seed", "1"],
        "q\n",
    );
    assert!(
        out(&o).contains("1 - RED, 2 - GREEN, 3 - YELLOW, 4 - BLUE"),
        "{}",
        out(&o)
    );
    assert!(out(&o).contains("Variant custom-4-3-8-ny"), "{}", out(&o));
}
