//! Parlor's data factory for the 2048 engine ([`twenty48`]): what makes the data the player ships, and measures it,
//! but is not needed to play.
//!
//! - [`endgame`]: endgame tables solved exactly (forward by layers, then backward), checkpointed on disk, read in play
//!   ([`endgame::Advisor`]); `parlor-lab distill` turns them into the stores the player ships
//!   ([`twenty48::endgame::distill::Store`]);
//! - [`tune`]: the heuristic's weights tuned by self-play.
//!
//! The developer tools are one binary, `parlor-lab`, one subcommand each (`cargo run --release -p parlor-lab -- NAME
//! ARGS`; `parlor-lab NAME --help` says what a tool does and how it is run; the sources are in `src/bin/parlor-lab/`).
//! For the 2048 engine they train the network, solve, distil and follow endgame tables, and measure players: `auto`
//! (games and a summary), `agree` (how often two players' moves agree), `starts` (late-game starts), `stages` (where
//! games are lost), `late` (greedy play from late boards), `speed` (search speed beside nneonneo/2048-ai), `compact`
//! and `ship` (the shipped network's file), `tune`, `train`, `endgame`, `distill`. For Nocca Nocca ([`nocca`]):
//! `perft` (positions counted by depth), `bench` (the search benchmark), `match` (the level ladder), `retrograde` (a
//! board solved whole), `perfect` (the levels against perfect play), `fit_eval` (the static evaluation's weights fitted
//! to a solved board). For Mastermind ([`mastermind`]): `solve` (every secret played out with a strategy) and
//! `anytime` (the search for Super Mastermind's best tree). Their run outputs are kept in `runs/`. This crate is not
//! published: the tools are not part of the published engines.

pub mod endgame;
pub mod tune;
