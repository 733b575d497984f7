//! Static evaluation, from the side to move's point of view.

use crate::position::shift;
use crate::{Colour, Dir, Position};

/// The evaluation's weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weights {
    /// Value of a top piece by its distance to the goal (steps needed to enter it): index 1 = on the opponent's
    /// home row.
    advance: [i32; 8],
    /// An opponent piece held down under one of ours.
    pinned_enemy: i32,
    /// One of our pieces under another of ours (it cannot move until the top one leaves).
    buried_own: i32,
    /// A top piece on a full stack cannot be ridden on.
    safe_top: i32,
    /// Per legal move.
    mobility: i32,
    /// Opponent goal threat (a top piece on our home row) that we cannot cover: nearly lost.
    uncoverable_threat: i32,
    /// Bonus for having the move.
    tempo: i32,
}

/// The weights of the standard board (and every board of 5 or 6 rows), tuned by hand.
pub(crate) const STANDARD: Weights = Weights {
    advance: [0, 160, 70, 34, 15, 6, 0, 0],
    pinned_enemy: 45,
    buried_own: 8,
    safe_top: 12,
    mobility: 3,
    uncoverable_threat: 900,
    tempo: 10,
};

/// The weights of the boards of 3 and 4 rows: fitted to the 4x4 table (`fit_eval 4x4 40000 1`, a logistic
/// regression of won / lost for the side to move on [`features`], 100 units per unit of log-odds, rounded).
/// Nearer boards reward the front row more, and pieces still near home cost.
pub(crate) const SMALL: Weights = Weights {
    advance: [0, 480, 151, -120, -238, 0, 0, 0],
    pinned_enemy: 19,
    buried_own: 253,
    safe_top: 140,
    mobility: 16,
    uncoverable_threat: 358,
    tempo: 169,
};

/// The weights for a board of `rows` rows.
pub(crate) fn weights(rows: usize) -> &'static Weights {
    if rows <= 4 { &SMALL } else { &STANDARD }
}

/// Number of evaluation features ([`features`]).
pub(crate) const FEATURES: usize = 11;

/// One side's terms: top pieces by distance 1 to 5, pinned enemies, buried own pieces, safe tops, mobility.
fn side_terms(pos: &Position, c: Colour) -> [i32; 9] {
    let dims = pos.dims();
    let (occ, white) = pos.levels();
    let tops = pos.tops(c);
    let rows = dims.rows() as i32;
    let mut t = [0i32; 9];
    for r in 0..rows {
        let n = (tops & pos.row_mask(r)).count_ones() as i32;
        if n != 0 {
            let dist = match c {
                Colour::Black => rows - r,
                Colour::White => r + 1,
            };
            if (1..=5).contains(&dist) {
                t[dist as usize - 1] += n;
            }
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
    t[5] = ((theirs(0) & under0).count_ones() + (theirs(1) & under1).count_ones()) as i32;
    t[6] = ((mine(0) & under0).count_ones() + (mine(1) & under1).count_ones()) as i32;
    t[7] = (tops & occ[2]).count_ones() as i32;
    // Mobility.
    let ok =
        (pos.board_mask() & !occ[2]) | pos.row_mask(if c == Colour::Black { rows } else { -1 });
    for d in Dir::ALL {
        t[8] += (shift(tops, d.shift()) & ok).count_ones() as i32;
    }
    t
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

/// The evaluation's features for the side to move: the differences (side to move minus opponent) of the top
/// pieces at distance 1 to 5 from the goal, pinned enemies, buried own pieces, safe tops and mobility; then 1 if
/// the opponent has a goal threat the side to move cannot cover (two threats, or one out of reach); then 1 (the
/// tempo).
pub(crate) fn features(pos: &Position) -> [i32; FEATURES] {
    let me = pos.side_to_move();
    let opp = me.opponent();
    let (a, b) = (side_terms(pos, me), side_terms(pos, opp));
    let mut f = [0i32; FEATURES];
    for (x, (a, b)) in f.iter_mut().zip(a.iter().zip(&b)) {
        *x = a - b;
    }
    let threats = pos.goal_threats(opp);
    if threats != 0 {
        let n = threats.count_ones();
        let covered = coverable(pos, me, threats);
        if n >= 2 || covered == 0 {
            f[9] = 1;
        }
    }
    f[10] = 1;
    f
}

/// Evaluation in centi-steps-ish units, positive = good for the side to move.
pub(crate) fn evaluate(pos: &Position) -> i32 {
    let w = weights(pos.dims().rows());
    let f = features(pos);
    let advance: i32 = w.advance[1..6]
        .iter()
        .zip(&f[..5])
        .map(|(a, n)| a * n)
        .sum();
    advance + w.pinned_enemy * f[5] - w.buried_own * f[6] + w.safe_top * f[7] + w.mobility * f[8]
        - w.uncoverable_threat * f[9]
        + w.tempo * f[10]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The evaluation before the weights were split out, with the standard weights written in.
    fn hand_written(pos: &Position) -> i32 {
        let advance = [0, 160, 70, 34, 15, 6, 0, 0];
        let side = |c: Colour| {
            let t = side_terms(pos, c);
            let a: i32 = (0..5).map(|i| advance[i + 1] * t[i]).sum();
            a + 45 * t[5] - 8 * t[6] + 12 * t[7] + 3 * t[8]
        };
        let me = pos.side_to_move();
        let f = features(pos);
        side(me) - side(me.opponent()) - 900 * f[9] + 10
    }

    #[test]
    fn the_standard_board_keeps_its_hand_tuned_evaluation_and_small_boards_use_the_fitted_one() {
        let mut pos = Position::start(crate::Dims::STANDARD);
        for _ in 0..12 {
            assert_eq!(evaluate(&pos), hand_written(&pos));
            let mv = pos.legal_moves()[3];
            pos.play_unchecked(mv);
        }
        let small = Position::start(crate::Dims::new(4, 4).unwrap());
        assert_eq!(weights(4), &SMALL);
        assert_eq!(weights(5), &STANDARD);
        assert_eq!(evaluate(&small), SMALL.tempo);
    }
}
