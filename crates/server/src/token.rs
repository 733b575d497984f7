//! The tokens the server issues at registration (`register`): 128 random bits from the operating system's
//! randomness (the one random value of the server that is not drawn from a seed), written as 32 hexadecimal digits.
//! The store keeps only a token's SHA-256: for a value of 128 random bits, a fast hash is enough (a slow, salted
//! one is for secrets people choose, which can be guessed from a list; 2^128 values cannot be).

/// The randomness of the operating system could not be read.
#[derive(Debug, thiserror::Error)]
#[error("no randomness for a token: {0}")]
pub struct NoRandomness(String);

/// A new token: 16 bytes from the operating system, 32 hexadecimal digits.
pub fn issue() -> Result<String, NoRandomness> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| NoRandomness(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_32_hex_digits_a_valid_token_and_new_each_time() {
        let a = issue().unwrap();
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert!(parlor_online::protocol::check_token(&a).is_ok());
        assert_ne!(issue().unwrap(), a);
    }
}
