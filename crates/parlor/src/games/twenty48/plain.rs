//! 2048 in plain mode: the board as text after every move; `w a s d` (or `h j k l`, or the words).

pub use super::board_text::board_text;
use crate::games::twenty48::{Params, State, Twenty48};
use crate::plain::game::PlainGame;
use twenty48::Direction;

impl PlainGame for Twenty48 {
    fn board_text(
        state: &State,
        _params: &Params,
        last: Option<&Direction>,
        _over: bool,
    ) -> String {
        match (&state.last, last) {
            (Some(t), Some(_)) => board_text(
                state.game.board(),
                Some((t.spawned.0, t.spawned.1)),
                &t.merged,
            ),
            _ => board_text(state.game.board(), None, &[]),
        }
    }

    fn intro(_context: &(), p: &Params, seed: u64) -> String {
        format!(
            "2048 on {0}x{0}, seed {seed}. Make {1} to win. Tiles marked + just appeared, * were merged.",
            p.size, p.target
        )
    }

    fn prompt(_state: &State, _params: &Params) -> String {
        "move [w a s d | h j k l | up down left right], p [N] autoplay".into()
    }

    fn told(state: &State, dir: &Direction) -> String {
        match &state.last {
            Some(t) => {
                let (r, c, v) = t.spawned;
                format!("Slid {dir}. New {v} at row {}, column {}.", r + 1, c + 1)
            }
            None => format!("Slid {dir}."),
        }
    }
}
