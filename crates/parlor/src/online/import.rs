//! A finished online game into the local history, from the server's record of it: a Nocca Nocca record of two
//! players (the options a local game of two at one keyboard has, on the game's board), its moves, its result from
//! the player's side, the server's start and end times, and the server's game number as its seed, so that the
//! history lists it, `parlor replay` (and the page's history) replays it like a local game, and importing it again
//! adds nothing. [`import`] is the one function every front end calls, through the core's storage trait.

#[cfg(feature = "terminal")]
use super::identity::Identity;
#[cfg(feature = "terminal")]
use super::link::{self, Down, Up};
use crate::games::nocca::{Mode, Params};
#[cfg(feature = "terminal")]
use crate::storage::Store;
use crate::storage::{GameRecord, Outcome};
use crate::storage::{Storage, dump};
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
        // The seed holds the server's game number (so that importing again finds the game), not a seed the player
        // chose: the game is no seeded one.
        seeded: false,
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
pub fn import(r: &protocol::GameRecord, me: &str, store: &mut dyn Storage) -> Result<Imported> {
    let rec = record(r, me)?;
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
    let done = import(&result?, &me.name, store)?;
    Ok(format!("{} (parlor replay {})", done.line, done.id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemoryStore;
    use parlor_online::protocol::TimeControl;

    /// The server's record of a 3x3 game played to its end (the first legal move each time, a goal when there is
    /// one), won by whoever it is won by.
    fn finished(game: u64) -> protocol::GameRecord {
        let mut g = nocca::Game::new("3x3".parse().unwrap(), nocca::GameOptions::default());
        while !g.is_over() {
            let pos = g.position();
            let moves = g.legal_moves();
            let mv = moves
                .iter()
                .copied()
                .find(|&m| pos.is_goal_move(m))
                .unwrap_or(moves[0]);
            g.play(mv).unwrap();
        }
        let winner = match g.outcome().and_then(|o| o.winner) {
            Some(nocca::Colour::Black) => Some(Side::Black),
            Some(_) => Some(Side::White),
            None => None,
        };
        protocol::GameRecord {
            format: protocol::RECORD_FORMAT,
            game,
            black: "ann".into(),
            white: "bob".into(),
            board: "3x3".into(),
            clock: Some(TimeControl {
                minutes: 5,
                increment_secs: 3,
            }),
            rated: false,
            moves: g.record(),
            winner,
            reason: EndReason::Goal,
            position: String::new(),
            started_ms: 1_700_000_000_000,
            ended_ms: 1_700_000_060_000,
            ratings: None,
            times: None,
        }
    }

    /// Imports `r` twice into `store`: added once, found the second time, and the history holds it once, its moves
    /// replaying from the board's start.
    fn twice_is_once(store: &mut dyn Storage) {
        let r = finished(12);
        let first = import(&r, "ann", store).unwrap();
        assert!(first.added, "{first:?}");
        assert!(
            first
                .line
                .starts_with("online game 12 added to the history as game"),
            "{}",
            first.line
        );
        let again = import(&r, "ann", store).unwrap();
        assert_eq!((again.added, again.id), (false, first.id));
        assert_eq!(
            again.line,
            format!(
                "online game 12 is in the history already (game {})",
                first.id
            )
        );
        let history = store.history(Some("nocca"), 100).unwrap().games;
        assert_eq!(history.len(), 1, "{history:?}");
        let kept = store.game(first.id).unwrap().expect("the game by its id");
        assert_eq!((kept.variant.as_str(), kept.seed), ("online 3x3", 12));
        // The server's game number is kept as the seed, but no seed was chosen: the history does not tag it.
        assert!(!kept.seeded && !kept.assisted, "{kept:?}");
        assert_eq!(kept.moves, r.moves);
        let params: Params = serde_json::from_str(&kept.options).unwrap();
        assert_eq!(
            (params.mode, params.board),
            (Mode::Two, "3x3".parse().unwrap())
        );
        let replayed = nocca::Game::replay(
            nocca::Position::start(params.board),
            nocca::GameOptions::default(),
            &kept.moves,
        )
        .unwrap();
        assert!(replayed.is_over(), "the whole game is kept");
        // Another game of the server's is another game here.
        let other = import(&finished(13), "ann", store).unwrap();
        assert!(other.added && other.id != first.id);
        // As a spectator saw it: a game already there is not added again under another result.
        assert!(!import(&r, "carol", store).unwrap().added);
    }

    #[test]
    fn importing_twice_records_once_in_the_page_store_and_the_terminal_store() {
        // The page's store is the core's memory store kept as one text (parlor-web's WebStore).
        twice_is_once(&mut MemoryStore::new());
        #[cfg(feature = "terminal")]
        {
            let dir = tempfile::tempdir().unwrap();
            let mut store = crate::storage::Store::open(dir.path()).unwrap().store;
            twice_is_once(&mut store);
        }
    }

    /// Several programs importing the same game into one database at the same moment record it once: the look and
    /// the write are one step (`Storage::add_once`'s SQLite transaction), not a history read then an insert.
    #[cfg(feature = "terminal")]
    #[test]
    fn the_same_game_imported_by_several_programs_at_once_is_recorded_once() {
        let dir = tempfile::tempdir().unwrap();
        drop(crate::storage::Store::open(dir.path()).unwrap());
        let r = finished(30);
        for round in 0..5 {
            let start = std::sync::Barrier::new(4);
            let added: usize = std::thread::scope(|s| {
                let handles: Vec<_> = (0..4)
                    .map(|_| {
                        s.spawn(|| {
                            // A store of its own, as another process would have.
                            let mut store = crate::storage::Store::open(dir.path()).unwrap().store;
                            start.wait();
                            usize::from(import(&r, "ann", &mut store).unwrap().added)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).sum()
            });
            assert_eq!(added, usize::from(round == 0), "round {round}");
        }
        let store = crate::storage::Store::open(dir.path()).unwrap().store;
        let history = store.history(Some("nocca"), 100).unwrap().games;
        assert_eq!(history.len(), 1, "{history:?}");
    }

    #[test]
    fn a_record_this_build_cannot_read_is_refused_with_why_and_nothing_added() {
        let mut store = MemoryStore::new();
        let mut bad_board = finished(20);
        bad_board.board = "12x12".into();
        let e = import(&bad_board, "ann", &mut store)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("game 20: board 12x12: "), "{e}");
        let mut bad_moves = finished(21);
        bad_moves.moves = "c1k zz9".into();
        let e = import(&bad_moves, "ann", &mut store)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("game 21: its moves do not replay: "), "{e}");
        assert!(store.history(None, 100).unwrap().games.is_empty());
    }
}
