//! `parlor 2048 slide` with the largest tiles (issue 25): the engine's rule (RULES.md, 2048, "Tiles are never
//! capped") decides; a slide that would make a 2^64 tile, even while it also makes a 2^63 elsewhere, is refused.

use crate::common::{err, out, run};

#[test]
fn a_slide_merging_two_2_63_tiles_while_making_another_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let board =
        "9223372036854775808,9223372036854775808,0/4611686018427387904,4611686018427387904,0/0,0,0";
    let o = run(dir.path(), &["2048", "slide", board, "left", "--json"], "");
    assert!(!o.status.success(), "{}", out(&o));
    assert!(out(&o).is_empty(), "no board is printed: {}", out(&o));
    assert!(
        err(&o).contains("sliding left") && err(&o).contains("cannot hold"),
        "{}",
        err(&o)
    );
    // Points past 2^64 - 1 are refused too (four 2^62 tiles make two 2^63: 2^64 points).
    let four = "4611686018427387904,4611686018427387904,4611686018427387904,4611686018427387904/0,0,0,0/0,0,0,0/0,0,0,0";
    let o = run(dir.path(), &["2048", "slide", four, "left"], "");
    assert!(!o.status.success(), "{}", out(&o));
    assert!(err(&o).contains("2^64 points"), "{}", err(&o));
    // A slide that can be held is answered exactly.
    let fine = "4611686018427387904,4611686018427387904,0/0,0,0/0,0,0";
    let o = run(dir.path(), &["2048", "slide", fine, "left", "--json"], "");
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(
        out(&o).trim(),
        r#"{"board":"9223372036854775808,0,0/0,0,0/0,0,0","gained":9223372036854775808,"moved":true}"#
    );
}
