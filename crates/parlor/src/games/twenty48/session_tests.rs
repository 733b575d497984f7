//! A game is recorded once: claims, stale lists of saved games, and two Parlors playing one game (the session's
//! tests, played on 2048).

use super::{Params, Twenty48};
use crate::mid::session::{ResumeError, Seed, Session};
use crate::storage::{Storage, Store};
use twenty48::Direction;

fn seed(v: u64) -> Seed {
    Seed {
        value: v,
        chosen: false,
    }
}

/// A 2048 game with a few moves played and saved, in a store of `dir`.
fn saved_game(dir: &std::path::Path) -> (Session<Twenty48>, Store) {
    let mut store = Store::open(dir).unwrap().store;
    let mut s = Session::<Twenty48>::new(Params::default(), seed(11), &store).unwrap();
    for d in [Direction::Left, Direction::Up, Direction::Right] {
        let _ = s.play(d, &mut store);
    }
    assert!(s.saved());
    (s, store)
}

fn recorded(store: &Store) -> usize {
    store.history(None, 1000).unwrap().games.len()
}

/// The race of issue 25: a list of saved games read, the game finished and its claim released by its player, then
/// taken up from the stale list. It is no longer unfinished: it is not taken up, and nothing is recorded twice.
#[test]
fn a_game_finished_after_the_list_was_read_is_not_taken_up_again() {
    let dir = tempfile::tempdir().unwrap();
    let (mut a, mut store_a) = saved_game(dir.path());
    let store_b = Store::open(dir.path()).unwrap().store;
    let stale = store_b.unfinished(None).unwrap();
    assert_eq!(stale.len(), 1);
    a.resign(&mut store_a);
    assert!(a.ended().unwrap().id.is_some());
    drop(a);
    let again = Session::<Twenty48>::resume(&stale[0], &store_b);
    assert!(matches!(again, Err(ResumeError::Gone)), "taken up again");
    assert_eq!(recorded(&store_b), 1);
}

/// Two Parlors playing one game at once (the claims folder cannot be used, so neither can tell): the first to
/// finish records it; the other is told, saves nothing more and records nothing.
#[test]
fn a_game_played_twice_without_claims_is_recorded_once_and_the_second_player_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let (a, mut store) = saved_game(dir.path());
    drop(a);
    std::fs::remove_dir_all(dir.path().join("claims")).unwrap();
    std::fs::write(dir.path().join("claims"), "a file in the folder's place").unwrap();
    let saved = store.unfinished(None).unwrap();
    let mut b = Session::<Twenty48>::resume(&saved[0], &store).unwrap();
    let warning = b.take_storage_error().expect("the claim problem is said");
    assert!(warning.message().contains("could not claim"), "{warning}");
    let mut store_c = Store::open(dir.path()).unwrap().store;
    let mut c = Session::<Twenty48>::resume(&saved[0], &store_c).unwrap();
    // c moves on: b's next save finds the row changed and says so; c records the game.
    let dir_c = Direction::ALL
        .into_iter()
        .find(|&d| c.state().game.board().can_slide(d))
        .unwrap();
    c.play(dir_c, &mut store_c).unwrap();
    c.resign(&mut store_c);
    assert!(c.ended().unwrap().id.is_some());
    let dir_b = Direction::ALL
        .into_iter()
        .find(|&d| b.state().game.board().can_slide(d))
        .unwrap();
    b.play(dir_b, &mut store).unwrap();
    assert!(!b.saved());
    let said = b.take_storage_error().unwrap();
    assert!(said.message().contains("another Parlor"), "{said}");
    b.resign(&mut store);
    let why = b.ended().unwrap().not_recorded.clone();
    assert!(why.unwrap().contains("another Parlor"));
    assert_eq!(recorded(&store), 1);
    assert!(
        store.unfinished(None).unwrap().is_empty(),
        "no game brought back"
    );
    // The one record holds the moves of the player who finished it.
    let r = &store.history(None, 10).unwrap().games[0];
    assert_eq!(r.moves.split(' ').count(), 4);
}

/// The finish is one transaction that records nothing when the game is no longer unfinished as its player left it.
#[test]
fn finishing_a_game_no_longer_unfinished_records_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (s, mut store) = saved_game(dir.path());
    let u = s.unfinished();
    let record = u.clone().into_record(crate::storage::Outcome::GaveUp);
    assert_eq!(
        store
            .finish_game(&u.session, Some("left up"), &record)
            .unwrap(),
        None,
        "a row holding other moves is not this player's"
    );
    assert_eq!(recorded(&store), 0);
    let held = store.unfinished(None).unwrap()[0].moves.clone();
    assert!(
        store
            .finish_game(&u.session, Some(&held), &record)
            .unwrap()
            .is_some()
    );
    assert_eq!(
        store.finish_game(&u.session, Some(&held), &record).unwrap(),
        None,
        "finished once"
    );
    assert_eq!(recorded(&store), 1);
}
