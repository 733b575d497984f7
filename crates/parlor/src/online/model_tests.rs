use super::*;
use parlor_online::protocol::Event;

fn model(me: &str) -> Model {
    Model::new(me, crate::registry::online())
}

fn ev(game: u64, n: u64, kind: EventKind) -> Down {
    Down::Message(ServerMessage::Event {
        game,
        event: Event { n, kind },
    })
}

#[test]
fn events_build_the_game_its_clocks_and_its_result() {
    let mut m = model("bob");
    m.apply(Down::Connected);
    let clocks = |b, w, running| Clocks {
        black_ms: b,
        white_ms: w,
        running,
    };
    let lines = m.apply(ev(
        3,
        1,
        EventKind::Started {
            black: "ann".into(),
            white: "bob".into(),
            board: "3x3".into(),
            clock: Some(TimeControl {
                minutes: 5,
                increment_secs: 3,
            }),
            rated: true,
            black_rating: Rating::NEW,
            white_rating: Rating::NEW,
            rematch_of: None,
            clocks: Some(clocks(300_000, 300_000, None)),
        },
    ));
    assert_eq!(
        lines[0],
        "game 3 started: ann (black) against bob (white) on 3x3, 5+3, rated"
    );
    assert_eq!(lines[1], "you play white");
    let g = m.current_game().unwrap();
    assert_eq!(g.side, Some(Side::White));
    assert!(!g.my_turn());
    assert_eq!(
        g.player_text(Side::Black, crate::host::clock().monotonic_ms()),
        "ann (black, 1500) 5:00"
    );
    let lines = m.apply(ev(
        3,
        2,
        EventKind::Moved {
            by: Side::Black,
            ply: 1,
            mv: "a1k".into(),
            clocks: Some(clocks(303_000, 300_000, Some(Side::White))),
        },
    ));
    assert_eq!(
        lines,
        ["game 3: move 1: ann (black) plays a1k (a1-a2) [5:03 left]"]
    );
    let g = m.current_game().unwrap();
    assert!(g.my_turn());
    assert_eq!(g.next_seq(), 2);
    // White's clock runs from the moment the event came.
    let later = crate::host::clock().monotonic_ms() + 2500;
    assert!(g.remaining(Side::White, later).unwrap() <= 297_500);
    assert_eq!(g.remaining(Side::Black, later), Some(303_000));
    let lines = m.apply(ev(
        3,
        3,
        EventKind::Ended {
            winner: Some(Side::White),
            reason: EndReason::Resignation,
            position: String::new(),
            clocks: None,
            ratings: None,
        },
    ));
    assert_eq!(
        lines,
        ["game 3 over: bob (white) wins: resignation (you won)"]
    );
}

#[test]
fn clocks_read_as_players_write_them() {
    assert_eq!(clock_text(245_000), "4:05");
    assert_eq!(clock_text(9_340), "0:09.3");
    assert_eq!(clock_text(3_700_000), "1:01:40");
}

#[test]
fn a_lost_connection_is_said_once_and_its_return_too() {
    let mut m = model("ann");
    assert_eq!(m.apply(Down::Connected), ["connected as ann"]);
    let lost = || Down::Lost {
        why: "reset".into(),
        retry_ms: 500,
    };
    assert_eq!(m.apply(lost()).len(), 1);
    assert!(m.apply(lost()).is_empty());
    assert!(!m.connected);
    assert_eq!(
        m.apply(Down::Connected),
        ["connection back: taking the games up where they were"]
    );
}
