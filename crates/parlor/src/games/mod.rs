//! Play sessions: one game in progress, its options and its bookkeeping (autosave, recording, assistance), shared by
//! the full-screen UI and the plain mode so that both behave exactly alike.

pub mod mastermind;
pub mod nocca;
pub mod twenty48;

use crate::storage::{Ranking, Store, Unfinished, now_ms};

/// Every game, by its name in the database, in menu order.
pub const ALL: [&str; 3] = [twenty48::GAME, mastermind::GAME, nocca::GAME];

/// Who is playing and since when: the bookkeeping every play session carries.
#[derive(Clone, Debug)]
pub struct Meta {
    /// Unique id of this play session (the key of its autosaved copy).
    pub session: String,
    /// When the game started (ms since the epoch).
    pub started_at: i64,
    /// Whether undo or hints were used.
    pub assisted: bool,
}

impl Meta {
    /// Bookkeeping for a new game.
    pub fn new() -> Meta {
        Meta {
            session: new_session_id(),
            started_at: now_ms(),
            assisted: false,
        }
    }
}

impl Default for Meta {
    fn default() -> Self {
        Meta::new()
    }
}

/// Where a finished game was recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recorded {
    /// The database id.
    pub id: Option<i64>,
    /// Its rank among the best scores of its variant, when it ranks (unassisted; won, where wins are what count).
    pub rank: Option<usize>,
}

/// Saves a game in progress after a change, or forgets it while no move has been made. The error is a message for
/// the player; the game goes on either way.
pub fn save_progress(store: &mut Store, game: &Unfinished, started: bool) -> Result<(), String> {
    let saved = if started {
        store.save_unfinished(game)
    } else {
        store.discard_unfinished(&game.session)
    };
    saved.map_err(|e| format!("could not save: {e:#}"))
}

/// Records a finished game (dropping its in-progress copy) and finds its rank; a game with no move made is only
/// forgotten. The error is a message for the player.
pub fn record_finished(
    store: &mut Store,
    game: Unfinished,
    result: &str,
    started: bool,
) -> Result<Recorded, String> {
    if !started {
        let _ = store.discard_unfinished(&game.session);
        return Ok(Recorded::default());
    }
    let session = game.session.clone();
    let record = game.into_record(result);
    let id = store
        .finish(&session, &record)
        .map_err(|e| format!("could not record the game: {e:#}"))?;
    let ranks =
        !record.assisted && (Ranking::of(&record.game) == Ranking::HighScore || result == "won");
    let rank = if ranks {
        store.rank(&record.game, &record.variant, record.score).ok()
    } else {
        None
    };
    Ok(Recorded { id: Some(id), rank })
}

/// A session id that is unique across processes: time, process id and a counter.
pub fn new_session_id() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!(
        "{nanos:x}-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// A seed for a game started without `--seed`: the clock's nanoseconds, mixed.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    // SplitMix64 finaliser, so that seeds taken close together look unrelated; kept below 2^53 for JSON readers.
    let mut z = nanos ^ u64::from(std::process::id()).rotate_left(32);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) >> 11
}
