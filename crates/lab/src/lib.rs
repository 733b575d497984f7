//! Parlor's data factory for the 2048 engine ([`twenty48`]): what makes the data the player ships, and measures it,
//! but is not needed to play.
//!
//! - [`endgame`]: endgame tables solved exactly (forward by layers, then backward), checkpointed on disk, read in play
//!   ([`endgame::Advisor`]); the `distill` example turns them into the stores the player ships
//!   ([`twenty48::endgame::distill::Store`]);
//! - [`tune`]: the heuristic's weights tuned by self-play.
//!
//! The examples (`cargo run --release -p parlor-lab --example NAME -- --help`) train the network, solve, distil and
//! follow endgame tables, and measure players: `auto` (games and a summary), `agree` (how often two players' moves
//! agree), `starts` (late-game starts), `stages` (where games are lost), `late` (greedy play from late boards),
//! `speed` (search speed beside nneonneo/2048-ai), `compact` and `ship` (the shipped network's file), `tune`, `train`,
//! `endgame`, `distill`. Their run outputs are kept in `runs/`. This crate is not published.

pub mod endgame;
pub mod tune;
