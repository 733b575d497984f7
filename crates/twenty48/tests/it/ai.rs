//! AI tests: legality, the naive oracle, the table's probability classes, reproducibility.

use proptest::prelude::*;
use twenty48::ai::BucketTable;
use twenty48::ai::Search;
use twenty48::ai::{
    Evaluator, Player, ProbClasses, SearchConfig, Weights, autoplay, naive_expectimax, summarize,
};
use twenty48::{Board, Direction, Rules};

fn board4(max_exp: u8) -> impl Strategy<Value = Board> {
    proptest::collection::vec(
        proptest::collection::vec(prop_oneof![2 => Just(0u8), 3 => 1..=max_exp], 4),
        4,
    )
    .prop_map(|rows| Board::from_exponents(&rows).unwrap())
}

fn any_board() -> impl Strategy<Value = Board> {
    (3usize..=6).prop_flat_map(|n| {
        proptest::collection::vec(
            proptest::collection::vec(prop_oneof![Just(0u8), 1u8..=6], n),
            n,
        )
        .prop_map(|rows| Board::from_exponents(&rows).unwrap())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The search plays only legal moves, and `None` only when no move is legal.
    #[test]
    fn best_move_is_legal(b in any_board(), depth in 1u32..=2) {
        let mut p = Player::new(SearchConfig::depth(depth));
        let legal: Vec<Direction> = Direction::ALL.into_iter().filter(|&d| b.can_slide(d)).collect();
        match p.best_move(&b, 0.1) {
            Some(d) => prop_assert!(legal.contains(&d)),
            None => prop_assert!(legal.is_empty()),
        }
    }

    /// With the cut-off disabled in both, the optimised search (bitboard, transposition table shared across root moves
    /// and kept across calls) returns exactly the naive expectimax's move and value.
    #[test]
    fn matches_naive_expectimax(b in board4(9), depth in 1u32..=3, four in prop_oneof![Just(0.1f64), Just(0.0), Just(0.5)]) {
        let eval = Evaluator::new(Weights::default());
        let tt = BucketTable::new(12);
        let naive = naive_expectimax(&b, depth, four, 0.0, &eval);
        for _ in 0..2 {
            let mut s = Search::with_buckets(&eval, &tt, four, 0.0);
            let fast = s.best(b.to_bitboard().unwrap(), depth, &Direction::ALL);
            prop_assert_eq!(fast, naive);
        }
        // Same with the default cut-off in both, and no table (the cut-off semantics are shared).
        let naive_cut = naive_expectimax(&b, depth, four, 1e-2, &eval);
        let mut s = Search::new(&eval, four, 1e-2);
        prop_assert_eq!(s.best(b.to_bitboard().unwrap(), depth, &Direction::ALL), naive_cut);
    }

    /// The bucket table returns exactly the naive expectimax's move and value too.
    #[test]
    fn bucket_table_search_matches_naive_expectimax(b in board4(9), depth in 1u32..=3) {
        let eval = Evaluator::new(Weights::default());
        let buckets = BucketTable::new(10);
        let naive = naive_expectimax(&b, depth, 0.1, 0.0, &eval);
        for _ in 0..2 {
            let mut s = Search::with_buckets(&eval, &buckets, 0.1, 0.0);
            prop_assert_eq!(s.best(b.to_bitboard().unwrap(), depth, &Direction::ALL), naive);
        }
    }
}

/// A chance node searched where its path was improbable is cut short by the probability cut-off. Its value, kept in
/// the table, is what the same board reached by a likely path gets later unless the table tells paths apart by the
/// octave of their probability (`Search::set_prob_classes`): then the likely path searches its own, deeper sub-tree and
/// gets the value of a search without a table, and each path keeps its own entry.
#[test]
fn an_entry_stored_on_an_improbable_path_is_not_taken_for_a_likely_one() {
    let b: Board = "2,4,8,16/32,64,2,4/8,0,0,2/0,4,0,8".parse().unwrap();
    let after = b.to_bitboard().unwrap();
    let eval = Evaluator::new(Weights::default());
    let cutoff = 1e-3;
    let (depth, unlikely) = (4, 2e-3);
    let fresh = |prob: f32| Search::new(&eval, 0.1, cutoff).chance_node(after, depth, prob);
    let (deep, shallow) = (fresh(1.0), fresh(unlikely));
    assert_ne!(
        deep, shallow,
        "the cut-off must shorten the improbable path's search"
    );
    for classes in [ProbClasses::Off, ProbClasses::Same] {
        let buckets = BucketTable::new(12);
        let search = || {
            let mut s = Search::with_buckets(&eval, &buckets, 0.1, cutoff);
            s.set_prob_classes(classes);
            s
        };
        assert_eq!(search().prob_classes(), classes);
        assert_eq!(search().chance_node(after, depth, unlikely), shallow);
        let mut later = search();
        let value = later.chance_node(after, depth, 1.0);
        if classes == ProbClasses::Off {
            assert_eq!(value, shallow);
            assert_eq!((later.nodes, later.hits), (0, 1));
        } else {
            assert_eq!(value, deep);
            assert!(later.nodes > 0);
        }
        // The improbable path asks again: with the classes its own entry answers, not the likely path's.
        let mut again = search();
        let value = again.chance_node(after, depth, unlikely);
        if classes == ProbClasses::Same {
            assert_eq!((value, again.nodes, again.hits), (shallow, 0, 1));
        } else {
            assert_eq!(value, shallow);
        }
    }
}

/// Without a cut-off the path probability changes no value, and the classes are not used.
#[test]
fn classes_need_a_cut_off() {
    let eval = Evaluator::new(Weights::default());
    let buckets = BucketTable::new(8);
    for (cutoff, used) in [(1e-3, ProbClasses::Same), (0.0, ProbClasses::Off)] {
        let mut s = Search::with_buckets(&eval, &buckets, 0.1, cutoff);
        s.set_prob_classes(ProbClasses::Same);
        assert_eq!(s.prob_classes(), used, "cut-off {cutoff}");
    }
}

#[test]
fn no_legal_move_gives_none() {
    let b: Board = "2,4,2,4/4,2,4,2/2,4,2,4/4,2,4,2".parse().unwrap();
    assert_eq!(Player::new(SearchConfig::depth(3)).best_move(&b, 0.1), None);
    let b: Board = "2,4,2/4,2,4/2,4,2".parse().unwrap();
    assert_eq!(
        Player::new(SearchConfig::millis(1.0)).best_move(&b, 0.1),
        None
    );
}

#[test]
fn single_legal_move_is_played() {
    // The last column is empty and nothing merges: only right changes the board.
    let one: Board = "2,4,2,./4,2,4,./2,4,2,./4,2,4,.".parse().unwrap();
    let legal: Vec<_> = Direction::ALL
        .into_iter()
        .filter(|&d| one.can_slide(d))
        .collect();
    assert_eq!(legal, vec![Direction::Right]);
    for cfg in [SearchConfig::depth(3), SearchConfig::millis(1.0)] {
        assert_eq!(
            Player::new(cfg).best_move(&one, 0.1),
            Some(Direction::Right)
        );
    }
    let five: Board = "2,4,2,4,./4,2,4,2,./2,4,2,4,./4,2,4,2,./2,4,2,4,."
        .parse()
        .unwrap();
    assert_eq!(
        Player::new(SearchConfig::depth(2)).best_move(&five, 0.1),
        Some(Direction::Right)
    );
}

#[test]
fn big_tiles_stay_legal() {
    // Two 65536 tiles side by side: the capped bitboard sees them as 32768s; the move must still be legal.
    let b: Board = "65536,65536,131072,2/4,8,16,32/2,4,8,16/4,2,4,2"
        .parse()
        .unwrap();
    let mut p = Player::new(SearchConfig::depth(2));
    let d = p.best_move(&b, 0.1).unwrap();
    assert!(b.can_slide(d));
}

#[test]
fn autoplay_is_reproducible() {
    let rules = Rules::default();
    let cfg = SearchConfig::depth(2);
    let a = autoplay(&rules, 9, &cfg);
    let b = autoplay(&rules, 9, &cfg);
    assert_eq!(
        (a.score, a.max_tile, a.moves),
        (b.score, b.max_tile, b.moves)
    );
    assert!(a.moves > 100);
    let s = summarize(&[a, b]);
    assert_eq!(s.games, 2);
    assert_eq!(s.min_score, s.max_score);
}

#[test]
fn other_sizes_play_to_the_end() {
    for size in [3, 5] {
        let rules = Rules::new(size, 0.1, 2048).unwrap();
        let r = autoplay(&rules, 4, &SearchConfig::depth(1));
        assert!(r.moves > 10, "{size}: {r}");
    }
}

#[test]
fn two_threads_play_legal_moves() {
    let b: Board = "2,2,0,0/0,4,0,0/0,0,8,0/0,0,0,2".parse().unwrap();
    let mut p = Player::new(SearchConfig {
        depth: Some(3),
        ms_per_move: None,
        threads: 2,
    });
    let d = p.best_move(&b, 0.1).unwrap();
    assert!(b.can_slide(d));
    // Without a cut-off the shared table is exact, so the threaded search agrees with one thread.
    let mut p1 = Player::new(SearchConfig::depth(3));
    p.set_cutoff(0.0);
    p1.set_cutoff(0.0);
    assert_eq!(p.best_move(&b, 0.1), p1.best_move(&b, 0.1));
    assert_eq!(p.last_stats().values, p1.last_stats().values);
}
