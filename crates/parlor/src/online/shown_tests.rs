use super::*;
use crate::online::conn::Down;
use parlor_online::protocol::{Event, EventKind, PlayerInfo, Rating, ServerMessage};

fn model(me: &str) -> Model {
    let mut m = Model::new(me, crate::registry::online());
    m.apply(Down::Connected);
    m
}

fn started(m: &mut Model, id: u64, black: &str, white: &str) {
    m.apply(Down::Message(ServerMessage::Event {
        game: id,
        event: Event {
            n: 1,
            kind: EventKind::Started {
                black: black.into(),
                white: white.into(),
                board: "3x3".into(),
                clock: None,
                rated: false,
                black_rating: Rating::NEW,
                white_rating: Rating::NEW,
                rematch_of: None,
                clocks: None,
            },
        },
    }));
}

fn info(id: u64, from: &str, to: &str) -> ChallengeInfo {
    ChallengeInfo {
        challenge: id,
        from: from.into(),
        to: to.into(),
        board: "3x3".into(),
        clock: None,
        rated: false,
    }
}

#[test]
fn the_lobby_rows_come_in_their_sections_with_their_words() {
    let mut m = model("ann");
    m.apply(Down::Message(ServerMessage::Lobby {
        online: 2,
        players: vec![
            PlayerInfo {
                name: "ann".into(),
                rating: Rating::NEW,
                playing: false,
                queued: false,
            },
            PlayerInfo {
                name: "bob".into(),
                rating: Rating::NEW,
                playing: false,
                queued: true,
            },
        ],
        challenges: vec![info(7, "bob", "ann"), info(8, "ann", "cy")],
        games: Vec::new(),
        queue: None,
    }));
    let items = m.items();
    assert_eq!(
        items,
        [
            Item::Incoming(7),
            Item::Outgoing(8),
            Item::Player(0),
            Item::Player(1)
        ]
    );
    let sections: Vec<Section> = items.iter().map(|i| i.section()).collect();
    assert!(sections.is_sorted(), "{sections:?}");
    assert_eq!(
        m.item_text(Item::Incoming(7), 0),
        "bob challenges you on 3x3, untimed"
    );
    assert_eq!(
        m.item_text(Item::Outgoing(8), 0),
        "to cy on 3x3, untimed (waiting)"
    );
    assert_eq!(m.item_text(Item::Player(0), 0), "ann 1500 ±350 (you)");
    assert_eq!(
        m.item_text(Item::Player(1), 0),
        "bob 1500 ±350 · in the queue"
    );
    assert_eq!(
        m.item_text(Item::Player(9), 0),
        "",
        "a row gone says nothing"
    );
    // The game the accepted challenge made comes among the player's games, and the challenge goes.
    started(&mut m, 3, "bob", "ann");
    assert_eq!(m.items()[0], Item::Game(3));
    assert!(
        m.item_text(Item::Game(3), 0)
            .starts_with("game 3: bob (black) against ann (white) on 3x3"),
        "{}",
        m.item_text(Item::Game(3), 0)
    );
    assert!(m.item_text(Item::Game(3), 0).ends_with("· bob to move"));
}

#[test]
fn a_games_seat_status_and_move_follow_whose_turn_it_is() {
    let mut m = model("ann");
    started(&mut m, 4, "ann", "bob");
    let g = m.current_game().unwrap();
    assert_eq!(g.seat().turn, Turn::Mine);
    assert_eq!(g.status_text(), "Game 4, move 1: your move");
    assert!(g.is_to_move(Side::Black) && !g.is_to_move(Side::White));
    assert_eq!(
        g.move_message("a1k".into()),
        ClientMessage::Move {
            game: 4,
            seq: 1,
            mv: "a1k".into()
        }
    );
    m.apply(Down::Message(ServerMessage::Event {
        game: 4,
        event: Event {
            n: 2,
            kind: EventKind::Moved {
                by: Side::Black,
                ply: 1,
                mv: "a1k".into(),
                clocks: None,
            },
        },
    }));
    let g = m.current_game().unwrap();
    assert_eq!(g.seat().turn, Turn::Theirs("bob".into()));
    assert_eq!(g.status_text(), "Game 4, move 2: waiting for bob");
    // A game watched: nobody's seat.
    started(&mut m, 5, "cy", "dee");
    assert_eq!(m.current_game().unwrap().seat().turn, Turn::Watching);
}

#[test]
fn the_connection_line_says_why_it_is_not_up() {
    let mut m = Model::new("ann", crate::registry::online());
    assert_eq!(m.connection_text().as_deref(), Some("Connecting..."));
    let lost = |m: &mut Model, why: &str| {
        m.apply(Down::Lost {
            why: why.into(),
            retry_ms: 250,
        });
        m.connection_text()
    };
    assert_eq!(
        lost(&mut m, "the connection failed").as_deref(),
        Some("The server cannot be reached (the connection failed): trying again…")
    );
    m.apply(Down::Connected);
    assert_eq!(m.connection_text(), None);
    assert_eq!(
        lost(&mut m, "reset").as_deref(),
        Some("Connection lost (reset): reconnecting… (your games wait for you)")
    );
    m.apply(Down::Refused("name taken".into()));
    assert_eq!(
        m.connection_text().as_deref(),
        Some("Refused by the server: name taken")
    );
}
