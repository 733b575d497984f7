//! Themes: named palettes (dark, light, high contrast, mono), each degraded to what the terminal can show.
//!
//! A palette gives every colour twice: as 24-bit RGB, and as one of the sixteen ANSI colours chosen by hand so that
//! each foreground/background pair stays readable in any terminal's own 16-colour palette. A 256-colour terminal gets
//! the nearest xterm-256 index of the RGB colour. The colour themes paint their own background over the whole screen,
//! so they read the same on a dark and on a light terminal; the mono theme (and any theme under `NO_COLOR`,
//! `--no-color` or a terminal without colour) uses the terminal's own colours and emphasis only (bold, reverse,
//! underline, dim). Every meaning is also carried by a glyph or a letter, so nothing depends on colour alone.

pub use crate::settings::ThemeName;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};

/// How many colours the terminal shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Depth {
    /// None (`NO_COLOR`, `--no-color`, a terminal without colour).
    Mono,
    /// The sixteen ANSI colours.
    Ansi16,
    /// The xterm 256-colour palette.
    Ansi256,
    /// 24-bit colour.
    TrueColor,
}

impl Depth {
    /// The colour depth from the command line's `--no-color` and the environment (`var` reads a variable):
    /// `NO_COLOR` (non-empty) or the flag turn colour off; `COLORTERM=truecolor|24bit` or a `TERM` ending in
    /// `-direct` give 24-bit; a `TERM` with `256color` gives 256; `dumb`, `vt…` terminals and an empty `TERM` have
    /// none; any other `TERM` gets the sixteen ANSI colours.
    pub fn detect(no_color: bool, var: impl Fn(&str) -> Option<String>) -> Depth {
        let set = |k: &str| var(k).filter(|v| !v.is_empty());
        if no_color || set("NO_COLOR").is_some() {
            return Depth::Mono;
        }
        let term = set("TERM").unwrap_or_default().to_ascii_lowercase();
        if term == "dumb" || term.starts_with("vt") {
            return Depth::Mono;
        }
        let colorterm = set("COLORTERM").unwrap_or_default().to_ascii_lowercase();
        if colorterm == "truecolor" || colorterm == "24bit" || term.ends_with("-direct") {
            return Depth::TrueColor;
        }
        if term.contains("256color") {
            return Depth::Ansi256;
        }
        if term.is_empty() && colorterm.is_empty() {
            return Depth::Mono;
        }
        Depth::Ansi16
    }
}

/// One colour: 24-bit, and the ANSI colour that stands for it on a 16-colour terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint(pub u32, pub Color);

/// A foreground and a background that read together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The text.
    pub fg: Paint,
    /// The background.
    pub bg: Paint,
}

/// A pair of 24-bit colours with their 16-colour stand-ins.
pub const fn pair(fg: u32, fg16: Color, bg: u32, bg16: Color) -> Pair {
    Pair {
        fg: Paint(fg, fg16),
        bg: Paint(bg, bg16),
    }
}

/// A palette: one colour per role.
struct Palette {
    /// The whole screen's text and background.
    base: Pair,
    /// Titles, figures, keys.
    accent: Paint,
    /// Secondary text.
    muted: Paint,
    selected: Pair,
    warn: Pair,
    good: Pair,
    /// A square a selected piece can reach.
    target: Pair,
    /// The selected piece.
    picked: Pair,
    /// Whether emphasis is always bold (high contrast) and dim is avoided.
    loud: bool,
}

use Color::{
    Black, Blue, DarkGray, Gray, Green, LightCyan, LightGreen, LightYellow, Red, White, Yellow,
};

const DARK: Palette = Palette {
    base: pair(0xd0d0d0, Gray, 0x1c1c1c, Black),
    accent: Paint(0x87d7ff, LightCyan),
    // Not DarkGray at 16 colours: some palettes (Solarized) make it the background colour itself.
    muted: Paint(0x8a8a8a, Gray),
    selected: pair(0xffffff, White, 0x005f87, Blue),
    warn: pair(0xffffff, White, 0xaf0000, Red),
    good: pair(0x000000, Black, 0x87d75f, Green),
    target: pair(0xffffff, Black, 0x005f00, Green),
    picked: pair(0x000000, Black, 0xd7af00, Yellow),
    loud: false,
};

const LIGHT: Palette = Palette {
    base: pair(0x1c1c1c, Black, 0xfafafa, White),
    accent: Paint(0x005faf, Blue),
    muted: Paint(0x6c6c6c, DarkGray),
    selected: pair(0xffffff, White, 0x005faf, Blue),
    warn: pair(0xffffff, White, 0xc00000, Red),
    good: pair(0xffffff, Black, 0x008700, Green),
    target: pair(0x000000, Black, 0x87d787, LightGreen),
    picked: pair(0x000000, Black, 0xffd75f, LightYellow),
    loud: false,
};

const HIGH_CONTRAST: Palette = Palette {
    base: pair(0xffffff, White, 0x000000, Black),
    accent: Paint(0xffff00, LightYellow),
    muted: Paint(0xffffff, White),
    selected: pair(0x000000, Black, 0xffff00, LightYellow),
    warn: pair(0xffffff, White, 0xd70000, Red),
    good: pair(0x000000, Black, 0x00ff00, LightGreen),
    target: pair(0x000000, Black, 0x00ff00, LightGreen),
    picked: pair(0x000000, Black, 0xffff00, LightYellow),
    loud: true,
};

/// The palette in use: a theme at the terminal's colour depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// The chosen theme (never `Auto`: that is resolved when the theme is made).
    pub name: ThemeName,
    /// What the terminal shows.
    pub depth: Depth,
}

impl Theme {
    /// No colour at all: what tests and `NO_COLOR` get.
    pub const MONO: Theme = Theme {
        name: ThemeName::Mono,
        depth: Depth::Mono,
    };

    /// A theme at a depth; `Auto` becomes dark or light from `colorfgbg` (the `COLORFGBG` variable, `fg;bg`):
    /// light when its background is 7 or 15, else dark.
    pub fn new(name: ThemeName, depth: Depth, colorfgbg: Option<&str>) -> Theme {
        let name = match name {
            ThemeName::Auto => {
                let bg = colorfgbg.and_then(|v| v.rsplit(';').next()).map(str::trim);
                if matches!(bg, Some("7" | "15")) {
                    ThemeName::Light
                } else {
                    ThemeName::Dark
                }
            }
            other => other,
        };
        Theme { name, depth }
    }

    /// The theme `name` at the colour depth of this process's terminal (`no_color`: `--no-color`).
    #[cfg(feature = "terminal")]
    pub fn from_env(name: ThemeName, no_color: bool) -> Theme {
        let depth = Depth::detect(no_color, |k| std::env::var(k).ok());
        Theme::new(name, depth, std::env::var("COLORFGBG").ok().as_deref())
    }

    /// Whether colours are used.
    pub fn color(&self) -> bool {
        self.palette().is_some()
    }

    fn palette(&self) -> Option<&'static Palette> {
        if self.depth == Depth::Mono {
            return None;
        }
        match self.name {
            ThemeName::Auto | ThemeName::Dark => Some(&DARK),
            ThemeName::Light => Some(&LIGHT),
            ThemeName::HighContrast => Some(&HIGH_CONTRAST),
            ThemeName::Mono => None,
        }
    }

    fn paint(&self, p: Paint) -> Color {
        match self.depth {
            Depth::TrueColor => Color::Rgb((p.0 >> 16) as u8, (p.0 >> 8) as u8, p.0 as u8),
            Depth::Ansi256 => Color::Indexed(xterm256(p.0)),
            Depth::Ansi16 | Depth::Mono => p.1,
        }
    }

    fn pair(&self, p: Pair) -> Style {
        Style::default().fg(self.paint(p.fg)).bg(self.paint(p.bg))
    }

    fn fg(&self, p: Paint) -> Style {
        Style::default().fg(self.paint(p))
    }

    /// Bold, in the palette's `role`; without colours, bold and `mono` instead.
    fn bold(&self, role: fn(&Palette) -> Pair, mono: Modifier) -> Style {
        let s = Style::default().add_modifier(Modifier::BOLD);
        match self.palette() {
            Some(p) => s.patch(self.pair(role(p))),
            None => s.add_modifier(mono),
        }
    }

    /// The whole screen's colours (none without colour: the terminal's own).
    pub fn base(&self) -> Style {
        self.palette()
            .map_or_else(Style::default, |p| self.pair(p.base))
    }

    /// Gives every cell of `buf` that has no colour of its own the theme's base colours, so that a colour theme
    /// covers the whole screen (dialogs and cleared areas included).
    pub fn paint_base(&self, buf: &mut Buffer) {
        let base = self.base();
        let (Some(fg), Some(bg)) = (base.fg, base.bg) else {
            return;
        };
        for cell in &mut buf.content {
            if cell.fg == Color::Reset {
                cell.fg = fg;
            }
            if cell.bg == Color::Reset {
                cell.bg = bg;
            }
        }
    }

    /// Plain text.
    pub fn text(&self) -> Style {
        Style::default()
    }

    /// Titles and important figures.
    pub fn strong(&self) -> Style {
        let s = Style::default().add_modifier(Modifier::BOLD);
        match self.palette() {
            Some(p) => s.patch(self.fg(p.accent)),
            None => s,
        }
    }

    /// Bars and lines of charts: the theme's accent colour (plain blocks where there is no colour).
    pub fn chart(&self) -> Style {
        match self.palette() {
            Some(p) => Style::default().patch(self.fg(p.accent)),
            None => Style::default(),
        }
    }

    /// Secondary text.
    pub fn dim(&self) -> Style {
        match self.palette() {
            Some(p) if p.loud => Style::default(),
            // Sixteen colours have too few greys to tell secondary text by colour alone: dim it too.
            Some(p) if self.depth == Depth::Ansi16 => self.fg(p.muted).add_modifier(Modifier::DIM),
            Some(p) => self.fg(p.muted),
            None => Style::default().add_modifier(Modifier::DIM),
        }
    }

    /// The selected line of a list.
    pub fn selected(&self) -> Style {
        self.bold(|p| p.selected, Modifier::REVERSED)
    }

    /// Keys in the hint bar.
    pub fn key(&self) -> Style {
        let s = Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
        match self.palette() {
            Some(p) => s.patch(self.fg(p.accent)),
            None => s,
        }
    }

    /// Warnings and refusals.
    pub fn warn(&self) -> Style {
        self.bold(|p| p.warn, Modifier::REVERSED)
    }

    /// Good news (a win, a new best).
    pub fn good(&self) -> Style {
        self.bold(|p| p.good, Modifier::UNDERLINED)
    }

    /// A square that the selected piece can reach (its digit marks it too).
    pub fn target(&self) -> Style {
        match self.palette() {
            Some(p) => self.pair(p.target),
            None => Style::default().add_modifier(Modifier::UNDERLINED),
        }
    }

    /// The selected piece (brackets mark it too).
    pub fn picked(&self) -> Style {
        self.bold(|p| p.picked, Modifier::UNDERLINED)
    }

    /// The colour theme in use (`None` without colour): what a game's own palette is chosen by.
    pub fn shade(&self) -> Option<Shade> {
        if self.depth == Depth::Mono {
            return None;
        }
        match self.name {
            ThemeName::Auto | ThemeName::Dark => Some(Shade::Dark),
            ThemeName::Light => Some(Shade::Light),
            ThemeName::HighContrast => Some(Shade::HighContrast),
            ThemeName::Mono => None,
        }
    }

    /// Whether emphasis is always bold (high contrast).
    pub fn loud(&self) -> bool {
        self.palette().is_some_and(|p| p.loud)
    }

    /// The screen's own colours in 24-bit (`None` without colour), for a game's palette to be read against.
    pub fn base_pair(&self) -> Option<Pair> {
        self.palette().map(|p| p.base)
    }

    /// A game's own pair of colours at the terminal's depth.
    pub fn paint_pair(&self, p: Pair) -> Style {
        self.pair(p)
    }

    /// A game's own colour as a foreground at the terminal's depth.
    pub fn paint_fg(&self, p: Paint) -> Style {
        self.fg(p)
    }
}

/// A colour theme, for a game to choose its own palette by (each game's colours live in its folder).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    /// Light text on a dark background.
    Dark,
    /// Dark text on a light background.
    Light,
    /// White and pure colours on black.
    HighContrast,
}

impl Shade {
    /// Every colour theme.
    pub const ALL: [Shade; 3] = [Shade::Dark, Shade::Light, Shade::HighContrast];

    /// The theme of this shade at `depth`.
    pub fn theme(self, depth: Depth) -> Theme {
        let name = match self {
            Shade::Dark => ThemeName::Dark,
            Shade::Light => ThemeName::Light,
            Shade::HighContrast => ThemeName::HighContrast,
        };
        Theme::new(name, depth, None)
    }
}

/// The WCAG relative luminance of a 24-bit colour.
pub fn luminance(rgb: u32) -> f64 {
    let lin = |c: u32| {
        let c = f64::from(c & 0xff) / 255.0;
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(rgb >> 16) + 0.7152 * lin(rgb >> 8) + 0.0722 * lin(rgb)
}

/// The WCAG contrast ratio of two 24-bit colours (1 to 21): text needs 4.5.
pub fn contrast(a: u32, b: u32) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// The xterm-256 index nearest to an RGB colour: the nearer of the 6x6x6 cube and the grey ramp.
pub fn xterm256(rgb: u32) -> u8 {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let (r, g, b) = ((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8);
    let nearest = |v: u8| -> usize {
        (0..6)
            .min_by_key(|&i| (i32::from(LEVELS[i]) - i32::from(v)).abs())
            .unwrap_or(0)
    };
    let dist = |a: (u8, u8, u8)| -> i32 {
        let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).pow(2);
        d(a.0, r) + d(a.1, g) + d(a.2, b)
    };
    let (ri, gi, bi) = (nearest(r), nearest(g), nearest(b));
    let cube = (LEVELS[ri], LEVELS[gi], LEVELS[bi]);
    let cube_index = 16 + 36 * ri + 6 * gi + bi;
    let avg = (u32::from(r) + u32::from(g) + u32::from(b)) / 3;
    let grey_i = (avg.saturating_sub(3) / 10).min(23) as u8;
    let grey_v = 8 + 10 * grey_i;
    if dist((grey_v, grey_v, grey_v)) < dist(cube) {
        232 + grey_i
    } else {
        cube_index as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The environment `vars` describes: `NAME=value` words apart (`NAME=` for a variable set to nothing).
    fn env(vars: &str) -> impl Fn(&str) -> Option<String> + '_ {
        move |k| {
            vars.split_whitespace()
                .filter_map(|word| word.split_once('='))
                .find(|(name, _)| *name == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn detection_table() {
        use Depth::{Ansi16, Ansi256, Mono, TrueColor};
        let table: &[(&str, Depth)] = &[
            ("TERM=xterm-256color", Ansi256),
            ("TERM=tmux-256color", Ansi256),
            ("TERM=xterm-256color COLORTERM=truecolor", TrueColor),
            ("TERM=xterm COLORTERM=24bit", TrueColor),
            ("TERM=xterm-direct", TrueColor),
            ("TERM=xterm", Ansi16),
            ("TERM=linux", Ansi16),
            ("TERM=screen", Ansi16),
            ("TERM=vt100", Mono),
            ("TERM=dumb", Mono),
            ("", Mono),
            ("TERM=", Mono),
            ("TERM=xterm-256color NO_COLOR=1", Mono),
            ("TERM=xterm-256color NO_COLOR=", Ansi256),
        ];
        for &(vars, want) in table {
            assert_eq!(Depth::detect(false, env(vars)), want, "{vars:?}");
        }
        // The flag (`--no-color`) wins over any environment.
        let truecolor = env("TERM=xterm-256color COLORTERM=truecolor");
        assert_eq!(Depth::detect(true, truecolor), Mono, "the flag");
    }

    #[test]
    fn auto_follows_colorfgbg_and_mono_depth_removes_every_colour() {
        assert_eq!(
            Theme::new(ThemeName::Auto, Depth::Ansi256, Some("0;15")).name,
            ThemeName::Light
        );
        assert_eq!(
            Theme::new(ThemeName::Auto, Depth::Ansi256, Some("15;0")).name,
            ThemeName::Dark
        );
        assert_eq!(
            Theme::new(ThemeName::Auto, Depth::Ansi256, None).name,
            ThemeName::Dark
        );
        for name in ThemeName::ALL {
            let t = Theme::new(name, Depth::Mono, None);
            assert!(!t.color());
            for s in [t.base(), t.strong(), t.selected(), t.warn()] {
                assert_eq!((s.fg, s.bg), (None, None), "{name:?}");
            }
        }
        assert!(!Theme::new(ThemeName::Mono, Depth::TrueColor, None).color());
    }

    #[test]
    fn each_depth_gives_colours_of_its_kind() {
        let t = |d| Theme::new(ThemeName::Dark, d, None).warn().bg;
        assert_eq!(t(Depth::TrueColor), Some(Color::Rgb(0xaf, 0, 0)));
        assert_eq!(t(Depth::Ansi256), Some(Color::Indexed(124)));
        assert_eq!(t(Depth::Ansi16), Some(Color::Red));
    }

    #[test]
    fn xterm256_finds_cube_and_grey_entries() {
        assert_eq!(xterm256(0x000000), 16);
        assert_eq!(xterm256(0xffffff), 231);
        assert_eq!(xterm256(0xff0000), 196);
        assert_eq!(xterm256(0x1c1c1c), 234);
        assert_eq!(xterm256(0x87d7ff), 117);
        assert_eq!(xterm256(0x808080), 244);
    }

    #[test]
    fn the_contrast_formula_matches_known_values() {
        assert!((contrast(0x000000, 0xffffff) - 21.0).abs() < 0.01);
        assert!((contrast(0x777777, 0xffffff) - 4.48).abs() < 0.01);
        assert!((contrast(0x123456, 0x123456) - 1.0).abs() < 1e-9);
    }

    /// Issue 24: the GREEN peg's letter was 2.2 to 2.9:1 against its background in every theme. Every pair of text
    /// and background that the themes draw (their 24-bit colours, which 256 colours approximate) is at least 4.5:1,
    /// the WCAG ratio for normal text: each declared pair, the text colours on the screen's background, and each
    /// peg's letter.
    #[test]
    fn every_text_and_background_pair_of_every_theme_reads_at_4_5_to_1() {
        let mut low = Vec::new();
        let mut check = |what: String, fg: u32, bg: u32| {
            let r = contrast(fg, bg);
            if r < 4.5 {
                low.push(format!("{what}: {fg:06x} on {bg:06x} is {r:.2}:1"));
            }
        };
        for (name, p) in [
            ("dark", &DARK),
            ("light", &LIGHT),
            ("high-contrast", &HIGH_CONTRAST),
        ] {
            let bg = p.base.bg.0;
            check(format!("{name} base"), p.base.fg.0, bg);
            check(format!("{name} accent"), p.accent.0, bg);
            check(format!("{name} muted"), p.muted.0, bg);
            for (role, pair) in [
                ("selected", p.selected),
                ("warn", p.warn),
                ("good", p.good),
                ("target", p.target),
                ("picked", p.picked),
            ] {
                check(format!("{name} {role}"), pair.fg.0, pair.bg.0);
            }
        }
        assert!(
            low.is_empty(),
            "{} pairs below 4.5:1:\n{}",
            low.len(),
            low.join("\n")
        );
    }

    #[test]
    fn theme_names_parse_exactly() {
        for t in ThemeName::ALL {
            assert_eq!(ThemeName::parse(t.as_str()), Some(t));
        }
        assert_eq!(ThemeName::parse("Dark"), None);
        assert_eq!(ThemeName::parse("nosuch"), None);
    }
}
