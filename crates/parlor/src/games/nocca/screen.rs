//! Nocca Nocca on the full screen: a cursor (arrows, h j k l, w a s d) or a click selects a piece and then its
//! target; a selected piece also steps with the digits laid out as on a number pad (7 8 9 / 4 6 / 1 2 3), which
//! leaves the play screen's common letters (u undo, x give up, ...) alone. Esc (or 5) cancels a selection; Esc with
//! nothing selected goes back to the menu, as the common table says. On a solved board `v` shows the exact value
//! of every move (the value overlay): under each movable piece its best move's value, under each target of the
//! selected piece that move's value, and every move listed below the board.

use super::board::{Layout, Marks, digit};
use crate::games::nocca::{
    Exact, Mode, Nocca, Params, State, Tables, exact, movable, moves_from, short_value,
    square_refusal,
};
use crate::input::{KeyCode, MouseButton, MouseEvent, MouseEventKind};
use crate::mid::game::{Game, Turn};
use crate::mid::session::Session;
use crate::tui::game::{Act, Board as View, TuiGame};
use crate::tui::keys::{Binding, bar, common, more};
use crate::tui::layout::{fit_line, shorten};
use crate::tui::theme::Theme;
use nocca::{Dir, Move, Square};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::Paragraph;

/// What the player is doing: where the cursor is and which piece is selected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ui {
    /// The cursor as (row, col), rows -1 and `rows` being the goal strips; `None` until it first moves (it then
    /// stands on the home row of the side the player moves).
    pub cursor: Option<(i32, i32)>,
    /// The selected piece, with the number of plies played when it was selected (a selection made before an undo
    /// or another move no longer counts).
    pub selected: Option<(Square, usize)>,
    /// Whether the value overlay is on (solved boards).
    pub values: bool,
}

/// The game's own commands on the play screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cmd {
    /// Moves the cursor by (rows, columns).
    Cursor(i32, i32),
    /// Selects the piece under the cursor, or moves the selected piece to the target under it.
    Choose,
    /// Steps the selected piece.
    Step(Dir),
    /// Cancels the selection.
    Cancel,
    /// Turns the value overlay on or off.
    Values,
}

/// The value overlay's key, offered on solved boards.
const VALUES: Binding<Cmd> = bar(&[KeyCode::Char('v')], "v", "values", Cmd::Values);

/// The binding of a step digit: key `$digit` (written `$label`) steps the selected piece towards `$dir`.
macro_rules! step_binding {
    ($digit:literal, $label:literal, $help:literal, $dir:ident) => {
        more(
            &[KeyCode::Char($digit)],
            $label,
            $help,
            Cmd::Step(Dir::$dir),
        )
    };
}
pub(crate) use step_binding;

/// The keys that play on a Nocca board (the cursor, select, the nine step digits, cancel), then `$extra`, for any key
/// table whose command type, named `Cmd` where it is used, has `Choose`, `Cursor`, `Step` and `Cancel`: the local
/// game's and the online game's (`online/screen.rs`). A board that is not solved says `←↓↑→ Enter select · 1-9 step`
/// in the hint bar; a solved one adds [`VALUES`] and, to make room for it, says `←↓↑→ Enter 1-9 move`.
macro_rules! play_bindings {
    ($select:expr, $select_help:expr, $step_in_bar:expr, $cancel_keys:expr, $cancel_help:expr $(, $extra:expr)* $(,)?) => { &[
    Binding {
        keys: &[],
        label: $select,
        help: $select_help,
        in_bar: true,
        cmd: Cmd::Choose,
    },
    more(common::UP, "↑ k w", "cursor up", Cmd::Cursor(1, 0)),
    more(common::DOWN, "↓ j s", "cursor down", Cmd::Cursor(-1, 0)),
    more(common::LEFT, "← h a", "cursor left", Cmd::Cursor(0, -1)),
    more(common::RIGHT, "→ l d", "cursor right", Cmd::Cursor(0, 1)),
    more(
        common::ENTER,
        "Enter Space",
        "select a piece, then its target (a click does too)",
        Cmd::Choose,
    ),
    Binding {
        keys: &[],
        label: "1-9",
        help: "step",
        in_bar: $step_in_bar,
        cmd: Cmd::Step(Dir::K),
    },
    $crate::games::nocca::screen::step_binding!('7', "7", "step up-left", Y),
    $crate::games::nocca::screen::step_binding!('8', "8", "step up", K),
    $crate::games::nocca::screen::step_binding!('9', "9", "step up-right", U),
    $crate::games::nocca::screen::step_binding!('4', "4", "step left", H),
    $crate::games::nocca::screen::step_binding!('6', "6", "step right", L),
    $crate::games::nocca::screen::step_binding!('1', "1", "step down-left", B),
    $crate::games::nocca::screen::step_binding!('2', "2", "step down", J),
    $crate::games::nocca::screen::step_binding!('3', "3", "step down-right", N),
    more($cancel_keys, "5 Esc", $cancel_help, Cmd::Cancel),
    $($extra),*
] };
}
// The online game (the `online` module) makes its key table with it too.
pub(crate) use play_bindings;

/// The cancel key of the local game (Esc, with nothing selected, goes back to the menu through the common keys).
const CANCEL_KEYS: &[KeyCode] = &[KeyCode::Char('5')];
/// What the cancel key does in the local game.
const CANCEL_HELP: &str = "cancel the selection (Esc with none: back to the menu)";

/// `v` on a board without a solved table: not in the hint bar, and it says why there are no values.
const NO_VALUES: Binding<Cmd> = more(
    &[KeyCode::Char('v')],
    "v",
    "values of every move (on a solved board; elsewhere it says why there are none)",
    Cmd::Values,
);

const BINDINGS: &[Binding<Cmd>] = play_bindings!(
    "←↓↑→ Enter",
    "select",
    true,
    CANCEL_KEYS,
    CANCEL_HELP,
    NO_VALUES
);
const SOLVED: &[Binding<Cmd>] = play_bindings!(
    "←↓↑→ Enter 1-9",
    "move",
    false,
    CANCEL_KEYS,
    CANCEL_HELP,
    VALUES
);

/// Nobody at the keyboard plays when the computer plays itself: only the common keys remain (and the value
/// overlay on a solved board).
const WATCHING: &[Binding<Cmd>] = &[NO_VALUES];
const WATCHING_SOLVED: &[Binding<Cmd>] = &[VALUES];

/// The key table for these parameters without a data directory (for tests: it must not clash with itself or the
/// common table): [`bindings_in`] the default [`Tables`].
pub fn bindings(params: &Params) -> &'static [Binding<Cmd>] {
    bindings_in(params, &Tables::default())
}

/// The key table for these parameters where the solved tables are `tables`: the value overlay's key is in the bar
/// on a board whose table can be had.
pub fn bindings_in(params: &Params, tables: &Tables) -> &'static [Binding<Cmd>] {
    let solved = tables.available(params.board).is_ok();
    match (params.mode == Mode::Watch, solved) {
        (true, false) => WATCHING,
        (true, true) => WATCHING_SOLVED,
        (false, false) => BINDINGS,
        (false, true) => SOLVED,
    }
}

/// The value overlay turned on or off (`values`) on `pos`'s board, whose table is among `tables` (asked for when it
/// is turned on); what to say of it. Every face's `v` (the terminal's and the page's) says the same.
pub fn toggle_values(values: &mut bool, tables: &Tables, pos: &nocca::Position) -> String {
    let dims = pos.dims();
    if let Err(why) = tables.values_available(dims) {
        *values = false;
        return format!("no values on this board: exact values need its solved table ({why})");
    }
    *values = !*values;
    if !*values {
        return "values hidden".into();
    }
    tables.prepare(dims);
    match exact(tables, pos) {
        Some(ex) => format!("values shown · {}", ex.said()),
        None => format!("values shown once the {dims} table is ready"),
    }
}

/// The overlay's values on the board: under each movable piece its best move's value, or, with a piece selected,
/// under each of its targets that move's value, by (row, column) of the square.
pub fn labels(
    ex: &Exact,
    selected: Option<Square>,
    pos: &nocca::Position,
) -> Vec<((i32, i32), String)> {
    match selected {
        Some(sq) => ex
            .moves
            .iter()
            .filter(|(m, _)| m.from == sq && !pos.is_goal_move(*m))
            .map(|(m, v)| (m.target(), short_value(*v)))
            .collect(),
        None => movable(pos)
            .into_iter()
            .filter_map(|sq| {
                let v = ex.best_from(sq)?;
                Some(((sq.row() as i32, sq.col() as i32), short_value(v)))
            })
            .collect(),
    }
}

/// Every move's value, grouped by piece, each move by the digit that steps the selected piece there (the keys of
/// the full screen, not plain mode's letters): `a1: 8 W9, 9 L12 · b1: 7 W11`. (What the value overlay writes under
/// the board; the browser's tests compare the page's with it.)
pub fn listing(ex: &Exact, pos: &nocca::Position) -> String {
    let mut groups: Vec<String> = Vec::new();
    for sq in movable(pos) {
        let moves: Vec<String> = ex
            .moves
            .iter()
            .filter(|(m, _)| m.from == sq)
            // A no-break space: a step and its value stay on one line.
            .map(|(m, v)| format!("{}\u{a0}{}", digit(m.dir), short_value(*v)))
            .collect();
        groups.push(format!("{sq}: {}", moves.join(", ")));
    }
    format!(
        "{}: {}. Each piece, then the digit of each step and its value (W win, L loss in plies, D draw): {}",
        crate::mid::capitalised(&format!("{} to move", ex.side)),
        ex.value,
        groups.join(" · ")
    )
}

/// A move as the full screen names it: the square it leaves, an arrow, the square it reaches or `goal`
/// (`c1→c2`), on a board of `dims`.
pub fn square_move(mv: Move, dims: nocca::Dims) -> String {
    let (r, _) = mv.target();
    let to = if r < 0 || r >= dims.rows() as i32 {
        "goal".to_string()
    } else {
        mv.to()
            .map_or_else(|| "goal".to_string(), |t| t.to_string())
    };
    format!("{}→{to}", mv.from)
}

/// Splits `text` into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let end = lines.len() - 1;
        let last = &mut lines[end];
        if !last.is_empty() && last.chars().count() + 1 + word.chars().count() > width {
            lines.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines
}

/// The piece selected now, if the selection still holds.
fn selection(ui: &Ui, state: &State) -> Option<Square> {
    ui.selected
        .filter(|&(_, ply)| ply == state.game.ply())
        .map(|(sq, _)| sq)
}

/// The cursor: where it was put, else the middle of the home row of the side the player moves.
fn cursor(ui: &Ui, state: &State) -> (i32, i32) {
    ui.cursor.unwrap_or_else(|| {
        let p = &state.params;
        let side = state.game.side_to_move();
        let home = if p.mode == Mode::Computer && p.is_computer(side) {
            p.human
        } else {
            side
        };
        let dims = state.position().dims();
        (dims.home_row(home) as i32, dims.cols() as i32 / 2)
    })
}

fn targets(ui: &Ui, state: &State) -> Vec<Move> {
    selection(ui, state).map_or_else(Vec::new, |sq| moves_from(state.position(), sq))
}

/// Enter or a click at the cursor: select a piece, take back the selection, or move to a target.
fn choose(ui: &mut Ui, state: &State) -> Act<Move> {
    let (r, c) = cursor(ui, state);
    let pos = state.position();
    let rows = pos.dims().rows() as i32;
    let sq = if (0..rows).contains(&r) && c >= 0 {
        Square::new(r as usize, c as usize)
    } else {
        None
    };
    if let Some(sel) = selection(ui, state) {
        if sq == Some(sel) {
            ui.selected = None;
            return Act::Say("selection cancelled".into());
        }
        if let Some(m) = targets(ui, state)
            .into_iter()
            .find(|m| m.target() == (r, c))
        {
            return Act::Play(m);
        }
    }
    let Some(sq) = sq else {
        return Act::Say("that is a goal: select a piece first".into());
    };
    if let Some(why) = square_refusal(pos, sq) {
        return Act::Say(why);
    }
    ui.selected = Some((sq, state.game.ply()));
    let list: Vec<String> = targets(ui, state)
        .iter()
        .map(|&m| {
            format!(
                "{} {}",
                digit(m.dir),
                crate::games::nocca::target_name(pos, m)
            )
        })
        .collect();
    Act::Say(format!("{sq} selected: {}", list.join(" · ")))
}

fn step(dir: Dir, ui: &Ui, state: &State) -> Act<Move> {
    let Some(sel) = selection(ui, state) else {
        return Act::Say("select a piece first (cursor, then Enter)".into());
    };
    let mv = Move::new(sel, dir);
    match state.position().check(mv) {
        Ok(()) => Act::Play(mv),
        Err(e) => Act::Say(format!("{} from {sel}: {e}", digit(dir))),
    }
}

impl TuiGame for Nocca {
    type Ui = Ui;
    type Cmd = Cmd;

    fn bindings(params: &Params) -> &'static [Binding<Cmd>] {
        bindings(params)
    }

    fn bindings_now(params: &Params, _ui: &Ui, session: &Session<Self>) -> &'static [Binding<Cmd>] {
        bindings_in(params, session.context())
    }

    fn board_size(params: &Params) -> (u16, u16) {
        Layout::tiny(params.board).size()
    }

    fn draw(frame: &mut Frame, area: Rect, board: &View<Self>, theme: &Theme) {
        let state = board.state;
        let dims = state.position().dims();
        let playing = !board.over && state.params.mode != Mode::Watch;
        let overlay = board.ui.is_some_and(|ui| ui.values) && !board.over;
        // (A replay, with no one playing, needs no table. Where the computer thinks elsewhere, the perfect level's
        // table is solved there: solving it here too would freeze the page; the overlay still asks for it.)
        let perfect = state.params.level == nocca::Opponent::Perfect
            && state.params.mode != Mode::Two
            && crate::mid::elsewhere::elsewhere().is_none();
        if board.ui.is_some() && (perfect || overlay) {
            // The perfect level and the overlay need the table: start loading or solving it now.
            board.context.prepare(dims);
        }
        let ex = if overlay {
            exact(board.context, state.position())
        } else {
            None
        };
        let mut marks = match board.ui {
            Some(ui) if playing => Marks {
                cursor: Some(cursor(ui, state)),
                selected: selection(ui, state),
                targets: targets(ui, state),
                last: board.last.copied(),
                labels: Vec::new(),
            },
            _ => Marks {
                last: board.last.copied(),
                ..Marks::default()
            },
        };
        if let Some(ex) = &ex {
            marks.labels = labels(ex, marks.selected, state.position());
        }
        let layout = Layout::fitting_in(
            state.position().dims(),
            area.width,
            area.height.saturating_sub(1),
        );
        let rect = layout.rect(area);
        frame.render_widget(
            Paragraph::new(layout.lines(state.position(), &marks, theme)),
            rect,
        );
        let mut below = rect.bottom();
        if let Some(ui) = board.ui
            && playing
            && below < area.bottom()
            && Nocca::status(state) == crate::mid::game::Status::Playing(Turn::Player)
        {
            let text = if selection(ui, state).is_some() {
                "Step: the digit beside a target, or cursor + Enter, or a click · Esc cancels"
                    .to_string()
            } else {
                let list: Vec<String> = movable(state.position())
                    .iter()
                    .map(|q| q.to_string())
                    .collect();
                format!("Movable: {} · cursor + Enter, or a click", list.join(" "))
            };
            let line = Rect {
                x: area.x,
                y: below,
                width: area.width,
                height: 1,
            };
            frame.render_widget(
                Paragraph::new(fit_line(
                    ratatui::text::Line::styled(text, theme.dim()),
                    line.width,
                )),
                line,
            );
            below += 1;
        }
        if overlay {
            let text = match &ex {
                Some(ex) => listing(ex, state.position()),
                None => board
                    .context
                    .status(dims)
                    .unwrap_or_else(|| format!("Values: the {dims} table is not ready")),
            };
            let mut lines = wrap(&text, usize::from(area.width));
            let room = usize::from(area.bottom().saturating_sub(below));
            if lines.len() > room && room > 0 {
                // What does not fit is said to be missing, never dropped silently.
                lines.truncate(room);
                if let Some(last) = lines.last_mut() {
                    *last = shorten(
                        &format!("{last} … more on a taller terminal"),
                        usize::from(area.width),
                    );
                }
            }
            for line in lines {
                if below >= area.bottom() {
                    break;
                }
                let at = Rect {
                    x: area.x,
                    y: below,
                    width: area.width,
                    height: 1,
                };
                frame.render_widget(Paragraph::new(Span::raw(line)), at);
                below += 1;
            }
        }
    }

    fn watched(params: &Params) -> bool {
        params.mode == Mode::Watch
    }

    fn set_pace(thinker: &mut <Nocca as Game>::Thinker, ms: u64) {
        thinker.set_pace(ms);
    }

    /// Who moved where, then whose turn it is.
    fn announce(tables: &Tables, state: &State, params: &Params, last: &Move) -> String {
        let moved = if state.game.moves().len() % 2 == 1 {
            params.first
        } else {
            params.first.opponent()
        };
        let status = Self::status_text(tables, state, params);
        let status = status.split(" · last").next().unwrap_or_default();
        format!(
            "{} moved {}. {status}",
            crate::mid::capitalised(moved.name()),
            Self::move_name(params, last)
        )
    }

    fn move_name(params: &Params, mv: &Move) -> String {
        square_move(*mv, params.board)
    }

    fn hint_text(tables: &Tables, state: &State, mv: &Move) -> String {
        let pos = state.position();
        let said = format!(
            "{} (select {}, then {})",
            square_move(*mv, pos.dims()),
            mv.from,
            digit(mv.dir)
        );
        match exact(tables, pos) {
            // One sentence each; the value of every move is `v`'s list, which shows all of it.
            Some(e) => format!("{said}. {}; v lists every move's value", e.said()),
            None => match tables.meanwhile(pos.dims()) {
                Some(note) => format!("{said}. {}", crate::mid::capitalised(&note)),
                None => said,
            },
        }
    }

    fn status_text(tables: &Tables, state: &State, params: &Params) -> String {
        if state.game.is_over() {
            return String::new();
        }
        let side = state.game.side_to_move();
        let who = match params.mode {
            Mode::Computer if params.is_computer(side) => " (computer)",
            Mode::Computer => " (you)",
            Mode::Watch => " (computer)",
            Mode::Two => "",
        };
        let mut s = format!("{}{who} to move", crate::mid::capitalised(side.name()));
        if let Some(m) = state.game.moves().last() {
            s.push_str(&format!(
                " · last {}",
                square_move(*m, state.position().dims())
            ));
        }
        if let Some(work) = tables.status(state.position().dims()) {
            s.push_str(&format!(" · {work}"));
        }
        s
    }

    fn command(cmd: Cmd, ui: &mut Ui, session: &Session<Self>) -> Act<Move> {
        let state = session.state();
        let mine = session.turn() == Some(Turn::Player);
        match cmd {
            Cmd::Cursor(dr, dc) => {
                let d = state.position().dims();
                let (lo, hi) = if selection(ui, state).is_some() {
                    (-1, d.rows() as i32)
                } else {
                    (0, d.rows() as i32 - 1)
                };
                let (r, c) = cursor(ui, state);
                ui.cursor = Some((
                    (r + dr).clamp(lo, hi),
                    (c + dc).clamp(0, d.cols() as i32 - 1),
                ));
                Act::Stay
            }
            Cmd::Choose | Cmd::Step(_) if !mine => {
                Act::Say("wait: it is the computer's turn".into())
            }
            Cmd::Choose => choose(ui, state),
            Cmd::Step(dir) => step(dir, ui, state),
            Cmd::Values => Act::Say(toggle_values(
                &mut ui.values,
                session.context(),
                state.position(),
            )),
            Cmd::Cancel => match Self::cancel(ui, session) {
                Some(said) => Act::Say(said),
                None => Act::Say("nothing is selected".into()),
            },
        }
    }

    fn cancel(ui: &mut Ui, session: &Session<Self>) -> Option<String> {
        selection(ui, session.state())?;
        ui.selected = None;
        let rows = session.state().position().dims().rows() as i32;
        if let Some((r, c)) = ui.cursor {
            ui.cursor = Some((r.clamp(0, rows - 1), c));
        }
        Some("selection cancelled".into())
    }

    fn mouse(event: MouseEvent, area: Rect, ui: &mut Ui, session: &Session<Self>) -> Act<Move> {
        let state = session.state();
        if !matches!(event.kind, MouseEventKind::Down(MouseButton::Left))
            || state.params.mode == Mode::Watch
        {
            return Act::Stay;
        }
        let layout = Layout::fitting_in(
            state.position().dims(),
            area.width,
            area.height.saturating_sub(1),
        );
        let rect = layout.rect(area);
        if event.column < rect.x || event.row < rect.y {
            return Act::Stay;
        }
        match layout.hit(event.column - rect.x, event.row - rect.y) {
            Some(at) => {
                ui.cursor = Some(at);
                Self::command(Cmd::Choose, ui, session)
            }
            None => Act::Stay,
        }
    }

    fn after_move(ui: &mut Ui, session: &Session<Self>) {
        ui.selected = None;
        let rows = session.state().position().dims().rows() as i32;
        if let Some((r, c)) = ui.cursor {
            ui.cursor = Some((r.clamp(0, rows - 1), c));
        }
    }
}
