//! The mouse, written once for every screen: lists and forms ([`Rows`]: a click chooses a row, the wheel moves the
//! cursor), yes/no questions ([`answer_at`]: a click on `y ...` or `n ...`), and drags ([`drag_direction`]: the
//! board slides the way the pointer went). Screens turn what the mouse did into the same commands as their
//! keys ([`Nav`], [`Answer`]), so the mouse can do nothing a key cannot. `--no-mouse` turns mouse capture off, and
//! then none of this is reached.

use super::keys::{Answer, Nav};
use super::text::{Cell, Shown};
use crate::input::{KeyCode, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

/// A list as it was last drawn: where, how many items, and which item its first row shows (one item per row).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rows {
    /// The area the rows were drawn in.
    pub area: Rect,
    /// The item on the area's first row (the scroll offset).
    pub first: usize,
    /// How many items there are.
    pub len: usize,
}

/// What the mouse did to a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pointer {
    /// The wheel: as the cursor key [`Nav::Up`] or [`Nav::Down`].
    Wheel(Nav),
    /// A left click on an item, and the column clicked (relative to the area's left edge).
    Click(usize, u16),
}

impl Rows {
    /// The rows of `len` items drawn in `area` from item `first`.
    pub fn new(area: Rect, first: usize, len: usize) -> Rows {
        Rows { area, first, len }
    }

    /// The item under the pointer, if any.
    pub fn item_at(&self, column: u16, row: u16) -> Option<usize> {
        if !contains(self.area, column, row) {
            return None;
        }
        let i = self.first + usize::from(row - self.area.y);
        (i < self.len).then_some(i)
    }

    /// What `event` does to the list: the wheel anywhere on the screen moves the cursor, a left click on an item
    /// points at it; anything else is `None`.
    pub fn pointer(&self, event: &MouseEvent) -> Option<Pointer> {
        match event.kind {
            MouseEventKind::ScrollUp => Some(Pointer::Wheel(Nav::Up)),
            MouseEventKind::ScrollDown => Some(Pointer::Wheel(Nav::Down)),
            MouseEventKind::Down(MouseButton::Left) => self
                .item_at(event.column, event.row)
                .map(|i| Pointer::Click(i, event.column - self.area.x)),
            _ => None,
        }
    }

    /// The usual list: the wheel moves the cursor, a click on an item selects it and chooses it. Returns the item
    /// to select first (if any) and the command to run as if its key had been pressed.
    pub fn nav(&self, event: &MouseEvent) -> Option<(Option<usize>, Nav)> {
        match self.pointer(event)? {
            Pointer::Wheel(nav) => Some((None, nav)),
            Pointer::Click(i, _) => Some((Some(i), Nav::Choose)),
        }
    }
}

/// A setting of a form (the settings screen, a game's setup) as last drawn: its index, its first and last screen
/// rows, and where its ◀ and ▶ are (column, row).
#[derive(Clone, Copy, Debug)]
pub struct SettingHit {
    /// The setting's index in the form.
    pub setting: usize,
    /// Its first and last screen rows.
    pub rows: (u16, u16),
    /// Where its ◀ is, if shown.
    pub left: Option<(u16, u16)>,
    /// Where its ▶ is, if shown.
    pub right: Option<(u16, u16)>,
}

impl SettingHit {
    /// Setting `setting` as `shown` drew it: the text rows `first..first + count`, its ◀ and ▶ at the cells
    /// `left` and `right`; `None` when none of its rows is shown.
    pub fn drawn(
        shown: &Shown,
        setting: usize,
        (first, count): (usize, usize),
        left: Option<Cell>,
        right: Option<Cell>,
    ) -> Option<SettingHit> {
        Some(SettingHit {
            setting,
            rows: shown.rows(first, count)?,
            left: left.and_then(|c| shown.at(c)),
            right: right.and_then(|c| shown.at(c)),
        })
    }

    /// The setting drawn on screen row `y`, if any.
    pub fn on_row(hits: &[SettingHit], y: u16) -> Option<SettingHit> {
        hits.iter()
            .find(|h| (h.rows.0..=h.rows.1).contains(&y))
            .copied()
    }

    /// The key a click at (x, y) on this setting stands for: ← on its ◀, → on its ▶, none elsewhere.
    pub fn arrow(&self, x: u16, y: u16) -> Option<KeyCode> {
        if self.left == Some((x, y)) {
            Some(KeyCode::Left)
        } else if self.right == Some((x, y)) {
            Some(KeyCode::Right)
        } else {
            None
        }
    }
}

/// Whether (column, row) is inside `area`.
pub fn contains(area: Rect, column: u16, row: u16) -> bool {
    column >= area.x && column < area.right() && row >= area.y && row < area.bottom()
}

/// The answer clicked in a question's answer line: `text` (such as `y keep going · n stop here`) drawn on screen
/// row `row` from column `x`. A click on the part before ` · ` answers yes, after it no.
pub fn answer_at(event: &MouseEvent, text: &str, x: u16, row: u16) -> Option<Answer> {
    if event.kind != MouseEventKind::Down(MouseButton::Left) || event.row != row || event.column < x
    {
        return None;
    }
    let col = usize::from(event.column - x);
    let (yes, no) = text.split_once(" · ")?;
    let yes_w = yes.chars().count();
    let no_w = no.chars().count();
    if col < yes_w {
        Some(Answer::Yes)
    } else if col >= yes_w + 3 && col < yes_w + 3 + no_w {
        Some(Answer::No)
    } else {
        None
    }
}

/// The answer clicked in a box drawn by [`super::layout::draw_dialog`] at `rect` whose last line is `text`
/// (centred).
pub fn dialog_answer(event: &MouseEvent, rect: Rect, text: &str) -> Option<Answer> {
    let inner = rect.width.saturating_sub(2);
    let w = u16::try_from(text.chars().count()).unwrap_or(u16::MAX);
    if w > inner || rect.height < 3 {
        return None;
    }
    let x = rect.x + 1 + (inner - w) / 2;
    answer_at(event, text, x, rect.bottom() - 2)
}

/// The way a drag from `from` to `to` (column, row) went, if it went far enough: the larger of the two moves wins,
/// a row counting as two columns (terminal cells are about twice as tall as wide).
pub fn drag_direction(from: (u16, u16), to: (u16, u16)) -> Option<Nav> {
    let dx = i32::from(to.0) - i32::from(from.0);
    let dy = 2 * (i32::from(to.1) - i32::from(from.1));
    if dx.abs().max(dy.abs()) < 2 {
        return None;
    }
    Some(if dx.abs() > dy.abs() {
        if dx > 0 { Nav::Right } else { Nav::Left }
    } else if dy > 0 {
        Nav::Down
    } else {
        Nav::Up
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::KeyModifiers;

    fn ev(kind: MouseEventKind, column: u16, row: u16) -> MouseEvent {
        MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }
    }

    fn click(column: u16, row: u16) -> MouseEvent {
        ev(MouseEventKind::Down(MouseButton::Left), column, row)
    }

    #[test]
    fn a_click_picks_the_item_under_it_counting_the_scroll() {
        let rows = Rows::new(Rect::new(2, 5, 20, 3), 4, 6);
        assert_eq!(rows.nav(&click(2, 5)), Some((Some(4), Nav::Choose)));
        assert_eq!(rows.nav(&click(21, 6)), Some((Some(5), Nav::Choose)));
        assert_eq!(rows.nav(&click(3, 7)), None, "past the last item");
        assert_eq!(rows.nav(&click(1, 5)), None, "left of the list");
        assert_eq!(rows.nav(&click(22, 5)), None, "right of the list");
        assert_eq!(rows.nav(&click(3, 4)), None, "above the list");
        assert_eq!(
            rows.pointer(&click(7, 6)),
            Some(Pointer::Click(5, 5)),
            "the column is relative to the list"
        );
        assert_eq!(
            rows.nav(&ev(MouseEventKind::Down(MouseButton::Right), 3, 5)),
            None
        );
    }

    #[test]
    fn the_wheel_moves_the_cursor_anywhere() {
        let rows = Rows::new(Rect::new(2, 5, 20, 3), 0, 6);
        assert_eq!(
            rows.nav(&ev(MouseEventKind::ScrollUp, 0, 0)),
            Some((None, Nav::Up))
        );
        assert_eq!(
            rows.nav(&ev(MouseEventKind::ScrollDown, 50, 50)),
            Some((None, Nav::Down))
        );
    }

    #[test]
    fn a_click_answers_yes_or_no_by_the_half_it_lands_on() {
        let text = "y keep going · n stop here";
        assert_eq!(answer_at(&click(10, 3), text, 10, 3), Some(Answer::Yes));
        assert_eq!(answer_at(&click(21, 3), text, 10, 3), Some(Answer::Yes));
        assert_eq!(answer_at(&click(22, 3), text, 10, 3), None, "the dot");
        assert_eq!(answer_at(&click(25, 3), text, 10, 3), Some(Answer::No));
        assert_eq!(answer_at(&click(35, 3), text, 10, 3), Some(Answer::No));
        assert_eq!(answer_at(&click(36, 3), text, 10, 3), None, "past it");
        assert_eq!(answer_at(&click(12, 4), text, 10, 3), None, "another row");
        // In a box: the line is centred on the last inner row.
        let rect = Rect::new(0, 0, 30, 4);
        assert_eq!(
            dialog_answer(&click(3, 2), rect, "y yes · n no"),
            None,
            "left of the centred line"
        );
        assert_eq!(
            dialog_answer(&click(9, 2), rect, "y yes · n no"),
            Some(Answer::Yes)
        );
        assert_eq!(
            dialog_answer(&click(17, 2), rect, "y yes · n no"),
            Some(Answer::No)
        );
    }

    #[test]
    fn a_drag_goes_the_way_it_went_furthest() {
        assert_eq!(drag_direction((10, 10), (10, 10)), None);
        assert_eq!(drag_direction((10, 10), (11, 10)), None, "too short");
        assert_eq!(drag_direction((10, 10), (14, 11)), Some(Nav::Right));
        assert_eq!(drag_direction((10, 10), (5, 9)), Some(Nav::Left));
        assert_eq!(
            drag_direction((10, 10), (12, 12)),
            Some(Nav::Down),
            "a row counts double"
        );
        assert_eq!(drag_direction((10, 10), (10, 9)), Some(Nav::Up));
    }
}
