//! Nocca Nocca in Parlor online's rooms: a game as the server's events build it ([`RoomGame`]), the local
//! history's record of a finished one (a game of two at one keyboard on its board, listed as `online`), and the
//! board on the online screen ([`RoomBoard`]): the local game's board, cursor, selection, targets, digits and
//! clicks, with the online screen's cancel (Esc with nothing selected goes back to the lobby).

use super::board::{Layout, Marks, digit};
use super::screen::{Cmd, play_bindings};
use super::{Mode, Params, movable, move_text, moves_from, refusal, square_refusal, target_name};
use crate::input::KeyCode;
use crate::input::KeyEvent;
use crate::tui::keys::{self, Binding, common, more};
use crate::tui::room::{BoardSaid, Recorded, Room, RoomBoard, RoomGame, Seat, Turn, TypedMove};
use crate::tui::theme::Theme;
use nocca::{Dims, Dir, Move, Square};
use parlor_online::protocol::{self, Side};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::Paragraph;

/// Nocca Nocca as the rooms' game.
pub struct NoccaRoom;

/// The rooms' game, for the registry.
pub static ROOM: NoccaRoom = NoccaRoom;

/// The variant an imported game is listed under: `online`, with the board when it is not the standard one.
pub fn variant(dims: Dims) -> String {
    if dims == Dims::STANDARD {
        "online".to_string()
    } else {
        format!("online {dims}")
    }
}

impl Room for NoccaRoom {
    fn title(&self) -> &'static str {
        <super::Nocca as crate::mid::game::Game>::TITLE
    }

    fn start(&self, board: &str) -> Result<Box<dyn RoomGame>, String> {
        let dims: Dims = board
            .parse()
            .map_err(|_| format!("a board this Parlor does not know: {board}"))?;
        Ok(Box::new(Played(nocca::Game::new(
            dims,
            nocca::GameOptions::default(),
        ))))
    }

    fn record(&self, r: &protocol::GameRecord) -> Result<Recorded, String> {
        let dims: Dims = r
            .board
            .parse()
            .map_err(|e| format!("board {}: {e}", r.board))?;
        // The moves must replay from the start, as a local replay will.
        nocca::Game::replay(
            nocca::Position::start(dims),
            nocca::GameOptions::default(),
            &r.moves,
        )
        .map_err(|e| format!("its moves do not replay: {e}"))?;
        let params = Params {
            mode: Mode::Two,
            board: dims,
            ..Params::default()
        };
        Ok(Recorded {
            game: <super::Nocca as crate::mid::game::Game>::ID.to_string(),
            variant: variant(dims),
            options: serde_json::to_string(&params).map_err(|e| e.to_string())?,
            score: r.moves.split_whitespace().count() as i64,
        })
    }

    fn board(&self) -> Box<dyn RoomBoard> {
        Box::new(OnlineBoard::default())
    }

    fn board_help(&self) -> &'static str {
        "In a game the board is the local game's: the cursor or a click selects a piece and then its target, or a \
         digit steps the selected piece (7 8 9 / 4 6 / 1 2 3)"
    }

    fn plain_move_help(&self) -> &'static str {
        "  c1k, c1 k or c1-c2           play a move in the game in front (when it is your turn)"
    }
}

/// A game of the rooms.
#[derive(Clone, Debug)]
struct Played(nocca::Game);

impl RoomGame for Played {
    fn play(&mut self, mv: &str) -> Result<String, String> {
        let m = mv.parse::<Move>().map_err(|e| e.to_string())?;
        self.0.play(m).map_err(|e| e.to_string())?;
        let pos = &self.0.positions()[self.0.ply() - 1];
        Ok(move_text(pos, m, "-").replace("-goal)", " into the goal)"))
    }

    fn to_move(&self) -> Side {
        Side::from(self.0.side_to_move())
    }

    fn ply(&self) -> usize {
        self.0.ply()
    }

    fn board_name(&self) -> String {
        self.0.position().dims().to_string()
    }

    fn last_move(&self) -> Option<String> {
        self.0.moves().last().map(ToString::to_string)
    }

    fn plain_board(&self) -> String {
        super::board_text::board_text(self.0.position(), self.0.moves().last().copied())
    }

    fn plain_movable(&self) -> String {
        let pieces: Vec<String> = movable(self.0.position())
            .iter()
            .map(ToString::to_string)
            .collect();
        pieces.join(" ")
    }

    fn typed_move(&self, text: &str) -> Result<String, TypedMove> {
        let text = text
            .split_whitespace()
            .collect::<String>()
            .to_ascii_lowercase();
        let pos = self.0.position();
        match text.parse::<Move>() {
            Ok(mv) if pos.is_legal(mv) => Ok(mv.to_string()),
            Ok(mv) => Err(TypedMove::Refused(refusal(pos, mv))),
            Err(e) => Err(TypedMove::Unreadable(e.to_string())),
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn clone_box(&self) -> Box<dyn RoomGame> {
        Box::new(self.clone())
    }
}

/// The board's keys on the online screen: the local board's (cursor, select, steps), with Esc also cancelling.
const BOARD: &[Binding<Cmd>] = play_bindings!(
    "←↓↑→ Enter",
    "select",
    true,
    &[KeyCode::Char('5'), KeyCode::Esc],
    "cancel the selection (Esc with none: the lobby)",
);

/// The board on the online screen: where the cursor is, which piece is selected, and where the board was drawn
/// (for clicks).
#[derive(Debug, Default)]
struct OnlineBoard {
    cursor: Option<(i32, i32)>,
    selected: Option<(Square, usize)>,
    drawn: Option<(Rect, Layout)>,
}

/// The Nocca game of a room's game (for the boards that draw it: the full screen's here, the page's own).
pub fn game_of(game: &dyn RoomGame) -> Option<&nocca::Game> {
    game.as_any().downcast_ref::<Played>().map(|p| &p.0)
}

impl OnlineBoard {
    fn selection(&self, g: &nocca::Game, seat: &Seat) -> Option<Square> {
        self.selected
            .filter(|&(_, ply)| ply == g.ply() && seat.turn == Turn::Mine)
            .map(|(sq, _)| sq)
    }

    fn cursor_at(&self, g: &nocca::Game, seat: &Seat) -> (i32, i32) {
        self.cursor.unwrap_or_else(|| {
            let dims = g.position().dims();
            let side = seat.side.unwrap_or(Side::Black);
            (dims.home_row(side.into()) as i32, dims.cols() as i32 / 2)
        })
    }

    fn targets(&self, g: &nocca::Game, seat: &Seat) -> Vec<Move> {
        self.selection(g, seat)
            .map(|sq| moves_from(g.position(), sq))
            .unwrap_or_default()
    }

    fn play(&mut self, mv: Move) -> BoardSaid {
        self.selected = None;
        BoardSaid::Play(mv.to_string())
    }

    /// Enter or a click at the cursor.
    fn choose(&mut self, g: &nocca::Game, seat: &Seat) -> BoardSaid {
        if let Some(why) = seat.turn.refusal() {
            return BoardSaid::Say(why);
        }
        let (r, c) = self.cursor_at(g, seat);
        let pos = *g.position();
        let rows = pos.dims().rows() as i32;
        let sq = if (0..rows).contains(&r) && c >= 0 {
            Square::new(r as usize, c as usize)
        } else {
            None
        };
        if let Some(sel) = self.selection(g, seat) {
            if sq == Some(sel) {
                self.selected = None;
                return BoardSaid::Say("selection cancelled".to_string());
            }
            if let Some(m) = self
                .targets(g, seat)
                .into_iter()
                .find(|m| m.target() == (r, c))
            {
                return self.play(m);
            }
        }
        let Some(sq) = sq else {
            return BoardSaid::Say("that is a goal: select a piece first".to_string());
        };
        if let Some(why) = square_refusal(&pos, sq) {
            return BoardSaid::Say(why);
        }
        self.selected = Some((sq, g.ply()));
        let list: Vec<String> = moves_from(&pos, sq)
            .iter()
            .map(|&m| format!("{} {}", digit(m.dir), target_name(&pos, m)))
            .collect();
        BoardSaid::Say(format!("{sq} selected: {}", list.join(" · ")))
    }

    fn step(&mut self, g: &nocca::Game, seat: &Seat, dir: Dir) -> BoardSaid {
        let Some(sel) = self.selection(g, seat) else {
            let choose = keys::key_of(BOARD, Cmd::Choose);
            return BoardSaid::Say(format!("select a piece first (cursor, then {choose})"));
        };
        let mv = Move::new(sel, dir);
        match g.position().check(mv) {
            Ok(()) => self.play(mv),
            Err(e) => BoardSaid::Say(format!("{} from {sel}: {e}", digit(dir))),
        }
    }
}

impl RoomBoard for OnlineBoard {
    fn key(&mut self, key: &KeyEvent, seat: &Seat) -> Option<BoardSaid> {
        let cmd = keys::lookup(BOARD, key)?;
        let g = game_of(seat.game)?;
        Some(match cmd {
            Cmd::Cursor(dr, dc) => {
                let (r, c) = self.cursor_at(g, seat);
                let dims = g.position().dims();
                let (rows, cols) = (dims.rows() as i32, dims.cols() as i32);
                self.cursor = Some(((r + dr).clamp(-1, rows), (c + dc).clamp(0, cols - 1)));
                BoardSaid::Quiet
            }
            Cmd::Choose => self.choose(g, seat),
            Cmd::Step(d) => self.step(g, seat, d),
            Cmd::Cancel if self.selection(g, seat).is_some() => {
                self.selected = None;
                BoardSaid::Say("selection cancelled".to_string())
            }
            Cmd::Cancel => BoardSaid::Leave,
            Cmd::Values => BoardSaid::Quiet,
        })
    }

    fn click(&mut self, column: u16, row: u16, seat: &Seat) -> Option<BoardSaid> {
        let (rect, layout) = self.drawn?;
        if !crate::tui::mouse::contains(rect, column, row) {
            return None;
        }
        let at = layout.hit(column - rect.x, row - rect.y)?;
        let g = game_of(seat.game)?;
        self.cursor = Some(at);
        Some(self.choose(g, seat))
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, seat: &Seat, theme: &Theme) {
        let Some(g) = game_of(seat.game) else {
            self.drawn = None;
            return;
        };
        let playing = seat.turn == Turn::Mine;
        let marks = Marks {
            cursor: playing.then(|| self.cursor_at(g, seat)),
            selected: self.selection(g, seat),
            targets: self.targets(g, seat),
            last: g.moves().last().copied(),
            labels: Vec::new(),
        };
        let layout = Layout::fitting_in(g.position().dims(), area.width, area.height);
        let rect = layout.rect(area);
        frame.render_widget(
            Paragraph::new(layout.lines(g.position(), &marks, theme)),
            rect,
        );
        self.drawn = Some((rect, layout));
    }

    fn prompt(&self, seat: &Seat) -> Option<String> {
        let g = game_of(seat.game)?;
        if seat.turn != Turn::Mine || self.selection(g, seat).is_some() {
            return None;
        }
        let list: Vec<String> = movable(g.position())
            .iter()
            .map(ToString::to_string)
            .collect();
        let choose = keys::key_of(BOARD, Cmd::Choose);
        Some(format!(
            "Movable: {} · cursor + {choose}, or a click",
            list.join(" ")
        ))
    }

    fn hints(&self, seat: &Seat) -> Vec<(&'static str, &'static str)> {
        let Some(g) = game_of(seat.game) else {
            return Vec::new();
        };
        if seat.turn != Turn::Mine {
            return Vec::new();
        }
        let mut want = vec![(Cmd::Choose, None)];
        if self.selection(g, seat).is_some() {
            want.push((Cmd::Step(Dir::K), None));
            want.push((Cmd::Cancel, Some("cancel")));
        }
        keys::hints(BOARD, &want)
    }

    fn help_rows(&self) -> Vec<(String, &'static str)> {
        keys::help_keys(BOARD)
    }

    fn binds(&self, key: &KeyEvent) -> bool {
        keys::lookup(BOARD, key).is_some()
    }

    fn forget(&mut self) {
        self.cursor = None;
        self.selected = None;
    }
}

#[cfg(test)]
#[path = "online_tests.rs"]
mod tests;
