//! A finished online game into the local history, from the server's record of it: the rooms' game's own part of
//! the record ([`Room::record`]: its game, variant, options and score), its moves, its result from the player's
//! side, the server's start and end times, and the server's game number as its seed, so that the history lists it,
//! `parlor replay` (and the page's history) replays it like a local game, and importing it again adds nothing.
//! [`import`] is the one function every front end calls, through the core's storage trait.

#[cfg(feature = "terminal")]
use super::identity::Identity;
#[cfg(feature = "terminal")]
use super::link::{self, Down, Up};
#[cfg(feature = "terminal")]
use crate::storage::Store;
use crate::storage::{GameRecord, Outcome};
use crate::storage::{Storage, dump};
use crate::tui::room::Room;
use anyhow::{Result, anyhow};
use parlor_online::protocol::{self, EndReason, Side};
#[cfg(feature = "terminal")]
use parlor_online::protocol::{ClientMessage, ServerMessage};
#[cfg(feature = "terminal")]
use std::time::{Duration, Instant};

/// The local record of the server's record `r` of a game of `room`'s, as the player `me` played it (a game watched
/// is `done`).
pub fn record(room: &dyn Room, r: &protocol::GameRecord, me: &str) -> Result<GameRecord> {
    let own = room
        .record(r)
        .map_err(|why| anyhow!("game {}: {why}", r.game))?;
    let mine = if r.black == me {
        Some(Side::Black)
    } else if r.white == me {
        Some(Side::White)
    } else {
        None
    };
    let result = match (r.winner, mine) {
        _ if r.reason == EndReason::Aborted => Outcome::GaveUp,
        (_, None) => Outcome::Done,
        (None, _) => Outcome::Draw,
        (Some(w), Some(s)) if w == s => Outcome::Won,
        (Some(_), Some(_)) if r.reason == EndReason::Resignation => Outcome::GaveUp,
        (Some(_), Some(_)) => Outcome::Lost,
    };
    Ok(GameRecord {
        game: own.game,
        variant: own.variant,
        options: own.options,
        seed: r.game,
        moves: r.moves.clone(),
        score: own.score,
        assisted: false,
        // The seed holds the server's game number (so that importing again finds the game), not a seed the player
        // chose: the game is no seeded one.
        seeded: false,
        practice: false,
        started_at: i64::try_from(r.started_ms).unwrap_or(0),
        id: 0,
        result,
        ended_at: i64::try_from(r.ended_ms).unwrap_or(0),
    })
}

/// What [`import`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The game's id in the local history (the one added, or the one already there).
    pub id: i64,
    /// Whether it was added now (false: it was there already).
    pub added: bool,
    /// What to tell the player.
    pub line: String,
}

/// Adds the server's record `r` to `store`, as the player `me` played it, unless the history holds it already; says
/// what it did. One function for every front end, through the core's [`Storage`]: the terminal's SQLite store
/// (`parlor online --import N`, `import` in plain mode, `i` on the full screen) and the page's store in the
/// browser's local storage (`i` on the same screen). A game is "already there" when a finished game of the
/// history is the same game by [`dump::same_game`] (game, variant, seed, moves, start and end), the test `parlor
/// import` uses: the seed is the server's game number and the times the server's, so importing again, from any
/// client, finds it. A record that does not read (a board this build does not play, moves that do not replay) is
/// refused with why, and so is a read-only store; nothing is added then. The look and the write are one step
/// ([`Storage::add_once`]): two programs importing the same game at once into one database record it once.
pub fn import(
    room: &dyn Room,
    r: &protocol::GameRecord,
    me: &str,
    store: &mut dyn Storage,
) -> Result<Imported> {
    let rec = record(room, r, me)?;
    let (id, added) = if store.read_only() {
        // Nothing can be added; a game already there is still told as there.
        let here = store
            .history(Some(&rec.game), usize::MAX)?
            .games
            .into_iter()
            .find(|h| dump::same_game(h, &rec));
        match here {
            Some(h) => (h.id, false),
            None => {
                return Err(anyhow!(
                    "online game {}: the history in {} is read-only (written by a newer Parlor): not imported",
                    r.game,
                    store.location()
                ));
            }
        }
    } else {
        store.add_once(&rec)?
    };
    if !added {
        return Ok(Imported {
            id,
            added: false,
            line: format!(
                "online game {} is in the history already (game {id})",
                r.game
            ),
        });
    }
    let kept = if store.keeps() {
        String::new()
    } else {
        format!(" (NOT kept in {}: the write failed)", store.location())
    };
    Ok(Imported {
        id,
        added: true,
        line: format!(
            "online game {} added to the history as game {id}: {} against {}, {}{kept}",
            r.game,
            r.black,
            r.white,
            rec.result.as_str()
        ),
    })
}

#[cfg(feature = "terminal")]
/// Asks the server at `url` for the record of the finished game `game`, and adds it to `store` (a connection of
/// its own: for `parlor online --import`, with no other client of the player's running).
pub fn fetch_and_import(
    room: &dyn Room,
    url: &str,
    me: &Identity,
    game: u64,
    store: &mut Store,
) -> Result<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    // A token is held already (the caller checks): nothing is issued to keep.
    let keep: link::Keep = Box::new(|_| Err("no token is issued when importing".to_string()));
    let up = link::start(
        url,
        me.clone(),
        Vec::new(),
        keep,
        Box::new(move |d| tx.send(d).is_ok()),
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    let result = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(down) = rx.recv_timeout(left) else {
            break Err(anyhow!("no answer from {url} about game {game} in 10 s"));
        };
        match down {
            Down::Connected => {
                let _ = up.send(Up::Send(ClientMessage::Record { game }));
            }
            Down::Refused(why) => break Err(anyhow!("refused by the server: {why}")),
            Down::Message(ServerMessage::Error { message, .. }) => {
                break Err(anyhow!("game {game}: {message}"));
            }
            Down::Message(ServerMessage::Record { record }) if record.game == game => {
                break Ok(record);
            }
            _ => {}
        }
    };
    let _ = up.send(Up::Quit);
    let done = import(room, &result?, &me.name, store)?;
    Ok(format!("{} (parlor replay {})", done.line, done.id))
}
