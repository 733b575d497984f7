//! Property tests of the slide engines and the notation.

use proptest::prelude::*;
use twenty48::{Board, Direction, bitboard};

fn board_strategy(max_exp: u8) -> impl Strategy<Value = Board> {
    (3usize..=8).prop_flat_map(move |n| {
        proptest::collection::vec(
            proptest::collection::vec(prop_oneof![Just(0u8), 0..=max_exp], n),
            n,
        )
        .prop_map(|rows| Board::from_exponents(&rows).unwrap())
    })
}

fn board4(max_exp: u8) -> impl Strategy<Value = Board> {
    proptest::collection::vec(
        proptest::collection::vec(prop_oneof![Just(0u8), 0..=max_exp], 4),
        4,
    )
    .prop_map(|rows| Board::from_exponents(&rows).unwrap())
}

fn dir() -> impl Strategy<Value = Direction> {
    prop::sample::select(Direction::ALL.to_vec())
}

fn naive_game_over(b: &Board) -> bool {
    let n = b.size();
    for r in 0..n {
        for c in 0..n {
            let e = b.exponent(r, c);
            if e == 0 {
                return false;
            }
            for (dr, dc) in [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)] {
                let (rr, cc) = (r as i64 + dr, c as i64 + dc);
                if rr >= 0
                    && cc >= 0
                    && (rr as usize) < n
                    && (cc as usize) < n
                    && b.exponent(rr as usize, cc as usize) == e
                {
                    return false;
                }
            }
        }
    }
    true
}

proptest! {
    #[test]
    fn tile_sum_conserved(b in board_strategy(20), d in dir()) {
        let s = b.slide(d);
        prop_assert_eq!(s.board.tile_sum(), b.tile_sum());
        prop_assert_eq!(s.moved, s.board != b);
        prop_assert_eq!(b.can_slide(d), s.moved);
    }

    /// Gained points are exactly the values of the merged tiles, and tiles never get smaller.
    #[test]
    fn gained_is_sum_of_merged(b in board_strategy(20), d in dir()) {
        let s = b.slide(d);
        let sum: u64 = s.merged.iter().map(|&(r, c)| s.board.tile(r, c)).sum();
        prop_assert_eq!(s.gained, sum);
        prop_assert_eq!(s.board.empty_count(), b.empty_count() + s.merged.len());
    }

    /// Sliding twice the same way: the tiles are already packed against the wall after the first slide, so the second
    /// slide never moves a tile without merging. It changes the board only if it merges; if the first slide made no
    /// merge, the second is a no-op (a slide is idempotent on boards where it merges nothing).
    #[test]
    fn second_slide_only_merges(b in board_strategy(20), d in dir()) {
        let once = b.slide(d);
        let twice = once.board.slide(d);
        if twice.merged.is_empty() {
            prop_assert!(!twice.moved);
            prop_assert_eq!(twice.board, once.board);
        }
        if once.merged.is_empty() {
            prop_assert!(!twice.moved, "{} then {} moved again", b, once.board);
        }
    }

    #[test]
    fn bitboard_matches_general(b in board4(15), d in dir()) {
        let bb = b.to_bitboard().unwrap();
        let fifteens = b.rows().flatten().filter(|&&e| e == 15).count();
        prop_assume!(fifteens <= 1);
        let general = b.slide_general(d);
        prop_assert_eq!(Board::from_bitboard(bitboard::slide(bb, d)), general.board);
        prop_assert_eq!(bitboard::score(bb, d), general.gained);
        prop_assert_eq!(b.slide(d), general);
        prop_assert_eq!(bitboard::count_empty(bb) as usize, b.empty_count());
        prop_assert_eq!(bitboard::is_game_over(bb), b.is_game_over());
    }

    #[test]
    fn transpose_is_involution(x in any::<u64>()) {
        let t = bitboard::transpose(x);
        prop_assert_eq!(bitboard::transpose(t), x);
        for r in 0..4 { for c in 0..4 { prop_assert_eq!(bitboard::get(t, r, c), bitboard::get(x, c, r)); } }
    }

    #[test]
    fn game_over_iff_no_move(b in board_strategy(3)) {
        prop_assert_eq!(b.is_game_over(), naive_game_over(&b));
        // On an empty board nothing moves, yet the game is not over.
        prop_assume!(b.empty_count() < b.size() * b.size());
        let any_move = Direction::ALL.into_iter().any(|d| b.slide(d).moved);
        prop_assert_eq!(b.is_game_over(), !any_move);
    }

    #[test]
    fn notation_round_trip(b in board_strategy(40)) {
        let text = b.to_string();
        prop_assert_eq!(text.parse::<Board>(), Ok(b));
        let spaced = text.replace(',', " ");
        prop_assert_eq!(spaced.parse::<Board>(), Ok(b));
    }

    #[test]
    fn parser_never_panics(s in "[0-9., /x-]{0,80}") {
        let _ = s.parse::<Board>();
    }
}
