//! Nocca Nocca's own colours: each side's letters, in each colour theme (the theme's generic roles are in
//! [`crate::tui::theme`]).

use crate::tui::theme::{Paint, Shade, Theme};
use nocca::Colour;
use ratatui::style::Color::{Blue, LightBlue, LightCyan, LightYellow, Magenta};
use ratatui::style::Style;

/// The sides' colours, Black then White.
fn sides(shade: Shade) -> [Paint; 2] {
    match shade {
        Shade::Dark => [Paint(0x5fafff, LightBlue), Paint(0xffaf5f, LightYellow)],
        Shade::Light => [Paint(0x005faf, Blue), Paint(0xaf3f00, Magenta)],
        Shade::HighContrast => [Paint(0x00ffff, LightCyan), Paint(0xffff00, LightYellow)],
    }
}

/// A piece's letter of side `side` (the letter `b` or `w` says the side without colour).
pub fn side(theme: &Theme, side: Colour) -> Style {
    match theme.shade() {
        Some(shade) => theme.paint_fg(sides(shade)[side.index()]),
        None => Style::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::{Depth, contrast};

    #[test]
    fn each_side_reads_at_4_5_to_1_on_the_screen() {
        for shade in Shade::ALL {
            let bg = shade.theme(Depth::TrueColor).base_pair().unwrap().bg.0;
            for (i, s) in sides(shade).iter().enumerate() {
                let r = contrast(s.0, bg);
                assert!(r >= 4.5, "{shade:?} side {i}: {r:.2}:1");
            }
        }
    }
}
