//! Every message survives writing and reading; everything else is refused with the error that says why.

use parlor_online::protocol::{
    Board, ChallengeInfo, ClientMessage, Clocks, Daily, EndReason, ErrorCode, Event, EventKind,
    GameInPlay, GameRecord, GameSummary, LeaderEntry, LiveGame, MAX_MESSAGE_BYTES,
    MAX_SERVER_MESSAGE_BYTES, MAX_SUBMIT_BYTES, MoveTime, ParseError, PlayerInfo, QueueEntry,
    RECORD_FORMAT, Rating, RatingChange, RatingChanges, ScoredGuess, ServerMessage, Side, Tile,
    TimeControl, actions_to_letters, check_name, check_token, letters_to_actions,
};
use proptest::prelude::*;

const TEXT: &str = "\\PC{0,24}";

fn clock() -> impl Strategy<Value = Option<TimeControl>> {
    proptest::option::of(
        (any::<u32>(), any::<u32>()).prop_map(|(minutes, increment_secs)| TimeControl {
            minutes,
            increment_secs,
        }),
    )
}

fn daily() -> impl Strategy<Value = Daily> {
    prop_oneof![Just(Daily::Twenty48), Just(Daily::Mastermind)]
}

fn board() -> impl Strategy<Value = Board> {
    prop_oneof![Just(Board::Plain), Just(Board::Assisted)]
}

fn client_message() -> impl Strategy<Value = ClientMessage> {
    prop_oneof![
        (TEXT, TEXT).prop_map(|(name, token)| ClientMessage::Hello { name, token }),
        any::<bool>().prop_map(|follow| ClientMessage::Lobby { follow }),
        (TEXT, TEXT, clock(), any::<bool>()).prop_map(|(opponent, board, clock, rated)| {
            ClientMessage::Challenge {
                opponent,
                board,
                clock,
                rated,
            }
        }),
        any::<u64>().prop_map(|challenge| ClientMessage::Accept { challenge }),
        any::<u64>().prop_map(|challenge| ClientMessage::Decline { challenge }),
        any::<u64>().prop_map(|challenge| ClientMessage::Cancel { challenge }),
        (TEXT, clock()).prop_map(|(board, clock)| ClientMessage::Queue { board, clock }),
        Just(ClientMessage::Unqueue {}),
        (any::<u64>(), any::<u64>(), TEXT).prop_map(|(game, seq, mv)| ClientMessage::Move {
            game,
            seq,
            mv
        }),
        (any::<u64>(), any::<u64>()).prop_map(|(game, event)| ClientMessage::Ack { game, event }),
        any::<u64>().prop_map(|game| ClientMessage::Resign { game }),
        (any::<u64>(), any::<u64>())
            .prop_map(|(game, after)| ClientMessage::Resume { game, after }),
        any::<u64>().prop_map(|game| ClientMessage::Rematch { game }),
        any::<u64>().prop_map(|game| ClientMessage::DeclineRematch { game }),
        (any::<u64>(), any::<u64>()).prop_map(|(game, after)| ClientMessage::Watch { game, after }),
        any::<u64>().prop_map(|game| ClientMessage::Unwatch { game }),
        any::<u64>().prop_map(|game| ClientMessage::Record { game }),
        TEXT.prop_map(|player| ClientMessage::Games { player }),
        Just(ClientMessage::Daily2048 {}),
        Just(ClientMessage::Ping {}),
        (
            TEXT,
            "[udlrz]{0,300}",
            any::<u64>(),
            any::<bool>(),
            any::<bool>()
        )
            .prop_map(
                |(day, actions, score, hints, undo)| ClientMessage::Submit2048 {
                    day,
                    actions,
                    score,
                    hints,
                    undo
                }
            ),
        Just(ClientMessage::DailyMastermind {}),
        Just(ClientMessage::Ranked2048 {}),
        TEXT.prop_map(|name| ClientMessage::Register { name }),
        (TEXT, any::<u64>(), "[udlr]").prop_map(|(day, n, dir)| ClientMessage::Slide2048 {
            day,
            n,
            dir
        }),
        (TEXT, any::<u32>(), TEXT).prop_map(|(day, n, code)| ClientMessage::Guess { day, n, code }),
        (daily(), proptest::option::of(TEXT), board())
            .prop_map(|(daily, day, board)| { ClientMessage::Leaderboard { daily, day, board } }),
        TEXT.prop_map(|day| ClientMessage::PastDay { day }),
    ]
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Black), Just(Side::White)]
}

fn reason() -> impl Strategy<Value = EndReason> {
    proptest::sample::select(EndReason::ALL.to_vec())
}

fn rating() -> impl Strategy<Value = Rating> {
    (any::<i32>(), any::<u32>()).prop_map(|(rating, deviation)| Rating { rating, deviation })
}

fn clocks() -> impl Strategy<Value = Option<Clocks>> {
    proptest::option::of(
        (any::<u64>(), any::<u64>(), proptest::option::of(side())).prop_map(
            |(black_ms, white_ms, running)| Clocks {
                black_ms,
                white_ms,
                running,
            },
        ),
    )
}

fn changes() -> impl Strategy<Value = Option<RatingChanges>> {
    proptest::option::of(
        (rating(), rating(), rating(), rating()).prop_map(|(a, b, c, d)| RatingChanges {
            black: RatingChange {
                before: a,
                after: b,
            },
            white: RatingChange {
                before: c,
                after: d,
            },
        }),
    )
}

fn event_kind() -> impl Strategy<Value = EventKind> {
    prop_oneof![
        (
            (TEXT, TEXT, TEXT),
            clock(),
            any::<bool>(),
            (rating(), rating()),
            proptest::option::of(any::<u64>()),
            clocks()
        )
            .prop_map(
                |((black, white, board), clock, rated, (br, wr), rematch_of, clocks)| {
                    EventKind::Started {
                        black,
                        white,
                        board,
                        clock,
                        rated,
                        black_rating: br,
                        white_rating: wr,
                        rematch_of,
                        clocks,
                    }
                }
            ),
        (side(), any::<u32>(), TEXT, clocks()).prop_map(|(by, ply, mv, clocks)| {
            EventKind::Moved {
                by,
                ply,
                mv,
                clocks,
            }
        }),
        (
            proptest::option::of(side()),
            reason(),
            TEXT,
            clocks(),
            changes()
        )
            .prop_map(|(winner, reason, position, clocks, ratings)| {
                EventKind::Ended {
                    winner,
                    reason,
                    position,
                    clocks,
                    ratings,
                }
            }),
    ]
}

fn challenge_info() -> impl Strategy<Value = ChallengeInfo> {
    (any::<u64>(), TEXT, TEXT, TEXT, clock(), any::<bool>()).prop_map(
        |(challenge, from, to, board, clock, rated)| ChallengeInfo {
            challenge,
            from,
            to,
            board,
            clock,
            rated,
        },
    )
}

fn queue_entry() -> impl Strategy<Value = QueueEntry> {
    (TEXT, clock(), any::<u64>(), any::<u32>()).prop_map(|(board, clock, waited_ms, band)| {
        QueueEntry {
            board,
            clock,
            waited_ms,
            band,
        }
    })
}

fn scored_guess() -> impl Strategy<Value = ScoredGuess> {
    (any::<u32>(), TEXT, any::<u8>(), any::<u8>()).prop_map(|(n, code, black, white)| ScoredGuess {
        n,
        code,
        black,
        white,
    })
}

fn lobby() -> impl Strategy<Value = ServerMessage> {
    let player = (TEXT, rating(), any::<bool>(), any::<bool>()).prop_map(
        |(name, rating, playing, queued)| PlayerInfo {
            name,
            rating,
            playing,
            queued,
        },
    );
    let live = (
        (any::<u64>(), TEXT, TEXT, TEXT),
        clock(),
        any::<bool>(),
        any::<u32>(),
        any::<u32>(),
    )
        .prop_map(
            |((game, black, white, board), clock, rated, ply, spectators)| LiveGame {
                game,
                black,
                white,
                board,
                clock,
                rated,
                ply,
                spectators,
            },
        );
    (
        any::<u32>(),
        proptest::collection::vec(player, 0..3),
        proptest::collection::vec(challenge_info(), 0..3),
        proptest::collection::vec(live, 0..3),
        proptest::option::of(queue_entry()),
    )
        .prop_map(
            |(online, players, challenges, games, queue)| ServerMessage::Lobby {
                online,
                players,
                challenges,
                games,
                queue,
            },
        )
}

/// Each move's time in a record, or none (an older server's record, or a game kept before times were).
fn times() -> impl Strategy<Value = Option<Vec<MoveTime>>> {
    proptest::option::of(proptest::collection::vec(
        (
            any::<u64>(),
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
        )
            .prop_map(|(spent_ms, black_ms, white_ms)| MoveTime {
                spent_ms,
                black_ms,
                white_ms,
            }),
        0..4,
    ))
}

fn record() -> impl Strategy<Value = ServerMessage> {
    (
        (any::<u64>(), TEXT, TEXT, TEXT),
        (clock(), any::<bool>(), TEXT),
        (proptest::option::of(side()), reason(), TEXT),
        (any::<u64>(), any::<u64>(), changes(), times()),
    )
        .prop_map(
            |(
                (game, black, white, board),
                (clock, rated, moves),
                (winner, reason, position),
                (started_ms, ended_ms, ratings, times),
            )| ServerMessage::Record {
                record: GameRecord {
                    format: RECORD_FORMAT,
                    game,
                    black,
                    white,
                    board,
                    clock,
                    rated,
                    moves,
                    winner,
                    reason,
                    position,
                    started_ms,
                    ended_ms,
                    ratings,
                    times,
                },
            },
        )
}

fn lists() -> impl Strategy<Value = ServerMessage> {
    let summary = (
        (any::<u64>(), TEXT, TEXT, TEXT),
        any::<bool>(),
        proptest::option::of(side()),
        reason(),
        any::<u64>(),
    )
        .prop_map(
            |((game, black, white, board), rated, winner, reason, ended_ms)| GameSummary {
                game,
                black,
                white,
                board,
                rated,
                winner,
                reason,
                ended_ms,
            },
        );
    let entry = (
        any::<u32>(),
        TEXT,
        any::<u64>(),
        proptest::option::of(any::<u64>()),
        any::<u64>(),
    )
        .prop_map(|(rank, name, score, max_tile, detail)| LeaderEntry {
            rank,
            name,
            score,
            max_tile,
            detail,
        });
    prop_oneof![
        (TEXT, proptest::collection::vec(summary, 0..3))
            .prop_map(|(player, games)| ServerMessage::Games { player, games }),
        (
            daily(),
            TEXT,
            board(),
            proptest::collection::vec(entry, 0..3)
        )
            .prop_map(|(daily, day, board, entries)| ServerMessage::Leaderboard {
                daily,
                day,
                board,
                entries
            }),
    ]
}

fn dailies() -> impl Strategy<Value = ServerMessage> {
    prop_oneof![
        (TEXT, any::<u64>()).prop_map(|(day, seed)| ServerMessage::Daily2048 { day, seed }),
        (TEXT, TEXT).prop_map(|(name, token)| ServerMessage::Registered { name, token }),
        (
            (TEXT, any::<u64>(), "[udlr]{0,8}", any::<u64>()),
            (TEXT, TEXT, proptest::collection::vec(scored_guess(), 0..3))
        )
            .prop_map(
                |((day, seed_2048, slides, score), (variant, secret, guesses))| {
                    ServerMessage::PastDay {
                        day,
                        seed_2048,
                        slides,
                        score,
                        variant,
                        secret,
                        guesses,
                    }
                }
            ),
        (
            (TEXT, any::<u64>(), TEXT, any::<u64>()),
            proptest::option::of((any::<u32>(), any::<u32>(), any::<u64>())),
            any::<bool>(),
            proptest::option::of(any::<u32>())
        )
            .prop_map(|((day, moves, board, score), tile, over, rank)| {
                ServerMessage::Dealt2048 {
                    day,
                    moves,
                    board,
                    score,
                    tile: tile.map(|(row, col, value)| Tile { row, col, value }),
                    over,
                    rank,
                }
            }),
        (
            TEXT,
            board(),
            any::<u64>(),
            any::<u64>(),
            any::<u64>(),
            any::<u32>()
        )
            .prop_map(|(day, board, score, max_tile, moves, rank)| {
                ServerMessage::Scored2048 {
                    day,
                    board,
                    score,
                    max_tile,
                    moves,
                    rank,
                }
            }),
        (
            TEXT,
            TEXT,
            proptest::collection::vec(scored_guess(), 0..4),
            any::<bool>(),
            any::<bool>()
        )
            .prop_map(|(day, variant, guesses, solved, over)| {
                ServerMessage::DailyMastermind {
                    day,
                    variant,
                    guesses,
                    solved,
                    over,
                }
            }),
        (TEXT, scored_guess(), any::<bool>(), any::<u32>()).prop_map(
            |(day, guess, solved, left)| ServerMessage::GuessScored {
                day,
                guess,
                solved,
                left
            }
        ),
    ]
}

fn server_message() -> impl Strategy<Value = ServerMessage> {
    prop_oneof![
        (
            TEXT,
            rating(),
            proptest::collection::vec((any::<u64>(), side(), TEXT, any::<u64>()), 0..4)
        )
            .prop_map(|(name, rating, games)| ServerMessage::Welcome {
                name,
                rating,
                games: games
                    .into_iter()
                    .map(|(game, side, opponent, last_event)| GameInPlay {
                        game,
                        side,
                        opponent,
                        last_event
                    })
                    .collect()
            }),
        lobby(),
        challenge_info().prop_map(|challenge| ServerMessage::Challenged { challenge }),
        challenge_info().prop_map(|challenge| ServerMessage::ChallengeSent { challenge }),
        (any::<u64>(), TEXT)
            .prop_map(|(challenge, reason)| ServerMessage::ChallengeClosed { challenge, reason }),
        queue_entry().prop_map(|entry| ServerMessage::Queued { entry }),
        Just(ServerMessage::Unqueued {}),
        Just(ServerMessage::Pong {}),
        (any::<u64>(), any::<u64>(), event_kind()).prop_map(|(game, n, kind)| {
            ServerMessage::Event {
                game,
                event: Event { n, kind },
            }
        }),
        (any::<u64>(), TEXT).prop_map(|(game, from)| ServerMessage::RematchOffered { game, from }),
        any::<u64>().prop_map(|game| ServerMessage::RematchDeclined { game }),
        (any::<u64>(), side(), TEXT, any::<u64>()).prop_map(|(game, side, name, grace_ms)| {
            ServerMessage::Away {
                game,
                side,
                name,
                grace_ms,
            }
        }),
        (any::<u64>(), side(), TEXT).prop_map(|(game, side, name)| ServerMessage::Back {
            game,
            side,
            name
        }),
        (any::<u64>(), any::<u64>())
            .prop_map(|(game, last_event)| ServerMessage::Watching { game, last_event }),
        any::<u64>().prop_map(|game| ServerMessage::Unwatched { game }),
        record(),
        lists(),
        dailies(),
        (TEXT, proptest::option::of(any::<u64>())).prop_map(|(message, game)| {
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
        prop_assert!(text.starts_with(r#"{"v":2,"type":""#), "{}", text);
        prop_assert_eq!(ClientMessage::parse(&text), Ok(msg));
    }

    #[test]
    fn server_messages_round_trip(msg in server_message()) {
        let text = msg.to_text();
        prop_assert!(text.starts_with(r#"{"v":2,"type":""#), "{}", text);
        prop_assert_eq!(ServerMessage::parse(&text), Ok(msg));
    }

    /// Any text at all is parsed or refused, never a panic; what parses writes back to an equal message.
    #[test]
    fn any_text_is_parsed_or_refused(text in "\\PC{0,200}") {
        if let Ok(msg) = ClientMessage::parse(&text) {
            prop_assert_eq!(ClientMessage::parse(&msg.to_text()), Ok(msg));
        }
        if let Ok(msg) = ServerMessage::parse(&text) {
            prop_assert_eq!(ServerMessage::parse(&msg.to_text()), Ok(msg));
        }
    }

    /// Text shaped like a message (the right version and a known type, with fields of any kind) is never a panic.
    #[test]
    fn near_messages_are_parsed_or_refused(
        kind in proptest::sample::select(vec![
            "hello", "lobby", "challenge", "queue", "unqueue", "move", "watch", "submit_2048", "guess",
            "leaderboard", "daily_2048", "scored_2048", "event", "welcome", "error",
        ]),
        field in "[a-z_]{1,12}",
        value in prop_oneof![
            Just("null".to_string()), Just("-1".to_string()), Just("1e400".to_string()),
            Just("{}".to_string()), Just("[]".to_string()), Just("true".to_string()),
            "\\PC{0,10}".prop_map(|s| serde_json::to_string(&s).unwrap()),
        ],
    ) {
        let text = format!(r#"{{"v":2,"type":"{kind}","{field}":{value}}}"#);
        let _ = ClientMessage::parse(&text);
        let _ = ServerMessage::parse(&text);
    }

    #[test]
    fn actions_round_trip_as_letters(letters in "[udlrz]{0,200}") {
        let actions = letters_to_actions(&letters).unwrap();
        prop_assert_eq!(actions.len(), letters.len());
        prop_assert_eq!(actions_to_letters(&actions), letters);
    }
}

#[test]
fn a_move_reads_as_documented() {
    assert_eq!(
        ClientMessage::parse(r#"{"v":2,"type":"move","game":3,"seq":9,"mv":"c1k"}"#),
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
                clocks: Some(Clocks {
                    black_ms: 300_000,
                    white_ms: 298_500,
                    running: Some(Side::White),
                }),
            },
        },
    };
    assert_eq!(
        event.to_text(),
        r#"{"v":2,"type":"event","game":3,"event":{"n":2,"kind":"moved","by":"black","ply":1,"mv":"c1k","clocks":{"black_ms":300000,"white_ms":298500,"running":"white"}}}"#
    );
}

#[test]
fn optional_fields_may_be_left_out() {
    assert_eq!(
        ClientMessage::parse(r#"{"v":2,"type":"challenge","opponent":"bob","board":"6x5"}"#),
        Ok(ClientMessage::Challenge {
            opponent: "bob".into(),
            board: "6x5".into(),
            clock: None,
            rated: false
        })
    );
    assert_eq!(
        ClientMessage::parse(
            r#"{"v":2,"type":"challenge","opponent":"bob","board":"6x5","clock":{"minutes":5,"increment_secs":3},"rated":true}"#
        ),
        Ok(ClientMessage::Challenge {
            opponent: "bob".into(),
            board: "6x5".into(),
            clock: Some(TimeControl {
                minutes: 5,
                increment_secs: 3
            }),
            rated: true
        })
    );
    assert_eq!(
        ClientMessage::parse(r#"{"v":2,"type":"lobby"}"#),
        Ok(ClientMessage::Lobby { follow: false })
    );
    assert_eq!(
        ClientMessage::parse(r#"{"v":2,"type":"unqueue"}"#),
        Ok(ClientMessage::Unqueue {})
    );
    assert_eq!(
        ClientMessage::parse(r#"{"v":2,"type":"leaderboard","daily":"twenty48"}"#),
        Ok(ClientMessage::Leaderboard {
            daily: Daily::Twenty48,
            day: None,
            board: Board::Plain
        })
    );
    assert_eq!(
        ClientMessage::Daily2048 {}.to_text(),
        r#"{"v":2,"type":"daily_2048"}"#
    );
    assert_eq!(
        ServerMessage::Unqueued {}.to_text(),
        r#"{"v":2,"type":"unqueued"}"#
    );
}

#[test]
fn refusals_say_why() {
    let big = format!(
        r#"{{"v":2,"type":"hello","name":"{}","token":"x"}}"#,
        "a".repeat(MAX_MESSAGE_BYTES)
    );
    type Expected = fn(&ParseError) -> bool;
    let table: [(&str, Expected); 15] = [
        (&big, |e| {
            matches!(e, ParseError::TooLarge(_, MAX_MESSAGE_BYTES))
        }),
        ("", |e| matches!(e, ParseError::NotJson(_))),
        ("{\"v\":2,", |e| matches!(e, ParseError::NotJson(_))),
        ("[1,2]", |e| matches!(e, ParseError::NotObject)),
        ("\"hello\"", |e| matches!(e, ParseError::NotObject)),
        (r#"{"type":"resign","game":1}"#, |e| {
            matches!(e, ParseError::NoVersion)
        }),
        (r#"{"v":"2","type":"resign","game":1}"#, |e| {
            matches!(e, ParseError::NoVersion)
        }),
        (r#"{"v":1,"type":"resign","game":1}"#, |e| {
            matches!(e, ParseError::Version(1))
        }),
        (r#"{"v":3,"type":"resign","game":1}"#, |e| {
            matches!(e, ParseError::Version(3))
        }),
        (r#"{"v":2,"type":"dance"}"#, |e| {
            matches!(e, ParseError::Invalid(_))
        }),
        (r#"{"v":2,"type":"resign"}"#, |e| {
            matches!(e, ParseError::Invalid(_))
        }),
        (r#"{"v":2,"type":"resign","game":-1}"#, |e| {
            matches!(e, ParseError::Invalid(_))
        }),
        (r#"{"v":2,"type":"resign","game":1,"extra":0}"#, |e| {
            matches!(e, ParseError::Invalid(_))
        }),
        (r#"{"v":2,"type":"unqueue","extra":0}"#, |e| {
            matches!(e, ParseError::Invalid(_))
        }),
        (
            r#"{"v":2,"type":"challenge","opponent":"b","board":"6x5","clock":{"minutes":5}}"#,
            |e| matches!(e, ParseError::Invalid(_)),
        ),
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
fn only_a_2048_submission_may_be_long() {
    let long = ClientMessage::Submit2048 {
        day: "2026-11-26".into(),
        actions: "udlr".repeat(5000),
        score: 20_000,
        hints: false,
        undo: false,
    };
    let text = long.to_text();
    assert!(text.len() > MAX_MESSAGE_BYTES);
    assert_eq!(ClientMessage::parse(&text), Ok(long));
    let too_long = ClientMessage::Submit2048 {
        day: "2026-11-26".into(),
        actions: "u".repeat(MAX_SUBMIT_BYTES),
        score: 0,
        hints: false,
        undo: false,
    }
    .to_text();
    assert_eq!(
        ClientMessage::parse(&too_long),
        Err(ParseError::TooLarge(too_long.len(), MAX_SUBMIT_BYTES))
    );
    // Another message padded past the common limit is refused even though a submission could be that long.
    let padded = format!(
        r#"{{"v":2,"type":"games","player":"{}"}}"#,
        "p".repeat(MAX_MESSAGE_BYTES)
    );
    assert_eq!(
        ClientMessage::parse(&padded),
        Err(ParseError::TooLarge(padded.len(), MAX_MESSAGE_BYTES))
    );
    // A server's message may be longer than a client's, up to its own limit.
    let games = ServerMessage::Games {
        player: "ann".into(),
        games: Vec::new(),
    };
    let mut text = games.to_text();
    assert_eq!(ServerMessage::parse(&text), Ok(games));
    text.push_str(&" ".repeat(MAX_SERVER_MESSAGE_BYTES));
    assert!(matches!(
        ServerMessage::parse(&text),
        Err(ParseError::TooLarge(_, MAX_SERVER_MESSAGE_BYTES))
    ));
}

#[test]
fn time_controls_read_and_check() {
    let tc: TimeControl = "5+3".parse().unwrap();
    assert_eq!(
        tc,
        TimeControl {
            minutes: 5,
            increment_secs: 3
        }
    );
    assert_eq!(tc.to_string(), "5+3");
    assert_eq!(tc.initial_ms(), 300_000);
    assert_eq!(tc.increment_ms(), 3_000);
    assert_eq!("10".parse::<TimeControl>().unwrap().increment_secs, 0);
    assert_eq!(" 0+2 ".parse::<TimeControl>().unwrap().minutes, 0);
    for bad in ["0+0", "5+", "+3", "five", "181+0", "5+181", "-1+3", "5+3+1"] {
        assert!(bad.parse::<TimeControl>().is_err(), "{bad:?}");
    }
}

#[test]
fn actions_letters_refuse_other_letters() {
    use twenty48::{Action, Direction};
    assert_eq!(
        letters_to_actions("ulz").unwrap(),
        vec![
            Action::Slide(Direction::Up),
            Action::Slide(Direction::Left),
            Action::Undo
        ]
    );
    let error = letters_to_actions("udx").unwrap_err();
    assert_eq!((error.position, error.letter), (3, 'x'));
    assert!(error.to_string().contains("action 3"), "{error}");
    assert!(letters_to_actions("u d").is_err());
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
    for r in EndReason::ALL {
        assert_eq!(EndReason::parse(r.as_str()), Some(r));
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            format!("\"{}\"", r.as_str())
        );
    }
    assert_eq!(EndReason::parse("boredom"), None);
}

#[test]
fn a_record_without_move_times_reads_as_none_and_times_round_trip() {
    // A record as a server before session 15 wrote it: no `times`.
    let old = r#"{"v":2,"type":"record","record":{"game":7,"black":"ann","white":"bob","board":"4x4","clock":null,"rated":false,"moves":"b1k b4j","winner":"white","reason":"resignation","position":"x","started_ms":1,"ended_ms":2,"ratings":null}}"#;
    let ServerMessage::Record { record } = ServerMessage::parse(old).unwrap() else {
        panic!("not a record")
    };
    assert_eq!(record.times, None);
    // Written again, it has no `times` key: a record without times reads the same to an older client.
    assert!(
        !ServerMessage::Record {
            record: record.clone()
        }
        .to_text()
        .contains("times")
    );

    let timed = GameRecord {
        times: Some(vec![
            MoveTime {
                spent_ms: 1_200,
                black_ms: Some(300_000),
                white_ms: Some(300_000),
            },
            MoveTime {
                spent_ms: 800,
                black_ms: None,
                white_ms: None,
            },
        ]),
        ..record
    };
    let text = ServerMessage::Record {
        record: timed.clone(),
    }
    .to_text();
    assert!(
        text.contains(
            r#""times":[{"spent_ms":1200,"black_ms":300000,"white_ms":300000},{"spent_ms":800}]"#
        ),
        "{text}"
    );
    assert_eq!(
        ServerMessage::parse(&text).unwrap(),
        ServerMessage::Record { record: timed }
    );
}

/// A record as the server writes it now: format 1 (so no `format` key), with its moves' times.
fn timed_record() -> GameRecord {
    GameRecord {
        format: RECORD_FORMAT,
        game: 7,
        black: "ann".into(),
        white: "bob".into(),
        board: "4x4".into(),
        clock: Some(TimeControl {
            minutes: 5,
            increment_secs: 3,
        }),
        rated: false,
        moves: "b1k b4j".into(),
        winner: Some(Side::White),
        reason: EndReason::Resignation,
        position: "x".into(),
        started_ms: 1,
        ended_ms: 2,
        ratings: None,
        times: Some(vec![
            MoveTime {
                spent_ms: 900,
                black_ms: Some(300_000),
                white_ms: Some(300_000),
            },
            MoveTime {
                spent_ms: 1_100,
                black_ms: Some(300_000),
                white_ms: Some(300_000),
            },
        ]),
    }
}

#[test]
fn a_record_of_this_format_with_fields_this_client_does_not_know_is_read_without_them() {
    // A newer server's record of the same format: a field added to the record and one to each move's time.
    let newer = r#"{"v":2,"type":"record","record":{"format":1,"game":7,"black":"ann","white":"bob","board":"4x4","clock":{"minutes":5,"increment_secs":3},"rated":false,"moves":"b1k b4j","winner":"white","reason":"resignation","position":"x","started_ms":1,"ended_ms":2,"ratings":null,"draw_offers":[1],"times":[{"spent_ms":900,"black_ms":300000,"white_ms":300000,"think":"hard"},{"spent_ms":1100,"black_ms":300000,"white_ms":300000}]}}"#;
    assert_eq!(
        ServerMessage::parse(newer).unwrap(),
        ServerMessage::Record {
            record: timed_record()
        }
    );
    // Format 1 is written without its `format` key, so it reads the same as before the key existed.
    let text = ServerMessage::Record {
        record: timed_record(),
    }
    .to_text();
    assert!(!text.contains("format"), "{text}");
    // Every other message keeps the strict rule: an unknown field is refused.
    let welcome = r#"{"v":2,"type":"welcome","name":"ann","rating":{"rating":1500,"deviation":350},"games":[],"extra":1}"#;
    assert!(matches!(
        ServerMessage::parse(welcome),
        Err(ParseError::Invalid(_))
    ));
}

#[test]
fn a_record_of_a_newer_format_is_refused_with_a_clear_message() {
    // Format 2 might have renamed `moves`: the record is not read at all, but said to be newer.
    let newer = r#"{"v":2,"type":"record","record":{"format":2,"game":7,"black":"ann","white":"bob","plies":["b1k","b4j"]}}"#;
    let ServerMessage::Error {
        code,
        message,
        game,
    } = ServerMessage::parse(newer).unwrap()
    else {
        panic!("a newer record read as a record")
    };
    assert_eq!((code, game), (ErrorCode::Unsupported, Some(7)));
    assert_eq!(
        message,
        "game 7's record is of format 2, newer than this client reads (format 1): update Parlor to read it"
    );
    // A record that says format 1 or none is read as usual; one with a format that is not a number is malformed.
    let old = ServerMessage::Record {
        record: timed_record(),
    }
    .to_text();
    let said = old.replacen(r#""record":{"#, r#""record":{"format":1,"#, 1);
    assert_eq!(
        ServerMessage::parse(&said).unwrap(),
        ServerMessage::parse(&old).unwrap()
    );
    let odd = old.replacen(r#""record":{"#, r#""record":{"format":"two","#, 1);
    assert!(matches!(
        ServerMessage::parse(&odd),
        Err(ParseError::Invalid(_))
    ));
}

/// The record as a session-15 client reads it: every field it knew, unknown ones refused.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Session15Record {
    game: u64,
    black: String,
    white: String,
    board: String,
    clock: Option<TimeControl>,
    rated: bool,
    moves: String,
    winner: Option<Side>,
    reason: EndReason,
    position: String,
    started_ms: u64,
    ended_ms: u64,
    ratings: Option<RatingChanges>,
    #[serde(default)]
    times: Option<Vec<Session15MoveTime>>,
}

/// A move's time as a session-15 client reads it.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Session15MoveTime {
    spent_ms: u64,
    #[serde(default)]
    black_ms: Option<u64>,
    #[serde(default)]
    white_ms: Option<u64>,
}

#[test]
fn a_record_this_crate_writes_is_read_by_a_session_15_client() {
    let text = serde_json::to_string(&timed_record()).unwrap();
    let old: Session15Record = serde_json::from_str(&text).unwrap();
    assert_eq!((old.game, old.times.map(|t| t.len())), (7, Some(2)));
}

#[test]
fn a_player_away_and_back_are_written_as_the_protocol_says() {
    let away = ServerMessage::Away {
        game: 3,
        side: Side::White,
        name: "bob".into(),
        grace_ms: 60_000,
    };
    let text = away.to_text();
    assert_eq!(
        text,
        r#"{"v":2,"type":"away","game":3,"side":"white","name":"bob","grace_ms":60000}"#
    );
    assert_eq!(ServerMessage::parse(&text), Ok(away));
    let back = ServerMessage::Back {
        game: 3,
        side: Side::White,
        name: "bob".into(),
    };
    assert_eq!(
        back.to_text(),
        r#"{"v":2,"type":"back","game":3,"side":"white","name":"bob"}"#
    );
    // Its fields are required, as every message's are.
    assert!(ServerMessage::parse(r#"{"v":2,"type":"away","game":3,"side":"white"}"#).is_err());
}
