//! What the client knows, in words: clocks and time controls, challenges, the queue, and the terms typed after a
//! challenge's name. Shared by the model's lines, plain mode and the full screen, which passes the keys it offers
//! ([`KeyWords`]) where plain mode names its typed commands.

pub use crate::tui::daily::board_name;
use parlor_online::protocol::{ChallengeInfo, QueueEntry, TimeControl};

/// Milliseconds as a clock shows them: `4:05`, or `0:09.3` under ten seconds.
pub fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    if ms < 10_000 {
        format!("0:{:02}.{}", s, (ms % 1000) / 100)
    } else if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// `5+3 rated`, `untimed`.
pub fn terms(clock: Option<TimeControl>, rated: bool) -> String {
    let c = clock.map_or_else(|| "untimed".to_string(), |c| c.to_string());
    format!("{c}{}", if rated { ", rated" } else { "" })
}

/// The keys the full screen offers for what the model's lines mention, as bound (plain mode names its typed
/// commands instead, `'accept 3'`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyWords {
    /// Accepts the challenge under the lobby's cursor (`Enter or y`).
    pub accept: String,
    /// Declines it.
    pub decline: String,
    /// Withdraws the challenge sent under the cursor.
    pub cancel: String,
    /// Offers or accepts a rematch in a finished game.
    pub rematch: String,
    /// Declines the rematch offered.
    pub decline_rematch: String,
    /// Opens each daily challenge on the screen, in the lobby's order.
    pub dailies: Vec<String>,
}

/// A challenge in words, from the player's side: how to answer it with plain mode's commands, or with the full
/// screen's `keys`.
pub fn challenge_text(c: &ChallengeInfo, me: &str, keys: Option<&KeyWords>) -> String {
    let t = terms(c.clock, c.rated);
    match (c.to == me, keys) {
        (true, None) => format!(
            "challenge {} from {} on {}, {t}: 'accept {}' or 'decline {}'",
            c.challenge, c.from, c.board, c.challenge, c.challenge
        ),
        (true, Some(k)) => format!(
            "challenge {} from {} on {}, {t}: in the lobby {} accepts it, {} declines",
            c.challenge, c.from, c.board, k.accept, k.decline
        ),
        (false, None) => format!(
            "challenge {} sent to {} on {}, {t} ('cancel {}' withdraws it)",
            c.challenge, c.to, c.board, c.challenge
        ),
        (false, Some(k)) => format!(
            "challenge {} sent to {} on {}, {t} (in the lobby {} withdraws it)",
            c.challenge, c.to, c.board, k.cancel
        ),
    }
}

/// The player's place in the queue in words.
pub fn queue_text(q: &QueueEntry) -> String {
    format!(
        "in the rated queue for {}, {}: waited {} s, opponents within ±{}",
        q.board,
        terms(q.clock, true).trim_end_matches(", rated"),
        q.waited_ms / 1000,
        q.band
    )
}

/// A challenge's or the queue's terms from the words after the name: a board (`3x3`), a clock (`5+3` or `10`) and
/// `rated`, in any order; the board is 6x5 unless given.
pub fn terms_of(words: &[&str]) -> Result<(String, Option<TimeControl>, bool), String> {
    let mut board = "6x5".to_string();
    let mut clock = None;
    let mut rated = false;
    for w in words {
        if *w == "rated" {
            rated = true;
        } else if w.contains('x') {
            board = (*w).to_string();
        } else {
            clock = Some(w.parse::<TimeControl>().map_err(|e| e.to_string())?);
        }
    }
    Ok((board, clock, rated))
}
