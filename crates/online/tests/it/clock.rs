//! Clocks and time controls in the referee, with time passed in: the first-move limit, the clocks' start after both
//! first moves, the increment, loss on time, a late move, the clocks while a player is gone, and rating changes.

use nocca::Dims;
use parlor_online::protocol::{
    Clocks, EndReason, EventKind, Rating, RatingChange, RatingChanges, Side, TimeControl,
};
use parlor_online::referee::{GameResult, Played, Room, Setup};

const GRACE: u64 = 60_000;
const FIRST: u64 = 20_000;

fn setup(clock: Option<TimeControl>, rated: bool) -> Setup {
    Setup {
        clock,
        rated,
        first_move_ms: FIRST,
        ..Setup::casual(Dims::STANDARD, "ann", "bob", GRACE)
    }
}

fn five_plus_three() -> Option<TimeControl> {
    Some(TimeControl {
        minutes: 5,
        increment_secs: 3,
    })
}

/// Plays `mv` at `now` and returns its events' kinds.
fn play_at(room: &mut Room, side: Side, seq: u64, mv: &str, now: u64) -> Vec<EventKind> {
    match room.play_at(side, seq, mv, now) {
        Ok(Played::Events(events)) => events.into_iter().map(|e| e.kind).collect(),
        other => panic!("{mv}: {other:?}"),
    }
}

fn clocks_of(kind: &EventKind) -> Option<Clocks> {
    match kind {
        EventKind::Started { clocks, .. }
        | EventKind::Moved { clocks, .. }
        | EventKind::Ended { clocks, .. } => *clocks,
    }
}

fn clocks(black_ms: u64, white_ms: u64, running: Option<Side>) -> Option<Clocks> {
    Some(Clocks {
        black_ms,
        white_ms,
        running,
    })
}

/// A 5+3 game started at 1,000 with both first moves made, at 11,000 and 21,000: Black's clock runs from 21,000.
fn timed_past_first_moves() -> Room {
    let mut room = Room::start(setup(five_plus_three(), false), 1_000);
    play_at(&mut room, Side::Black, 1, "c1k", 11_000);
    play_at(&mut room, Side::White, 1, "c6j", 21_000);
    room
}

#[test]
fn clocks_start_full_and_run_only_after_both_first_moves() {
    let mut room = Room::start(setup(five_plus_three(), false), 1_000);
    let start = &room.events_after(0)[0].kind;
    assert_eq!(clocks_of(start), clocks(300_000, 300_000, None));
    assert!(matches!(start, EventKind::Started { clock, .. } if *clock == five_plus_three()));
    // First moves take no time from the clocks and earn no increment.
    let black = play_at(&mut room, Side::Black, 1, "c1k", 11_000);
    assert_eq!(clocks_of(&black[0]), clocks(300_000, 300_000, None));
    let white = play_at(&mut room, Side::White, 1, "c6j", 21_000);
    assert_eq!(
        clocks_of(&white[0]),
        clocks(300_000, 300_000, Some(Side::Black))
    );
    // Black thinks 5 s and gets 3 back; then White 40 s and gets 3 back.
    let black = play_at(&mut room, Side::Black, 2, "d1k", 26_000);
    assert_eq!(
        clocks_of(&black[0]),
        clocks(298_000, 300_000, Some(Side::White))
    );
    assert_eq!(
        room.clocks_at(36_000),
        clocks(298_000, 290_000, Some(Side::White))
    );
    let white = play_at(&mut room, Side::White, 2, "d6j", 66_000);
    assert_eq!(
        clocks_of(&white[0]),
        clocks(298_000, 263_000, Some(Side::Black))
    );
    // Quick moves gain time: the increment is more than the move took.
    let black = play_at(&mut room, Side::Black, 3, "b1k", 67_000);
    assert_eq!(
        clocks_of(&black[0]),
        clocks(300_000, 263_000, Some(Side::White))
    );
}

#[test]
fn the_side_whose_clock_reaches_zero_loses_on_time() {
    let mut room = timed_past_first_moves();
    assert_eq!(room.deadline(), Some(321_000));
    assert_eq!(room.tick(320_999), None);
    let ended = room.tick(321_000).unwrap();
    assert_eq!(
        ended.kind,
        EventKind::Ended {
            winner: Some(Side::White),
            reason: EndReason::Time,
            position: room.position(),
            clocks: clocks(0, 300_000, None),
            ratings: None,
        }
    );
    assert_eq!(room.tick(400_000), None);
    assert_eq!(room.deadline(), None);
}

#[test]
fn a_move_after_the_flag_fell_is_not_played_and_ends_the_game() {
    let mut room = timed_past_first_moves();
    let kinds = play_at(&mut room, Side::Black, 2, "d1k", 400_000);
    assert_eq!(kinds.len(), 1);
    assert!(matches!(
        &kinds[0],
        EventKind::Ended {
            winner: Some(Side::White),
            reason: EndReason::Time,
            ..
        }
    ));
    assert_eq!(room.ply(), 2);
    assert_eq!(room.record(), "c1k c6j");
    // A move in time, a millisecond before the flag, is played.
    let mut room = timed_past_first_moves();
    let kinds = play_at(&mut room, Side::Black, 2, "d1k", 320_999);
    assert_eq!(
        clocks_of(&kinds[0]),
        clocks(3_001, 300_000, Some(Side::White))
    );
}

#[test]
fn a_first_move_not_made_in_time_aborts_the_game_timed_or_not() {
    for clock in [None, five_plus_three()] {
        // Black never moves.
        let mut room = Room::start(setup(clock, true), 1_000);
        assert_eq!(room.deadline(), Some(1_000 + FIRST));
        assert_eq!(room.tick(FIRST), None);
        let ended = room.tick(1_000 + FIRST).unwrap();
        assert!(matches!(
            ended.kind,
            EventKind::Ended {
                winner: None,
                reason: EndReason::Aborted,
                ..
            }
        ));
        // White never answers Black's first move: its limit counts from that move.
        let mut room = Room::start(setup(clock, true), 1_000);
        play_at(&mut room, Side::Black, 1, "c1k", 15_000);
        assert_eq!(room.tick(15_000 + FIRST - 1), None);
        assert_eq!(
            room.tick(15_000 + FIRST).map(|e| e.kind),
            Some(EventKind::Ended {
                winner: None,
                reason: EndReason::Aborted,
                position: room.position(),
                clocks: clock.map(|_| Clocks {
                    black_ms: 300_000,
                    white_ms: 300_000,
                    running: None
                }),
                ratings: None,
            })
        );
        // An aborted game changes no rating.
        assert_eq!(room.rate(changes()), None);
    }
}

#[test]
fn an_untimed_game_has_no_clocks_and_no_deadline_past_the_first_moves() {
    let mut room = Room::start(setup(None, false), 0);
    play_at(&mut room, Side::Black, 1, "c1k", 1_000);
    let white = play_at(&mut room, Side::White, 1, "c6j", 2_000);
    assert_eq!(clocks_of(&white[0]), None);
    assert_eq!(room.deadline(), None);
    assert_eq!(room.tick(u64::MAX / 2), None);
    let black = play_at(&mut room, Side::Black, 2, "d1k", 10_000_000);
    assert_eq!(black.len(), 1);
}

#[test]
fn a_gone_players_clock_keeps_running_and_the_earlier_of_flag_and_grace_decides() {
    // Black's clock (300 s) outlasts the grace period (60 s): Black loses as gone.
    let mut room = timed_past_first_moves();
    room.left(Side::Black, 30_000);
    assert_eq!(room.deadline(), Some(90_000));
    let ended = room.tick(90_000).unwrap();
    assert!(matches!(
        ended.kind,
        EventKind::Ended {
            winner: Some(Side::White),
            reason: EndReason::Abandoned,
            clocks: Some(Clocks {
                black_ms: 231_000,
                white_ms: 300_000,
                running: None
            }),
            ..
        }
    ));
    // With a 1+0 clock, Black's minute runs out before the grace period ends: Black loses on time.
    let one = Some(TimeControl {
        minutes: 1,
        increment_secs: 0,
    });
    let mut room = Room::start(setup(one, false), 0);
    play_at(&mut room, Side::Black, 1, "c1k", 1_000);
    play_at(&mut room, Side::White, 1, "c6j", 2_000);
    room.left(Side::Black, 30_000);
    assert_eq!(room.deadline(), Some(62_000));
    let ended = room.tick(95_000).unwrap();
    assert!(matches!(
        ended.kind,
        EventKind::Ended {
            winner: Some(Side::White),
            reason: EndReason::Time,
            ..
        }
    ));
    assert_eq!(
        room.result(),
        Some(GameResult {
            winner: Some(Side::White),
            reason: EndReason::Time
        })
    );
}

#[test]
fn a_base_of_zero_starts_with_one_increment() {
    let tc = Some(TimeControl {
        minutes: 0,
        increment_secs: 2,
    });
    let room = Room::start(setup(tc, false), 0);
    assert_eq!(
        clocks_of(&room.events_after(0)[0].kind),
        clocks(2_000, 2_000, None)
    );
}

fn changes() -> RatingChanges {
    let r = |rating, deviation| Rating { rating, deviation };
    RatingChanges {
        black: RatingChange {
            before: r(1500, 350),
            after: r(1662, 290),
        },
        white: RatingChange {
            before: r(1500, 350),
            after: r(1338, 290),
        },
    }
}

#[test]
fn a_rated_games_end_carries_the_rating_changes_once() {
    let mut room = Room::start(setup(None, true), 0);
    assert_eq!(room.rate(changes()), None, "not over yet");
    play_at(&mut room, Side::Black, 1, "c1k", 1);
    play_at(&mut room, Side::White, 1, "c6j", 2);
    room.resign(Side::White).unwrap();
    let rated = room.rate(changes()).unwrap();
    assert_eq!(rated.n, room.last_event());
    assert!(matches!(rated.kind, EventKind::Ended { ratings: Some(c), .. } if c == changes()));
    assert_eq!(room.events_after(rated.n - 1)[0], rated);
    assert_eq!(room.rate(changes()), None, "only once");

    let mut unrated = Room::start(setup(None, false), 0);
    play_at(&mut unrated, Side::Black, 1, "c1k", 1);
    play_at(&mut unrated, Side::White, 1, "c6j", 2);
    unrated.resign(Side::Black).unwrap();
    assert_eq!(unrated.rate(changes()), None);
}

#[test]
fn a_game_restored_after_a_restart_has_its_moves_clocks_and_sequence_numbers() {
    let mut room = timed_past_first_moves();
    play_at(&mut room, Side::Black, 2, "d1k", 31_000);
    let (moves, remaining, seqs) = (room.record(), room.remaining(), room.last_seqs());
    assert_eq!(remaining, [293_000, 300_000]);
    let mut back = Room::restore(room.setup().clone(), &moves, remaining, seqs, 5_000).unwrap();
    assert_eq!(back.last_event(), room.last_event());
    assert_eq!(back.record(), "c1k c6j d1k");
    // White's clock runs from the restart with what it had.
    assert_eq!(back.deadline(), Some(305_000));
    assert_eq!(
        back.clocks_at(15_000),
        clocks(293_000, 290_000, Some(Side::White))
    );
    // A move sent again from before the restart is still harmless.
    assert_eq!(
        back.play_at(Side::Black, 2, "d1k", 6_000),
        Ok(Played::AlreadyPlayed)
    );
    let kinds = play_at(&mut back, Side::White, 2, "d6j", 15_000);
    assert_eq!(
        clocks_of(&kinds[0]),
        clocks(293_000, 293_000, Some(Side::Black))
    );
    // Moves that do not replay are refused.
    assert!(Room::restore(room.setup().clone(), "c1k zz", remaining, seqs, 0).is_err());
}

#[test]
fn each_move_keeps_its_time_spent_and_both_clocks_after_it() {
    // 5+3 from 1,000; both first moves (no clock yet) at 11,000 and 21,000; Black's third ply at 31,000.
    let mut room = timed_past_first_moves();
    play_at(&mut room, Side::Black, 2, "d1k", 31_000);
    let times: Vec<(u64, Option<u64>, Option<u64>)> = room
        .times()
        .iter()
        .map(|t| (t.spent_ms, t.black_ms, t.white_ms))
        .collect();
    assert_eq!(
        times,
        [
            (10_000, Some(300_000), Some(300_000)),
            (10_000, Some(300_000), Some(300_000)),
            // 10 s spent, 3 s added.
            (10_000, Some(293_000), Some(300_000)),
        ]
    );
    // Untimed: the time spent, no clocks.
    let mut untimed = Room::start(setup(None, false), 0);
    play_at(&mut untimed, Side::Black, 1, "c1k", 4_500);
    assert_eq!(untimed.times()[0].spent_ms, 4_500);
    assert_eq!(
        (untimed.times()[0].black_ms, untimed.times()[0].white_ms),
        (None, None)
    );

    // Restored after a restart, the kept times are put back; the first move after it counts from the restart.
    let kept = room.times().to_vec();
    let mut back = Room::restore(
        room.setup().clone(),
        &room.record(),
        room.remaining(),
        room.last_seqs(),
        5_000,
    )
    .unwrap();
    assert!(!back.restore_times(&kept[..2]), "too few times are refused");
    assert!(back.restore_times(&kept));
    play_at(&mut back, Side::White, 2, "d6j", 7_000);
    assert_eq!(&back.times()[..3], &kept[..]);
    assert_eq!(back.times()[3].spent_ms, 2_000);
    assert_eq!(back.times()[3].white_ms, Some(301_000));
}

#[test]
fn a_finished_game_rebuilt_with_its_kept_times_has_the_events_it_was_played_with() {
    // Played with time passing: both first moves, then 4 s, 7 s and 2.5 s of thought; then a resignation.
    let mut room = Room::start(setup(five_plus_three(), false), 0);
    let mut now = 0;
    for (side, seq, mv, think) in [
        (Side::Black, 1, "c1k", 1_000),
        (Side::White, 1, "c6j", 3_000),
        (Side::Black, 2, "d1k", 4_000),
        (Side::White, 2, "d6j", 7_000),
        (Side::Black, 3, "b1k", 2_500),
    ] {
        now += think;
        play_at(&mut room, side, seq, mv, now);
    }
    room.resign(Side::White).unwrap();
    let result = room.result().unwrap();
    let kept = room.times().to_vec();
    let again = Room::replayed_from(
        setup(five_plus_three(), false),
        &room.record(),
        result,
        None,
        Some(&kept),
    )
    .unwrap();
    assert_eq!(again.events_after(0), room.events_after(0));
    assert_eq!(again.times(), &kept[..]);
    // Without the times (a game kept before they were), every move reads as taking no time.
    let bare = Room::replayed_from(
        setup(five_plus_three(), false),
        &room.record(),
        result,
        None,
        None,
    )
    .unwrap();
    assert_eq!(
        clocks_of(&bare.events_after(5)[0].kind),
        clocks(306_000, 303_000, Some(Side::White))
    );
    assert_eq!(
        clocks_of(&room.events_after(5)[0].kind),
        clocks(299_500, 296_000, Some(Side::White))
    );
    // Times that are not one a move are not used.
    let short = Room::replayed_from(
        setup(five_plus_three(), false),
        &room.record(),
        result,
        None,
        Some(&kept[..4]),
    )
    .unwrap();
    assert_eq!(short.events_after(0), bare.events_after(0));
}

#[test]
fn a_game_lost_on_time_is_rebuilt_with_the_losers_clock_at_zero() {
    let mut room = timed_past_first_moves();
    let deadline = room.deadline().unwrap();
    let ended = room.tick(deadline).unwrap();
    let kept = room.times().to_vec();
    let again = Room::replayed_from(
        setup(five_plus_three(), false),
        &room.record(),
        room.result().unwrap(),
        None,
        Some(&kept),
    )
    .unwrap();
    assert_eq!(again.events_after(0), room.events_after(0));
    assert!(matches!(
        clocks_of(&ended.kind),
        Some(Clocks { black_ms: 0, .. } | Clocks { white_ms: 0, .. })
    ));
}
