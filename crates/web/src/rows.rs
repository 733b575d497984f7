//! One row of the terminal grid as HTML: the page's own DOM backend (`rowdom`, wasm32 only) writes each row that
//! changed as one `innerHTML` assignment of the text built here, instead of touching a `<span>` per cell as
//! ratzilla's DOM backend does (which made a whole new screen take 100 to 600 ms on a loaded machine).
//!
//! A row is cut into runs of cells of the same look (colours after `REVERSED`, bold, dim, italic, underline,
//! hidden, crossed out, the cursor): each run is one `<span>` with an inline style and its text escaped. A run
//! whose every symbol the page's font draws exactly one cell wide (ASCII, and the symbols the page measured so:
//! the `one_cell` of [`row_html`]) is a plain inline span, which the browser lays out as part of its row's one
//! line; any other run (a wide character, a glyph from a fallback font, a symbol not measured yet) is fixed at its
//! width in cells (`display: inline-block; width: Nch`), so that a glyph drawn wider or narrower than a cell never
//! shifts the runs after it. (Every run fixed so made the browser lay out each span as a block of its own: a new
//! 2048 game's layout took about twice as long.) The text stays plain text in the document, so a reader can select
//! and copy it. Plain Rust, tested natively.

use ratatui::buffer::Cell;
use ratatui::style::{Color, Modifier};
use std::fmt::Write;
use unicode_width::UnicodeWidthStr;

/// A colour as red, green and blue.
pub type Rgb = (u8, u8, u8);

/// The look of one cell as the page draws it: text colour, background (`None`: the page's own), and the
/// modifiers that change its style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Look {
    /// The text's colour (`None`: the default, white).
    pub fg: Option<Rgb>,
    /// The background (`None`: transparent, or white when reversed without one).
    pub bg: Option<Rgb>,
    /// Bold, dim, italic, underlined, hidden, crossed out (`REVERSED` is already applied to the colours).
    pub modifier: Modifier,
    /// The cursor is on this cell (drawn underlined).
    pub cursor: bool,
}

/// The modifiers a run's style shows.
const SHOWN: Modifier = Modifier::BOLD
    .union(Modifier::DIM)
    .union(Modifier::ITALIC)
    .union(Modifier::UNDERLINED)
    .union(Modifier::HIDDEN)
    .union(Modifier::CROSSED_OUT);

impl Look {
    /// The look of `cell`, with the cursor on it or not.
    pub fn of(cell: &Cell, cursor: bool) -> Look {
        let (mut fg, mut bg) = (rgb(cell.fg), rgb(cell.bg));
        if cell.modifier.contains(Modifier::REVERSED) {
            std::mem::swap(&mut fg, &mut bg);
            // Reversed without a text colour: white behind, as ratzilla draws it.
            bg = bg.or(Some((255, 255, 255)));
        }
        Look {
            fg,
            bg,
            modifier: cell.modifier & SHOWN,
            cursor,
        }
    }

    /// The inline CSS of a run of `width` cells of this look: fixed at that width (`Some`) or not.
    pub fn css(&self, width: Option<usize>) -> String {
        let mut css = String::with_capacity(96);
        let (r, g, b) = self.fg.unwrap_or((255, 255, 255));
        let _ = write!(css, "color:rgb({r},{g},{b});");
        if let Some((r, g, b)) = self.bg {
            let _ = write!(css, "background-color:rgb({r},{g},{b});");
        }
        let m = self.modifier;
        if m.contains(Modifier::BOLD) {
            css.push_str("font-weight:bold;");
        }
        if m.contains(Modifier::DIM) {
            css.push_str("opacity:0.5;");
        }
        if m.contains(Modifier::ITALIC) {
            css.push_str("font-style:italic;");
        }
        let under = m.contains(Modifier::UNDERLINED) || self.cursor;
        let through = m.contains(Modifier::CROSSED_OUT);
        match (under, through) {
            (true, true) => css.push_str("text-decoration:underline line-through;"),
            (true, false) => css.push_str("text-decoration:underline;"),
            (false, true) => css.push_str("text-decoration:line-through;"),
            (false, false) => {}
        }
        if m.contains(Modifier::HIDDEN) {
            css.push_str("visibility:hidden;");
        }
        if let Some(width) = width {
            let _ = write!(css, "display:inline-block;width:{width}ch;");
        }
        css
    }
}

/// A colour as RGB: true colour as it is, the 16 named colours and the 256 indexed ones as xterm draws them;
/// `None` for `Reset` (the page's default).
pub fn rgb(color: Color) -> Option<Rgb> {
    Some(match color {
        Color::Reset => return None,
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Black => (0, 0, 0),
        Color::Red => (128, 0, 0),
        Color::Green => (0, 128, 0),
        Color::Yellow => (128, 128, 0),
        Color::Blue => (0, 0, 128),
        Color::Magenta => (128, 0, 128),
        Color::Cyan => (0, 128, 128),
        Color::Gray => (192, 192, 192),
        Color::DarkGray => (128, 128, 128),
        Color::LightRed => (255, 0, 0),
        Color::LightGreen => (0, 255, 0),
        Color::LightYellow => (255, 255, 0),
        Color::LightBlue => (0, 0, 255),
        Color::LightMagenta => (255, 0, 255),
        Color::LightCyan => (0, 255, 255),
        Color::White => (255, 255, 255),
        Color::Indexed(i) => indexed(i),
    })
}

/// The xterm colour of index `i`: the 16 named ones, the 6 x 6 x 6 cube, then 24 greys.
fn indexed(i: u8) -> Rgb {
    const NAMED: [Color; 16] = [
        Color::Black,
        Color::Red,
        Color::Green,
        Color::Yellow,
        Color::Blue,
        Color::Magenta,
        Color::Cyan,
        Color::Gray,
        Color::DarkGray,
        Color::LightRed,
        Color::LightGreen,
        Color::LightYellow,
        Color::LightBlue,
        Color::LightMagenta,
        Color::LightCyan,
        Color::White,
    ];
    match i {
        0..=15 => rgb(NAMED[usize::from(i)]).unwrap_or((0, 0, 0)),
        16..=231 => {
            let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
            let v = i - 16;
            (level(v / 36), level(v / 6 % 6), level(v % 6))
        }
        _ => {
            let g = 8 + 10 * (i - 232);
            (g, g, g)
        }
    }
}

/// Appends `text` to `out` with `&`, `<` and `>` escaped.
pub fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

/// Whether `symbol` is printable ASCII, which a monospace font draws one cell (`1ch`, the width of its `0`) wide.
pub fn ascii_cell(symbol: &str) -> bool {
    symbol.len() == 1 && symbol.bytes().all(|b| (0x20..0x7f).contains(&b))
}

/// One run being built: its look, its width in cells, its text, and whether it must be fixed at its width.
struct Run {
    look: Look,
    width: usize,
    text: String,
    fixed: bool,
}

/// The HTML of one row of cells: runs of the same look, each a `<span>` (see the module's note). `cursor` is the
/// column the cursor is drawn on, if it is on this row; `one_cell` says whether the page's font draws a symbol of
/// one cell exactly one cell wide (a run holding any other symbol is fixed at its width). The cells a wide
/// character covers after its own are left out (the character's run counts its two cells). Returns the HTML and
/// the number of runs, and how many of them are fixed at their width.
pub fn row_html(
    cells: &[Cell],
    cursor: Option<usize>,
    one_cell: &dyn Fn(&str) -> bool,
) -> (String, usize, usize) {
    let mut out = String::with_capacity(cells.len() * 2 + 64);
    let (mut runs, mut fixed_runs) = (0, 0);
    let mut run: Option<Run> = None;
    let mut x = 0;
    while x < cells.len() {
        let cell = &cells[x];
        let symbol = cell.symbol();
        // A zero-width symbol (a wide character's trailing cell, drawn in no other way) takes its cell as a space.
        let (symbol, width) = match symbol.width() {
            0 => (" ", 1),
            w => (symbol, w.min(cells.len() - x)),
        };
        let fixed = width != 1 || !(ascii_cell(symbol) || one_cell(symbol));
        let look = Look::of(cell, cursor == Some(x));
        match &mut run {
            Some(r) if r.look == look => {
                r.width += width;
                r.text.push_str(symbol);
                r.fixed |= fixed;
            }
            _ => {
                if let Some(r) = run.take() {
                    close_run(&mut out, &r);
                    runs += 1;
                    fixed_runs += usize::from(r.fixed);
                }
                run = Some(Run {
                    look,
                    width,
                    text: symbol.to_string(),
                    fixed,
                });
            }
        }
        x += width;
    }
    if let Some(r) = run {
        close_run(&mut out, &r);
        runs += 1;
        fixed_runs += usize::from(r.fixed);
    }
    (out, runs, fixed_runs)
}

/// Appends one run's `<span>`.
fn close_run(out: &mut String, run: &Run) {
    out.push_str("<span style=\"");
    out.push_str(&run.look.css(run.fixed.then_some(run.width)));
    out.push_str("\">");
    push_escaped(out, &run.text);
    out.push_str("</span>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    /// The row `y` of `buffer` as cells.
    fn row(buffer: &Buffer, y: u16) -> Vec<Cell> {
        (0..buffer.area.width)
            .map(|x| buffer[(x, y)].clone())
            .collect()
    }

    /// The text of HTML with the tags taken out and the three escapes read back.
    fn text_of(html: &str) -> String {
        let mut out = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => out.push(c),
                _ => {}
            }
        }
        out.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
    }

    /// The page's font as the tests take it: ASCII one cell wide, nothing else measured.
    fn nothing_measured(_: &str) -> bool {
        false
    }

    /// The widths in cells of the runs fixed at their width.
    fn fixed_widths(html: &str) -> Vec<usize> {
        html.split("width:")
            .skip(1)
            .map(|s| s.split("ch").next().unwrap().parse::<usize>().unwrap())
            .collect()
    }

    #[test]
    fn a_row_of_one_look_is_one_run_holding_its_text() {
        let mut b = Buffer::empty(Rect::new(0, 0, 12, 1));
        b.set_string(
            0,
            0,
            "hello world",
            Style::default().fg(Color::Rgb(1, 2, 3)),
        );
        let (html, runs, _) = row_html(&row(&b, 0), None, &nothing_measured);
        // "hello world" in one colour, then one default space: two runs, ASCII, so neither fixed at its width.
        assert_eq!(runs, 2, "{html}");
        assert_eq!(text_of(&html), "hello world ");
        assert_eq!(
            html,
            "<span style=\"color:rgb(1,2,3);\">hello world</span><span style=\"color:rgb(255,255,255);\"> </span>"
        );
    }

    #[test]
    fn runs_break_where_the_look_changes() {
        let mut b = Buffer::empty(Rect::new(0, 0, 20, 1));
        b.set_string(2, 0, "ab", Style::default().bg(Color::Blue));
        b.set_string(4, 0, "cd", Style::default().bg(Color::Blue).bold());
        b.set_string(6, 0, "ef", Style::default().reversed());
        let (html, runs, _) = row_html(&row(&b, 0), None, &nothing_measured);
        assert_eq!(runs, 5, "{html}");
        assert_eq!(text_of(&html), format!("  abcdef{}", " ".repeat(12)));
        assert!(fixed_widths(&html).is_empty(), "{html}");
        assert!(html.contains("background-color:rgb(0,0,128);\">ab<"));
        assert!(html.contains("font-weight:bold;\">cd<"));
        // Reversed with no colours: white behind, white text (the default) as ratzilla drew it.
        assert!(html.contains("color:rgb(255,255,255);background-color:rgb(255,255,255);\">ef<"));
    }

    #[test]
    fn a_run_with_a_symbol_not_measured_one_cell_is_fixed_at_its_width() {
        let mut b = Buffer::empty(Rect::new(0, 0, 20, 1));
        b.set_string(0, 0, "┌──┐", Style::default().fg(Color::Red));
        b.set_string(4, 0, " ab ", Style::default());
        b.set_string(8, 0, "→ x", Style::default().bold());
        let row = row(&b, 0);
        let (html, runs, fixed) = row_html(&row, None, &nothing_measured);
        assert_eq!((runs, fixed), (4, 2), "{html}");
        // The box's four cells and the arrow's run (three cells) are fixed; the ASCII between and after are not.
        assert_eq!(fixed_widths(&html), vec![4, 3], "{html}");
        assert!(
            html.contains("display:inline-block;width:4ch;\">┌──┐<"),
            "{html}"
        );
        assert!(html.contains("color:rgb(255,255,255);\"> ab <"), "{html}");
        assert_eq!(text_of(&html), format!("┌──┐ ab → x{}", " ".repeat(9)));
        // Once the page has measured them one cell wide, no run is fixed, and the text is the same.
        let measured = |s: &str| matches!(s, "┌" | "─" | "┐" | "→");
        let (plain, runs, fixed) = row_html(&row, None, &measured);
        assert_eq!((runs, fixed), (4, 0), "{plain}");
        assert!(fixed_widths(&plain).is_empty(), "{plain}");
        assert_eq!(text_of(&plain), text_of(&html));
    }

    #[test]
    fn text_is_escaped_so_markup_in_a_cell_stays_text() {
        let mut b = Buffer::empty(Rect::new(0, 0, 9, 1));
        b.set_string(0, 0, "<b>&x</b>", Style::default());
        let (html, runs, _) = row_html(&row(&b, 0), None, &nothing_measured);
        assert_eq!(runs, 1);
        assert!(html.contains("&lt;b&gt;&amp;x&lt;/b&gt;"), "{html}");
        assert_eq!(text_of(&html), "<b>&x</b>");
    }

    #[test]
    fn a_wide_character_counts_its_two_cells_once() {
        let mut b = Buffer::empty(Rect::new(0, 0, 8, 1));
        b.set_string(0, 0, "ノッカ!", Style::default());
        // A wide character is fixed at its two cells, even where the page says it measured it.
        let (html, _, _) = row_html(&row(&b, 0), None, &|_| true);
        // Three wide characters (six cells), "!" and one space: the text has no cell twice.
        assert_eq!(text_of(&html), "ノッカ! ");
        assert_eq!(fixed_widths(&html), vec![8], "{html}");
    }

    #[test]
    fn the_cursor_cell_is_its_own_underlined_run() {
        let mut b = Buffer::empty(Rect::new(0, 0, 5, 1));
        b.set_string(0, 0, "abcde", Style::default());
        let (html, runs, _) = row_html(&row(&b, 0), Some(2), &nothing_measured);
        assert_eq!(runs, 3, "{html}");
        assert!(html.contains("text-decoration:underline;\">c<"), "{html}");
        assert_eq!(text_of(&html), "abcde");
    }

    #[test]
    fn colours_named_and_indexed_are_xterms() {
        assert_eq!(rgb(Color::Reset), None);
        assert_eq!(rgb(Color::Indexed(1)), Some((128, 0, 0)));
        assert_eq!(rgb(Color::Indexed(16)), Some((0, 0, 0)));
        assert_eq!(rgb(Color::Indexed(21)), Some((0, 0, 255)));
        assert_eq!(rgb(Color::Indexed(196)), Some((255, 0, 0)));
        assert_eq!(rgb(Color::Indexed(244)), Some((128, 128, 128)));
        assert_eq!(rgb(Color::Indexed(255)), Some((238, 238, 238)));
    }

    #[test]
    fn modifiers_show_in_the_style() {
        let mut cell = Cell::default();
        cell.set_symbol("x");
        cell.modifier = Modifier::DIM | Modifier::ITALIC | Modifier::CROSSED_OUT | Modifier::HIDDEN;
        let css = Look::of(&cell, false).css(None);
        for part in [
            "opacity:0.5;",
            "font-style:italic;",
            "text-decoration:line-through;",
            "visibility:hidden;",
        ] {
            assert!(css.contains(part), "{css} lacks {part}");
        }
        assert!(!css.contains("background-color"), "{css}");
        assert!(!css.contains("width"), "{css}");
        assert!(
            Look::of(&cell, false)
                .css(Some(3))
                .ends_with("display:inline-block;width:3ch;")
        );
    }

    #[test]
    fn only_printable_ascii_is_taken_one_cell_without_measuring() {
        for s in ["a", " ", "~", "0", "&"] {
            assert!(ascii_cell(s), "{s}");
        }
        for s in ["\u{7f}", "\t", "é", "─", "ab", ""] {
            assert!(!ascii_cell(s), "{s:?}");
        }
    }
}
