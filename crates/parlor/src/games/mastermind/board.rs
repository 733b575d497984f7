//! Mastermind's board drawn: the rows of guesses with their pegs, the palette, the code being typed, and where each
//! of them goes on the screen.

use super::screen::Ui;
use super::{Mastermind, Role, colour_keys};
use crate::tui::game::Board;
use crate::tui::layout::wrap_text;
use crate::tui::theme::Theme;
use mastermind::{Code, CodeStyle, Feedback, Palette, Variant};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The style of colour `c`: its own background with a readable foreground (bold only, without colour).
pub fn colour_style(theme: &Theme, c: u8) -> Style {
    super::colours::peg(theme, c)
}

/// A peg as three cells: ` R ` (or `[R]` under the cursor).
pub(super) fn peg_span(theme: &Theme, v: &Variant, c: Option<u8>, cursor: bool) -> Span<'static> {
    let sym = c.map_or('·', |c| v.colour_symbol(c));
    let text = if cursor {
        format!("[{sym}]")
    } else {
        format!(" {sym} ")
    };
    let style = match (c, cursor) {
        (Some(c), false) => colour_style(theme, c),
        (Some(c), true) => colour_style(theme, c).add_modifier(Modifier::REVERSED),
        (None, true) => theme.selected(),
        (None, false) => theme.dim(),
    };
    Span::styled(text, style)
}

/// Feedback pegs: `●●○·` (black, white, empty).
pub fn feedback_text(fb: Feedback, pegs: u8) -> String {
    let mut s = "●".repeat(usize::from(fb.black));
    s.push_str(&"○".repeat(usize::from(fb.white)));
    s.push_str(&"·".repeat(usize::from(pegs.saturating_sub(fb.black + fb.white))));
    s
}

pub(super) fn code_spans(theme: &Theme, v: &Variant, code: &Code) -> Vec<Span<'static>> {
    code.pegs()
        .iter()
        .map(|&c| peg_span(theme, v, Some(c), false))
        .collect()
}

/// What follows colour `c`'s peg in the palette: its number and name, or (`compact`) its number only.
pub(super) fn palette_label(v: &Variant, c: u8, compact: bool) -> String {
    match (v.palette(), compact) {
        (Palette::Colours, false) => format!(" {} {}  ", v.colour_number(c) % 10, v.colour_name(c)),
        (Palette::Colours, true) => format!("{} ", v.colour_number(c) % 10),
        (Palette::Digits, _) => "  ".to_string(),
    }
}

/// Whether the palette is written compact (numbers without names): when the names would not fit on one line of
/// `width` columns.
pub(super) fn palette_compact(v: &Variant, width: u16) -> bool {
    let full: usize = (0..v.colours())
        .map(|c| 3 + palette_label(v, c, false).chars().count())
        .sum();
    2 + full > usize::from(width)
}

/// The colour palette: `1 R RED  2 G GREEN ...` (digits: `0 1 2 ...`; on a narrow screen `R1 G2 ...`), split over
/// lines of at most `width`.
pub(super) fn palette_lines(theme: &Theme, v: &Variant, width: u16) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut spans: Vec<Span<'static>> = vec![Span::raw("  ")];
    let mut used = 2usize;
    let compact = palette_compact(v, width);
    for c in 0..v.colours() {
        let label = palette_label(v, c, compact);
        let need = 3 + label.chars().count();
        if used + need > usize::from(width) && used > 2 {
            lines.push(Line::from(std::mem::take(&mut spans)));
            spans.push(Span::raw("  "));
            used = 2;
        }
        spans.push(peg_span(theme, v, Some(c), false));
        spans.push(Span::raw(label));
        used += need;
    }
    lines.push(Line::from(spans));
    lines
}

/// The lines under the board: what the player types now.
pub(super) fn input_lines(
    board: &Board<Mastermind>,
    ui: &Ui,
    theme: &Theme,
    width: u16,
) -> Vec<Line<'static>> {
    let s = board.state;
    let v = &s.variant;
    let pegs = usize::from(v.pegs());
    if s.role() == Role::Breaker {
        // Bulls and Cows' pegs are digits, typed as themselves; colours by number or capital letter.
        let (long, short) = if v.palette() == Palette::Digits {
            (
                format!("Digits (type them: {}):", colour_keys(v)),
                format!("Type a digit: {}", colour_keys(v)),
            )
        } else {
            (
                format!(
                    "Colours (type the number or the capital letter: {}):",
                    colour_keys(v)
                ),
                format!("Type a colour: {}", colour_keys(v)),
            )
        };
        let text = if long.chars().count() <= usize::from(width) {
            long
        } else {
            short
        };
        return vec![Line::styled(text, theme.dim())];
    }
    let typing = s.history().is_empty() && s.typed_secret().is_none() && !ui.skipped_code;
    if typing {
        let typed = ui.slots.iter().flatten().count().min(pegs);
        let mut lines: Vec<Line<'static>> = wrap_text(
            "Think of a code. Type it (hidden, shown only at the end) to let the computer score, or press Enter \
             to answer by hand:",
            width,
        )
        .into_iter()
        .map(|l| Line::styled(l, theme.strong()))
        .collect();
        lines.push(Line::raw(format!(
            "  your code: {}{}",
            "*".repeat(typed),
            "_".repeat(pegs - typed)
        )));
        return lines;
    }
    if s.typed_secret().is_some() {
        return vec![Line::styled(
            "The computer scores its guesses from your hidden code.",
            theme.dim(),
        )];
    }
    // The guess the answer being typed is for: the one being corrected, else the computer's newest.
    let corrected = ui
        .selected
        .and_then(|i| s.history().get(i))
        .map(|(g, _)| *g);
    let Some(guess) = corrected.or_else(|| s.ready_guess()) else {
        return vec![Line::styled("The computer is thinking…", theme.dim())];
    };
    let target = match ui.selected {
        Some(i) => format!("Correct answer {}", i + 1),
        None => "Your answer".to_string(),
    };
    let shown = Feedback::parse(&ui.answer, v.pegs())
        .ok()
        .map(|f| format!("   {}", feedback_text(f, v.pegs())))
        .unwrap_or_default();
    vec![
        Line::raw(format!(
            "{}: {}",
            ui.selected
                .map_or("Guess".to_string(), |i| format!("Guess {}", i + 1)),
            v.format_code(&guess, CodeStyle::Names)
        )),
        Line::from(vec![
            Span::styled(format!("{target} (2 1 or RRW, - none): "), theme.strong()),
            Span::styled(format!("{}_", ui.answer), theme.selected()),
            Span::raw(shown),
        ]),
    ]
}

/// Where the rows of the board go: the first row shown, how many, and the row being typed or answered.
pub(super) struct Geometry {
    pub(super) first: usize,
    pub(super) end: usize,
    pub(super) pending: Option<(Code, Option<Feedback>)>,
    pub(super) typing_row: bool,
    pub(super) palette_y: u16,
}

pub(super) fn geometry(area: Rect, board: &Board<Mastermind>) -> Geometry {
    let s = board.state;
    let v = s.variant;
    let over = board.over;
    let plain = Theme::MONO;
    let palette = palette_lines(&plain, &v, area.width);
    let inputs = match board.ui {
        Some(ui) if !over => input_lines(board, ui, &plain, area.width).len(),
        _ => 0,
    };
    let below = palette.len() + inputs + 1;
    let rows_room = usize::from(area.height).saturating_sub(below).max(3);
    let history = s.history();
    let ui = board.ui.filter(|_| !over);
    let typing_row = ui.is_some() && s.role() == Role::Breaker;
    let pending = ui
        .filter(|_| s.role() == Role::Maker && s.typed_secret().is_none())
        .filter(|u| !history.is_empty() || u.skipped_code)
        .and_then(|u| {
            // While an earlier answer is corrected, the guess waiting for an answer keeps its row (the answer
            // being typed is the correction's).
            let typed = Feedback::parse(&u.answer, v.pegs())
                .ok()
                .filter(|_| u.selected.is_none());
            s.ready_guess().map(|g| (g, typed))
        });
    let focus = history.len();
    let extra = usize::from(typing_row || pending.is_some());
    let total = (v.guesses() as usize).max(history.len() + extra);
    let rows = rows_room.saturating_sub(2).max(1);
    let first = if total <= rows {
        0
    } else {
        (focus + 1).saturating_sub(rows).min(total - rows)
    };
    let end = (first + rows).min(total);
    Geometry {
        first,
        end,
        pending,
        typing_row,
        palette_y: area.y + 2 + (end - first) as u16 + 1,
    }
}

/// Draws the board, the palette and the input lines into `area`.
pub(super) fn draw_board(frame: &mut Frame, area: Rect, board: &Board<Mastermind>, theme: &Theme) {
    let s = board.state;
    let v = s.variant;
    let pegs = usize::from(v.pegs());
    let over = board.over;
    if s.role() == Role::Maker && !over && board.ui.is_some() {
        s.prefetch();
    }
    let palette = palette_lines(theme, &v, area.width);
    let inputs = match board.ui {
        Some(ui) if !over => input_lines(board, ui, theme, area.width),
        _ => Vec::new(),
    };
    let g = geometry(area, board);
    let history = s.history();
    let ui = board.ui.filter(|_| !over);
    let breaker_typing = ui.filter(|_| g.typing_row);
    let pending = g.pending;
    let mut lines = Vec::new();
    let mut top = vec![Span::raw("  code  ")];
    match s.revealed().filter(|_| over) {
        Some(code) => top.extend(code_spans(theme, &v, &code)),
        None => top.extend((0..pegs).map(|_| Span::styled(" ? ", theme.strong()))),
    }
    lines.push(Line::from(top));
    lines.push(Line::raw(format!("  ──────{}", "───".repeat(pegs))));
    let focus = history.len();
    let (first, end) = (g.first, g.end);
    let selected = ui.and_then(|u| u.selected);
    let marked: &[usize] = ui.map_or(&[], |u| u.marked.as_slice());
    for i in first..end {
        let marker = if marked.contains(&i) {
            "!"
        } else if selected == Some(i) {
            "▶"
        } else {
            " "
        };
        let mut spans = vec![Span::raw(format!(" {marker}{:>3}  ", i + 1))];
        if let Some((code, fb)) = history.get(i) {
            spans.extend(code_spans(theme, &v, code));
            spans.push(Span::raw("  "));
            let style = if selected == Some(i) {
                theme.selected()
            } else {
                theme.text()
            };
            spans.push(Span::styled(feedback_text(*fb, v.pegs()), style));
            spans.push(Span::styled(
                format!("  {} {}", fb.black, fb.white),
                theme.dim(),
            ));
        } else if let (true, Some(u)) = (i == focus, breaker_typing) {
            for k in 0..pegs {
                let slot = u.slots.get(k).copied().flatten();
                spans.push(peg_span(theme, &v, slot, k == u.cursor));
            }
            spans.push(Span::styled("  ← your guess", theme.dim()));
        } else if let (true, Some((code, fb))) = (i == focus, pending) {
            spans.extend(code_spans(theme, &v, &code));
            spans.push(Span::raw("  "));
            match fb {
                Some(fb) => spans.push(Span::styled(feedback_text(fb, v.pegs()), theme.selected())),
                None => spans.push(Span::styled("?".repeat(pegs), theme.selected())),
            }
            spans.push(Span::styled("  ← answer this guess", theme.dim()));
        } else {
            spans.extend((0..pegs).map(|_| Span::styled(" · ", theme.dim())));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    lines.extend(palette);
    lines.extend(inputs);
    frame.render_widget(Paragraph::new(lines), area);
}
