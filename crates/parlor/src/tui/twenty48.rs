//! 2048 on the full screen: its key table and its board, with new (`+`) and merged (`*`) tiles marked.

use super::game::{Act, Board as View, TuiGame};
use super::keys::{Binding, common, more};
use super::theme::Theme;
use crate::games::session::Session;
use crate::games::twenty48::{Params, State, Twenty48};
use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};
use twenty48::{Board, Direction};

const BINDINGS: &[Binding<Direction>] = &[
    Binding {
        keys: &[],
        label: "←↓↑→ hjkl wasd",
        help: "slide",
        in_bar: true,
        cmd: Direction::Up,
    },
    more(common::UP, "↑ k w", "slide up", Direction::Up),
    more(common::DOWN, "↓ j s", "slide down", Direction::Down),
    more(common::LEFT, "← h a", "slide left", Direction::Left),
    more(common::RIGHT, "→ l d", "slide right", Direction::Right),
];

impl TuiGame for Twenty48 {
    type Ui = ();
    type Cmd = Direction;

    fn bindings(_params: &Params) -> &'static [Binding<Direction>] {
        BINDINGS
    }

    fn board_size(params: &Params) -> (u16, u16) {
        board_extent(params.size, 1)
    }

    fn draw(frame: &mut Frame, area: Rect, board: &View<Self>, theme: &Theme) {
        draw_board(
            frame,
            area,
            board.state.game.board(),
            &Marks::of(board.state, board.last.is_some()),
            theme,
        );
    }

    fn status_text(state: &State, _params: &Params) -> String {
        format!("Moves {}", state.game.moves_made())
    }

    fn command(dir: Direction, _ui: &mut (), _session: &Session<Self>) -> Act<Direction> {
        Act::Play(dir)
    }
}

/// Which tiles to mark: the one just spawned and those made by a merge.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The newly spawned tile.
    pub new: Option<(usize, usize)>,
    /// Tiles created by a merge this move.
    pub merged: Vec<(usize, usize)>,
}

impl Marks {
    /// The marks of the move that led to `state` (none before the first move).
    pub fn of(state: &State, marked: bool) -> Marks {
        match (&state.last, marked) {
            (Some(t), true) => Marks {
                new: Some((t.spawned.0, t.spawned.1)),
                merged: t.merged.clone(),
            },
            _ => Marks::default(),
        }
    }
}

/// Columns and rows a board of side `n` takes with cells `cell_h` rows high (border included).
pub fn board_extent(n: usize, cell_h: u16) -> (u16, u16) {
    let n = n as u16;
    (n * CELL_W + 1, n * cell_h + 2)
}

const CELL_W: u16 = 8;

/// Draws a board centred in `area`, with tiles as tall as fit (3 rows, 2, or 1).
pub fn draw_board(frame: &mut Frame, area: Rect, board: &Board, marks: &Marks, theme: &Theme) {
    let n = board.size();
    let cell_h = [4u16, 3, 2, 1]
        .into_iter()
        .find(|&h| board_extent(n, h).1 <= area.height)
        .unwrap_or(1);
    let (w, h) = board_extent(n, cell_h);
    let rect = super::layout::centered(area, w, h);
    frame.render_widget(Block::default().borders(Borders::ALL), rect);
    for r in 0..n {
        for c in 0..n {
            let cell = Rect {
                x: rect.x + 1 + c as u16 * CELL_W,
                y: rect.y + 1 + r as u16 * cell_h,
                width: CELL_W - 1,
                height: cell_h.saturating_sub(u16::from(cell_h > 2)).max(1),
            };
            if cell.right() > rect.right() || cell.bottom() > rect.bottom() {
                continue;
            }
            draw_tile(
                frame,
                cell,
                board.exponent(r, c),
                board.tile(r, c),
                mark_of(marks, r, c),
                theme,
            );
        }
    }
}

fn mark_of(marks: &Marks, r: usize, c: usize) -> char {
    if marks.new == Some((r, c)) {
        '+'
    } else if marks.merged.contains(&(r, c)) {
        '*'
    } else {
        ' '
    }
}

fn draw_tile(frame: &mut Frame, cell: Rect, exp: u8, value: u64, mark: char, theme: &Theme) {
    let style: Style = theme.tile(exp);
    let label = if value == 0 {
        "·".to_string()
    } else {
        value.to_string()
    };
    let mut lines = Vec::new();
    if cell.height >= 3 {
        lines.push(Line::raw(format!(
            "{mark:<width$}",
            width = cell.width as usize
        )));
        for _ in 1..(cell.height - 1) / 2 {
            lines.push(Line::raw(""));
        }
        lines.push(Line::raw(label).alignment(Alignment::Center));
    } else {
        // One or two rows: the mark sits just before the number.
        let text = if mark == ' ' {
            label
        } else {
            format!("{mark}{label}")
        };
        lines.push(Line::raw(text).alignment(Alignment::Center));
    }
    frame.render_widget(Paragraph::new(lines).style(style), cell);
}
