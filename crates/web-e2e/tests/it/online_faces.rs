//! Parlor online on the graphical face, in headless Chromium: a real `parlor-server` on 127.0.0.1 (started as
//! `online.rs` starts it) and two pages, each in a browser of its own, at a phone's size with touch. Both type
//! their names into the online screen's text fields and tap Connect; one challenges the other from the players'
//! list, the other accepts, and they play a Nocca Nocca game on 3x3 to its end by taps on the graphical board
//! (touch pointer actions), each move seen on both pages; then back to the lobby and the menu. Also: the online
//! screens at 320x568 and 1280x800 with nothing overflowing and every tap target at least 44 x 44 (faces.rs's
//! checks, and the text fields measured too), and the plain sentence when no server answers or the browser is
//! offline. Every wait is bounded.

use crate::faces::{check, text, wait};
use crate::online::{Client, Server, pick};
use parlor_online::protocol::{ClientMessage, EventKind, ServerMessage};
use parlor_web_e2e::{Session, site_from_env};
use serde_json::Value;
use std::time::{Duration, Instant};

/// The longest a whole game may take.
const GAME: Duration = Duration::from_secs(240);

/// A page on the graphical face with `server` offered, on a fresh store, showing the menu; `beside` a page already
/// open, a second browser of the same test. `None` (the test skips) without `PARLOR_WEB_DIR`.
fn open(test: &str, server: &str, beside: Option<&Session>) -> Option<Session> {
    let site = site_from_env(test).unwrap()?;
    let query = format!("face=graphic&server={server}");
    let s = match beside {
        Some(first) => first.beside(test, &site, &query).unwrap(),
        None => Session::start(test, &site, &query).unwrap(),
    };
    s.fresh_start().unwrap();
    wait(
        &s,
        "the menu",
        "return !!document.querySelector('[data-act=\"online\"]');",
    );
    Some(s)
}

/// From the menu to the lobby: Online, then [`sign_in`].
fn connect(s: &Session, server: &str, name: &str) {
    s.tap("[data-act=\"online\"]").unwrap();
    sign_in(s, server, name);
}

/// On the connect form: the name typed into its field after a tap, Connect tapped, the lobby shown.
fn sign_in(s: &Session, server: &str, name: &str) {
    wait(
        s,
        "the name's field",
        "return !!document.querySelector('input[data-set=\"online:name\"]');",
    );
    let prefilled = s
        .eval("return document.querySelector('input[data-set=\"online:server\"]').value;")
        .unwrap();
    assert_eq!(
        prefilled,
        Value::from(server),
        "the page's ?server= is offered"
    );
    s.tap("input[data-set=\"online:name\"]").unwrap();
    wait(
        s,
        "the field's focus",
        "return document.activeElement === document.querySelector('input[data-set=\"online:name\"]');",
    );
    s.type_text(name).unwrap();
    s.tap("[data-act=\"ol:connect\"]").unwrap();
    wait(
        s,
        "the lobby",
        "const w = document.querySelector('.lobby #who'); return !!w && w.textContent.includes('· online');",
    );
    assert!(text(s, "#who").starts_with(name), "{}", text(s, "#who"));
}

/// Taps `selector` once scrolled into view, as a finger scrolls the lobby to reach it.
fn tap_shown(s: &Session, selector: &str) {
    wait(
        s,
        selector,
        &format!(
            "const e = document.querySelector({}); if (!e) return false; e.scrollIntoView({{block: 'center'}}); return true;",
            serde_json::to_string(selector).unwrap()
        ),
    );
    s.tap(selector).unwrap();
}

/// The status line of the game shown.
fn status(s: &Session) -> String {
    text(s, ".play.online #who")
}

/// Waits until the game's status line on `s` says `what`.
fn wait_status(s: &Session, what: &str) {
    wait(
        s,
        what,
        &format!(
            "const w = document.querySelector('.play.online #who'); return !!w && w.textContent.includes({});",
            serde_json::to_string(what).unwrap()
        ),
    );
}

/// Every text field of the screen at least 44 x 44 CSS px and inside the viewport, and labelled.
fn fields_fit(s: &Session, screen: &str) {
    let faults = s
        .eval(
            "const out = []; for (const e of document.querySelectorAll('#faces input')) { \
               const r = e.getBoundingClientRect(); \
               if (r.width < 44 || r.height < 44) out.push(e.dataset.set + ' is ' + r.width + ' x ' + r.height); \
               if (r.left < 0 || r.right > innerWidth + 0.5) out.push(e.dataset.set + ' is cut by the viewport'); \
               if (!e.labels || !e.labels.length || !e.labels[0].textContent.trim()) out.push(e.dataset.set + ' has no label'); \
             } return out;",
        )
        .unwrap();
    assert_eq!(faults, Value::Array(Vec::new()), "{screen}: {faults}");
}

#[test]
fn online_faces_two_phones_play_nocca_by_taps_to_its_end() {
    let test = "online_faces_two_phones";
    if site_from_env(test).unwrap().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let ann = open(test, &server.url, None).unwrap();
    let bob = open(&format!("{test}_bob"), &server.url, Some(&ann)).unwrap();
    for s in [&ann, &bob] {
        s.emulate(360, 780, true).unwrap();
    }
    connect(&ann, &server.url, "ann");
    connect(&bob, &server.url, "bob");

    // Ann challenges Bob from the players' list, on 3x3.
    tap_shown(&ann, "[aria-label=\"Challenge bob\"]");
    wait(
        &ann,
        "bob in the opponent's field",
        "return document.querySelector('input[data-set=\"online:opponent\"]').value === 'bob';",
    );
    ann.eval("const e = document.querySelector('select[data-set=\"online:board\"]'); e.value = '3x3'; e.dispatchEvent(new Event('change', {bubbles: true})); return true;")
        .unwrap();
    tap_shown(&ann, "[data-act=\"ol:challenge\"]");
    wait(
        &ann,
        "the challenge sent",
        "return document.body.textContent.includes('to bob on 3x3');",
    );
    wait(
        &bob,
        "ann's challenge",
        "return !!document.querySelector('[data-act^=\"ol:accept:\"]');",
    );
    assert!(
        text(&bob, ".osec").contains("ann challenges you on 3x3"),
        "{}",
        text(&bob, ".osec")
    );
    tap_shown(&bob, "[data-act^=\"ol:accept:\"]");
    for s in [&ann, &bob] {
        wait(
            s,
            "the game",
            "return !!document.querySelector('.play.online #board');",
        );
    }
    wait_status(&ann, "move 1: your move");
    wait_status(&bob, "move 1: waiting for ann");
    assert!(text(&ann, "#player-black").contains("ann (black, 1500) · you"));
    assert!(text(&bob, "#player-white").contains("bob (white, 1500) · you"));
    ann.screenshot("-game").unwrap();
    bob.screenshot("-game").unwrap();

    // The game, by taps: the piece, then its target; each move seen on both pages.
    let mut game = nocca::Game::new("3x3".parse().unwrap(), nocca::GameOptions::default());
    let deadline = Instant::now() + GAME;
    while !game.is_over() {
        assert!(game.ply() < 300, "the game ends");
        assert!(Instant::now() < deadline, "the game ends within {GAME:?}");
        let (mover, other) = match game.side_to_move() {
            nocca::Colour::Black => (&ann, &bob),
            nocca::Colour::White => (&bob, &ann),
        };
        let mv = pick(&game);
        wait_status(mover, &format!("move {}: your move", game.ply() + 1));
        mover
            .tap(&format!(
                "[data-act=\"b:sel:{}:{}\"]",
                mv.from.row(),
                mv.from.col()
            ))
            .unwrap();
        let (r, c) = mv.target();
        mover.tap(&format!("[data-act=\"b:to:{r}:{c}\"]")).unwrap();
        game.play(mv).unwrap();
        if !game.is_over() {
            let next = format!("move {}: ", game.ply() + 1);
            wait_status(mover, &next);
            wait_status(other, &next);
            // The move is marked where it landed, on both boards.
            for s in [mover, other] {
                if (0..3).contains(&r) {
                    let at = s
                        .eval(&format!(
                            "const e = document.querySelector('[aria-label^=\"{}{}\"]'); return !!e && e.classList.contains('last-to');",
                            char::from(b'a' + c as u8),
                            r + 1
                        ))
                        .unwrap();
                    assert_eq!(at, Value::Bool(true), "{mv} marked on {}", s.name());
                }
            }
        }
    }
    for s in [&ann, &bob] {
        wait(s, "the end", "return !!document.querySelector('#ending');");
    }
    let ending = text(&ann, "#ending");
    assert!(ending.contains(" wins: "), "{ending}");
    assert_eq!(text(&bob, "#ending"), ending, "both pages say the same end");
    assert!(status(&ann).contains("over:"), "{}", status(&ann));
    ann.screenshot("-over").unwrap();

    // Back to the lobby, where the game is listed as over, and to the menu.
    for s in [&ann, &bob] {
        s.tap("[data-act=\"ol:lobby\"]").unwrap();
        wait(s, "the lobby", "return !!document.querySelector('.lobby');");
        assert!(
            s.eval("return [...document.querySelectorAll('.orow')].some(r => r.textContent.includes('over:'));")
                .unwrap()
                == Value::Bool(true),
            "the finished game is in the lobby"
        );
        tap_shown(s, "[data-act=\"ol:menu\"]");
        wait(
            s,
            "the menu",
            "return !!document.querySelector('[data-act=\"setup:0\"]');",
        );
    }
}

#[test]
fn online_faces_fit_phones_and_desktops() {
    let test = "online_faces_fit";
    if site_from_env(test).unwrap().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let s = open(test, &server.url, None).unwrap();
    s.emulate(320, 568, true).unwrap();
    s.tap("[data-act=\"online\"]").unwrap();
    wait(
        &s,
        "the connect form",
        "return !!document.querySelector('[data-act=\"ol:connect\"]');",
    );
    for &(w, h, phone) in &[(320, 568, true), (1280, 800, false)] {
        s.emulate(w, h, phone).unwrap();
        check(&s, "online-connect", (w, h), true);
        fields_fit(&s, "online-connect");
    }
    s.emulate(320, 568, true).unwrap();
    sign_in(&s, &server.url, "ann");
    // Bob, a protocol client, is online with a challenge to Ann, so that every kind of row shows.
    let mut bob = Client::connect(&server.url, "bob");
    bob.send(&ClientMessage::Challenge {
        opponent: "ann".into(),
        board: "3x3".into(),
        clock: Some(parlor_online::protocol::TimeControl {
            minutes: 5,
            increment_secs: 3,
        }),
        rated: false,
    });
    wait(
        &s,
        "bob's challenge",
        "return !!document.querySelector('[data-act^=\"ol:accept:\"]');",
    );
    for &(w, h, phone) in &[(320, 568, true), (1280, 800, false)] {
        s.emulate(w, h, phone).unwrap();
        check(&s, "online-lobby", (w, h), true);
        fields_fit(&s, "online-lobby");
    }
    tap_shown(&s, "[data-act^=\"ol:accept:\"]");
    bob.wait("the game's start", |m| {
        matches!(m, ServerMessage::Event { event, .. } if matches!(event.kind, EventKind::Started { .. }))
    });
    wait_status(&s, "move 1: waiting for bob");
    assert!(
        text(&s, "#player-black").contains("5:00"),
        "the clocks of a timed game: {}",
        text(&s, "#player-black")
    );
    for &(w, h, phone) in &[(320, 568, true), (1280, 800, false)] {
        s.emulate(w, h, phone).unwrap();
        check(&s, "online-game", (w, h), false);
    }
    s.tap("[data-act=\"ol:resign\"]").unwrap();
    wait(
        &s,
        "the question",
        "return !!document.querySelector('[data-act=\"ol:yes\"]');",
    );
    check(&s, "online-resign", (320, 568), false);
    s.tap("[data-act=\"ol:yes\"]").unwrap();
    wait(&s, "the end", "return !!document.querySelector('#ending');");
}

#[test]
fn online_faces_say_in_one_sentence_when_no_server_answers_or_the_browser_is_offline() {
    let test = "online_faces_offline";
    // Port 9 (discard) on 127.0.0.1: nothing listens there.
    let nowhere = "ws://127.0.0.1:9";
    let Some(s) = open(test, nowhere, None) else {
        return;
    };
    s.emulate(360, 780, true).unwrap();
    s.tap("[data-act=\"online\"]").unwrap();
    s.tap("input[data-set=\"online:name\"]").unwrap();
    s.type_text("ann").unwrap();
    s.tap("[data-act=\"ol:connect\"]").unwrap();
    wait(
        &s,
        "the sentence",
        "const c = document.querySelector('#connection'); return !!c && c.textContent.startsWith('No server answers at ws://127.0.0.1:9.');",
    );
    s.screenshot("-no-server").unwrap();
    // The browser offline (the DevTools protocol's network emulation): the screen says that instead.
    s.cdp("Network.enable", serde_json::json!({})).unwrap();
    s.cdp(
        "Network.emulateNetworkConditions",
        serde_json::json!({"offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}),
    )
    .unwrap();
    wait(
        &s,
        "the offline sentence",
        "const c = document.querySelector('#connection'); return !!c && c.textContent.startsWith('This browser is offline');",
    );
    s.cdp(
        "Network.emulateNetworkConditions",
        serde_json::json!({"offline": false, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}),
    )
    .unwrap();
    wait(
        &s,
        "the sentence back",
        "const c = document.querySelector('#connection'); return !!c && c.textContent.startsWith('No server answers');",
    );
    tap_shown(&s, "[data-act=\"ol:menu\"]");
    wait(
        &s,
        "the menu",
        "return !!document.querySelector('[data-act=\"setup:0\"]');",
    );
}
