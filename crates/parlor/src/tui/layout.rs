//! Shared drawing pieces: the frame around a screen, the hint bar, the help overlay and the "too small" notice.

use super::Help;
use super::theme::Theme;
use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

/// Splits the screen into a title line, a body and a hint bar, draws the title and the bar, and returns the body.
pub fn chrome(
    frame: &mut Frame,
    area: Rect,
    title: &str,
    hints: &[(&str, &str)],
    theme: &Theme,
) -> Rect {
    let [top, body, bottom] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(area);
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(title.to_string(), theme.strong()))),
        top,
    );
    frame.render_widget(Paragraph::new(hint_line(hints, theme)), bottom);
    body
}

/// The hint bar: `key what · key what · ... · ? help`.
pub fn hint_line<'a>(hints: &[(&'a str, &'a str)], theme: &Theme) -> Line<'a> {
    let mut spans = Vec::new();
    for (i, (keys, what)) in hints.iter().chain([("?", "help")].iter()).enumerate() {
        if i > 0 {
            spans.push(Span::styled(" · ", theme.dim()));
        }
        spans.push(Span::styled(*keys, theme.key()));
        spans.push(Span::raw(" "));
        spans.push(Span::raw(*what));
    }
    Line::from(spans)
}

/// A centred rectangle of at most `w` x `h` inside `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// The help overlay: the screen's keys (from its binding table), the global keys, then its rules.
/// Returns the scroll offset actually used (clamped so that the last line stays at the bottom).
pub fn draw_help(frame: &mut Frame, area: Rect, help: &Help, scroll: u16, theme: &Theme) -> u16 {
    let mut lines = vec![Line::from(Span::styled("Keys", theme.strong()))];
    let width = help
        .keys
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let global = [
        ("?".to_string(), "show or hide this help"),
        ("Ctrl-C".to_string(), "quit at once (the game is saved)"),
    ];
    for (keys, what) in help.keys.iter().chain(global.iter()) {
        lines.push(Line::from(vec![
            Span::styled(format!("  {keys:<width$}  "), theme.key()),
            Span::raw(*what),
        ]));
    }
    for para in &help.text {
        lines.push(Line::raw(""));
        lines.push(Line::raw(para.clone()));
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled(
        "Press ? or Esc to close.",
        theme.dim(),
    )));
    let rect = centered(area, 76, area.height);
    frame.render_widget(Clear, rect);
    let paragraph = Paragraph::new(lines).wrap(Wrap { trim: false });
    let scroll = clamp_scroll(
        &paragraph,
        rect.width.saturating_sub(2),
        rect.height.saturating_sub(2),
        scroll,
    );
    let block = Block::default().borders(Borders::ALL).title(format!(
        " Help: {} · ↑↓ scroll · ? or Esc close ",
        help.title
    ));
    frame.render_widget(paragraph.block(block).scroll((scroll, 0)), rect);
    scroll
}

/// What is drawn instead of a screen that does not fit.
pub fn draw_too_small(frame: &mut Frame, area: Rect, need: (u16, u16), theme: &Theme) {
    let text = vec![
        Line::from(Span::styled("terminal too small", theme.warn())),
        Line::raw(format!("need {} x {}", need.0, need.1)),
        Line::raw(format!("have {} x {}", area.width, area.height)),
        Line::raw("enlarge it, or q to quit"),
    ];
    let rect = centered(area, area.width, 4);
    frame.render_widget(
        Paragraph::new(text)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true }),
        rect,
    );
}

/// A framed box with a few centred lines, drawn over the middle of `area` (win prompt, game over).
pub fn draw_dialog(frame: &mut Frame, area: Rect, title: &str, lines: Vec<Line>) {
    let w = lines
        .iter()
        .map(|l| l.width() as u16)
        .max()
        .unwrap_or(10)
        .max(title.len() as u16 + 4)
        + 4;
    let rect = centered(area, w, lines.len() as u16 + 2);
    frame.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {title} "));
    frame.render_widget(
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .block(block),
        rect,
    );
}

/// The largest useful scroll offset for `paragraph` shown `width` columns wide and `height` rows high, applied to
/// `scroll`: scrolling stops when the last line reaches the bottom.
pub fn clamp_scroll(paragraph: &Paragraph, width: u16, height: u16, scroll: u16) -> u16 {
    let rows = paragraph.line_count(width);
    let max = rows.saturating_sub(usize::from(height));
    scroll.min(u16::try_from(max).unwrap_or(u16::MAX))
}
