//! What each option's value may be, for shell completions: every option that takes one of a list of values names
//! them (`--level` completes `beginner casual ...`), every other option says what it takes is no file name (a
//! number, a board), and only the options that take a path complete file or directory names.

use clap::builder::{PossibleValue, TypedValueParser, ValueHint};
use clap::{Arg, Command};
use std::ffi::OsStr;
use std::sync::Arc;

/// A check of a typed value: the value, or why not.
type Check<T> = Arc<dyn Fn(&str) -> Result<T, String> + Send + Sync>;

/// A value parser that checks a value with a function (its errors read as the function says) and lists the values
/// the shells complete.
#[derive(Clone)]
pub struct Listed<T> {
    check: Check<T>,
    values: Vec<String>,
}

impl<T> Listed<T> {
    /// Checks with `check`; completes `values`.
    pub fn new(
        check: impl Fn(&str) -> Result<T, String> + Send + Sync + 'static,
        values: impl IntoIterator<Item = impl Into<String>>,
    ) -> Listed<T> {
        Listed {
            check: Arc::new(check),
            values: values.into_iter().map(Into::into).collect(),
        }
    }
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Listed<T> {
    type Value = T;

    fn parse_ref(&self, cmd: &Command, arg: Option<&Arg>, value: &OsStr) -> Result<T, clap::Error> {
        // Through clap's own parser of a function, so that a refusal reads as every other one does.
        let f = Arc::clone(&self.check);
        let check = move |s: &str| f(s);
        TypedValueParser::parse_ref(&check, cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            self.values.iter().map(|v| PossibleValue::new(v.clone())),
        ))
    }
}

/// `yes` or `no` (also `y`, `on`, `true`, `n`, `off`, `false`, as the settings' toggles read them).
pub fn yes_no() -> Listed<bool> {
    Listed::new(
        |s: &str| match s.to_ascii_lowercase().as_str() {
            "yes" | "y" | "on" | "true" => Ok(true),
            "no" | "n" | "off" | "false" => Ok(false),
            _ => Err(format!("'{s}' is not yes or no")),
        },
        ["yes", "no"],
    )
}

/// The values of an option, by the name of the command it belongs to and the option's id: `None` where it has no
/// list of its own. Each game gives one for its analysis commands ([`crate::cli::play::CliGame::values`]).
pub type Values<'a> = &'a dyn Fn(&str, &str) -> Option<clap::builder::ValueParser>;

/// The values of the general commands' `--game`: the ids of the games given.
pub fn game_ids(
    ids: Vec<&'static str>,
) -> impl Fn(&str, &str) -> Option<clap::builder::ValueParser> {
    move |_cmd, id| {
        (id == "game").then(|| Listed::new(|s: &str| Ok(s.to_string()), ids.clone()).into())
    }
}

/// `cmd` with every option's completion settled (see the module), recursively: `listed` gives the lists.
pub fn with_values(cmd: Command, listed: Values) -> Command {
    let name = cmd.get_name().to_string();
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    let mut cmd = cmd;
    for id in ids {
        cmd = cmd.mut_arg(&id, |a| settle(&name, a, listed));
    }
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for s in subs {
        cmd = cmd.mut_subcommand(&s, |c| with_values(c, listed));
    }
    cmd
}

fn settle(cmd: &str, a: Arg, listed: Values) -> Arg {
    if !a.get_action().takes_values() || a.get_value_parser().possible_values().is_some() {
        return a;
    }
    if let Some(parser) = listed(cmd, a.get_id().as_str()) {
        return a.value_parser(parser).hide_possible_values(true);
    }
    let names: Vec<String> = a
        .get_value_names()
        .unwrap_or_default()
        .iter()
        .map(|n| n.to_string())
        .collect();
    let hint = match a.get_value_hint() {
        ValueHint::Unknown | ValueHint::AnyPath if names.iter().any(|n| n == "DIR") => {
            ValueHint::DirPath
        }
        ValueHint::Unknown | ValueHint::AnyPath if names.iter().any(|n| n == "FILE") => {
            ValueHint::FilePath
        }
        ValueHint::Unknown => ValueHint::Other,
        other => other,
    };
    a.value_hint(hint)
}
