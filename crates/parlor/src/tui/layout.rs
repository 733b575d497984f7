//! Shared drawing pieces: where a screen goes on the terminal ([`screen_area`]: every screen centred the same way),
//! the frame around a screen, the hint bar (fitted to its width by priority, `? help` always kept), wrapped
//! messages, the help overlay, dialogs and the "too small" notice.

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
        Paragraph::new(fit_line(
            Line::from(Span::styled(title.to_string(), theme.strong())),
            top.width,
        )),
        top,
    );
    let kept = fit_hints(hints, bottom.width);
    // The main action and the way back are marks the bar must keep, as is `? help`.
    for (i, (keys, what)) in kept.iter().enumerate() {
        let index = hints.iter().position(|h| h == &(*keys, *what)).unwrap_or(i);
        if hint_priority(index, keys, hints) <= 1 {
            super::text::mark(bottom, &format!("{keys} {what}"));
        }
    }
    super::text::mark(bottom, "? help");
    frame.render_widget(Paragraph::new(hint_line(&kept, theme)), bottom);
    body
}

/// The largest area a screen is drawn in (columns, rows): on a larger terminal it sits in the middle.
pub const SCREEN_MAX: (u16, u16) = (100, 40);

/// Where every screen is drawn on a terminal of `area`: all of it up to [`SCREEN_MAX`], centred beyond. The one
/// place that decides it, so that every screen is centred the same way.
pub fn screen_area(area: Rect) -> Rect {
    centered(area, SCREEN_MAX.0, SCREEN_MAX.1)
}

/// How important a hint is (lower is kept longer): a screen's main action first (its `Enter` hint if it has one,
/// else its first), then the way back (`q` or Esc), then the others in the order the screen lists them.
pub fn hint_priority(index: usize, keys: &str, hints: &[(&str, &str)]) -> usize {
    let main = hints.iter().position(|(k, _)| *k == "Enter").unwrap_or(0);
    if index == main {
        0
    } else if keys == "q" || keys == "Esc" || keys.starts_with("q ") {
        1
    } else {
        index + 2
    }
}

/// The hints that fit on a bar `width` columns wide beside `? help` (always shown): while the bar is too wide, the
/// least important hint (see [`hint_priority`]) goes first. The main action and the way back are never dropped.
/// The kept ones stay in the screen's order.
pub fn fit_hints<'a>(hints: &[(&'a str, &'a str)], width: u16) -> Vec<(&'a str, &'a str)> {
    let mut kept: Vec<(usize, (&'a str, &'a str))> = hints.iter().copied().enumerate().collect();
    while !kept.is_empty() {
        if bar_fits(&kept, width) {
            break;
        }
        let Some(pos) = kept
            .iter()
            .enumerate()
            .map(|(pos, (i, (keys, _)))| (pos, hint_priority(*i, keys, hints)))
            .filter(|&(_, p)| p > 1)
            .max_by_key(|&(_, p)| p)
            .map(|(pos, _)| pos)
        else {
            break;
        };
        kept.remove(pos);
    }
    // Still too wide with only the main action and the way back: their words shrink to the first one
    // (`q back to the menu (saved)` reads `q back`), the way back's first.
    for keep in [1, 0] {
        if bar_fits(&kept, width) {
            break;
        }
        for (i, (keys, what)) in kept.iter_mut() {
            if hint_priority(*i, keys, hints) == keep {
                let words: &'a str = what;
                *what = words.split(' ').next().unwrap_or(words);
            }
        }
    }
    kept.into_iter().map(|(_, h)| h).collect()
}

/// Whether the hints `kept` (each with its index in the screen's list) and `? help` fit on a bar `width` columns wide.
fn bar_fits(kept: &[(usize, (&str, &str))], width: u16) -> bool {
    let text: Vec<String> = kept
        .iter()
        .map(|(_, (keys, what))| format!("{keys} {what}"))
        .chain(["? help".to_string()])
        .collect();
    Line::raw(text.join(" · ")).width() <= usize::from(width)
}

/// `text` shortened on purpose to at most `width` columns: whole if it fits, else cut after the last whole word that
/// leaves room for `…` (in the middle of a word only when no word fits). Never cut silently mid-word.
pub fn shorten(text: &str, width: usize) -> String {
    if Line::raw(text).width() <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut kept = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = Line::raw(c.to_string()).width();
        if used + w > width - 1 {
            break;
        }
        kept.push(c);
        used += w;
    }
    // Back to the end of the last whole word (the next character, cut away, was inside a word).
    let next = text[kept.len()..].chars().next();
    if next.is_some_and(|c| c.is_alphanumeric())
        && let Some(space) = kept.rfind(|c: char| !c.is_alphanumeric())
        && space > 0
    {
        kept.truncate(space);
    }
    let trimmed = kept.trim_end_matches([' ', '·', ',', ':', ';', '(']);
    format!("{trimmed}…")
}

/// A line of spans fitted to `width` columns: whole if it fits, else its text is shortened with `…` (see
/// [`shorten`]), each kept span keeping its style.
pub fn fit_line(line: Line<'_>, width: u16) -> Line<'static> {
    let width = usize::from(width);
    if line.width() <= width {
        let spans: Vec<Span<'static>> = line
            .spans
            .into_iter()
            .map(|s| Span::styled(s.content.into_owned(), s.style))
            .collect();
        return Line::from(spans).style(line.style);
    }
    let whole: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let short = shorten(&whole, width);
    // What is kept is a beginning of the line's text: hand it back to the spans in order, then the `…`.
    let mut left = short.strip_suffix('…').unwrap_or(&short).len();
    let mut spans: Vec<Span<'static>> = Vec::new();
    for s in &line.spans {
        if left == 0 {
            break;
        }
        let take = s.content.len().min(left);
        spans.push(Span::styled(s.content[..take].to_string(), s.style));
        left -= take;
    }
    match spans.last_mut() {
        Some(last) => last.content.to_mut().push('…'),
        None => spans.push(Span::raw("…")),
    }
    Line::from(spans).style(line.style)
}

/// `text` wrapped at word boundaries into lines of at most `width` columns (a word longer than a line is
/// shortened with `…`).
pub fn wrap_text(text: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let word = shorten(word, width);
        let need = Line::raw(line.as_str()).width()
            + usize::from(!line.is_empty())
            + Line::raw(word.as_str()).width();
        if !line.is_empty() && need > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `text` wrapped at `width` columns into at most `rows` lines: when it needs more, the last line kept ends with
/// `…`, so that what is missing is never dropped silently.
pub fn wrap_fitted(text: &str, width: u16, rows: u16) -> Vec<String> {
    let mut lines = wrap_text(text, width);
    let rows = usize::from(rows.max(1));
    if lines.len() > rows {
        lines.truncate(rows);
        if let Some(last) = lines.last_mut() {
            *last = shorten(&format!("{last} …"), usize::from(width));
        }
    }
    lines
}

/// How many rows `text` takes wrapped at `width` columns.
pub fn wrapped_rows(text: &str, width: u16) -> u16 {
    let rows = Paragraph::new(text.to_string())
        .wrap(Wrap { trim: true })
        .line_count(width.max(1));
    u16::try_from(rows).unwrap_or(u16::MAX)
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

/// The help overlay: the screen's keys (from its binding table), the global keys, then its rules. It scrolls
/// (↑↓, PageUp, PageDown, Home, End) and says `▼ more` while more follows. Returns the scroll offset actually used
/// (clamped so that the last line stays at the bottom).
pub fn draw_help(frame: &mut Frame, area: Rect, help: &Help, scroll: u16, theme: &Theme) -> u16 {
    let mut lines = vec![Line::from(Span::styled("Keys", theme.strong()))];
    let width = help
        .keys
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0)
        .max(6)
        .min(usize::from(area.width / 3));
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
    let inner = clear_box(frame, rect);
    let wrapped = super::text::Wrapped::new(lines, inner.width);
    let limit = super::text::scroll_limit(wrapped.height(), inner.height);
    let scroll = scroll.min(limit);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(help_title(&help.title, rect.width.saturating_sub(2)));
    frame.render_widget(block, rect);
    wrapped.render(frame, inner, usize::from(scroll), theme.dim());
    scroll
}

/// Clears `rect` for a framed box drawn over the screen, and returns the area inside its frame.
fn clear_box(frame: &mut Frame, rect: Rect) -> Rect {
    frame.render_widget(Clear, rect);
    super::text::cover(rect);
    Rect {
        x: rect.x + 1,
        y: rect.y + 1,
        width: rect.width.saturating_sub(2),
        height: rect.height.saturating_sub(2),
    }
}

/// How far one PageUp or PageDown scrolls the help on a terminal `height` rows high: its box less a row, so that
/// one row of the last page stays in view.
pub fn help_page(height: u16) -> u16 {
    height.saturating_sub(4).max(1)
}

/// The help box's title for a box `width` columns wide inside its corners: the keys to scroll and close while they
/// fit, else the title alone (shortened with `…` if need be).
pub fn help_title(title: &str, width: u16) -> String {
    let width = usize::from(width);
    let full = format!(" Help: {title} · ↑↓ PgUp PgDn scroll · ? or Esc close ");
    let short = format!(" Help: {title} · Esc close ");
    for t in [full, short] {
        if Line::raw(t.as_str()).width() <= width {
            return t;
        }
    }
    format!(
        " {} ",
        shorten(&format!("Help: {title}"), width.saturating_sub(2))
    )
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

/// A framed box with a few centred lines, drawn over the middle of `area` (win prompt, game over); lines wider
/// than `area` wrap. Returns where it was drawn (the mouse reads its answer line from there).
pub fn draw_dialog(frame: &mut Frame, area: Rect, title: &str, lines: Vec<Line>) -> Rect {
    let rect = dialog_rect(area, title, &lines);
    let inner = clear_box(frame, rect);
    for line in &lines {
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        super::text::whole(inner, &text);
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" {title} "));
    frame.render_widget(
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true })
            .block(block),
        rect,
    );
    rect
}

/// Where [`draw_dialog`] puts a box of `lines` in `area`.
pub fn dialog_rect(area: Rect, title: &str, lines: &[Line]) -> Rect {
    let w = lines
        .iter()
        .map(|l| l.width() as u16)
        .max()
        .unwrap_or(10)
        .max(title.chars().count() as u16 + 4)
        + 4;
    let w = w.min(area.width);
    let rows = Paragraph::new(lines.to_vec())
        .wrap(Wrap { trim: true })
        .line_count(w.saturating_sub(2).max(1));
    let h = u16::try_from(rows).unwrap_or(u16::MAX).saturating_add(2);
    centered(area, w, h)
}

/// The rows a dialog of `lines` takes at `width` columns (border included).
pub fn dialog_rows(width: u16, title: &str, lines: &[Line]) -> u16 {
    dialog_rect(
        Rect {
            x: 0,
            y: 0,
            width,
            height: u16::MAX,
        },
        title,
        lines,
    )
    .height
}

/// The largest useful scroll offset for `paragraph` shown `width` columns wide and `height` rows high, applied to
/// `scroll`: scrolling stops when the last line reaches the bottom.
pub fn clamp_scroll(paragraph: &Paragraph, width: u16, height: u16, scroll: u16) -> u16 {
    let rows = paragraph.line_count(width);
    let max = rows.saturating_sub(usize::from(height));
    scroll.min(u16::try_from(max).unwrap_or(u16::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::{Color, Style};

    #[test]
    fn shorten_keeps_whole_words_and_marks_the_cut() {
        assert_eq!(shorten("repeats allowed", 20), "repeats allowed");
        assert_eq!(
            shorten("Guess 1 of 10 · repeats allowed", 22),
            "Guess 1 of 10…"
        );
        assert_eq!(shorten("or press Enter to answer", 16), "or press Enter…");
        assert_eq!(
            shorten("abcdefghij", 5),
            "abcd…",
            "no word fits: cut inside it, marked"
        );
        assert_eq!(shorten("anything", 0), "");
        for w in 1..30 {
            let s = shorten("Think of a code. Type it to let the computer score", w);
            assert!(Line::raw(s.as_str()).width() <= w, "{w}: {s}");
        }
    }

    #[test]
    fn fit_line_keeps_the_styles_of_what_it_keeps() {
        let red = Style::default().fg(Color::Red);
        let line = Line::from(vec![
            Span::raw("Guesses 0   "),
            Span::styled("repeats allowed", red),
        ]);
        let fitted = fit_line(line, 22);
        assert_eq!(fitted.width(), 20);
        let text: String = fitted.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "Guesses 0   repeats…");
        assert_eq!(fitted.spans[1].style, red);
        let short = fit_line(Line::raw("fits"), 10);
        assert_eq!(short.width(), 4);
    }

    #[test]
    fn wrap_fitted_wraps_at_words_and_ends_with_an_ellipsis_when_rows_run_out() {
        let text = "Think of a code. Type it (hidden) to let the computer score, or press Enter to answer by hand:";
        let lines = wrap_text(text, 30);
        assert!(lines.iter().all(|l| l.chars().count() <= 30), "{lines:?}");
        assert_eq!(lines.join(" "), text);
        let two = wrap_fitted(text, 30, 2);
        assert_eq!(two.len(), 2);
        assert!(two[1].ends_with('…'), "{two:?}");
        assert_eq!(wrap_fitted("short", 30, 2), vec!["short".to_string()]);
    }

    #[test]
    fn the_help_title_drops_its_key_hints_before_being_shortened() {
        assert_eq!(
            help_title("Patience", 60),
            " Help: Patience · ↑↓ PgUp PgDn scroll · ? or Esc close "
        );
        assert_eq!(help_title("Patience", 38), " Help: Patience · Esc close ");
        let t = help_title("New game of Patience and more", 18);
        assert!(
            Line::raw(t.as_str()).width() <= 18 && t.contains('…'),
            "{t}"
        );
    }
}
