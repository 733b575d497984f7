//! `parlor online` against a server older than a message it sends: a stand-in for an older `parlor serve` on
//! 127.0.0.1 (its protocol without `ranked_2048`, refusing what it does not know as a server refuses an unknown
//! type: `malformed`, "unknown variant ..."). The client, in plain mode through pipes, says plainly that the server
//! is older and does not offer the ranked 2048 of the day, never the raw refusal. Every wait is bounded.

use crate::online::Client;
use parlor_online::protocol::{ClientMessage, ErrorCode, Rating, ServerMessage};
use std::net::TcpListener;
use std::time::{Duration, Instant};

/// The message types the stand-in server knows (a server from before the ranked 2048 of the day).
const OLDER: [&str; 6] = [
    "hello",
    "lobby",
    "ping",
    "daily_2048",
    "submit_2048",
    "leaderboard",
];

/// Serves `listener` as an older server for at most `limit`: welcomes every `hello`, answers `ping`, and refuses
/// every type it does not know as it would.
fn serve_older(listener: TcpListener, limit: Duration) {
    let until = Instant::now() + limit;
    listener.set_nonblocking(true).unwrap();
    // Bounded: one connection at a time, until the limit.
    while Instant::now() < until {
        let Ok((stream, _)) = listener.accept() else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        stream.set_nonblocking(false).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        let Ok(mut ws) = tungstenite::accept(stream) else {
            continue;
        };
        while Instant::now() < until {
            let text = match ws.read() {
                Ok(tungstenite::Message::Text(t)) => t.to_string(),
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    continue;
                }
                Err(_) => break,
            };
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            let kind = value["type"].as_str().unwrap_or_default().to_string();
            let answer = if !OLDER.contains(&kind.as_str()) {
                let expected = OLDER.map(|t| format!("`{t}`")).join(", ");
                Some(ServerMessage::error(
                    ErrorCode::Malformed,
                    format!(
                        "not a valid message: unknown variant `{kind}`, expected one of {expected}"
                    ),
                    None,
                ))
            } else {
                match ClientMessage::parse(&text) {
                    Ok(ClientMessage::Hello { name, .. }) => Some(ServerMessage::Welcome {
                        name,
                        rating: Rating::NEW,
                        games: Vec::new(),
                    }),
                    Ok(ClientMessage::Ping {}) => Some(ServerMessage::Pong {}),
                    _ => None,
                }
            };
            if let Some(msg) = answer
                && ws.send(tungstenite::Message::text(msg.to_text())).is_err()
            {
                break;
            }
        }
    }
}

#[test]
fn a_server_older_than_the_ranked_2048_is_said_plainly() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    let server = std::thread::spawn(move || serve_older(listener, Duration::from_secs(60)));
    let dir = tempfile::tempdir().unwrap();
    // An identity with a token of its own (as an older Parlor kept it): the older server takes its hello.
    std::fs::write(
        dir.path().join("online.json"),
        r#"{"name":"ann","token":"0123456789abcdef0123456789abcdef"}"#,
    )
    .unwrap();
    let mut ann = Client::start(&url, "ann", dir.path());
    ann.wait_for("connected as ann");
    ann.send("play 2048");
    let said = ann.wait_for("older");
    assert!(
        said.contains(
            "this server is older than this Parlor and does not offer the ranked 2048 of the day"
        ),
        "{said}"
    );
    assert!(
        !ann.text().contains("unknown variant"),
        "the raw refusal shown:\n{}",
        ann.text()
    );
    ann.quit();
    drop(server);
}
