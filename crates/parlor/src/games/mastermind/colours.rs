//! Mastermind's own colours: the pegs (the same hues in every colour theme: they are the game's colours).

use crate::tui::theme::{Paint, Pair, Theme};
use ratatui::style::Color::{
    Black, Blue, DarkGray, Green, LightCyan, LightMagenta, LightRed, LightYellow, Magenta, Red,
    White,
};
use ratatui::style::{Modifier, Style};

/// Each peg's background, and whether the letter on it is dark.
const PEGS: [(Paint, bool); 10] = [
    (Paint(0xd70000, Red), false),
    // A dark letter: white on this green is 2.9:1 (issue 24); black is 7.1:1.
    (Paint(0x00af00, Green), true),
    (Paint(0xffff00, LightYellow), true),
    (Paint(0x005fff, Blue), false),
    (Paint(0x303030, DarkGray), false),
    (Paint(0xff8700, LightRed), true),
    (Paint(0x8700ff, Magenta), false),
    (Paint(0x00ffff, LightCyan), true),
    (Paint(0xff00ff, LightMagenta), true),
    (Paint(0xeeeeee, White), true),
];

/// A peg of colour `c`: its own background with a readable letter (bold only, without colour).
pub fn peg(theme: &Theme, c: u8) -> Style {
    let s = Style::default().add_modifier(Modifier::BOLD);
    if theme.shade().is_none() {
        return s;
    }
    let (bg, dark_text) = PEGS[usize::from(c).min(PEGS.len() - 1)];
    let fg = if dark_text {
        Paint(0x000000, Black)
    } else {
        Paint(0xffffff, White)
    };
    s.patch(theme.paint_pair(Pair { fg, bg }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::{Depth, Shade, contrast};
    use ratatui::style::Color;

    /// Issue 24: the GREEN peg's letter was 2.2 to 2.9:1 against its background in every theme.
    #[test]
    fn every_peg_letter_reads_at_4_5_to_1_in_every_theme() {
        for shade in Shade::ALL {
            for c in 0..PEGS.len() as u8 {
                let style = peg(&shade.theme(Depth::TrueColor), c);
                let rgb = |col: Option<Color>| match col {
                    Some(Color::Rgb(r, g, b)) => {
                        (u32::from(r) << 16) | (u32::from(g) << 8) | u32::from(b)
                    }
                    other => panic!("a peg in 24-bit colour, not {other:?}"),
                };
                let r = contrast(rgb(style.fg), rgb(style.bg));
                assert!(r >= 4.5, "{shade:?} peg {c}: {r:.2}:1");
            }
        }
    }
}
