//! The load tool's clients: a WebSocket connection that says hello, a game set up between two of them on one
//! node (challenged and accepted there, as challenges reach players on the same node only), and one side of a game
//! played to its end, each move's round trip timed.

use futures_util::{SinkExt, StreamExt};
use parlor_online::protocol::{ClientMessage, EventKind, ServerMessage, Side};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// A client's connection.
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// How long any one message may take to come.
const WAIT: Duration = Duration::from_secs(60);

pub async fn send(ws: &mut Ws, msg: &ClientMessage) {
    ws.send(Message::Text(msg.to_text().into())).await.unwrap();
}

pub async fn recv(ws: &mut Ws) -> ServerMessage {
    loop {
        let frame = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a message within a minute")
            .expect("the connection is open")
            .unwrap();
        if let Message::Text(t) = frame {
            return ServerMessage::parse(t.as_str()).unwrap();
        }
    }
}

/// A connection to `addr` that said hello as `name` (its token made from the name, so that another connection of
/// the same name is the same player's): the connection, and the games its welcome lists.
pub async fn connect(addr: SocketAddr, name: &str) -> (Ws, Vec<u64>) {
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/"))
        .await
        .unwrap();
    send(
        &mut ws,
        &ClientMessage::Hello {
            name: name.into(),
            token: format!("load-test-token-of-{name}"),
        },
    )
    .await;
    // Bounded: a welcome comes first, or an error (which ends the tool).
    match recv(&mut ws).await {
        ServerMessage::Welcome { games, .. } => (ws, games.iter().map(|g| g.game).collect()),
        other => panic!("{name}: {other:?}"),
    }
}

/// Reads an idle connection until it closes, so that it answers the server's pings.
pub async fn idle(mut ws: Ws) {
    while let Some(Ok(_)) = ws.next().await {}
}

/// The next `Started` event `ws` is sent: its game (other messages skipped, bounded).
async fn started(ws: &mut Ws) -> u64 {
    for _ in 0..100 {
        match recv(ws).await {
            ServerMessage::Event { game, event }
                if matches!(event.kind, EventKind::Started { .. }) =>
            {
                return game;
            }
            ServerMessage::Error { message, .. } => panic!("{message}"),
            _ => {}
        }
    }
    panic!("no game started")
}

/// `a` (named `a_name`) challenges `b` (named `b_name`), on the same node, to an untimed 6x5 game, which `b`
/// accepts: the game's number.
pub async fn start_game(a: &mut Ws, b: &mut Ws, b_name: &str, rated: bool) -> u64 {
    send(
        a,
        &ClientMessage::Challenge {
            opponent: b_name.into(),
            board: "6x5".into(),
            clock: None,
            rated,
        },
    )
    .await;
    let challenge = 'c: {
        for _ in 0..100 {
            if let ServerMessage::Challenged { challenge } = recv(b).await {
                break 'c challenge.challenge;
            }
        }
        panic!("{b_name}: no challenge")
    };
    send(b, &ClientMessage::Accept { challenge }).await;
    let game = started(a).await;
    assert_eq!(started(b).await, game);
    game
}

/// Plays `me`'s side of `game` on `ws` to its end (random legal moves after `think`, resigning at ply 60): the
/// round trip of each of its moves, from sending it to its own `moved` event, in microseconds.
pub async fn play(
    mut ws: Ws,
    game: u64,
    me: Side,
    think: Duration,
    mut seed: u64,
) -> (Vec<u64>, Ws) {
    let mut board = nocca::Game::new(nocca::Dims::STANDARD, nocca::GameOptions::default());
    let mut trips = Vec::new();
    let mut seq = 0;
    let mut sent: Option<Instant> = None;
    loop {
        if sent.is_none() && !board.is_over() && Side::from(board.side_to_move()) == me {
            tokio::time::sleep(think).await;
            if board.ply() >= 60 {
                send(&mut ws, &ClientMessage::Resign { game }).await;
            } else {
                let moves = board.legal_moves();
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mv = moves[(seed % moves.len() as u64) as usize];
                seq += 1;
                send(
                    &mut ws,
                    &ClientMessage::Move {
                        game,
                        seq,
                        mv: mv.to_string(),
                    },
                )
                .await;
            }
            sent = Some(Instant::now());
        }
        match recv(&mut ws).await {
            ServerMessage::Event { game: g, event } if g == game => match event.kind {
                EventKind::Moved { by, mv, .. } => {
                    if by == me
                        && let Some(t) = sent.take()
                    {
                        trips.push(u64::try_from(t.elapsed().as_micros()).unwrap_or(u64::MAX));
                    }
                    board.play(mv.parse().unwrap()).unwrap();
                }
                EventKind::Ended { .. } => return (trips, ws),
                EventKind::Started { .. } => {}
            },
            ServerMessage::Error { message, .. } => panic!("game {game}: {message}"),
            _ => {}
        }
    }
}
