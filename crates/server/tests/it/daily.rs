//! The daily challenges through the server: a 2048 game handed in whole replayed and kept on the unranked board by
//! the server's own score (a claimed score the moves do not produce refused; the ranked board is `ranked.rs`'s), and Mastermind of the day scored guess
//! by guess (a guess sent twice refused), with the leaderboards.

use crate::client::{Client, TestServer, quick};
use mastermind::{Code, Variant, feedback};
use parlor_online::protocol::{
    Board, ClientMessage, Daily, ErrorCode, ServerMessage, actions_to_letters,
};
use parlor_server::daily::day_of;
use twenty48::{Action, Direction, Game, Rules};

#[test]
fn days_are_utc_dates() {
    assert_eq!(day_of(0), "1970-01-01");
    assert_eq!(day_of(86_399_999), "1970-01-01");
    assert_eq!(day_of(86_400_000), "1970-01-02");
    // 2026-11-26T10:00:00Z and the leap day of 2024.
    assert_eq!(day_of(1_795_687_200_000), "2026-11-26");
    assert_eq!(day_of(1_709_164_800_000), "2024-02-29");
    assert_eq!(day_of(951_782_400_000), "2000-02-29");
}

/// A game of today's 2048 played by a simple rule (the first of left, down, right, up that moves), up to `limit`
/// slides, with an undo after the tenth if `undo`: its actions and score.
fn play_2048(seed: u64, limit: usize, undo: bool) -> (Vec<Action>, u64) {
    let mut game = Game::new(Rules::default(), seed);
    let mut actions = Vec::new();
    'play: while actions.len() < limit {
        for d in [
            Direction::Left,
            Direction::Down,
            Direction::Right,
            Direction::Up,
        ] {
            if game.slide(d).is_ok() {
                actions.push(Action::Slide(d));
                if undo && actions.len() == 10 {
                    game.undo().unwrap();
                    actions.push(Action::Undo);
                }
                continue 'play;
            }
        }
        break;
    }
    (actions, game.score())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2048_score_is_the_servers_own() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    let (mut bob, _) = Client::hello(server.addr, "bob").await;
    ann.send(&ClientMessage::Daily2048 {}).await;
    let ServerMessage::Daily2048 { day, seed } = ann.recv().await else {
        panic!("no daily")
    };
    bob.send(&ClientMessage::Daily2048 {}).await;
    assert_eq!(
        bob.recv().await,
        ServerMessage::Daily2048 {
            day: day.clone(),
            seed
        }
    );
    let (actions, score) = play_2048(seed, 400, false);
    assert!(score > 0);
    let submit = |actions: &[Action], score, hints, undo| ClientMessage::Submit2048 {
        day: day.clone(),
        actions: actions_to_letters(actions),
        score,
        hints,
        undo,
    };
    // A claimed score the moves do not produce is refused, and so are moves that do not replay.
    bob.send(&submit(&actions, score + 4, false, false)).await;
    assert_eq!(bob.error().await, ErrorCode::ScoreMismatch);
    let mut wrong = actions.clone();
    wrong.insert(0, Action::Slide(Direction::Up));
    wrong.insert(0, Action::Slide(Direction::Up));
    wrong.insert(0, Action::Slide(Direction::Up));
    bob.send(&submit(&wrong, score, false, false)).await;
    assert!(matches!(
        bob.error().await,
        ErrorCode::BadActions | ErrorCode::ScoreMismatch
    ));
    bob.send(&ClientMessage::Submit2048 {
        day: "2001-01-01".into(),
        actions: actions_to_letters(&actions),
        score,
        hints: false,
        undo: false,
    })
    .await;
    assert_eq!(bob.error().await, ErrorCode::BadDay);
    // The true score is taken, once, on the unranked board: a game handed in whole, its seed known to every
    // client, never goes on the ranked one (the server deals that one tile by tile: `ranked.rs`).
    ann.send(&submit(&actions, score, false, false)).await;
    let ServerMessage::Scored2048 {
        board,
        score: kept,
        rank,
        moves,
        ..
    } = ann.recv().await
    else {
        panic!("not scored")
    };
    assert_eq!((board, kept, rank), (Board::Assisted, score, 1));
    assert_eq!(moves, actions.len() as u64);
    ann.send(&submit(&actions, score, false, false)).await;
    assert_eq!(ann.error().await, ErrorCode::Duplicate);
    // An undo must be declared.
    let (undone, undone_score) = play_2048(seed, 200, true);
    bob.send(&submit(&undone, undone_score, false, false)).await;
    assert_eq!(bob.error().await, ErrorCode::BadActions);
    bob.send(&submit(&undone, undone_score, false, true)).await;
    let ServerMessage::Scored2048 {
        board: Board::Assisted,
        rank,
        ..
    } = bob.recv().await
    else {
        panic!("not scored on the unranked board")
    };
    assert_eq!(rank, 1 + u32::from(score > undone_score));
    let (short, short_score) = play_2048(seed, 50, false);
    bob.send(&submit(&short, short_score, true, false)).await;
    assert_eq!(
        bob.error().await,
        ErrorCode::Duplicate,
        "one game a board a day"
    );
    for (board, expected) in [
        (Board::Assisted, {
            let mut rows = vec![("ann", score), ("bob", undone_score)];
            rows.sort_by_key(|r| std::cmp::Reverse(r.1));
            rows
        }),
        (Board::Plain, Vec::new()),
    ] {
        bob.send(&ClientMessage::Leaderboard {
            daily: Daily::Twenty48,
            day: None,
            board,
        })
        .await;
        let ServerMessage::Leaderboard { entries, .. } = bob.recv().await else {
            panic!("no leaderboard")
        };
        let rows: Vec<(&str, u64)> = entries.iter().map(|e| (e.name.as_str(), e.score)).collect();
        assert_eq!(rows, expected, "the {board:?} board");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mastermind_of_the_day_is_scored_by_the_server_and_a_guess_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut ann, _) = Client::hello(server.addr, "ann").await;
    ann.send(&ClientMessage::DailyMastermind {}).await;
    let ServerMessage::DailyMastermind {
        day,
        variant,
        guesses,
        solved,
        over,
    } = ann.recv().await
    else {
        panic!("no daily")
    };
    assert_eq!(variant, "classic");
    assert!(guesses.is_empty() && !solved && !over);
    let v = Variant::CLASSIC;
    let mut candidates: Vec<Code> = v.secrets();
    let mut n = 0;
    loop {
        n += 1;
        let guess = candidates[0];
        let text = v.display(&guess).to_string();
        ann.send(&ClientMessage::Guess {
            day: day.clone(),
            n,
            code: text.clone(),
        })
        .await;
        let ServerMessage::GuessScored {
            guess: scored,
            solved,
            left,
            ..
        } = ann.recv().await
        else {
            panic!("not scored")
        };
        assert_eq!(scored.n, n);
        assert_eq!(left, 10 - n);
        if n == 1 {
            // The same guess sent again, by number or by code, is refused and changes nothing.
            ann.send(&ClientMessage::Guess {
                day: day.clone(),
                n,
                code: text.clone(),
            })
            .await;
            assert_eq!(ann.error().await, ErrorCode::Duplicate);
            ann.send(&ClientMessage::Guess {
                day: day.clone(),
                n: n + 1,
                code: text.clone(),
            })
            .await;
            assert_eq!(ann.error().await, ErrorCode::Duplicate);
            ann.send(&ClientMessage::Guess {
                day: day.clone(),
                n: n + 5,
                code: text.clone(),
            })
            .await;
            assert_eq!(ann.error().await, ErrorCode::Conflict);
        }
        if solved {
            assert_eq!(scored.black, 4);
            break;
        }
        candidates.retain(|&c| {
            let f = feedback(c, guess);
            (f.black, f.white) == (scored.black, scored.white)
        });
        assert!(
            !candidates.is_empty() && n < 10,
            "the feedback is consistent"
        );
    }
    ann.send(&ClientMessage::Guess {
        day: day.clone(),
        n: n + 1,
        code: "1111".into(),
    })
    .await;
    assert_eq!(ann.error().await, ErrorCode::GameOver);
    ann.send(&ClientMessage::DailyMastermind {}).await;
    let ServerMessage::DailyMastermind {
        guesses,
        solved,
        over,
        ..
    } = ann.recv().await
    else {
        panic!("no daily")
    };
    assert_eq!(guesses.len() as u32, n);
    assert!(solved && over);
    ann.send(&ClientMessage::Leaderboard {
        daily: Daily::Mastermind,
        day: Some(day.clone()),
        board: Board::Plain,
    })
    .await;
    let ServerMessage::Leaderboard { entries, .. } = ann.recv().await else {
        panic!("no leaderboard")
    };
    assert_eq!(entries.len(), 1);
    assert_eq!(
        (entries[0].rank, entries[0].name.as_str(), entries[0].score),
        (1, "ann", u64::from(n))
    );
    server.stop().await;
}

/// Sends guess number `n`, `code`, at `day`'s Mastermind as `client`; gives the guess as scored and whether it solved.
async fn guess_daily(
    client: &mut Client,
    day: &str,
    n: u32,
    code: &str,
) -> (parlor_online::protocol::ScoredGuess, bool) {
    client
        .send(&ClientMessage::Guess {
            day: day.to_string(),
            n,
            code: code.to_string(),
        })
        .await;
    let ServerMessage::GuessScored {
        guess: scored,
        solved,
        ..
    } = client.recv().await
    else {
        panic!("not scored")
    };
    (scored, solved)
}

/// Solves today's Mastermind as `client` by keeping the codes consistent with every answer (at most 10 guesses);
/// gives the solving code's text.
async fn solve_mastermind(client: &mut Client, day: &str) -> String {
    let v = Variant::CLASSIC;
    let mut candidates: Vec<Code> = v.secrets();
    for n in 1..=10 {
        let guess = candidates[0];
        let text = v.display(&guess).to_string();
        let (scored, solved) = guess_daily(client, day, n, &text).await;
        if solved {
            return text;
        }
        candidates.retain(|&c| {
            let f = feedback(c, guess);
            (f.black, f.white) == (scored.black, scored.white)
        });
    }
    panic!("not solved in 10 guesses")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mastermind_secret_solved_under_a_throwaway_name_does_not_solve_another_names() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start(dir.path(), quick(30_000)).await;
    let (mut scout, _) = Client::hello(server.addr, "scout1").await;
    scout.send(&ClientMessage::DailyMastermind {}).await;
    let ServerMessage::DailyMastermind { day, .. } = scout.recv().await else {
        panic!("no daily")
    };
    let scouted = solve_mastermind(&mut scout, &day).await;

    // The main account sends the scout's solution as its first guess: it is scored against its own secret.
    let (mut main, _) = Client::hello(server.addr, "mainacct").await;
    let (scored, solved) = guess_daily(&mut main, &day, 1, &scouted).await;

    // Each name's secret, drawn from the server's kept secret: the answer is the main account's own.
    let kept: String = rusqlite::Connection::open(dir.path().join(parlor_server::store::DB_FILE))
        .unwrap()
        .query_row("SELECT value FROM meta WHERE key = 'secret'", [], |r| {
            r.get(0)
        })
        .unwrap();
    let v = Variant::CLASSIC;
    let secret_of = |name: &str| {
        mastermind::secret_from_seed(&v, parlor_server::daily::mastermind_seed(&kept, &day, name))
    };
    let (scout_secret, main_secret) = (secret_of("scout1"), secret_of("mainacct"));
    assert_eq!(v.display(&scout_secret).to_string(), scouted);
    let expected = feedback(main_secret, scout_secret);
    assert_eq!(
        (scored.black, scored.white),
        (expected.black, expected.white)
    );
    assert_eq!(solved, main_secret == scout_secret);
    assert_eq!(
        secret_of("MainAcct"),
        main_secret,
        "one secret per name after case folding"
    );
    server.stop().await;
}
