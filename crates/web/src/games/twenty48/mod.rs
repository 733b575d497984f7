//! 2048's board on the page: the tiles as elements placed by CSS transforms on a grid, which slide, merge and
//! appear as the terminal's animation does ([`parlor::games::twenty48::animation`]: every tile's path, from the
//! engine's rule), in about 100 ms. Each drawing starts the animations at the time of the move (a negative
//! `animation-delay`), so a redraw mid-animation goes on where it was and the next move's drawing replaces it at
//! once. Swipes (the shell's pointer events) and keys are slides; `prefers-reduced-motion` turns the motion off
//! (CSS).

use crate::faces::play::{Board, Shown, Step};
use parlor::games::twenty48::animation::{DURATION_MS, paths};
use parlor::games::twenty48::{State, Twenty48};
use parlor::mid::session::Session;
use twenty48::Direction;

/// The board's own state: the last move, to animate it.
#[derive(Default)]
pub struct Tiles {
    /// The board before the last move, its direction and when it was played (page ms).
    last: Option<(twenty48::Board, Direction, u64)>,
}

/// The slide a key asks for, as the terminal reads them: arrows, vim's h j k l, w a s d.
pub fn key_direction(key: &str) -> Option<Direction> {
    Some(match key {
        "ArrowLeft" | "h" | "a" | "A" | "H" => Direction::Left,
        "ArrowRight" | "l" | "d" | "D" | "L" => Direction::Right,
        "ArrowUp" | "k" | "w" | "W" | "K" => Direction::Up,
        "ArrowDown" | "j" | "s" | "S" | "J" => Direction::Down,
        _ => return None,
    })
}

/// The CSS classes of a tile of exponent `exp` showing `label`.
fn tile_class(exp: u8, label: &str) -> String {
    let digits = label.len().clamp(1, 6);
    format!("tile e{} d{digits}", exp.min(17))
}

fn label(exp: u8) -> String {
    1u64.checked_shl(u32::from(exp))
        .map_or_else(|| format!("2^{exp}"), |v| v.to_string())
}

impl Tiles {
    /// The tiles of `state` as HTML, the move `last` (board before, direction, ms since) animated.
    fn tiles(&self, state: &State, now_ms: u64) -> String {
        let board = state.game.board();
        let n = board.size();
        let mut out = String::new();
        let since = self
            .last
            .as_ref()
            .map(|(_, _, at)| now_ms.saturating_sub(*at))
            .filter(|&t| t < DURATION_MS);
        let delay = since.map_or_else(String::new, |t| format!(";--t:-{t}ms"));
        if let (Some((before, dir, _)), Some(_)) = (&self.last, since) {
            for p in paths(before, *dir) {
                let l = label(p.exp);
                out.push_str(&format!(
                    "<div class=\"{} ghost\" aria-hidden=\"true\" style=\"--r:{};--c:{};--fr:{};--fc:{}{delay}\"><b>{l}</b></div>",
                    tile_class(p.exp, &l),
                    p.to.0,
                    p.to.1,
                    p.from.0,
                    p.from.1
                ));
            }
        }
        let (new, merged) = match (&state.last, since) {
            (Some(t), Some(_)) => (Some((t.spawned.0, t.spawned.1)), t.merged.clone()),
            _ => (None, Vec::new()),
        };
        for r in 0..n {
            for c in 0..n {
                let exp = board.exponent(r, c);
                if exp == 0 {
                    continue;
                }
                let l = label(exp);
                let role = if new == Some((r, c)) {
                    " new"
                } else if merged.contains(&(r, c)) {
                    " merged"
                } else if since.is_some() {
                    " late"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "<div class=\"{}{role}\" data-r=\"{r}\" data-c=\"{c}\" style=\"--r:{r};--c:{c}{delay}\"><b>{l}</b></div>",
                    tile_class(exp, &l)
                ));
            }
        }
        out
    }
}

impl Board<Twenty48> for Tiles {
    fn html(&self, shown: &Shown<Twenty48>, now_ms: u64) -> String {
        let state = shown.state;
        let n = state.game.board().size();
        let cells = "<div></div>".repeat(n * n);
        let tiles: Vec<String> = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| match state.game.board().exponent(r, c) {
                        0 => "empty".to_string(),
                        e => label(e),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        format!(
            "<div class=\"b2048\" id=\"board\" data-swipe=\"1\" data-whole=\"1\" role=\"img\" aria-label=\"2048 board, rows: {}\" style=\"--n:{n}\"><div class=\"cells\">{cells}</div>{}</div>",
            tiles.join("; "),
            self.tiles(state, now_ms)
        )
    }

    fn act(&mut self, _session: &Session<Twenty48>, act: &str) -> Step {
        match act.parse::<Direction>() {
            Ok(d) => Step::Move(d.to_string()),
            Err(_) => Step::Pass,
        }
    }

    fn key(&mut self, _session: &Session<Twenty48>, key: &str) -> Step {
        key_direction(key).map_or(Step::Pass, |d| Step::Move(d.to_string()))
    }

    fn played(&mut self, before: &State, mv: &Direction, now_ms: u64) {
        self.last = Some((*before.game.board(), *mv, now_ms));
    }

    fn keys_help(&self) -> &'static str {
        "swipe on the board, or ←↓↑→ h j k l w a s d slide"
    }

    fn class(&self) -> &'static str {
        "g2048"
    }
}
