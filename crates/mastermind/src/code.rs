//! Codes (a row of pegs), their parsing and display through a [`Variant`], and their numeric index.

use std::fmt;

use thiserror::Error;

use crate::variant::{COLOUR_NAMES, MAX_COLOURS, MAX_PEGS, Palette, Variant};

/// A code: up to 8 pegs, each a colour index (0-based). Compact and `Copy`.
///
/// Codes order numerically (first peg most significant), which is the tie-break order of the strategies.
/// Text goes through a variant: [`Variant::parse_code`] and [`Variant::display`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Code {
    len: u8,
    pegs: [u8; MAX_PEGS as usize],
}

impl Code {
    /// A code from colour indices (0-based); `None` if there are no pegs, more than 8, or a colour >= 10.
    pub fn from_pegs(pegs: &[u8]) -> Option<Code> {
        if pegs.is_empty()
            || pegs.len() > usize::from(MAX_PEGS)
            || pegs.iter().any(|&c| c >= MAX_COLOURS)
        {
            return None;
        }
        let mut code = Code {
            len: pegs.len() as u8,
            pegs: [0; MAX_PEGS as usize],
        };
        code.pegs[..pegs.len()].copy_from_slice(pegs);
        Some(code)
    }

    /// A code from at most 8 pegs, colours taken modulo 16 (internal: callers pass legal pegs).
    pub(crate) fn from_pegs_lossy(pegs: &[u8]) -> Code {
        let len = pegs.len().min(usize::from(MAX_PEGS));
        let mut code = Code {
            len: len as u8,
            pegs: [0; MAX_PEGS as usize],
        };
        code.pegs[..len].copy_from_slice(&pegs[..len]);
        code
    }

    /// The pegs as colour indices (0-based).
    pub fn pegs(&self) -> &[u8] {
        &self.pegs[..usize::from(self.len)]
    }

    /// Number of pegs.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Always false: a code has at least one peg.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether some colour occurs twice.
    pub fn has_repeat(&self) -> bool {
        let mut seen = 0u16;
        for &c in self.pegs() {
            if seen & (1 << c) != 0 {
                return true;
            }
            seen |= 1 << c;
        }
        false
    }
}

/// Why a text or a code was refused as a code of a variant.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CodeError {
    /// The number of colours given differs from the number of pegs.
    #[error("wrong length: got {got} colour{}, need {need}", if *got == 1 { "" } else { "s" })]
    WrongLength {
        /// colours given
        got: usize,
        /// pegs of the variant
        need: usize,
    },
    /// A token names no colour of the variant.
    #[error("unknown colour '{token}' (use {expected})")]
    UnknownColour {
        /// the token as typed
        token: String,
        /// what would have been accepted
        expected: String,
    },
    /// A prefix matches several colour names.
    #[error("ambiguous colour '{token}': could be {}", candidates.join(" or "))]
    Ambiguous {
        /// the token as typed
        token: String,
        /// the names it could stand for
        candidates: Vec<String>,
    },
    /// The code repeats a colour where the variant forbids it.
    #[error("{colour} is repeated, but this variant does not allow a colour twice")]
    RepeatForbidden {
        /// name of the repeated colour
        colour: String,
    },
}

/// How [`Variant::format_code`] writes a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodeStyle {
    /// Names separated by spaces: `RED YELLOW ORANGE BLACK` (digits: `0 1 2 3`).
    Names,
    /// Symbols without separator: `RYOK` (digits: `0123`).
    Symbols,
    /// Numbers separated by spaces as in the seed: `1 3 6 5` (digits: `0 1 2 3`).
    Numbers,
}

/// Displays a code through its variant (see [`Variant::display`]).
#[derive(Clone, Copy, Debug)]
pub struct CodeDisplay<'a> {
    variant: &'a Variant,
    code: &'a Code,
    style: CodeStyle,
}

impl fmt::Display for CodeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &c) in self.code.pegs().iter().enumerate() {
            match self.style {
                CodeStyle::Symbols => write!(f, "{}", self.variant.colour_symbol(c))?,
                CodeStyle::Names => {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    f.write_str(self.variant.colour_name(c))?;
                }
                CodeStyle::Numbers => {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{}", self.variant.colour_number(c))?;
                }
            }
        }
        Ok(())
    }
}

impl Variant {
    /// Displays a code: names for the colour palette (`RED YELLOW ORANGE BLACK`), the compact digit
    /// string for digits (`0123`). [`Variant::parse_code`] reads it back.
    pub fn display<'a>(&'a self, code: &'a Code) -> CodeDisplay<'a> {
        let style = match self.palette() {
            Palette::Colours => CodeStyle::Names,
            Palette::Digits => CodeStyle::Symbols,
        };
        CodeDisplay {
            variant: self,
            code,
            style,
        }
    }

    /// Displays a code in the given style; [`Variant::parse_code`] reads every style back.
    pub fn format_code<'a>(&'a self, code: &'a Code, style: CodeStyle) -> CodeDisplay<'a> {
        CodeDisplay {
            variant: self,
            code,
            style,
        }
    }

    fn expected_input(&self) -> String {
        match self.palette() {
            Palette::Colours => {
                let syms: String = (0..self.colours()).map(|i| self.colour_symbol(i)).collect();
                format!(
                    "numbers 1 to {}, colour names or their prefixes, or a string of symbols from {}",
                    self.colours(),
                    syms
                )
            }
            Palette::Digits => format!("digits 0 to {}", self.colours() - 1),
        }
    }

    fn unknown(&self, token: &str) -> CodeError {
        CodeError::UnknownColour {
            token: token.to_string(),
            expected: self.expected_input(),
        }
    }

    /// One token: a number, a name, an unambiguous name prefix, or a symbol.
    fn parse_colour_token(&self, token: &str) -> Result<u8, CodeError> {
        if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
            let n: u32 = token.parse().map_err(|_| self.unknown(token))?;
            let first = self.colour_number(0);
            return if n >= first && n < first + u32::from(self.colours()) {
                Ok((n - first) as u8)
            } else {
                Err(self.unknown(token))
            };
        }
        if self.palette() == Palette::Digits {
            return Err(self.unknown(token));
        }
        let upper = token.to_ascii_uppercase();
        let names = &COLOUR_NAMES[..usize::from(self.colours())];
        if let Some(i) = names.iter().position(|n| *n == upper) {
            return Ok(i as u8);
        }
        let matches: Vec<usize> = (0..names.len())
            .filter(|&i| names[i].starts_with(&upper))
            .collect();
        match matches.len() {
            1 => return Ok(matches[0] as u8),
            0 => {}
            _ => {
                return Err(CodeError::Ambiguous {
                    token: token.to_string(),
                    candidates: matches.iter().map(|&i| names[i].to_string()).collect(),
                });
            }
        }
        let mut chars = upper.chars();
        if let (Some(ch), None) = (chars.next(), chars.next())
            && let Some(i) = (0..self.colours()).find(|&i| self.colour_symbol(i) == ch)
        {
            return Ok(i);
        }
        Err(self.unknown(token))
    }

    /// A compact string of one character per peg (symbols, or digits when each colour number is one digit).
    fn parse_compact(&self, token: &str) -> Option<Vec<u8>> {
        let one_digit_numbers = self.colour_number(self.colours() - 1) <= 9;
        token
            .chars()
            .map(|ch| {
                let up = ch.to_ascii_uppercase();
                if let Some(i) = (0..self.colours()).find(|&i| self.colour_symbol(i) == up) {
                    return Some(i);
                }
                let d = ch.to_digit(10)?;
                let first = self.colour_number(0);
                (one_digit_numbers && d >= first && d < first + u32::from(self.colours()))
                    .then(|| (d - first) as u8)
            })
            .collect()
    }

    /// Parses a code without checking the repeat rules: `1 3 6 5`, `red yellow orange black`,
    /// `r y o bla`, `RYOK` (digits: `0 1 2 3` or `0123`). Tokens are separated by spaces or commas.
    pub fn parse_pegs(&self, text: &str) -> Result<Code, CodeError> {
        let need = usize::from(self.pegs());
        let tokens: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .collect();
        let pegs: Vec<u8> = if tokens.len() == 1 && tokens[0].chars().count() == need {
            match self.parse_compact(tokens[0]) {
                Some(p) => p,
                None if self.parse_colour_token(tokens[0]).is_ok() => {
                    return Err(CodeError::WrongLength { got: 1, need });
                }
                None => {
                    // Report the first character that is not a colour.
                    let bad = tokens[0]
                        .chars()
                        .find(|ch| self.parse_compact(&ch.to_string()).is_none())
                        .map(|c| c.to_string())
                        .unwrap_or_else(|| tokens[0].to_string());
                    return Err(self.unknown(&bad));
                }
            }
        } else {
            // One token of another length: a string of symbols (`RGYUK`) counts its symbols, not as one colour.
            if let [token] = tokens[..]
                && self.parse_colour_token(token).is_err()
            {
                return Err(match self.parse_compact(token) {
                    Some(p) => CodeError::WrongLength { got: p.len(), need },
                    None => {
                        let bad = token
                            .chars()
                            .find(|ch| self.parse_compact(&ch.to_string()).is_none())
                            .map(|c| c.to_string())
                            .unwrap_or_else(|| token.to_string());
                        self.unknown(&bad)
                    }
                });
            }
            if tokens.len() != need {
                return Err(CodeError::WrongLength {
                    got: tokens.len(),
                    need,
                });
            }
            tokens
                .iter()
                .map(|t| self.parse_colour_token(t))
                .collect::<Result<_, _>>()?
        };
        if pegs.len() != need {
            return Err(CodeError::WrongLength {
                got: pegs.len(),
                need,
            });
        }
        Code::from_pegs(&pegs).ok_or(CodeError::WrongLength {
            got: pegs.len(),
            need,
        })
    }

    /// Parses a guess: [`Variant::parse_pegs`] then [`Variant::validate_guess`].
    ///
    /// ```
    /// use mastermind::{CodeError, Variant};
    /// let v = Variant::default();
    /// assert_eq!(v.parse_code("1 3 6 5"), v.parse_code("red yellow orange black"));
    /// assert_eq!(v.parse_code("RYOK"), v.parse_code("r y o bla"));
    /// assert!(matches!(v.parse_code("b r g y"), Err(CodeError::Ambiguous { .. })));
    /// assert_eq!(v.parse_code("1 2 3"), Err(CodeError::WrongLength { got: 3, need: 4 }));
    /// ```
    pub fn parse_code(&self, text: &str) -> Result<Code, CodeError> {
        let code = self.parse_pegs(text)?;
        self.validate_guess(&code)?;
        Ok(code)
    }

    /// Parses a secret: [`Variant::parse_pegs`] then [`Variant::validate_secret`].
    pub fn parse_secret(&self, text: &str) -> Result<Code, CodeError> {
        let code = self.parse_pegs(text)?;
        self.validate_secret(&code)?;
        Ok(code)
    }

    fn validate(&self, code: &Code, repeats: bool) -> Result<(), CodeError> {
        if code.len() != usize::from(self.pegs()) {
            return Err(CodeError::WrongLength {
                got: code.len(),
                need: usize::from(self.pegs()),
            });
        }
        if let Some(&c) = code.pegs().iter().find(|&&c| c >= self.colours()) {
            return Err(self.unknown(&c.to_string()));
        }
        if !repeats {
            let pegs = code.pegs();
            for i in 1..pegs.len() {
                if pegs[..i].contains(&pegs[i]) {
                    return Err(CodeError::RepeatForbidden {
                        colour: self.colour_name(pegs[i]).to_string(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Checks that a code may be played as a guess in this variant (length, colours, repeat rule).
    pub fn validate_guess(&self, code: &Code) -> Result<(), CodeError> {
        self.validate(code, self.guess_repeats())
    }

    /// Checks that a code may be a secret in this variant (length, colours, repeat rule).
    pub fn validate_secret(&self, code: &Code) -> Result<(), CodeError> {
        self.validate(code, self.secret_repeats())
    }

    /// The numeric index of a code among all `colours ^ pegs` codes (first peg most significant),
    /// or `None` if the code does not fit the variant. This order is the strategies' tie-break order.
    pub fn code_index(&self, code: &Code) -> Option<u64> {
        if code.len() != usize::from(self.pegs())
            || code.pegs().iter().any(|&c| c >= self.colours())
        {
            return None;
        }
        Some(code.pegs().iter().fold(0u64, |acc, &c| {
            acc * u64::from(self.colours()) + u64::from(c)
        }))
    }

    /// The code with this numeric index (inverse of [`Variant::code_index`]).
    pub fn code_at(&self, index: u64) -> Option<Code> {
        if index >= self.code_space_size() {
            return None;
        }
        let c = u64::from(self.colours());
        let p = usize::from(self.pegs());
        let mut pegs = [0u8; MAX_PEGS as usize];
        let mut rest = index;
        for i in (0..p).rev() {
            pegs[i] = (rest % c) as u8;
            rest /= c;
        }
        Code::from_pegs(&pegs[..p])
    }

    /// Every possible secret, in numeric order. Large for big custom variants: see [`Variant::secret_count`].
    pub fn secrets(&self) -> Vec<Code> {
        self.all_codes(self.secret_repeats())
    }

    /// Every code allowed as a guess, in numeric order.
    pub fn guess_codes(&self) -> Vec<Code> {
        self.all_codes(self.guess_repeats())
    }

    fn all_codes(&self, repeats: bool) -> Vec<Code> {
        (0..self.code_space_size())
            .filter_map(|i| self.code_at(i))
            .filter(|c| repeats || !c.has_repeat())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_example() {
        let v = Variant::SEED;
        let a = v.parse_code("1 3 6 5").unwrap();
        assert_eq!(a.pegs(), &[0, 2, 5, 4]);
        assert_eq!(v.parse_code("RED YELLOW ORANGE BLACK").unwrap(), a);
        assert_eq!(v.parse_code("r y o bla").unwrap(), a);
        assert_eq!(v.parse_code("RYOK").unwrap(), a);
        assert_eq!(v.parse_code("ryok").unwrap(), a);
        assert_eq!(v.parse_code("1365").unwrap(), a);
        assert_eq!(v.parse_code("1,3,6,5").unwrap(), a);
        assert_eq!(v.parse_code("r y o k").unwrap(), a);
        assert_eq!(v.parse_code("r u o k").unwrap().pegs(), &[0, 3, 5, 4]);
    }

    #[test]
    fn errors() {
        let v = Variant::SEED;
        assert_eq!(
            v.parse_code(""),
            Err(CodeError::WrongLength { got: 0, need: 4 })
        );
        assert_eq!(
            v.parse_code("1 2 3 4 5"),
            Err(CodeError::WrongLength { got: 5, need: 4 })
        );
        assert!(
            matches!(v.parse_code("1 2 3 7"), Err(CodeError::UnknownColour { token, .. }) if token == "7")
        );
        assert!(
            matches!(v.parse_code("1 2 3 0"), Err(CodeError::UnknownColour { token, .. }) if token == "0")
        );
        assert!(
            matches!(v.parse_code("red pink 1 2"), Err(CodeError::UnknownColour { token, .. }) if token == "pink")
        );
        assert!(
            matches!(v.parse_code("RYOX"), Err(CodeError::UnknownColour { token, .. }) if token == "X")
        );
        match v.parse_code("bl r g y") {
            Err(CodeError::Ambiguous { token, candidates }) => {
                assert_eq!(token, "bl");
                assert_eq!(candidates, vec!["BLUE".to_string(), "BLACK".to_string()]);
            }
            other => panic!("{other:?}"),
        }
        // PURPLE is not in a 6-colour variant.
        assert!(matches!(
            v.parse_code("p r g y"),
            Err(CodeError::UnknownColour { .. })
        ));
        // The seed variant allows repeats in guesses; bulls-cows does not.
        assert!(v.parse_code("1 1 2 2").is_ok());
        assert_eq!(
            v.parse_secret("1 1 2 2"),
            Err(CodeError::RepeatForbidden {
                colour: "RED".into()
            })
        );
        let b = Variant::BULLS_COWS;
        assert_eq!(b.parse_code("0123").unwrap().pegs(), &[0, 1, 2, 3]);
        assert_eq!(b.parse_code("9 8 7 6").unwrap().pegs(), &[9, 8, 7, 6]);
        assert_eq!(
            b.parse_code("0 1 2 1"),
            Err(CodeError::RepeatForbidden { colour: "1".into() })
        );
        assert!(matches!(
            b.parse_code("0 1 2 a"),
            Err(CodeError::UnknownColour { .. })
        ));
        assert_eq!(
            v.parse_code("1 2 3 7").unwrap_err().to_string(),
            "unknown colour '7' (use numbers 1 to 6, colour names or their prefixes, or a string of symbols from RGYUKO)"
        );
        assert_eq!(
            v.parse_code("1").unwrap_err().to_string(),
            "wrong length: got 1 colour, need 4"
        );
        // A string of symbols counts its symbols, too long or too short (RULES.md, code notation).
        for (text, got) in [
            ("RGYUK", 5),
            ("RGY", 3),
            ("RG", 2),
            ("123", 3),
            ("R", 1),
            ("red", 1),
        ] {
            assert_eq!(
                v.parse_code(text),
                Err(CodeError::WrongLength { got, need: 4 }),
                "{text}"
            );
        }
        assert_eq!(
            b.parse_code("01234"),
            Err(CodeError::WrongLength { got: 5, need: 4 })
        );
        assert!(matches!(
            v.parse_code("RGYUX"),
            Err(CodeError::UnknownColour { ref token, .. }) if token == "X"
        ));
    }

    #[test]
    fn index_round_trip() {
        let v = Variant::CLASSIC;
        for i in 0..v.code_space_size() {
            let c = v.code_at(i).unwrap();
            assert_eq!(v.code_index(&c), Some(i));
        }
        assert_eq!(v.code_at(1296), None);
        assert_eq!(v.code_at(0).unwrap().pegs(), &[0, 0, 0, 0]);
        assert_eq!(v.code_at(1).unwrap().pegs(), &[0, 0, 0, 1]);
        let seed = Variant::SEED.secrets();
        assert_eq!(seed.len(), 360);
        assert!(seed.windows(2).all(|w| w[0] < w[1]));
    }
}
