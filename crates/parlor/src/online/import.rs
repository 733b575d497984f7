//! A finished online game into the local history, from the server's record of it: a Nocca Nocca record of two
//! players (the options a local game of two at one keyboard has, on the game's board), its moves, its result from
//! the player's side, the server's start and end times, and the server's game number as its seed, so that the
//! history lists it, `parlor replay` replays it like a local game, and importing it again adds nothing.

#[cfg(feature = "terminal")]
use super::identity::Identity;
#[cfg(feature = "terminal")]
use super::link::{self, Down, Up};
use crate::games::nocca::{Mode, Params};
use crate::storage::{GameRecord, Outcome};
#[cfg(feature = "terminal")]
use crate::storage::{Storage, Store};
use anyhow::{Result, anyhow};
use parlor_online::protocol::{self, EndReason, Side};
#[cfg(feature = "terminal")]
use parlor_online::protocol::{ClientMessage, ServerMessage};
#[cfg(feature = "terminal")]
use std::time::{Duration, Instant};

/// The variant an imported game is listed under: `online`, with the board when it is not the standard one.
pub fn variant(dims: nocca::Dims) -> String {
    if dims == nocca::Dims::STANDARD {
        "online".to_string()
    } else {
        format!("online {dims}")
    }
}

/// The local record of the server's record `r`, as the player `me` played it (a game watched is `done`).
pub fn record(r: &protocol::GameRecord, me: &str) -> Result<GameRecord> {
    let dims: nocca::Dims = r
        .board
        .parse()
        .map_err(|e| anyhow!("game {}: board {}: {e}", r.game, r.board))?;
    // The moves must replay from the start, as a local replay will.
    nocca::Game::replay(
        nocca::Position::start(dims),
        nocca::GameOptions::default(),
        &r.moves,
    )
    .map_err(|e| anyhow!("game {}: its moves do not replay: {e}", r.game))?;
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
    let params = Params {
        mode: Mode::Two,
        board: dims,
        ..Params::default()
    };
    Ok(GameRecord {
        game: "nocca".to_string(),
        variant: variant(dims),
        options: serde_json::to_string(&params)?,
        seed: r.game,
        moves: r.moves.clone(),
        score: r.moves.split_whitespace().count() as i64,
        assisted: false,
        seeded: true,
        started_at: i64::try_from(r.started_ms).unwrap_or(0),
        id: 0,
        result,
        ended_at: i64::try_from(r.ended_ms).unwrap_or(0),
    })
}

#[cfg(feature = "terminal")]
/// Adds the server's record `r` to `store` unless it is there already; says what it did.
pub fn import(r: &protocol::GameRecord, me: &str, store: &mut Store) -> Result<String> {
    let rec = record(r, me)?;
    let dump = crate::storage::dump::Dump {
        games: vec![rec.clone()],
        ..Default::default()
    };
    let done = store.import(&dump)?;
    let id = store
        .history(Some("nocca"), 10_000)?
        .games
        .into_iter()
        .find(|h| {
            h.seed == rec.seed
                && h.moves == rec.moves
                && h.variant == rec.variant
                && h.started_at == rec.started_at
        })
        .map_or(0, |h| h.id);
    Ok(if done.games == 0 {
        format!(
            "online game {} is in the history already (parlor replay {id})",
            r.game
        )
    } else {
        format!(
            "online game {} added to the history as game {id}: {} against {}, {} (parlor replay {id})",
            r.game,
            r.black,
            r.white,
            rec.result.as_str()
        )
    })
}

#[cfg(feature = "terminal")]
/// Asks the server at `url` for the record of the finished game `game`, and adds it to `store` (a connection of
/// its own: for `parlor online --import`, with no other client of the player's running).
pub fn fetch_and_import(url: &str, me: &Identity, game: u64, store: &mut Store) -> Result<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let up = link::start(url, me.clone(), Box::new(move |d| tx.send(d).is_ok()));
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
    import(&result?, &me.name, store)
}
