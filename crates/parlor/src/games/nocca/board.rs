//! Drawing the Nocca Nocca board: every square shows its pieces bottom to top as letters (`b w B`: the top piece in
//! capitals and bold), the goals as strips beyond the home rows, and marks for the cursor, the selected piece, its
//! legal targets (with the digit that steps there) and the last move. Every mark is a glyph, so colour is optional.
//!
//! The board has three layouts: a full one with a rule between rows, a compact one (no rules between rows) for
//! short terminals, and a tiny one (narrow squares, no frame, the column letters in the lower goal strip) down to a
//! 40x12 terminal; all are laid
//! out by [`Layout`], which drawing and the mouse share.

use crate::tui::theme::Theme;
use nocca::{Dims, Dir, Move, Position, Square};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

/// Inner width of a square.
pub const CELL_W: u16 = 7;
/// Inner width of a square in the tiny layout (the pieces written without spaces).
pub const TINY_W: u16 = 5;
/// Columns before the first square (row numbers).
pub const MARGIN: u16 = 3;
const GOAL_LABEL_W: u16 = 17;

/// What to mark on the board.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// The cursor as (row, col); row -1 and row `rows` are the goal strips.
    pub cursor: Option<(i32, i32)>,
    /// The selected piece.
    pub selected: Option<Square>,
    /// The legal moves of the selected piece.
    pub targets: Vec<Move>,
    /// The last move played.
    pub last: Option<Move>,
    /// Values to write on the rule below a square, as ((row, col), text): the value overlay (`W13`, `L8`, `D`).
    pub labels: Vec<((i32, i32), String)>,
}

/// The digit that steps a selected piece in `dir`, laid out as on a number pad (7 8 9 / 4 6 / 1 2 3).
pub fn digit(dir: Dir) -> char {
    match dir {
        Dir::Y => '7',
        Dir::K => '8',
        Dir::U => '9',
        Dir::H => '4',
        Dir::L => '6',
        Dir::B => '1',
        Dir::J => '2',
        Dir::N => '3',
    }
}

/// The board's layout: full (a rule between rows), compact or tiny.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    dims: Dims,
    compact: bool,
    tiny: bool,
}

impl Layout {
    /// The compact layout: no rule between rows.
    pub fn compact(dims: Dims) -> Layout {
        Layout {
            dims,
            compact: true,
            tiny: false,
        }
    }

    /// The tiny layout (the smallest the board needs): narrow squares, the goal strips and the rows only.
    pub fn tiny(dims: Dims) -> Layout {
        Layout {
            dims,
            compact: true,
            tiny: true,
        }
    }

    /// The full layout if it fits in `height` rows, else the compact one.
    pub fn fitting(dims: Dims, height: u16) -> Layout {
        let full = Layout {
            dims,
            compact: false,
            tiny: false,
        };
        if full.size().1 <= height {
            full
        } else {
            Layout::compact(dims)
        }
    }

    /// The largest layout that fits in `width` x `height`: full, compact, else tiny.
    pub fn fitting_in(dims: Dims, width: u16, height: u16) -> Layout {
        let l = Layout::fitting(dims, height);
        let (w, h) = l.size();
        if w <= width && h <= height {
            l
        } else {
            Layout::tiny(dims)
        }
    }

    /// Inner width of a square.
    fn cell_w(&self) -> u16 {
        if self.tiny { TINY_W } else { CELL_W }
    }

    /// Width and height of the drawn board (goal labels included, but in the tiny layout).
    pub fn size(&self) -> (u16, u16) {
        let rows = self.dims.rows() as u16;
        let squares = MARGIN + self.dims.cols() as u16 * (self.cell_w() + 1) + 1;
        if self.tiny {
            return (squares, rows + 2);
        }
        let w = squares + GOAL_LABEL_W;
        (w, if self.compact { rows + 5 } else { 2 * rows + 4 })
    }

    /// Where the board goes in `area`: centred across, at the top.
    pub fn rect(&self, area: Rect) -> Rect {
        let (w, h) = self.size();
        let w = w.min(area.width);
        Rect {
            x: area.x + (area.width - w) / 2,
            y: area.y,
            width: w,
            height: h.min(area.height),
        }
    }

    /// The board point under (dx, dy) from the board's top left: (row, col) with row -1 / `rows` for the goal
    /// strips; `None` between squares or off the board.
    pub fn hit(&self, dx: u16, dy: u16) -> Option<(i32, i32)> {
        let rows = self.dims.rows() as i32;
        if dx < MARGIN + 1 {
            return None;
        }
        let cw = self.cell_w();
        let col = i32::from((dx - MARGIN - 1) / (cw + 1));
        if col >= self.dims.cols() as i32 || (dx - MARGIN - 1) % (cw + 1) == cw {
            return None;
        }
        let dy = i32::from(dy);
        let last = i32::from(self.size().1) - 1;
        let row = if dy == 0 {
            rows
        } else if dy == last {
            -1
        } else if self.tiny && (1..1 + rows).contains(&dy) {
            rows - 1 - (dy - 1)
        } else if self.compact && (2..2 + rows).contains(&dy) {
            rows - 1 - (dy - 2)
        } else if !self.compact && (2..2 * rows + 1).contains(&dy) && dy % 2 == 0 {
            rows - 1 - (dy - 2) / 2
        } else {
            return None;
        };
        Some((row, col))
    }

    /// The board as lines of text, ready for a Paragraph.
    pub fn lines(&self, pos: &Position, marks: &Marks, theme: &Theme) -> Vec<Line<'static>> {
        let rows = self.dims.rows() as i32;
        let cols = self.dims.cols() as i32;
        let mut out = Vec::new();
        let cw = self.cell_w();
        // One row of squares, its number on the left.
        let squares = |r: i32| {
            let mut spans = vec![Span::raw(format!("{:>2} ", r + 1)), Span::raw("│")];
            for c in 0..cols {
                if let Some(sq) = Square::new(r as usize, c as usize) {
                    spans.extend(cell(pos, sq, marks, cw, theme));
                    spans.push(Span::raw("│"));
                }
            }
            Line::from(spans)
        };
        if self.tiny {
            // No room for a row of column letters: White's goal strip, under row 1, carries them (`·a·`).
            out.push(goal_line(rows, marks, cols, None, cw, theme));
            out.extend((0..rows).rev().map(squares));
            out.push(goal_line(-1, marks, cols, Some(""), cw, theme));
            return out;
        }
        // A rule between rows; below row `under`, the overlay's values of that row's squares.
        let rule = |l: &str, m: &str, r: &str, under: Option<i32>| {
            let mut spans = vec![Span::raw(format!("{}{l}", " ".repeat(MARGIN as usize)))];
            for c in 0..cols {
                let label = under.and_then(|row| {
                    marks
                        .labels
                        .iter()
                        .find(|(at, _)| *at == (row, c))
                        .map(|(_, t)| t)
                });
                match label {
                    Some(t) => spans.push(Span::styled(
                        format!("{t:─^w$}", w = usize::from(cw)),
                        theme.strong(),
                    )),
                    None => spans.push(Span::raw("─".repeat(usize::from(cw)))),
                }
                spans.push(Span::raw(if c + 1 == cols { r } else { m }.to_string()));
            }
            Line::from(spans)
        };
        out.push(goal_line(
            rows,
            marks,
            cols,
            Some("▲ goal for Black"),
            cw,
            theme,
        ));
        out.push(rule("┌", "┬", "┐", None));
        for r in (0..rows).rev() {
            out.push(squares(r));
            if r == 0 {
                out.push(rule("└", "┴", "┘", Some(r)));
            } else if !self.compact {
                out.push(rule("├", "┼", "┤", Some(r)));
            }
        }
        let mut letters = " ".repeat(MARGIN as usize + 1);
        for c in 0..cols {
            letters.push_str(&format!("{:^7} ", (b'a' + c as u8) as char));
        }
        out.push(Line::raw(letters.trim_end().to_string()));
        out.push(goal_line(
            -1,
            marks,
            cols,
            Some("▼ goal for White"),
            cw,
            theme,
        ));
        out
    }
}

fn target_style(theme: &Theme) -> Style {
    theme.target()
}

fn selected_style(theme: &Theme) -> Style {
    theme.picked()
}

/// A goal strip: one stretch per column `cw` wide, and its label unless `None` (the tiny layout's upper strip) or
/// empty (the tiny layout's lower strip, which names the columns instead).
fn goal_line(
    row: i32,
    marks: &Marks,
    cols: i32,
    label: Option<&str>,
    cw: u16,
    theme: &Theme,
) -> Line<'static> {
    let narrow = cw < CELL_W;
    let mut spans = vec![Span::raw(" ".repeat(MARGIN as usize + 1))];
    for c in 0..cols {
        let target = marks.targets.iter().find(|m| m.target() == (row, c));
        let cursor = marks.cursor == Some((row, c));
        let scored = marks.last.is_some_and(|m| m.target() == (row, c));
        let text = match (target, narrow) {
            (Some(m), false) => format!("goal {}", digit(m.dir)),
            (Some(m), true) => format!("g {}", digit(m.dir)),
            (None, false) if scored => "*GOAL*".to_string(),
            (None, true) if scored => "*G*".to_string(),
            (None, false) => "· · ·".to_string(),
            // The tiny layout's lower strip (its label `Some("")`) names the columns.
            (None, true) if label.is_some() => format!("·{}·", (b'a' + c as u8) as char),
            (None, true) => "···".to_string(),
        };
        let mut style = match target {
            Some(_) => target_style(theme),
            None if scored => theme.strong(),
            None => theme.dim(),
        };
        if cursor {
            style = theme.selected();
        }
        let inner = usize::from(cw) - 2;
        let text = if cursor {
            format!("[{text:^inner$}]")
        } else {
            format!("{text:^w$}", w = usize::from(cw))
        };
        spans.push(Span::styled(text, style));
        spans.push(Span::raw(" "));
    }
    if let Some(label) = label.filter(|l| !l.is_empty()) {
        spans.push(Span::styled(label.to_string(), theme.dim()));
    }
    Line::from(spans)
}

/// One square `cw` wide: a left mark, the pieces (with spaces between them when there is room), a right mark.
fn cell(pos: &Position, sq: Square, marks: &Marks, cw: u16, theme: &Theme) -> Vec<Span<'static>> {
    let inner = usize::from(cw) - 2;
    let here = (sq.row() as i32, sq.col() as i32);
    let cursor = marks.cursor == Some(here);
    let selected = marks.selected == Some(sq);
    let target = marks.targets.iter().find(|m| m.target() == here);
    let left = if cursor {
        '['
    } else if selected {
        '('
    } else if marks.last.is_some_and(|m| m.target() == here) {
        '*'
    } else if marks.last.is_some_and(|m| m.from == sq) {
        '.'
    } else {
        ' '
    };
    let right = if cursor {
        ']'
    } else if let Some(m) = target {
        digit(m.dir)
    } else if selected {
        ')'
    } else {
        ' '
    };
    let base = if cursor {
        theme.selected()
    } else if selected {
        selected_style(theme)
    } else if target.is_some() {
        target_style(theme)
    } else {
        Style::default()
    };
    let st = pos.stack(sq);
    let h = st.height();
    let mut spans = vec![Span::styled(left.to_string(), base)];
    if h == 0 {
        spans.push(Span::styled(
            format!("{:^inner$}", "·"),
            base.patch(theme.dim()),
        ));
    } else {
        let spaced = 2 * h - 1 <= inner;
        let pad = inner.saturating_sub(if spaced { 2 * h - 1 } else { h });
        let lead = pad / 2;
        spans.push(Span::styled(" ".repeat(lead), base));
        for (i, p) in st.iter().enumerate() {
            if i > 0 && spaced {
                spans.push(Span::styled(" ", base));
            }
            // A piece's side shows in its letter and, on a plain square, in its colour too.
            let side = if base == Style::default() {
                base.patch(super::colours::side(theme, p))
            } else {
                base
            };
            let (txt, style) = if i + 1 == h {
                (
                    p.letter().to_ascii_uppercase(),
                    side.add_modifier(Modifier::BOLD),
                )
            } else {
                (p.letter(), side)
            };
            spans.push(Span::styled(txt.to_string(), style));
        }
        spans.push(Span::styled(" ".repeat(pad - lead), base));
    }
    spans.push(Span::styled(right.to_string(), base));
    spans
}
