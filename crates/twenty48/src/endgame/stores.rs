//! Several distilled stores asked in turn ([`Stores`]): the endgame knowledge the network player carries, one store a
//! formation and target, the one nearest the goal first.

use std::fmt;

use crate::bitboard::Bitboard;
use crate::direction::Direction;
use crate::endgame::distill::Store;

/// Distilled stores ([`Store`]) asked in order: the first that holds a board with a success probability of at least
/// the minimum asked for gives the move.
#[derive(Debug, Clone, PartialEq)]
pub struct Stores {
    stores: Vec<Store>,
}

impl Stores {
    /// The stores, asked in this order.
    pub fn new(stores: Vec<Store>) -> Stores {
        Stores { stores }
    }

    /// The move of the first store that holds `board` (a capped bitboard, matched under its symmetries as
    /// [`Store::advise`] does) with a success probability of at least `min`, and that probability.
    pub fn advise(&self, board: Bitboard, min: f32) -> Option<(Direction, f32)> {
        self.stores
            .iter()
            .find_map(|s| s.advise(board).filter(|&(_, p)| p >= min))
    }

    /// The stores, in the order they are asked.
    pub fn iter(&self) -> impl Iterator<Item = &Store> {
        self.stores.iter()
    }

    /// The positions of all the stores.
    pub fn len(&self) -> usize {
        self.stores.iter().map(Store::len).sum()
    }

    /// True when no store holds a position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl fmt::Display for Stores {
    /// Each store's formation, target and positions, in the order they are asked: `..../..../..ab/fedc 512 (1000
    /// positions), ..../..../..ab/fedc 256 (2000 positions)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.stores.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{sep}{} ({} positions)", s.formation(), s.len())?;
        }
        Ok(())
    }
}
