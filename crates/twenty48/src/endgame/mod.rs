//! Endgame knowledge the network player carries: distilled stores of exact endgame tables. A table gives, for a
//! *formation* (large tiles fixed in some cells, the rest free) and a *target* (a tile to build in the free cells),
//! every position's success probability and best move; a store keeps the positions met most often in play, each with
//! its move, in a small perfect hash. The tables themselves are solved and distilled by the unpublished `parlor-lab`
//! crate (`crates/lab`).
//!
//! - [`formation`]: the formation, the fixed-tile rule, the target test and the goal cell of a chained table (read its
//!   documentation for the rules);
//! - [`symmetry`]: a real board read in a formation under the board's eight symmetries;
//! - [`distill`]: the distilled store ([`distill::Store`]), its file, and its perfect hash;
//! - [`stores`]: several distilled stores asked in turn;
//! - [`shipped`]: the distilled stores compiled into the program, which the network player uses;
//! - [`checksum`]: the checksum that guards the files.
//!
//! ```
//! use twenty48::endgame::Formation;
//! use twenty48::endgame::distill::{Entry, Store};
//! use twenty48::Direction;
//!
//! // Twelve fixed tiles, a 2x2 corner free: build a 16 there.
//! let f = Formation::parse("fedc/89ab/76../54..", 16).unwrap();
//! let board = f.board(0) | 1 << 40;
//! let entries = [Entry { key: f.key(board), dir: Direction::Left, value: 0.5 }];
//! let store = Store::build(f, 0.1, &entries).unwrap();
//! assert_eq!(store.len(), 1);
//! assert_eq!(Store::from_bytes(&store.to_bytes()).unwrap(), store);
//! ```

pub mod checksum;
pub mod distill;
pub mod formation;
pub mod shipped;
pub mod stores;
pub mod symmetry;

pub use formation::{Formation, FormationError};
pub use stores::Stores;
