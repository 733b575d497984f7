//! Game variants (colours, pegs, guesses, repeat rules) and the colour palette.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The largest number of colours a variant may have.
pub const MAX_COLOURS: u8 = 10;
/// The largest number of pegs a code may have.
pub const MAX_PEGS: u8 = 8;

/// Colour names of the [`Palette::Colours`] palette, in numbering order.
///
/// The first six are the seed program's colours in the seed's order (`1 - RED` ... `6 - ORANGE`).
pub const COLOUR_NAMES: [&str; 10] = [
    "RED", "GREEN", "YELLOW", "BLUE", "BLACK", "ORANGE", "PURPLE", "CYAN", "MAGENTA", "WHITE",
];

/// One-letter symbols of the [`Palette::Colours`] palette, unique, in numbering order.
///
/// Each is the initial of its name except BLUE = `U` and BLACK = `K` (both names start with B).
pub const COLOUR_SYMBOLS: [char; 10] = ['R', 'G', 'Y', 'U', 'K', 'O', 'P', 'C', 'M', 'W'];

const DIGIT_NAMES: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

/// How the colours of a variant are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Palette {
    /// Named colours (`RED`, `GREEN`, ...), numbered from 1 as in the seed.
    Colours,
    /// The digits `0` to `9`, which are name, symbol and number at once (Bulls and Cows).
    Digits,
}

/// Why a variant could not be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariantError {
    /// The name is not one of [`Variant::PRESETS`].
    #[error(
        "unknown variant '{0}' (presets: seed, classic, super, bulls-cows; custom: custom-C-P-G-SR, e.g. custom-6-4-10-yy)"
    )]
    UnknownPreset(String),
    /// The number of colours is outside 2..=10.
    #[error("{0} colours is out of range: a variant has 2 to 10 colours")]
    Colours(u32),
    /// The number of pegs is outside 2..=8.
    #[error("{0} pegs is out of range: a code has 2 to 8 pegs")]
    Pegs(u32),
    /// Zero guesses allowed.
    #[error("a variant must allow at least one guess")]
    NoGuesses,
    /// Without repeats, there must be at least as many colours as pegs.
    #[error("{colours} colours cannot fill {pegs} pegs without repeating a colour")]
    TooFewColours {
        /// colours asked for
        colours: u32,
        /// pegs asked for
        pegs: u32,
    },
    /// The secret may repeat colours but guesses may not: such a secret could never be guessed.
    #[error("a secret that may repeat colours needs guesses that may repeat colours")]
    GuessRepeatsNeeded,
}

/// A Mastermind variant: colours, pegs, guesses allowed, and the repeat rules.
///
/// ```
/// use mastermind::Variant;
/// let v = Variant::preset("classic").unwrap();
/// assert_eq!((v.colours(), v.pegs(), v.guesses()), (6, 4, 10));
/// assert_eq!(Variant::default().menu_line(), "1 - RED, 2 - GREEN, 3 - YELLOW, 4 - BLUE, 5 - BLACK, 6 - ORANGE");
/// let code = v.parse_code("r y o bla").unwrap();
/// assert_eq!(v.display(&code).to_string(), "RED YELLOW ORANGE BLACK");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    colours: u8,
    pegs: u8,
    guesses: u32,
    secret_repeats: bool,
    guess_repeats: bool,
    palette: Palette,
}

impl Default for Variant {
    /// The `seed` preset.
    fn default() -> Self {
        Variant::SEED
    }
}

impl Variant {
    /// The seed program's game: 6 colours, 4 pegs, 8 guesses, the secret never repeats a colour, guesses may.
    pub const SEED: Variant = Variant {
        colours: 6,
        pegs: 4,
        guesses: 8,
        secret_repeats: false,
        guess_repeats: true,
        palette: Palette::Colours,
    };
    /// The board game: 6 colours, 4 pegs, 10 guesses, repeats allowed (1296 codes).
    pub const CLASSIC: Variant = Variant {
        colours: 6,
        pegs: 4,
        guesses: 10,
        secret_repeats: true,
        guess_repeats: true,
        palette: Palette::Colours,
    };
    /// Super Mastermind: 8 colours, 5 pegs, 12 guesses, repeats allowed (32768 codes).
    pub const SUPER: Variant = Variant {
        colours: 8,
        pegs: 5,
        guesses: 12,
        secret_repeats: true,
        guess_repeats: true,
        palette: Palette::Colours,
    };
    /// Bulls and Cows: digits 0 to 9, 4 pegs, 10 guesses, no repeats (5040 codes).
    pub const BULLS_COWS: Variant = Variant {
        colours: 10,
        pegs: 4,
        guesses: 10,
        secret_repeats: false,
        guess_repeats: false,
        palette: Palette::Digits,
    };

    /// The presets by name, the default first.
    pub const PRESETS: [(&'static str, Variant); 4] = [
        ("seed", Variant::SEED),
        ("classic", Variant::CLASSIC),
        ("super", Variant::SUPER),
        ("bulls-cows", Variant::BULLS_COWS),
    ];

    /// The preset with this name (`seed`, `classic`, `super`, `bulls-cows`; case-insensitive).
    pub fn preset(name: &str) -> Result<Variant, VariantError> {
        let lower = name.trim().to_ascii_lowercase();
        Variant::PRESETS
            .iter()
            .find(|(n, _)| *n == lower)
            .map(|&(_, v)| v)
            .ok_or_else(|| VariantError::UnknownPreset(name.to_string()))
    }

    /// A custom variant with the [`Palette::Colours`] palette.
    ///
    /// `colours` in 2..=10, `pegs` in 2..=8, `guesses` >= 1; without secret repeats, `colours >= pegs`;
    /// a secret that may repeat needs guesses that may repeat.
    pub fn custom(
        colours: u32,
        pegs: u32,
        guesses: u32,
        secret_repeats: bool,
        guess_repeats: bool,
    ) -> Result<Variant, VariantError> {
        if !(2..=u32::from(MAX_COLOURS)).contains(&colours) {
            return Err(VariantError::Colours(colours));
        }
        if !(2..=u32::from(MAX_PEGS)).contains(&pegs) {
            return Err(VariantError::Pegs(pegs));
        }
        if guesses == 0 {
            return Err(VariantError::NoGuesses);
        }
        if secret_repeats && !guess_repeats {
            return Err(VariantError::GuessRepeatsNeeded);
        }
        if !secret_repeats && colours < pegs {
            return Err(VariantError::TooFewColours { colours, pegs });
        }
        Ok(Variant {
            colours: colours as u8,
            pegs: pegs as u8,
            guesses,
            secret_repeats,
            guess_repeats,
            palette: Palette::Colours,
        })
    }

    /// The same variant with another palette.
    pub fn with_palette(mut self, palette: Palette) -> Variant {
        self.palette = palette;
        self
    }

    /// The same variant with another number of guesses allowed (at least 1).
    pub fn with_guesses(mut self, guesses: u32) -> Result<Variant, VariantError> {
        if guesses == 0 {
            return Err(VariantError::NoGuesses);
        }
        self.guesses = guesses;
        Ok(self)
    }

    /// The preset name, if this variant is a preset.
    pub fn preset_name(&self) -> Option<&'static str> {
        Variant::PRESETS
            .iter()
            .find(|(_, v)| v == self)
            .map(|&(n, _)| n)
    }

    /// Number of colours.
    pub fn colours(&self) -> u8 {
        self.colours
    }
    /// Number of pegs in a code.
    pub fn pegs(&self) -> u8 {
        self.pegs
    }
    /// Number of guesses allowed.
    pub fn guesses(&self) -> u32 {
        self.guesses
    }
    /// Whether the secret may repeat a colour.
    pub fn secret_repeats(&self) -> bool {
        self.secret_repeats
    }
    /// Whether a guess may repeat a colour.
    pub fn guess_repeats(&self) -> bool {
        self.guess_repeats
    }
    /// The palette.
    pub fn palette(&self) -> Palette {
        self.palette
    }

    /// The name of colour `i` (0-based), e.g. `RED`, or the digit for [`Palette::Digits`].
    /// Indices past the palette give `?`.
    pub fn colour_name(&self, i: u8) -> &'static str {
        let names = match self.palette {
            Palette::Colours => &COLOUR_NAMES,
            Palette::Digits => &DIGIT_NAMES,
        };
        names.get(usize::from(i)).copied().unwrap_or("?")
    }

    /// The one-letter symbol of colour `i` (0-based), e.g. `R`, or the digit for [`Palette::Digits`].
    pub fn colour_symbol(&self, i: u8) -> char {
        match self.palette {
            Palette::Colours => COLOUR_SYMBOLS.get(usize::from(i)).copied().unwrap_or('?'),
            Palette::Digits => char::from_digit(u32::from(i), 10).unwrap_or('?'),
        }
    }

    /// The number a player types for colour `i` (0-based): `i + 1` for colours as in the seed, `i` for digits.
    pub fn colour_number(&self, i: u8) -> u32 {
        match self.palette {
            Palette::Colours => u32::from(i) + 1,
            Palette::Digits => u32::from(i),
        }
    }

    /// The seed's menu line, e.g. `1 - RED, 2 - GREEN, 3 - YELLOW, 4 - BLUE, 5 - BLACK, 6 - ORANGE`;
    /// for digits `digits 0 to 9`.
    pub fn menu_line(&self) -> String {
        match self.palette {
            Palette::Colours => (0..self.colours)
                .map(|i| format!("{} - {}", self.colour_number(i), self.colour_name(i)))
                .collect::<Vec<_>>()
                .join(", "),
            Palette::Digits => format!("digits 0 to {}", self.colours - 1),
        }
    }

    /// The number of codes of `pegs` pegs over `colours` colours, repeats or not (`colours ^ pegs`).
    pub fn code_space_size(&self) -> u64 {
        u64::from(self.colours).pow(u32::from(self.pegs))
    }

    /// The number of possible secrets.
    pub fn secret_count(&self) -> u64 {
        count_codes(self.colours, self.pegs, self.secret_repeats)
    }

    /// The number of codes allowed as a guess.
    pub fn guess_count(&self) -> u64 {
        count_codes(self.colours, self.pegs, self.guess_repeats)
    }
}

fn count_codes(colours: u8, pegs: u8, repeats: bool) -> u64 {
    if repeats {
        u64::from(colours).pow(u32::from(pegs))
    } else {
        (0..u64::from(pegs))
            .map(|k| u64::from(colours) - k)
            .product()
    }
}

impl fmt::Display for Variant {
    /// The preset name, or `custom-C-P-G-SG` where S and G are `y`/`n` for secret and guess repeats
    /// (and a trailing `-digits` for the digit palette).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = self.preset_name() {
            return f.write_str(name);
        }
        let yn = |b: bool| if b { 'y' } else { 'n' };
        write!(
            f,
            "custom-{}-{}-{}-{}{}",
            self.colours,
            self.pegs,
            self.guesses,
            yn(self.secret_repeats),
            yn(self.guess_repeats)
        )?;
        if self.palette == Palette::Digits {
            f.write_str("-digits")?;
        }
        Ok(())
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    /// A preset name or the `custom-C-P-G-SG[-digits]` form written by `Display`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Ok(v) = Variant::preset(s) {
            return Ok(v);
        }
        let unknown = || VariantError::UnknownPreset(s.to_string());
        let lower = s.trim().to_ascii_lowercase();
        let rest = lower.strip_prefix("custom-").ok_or_else(unknown)?;
        let parts: Vec<&str> = rest.split('-').collect();
        if parts.len() != 4 && !(parts.len() == 5 && parts[4] == "digits") {
            return Err(unknown());
        }
        let num = |t: &str| t.parse::<u32>().map_err(|_| unknown());
        let (c, p, g) = (num(parts[0])?, num(parts[1])?, num(parts[2])?);
        let flags: Vec<char> = parts[3].chars().collect();
        let flag = |ch: char| match ch {
            'y' => Ok(true),
            'n' => Ok(false),
            _ => Err(unknown()),
        };
        if flags.len() != 2 {
            return Err(unknown());
        }
        let v = Variant::custom(c, p, g, flag(flags[0])?, flag(flags[1])?)?;
        Ok(if parts.len() == 5 {
            v.with_palette(Palette::Digits)
        } else {
            v
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets() {
        assert_eq!(Variant::default(), Variant::preset("seed").unwrap());
        assert_eq!(Variant::preset("classic").unwrap().secret_count(), 1296);
        assert_eq!(Variant::preset("SUPER").unwrap().secret_count(), 32768);
        assert_eq!(Variant::preset("bulls-cows").unwrap().secret_count(), 5040);
        assert_eq!(Variant::SEED.secret_count(), 360);
        assert_eq!(Variant::SEED.guess_count(), 1296);
        assert!(matches!(
            Variant::preset("nope"),
            Err(VariantError::UnknownPreset(_))
        ));
    }

    #[test]
    fn custom_errors() {
        assert_eq!(
            Variant::custom(1, 4, 10, true, true),
            Err(VariantError::Colours(1))
        );
        assert_eq!(
            Variant::custom(11, 4, 10, true, true),
            Err(VariantError::Colours(11))
        );
        assert_eq!(
            Variant::custom(6, 9, 10, true, true),
            Err(VariantError::Pegs(9))
        );
        assert_eq!(
            Variant::custom(6, 4, 0, true, true),
            Err(VariantError::NoGuesses)
        );
        assert_eq!(
            Variant::custom(3, 4, 10, false, true),
            Err(VariantError::TooFewColours {
                colours: 3,
                pegs: 4
            })
        );
        assert_eq!(
            Variant::custom(6, 4, 10, true, false),
            Err(VariantError::GuessRepeatsNeeded)
        );
        assert_eq!(Variant::custom(6, 4, 10, true, true), Ok(Variant::CLASSIC));
    }

    #[test]
    fn names_and_symbols_unique() {
        for i in 0..10 {
            for j in 0..i {
                assert_ne!(COLOUR_SYMBOLS[i], COLOUR_SYMBOLS[j]);
                assert_ne!(COLOUR_NAMES[i], COLOUR_NAMES[j]);
            }
        }
        assert_eq!(Variant::BULLS_COWS.colour_name(7), "7");
        assert_eq!(Variant::BULLS_COWS.colour_symbol(7), '7');
        assert_eq!(Variant::SEED.colour_symbol(4), 'K');
    }

    #[test]
    fn display_round_trip() {
        for (_, v) in Variant::PRESETS {
            assert_eq!(v.to_string().parse::<Variant>(), Ok(v));
        }
        let v = Variant::custom(7, 5, 9, false, true).unwrap();
        assert_eq!(v.to_string(), "custom-7-5-9-ny");
        assert_eq!(v.to_string().parse::<Variant>(), Ok(v));
        let d = v.with_palette(Palette::Digits);
        assert_eq!(d.to_string().parse::<Variant>(), Ok(d));
        assert!("custom-7-5".parse::<Variant>().is_err());
        assert_eq!(
            "custom-3-4-9-nn".parse::<Variant>(),
            Err(VariantError::TooFewColours {
                colours: 3,
                pegs: 4
            })
        );
    }
}
