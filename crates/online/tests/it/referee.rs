//! The referee: turns, legality, numbering, resent moves, resumption, and every way a game ends.

use nocca::Dims;
use parlor_online::protocol::{EndReason, EventKind, Rating, Side};
use parlor_online::referee::{GameResult, Played, RefereeError, Room};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

const GRACE: u64 = 30_000;

fn room() -> Room {
    Room::new(Dims::STANDARD, "ann", "bob", GRACE)
}

/// Plays `mv` for `side` and returns the new events' kinds.
fn play(room: &mut Room, side: Side, seq: u64, mv: &str) -> Vec<EventKind> {
    match room.play(side, seq, mv) {
        Ok(Played::Events(events)) => events.into_iter().map(|e| e.kind).collect(),
        other => panic!("{mv}: {other:?}"),
    }
}

#[test]
fn the_start_is_event_one() {
    let room = room();
    assert_eq!(room.last_event(), 1);
    assert_eq!(
        room.events_after(0)[0].kind,
        EventKind::Started {
            black: "ann".into(),
            white: "bob".into(),
            board: "6x5".into(),
            clock: None,
            rated: false,
            black_rating: Rating::NEW,
            white_rating: Rating::NEW,
            rematch_of: None,
            clocks: None,
        }
    );
    assert_eq!(room.side_of("bob"), Some(Side::White));
    assert_eq!(room.side_of("cat"), None);
    assert_eq!(room.result(), None);
}

#[test]
fn turns_and_legality_are_checked_and_refusals_change_nothing() {
    let mut room = room();
    assert_eq!(
        room.play(Side::White, 1, "c6j"),
        Err(RefereeError::NotYourTurn("black"))
    );
    assert!(matches!(
        room.play(Side::Black, 1, "zz"),
        Err(RefereeError::Unreadable { .. })
    ));
    // c1 steps backwards (k is forward for Black, so its reverse leaves the board behind the home row).
    assert!(matches!(
        room.play(Side::Black, 1, "c1j"),
        Err(RefereeError::Illegal { .. })
    ));
    assert_eq!(room.last_event(), 1);
    assert_eq!(room.ply(), 0);
    // A refused move does not take its sequence number: the same number plays a legal move.
    assert_eq!(
        play(&mut room, Side::Black, 1, "c1k"),
        vec![EventKind::Moved {
            by: Side::Black,
            ply: 1,
            mv: "c1k".into(),
            clocks: None,
        }]
    );
    assert_eq!(
        room.play(Side::Black, 2, "d1k"),
        Err(RefereeError::NotYourTurn("white"))
    );
    play(&mut room, Side::White, 1, "c6j");
    assert_eq!(room.record(), "c1k c6j");
    assert_eq!(room.last_event(), 3);
}

#[test]
fn a_resent_move_is_harmless() {
    let mut room = room();
    play(&mut room, Side::Black, 5, "c1k");
    assert_eq!(room.play(Side::Black, 5, "c1k"), Ok(Played::AlreadyPlayed));
    // An older number, even with another move, is taken as already played too.
    assert_eq!(room.play(Side::Black, 4, "d1k"), Ok(Played::AlreadyPlayed));
    assert_eq!(room.ply(), 1);
    assert_eq!(room.last_event(), 2);
    play(&mut room, Side::White, 1, "c6j");
    play(&mut room, Side::Black, 6, "d1k");
    assert_eq!(room.record(), "c1k c6j d1k");
}

#[test]
fn resuming_after_n_gives_exactly_the_events_after_n() {
    let mut room = room();
    play(&mut room, Side::Black, 1, "c1k");
    play(&mut room, Side::White, 1, "c6j");
    play(&mut room, Side::Black, 2, "d1k");
    let all = room.events_after(0);
    assert_eq!(
        all.iter().map(|e| e.n).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    for n in 0..=4 {
        let after = room.events_after(n);
        assert_eq!(after.len() as u64, 4 - n);
        assert!(after.iter().zip(n + 1..).all(|(e, k)| e.n == k));
    }
    assert!(room.events_after(99).is_empty());
    assert!(room.events_after(u64::MAX).is_empty());
}

#[test]
fn random_games_on_every_board_end_by_the_rules() {
    let mut rng = ChaCha8Rng::seed_from_u64(28);
    for rows in Dims::MIN_ROWS..=Dims::MAX_ROWS {
        for cols in Dims::MIN_COLS..=Dims::MAX_COLS {
            let dims = Dims::new(rows, cols).unwrap();
            for _ in 0..5 {
                let mut room = Room::new(dims, "ann", "bob", GRACE);
                let mut game = nocca::Game::new(dims, nocca::GameOptions::default());
                let mut seq = [0u64; 2];
                while !game.is_over() {
                    let moves = game.legal_moves();
                    let mv = moves[rng.next_u32() as usize % moves.len()];
                    let side = Side::from(game.side_to_move());
                    seq[side.index()] += 1;
                    let events = play(&mut room, side, seq[side.index()], &mv.to_string());
                    game.play(mv).unwrap();
                    assert_eq!(events.len(), if game.is_over() { 2 } else { 1 });
                }
                let outcome = game.outcome().unwrap();
                let expected = GameResult {
                    winner: outcome.winner.map(Side::from),
                    reason: outcome.reason.into(),
                };
                assert_eq!(room.result(), Some(expected), "{dims} {}", room.record());
                assert_eq!(room.record(), game.record());
                let last = room.events_after(room.last_event() - 1);
                assert_eq!(
                    last[0].kind,
                    EventKind::Ended {
                        winner: expected.winner,
                        reason: expected.reason,
                        position: game.position().to_string(),
                        clocks: None,
                        ratings: None,
                    }
                );
                assert_eq!(room.last_event(), game.ply() as u64 + 2);
                assert!(matches!(
                    room.play(Side::from(game.side_to_move()), 1_000, "a1k"),
                    Err(RefereeError::GameOver)
                ));
                assert_eq!(room.resign(Side::Black), Err(RefereeError::GameOver));
                let again = Room::replayed(dims, "ann", "bob", &room.record(), expected).unwrap();
                assert_eq!(again.events_after(0), room.events_after(0));
            }
        }
    }
}

#[test]
fn resigning() {
    let mut early = room();
    play(&mut early, Side::Black, 1, "c1k");
    let ended = early.resign(Side::White).unwrap();
    assert_eq!(ended.n, 3);
    assert_eq!(
        early.result(),
        Some(GameResult {
            winner: None,
            reason: EndReason::Aborted
        })
    );

    let mut late = room();
    play(&mut late, Side::Black, 1, "c1k");
    play(&mut late, Side::White, 1, "c6j");
    late.resign(Side::White).unwrap();
    assert_eq!(
        late.result(),
        Some(GameResult {
            winner: Some(Side::Black),
            reason: EndReason::Resignation
        })
    );
    assert_eq!(late.resign(Side::Black), Err(RefereeError::GameOver));
}

#[test]
fn a_seat_is_held_for_the_grace_period() {
    let mut room = room();
    play(&mut room, Side::Black, 1, "c1k");
    play(&mut room, Side::White, 1, "c6j");
    assert!(!room.is_away(Side::White));
    assert_eq!(room.grace_left(Side::White, 0), None);
    room.left(Side::White, 1_000);
    assert!(room.is_away(Side::White) && !room.is_away(Side::Black));
    assert_eq!(room.grace_left(Side::White, 1_400), Some(GRACE - 400));
    assert_eq!(room.grace_left(Side::White, u64::MAX), Some(0));
    assert_eq!(room.deadline(), Some(1_000 + GRACE));
    assert_eq!(room.tick(1_000 + GRACE - 1), None);
    room.returned(Side::White);
    assert!(!room.is_away(Side::White));
    assert_eq!(room.deadline(), None);
    assert_eq!(room.tick(1_000_000), None);
    // Gone again: the grace period counts from the new departure, and past it White loses.
    room.left(Side::White, 2_000_000);
    room.left(Side::White, 2_000_500);
    assert_eq!(room.tick(2_000_000 + GRACE - 1), None);
    let ended = room.tick(2_000_000 + GRACE).unwrap();
    assert_eq!(ended.n, 4);
    assert_eq!(
        room.result(),
        Some(GameResult {
            winner: Some(Side::Black),
            reason: EndReason::Abandoned
        })
    );
    assert_eq!(room.tick(u64::MAX), None);
    assert_eq!(room.last_event(), 4);
    // Once the game is over nobody is away in it.
    assert!(!room.is_away(Side::White));
}

#[test]
fn both_gone_the_first_to_leave_loses_and_before_the_first_moves_it_is_aborted() {
    let mut both = room();
    play(&mut both, Side::Black, 1, "c1k");
    play(&mut both, Side::White, 1, "c6j");
    both.left(Side::Black, 10);
    both.left(Side::White, 5);
    both.tick(u64::MAX).unwrap();
    assert_eq!(both.result().unwrap().winner, Some(Side::Black));

    let mut fresh = room();
    fresh.left(Side::Black, 0);
    fresh.tick(GRACE).unwrap();
    assert_eq!(
        fresh.result(),
        Some(GameResult {
            winner: None,
            reason: EndReason::Aborted
        })
    );
}

#[test]
fn a_kept_game_is_rebuilt_with_the_same_events_or_refused() {
    let mut room = room();
    play(&mut room, Side::Black, 1, "c1k");
    play(&mut room, Side::White, 1, "c6j");
    room.resign(Side::Black).unwrap();
    let result = room.result().unwrap();
    let again = Room::replayed(Dims::STANDARD, "ann", "bob", "c1k c6j", result).unwrap();
    assert_eq!(again.events_after(0), room.events_after(0));
    // A result the moves contradict, or moves that break the rules, are refused.
    let rules = GameResult {
        winner: Some(Side::White),
        reason: EndReason::Goal,
    };
    assert_eq!(
        Room::replayed(Dims::STANDARD, "ann", "bob", "c1k c6j", rules).err(),
        Some(RefereeError::Inconsistent)
    );
    assert!(matches!(
        Room::replayed(Dims::STANDARD, "ann", "bob", "c1k c1k", result),
        Err(RefereeError::NotYourTurn(_) | RefereeError::Illegal { .. })
    ));
}
