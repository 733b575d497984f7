//! 2048 on the full screen: its key table and its board, with new (`+`) and merged (`*`) tiles marked.

use crate::games::session::Session;
use crate::games::twenty48::animation::{DURATION_MS, Role, Sprite, frame as frame_at};
use crate::games::twenty48::{Params, State, Twenty48};
use crate::input::{MouseButton, MouseEvent, MouseEventKind};
use crate::tui::game::{Act, Board as View, TuiGame};
use crate::tui::keys::{Binding, Nav, common, more};
use crate::tui::mouse::{contains, drag_direction};
use crate::tui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};
use twenty48::board::exp_value;
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

/// The 2048 board's UI state: where a drag began, and the animation of the last move.
#[derive(Clone, Debug, Default)]
pub struct Ui {
    /// The cell (column, row) the left button went down on, while it is held.
    pub drag_from: Option<(u16, u16)>,
    /// The board and the direction of the slide the player just asked for (kept until the move is made).
    asked: Option<(Board, Direction)>,
    /// The move being animated.
    pub anim: Option<Anim>,
}

/// A move being animated: the boards before and after it, its direction, its new tile, and when it began.
#[derive(Clone, Debug)]
pub struct Anim {
    /// The board before the move.
    pub before: Board,
    /// The board after the move (its new tile included).
    pub after: Board,
    /// The slide.
    pub dir: Direction,
    /// The new tile's cell.
    pub spawned: Option<(usize, usize)>,
    /// When the move was made (the installed monotonic clock's milliseconds, [`crate::host::Clock`]).
    pub start_ms: u64,
}

impl Anim {
    /// How far through the animation it is now, from 0 to 1 (1: over).
    pub fn progress(&self) -> f64 {
        let ms = crate::host::clock()
            .monotonic_ms()
            .saturating_sub(self.start_ms) as f64;
        (ms / duration_ms() as f64).min(1.0)
    }
}

/// The animation's length: [`DURATION_MS`], or for the end-to-end tests `PARLOR_TEST_ANIMATION_MS` (a test hook: a
/// long animation lets a test press a key in the middle of one).
fn duration_ms() -> u64 {
    static MS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *MS.get_or_init(|| {
        std::env::var("PARLOR_TEST_ANIMATION_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&ms| ms > 0)
            .unwrap_or(DURATION_MS)
    })
}

/// Asks for a slide: notes the board it starts from (for the animation) and plays it.
fn ask(dir: Direction, ui: &mut Ui, session: &Session<Twenty48>) -> Act<Direction> {
    ui.asked = Some((*session.state().game.board(), dir));
    Act::Play(dir)
}

impl TuiGame for Twenty48 {
    type Ui = Ui;
    type Cmd = Direction;

    fn bindings(_params: &Params) -> &'static [Binding<Direction>] {
        BINDINGS
    }

    /// The slide, what merged and the points it gained, the new tile, the score.
    fn announce(_context: &(), state: &State, _params: &Params, last: &Direction) -> String {
        let board = state.game.board();
        let value = |r: usize, c: usize| 1u64 << board.exponent(r, c);
        let score = state.game.score();
        let Some(turn) = &state.last else {
            return format!("{last}, score {score}");
        };
        let merged = if turn.merged.is_empty() {
            "no merge".to_string()
        } else {
            let tiles: Vec<String> = turn
                .merged
                .iter()
                .map(|&(r, c)| value(r, c).to_string())
                .collect();
            format!("merged {}, plus {}", tiles.join(", "), turn.gained)
        };
        let (r, c, v) = turn.spawned;
        format!(
            "{last}: {merged}, score {score}; new {v} at row {}, column {}{}",
            r + 1,
            c + 1,
            if turn.over { "; no move left" } else { "" }
        )
    }

    fn board_size(params: &Params) -> (u16, u16) {
        board_extent(params.size, CELL_WS[CELL_WS.len() - 1], 1)
    }

    fn draw(frame: &mut Frame, area: Rect, board: &View<Self>, theme: &Theme) {
        if let Some(a) = board.ui.and_then(|ui| ui.anim.as_ref()) {
            let t = a.progress();
            if t < 1.0 {
                let sprites = frame_at(&a.before, a.dir, &a.after, a.spawned, t);
                draw_sprites(frame, area, a.after.size(), &sprites, theme);
                return;
            }
        }
        draw_board(
            frame,
            area,
            board.state.game.board(),
            &Marks::of(board.state, board.last.is_some()),
            theme,
        );
    }

    fn status_text(_context: &(), state: &State, _params: &Params) -> String {
        format!("Moves {}", state.game.moves_made())
    }

    fn command(dir: Direction, ui: &mut Ui, session: &Session<Self>) -> Act<Direction> {
        ask(dir, ui, session)
    }

    /// Starts the animation of the move just made, if the player asked for it (autoplay's moves are not animated).
    fn after_move(ui: &mut Ui, session: &Session<Self>) {
        let Some((before, dir)) = ui.asked.take() else {
            return;
        };
        let state = session.state();
        let after = *state.game.board();
        let spawned = state.last.as_ref().map(|t| (t.spawned.0, t.spawned.1));
        // Only a move from the board asked about (not one made meanwhile) is animated.
        let mut expected = before.slide(dir).board;
        if let Some((r, c)) = spawned {
            expected.set_exponent(r, c, after.exponent(r, c));
        }
        if expected == after {
            ui.anim = Some(Anim {
                before,
                after,
                dir,
                spawned,
                start_ms: crate::host::clock().monotonic_ms(),
            });
        }
    }

    fn animating(ui: &Ui) -> bool {
        ui.anim.as_ref().is_some_and(|a| a.progress() < 1.0)
    }

    fn settle(ui: &mut Ui) {
        ui.anim = None;
    }

    /// A drag that starts on the board slides the way it went, when the button is let go.
    fn mouse(
        event: MouseEvent,
        area: Rect,
        ui: &mut Ui,
        session: &Session<Self>,
    ) -> Act<Direction> {
        let at = (event.column, event.row);
        match event.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                ui.drag_from = contains(area, at.0, at.1).then_some(at);
                Act::Stay
            }
            MouseEventKind::Up(MouseButton::Left) => {
                let dir = ui
                    .drag_from
                    .take()
                    .and_then(|from| drag_direction(from, at));
                let dir = match dir {
                    Some(Nav::Up) => Direction::Up,
                    Some(Nav::Down) => Direction::Down,
                    Some(Nav::Left) => Direction::Left,
                    Some(Nav::Right) => Direction::Right,
                    _ => return Act::Stay,
                };
                ask(dir, ui, session)
            }
            _ => Act::Stay,
        }
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

/// Columns and rows a board of side `n` takes with cells `cell_w` columns wide and `cell_h` rows high (border
/// included).
pub fn board_extent(n: usize, cell_w: u16, cell_h: u16) -> (u16, u16) {
    let n = n as u16;
    (n * cell_w + 1, n * cell_h + 2)
}

/// Cell widths, widest first (a column between cells included): the board takes the widest that fits.
const CELL_WS: [u16; 3] = [8, 7, 6];
/// Cell heights, tallest first (a blank row under the tile included from 3 up).
const CELL_HS: [u16; 4] = [4, 3, 2, 1];

/// The cell size (columns, rows) a board of side `n` takes in `area`: the largest that fits, else the smallest.
pub fn cell_size(n: usize, area: Rect) -> (u16, u16) {
    let w = CELL_WS
        .into_iter()
        .find(|&w| board_extent(n, w, 1).0 <= area.width)
        .unwrap_or(CELL_WS[CELL_WS.len() - 1]);
    let h = CELL_HS
        .into_iter()
        .find(|&h| board_extent(n, w, h).1 <= area.height)
        .unwrap_or(1);
    (w, h)
}

/// Where the board goes in `area` and its cell size: centred, cells as large as fit.
pub fn board_rect(n: usize, area: Rect) -> (Rect, (u16, u16)) {
    let (cw, ch) = cell_size(n, area);
    let (w, h) = board_extent(n, cw, ch);
    (crate::tui::layout::centered(area, w, h), (cw, ch))
}

/// The rectangle of tile (r, c) on a board drawn at `rect` with cells `cell` (without the gap under or beside
/// it).
pub fn tile_rect(rect: Rect, cell: (u16, u16), r: usize, c: usize) -> Rect {
    let (cw, ch) = cell;
    Rect {
        x: rect.x + 1 + c as u16 * cw,
        y: rect.y + 1 + r as u16 * ch,
        width: cw - 1,
        height: ch.saturating_sub(u16::from(ch > 2)).max(1),
    }
}

/// Draws a board centred in `area`, with tiles as large as fit.
pub fn draw_board(frame: &mut Frame, area: Rect, board: &Board, marks: &Marks, theme: &Theme) {
    let n = board.size();
    let (rect, cell) = board_rect(n, area);
    frame.render_widget(Block::default().borders(Borders::ALL), rect);
    for r in 0..n {
        for c in 0..n {
            let tile = tile_rect(rect, cell, r, c);
            if tile.right() > rect.right() || tile.bottom() > rect.bottom() {
                continue;
            }
            draw_tile(
                frame,
                tile,
                board.exponent(r, c),
                board.tile(r, c),
                mark_of(marks, r, c),
                theme,
            );
        }
    }
}

/// Draws one frame of an animation: the empty board, then each tile where it is now (between cells while it
/// slides).
fn draw_sprites(frame: &mut Frame, area: Rect, n: usize, sprites: &[Sprite], theme: &Theme) {
    let (rect, cell) = board_rect(n, area);
    frame.render_widget(Block::default().borders(Borders::ALL), rect);
    for r in 0..n {
        for c in 0..n {
            let tile = tile_rect(rect, cell, r, c);
            if tile.right() <= rect.right() && tile.bottom() <= rect.bottom() {
                draw_tile(frame, tile, 0, 0, ' ', theme);
            }
        }
    }
    for s in sprites {
        let base = tile_rect(rect, cell, 0, 0);
        let tile = Rect {
            x: base.x + (s.col * f64::from(cell.0)).round() as u16,
            y: base.y + (s.row * f64::from(cell.1)).round() as u16,
            ..base
        };
        if tile.right() > rect.right() || tile.bottom() > rect.bottom() {
            continue;
        }
        let mark = match s.role {
            Role::New => '+',
            Role::Merged => '*',
            Role::Sliding | Role::Still => ' ',
        };
        draw_tile(frame, tile, s.exp, exp_value(s.exp), mark, theme);
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

/// A tile's text, as wide as `width` at most: the number, or for the largest tiles on narrow cells a short form
/// (`131k`).
pub fn tile_label(value: u64, width: u16) -> String {
    if value == 0 {
        return "·".to_string();
    }
    let full = value.to_string();
    if full.len() <= usize::from(width) {
        return full;
    }
    let mut v = value;
    for unit in ["k", "M", "G", "T", "P", "E"] {
        v /= 1000;
        let short = format!("{v}{unit}");
        if short.len() <= usize::from(width) {
            return short;
        }
    }
    full
}

/// Where a tile's number goes in its cell: (column, row) offsets, centred both ways (the extra column or row, when
/// the space left is odd, goes after it).
pub fn label_offset(cell: Rect, label_w: u16) -> (u16, u16) {
    (
        cell.width.saturating_sub(label_w) / 2,
        cell.height.saturating_sub(1) / 2,
    )
}

/// Draws one tile: its colour over the whole cell, its number centred, and its mark (`+` new, `*` merged) in the
/// top left corner when it does not touch the number.
pub fn draw_tile(frame: &mut Frame, cell: Rect, exp: u8, value: u64, mark: char, theme: &Theme) {
    let style: Style = super::colours::tile(theme, exp);
    let label = tile_label(value, cell.width);
    let label_w = label.chars().count() as u16;
    let (dx, dy) = label_offset(cell, label_w);
    let mut lines: Vec<Line> = (0..cell.height).map(|_| Line::raw("")).collect();
    let mut row = " ".repeat(usize::from(dx));
    row.push_str(&label);
    if let Some(line) = lines.get_mut(usize::from(dy)) {
        *line = Line::raw(row.clone());
    }
    if mark != ' ' {
        // The corner, or just before the number on a one-row cell.
        if dy > 0 {
            lines[0] = Line::raw(mark.to_string());
        } else if dx > 0 {
            let mut marked = " ".repeat(usize::from(dx - 1));
            marked.push(mark);
            marked.push_str(&label);
            lines[0] = Line::raw(marked);
        }
    }
    frame.render_widget(Paragraph::new(lines).style(style), cell);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_centred_in_their_cells_both_ways() {
        for (w, h) in [(7, 3), (6, 2), (5, 1), (7, 1), (6, 3)] {
            let cell = Rect::new(0, 0, w, h);
            for label in ["2", "16", "128", "2048", "65536"] {
                let lw = label.len() as u16;
                let (dx, dy) = label_offset(cell, lw);
                let right = w - dx - lw;
                assert!(
                    right == dx || right == dx + 1,
                    "{w}x{h} {label}: {dx} {right}"
                );
                let below = h - dy - 1;
                assert!(
                    below == dy || below == dy + 1,
                    "{w}x{h} {label}: {dy} {below}"
                );
            }
        }
    }

    #[test]
    fn long_labels_shorten_to_fit_narrow_cells() {
        assert_eq!(tile_label(0, 5), "·");
        assert_eq!(tile_label(2048, 5), "2048");
        assert_eq!(tile_label(131072, 6), "131072");
        assert_eq!(tile_label(131072, 5), "131k");
        assert_eq!(tile_label(1 << 40, 5), "1099G");
    }

    #[test]
    fn the_board_takes_the_largest_cells_that_fit() {
        assert_eq!(cell_size(4, Rect::new(0, 0, 80, 20)), (8, 4));
        assert_eq!(cell_size(4, Rect::new(0, 0, 40, 8)), (8, 1));
        assert_eq!(cell_size(8, Rect::new(0, 0, 40, 12)), (6, 1));
        assert_eq!(cell_size(8, Rect::new(0, 0, 60, 26)), (7, 3));
    }
}
