//! The ranked 2048 of the day, dealt by the server: each player's game is drawn from a seed of its own (the server's
//! secret, the day and the name after case folding), which never leaves the server before the day is over, so a
//! client learns each tile only once it is placed. The server plays every slide with the `twenty48` engine's rules
//! and keeps the slides played; the game is the seed and those slides, replayed whenever it is needed (after a
//! restart too), so the tiles to come are the same whatever happens to the server. Undo and hints have no place in
//! it: the protocol has no undo for it, and the score ranked is the server's own.

use crate::daily::{Refused, seed};
use parlor_online::protocol::{ErrorCode, ServerMessage, Tile, actions_to_letters};
use twenty48::{Action, Direction, Game, Rules, Status};

/// The seed of `name`'s ranked 2048 of `day` under the server's secret: its own for each name (after case folding,
/// as `store::name_key` folds names), so a game played under a throwaway name tells nothing of another's tiles.
pub fn ranked_seed(secret: &str, day: &str, name: &str) -> u64 {
    seed(
        secret,
        "2048-ranked",
        &format!("{day}/{}", crate::store::name_key(name)),
    )
}

/// A ranked game as it stands after its slides, and the tile the last of them placed.
#[derive(Clone, Debug)]
pub struct Dealt {
    /// The game, replayed.
    pub game: Game,
    /// The tile the last slide placed (none before the first slide).
    pub tile: Option<Tile>,
}

impl Dealt {
    /// The slides played, one letter each.
    pub fn letters(&self) -> String {
        actions_to_letters(self.game.actions())
    }

    /// Whether no slide is left.
    pub fn over(&self) -> bool {
        self.game.status() == Status::Over
    }

    /// The protocol's answer for this game of `day`, with its rank if it is known.
    pub fn message(&self, day: &str, rank: Option<u32>) -> ServerMessage {
        ServerMessage::Dealt2048 {
            day: day.to_string(),
            moves: u64::try_from(self.game.moves_made()).unwrap_or(u64::MAX),
            board: self.game.board().to_string(),
            score: self.game.score(),
            tile: self.tile,
            over: self.over(),
            rank,
        }
    }
}

/// A tile as the protocol writes it.
fn tile_of((row, col, value): (usize, usize, u64)) -> Tile {
    Tile {
        row: u32::try_from(row).unwrap_or(u32::MAX),
        col: u32::try_from(col).unwrap_or(u32::MAX),
        value,
    }
}

/// The game of `seed` after `letters` (the slides kept), with the tile the last one placed. Kept slides that do not
/// replay are the store's fault, not the player's: an internal error.
pub fn replay(seed: u64, letters: &str) -> Result<Dealt, Refused> {
    let kept = |why: String| Refused {
        code: ErrorCode::Internal,
        message: format!("the ranked game kept does not replay: {why}"),
    };
    let actions =
        parlor_online::protocol::letters_to_actions(letters).map_err(|e| kept(e.to_string()))?;
    let mut game = Game::new(Rules::default(), seed);
    let mut tile = None;
    for (i, action) in actions.into_iter().enumerate() {
        let Action::Slide(dir) = action else {
            return Err(kept(format!("action {} is an undo", i + 1)));
        };
        let turn = game
            .slide(dir)
            .map_err(|e| kept(format!("slide {}: {e}", i + 1)))?;
        tile = Some(tile_of(turn.spawned));
    }
    Ok(Dealt { game, tile })
}

/// What a slide does to a ranked game.
#[derive(Clone, Debug)]
pub enum Slid {
    /// A new slide, played: the game after it (its letters are what to keep).
    New(Dealt),
    /// The slide numbered `n` was already played in that direction (sent again after a doubt): the game as it was
    /// right after it, nothing to keep.
    Again(Dealt),
}

/// Plays slide number `n` (from 1), `dir` (one letter), on the game of `seed` whose kept slides are `letters`.
/// Refused, changing nothing, when the slide is not the next one, moves nothing, or the game is over.
pub fn slide(seed: u64, letters: &str, n: u64, dir: &str) -> Result<Slid, Refused> {
    let refused = |code, message: String| Refused { code, message };
    let direction = match dir {
        "u" => Direction::Up,
        "d" => Direction::Down,
        "l" => Direction::Left,
        "r" => Direction::Right,
        other => {
            return Err(refused(
                ErrorCode::IllegalMove,
                format!("{other:.8?} is not a slide: u, d, l or r"),
            ));
        }
    };
    let played = u64::try_from(letters.len()).unwrap_or(u64::MAX);
    if n == 0 || n > played.saturating_add(1) {
        return Err(refused(
            ErrorCode::Conflict,
            format!("the next slide is number {}, not {n}", played + 1),
        ));
    }
    if n <= played {
        let at = usize::try_from(n - 1).unwrap_or(usize::MAX);
        let kept = letters.get(at..=at).unwrap_or_default();
        if kept != dir {
            return Err(refused(
                ErrorCode::Duplicate,
                format!("slide {n} was already played ({kept})"),
            ));
        }
        return Ok(Slid::Again(replay(
            seed,
            letters.get(..=at).unwrap_or(letters),
        )?));
    }
    let mut dealt = replay(seed, letters)?;
    if dealt.over() {
        return Err(refused(
            ErrorCode::GameOver,
            format!(
                "today's ranked 2048 is over at {} points",
                dealt.game.score()
            ),
        ));
    }
    let turn = dealt
        .game
        .slide(direction)
        .map_err(|e| refused(ErrorCode::IllegalMove, format!("slide {n} refused: {e}")))?;
    dealt.tile = Some(tile_of(turn.spawned));
    Ok(Slid::New(dealt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_has_its_own_ranked_seed_whatever_its_case_and_none_is_the_shared_one() {
        let day = "2026-12-07";
        let ann = ranked_seed("kept", day, "ann");
        assert_ne!(ann, ranked_seed("kept", day, "bob"));
        assert_ne!(ann, seed("kept", "2048", day));
        assert_ne!(ann, ranked_seed("kept", "2026-12-08", "ann"));
        assert_eq!(ann, ranked_seed("kept", day, "ANN"));
    }

    #[test]
    fn a_slide_is_the_engines_and_a_refused_one_changes_nothing() {
        let seed = 7;
        let start = replay(seed, "").unwrap();
        assert_eq!(
            start.game.board(),
            Game::new(Rules::default(), seed).board()
        );
        assert_eq!(start.tile, None);
        let dir = ["l", "r", "u", "d"]
            .into_iter()
            .find(|d| matches!(slide(seed, "", 1, d), Ok(Slid::New(_))))
            .unwrap();
        let Ok(Slid::New(after)) = slide(seed, "", 1, dir) else {
            panic!("not played")
        };
        let mut engine = Game::new(Rules::default(), seed);
        let Action::Slide(d) = parlor_online::protocol::letters_to_actions(dir).unwrap()[0] else {
            panic!("not a slide")
        };
        let turn = engine.slide(d).unwrap();
        assert_eq!(after.game.board(), engine.board());
        assert_eq!(after.tile, Some(tile_of(turn.spawned)));
        assert_eq!(after.letters(), dir);
        // Sent again: the same answer; another direction under the same number, a gap, a bad letter: refused.
        let Ok(Slid::Again(again)) = slide(seed, dir, 1, dir) else {
            panic!("not answered again")
        };
        assert_eq!(
            (again.game.board(), again.tile, again.letters()),
            (after.game.board(), after.tile, after.letters())
        );
        let other = if dir == "l" { "r" } else { "l" };
        assert_eq!(
            slide(seed, dir, 1, other).unwrap_err().code,
            ErrorCode::Duplicate
        );
        assert_eq!(
            slide(seed, dir, 3, other).unwrap_err().code,
            ErrorCode::Conflict
        );
        assert_eq!(
            slide(seed, dir, 2, "z").unwrap_err().code,
            ErrorCode::IllegalMove
        );
    }
}
