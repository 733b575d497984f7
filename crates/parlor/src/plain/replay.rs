//! The one plain replay: any finished game printed move by move.

use super::Io;
use super::game::PlainGame;
use crate::mid::record::Replay;
use anyhow::Result;

/// Prints the start, then every move with the position after it, then how the game ended.
pub fn print<G: PlainGame>(io: &mut Io, mut replay: Replay<G>, delay_ms: u64) -> Result<()> {
    let r = replay.record.clone();
    io.say(format!(
        "Replay of game #{}: {} {}, seed {}",
        r.id,
        G::TITLE,
        r.variant,
        r.seed
    ))?;
    let n = replay.len();
    let params = replay.params.clone();
    io.say(G::board_text(replay.position(0), &params, None, n == 0))?;
    for i in 0..n {
        let mv = replay.moves[i].clone();
        // The last move says how the game ended.
        let ending = replay
            .ending(i + 1)
            .map(|e| format!(" · {e}"))
            .unwrap_or_default();
        let state = replay.position(i + 1);
        io.say(format!(
            "{}. {mv}   {} {}{ending}",
            i + 1,
            G::score_name(),
            G::score(state)
        ))?;
        io.say(G::board_text(state, &params, Some(&mv), i + 1 == n))?;
        if delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        }
    }
    let end = G::ending(replay.position(n), r.result);
    io.say(format!(
        "End: {} ({end}), {} {}.",
        r.result,
        G::score_name(),
        r.score
    ))
}
