//! 100 pairs play random legal games to the end at once, on every board size: both sides see the same events,
//! the same final position, and one result; the database keeps each game once.

use crate::client::{Client, TestServer, quick, start_game};
use nocca::{Dims, Game, GameOptions};
use parlor_online::protocol::{ClientMessage, EndReason, Event, EventKind, Side};
use parlor_server::Store as _;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::time::{Duration, Instant};

const PAIRS: usize = 100;

/// What one side saw of its game.
#[derive(Debug, PartialEq, Eq)]
pub struct Seen {
    /// The game.
    pub game: u64,
    /// Its events after the start.
    pub events: Vec<Event>,
    /// The final position.
    pub position: String,
    /// The moves.
    pub record: String,
}

/// Plays `side` of `game` with random legal moves, mirroring it locally, until the game ends.
pub async fn play_out(mut me: Client, game: u64, side: Side, dims: Dims, seed: u64) -> Seen {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut mirror = Game::new(dims, GameOptions::default());
    let mut events = Vec::new();
    let mut seq = 0;
    loop {
        if !mirror.is_over() && Side::from(mirror.side_to_move()) == side {
            let moves = mirror.legal_moves();
            let mv = moves[rng.next_u32() as usize % moves.len()];
            seq += 1;
            me.send(&ClientMessage::Move {
                game,
                seq,
                mv: mv.to_string(),
            })
            .await;
        }
        // Wait for our own move (or the opponent's) to come back as an event before deciding again.
        let (g, event) = me.event().await;
        assert_eq!(g, game);
        assert_eq!(
            event.n,
            events.len() as u64 + 2,
            "events are numbered in order"
        );
        match &event.kind {
            EventKind::Moved { mv, by, .. } => {
                assert_eq!(Side::from(mirror.side_to_move()), *by);
                mirror.play(mv.parse().unwrap()).unwrap();
            }
            EventKind::Ended { .. } => {
                events.push(event);
                break;
            }
            EventKind::Started { .. } => panic!("a second start"),
        }
        events.push(event);
    }
    // The finished game, asked for again, comes back from the database with the same events; and nothing comes
    // after the end: the next message is the error for a game no longer in play.
    me.send(&ClientMessage::Resume { game, after: 0 }).await;
    let (_, start) = me.event().await;
    assert_eq!(start.n, 1);
    for seen in &events {
        assert_eq!(&me.event().await, &(game, seen.clone()));
    }
    me.send(&ClientMessage::Resign { game }).await;
    assert_eq!(
        me.error().await,
        parlor_online::protocol::ErrorCode::NotFound
    );
    Seen {
        game,
        events,
        position: mirror.position().to_string(),
        record: mirror.record(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_pairs_play_to_the_end_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let addr = server.addr;
    let started = Instant::now();
    let boards: Vec<Dims> = (Dims::MIN_ROWS..=Dims::MAX_ROWS)
        .flat_map(|r| (Dims::MIN_COLS..=Dims::MAX_COLS).map(move |c| Dims::new(r, c).unwrap()))
        .collect();
    let mut pairs = Vec::new();
    for i in 0..PAIRS {
        let dims = boards[i % boards.len()];
        pairs.push(tokio::spawn(async move {
            let (mut black, _) = Client::hello(addr, &format!("black{i}")).await;
            let (mut white, _) = Client::hello(addr, &format!("white{i}")).await;
            let game = start_game(&mut black, &mut white, &dims.to_string()).await;
            let b = tokio::spawn(play_out(black, game, Side::Black, dims, 2 * i as u64));
            let w = tokio::spawn(play_out(white, game, Side::White, dims, 2 * i as u64 + 1));
            (b.await.unwrap(), w.await.unwrap())
        }));
    }
    let mut games = Vec::new();
    for pair in pairs {
        let (b, w) = tokio::time::timeout(Duration::from_secs(50), pair)
            .await
            .expect("every game ends in time")
            .unwrap();
        assert_eq!(b, w, "both sides saw the same game");
        let Some(Event {
            kind: EventKind::Ended {
                reason, position, ..
            },
            ..
        }) = b.events.last()
        else {
            panic!("the last event is the end")
        };
        assert_eq!(*position, b.position, "the end's position is the game's");
        assert!(matches!(
            reason,
            EndReason::Goal | EndReason::Blockade | EndReason::Repetition | EndReason::PlyCap
        ));
        assert_eq!(
            b.events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Ended { .. }))
                .count(),
            1
        );
        games.push(b);
    }
    let plies: usize = games.iter().map(|g| g.events.len() - 1).sum();
    eprintln!(
        "{PAIRS} games, {plies} moves, in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    server.stop().await;

    let kept = parlor_server::SqliteStore::open(dir.path())
        .unwrap()
        .finished_games()
        .unwrap();
    assert_eq!(kept.len(), PAIRS, "each game kept once");
    for seen in &games {
        let row = kept.iter().find(|k| k.id == seen.game).unwrap();
        assert_eq!(row.moves, seen.record);
        assert_eq!(row.position, seen.position);
        let Some(EventKind::Ended { winner, reason, .. }) = seen.events.last().map(|e| &e.kind)
        else {
            unreachable!()
        };
        assert_eq!((row.result.winner, row.result.reason), (*winner, *reason));
    }
}
