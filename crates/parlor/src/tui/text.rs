//! Text by intent: the one place that lays text out in a box. A screen hands its lines to [`Wrapped`], which wraps
//! them at word boundaries (keeping their styles) and knows, for every character, the row and column it lands on:
//! a box takes its height from [`Wrapped::height`], a click target (a `◀` or `▶`, a line to click) comes from
//! [`Wrapped::cell`], and a box too short for its rows scrolls ([`Wrapped::render`]) with a visible "more" mark.
//! A line that may be shortened is fitted with [`fit_parts`], which drops or shortens what matters least and keeps
//! its marks (assisted, who is to move, the result).
//!
//! Each of them also says what it means to show ([`Intent`]): a whole text, or a mark that must stay visible.
//! Drawing records nothing unless [`recording`] asks for it, which the layout tests do: they draw every screen and
//! check that each text meant whole is on the screen whole, and each mark is there.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use std::cell::RefCell;

/// What a screen means to show in an area of the terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Intent {
    /// A text shown whole: every word of it, in order (wrapped over rows is fine).
    Whole(String),
    /// A mark that must stay visible however the text around it is shortened (`assisted`, who is to move, the
    /// result, a box's "more", a hint bar's main action and way back).
    Mark(String),
}

/// One intent, and the area it is drawn in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    /// Where the text is drawn.
    pub area: Rect,
    /// What is meant to show there.
    pub intent: Intent,
}

thread_local! {
    /// The intents said while [`recording`] runs on this thread (`None`: nobody asked).
    static SAID: RefCell<Option<Vec<Said>>> = const { RefCell::new(None) };
}

/// Runs `f` (drawing a frame) and returns what the drawing meant to show, in the order it was drawn; texts that a
/// later box covered (a dialog, the help) are left out.
pub fn recording<R>(f: impl FnOnce() -> R) -> (R, Vec<Said>) {
    SAID.with(|s| *s.borrow_mut() = Some(Vec::new()));
    let r = f();
    let said = SAID.with(|s| s.borrow_mut().take()).unwrap_or_default();
    (r, said)
}

fn say(area: Rect, intent: Intent) {
    SAID.with(|s| {
        if let Some(list) = s.borrow_mut().as_mut()
            && area.width > 0
            && area.height > 0
        {
            list.push(Said { area, intent });
        }
    });
}

/// Says that `text` is meant to show whole in `area`.
pub fn whole(area: Rect, text: &str) {
    if !text.trim().is_empty() {
        say(area, Intent::Whole(text.to_string()));
    }
}

/// Says that the mark `text` must be visible in `area`.
pub fn mark(area: Rect, text: &str) {
    if !text.trim().is_empty() {
        say(area, Intent::Mark(text.to_string()));
    }
}

/// Says that a box now covers `area`: what was meant to show under it is hidden on purpose.
pub fn cover(area: Rect) {
    SAID.with(|s| {
        if let Some(list) = s.borrow_mut().as_mut() {
            list.retain(|said| said.area.intersection(area).is_empty());
        }
    });
}

/// How many columns `s` takes.
pub fn width_of(s: &str) -> usize {
    Line::raw(s).width()
}

/// The columns a continuation row of `text` starts at: under the text after its leading spaces and a leading
/// `▸ ` (a list's cursor), at most half the width.
fn hang(text: &str, width: usize) -> usize {
    let rest = text.trim_start_matches(' ');
    let mut n = text.len() - rest.len();
    if let Some(after) = rest.strip_prefix("▸ ") {
        n += 2;
        n += after.len() - after.trim_start_matches(' ').len();
    }
    n.min(width / 2)
}

/// Where one character of a logical line landed: its row (from the top of the wrapped text) and column.
pub type Cell = (usize, u16);

/// One logical line as laid out.
#[derive(Clone, Debug)]
struct Laid {
    /// Its first row and how many rows it takes.
    first: usize,
    rows: usize,
    /// Where each of its characters landed (a space at a row break lands nowhere).
    cells: Vec<Option<Cell>>,
    /// Its text.
    text: String,
}

/// Lines wrapped at a width, each line's rows and each character's cell known: one layout for drawing, sizing the
/// box and the mouse.
#[derive(Clone, Debug)]
pub struct Wrapped {
    rows: Vec<Line<'static>>,
    lines: Vec<Laid>,
}

/// What [`Wrapped::render`] showed: the first row shown, and where each of the rows landed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// The area drawn in.
    pub area: Rect,
    /// The first row of the text shown (the scroll offset used).
    pub scroll: usize,
    /// The screen row of the text's row `scroll`.
    pub top: u16,
    /// How many rows of the text are shown.
    pub visible: usize,
}

impl Shown {
    /// The screen position of `cell` (from [`Wrapped::cell`]), if it is shown.
    pub fn at(&self, cell: Cell) -> Option<(u16, u16)> {
        let (row, col) = cell;
        (row >= self.scroll && row < self.scroll + self.visible)
            .then(|| (self.area.x + col, self.top + (row - self.scroll) as u16))
    }

    /// The screen rows (first, last) of the text's rows `first..first + count` that are shown, if any.
    pub fn rows(&self, first: usize, count: usize) -> Option<(u16, u16)> {
        let a = first.max(self.scroll);
        let b = (first + count).min(self.scroll + self.visible);
        (a < b).then(|| {
            (
                self.top + (a - self.scroll) as u16,
                self.top + (b - 1 - self.scroll) as u16,
            )
        })
    }
}

/// The mark over the first row of a box scrolled down, and under the last row of one with more below.
pub const MORE_ABOVE: &str = "▲ more";
/// See [`MORE_ABOVE`].
pub const MORE_BELOW: &str = "▼ more";

impl Wrapped {
    /// `lines` wrapped at `width` columns. Every line is meant whole unless it is blank.
    pub fn new(lines: Vec<Line<'_>>, width: u16) -> Wrapped {
        let w = usize::from(width.max(1));
        let mut rows: Vec<Line<'static>> = Vec::new();
        let mut laid = Vec::new();
        for line in lines {
            let style = line.style;
            let chars: Vec<(char, Style)> = line
                .spans
                .iter()
                .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
                .collect();
            let text: String = chars.iter().map(|(c, _)| *c).collect();
            let hang = hang(&text, w);
            let first = rows.len();
            let mut cells = vec![None; chars.len()];
            let mut row: Vec<(char, Style)> = Vec::new();
            let mut col = 0usize;
            // Where this row's text starts (after the indent of a continuation row).
            let mut row_start = 0usize;
            let mut row_no = first;
            let mut i = 0;
            let flush = |row: &mut Vec<(char, Style)>, rows: &mut Vec<Line<'static>>| {
                rows.push(styled_row(row).style(style));
                row.clear();
            };
            while i < chars.len() {
                // The next run: spaces, then a word.
                let mut j = i;
                while j < chars.len() && chars[j].0 == ' ' {
                    j += 1;
                }
                let mut k = j;
                while k < chars.len() && chars[k].0 != ' ' {
                    k += 1;
                }
                let spaces = j - i;
                let word_w: usize = chars[j..k].iter().map(|(c, _)| char_w(*c)).sum();
                let fresh = col == row_start && row_no > first;
                if col > row_start && col + spaces + word_w > w {
                    // The word goes to the next row; the spaces before it land nowhere.
                    flush(&mut row, &mut rows);
                    row_no += 1;
                    row.extend(std::iter::repeat_n((' ', Style::default()), hang));
                    col = hang;
                    row_start = hang;
                } else if !fresh {
                    for (cell, &ch) in cells[i..j].iter_mut().zip(&chars[i..j]) {
                        if col + 1 > w {
                            break;
                        }
                        *cell = Some((row_no, col as u16));
                        row.push(ch);
                        col += 1;
                    }
                }
                // The word, broken across rows only where it is longer than a row.
                for (cell, &(c, s)) in cells[j..k].iter_mut().zip(&chars[j..k]) {
                    let cw = char_w(c);
                    if col + cw > w && col > row_start {
                        flush(&mut row, &mut rows);
                        row_no += 1;
                        let indent = if hang + cw > w { 0 } else { hang };
                        row.extend(std::iter::repeat_n((' ', Style::default()), indent));
                        col = indent;
                        row_start = indent;
                    }
                    *cell = Some((row_no, col as u16));
                    row.push((c, s));
                    col += cw;
                }
                i = k;
            }
            flush(&mut row, &mut rows);
            laid.push(Laid {
                first,
                rows: row_no + 1 - first,
                cells,
                text,
            });
        }
        Wrapped { rows, lines: laid }
    }

    /// How many rows the text takes.
    pub fn height(&self) -> u16 {
        u16::try_from(self.rows.len()).unwrap_or(u16::MAX)
    }

    /// The first row and the number of rows of logical line `line`.
    pub fn rows_of(&self, line: usize) -> (usize, usize) {
        self.lines.get(line).map_or((0, 0), |l| (l.first, l.rows))
    }

    /// Where character `index` (counted in characters) of logical line `line` landed, if it landed anywhere.
    pub fn cell(&self, line: usize, index: usize) -> Option<Cell> {
        self.lines.get(line)?.cells.get(index).copied().flatten()
    }

    /// Where the first `needle` of logical line `line` landed (its first character).
    pub fn find(&self, line: usize, needle: &str) -> Option<Cell> {
        let l = self.lines.get(line)?;
        let byte = l.text.find(needle)?;
        self.cell(line, l.text[..byte].chars().count())
    }

    /// The scroll offset that shows rows `first..first + count` (a selection) in a box `height` rows high, moving
    /// `scroll` as little as it can; the "more" marks take a row each where they show.
    pub fn scroll_to(&self, scroll: usize, first: usize, count: usize, height: u16) -> usize {
        let total = self.rows.len();
        let mut s = scroll.min(total.saturating_sub(1));
        if first < s {
            s = first;
        }
        // Move down until the selection's last row shows (a mark may take a row as the box scrolls).
        for _ in 0..total {
            let (_, visible) = window(total, height, s);
            if first + count <= s + visible || first <= s {
                break;
            }
            s += 1;
        }
        s
    }

    /// Draws the rows into `area` from row `scroll` (clamped so that no blank rows are shown past the end), with
    /// `▲ more` over the first row when rows are hidden above and `▼ more` under the last when rows are hidden
    /// below, and says what it means to show: each line shown whole, and the marks.
    pub fn render(self, frame: &mut Frame, area: Rect, scroll: usize, mark_style: Style) -> Shown {
        let total = self.rows.len();
        let h = usize::from(area.height);
        let max = max_scroll(total, area.height);
        let scroll = scroll.min(max);
        let (above, visible) = window(total, area.height, scroll);
        let below = scroll + visible < total;
        let top = area.y + u16::from(above);
        let shown = Shown {
            area,
            scroll,
            top,
            visible,
        };
        let mut out: Vec<Line<'static>> = Vec::new();
        if above {
            out.push(Line::styled(MORE_ABOVE, mark_style));
        }
        out.extend(self.rows.iter().skip(scroll).take(visible).cloned());
        if below && out.len() < h {
            out.push(Line::styled(MORE_BELOW, mark_style));
        }
        frame.render_widget(Paragraph::new(out), area);
        for l in &self.lines {
            if let Some((a, b)) = shown.rows(l.first, l.rows)
                && l.first >= scroll
                && l.first + l.rows <= scroll + visible
            {
                whole(
                    Rect {
                        y: a,
                        height: b + 1 - a,
                        ..area
                    },
                    &l.text,
                );
            }
        }
        if above {
            mark(Rect { height: 1, ..area }, MORE_ABOVE);
        }
        if below {
            mark(
                Rect {
                    y: area.bottom().saturating_sub(1),
                    height: 1,
                    ..area
                },
                MORE_BELOW,
            );
        }
        shown
    }
}

/// Whether the "more above" mark shows, and how many rows of text show, for `total` rows in a box `height` high
/// scrolled to `scroll`.
fn window(total: usize, height: u16, scroll: usize) -> (bool, usize) {
    let h = usize::from(height);
    if total <= h && scroll == 0 {
        return (false, total);
    }
    let above = scroll > 0 && h > 1;
    let room = h - usize::from(above);
    let left = total.saturating_sub(scroll);
    if left <= room {
        (above, left)
    } else {
        // Rows hidden below: the last row of the box says so.
        (above, room.saturating_sub(usize::from(room > 1)).max(1))
    }
}

/// The largest scroll offset that still fills the box: the last row of text on its last row.
fn max_scroll(total: usize, height: u16) -> usize {
    let h = usize::from(height);
    if total <= h {
        0
    } else {
        // Scrolled to the end, the "more above" mark takes the first row.
        total + 1 - h
    }
}

/// The largest useful scroll offset of `rows` rows in a box `height` rows high drawn by [`Wrapped::render`].
pub fn scroll_limit(rows: u16, height: u16) -> u16 {
    u16::try_from(max_scroll(usize::from(rows), height)).unwrap_or(u16::MAX)
}

fn char_w(c: char) -> usize {
    Line::raw(c.to_string()).width()
}

/// A row of styled characters as a line, each run of one style one span.
fn styled_row(row: &[(char, Style)]) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    for &(c, s) in row {
        match spans.last_mut() {
            Some(last) if last.style == s => last.content.to_mut().push(c),
            _ => spans.push(Span::styled(c.to_string(), s)),
        }
    }
    Line::from(spans)
}

/// How a part of a one-row line ([`fit_parts`]) may give way when the row is too narrow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Give {
    /// A mark that matters (assisted, who is to move, the result): always kept whole.
    Keep,
    /// Dropped when the row is too narrow, the highest number first.
    Drop(u8),
}

/// One part of a one-row line: its text, style, and how it gives way.
pub type Part = (String, Style, Give);

/// A one-row line of `parts` fitted to `width`: whole if it fits; else the droppable parts go, the least important
/// (highest [`Give::Drop`]) first, and what is still too wide is shortened with `…` at its end. Says each kept mark
/// ([`Give::Keep`]) as a mark that must show in `area` (the row it is drawn on).
pub fn fit_parts(parts: &[Part], width: u16, area: Rect) -> Line<'static> {
    let w = usize::from(width);
    let mut kept: Vec<&Part> = parts.iter().collect();
    let total = |kept: &[&Part]| kept.iter().map(|p| width_of(&p.0)).sum::<usize>();
    while total(&kept) > w {
        let Some(pos) = kept
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p.2 {
                Give::Drop(n) => Some((i, n)),
                Give::Keep => None,
            })
            .max_by_key(|&(i, n)| (n, i))
            .map(|(i, _)| i)
        else {
            break;
        };
        kept.remove(pos);
    }
    for p in &kept {
        if p.2 == Give::Keep {
            mark(area, p.0.trim());
        }
    }
    let line = Line::from(
        kept.iter()
            .map(|p| Span::styled(p.0.clone(), p.1))
            .collect::<Vec<_>>(),
    );
    super::layout::fit_line(line, width)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(w: &Wrapped) -> Vec<String> {
        w.rows
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn lines_wrap_at_words_under_their_indent_and_every_character_has_its_cell() {
        let w = Wrapped::new(
            vec![
                Line::raw("▸ Secret may repeat colours   ◀ yes ▶"),
                Line::raw(""),
                Line::raw("Enter starts: classic"),
            ],
            20,
        );
        assert_eq!(
            text_of(&w),
            [
                "▸ Secret may repeat",
                "  colours   ◀ yes ▶",
                "",
                "Enter starts:",
                "classic"
            ]
        );
        assert_eq!(w.height(), 5);
        assert_eq!(w.rows_of(0), (0, 2));
        assert_eq!(w.rows_of(2), (3, 2));
        assert_eq!(w.find(0, "◀"), Some((1, 12)));
        assert_eq!(w.find(0, "▶"), Some((1, 18)));
        assert_eq!(w.find(2, "classic"), Some((4, 0)));
    }

    #[test]
    fn a_word_longer_than_a_row_is_broken_not_lost() {
        let w = Wrapped::new(
            vec![Line::raw("see /a/very/long/path/to/settings.toml now")],
            10,
        );
        let joined: String = text_of(&w).concat().split_whitespace().collect();
        assert_eq!(joined, "see/a/very/long/path/to/settings.tomlnow");
        assert!(
            text_of(&w).iter().all(|r| width_of(r) <= 10),
            "{:?}",
            text_of(&w)
        );
    }

    #[test]
    fn a_box_too_short_scrolls_with_its_marks_and_keeps_the_selection_in_view() {
        let lines: Vec<Line> = (0..10).map(|i| Line::raw(format!("row {i}"))).collect();
        let w = Wrapped::new(lines, 20);
        // Five rows high: row 0 at the top, "▼ more" on the last row.
        assert_eq!(window(10, 5, 0), (false, 4));
        assert_eq!(window(10, 5, 3), (true, 3));
        assert_eq!(window(10, 5, 6), (true, 4));
        assert_eq!(max_scroll(10, 5), 6);
        assert_eq!(w.scroll_to(0, 7, 1, 5), 5);
        assert_eq!(w.scroll_to(5, 2, 1, 5), 2);
        assert_eq!(w.scroll_to(0, 9, 1, 5), 6);
        assert_eq!(window(3, 5, 0), (false, 3));
    }

    #[test]
    fn fitted_parts_drop_the_least_important_first_and_keep_the_marks() {
        let parts: Vec<Part> = vec![
            ("Score 1234".into(), Style::default(), Give::Keep),
            ("   Best 99999".into(), Style::default(), Give::Drop(2)),
            ("   Black to move".into(), Style::default(), Give::Keep),
            ("   assisted".into(), Style::default(), Give::Keep),
            (
                "   seed 7 (not ranked)".into(),
                Style::default(),
                Give::Drop(1),
            ),
        ];
        let (line, said) = recording(|| fit_parts(&parts, 40, Rect::new(0, 0, 40, 1)));
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "Score 1234   Black to move   assisted");
        assert_eq!(said.len(), 3, "{said:?}");
    }
}
