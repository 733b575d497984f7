//! The reference: a plain memoised recursive expectimax over the same rules, on the exact [`Board`] (not the bitboard,
//! not the layers), for checking the solver on formations small enough to finish in a second.

use std::collections::HashMap;

use twenty48::Direction;
use twenty48::board::Board;

/// The rules of a formation spelled out again, cell by cell.
pub struct Naive {
    /// `(row, col, exponent)` of every fixed tile.
    fixed: Vec<(usize, usize, u8)>,
    /// `(row, col)` of every free cell.
    free: Vec<(usize, usize)>,
    target: u8,
    four_chance: f64,
    memo: HashMap<Vec<u8>, f32>,
    /// The cell where the target must be built, if any.
    goal: Option<(usize, usize)>,
    /// The next stage's reference, valuing a reached goal.
    next: Option<Box<Naive>>,
}

impl Naive {
    /// The reference for fixed tiles `fixed` (row, column, exponent) and a target exponent on the 4x4 board.
    pub fn new(fixed: Vec<(usize, usize, u8)>, target: u8, four_chance: f64) -> Naive {
        let free = (0..4)
            .flat_map(|r| (0..4).map(move |c| (r, c)))
            .filter(|&(r, c)| !fixed.iter().any(|&(fr, fc, _)| (fr, fc) == (r, c)))
            .collect();
        Naive {
            fixed,
            free,
            target,
            four_chance,
            memo: HashMap::new(),
            goal: None,
            next: None,
        }
    }

    /// The same rules with a goal cell (a free cell, `(row, col)`) where the target must be built: a move that builds
    /// it only elsewhere is worth 0, one that builds it there 1, or with `next` the next stage's value of its result
    /// ([`Naive::after_value`]).
    pub fn with_goal(mut self, goal: (usize, usize), next: Option<Naive>) -> Naive {
        self.goal = Some(goal);
        self.next = next.map(Box::new);
        self
    }

    /// The next stage's reference, if any.
    pub fn next(&self) -> Option<&Naive> {
        self.next.as_deref()
    }

    /// Every position met so far, with its value.
    pub fn memo(&self) -> &HashMap<Vec<u8>, f32> {
        &self.memo
    }

    /// The cells of a board, row-major (the memo's key).
    pub fn cells(board: &Board) -> Vec<u8> {
        (0..4)
            .flat_map(|r| (0..4).map(move |c| (r, c)))
            .map(|(r, c)| board.exponent(r, c))
            .collect()
    }

    /// The result of `dir` when the fixed-tile rule allows it.
    pub fn allowed(&self, board: &Board, dir: Direction) -> Option<Board> {
        if !board.can_slide(dir) {
            return None;
        }
        let (after, _) = board.slid(dir);
        self.fixed
            .iter()
            .all(|&(r, c, e)| after.exponent(r, c) == e)
            .then_some(after)
    }

    /// True when a free cell holds the target or more.
    pub fn reached(&self, board: &Board) -> bool {
        self.free
            .iter()
            .any(|&(r, c)| board.exponent(r, c) >= self.target)
    }

    /// The value of a move's result `after` (the spawn to come) in these rules, its fixed cells first set to this
    /// formation's tiles: when a free cell holds the target or more, 0 if the goal cell does not, else 1 or the next
    /// stage's value; otherwise the mean over the empty cells of the values after a 2 or a 4.
    pub fn after_value(&mut self, after: &Board) -> f32 {
        let mut after = *after;
        for &(r, c, e) in &self.fixed {
            after.set_exponent(r, c, e);
        }
        if self.reached(&after) {
            if let Some((r, c)) = self.goal
                && after.exponent(r, c) < self.target
            {
                return 0.0;
            }
            return match &mut self.next {
                Some(next) => next.after_value(&after),
                None => 1.0,
            };
        }
        let empty = after.empty_cells();
        let mut acc = 0f64;
        for &(r, c) in &empty {
            let mut two = after;
            two.set_exponent(r, c, 1);
            let mut four = after;
            four.set_exponent(r, c, 2);
            let v2 = self.value(&two);
            let v4 = self.value(&four);
            acc += (1.0 - self.four_chance) * v2 as f64 + self.four_chance * v4 as f64;
        }
        (acc / empty.len() as f64) as f32
    }

    /// The success probability of `board`, player to move.
    pub fn value(&mut self, board: &Board) -> f32 {
        let key = Naive::cells(board);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut best = 0f32;
        for dir in Direction::ALL {
            let Some(after) = self.allowed(board, dir) else {
                continue;
            };
            let v = self.after_value(&after);
            if v > best {
                best = v;
            }
        }
        self.memo.insert(key, best);
        best
    }
}
