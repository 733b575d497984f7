//! 2048's own colours: a tile's background by its value, in each colour theme (the theme's generic roles are in
//! [`crate::tui::theme`]).

use crate::tui::theme::{Pair, Shade, Theme, pair};
use ratatui::style::Color::{
    Black, Blue, Cyan, DarkGray, Gray, LightCyan, LightGreen, LightMagenta, LightRed, LightYellow,
    Magenta, Red, White, Yellow,
};
use ratatui::style::{Modifier, Style};

/// Tiles by exponent, 0 (empty) to 17 and beyond, on the dark theme.
const DARK: [Pair; 18] = [
    pair(0x8a8a8a, Gray, 0x303030, Black),
    pair(0x000000, Black, 0xe4e4e4, White),
    pair(0x000000, Black, 0xffd7af, LightYellow),
    pair(0x000000, Black, 0xffaf5f, Yellow),
    pair(0x000000, Black, 0xff875f, LightRed),
    pair(0x000000, Black, 0xff5f5f, LightRed),
    pair(0xffffff, White, 0xd70000, Red),
    pair(0x000000, Black, 0xffffaf, LightYellow),
    pair(0x000000, Black, 0xffff87, LightYellow),
    pair(0x000000, Black, 0xffd700, Yellow),
    pair(0x000000, Black, 0xffaf00, Yellow),
    pair(0x000000, Black, 0xd7af00, Yellow),
    pair(0xffffff, White, 0x875fd7, Magenta),
    pair(0xffffff, White, 0x5f5fd7, Blue),
    pair(0xffffff, White, 0x005faf, Blue),
    pair(0xffffff, White, 0x005f5f, Cyan),
    pair(0xffffff, White, 0x000000, Black),
    pair(0xffffff, White, 0x000000, Black),
];

/// On the light theme.
// The classic 2048 colours: beige, then orange, then gold, then dark.
const LIGHT: [Pair; 18] = [
    pair(0x8a8a8a, DarkGray, 0xdedad2, Gray),
    pair(0x4e4640, Black, 0xeee4da, Gray),
    pair(0x4e4640, Black, 0xede0c8, LightYellow),
    // Darker than the classic orange so that its white figure reads at 4.6:1.
    pair(0xffffff, Black, 0xb35f0f, Yellow),
    pair(0xffffff, White, 0xc0502a, LightRed),
    pair(0xffffff, White, 0xc03a1c, Red),
    pair(0xffffff, White, 0xa8270e, Red),
    pair(0x3c3a32, Black, 0xedcf72, LightYellow),
    pair(0x3c3a32, Black, 0xedcc61, LightYellow),
    pair(0x3c3a32, Black, 0xedc850, Yellow),
    pair(0x3c3a32, Black, 0xedc53f, Yellow),
    pair(0x3c3a32, Black, 0xedc22e, Yellow),
    pair(0xffffff, White, 0x5f3f9f, Magenta),
    pair(0xffffff, White, 0x3c3a32, Black),
    pair(0xffffff, White, 0x303030, Black),
    pair(0xffffff, White, 0x202020, Black),
    pair(0xffffff, White, 0x101010, Black),
    pair(0xffffff, White, 0x000000, Black),
];

/// On the high-contrast theme.
const HIGH_CONTRAST: [Pair; 18] = [
    pair(0xffffff, White, 0x000000, Black),
    pair(0x000000, Black, 0xffffff, White),
    pair(0x000000, Black, 0xffff87, LightYellow),
    pair(0x000000, Black, 0xffff00, LightYellow),
    pair(0x000000, Black, 0xffd700, Yellow),
    pair(0x000000, Black, 0xffaf00, Yellow),
    pair(0x000000, Black, 0xff8700, LightRed),
    pair(0x000000, Black, 0x87ff87, LightGreen),
    pair(0x000000, Black, 0x00ff00, LightGreen),
    pair(0x000000, Black, 0x00ffaf, LightGreen),
    pair(0x000000, Black, 0x00ffff, LightCyan),
    pair(0x000000, Black, 0x87d7ff, LightCyan),
    pair(0x000000, Black, 0xd7afff, LightMagenta),
    pair(0x000000, Black, 0xff87ff, LightMagenta),
    pair(0x000000, Black, 0xff5fd7, LightMagenta),
    pair(0x000000, Black, 0xff5f5f, LightRed),
    pair(0x000000, Black, 0xd7d7d7, Gray),
    pair(0x000000, Black, 0xd7d7d7, Gray),
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
