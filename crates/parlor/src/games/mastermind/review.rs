//! The review of a finished Mastermind game as codebreaker (the coach, docs/REVIEW.md): per guess, the codes still
//! possible before and after it, the expected number of guesses still needed under the optimal strategy where its
//! tree can be had (seed, classic and small variants; the best tree known on Super; the entropy heuristic beyond),
//! against the best guess there, the information the answer gave (`log2` of the codes possible before over those
//! after) against the most any guess was expected to give there (the largest expected information, the entropy of
//! the split by answers, over every allowed guess: [`mastermind::Breaker::most_information`]), and whether the guess
//! could have been the secret.
//! The marks' thresholds are RULES.md's (Mastermind, "Reviews").

use super::state::strategy_breaker;
use super::{Mastermind, Role, State};
use crate::mid::error::Error;
use crate::mid::game::Game;
use crate::mid::review::{Figure, Review, Reviewed, Thresholds, finish};
use mastermind::{Breaker, Code, Feedback, Strategy, Variant, builds_tree_at_once, feedback};

/// The loss in expected guesses that marks a guess.
pub const THRESHOLDS: Thresholds = Thresholds {
    inaccuracy: 0.05,
    mistake: 0.2,
    blunder: 0.5,
};

/// The strategy a variant's guesses are judged by, and whether its values are exact: the optimal tree where the
/// engine builds it at once, the best tree known where there is one (Super), else the entropy heuristic.
pub fn judge(variant: &Variant) -> (Strategy, bool) {
    if builds_tree_at_once(variant, Strategy::Optimal) {
        (Strategy::Optimal, true)
    } else if Strategy::Best.resolved(variant) == Strategy::Best {
        (Strategy::Best, false)
    } else {
        (Strategy::Entropy, false)
    }
}

/// The expected number of guesses to find the code from `b`'s position when `guess` is played now and the
/// strategy plays on (this guess included), and the candidates each answer leaves.
fn expected_with(b: &Breaker, guess: Code, pegs: u8) -> f64 {
    let cands = b.candidates();
    let n = cands.len().max(1) as f64;
    let mut groups: Vec<(Feedback, usize)> = Vec::new();
    for &s in &cands {
        let fb = feedback(s, guess);
        match groups.iter_mut().find(|(f, _)| *f == fb) {
            Some(g) => g.1 += 1,
            None => groups.push((fb, 1)),
        }
    }
    let mut total = 1.0;
    for (fb, count) in groups {
        if fb.is_win(pegs) {
            continue;
        }
        let mut child = b.clone();
        if child.record(guess, fb).is_ok() {
            total += count as f64 / n * child.expected_guesses_left();
        }
    }
    total
}

/// Reviews the codebreaker's game played from `start` by `moves` (see [`Game::review`]).
pub fn review(
    start: &State,
    moves: &[super::Move],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, Error> {
    if start.role() != Role::Breaker {
        return Err(Error::Record(
            "a codemaker game has no guesses of the player's to review".into(),
        ));
    }
    let mut state = start.clone();
    for mv in moves {
        Mastermind::apply(&mut state, mv)?;
    }
    let v = state.variant;
    let pegs = v.pegs();
    let history = state.history().to_vec();
    let (strategy, exact) = judge(&v);
    let mut reviewed = Vec::with_capacity(history.len());
    let mut boards = Vec::with_capacity(history.len());
    for (i, &(guess, fb)) in history.iter().enumerate() {
        let b = strategy_breaker(&v, strategy, &history[..i]).map_err(Error::Record)?;
        let n = b.remaining();
        let best = b.next_guess();
        let before = b.expected_guesses_left();
        let played = expected_with(&b, guess, pegs);
        let loss = if guess == best {
            0.0
        } else {
            (played - before).max(0.0)
        };
        let left = strategy_breaker(&v, strategy, &history[..=i])
            .map_err(Error::Record)?
            .remaining();
        let consistent = b.candidates().contains(&guess);
        let left = if fb.is_win(pegs) { 1 } else { left };
        let bits = (n as f64 / left.max(1) as f64).log2();
        let expected = b.expected_information(&guess);
        let most = b.most_information().map_or(0.0, |(most, _)| most);
        let mut note = format!(
            "{n} {} possible before, {left} after: {bits:.2} bits gained ({expected:.2} expected)",
            if n == 1 { "code" } else { "codes" },
        );
        if !consistent && loss > 0.0 && b.candidates().contains(&best) {
            note.push_str("; it could not be the secret, and a code that could was better");
        }
        let text = |c: &Code| super::symbols(&v, c);
        reviewed.push(Reviewed {
            number: i + 1,
            side: None,
            played: text(&guess),
            best: vec![text(&best)],
            before: format!("{before:.3} guesses"),
            after: format!("{:.3} guesses", played - 1.0),
            loss,
            mark: THRESHOLDS.mark(loss),
            note,
            board: String::new(),
            figures: vec![Figure {
                name: "information".into(),
                played: bits,
                best: most,
                unit: "bits".into(),
            }],
        });
        let past: Vec<String> = history[..i]
            .iter()
            .map(|(g, f)| format!("{}:{}{}", text(g), f.black, f.white))
            .collect();
        boards.push(past.join(" "));
        progress(i + 1, history.len());
    }
    let method = if exact {
        "exact: the optimal strategy tree".to_string()
    } else {
        format!("estimate: the {strategy} strategy")
    };
    Ok(finish::<Mastermind>(
        reviewed, &boards, method, exact, "guesses",
    ))
}

#[cfg(test)]
mod tests {
    use super::super::Play;
    use super::*;
    use crate::mid::review::Mark;

    /// Classic, seed 5: the optimal tree's first guess, then that same guess again, which can gain nothing (every
    /// code gives the same answer again): it costs exactly one more guess than the tree's second guess, a blunder
    /// (RULES.md, Mastermind, "Reviews"); the tree's own guesses after it are no mark.
    #[test]
    fn a_second_guess_worse_than_the_optimal_trees_is_a_blunder() {
        let params = super::super::Params::of(Variant::CLASSIC, Role::Breaker);
        let start = Mastermind::new_game(&params, 5).unwrap();
        let v = Variant::CLASSIC;
        let first = Breaker::new(&v, Strategy::Optimal).unwrap().next_guess();
        let mut state = start.clone();
        let mut moves = Vec::new();
        for i in 0..8 {
            let guess = if i == 1 {
                first
            } else {
                strategy_breaker(&v, Strategy::Optimal, state.history())
                    .unwrap()
                    .next_guess()
            };
            let mv = super::super::Move::new(Play::Guess(guess), v);
            Mastermind::apply(&mut state, &mv).unwrap();
            moves.push(mv);
            if Mastermind::status(&state)
                != crate::mid::game::Status::Playing(crate::mid::game::Turn::Player)
            {
                break;
            }
        }
        let r = review(&start, &moves, &mut |_, _| {}).unwrap();
        assert!(r.exact);
        let second = &r.moves[1];
        assert_eq!(second.mark, Mark::Blunder, "{second:?}");
        assert!((second.loss - 1.0).abs() < 1e-9, "{second:?}");
        assert!(second.note.contains("0.00 bits gained"), "{second:?}");
        // The information figure: nothing gained where the tree's second guess was expected to give the most there.
        let info = &second.figures[0];
        assert_eq!((info.name.as_str(), info.played), ("information", 0.0));
        let most = strategy_breaker(&v, Strategy::Optimal, &state.history()[..1])
            .unwrap()
            .most_information()
            .unwrap()
            .0;
        assert!(
            info.best > 1.0 && (info.best - most).abs() < 1e-12,
            "{info:?}"
        );
        // The first guess: classic's 1296 codes, at most 3.06 bits expected of any first guess.
        let first = &r.moves[0].figures[0];
        assert!((first.best - 3.0567).abs() < 1e-3, "{first:?}");
        assert!(first.played <= (1296f64).log2(), "{first:?}");
        assert!(
            second.note.contains("could not be the secret"),
            "{second:?}"
        );
        assert_eq!(r.moves[0].mark, Mark::None);
        assert!(
            r.moves[2..].iter().all(|m| m.mark == Mark::None),
            "{:?}",
            r.moves
        );
        assert_eq!(r.worst().map(|w| w.number), Some(2));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 16, ..Default::default() })]

        /// A classic game played by the optimal tree gets no mark, and the review leaves the game as it was.
        #[test]
        fn the_optimal_trees_own_game_gets_no_mark(seed in proptest::prelude::any::<u64>()) {
            let v = Variant::CLASSIC;
            let start = Mastermind::new_game(&super::super::Params::of(v, Role::Breaker), seed).unwrap();
            let mut state = start.clone();
            let mut moves = Vec::new();
            let playing = crate::mid::game::Status::Playing(crate::mid::game::Turn::Player);
            while Mastermind::status(&state) == playing && moves.len() < 10 {
                let guess = strategy_breaker(&v, Strategy::Optimal, state.history()).unwrap().next_guess();
                let mv = super::super::Move::new(Play::Guess(guess), v);
                Mastermind::apply(&mut state, &mv).unwrap();
                moves.push(mv);
            }
            let (score, history) = (Mastermind::score(&state), state.history().to_vec());
            let r = review(&start, &moves, &mut |_, _| {}).unwrap();
            proptest::prop_assert!(r.moves.iter().all(|m| m.mark == Mark::None && m.loss == 0.0), "{:?}", r.moves);
            proptest::prop_assert_eq!(Mastermind::score(&state), score);
            proptest::prop_assert_eq!(state.history(), &history[..]);
        }
    }
}
