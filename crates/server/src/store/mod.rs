//! What the server keeps, behind one trait ([`Store`]) so that the backend can change: players (name and the
//! SHA-256 of their token, never the token itself), ratings, games (a row when a game starts, so no game number is
//! ever given twice; its progress after each move; its result when it ends), the rated queue, rematch offers and
//! the dailies. A rated game's end and both players' new ratings are written together, only if the game was still
//! in play, so each rated game updates ratings exactly once.
//!
//! [`SqliteStore`] keeps them in `server.db` (SQLite, WAL) in the data directory. A store never runs on the async
//! path: [`Pool`] runs one on a thread of its own (the writer, which does every write in the order asked) with
//! readers beside it on threads of their own, and answers by channel, so a slow write stalls no connection that
//! only reads or waits for nothing kept.
//!
//! [`PgStore`] keeps them in PostgreSQL (`--database postgres://...`, [`Database`]), with the same guarantees: each
//! call done whole or not at all, [`Store::finish_rated_game`] one transaction that only a game in play can pass
//! (also with several servers on one database), a game number never given to two games ([`StoreError::Taken`]),
//! and a reader ([`Store::reader`]) that sees every write the writer has finished.

mod pool;
mod postgres;
mod sqlite;

pub use self::postgres::{CONNECT_TIMEOUT, IDLE_IN_TRANSACTION, PgStore, PgUrl, UNACKNOWLEDGED};
pub use pool::{Pool, READERS};
pub use sqlite::{DB_FILE, SCHEMA_VERSION, SqliteStore, name_key};

/// The word the stores keep for the ranked 2048 board (the protocol's `plain`).
pub const RANKED_BOARD: &str = "plain";
use std::path::PathBuf;

use crate::rating::Exact;
use parlor_online::protocol::{MoveTime, Rating, RatingChanges, TimeControl};
use parlor_online::referee::GameResult;

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A file or directory could not be made or opened.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// Why it failed.
        source: std::io::Error,
    },
    /// The database could not be opened.
    #[error("opening {path}: {source}")]
    Open {
        /// The database's file.
        path: String,
        /// Why it failed.
        source: rusqlite::Error,
    },
    /// The database refused or failed.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// The PostgreSQL database could not be reached or logged into.
    #[error("connecting to {url}: {}", chain(.source))]
    Connect {
        /// The database's URL, its password masked.
        url: String,
        /// Why it failed.
        source: ::postgres::Error,
    },
    /// The PostgreSQL database refused or failed.
    #[error("PostgreSQL: {}", chain(.0))]
    Postgres(#[from] ::postgres::Error),
    /// The database was made by a newer server.
    #[error("{path} is of a newer server (schema {found}; this one knows {known})")]
    Newer {
        /// The database's file, or its URL with the password masked.
        path: String,
        /// Its schema.
        found: i64,
        /// The newest schema this server knows.
        known: i64,
    },
    /// A number out of the range the database keeps (or a kept number out of the server's).
    #[error("a number out of range: {0}")]
    Range(#[from] std::num::TryFromIntError),
    /// A value kept as JSON could not be written or read.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A kept row does not read.
    #[error("{what}: {why}")]
    Unreadable {
        /// The row (`game 12`, `queue of ann`).
        what: String,
        /// What is wrong with it.
        why: String,
    },
    /// A game's end written for a game that is not in play (already ended, or unknown): nothing was written.
    #[error("game {0} is not a game in play")]
    NotInPlay(u64),
    /// A game started under a number already given (by another server on the same database): nothing was written.
    #[error("game number {0} is already given")]
    Taken(u64),
    /// A write for a game whose lease this server no longer holds (another node referees it now, or the lease
    /// ran out): nothing was written.
    #[error("game {0}: this server no longer holds its lease")]
    LeaseLost(u64),
    /// The store's thread has stopped (the server is stopping, or a call panicked).
    #[error("the store's thread has stopped")]
    Stopped,
}

/// A finished game, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    /// The game's number.
    pub id: u64,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// The moves, in Parlor's Nocca notation separated by spaces.
    pub moves: String,
    /// The result.
    pub result: GameResult,
    /// The final position in the `nocca` crate's text form.
    pub position: String,
    /// The time control; none for untimed.
    pub clock: Option<TimeControl>,
    /// Whether it was rated.
    pub rated: bool,
    /// The rating changes it made, if rated and not aborted.
    pub ratings: Option<RatingChanges>,
    /// When it started, in milliseconds since the Unix epoch.
    pub started_ms: u64,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
    /// Each move's time (one a move), or none for a game kept before the server kept them (schema 2).
    pub times: Option<Vec<MoveTime>>,
    /// Both players' ratings as its `started` event showed them (Black's first); none for a game kept before the
    /// server kept them (schema 3).
    pub start_ratings: Option<[Rating; 2]>,
    /// Both clocks as its `ended` event showed them (Black's first); none for an untimed game or one kept before
    /// the server kept them (schema 3).
    pub end_clocks: Option<[u64; 2]>,
}

/// A game in play as kept (its moves, clocks and sequence numbers as of its last move), to resume after a restart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveGame {
    /// The game's number.
    pub id: u64,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// The time control; none for untimed.
    pub clock: Option<TimeControl>,
    /// Whether it is rated.
    pub rated: bool,
    /// The game it is a rematch of.
    pub rematch_of: Option<u64>,
    /// The moves so far.
    pub moves: String,
    /// Each side's time left as of the last move, Black's first.
    pub remaining: [u64; 2],
    /// The last sequence number taken from each side, Black's first.
    pub seqs: [Option<u64>; 2],
    /// Each move's time so far, if kept.
    pub times: Option<Vec<MoveTime>>,
    /// Both players' ratings as its `started` event showed them (Black's first); none for a game kept before the
    /// server kept them (schema 3).
    pub start_ratings: Option<[Rating; 2]>,
}

/// A game that starts, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// Its number: one more than [`Store::last_game_id`] or any number given since.
    pub id: u64,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// The time control; none for untimed.
    pub clock: Option<TimeControl>,
    /// Whether it is rated.
    pub rated: bool,
    /// The finished game it is a rematch of.
    pub rematch_of: Option<u64>,
    /// Both players' ratings as its `started` event shows them, Black's first.
    pub ratings: [Rating; 2],
    /// Each side's time at the start (the time control's, or zeros for an untimed game), Black's first: what a
    /// game resumed before its first move starts its clocks from.
    pub remaining: [u64; 2],
}

/// A game's end, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The moves, in Parlor's Nocca notation separated by spaces.
    pub moves: String,
    /// Each move's time (none: the kept ones stay).
    pub times: Option<Vec<MoveTime>>,
    /// The result.
    pub result: GameResult,
    /// The final position in the `nocca` crate's text form.
    pub position: String,
    /// Both clocks as the `ended` event shows them (Black's first); none for an untimed game.
    pub clocks: Option<[u64; 2]>,
}

/// What a player does in a game through a node that does not referee it, passed to the one that does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forwarded {
    /// The player.
    pub name: String,
    /// What they do.
    pub action: Action,
}

/// A player's action passed to a game's referee ([`Forwarded`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move, with its sequence number.
    Move {
        /// Its sequence number.
        seq: u64,
        /// The move.
        mv: String,
    },
    /// A resignation.
    Resign,
    /// A connection of theirs follows the game on the other node: their seat is not held as away.
    Here,
    /// Their last connection following the game on the other node ended: their seat is held for the grace period.
    Gone,
}

impl Action {
    /// The kind, as kept.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Move { .. } => "move",
            Action::Resign => "resign",
            Action::Here => "here",
            Action::Gone => "gone",
        }
    }
}

/// What a node's try at pairing one of its queued players through the store found ([`Store::pair_queued`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Pairing {
    /// The player's place is no longer kept (they left, or another node paired them).
    Gone,
    /// Nobody to pair them with yet.
    Waiting,
    /// Paired: both places are taken out of the kept queue.
    Paired {
        /// The player's place, as kept.
        me: QueuedPlayer,
        /// Their opponent's place.
        opponent: QueuedPlayer,
        /// The opponent's exact rating.
        rating: Exact,
    },
}

/// A player waiting in the rated queue, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedPlayer {
    /// The player.
    pub name: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// The time control; none for untimed.
    pub clock: Option<TimeControl>,
    /// When they joined, in milliseconds since the Unix epoch (their band widens from it).
    pub joined_unix_ms: u64,
}

/// A rematch offer, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RematchOffer {
    /// The finished game it is a rematch of.
    pub game: u64,
    /// Who offered.
    pub from: String,
    /// When it lapses, in milliseconds since the Unix epoch.
    pub expires_unix_ms: u64,
}

/// A new rated game's end: the changes shown, and both players' exact new ratings (Black's first).
#[derive(Clone, Copy, Debug)]
pub struct Rated {
    /// As the protocol shows them.
    pub changes: RatingChanges,
    /// The exact new ratings, Black's first.
    pub after: [Exact; 2],
}

/// What a player's `hello` found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Login {
    /// A new name, now registered with this token.
    Registered,
    /// A known name with its token.
    Known,
    /// A known name with another token.
    WrongToken,
    /// A new name that differs only in case from a registered one (names are told apart after case folding):
    /// not registered.
    CaseVariant,
}

/// A day's 2048 game on one board, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Daily2048 {
    /// The day, `YYYY-MM-DD` (UTC).
    pub day: String,
    /// The board: `plain` or `assisted`.
    pub board: String,
    /// The player.
    pub name: String,
    /// The score the server's replay gave.
    pub score: u64,
    /// The largest tile.
    pub max_tile: u64,
    /// The moves made.
    pub moves: u64,
    /// Every action, one letter each.
    pub actions: String,
}

/// A player's ranked 2048 of a day (dealt by the server), as kept: its slides, and the figures they reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranked2048 {
    /// The day, `YYYY-MM-DD` (UTC).
    pub day: String,
    /// The player.
    pub name: String,
    /// The slides played, one letter each (no undo): with the day's seed of the player, the whole game.
    pub slides: String,
    /// The score they reach.
    pub score: u64,
    /// The largest tile.
    pub max_tile: u64,
    /// Whether no slide is left.
    pub over: bool,
}

/// A scored Mastermind guess of the day, as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyGuess {
    /// The day, `YYYY-MM-DD` (UTC).
    pub day: String,
    /// The player.
    pub name: String,
    /// The guess's number, from 1.
    pub n: u32,
    /// The code guessed.
    pub code: String,
    /// Its black pegs.
    pub black: u8,
    /// Its white pegs.
    pub white: u8,
    /// Whether it solved the day's code.
    pub solved: bool,
}

/// The server's storage: what a backend does. Every call is whole or not done; the server calls a store from one
/// thread at a time (its [`Pool`]), never from the async path, and the writer's calls in the order it made them.
pub trait Store: Send {
    /// Another handle on the same data for reads only, on a thread of its own beside the writer (a second
    /// connection), which sees every write finished before it reads; none if this backend reads only through
    /// itself (every read then waits behind the writes asked before it).
    fn reader(&self) -> Result<Option<Box<dyn Store>>, StoreError>;

    /// The server's secret (made once, at random, and kept): the daily challenges' seeds are drawn from it.
    fn secret(&mut self) -> Result<String, StoreError>;

    /// Checks a player's token, registering a new name with it.
    fn login(&mut self, name: &str, token: &str) -> Result<Login, StoreError>;

    /// Checks a player's token without registering: none if the name is unknown.
    fn check_login(&mut self, name: &str, token: &str) -> Result<Option<Login>, StoreError>;

    /// A player's exact rating (a new player's if the name is unknown).
    fn rating(&mut self, name: &str) -> Result<Exact, StoreError>;

    /// Every player's exact rating, best first (at most `limit`).
    fn ratings(&mut self, limit: usize) -> Result<Vec<(String, Exact)>, StoreError>;

    /// The largest game number ever given (0 if none): the next game is numbered after it.
    fn last_game_id(&mut self) -> Result<u64, StoreError>;

    /// Records a game that starts under the number it was given.
    fn start_game(&mut self, game: &NewGame) -> Result<(), StoreError>;

    /// Makes this store one node of several sharing the database ([`crate::nodes`]): from now on each game it
    /// starts or takes is refereed under a lease, and each write of a game's progress or end passes only while
    /// the lease is this store's. False (and nothing changes) for a backend that serves one server only (SQLite).
    fn join_nodes(&mut self) -> Result<bool, StoreError> {
        Ok(false)
    }

    /// A node's block of `n` game numbers no other node is given (none for a backend of one server: its games are
    /// numbered from [`Store::last_game_id`]).
    fn reserve_game_ids(&mut self, n: u64) -> Result<Option<std::ops::Range<u64>>, StoreError> {
        let _ = n;
        Ok(None)
    }

    /// A node takes the lease of every game in play whose lease is free (none, released, or run out) and returns
    /// those games as kept, to referee them from now on.
    fn take_leases(&mut self) -> Result<Vec<LiveGame>, StoreError> {
        Ok(Vec::new())
    }

    /// A node renews the leases it holds; returns the games whose lease it has lost (taken by another node, or run
    /// out before it could renew them), which it must referee no more.
    fn renew_leases(&mut self) -> Result<Vec<u64>, StoreError> {
        Ok(Vec::new())
    }

    /// A node gives up the lease of `game` (of every game it holds, if none), so that another node takes it at
    /// once.
    fn release_leases(&mut self, game: Option<u64>) -> Result<(), StoreError> {
        let _ = game;
        Ok(())
    }

    /// Listens for what other nodes on the database say ([`crate::nodes::News`]) on a connection and thread of its
    /// own, until `news` is closed; false (nothing listens) for a backend of one server.
    fn listen(
        &self,
        news: tokio::sync::mpsc::UnboundedSender<crate::nodes::News>,
    ) -> Result<bool, StoreError> {
        let _ = news;
        Ok(false)
    }

    /// This node's name among the nodes on its database (none for a backend of one server).
    fn node_name(&self) -> Option<String> {
        None
    }

    /// A node's players online (`mine`) kept as its presence, seen now; returns every other node's players seen
    /// lately, each with its node's name ([`crate::nodes`]). None for a backend of one server.
    fn presence(
        &mut self,
        mine: &[parlor_online::protocol::PlayerInfo],
    ) -> Result<Vec<(String, parlor_online::protocol::PlayerInfo)>, StoreError> {
        let _ = mine;
        Ok(Vec::new())
    }

    /// Says a notice (JSON text) to the other nodes on the database ([`crate::nodes::NOTICES`]); nothing for a
    /// backend of one server.
    fn notice(&mut self, text: &str) -> Result<(), StoreError> {
        let _ = text;
        Ok(())
    }

    /// A challenge number no other node on the database gives (none for a backend of one server, which numbers
    /// its challenges itself).
    fn challenge_number(&mut self) -> Result<Option<u64>, StoreError> {
        Ok(None)
    }

    /// `name`'s games in play as kept, oldest first.
    fn games_in_play_of(&mut self, name: &str) -> Result<Vec<LiveGame>, StoreError> {
        let mut games = self.games_in_play()?;
        games.retain(|g| g.black == name || g.white == name);
        Ok(games)
    }

    /// The game in play `id` as kept, if it is one.
    fn game_in_play(&mut self, id: u64) -> Result<Option<LiveGame>, StoreError> {
        Ok(self.games_in_play()?.into_iter().find(|g| g.id == id))
    }

    /// Passes a player's move (or resignation) in a game refereed by another node to that node, through the
    /// database ([`crate::nodes`]).
    fn forward(&mut self, game: u64, action: &Forwarded) -> Result<(), StoreError> {
        let _ = (game, action);
        Ok(())
    }

    /// The moves passed to `game`'s referee and not yet taken, oldest first: taken (each is given once).
    fn take_forwarded(&mut self, game: u64) -> Result<Vec<Forwarded>, StoreError> {
        let _ = game;
        Ok(Vec::new())
    }

    /// Pairs the queued player `name` (rated `rating`) with the nearest-rated player kept in the queue for the
    /// same board and clock within the wider of their bands at `now_unix_ms`, in one transaction that locks both
    /// places and takes them out, so that of nodes pairing at once none pairs a player twice. For a backend of one
    /// server (which pairs in memory) always [`Pairing::Waiting`].
    fn pair_queued(
        &mut self,
        name: &str,
        rating: f64,
        now_unix_ms: u64,
    ) -> Result<Pairing, StoreError> {
        let _ = (name, rating, now_unix_ms);
        Ok(Pairing::Waiting)
    }

    /// Keeps a game in play's progress after a move: its moves, each move's time, clocks and sequence numbers.
    fn save_progress(
        &mut self,
        id: u64,
        moves: &str,
        times: &[MoveTime],
        remaining: [u64; 2],
        seqs: [Option<u64>; 2],
    ) -> Result<(), StoreError>;

    /// Records a game's end and, for a rated game, both players' new ratings (`rated`: Black's name, White's and
    /// the ratings), in one transaction: nothing is written unless the game was in play
    /// ([`StoreError::NotInPlay`]), so a game's ratings are applied once.
    fn finish_rated_game(
        &mut self,
        id: u64,
        end: &GameEnd,
        rated: Option<(&str, &str, Rated)>,
    ) -> Result<(), StoreError>;

    /// Records an unrated game's end (or a rated game's that changes no rating), its moves' times and clocks
    /// left as kept.
    fn finish_game(
        &mut self,
        id: u64,
        moves: &str,
        result: GameResult,
        position: &str,
    ) -> Result<(), StoreError> {
        let end = GameEnd {
            moves: moves.to_string(),
            times: None,
            result,
            position: position.to_string(),
            clocks: None,
        };
        self.finish_rated_game(id, &end, None)
    }

    /// Every game in play (unfinished), oldest first.
    fn games_in_play(&mut self) -> Result<Vec<LiveGame>, StoreError>;

    /// Every finished game, oldest first.
    fn finished_games(&mut self) -> Result<Vec<FinishedGame>, StoreError>;

    /// `player`'s last finished games, newest first (at most `limit`).
    fn games_of(&mut self, player: &str, limit: usize) -> Result<Vec<FinishedGame>, StoreError>;

    /// The finished game `id`, if there is one.
    fn finished_game(&mut self, id: u64) -> Result<Option<FinishedGame>, StoreError>;

    /// Keeps `name`'s place in the rated queue (replacing any earlier one).
    fn queue_put(&mut self, q: &QueuedPlayer) -> Result<(), StoreError>;

    /// Takes `name` out of the kept queue.
    fn queue_remove(&mut self, name: &str) -> Result<(), StoreError>;

    /// The kept queue, longest waiting first.
    fn queue(&mut self) -> Result<Vec<QueuedPlayer>, StoreError>;

    /// Keeps a rematch offer (replacing any earlier one of the same game).
    fn offer_put(&mut self, o: &RematchOffer) -> Result<(), StoreError>;

    /// Forgets the rematch offer of `game`.
    fn offer_remove(&mut self, game: u64) -> Result<(), StoreError>;

    /// The kept rematch offers, by game.
    fn offers(&mut self) -> Result<Vec<RematchOffer>, StoreError>;

    /// Keeps a day's 2048 game on its board; false if the player already has one there.
    fn add_2048(&mut self, game: &Daily2048) -> Result<bool, StoreError>;

    /// `name`'s ranked 2048 of `day`, if they started it.
    fn ranked_2048(&mut self, day: &str, name: &str) -> Result<Option<Ranked2048>, StoreError>;

    /// Starts `name`'s ranked 2048 of `day` with no slide and the two first tiles' `max_tile` (kept from the first
    /// time: a game already started is left as it is).
    fn start_ranked_2048(&mut self, day: &str, name: &str, max_tile: u64)
    -> Result<(), StoreError>;

    /// Keeps a ranked game's progress after a slide, only if its kept slides are still `before` (so that of two
    /// slides played at once from one kept game, one is kept and the other refused): false if they were not.
    fn slide_ranked_2048(&mut self, before: &str, game: &Ranked2048) -> Result<bool, StoreError>;

    /// A day's 2048 board, best first: (name, score, max tile, moves). The `plain` board (the ranked one) lists
    /// the day's ranked games with a slide played, each with its score as it stands (and the games handed in on it before schema 6,
    /// when it took whole games); the `assisted` board (unranked) the games handed in whole.
    fn board_2048(
        &mut self,
        day: &str,
        board: &str,
        limit: usize,
    ) -> Result<Vec<(String, u64, u64, u64)>, StoreError>;

    /// How many on a day's 2048 board (as [`Store::board_2048`] lists it) scored more than `score`.
    fn better_2048(&mut self, day: &str, board: &str, score: u64) -> Result<u64, StoreError>;

    /// A player's guesses at a day's Mastermind, in order: (code, black, white).
    fn mastermind_of(&mut self, day: &str, name: &str)
    -> Result<Vec<(String, u8, u8)>, StoreError>;

    /// Notes when a player first asked for a day's Mastermind (kept from the first time).
    fn start_mastermind(&mut self, day: &str, name: &str) -> Result<(), StoreError>;

    /// Keeps a scored guess; false if its number was already kept.
    fn add_guess(&mut self, guess: &DailyGuess) -> Result<bool, StoreError>;

    /// A day's Mastermind board, best first: (name, guesses used, milliseconds from first asking to solving).
    fn board_mastermind(
        &mut self,
        day: &str,
        limit: usize,
    ) -> Result<Vec<(String, u64, u64)>, StoreError>;
}

/// The time now, in milliseconds since the Unix epoch.
pub fn now_unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Where the server keeps what it keeps: `server.db` (SQLite) in a data directory, or a PostgreSQL database. Shown
/// as the file's path or the URL with its password masked.
#[derive(Clone, Debug)]
pub enum Database {
    /// SQLite, [`DB_FILE`] in this directory.
    Sqlite(PathBuf),
    /// PostgreSQL at this URL.
    Postgres(Box<PgUrl>),
}

impl Database {
    /// Opens the store (connecting, for PostgreSQL), making or migrating its schema.
    pub fn open(&self) -> Result<Box<dyn Store>, StoreError> {
        Ok(match self {
            Database::Sqlite(dir) => Box::new(SqliteStore::open(dir)?),
            Database::Postgres(url) => Box::new(PgStore::open(url)?),
        })
    }
}

impl std::fmt::Display for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(dir) => write!(f, "{}", dir.join(DB_FILE).display()),
            Database::Postgres(url) => write!(f, "{url}"),
        }
    }
}

/// An error and its causes, `: ` between them (the `postgres` crate's errors say their kind, their cause says why).
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    // Bounded: a chain of causes is short.
    for _ in 0..8 {
        let Some(c) = cause else { break };
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

/// A token's SHA-256, in hex: what is kept of it.
fn token_hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The time now, in milliseconds since the Unix epoch, as the databases keep it.
fn unix_ms() -> i64 {
    i64::try_from(now_unix_ms()).unwrap_or(i64::MAX)
}

/// A new server secret: 64 hex digits of randomness from the OS (through the standard library's hasher keys), the
/// time and the process's number.
fn new_secret() -> String {
    use sha2::{Digest, Sha256};
    use std::hash::{BuildHasher, Hasher};
    let mut h = Sha256::new();
    for i in 0..8u64 {
        let mut k = std::collections::hash_map::RandomState::new().build_hasher();
        k.write_u64(i);
        h.update(k.finish().to_le_bytes());
    }
    h.update(unix_ms().to_le_bytes());
    h.update(std::process::id().to_le_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
