//! The wire protocol, version 2: one JSON object per WebSocket text message, `{"v": 2, "type": "...", ...}`.
//!
//! # Rules of every message
//! - Every message carries `"v": 2` ([`VERSION`]); a message of another version (v1 included) is refused.
//! - A client's message is at most [`MAX_MESSAGE_BYTES`] bytes, except `submit_2048` (a whole game's moves), at most
//!   [`MAX_SUBMIT_BYTES`]; a server's message is at most [`MAX_SERVER_MESSAGE_BYTES`] (lists are cut at
//!   [`LIST_LIMIT`] entries).
//! - Unknown types and unknown fields are refused; fields documented "optional" may be left out (they read as
//!   `null`/`false`/none). The one exception is a finished game's [`GameRecord`], which has a format of its own
//!   ([`RECORD_FORMAT`]): its unknown fields are ignored, and a record of a newer format is refused.
//! - Parsing never panics: whatever the text, [`ClientMessage::parse`] and [`ServerMessage::parse`] return a message
//!   or a [`ParseError`] saying what was wrong. A refused message changes nothing on the server, which answers an
//!   `error` ([`ErrorCode`]) and keeps the connection.
//!
//! # A session
//! 1. The client opens a WebSocket to the server's root (`ws://HOST:PORT/`) and sends `hello` with its name and its
//!    secret token (made once, kept in the config dir). It gets `welcome`: its rating and its games in play.
//! 2. Lobby: `lobby` answers `lobby` (players online with ratings, the open challenges to and from you, live games to
//!    watch, your place in the queue); with `"follow": true` a new `lobby` is pushed when it changes (at most once a
//!    second).
//! 3. A game starts by a `challenge` (a named player, board, time control or none, rated or not) that the other
//!    `accept`s (or `decline`s; the challenger may `cancel`), or by the rated `queue` (board and time control; the
//!    server pairs players of near rating, the band widening as they wait; `unqueue` leaves it).
//! 4. A game is a stream of numbered `event`s: 1 is `started`, then one `moved` per move, and last `ended`. Every
//!    event carries both clocks ([`Clocks`]: the remaining milliseconds when it happened and whose clock runs), so
//!    the client counts the running clock down from the moment it got the event. The client sends `move` with its
//!    own increasing `seq` (a move sent again with a `seq` already taken is ignored, so resending after a doubt is
//!    harmless), `ack`s the last event it has seen, and after a dropped connection says `hello` again and
//!    `resume`s each game from its last event number: it gets exactly the events after it, nothing lost or doubled.
//!    A player may be connected several times at once (two tabs, a phone and a laptop): every connection gets the
//!    player's events and a move from any is taken. A connection that says `hello` while a game of its player goes
//!    on is sent that game's new events once it `resume`s it (or moves, resigns or acks in it), or a second after
//!    `hello` at the latest (then from the `last_event` its `welcome` gave), so what it missed comes first.
//! 5. A game ends by the rules (goal, blockade, repetition, ply cap), resignation, time (a flag fall), a player gone
//!    past the grace period, or an abort (a side that does not make its first move within [`FIRST_MOVE_MS`], or a
//!    resignation/departure before both sides have moved). `ended` gives the winner, the reason, the final position
//!    and, for a rated game, both players' rating changes. Then either player may offer a `rematch` (colours
//!    swapped, same board and clock); the other accepts by sending `rematch` too, or `decline_rematch`.
//!    While a player has no connection open, their opponent and the game's spectators are told so (`away`, with the
//!    milliseconds left of the grace period) and told again when the player is `back`.
//! 6. Anyone may `watch` a live game from an event number (0: from the start) and gets the same numbered events as
//!    the players until the end or `unwatch`. `record` gives a finished game's whole [`GameRecord`] (enough to
//!    import it into the local history and replay it; with each move's time, [`MoveTime`], when the server kept
//!    them); `games` lists a player's last finished games. Following the lobby and watching are the connection's
//!    own: after connecting again a client asks for them again.
//! 7. Daily challenges (the day is the UTC date, `YYYY-MM-DD`): the ranked 2048 is dealt by the server tile by
//!    tile: `ranked_2048` starts the player's game of the day or gives it as it stands (`dealt_2048`), and each
//!    `slide_2048` (numbered, one letter) is played by the server, which answers `dealt_2048` with the tile it
//!    placed; the game's seed is the player's own and never sent, there is no undo, and the server's score ranks
//!    on the `plain` board. The unranked 2048: `daily_2048` gives the day's shared seed; the client plays
//!    with `twenty48::Game::new(Rules::default(), seed)` and sends `submit_2048` with every action (slides and
//!    undos, [`actions_to_letters`]), the score it claims, and whether hints or undo were used; the server replays
//!    them, refuses a claimed score the moves do not produce, and keeps the score it computed on the `assisted`
//!    board. `daily_mastermind` gives the day's game (the secret never
//!    leaves the server) and the guesses already scored; each `guess` is scored by the server. `leaderboard` ranks
//!    a day's board by the server's figures only.

use nocca::Colour;
use serde::{Deserialize, Serialize};
use thiserror::Error;

mod client;
mod game;
mod limits;
mod records;
mod server;
mod wire;

pub use client::*;
pub use game::*;
pub use limits::*;
pub use records::*;
pub use server::*;
pub use wire::ParseError;
use wire::*;
