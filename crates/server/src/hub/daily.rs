//! The daily challenges' messages: today's 2048 seed, a 2048 game judged and kept (the ranked 2048, dealt tile by
//! tile, is [`super::ranked`]'s), today's Mastermind with the
//! player's guesses, a guess scored and kept, and the leaderboards. They need the store and the server's secret,
//! not the hub: each is answered by its connection, outside the hub's lock (reads on the store's readers, writes on
//! its writer).

use super::{Conn, boxed_error};
use crate::Shared;
use crate::daily;
use crate::store::{Daily2048, DailyGuess, StoreError};
use parlor_online::protocol::{
    Board, ClientMessage, Daily, ErrorCode, LIST_LIMIT, LeaderEntry, ScoredGuess, ServerMessage,
};

/// What a daily message is answered with, or the error sent instead.
pub(super) type Answer = Result<ServerMessage, Box<ServerMessage>>;

/// Answers a daily challenge's message of `name`'s on `conn`.
pub(super) async fn answer(shared: &Shared, conn: &Conn, name: &str, msg: ClientMessage) {
    let answer = match msg {
        ClientMessage::Daily2048 {} => seed(shared, "2048", &daily::today())
            .map(|(day, seed)| ServerMessage::Daily2048 { day, seed }),
        ClientMessage::Submit2048 {
            day,
            actions,
            score,
            hints: _,
            undo,
        } => submit_2048(shared, name, &day, actions, score, undo).await,
        ClientMessage::Ranked2048 {} => super::ranked::start(shared, name).await,
        ClientMessage::Slide2048 { day, n, dir } => {
            super::ranked::slide(shared, name, &day, n, &dir).await
        }
        ClientMessage::DailyMastermind {} => daily_mastermind(shared, name).await,
        ClientMessage::Guess { day, n, code } => guess(shared, name, &day, n, &code).await,
        ClientMessage::PastDay { day } => super::past::past_day(shared, name, &day).await,
        ClientMessage::Leaderboard { daily, day, board } => {
            let day = day.unwrap_or_else(daily::today);
            leaderboard(shared, daily, &day, board)
                .await
                .map(|entries| ServerMessage::Leaderboard {
                    daily,
                    day,
                    board,
                    entries,
                })
        }
        other => {
            tracing::error!("not a daily message: {other:?}");
            Err(boxed_error(
                ErrorCode::Internal,
                "not a daily message",
                None,
            ))
        }
    };
    match answer {
        Ok(m) => conn.send(&m),
        Err(e) => conn.send(&e),
    }
}

/// Today's seed for `what` (`2048` or `mastermind`), if `day` is today.
pub(super) fn seed(
    shared: &Shared,
    what: &str,
    day: &str,
) -> Result<(String, u64), Box<ServerMessage>> {
    let today = daily::today();
    if day != today {
        return Err(boxed_error(
            ErrorCode::BadDay,
            format!("{day:.12} is not today ({today}, UTC)"),
            None,
        ));
    }
    let Some(secret) = &shared.secret else {
        return Err(boxed_error(
            ErrorCode::Internal,
            "the daily challenges are off",
            None,
        ));
    };
    Ok((today, daily::seed(secret, what, day)))
}

/// A player's own seed of a day's game, `of(secret, day)`, if `day` is today: with the day.
pub(super) fn player_seed(
    shared: &Shared,
    day: &str,
    of: impl FnOnce(&str, &str) -> u64,
) -> Result<(String, u64), Box<ServerMessage>> {
    // The day checked (today), whatever the game.
    let (day, _) = seed(shared, "2048", day)?;
    let Some(secret) = &shared.secret else {
        return Err(boxed_error(
            ErrorCode::Internal,
            "the daily challenges are off",
            None,
        ));
    };
    let seed = of(secret, &day);
    Ok((day, seed))
}

/// The error sent when the store fails at `doing` (logged).
pub(super) fn internal(doing: String) -> impl FnOnce(StoreError) -> Box<ServerMessage> {
    move |e| {
        tracing::error!("{doing}: {e}");
        boxed_error(ErrorCode::Internal, "the server's store failed", None)
    }
}

/// The store's word for a daily board.
fn board_word(board: Board) -> &'static str {
    match board {
        Board::Plain => "plain",
        Board::Assisted => "assisted",
    }
}

/// Judges and keeps a day's 2048 game: the `scored_2048` answer, or the error to send.
async fn submit_2048(
    shared: &Shared,
    name: &str,
    day: &str,
    actions: String,
    claimed: u64,
    undo: bool,
) -> Answer {
    let (day, seed) = seed(shared, "2048", day)?;
    let scored = daily::score_2048(seed, &actions, claimed, undo)
        .map_err(|r| boxed_error(r.code, r.message, None))?;
    let board = board_word(scored.board);
    let kept = Daily2048 {
        day: day.clone(),
        board: board.to_string(),
        name: name.to_string(),
        score: scored.score,
        max_tile: scored.max_tile,
        moves: scored.moves,
        actions,
    };
    // Kept and ranked in one call on the writer: the rank counts every game kept before it.
    let ranked = shared
        .store
        .write(move |s| {
            if !s.add_2048(&kept)? {
                return Ok(None);
            }
            Ok(Some(s.better_2048(&kept.day, &kept.board, kept.score)?))
        })
        .await
        .map_err(internal(format!("keeping a 2048 game of {name}")))?;
    let Some(better) = ranked else {
        return Err(boxed_error(
            ErrorCode::Duplicate,
            format!("the {board} board of {day} already has your game"),
            None,
        ));
    };
    Ok(ServerMessage::Scored2048 {
        day,
        board: scored.board,
        score: scored.score,
        max_tile: scored.max_tile,
        moves: scored.moves,
        rank: u32::try_from(better + 1).unwrap_or(u32::MAX),
    })
}

/// Today's Mastermind for `name`, with their guesses so far (noting when they first asked).
async fn daily_mastermind(shared: &Shared, name: &str) -> Answer {
    let (day, _) = seed(shared, "mastermind", &daily::today())?;
    let (d, n) = (day.clone(), name.to_string());
    let guesses = shared
        .store
        .write(move |s| {
            s.start_mastermind(&d, &n)?;
            s.mastermind_of(&d, &n)
        })
        .await
        .map_err(internal(format!("today's Mastermind of {name}")))?;
    let pegs = daily::mastermind_variant().pegs();
    let solved = guesses.iter().any(|g| g.1 == pegs);
    let allowed = daily::mastermind_variant().guesses() as usize;
    let over = solved || guesses.len() >= allowed;
    Ok(ServerMessage::DailyMastermind {
        day,
        variant: daily::MASTERMIND_VARIANT.into(),
        guesses: scored(guesses),
        solved,
        over,
    })
}

/// Scores `name`'s guess number `n` at the day's Mastermind, and keeps it.
async fn guess(shared: &Shared, name: &str, day: &str, n: u32, code: &str) -> Answer {
    let (day, seed) = player_seed(shared, day, |secret, day| {
        daily::mastermind_seed(secret, day, name)
    })?;
    let fail = || internal(format!("a Mastermind guess of {name}"));
    let (d, who) = (day.clone(), name.to_string());
    let earlier = shared
        .store
        .read(move |s| s.mastermind_of(&d, &who))
        .await
        .map_err(fail())?;
    let next = u32::try_from(earlier.len())
        .unwrap_or(u32::MAX)
        .saturating_add(1);
    if n < next {
        return Err(boxed_error(
            ErrorCode::Duplicate,
            format!("guess {n} was already scored (send daily_mastermind to see it)"),
            None,
        ));
    }
    if n > next {
        return Err(boxed_error(
            ErrorCode::Conflict,
            format!("the next guess is number {next}, not {n}"),
            None,
        ));
    }
    let texts: Vec<String> = earlier.iter().map(|g| g.0.clone()).collect();
    let daily::Guessed {
        code: written,
        black,
        white,
        solved,
        left,
    } = daily::score_guess(seed, &texts, code).map_err(|r| boxed_error(r.code, r.message, None))?;
    let kept = DailyGuess {
        day: day.clone(),
        name: name.to_string(),
        n,
        code: written.clone(),
        black,
        white,
        solved,
    };
    // The guess's number is its key: a guess sent twice at once is kept once, the other refused.
    let added = shared
        .store
        .write(move |s| {
            s.start_mastermind(&kept.day, &kept.name)?;
            s.add_guess(&kept)
        })
        .await
        .map_err(fail())?;
    if !added {
        return Err(boxed_error(
            ErrorCode::Duplicate,
            format!("guess {n} was already scored"),
            None,
        ));
    }
    Ok(ServerMessage::GuessScored {
        day,
        guess: ScoredGuess {
            n,
            code: written,
            black,
            white,
        },
        solved,
        left,
    })
}

/// A day's leaderboard, ranked by the server's figures; ties share a rank.
async fn leaderboard(
    shared: &Shared,
    which: Daily,
    day: &str,
    board: Board,
) -> Result<Vec<LeaderEntry>, Box<ServerMessage>> {
    let fail = internal(format!("a leaderboard of {day}"));
    let entry = |name, score, max_tile, detail| LeaderEntry {
        rank: 0,
        name,
        score,
        max_tile,
        detail,
    };
    let d = day.to_string();
    // Each row with its ranking key: lower is better.
    let mut rows: Vec<(LeaderEntry, (u64, u64))> = match which {
        Daily::Twenty48 => shared
            .store
            .read(move |s| s.board_2048(&d, board_word(board), LIST_LIMIT))
            .await
            .map_err(fail)?
            .into_iter()
            .map(|(n, score, tile, moves)| {
                (entry(n, score, Some(tile), moves), (u64::MAX - score, 0))
            })
            .collect(),
        Daily::Mastermind if board == Board::Assisted => Vec::new(),
        Daily::Mastermind => shared
            .store
            .read(move |s| s.board_mastermind(&d, LIST_LIMIT))
            .await
            .map_err(fail)?
            .into_iter()
            .map(|(n, guesses, took)| (entry(n, guesses, None, took), (guesses, took)))
            .collect(),
    };
    for i in 0..rows.len() {
        rows[i].0.rank = if i > 0 && rows[i - 1].1 == rows[i].1 {
            rows[i - 1].0.rank
        } else {
            u32::try_from(i + 1).unwrap_or(u32::MAX)
        };
    }
    Ok(rows.into_iter().map(|(e, _)| e).collect())
}

/// A player's kept guesses of the day (code, black, white), numbered from 1 as the protocol sends them.
pub(super) fn scored(guesses: Vec<(String, u8, u8)>) -> Vec<ScoredGuess> {
    guesses
        .into_iter()
        .zip(1..)
        .map(|((code, black, white), n)| ScoredGuess {
            n,
            code,
            black,
            white,
        })
        .collect()
}
