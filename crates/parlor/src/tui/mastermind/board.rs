//! The Mastermind board as lines of text: a row per guess with its pegs, the secret on top, the colour palette.
//! Every peg shows its symbol (letter or digit), so the board reads the same without colour; feedback uses ● for
//! black and ○ for white, sorted, blacks first, · for an empty hole.

use crate::tui::theme::Theme;
use mastermind::{Code, Feedback, Palette, Variant};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// What to draw.
pub struct BoardSpec<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// The guesses so far and their feedback.
    pub history: &'a [(Code, Feedback)],
    /// The guess being typed (a slot per peg) and the cursor, if any.
    pub current: Option<(&'a [Option<u8>], usize)>,
    /// The secret, once revealed.
    pub secret: Option<Code>,
    /// A row to highlight (codemaker: the answer being corrected).
    pub selected: Option<usize>,
    /// Rows to mark with `!` (answers named by a contradiction).
    pub marked: &'a [usize],
    /// A row shown after the history with a pending guess and the answer typed so far (codemaker).
    pub pending: Option<(Code, Option<Feedback>)>,
}

/// The style of colour `c`: its own background with a readable foreground (nothing without colour).
pub fn colour_style(theme: &Theme, v: &Variant, c: u8) -> Style {
    if !theme.color {
        return Style::default().add_modifier(Modifier::BOLD);
    }
    let idx = match v.palette() {
        Palette::Colours => c,
        Palette::Digits => c,
    };
    let (bg, dark_text) = match idx {
        0 => (Color::Indexed(160), false), // red
        1 => (Color::Indexed(34), false),  // green
        2 => (Color::Indexed(226), true),  // yellow
        3 => (Color::Indexed(27), false),  // blue
        4 => (Color::Indexed(236), false), // black (dark grey, visible on dark terminals)
        5 => (Color::Indexed(208), true),  // orange
        6 => (Color::Indexed(93), false),  // purple
        7 => (Color::Indexed(51), true),   // cyan
        8 => (Color::Indexed(201), true),  // magenta
        _ => (Color::Indexed(255), true),  // white
    };
    let fg = if dark_text {
        Color::Indexed(16)
    } else {
        Color::Indexed(231)
    };
    Style::default().bg(bg).fg(fg).add_modifier(Modifier::BOLD)
}

/// A peg as three cells: ` R ` (or `[R]` under the cursor).
pub fn peg_span(theme: &Theme, v: &Variant, c: Option<u8>, cursor: bool) -> Span<'static> {
    let sym = c.map_or('·', |c| v.colour_symbol(c));
    let text = if cursor {
        format!("[{sym}]")
    } else {
        format!(" {sym} ")
    };
    let style = match (c, cursor) {
        (Some(c), false) => colour_style(theme, v, c),
        (Some(c), true) => colour_style(theme, v, c).add_modifier(Modifier::REVERSED),
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

fn code_spans(theme: &Theme, v: &Variant, code: &Code) -> Vec<Span<'static>> {
    code.pegs()
        .iter()
        .map(|&c| peg_span(theme, v, Some(c), false))
        .collect()
}

/// The board's lines: the secret row, then one row per guess allowed (or as many as `max_rows` lets through,
/// keeping the newest), oldest at the top.
pub fn board_lines(spec: &BoardSpec, theme: &Theme, max_rows: usize) -> Vec<Line<'static>> {
    let v = spec.variant;
    let pegs = usize::from(v.pegs());
    let mut lines = Vec::new();
    let mut secret = vec![Span::raw("  code  ")];
    match spec.secret {
        Some(s) => secret.extend(code_spans(theme, v, &s)),
        None => secret.extend((0..pegs).map(|_| Span::styled(" ? ", theme.strong()))),
    }
    lines.push(Line::from(secret));
    lines.push(Line::raw(format!("  ──────{}", "───".repeat(pegs))));
    let total = (v.guesses() as usize)
        .max(spec.history.len() + usize::from(spec.current.is_some() || spec.pending.is_some()));
    // The row that must stay visible: the one being typed or answered.
    let focus = spec.history.len();
    let rows = max_rows.saturating_sub(2).max(1);
    let first = if total <= rows {
        0
    } else {
        (focus + 1).saturating_sub(rows).min(total - rows)
    };
    for i in first..(first + rows).min(total) {
        let marker = if spec.marked.contains(&i) {
            "!"
        } else if spec.selected == Some(i) {
            "▶"
        } else {
            " "
        };
        let mut spans = vec![Span::raw(format!(" {marker}{:>3}  ", i + 1))];
        if let Some((code, fb)) = spec.history.get(i) {
            spans.extend(code_spans(theme, v, code));
            spans.push(Span::raw("  "));
            let style = if spec.selected == Some(i) {
                theme.selected()
            } else {
                theme.text()
            };
            spans.push(Span::styled(feedback_text(*fb, v.pegs()), style));
            spans.push(Span::styled(
                format!("  {} {}", fb.black, fb.white),
                theme.dim(),
            ));
        } else if let (true, Some((slots, cursor))) = (i == focus, spec.current) {
            for (k, slot) in slots.iter().enumerate() {
                spans.push(peg_span(theme, v, *slot, k == cursor));
            }
            spans.push(Span::styled("  ← your guess", theme.dim()));
        } else if let (true, Some((code, fb))) = (i == focus, spec.pending) {
            spans.extend(code_spans(theme, v, &code));
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
    lines
}

/// The colour palette: `1 R RED  2 G GREEN ...` (digits: `0 1 2 ...`), split over lines of at most `width`.
pub fn palette_lines(theme: &Theme, v: &Variant, width: u16) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut spans: Vec<Span<'static>> = vec![Span::raw("  ")];
    let mut used = 2usize;
    for c in 0..v.colours() {
        let label = match v.palette() {
            Palette::Colours => format!(" {} {}  ", v.colour_number(c) % 10, v.colour_name(c)),
            Palette::Digits => "  ".to_string(),
        };
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
