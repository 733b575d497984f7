//! Tokens issued by the server: `register` answers a new name with a token of 128 random bits (sent once, kept as
//! its SHA-256 only), which `hello` then brings; a wrong token is refused, a name taken (in any case) is refused to
//! a second `register`, and the tokens clients chose before `register` existed still work.

use crate::client::{Client, TestServer, quick, token};
use parlor_online::protocol::{ClientMessage, ErrorCode, ServerMessage};
use sha2::{Digest, Sha256};

/// Registers `name` on a new connection: the connection, welcomed, and the token the server issued.
async fn register(addr: std::net::SocketAddr, name: &str) -> (Client, String) {
    let mut c = Client::connect(addr, name).await;
    c.send(&ClientMessage::Register { name: name.into() }).await;
    let ServerMessage::Registered { name: n, token } = c.recv().await else {
        panic!("not registered")
    };
    assert_eq!(n, name);
    assert!(
        matches!(c.recv().await, ServerMessage::Welcome { name: w, .. } if w == name),
        "welcome follows"
    );
    (c, token)
}

/// A new connection's `hello` as `name` with `token`: the answer.
async fn hello(addr: std::net::SocketAddr, name: &str, token: &str) -> ServerMessage {
    let mut c = Client::connect(addr, name).await;
    c.send(&ClientMessage::Hello {
        name: name.into(),
        token: token.into(),
    })
    .await;
    c.recv().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_issued_at_registration_logs_in_and_no_other_does() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut ann, issued) = register(server.addr, "ann").await;
    assert_eq!(issued.len(), 32);
    assert!(issued.chars().all(|c| c.is_ascii_hexdigit()));
    // Said once: a second introduction on the connection is refused.
    ann.send(&ClientMessage::Register { name: "ann".into() })
        .await;
    assert_eq!(ann.error().await, ErrorCode::NotIntroduced);

    // The token issued logs in; another, or the same name in another case, does not.
    assert!(matches!(
        hello(server.addr, "ann", &issued).await,
        ServerMessage::Welcome { .. }
    ));
    // One digit changed (the last: a 0 made 1, any other 0), so that it is wrong whatever was issued.
    let last = if issued.ends_with('0') { '1' } else { '0' };
    let wrong = format!("{}{last}", &issued[..31]);
    assert_ne!(wrong, issued);
    let refused = |m: ServerMessage| match m {
        ServerMessage::Error { code, .. } => code,
        other => panic!("not refused: {other:?}"),
    };
    assert_eq!(
        refused(hello(server.addr, "ann", &wrong).await),
        ErrorCode::BadName
    );
    assert_eq!(
        refused(hello(server.addr, "ANN", &issued).await),
        ErrorCode::BadName
    );
    // A name taken, in any case, is not registered again.
    for name in ["ann", "Ann"] {
        let mut c = Client::connect(server.addr, name).await;
        c.send(&ClientMessage::Register { name: name.into() }).await;
        assert_eq!(c.error().await, ErrorCode::BadName, "{name}");
    }
    let mut bad = Client::connect(server.addr, "bad").await;
    bad.send(&ClientMessage::Register {
        name: "no spaces".into(),
    })
    .await;
    assert_eq!(bad.error().await, ErrorCode::BadName);

    // Two registrations, two tokens.
    let (_, other) = register(server.addr, "bob").await;
    assert_ne!(other, issued);

    // A token a client chose, the way before `register`, still registers a new name and logs it in.
    let (_, welcome) = Client::hello(server.addr, "old_client").await;
    assert!(matches!(welcome, ServerMessage::Welcome { .. }));
    assert!(matches!(
        hello(server.addr, "old_client", &token("old_client")).await,
        ServerMessage::Welcome { .. }
    ));
    server.stop().await;

    // The store keeps the token's SHA-256, never the token.
    let db = rusqlite::Connection::open(dir.path().join(parlor_server::store::DB_FILE)).unwrap();
    let kept: String = db
        .query_row(
            "SELECT token_sha256 FROM players WHERE name = 'ann'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let sha: String = Sha256::digest(issued.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(kept, sha);
    let rows: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM players WHERE token_sha256 = ?1 OR name = ?1",
            [&issued],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(rows, 0, "the token itself is nowhere");
}
