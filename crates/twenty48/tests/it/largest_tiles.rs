//! The largest tiles (RULES.md, 2048, "Tiles are never capped"): the largest tile is 2^63; a slide that would merge
//! two 2^63 tiles, or score 2^64 points or more, is refused whole, leaving the board untouched. Checked against a
//! naive reference that slides tile values held in `u128` (so nothing it computes can overflow) over boards made of
//! the largest tiles (issue 25: `2048 slide` merged two 2^63 tiles when the same slide made another 2^63).

use proptest::prelude::*;
use twenty48::{Board, Direction, SlideError};

/// What the naive reference says a slide does: the tile values after it and the points, or why it is refused.
fn naive(values: &[Vec<u128>], dir: Direction) -> Result<(Vec<Vec<u128>>, u128), &'static str> {
    let n = values.len();
    let mut out = vec![vec![0u128; n]; n];
    let mut points = 0u128;
    for line in 0..n {
        // The cells of this line, from the wall the tiles move toward.
        let cells: Vec<(usize, usize)> = (0..n)
            .map(|k| match dir {
                Direction::Left => (line, k),
                Direction::Right => (line, n - 1 - k),
                Direction::Up => (k, line),
                Direction::Down => (n - 1 - k, line),
            })
            .collect();
        let tiles: Vec<u128> = cells
            .iter()
            .map(|&(r, c)| values[r][c])
            .filter(|&v| v != 0)
            .collect();
        let mut result = Vec::new();
        let mut i = 0;
        while i < tiles.len() {
            if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] {
                let made = tiles[i] * 2;
                if made > 1u128 << 63 {
                    return Err("tile");
                }
                points += made;
                result.push(made);
                i += 2;
            } else {
                result.push(tiles[i]);
                i += 1;
            }
        }
        for (k, v) in result.into_iter().enumerate() {
            let (r, c) = cells[k];
            out[r][c] = v;
        }
    }
    if points > u128::from(u64::MAX) {
        return Err("points");
    }
    Ok((out, points))
}

fn values(b: &Board) -> Vec<Vec<u128>> {
    (0..b.size())
        .map(|r| {
            (0..b.size())
                .map(|c| match b.exponent(r, c) {
                    0 => 0,
                    e => 1u128 << e,
                })
                .collect()
        })
        .collect()
}

/// Boards of 3x3 to 8x8 whose tiles are mostly the largest there are (2^56 to 2^63), with a few small ones and
/// empty cells.
fn largest_tiles_board() -> impl Strategy<Value = Board> {
    (3usize..=8).prop_flat_map(|n| {
        proptest::collection::vec(
            proptest::collection::vec(
                prop_oneof![3 => Just(0u8), 1 => 1u8..=3, 4 => 56u8..=59, 8 => 60u8..=63],
                n,
            ),
            n,
        )
        .prop_map(|rows| Board::from_exponents(&rows).unwrap())
    })
}

fn any_direction() -> impl Strategy<Value = Direction> {
    prop_oneof![
        Just(Direction::Up),
        Just(Direction::Down),
        Just(Direction::Left),
        Just(Direction::Right)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn slides_of_the_largest_tiles_follow_the_naive_reference(
        board in largest_tiles_board(),
        dir in any_direction(),
    ) {
        let tried = board.try_slide(dir);
        match naive(&values(&board), dir) {
            Ok((after, points)) => {
                let s = tried.expect("the reference accepts this slide");
                prop_assert_eq!(values(&s.board), after);
                prop_assert_eq!(u128::from(s.gained), points);
                prop_assert_eq!(s.moved, s.board != board);
                prop_assert_eq!(board.slide(dir), s.clone());
                prop_assert_eq!(board.slid(dir), (s.board, s.gained));
                prop_assert_eq!(board.can_slide(dir), s.moved);
            }
            Err(why) => {
                let expected = if why == "tile" {
                    SlideError::TileTooLarge
                } else {
                    SlideError::PointsTooLarge
                };
                prop_assert_eq!(tried.unwrap_err(), expected);
                // Refused: the board stays as it is, whichever way the slide is asked for.
                let s = board.slide(dir);
                prop_assert_eq!(s.board, board);
                prop_assert!(!s.moved);
                prop_assert_eq!(s.gained, 0);
                prop_assert_eq!(board.slid(dir), (board, 0));
                prop_assert!(!board.can_slide(dir));
            }
        }
        // Over exactly when no direction can be slid.
        let any = Direction::ALL.into_iter().any(|d| board.can_slide(d));
        prop_assert_eq!(board.is_game_over(), !any);
    }
}

/// The board of issue 25: the slide left would make a 2^63 from two 2^62 and merge the two 2^63 tiles.
#[test]
fn the_issue_board_is_refused_and_left_untouched() {
    let board: Board =
        "9223372036854775808,9223372036854775808,0/4611686018427387904,4611686018427387904,0/0,0,0"
            .parse()
            .unwrap();
    assert_eq!(
        board.try_slide(Direction::Left).unwrap_err(),
        SlideError::TileTooLarge
    );
    assert_eq!(board.slide(Direction::Left).board, board);
    // Down is fine: nothing merges.
    assert!(board.try_slide(Direction::Down).unwrap().moved);
}
