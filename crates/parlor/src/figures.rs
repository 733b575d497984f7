//! Figures in text, the same way everywhere: a count with its noun in the right number (`1 game`, `2 games`),
//! large numbers with thousands separators (`100,000,000`), and the 95% interval of a proportion (Wilson's score
//! interval, which stays honest for few trials and for proportions of 0 or 1).

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

/// The 95% Wilson score interval of a proportion seen as `successes` out of `trials` (a half success, such as a
/// drawn game's half point, is allowed): always inside 0..=1, never of zero width for a finite number of trials,
/// and `(0, 1)` with no trial at all.
pub fn wilson95(successes: f64, trials: f64) -> (f64, f64) {
    const Z: f64 = 1.959_963_984_540_054;
    if trials <= 0.0 || !successes.is_finite() || !trials.is_finite() {
        return (0.0, 1.0);
    }
    let p = (successes / trials).clamp(0.0, 1.0);
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * trials)) / (1.0 + z2 / trials);
    let half =
        Z / (1.0 + z2 / trials) * (p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
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
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1296), "1296");
        assert_eq!(grouped(65_536), "65,536");
        assert_eq!(grouped(178_785), "178,785");
        assert_eq!(grouped(100_000_000), "100,000,000");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
    }

    /// Known values (Wilson 1927; Newcombe 1998, table I): 0 of 10 is 0 to 0.2775, 1 of 2 is 0.0945 to 0.9055.
    #[test]
    fn the_wilson_interval_matches_published_values_and_never_collapses() {
        let close =
            |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() < 5e-4 && (a.1 - b.1).abs() < 5e-4;
        assert!(
            close(wilson95(0.0, 10.0), (0.0, 0.2775)),
            "{:?}",
            wilson95(0.0, 10.0)
        );
        assert!(
            close(wilson95(1.0, 2.0), (0.0945, 0.9055)),
            "{:?}",
            wilson95(1.0, 2.0)
        );
        assert!(
            close(wilson95(81.0, 263.0), (0.2553, 0.3662)),
            "{:?}",
            wilson95(81.0, 263.0)
        );
        for (s, n) in [(0.0, 2.0), (2.0, 2.0), (1.0, 1.0), (0.0, 1.0)] {
            let (lo, hi) = wilson95(s, n);
            assert!(hi - lo > 0.1, "{s} of {n}: {lo}-{hi}");
            assert!((0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi));
        }
        assert_eq!(wilson95(0.0, 0.0), (0.0, 1.0));
    }
}
