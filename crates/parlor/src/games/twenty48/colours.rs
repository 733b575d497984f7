//! 2048's own colours: a tile's background by its value, in each colour theme (the theme's generic roles are in
//! [`crate::tui::theme`]).

use crate::tui::theme::{Pair, Shade, Theme, pair};
use ratatui::style::Color::{
    Black, Blue, Cyan, DarkGray, Gray, LightCyan, LightGreen, LightMagenta, LightRed, LightYellow,
    Magenta, Red, White, Yellow,
};
use ratatui::style::{Color, Modifier, Style};

/// Black figures on `bg` (with its 16-colour stand-in `bg16`).
const fn black_on(bg: u32, bg16: Color) -> Pair {
    pair(0x000000, Black, bg, bg16)
}

/// White figures on `bg` (with its 16-colour stand-in `bg16`).
const fn white_on(bg: u32, bg16: Color) -> Pair {
    pair(0xffffff, White, bg, bg16)
}

/// The light theme's dark brown figures (the classic 2048 ink) on `bg`.
const fn ink_on(bg: u32, bg16: Color) -> Pair {
    pair(0x3c3a32, Black, bg, bg16)
}

/// Tiles by exponent, 0 (empty) to 17 and beyond, on the dark theme.
const DARK: [Pair; 18] = [
    pair(0x8a8a8a, Gray, 0x303030, Black),
    black_on(0xe4e4e4, White),
    black_on(0xffd7af, LightYellow),
    black_on(0xffaf5f, Yellow),
    black_on(0xff875f, LightRed),
    black_on(0xff5f5f, LightRed),
    white_on(0xd70000, Red),
    black_on(0xffffaf, LightYellow),
    black_on(0xffff87, LightYellow),
    black_on(0xffd700, Yellow),
    black_on(0xffaf00, Yellow),
    black_on(0xd7af00, Yellow),
    white_on(0x875fd7, Magenta),
    white_on(0x5f5fd7, Blue),
    white_on(0x005faf, Blue),
    white_on(0x005f5f, Cyan),
    white_on(0x000000, Black),
    white_on(0x000000, Black),
];

/// On the light theme.
// The classic 2048 colours: beige, then orange, then gold, then dark.
const LIGHT: [Pair; 18] = [
    pair(0x8a8a8a, DarkGray, 0xdedad2, Gray),
    pair(0x4e4640, Black, 0xeee4da, Gray),
    pair(0x4e4640, Black, 0xede0c8, LightYellow),
    // Darker than the classic orange so that its white figure reads at 4.6:1.
    pair(0xffffff, Black, 0xb35f0f, Yellow),
    white_on(0xc0502a, LightRed),
    white_on(0xc03a1c, Red),
    white_on(0xa8270e, Red),
    ink_on(0xedcf72, LightYellow),
    ink_on(0xedcc61, LightYellow),
    ink_on(0xedc850, Yellow),
    ink_on(0xedc53f, Yellow),
    ink_on(0xedc22e, Yellow),
    white_on(0x5f3f9f, Magenta),
    white_on(0x3c3a32, Black),
    white_on(0x303030, Black),
    white_on(0x202020, Black),
    white_on(0x101010, Black),
    white_on(0x000000, Black),
];

/// On the high-contrast theme.
const HIGH_CONTRAST: [Pair; 18] = [
    white_on(0x000000, Black),
    black_on(0xffffff, White),
    black_on(0xffff87, LightYellow),
    black_on(0xffff00, LightYellow),
    black_on(0xffd700, Yellow),
    black_on(0xffaf00, Yellow),
    black_on(0xff8700, LightRed),
    black_on(0x87ff87, LightGreen),
    black_on(0x00ff00, LightGreen),
    black_on(0x00ffaf, LightGreen),
    black_on(0x00ffff, LightCyan),
    black_on(0x87d7ff, LightCyan),
    black_on(0xd7afff, LightMagenta),
    black_on(0xff87ff, LightMagenta),
    black_on(0xff5fd7, LightMagenta),
    black_on(0xff5f5f, LightRed),
    black_on(0xd7d7d7, Gray),
    black_on(0xd7d7d7, Gray),
];

fn tiles(shade: Shade) -> &'static [Pair; 18] {
    match shade {
        Shade::Dark => &DARK,
        Shade::Light => &LIGHT,
        Shade::HighContrast => &HIGH_CONTRAST,
    }
}

/// A tile of exponent `exp` (0 = empty): background by value, with a foreground that reads on it (emphasis only
/// without colour).
pub fn tile(theme: &Theme, exp: u8) -> Style {
    let Some(shade) = theme.shade() else {
        return match exp {
            0 => Style::default().add_modifier(Modifier::DIM),
            1..=6 => Style::default(),
            7..=10 => Style::default().add_modifier(Modifier::BOLD),
            _ => Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED),
        };
    };
    let t = tiles(shade);
    let style = theme.paint_pair(t[usize::from(exp).min(t.len() - 1)]);
    if exp >= 7 || (theme.loud() && exp > 0) {
        style.add_modifier(Modifier::BOLD)
    } else {
        style
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::{Depth, contrast};

    #[test]
    fn every_numbered_tile_reads_at_4_5_to_1_and_mono_has_no_colour() {
        for shade in Shade::ALL {
            // The empty cell (exponent 0) shows a dot only, no figure; every tile with a number must read.
            for (exp, t) in tiles(shade).iter().enumerate().skip(1) {
                let r = contrast(t.fg.0, t.bg.0);
                assert!(r >= 4.5, "{shade:?} tile 2^{exp}: {r:.2}:1");
            }
            let s = tile(&shade.theme(Depth::Mono), 11);
            assert_eq!((s.fg, s.bg), (None, None));
        }
    }
}
