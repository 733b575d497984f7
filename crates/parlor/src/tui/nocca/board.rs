//! Drawing the Nocca Nocca board: every square shows its pieces bottom to top as letters (`b w B`: the top piece
//! in capitals and bold), the goals as strips beyond the home rows, and marks for the cursor, the selected piece,
//! its legal targets (with the key of each step) and the last move. Every mark is a glyph, so colour is optional.

use crate::tui::theme::Theme;
use nocca::{Move, Position, Square};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// Inner width of a square.
pub const CELL_W: u16 = 7;
/// Columns before the first square (row numbers).
pub const MARGIN: u16 = 3;

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
    /// A suggested move (hint).
    pub hint: Option<Move>,
}

/// Width and height of the drawn board (goal labels included).
pub fn extent(pos: &Position) -> (u16, u16) {
    let d = pos.dims();
    (
        MARGIN + d.cols() as u16 * (CELL_W + 1) + 1 + GOAL_LABEL_W,
        2 * d.rows() as u16 + 1 + 3,
    )
}

const GOAL_LABEL_W: u16 = 17;

/// The screen line (from the board's top) and column of a board point, for mouse hits: returns (row, col) with
/// row -1 / `rows` for the goal strips.
pub fn hit(pos: &Position, dx: u16, dy: u16) -> Option<(i32, i32)> {
    let d = pos.dims();
    let rows = d.rows() as i32;
    if dx < MARGIN + 1 {
        return None;
    }
    let col = i32::from((dx - MARGIN - 1) / (CELL_W + 1));
    if col >= d.cols() as i32 || (dx - MARGIN - 1) % (CELL_W + 1) == CELL_W {
        return None;
    }
    let dy = i32::from(dy);
    let row = if dy == 0 {
        rows
    } else if dy == 2 * rows + 3 {
        -1
    } else if dy >= 2 && dy < 2 * rows + 1 && dy % 2 == 0 {
        rows - 1 - (dy - 2) / 2
    } else {
        return None;
    };
    Some((row, col))
}

fn target_of(m: Move) -> (i32, i32) {
    m.target()
}

/// The board as lines of text, ready for a Paragraph.
pub fn lines(pos: &Position, marks: &Marks, theme: &Theme) -> Vec<Line<'static>> {
    let d = pos.dims();
    let rows = d.rows() as i32;
    let cols = d.cols() as i32;
    let mut out = Vec::new();
    let rule = |l: &str, m: &str, r: &str| {
        let mut s = " ".repeat(MARGIN as usize);
        s.push_str(l);
        for c in 0..cols {
            s.push_str(&"─".repeat(CELL_W as usize));
            s.push_str(if c + 1 == cols { r } else { m });
        }
        Line::raw(s)
    };
    out.push(goal_line(rows, marks, cols, "▲ goal for Black", theme));
    out.push(rule("┌", "┬", "┐"));
    for r in (0..rows).rev() {
        let mut spans = vec![Span::raw(format!("{:>2} ", r + 1)), Span::raw("│")];
        for c in 0..cols {
            let Some(sq) = Square::new(r as usize, c as usize) else {
                continue;
            };
            spans.extend(cell(pos, sq, marks, theme));
            spans.push(Span::raw("│"));
        }
        out.push(Line::from(spans));
        out.push(if r == 0 {
            rule("└", "┴", "┘")
        } else {
            rule("├", "┼", "┤")
        });
    }
    let mut letters = " ".repeat(MARGIN as usize + 1);
    for c in 0..cols {
        letters.push_str(&format!("{:^7} ", (b'a' + c as u8) as char));
    }
    out.push(Line::raw(letters.trim_end().to_string()));
    out.push(goal_line(-1, marks, cols, "▼ goal for White", theme));
    out
}

fn target_style(theme: &Theme) -> Style {
    if theme.color {
        Style::default().bg(Color::Green).fg(Color::Black)
    } else {
        Style::default().add_modifier(Modifier::UNDERLINED)
    }
}

fn selected_style(theme: &Theme) -> Style {
    if theme.color {
        Style::default()
            .bg(Color::Yellow)
            .fg(Color::Black)
            .add_modifier(Modifier::BOLD)
    } else {
        Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }
}

fn goal_line(row: i32, marks: &Marks, cols: i32, label: &str, theme: &Theme) -> Line<'static> {
    let mut spans = vec![Span::raw(" ".repeat(MARGIN as usize + 1))];
    for c in 0..cols {
        let target = marks.targets.iter().find(|m| target_of(**m) == (row, c));
        let cursor = marks.cursor == Some((row, c));
        let hinted = marks.hint.is_some_and(|m| target_of(m) == (row, c));
        let scored = marks.last.is_some_and(|m| target_of(m) == (row, c));
        let text = match target {
            Some(m) => format!("goal {}", m.dir),
            None if scored => "*GOAL*".to_string(),
            None if hinted => "hint".to_string(),
            None => "· · ·".to_string(),
        };
        let mut style = match target {
            Some(_) => target_style(theme),
            None if scored => theme.strong(),
            None => theme.dim(),
        };
        if cursor {
            style = theme.selected();
        }
        let text = if cursor {
            format!("[{text:^5}]")
        } else {
            format!("{text:^7}")
        };
        spans.push(Span::styled(text, style));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled(label.to_string(), theme.dim()));
    Line::from(spans)
}

/// One square: a left mark, the pieces (5 columns), a right mark.
fn cell(pos: &Position, sq: Square, marks: &Marks, theme: &Theme) -> Vec<Span<'static>> {
    let here = (sq.row() as i32, sq.col() as i32);
    let cursor = marks.cursor == Some(here);
    let selected = marks.selected == Some(sq);
    let target = marks.targets.iter().find(|m| target_of(**m) == here);
    let hinted = marks
        .hint
        .is_some_and(|m| m.from == sq || target_of(m) == here);
    let left = if cursor {
        '['
    } else if selected {
        '('
    } else if marks.last.is_some_and(|m| target_of(m) == here) {
        '*'
    } else if marks.last.is_some_and(|m| m.from == sq) {
        '.'
    } else if hinted {
        '?'
    } else {
        ' '
    };
    let right = if cursor {
        ']'
    } else if let Some(m) = target {
        m.dir.letter()
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
        spans.push(Span::styled("  ·  ", base.patch(theme.dim())));
    } else {
        let pad = 5 - (2 * h - 1);
        let lead = pad / 2;
        spans.push(Span::styled(" ".repeat(lead), base));
        for (i, p) in st.iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(" ", base));
            }
            let top = i + 1 == h;
            let (txt, style) = if top {
                (
                    p.letter().to_ascii_uppercase(),
                    base.add_modifier(Modifier::BOLD),
                )
            } else {
                (p.letter(), base)
            };
            spans.push(Span::styled(txt.to_string(), style));
        }
        spans.push(Span::styled(" ".repeat(pad - lead), base));
    }
    spans.push(Span::styled(right.to_string(), base));
    spans
}
