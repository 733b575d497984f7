//! Figures in text, the same way everywhere: a count with its noun in the right number (`1 game`, `2 games`),
//! and large numbers with thousands separators (`100,000,000`). The 95% interval of a match's score comes from the
//! engine that plays the match (its match report).

/// `n` and `noun`, the noun in the plural unless `n` is 1: `count(1, "game")` is `1 game`, `count(2, "guess")` is
/// `2 guesses`, `count(3, "ply")` is `3 plies`. The number has thousands separators ([`grouped`]).
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    format!("{} {}", grouped(n), noun_for(n, noun))
}

/// `n` and `one` when `n` is 1, else `n` and `many`: a count whose noun has no regular plural (`1 game in
/// progress`, `2 games in progress`). The number has thousands separators ([`grouped`]).
pub fn count_as(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{} {}", grouped(n), agree(n, one, many))
}

/// `noun` in the number `n` asks for, without the number: `noun_for(1, "win")` is `win`, `noun_for(0, "win")` is
/// `wins`. Regular English plurals: `-s`, `-es` after s, x, z, ch and sh, `-ies` for a consonant and y.
pub fn noun_for(n: u64, noun: &str) -> String {
    if n == 1 {
        return noun.to_string();
    }
    let b = noun.as_bytes();
    let vowel = |c: u8| matches!(c, b'a' | b'e' | b'i' | b'o' | b'u');
    if noun.ends_with(['s', 'x', 'z']) || noun.ends_with("ch") || noun.ends_with("sh") {
        format!("{noun}es")
    } else if b.len() >= 2 && b[b.len() - 1] == b'y' && !vowel(b[b.len() - 2]) {
        format!("{}ies", &noun[..noun.len() - 1])
    } else {
        format!("{noun}s")
    }
}

/// `one` when `n` is 1, else `many`: the verb or pronoun that agrees with a count (`is`/`are`, `it`/`them`).
pub fn agree<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// `n` with a comma between each group of three digits: `1296`, `65,536`, `100,000,000` (four digits stay whole, as
/// in RULES.md).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    if digits.len() <= 4 {
        return digits;
    }
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(count(1u32, "game"), "1 game");
        assert_eq!(count(0u32, "game"), "0 games");
        assert_eq!(count(2u32, "win"), "2 wins");
        assert_eq!(count(1u32, "loss"), "1 loss");
        assert_eq!(count(3u32, "loss"), "3 losses");
        assert_eq!(count(2u32, "guess"), "2 guesses");
        assert_eq!(count(4u32, "ply"), "4 plies");
        assert_eq!(count(2u32, "day"), "2 days");
        assert_eq!(count(12_345u32, "code"), "12,345 codes");
        assert_eq!(
            count_as(1u32, "game in progress", "games in progress"),
            "1 game in progress"
        );
        assert_eq!(
            count_as(2u32, "game in progress", "games in progress"),
            "2 games in progress"
        );
        assert_eq!(agree(1, "is", "are"), "is");
        assert_eq!(agree(2, "is", "are"), "are");
    }

    #[test]
    fn large_numbers_are_grouped_by_thousands() {
        for (n, want) in [
            (0, "0"),
            (1296, "1296"),
            (65_536, "65,536"),
            (178_785, "178,785"),
            (100_000_000, "100,000,000"),
            (u64::MAX, "18,446,744,073,709,551,615"),
        ] {
            assert_eq!(grouped(n), want, "{n}");
        }
    }
}
