//! The online screen of the graphical face over a wire the test holds: what it sends for each tap, and what it
//! shows of what the server says, read from its HTML as a user meets it.

use super::*;
use parlor_online::protocol::{
    ChallengeInfo, Event, EventKind, PlayerInfo, Rating, ServerMessage, Side,
};
use std::cell::RefCell;
use std::rc::Rc;

/// What the screen sent, and what the test has the connection pass on next.
#[derive(Default)]
struct Ends {
    sent: Vec<ClientMessage>,
    quit: bool,
    downs: Vec<Down>,
}

struct TestWire(Rc<RefCell<Ends>>);

impl Wire for TestWire {
    fn up(&mut self, up: Up) {
        match up {
            Up::Send(m) => self.0.borrow_mut().sent.push(m),
            Up::Quit => self.0.borrow_mut().quit = true,
        }
    }

    fn down(&mut self) -> Vec<Down> {
        std::mem::take(&mut self.0.borrow_mut().downs)
    }
}

fn lobby(ends: &Rc<RefCell<Ends>>) -> Lobby {
    let ends = ends.clone();
    Lobby::new(
        parlor::registry::online(),
        "ws://127.0.0.1:7878",
        "",
        Box::new(move |server: &str, _name: &str| {
            crate::online::check_server(server)?;
            Ok(Box::new(TestWire(ends.clone())) as Box<dyn Wire>)
        }),
        crate::faces::room_board(),
    )
}

/// The screen connected as `me`, the server's welcome and lobby taken in.
fn connected(me: &str) -> (Lobby, Rc<RefCell<Ends>>) {
    let ends = Rc::new(RefCell::new(Ends::default()));
    let mut l = lobby(&ends);
    l.set("online:name", me);
    l.act("ol:connect");
    ends.borrow_mut().downs.push(Down::Connected);
    assert!(l.tick(false));
    (l, ends)
}

fn hear(l: &mut Lobby, ends: &Rc<RefCell<Ends>>, msg: ServerMessage) {
    ends.borrow_mut().downs.push(Down::Message(msg));
    assert!(l.tick(false), "the screen changes with what it hears");
}

fn started(n: u64, black: &str, white: &str) -> ServerMessage {
    ServerMessage::Event {
        game: 3,
        event: Event {
            n,
            kind: EventKind::Started {
                black: black.into(),
                white: white.into(),
                board: "3x3".into(),
                clock: Some(parlor_online::protocol::TimeControl {
                    minutes: 5,
                    increment_secs: 3,
                }),
                rated: false,
                black_rating: Rating::NEW,
                white_rating: Rating::NEW,
                rematch_of: None,
                clocks: None,
            },
        },
    }
}

fn moved(n: u64, ply: u32, by: Side, mv: &str) -> ServerMessage {
    ServerMessage::Event {
        game: 3,
        event: Event {
            n,
            kind: EventKind::Moved {
                by,
                ply,
                mv: mv.into(),
                clocks: None,
            },
        },
    }
}

fn player(name: &str) -> PlayerInfo {
    PlayerInfo {
        name: name.into(),
        rating: Rating::NEW,
        playing: false,
        queued: false,
    }
}

#[test]
fn the_server_and_name_are_labelled_text_fields_and_connect_needs_a_name() {
    let ends = Rc::new(RefCell::new(Ends::default()));
    let mut l = lobby(&ends);
    let html = l.html();
    assert!(
        html.contains("<span>Server</span><input type=\"url\" inputmode=\"url\" data-set=\"online:server\" name=\"online:server\" value=\"ws://127.0.0.1:7878\""),
        "{html}"
    );
    assert!(
        html.contains("<span>Your name</span><input type=\"text\""),
        "{html}"
    );
    assert!(html.contains(">Connect</button>"), "{html}");
    let title = parlor::registry::online().room.title();
    assert!(
        html.contains(title),
        "the registry's room names its game, {title}"
    );
    l.act("ol:connect");
    assert!(l.html().contains("Type the name to play under first."));
    l.set("online:server", "http://nope");
    l.set("online:name", "ann");
    l.act("ol:connect");
    assert!(
        l.html().contains("a server address starts with ws://"),
        "{}",
        l.html()
    );
    l.set("online:server", "ws://127.0.0.1:9");
    l.act("ol:connect");
    assert_eq!(
        ends.borrow().sent,
        [ClientMessage::Lobby { follow: true }],
        "the lobby is followed from the start"
    );
    // No server there: one plain sentence, with the address.
    ends.borrow_mut().downs.push(Down::Lost {
        why: "the connection failed".into(),
        retry_ms: 250,
    });
    assert!(l.tick(false));
    let html = l.html();
    assert!(
        html.contains("No server answers at ws://127.0.0.1:9. The server cannot be reached (the connection failed): trying again…"),
        "{html}"
    );
    // The browser offline says so instead.
    assert!(l.tick(true));
    assert!(l.html().contains("This browser is offline"), "{}", l.html());
    assert_eq!(l.act("ol:menu"), Go::Menu);
    assert!(ends.borrow().quit, "leaving closes the connection");
}

#[test]
fn a_challenge_is_accepted_and_the_game_played_by_taps_with_the_moves_sent_in_notation() {
    let (mut l, ends) = connected("bob");
    hear(
        &mut l,
        &ends,
        ServerMessage::Lobby {
            online: 2,
            players: vec![player("ann"), player("bob")],
            challenges: vec![ChallengeInfo {
                challenge: 7,
                from: "ann".into(),
                to: "bob".into(),
                board: "3x3".into(),
                clock: None,
                rated: false,
            }],
            games: Vec::new(),
            queue: None,
        },
    );
    let html = l.html();
    assert!(html.contains("<h2>Challenges to you</h2>"), "{html}");
    assert!(
        html.contains("ann challenges you on 3x3, untimed"),
        "{html}"
    );
    assert!(html.contains("data-act=\"ol:accept:7\""), "{html}");
    assert!(html.contains("data-act=\"ol:decline:7\""), "{html}");
    assert!(html.contains("<h2>Players online</h2>"), "{html}");
    assert!(html.contains("aria-label=\"Challenge ann\""), "{html}");
    assert!(
        !html.contains("aria-label=\"Challenge bob\""),
        "not oneself"
    );
    l.act("ol:accept:7");
    assert_eq!(
        ends.borrow().sent.last(),
        Some(&ClientMessage::Accept { challenge: 7 })
    );
    // The game comes to the front: ann is Black and moves first.
    hear(&mut l, &ends, started(1, "ann", "bob"));
    let html = l.html();
    assert!(html.contains("Game 3, move 1: waiting for ann"), "{html}");
    assert!(html.contains("▶ ann (black, 1500)"), "{html}");
    assert!(html.contains("bob (white, 1500) · you"), "{html}");
    assert!(!html.contains("b:sel:"), "nothing to tap on ann's move");
    assert!(html.contains("data-act=\"ol:resign\""), "{html}");
    hear(&mut l, &ends, moved(2, 1, Side::Black, "a1k"));
    let html = l.html();
    assert!(html.contains("Game 3, move 2: your move"), "{html}");
    assert!(
        html.contains("class=\"sq last-to\"") || html.contains("last-to"),
        "{html}"
    );
    // White's home row is the top one: its pieces are row 2.
    assert!(html.contains("data-act=\"b:sel:2:1\""), "{html}");
    l.act("b:sel:2:1");
    assert!(l.html().contains("data-act=\"b:to:1:1\""), "{}", l.html());
    l.act("b:to:1:1");
    assert_eq!(
        ends.borrow().sent.last(),
        Some(&ClientMessage::Move {
            game: 3,
            seq: 2,
            mv: "b3j".into()
        })
    );
    // Resign asks first.
    l.act("ol:resign");
    assert!(l.html().contains("Resign this game?"));
    l.act("ol:yes");
    assert_eq!(
        ends.borrow().sent.last(),
        Some(&ClientMessage::Resign { game: 3 })
    );
    hear(
        &mut l,
        &ends,
        ServerMessage::Event {
            game: 3,
            event: Event {
                n: 3,
                kind: EventKind::Ended {
                    winner: Some(Side::Black),
                    reason: parlor_online::protocol::EndReason::Resignation,
                    position: String::new(),
                    clocks: None,
                    ratings: None,
                },
            },
        },
    );
    let html = l.html();
    assert!(html.contains("Ann (black) wins: resignation"), "{html}");
    assert!(html.contains("data-act=\"ol:rematch\""), "{html}");
    assert!(!html.contains("ol:resign"), "{html}");
    l.act("ol:lobby");
    let html = l.html();
    assert!(html.contains("<h2>Your games</h2>"), "{html}");
    assert!(html.contains("data-act=\"ol:open:3\""), "{html}");
    assert_eq!(l.act("ol:menu"), Go::Menu);
}

#[test]
fn a_spectator_sees_the_board_without_acting_and_players_away_are_counted_down() {
    let (mut l, ends) = connected("cy");
    hear(&mut l, &ends, started(1, "ann", "bob"));
    let html = l.html();
    assert!(html.contains("▶ ann (black, 1500)"), "{html}");
    assert!(
        !html.contains("<button type=\"button\" class=\"sq"),
        "{html}"
    );
    assert!(!html.contains("ol:resign") && !html.contains("ol:rematch"));
    assert_eq!(
        l.act("b:sel:0:0"),
        Go::Stay,
        "a tap on the board of a game watched"
    );
    assert!(
        l.html().contains("You are watching this game"),
        "{}",
        l.html()
    );
    hear(
        &mut l,
        &ends,
        ServerMessage::Away {
            game: 3,
            side: Side::White,
            name: "bob".into(),
            grace_ms: 60_000,
        },
    );
    assert!(
        l.html().contains("Bob (white) away, 60 s left"),
        "{}",
        l.html()
    );
    hear(
        &mut l,
        &ends,
        ServerMessage::Back {
            game: 3,
            side: Side::White,
            name: "bob".into(),
        },
    );
    let html = l.html();
    assert!(!html.contains("id=\"away\""), "{html}");
    assert!(html.contains("game 3: bob (white) back"), "{html}");
}

#[test]
fn the_challenge_form_and_the_queue_send_the_boards_and_clocks_chosen() {
    let (mut l, ends) = connected("ann");
    let html = l.html();
    assert!(html.contains("<span>Opponent</span><input"), "{html}");
    assert!(html.contains("<option value=\"6x5\" selected>"), "{html}");
    l.act("ol:challenge");
    assert!(
        l.html()
            .contains("Type the name of the player to challenge")
    );
    l.set("online:opponent", "bob");
    assert!(l.set("online:board", "3x3"));
    assert!(l.set("online:clock", "5+3"));
    l.act("ol:challenge");
    assert_eq!(
        ends.borrow().sent.last(),
        Some(&ClientMessage::Challenge {
            opponent: "bob".into(),
            board: "3x3".into(),
            clock: Some(parlor_online::protocol::TimeControl {
                minutes: 5,
                increment_secs: 3
            }),
            rated: false,
        })
    );
    l.act("ol:queue");
    assert!(matches!(
        ends.borrow().sent.last(),
        Some(ClientMessage::Queue { board, .. }) if board == "3x3"
    ));
    l.act("ol:unqueue");
    assert_eq!(ends.borrow().sent.last(), Some(&ClientMessage::Unqueue {}));
}

#[test]
fn a_game_is_played_by_the_boards_keys_and_the_screens_keys_resign_and_go_back() {
    let (mut l, ends) = connected("bob");
    hear(&mut l, &ends, started(1, "bob", "ann"));
    // The cursor starts in the middle of the player's home row: Enter selects b1, 8 steps it forward.
    assert_eq!(l.key("Enter"), Some(Go::Stay));
    assert!(l.html().contains("b1 selected"), "{}", l.html());
    assert_eq!(l.key("8"), Some(Go::Stay));
    assert_eq!(
        ends.borrow().sent.last(),
        Some(&ClientMessage::Move {
            game: 3,
            seq: 1,
            mv: "b1k".into()
        })
    );
    assert_eq!(l.key("x"), Some(Go::Stay));
    assert!(l.html().contains("Resign this game?"));
    assert_eq!(l.key("n"), Some(Go::Stay));
    assert!(!l.html().contains("Resign this game?"));
    assert_eq!(l.key("Escape"), Some(Go::Stay));
    assert!(
        l.html().contains("<h2>Your games</h2>"),
        "back to the lobby"
    );
    assert_eq!(
        l.key("PageDown"),
        None,
        "the browser's own keys stay its own"
    );
    assert_eq!(l.key("Escape"), Some(Go::Menu));
    assert!(ends.borrow().quit);
}
