//! A finished table in memory: every layer's keys and values, looked up by position.

use std::collections::BTreeMap;

use crate::bitboard::{Bitboard, tables};
use crate::direction::Direction;
use crate::endgame::formation::Formation;
use crate::endgame::layer::Layer;
use crate::endgame::solve::{best_value, move_values};

/// Every layer of one formation's table.
pub struct Table {
    formation: Formation,
    four_chance: f64,
    layers: BTreeMap<u32, (Layer, Vec<f32>)>,
}

impl Table {
    /// A table of the given layers (by the free tiles' sum), each one's keys with their values in the same order.
    pub fn new(
        formation: Formation,
        four_chance: f64,
        layers: BTreeMap<u32, (Layer, Vec<f32>)>,
    ) -> Table {
        Table {
            formation,
            four_chance,
            layers,
        }
    }

    /// The formation.
    pub fn formation(&self) -> &Formation {
        &self.formation
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.layers.values().map(|(l, _)| l.len()).sum()
    }

    /// True when the table holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every position with its value, layer by layer.
    pub fn entries(&self) -> impl Iterator<Item = (Bitboard, f32)> + '_ {
        self.layers.values().flat_map(move |(l, v)| {
            l.keys()
                .iter()
                .zip(v)
                .map(move |(&k, &v)| (self.formation.board(k), v))
        })
    }

    fn key_value(&self, key: u64) -> Option<f32> {
        let (l, v) = self.layers.get(&self.formation.key_sum(key))?;
        l.position(key).map(|i| v[i])
    }

    /// The success probability of `board` (player to move), if the table holds it.
    pub fn value(&self, board: Bitboard) -> Option<f32> {
        if !self.formation.holds(board) {
            return None;
        }
        self.key_value(self.formation.key(board))
    }

    /// Each allowed move of `board` with its success probability, best first; `None` when the board is not in the
    /// formation or a position it needs is not in the table.
    pub fn moves(&self, board: Bitboard) -> Option<Vec<(Direction, f32)>> {
        if !self.formation.holds(board) {
            return None;
        }
        let look = |k| self.key_value(k);
        let mut moves = move_values(
            &self.formation,
            tables(),
            board,
            self.four_chance,
            look,
            look,
        )?;
        moves.sort_by(|a, b| b.1.total_cmp(&a.1));
        debug_assert!(moves.is_empty() || best_value(&moves) == moves[0].1);
        Some(moves)
    }
}
