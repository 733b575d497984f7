//! A store whose write stalls (a slow disk, a database busy elsewhere) stalls only what waits for that write: the
//! server's store runs on threads of its own and its hub never holds its lock across a store call. While a move's
//! progress takes three seconds to write, another player gets their pong, the lobby, a player's games and a welcome
//! on a new connection at once; the move's event reaches both players only once it is written.

use crate::client::{Client, TestServer, play, quick, start_game};
use parlor_online::protocol::{ClientMessage, EventKind, MoveTime, ServerMessage, Side};
use parlor_server::rating::Exact;
use parlor_server::store::{
    Daily2048, DailyGuess, FinishedGame, GameEnd, LiveGame, Login, NewGame, QueuedPlayer, Rated,
    RematchOffer,
};
use parlor_server::{SqliteStore, Store, StoreError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the stalled write takes.
const STALL: Duration = Duration::from_secs(3);

/// The longest an answer that waits for no write may take while the write stalls (well under [`STALL`]).
const PROMPT: Duration = Duration::from_millis(1000);

/// The SQLite store, with a switch that makes the next game's progress take [`STALL`] to write. Its readers are
/// the SQLite store's own.
struct Stalling {
    inner: SqliteStore,
    stall: Arc<Mutex<Option<Duration>>>,
}

impl Store for Stalling {
    fn reader(&self) -> Result<Option<Box<dyn Store>>, StoreError> {
        self.inner.reader()
    }
    fn secret(&mut self) -> Result<String, StoreError> {
        self.inner.secret()
    }
    fn login(&mut self, name: &str, token: &str) -> Result<Login, StoreError> {
        self.inner.login(name, token)
    }
    fn check_login(&mut self, name: &str, token: &str) -> Result<Option<Login>, StoreError> {
        self.inner.check_login(name, token)
    }
    fn rating(&mut self, name: &str) -> Result<Exact, StoreError> {
        self.inner.rating(name)
    }
    fn ratings(&mut self, limit: usize) -> Result<Vec<(String, Exact)>, StoreError> {
        self.inner.ratings(limit)
    }
    fn last_game_id(&mut self) -> Result<u64, StoreError> {
        self.inner.last_game_id()
    }
    fn start_game(&mut self, game: &NewGame) -> Result<(), StoreError> {
        self.inner.start_game(game)
    }
    fn save_progress(
        &mut self,
        id: u64,
        moves: &str,
        times: &[MoveTime],
        remaining: [u64; 2],
        seqs: [Option<u64>; 2],
    ) -> Result<(), StoreError> {
        let stall = self.stall.lock().unwrap().take();
        if let Some(stall) = stall {
            std::thread::sleep(stall);
        }
        self.inner.save_progress(id, moves, times, remaining, seqs)
    }
    fn finish_rated_game(
        &mut self,
        id: u64,
        end: &GameEnd,
        rated: Option<(&str, &str, Rated)>,
    ) -> Result<(), StoreError> {
        self.inner.finish_rated_game(id, end, rated)
    }
    fn games_in_play(&mut self) -> Result<Vec<LiveGame>, StoreError> {
        self.inner.games_in_play()
    }
    fn finished_games(&mut self) -> Result<Vec<FinishedGame>, StoreError> {
        self.inner.finished_games()
    }
    fn games_of(&mut self, player: &str, limit: usize) -> Result<Vec<FinishedGame>, StoreError> {
        self.inner.games_of(player, limit)
    }
    fn finished_game(&mut self, id: u64) -> Result<Option<FinishedGame>, StoreError> {
        self.inner.finished_game(id)
    }
    fn queue_put(&mut self, q: &QueuedPlayer) -> Result<(), StoreError> {
        self.inner.queue_put(q)
    }
    fn queue_remove(&mut self, name: &str) -> Result<(), StoreError> {
        self.inner.queue_remove(name)
    }
    fn queue(&mut self) -> Result<Vec<QueuedPlayer>, StoreError> {
        self.inner.queue()
    }
    fn offer_put(&mut self, o: &RematchOffer) -> Result<(), StoreError> {
        self.inner.offer_put(o)
    }
    fn offer_remove(&mut self, game: u64) -> Result<(), StoreError> {
        self.inner.offer_remove(game)
    }
    fn offers(&mut self) -> Result<Vec<RematchOffer>, StoreError> {
        self.inner.offers()
    }
    fn add_2048(&mut self, game: &Daily2048) -> Result<bool, StoreError> {
        self.inner.add_2048(game)
    }
    fn board_2048(
        &mut self,
        day: &str,
        board: &str,
        limit: usize,
    ) -> Result<Vec<(String, u64, u64, u64)>, StoreError> {
        self.inner.board_2048(day, board, limit)
    }
    fn better_2048(&mut self, day: &str, board: &str, score: u64) -> Result<u64, StoreError> {
        self.inner.better_2048(day, board, score)
    }
    fn mastermind_of(
        &mut self,
        day: &str,
        name: &str,
    ) -> Result<Vec<(String, u8, u8)>, StoreError> {
        self.inner.mastermind_of(day, name)
    }
    fn start_mastermind(&mut self, day: &str, name: &str) -> Result<(), StoreError> {
        self.inner.start_mastermind(day, name)
    }
    fn add_guess(&mut self, guess: &DailyGuess) -> Result<bool, StoreError> {
        self.inner.add_guess(guess)
    }
    fn board_mastermind(
        &mut self,
        day: &str,
        limit: usize,
    ) -> Result<Vec<(String, u64, u64)>, StoreError> {
        self.inner.board_mastermind(day, limit)
    }
}

/// Sends `msg` on `client` and waits for the answer, which must come within [`PROMPT`].
async fn prompt(client: &mut Client, msg: &ClientMessage) -> ServerMessage {
    let asked = Instant::now();
    client.send(msg).await;
    let answer = tokio::time::timeout(PROMPT, client.recv())
        .await
        .unwrap_or_else(|_| panic!("{}: no answer to {msg:?} within {PROMPT:?}", client.name));
    assert!(asked.elapsed() < PROMPT);
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_write_stalls_no_other_connection_and_its_event_waits_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let stall = Arc::new(Mutex::new(None));
    let store = Stalling {
        inner: SqliteStore::open(dir.path()).unwrap(),
        stall: Arc::clone(&stall),
    };
    let server = TestServer::start_on(Box::new(store), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let (mut cat, _) = Client::hello(server.addr, "cat").await;
    let game = start_game(&mut ann, &mut bob, "6x5").await;

    // Ann's move: its progress takes STALL to write.
    *stall.lock().unwrap() = Some(STALL);
    let moved = Instant::now();
    ann.send(&ClientMessage::Move {
        game,
        seq: 1,
        mv: "c1k".into(),
    })
    .await;
    // Meanwhile everyone else is answered at once: a pong, the lobby (with the game in it), a player's games, and
    // a welcome on a new connection (a known player is read, not written).
    assert_eq!(
        prompt(&mut cat, &ClientMessage::Ping {}).await,
        ServerMessage::Pong {}
    );
    match prompt(&mut cat, &ClientMessage::Lobby { follow: false }).await {
        ServerMessage::Lobby { online, games, .. } => {
            assert_eq!(online, 3);
            assert_eq!(games.iter().map(|g| g.game).collect::<Vec<_>>(), [game]);
        }
        other => panic!("{other:?}"),
    }
    match prompt(
        &mut cat,
        &ClientMessage::Games {
            player: "ann".into(),
        },
    )
    .await
    {
        ServerMessage::Games { player, games } => {
            assert_eq!((player.as_str(), games.len()), ("ann", 0))
        }
        other => panic!("{other:?}"),
    }
    let mut again = Client::connect(server.addr, "cat").await;
    match prompt(
        &mut again,
        &ClientMessage::Hello {
            name: "cat".into(),
            token: crate::client::token("cat"),
        },
    )
    .await
    {
        ServerMessage::Welcome { name, .. } => assert_eq!(name, "cat"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        prompt(&mut bob, &ClientMessage::Ping {}).await,
        ServerMessage::Pong {}
    );
    assert!(
        moved.elapsed() < STALL,
        "every answer came before the stalled write ended"
    );

    // The move's event reaches both players once its write is done, not before.
    for c in [&mut ann, &mut bob] {
        let (g, event) = c.event().await;
        assert_eq!((g, event.n), (game, 2));
        assert!(matches!(
            &event.kind,
            EventKind::Moved {
                by: Side::Black,
                ..
            }
        ));
        assert!(
            moved.elapsed() >= STALL,
            "{}: the move was sent before it was written",
            c.name
        );
    }
    // The game goes on as usual.
    play(game, &mut bob, &mut ann, Side::White, 1, "c6j", 3).await;
    server.stop().await;
    let kept = SqliteStore::open(dir.path())
        .unwrap()
        .games_in_play()
        .unwrap();
    assert_eq!(
        kept.iter()
            .map(|g| (g.id, g.moves.as_str()))
            .collect::<Vec<_>>(),
        [(game, "c1k c6j")]
    );
}
