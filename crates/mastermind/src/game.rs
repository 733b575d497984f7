//! The player's game as codebreaker: a secret drawn from a seed, guesses, feedback, win or loss.

use std::fmt;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use thiserror::Error;

use crate::code::{Code, CodeError};
use crate::feedback::{Feedback, feedback};
use crate::variant::Variant;

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Guesses are still allowed.
    Playing,
    /// The secret was found.
    Won,
    /// The guesses are used up.
    Lost,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Playing => "playing",
            Status::Won => "won",
            Status::Lost => "lost",
        })
    }
}

/// Why a guess was refused (a refused guess costs nothing).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GuessError {
    /// The game is over.
    #[error("the game is over ({0})")]
    Over(Status),
    /// The guess is not a legal code of the variant.
    #[error("{0}")]
    Code(#[from] CodeError),
}

/// A game with the player as codebreaker.
///
/// ```
/// use mastermind::{Game, Status, Variant};
/// let mut game = Game::new(Variant::default(), 42);
/// let fb = game.guess_text("1 2 3 4").unwrap();
/// assert!(fb.black + fb.white <= 4);
/// assert!(game.guess_text("1 2 3").is_err()); // refused, costs nothing
/// assert_eq!(game.history().len(), 1);
/// assert_eq!(game.status(), if fb.black == 4 { Status::Won } else { Status::Playing });
/// let again = Game::replay_text(Variant::default(), 42, &game.moves_text()).unwrap();
/// assert_eq!(again.history(), game.history());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    variant: Variant,
    seed: u64,
    secret: Code,
    history: Vec<(Code, Feedback)>,
}

/// Uniform in `0..n` (n >= 1) by rejection, so it is exact and portable.
fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    let zone = u32::MAX - (u32::MAX - n + 1) % n;
    loop {
        let x = rng.next_u32();
        if x <= zone {
            return x % n;
        }
    }
}

/// The secret a seed gives: with repeats each peg uniform; without, a uniform draw without replacement.
pub fn secret_from_seed(variant: &Variant, seed: u64) -> Code {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let c = u32::from(variant.colours());
    let p = usize::from(variant.pegs());
    let mut pegs = [0u8; 8];
    if variant.secret_repeats() {
        for peg in pegs.iter_mut().take(p) {
            *peg = below(&mut rng, c) as u8;
        }
    } else {
        let mut pool: Vec<u8> = (0..variant.colours()).collect();
        for (i, peg) in pegs.iter_mut().enumerate().take(p) {
            let j = i + below(&mut rng, c - i as u32) as usize;
            pool.swap(i, j);
            *peg = pool[i];
        }
    }
    Code::from_pegs_lossy(&pegs[..p])
}

impl Game {
    /// A new game whose secret is drawn with `ChaCha8Rng::seed_from_u64(seed)`.
    pub fn new(variant: Variant, seed: u64) -> Game {
        Game {
            variant,
            seed,
            secret: secret_from_seed(&variant, seed),
            history: Vec::new(),
        }
    }

    /// A game with a chosen secret (tests, puzzles). The seed is recorded as 0.
    pub fn with_secret(variant: Variant, secret: Code) -> Result<Game, CodeError> {
        variant.validate_secret(&secret)?;
        Ok(Game {
            variant,
            seed: 0,
            secret,
            history: Vec::new(),
        })
    }

    /// Replays a game from its seed and guesses.
    pub fn replay(variant: Variant, seed: u64, guesses: &[Code]) -> Result<Game, GuessError> {
        let mut game = Game::new(variant, seed);
        for &g in guesses {
            game.guess(g)?;
        }
        Ok(game)
    }

    /// Replays a game from its seed and the text of [`Game::moves_text`] (guesses separated by `;`).
    pub fn replay_text(variant: Variant, seed: u64, moves: &str) -> Result<Game, GuessError> {
        let mut game = Game::new(variant, seed);
        for m in moves.split(';').map(str::trim).filter(|m| !m.is_empty()) {
            game.guess_text(m)?;
        }
        Ok(game)
    }

    /// The guesses as text, separated by `; ` (each as [`Variant::display`] writes it).
    pub fn moves_text(&self) -> String {
        self.history
            .iter()
            .map(|(g, _)| self.variant.display(g).to_string())
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Plays a guess: its feedback, or an error that leaves the game untouched.
    pub fn guess(&mut self, code: Code) -> Result<Feedback, GuessError> {
        if self.status() != Status::Playing {
            return Err(GuessError::Over(self.status()));
        }
        self.variant.validate_guess(&code)?;
        let fb = feedback(self.secret, code);
        self.history.push((code, fb));
        Ok(fb)
    }

    /// Parses a guess with [`Variant::parse_code`] and plays it.
    pub fn guess_text(&mut self, text: &str) -> Result<Feedback, GuessError> {
        if self.status() != Status::Playing {
            return Err(GuessError::Over(self.status()));
        }
        let code = self.variant.parse_code(text)?;
        self.guess(code)
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The seed the secret was drawn from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The (guess, feedback) pairs so far.
    pub fn history(&self) -> &[(Code, Feedback)] {
        &self.history
    }

    /// Playing, won or lost.
    pub fn status(&self) -> Status {
        let pegs = self.variant.pegs();
        if self.history.last().is_some_and(|(_, fb)| fb.is_win(pegs)) {
            Status::Won
        } else if self.history.len() as u64 >= u64::from(self.variant.guesses()) {
            Status::Lost
        } else {
            Status::Playing
        }
    }

    /// Guesses still allowed.
    pub fn guesses_left(&self) -> u32 {
        self.variant
            .guesses()
            .saturating_sub(self.history.len() as u32)
    }

    /// The secret, once the game is over.
    pub fn secret(&self) -> Option<Code> {
        (self.status() != Status::Playing).then_some(self.secret)
    }

    /// The secret even during play (for a "give up" or for tests).
    pub fn reveal(&self) -> Code {
        self.secret
    }

    /// How many possible secrets fit every feedback so far.
    pub fn remaining_candidates(&self) -> u64 {
        count_consistent(&self.variant, &self.history)
    }
}

/// Counts the possible secrets of `variant` consistent with `history`, by a depth-first walk that
/// prunes on the black counts.
pub fn count_consistent(variant: &Variant, history: &[(Code, Feedback)]) -> u64 {
    fn walk(
        v: &Variant,
        history: &[(Code, Feedback)],
        pegs: &mut [u8; 8],
        k: usize,
        used: u16,
        blacks: &mut [u8],
    ) -> u64 {
        let p = usize::from(v.pegs());
        if k == p {
            let code = match Code::from_pegs(&pegs[..p]) {
                Some(c) => c,
                None => return 0,
            };
            return u64::from(history.iter().all(|(g, fb)| feedback(code, *g) == *fb));
        }
        let mut count = 0;
        for c in 0..v.colours() {
            if !v.secret_repeats() && used & (1 << c) != 0 {
                continue;
            }
            pegs[k] = c;
            let mut ok = true;
            for (i, (g, fb)) in history.iter().enumerate() {
                let b = blacks[i] + u8::from(g.pegs()[k] == c);
                blacks[i] = b;
                if b > fb.black || usize::from(b) + (p - k - 1) < usize::from(fb.black) {
                    ok = false;
                }
            }
            if ok {
                count += walk(v, history, pegs, k + 1, used | 1 << c, blacks);
            }
            for (i, (g, _)) in history.iter().enumerate() {
                blacks[i] -= u8::from(g.pegs()[k] == c);
            }
        }
        count
    }
    let mut blacks = vec![0u8; history.len()];
    walk(variant, history, &mut [0; 8], 0, 0, &mut blacks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_secrets_are_legal_and_spread() {
        for (_, v) in Variant::PRESETS {
            let mut seen = std::collections::HashSet::new();
            for seed in 0..200 {
                let s = secret_from_seed(&v, seed);
                v.validate_secret(&s).unwrap();
                seen.insert(s);
            }
            assert!(seen.len() > 100);
        }
        assert_eq!(
            secret_from_seed(&Variant::SEED, 7),
            secret_from_seed(&Variant::SEED, 7)
        );
    }

    #[test]
    fn win_loss_and_refusals() {
        let v = Variant::SEED;
        let secret = v.parse_secret("1 2 3 4").unwrap();
        let mut g = Game::with_secret(v, secret).unwrap();
        assert!(matches!(
            g.guess_text("1 2 3"),
            Err(GuessError::Code(CodeError::WrongLength { got: 3, need: 4 }))
        ));
        assert_eq!(g.history().len(), 0);
        assert_eq!(
            g.guess_text("2 2 1 4").unwrap(),
            Feedback { black: 2, white: 1 }
        );
        let brute = v
            .secrets()
            .into_iter()
            .filter(|s| feedback(*s, g.history()[0].0) == g.history()[0].1)
            .count();
        assert_eq!(g.remaining_candidates(), brute as u64);
        assert!(brute > 1);
        assert_eq!(g.secret(), None);
        assert_eq!(
            g.guess_text("r g y u").unwrap(),
            Feedback { black: 4, white: 0 }
        );
        assert_eq!(g.status(), Status::Won);
        assert_eq!(g.secret(), Some(secret));
        assert!(matches!(
            g.guess_text("1 2 3 4"),
            Err(GuessError::Over(Status::Won))
        ));

        let mut lose = Game::with_secret(v, secret).unwrap();
        for _ in 0..8 {
            lose.guess_text("5 5 5 5").unwrap();
        }
        assert_eq!(lose.status(), Status::Lost);
        assert_eq!(lose.secret(), Some(secret));
        assert!(matches!(
            lose.guess_text("1 2 3 4"),
            Err(GuessError::Over(Status::Lost))
        ));
    }

    #[test]
    fn candidates_match_brute_force() {
        let v = Variant::CLASSIC;
        let mut g = Game::new(v, 3);
        g.guess_text("1 1 2 2").unwrap();
        g.guess_text("1 3 4 5").unwrap();
        let brute = v
            .secrets()
            .into_iter()
            .filter(|s| g.history().iter().all(|(c, fb)| feedback(*s, *c) == *fb))
            .count();
        assert_eq!(g.remaining_candidates(), brute as u64);
    }

    #[test]
    fn replay() {
        let v = Variant::BULLS_COWS;
        let mut g = Game::new(v, 99);
        g.guess_text("0123").unwrap();
        g.guess_text("4567").unwrap();
        assert_eq!(g.moves_text(), "0123; 4567");
        assert_eq!(Game::replay_text(v, 99, &g.moves_text()).unwrap(), g);
        let codes: Vec<Code> = g.history().iter().map(|(c, _)| *c).collect();
        assert_eq!(Game::replay(v, 99, &codes).unwrap(), g);
    }
}
