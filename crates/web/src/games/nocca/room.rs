//! Nocca Nocca's board in Parlor online's rooms on the graphical face: the page's own Nocca board ([`Discs`]: the
//! stacks as discs, a tap on a piece selects it and marks its targets, a tap on a target moves; the terminal's keys)
//! drawn from the room's game as the server's events built it, seen from the player's side (their home row at the
//! bottom; a spectator sees Black's). A move becomes the protocol's notation, which the online client sends.

use super::Discs;
use crate::faces::lobby::RoomHtml;
use crate::faces::play::{Board, Shown, Step};
use nocca::Dims;
use parlor::games::nocca::online::game_of;
use parlor::games::nocca::{Mode, Nocca, Params, State};
use parlor::mid::game::Turn as PlayTurn;
use parlor::tui::room::{BoardSaid, Seat, Turn};

/// The page's Nocca board at a room's game.
#[derive(Default)]
pub struct RoomDiscs {
    discs: Discs,
}

/// The position of `seat`'s game as the page's board draws a game of two at one board, from the seat's side.
fn state_of(seat: &Seat) -> Option<State> {
    let game = game_of(seat.game)?.clone();
    let params = Params {
        mode: Mode::Two,
        human: seat.side.map_or(nocca::Colour::Black, Into::into),
        board: game.position().dims(),
        ..Params::default()
    };
    Some(State {
        game,
        params,
        seed: 0,
    })
}

/// Who moves, as the board reads it: the player (who may tap), or someone else (nothing to tap).
fn turn_of(seat: &Seat) -> Option<PlayTurn> {
    match seat.turn {
        Turn::Mine => Some(PlayTurn::Player),
        Turn::Theirs(_) => Some(PlayTurn::Computer),
        Turn::Watching | Turn::Over => None,
    }
}

/// What the board's step says to the online screen.
fn said(step: Step) -> Option<BoardSaid> {
    match step {
        Step::Pass => None,
        Step::Redraw => Some(BoardSaid::Quiet),
        Step::Move(mv) => Some(BoardSaid::Play(mv)),
        Step::Say(line) => Some(BoardSaid::Say(line)),
    }
}

impl RoomHtml for RoomDiscs {
    fn html(&self, seat: &Seat) -> String {
        let Some(state) = state_of(seat) else {
            return String::new();
        };
        let shown = Shown {
            state: &state,
            turn: turn_of(seat),
            over: seat.turn == Turn::Over,
            context: None,
        };
        self.discs.html(&shown, 0)
    }

    fn act(&mut self, seat: &Seat, act: &str) -> Option<BoardSaid> {
        if let Some(why) = seat.turn.refusal() {
            return Some(BoardSaid::Say(parlor::mid::capitalised(&why)));
        }
        let state = state_of(seat)?;
        let shown = Shown {
            state: &state,
            turn: turn_of(seat),
            over: false,
            context: None,
        };
        said(self.discs.act_on(&shown, act))
    }

    fn key(&mut self, seat: &Seat, key: &str) -> Option<BoardSaid> {
        let state = state_of(seat)?;
        let shown = Shown {
            state: &state,
            turn: turn_of(seat),
            over: seat.turn == Turn::Over,
            context: None,
        };
        let waiting = seat
            .turn
            .refusal()
            .map(|w| parlor::mid::capitalised(&w))
            .unwrap_or_default();
        said(self.discs.key_on(&shown, key, &waiting))
    }

    fn forget(&mut self) {
        self.discs = Discs::default();
    }

    fn class(&self) -> &'static str {
        Board::<Nocca>::class(&self.discs)
    }

    fn boards(&self) -> Vec<(String, String)> {
        let mut out = vec![(
            Dims::STANDARD.to_string(),
            format!("{} (standard)", Dims::STANDARD),
        )];
        for rows in (Dims::MIN_ROWS..=Dims::MAX_ROWS).rev() {
            for cols in (Dims::MIN_COLS..=Dims::MAX_COLS).rev() {
                if let Ok(d) = Dims::new(rows, cols)
                    && d != Dims::STANDARD
                {
                    out.push((d.to_string(), d.to_string()));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rooms_game_is_drawn_by_the_pages_board_and_a_tap_makes_a_move_in_notation() {
        let room = parlor::registry::online().room;
        let game = room.start("3x3").unwrap();
        let seat = Seat {
            game: game.as_ref(),
            side: Some(parlor_online::protocol::Side::Black),
            turn: Turn::Mine,
        };
        let mut board = RoomDiscs::default();
        let html = board.html(&seat);
        assert!(html.contains("data-act=\"b:sel:0:0\""), "{html}");
        assert_eq!(board.act(&seat, "sel:0:0"), Some(BoardSaid::Quiet));
        let html = board.html(&seat);
        assert!(html.contains("data-act=\"b:to:1:0\""), "{html}");
        assert_eq!(
            board.act(&seat, "to:1:0"),
            Some(BoardSaid::Play("a1k".into()))
        );
        // Waiting for the other player, or watching: nothing to tap, and a tap says why.
        let theirs = Seat {
            turn: Turn::Theirs("bob".into()),
            ..seat.clone()
        };
        assert!(!board.html(&theirs).contains("b:sel:"));
        assert_eq!(
            board.act(&theirs, "sel:0:0"),
            Some(BoardSaid::Say("Not your turn: bob is to move".into()))
        );
        let watching = Seat {
            side: None,
            turn: Turn::Watching,
            ..seat
        };
        assert!(!board.html(&watching).contains("<button"));
        assert_eq!(board.boards()[0].0, "6x5");
        assert!(board.boards().iter().any(|b| b.0 == "3x3"));
    }
}
