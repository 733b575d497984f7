//! What a client sends: [`ClientMessage`].

use super::*;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message of every connection: who this is. A known name must bring its token. An unknown name is
    /// registered with the token it brings (the way of clients older than `register`, kept so that they go on
    /// working). Answered by `welcome`.
    Hello {
        /// The player's name (1 to [`MAX_NAME_CHARS`] letters, digits, `_` or `-`).
        name: String,
        /// The player's secret, made and kept by the client ([`TOKEN_CHARS`] printable ASCII characters).
        token: String,
    },
    /// The first message of a new player's first connection, instead of `hello`: registers the name, for which the
    /// server makes a token (128 random bits from the operating system, 32 hexadecimal digits). Answered by
    /// `registered` (the token, sent this once: the client keeps it and says `hello` with it from then on), then
    /// `welcome`, as `hello` is. Refused with `bad_name` if the name is taken (also in another case), or
    /// `rate_limited` past the address's registrations an hour.
    Register {
        /// The name wanted (1 to [`MAX_NAME_CHARS`] letters, digits, `_` or `-`).
        name: String,
    },
    /// Ask for the lobby; answered by `lobby`.
    Lobby {
        /// Optional: keep sending `lobby` when it changes (at most once a second) until `"follow": false`.
        #[serde(default)]
        follow: bool,
    },
    /// Challenge a player who is online; they get `challenged`, you get `challenge_sent`.
    Challenge {
        /// The opponent's name.
        opponent: String,
        /// The board, `ROWSxCOLS` (`"6x5"`, any size Parlor plays).
        board: String,
        /// Optional: the time control; none for an untimed game.
        #[serde(default)]
        clock: Option<TimeControl>,
        /// Optional: whether the game changes ratings.
        #[serde(default)]
        rated: bool,
    },
    /// Accept a challenge received; the game starts (its `started` event goes to both), the challenger playing Black.
    Accept {
        /// The challenge's number.
        challenge: u64,
    },
    /// Decline a challenge received; the challenger gets `challenge_closed`.
    Decline {
        /// The challenge's number.
        challenge: u64,
    },
    /// Withdraw a challenge you made; the opponent gets `challenge_closed`.
    Cancel {
        /// The challenge's number.
        challenge: u64,
    },
    /// Join the rated queue for a board and time control (joining again replaces your place); answered by
    /// `queued`. When paired, the game's `started` event comes and you leave the queue.
    Queue {
        /// The board, `ROWSxCOLS`.
        board: String,
        /// Optional: the time control; none for untimed.
        #[serde(default)]
        clock: Option<TimeControl>,
    },
    /// Leave the queue; answered by `unqueued`.
    Unqueue {},
    /// Play a move.
    Move {
        /// The game.
        game: u64,
        /// The client's sequence number for its moves in this game, increasing; a move sent again with a number
        /// already taken is ignored.
        seq: u64,
        /// The move in Parlor's Nocca notation (`c1k`: a square and a direction letter).
        mv: String,
    },
    /// The last event number of a game the client has seen.
    Ack {
        /// The game.
        game: u64,
        /// The event number.
        event: u64,
    },
    /// Give up a game (before both sides have moved, the game is aborted instead).
    Resign {
        /// The game.
        game: u64,
    },
    /// Send again every event of a game you play (or played) after number `after` (0: all of them).
    Resume {
        /// The game.
        game: u64,
        /// The last event number the client has.
        after: u64,
    },
    /// After a finished game, offer its opponent a rematch (colours swapped, same board, clock and rating); the
    /// opponent gets `rematch_offered`. Sent by the other player it accepts the offer, and the new game starts.
    Rematch {
        /// The finished game.
        game: u64,
    },
    /// Decline a rematch offered; the other player gets `rematch_declined`.
    DeclineRematch {
        /// The finished game.
        game: u64,
    },
    /// Watch a live game: answered by `watching`, then every event after `after`, and every new one until the game
    /// ends or `unwatch`.
    Watch {
        /// The game.
        game: u64,
        /// The last event number the client has (0: all of them).
        after: u64,
    },
    /// Stop watching a game; answered by `unwatched`.
    Unwatch {
        /// The game.
        game: u64,
    },
    /// Ask for a finished game's record; answered by `record`.
    Record {
        /// The game.
        game: u64,
    },
    /// Ask for a player's last finished games (newest first, at most [`LIST_LIMIT`]); answered by `games`.
    Games {
        /// The player.
        player: String,
    },
    /// Ask for today's 2048 challenge; answered by `daily_2048` (the day's shared seed, the unranked board's).
    #[serde(rename = "daily_2048")]
    Daily2048 {},
    /// Hand in a game of today's unranked 2048 (played from the shared seed); answered by `scored_2048` (on the
    /// `assisted` board, whatever was used: the ranked board takes only the games the server deals), or refused (`score_mismatch` if the moves do not
    /// produce the score claimed, `bad_actions` if they do not replay, `duplicate` if this board of the day already
    /// has your game, `bad_day` if the day is not today's).
    #[serde(rename = "submit_2048")]
    Submit2048 {
        /// The day played (`YYYY-MM-DD`, UTC), as `daily_2048` gave it.
        day: String,
        /// Every action in order, one letter each ([`actions_to_letters`]: `u`, `d`, `l`, `r` slides, `z` undo).
        actions: String,
        /// The score the client reached.
        score: u64,
        /// Whether hints were shown.
        hints: bool,
        /// Whether undo was used (must be true if `actions` holds a `z`).
        undo: bool,
    },
    /// Start today's ranked 2048, or take it up again (after a reconnect, on another device): answered by
    /// `dealt_2048` with the game as it stands (at the start, the board with its two first tiles). The server deals
    /// the game from a seed of its own for each player and day, which it sends to nobody before the day is over;
    /// one ranked game a player a day, ranked on the `plain` board by the server's score.
    #[serde(rename = "ranked_2048")]
    Ranked2048 {},
    /// A slide in today's ranked 2048: the server plays it with the `twenty48` engine's rules, places the next
    /// tile and answers `dealt_2048` with that tile. Refused (and nothing changes): `illegal_move` if the slide
    /// moves nothing, `game_over` once no slide is left, `not_found` before `ranked_2048`, `bad_day` if the day is
    /// not today's, `conflict` if `n` is not the next slide's number, `duplicate` if slide `n` was played in
    /// another direction. The same slide sent again (same `n`, same direction) is answered again, unchanged.
    #[serde(rename = "slide_2048")]
    Slide2048 {
        /// The day (`YYYY-MM-DD`, UTC), as `dealt_2048` gave it.
        day: String,
        /// The slide's number: 1 for the first, one more than the slides already played.
        n: u64,
        /// The direction, one letter: `u`, `d`, `l` or `r` ([`actions_to_letters`]).
        dir: String,
    },
    /// Ask for today's Mastermind; answered by `daily_mastermind`.
    DailyMastermind {},
    /// A guess at today's Mastermind; answered by `guess_scored`, or refused (`duplicate` if guess number `n` was
    /// already scored or the same code was already guessed, `game_over` once solved or out of guesses).
    Guess {
        /// The day (`YYYY-MM-DD`, UTC), as `daily_mastermind` gave it.
        day: String,
        /// The guess's number: 1 for the first, one more than the guesses already scored.
        n: u32,
        /// The code in the `mastermind` crate's notation for the day's variant (`RGYU`, or `1234`).
        code: String,
    },
    /// Your own daily games of a past day, to replay and review them: answered by `past_day`, with the seed your
    /// ranked 2048 was dealt from and your slides, and your Mastermind secret and your guesses. Refused with
    /// `bad_day` for today (its seeds are told to nobody until it is over), a day to come, or a text that is no
    /// date.
    PastDay {
        /// The day (`YYYY-MM-DD`, UTC), before today.
        day: String,
    },
    /// Ask for a daily leaderboard; answered by `leaderboard`.
    Leaderboard {
        /// Which challenge.
        daily: Daily,
        /// Optional: the day (`YYYY-MM-DD`); today if none.
        #[serde(default)]
        day: Option<String>,
        /// Optional: which board (`plain` if none).
        #[serde(default)]
        board: Board,
    },
    /// Is the server there? Answered by `pong`, before `hello` as after it, and counted by the rate limits like any
    /// other message. A client sends it when the server has said nothing for a while: the WebSocket pings the
    /// server sends are answered by a browser without telling the page, so this is how a page hears a silent server.
    Ping {},
}

impl ClientMessage {
    /// Parses a client's message: at most [`MAX_MESSAGE_BYTES`], or [`MAX_SUBMIT_BYTES`] for `submit_2048`.
    pub fn parse(text: &str) -> Result<ClientMessage, ParseError> {
        let msg = parse(text, MAX_SUBMIT_BYTES)?;
        if text.len() > MAX_MESSAGE_BYTES && !matches!(msg, ClientMessage::Submit2048 { .. }) {
            return Err(ParseError::TooLarge(text.len(), MAX_MESSAGE_BYTES));
        }
        Ok(msg)
    }

    /// The message as sent on the wire.
    pub fn to_text(&self) -> String {
        write(self)
    }
}
