//! Deliberately plain references for the solver's tests: the reachable positions of a board in a hash map, values
//! by repeated sweeps over the explicit game graph, and a depth-limited game-tree search. No index, no mirror, no
//! colour turning, no counters: only [`Position`]'s rules. Exponential or memory-hungry: small boards only.

use std::collections::HashMap;

use super::Value;
use crate::{Colour, Dims, Position};

/// Every position reachable from the start position with either side moving first (goal moves end the game, so
/// the positions after them are not included), in breadth-first order.
pub fn reachable(dims: Dims) -> Vec<Position> {
    let mut seen: HashMap<Position, ()> = HashMap::new();
    let mut order = Vec::new();
    for first in Colour::ALL {
        let s = Position::start_with(dims, first);
        if seen.insert(s, ()).is_none() {
            order.push(s);
        }
    }
    let mut i = 0;
    while i < order.len() {
        let p = order[i];
        i += 1;
        for &mv in p.legal_moves().iter() {
            if p.is_goal_move(mv) {
                continue;
            }
            let mut c = p;
            c.play_unchecked(mv);
            if seen.insert(c, ()).is_none() {
                order.push(c);
            }
        }
    }
    order
}

/// Values of `positions` (which must contain every position reachable from each of them) by sweeping: distance 0
/// is no legal move, 1 a goal move; then, for d = 1, 2, 3, ..., a position is won in d (d odd) if a move leads to a
/// position lost in d - 1, and lost in d (d even) if every move leads to a position won in less than d; until a
/// sweep decides nothing. What is left is drawn.
pub fn sweep_values(positions: &[Position]) -> HashMap<Position, Value> {
    let id: HashMap<Position, usize> = positions.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    let mut value: Vec<Option<Value>> = vec![None; positions.len()];
    let mut children: Vec<Vec<usize>> = Vec::with_capacity(positions.len());
    for (i, p) in positions.iter().enumerate() {
        let moves = p.legal_moves();
        if moves.is_empty() {
            value[i] = Some(Value::Loss(0));
        } else if moves.iter().any(|&m| p.is_goal_move(m)) {
            value[i] = Some(Value::Win(1));
        }
        children.push(
            moves
                .iter()
                .filter(|&&m| !p.is_goal_move(m))
                .map(|&m| {
                    let mut c = *p;
                    c.play_unchecked(m);
                    id[&c]
                })
                .collect(),
        );
    }
    let mut d = 1;
    loop {
        let mut new = Vec::new();
        for i in 0..positions.len() {
            if value[i].is_some() {
                continue;
            }
            let decided = if d % 2 == 1 {
                children[i]
                    .iter()
                    .any(|&c| value[c] == Some(Value::Loss(d - 1)))
            } else {
                children[i]
                    .iter()
                    .all(|&c| matches!(value[c], Some(Value::Win(w)) if w < d))
            };
            if decided {
                new.push(i);
            }
        }
        if new.is_empty() && d >= 2 {
            break;
        }
        for i in new {
            value[i] = Some(if d % 2 == 1 {
                Value::Win(d)
            } else {
                Value::Loss(d)
            });
        }
        d += 1;
    }
    positions
        .iter()
        .zip(value)
        .map(|(p, v)| (*p, v.unwrap_or(Value::Draw)))
        .collect()
}

/// Plain depth-limited minimax (memoised by position and depth): `Some(Win(d))` / `Some(Loss(d))` if the side to
/// move can force a win / the opponent can force a loss within `depth` plies, with the exact shortest (for a win)
/// or longest (for a loss) distance; `None` if neither is forced within `depth`.
pub fn forced_within(
    pos: &Position,
    depth: u32,
    memo: &mut HashMap<(Position, u32), Option<Value>>,
) -> Option<Value> {
    if let Some(&v) = memo.get(&(*pos, depth)) {
        return v;
    }
    let moves = pos.legal_moves();
    let result = if moves.is_empty() {
        Some(Value::Loss(0))
    } else if moves.iter().any(|&m| pos.is_goal_move(m)) {
        if depth >= 1 {
            Some(Value::Win(1))
        } else {
            None
        }
    } else if depth == 0 {
        None
    } else {
        let mut best_win: Option<u32> = None;
        let mut all_lose = true;
        let mut longest = 0;
        for &m in moves.iter() {
            let mut c = *pos;
            c.play_unchecked(m);
            match forced_within(&c, depth - 1, memo) {
                Some(Value::Loss(d)) => best_win = Some(best_win.map_or(d + 1, |b| b.min(d + 1))),
                Some(Value::Win(d)) => longest = longest.max(d + 1),
                _ => all_lose = false,
            }
        }
        match best_win {
            Some(d) => Some(Value::Win(d)),
            None if all_lose => Some(Value::Loss(longest)),
            None => None,
        }
    };
    memo.insert((*pos, depth), result);
    result
}
