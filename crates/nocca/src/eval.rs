//! Static evaluation, from the side to move's point of view.

use crate::position::shift;
use crate::{Colour, Dir, Position};

/// Value of a top piece by its distance to the goal (steps needed to enter it): index 1 = on the opponent's home row.
const ADVANCE: [i32; 8] = [0, 160, 70, 34, 15, 6, 0, 0];
/// An opponent piece held down under one of ours.
const PINNED_ENEMY: i32 = 45;
/// One of our pieces under another of ours (it cannot move until the top one leaves).
const BURIED_OWN: i32 = 8;
/// A top piece on a full stack cannot be ridden on.
const SAFE_TOP: i32 = 12;
/// Per legal move.
const MOBILITY: i32 = 3;
/// Opponent goal threat (a top piece on our home row) that we cannot cover: nearly lost.
const UNCOVERABLE_THREAT: i32 = 900;
/// Bonus for having the move.
const TEMPO: i32 = 10;

fn side_score(pos: &Position, c: Colour) -> i32 {
    let dims = pos.dims();
    let (occ, white) = pos.levels();
    let tops = pos.tops(c);
    let rows = dims.rows() as i32;
    let mut s = 0;
    for r in 0..rows {
        let n = (tops & pos.row_mask(r)).count_ones() as i32;
        if n != 0 {
            let dist = match c {
                Colour::Black => rows - r,
                Colour::White => r + 1,
            };
            s += n * ADVANCE[dist as usize];
        }
    }
    let mine = |k: usize| match c {
        Colour::White => white[k],
        Colour::Black => occ[k] & !white[k],
    };
    let theirs = |k: usize| occ[k] & !mine(k);
    // Pieces under our tops: level 0 under a stack of height >= 2, level 1 under a stack of 3.
    let under0 = tops & occ[1];
    let under1 = tops & occ[2];
    s += PINNED_ENEMY
        * ((theirs(0) & under0).count_ones() + (theirs(1) & under1).count_ones()) as i32;
    s -= BURIED_OWN * ((mine(0) & under0).count_ones() + (mine(1) & under1).count_ones()) as i32;
    s += SAFE_TOP * (tops & occ[2]).count_ones() as i32;
    // Mobility.
    let ok =
        (pos.board_mask() & !occ[2]) | pos.row_mask(if c == Colour::Black { rows } else { -1 });
    let mut m = 0;
    for d in Dir::ALL {
        m += (shift(tops, d.shift()) & ok).count_ones() as i32;
    }
    s + MOBILITY * m
}

/// Squares from which `c` can step onto a stack in `targets` (that is not full).
fn coverable(pos: &Position, c: Colour, targets: u64) -> u64 {
    let (occ, _) = pos.levels();
    let tops = pos.tops(c);
    let mut hit = 0;
    for d in Dir::ALL {
        hit |= shift(tops, d.shift());
    }
    hit & targets & !occ[2]
}

/// Evaluation in centi-steps-ish units, positive = good for the side to move.
pub(crate) fn evaluate(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    let opp = me.opponent();
    let mut v = side_score(pos, me) - side_score(pos, opp) + TEMPO;
    let threats = pos.goal_threats(opp);
    if threats != 0 {
        let n = threats.count_ones();
        let covered = coverable(pos, me, threats);
        if n >= 2 || covered == 0 {
            v -= UNCOVERABLE_THREAT;
        }
    }
    v
}
