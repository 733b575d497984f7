//! Playing levels and the engine the app talks to.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use thiserror::Error;

use crate::search::{Limits, SearchConfig, SearchResult, Searcher};
use crate::{Game, Position};

/// Playing strength.
///
/// | level | depth cap | root noise | real game (time) | matches (node budget) |
/// |---|---|---|---|---|
/// | Beginner (1) | 2 | ±150 | 0.1 s | 1 000 |
/// | Casual (2) | 4 | ±40 | 0.3 s | 6 000 |
/// | Strong (3) | none | 0 | 0.6 s | 30 000 |
/// | Expert (4) | none | 0 | 2 s | 150 000 |
///
/// All levels take a win in one and answer a single goal threat when they can.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Shallow and randomised: makes human mistakes, never misses a win in one.
    Beginner,
    /// Looks a few plies ahead, a little randomness.
    Casual,
    /// Full search, short time.
    Strong,
    /// Full search, about 2 s per move.
    Expert,
}

/// Error from parsing a [`Level`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown level {0:?}: expected beginner, casual, strong, expert or 1-4")]
pub struct LevelParseError(pub String);

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 4] = [Level::Beginner, Level::Casual, Level::Strong, Level::Expert];

    /// Lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Strong => "strong",
            Level::Expert => "expert",
        }
    }

    /// 1 (Beginner) to 4 (Expert).
    pub const fn number(self) -> u32 {
        self as u32 + 1
    }

    /// The next weaker level.
    pub fn weaker(self) -> Option<Level> {
        Level::ALL.get((self as usize).checked_sub(1)?).copied()
    }

    /// Depth cap of this level.
    pub const fn max_depth(self) -> Option<u32> {
        match self {
            Level::Beginner => Some(2),
            Level::Casual => Some(4),
            _ => None,
        }
    }

    /// Random offset range added to root move scores.
    pub const fn noise(self) -> i32 {
        match self {
            Level::Beginner => 150,
            Level::Casual => 40,
            _ => 0,
        }
    }

    /// Limits for real play (wall-clock time per move), depth cap included.
    pub fn play_limits(self) -> Limits {
        let ms = match self {
            Level::Beginner => 100,
            Level::Casual => 300,
            Level::Strong => 600,
            Level::Expert => 2_000,
        };
        Limits {
            depth: self.max_depth(),
            nodes: None,
            time: Some(Duration::from_millis(ms)),
        }
    }

    /// Limits for reproducible matches (node budget per move), depth cap included.
    pub fn match_limits(self) -> Limits {
        let nodes = match self {
            Level::Beginner => 1_000,
            Level::Casual => 6_000,
            Level::Strong => 30_000,
            Level::Expert => 150_000,
        };
        Limits {
            depth: self.max_depth(),
            nodes: Some(nodes),
            time: None,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = LevelParseError;

    /// A name (any case, unambiguous prefix allowed) or a number 1-4.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        if let Ok(n) = t.parse::<usize>() {
            return n
                .checked_sub(1)
                .and_then(|i| Level::ALL.get(i).copied())
                .ok_or_else(|| LevelParseError(s.to_string()));
        }
        let hits: Vec<Level> = Level::ALL
            .into_iter()
            .filter(|l| !t.is_empty() && l.name().starts_with(&t))
            .collect();
        match hits.as_slice() {
            [l] => Ok(*l),
            _ => Err(LevelParseError(s.to_string())),
        }
    }
}

/// A computer player of a given level, with its own transposition table and random stream.
///
/// ```
/// use nocca::{Engine, Level, Limits, Position};
/// // White threatens to step from b1 into its goal; Black must ride on b1.
/// let pos: Position = "b,w,-/-,-,-/-,-,b/-,w,w b".parse().unwrap();
/// let mut e = Engine::new(Level::Strong, 1);
/// let r = e.best_move_position(&pos, &[], Limits::depth(4)).unwrap();
/// assert_eq!(r.mv.to_string(), "a1l");
/// ```
pub struct Engine {
    level: Level,
    searcher: Searcher,
    rng: ChaCha8Rng,
}

impl Engine {
    /// An engine of `level` whose random choices all flow from `seed`.
    pub fn new(level: Level, seed: u64) -> Engine {
        Engine::with_table(level, seed, 20)
    }

    /// As [`Engine::new`] with a transposition table of `2^tt_bits` entries (16 bytes each; default 20).
    pub fn with_table(level: Level, seed: u64, tt_bits: u32) -> Engine {
        Engine {
            level,
            searcher: Searcher::new(tt_bits, SearchConfig::default()),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Forgets the table (call between unrelated games for reproducibility).
    pub fn new_game(&mut self) {
        self.searcher.clear();
    }

    /// The engine's move in a game, within `limits` (the level's depth cap and noise apply on top);
    /// `None` if the game is over.
    pub fn best_move(&mut self, game: &Game, limits: Limits) -> Option<SearchResult> {
        if game.is_over() {
            return None;
        }
        let left = game
            .options()
            .ply_cap
            .map(|c| c.saturating_sub(game.ply() as u32));
        self.run(game.position(), &game.history_hashes(), left, limits)
    }

    /// The engine's move in a game with the level's own time limit ([`Level::play_limits`]).
    pub fn think(&mut self, game: &Game) -> Option<SearchResult> {
        self.best_move(game, self.level.play_limits())
    }

    /// The engine's move from a bare position; `history` = hashes of earlier positions, oldest first.
    pub fn best_move_position(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: Limits,
    ) -> Option<SearchResult> {
        self.run(pos, history, None, limits)
    }

    fn run(
        &mut self,
        pos: &Position,
        history: &[u64],
        left: Option<u32>,
        limits: Limits,
    ) -> Option<SearchResult> {
        let depth = match (limits.depth, self.level.max_depth()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let limits = Limits { depth, ..limits };
        let rng = &mut self.rng;
        self.searcher
            .search(pos, history, left, limits, self.level.noise(), &mut || {
                rng.next_u64()
            })
    }
}

/// A hint for the side to move: a noiseless search within `limits` (e.g. `Limits::time(500 ms)`).
pub fn hint(game: &Game, limits: Limits) -> Option<SearchResult> {
    Engine::with_table(Level::Expert, 0, 18).best_move(game, limits)
}
