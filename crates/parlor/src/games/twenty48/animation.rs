//! The 2048 slide animation as a pure function: the tiles of one frame, from the board before a move, the move,
//! the board after it and the time `t` (0 to 1) into the animation. Drawing and timing are the screen's
//! ([`crate::games::twenty48::screen`]); nothing here reads a clock, so every frame is tested as plain data.
//!
//! The animation lasts [`DURATION_MS`]: for the first [`SLIDE_END`] of it every tile glides from where it was to where
//! it goes (two tiles that merge glide into the same cell, showing their old value); then the board after the move
//! shows, with the merged tiles and the new tile marked, the new tile appearing last. A key pressed meanwhile
//! finishes it at once (the move itself was made before the first frame).

use twenty48::{Board, Direction};

/// How long the whole animation lasts, in milliseconds.
pub const DURATION_MS: u64 = 100;
/// The fraction of the animation spent sliding.
pub const SLIDE_END: f64 = 0.7;
/// From this fraction on, the new tile shows.
pub const APPEAR_AT: f64 = 0.85;

/// What a tile is doing in a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Gliding (or standing still) with its value before the move.
    Sliding,
    /// A tile made by a merge, shown once the slide is over.
    Merged,
    /// The tile that appeared after the move.
    New,
    /// Any other tile of the board after the move.
    Still,
}

/// One tile in one frame, at a position that may fall between cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprite {
    /// The row, 0.0 at the top (fractional while sliding).
    pub row: f64,
    /// The column, 0.0 at the left (fractional while sliding).
    pub col: f64,
    /// The tile's exponent (its value is `2^exp`).
    pub exp: u8,
    /// What it is doing.
    pub role: Role,
}

/// Where one tile of the board before a move goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path {
    /// Its cell before the move.
    pub from: (usize, usize),
    /// Its cell after the move.
    pub to: (usize, usize),
    /// Its exponent before the move.
    pub exp: u8,
}

/// The cells of line `i` of a board of side `n` in the order a slide in `dir` packs them (the leading edge first).
fn line(n: usize, i: usize, dir: Direction) -> Vec<(usize, usize)> {
    (0..n)
        .map(|k| match dir {
            Direction::Left => (i, k),
            Direction::Right => (i, n - 1 - k),
            Direction::Up => (k, i),
            Direction::Down => (n - 1 - k, i),
        })
        .collect()
}

/// Where every tile of `before` goes when it slides in `dir`, by 2048's rule: tiles pack towards the edge, and two
/// equal tiles meeting merge once (the pair nearest the edge first). A naive per-line reading of the rules, checked
/// against the engine's slide in the tests.
pub fn paths(before: &Board, dir: Direction) -> Vec<Path> {
    let n = before.size();
    let mut out = Vec::new();
    for i in 0..n {
        let cells = line(n, i, dir);
        let mut next = 0;
        // The last tile placed, while it can still take a merge: (its exponent, its slot).
        let mut open: Option<(u8, usize)> = None;
        for &(r, c) in &cells {
            let exp = before.exponent(r, c);
            if exp == 0 {
                continue;
            }
            let slot = match open {
                Some((e, slot)) if e == exp => {
                    open = None;
                    slot
                }
                _ => {
                    let slot = next;
                    next += 1;
                    open = Some((exp, slot));
                    slot
                }
            };
            out.push(Path {
                from: (r, c),
                to: cells[slot],
                exp,
            });
        }
    }
    out
}

/// The tiles of the frame at time `t` (clamped to 0..=1) of the animation of the move `dir` from `before` to
/// `after` (the board after the move and its new tile at `spawned`).
pub fn frame(
    before: &Board,
    dir: Direction,
    after: &Board,
    spawned: Option<(usize, usize)>,
    t: f64,
) -> Vec<Sprite> {
    let t = t.clamp(0.0, 1.0);
    if t < SLIDE_END {
        let f = ease(t / SLIDE_END);
        return paths(before, dir)
            .into_iter()
            .map(|p| Sprite {
                row: lerp(p.from.0, p.to.0, f),
                col: lerp(p.from.1, p.to.1, f),
                exp: p.exp,
                role: Role::Sliding,
            })
            .collect();
    }
    let merged: Vec<(usize, usize)> = {
        let mut landed: Vec<(usize, usize)> = paths(before, dir).iter().map(|p| p.to).collect();
        landed.sort_unstable();
        landed
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect()
    };
    let n = after.size();
    let mut out = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let exp = after.exponent(r, c);
            if exp == 0 {
                continue;
            }
            let role = if spawned == Some((r, c)) {
                if t < APPEAR_AT {
                    continue;
                }
                Role::New
            } else if merged.contains(&(r, c)) {
                Role::Merged
            } else {
                Role::Still
            };
            out.push(Sprite {
                row: r as f64,
                col: c as f64,
                exp,
                role,
            });
        }
    }
    out
}

fn lerp(a: usize, b: usize, f: f64) -> f64 {
    a as f64 + (b as f64 - a as f64) * f
}

/// Starts fast and slows into place.
fn ease(x: f64) -> f64 {
    1.0 - (1.0 - x) * (1.0 - x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const DIRS: [Direction; 4] = [
        Direction::Left,
        Direction::Right,
        Direction::Up,
        Direction::Down,
    ];

    fn board(rows: &[&[u8]]) -> Board {
        Board::from_exponents(&rows.iter().map(|r| r.to_vec()).collect::<Vec<_>>()).unwrap()
    }

    /// The board the paths lead to: each destination holds its tile, or the merge of the two that meet there.
    fn landed(before: &Board, dir: Direction) -> Board {
        let n = before.size();
        let mut b = Board::new(n).unwrap();
        for p in paths(before, dir) {
            let (r, c) = p.to;
            let e = b.exponent(r, c);
            b.set_exponent(r, c, if e == 0 { p.exp } else { e + 1 });
        }
        b
    }

    #[test]
    fn paths_follow_the_rules_on_one_row() {
        let b = board(&[&[1, 1, 1, 1], &[1, 1, 1, 0], &[2, 0, 2, 1], &[0, 0, 0, 3]]);
        let p = paths(&b, Direction::Left);
        let to = |from| p.iter().find(|p| p.from == from).unwrap().to;
        // 2 2 2 2 -> 4 4: pairs from the edge.
        assert_eq!(
            [to((0, 0)), to((0, 1)), to((0, 2)), to((0, 3))],
            [(0, 0), (0, 0), (0, 1), (0, 1)]
        );
        // 2 2 2 . -> 4 2: the pair nearest the edge merges.
        assert_eq!(
            [to((1, 0)), to((1, 1)), to((1, 2))],
            [(1, 0), (1, 0), (1, 1)]
        );
        // 4 . 4 2 -> 8 2: a gap does not stop a merge.
        assert_eq!(
            [to((2, 0)), to((2, 2)), to((2, 3))],
            [(2, 0), (2, 0), (2, 1)]
        );
        assert_eq!(to((3, 3)), (3, 0));
        // A merged tile takes no second merge: 4 4 8 -> 8 8, not 16.
        let b = board(&[&[2, 2, 3], &[0, 0, 0], &[0, 0, 0]]);
        assert_eq!(landed(&b, Direction::Left), b.slide(Direction::Left).board);
    }

    #[test]
    fn the_first_frame_is_the_board_before_and_the_last_the_board_after() {
        let before = board(&[&[1, 1, 0, 0], &[0, 2, 0, 2], &[0, 0, 0, 0], &[3, 0, 0, 1]]);
        let slid = before.slide(Direction::Left);
        let mut after = slid.board;
        after.set_exponent(2, 2, 1);
        let first = frame(&before, Direction::Left, &after, Some((2, 2)), 0.0);
        assert_eq!(first.len(), 6);
        for s in &first {
            assert_eq!(s.role, Role::Sliding);
            assert_eq!(before.exponent(s.row as usize, s.col as usize), s.exp);
            assert_eq!(s.row.fract(), 0.0);
        }
        let last = frame(&before, Direction::Left, &after, Some((2, 2)), 1.0);
        let mut drawn = Board::new(4).unwrap();
        for s in &last {
            drawn.set_exponent(s.row as usize, s.col as usize, s.exp);
        }
        assert_eq!(drawn, after);
        let role = |r, c| last.iter().find(|s| (s.row, s.col) == (r, c)).unwrap().role;
        assert_eq!(role(0.0, 0.0), Role::Merged);
        assert_eq!(role(1.0, 0.0), Role::Merged);
        assert_eq!(role(2.0, 2.0), Role::New);
        assert_eq!(role(3.0, 0.0), Role::Still);
        // Past the time limit, the same as the end.
        assert_eq!(
            frame(&before, Direction::Left, &after, Some((2, 2)), 7.0),
            last
        );
    }

    #[test]
    fn tiles_glide_in_between_and_the_new_tile_appears_last() {
        let before = board(&[&[0, 0, 0, 1], &[0, 0, 0, 0], &[0, 0, 0, 0], &[0, 0, 0, 0]]);
        let mut after = before.slide(Direction::Left).board;
        after.set_exponent(3, 3, 2);
        let mid = frame(
            &before,
            Direction::Left,
            &after,
            Some((3, 3)),
            SLIDE_END / 2.0,
        );
        assert_eq!(mid.len(), 1, "no new tile while sliding");
        assert!(mid[0].col > 0.0 && mid[0].col < 3.0, "{mid:?}");
        assert_eq!(mid[0].row, 0.0);
        let settled = frame(&before, Direction::Left, &after, Some((3, 3)), SLIDE_END);
        assert_eq!(settled.len(), 1, "the new tile waits");
        let shown = frame(&before, Direction::Left, &after, Some((3, 3)), APPEAR_AT);
        assert!(shown.iter().any(|s| s.role == Role::New && s.exp == 2));
    }

    proptest! {
        /// The paths land exactly on the engine's slide, for every direction and random boards of every size.
        #[test]
        fn paths_land_where_the_engine_slides(
            n in 3usize..=8,
            cells in prop::collection::vec(0u8..6, 64),
            d in 0usize..4,
        ) {
            let rows: Vec<Vec<u8>> = (0..n).map(|r| cells[r * n..r * n + n].to_vec()).collect();
            let before = Board::from_exponents(&rows).unwrap();
            let dir = DIRS[d];
            prop_assert_eq!(landed(&before, dir), before.slide(dir).board);
            // Every frame stays on the board, and tiles only move the way of the slide.
            for k in 0..=10 {
                let t = f64::from(k) / 10.0;
                for s in frame(&before, dir, &before.slide(dir).board, None, t) {
                    prop_assert!(s.row >= 0.0 && s.row <= (n - 1) as f64);
                    prop_assert!(s.col >= 0.0 && s.col <= (n - 1) as f64);
                }
            }
            for p in paths(&before, dir) {
                let (dr, dc) = (p.to.0 as i64 - p.from.0 as i64, p.to.1 as i64 - p.from.1 as i64);
                let ok = match dir {
                    Direction::Left => dr == 0 && dc <= 0,
                    Direction::Right => dr == 0 && dc >= 0,
                    Direction::Up => dc == 0 && dr <= 0,
                    Direction::Down => dc == 0 && dr >= 0,
                };
                prop_assert!(ok, "{:?}", p);
            }
        }
    }
}
