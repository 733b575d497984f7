//! Optimal trees built once in the background and kept in the data directory (issue 14: optimal hints in every
//! preset that can have them, Bulls and Cows among them).

use crate::common;
use crate::common::*;
use mastermind::{Breaker, CodeStyle, Strategy, StrategyTree, Variant, builds_tree_at_once};
use parlor::games::mastermind::default_strategy;
use parlor::games::mastermind::trees::{self, TreeState, Trees};
use std::time::{Duration, Instant};

/// 840 secrets without repeats: too many for the breaker to build the optimal tree at once, built here in
/// milliseconds.
const SMALL: &str = "custom-7-4-10-nn";
/// 1680 secrets: a build of about half a second, long enough to be seen under way.
const LARGER: &str = "custom-8-4-10-nn";

fn args(variant: &Variant) -> Vec<String> {
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
    vec![
        "mastermind".into(),
        "--variant".into(),
        "custom".into(),
        "--colours".into(),
        variant.colours().to_string(),
        "--pegs".into(),
        variant.pegs().to_string(),
        "--guesses".into(),
        variant.guesses().to_string(),
        "--secret-repeats".into(),
        yes_no(variant.secret_repeats()),
        "--guess-repeats".into(),
        yes_no(variant.guess_repeats()),
        "--seed".into(),
        "4".into(),
    ]
}

fn hint_line(dir: &std::path::Path, variant: &Variant) -> String {
    let a = args(variant);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let o = run(dir, &a, "t\nq\n");
    assert!(o.status.success(), "{}", err(&o));
    out(&o)
        .lines()
        .find(|l| l.contains("try "))
        .unwrap_or_else(|| panic!("no hint in:\n{}", out(&o)))
        .to_string()
}

/// In a process of its own: it sets the process's data directory for trees (and finds none set before).
#[test]
fn a_tree_is_built_in_the_background_kept_and_used_by_every_breaker() {
    if !common::in_own_process(
        module_path!(),
        "a_tree_is_built_in_the_background_kept_and_used_by_every_breaker",
    ) {
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let v: Variant = SMALL.parse().unwrap();
    assert!(!builds_tree_at_once(&v, Strategy::Optimal));
    assert_eq!(default_strategy(&v), Strategy::Optimal);
    // Nothing is built before there is a data directory to keep it in.
    assert_eq!(
        Trees::default().ensure(&v, Strategy::Optimal),
        TreeState::Nowhere
    );
    let kept = Trees::new(Some(data.path()));
    // Not needed where the breaker builds it at once (heuristics up to 1296 secrets, optimal on classic).
    assert_eq!(kept.ensure(&v, Strategy::Entropy), TreeState::NotNeeded);
    assert_eq!(
        kept.ensure(&Variant::CLASSIC, Strategy::Optimal),
        TreeState::NotNeeded
    );
    let start = Instant::now();
    loop {
        match kept.ensure(&v, Strategy::Optimal) {
            TreeState::Ready => break,
            TreeState::Building(p) => {
                assert!(p.share.is_none_or(|s| (0.0..=0.99).contains(&s)), "{p:?}");
                assert!(p.estimate > 0.0, "{p:?}");
            }
            other => panic!("{other:?}"),
        }
        assert!(start.elapsed() < Duration::from_secs(120), "still building");
        std::thread::sleep(Duration::from_millis(5));
    }
    let file = trees::tree_file(&data.path().join("trees"), &v, Strategy::Optimal);
    let tree = StrategyTree::load(&file).expect("the tree is kept, whole");
    assert_eq!(tree.strategy(), Strategy::Optimal);
    assert_eq!(tree.verify().unwrap().total, 3639);
    let b = Breaker::new(&v, Strategy::Optimal).unwrap();
    assert_eq!(b.next_guess(), tree.root_guess());
    assert_eq!(b.expected_guesses_left(), 3639.0 / 840.0);
    // A heuristic's tree over 1296 secrets (Super Mastermind's entropy tree, here 1680 secrets) is built the same
    // way, and kept beside the optimal one.
    let larger: Variant = LARGER.parse().unwrap();
    assert!(!builds_tree_at_once(&larger, Strategy::Entropy));
    let live = Breaker::new(&larger, Strategy::Entropy)
        .unwrap()
        .next_guess();
    let start = Instant::now();
    while kept.ensure(&larger, Strategy::Entropy) != TreeState::Ready {
        assert!(start.elapsed() < Duration::from_secs(120), "still building");
        std::thread::sleep(Duration::from_millis(5));
    }
    let file = trees::tree_file(&data.path().join("trees"), &larger, Strategy::Entropy);
    assert!(
        file.ends_with("custom-8-4-10-nn-entropy.pmt"),
        "{}",
        file.display()
    );
    let tree = StrategyTree::load(&file).unwrap();
    assert_eq!(tree.strategy(), Strategy::Entropy);
    let b = Breaker::new(&larger, Strategy::Entropy).unwrap();
    assert_eq!(b.next_guess(), tree.root_guess());
    assert_eq!(
        tree.root_guess(),
        live,
        "the same guess with or without the tree"
    );
}

#[test]
fn the_hint_reads_a_kept_tree_and_says_when_one_is_being_built() {
    let data = tempfile::tempdir().unwrap();
    // A tree kept by an earlier run: the first hint is its root, with no note.
    let small: Variant = SMALL.parse().unwrap();
    let tree = StrategyTree::build(&small, Strategy::Optimal).unwrap();
    let dir = data.path().join("trees");
    std::fs::create_dir_all(&dir).unwrap();
    tree.save(&trees::tree_file(&dir, &small, Strategy::Optimal))
        .unwrap();
    let line = hint_line(data.path(), &small);
    let root = small
        .format_code(&tree.root_guess(), CodeStyle::Symbols)
        .to_string();
    assert!(line.contains(&format!("try {root}")), "{root}: {line}");
    assert!(!line.contains("being built"), "{line}");
    assert!(line.contains("about 4.3 guesses to go"), "{line}");
    // No tree yet: the hint is a heuristic's, and says the build has started.
    let larger: Variant = LARGER.parse().unwrap();
    let line = hint_line(data.path(), &larger);
    assert!(line.contains("optimal tree being built"), "{line}");
    // A damaged file is not trusted: built again.
    let file = trees::tree_file(&dir, &larger, Strategy::Optimal);
    std::fs::write(&file, b"PMMTREE1 damaged").unwrap();
    let line = hint_line(data.path(), &larger);
    assert!(line.contains("optimal tree being built"), "{line}");
}

/// `parlor mastermind solve` reads the tree a game kept (no build: the figures at once, and says so), and a tree it
/// builds is kept for games; the trees every front end builds at once are not written.
#[test]
fn solve_reads_the_tree_a_game_kept_and_keeps_the_one_it_builds() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().join("trees");
    let small: Variant = SMALL.parse().unwrap();
    let file = trees::tree_file(&dir, &small, Strategy::Optimal);
    let a = [
        "mastermind",
        "solve",
        "--variant",
        SMALL,
        "--strategy",
        "optimal",
        "--json",
    ];
    // No tree yet: built, and kept.
    let o = run(data.path(), &a, "");
    assert!(o.status.success(), "{}", err(&o));
    assert!(err(&o).contains("the tree is kept in"), "{}", err(&o));
    let built: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(built["total"], 3639);
    let kept = StrategyTree::load(&file).expect("kept whole");
    assert_eq!(kept.verify().unwrap().total, 3639);
    // Kept (as a game keeps it): read, not built; the same figures.
    let o = run(data.path(), &a, "");
    assert!(err(&o).contains("read the tree kept in"), "{}", err(&o));
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(out(&o).trim()).unwrap(),
        built
    );
    // A damaged file is built again (and replaced).
    std::fs::write(&file, b"not a tree").unwrap();
    let o = run(data.path(), &a, "");
    assert!(err(&o).contains("the tree is kept in"), "{}", err(&o));
    assert!(StrategyTree::load(&file).is_ok());
    // Classic's optimal tree is built at once by every front end: nothing is written for it.
    let o = run(
        data.path(),
        &["mastermind", "solve", "--variant", "classic", "--json"],
        "",
    );
    assert!(o.status.success() && err(&o).is_empty(), "{}", err(&o));
    assert!(!trees::tree_file(&dir, &Variant::CLASSIC, Strategy::Optimal).exists());
}
