//! The best Super Mastermind tree compiled into the engine (`data/super-best.pmct`): read, checked and
//! replayed against all 32,768 secrets with the naive reference feedback function (RULES.md, "Feedback": black
//! pegs for right colour in the right place, white for right colour in the wrong place, classic rules).

use mastermind::{
    Breaker, SUPER_BEST_MAX, SUPER_BEST_TOTAL, Strategy, StrategyTree, Variant, feedback_naive,
    stored_tree,
};

#[test]
fn the_stored_tree_replays_every_secret_with_its_total_and_max() {
    let tree = stored_tree(&Variant::SUPER)
        .expect("Super Mastermind has a stored tree")
        .expect("the compiled-in tree reads and replays");
    // An independent replay here, beside the one reading does (`StrategyTree::verify`).
    let mut total = 0u64;
    let mut max = 0u32;
    let secrets = Variant::SUPER.secrets();
    assert_eq!(secrets.len(), 32_768);
    for &secret in &secrets {
        let mut history = Vec::new();
        loop {
            let guess = tree
                .guess_at(&history)
                .expect("the tree covers every history");
            let fb = feedback_naive(secret, guess);
            history.push((guess, fb));
            if fb.black == 5 {
                break;
            }
            assert!(history.len() <= 12, "Super Mastermind allows 12 guesses");
        }
        total += history.len() as u64;
        max = max.max(history.len() as u32);
    }
    assert_eq!(total, SUPER_BEST_TOTAL);
    assert_eq!(max, SUPER_BEST_MAX);
    let report = tree.verify().unwrap();
    assert_eq!((report.total, report.max), (total, max));
    // Better than the entropy heuristic it looks ahead over.
    let entropy = StrategyTree::build(&Variant::SUPER, Strategy::Entropy)
        .unwrap()
        .claimed();
    assert!(total < entropy.total, "{total} vs {entropy}");
}

#[test]
fn best_plays_the_stored_tree_on_super_and_optimal_elsewhere() {
    let tree = stored_tree(&Variant::SUPER).unwrap().unwrap();
    let b = Breaker::new(&Variant::SUPER, Strategy::Best).unwrap();
    assert_eq!(b.next_guess(), tree.root_guess());
    let built = StrategyTree::build(&Variant::SUPER, Strategy::Best).unwrap();
    assert_eq!(built.claimed().total, SUPER_BEST_TOTAL);
    let classic = StrategyTree::build(&Variant::CLASSIC, Strategy::Best).unwrap();
    assert_eq!(classic.claimed().total, 5625, "best is optimal on classic");
}
