//! The import of a finished online game of Nocca Nocca into the local history, in the page's store and the
//! terminal's: once however often and by however many programs, replayable, refused with why when it does not read.

use super::*;
use crate::online::import::import;
use crate::storage::MemoryStore;
use crate::storage::Storage;
use parlor_online::protocol::EndReason;
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
        clock: "5+3".parse::<TimeControl>().ok(),
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
    let first = import(&ROOM, &r, "ann", store).unwrap();
    assert!(first.added, "{first:?}");
    assert!(
        first
            .line
            .starts_with("online game 12 added to the history as game"),
        "{}",
        first.line
    );
    let again = import(&ROOM, &r, "ann", store).unwrap();
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
    let other = import(&ROOM, &finished(13), "ann", store).unwrap();
    assert!(other.added && other.id != first.id);
    // As a spectator saw it: a game already there is not added again under another result.
    assert!(!import(&ROOM, &r, "carol", store).unwrap().added);
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
                        usize::from(import(&ROOM, &r, "ann", &mut store).unwrap().added)
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
    let mut refused = |r: protocol::GameRecord| {
        import(&ROOM, &r, "ann", &mut store)
            .unwrap_err()
            .to_string()
    };
    let mut bad_board = finished(20);
    bad_board.board = "12x12".into();
    let e = refused(bad_board);
    assert!(e.starts_with("game 20: board 12x12: "), "{e}");
    let mut bad_moves = finished(21);
    bad_moves.moves = "c1k zz9".into();
    let e = refused(bad_moves);
    assert!(e.starts_with("game 21: its moves do not replay: "), "{e}");
    assert!(store.history(None, 100).unwrap().games.is_empty());
}

/// An online game imported into the history is reviewed as a local one, and its review kept with it: the server's
/// record of a 3x3 game in which Black (ann) throws a won position away at ply 3 (b1h: win in 7 before, loss in 4
/// after, as `games/nocca/review.rs` and `tests/it/review.rs` check on the same moves played locally) and White (bob)
/// resigns after it. Through the storage and the coach, as History's `c`, plain mode's `v N` and `parlor review N`
/// go: reviewed from the record the store gives back, kept by the engine's version, read back the second time.
#[cfg(feature = "terminal")]
#[test]
fn an_imported_online_game_is_reviewed_and_its_review_kept() {
    use crate::mid::review::Mark;
    use crate::mid::{Contexts, Entry, coach};
    let dir = tempfile::tempdir().unwrap();
    let mut store = crate::storage::Store::open(dir.path()).unwrap().store;
    let mut r = finished(40);
    r.moves = "c1y c3b b1h".into();
    r.winner = Some(Side::Black);
    r.reason = EndReason::Resignation;
    let imported = import(&ROOM, &r, "ann", &mut store).unwrap();
    assert!(imported.added, "{imported:?}");
    let record = store.game(imported.id).unwrap().unwrap();
    assert_eq!(record.result, crate::storage::Outcome::Won);

    let game = &Entry::<crate::games::nocca::Nocca>::new();
    let contexts = Contexts::new(&[game as &dyn crate::mid::AnyGame], Some(dir.path()));
    let (review, not_kept) =
        coach::review_now(game, &record, &store, &contexts, &mut |_, _| {}).unwrap();
    assert_eq!(not_kept, None, "kept with the imported game");
    assert!(review.exact, "{}", review.method);
    assert_eq!(review.game, imported.id.to_string());
    assert_eq!(review.moves.len(), 3);
    let b1h = &review.moves[2];
    assert_eq!(
        (
            b1h.played.as_str(),
            b1h.mark,
            b1h.before.as_str(),
            b1h.after.as_str()
        ),
        ("b1h", Mark::Blunder, "win in 7", "loss in 4"),
        "{b1h:?}"
    );
    assert_eq!(b1h.side.as_deref(), Some("black"));
    assert_eq!(review.summary(), "1 blunder: move 3");

    // Kept: the store holds it under the engine's version, and the next review reads it back.
    let engine = coach::engine_of(game);
    assert!(store.review(imported.id, &engine).is_some());
    assert_eq!(coach::kept(&store, &engine, imported.id), Some(review));
}
