//! Every message survives writing and reading; everything else is refused with the error that says why.

use parlor_online::protocol::{
    ClientMessage, EndReason, ErrorCode, Event, EventKind, GameInPlay, MAX_MESSAGE_BYTES,
    ParseError, ServerMessage, Side, check_name, check_token,
};
use proptest::prelude::*;

fn client_message() -> impl Strategy<Value = ClientMessage> {
    let text = "\\PC{0,40}";
    prop_oneof![
        (text, text).prop_map(|(name, token)| ClientMessage::Hello { name, token }),
        (text, text).prop_map(|(opponent, board)| ClientMessage::Challenge { opponent, board }),
        any::<u64>().prop_map(|challenge| ClientMessage::Accept { challenge }),
        (any::<u64>(), any::<u64>(), text).prop_map(|(game, seq, mv)| ClientMessage::Move {
            game,
            seq,
            mv
        }),
        (any::<u64>(), any::<u64>()).prop_map(|(game, event)| ClientMessage::Ack { game, event }),
        any::<u64>().prop_map(|game| ClientMessage::Resign { game }),
        (any::<u64>(), any::<u64>())
            .prop_map(|(game, after)| ClientMessage::Resume { game, after }),
    ]
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Black), Just(Side::White)]
}

fn reason() -> impl Strategy<Value = EndReason> {
    prop_oneof![
        Just(EndReason::Goal),
        Just(EndReason::Blockade),
        Just(EndReason::Repetition),
        Just(EndReason::PlyCap),
        Just(EndReason::Resignation),
        Just(EndReason::Abandoned),
        Just(EndReason::Aborted),
    ]
}

fn server_message() -> impl Strategy<Value = ServerMessage> {
    let text = "\\PC{0,40}";
    let kind = prop_oneof![
        (text, text, text).prop_map(|(black, white, board)| EventKind::Started {
            black,
            white,
            board
        }),
        (side(), any::<u32>(), text).prop_map(|(by, ply, mv)| EventKind::Moved { by, ply, mv }),
        (proptest::option::of(side()), reason(), text).prop_map(|(winner, reason, position)| {
            EventKind::Ended {
                winner,
                reason,
                position,
            }
        }),
    ];
    prop_oneof![
        (
            text,
            proptest::collection::vec((any::<u64>(), side(), any::<u64>()), 0..4)
        )
            .prop_map(|(name, games)| ServerMessage::Welcome {
                name,
                games: games
                    .into_iter()
                    .map(|(game, side, last_event)| GameInPlay {
                        game,
                        side,
                        last_event
                    })
                    .collect()
            }),
        (any::<u64>(), text, text).prop_map(|(challenge, from, board)| {
            ServerMessage::Challenged {
                challenge,
                from,
                board,
            }
        }),
        (any::<u64>(), text, text).prop_map(|(challenge, to, board)| {
            ServerMessage::ChallengeSent {
                challenge,
                to,
                board,
            }
        }),
        (any::<u64>(), any::<u64>(), kind).prop_map(|(game, n, kind)| ServerMessage::Event {
            game,
            event: Event { n, kind }
        }),
        (text, proptest::option::of(any::<u64>())).prop_map(|(message, game)| {
            ServerMessage::Error {
                code: ErrorCode::IllegalMove,
                message,
                game,
            }
        }),
    ]
}

proptest! {
    #[test]
    fn client_messages_round_trip(msg in client_message()) {
        let text = msg.to_text();
        prop_assert!(text.starts_with(r#"{"v":1,"#), "{}", text);
        prop_assert_eq!(ClientMessage::parse(&text), Ok(msg));
    }

    #[test]
    fn server_messages_round_trip(msg in server_message()) {
        prop_assert_eq!(ServerMessage::parse(&msg.to_text()), Ok(msg));
    }

    /// Any text at all is parsed or refused, never a panic; what parses writes back to an equal message.
    #[test]
    fn any_text_is_parsed_or_refused(text in "\\PC{0,200}") {
        if let Ok(msg) = ClientMessage::parse(&text) {
            prop_assert_eq!(ClientMessage::parse(&msg.to_text()), Ok(msg));
        }
        let _ = ServerMessage::parse(&text);
    }
}

#[test]
fn a_move_reads_as_documented() {
    assert_eq!(
        ClientMessage::parse(r#"{"v":1,"type":"move","game":3,"seq":9,"mv":"c1k"}"#),
        Ok(ClientMessage::Move {
            game: 3,
            seq: 9,
            mv: "c1k".into()
        })
    );
    let event = ServerMessage::Event {
        game: 3,
        event: Event {
            n: 2,
            kind: EventKind::Moved {
                by: Side::Black,
                ply: 1,
                mv: "c1k".into(),
            },
        },
    };
    assert_eq!(
        event.to_text(),
        r#"{"v":1,"type":"event","game":3,"event":{"n":2,"kind":"moved","by":"black","ply":1,"mv":"c1k"}}"#
    );
}

#[test]
fn refusals_say_why() {
    let big = format!(
        r#"{{"v":1,"type":"hello","name":"{}","token":"x"}}"#,
        "a".repeat(MAX_MESSAGE_BYTES)
    );
    type Expected = fn(&ParseError) -> bool;
    let table: [(&str, Expected); 12] = [
        (&big, |e| matches!(e, ParseError::TooLarge(_))),
        ("", |e| matches!(e, ParseError::NotJson(_))),
        ("{\"v\":1,", |e| matches!(e, ParseError::NotJson(_))),
        ("[1,2]", |e| matches!(e, ParseError::NotObject)),
        ("\"hello\"", |e| matches!(e, ParseError::NotObject)),
        (r#"{"type":"resign","game":1}"#, |e| {
            matches!(e, ParseError::NoVersion)
        }),
        (r#"{"v":"1","type":"resign","game":1}"#, |e| {
            matches!(e, ParseError::NoVersion)
        }),
        (r#"{"v":2,"type":"resign","game":1}"#, |e| {
            matches!(e, ParseError::Version(2))
        }),
        (r#"{"v":1,"type":"dance"}"#, |e| {
            matches!(e, ParseError::Invalid(_))
        }),
        (r#"{"v":1,"type":"resign"}"#, |e| {
            matches!(e, ParseError::Invalid(_))
        }),
        (r#"{"v":1,"type":"resign","game":-1}"#, |e| {
            matches!(e, ParseError::Invalid(_))
        }),
        (r#"{"v":1,"type":"resign","game":1,"extra":0}"#, |e| {
            matches!(e, ParseError::Invalid(_))
        }),
    ];
    for (text, expected) in table {
        let error = ClientMessage::parse(text).expect_err(text);
        assert!(expected(&error), "{text:.60}: {error:?}");
        assert!(!error.to_string().is_empty());
    }
    assert_eq!(
        ClientMessage::parse(&big).map_err(|e| e.code()),
        Err(ErrorCode::TooLarge)
    );
    assert_eq!(
        ClientMessage::parse("[]").map_err(|e| e.code()),
        Err(ErrorCode::Malformed)
    );
}

#[test]
fn names_and_tokens() {
    assert!(check_name("ann_b-2").is_ok());
    for bad in ["", "a b", "ann!", "é", &"a".repeat(25)] {
        assert!(check_name(bad).is_err(), "{bad:?}");
    }
    assert!(check_token(&"t".repeat(16)).is_ok());
    for bad in ["short", &"t".repeat(129), "with a space in it!"] {
        assert!(check_token(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn reasons_are_written_and_read_back() {
    for r in [
        EndReason::Goal,
        EndReason::Blockade,
        EndReason::Repetition,
        EndReason::PlyCap,
        EndReason::Resignation,
        EndReason::Abandoned,
        EndReason::Aborted,
    ] {
        assert_eq!(EndReason::parse(r.as_str()), Some(r));
    }
    assert_eq!(EndReason::parse("boredom"), None);
}
