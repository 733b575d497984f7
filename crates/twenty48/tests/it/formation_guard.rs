//! Tests of the formation guard at the root (`ai::FormationGuard`, `Player::set_formation_guard`): within its margin
//! the player plays the best move that leaves the large tiles where they were, beyond it the search's best move.

use std::sync::Arc;

use twenty48::ai::ntuple::{game_rng, shipped};
use twenty48::ai::{FormationGuard, Player, SearchConfig};
use twenty48::{Board, Direction};

/// The move of the best value in `values` (the first of equal values, as the player picks).
fn best(values: &[(Direction, f32)]) -> Direction {
    let mut top = values[0];
    for &(d, v) in values {
        if v > top.1 {
            top = (d, v);
        }
    }
    top.0
}

#[test]
fn the_guard_keeps_the_formation_within_its_margin_and_not_beyond() {
    let net = Arc::clone(shipped().unwrap());
    let player = |guard: Option<FormationGuard>| {
        let mut p = Player::with_network(SearchConfig::depth(1), Arc::clone(&net));
        p.set_formation_guard(guard);
        p
    };
    let (mut free, mut always, mut never) = (
        player(None),
        player(Some(FormationGuard::new(10, 1.0).unwrap())),
        player(Some(FormationGuard::new(10, 0.0).unwrap())),
    );
    let guard = FormationGuard::new(10, 1.0).unwrap();
    // A last-stage board of a lost game: 16384 to 2048 down the right edge, 1024 and 512 beside them.
    let mut board: Board = "2,4,32,16384/0,16,256,8192/0,64,512,4096/2,2,1024,2048"
        .parse()
        .unwrap();
    let mut rng = game_rng(3, 0);
    let (mut kept, mut differ) = (0, 0);
    for _ in 0..300 {
        let Some(d) = free.best_move(&board, 0.1) else {
            break;
        };
        let values = free.last_stats().values.clone();
        assert_eq!(d, best(&values));
        let formation = guard.formation(&board);
        let keepers: Vec<Direction> = values
            .iter()
            .map(|&(m, _)| m)
            .filter(|&m| FormationGuard::keeps(&board, m, &formation))
            .collect();
        let a = always.best_move(&board, 0.1).unwrap();
        assert_eq!(
            always.last_stats().values,
            values,
            "the guard changes no value"
        );
        if keepers.is_empty() || values.len() < 2 {
            assert_eq!(a, d);
        } else {
            assert!(keepers.contains(&a), "{board}: {a:?} breaks the formation");
            kept += 1;
            differ += usize::from(a != d);
        }
        // A margin of 0 takes a keeping move only when it is worth the best value itself.
        let z = never.best_move(&board, 0.1).unwrap();
        let top = values.iter().map(|&(_, v)| v).fold(f32::MIN, f32::max);
        assert!(z == d || values.iter().any(|&(m, v)| m == z && v == top));
        board = board.slide(d).board;
        twenty48::spawn::spawn(&mut board, &mut rng, 0.1);
    }
    assert!(kept > 20, "only {kept} boards with a formation to keep");
    assert!(differ > 0, "the guard never changed a move");
}
