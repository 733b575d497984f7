//! Timed, rated games on two nodes on one PostgreSQL database, their referee killed with SIGKILL at every stage
//! (before the first move, mid-game, at the last move) and the game taken over by the other node, where both
//! players connect again (issue 54): the clocks are as they were, every event sent again (to both players and to a
//! new spectator) is the one sent live, no game gets a result it did not earn, and each rated game updates both
//! ratings once. The same checks as `kill_clocks.rs`'s for one server on SQLite started again. Skipped, saying so,
//! without PostgreSQL ([`crate::postgres`]).

use crate::contract::Pg;
use crate::kill_clocks::{MAX_PLIES, Table, changes_of, clocks_of, next_event};
use crate::nodes::Nodes;
use crate::pg_server::blocking;
use parlor_online::protocol::{
    ClientMessage, EndReason, EventKind, Rating, RatingChanges, Side, TimeControl,
};
use parlor_server::{PgStore, Store};
use std::time::Duration;

/// The nodes stopped or not, their database holds one finished game, `game`, and Ann's and Bob's ratings are the
/// ones its end showed, from new players' (so applied once).
fn rated_once(db: &Pg, game: u64, changes: RatingChanges) {
    let url = db.url.clone();
    blocking(move || {
        let mut store = PgStore::open(&url).unwrap();
        let finished = store.finished_games().unwrap();
        assert_eq!(
            finished.iter().map(|g| g.id).collect::<Vec<_>>(),
            [game],
            "one game, finished once"
        );
        assert_eq!(finished[0].ratings, Some(changes));
        assert_eq!(changes.black.before, Rating::NEW);
        assert_eq!(changes.white.before, Rating::NEW);
        let mut shown = |name: &str| parlor_server::rating::shown(&store.rating(name).unwrap());
        assert_eq!(shown("ann"), changes.black.after);
        assert_eq!(shown("bob"), changes.white.after);
        assert!(store.games_in_play().unwrap().is_empty());
    });
}

/// Two nodes; the game starts on node A (the first), which is then killed.
fn two_nodes() -> Option<Nodes> {
    Nodes::start(2)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_rated_game_whose_node_is_killed_before_its_first_move_goes_on_on_another() {
    let Some(mut n) = two_nodes() else { return };
    let clock = TimeControl {
        minutes: 5,
        increment_secs: 0,
    };
    let mut t = Table::start(n.addr(0), "6x5", clock, 1).await;
    assert_eq!(clocks_of(&t.live[0]), (300_000, 300_000));
    kill_referee(&mut n);

    let addr = n.addr(1);
    assert!(t.reconnect(addr).await, "in play");
    t.all_sent_again(addr).await;
    // Black and White make their first moves (played once node B takes the game over): the clocks are full.
    for _ in 0..2 {
        assert!(!t.step(Duration::from_millis(50)).await);
        assert_eq!(clocks_of(t.live.last().unwrap()), (300_000, 300_000));
    }
    for _ in 0..2 {
        assert!(!t.step(Duration::from_millis(50)).await);
        let (b, w) = clocks_of(t.live.last().unwrap());
        assert!(b > 290_000 && w > 290_000, "{b} {w}");
    }
    t.ann.send(&ClientMessage::Resign { game: t.game }).await;
    let ended = next_event(&mut t.ann, t.game).await;
    assert_eq!(next_event(&mut t.bob, t.game).await, ended);
    let EventKind::Ended { winner, reason, .. } = &ended.kind else {
        panic!("{ended:?}")
    };
    assert_eq!(
        (*winner, *reason),
        (Some(Side::White), EndReason::Resignation)
    );
    let changes = changes_of(&ended);
    t.live.push(ended);
    t.all_sent_again(addr).await;
    rated_once(&n.db, t.game, changes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_rated_game_whose_node_is_killed_mid_game_goes_on_on_another_as_played() {
    let Some(mut n) = two_nodes() else { return };
    let clock = TimeControl {
        minutes: 1,
        increment_secs: 1,
    };
    let mut t = Table::start(n.addr(0), "6x5", clock, 2).await;
    for i in 0..6u64 {
        assert!(!t.step(Duration::from_millis(40 + 30 * i)).await);
    }
    let before_kill = clocks_of(t.live.last().unwrap());
    assert!(
        before_kill.0 < 62_000 && before_kill.1 < 62_000,
        "{before_kill:?}"
    );
    kill_referee(&mut n);

    let addr = n.addr(1);
    assert!(t.reconnect(addr).await, "in play");
    t.all_sent_again(addr).await;
    // The game goes on from the clocks as they were (the takeover's gap not charged), to its end by the rules.
    let mut ended = false;
    for _ in 0..MAX_PLIES {
        if t.step(Duration::ZERO).await {
            ended = true;
            break;
        }
    }
    assert!(ended, "the game ends within {MAX_PLIES} plies");
    let first_after = clocks_of(&t.live[7]);
    assert!(
        first_after.0 <= before_kill.0 + 1_000 && first_after.1 <= before_kill.1 + 1_000,
        "{before_kill:?} then {first_after:?}"
    );
    let end = t.live.last().unwrap().clone();
    let EventKind::Ended { reason, .. } = &end.kind else {
        panic!("{end:?}")
    };
    assert!(
        matches!(
            reason,
            EndReason::Goal | EndReason::Blockade | EndReason::Repetition | EndReason::PlyCap
        ),
        "a result by the rules, not {reason:?}"
    );
    t.all_sent_again(addr).await;
    rated_once(&n.db, t.game, changes_of(&end));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_rated_game_whose_node_is_killed_at_its_last_move_ends_once() {
    let Some(mut n) = two_nodes() else { return };
    let clock = TimeControl {
        minutes: 3,
        increment_secs: 2,
    };
    let mut t = Table::start(n.addr(0), "4x4", clock, 3).await;
    let mut last = None;
    for _ in 0..MAX_PLIES {
        let (mv, ends) = t.pick();
        if ends && t.live.len() > 3 {
            last = Some(mv);
            break;
        }
        t.send(&mv, false).await;
        assert!(!t.take_events().await);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let last = last.expect("a game's last move within the plies played");
    t.send(&last, false).await;
    kill_referee(&mut n);

    let addr = n.addr(1);
    let game = t.game;
    if t.reconnect(addr).await {
        // Killed before the last move was kept: the game as it was before it (node B takes it over), and the
        // player sends it again under the same number.
        eprintln!("killed before the last move was kept: sent again");
        t.all_sent_again(addr).await;
        t.send(&last, true).await;
    } else {
        eprintln!("killed after the last move was kept: resumed");
        let after = t.live.len() as u64;
        for c in [&mut t.ann, &mut t.bob] {
            c.send(&ClientMessage::Resume { game, after }).await;
        }
    }
    assert!(t.take_events().await, "the last move ends the game");
    let end = t.live.last().unwrap().clone();
    t.all_sent_again(addr).await;
    rated_once(&n.db, t.game, changes_of(&end));
}

/// Node A, the games' referee, killed with SIGKILL.
fn kill_referee(n: &mut Nodes) {
    n.process(0).kill().unwrap();
    n.process(0).wait().unwrap();
}
