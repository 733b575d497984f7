//! A game of Mastermind in play: its moves, its state on either side, reading and playing a move.

use super::{Role, codes_fit, symbols};
use crate::mid::game::Applied;
use mastermind::{AnswerError, Breaker, Code, Feedback, Strategy, Variant, feedback};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// Codebreaker: a guess.
    Guess(Code),
    /// Codemaker: the answer to the computer's guess.
    Answer {
        /// The computer's guess.
        guess: Code,
        /// Its answer.
        answer: Feedback,
    },
    /// Codemaker: a corrected answer to an earlier guess (0-based index).
    Fix {
        /// Which answer (0-based).
        index: usize,
        /// The right answer.
        answer: Feedback,
    },
    /// Codemaker: the code typed (hidden) before the first guess; the computer then scores its own guesses.
    Secret(Code),
}

/// One move: what it does, in a variant (which says how its codes are written).
#[derive(Clone, Copy, Debug)]
pub struct Move {
    /// What it does.
    pub play: Play,
    /// The variant its codes belong to.
    pub variant: Variant,
    /// What a hint knows beside the move (codes left, guesses expected): not part of the move's text or identity.
    pub info: Option<(u64, f64)>,
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.play == other.play && self.variant == other.variant
    }
}

impl Move {
    /// A move of `variant`.
    pub fn new(play: Play, variant: Variant) -> Move {
        Move {
            play,
            variant,
            info: None,
        }
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = &self.variant;
        match self.play {
            Play::Guess(c) => f.write_str(&symbols(v, &c)),
            Play::Answer { guess, answer } => {
                write!(f, "{}:{}{}", symbols(v, &guess), answer.black, answer.white)
            }
            Play::Fix { index, answer } => {
                write!(f, "fix{}:{}{}", index + 1, answer.black, answer.white)
            }
            Play::Secret(c) => write!(f, "code:{}", symbols(v, &c)),
        }
    }
}

/// The computer's next guess as codemaker's opponent, worked out once per position (on a background thread in
/// the full screen, so that large variants do not stall it).
#[derive(Default)]
pub(super) struct NextGuess {
    cell: OnceLock<Code>,
    started: AtomicBool,
}

/// One side of a game in progress.
#[derive(Clone, Debug)]
pub enum Side {
    /// Codebreaker: the engine's game (it holds the secret).
    Breaker(mastermind::Game),
    /// Codemaker: the answers so far, checked for contradictions.
    Maker {
        /// The computer's book of answers (guess, answer) and the codes that fit them.
        book: Breaker,
        /// The code the player typed, if any.
        secret: Option<Code>,
    },
}

/// A Mastermind game in progress.
#[derive(Clone)]
pub struct State {
    /// The variant.
    pub variant: Variant,
    /// The computer's strategy.
    pub strategy: Strategy,
    /// The player's side.
    pub side: Side,
    /// The computer's next guess (codemaker), worked out once.
    pub(super) next: Arc<NextGuess>,
}

impl State {
    /// The role played.
    pub fn role(&self) -> Role {
        match self.side {
            Side::Breaker(_) => Role::Breaker,
            Side::Maker { .. } => Role::Maker,
        }
    }

    /// The guesses so far with their answers.
    pub fn history(&self) -> &[(Code, Feedback)] {
        match &self.side {
            Side::Breaker(g) => g.history(),
            Side::Maker { book, .. } => book.history(),
        }
    }

    /// Codemaker: the code the player typed, if any.
    pub fn typed_secret(&self) -> Option<Code> {
        match &self.side {
            Side::Maker { secret, .. } => *secret,
            Side::Breaker(_) => None,
        }
    }

    /// The code to show once the game is over: the computer's secret, the code the player typed, or the code the
    /// computer found.
    pub fn revealed(&self) -> Option<Code> {
        match &self.side {
            Side::Breaker(g) => Some(g.reveal()),
            Side::Maker { book, secret } => secret.or_else(|| book.solved()),
        }
    }

    /// How many codes still fit every answer.
    pub fn remaining(&self) -> u64 {
        match &self.side {
            Side::Breaker(g) => g.remaining_candidates(),
            Side::Maker { book, .. } => book.remaining() as u64,
        }
    }

    /// Whether the code was found.
    pub fn found(&self) -> bool {
        let pegs = self.variant.pegs();
        self.history().last().is_some_and(|(_, fb)| fb.is_win(pegs))
    }

    /// Whether every guess allowed was used.
    pub fn out_of_guesses(&self) -> bool {
        self.history().len() as u64 >= u64::from(self.variant.guesses())
    }

    /// Codemaker: the computer's next guess if it is worked out already.
    pub fn ready_guess(&self) -> Option<Code> {
        self.next.cell.get().copied()
    }

    /// Codemaker: the computer's next guess (worked out now if needed: may take a moment on large variants).
    pub fn next_guess(&self) -> Option<Code> {
        let Side::Maker { book, .. } = &self.side else {
            return None;
        };
        Some(*self.next.cell.get_or_init(|| {
            strategy_breaker(&self.variant, self.strategy, book.history())
                .map(|b| b.next_guess())
                .unwrap_or_else(|_| book.next_guess())
        }))
    }

    /// Codemaker: starts working out the computer's next guess on a background thread (once per position).
    pub fn prefetch(&self) {
        if self.role() == Role::Maker
            && self.next.cell.get().is_none()
            && !self.next.started.swap(true, Ordering::Relaxed)
        {
            let me = self.clone();
            crate::host::runner().run(Box::new(move || {
                me.next_guess();
            }));
        }
    }
}

/// A breaker playing `strategy` that has heard every answer of `history`.
pub(super) fn strategy_breaker(
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

/// Reads a move ([`Game::parse_move`]); the refusal as words.
pub(super) fn read_move(state: &State, text: &str) -> Result<Move, String> {
    let v = state.variant;
    let text = text.trim();
    let mv = |play| Ok(Move::new(play, v));
    let answer = |t: &str| -> Result<Feedback, String> {
        let digits: Vec<u8> = t
            .chars()
            .map(|c| c.to_digit(10).map(|d| d as u8))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("'{t}' is not an answer (two digits: black, white)"))?;
        let [black, white] = digits[..] else {
            return Err(format!("'{t}' is not an answer (two digits: black, white)"));
        };
        Feedback::new(black, white, v.pegs()).map_err(|e| e.to_string())
    };
    match state.role() {
        Role::Breaker => mv(Play::Guess(v.parse_pegs(text).map_err(|e| e.to_string())?)),
        Role::Maker => {
            let lower = text.to_ascii_lowercase();
            if let Some(code) = lower.strip_prefix("code:") {
                return mv(Play::Secret(
                    v.parse_secret(code).map_err(|e| e.to_string())?,
                ));
            }
            if let Some(rest) = lower.strip_prefix("fix") {
                let (n, fb) = rest
                    .split_once(':')
                    .ok_or_else(|| format!("'{text}' is not a correction (fixN:BW)"))?;
                let index = n
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| n.checked_sub(1))
                    .ok_or_else(|| format!("'{n}' is not an answer's number"))?;
                return mv(Play::Fix {
                    index,
                    answer: answer(fb)?,
                });
            }
            let (code, fb) = text
                .split_once(':')
                .ok_or_else(|| format!("'{text}' is not an answer (GUESS:BW, e.g. RGYU:21)"))?;
            mv(Play::Answer {
                guess: v.parse_pegs(code).map_err(|e| e.to_string())?,
                answer: answer(fb)?,
            })
        }
    }
}

/// Plays a move ([`Game::apply`]); the refusal as words.
pub(super) fn play(state: &mut State, mv: &Move) -> Result<Applied, String> {
    if mv.variant != state.variant {
        return Err("that move belongs to another variant".into());
    }
    let pegs = state.variant.pegs();
    let note = match (&mut state.side, mv.play) {
        (Side::Breaker(g), Play::Guess(code)) => {
            let fb = g.guess(code).map_err(|e| e.to_string())?;
            format!("{} black, {} white", fb.black, fb.white)
        }
        (Side::Maker { book, secret }, Play::Answer { guess, answer }) => {
            if book.history().len() as u64 >= u64::from(state.variant.guesses()) {
                return Err("the computer has used every guess".into());
            }
            if let Some(s) = secret {
                let right = feedback(*s, guess);
                if right != answer {
                    return Err(format!(
                        "your code answers {} black, {} white",
                        right.black, right.white
                    ));
                }
            }
            book.record(guess, answer).map_err(answer_error)?;
            let left = book.remaining() as u64;
            if answer.is_win(pegs) {
                "code found".into()
            } else {
                codes_fit(left, "your answers")
            }
        }
        (Side::Maker { book, .. }, Play::Fix { index, answer }) => {
            if book.solved().is_some() {
                return Err("the code is already found".into());
            }
            book.correct(index, answer).map_err(answer_error)?;
            format!(
                "answer {} corrected · {}",
                index + 1,
                codes_fit(book.remaining() as u64, "your answers")
            )
        }
        (Side::Maker { book, secret }, Play::Secret(code)) => {
            if !book.history().is_empty() || secret.is_some() {
                return Err("the code can only be typed before the first guess".into());
            }
            state
                .variant
                .validate_secret(&code)
                .map_err(|e| e.to_string())?;
            *secret = Some(code);
            "code taken: the computer scores its own guesses".into()
        }
        (Side::Breaker(_), _) => return Err("as codebreaker, a move is a guess".into()),
        (Side::Maker { .. }, Play::Guess(_)) => {
            return Err("as codemaker, a move answers the computer's guess".into());
        }
    };
    state.next = Arc::default();
    Ok(Applied {
        note: Some(note),
        milestone: None,
    })
}

/// The answers to `guess` that some code fitting every earlier answer would give, most blacks first.
pub fn fitting_answers(book: &Breaker, guess: Code) -> Vec<Feedback> {
    let mut fits: Vec<Feedback> = book
        .candidates()
        .into_iter()
        .map(|c| feedback(c, guess))
        .collect();
    fits.sort_by(|a, b| b.cmp(a));
    fits.dedup();
    fits
}

pub(super) fn answer_error(e: AnswerError) -> String {
    match e {
        AnswerError::Contradiction(c) => format!("{c}"),
        e => e.to_string(),
    }
}

/// The suspects of a contradiction, if `mv` would cause one in `state` (0-based answers that may be wrong; the
/// answer itself when no single earlier one explains it).
pub fn contradiction(state: &State, mv: &Move) -> Option<Vec<usize>> {
    let Side::Maker { book, .. } = &state.side else {
        return None;
    };
    let mut b = book.clone();
    let r = match mv.play {
        Play::Answer { guess, answer } => b.record(guess, answer),
        Play::Fix { index, answer } => b.correct(index, answer),
        _ => return None,
    };
    match r {
        Err(AnswerError::Contradiction(c)) => Some(if c.suspects.is_empty() {
            vec![c.answer]
        } else {
            c.suspects
        }),
        _ => None,
    }
}
