//! Oracle tables: RULES.md and the seed program's examples.

use twenty48::{Board, Direction};

/// Builds a 4x4 board whose first row is `row` (RULES notation cells) and whose other rows are empty.
fn one_row(row: &str) -> Board {
    format!("{row}/. . . ./. . . ./. . . .").parse().unwrap()
}

fn first_row(b: &Board) -> String {
    b.to_string().split('/').next().unwrap().to_string()
}

fn mirror(row: &str) -> String {
    let mut cells: Vec<&str> = row.split_whitespace().collect();
    cells.reverse();
    cells.join(" ")
}

fn to_commas(row: &str) -> String {
    row.split_whitespace()
        .map(|c| if c == "." { "0" } else { c })
        .collect::<Vec<_>>()
        .join(",")
}

/// RULES.md: row, moving left, result, points.
const TABLE: &[(&str, &str, u64)] = &[
    ("2 2 2 2", "4 4 . .", 8),
    ("4 4 8 .", "8 8 . .", 8),
    ("2 2 2 .", "4 2 . .", 4),
    (". 2 2 4", "4 4 . .", 4),
    ("4 4 2 2", "8 4 . .", 12),
    // The seed's examples ([0,0,2,2] -> [4,0,0,0] and so on).
    (". . 2 2", "4 . . .", 4),
    ("4 . 2 2", "4 4 . .", 4),
];

#[test]
fn rules_table_left_and_mirrored_right() {
    for &(row, result, points) in TABLE {
        let board = one_row(row);
        let s = board.slide(Direction::Left);
        assert_eq!(first_row(&s.board), to_commas(result), "{row} left");
        assert_eq!(s.gained, points, "{row} left");
        assert_eq!(
            board.slide_general(Direction::Left),
            s,
            "{row} left, general engine"
        );
        // The same row in the bottom row of a 5x5 board (general engine only).
        let big: Board = format!("{row} ./. . . . ./. . . . ./. . . . ./. . . . .")
            .parse()
            .unwrap();
        assert_eq!(big.slide(Direction::Left).gained, points);
        let board = one_row(&mirror(row));
        let s = board.slide(Direction::Right);
        assert_eq!(
            first_row(&s.board),
            to_commas(&mirror(result)),
            "{row} mirrored right"
        );
        assert_eq!(s.gained, points);
        assert_eq!(board.slide_general(Direction::Right), s);
    }
}

#[test]
fn rules_right_example() {
    let s = one_row("2 2 2 .").slide(Direction::Right);
    assert_eq!(first_row(&s.board), "0,0,2,4");
}

#[test]
fn seed_transpose_example_up_and_down() {
    let board: Board = "0,2,0,0/4,2,0,0/0,0,4,0/4,0,0,0".parse().unwrap();
    let up = board.slide(Direction::Up);
    assert_eq!(up.board.to_string(), "8,4,4,0/0,0,0,0/0,0,0,0/0,0,0,0");
    assert_eq!(up.gained, 12);
    assert_eq!(up.merged, vec![(0, 0), (0, 1)]);
    let down = board.slide(Direction::Down);
    assert_eq!(down.board.to_string(), "0,0,0,0/0,0,0,0/0,0,0,0/8,4,4,0");
    assert_eq!(down.merged, vec![(3, 0), (3, 1)]);
    for d in Direction::ALL {
        assert_eq!(board.slide_general(d), board.slide(d), "{d}");
    }
}

#[test]
fn seed_no_move_example() {
    let board: Board = "4,0,0,0/0,0,0,0/2,4,2,0/8,2,0,0".parse().unwrap();
    let s = board.slide(Direction::Left);
    assert!(!s.moved);
    assert_eq!(s.board, board);
    assert!(!board.can_slide(Direction::Left));
    assert!(board.can_slide(Direction::Right));
}

#[test]
fn big_tiles_exact_on_4x4() {
    // 32768 + 32768 = 65536: beyond 4 bits, so the general path must be used and stay exact.
    let board: Board = "32768,32768,0,0/65536,65536,0,0/0,0,0,0/0,0,0,2"
        .parse()
        .unwrap();
    assert_eq!(board.to_bitboard_exact(), None);
    let s = board.slide(Direction::Left);
    assert_eq!(
        s.board.to_string(),
        "65536,0,0,0/131072,0,0,0/0,0,0,0/2,0,0,0"
    );
    assert_eq!(s.gained, 65536 + 131072);
    assert_eq!(s.board.max_tile(), 131072);
    assert_eq!(s.board.tile_sum(), board.tile_sum());
    // A single 32768 still takes the bitboard path.
    let one: Board = "32768,16384,16384,0/0,0,0,0/0,0,0,0/0,0,0,2"
        .parse()
        .unwrap();
    assert!(one.to_bitboard_exact().is_some());
    assert_eq!(
        one.slide(Direction::Left).board.to_string(),
        "32768,32768,0,0/0,0,0,0/0,0,0,0/2,0,0,0"
    );
}

#[test]
fn other_sizes() {
    let b: Board = "2 2 2/. . ./4 . 4".parse().unwrap();
    let s = b.slide(Direction::Right);
    assert_eq!(s.board.to_string(), "0,2,4/0,0,0/0,0,8");
    assert_eq!(s.gained, 12);
    let b8: Board = std::iter::repeat_n("2,2,2,2,2,2,2,2", 8)
        .collect::<Vec<_>>()
        .join("/")
        .parse()
        .unwrap();
    let s = b8.slide(Direction::Left);
    assert_eq!(s.gained, 8 * 4 * 4);
    assert_eq!(s.merged.len(), 32);
}

#[test]
fn notation_errors() {
    use twenty48::{BoardParseError as E, CellError};
    assert_eq!("".parse::<Board>(), Err(E::Empty));
    assert_eq!("2,2/2,2".parse::<Board>(), Err(E::BadSize(2)));
    assert_eq!(
        "2,2,0/0,0,0/0,0".parse::<Board>(),
        Err(E::RowLength {
            row: 3,
            found: 2,
            expected: 3
        })
    );
    assert_eq!(
        "2,2,0/0,3,0/0,0,0".parse::<Board>(),
        Err(E::BadCell {
            row: 2,
            col: 2,
            text: "3".into(),
            reason: CellError::NotATile
        })
    );
    assert_eq!(
        "2,2,0/0,1,0/0,0,0".parse::<Board>(),
        Err(E::BadCell {
            row: 2,
            col: 2,
            text: "1".into(),
            reason: CellError::NotATile
        })
    );
    assert_eq!(
        "2,x,0/0,0,0/0,0,0".parse::<Board>(),
        Err(E::BadCell {
            row: 1,
            col: 2,
            text: "x".into(),
            reason: CellError::NotANumber
        })
    );
    assert_eq!(
        "2,,0/0,0,0/0,0,0".parse::<Board>(),
        Err(E::BadCell {
            row: 1,
            col: 2,
            text: "".into(),
            reason: CellError::Missing
        })
    );
    assert!("-2,0,0/0,0,0/0,0,0".parse::<Board>().is_err());
    assert!(
        "99999999999999999999,0,0/0,0,0/0,0,0"
            .parse::<Board>()
            .is_err()
    );
    let msg = "2,2,0/0,3,0/0,0,0"
        .parse::<Board>()
        .unwrap_err()
        .to_string();
    assert!(msg.contains("row 2") && msg.contains("cell 2"), "{msg}");
}

#[test]
fn notation_forms() {
    let a: Board = "2,2,0,0/0,4,0,0/0,0,0,0/0,0,0,2".parse().unwrap();
    let b: Board = " 2 2 . . / . 4 . . / 0 0 0 0 / . . . 2 ".parse().unwrap();
    assert_eq!(a, b);
    assert_eq!(a.to_string(), "2,2,0,0/0,4,0,0/0,0,0,0/0,0,0,2");
    assert_eq!(a.tile(1, 1), 4);
    assert_eq!(a.exponent(1, 1), 2);
    assert_eq!(a.empty_cells().len(), 12);
    assert_eq!(a.max_tile(), 4);
    assert_eq!(a.tile_sum(), 10);
}

#[test]
fn directions_parse_and_display() {
    for d in Direction::ALL {
        assert_eq!(d.to_string().parse::<Direction>(), Ok(d));
        assert_eq!(d.to_string().to_uppercase().parse::<Direction>(), Ok(d));
    }
    assert_eq!(Direction::Up.to_string(), "up");
    assert!("north".parse::<Direction>().is_err());
}
