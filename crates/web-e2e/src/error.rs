//! One error type for the harness: a sentence saying what failed or what was waited for.

use std::fmt;

/// What went wrong, as a sentence a test failure can print as it is.
pub struct Error(String);

/// The harness's result.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }

    /// The same error with what was being done put in front.
    #[must_use]
    pub fn context(self, doing: &str) -> Self {
        Self(format!("{doing}: {}", self.0))
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.0
    }
}

// A test returning `Result` prints the error with Debug: print the sentence itself, not a quoted string.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Self(e.to_string())
    }
}

impl From<fantoccini::error::CmdError> for Error {
    fn from(e: fantoccini::error::CmdError) -> Self {
        Self(format!("WebDriver: {e}"))
    }
}

impl From<fantoccini::error::NewSessionError> for Error {
    fn from(e: fantoccini::error::NewSessionError) -> Self {
        Self(format!("WebDriver session: {e}"))
    }
}
