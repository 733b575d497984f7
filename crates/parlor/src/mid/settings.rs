//! Settings: the description of one parameter of a game, which drives the full-screen setup form, the plain-mode
//! questions and the command-line flags alike.

use super::error::Error;
/// What values a setting takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// One of a list: (value as typed, label as shown).
    Choice(&'static [(&'static str, &'static str)]),
    /// A whole number in a closed range.
    Number {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A decimal in a closed range, stepped by `step` in the setup form.
    Decimal {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
        /// The form's step.
        step: f64,
    },
    /// On or off (`yes`/`no`).
    Toggle,
    /// Free text, checked by the game (a hidden code).
    Text,
}

/// One parameter of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting {
    /// The key: the flag's name (`--four-chance`) and the JSON field.
    pub key: &'static str,
    /// The label of the setup form and the plain question.
    pub label: &'static str,
    /// One sentence for `--help` and the form's footnote.
    pub help: &'static str,
    /// The values it takes.
    pub kind: Kind,
}

impl Setting {
    /// The range or the choices, for help texts (`3 to 8`, `beginner, casual, strong, expert`).
    pub fn range(&self) -> String {
        match self.kind {
            Kind::Choice(list) => list.iter().map(|(v, _)| *v).collect::<Vec<_>>().join(", "),
            Kind::Number { min, max } => format!("{min} to {max}"),
            Kind::Decimal { min, max, .. } => format!("{min} to {max}"),
            Kind::Toggle => "yes or no".into(),
            Kind::Text => "text".into(),
        }
    }

    /// The value after `value` when the form steps forward (`up`) or back: the next choice, a number one step
    /// on, a toggle flipped. `None` when it cannot step (at the end of a range, or free text).
    pub fn step(&self, value: &str, up: bool) -> Option<String> {
        match self.kind {
            Kind::Choice(list) => {
                let i = list.iter().position(|(v, _)| *v == value).unwrap_or(0);
                let n = list.len();
                let j = if up { (i + 1) % n } else { (i + n - 1) % n };
                Some(list[j].0.to_string())
            }
            Kind::Number { min, max } => {
                let v: i64 = value.parse().ok()?;
                let w = if up {
                    v.checked_add(1)?
                } else {
                    v.checked_sub(1)?
                };
                (min..=max).contains(&w).then(|| w.to_string())
            }
            Kind::Decimal { min, max, step } => {
                let v: f64 = value.parse().ok()?;
                let w = if up { v + step } else { v - step };
                let w = (w / step).round() * step;
                (w >= min - 1e-9 && w <= max + 1e-9).then(|| format_decimal(w.clamp(min, max)))
            }
            Kind::Toggle => Some(if value == "yes" { "no" } else { "yes" }.into()),
            Kind::Text => None,
        }
    }

    /// The label of a value as shown in the form (a choice's label, else the value).
    pub fn show(&self, value: &str) -> String {
        if let Kind::Choice(list) = self.kind
            && let Some((_, label)) = list.iter().find(|(v, _)| *v == value)
        {
            return (*label).to_string();
        }
        if value.is_empty() {
            "(none)".into()
        } else {
            value.to_string()
        }
    }

    /// Checks a typed value against the kind (a game may check more in its `set`).
    pub fn check(&self, value: &str) -> Result<String, Error> {
        self.value(value).map_err(Error::Settings)
    }

    /// [`Setting::check`], the refusal as words.
    fn value(&self, value: &str) -> Result<String, String> {
        let value = value.trim();
        match self.kind {
            Kind::Choice(list) => {
                if let Some((v, _)) = list.iter().find(|(v, _)| v.eq_ignore_ascii_case(value)) {
                    return Ok(v.to_string());
                }
                // A word may be typed by its first letters (`m` for maker), when they name one choice.
                let lower = value.to_ascii_lowercase();
                let starts: Vec<&str> = list
                    .iter()
                    .map(|(v, _)| *v)
                    .filter(|v| {
                        value.starts_with(|c: char| c.is_ascii_alphabetic())
                            && v.starts_with(&lower)
                    })
                    .collect();
                match starts[..] {
                    [one] => Ok(one.to_string()),
                    [] => Err(format!("'{value}' is not one of {}", self.range())),
                    _ => Err(format!("'{value}' could be {}", starts.join(" or "))),
                }
            }
            Kind::Number { min, max } => match value.parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => Ok(v.to_string()),
                _ => Err(format!(
                    "'{value}' is not a whole number from {min} to {max}"
                )),
            },
            Kind::Decimal { min, max, .. } => match value.parse::<f64>() {
                Ok(v) if v.is_finite() && v >= min && v <= max => Ok(format_decimal(v)),
                _ => Err(format!("'{value}' is not a number from {min} to {max}")),
            },
            Kind::Toggle => match value.to_ascii_lowercase().as_str() {
                "yes" | "y" | "on" | "true" => Ok("yes".into()),
                "no" | "n" | "off" | "false" => Ok("no".into()),
                _ => Err(format!("'{value}' is not yes or no")),
            },
            Kind::Text => Ok(value.to_string()),
        }
    }
}

/// A decimal without trailing zeros (`0.1`, `0.5`, `1`).
pub fn format_decimal(v: f64) -> String {
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// Sets one setting after checking the typed value against its kind: the helper every game's `set` starts with.
pub fn checked(settings: &[Setting], key: &str, value: &str) -> Result<String, Error> {
    settings
        .iter()
        .find(|s| s.key == key)
        .ok_or_else(|| no_setting(key))?
        .check(value)
}

/// The refusal of a key that names no setting.
pub fn no_setting(key: &str) -> Error {
    Error::Settings(format!("no setting '{key}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: Setting = Setting {
        key: "size",
        label: "Board size",
        help: "",
        kind: Kind::Number { min: 3, max: 8 },
    };
    const P: Setting = Setting {
        key: "p",
        label: "p",
        help: "",
        kind: Kind::Decimal {
            min: 0.0,
            max: 1.0,
            step: 0.1,
        },
    };

    #[test]
    fn numbers_step_inside_their_range_and_check_typed_values() {
        assert_eq!(SIZE.step("4", true).as_deref(), Some("5"));
        assert_eq!(SIZE.step("8", true), None);
        assert_eq!(SIZE.step("3", false), None);
        assert_eq!(SIZE.check(" 5 "), Ok("5".into()));
        assert!(SIZE.check("9").is_err());
        assert!(SIZE.check("4294967295").is_err());
        assert!(SIZE.check("x").is_err());
    }

    #[test]
    fn decimals_step_cleanly_and_refuse_nan() {
        assert_eq!(P.step("0.1", true).as_deref(), Some("0.2"));
        assert_eq!(P.step("1", true), None);
        assert_eq!(P.check("0.50"), Ok("0.5".into()));
        assert!(P.check("NaN").is_err());
        assert!(P.check("1.5").is_err());
    }

    #[test]
    fn choices_wrap_around_and_match_either_case() {
        const C: Setting = Setting {
            key: "c",
            label: "c",
            help: "",
            kind: Kind::Choice(&[("a", "A"), ("b", "B")]),
        };
        assert_eq!(C.step("b", true).as_deref(), Some("a"));
        assert_eq!(C.step("a", false).as_deref(), Some("b"));
        assert_eq!(C.check("B"), Ok("b".into()));
        const ROLE: Setting = Setting {
            key: "role",
            label: "role",
            help: "",
            kind: Kind::Choice(&[
                ("breaker", "codebreaker"),
                ("maker", "codemaker"),
                ("bystander", "b"),
            ]),
        };
        assert_eq!(ROLE.check("m"), Ok("maker".into()));
        assert_eq!(ROLE.check("Br"), Ok("breaker".into()));
        assert_eq!(
            ROLE.check("b").unwrap_err(),
            Error::Settings("'b' could be breaker or bystander".into())
        );
        assert!(
            ROLE.check("x")
                .unwrap_err()
                .message()
                .contains("not one of")
        );
        // Numbers are never read by their first digits.
        const TARGET: Setting = Setting {
            key: "target",
            label: "target",
            help: "",
            kind: Kind::Choice(&[("1024", "1024"), ("4096", "4096")]),
        };
        assert!(TARGET.check("10").is_err());
        assert_eq!(C.show("a"), "A");
        assert!(C.check("z").unwrap_err().message().contains("a, b"));
    }
}
