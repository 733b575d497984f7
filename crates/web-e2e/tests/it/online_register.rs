//! The page's name and token online: a real `parlor-server` on 127.0.0.1 ([`Server`]). A page with no token kept
//! registers its name (`register`, no `hello`), keeps the token the server issued in its local storage, and says
//! `hello` with it after a reload; that token is the name's key (a protocol client's `hello` with it is welcomed,
//! with another token refused). A token an older page made itself, kept in the storage, goes on working as it is.
//! Every wait is bounded.

use crate::common::page;
use crate::online::{Client, Server, go_online};
use parlor_online::protocol::{ClientMessage, ServerMessage};
use parlor_web_e2e::{Session, site_from_env};

/// Records every message the page's sockets send (`window.parlorSent`), from now until the page is reloaded.
const RECORD_SENT: &str = "window.parlorSent = []; const send = WebSocket.prototype.send; \
    WebSocket.prototype.send = function (data) { window.parlorSent.push(String(data)); return send.call(this, data); }; \
    return true;";

/// The messages the page's sockets sent since [`RECORD_SENT`], read as the protocol's.
fn sent(s: &Session) -> Vec<ClientMessage> {
    let text = s
        .eval_string("return JSON.stringify(window.parlorSent || []);")
        .unwrap();
    let raw: Vec<String> = serde_json::from_str(&text).unwrap();
    raw.iter()
        .map(|t| ClientMessage::parse(t).unwrap_or_else(|e| panic!("{t}: {e}")))
        .collect()
}

/// What the page keeps of the player in its local storage: name, token, server.
fn kept(s: &Session) -> (String, String, String) {
    let text = s
        .eval_string("return localStorage.getItem('parlor.online') || '';")
        .unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    let field = |k: &str| v[k].as_str().unwrap_or_default().to_string();
    (field("name"), field("token"), field("server"))
}

#[test]
fn the_page_registers_a_new_name_keeps_the_token_issued_and_says_hello_with_it_after() {
    let test = "the_page_registers_a_new_name_keeps_the_token_issued_and_says_hello_with_it_after";
    if site_from_env(test).unwrap().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let s = page(test, &format!("?server={}", server.url)).unwrap();
    s.eval(RECORD_SENT).unwrap();
    go_online(&s, Some("ann"));
    s.wait_text("Parlor online · ann · online").unwrap();
    // Registered, never a hello with a token of the page's own.
    let first = sent(&s);
    assert_eq!(
        first.first(),
        Some(&ClientMessage::Register { name: "ann".into() }),
        "{first:?}"
    );
    assert!(
        !first
            .iter()
            .any(|m| matches!(m, ClientMessage::Hello { .. })),
        "{first:?}"
    );
    // The token issued is kept, and it is the name's key.
    let (name, token, at) = kept(&s);
    assert_eq!((name.as_str(), at.as_str()), ("ann", server.url.as_str()));
    assert_eq!(token.len(), 32, "{token:?}");
    assert!(token.chars().all(|c| c.is_ascii_hexdigit()), "{token:?}");
    let (_ann, welcome) = Client::hello(&server.url, "ann", &token);
    assert!(
        matches!(welcome, ServerMessage::Welcome { .. }),
        "{welcome:?}"
    );
    let (_other, refused) = Client::hello(&server.url, "ann", "a-token-nobody-was-issued");
    assert!(
        matches!(refused, ServerMessage::Error { .. }),
        "{refused:?}"
    );
    // After a reload the page says hello with it: no second registration, the same token kept.
    s.reload().unwrap();
    s.eval(RECORD_SENT).unwrap();
    go_online(&s, None);
    s.wait_text("Parlor online · ann · online").unwrap();
    let again = sent(&s);
    assert_eq!(
        again.first(),
        Some(&ClientMessage::Hello {
            name: "ann".into(),
            token: token.clone()
        }),
        "{again:?}"
    );
    assert!(
        !again
            .iter()
            .any(|m| matches!(m, ClientMessage::Register { .. })),
        "{again:?}"
    );
    assert_eq!(kept(&s).1, token);
}

#[test]
fn a_token_an_older_page_made_itself_goes_on_working() {
    let test = "a_token_an_older_page_made_itself_goes_on_working";
    if site_from_env(test).unwrap().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let s = page(test, &format!("?server={}", server.url)).unwrap();
    // As an older page kept it: a token of its own making.
    let old = "0123456789abcdef0123456789abcdef";
    let stored =
        serde_json::json!({"name": "carl", "token": old, "server": server.url}).to_string();
    s.eval_with(
        "localStorage.setItem('parlor.online', arguments[0]); return true;",
        vec![serde_json::Value::String(stored)],
    )
    .unwrap();
    s.eval(RECORD_SENT).unwrap();
    go_online(&s, None);
    s.wait_text("Parlor online · carl · online").unwrap();
    let said = sent(&s);
    assert_eq!(
        said.first(),
        Some(&ClientMessage::Hello {
            name: "carl".into(),
            token: old.into()
        }),
        "{said:?}"
    );
    assert_eq!(kept(&s), ("carl".into(), old.into(), server.url.clone()));
    // The server knows carl by it.
    let (_carl, welcome) = Client::hello(&server.url, "carl", old);
    assert!(
        matches!(welcome, ServerMessage::Welcome { .. }),
        "{welcome:?}"
    );
}
