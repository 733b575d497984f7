//! A Mastermind play session, shared by the full-screen and plain front ends.
//!
//! Two roles: [`Session`] is the player as codebreaker (the computer hides a code drawn from the seed), and
//! [`MakerSession`] the player as codemaker (the computer guesses, the player scores). Both autosave after every
//! guess and record the game when it ends.
//!
//! Move notation in the database: codebreaker, each guess as its compact symbols (`RGYU`, digits `0123`), space
//! separated; codemaker, each guess and its answer as `RGYU:21` (2 black, 1 white).

use super::Meta;
use crate::storage::{Store, Unfinished, now_ms};
use anyhow::{Context, Result, anyhow};
use mastermind::{
    AnswerError, Breaker, Code, CodeStyle, Feedback, Game, GuessError, Status, Strategy, Variant,
};
use serde::{Deserialize, Serialize};
use std::sync::mpsc;

/// The game's name in the database.
pub const GAME: &str = "mastermind";

/// The largest code space the computer plays (the library's limit): beyond it there are no hints and no codemaker
/// role.
pub const COMPUTER_LIMIT: u64 = 65_536;

/// The rules, one paragraph each (help screens and plain `?`).
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
     (2 to 10 colours, 2 to 8 pegs).",
    "Type colours by number (1 3 6 5), by name or prefix (red yellow orange black, r y o bla) or by symbol \
     (RYOK; BLUE is U and BLACK is K). The count shows how many codes still fit every answer. A hint shows the \
     computer's next guess, how many codes remain and how many more guesses it expects: it marks the game \
     assisted, which keeps it out of the best scores.",
    "As codemaker, keep a code in mind (or type it, hidden, and let the computer score) and answer each of the \
     computer's guesses with black and white counts: '2 1', 'RRW' or 'BBW', '-' for none. If your answers \
     contradict each other the computer says which, and you correct the wrong one. The game is saved after every \
     guess: quit at any time and continue later.",
];

/// Who hides the code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The player guesses the computer's code.
    Breaker,
    /// The player hides a code; the computer guesses.
    Maker,
}

impl Role {
    /// `breaker` or `maker`.
    pub fn name(self) -> &'static str {
        match self {
            Role::Breaker => "breaker",
            Role::Maker => "maker",
        }
    }
}

/// The options of a Mastermind game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The variant.
    pub variant: Variant,
    /// Who hides the code.
    pub role: Role,
    /// The computer's strategy (its guesses as codemaker's opponent, and hints).
    pub strategy: Strategy,
    /// Codemaker only: the code typed by the player so that the computer scores its own guesses.
    pub secret: Option<Code>,
}

/// How options are stored (JSON).
#[derive(Serialize, Deserialize)]
struct StoredOptions {
    variant: String,
    role: Role,
    strategy: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    secret: Option<String>,
}

impl Options {
    /// Options for a variant and role, with the default strategy.
    pub fn new(variant: Variant, role: Role) -> Options {
        Options {
            variant,
            role,
            strategy: default_strategy(&variant),
            secret: None,
        }
    }

    /// The name best scores are grouped by: the variant, plus ` (maker)` for the codemaker role.
    pub fn group(&self) -> String {
        match self.role {
            Role::Breaker => self.variant.to_string(),
            Role::Maker => format!("{} (maker)", self.variant),
        }
    }

    /// The options as JSON.
    pub fn to_json(&self) -> String {
        let s = StoredOptions {
            variant: self.variant.to_string(),
            role: self.role,
            strategy: self.strategy.name().into(),
            secret: self
                .secret
                .map(|c| self.variant.format_code(&c, CodeStyle::Symbols).to_string()),
        };
        serde_json::to_string(&s).unwrap_or_default()
    }

    /// Reads options written by [`Options::to_json`].
    pub fn from_json(json: &str) -> Result<Options> {
        let s: StoredOptions = serde_json::from_str(json).context("reading the saved options")?;
        let variant: Variant = s.variant.parse().map_err(|e| anyhow!("{e}"))?;
        let strategy: Strategy = s.strategy.parse().map_err(|e| anyhow!("{e}"))?;
        let secret = match s.secret {
            Some(t) => Some(variant.parse_secret(&t).map_err(|e| anyhow!("{e}"))?),
            None => None,
        };
        Ok(Options {
            variant,
            role: s.role,
            strategy,
            secret,
        })
    }
}

/// The strategy used when none is chosen: the best that answers at once on this variant. Optimal on the small
/// variants (seed, classic: a cached tree, built in about a second), entropy beyond.
pub fn default_strategy(variant: &Variant) -> Strategy {
    if variant.secret_count() <= 1296 {
        Strategy::Optimal
    } else {
        Strategy::Entropy
    }
}

/// A code as compact symbols (`RGYU`, `0123`).
pub fn symbols(variant: &Variant, code: &Code) -> String {
    variant.format_code(code, CodeStyle::Symbols).to_string()
}

/// Feedback as sorted pegs, blacks first: `RRW` (black R, white W as in the seed), `-` for none.
pub fn pegs_text(fb: Feedback) -> String {
    if fb.black + fb.white == 0 {
        return "-".into();
    }
    "R".repeat(usize::from(fb.black)) + &"W".repeat(usize::from(fb.white))
}

/// What the computer advises: its next guess, the codes left, and the guesses it expects to need.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    /// The guess the strategy plays now.
    pub guess: Code,
    /// Codes that still fit every answer.
    pub remaining: usize,
    /// Guesses still needed on average, this one included.
    pub expected: f64,
}

/// The inputs of a hint, detached from the session so that it can be computed on another thread.
#[derive(Clone, Debug)]
pub struct HintRequest {
    variant: Variant,
    strategy: Strategy,
    history: Vec<(Code, Feedback)>,
}

impl HintRequest {
    /// Computes the hint (may take a moment on large variants).
    pub fn compute(&self) -> Result<Hint, String> {
        let b = breaker_for(&self.variant, self.strategy, &self.history)?;
        Ok(Hint {
            guess: b.next_guess(),
            remaining: b.remaining(),
            expected: b.expected_guesses_left(),
        })
    }

    /// Computes the hint on a background thread; poll the receiver.
    pub fn spawn(self) -> mpsc::Receiver<Result<Hint, String>> {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(self.compute());
        });
        rx
    }
}

/// A breaker that has heard every answer of `history`.
fn breaker_for(
    variant: &Variant,
    strategy: Strategy,
    history: &[(Code, Feedback)],
) -> Result<Breaker, String> {
    let mut b = Breaker::new(variant, strategy)
        .map_err(|e| format!("the computer cannot play this variant: {e}"))?;
    for &(g, fb) in history {
        b.record(g, fb).map_err(|e| e.to_string())?;
    }
    Ok(b)
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// `won`, `lost` or `gave up` (the player's point of view).
    pub result: &'static str,
    /// The database id, when it was recorded.
    pub id: Option<i64>,
    /// The rank among the best unassisted scores of this group (None for assisted or lost games).
    pub rank: Option<usize>,
}

/// Records a finished game (or forgets it when no guess was made).
fn record_end(
    store: &mut Store,
    u: Unfinished,
    result: &'static str,
    started: bool,
    storage_error: &mut Option<String>,
) -> Ending {
    let recorded = super::record_finished(store, u, result, started).unwrap_or_else(|e| {
        *storage_error = Some(e);
        super::Recorded::default()
    });
    Ending {
        result,
        id: recorded.id,
        rank: recorded.rank,
    }
}

fn save_or_discard(
    store: &mut Store,
    u: &Unfinished,
    started: bool,
    storage_error: &mut Option<String>,
) {
    if let Err(e) = super::save_progress(store, u, started) {
        *storage_error = Some(e);
    }
}

fn meta_of(saved: &Unfinished) -> Meta {
    Meta {
        session: saved.session.clone(),
        started_at: saved.started_at,
        assisted: saved.assisted,
    }
}

/// The player as codebreaker.
pub struct Session {
    /// The game itself.
    pub game: Game,
    /// Its options.
    pub options: Options,
    /// Bookkeeping.
    pub meta: Meta,
    /// Set once the game is over and recorded.
    pub ended: Option<Ending>,
    /// The last storage problem, to show once.
    pub storage_error: Option<String>,
}

impl Session {
    /// A new game whose secret comes from `seed`.
    pub fn new(options: Options, seed: u64) -> Session {
        Session {
            game: Game::new(options.variant, seed),
            options,
            meta: Meta::new(),
            ended: None,
            storage_error: None,
        }
    }

    /// Takes over a saved game, replaying its guesses.
    pub fn resume(saved: &Unfinished) -> Result<Session> {
        let options = Options::from_json(&saved.options)?;
        let game = replay_breaker(&options.variant, saved.seed, &saved.moves)?;
        Ok(Session {
            game,
            options,
            meta: meta_of(saved),
            ended: None,
            storage_error: None,
        })
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.options.variant
    }

    /// Plays a guess. A refused guess costs nothing; a game that ends is recorded, otherwise it is saved.
    pub fn guess(&mut self, code: Code, store: &mut Store) -> Result<Feedback, GuessError> {
        let fb = self.game.guess(code)?;
        match self.game.status() {
            Status::Won => self.end("won", store),
            Status::Lost => self.end("lost", store),
            Status::Playing => self.save(store),
        }
        Ok(fb)
    }

    /// Parses and plays a guess.
    pub fn guess_text(&mut self, text: &str, store: &mut Store) -> Result<Feedback, GuessError> {
        let code = self.variant().parse_code(text)?;
        self.guess(code, store)
    }

    /// How many codes still fit every answer.
    pub fn remaining(&self) -> u64 {
        self.game.remaining_candidates()
    }

    /// What a hint needs; asking marks the game assisted (unless the variant is too large for the computer, in
    /// which case the request will only explain that).
    pub fn hint_request(&mut self, store: &mut Store) -> HintRequest {
        if !self.meta.assisted && self.options.variant.code_space_size() <= COMPUTER_LIMIT {
            self.meta.assisted = true;
            self.save(store);
        }
        HintRequest {
            variant: self.options.variant,
            strategy: self.options.strategy,
            history: self.game.history().to_vec(),
        }
    }

    /// Gives up: the game is recorded as given up and the code revealed.
    pub fn give_up(&mut self, store: &mut Store) {
        if self.ended.is_none() {
            self.end("gave up", store);
        }
    }

    /// Whether a guess was made.
    pub fn started(&self) -> bool {
        !self.game.history().is_empty()
    }

    /// The moves in the database's notation.
    pub fn moves(&self) -> String {
        let v = self.variant();
        self.game
            .history()
            .iter()
            .map(|(g, _)| symbols(v, g))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn unfinished(&self) -> Unfinished {
        Unfinished {
            session: self.meta.session.clone(),
            game: GAME.into(),
            variant: self.options.group(),
            options: self.options.to_json(),
            seed: self.game.seed(),
            moves: self.moves(),
            score: self.game.history().len() as i64,
            assisted: self.meta.assisted,
            started_at: self.meta.started_at,
            updated_at: now_ms(),
        }
    }

    /// Saves the game in progress (after every guess).
    pub fn save(&mut self, store: &mut Store) {
        if self.ended.is_none() {
            let u = self.unfinished();
            save_or_discard(store, &u, self.started(), &mut self.storage_error);
        }
    }

    fn end(&mut self, result: &'static str, store: &mut Store) {
        let u = self.unfinished();
        let started = self.started();
        self.ended = Some(record_end(
            store,
            u,
            result,
            started,
            &mut self.storage_error,
        ));
    }
}

/// Rebuilds a codebreaker game from its seed and moves.
pub fn replay_breaker(variant: &Variant, seed: u64, moves: &str) -> Result<Game> {
    let guesses = moves
        .split_whitespace()
        .enumerate()
        .map(|(i, t)| {
            variant
                .parse_pegs(t)
                .map_err(|e| anyhow!("guess {} '{t}': {e}", i + 1))
        })
        .collect::<Result<Vec<_>>>()?;
    Game::replay(*variant, seed, &guesses).map_err(|e| anyhow!("replaying: {e}"))
}

/// Reads codemaker moves (`RGYU:21 ...`) into (guess, answer) pairs.
pub fn parse_maker_moves(variant: &Variant, moves: &str) -> Result<Vec<(Code, Feedback)>> {
    moves
        .split_whitespace()
        .enumerate()
        .map(|(i, t)| {
            let (code, fb) = t
                .split_once(':')
                .ok_or_else(|| anyhow!("move {} '{t}': no ':'", i + 1))?;
            let code = variant
                .parse_pegs(code)
                .map_err(|e| anyhow!("move {} '{t}': {e}", i + 1))?;
            let digits: Vec<u8> = fb
                .chars()
                .map(|c| c.to_digit(10).map(|d| d as u8))
                .collect::<Option<_>>()
                .ok_or_else(|| anyhow!("move {} '{t}': bad answer", i + 1))?;
            let [black, white] = digits[..] else {
                return Err(anyhow!("move {} '{t}': bad answer", i + 1));
            };
            let fb = Feedback::new(black, white, variant.pegs()).map_err(|e| anyhow!("{e}"))?;
            Ok((code, fb))
        })
        .collect()
}

/// What the computer as codebreaker did with an answer.
#[derive(Clone, Debug, PartialEq)]
pub enum MakerEvent {
    /// The answer was recorded; the computer guesses on.
    Recorded,
    /// The game ended (see [`MakerSession::ended`]).
    Ended,
}

/// The player as codemaker: the computer guesses, the player answers.
pub struct MakerSession {
    /// The computer.
    pub breaker: Breaker,
    /// Its options.
    pub options: Options,
    /// Bookkeeping.
    pub meta: Meta,
    /// Set once the game is over and recorded.
    pub ended: Option<Ending>,
    /// The last storage problem, to show once.
    pub storage_error: Option<String>,
}

impl MakerSession {
    /// A new game (the computer's strategy tree is built here on seed and classic).
    pub fn new(options: Options) -> Result<MakerSession> {
        let breaker =
            breaker_for(&options.variant, options.strategy, &[]).map_err(|e| anyhow!(e))?;
        Ok(MakerSession {
            breaker,
            options,
            meta: Meta::new(),
            ended: None,
            storage_error: None,
        })
    }

    /// Takes over a saved game, replaying its answers.
    pub fn resume(saved: &Unfinished) -> Result<MakerSession> {
        let options = Options::from_json(&saved.options)?;
        let history = parse_maker_moves(&options.variant, &saved.moves)?;
        let breaker =
            breaker_for(&options.variant, options.strategy, &history).map_err(|e| anyhow!(e))?;
        Ok(MakerSession {
            breaker,
            options,
            meta: meta_of(saved),
            ended: None,
            storage_error: None,
        })
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.options.variant
    }

    /// The computer's next guess (may take a moment on large variants: see [`MakerSession::guess_job`]).
    pub fn next_guess(&self) -> Code {
        self.breaker.next_guess()
    }

    /// Computes the next guess on a background thread; poll the receiver.
    pub fn guess_job(&self) -> mpsc::Receiver<Code> {
        let b = self.breaker.clone();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(b.next_guess());
        });
        rx
    }

    /// The answer the typed secret gives to `guess`, if the player typed one.
    pub fn auto_answer(&self, guess: Code) -> Option<Feedback> {
        self.options.secret.map(|s| mastermind::feedback(s, guess))
    }

    /// Records the player's answer to `guess`. A contradiction is refused (nothing changes) and described.
    pub fn answer(
        &mut self,
        guess: Code,
        fb: Feedback,
        store: &mut Store,
    ) -> Result<MakerEvent, AnswerError> {
        self.breaker.record(guess, fb)?;
        let used = self.breaker.history().len() as u32;
        if fb.is_win(self.variant().pegs()) {
            // The computer found the code: the player, as codemaker, lost.
            self.end("lost", store);
            Ok(MakerEvent::Ended)
        } else if used >= self.variant().guesses() {
            self.end("won", store);
            Ok(MakerEvent::Ended)
        } else {
            self.save(store);
            Ok(MakerEvent::Recorded)
        }
    }

    /// Replaces the answer at `index` (0-based). Refused, changing nothing, if the answers would contradict.
    pub fn correct(
        &mut self,
        index: usize,
        fb: Feedback,
        store: &mut Store,
    ) -> Result<(), AnswerError> {
        self.breaker.correct(index, fb)?;
        self.save(store);
        Ok(())
    }

    /// Codes that still fit every answer.
    pub fn remaining(&self) -> usize {
        self.breaker.remaining()
    }

    /// Gives up: recorded as given up.
    pub fn give_up(&mut self, store: &mut Store) {
        if self.ended.is_none() {
            self.end("gave up", store);
        }
    }

    /// Whether an answer was given.
    pub fn started(&self) -> bool {
        !self.breaker.history().is_empty()
    }

    /// The moves in the database's notation.
    pub fn moves(&self) -> String {
        maker_moves(self.variant(), self.breaker.history())
    }

    fn unfinished(&self) -> Unfinished {
        Unfinished {
            session: self.meta.session.clone(),
            game: GAME.into(),
            variant: self.options.group(),
            options: self.options.to_json(),
            seed: 0,
            moves: self.moves(),
            score: self.breaker.history().len() as i64,
            assisted: self.meta.assisted,
            started_at: self.meta.started_at,
            updated_at: now_ms(),
        }
    }

    /// Saves the game in progress (after every answer).
    pub fn save(&mut self, store: &mut Store) {
        if self.ended.is_none() {
            let u = self.unfinished();
            save_or_discard(store, &u, self.started(), &mut self.storage_error);
        }
    }

    fn end(&mut self, result: &'static str, store: &mut Store) {
        let u = self.unfinished();
        let started = self.started();
        self.ended = Some(record_end(
            store,
            u,
            result,
            started,
            &mut self.storage_error,
        ));
    }
}

/// Codemaker moves as text: `RGYU:21 ...`.
pub fn maker_moves(variant: &Variant, history: &[(Code, Feedback)]) -> String {
    history
        .iter()
        .map(|(g, fb)| format!("{}:{}{}", symbols(variant, g), fb.black, fb.white))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A Mastermind game in progress of either role, as read back from the database.
pub enum Resumed {
    /// Codebreaker.
    Breaker(Session),
    /// Codemaker.
    Maker(MakerSession),
}

/// Rebuilds a saved game of either role.
pub fn resume(saved: &Unfinished) -> Result<Resumed> {
    let options = Options::from_json(&saved.options)?;
    Ok(match options.role {
        Role::Breaker => Resumed::Breaker(Session::resume(saved)?),
        Role::Maker => Resumed::Maker(MakerSession::resume(saved)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_round_trip_through_json() {
        let mut o = Options::new(Variant::CLASSIC, Role::Maker);
        o.secret = Some(Variant::CLASSIC.parse_code("1 1 2 3").unwrap());
        assert_eq!(Options::from_json(&o.to_json()).unwrap(), o);
        assert_eq!(o.group(), "classic (maker)");
        let c = Options::new(
            Variant::custom(7, 3, 9, false, true).unwrap(),
            Role::Breaker,
        );
        assert_eq!(Options::from_json(&c.to_json()).unwrap(), c);
    }

    #[test]
    fn a_breaker_game_autosaves_and_resumes() {
        let mut store = Store::in_memory().unwrap();
        let mut s = Session::new(Options::new(Variant::SEED, Role::Breaker), 5);
        assert!(s.guess_text("1 2 3", &mut store).is_err());
        s.guess_text("1 2 3 4", &mut store).unwrap();
        s.guess_text("r y o bla", &mut store).unwrap();
        let saved = store.unfinished(Some(GAME)).unwrap();
        assert_eq!(saved.len(), 1);
        let r = Session::resume(&saved[0]).unwrap();
        assert_eq!(r.game.history(), s.game.history());
        assert_eq!(r.game.reveal(), s.game.reveal());
    }

    #[test]
    fn maker_moves_round_trip() {
        let v = Variant::CLASSIC;
        let h = vec![(
            v.parse_code("1 1 2 2").unwrap(),
            Feedback { black: 1, white: 2 },
        )];
        assert_eq!(maker_moves(&v, &h), "RRGG:12");
        assert_eq!(parse_maker_moves(&v, "RRGG:12").unwrap(), h);
        assert!(parse_maker_moves(&v, "RRGG:1").is_err());
    }
}
