//! Mastermind in plain mode, in the seed program's spirit: the colour menu (`1 - RED, 2 - GREEN, ...`), the board
//! with sorted R (black) and W (white) pegs, codes typed by numbers, names, prefixes or symbols, and messages that
//! say what was wrong. As codemaker the player answers the computer's guesses (`2 1`, `RRW`, `-`: R a black peg, W a white one, as RULES.md writes them), corrects an
//! earlier answer with `fix N`, or types `code` before the first guess to let the computer score (the code is
//! shown only at the end).

use crate::games::mastermind::{
    Mastermind, Move, Params, Play, Role, State, code_long, codes_fit, contradiction, pegs_text,
};
use crate::mid::game::Game;
use crate::plain::game::{Parsed, PlainGame};
use mastermind::{Code, CodeStyle, Feedback, Palette, Variant};

const RULE: &str = "-----------------------------------------";

/// A colour's name as the seed shows it on the board (three letters), or the digit.
fn short(v: &Variant, c: u8) -> String {
    v.colour_name(c).chars().take(3).collect()
}

fn code_short(v: &Variant, code: &Code) -> String {
    code.pegs()
        .iter()
        .map(|&c| format!("{:<3}", short(v, c)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The two lines of sorted pegs of a feedback, as the seed lays them out (`R R` over `W -`).
fn flag_lines(fb: Option<Feedback>, pegs: u8) -> (String, String) {
    let mut flags: Vec<char> = match fb {
        Some(f) => std::iter::repeat_n('R', usize::from(f.black))
            .chain(std::iter::repeat_n('W', usize::from(f.white)))
            .collect(),
        None => Vec::new(),
    };
    flags.resize(usize::from(pegs), '-');
    let half = flags.len().div_ceil(2);
    let line = |s: &[char]| {
        let mut t = s.iter().map(char::to_string).collect::<Vec<_>>().join(" ");
        let w = half * 2 - 1;
        while t.chars().count() < w {
            t.push(' ');
        }
        t
    };
    (line(&flags[..half]), line(&flags[half..]))
}

/// The board as the seed prints it: the code (or UNK) on top, then the guesses, newest first, with their pegs.
pub fn board(v: &Variant, history: &[(Code, Feedback)], secret: Option<&Code>) -> String {
    let pegs = v.pegs();
    let mut lines = vec![
        RULE.to_string(),
        "                MASTERMIND".to_string(),
        RULE.to_string(),
    ];
    let (pad, _) = flag_lines(None, pegs);
    let pad = " ".repeat(pad.chars().count());
    let top = match secret {
        Some(s) => code_short(v, s),
        None => vec!["UNK"; usize::from(pegs)].join(" "),
    };
    lines.push(format!("{pad} | {top}"));
    let rows = (v.guesses() as usize).max(history.len());
    for i in (0..rows).rev() {
        lines.push(RULE.to_string());
        let entry = history.get(i);
        let (a, b) = flag_lines(entry.map(|e| e.1), pegs);
        lines.push(format!("{a} |"));
        let code = match entry {
            Some((c, _)) => format!("{}   #{}", code_short(v, c), i + 1),
            None => vec!["-  "; usize::from(pegs)]
                .join(" ")
                .trim_end()
                .to_string(),
        };
        lines.push(format!("{b} | {code}"));
    }
    lines.push(RULE.to_string());
    lines.join("\n")
}

/// One line about the variant.
pub fn describe(v: &Variant) -> String {
    let rep = |b: bool| if b { "allowed" } else { "not allowed" };
    format!(
        "Variant {}: {} colours, {} pegs, {} guesses; a colour twice: {} in the secret, {} in a guess.",
        crate::games::mastermind::variant_name(v),
        v.colours(),
        v.pegs(),
        v.guesses(),
        rep(v.secret_repeats()),
        rep(v.guess_repeats())
    )
}

/// The seed's menu: how to type a code, and the colours.
fn menu_text(v: &Variant) -> String {
    let example = match (v.palette(), v.pegs(), v.colours()) {
        (Palette::Colours, 4, 6..) => {
            "Example: RED YELLOW ORANGE BLACK ---> 1 3 6 5 (or red ye or bla, or RYOK)".to_string()
        }
        _ => {
            let pegs: Vec<u8> = (0..v.pegs()).map(|i| (i * 3 + 1) % v.colours()).collect();
            match Code::from_pegs(&pegs) {
                Some(c) if v.palette() == Palette::Digits => format!(
                    "Example: {} (or {})",
                    v.format_code(&c, CodeStyle::Numbers),
                    v.format_code(&c, CodeStyle::Symbols)
                ),
                Some(c) => format!(
                    "Example: {} ---> {} (or {})",
                    v.format_code(&c, CodeStyle::Names),
                    v.format_code(&c, CodeStyle::Numbers),
                    v.format_code(&c, CodeStyle::Symbols)
                ),
                None => String::new(),
            }
        }
    };
    format!(
        "{RULE}\n                  Menu\n{RULE}\nEnter code using numbers or names.\n{}\n{example}\n{}\n{RULE}",
        v.menu_line(),
        describe(v)
    )
}

fn answer_line(v: &Variant, i: usize, code: &Code, fb: Feedback) -> String {
    format!(
        "  {}. {} -> {} black, {} white ({})",
        i + 1,
        code_long(v, code),
        fb.black,
        fb.white,
        pegs_text(fb)
    )
}

/// The earlier answers, numbered, for the codemaker.
fn answers(s: &State) -> String {
    s.history()
        .iter()
        .enumerate()
        .map(|(i, (c, fb))| answer_line(&s.variant, i, c, *fb))
        .collect::<Vec<_>>()
        .join("\n")
}

impl PlainGame for Mastermind {
    fn board_text(state: &State, _params: &Params, _last: Option<&Move>, over: bool) -> String {
        let v = &state.variant;
        let secret = state.revealed().filter(|_| over);
        match state.role() {
            Role::Breaker => board(v, state.history(), secret.as_ref()),
            Role::Maker => {
                let mut s = board(v, state.history(), secret.as_ref());
                if !state.history().is_empty() {
                    s.push_str("\nYour answers:\n");
                    s.push_str(&answers(state));
                }
                s
            }
        }
    }

    fn intro(_trees: &crate::games::mastermind::trees::Trees, p: &Params, _seed: u64) -> String {
        let Ok(v) = p.variant() else {
            return "Mastermind.".into();
        };
        match p.role {
            Role::Breaker => menu_text(&v),
            Role::Maker => format!(
                "You are the codemaker. The computer ({} strategy) has {} guesses to find your code.\nColours: \
                 {}\n{}\nAnswer each guess with black and white counts ('2 1') or pegs, R for black and W for white \
                 ('RRW'), '-' for none; \
                 fix N corrects answer N. Before the first guess you may type code to give the computer your \
                 code (it is shown only at the end) and let it score its own guesses.",
                p.strategy(),
                v.guesses(),
                v.menu_line(),
                describe(&v)
            ),
        }
    }

    fn prompt(state: &State, _params: &Params) -> String {
        let v = &state.variant;
        let n = state.history().len() + 1;
        match state.role() {
            Role::Breaker => format!("Guess {n} of {} (n count)", v.guesses()),
            Role::Maker => {
                let guess = state
                    .next_guess()
                    .map(|g| code_long(v, &g))
                    .unwrap_or_default();
                let code = if state.history().is_empty() {
                    ", code to type your code (shown only at the end)"
                } else {
                    ""
                };
                format!(
                    "Guess {n} of {}: {guess}. Your answer (2 1, RRW, - for none; fix N corrects answer N{code})",
                    v.guesses()
                )
            }
        }
    }

    fn read(state: &State, line: &str, partial: Option<&str>) -> Parsed<Move> {
        let v = state.variant;
        let line = line.trim();
        let lower = line.to_ascii_lowercase();
        let mv = |play| Parsed::Move(Move::new(play, v));
        if state.role() == Role::Breaker {
            if matches!(lower.as_str(), "n" | "count") {
                return Parsed::Refused(codes_fit(state.remaining(), "every answer"));
            }
            return match v.parse_pegs(line) {
                Ok(code) => match v.validate_guess(&code) {
                    Ok(()) => mv(Play::Guess(code)),
                    Err(e) => Parsed::Refused(format!("Wrong choice!! {e}. That cost no guess")),
                },
                Err(e) => Parsed::Refused(format!("Wrong choice!! {e}. That cost no guess")),
            };
        }
        match partial.map(str::trim) {
            Some("code") => {
                return match v.parse_secret(line) {
                    Ok(code) => mv(Play::Secret(code)),
                    Err(e) => Parsed::Refused(format!("Not a code: {e}")),
                };
            }
            Some(p) if p.starts_with("fix") || p.split_whitespace().count() > 1 => {
                // "fix N", or an answer that contradicted the earlier ones followed by the number of the answer
                // named as wrong: this line is the right answer to that one.
                let n = p
                    .split_whitespace()
                    .last()
                    .and_then(|w| w.trim_start_matches("fix").parse::<usize>().ok());
                if let Some(n) = n.filter(|&n| n >= 1)
                    && Feedback::parse(p, v.pegs()).is_err()
                {
                    return match Feedback::parse(line, v.pegs()) {
                        Ok(answer) => fix(state, n - 1, answer),
                        Err(e) => Parsed::Refused(format!("Not changed: {e}")),
                    };
                }
                if Feedback::parse(p, v.pegs()).is_ok() {
                    return which_answer(state, &lower);
                }
                return Parsed::Refused("Not understood".into());
            }
            Some(_) => return which_answer(state, &lower),
            None => {}
        }
        if lower == "code" {
            return if state.history().is_empty() && state.typed_secret().is_none() {
                Parsed::Ask(
                    "Type your code: the computer scores its own guesses with it, and it is shown only at the \
                     end."
                        .into(),
                )
            } else {
                Parsed::Refused("The code can only be given before the first guess".into())
            };
        }
        if let Some(rest) = lower.strip_prefix("fix") {
            return match rest.trim().parse::<usize>() {
                Ok(i) if (1..=state.history().len()).contains(&i) => ask_fix(state, i - 1),
                _ => Parsed::Refused(format!(
                    "Say which answer to correct, e.g. fix 2 (answers 1 to {})",
                    state.history().len()
                )),
            };
        }
        let answer = match Feedback::parse(line, v.pegs()) {
            Ok(fb) => fb,
            Err(e) => return Parsed::Refused(format!("Wrong answer!! {e}")),
        };
        let Some(guess) = state.next_guess() else {
            return Parsed::Refused("The computer has no guess".into());
        };
        let m = Move::new(Play::Answer { guess, answer }, v);
        match contradiction(state, &m) {
            Some(suspects) => {
                let mut after = state.clone();
                let why = Mastermind::apply(&mut after, &m)
                    .err()
                    .map(|e| e.to_string())
                    .unwrap_or_default();
                let n = state.history().len() + 1;
                let suggest = suspects
                    .first()
                    .filter(|&&i| i + 1 < n)
                    .map(|i| format!(" (answer {} is suspect)", i + 1))
                    .unwrap_or_default();
                Parsed::Ask(format!(
                    "Those answers contradict each other: {why}.\n{}\n{}  <- this answer\nWhich answer was \
                     wrong{suggest}? Its number (or fix N) to correct it, or Enter to answer guess {n} again.",
                    answers(state),
                    answer_line(&v, n - 1, &guess, answer)
                ))
            }
            None => Parsed::Move(m),
        }
    }

    fn told(state: &State, mv: &Move) -> String {
        let v = &state.variant;
        let n = state.history().len();
        // The move's note (black and white counts, codes that fit) follows in brackets.
        match mv.play {
            Play::Guess(code) | Play::Answer { guess: code, .. } => {
                let fb = state.history().last().map(|h| h.1).unwrap_or_default();
                format!("Guess {n}: {} -> {}.", code_long(v, &code), pegs_text(fb))
            }
            Play::Fix { index, answer } => format!(
                "Answer {} is now {} black, {} white.",
                index + 1,
                answer.black,
                answer.white
            ),
            Play::Secret(_) => "Code taken; it is shown only at the end.".into(),
        }
    }
}

/// After a contradiction: the player names the wrong answer (`2` or `fix 2`), or presses Enter to answer again.
fn which_answer(state: &State, lower: &str) -> Parsed<Move> {
    let n = state.history().len() + 1;
    if lower.is_empty() {
        return Parsed::Refused(format!("Answer guess {n} again"));
    }
    match lower.trim_start_matches("fix").trim().parse::<usize>() {
        Ok(i) if (1..n).contains(&i) => ask_fix(state, i - 1),
        _ => Parsed::Refused(format!(
            "'{lower}' names no earlier answer (1 to {}): answer guess {n} again, or fix N",
            n - 1
        )),
    }
}

fn ask_fix(state: &State, index: usize) -> Parsed<Move> {
    match state.history().get(index) {
        Some((code, _)) => Parsed::Ask(format!(
            "Right answer to guess {} ({})?",
            index + 1,
            code_long(&state.variant, code)
        )),
        None => Parsed::Refused(format!("There is no answer {}", index + 1)),
    }
}

fn fix(state: &State, index: usize, answer: Feedback) -> Parsed<Move> {
    let m = Move::new(Play::Fix { index, answer }, state.variant);
    let mut after = state.clone();
    match Mastermind::apply(&mut after, &m) {
        Ok(_) => Parsed::Move(m),
        Err(e) => Parsed::Refused(format!("Not changed: {e}")),
    }
}
