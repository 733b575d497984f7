//! What the server sends: [`ServerMessage`], its errors, and what the lobby lists.

use super::*;

/// What kind of error the server reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The message did not parse ([`ParseError`]).
    Malformed,
    /// The message was over its size limit.
    TooLarge,
    /// The first message was not `hello`, or `hello` came twice.
    NotIntroduced,
    /// The name is invalid, or taken by a player with another token.
    BadName,
    /// The token is invalid.
    BadToken,
    /// No such player online, challenge or game (for this player).
    NotFound,
    /// The board size is not one Parlor plays.
    BadBoard,
    /// The time control is out of bounds ([`TimeControl::check`]).
    BadClock,
    /// Not this player's turn.
    NotYourTurn,
    /// The move does not parse or breaks a rule.
    IllegalMove,
    /// The game (or the daily challenge) is over.
    GameOver,
    /// Not now: e.g. a challenge to a player already challenged by you, a rematch before the game ended.
    Conflict,
    /// Too many messages: slow down (the connection may be closed if it goes on).
    RateLimited,
    /// The day named is not today's (UTC), or not a date.
    BadDay,
    /// A 2048 game's actions do not parse or do not replay from the day's seed (or use undo while `undo` says
    /// not).
    BadActions,
    /// A 2048 game's actions replay to another score than the one claimed.
    ScoreMismatch,
    /// Already done: the day's board already has your game, or this guess was already scored.
    Duplicate,
    /// The server does not do this yet.
    Unsupported,
    /// The server could not do it (storage failed).
    Internal,
}

/// A player online, as the lobby lists them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerInfo {
    /// The name.
    pub name: String,
    /// Their rating.
    pub rating: Rating,
    /// Whether they are playing a game now.
    pub playing: bool,
    /// Whether they wait in the queue.
    pub queued: bool,
}

/// An open challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeInfo {
    /// Its number (for `accept`, `decline`, `cancel`).
    pub challenge: u64,
    /// Who challenges (will play Black).
    pub from: String,
    /// Who is challenged.
    pub to: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// The time control; none for untimed.
    pub clock: Option<TimeControl>,
    /// Whether the game would change ratings.
    pub rated: bool,
}

/// A game in play, as the lobby lists it (to watch).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LiveGame {
    /// The game.
    pub game: u64,
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
    /// Plies played so far.
    pub ply: u32,
    /// How many watch it.
    pub spectators: u32,
}

/// Your place in the queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueEntry {
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// The time control; none for untimed.
    pub clock: Option<TimeControl>,
    /// How long you have waited, in milliseconds.
    pub waited_ms: u64,
    /// How far from your rating an opponent may now be (the band widens as you wait).
    pub band: u32,
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMessage {
    /// The answer to `hello`: the player's rating and games in play (to resume).
    Welcome {
        /// The name, as registered.
        name: String,
        /// The player's rating.
        rating: Rating,
        /// The games in play, with the number of their last event.
        games: Vec<GameInPlay>,
    },
    /// The answer to `register`: the name is the player's, and this is its token, made by the server and sent this
    /// once (the server keeps only its SHA-256). `welcome` follows.
    Registered {
        /// The name, as registered.
        name: String,
        /// The token: 32 hexadecimal digits (128 random bits).
        token: String,
    },
    /// The lobby.
    Lobby {
        /// How many players are online (the list may be cut at [`LIST_LIMIT`]).
        online: u32,
        /// Players online, best rated first.
        players: Vec<PlayerInfo>,
        /// Open challenges to and from you.
        challenges: Vec<ChallengeInfo>,
        /// Live games, newest first.
        games: Vec<LiveGame>,
        /// Your place in the queue, if you wait in it.
        queue: Option<QueueEntry>,
    },
    /// A player challenged you.
    Challenged {
        /// The challenge.
        challenge: ChallengeInfo,
    },
    /// Your challenge was passed on.
    ChallengeSent {
        /// The challenge.
        challenge: ChallengeInfo,
    },
    /// A challenge to or from you is no longer open: declined or cancelled (both players get this, the one who did
    /// it as the answer), or a player left. An accepted challenge gets no `challenge_closed`: the game's `started`
    /// event says it.
    ChallengeClosed {
        /// The challenge's number.
        challenge: u64,
        /// Why: `declined`, `cancelled`, or `gone` (a player left).
        reason: String,
    },
    /// You wait in the queue.
    Queued {
        /// Your place.
        entry: QueueEntry,
    },
    /// You left the queue (by `unqueue`, or because a connection of yours ended).
    Unqueued {},
    /// An event of a game (you play it or watch it).
    Event {
        /// The game.
        game: u64,
        /// The event.
        event: Event,
    },
    /// Your opponent in a finished game offers a rematch (send `rematch` to accept, `decline_rematch` to decline).
    RematchOffered {
        /// The finished game.
        game: u64,
        /// Who offers.
        from: String,
    },
    /// Your rematch offer was declined (or its player left).
    RematchDeclined {
        /// The finished game.
        game: u64,
    },
    /// You watch a game; its events follow.
    Watching {
        /// The game.
        game: u64,
        /// The number of its last event now.
        last_event: u64,
    },
    /// You no longer watch a game.
    Unwatched {
        /// The game.
        game: u64,
    },
    /// A finished game's record.
    Record {
        /// The record.
        record: GameRecord,
    },
    /// A player's last finished games, newest first.
    Games {
        /// The player.
        player: String,
        /// The games (at most [`LIST_LIMIT`]).
        games: Vec<GameSummary>,
    },
    /// Today's 2048.
    #[serde(rename = "daily_2048")]
    Daily2048 {
        /// The day (`YYYY-MM-DD`, UTC).
        day: String,
        /// The seed: play `twenty48::Game::new(twenty48::Rules::default(), seed)`.
        seed: u64,
    },
    /// A 2048 game handed in, as the server scored it.
    #[serde(rename = "scored_2048")]
    Scored2048 {
        /// The day.
        day: String,
        /// The board it is ranked on.
        board: Board,
        /// The score the server computed.
        score: u64,
        /// The largest tile.
        max_tile: u64,
        /// The slides played.
        moves: u64,
        /// Its rank on the board now.
        rank: u32,
    },
    /// Today's ranked 2048 as it stands, the answer to `ranked_2048` and to each `slide_2048`.
    #[serde(rename = "dealt_2048")]
    Dealt2048 {
        /// The day (`YYYY-MM-DD`, UTC).
        day: String,
        /// The slides played so far (the next one is number `moves + 1`).
        moves: u64,
        /// The board after them, in the `twenty48` crate's notation (rows top to bottom joined by `/`, cells by
        /// `,`, `0` for empty; `twenty48::Board::from_str` reads it).
        board: String,
        /// The score, as the server counts it.
        score: u64,
        /// Optional: the tile the server placed after slide `moves`; none in the answer to `ranked_2048`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tile: Option<Tile>,
        /// Whether no slide is left: the game is over and ranked as it stands.
        over: bool,
        /// Optional: the game's rank on the day's `plain` board, once it is over.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rank: Option<u32>,
    },
    /// Today's Mastermind, with your guesses so far.
    DailyMastermind {
        /// The day (`YYYY-MM-DD`, UTC).
        day: String,
        /// The `mastermind` crate's variant (`classic`: 6 colours, 4 pegs, 10 guesses, repeats allowed).
        variant: String,
        /// Your guesses so far, scored.
        guesses: Vec<ScoredGuess>,
        /// Whether you solved it.
        solved: bool,
        /// Whether your game is over (solved or out of guesses).
        over: bool,
    },
    /// A Mastermind guess, scored.
    GuessScored {
        /// The day.
        day: String,
        /// The guess and its score.
        guess: ScoredGuess,
        /// Whether it solved the code.
        solved: bool,
        /// Guesses left.
        left: u32,
    },
    /// Your own daily games of a past day (the answer to `past_day`), its seeds told now that it is over.
    PastDay {
        /// The day (`YYYY-MM-DD`, UTC).
        day: String,
        /// The seed your ranked 2048 of that day was dealt from: `twenty48::Game::new(Rules::default(), seed)`
        /// deals it again, tile for tile, and `slides` replays your game.
        seed_2048: u64,
        /// The slides you played that day, one letter each (`u`, `d`, `l`, `r`); empty if you did not play.
        slides: String,
        /// The score the server counted for them.
        score: u64,
        /// The day's Mastermind variant (`classic`).
        variant: String,
        /// Your Mastermind secret that day, in the variant's notation (`RGYU`).
        secret: String,
        /// Your guesses that day, scored.
        guesses: Vec<ScoredGuess>,
    },
    /// A daily leaderboard.
    Leaderboard {
        /// Which challenge.
        daily: Daily,
        /// The day.
        day: String,
        /// Which board.
        board: Board,
        /// Its rows, best first (at most [`LIST_LIMIT`]).
        entries: Vec<LeaderEntry>,
    },
    /// A player of a game in play has no connection open any more (their network dropped, or they left): their
    /// seat is held for `grace_ms` more, then they lose (reason `abandoned`; before both sides moved the game is
    /// aborted). Sent to their opponent and to everyone watching the game, when it happens, and to a connection
    /// that says `hello` or starts to `watch` the game while the player is still away. A client that does not know
    /// this message skips it (added within version 2: nothing else changes).
    Away {
        /// The game.
        game: u64,
        /// The side of the player away.
        side: Side,
        /// Their name.
        name: String,
        /// The milliseconds left before they lose the game, counted from when this message was sent.
        grace_ms: u64,
    },
    /// A player who was [`ServerMessage::Away`] is back in the game; sent to the same connections.
    Back {
        /// The game.
        game: u64,
        /// The side of the player back.
        side: Side,
        /// Their name.
        name: String,
    },
    /// The answer to `ping`: the server is there.
    Pong {},
    /// A message was refused; nothing changed.
    Error {
        /// The kind of error.
        code: ErrorCode,
        /// What was wrong, in words.
        message: String,
        /// The game it concerns, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<u64>,
    },
}

/// A tile the server placed in a ranked 2048 game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tile {
    /// Its row, from 0 at the top.
    pub row: u32,
    /// Its column, from 0 at the left.
    pub col: u32,
    /// Its value (2 or 4).
    pub value: u64,
}

/// A game in play, as `welcome` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameInPlay {
    /// The game.
    pub game: u64,
    /// The player's side.
    pub side: Side,
    /// The opponent's name.
    pub opponent: String,
    /// The number of the game's last event.
    pub last_event: u64,
}

impl ServerMessage {
    /// Parses a server's message (at most [`MAX_SERVER_MESSAGE_BYTES`]). A `record` of a newer format than
    /// [`RECORD_FORMAT`] is not read: it parses as an `unsupported` [`ServerMessage::Error`] about its game that
    /// says so (the server never sends that error itself).
    pub fn parse(text: &str) -> Result<ServerMessage, ParseError> {
        let map = object(text, MAX_SERVER_MESSAGE_BYTES)?;
        if map.get("type").and_then(serde_json::Value::as_str) == Some("record")
            && let Some(record) = map.get("record")
            && let Some(format) = record.get("format").and_then(serde_json::Value::as_u64)
            && format > u64::from(RECORD_FORMAT)
        {
            let game = record.get("game").and_then(serde_json::Value::as_u64);
            let which = game.map_or_else(String::new, |g| format!("game {g}'s "));
            return Ok(ServerMessage::error(
                ErrorCode::Unsupported,
                format!(
                    "{which}record is of format {format}, newer than this client reads (format \
                     {RECORD_FORMAT}): update Parlor to read it"
                ),
                game,
            ));
        }
        serde_json::from_value(serde_json::Value::Object(map))
            .map_err(|e| ParseError::Invalid(e.to_string()))
    }

    /// The message as sent on the wire.
    pub fn to_text(&self) -> String {
        write(self)
    }

    /// An error message.
    pub fn error(code: ErrorCode, message: impl Into<String>, game: Option<u64>) -> ServerMessage {
        ServerMessage::Error {
            code,
            message: message.into(),
            game,
        }
    }
}
