//! The names of the themes, as the settings and `--theme` give them; the full screen's `tui::theme` makes the palettes.

/// A theme as the player chooses it (`--theme`, the settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "terminal", derive(clap::ValueEnum))]
pub enum ThemeName {
    /// Dark or light, from the terminal's `COLORFGBG` when it says; dark otherwise.
    Auto,
    /// Light text on a dark background.
    Dark,
    /// Dark text on a light background.
    Light,
    /// White and pure colours on black, everything bold.
    HighContrast,
    /// No colour: the terminal's own colours, with bold, reverse and underline.
    Mono,
}

impl ThemeName {
    /// Every theme, in the order the settings offer them.
    pub const ALL: [ThemeName; 5] = [
        ThemeName::Auto,
        ThemeName::Dark,
        ThemeName::Light,
        ThemeName::HighContrast,
        ThemeName::Mono,
    ];

    /// The name as typed (`high-contrast`).
    pub fn as_str(self) -> &'static str {
        match self {
            ThemeName::Auto => "auto",
            ThemeName::Dark => "dark",
            ThemeName::Light => "light",
            ThemeName::HighContrast => "high-contrast",
            ThemeName::Mono => "mono",
        }
    }

    /// The theme of a typed name (exact, lower case), if any.
    pub fn parse(name: &str) -> Option<ThemeName> {
        ThemeName::ALL.into_iter().find(|t| t.as_str() == name)
    }
}
