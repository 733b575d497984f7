//! Three nodes on one PostgreSQL database at the scale of issue 54: 300 games at once between 600 players spread
//! over the nodes (each game's Black on its referee, its White following it from the next node), each watched by
//! a spectator on the third node. Every connection of a game sees its events the same, numbered 1 to 6 with one
//! end; each game is kept once, finished; each rated game's ratings are updated once (each player plays one game,
//! so their rating kept is their game's end's). Skipped, saying so, without PostgreSQL ([`crate::postgres`]).

use crate::client::{Client, start_game_with};
use crate::nodes::{Nodes, kept, next_event};
use crate::pg_server::blocking;
use parlor_online::protocol::{
    ClientMessage, EndReason, Event, EventKind, Rating, ServerMessage, Side,
};
use parlor_server::{PgStore, Store};
use std::collections::HashMap;
use std::time::Duration;
use tokio::task::JoinSet;

/// Games at once.
const GAMES: usize = 300;
/// Games each spectator watches: a third of the games are watched from each node.
const WATCHED: usize = 2;
/// How long the whole test may take.
const WHOLE: Duration = Duration::from_secs(600);
/// The moves of every game (6x5), before one side resigns.
const MOVES: [(Side, u64, &str); 4] = [
    (Side::Black, 1, "c1k"),
    (Side::White, 1, "c6j"),
    (Side::Black, 2, "d1k"),
    (Side::White, 2, "d6j"),
];

/// Game `k`'s referee (and Black's node); its White follows it from the next node, its spectator from the third.
fn referee(k: usize) -> usize {
    k % 3
}

/// Runs `f` on each of `items` at once (in tasks): their results, in `items`' order.
async fn all<T, R, F>(items: Vec<T>, f: impl Fn(usize, T) -> F) -> Vec<R>
where
    T: Send + 'static,
    R: Send + 'static,
    F: std::future::Future<Output = R> + Send + 'static,
{
    let mut set = JoinSet::new();
    for (i, item) in items.into_iter().enumerate() {
        let fut = f(i, item);
        set.spawn(async move { (i, fut.await) });
    }
    let mut out: Vec<Option<R>> = (0..set.len()).map(|_| None).collect();
    while let Some(done) = set.join_next().await {
        let (i, r) = done.unwrap();
        out[i] = Some(r);
    }
    out.into_iter().map(Option::unwrap).collect()
}

/// Plays game `k` between `black` and `white` to its end: each player's events after the start.
async fn play_game(k: usize, game: u64, mut black: Client, mut white: Client) -> [Vec<Event>; 2] {
    let mut seen = [Vec::new(), Vec::new()];
    for (side, seq, mv) in MOVES {
        let mover = if side == Side::Black {
            &mut black
        } else {
            &mut white
        };
        mover
            .send(&ClientMessage::Move {
                game,
                seq,
                mv: mv.into(),
            })
            .await;
        for (c, got) in [&mut black, &mut white].into_iter().zip(seen.iter_mut()) {
            got.push(next_event(c, game).await);
        }
    }
    // Black resigns the even games, White the odd.
    let resigner = if k.is_multiple_of(2) {
        &mut black
    } else {
        &mut white
    };
    resigner.send(&ClientMessage::Resign { game }).await;
    for (c, got) in [&mut black, &mut white].into_iter().zip(seen.iter_mut()) {
        got.push(next_event(c, game).await);
    }
    seen
}

/// What spectator `c` sees of `games` until each has ended: each game's events, its start first.
async fn spectate(mut c: Client, games: Vec<u64>) -> HashMap<u64, Vec<Event>> {
    let mut seen: HashMap<u64, Vec<Event>> = HashMap::new();
    // Bounded: six events a game, and a few messages besides.
    for _ in 0..(20 * games.len()) {
        if games.iter().all(|g| {
            seen.get(g)
                .and_then(|e| e.last())
                .is_some_and(|e| matches!(e.kind, EventKind::Ended { .. }))
        }) {
            return seen;
        }
        match c.recv().await {
            ServerMessage::Event { game, event } => {
                assert!(games.contains(&game), "{}: {game}", c.name);
                seen.entry(game).or_default().push(event);
            }
            ServerMessage::Watching { .. }
            | ServerMessage::Away { .. }
            | ServerMessage::Back { .. } => {}
            other => panic!("{}: {other:?}", c.name),
        }
    }
    panic!("{}: the games did not end: {seen:?}", c.name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_hundred_games_on_three_nodes_are_seen_the_same_everywhere_and_rated_once() {
    let caps = [
        "--max-connections-per-ip",
        "100000",
        "--max-registrations-per-hour",
        "100000",
    ];
    let Some(n) = Nodes::start_with(3, &caps) else {
        return;
    };
    tokio::time::timeout(WHOLE, run(&n))
        .await
        .expect("the test ends in time");
}

async fn run(n: &Nodes) {
    let addrs: Vec<_> = (0..3).map(|i| n.addr(i)).collect();
    // Each game's players say hello on its referee, where the challenge is made and accepted (a challenge reaches a
    // player on the same node only); the even games are rated.
    let pairs = all((0..GAMES).collect(), |k, _| {
        let addr = addrs[referee(k)];
        async move {
            let (mut black, _) = Client::hello(addr, &format!("b{k}")).await;
            let (mut white, _) = Client::hello(addr, &format!("w{k}")).await;
            let game =
                start_game_with(&mut black, &mut white, "6x5", None, k.is_multiple_of(2)).await;
            (game, black, white)
        }
    })
    .await;
    // Each White follows its game from the next node (its welcome there lists the game), its first connection
    // closed.
    let games: Vec<u64> = pairs.iter().map(|p| p.0).collect();
    let mut distinct = games.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), GAMES, "every game its own number");
    let players = all(pairs, |k, (game, black, white)| {
        let addr = addrs[(referee(k) + 1) % 3];
        async move {
            let (moved, welcome) = Client::hello(addr, &format!("w{k}")).await;
            let ServerMessage::Welcome { games, .. } = welcome else {
                unreachable!()
            };
            assert_eq!(
                games.iter().map(|g| (g.game, g.side)).collect::<Vec<_>>(),
                [(game, Side::White)]
            );
            drop(white);
            (game, black, moved)
        }
    })
    .await;
    // The spectators: on node m, watching the games refereed by node m + 1 (whose Whites are on node m + 2), each
    // told it watches and sent the start.
    let mut watched: Vec<(usize, Vec<u64>)> = Vec::new();
    for m in 0..3 {
        let of: Vec<u64> = (0..GAMES)
            .filter(|&k| referee(k) == (m + 1) % 3)
            .map(|k| games[k])
            .collect();
        for chunk in of.chunks(WATCHED) {
            watched.push((m, chunk.to_vec()));
        }
    }
    let spectators = all(watched, |j, (m, games)| {
        let addr = addrs[m];
        async move {
            let (mut c, _) = Client::hello(addr, &format!("s{j}")).await;
            for &game in &games {
                c.send(&ClientMessage::Watch { game, after: 0 }).await;
            }
            (c, games)
        }
    })
    .await;
    let watching = all(spectators, |_, (c, games)| spectate(c, games));
    // Every game played at once.
    let played = all(players, |k, (game, black, white)| {
        play_game(k, game, black, white)
    });
    let (watching, played) = tokio::join!(watching, played);
    let mut by_spectator: HashMap<u64, Vec<Event>> = HashMap::new();
    for seen in watching {
        by_spectator.extend(seen);
    }
    let mut ratings = Vec::new();
    for (k, [black, white]) in played.into_iter().enumerate() {
        let game = games[k];
        // Each player's events, and the spectator's after the start, the same; numbered 2 to 6, the last the end.
        assert_eq!(black, white, "game {game}");
        let spectator = &by_spectator[&game];
        assert_eq!(spectator.len(), 6, "game {game}: {spectator:?}");
        assert!(matches!(spectator[0].kind, EventKind::Started { .. }));
        assert_eq!(&spectator[1..], &black[..], "game {game}");
        assert_eq!(
            spectator.iter().map(|e| e.n).collect::<Vec<_>>(),
            [1, 2, 3, 4, 5, 6]
        );
        let ends = spectator
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Ended { .. }))
            .count();
        assert_eq!(ends, 1, "game {game}");
        let EventKind::Ended {
            winner,
            reason,
            ratings: changes,
            ..
        } = spectator[5].kind.clone()
        else {
            panic!("game {game}: {:?}", spectator[5])
        };
        let winner_expected = if k.is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        };
        assert_eq!(
            (winner, reason),
            (Some(winner_expected), EndReason::Resignation),
            "game {game}"
        );
        assert_eq!(
            changes.is_some(),
            k.is_multiple_of(2),
            "game {game}: {changes:?}"
        );
        ratings.push((k, changes));
    }
    // Kept once each, finished with its moves; no lease left.
    let url = n.db.url.clone();
    let (finished, leases, rated) = blocking(move || {
        let mut c = url.config().connect(postgres::NoTls).unwrap();
        let count =
            |c: &mut postgres::Client, sql: &str| -> i64 { c.query_one(sql, &[]).unwrap().get(0) };
        (
            count(
                &mut c,
                "SELECT count(*) FROM games WHERE reason IS NOT NULL",
            ),
            count(&mut c, "SELECT count(*) FROM leases"),
            count(
                &mut c,
                "SELECT count(*) FROM games WHERE rated AND ratings IS NOT NULL",
            ),
        )
    });
    assert_eq!((finished, leases), (GAMES as i64, 0));
    assert_eq!(rated, (GAMES / 2) as i64);
    for k in [0, 1, GAMES / 2, GAMES - 1] {
        assert_eq!(kept(&n.db, games[k]), ("c1k c6j d1k d6j".to_string(), true));
    }
    // Each rated game's ratings updated once: from new, to its end's, and the unrated games' players still new.
    let url = n.db.url.clone();
    let kept_ratings = blocking(move || {
        let mut store = PgStore::open(&url).unwrap();
        (0..GAMES)
            .map(|k| {
                [format!("b{k}"), format!("w{k}")]
                    .map(|name| parlor_server::rating::shown(&store.rating(&name).unwrap()))
            })
            .collect::<Vec<_>>()
    });
    for (k, changes) in ratings {
        match changes {
            Some(c) => {
                assert_eq!(
                    [c.black.before, c.white.before],
                    [Rating::NEW; 2],
                    "game {k}"
                );
                assert_eq!(kept_ratings[k], [c.black.after, c.white.after], "game {k}");
            }
            None => assert_eq!(kept_ratings[k], [Rating::NEW; 2], "game {k}"),
        }
    }
}
