//! What the games and the mid end say when they refuse something: one small type at the interface, formatted here
//! once for every face.

use std::fmt;

/// Why a game, a session or a replay refused: the kind of refusal and the words that say it (a clause: no capital,
/// no full stop, as the full screen's status line shows it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A move refused: not readable, against the rules, or none to take back.
    Move(String),
    /// Parameters refused: no such setting, a value out of range, settings that disagree, options not readable.
    Settings(String),
    /// A saved game or a record that cannot be taken up or replayed (its moves do not replay).
    Record(String),
    /// The database could not keep the game.
    Storage(String),
}

impl Error {
    /// The words that say it, as a clause.
    pub fn message(&self) -> &str {
        match self {
            Error::Move(m) | Error::Settings(m) | Error::Record(m) | Error::Storage(m) => m,
        }
    }

    /// The same refusal with `context` put before its words (`move 3: ...`), of the same kind.
    pub fn within(self, context: impl fmt::Display) -> Error {
        let said = |m: String| format!("{context}: {m}");
        match self {
            Error::Move(m) => Error::Move(said(m)),
            Error::Settings(m) => Error::Settings(said(m)),
            Error::Record(m) => Error::Record(said(m)),
            Error::Storage(m) => Error::Storage(said(m)),
        }
    }
}

/// `{}` writes the clause; `{:#}` writes it as a sentence of its own (a capital and a full stop), as plain mode
/// says it.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.message();
        if f.alternate() {
            write!(f, "{}.", super::capitalised(m))
        } else {
            f.write_str(m)
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::Error;

    #[test]
    fn a_refusal_is_a_clause_or_a_sentence() {
        let e = Error::Move("nothing to undo".into());
        assert_eq!(e.to_string(), "nothing to undo");
        assert_eq!(format!("{e:#}"), "Nothing to undo.");
        assert_eq!(
            Error::Move("'x' is no move".into()).within("move 3"),
            Error::Move("move 3: 'x' is no move".into())
        );
    }
}
