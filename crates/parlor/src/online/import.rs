//! A finished online game into the local history: a Nocca Nocca record of two players (the options a local game of
//! two at one keyboard has, on the game's board), its moves, its result from the player's side, and the server's
//! game number as its seed, so that the history lists it, `parlor replay` replays it like a local game, and
//! importing it again adds nothing.

use super::identity::Identity;
use super::link::{self, Down, Up};
use super::model::{Model, OnlineGame};
use crate::games::nocca::{Mode, Params};
use crate::storage::{GameRecord, Outcome, Storage, Store};
use anyhow::{Result, anyhow, bail};
use parlor_online::protocol::{ClientMessage, EndReason, ServerMessage};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The variant an imported game is listed under: `online`, with the board when it is not the standard one.
pub fn variant(g: &OnlineGame) -> String {
    if g.dims() == nocca::Dims::STANDARD {
        "online".to_string()
    } else {
        format!("online {}", g.dims())
    }
}

/// The record of a finished game `g`, as the player `me` saw it end.
pub fn record(g: &OnlineGame, me: &str, now_ms: i64) -> Result<GameRecord> {
    let ending = g
        .ending
        .as_ref()
        .ok_or_else(|| anyhow!("game {} is not over", g.id))?;
    let mine = [
        parlor_online::protocol::Side::Black,
        parlor_online::protocol::Side::White,
    ]
    .into_iter()
    .find(|&s| g.name(s) == me);
    let result = match (ending.winner, mine) {
        (_, _) if ending.reason == EndReason::Aborted => Outcome::GaveUp,
        (None, _) => Outcome::Draw,
        (Some(w), Some(s)) if w == s => Outcome::Won,
        (Some(_), Some(_)) if ending.reason == EndReason::Resignation => Outcome::GaveUp,
        (Some(_), Some(_)) => Outcome::Lost,
        (Some(_), None) => Outcome::Done,
    };
    let params = Params {
        mode: Mode::Two,
        board: g.dims(),
        ..Params::default()
    };
    let moves: Vec<String> = g.game.moves().iter().map(ToString::to_string).collect();
    Ok(GameRecord {
        game: "nocca".to_string(),
        variant: variant(g),
        options: serde_json::to_string(&params)?,
        seed: g.id,
        moves: moves.join(" "),
        score: g.game.ply() as i64,
        assisted: false,
        seeded: true,
        started_at: now_ms,
        id: 0,
        result,
        ended_at: now_ms,
    })
}

/// Adds the finished game `g` to `store` unless it is there already; says what it did.
pub fn import(g: &OnlineGame, me: &str, store: &mut Store) -> Result<String> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let rec = record(g, me, now)?;
    let here = store
        .history(Some("nocca"), usize::MAX / 2)?
        .games
        .into_iter()
        .find(|r| r.variant == rec.variant && r.seed == rec.seed && r.moves == rec.moves);
    if let Some(r) = here {
        return Ok(format!(
            "online game {} is in the history already (parlor replay {})",
            g.id, r.id
        ));
    }
    let dump = crate::storage::dump::Dump {
        games: vec![rec.clone()],
        ..Default::default()
    };
    store.import(&dump)?;
    let id = store
        .history(Some("nocca"), usize::MAX / 2)?
        .games
        .into_iter()
        .find(|r| r.seed == rec.seed && r.moves == rec.moves && r.variant == rec.variant)
        .map_or(0, |r| r.id);
    Ok(format!(
        "online game {} added to the history: {} (parlor replay {id})",
        g.id,
        g.result_text().unwrap_or_default()
    ))
}

/// Asks the server at `url` for the finished game `game` of `me`'s, and adds it to `store`.
pub fn fetch_and_import(url: &str, me: &Identity, game: u64, store: &mut Store) -> Result<String> {
    let g = fetch(url, me, game)?;
    import(&g, &me.name, store)
}

/// The finished game `game`, as the server sends it again; waits at most ten seconds.
fn fetch(url: &str, me: &Identity, game: u64) -> Result<OnlineGame> {
    let (tx, rx) = std::sync::mpsc::channel();
    let up = link::start(url, me.clone(), Box::new(move |d| tx.send(d).is_ok()));
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut model = Model::new(&me.name);
    let result = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(down) = rx.recv_timeout(left) else {
            break Err(anyhow!("no answer from {url} about game {game} in 10 s"));
        };
        match &down {
            Down::Connected => {
                let _ = up.send(Up::Send(ClientMessage::Resume { game, after: 0 }));
            }
            Down::Refused(why) => break Err(anyhow!("refused by the server: {why}")),
            Down::Message(ServerMessage::Welcome { games, .. })
                if games.iter().any(|g| g.game == game) =>
            {
                break Err(anyhow!("game {game} is still in play"));
            }
            Down::Message(ServerMessage::Error { message, .. }) => {
                break Err(anyhow!("game {game}: {message}"));
            }
            _ => {}
        }
        model.apply(down);
        if let Some(g) = model.games.get(&game)
            && g.ending.is_some()
        {
            break Ok(g.clone());
        }
    };
    let _ = up.send(Up::Quit);
    let g = result?;
    if g.side.is_none() {
        bail!("game {game} was not yours");
    }
    Ok(g)
}
