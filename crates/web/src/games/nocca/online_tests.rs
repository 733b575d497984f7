//! Nocca's online games into the page's store: a finished game the server recorded is imported once through the
//! rooms' game of the registry (`parlor::registry::online()`), kept in local storage, and a refused write says so.

/// The server's record of a finished 3x3 game (the first legal move each time, a goal when there is one).
fn finished(game: u64) -> parlor_online::protocol::GameRecord {
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
    parlor_online::protocol::GameRecord {
        format: parlor_online::protocol::RECORD_FORMAT,
        game,
        black: "ann".into(),
        white: "bob".into(),
        board: "3x3".into(),
        clock: None,
        rated: false,
        moves: g.record(),
        winner: None,
        reason: parlor_online::protocol::EndReason::Goal,
        position: String::new(),
        started_ms: 1_700_000_000_000,
        ended_ms: 1_700_000_090_000,
        ratings: None,
        times: None,
    }
}

#[test]
fn a_finished_online_game_goes_into_the_page_store_once_and_is_kept_in_local_storage() {
    use crate::store::{MapPersist, Persist, STORE_KEY, WebStore};
    use parlor::online::import::import;
    use parlor::storage::Storage;
    use std::rc::Rc;
    let persist = Rc::new(MapPersist::default());
    let mut store = WebStore::open(persist.clone(), 0).store;
    let r = finished(12);
    let first = import(parlor::registry::online().room, &r, "ann", &mut store).unwrap();
    assert!(first.added && !first.line.contains("NOT kept"), "{first:?}");
    assert!(
        persist.get(STORE_KEY).unwrap().contains("online 3x3"),
        "written to local storage at once"
    );
    // The next visit reads it back, and importing again adds nothing.
    let mut reopened = WebStore::open(persist.clone(), 1).store;
    let history = reopened.history(Some("nocca"), 10).unwrap().games;
    assert_eq!(history.len(), 1);
    assert_eq!(
        (history[0].seed, history[0].moves.as_str()),
        (12, r.moves.as_str())
    );
    let again = import(parlor::registry::online().room, &r, "ann", &mut reopened).unwrap();
    assert_eq!((again.added, again.id), (false, first.id));
    assert_eq!(reopened.history(None, 10).unwrap().games.len(), 1);
    // A browser that refuses the write: the line says so.
    persist.full.set(true);
    let refused = import(
        parlor::registry::online().room,
        &finished(13),
        "ann",
        &mut reopened,
    )
    .unwrap();
    assert!(refused.line.contains("NOT kept"), "{}", refused.line);
}
