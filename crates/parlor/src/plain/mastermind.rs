//! Mastermind in plain mode, in the seed program's spirit: the colour menu (`1 - RED, 2 - GREEN, ...`), the board
//! with sorted R (black) and W (white) pegs, codes typed by numbers, names, prefixes or symbols, and messages that say
//! what was wrong. Also the codemaker role, where the computer guesses and the player answers.

use super::{Exit, Io};
use crate::games::mastermind::{
    self as g, Hint, MakerEvent, MakerSession, Options, RULES, Resumed, Role, Session, pegs_text,
};
use crate::storage::{GameRecord, Store, Unfinished};
use anyhow::{Result, anyhow};
use mastermind::{AnswerError, Code, CodeStyle, Feedback, Palette, Variant};

const RULE: &str = "-----------------------------------------";

const BREAKER_HELP: &str = "Type a guess: numbers (1 3 6 5), names or prefixes (red yellow orange black, r y o bla) \
     or symbols (RYOK). Commands: n count the codes that still fit, h hint (marks the game assisted), x give up, \
     q quit (the game is saved), ? help, Enter shows the board.";

const MAKER_HELP: &str = "Answer each guess with black and white counts ('2 1'), pegs ('RRW' or 'BBW'), or '-' for \
     none. Commands: fix N corrects your answer to guess N, x give up, q quit (the game is saved), ? help, Enter \
     shows the board.";

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

/// A code in full: names, and the numbers to type (`RED YELLOW (1 3)`).
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

/// The board as the seed prints it: the secret (or UNK) on top, then the guesses, newest first, with their pegs.
pub fn board_text(v: &Variant, history: &[(Code, Feedback)], secret: Option<&Code>) -> String {
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

/// The seed's menu: how to type a code, and the colours.
fn menu_text(v: &Variant) -> String {
    let example = match (v.palette(), v.pegs(), v.colours()) {
        (Palette::Colours, 4, 6..) => {
            "Example: RED YELLOW ORANGE BLACK ---> 1 3 6 5 (or r y o bla, or RYOK)".to_string()
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
    let rules = describe(v);
    format!(
        "{RULE}\n                  Menu\n{RULE}\nEnter code using numbers or names.\n{}\n{example}\n{rules}\n{RULE}",
        v.menu_line()
    )
}

/// One line about the variant.
pub fn describe(v: &Variant) -> String {
    let rep = |b: bool| if b { "allowed" } else { "not allowed" };
    format!(
        "Variant {v}: {} colours, {} pegs, {} guesses; a colour twice: {} in the secret, {} in a guess.",
        v.colours(),
        v.pegs(),
        v.guesses(),
        rep(v.secret_repeats()),
        rep(v.guess_repeats())
    )
}

fn hint_line(v: &Variant, h: &Hint) -> String {
    format!(
        "Hint: try {}. {} code{} still fit; about {:.2} more guesses expected, this one included. (The game is now \
         assisted.)",
        code_long(v, &h.guess),
        h.remaining,
        if h.remaining == 1 { "" } else { "s" },
        h.expected
    )
}

fn recorded_line(end: &g::Ending, assisted: bool, group: &str) -> Option<String> {
    match (end.id, end.rank, assisted) {
        (Some(id), _, true) => Some(format!(
            "Recorded as game #{id} (assisted: not in the best scores)."
        )),
        (Some(id), Some(r), false) => Some(format!(
            "Recorded as game #{id}, rank {r} among {group} scores."
        )),
        (Some(id), None, false) => Some(format!("Recorded as game #{id}.")),
        _ => None,
    }
}

/// Plays a game of either role until it ends, the player quits, or input runs out.
pub fn play(io: &mut Io, game: Resumed, store: &mut Store, fresh: bool) -> Result<Exit> {
    match game {
        Resumed::Breaker(s) => play_breaker(io, s, store),
        Resumed::Maker(s) => play_maker(io, s, store, fresh),
    }
}

/// The player as codebreaker.
pub fn play_breaker(io: &mut Io, mut s: Session, store: &mut Store) -> Result<Exit> {
    let v = *s.variant();
    io.say(menu_text(&v))?;
    io.say(board_text(&v, s.game.history(), None))?;
    loop {
        if let Some(e) = s.storage_error.take() {
            io.say(format!("Warning: {e}"))?;
        }
        if let Some(end) = s.ended.clone() {
            let secret = s.game.reveal();
            io.say(board_text(&v, s.game.history(), Some(&secret)))?;
            let n = s.game.history().len();
            match end.result {
                "won" => io.say(format!(
                    "Congratulations!! YOU WIN!!!! You found the code in {n} guess{}.",
                    if n == 1 { "" } else { "es" }
                ))?,
                "gave up" => io.say(format!(
                    "You gave up. The code was {}.",
                    code_long(&v, &secret)
                ))?,
                _ => io.say(format!(
                    "YOU LOSE!!! Better luck next time!!! The code was {}.",
                    code_long(&v, &secret)
                ))?,
            }
            if let Some(l) = recorded_line(&end, s.meta.assisted, &s.options.group()) {
                io.say(l)?;
            }
            return Ok(Exit::Menu);
        }
        let left = s.game.guesses_left();
        let prompt = format!(
            "Guess {} of {} (n count, h hint, ? help, q quit) = ",
            s.game.history().len() + 1,
            v.guesses()
        );
        debug_assert!(left > 0);
        let Some(line) = io.ask(&prompt)? else {
            s.save(store);
            io.say("Input ended: the game is saved; `parlor` offers it again.")?;
            return Ok(Exit::EndOfInput);
        };
        match line.to_ascii_lowercase().as_str() {
            "" => {
                io.say(board_text(&v, s.game.history(), None))?;
                continue;
            }
            "?" | "help" => {
                for p in RULES {
                    io.say(p)?;
                }
                io.say(menu_text(&v))?;
                io.say(BREAKER_HELP)?;
                continue;
            }
            "q" | "quit" => {
                s.save(store);
                io.say("Game saved: `parlor` offers it again.")?;
                return Ok(Exit::Menu);
            }
            "n" | "count" => {
                let n = s.remaining();
                io.say(format!(
                    "{n} code{} still fit every answer.",
                    if n == 1 { "" } else { "s" }
                ))?;
                continue;
            }
            "h" | "hint" => {
                let req = s.hint_request(store);
                match req.compute() {
                    Ok(h) => io.say(hint_line(&v, &h))?,
                    Err(e) => io.say(format!("No hint: {e}"))?,
                }
                continue;
            }
            "x" | "give up" | "giveup" => {
                s.give_up(store);
                continue;
            }
            _ => {}
        }
        match s.guess_text(&line, store) {
            Ok(fb) => {
                if s.ended.is_none() {
                    io.say(board_text(&v, s.game.history(), None))?;
                }
                let n = s.game.history().len();
                let code = s.game.history()[n - 1].0;
                io.say(format!(
                    "Guess {n}: {} -> {} black, {} white ({}).",
                    code_long(&v, &code),
                    fb.black,
                    fb.white,
                    pegs_text(fb)
                ))?;
            }
            Err(e) => io.say(format!(
                "Wrong choice!! {e}. Try again!! (That cost no guess.)"
            ))?,
        }
    }
}

fn history_list(io: &mut Io, v: &Variant, history: &[(Code, Feedback)]) -> Result<()> {
    for (i, (c, fb)) in history.iter().enumerate() {
        io.say(format!(
            "  {}. {} -> {} black, {} white ({})",
            i + 1,
            code_long(v, c),
            fb.black,
            fb.white,
            pegs_text(*fb)
        ))?;
    }
    Ok(())
}

/// Asks for a corrected answer to guess `index` (0-based); None at end of input.
fn correct(
    io: &mut Io,
    s: &mut MakerSession,
    index: usize,
    store: &mut Store,
) -> Result<Option<()>> {
    let v = *s.variant();
    let Some(&(code, _)) = s.breaker.history().get(index) else {
        io.say(format!("There is no answer {}.", index + 1))?;
        return Ok(Some(()));
    };
    let Some(text) = io.ask(&format!(
        "Right answer to guess {} ({})> ",
        index + 1,
        code_long(&v, &code)
    ))?
    else {
        return Ok(None);
    };
    match Feedback::parse(&text, v.pegs()) {
        Err(e) => io.say(format!("Not changed: {e}."))?,
        Ok(fb) => match s.correct(index, fb, store) {
            Ok(()) => io.say(format!(
                "Answer {} is now {} black, {} white. {} code{} fit.",
                index + 1,
                fb.black,
                fb.white,
                s.remaining(),
                if s.remaining() == 1 { "" } else { "s" }
            ))?,
            Err(e) => io.say(format!("Not changed: {e}."))?,
        },
    }
    Ok(Some(()))
}

/// The player as codemaker: the computer guesses, the player answers (or the typed code does).
pub fn play_maker(
    io: &mut Io,
    mut s: MakerSession,
    store: &mut Store,
    fresh: bool,
) -> Result<Exit> {
    let v = *s.variant();
    io.say(format!(
        "You are the codemaker. The computer ({} strategy) has {} guesses to find your code.",
        s.options.strategy,
        v.guesses()
    ))?;
    io.say(format!("Colours: {}", v.menu_line()))?;
    io.say(describe(&v))?;
    if fresh && !s.started() && s.options.secret.is_none() {
        loop {
            let Some(t) = io.ask(
                "Think of a code. Type it now to let the computer score its own guesses, or press Enter to keep it \
                 in mind and answer yourself> ",
            )?
            else {
                return Ok(Exit::EndOfInput);
            };
            if t.is_empty() {
                break;
            }
            match v.parse_secret(&t) {
                Ok(c) => {
                    s.options.secret = Some(c);
                    io.say("Code taken: the computer scores its own guesses.")?;
                    break;
                }
                Err(e) => io.say(format!("Not a code: {e}. Try again."))?,
            }
        }
    }
    if s.started() {
        history_list(io, &v, s.breaker.history())?;
    }
    loop {
        if let Some(e) = s.storage_error.take() {
            io.say(format!("Warning: {e}"))?;
        }
        if let Some(end) = s.ended.clone() {
            let n = s.breaker.history().len();
            match end.result {
                "lost" => io.say(format!(
                    "The computer found your code {} in {n} guess{}.",
                    code_long(&v, &s.breaker.history()[n - 1].0),
                    if n == 1 { "" } else { "es" }
                ))?,
                "won" => io.say(format!(
                    "The computer did not find your code in {n} guesses: YOU WIN!!!!"
                ))?,
                _ => io.say("You gave up.")?,
            }
            if let Some(l) = recorded_line(&end, s.meta.assisted, &s.options.group()) {
                io.say(l)?;
            }
            return Ok(Exit::Menu);
        }
        let n = s.breaker.history().len() + 1;
        let guess = s.next_guess();
        io.say(format!(
            "Guess {n} of {}: {}",
            v.guesses(),
            code_long(&v, &guess)
        ))?;
        let fb = if let Some(fb) = s.auto_answer(guess) {
            io.say(format!(
                "Scored for you: {} black, {} white ({}).",
                fb.black,
                fb.white,
                pegs_text(fb)
            ))?;
            fb
        } else {
            let Some(text) = io.ask("Your answer (black white, e.g. 2 1; or RRW; - for none)> ")?
            else {
                s.save(store);
                io.say("Input ended: the game is saved; `parlor` offers it again.")?;
                return Ok(Exit::EndOfInput);
            };
            let lower = text.to_ascii_lowercase();
            match lower.as_str() {
                "?" | "help" => {
                    for p in RULES {
                        io.say(p)?;
                    }
                    io.say(MAKER_HELP)?;
                    continue;
                }
                "q" | "quit" => {
                    s.save(store);
                    io.say("Game saved: `parlor` offers it again.")?;
                    return Ok(Exit::Menu);
                }
                "x" | "give up" | "giveup" => {
                    s.give_up(store);
                    continue;
                }
                "" => {
                    history_list(io, &v, s.breaker.history())?;
                    continue;
                }
                _ => {}
            }
            if let Some(rest) = lower.strip_prefix("fix") {
                match rest.trim().parse::<usize>() {
                    Ok(i) if i >= 1 => {
                        if correct(io, &mut s, i - 1, store)?.is_none() {
                            s.save(store);
                            return Ok(Exit::EndOfInput);
                        }
                    }
                    _ => io.say("Say which answer to correct, e.g. fix 2.")?,
                }
                continue;
            }
            match Feedback::parse(&text, v.pegs()) {
                Ok(fb) => fb,
                Err(e) => {
                    io.say(format!("Wrong answer!! {e}."))?;
                    continue;
                }
            }
        };
        match s.answer(guess, fb, store) {
            Ok(MakerEvent::Recorded) => {
                let r = s.remaining();
                io.say(format!(
                    "{r} code{} still fit your answers.",
                    if r == 1 { "" } else { "s" }
                ))?;
            }
            Ok(MakerEvent::Ended) => {}
            Err(AnswerError::Contradiction(c)) => {
                io.say(format!("Those answers contradict each other: {c}."))?;
                history_list(io, &v, s.breaker.history())?;
                io.say(format!(
                    "  {n}. {} -> {} black, {} white ({})  <- this answer",
                    code_long(&v, &guess),
                    fb.black,
                    fb.white,
                    pegs_text(fb)
                ))?;
                let suggest = c
                    .suspects
                    .first()
                    .map(|i| format!(" (answer {} is suspect)", i + 1))
                    .unwrap_or_default();
                let Some(t) = io.ask(&format!(
                    "Which answer was wrong{suggest}? Its number to correct it, or Enter to answer guess {n} \
                     again> "
                ))?
                else {
                    s.save(store);
                    return Ok(Exit::EndOfInput);
                };
                if let Ok(i) = t.trim().parse::<usize>()
                    && (1..n).contains(&i)
                    && correct(io, &mut s, i - 1, store)?.is_none()
                {
                    s.save(store);
                    return Ok(Exit::EndOfInput);
                }
            }
            Err(e) => io.say(format!("Wrong answer!! {e}."))?,
        }
    }
}

fn ask_number(io: &mut Io, prompt: &str, default: u32) -> Result<Option<u32>> {
    loop {
        let Some(t) = io.ask(&format!("{prompt} [{default}]> "))? else {
            return Ok(None);
        };
        if t.is_empty() {
            return Ok(Some(default));
        }
        match t.parse::<u32>() {
            Ok(n) => return Ok(Some(n)),
            Err(_) => io.say(format!("'{t}' is not a number"))?,
        }
    }
}

fn ask_yes(io: &mut Io, prompt: &str, default: bool) -> Result<Option<bool>> {
    loop {
        let d = if default { "y" } else { "n" };
        let Some(t) = io.ask(&format!("{prompt} (y/n) [{d}]> "))? else {
            return Ok(None);
        };
        match t.to_ascii_lowercase().as_str() {
            "" => return Ok(Some(default)),
            "y" | "yes" => return Ok(Some(true)),
            "n" | "no" => return Ok(Some(false)),
            _ => io.say("answer y or n")?,
        }
    }
}

/// Chooses the variant and role, from the plain menu, and plays.
pub fn menu(io: &mut Io, store: &mut Store) -> Result<Exit> {
    io.say("Mastermind. Variants: seed (the default: 6 colours, 4 pegs, 8 guesses, no colour twice in the secret), \
            classic (6, 4, 10, repeats), super (8, 5, 12), bulls-cows (digits, 4, 10, no repeats), custom.")?;
    let variant = loop {
        let Some(t) = io.ask("variant [seed]> ")? else {
            return Ok(Exit::EndOfInput);
        };
        let t = if t.is_empty() { "seed".to_string() } else { t };
        if t.eq_ignore_ascii_case("custom") {
            let Some(c) = ask_number(io, "colours, 2 to 10", 6)? else {
                return Ok(Exit::EndOfInput);
            };
            let Some(p) = ask_number(io, "pegs, 2 to 8", 4)? else {
                return Ok(Exit::EndOfInput);
            };
            let Some(gs) = ask_number(io, "guesses", 10)? else {
                return Ok(Exit::EndOfInput);
            };
            let Some(sr) = ask_yes(io, "may the secret repeat a colour?", true)? else {
                return Ok(Exit::EndOfInput);
            };
            let Some(gr) = ask_yes(io, "may a guess repeat a colour?", true)? else {
                return Ok(Exit::EndOfInput);
            };
            match Variant::custom(c, p, gs, sr, gr) {
                Ok(v) => break v,
                Err(e) => io.say(format!("Cannot play that: {e}."))?,
            }
            continue;
        }
        match t.parse::<Variant>() {
            Ok(v) => break v,
            Err(e) => io.say(format!("{e}"))?,
        }
    };
    let role = loop {
        let Some(t) =
            io.ask("role: b codebreaker (you guess), m codemaker (the computer guesses) [b]> ")?
        else {
            return Ok(Exit::EndOfInput);
        };
        match t.to_ascii_lowercase().as_str() {
            "" | "b" | "breaker" | "codebreaker" => break Role::Breaker,
            "m" | "maker" | "codemaker" => break Role::Maker,
            other => io.say(format!("'{other}': answer b or m"))?,
        }
    };
    let options = Options::new(variant, role);
    let game = match role {
        Role::Breaker => Resumed::Breaker(Session::new(options, crate::games::fresh_seed())),
        Role::Maker => Resumed::Maker(MakerSession::new(options)?),
    };
    play(io, game, store, true)
}

/// Continues a saved game.
pub fn resume(io: &mut Io, saved: &Unfinished, store: &mut Store) -> Result<Exit> {
    let game = g::resume(saved)?;
    io.say("Continuing your game in progress.")?;
    play(io, game, store, false)
}

/// Prints a finished game move by move.
pub fn replay(io: &mut Io, record: &GameRecord, delay_ms: u64) -> Result<()> {
    let options = Options::from_json(&record.options)?;
    let v = options.variant;
    io.say(format!(
        "Replay of game #{}: Mastermind {}, {}.",
        record.id,
        record.variant,
        match options.role {
            Role::Breaker => format!("you as codebreaker, seed {}", record.seed),
            Role::Maker => "you as codemaker".to_string(),
        }
    ))?;
    io.say(describe(&v))?;
    let (history, secret) = match options.role {
        Role::Breaker => {
            let game = g::replay_breaker(&v, record.seed, &record.moves)?;
            (game.history().to_vec(), Some(game.reveal()))
        }
        Role::Maker => (g::parse_maker_moves(&v, &record.moves)?, options.secret),
    };
    for (i, (c, fb)) in history.iter().enumerate() {
        io.say(format!(
            "{}. {} -> {} black, {} white ({})",
            i + 1,
            code_long(&v, c),
            fb.black,
            fb.white,
            pegs_text(*fb)
        ))?;
        if delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        }
    }
    io.say(board_text(&v, &history, secret.as_ref()))?;
    let secret_text = secret
        .or_else(|| {
            history
                .last()
                .filter(|(_, f)| f.is_win(v.pegs()))
                .map(|(c, _)| *c)
        })
        .map(|c| format!(" The code was {}.", code_long(&v, &c)))
        .unwrap_or_default();
    io.say(format!(
        "End: {} after {} guess{}.{secret_text}",
        record.result,
        record.score,
        if record.score == 1 { "" } else { "es" }
    ))
    .map_err(|e| anyhow!("{e}"))
}
