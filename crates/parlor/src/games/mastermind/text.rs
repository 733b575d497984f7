//! Mastermind's words: variant names, codes and feedback as text, counts, the colour keys, the computer's limit.

use super::COMPUTER_LIMIT;
use mastermind::{Code, CodeStyle, Feedback, Palette, Variant};

/// Why the computer does not play `variant` (beyond [`COMPUTER_LIMIT`]), with true figures: the possible codes
/// (permutations when a code may not repeat a colour) and, where that differs, the rows of colours the computer would
/// go through (every one, repeats included), which is what the limit counts.
pub fn too_large(variant: &Variant) -> String {
    use crate::figures::grouped;
    let (codes, rows) = (variant.secret_count(), variant.code_space_size());
    let limit = grouped(COMPUTER_LIMIT);
    if codes == rows {
        format!(
            "{} possible codes are more than the computer searches (its limit: {limit})",
            grouped(codes)
        )
    } else {
        format!(
            "the computer would search all {} rows of {} pegs in {} colours ({} of them possible codes), more \
             than its limit of {limit}",
            grouped(rows),
            variant.pegs(),
            variant.colours(),
            grouped(codes)
        )
    }
}

/// A variant's name as records are grouped by it and titles show it: the preset's name, or a readable description
/// of a custom variant (`custom 7 colours, 3 pegs, 9 guesses, no repeats in the secret`).
pub fn variant_name(v: &Variant) -> String {
    if let Some(name) = v.preset_name() {
        return name.to_string();
    }
    let repeats = match (v.secret_repeats(), v.guess_repeats()) {
        (true, _) => "repeats",
        (false, true) => "no repeats in the secret",
        (false, false) => "no repeats",
    };
    let digits = if v.palette() == Palette::Digits {
        ", digits"
    } else {
        ""
    };
    format!(
        "custom {} colours, {} pegs, {} guesses, {repeats}{digits}",
        v.colours(),
        v.pegs(),
        v.guesses()
    )
}

/// A code as compact symbols (`RGYU`, `0123`).
pub fn symbols(variant: &Variant, code: &Code) -> String {
    variant.format_code(code, CodeStyle::Symbols).to_string()
}

/// A code in full: names, and the numbers to type (`RED YELLOW (1 3)`); digits as they are.
pub fn code_long(v: &Variant, code: &Code) -> String {
    match v.palette() {
        Palette::Colours => format!(
            "{} ({})",
            v.format_code(code, CodeStyle::Names),
            v.format_code(code, CodeStyle::Numbers)
        ),
        Palette::Digits => v.format_code(code, CodeStyle::Numbers).to_string(),
    }
}

/// Feedback as sorted pegs, blacks first: `RRW` (black R, white W as in the seed), `-` for none.
pub fn pegs_text(fb: Feedback) -> String {
    fb.to_string()
}

/// "1 code still fits" / "12 codes still fit".
pub fn codes_fit(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 code still fits {what}")
    } else {
        format!("{n} codes still fit {what}")
    }
}

/// `n guess` / `n guesses`.
pub fn guesses(n: usize) -> String {
    crate::figures::count(n as u64, "guess")
}

/// The keys that type colours, e.g. `R G Y U K O or 1-6`.
pub fn colour_keys(v: &Variant) -> String {
    let syms: Vec<String> = (0..v.colours())
        .map(|c| v.colour_symbol(c).to_string())
        .collect();
    match v.palette() {
        Palette::Colours => format!(
            "{} or 1-{}",
            syms.join(" "),
            if v.colours() == 10 {
                "9, 0".to_string()
            } else {
                v.colours().to_string()
            }
        ),
        Palette::Digits => syms.join(" "),
    }
}
