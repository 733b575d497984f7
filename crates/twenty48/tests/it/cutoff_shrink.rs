//! The cut-off that shrinks with the depth of an iteration (`CutoffShrink`): what it changes in iterative deepening,
//! and the table keys that let entries stored under one cut-off answer under another.

use twenty48::ai::search::Search;
use twenty48::ai::tt::{BucketTable, TranspositionTable};
use twenty48::ai::{CutoffShrink, Evaluator, Player, ProbClasses, SearchConfig, Weights};
use twenty48::{Board, Direction};

/// A board with six empty cells: a 2-spawn's path keeps 0.15 of its probability a move.
const SIX_EMPTY: &str = "2,4,8,16/32,64,0,4/8,0,0,2/0,4,0,0";

/// Under a fixed cut-off, the iterations past the depth where the cut-off ends every path search little that is new:
/// the likely paths they lengthen are few, and the rest is found in the table. With a shrinking cut-off each deeper
/// iteration also searches wider, and the iterations up to the shrink's depth are those of the fixed cut-off.
#[test]
fn deeper_iterations_search_wider_when_the_cutoff_shrinks() {
    let board: Board = SIX_EMPTY.parse().unwrap();
    let nodes = |depth: u32, shrink: Option<CutoffShrink>| {
        let mut p = Player::new(SearchConfig::depth(depth));
        p.set_cutoff(0.05);
        p.set_cutoff_shrink(shrink);
        assert_eq!(p.cutoff_shrink(), shrink);
        assert!(p.best_move(&board, 0.1).is_some());
        assert_eq!(p.last_stats().depth, depth);
        p.last_stats().clone()
    };
    let shrink = CutoffShrink::new(4, 1).ok();
    // A fixed cut-off: four more iterations hardly more than double the nodes of the first five (145 and 333).
    let (five, nine) = (nodes(5, None), nodes(9, None));
    assert!(
        nine.nodes < 3 * five.nodes,
        "{} then {}",
        five.nodes,
        nine.nodes
    );
    // A shrinking one: each of them searches more than all the fixed cut-off's iterations.
    let wider = nodes(9, shrink);
    assert!(
        wider.nodes > 5 * nine.nodes,
        "{} against {}",
        wider.nodes,
        nine.nodes
    );
    // Up to the shrink's depth nothing changes.
    let mut same = nodes(4, shrink);
    same.ms = 0.0;
    let mut plain = nodes(4, None);
    plain.ms = 0.0;
    assert_eq!(same, plain);
}

/// A chance node's value depends on its path probability only through its ratio to the cut-off: a search whose
/// cut-off and path probabilities are both 4 times smaller returns exactly the same values. With the class shift of
/// those two octaves its keys are those of the first search, so it finds the first search's entries; without the
/// shift it finds none (and recomputes the same values).
#[test]
fn shifted_classes_meet_the_entries_of_a_larger_cutoff() {
    let board: Board = SIX_EMPTY.parse().unwrap();
    let eval = Evaluator::new(Weights::default());
    let (cutoff, depth) = (4e-3f32, 4);
    let root = board.to_bitboard().unwrap();
    for slot_table in [true, false] {
        for shift in [2u32, 0] {
            let slots = TranspositionTable::new(14);
            let buckets = BucketTable::new(14);
            let search = |c: f32, shift: u32| {
                let mut s = if slot_table {
                    Search::new(&eval, Some(&slots), 0.1, c)
                } else {
                    Search::with_buckets(&eval, &buckets, 0.1, c)
                };
                s.set_prob_classes(ProbClasses::Same);
                s.set_class_shift(shift);
                s
            };
            let mut first = search(cutoff, 0);
            let values = root_values(&mut first, root, depth, 1.0);
            assert!(first.nodes > 0 && values.len() >= 2);
            let mut second = search(cutoff / 4.0, shift);
            let again = root_values(&mut second, root, depth, 0.25);
            assert_eq!(again, values, "slot table {slot_table}, shift {shift}");
            if shift == 2 {
                assert_eq!(second.nodes, 0, "every root chance node is found");
                assert_eq!(second.hits, values.len() as u64);
            } else {
                // Other keys: the second search finds nothing of the first's and does all its work again.
                assert_eq!((second.nodes, second.hits), (first.nodes, first.hits));
            }
        }
    }
}

/// The values of the chance nodes of `root`'s legal moves, each reached with path probability `prob`.
fn root_values(s: &mut Search, root: u64, depth: u32, prob: f32) -> Vec<f32> {
    Direction::ALL
        .iter()
        .filter_map(|&d| {
            let after = twenty48::bitboard::slide(root, d);
            (after != root).then(|| s.chance_node(after, depth, prob))
        })
        .collect()
}
