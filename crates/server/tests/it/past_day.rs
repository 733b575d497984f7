//! Past days' seeds through the server: a player's own games of a past day (`past_day`) come with the seed their
//! ranked 2048 was dealt from and their slides (which replay, with the `twenty48` engine alone, to the score the
//! server kept) and their Mastermind secret with their guesses (each scored against it); another name gets a seed
//! of its own and nothing played; today, a day to come and a text that is no date are refused (`bad_day`).

use crate::client::{Client, TestServer, quick};
use mastermind::{Variant, feedback};
use parlor_online::protocol::{ClientMessage, ErrorCode, ServerMessage, actions_to_letters};
use parlor_server::daily::{day_of, mastermind_seed, score_guess, today};
use parlor_server::ranked::ranked_seed;
use parlor_server::store::{DailyGuess, Ranked2048};
use parlor_server::{SqliteStore, Store};
use twenty48::{Action, Direction, Game, Rules};

/// Keeps in the store in `dir` the games `name` played on `day` as the server would have: up to 30 slides of the
/// ranked 2048 (the first of left, down, right, up that moves) and two Mastermind guesses scored against their
/// secret. Returns the slides, the score and the guesses.
fn played(store: &mut SqliteStore, day: &str, name: &str) -> (String, u64, Vec<String>) {
    let secret = store.secret().unwrap();
    let mut game = Game::new(Rules::default(), ranked_seed(&secret, day, name));
    store
        .start_ranked_2048(day, name, game.board().max_tile())
        .unwrap();
    let mut actions = Vec::new();
    'play: while actions.len() < 30 {
        for d in [
            Direction::Left,
            Direction::Down,
            Direction::Right,
            Direction::Up,
        ] {
            if game.slide(d).is_ok() {
                actions.push(Action::Slide(d));
                continue 'play;
            }
        }
        break;
    }
    let slides = actions_to_letters(&actions);
    let kept = Ranked2048 {
        day: day.into(),
        name: name.into(),
        slides: slides.clone(),
        score: game.score(),
        max_tile: game.board().max_tile(),
        over: false,
    };
    assert!(store.slide_ranked_2048("", &kept).unwrap());
    store.start_mastermind(day, name).unwrap();
    let seed = mastermind_seed(&secret, day, name);
    let mut guesses: Vec<String> = Vec::new();
    for (n, code) in [(1, "RGYU"), (2, "RRKO")] {
        let scored = score_guess(seed, &guesses, code).unwrap();
        assert!(
            store
                .add_guess(&DailyGuess {
                    day: day.into(),
                    name: name.into(),
                    n,
                    code: scored.code.clone(),
                    black: scored.black,
                    white: scored.white,
                    solved: scored.solved,
                })
                .unwrap()
        );
        guesses.push(scored.code);
    }
    (slides, game.score(), guesses)
}

/// Asks `c` for `day`'s games.
async fn past_day(c: &mut Client, day: &str) -> ServerMessage {
    c.send(&ClientMessage::PastDay { day: day.into() }).await;
    c.recv().await
}

#[tokio::test]
async fn a_past_days_own_games_come_with_their_seeds_and_today_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let now = parlor_server::store::now_unix_ms();
    let yesterday = day_of(now - 86_400_000);
    let (slides, score, guesses) = {
        let mut store = SqliteStore::open(dir.path()).unwrap();
        played(&mut store, &yesterday, "ann")
    };
    assert!(!slides.is_empty());
    let server = TestServer::start(dir.path(), quick(5_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let ServerMessage::PastDay {
        day,
        seed_2048,
        slides: got,
        score: kept,
        variant,
        secret,
        guesses: scored,
    } = past_day(&mut ann, &yesterday).await
    else {
        panic!("no past day")
    };
    assert_eq!(
        (day.as_str(), got.as_str(), kept),
        (yesterday.as_str(), slides.as_str(), score)
    );
    // The seed deals the game again with the engine alone: the slides replay to the server's score.
    let mut game = Game::new(Rules::default(), seed_2048);
    for action in parlor_online::protocol::letters_to_actions(&got).unwrap() {
        let Action::Slide(d) = action else {
            panic!("an undo in a ranked game")
        };
        game.slide(d).unwrap();
    }
    assert_eq!(game.score(), score);
    // The secret is the one the guesses were scored against.
    assert_eq!(variant, "classic");
    let classic = Variant::CLASSIC;
    let code = classic.parse_code(&secret).unwrap();
    assert_eq!(
        scored.iter().map(|g| g.code.clone()).collect::<Vec<_>>(),
        guesses
    );
    for g in &scored {
        let f = feedback(code, classic.parse_code(&g.code).unwrap());
        assert_eq!((f.black, f.white), (g.black, g.white), "{g:?}");
    }
    // Another name: a seed of its own, nothing played.
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    let ServerMessage::PastDay {
        seed_2048: bobs,
        slides,
        guesses,
        ..
    } = past_day(&mut bob, &yesterday).await
    else {
        panic!("no past day")
    };
    assert_ne!(bobs, seed_2048);
    assert!(slides.is_empty() && guesses.is_empty());
    // Today's seeds and those to come are told to nobody; a day must be a date.
    let tomorrow = day_of(now + 86_400_000);
    for day in [
        today(),
        tomorrow,
        "yesterday".to_string(),
        "2026-02-30x".into(),
    ] {
        match past_day(&mut ann, &day).await {
            ServerMessage::Error {
                code: ErrorCode::BadDay,
                message,
                ..
            } => assert!(!message.is_empty()),
            other => panic!("{day}: {other:?}"),
        }
    }
    server.stop().await;
}
