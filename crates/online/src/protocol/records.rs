//! A finished game's record, a player's games, the daily boards, and 2048 actions as letters.

use super::*;

/// The format of [`GameRecord`] this crate writes and reads: its major version. A record carries it in
/// `format`, left out when it is 1 (so a record of format 1 reads the same as before the field existed).
///
/// The rule, for a record from the server: within one format, fields are only ever added, each optional, and a
/// reader ignores the fields it does not know (a newer server's record still imports into an older client's
/// history, without what it adds); a change an older reader would misread (a field removed, renamed, made required
/// or given another meaning) makes a new format, and a reader refuses a record of a newer format than its own with
/// a clear message ([`ServerMessage::parse`] reads it as an `unsupported` error) rather than importing it wrong.
/// Records written before the rule (no `format`) are format 1. Every other message keeps the protocol's strict
/// rule (unknown fields refused).
pub const RECORD_FORMAT: u32 = 1;

pub(super) fn record_format_1() -> u32 {
    1
}

pub(super) fn is_record_format_1(format: &u32) -> bool {
    *format == 1
}

/// A finished game's whole record: enough to replay it and import it into the local history. Unknown fields are
/// ignored (see [`RECORD_FORMAT`] for the rule).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Optional: the record's format ([`RECORD_FORMAT`]); left out, and read as 1 when absent.
    #[serde(
        default = "record_format_1",
        skip_serializing_if = "is_record_format_1"
    )]
    pub format: u32,
    /// The game.
    pub game: u64,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// The time control; none for untimed.
    pub clock: Option<TimeControl>,
    /// Whether it was rated.
    pub rated: bool,
    /// The moves in Parlor's Nocca notation, separated by single spaces (as `nocca::Game::record` writes them;
    /// replay them from the start position of `board`).
    pub moves: String,
    /// The winner, or none for a draw or an abort.
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: EndReason,
    /// The final position in the `nocca` crate's text form.
    pub position: String,
    /// When it started, in milliseconds since the Unix epoch.
    pub started_ms: u64,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
    /// Both players' rating changes, if it changed ratings.
    pub ratings: Option<RatingChanges>,
    /// Optional (added in session 15; left out by older servers and for games kept before it): each move's time,
    /// one entry per move of `moves`, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub times: Option<Vec<MoveTime>>,
}

/// One move's time in a finished game's record: how long its side took over it and, for a timed game, both clocks
/// right after it (the increment added). Part of the record: unknown fields are ignored ([`RECORD_FORMAT`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MoveTime {
    /// Milliseconds from the end of the previous move (or the game's start) to this move, as the server measured
    /// them (the time a restarted server was down is not counted).
    pub spent_ms: u64,
    /// Optional: Black's remaining time after the move, in milliseconds; absent for an untimed game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_ms: Option<u64>,
    /// Optional: White's remaining time after the move, in milliseconds; absent for an untimed game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_ms: Option<u64>,
}

/// A finished game in a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSummary {
    /// The game (for `record`).
    pub game: u64,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
    /// Whether it was rated.
    pub rated: bool,
    /// The winner, or none for a draw or an abort.
    pub winner: Option<Side>,
    /// Why it ended.
    pub reason: EndReason,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
}

/// A Mastermind guess and the server's score of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoredGuess {
    /// The guess's number, 1 for the first.
    pub n: u32,
    /// The code guessed, as the server reads it.
    pub code: String,
    /// Pegs of the right colour in the right place.
    pub black: u8,
    /// Pegs of a right colour in a wrong place.
    pub white: u8,
}

/// A row of a daily leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderEntry {
    /// The rank, 1 for the best (ties share a rank).
    pub rank: u32,
    /// The player.
    pub name: String,
    /// 2048: the score the server computed (higher is better). Mastermind: the guesses used to solve it (fewer is
    /// better; only solved games are ranked).
    pub score: u64,
    /// 2048: the largest tile; Mastermind: none.
    pub max_tile: Option<u64>,
    /// 2048: the slides played. Mastermind: milliseconds from the first `daily_mastermind` to the solving guess
    /// (the tie-break: sooner is better).
    pub detail: u64,
}

/// an undo.
pub fn actions_to_letters(actions: &[twenty48::Action]) -> String {
    use twenty48::{Action, Direction};
    actions
        .iter()
        .map(|a| match a {
            Action::Slide(Direction::Up) => 'u',
            Action::Slide(Direction::Down) => 'd',
            Action::Slide(Direction::Left) => 'l',
            Action::Slide(Direction::Right) => 'r',
            Action::Undo => 'z',
        })
        .collect()
}

/// A letter that is not a 2048 action ([`letters_to_actions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("action {position} is {letter:?}: actions are u, d, l, r (slides) and z (undo)")]
pub struct ActionsError {
    /// Its position, from 1.
    pub position: usize,
    /// The letter.
    pub letter: char,
}

/// Reads 2048 actions written by [`actions_to_letters`]; the error names the first letter that is not one (its
/// 1-based position).
pub fn letters_to_actions(letters: &str) -> Result<Vec<twenty48::Action>, ActionsError> {
    use twenty48::{Action, Direction};
    letters
        .chars()
        .enumerate()
        .map(|(i, c)| match c {
            'u' => Ok(Action::Slide(Direction::Up)),
            'd' => Ok(Action::Slide(Direction::Down)),
            'l' => Ok(Action::Slide(Direction::Left)),
            'r' => Ok(Action::Slide(Direction::Right)),
            'z' => Ok(Action::Undo),
            other => Err(ActionsError {
                position: i + 1,
                letter: other,
            }),
        })
        .collect()
}

/// The UTC date of `unix_ms`, `YYYY-MM-DD`: the day of the daily challenges.
pub fn utc_day(unix_ms: u64) -> String {
    let (y, m, d) = civil_date(i64::try_from(unix_ms / 86_400_000).unwrap_or(0));
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date (year, month 1-12, day 1-31) of `days` since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
pub fn civil_date(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}
