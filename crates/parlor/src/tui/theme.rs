//! Colours and glyphs. Text uses the terminal's own foreground, so it reads on dark and light themes alike; coloured
//! areas always set both foreground and background; emphasis uses bold and reverse video, which work without colour.
//! With `NO_COLOR` (or `--no-color`) no colour is emitted at all, and every meaning is still carried by a glyph.

use ratatui::style::{Color, Modifier, Style};

/// The palette in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Whether colours may be used.
    pub color: bool,
}

impl Theme {
    /// The theme from the environment: colour unless `NO_COLOR` is set to anything non-empty, or `no_color` is true.
    pub fn from_env(no_color: bool) -> Theme {
        let env_off = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Theme {
            color: !(no_color || env_off),
        }
    }

    /// Plain text.
    pub fn text(&self) -> Style {
        Style::default()
    }

    /// Titles and important figures.
    pub fn strong(&self) -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }

    /// Secondary text.
    pub fn dim(&self) -> Style {
        Style::default().add_modifier(Modifier::DIM)
    }

    /// The selected line of a list.
    pub fn selected(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }

    /// Keys in the hint bar.
    pub fn key(&self) -> Style {
        Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }

    /// Warnings and refusals.
    pub fn warn(&self) -> Style {
        if self.color {
            Style::default()
                .fg(Color::White)
                .bg(Color::Red)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
        }
    }

    /// Good news (a win, a new best).
    pub fn good(&self) -> Style {
        if self.color {
            Style::default()
                .fg(Color::Black)
                .bg(Color::Green)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
        }
    }

    /// A 2048 tile of exponent `exp` (0 = empty): background by value, with a foreground chosen to contrast with it.
    pub fn tile(&self, exp: u8) -> Style {
        if !self.color {
            return match exp {
                0 => Style::default().add_modifier(Modifier::DIM),
                1..=6 => Style::default(),
                7..=10 => Style::default().add_modifier(Modifier::BOLD),
                _ => Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED),
            };
        }
        // 256-colour ramp: pale for small tiles, warm for middling ones, gold at 2048, cool and dark beyond.
        let (bg, light_text) = match exp {
            0 => return Style::default().add_modifier(Modifier::DIM),
            1 => (254, false),
            2 => (223, false),
            3 => (215, false),
            4 => (209, false),
            5 => (203, false),
            6 => (160, true),
            7 => (229, false),
            8 => (228, false),
            9 => (220, false),
            10 => (214, false),
            11 => (178, false),
            12 => (98, true),
            13 => (62, true),
            14 => (25, true),
            15 => (23, true),
            _ => (16, true),
        };
        let fg = if light_text {
            Color::Indexed(231)
        } else {
            Color::Indexed(16)
        };
        let style = Style::default().bg(Color::Indexed(bg)).fg(fg);
        if exp >= 7 {
            style.add_modifier(Modifier::BOLD)
        } else {
            style
        }
    }
}
