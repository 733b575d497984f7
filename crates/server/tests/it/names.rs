//! Names are told apart after case folding: a name that differs only in case from a registered one is refused with
//! a clear message, and names registered before that rule which collide keep their rows and tokens.

use crate::client::{Client, TestServer, quick, token};
use parlor_online::protocol::{ClientMessage, ErrorCode, ServerMessage, check_name};
use parlor_server::store::{Login, name_key};
use parlor_server::{SqliteStore, Store};

#[test]
fn the_name_key_is_unicode_case_folding_for_every_character_a_name_may_have() {
    for c in (0u32..0x11_0000).filter_map(char::from_u32) {
        let name = c.to_string();
        if check_name(&name).is_ok() {
            assert!(c.is_ascii(), "{c:?}");
            assert_eq!(name_key(&name), name.to_lowercase(), "{c:?}");
        }
    }
    // The characters outside ASCII that fold into it (the Kelvin sign, the long s) are refused in names.
    assert!(check_name("\u{212A}ate").is_err());
    assert!(check_name("\u{17F}am").is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_differing_only_in_case_is_refused_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let _alice = Client::hello(server.addr, "alice").await;
    for variant in ["ALICE", "Alice", "aLiCe"] {
        let mut c = Client::connect(server.addr, variant).await;
        c.send(&ClientMessage::Hello {
            name: variant.into(),
            token: token(variant),
        })
        .await;
        match c.recv().await {
            ServerMessage::Error { code, message, .. } => {
                assert_eq!(code, ErrorCode::BadName);
                assert!(message.contains("differs only in case"), "{message}");
            }
            other => panic!("{variant}: {other:?}"),
        }
    }
    // The registered name still logs in, from another connection.
    let _again = Client::hello(server.addr, "alice").await;
    server.stop().await;
}

#[test]
fn names_that_collided_before_the_rule_keep_their_rows_and_new_variants_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(dir.path()).unwrap();
    assert_eq!(
        store.login("bob", &token("bob")).unwrap(),
        Login::Registered
    );
    drop(store);
    // As a server of schema 4 kept them: `bob` and `BOB`, two players.
    let db = rusqlite::Connection::open(dir.path().join(parlor_server::store::DB_FILE)).unwrap();
    db.execute_batch(
        "DROP INDEX players_name_key;
         ALTER TABLE players DROP COLUMN name_key;
         INSERT INTO players (name, token_sha256, created_unix_ms) VALUES ('BOB', 'x', 0);
         PRAGMA user_version = 4;",
    )
    .unwrap();
    drop(db);
    let mut store = SqliteStore::open(dir.path()).unwrap();
    assert_eq!(store.login("bob", &token("bob")).unwrap(), Login::Known);
    assert_eq!(
        store.login("BOB", &token("bob")).unwrap(),
        Login::WrongToken,
        "BOB is still a player of its own"
    );
    assert_eq!(
        store.login("Bob", &token("Bob")).unwrap(),
        Login::CaseVariant
    );
    assert_eq!(store.check_login("Bob", &token("Bob")).unwrap(), None);
}
