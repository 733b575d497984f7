//! Reading and writing one message: its size, its version, and what was wrong with it.

use super::*;

/// Why a message was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Over the size limit: the message's bytes and the limit.
    #[error("message of {0} bytes: the limit is {1}")]
    TooLarge(usize, usize),
    /// Not JSON.
    #[error("not JSON: {0}")]
    NotJson(String),
    /// JSON, but not an object.
    #[error("not a JSON object")]
    NotObject,
    /// No `"v"`, or not a number.
    #[error("no protocol version (\"v\": {VERSION})")]
    NoVersion,
    /// Another version.
    #[error("protocol version {0}: this side speaks version {VERSION}")]
    Version(u64),
    /// An object of the right version, but not a message of this kind.
    #[error("not a valid message: {0}")]
    Invalid(String),
}

impl ParseError {
    /// The error code the server answers with.
    pub fn code(&self) -> ErrorCode {
        match self {
            ParseError::TooLarge(..) => ErrorCode::TooLarge,
            _ => ErrorCode::Malformed,
        }
    }
}

/// Reads a message: checks the size against `limit`, the JSON, the version, then the fields.
pub(super) fn parse<T: serde::de::DeserializeOwned>(
    text: &str,
    limit: usize,
) -> Result<T, ParseError> {
    serde_json::from_value(serde_json::Value::Object(object(text, limit)?))
        .map_err(|e| ParseError::Invalid(e.to_string()))
}

/// A message's object with its version checked and taken out: the size against `limit`, the JSON, the version.
pub(super) fn object(
    text: &str,
    limit: usize,
) -> Result<serde_json::Map<String, serde_json::Value>, ParseError> {
    if text.len() > limit {
        return Err(ParseError::TooLarge(text.len(), limit));
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ParseError::NotJson(e.to_string()))?;
    let serde_json::Value::Object(mut map) = value else {
        return Err(ParseError::NotObject);
    };
    match map.remove("v").as_ref().map(serde_json::Value::as_u64) {
        Some(Some(VERSION)) => {}
        Some(Some(v)) => return Err(ParseError::Version(v)),
        _ => return Err(ParseError::NoVersion),
    }
    Ok(map)
}

/// Writes a message with its version first, then its fields in their declared order.
pub(super) fn write<T: Serialize>(msg: &T) -> String {
    // Serialising these plain enums of strings and numbers cannot fail, and each is an object with a "type".
    let body = serde_json::to_string(msg).unwrap_or_default();
    match body.strip_prefix('{') {
        Some(rest) => format!("{{\"v\":{VERSION},{rest}"),
        None => format!("{{\"v\":{VERSION}}}"),
    }
}
