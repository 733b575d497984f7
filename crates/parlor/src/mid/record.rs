//! Finished games rebuilt for replays: every position of a recorded game, from its parameters, seed and moves.

use super::error::Error;
use super::game::Game;
use super::session::rebuild;
use crate::storage::{GameRecord, Storage, format_time};

/// Positions are rebuilt from a checkpoint every this many moves, so that long games (tens of thousands of
/// moves) step back quickly without keeping every position.
const CHECKPOINT_EVERY: usize = 256;

/// What to say when there is no finished game to show: an empty history, or a database that could not be opened
/// (then the games are not shown because they could not be read, and the player is told so).
pub fn nothing_to_show(store: &dyn Storage) -> &'static str {
    // Nothing kept and not read-only: an empty store in memory (a store that keeps its rows elsewhere than in a
    // directory, as a browser's, has nothing to excuse).
    if !store.keeps() && !store.read_only() {
        "No finished game to show: the database could not be opened (the note at start-up says why), so this \
         session has an empty one in memory."
    } else {
        "No finished game yet."
    }
}

/// A recorded game, position by position.
pub struct Replay<G: Game> {
    /// The parameters it was played with.
    pub params: G::Params,
    /// The moves, `moves[i]` leading from position `i` to position `i + 1`.
    pub moves: Vec<G::Move>,
    /// The record it comes from.
    pub record: GameRecord,
    /// Positions 0, 256, 512, ...
    checkpoints: Vec<G::State>,
    /// The position last asked for, and its index.
    current: (usize, G::State),
}

impl<G: Game> Replay<G> {
    /// Rebuilds a recorded game; a damaged record is an error that says what is wrong.
    pub fn new(record: &GameRecord) -> Result<Replay<G>, Error> {
        let rebuilt = rebuild::<G>(&record.game, &record.options, record.seed, &record.moves)
            .map_err(|e| Error::Record(format!("game #{} cannot be replayed: {e}", record.id)))?;
        let (params, start, moves) = (rebuilt.params, rebuilt.start, rebuilt.moves);
        let mut checkpoints = vec![start.clone()];
        let mut state = start.clone();
        for (i, mv) in moves.iter().enumerate() {
            // Every move applied once in `rebuild`: it applies again.
            let _ = G::apply(&mut state, mv);
            if (i + 1) % CHECKPOINT_EVERY == 0 {
                checkpoints.push(state.clone());
            }
        }
        Ok(Replay {
            params,
            moves,
            record: record.clone(),
            checkpoints,
            current: (0, start),
        })
    }

    /// How many moves the game has.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the game has no move.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The position after `index` moves (clamped to the end) with the parameters and the move that led to it, all
    /// borrowed at once (a screen draws them together without copying the position).
    pub fn view(&mut self, index: usize) -> (&G::State, &G::Params, Option<&G::Move>) {
        let index = index.min(self.moves.len());
        self.position(index);
        let last = index.checked_sub(1).map(|i| &self.moves[i]);
        (&self.current.1, &self.params, last)
    }

    /// How the game ended, for the position after `index` moves: at the last position (the last move, or the start
    /// of a game given up before any move) the result and the game's own line (`lost · Game over: no move left`,
    /// `done · White reached the goal in 12 plies`); `None` before it. Every replay (the full screen's, the plain
    /// one) says it from here.
    pub fn ending(&mut self, index: usize) -> Option<String> {
        if index < self.moves.len() {
            return None;
        }
        let result = self.record.result;
        let line = G::ending(self.position(self.moves.len()), result);
        Some(format!("{result} · {line}"))
    }

    /// The position after `index` moves (0: the start; clamped to the end).
    pub fn position(&mut self, index: usize) -> &G::State {
        let index = index.min(self.moves.len());
        let (at, _) = self.current;
        if index < at || index - at > CHECKPOINT_EVERY {
            let base = index / CHECKPOINT_EVERY;
            self.current = (base * CHECKPOINT_EVERY, self.checkpoints[base].clone());
        }
        while self.current.0 < index {
            let i = self.current.0;
            // Every move was replayed once in `new`: it applies again.
            let _ = G::apply(&mut self.current.1, &self.moves[i]);
            self.current.0 += 1;
        }
        &self.current.1
    }
}

/// One line describing a finished game (`games`: the games known, whose own word names what the score counts).
pub fn record_line<T: crate::mid::AnyGame + ?Sized>(r: &GameRecord, games: &[&T]) -> String {
    // What the score counts, in the game's own word (RULES.md, Words): points, guesses or plies.
    let counted = crate::mid::find(games, &r.game).map_or("score", |g| g.score_name());
    // The word and the number fill 13 columns, whatever the word.
    let width = 12usize.saturating_sub(counted.len()).max(1);
    format!(
        "#{:<5} {}  {:<10} {:<22} {:<8} {counted} {:>width$}{}",
        r.id,
        format_time(r.ended_at),
        r.game,
        r.variant,
        r.result.as_str(),
        r.score,
        match (r.practice, r.assisted, r.seeded) {
            (true, _, _) => "  practice",
            (false, true, _) => "  assisted",
            (false, false, true) => "  seeded",
            _ => "",
        }
    )
}

/// A finished game as JSON.
pub fn record_json(r: &GameRecord) -> serde_json::Value {
    serde_json::json!({
        "id": r.id, "game": r.game, "variant": r.variant,
        "options": serde_json::from_str::<serde_json::Value>(&r.options).unwrap_or(serde_json::Value::Null),
        "seed": r.seed, "moves": r.moves, "score": r.score, "result": r.result.as_str(), "assisted": r.assisted,
        "seeded": r.seeded, "practice": r.practice, "started_at": format_time(r.started_at), "ended_at": format_time(r.ended_at),
    })
}

#[cfg(test)]
mod nothing_tests {
    use super::nothing_to_show;
    use crate::storage::MemoryStore;

    #[test]
    fn an_empty_store_in_memory_says_why_it_is_empty() {
        // A store in memory keeps nothing: the empty history is excused. A store that keeps its rows (SQLite in a
        // directory, the browser's) just has none yet; the web crate's tests check that side.
        assert!(nothing_to_show(&MemoryStore::new()).contains("could not be opened"));
    }
}
