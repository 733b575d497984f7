//! Mastermind's trees made elsewhere ([`super::kept`]), as the page's worker uses them: a tree wanted once, built
//! by the builder, taken whole or refused; the hints a heuristic's meanwhile, then the tree's.

use super::Mastermind;
use super::kept::KEPT;
use crate::mid::Contexts;
use crate::mid::elsewhere::Request;
use crate::mid::game::{Game, Purpose};
use crate::mid::kept::Kept;

#[test]
fn a_tree_wanted_is_built_by_key_taken_and_then_hints_come_from_it() {
    let c = Contexts::new(&crate::registry::any(), None);
    KEPT.make_elsewhere(&c);
    // Small enough for a test (840 secrets, built in the background like Bulls and Cows' 5040).
    let r = Request {
        id: 1,
        game: Mastermind::ID.into(),
        options: r#"{"variant":"custom-7-4-10-nn","role":"breaker","strategy":"optimal"}"#.into(),
        seed: 4,
        moves: String::new(),
        purpose: Purpose::Hint,
        pace_ms: None,
    };
    Mastermind::params_from_json(&r.options).unwrap();
    let hint = || {
        crate::registry::find(Mastermind::ID)
            .unwrap()
            .think(&r, &c)
            .unwrap()
            .words
            .unwrap()
    };
    assert_eq!(KEPT.wanted(&c), None);
    let words = hint();
    assert!(words.contains("a heuristic guess meanwhile"), "{words}");
    let key = KEPT.wanted(&c).expect("the optimal tree is wanted");
    assert_eq!(key, "custom-7-4-10-nn-optimal.pmt");
    assert!(KEPT.owns(&key) && !KEPT.owns("nocca-3x3.table"));
    assert_eq!(KEPT.wanted(&c), None, "handed out once");
    assert_eq!(KEPT.waits_for(&c, &r), None, "a hint never waits");
    let bytes = KEPT.build(&key, &mut |_| {}).unwrap();
    let mut bad = bytes.clone();
    bad[20] ^= 1;
    assert!(KEPT.take(&c, &key, &bad).unwrap_err().contains("checksum"));
    assert!(
        KEPT.take(&c, "custom-7-4-10-nn-entropy.pmt", &bytes)
            .is_err()
    );
    assert_eq!(
        KEPT.take(&c, &key, &bytes).unwrap(),
        "custom-7-4-10-nn optimal"
    );
    let words = hint();
    assert!(words.contains("from the optimal tree"), "{words}");
    assert!(!words.contains("heuristic"), "{words}");
    assert!(KEPT.fetch(&c, &key).is_err(), "trees are not fetched");
}
