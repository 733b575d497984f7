//! Mastermind behind the game interface: one game with two roles.
//!
//! - **Codebreaker** (`role` breaker): the computer hides a code drawn from the seed; each move is a guess, written
//!   as its compact symbols (`RGYU`, digits `0123` for Bulls and Cows), as the old records are.
//! - **Codemaker** (`role` maker): the player keeps a code in mind; the computer guesses with its strategy, and each
//!   move is the player's answer to the computer's guess, written `RGYU:21` (the guess, 2 black, 1 white). The
//!   guess is stored in the move, so a record loads whatever the strategy would play today. A correction of an
//!   earlier answer after a contradiction is a move too (`fix3:21`: answer 3 is really 2 black, 1 white), and so is
//!   the code the player may type, hidden, before the first guess (`code:RGYU`), after which the computer scores
//!   its own guesses.

#[cfg(test)]
mod app_tests;
mod board;
#[cfg(feature = "terminal")]
pub mod cli;
pub mod colours;
pub mod daily;
pub mod kept;
#[cfg(test)]
mod kept_tests;
#[cfg(feature = "terminal")]
pub mod plain;
#[cfg(feature = "terminal")]
pub mod progress;
pub mod review;
pub mod screen;

mod state;
mod text;
pub mod trees;
pub mod work;

use crate::mid::error::Error;
use crate::mid::game::{Applied, Game, Outcome, Purpose, Ranking, Status, Turn};
use crate::mid::settings::{Kind, Setting, checked, no_setting};
use mastermind::{Breaker, Code, CodeStyle, Palette, Strategy, Variant, feedback};
use serde::{Deserialize, Serialize};
pub use state::{Move, Play, Side, State, contradiction, fitting_answers};
use state::{play, read_move, strategy_breaker};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
pub use text::{
    code_long, codes_fit, colour_keys, guesses, pegs_text, symbols, too_large, variant_name,
};
use trees::Trees;

/// The largest code space the computer plays (the engine's limit): beyond it there are no hints and no codemaker
/// role.
pub const COMPUTER_LIMIT: u64 = 65_536;

/// The most guesses a saved game may allow (the setting allows 1 to 30; older versions allowed more).
const MAX_SAVED_GUESSES: u32 = 1000;

/// Mastermind.
pub struct Mastermind;

/// Who hides the code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The player guesses the computer's code.
    #[default]
    Breaker,
    /// The player hides a code; the computer guesses.
    Maker,
}

/// The options of a Mastermind game, saved as older versions wrote them (`StoredParams`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(into = "StoredParams")]
pub struct Params {
    /// The preset (`seed`, `classic`, `super`, `bulls-cows`), or `None` for a custom variant.
    pub preset: Option<&'static str>,
    /// Custom: number of colours (2 to 10).
    pub colours: u32,
    /// Custom: pegs in a code (2 to 8).
    pub pegs: u32,
    /// Custom: guesses allowed.
    pub guesses: u32,
    /// Custom: whether the secret may repeat a colour.
    pub secret_repeats: bool,
    /// Custom: whether a guess may repeat a colour.
    pub guess_repeats: bool,
    /// Custom: digits instead of colours (a custom variant made from Bulls and Cows by older versions).
    pub digits: bool,
    /// Who hides the code.
    pub role: Role,
    /// The computer's strategy, or `None` for the variant's default ([`default_strategy`]).
    pub strategy: Option<Strategy>,
    /// Codemaker games saved by older versions: the code the player typed (new games type it as a move).
    pub secret: Option<Code>,
}

impl Default for Params {
    fn default() -> Self {
        Params::of(Variant::default(), Role::Breaker)
    }
}

impl Params {
    /// The parameters of a variant and a role, with the default strategy.
    pub fn of(v: Variant, role: Role) -> Params {
        Params {
            preset: v.preset_name(),
            colours: u32::from(v.colours()),
            pegs: u32::from(v.pegs()),
            guesses: v.guesses(),
            secret_repeats: v.secret_repeats(),
            guess_repeats: v.guess_repeats(),
            digits: v.palette() == Palette::Digits,
            role,
            strategy: None,
            secret: None,
        }
    }

    /// The variant these parameters describe, or why it cannot be played.
    pub fn variant(&self) -> Result<Variant, String> {
        if let Some(name) = self.preset {
            return Variant::preset(name).map_err(|e| e.to_string());
        }
        let v = Variant::custom(
            self.colours,
            self.pegs,
            self.guesses,
            self.secret_repeats,
            self.guess_repeats,
        )
        .map_err(|e| e.to_string())?;
        Ok(if self.digits {
            v.with_palette(Palette::Digits)
        } else {
            v
        })
    }

    /// The computer's strategy (the chosen one, or the variant's default); `best` is `optimal` on a variant
    /// without a best tree kept in the engine ([`Strategy::resolved`]).
    pub fn strategy(&self) -> Strategy {
        match self.variant() {
            Ok(v) => self
                .strategy
                .unwrap_or_else(|| default_strategy(&v))
                .resolved(&v),
            Err(_) => self.strategy.unwrap_or(Strategy::Entropy),
        }
    }

    /// Forgets a chosen strategy that is the variant's default anyway, so that the default follows the variant.
    fn normalise(&mut self) {
        if let (Some(s), Ok(v)) = (self.strategy, self.variant())
            && s == default_strategy(&v)
        {
            self.strategy = None;
        }
    }
}

/// The strategy used when none is chosen: optimal wherever its tree can be had (built at once on seed, classic and
/// the smaller variants; built once in the background and kept, see [`trees`], on larger ones such as Bulls and
/// Cows); `best` on Super Mastermind, whose best tree known is compiled into the engine ([`mastermind::stored_tree`]:
/// fewer guesses than any heuristic, and instant); entropy beyond.
pub fn default_strategy(variant: &Variant) -> Strategy {
    if Strategy::Best.resolved(variant) == Strategy::Best {
        return Strategy::Best;
    }
    let optimal = variant.secret_count() <= 1296
        || mastermind::estimated_solve_seconds(variant, Strategy::Optimal)
            <= trees::BUILD_LIMIT_SECONDS;
    if optimal && variant.code_space_size() <= COMPUTER_LIMIT {
        Strategy::Optimal
    } else {
        Strategy::Entropy
    }
}

const VARIANTS: &[(&str, &str)] = &[
    ("seed", "seed (6 colours, 4 pegs, 8 guesses)"),
    ("classic", "classic (6, 4, 10, repeats)"),
    ("super", "super (8, 5, 12, repeats)"),
    ("bulls-cows", "bulls-cows (digits, 4, 10)"),
    ("custom", "custom"),
];

const ROLES: &[(&str, &str)] = &[
    ("breaker", "codebreaker (you guess the code)"),
    ("maker", "codemaker (the computer guesses yours)"),
];

const STRATEGIES: &[(&str, &str)] = &[
    ("knuth", "knuth (as Knuth published it)"),
    ("knuth-sorted", "knuth-sorted (finer ties)"),
    ("expected-size", "expected-size"),
    ("entropy", "entropy"),
    ("most-parts", "most-parts"),
    ("optimal", "optimal"),
    ("best", "best (Super's kept tree; optimal elsewhere)"),
];

const SETTINGS: &[Setting] = &[
    Setting {
        key: "variant",
        label: "Variant",
        help: "A preset, or custom to choose colours, pegs, guesses and repeats.",
        kind: Kind::Choice(VARIANTS),
    },
    Setting {
        key: "colours",
        label: "Colours",
        help: "Custom: how many colours a peg may have.",
        kind: Kind::Number { min: 2, max: 10 },
    },
    Setting {
        key: "pegs",
        label: "Pegs",
        help: "Custom: how many pegs a code has.",
        kind: Kind::Number { min: 2, max: 8 },
    },
    Setting {
        key: "guesses",
        label: "Guesses",
        help: "Custom: how many guesses find the code.",
        kind: Kind::Number { min: 1, max: 30 },
    },
    Setting {
        key: "secret-repeats",
        label: "Secret may repeat a colour",
        help: "Custom: whether the code may hold a colour twice.",
        kind: Kind::Toggle,
    },
    Setting {
        key: "guess-repeats",
        label: "Guess may repeat a colour",
        help: "Custom: whether a guess may hold a colour twice.",
        kind: Kind::Toggle,
    },
    Setting {
        key: "role",
        label: "Your role",
        help: "Codebreaker: you guess the computer's code. Codemaker: you think of a code and the computer guesses.",
        kind: Kind::Choice(ROLES),
    },
    Setting {
        key: "strategy",
        label: "Computer's strategy",
        help: "How the computer guesses (as codemaker's opponent, and for hints); the default is best on Super \
               Mastermind (the kept tree), optimal where its tree can be had (Bulls and Cows: built once in the \
               background), entropy beyond.",
        kind: Kind::Choice(STRATEGIES),
    },
];

const CUSTOM_KEYS: &[&str] = &[
    "colours",
    "pegs",
    "guesses",
    "secret-repeats",
    "guess-repeats",
];

/// How options are stored (JSON), as older versions wrote them.
#[derive(Serialize, Deserialize)]
struct StoredParams {
    variant: String,
    #[serde(default)]
    role: Role,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    strategy: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    secret: Option<String>,
}

impl From<Params> for StoredParams {
    fn from(p: Params) -> StoredParams {
        let variant = p.variant().unwrap_or_default();
        StoredParams {
            variant: variant.to_string(),
            role: p.role,
            strategy: Some(p.strategy().name().into()),
            secret: p.secret.map(|c| symbols(&variant, &c)),
        }
    }
}

impl TryFrom<StoredParams> for Params {
    type Error = String;

    /// The parameters saved; an unknown variant or strategy, or a code the variant refuses, is an error.
    fn try_from(s: StoredParams) -> Result<Params, String> {
        let variant: Variant = s.variant.parse().map_err(|e| format!("{e}"))?;
        let mut p = Params::of(variant, s.role);
        if let Some(name) = &s.strategy {
            p.strategy = Some(name.parse().map_err(|e| format!("{e}"))?);
        }
        if let Some(t) = &s.secret {
            p.secret = Some(
                variant
                    .parse_secret(t)
                    .map_err(|e| format!("saved code '{t}': {e}"))?,
            );
        }
        p.normalise();
        Ok(p)
    }
}

// By hand, not derived with `try_from`: the preset's `&'static str` would tie the derived impl to `'static` input.
impl<'de> Deserialize<'de> for Params {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Params, D::Error> {
        Params::try_from(StoredParams::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

fn yes(b: bool) -> String {
    if b { "yes" } else { "no" }.into()
}

impl Game for Mastermind {
    const ID: &'static str = "mastermind";
    const TITLE: &'static str = "Mastermind";
    const BLURB: &'static str =
        "Find the hidden code of coloured pegs, or hide one from the computer.";
    const ENGINE: (&'static str, &'static str) = (mastermind::NAME, mastermind::VERSION);
    const RANKS: &'static str = "wins by fewest guesses";
    const CHARTS: &'static str = "the guesses needed (✗: not found)";
    type Params = Params;
    type State = State;
    type Move = Move;
    type Thinker = Trees;
    type Context = Trees;

    fn settings() -> &'static [Setting] {
        SETTINGS
    }

    fn get(p: &Params, key: &str) -> String {
        match key {
            "variant" => p.preset.unwrap_or("custom").to_string(),
            "colours" => p.colours.to_string(),
            "pegs" => p.pegs.to_string(),
            "guesses" => p.guesses.to_string(),
            "secret-repeats" => yes(p.secret_repeats),
            "guess-repeats" => yes(p.guess_repeats),
            "role" => match p.role {
                Role::Breaker => "breaker".into(),
                Role::Maker => "maker".into(),
            },
            "strategy" => p.strategy().name().into(),
            _ => String::new(),
        }
    }

    fn set(p: &mut Params, key: &str, value: &str) -> Result<(), Error> {
        let v = checked(SETTINGS, key, value)?;
        let number = |t: &str| {
            t.parse::<u32>()
                .map_err(|_| Error::Settings(format!("'{t}' is not a number")))
        };
        let mut q = p.clone();
        if CUSTOM_KEYS.contains(&key) && q.preset.is_some() {
            // Changing a custom setting makes the variant custom, starting from the preset's values.
            q.preset = None;
        }
        match key {
            "variant" if v == "custom" => q.preset = None,
            "variant" => {
                let preset = Variant::preset(&v).map_err(|e| Error::Settings(e.to_string()))?;
                let (role, strategy) = (q.role, q.strategy);
                q = Params::of(preset, role);
                q.strategy = strategy;
            }
            "colours" => q.colours = number(&v)?,
            "pegs" => q.pegs = number(&v)?,
            "guesses" => q.guesses = number(&v)?,
            "secret-repeats" => q.secret_repeats = v == "yes",
            "guess-repeats" => q.guess_repeats = v == "yes",
            "role" => {
                q.role = if v == "maker" {
                    Role::Maker
                } else {
                    Role::Breaker
                }
            }
            "strategy" => {
                q.strategy = Some(v.parse().map_err(|e| Error::Settings(format!("{e}")))?)
            }
            _ => return Err(no_setting(key)),
        }
        q.normalise();
        *p = q;
        Ok(())
    }

    fn applies(p: &Params, key: &str) -> bool {
        !CUSTOM_KEYS.contains(&key) || p.preset.is_none()
    }

    fn check(p: &Params) -> Result<(), Error> {
        let v = p.variant().map_err(Error::Settings)?;
        if v.guesses() > MAX_SAVED_GUESSES {
            return Err(Error::Settings(format!(
                "{} guesses is out of range: at most {MAX_SAVED_GUESSES}",
                v.guesses()
            )));
        }
        if p.role == Role::Maker && v.code_space_size() > COMPUTER_LIMIT {
            return Err(Error::Settings(format!(
                "as codemaker you need the computer to guess, and here {}: choose fewer colours or pegs, or the \
                 codebreaker role",
                too_large(&v)
            )));
        }
        Ok(())
    }

    fn variant(p: &Params) -> String {
        let name = match p.variant() {
            Ok(v) => variant_name(&v),
            Err(_) => "custom".into(),
        };
        match p.role {
            Role::Breaker => name,
            Role::Maker => format!("{name} (maker)"),
        }
    }

    fn new_game(p: &Params, seed: u64) -> Result<State, Error> {
        let variant = p.variant().map_err(Error::Settings)?;
        let side = match p.role {
            Role::Breaker => Side::Breaker(mastermind::Game::new(variant, seed)),
            Role::Maker => Side::Maker {
                // The book only checks answers: Knuth's tree is the quickest to build.
                book: Breaker::new(&variant, Strategy::Knuth).map_err(|e| {
                    Error::Settings(format!("the computer cannot play this variant: {e}"))
                })?,
                secret: p.secret,
            },
        };
        Ok(State {
            variant,
            strategy: p.strategy(),
            side,
            next: Arc::default(),
        })
    }

    fn parse_move(state: &State, text: &str) -> Result<Move, Error> {
        read_move(state, text).map_err(Error::Move)
    }

    fn apply(state: &mut State, mv: &Move) -> Result<Applied, Error> {
        play(state, mv).map_err(Error::Move)
    }

    fn status(state: &State) -> Status {
        match &state.side {
            Side::Breaker(g) => match g.status() {
                mastermind::Status::Won => Status::Over(Outcome::Won),
                mastermind::Status::Lost => Status::Over(Outcome::Lost),
                mastermind::Status::Playing => Status::Playing(Turn::Player),
            },
            Side::Maker { secret, .. } => {
                if state.found() || state.out_of_guesses() {
                    Status::Over(Outcome::Done)
                } else if secret.is_some() {
                    Status::Playing(Turn::Computer)
                } else {
                    Status::Playing(Turn::Player)
                }
            }
        }
    }

    fn score(state: &State) -> i64 {
        state.history().len() as i64
    }

    fn moves_made(state: &State) -> usize {
        state.history().len()
    }

    fn score_name() -> &'static str {
        "guesses"
    }

    fn ranking(p: &Params) -> Ranking {
        match p.role {
            Role::Breaker => Ranking::FewestToWin,
            Role::Maker => Ranking::Unranked,
        }
    }

    fn ending(state: &State, outcome: Outcome) -> String {
        let n = state.history().len();
        let v = &state.variant;
        let code = state
            .revealed()
            .map(|c| format!(": the code was {}", v.format_code(&c, CodeStyle::Names)))
            .unwrap_or_default();
        match (state.role(), outcome) {
            (Role::Breaker, Outcome::Won) => format!("You cracked the code in {}", guesses(n)),
            (Role::Breaker, Outcome::Lost) => format!("Out of guesses{code}"),
            (Role::Maker, Outcome::GaveUp) => "Given up".into(),
            (Role::Maker, _) if state.found() => {
                format!("The computer found your code in {}", guesses(n))
            }
            (Role::Maker, _) => format!("The computer did not find your code in {}", guesses(n)),
            (_, _) => format!("Given up{code}"),
        }
    }

    fn progress(state: &State) -> String {
        let used = state.history().len();
        let role = match state.role() {
            Role::Breaker => "",
            Role::Maker => "codemaker · ",
        };
        format!("{role}{used} of {} guesses used", state.variant.guesses())
    }

    fn undo_depth(state: &State, moves: usize) -> usize {
        // With a typed code the computer scores every guess: nothing of the player's to take back.
        if state.typed_secret().is_some() {
            return 0;
        }
        usize::from(moves > 0)
    }

    fn can_think(p: &Params) -> bool {
        p.variant()
            .is_ok_and(|v| v.code_space_size() <= COMPUTER_LIMIT)
    }

    fn why_no_hint(params: &Params) -> String {
        match params.variant() {
            Ok(v) => too_large(&v),
            Err(e) => e,
        }
    }

    fn context(data_dir: Option<&std::path::Path>) -> Trees {
        Trees::new(data_dir)
    }

    fn prepare(trees: &Trees, p: &Params) {
        // A kept tree is read in the background now, so that the first hint does not wait for it.
        if let Ok(variant) = p.variant() {
            trees.warm(&variant, p.strategy());
        }
    }

    fn thinker(_p: &Params, trees: &Trees) -> Trees {
        trees.clone()
    }

    fn think(
        trees: &mut Trees,
        state: &State,
        purpose: Purpose,
        _stop: &AtomicBool,
    ) -> Option<Move> {
        let v = state.variant;
        // A strategy tree too slow to build at once starts building in the background the first time it is needed.
        trees.ensure(&v, state.strategy);
        match (&state.side, purpose) {
            (Side::Breaker(g), Purpose::Hint) => {
                let b = strategy_breaker(&v, state.strategy, g.history()).ok()?;
                let mut mv = Move::new(Play::Guess(b.next_guess()), v);
                mv.info = Some((b.remaining() as u64, b.expected_guesses_left()));
                Some(mv)
            }
            (Side::Maker { secret, .. }, Purpose::Opponent) => {
                let guess = state.next_guess()?;
                let answer = feedback((*secret)?, guess);
                Some(Move::new(Play::Answer { guess, answer }, v))
            }
            (Side::Maker { book, .. }, Purpose::Hint) => {
                let guess = state.next_guess()?;
                let fits = fitting_answers(book, guess);
                let answer = *fits.first()?;
                let mut mv = Move::new(Play::Answer { guess, answer }, v);
                mv.info = Some((fits.len() as u64, 0.0));
                Some(mv)
            }
            _ => None,
        }
    }

    /// Every guess of a codebreaker's game against the optimal strategy's ([`review`]).
    fn review(
        _trees: &Trees,
        _params: &Params,
        start: &state::State,
        moves: &[state::Move],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Option<Result<crate::mid::review::Review, Error>> {
        let review = review::review(start, moves, progress);
        Some(review)
    }

    fn describe_hint(trees: &Trees, state: &State, mv: &Move) -> String {
        let v = &state.variant;
        match (mv.play, &state.side) {
            (Play::Guess(code), _) => {
                let mut s = format!("try {}", symbols(v, &code));
                if let Some((left, expected)) = mv.info {
                    s.push_str(&format!(
                        " · {} left · about {expected:.1} guesses to go",
                        crate::figures::count(left, "code")
                    ));
                }
                if let Some(note) =
                    trees::hint_note(state.strategy, &trees.ensure(v, state.strategy))
                {
                    s.push_str(&format!(" · {note}"));
                }
                s
            }
            (Play::Answer { guess, .. }, Side::Maker { book, .. }) => {
                let fits = fitting_answers(book, guess);
                let shown: Vec<String> = fits
                    .iter()
                    .take(8)
                    .map(|f| format!("{} {}", f.black, f.white))
                    .collect();
                format!(
                    "answers that fit your earlier ones: {}{}",
                    shown.join(", "),
                    if fits.len() > 8 { ", …" } else { "" }
                )
            }
            _ => mv.to_string(),
        }
    }

    /// The same secret (the same seed) with the guesses made so far; only where the player broke the code.
    fn practice(_trees: &Trees, params: &Params, _at: &State) -> Result<Params, Error> {
        match params.role {
            Role::Breaker => Ok(params.clone()),
            Role::Maker => Err(Error::Settings(
                "a game where the computer broke your code has no guess of yours to practise"
                    .into(),
            )),
        }
    }

    fn rules() -> &'static [&'static str] {
        RULES
    }
}

/// Mastermind's rules, one paragraph each.
pub const RULES: &[&str] = &[
    "The codemaker hides a code of coloured pegs; the codebreaker guesses it. After each guess the codebreaker \
     learns how many pegs are the right colour in the right place (black, shown ● or R) and how many more are a \
     right colour in the wrong place (white, shown ○ or W). The pegs are listed sorted, blacks first, and say \
     nothing about which position they belong to.",
    "Find the code within the guesses allowed to win; otherwise the code is revealed and the game is lost. A guess \
     with the wrong length, an unknown colour, or a colour twice where the variant forbids it is refused and costs \
     nothing.",
    "Variants: seed (6 colours, 4 pegs, 8 guesses, no colour twice in the secret), classic (6, 4, 10, repeats), \
     super (8, 5, 12, repeats), bulls-cows (digits 0 to 9, 4 pegs, 10 guesses, no repeats), or custom \
     (2 to 10 colours, 2 to 8 pegs, 1 to 30 guesses).",
    "Type colours by number (1 3 6 5), by capital letter (RYOK; BLUE is U and BLACK is K) or, in plain mode, by \
     name or prefix (red yellow orange black, red ye or bla). n counts the codes that still fit every answer. t gives \
     a hint (in variants of at most 65,536 possible codes, which the computer searches): the computer's next guess, \
     how many codes remain and how many more guesses it expects; it marks the game assisted, which keeps it out of \
     the best scores.",
    "As codemaker, keep a code in mind (or type it, hidden, before the first guess, and let the computer score) \
     and answer each of the computer's guesses with black and white counts ('2 1') or pegs, R for black and W for \
     white ('RRW'), '-' for none. If your answers contradict each other the computer says which may be wrong; pick \
     the answer to correct (↑↓ in the full screen, fix N in plain mode) and give the right one. The game is saved \
     after every guess: quit at any time and continue later.",
];

#[cfg(test)]
mod rules_tests {
    use super::{COMPUTER_LIMIT, RULES};

    /// The rules name the largest variant the computer hints in: the same figure as the limit the code applies.
    #[test]
    fn the_rules_name_the_computer_limit() {
        let digits = COMPUTER_LIMIT.to_string();
        let (high, low) = digits.split_at(digits.len() - 3);
        let written = format!("{high},{low} possible codes");
        assert!(RULES.iter().any(|r| r.contains(&written)), "{written}");
    }
}
