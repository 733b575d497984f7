//! The computer as codebreaker: for the codemaker role and for hints.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use thiserror::Error;

use crate::code::{Code, CodeError};
use crate::feedback::{Feedback, FeedbackError};
use crate::heuristic::Chooser;
use crate::optimal::Search;
use crate::solve::SolveError;
use crate::space::{MAX_SPACE, Space};
use crate::strategy::Strategy;
use crate::sym::Sym;
use crate::tree::StrategyTree;
use crate::variant::Variant;

/// Variants with at most this many secrets get a cached strategy tree (seed, classic).
const TREE_LIMIT: usize = 1296;
/// Candidate sets up to this size get an exact optimal search off the tree.
const OPTIMAL_LIVE: usize = 200;
/// Work budget of one heuristic guess (guesses tried x candidates).
const BUDGET: usize = 30_000_000;
/// Candidate sets up to this size get an exact expected number of guesses.
const EXPECT_LIMIT: usize = 2000;

/// The answers given so far admit no secret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contradiction {
    /// The answer (0-based index in the history) that, with the earlier ones, leaves no code.
    pub answer: usize,
    /// The other answers (0-based) each of which, if it alone were dropped, would make the rest fit.
    /// Empty when no single other answer explains it (then the new answer, or two or more, are wrong).
    pub suspects: Vec<usize>,
}

impl fmt::Display for Contradiction {
    /// Numbers answers from 1 for people.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no code fits all the answers: answer {} contradicts the earlier ones",
            self.answer + 1
        )?;
        if !self.suspects.is_empty() {
            let list: Vec<String> = self.suspects.iter().map(|i| (i + 1).to_string()).collect();
            write!(
                f,
                "; they would fit if answer {} were wrong",
                list.join(" or ")
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Contradiction {}

/// Why an answer was refused (the breaker is left as it was).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AnswerError {
    /// No code fits all the answers.
    #[error("{0}")]
    Contradiction(Contradiction),
    /// The guess is not a legal guess of the variant.
    #[error("bad guess: {0}")]
    Guess(#[from] CodeError),
    /// The feedback is impossible for the variant.
    #[error("bad feedback: {0}")]
    Feedback(#[from] FeedbackError),
    /// There is no answer with that index.
    #[error("there is no answer {0}")]
    NoSuchAnswer(usize),
    /// The code was already found.
    #[error("the code is already found")]
    Solved,
}

/// The computer as codebreaker: proposes guesses with a strategy and narrows the candidates with the
/// answers it is given.
///
/// On seed and classic it follows the strategy's cached tree, so it never needs more guesses than the
/// strategy's worst case (classic: Knuth 5, optimal 6). On larger variants the heuristics score only
/// guesses distinct up to symmetry and, if that is still too much work, only candidates.
///
/// ```
/// use mastermind::{feedback, Breaker, Strategy, Variant};
/// let v = Variant::CLASSIC;
/// let secret = v.parse_code("3 6 2 5").unwrap();
/// let mut b = Breaker::new(&v, Strategy::Knuth).unwrap();
/// let mut guesses = 0;
/// loop {
///     let g = b.next_guess();
///     guesses += 1;
///     let fb = feedback(secret, g);
///     b.record(g, fb).unwrap();
///     if fb.is_win(4) { break; }
/// }
/// assert!(guesses <= 5);
/// ```
#[derive(Clone)]
pub struct Breaker {
    space: Arc<Space>,
    strategy: Strategy,
    history: Vec<(Code, Feedback)>,
    cands: Vec<u32>,
    tree: Option<Arc<StrategyTree>>,
}

impl fmt::Debug for Breaker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Breaker")
            .field("variant", &self.space.variant)
            .field("strategy", &self.strategy)
            .field("history", &self.history)
            .field("remaining", &self.cands.len())
            .finish()
    }
}

type TreeCache = Mutex<HashMap<(Variant, Strategy), Arc<StrategyTree>>>;

/// The trees of this process, by variant and strategy.
fn trees() -> &'static TreeCache {
    static TREES: OnceLock<TreeCache> = OnceLock::new();
    TREES.get_or_init(|| Mutex::new(HashMap::new()))
}

fn cached_tree(variant: Variant, strategy: Strategy) -> Option<Arc<StrategyTree>> {
    let mut map = trees().lock().ok()?;
    if let Some(t) = map.get(&(variant, strategy)) {
        return Some(Arc::clone(t));
    }
    let tree = Arc::new(StrategyTree::build(&variant, strategy).ok()?);
    map.insert((variant, strategy), Arc::clone(&tree));
    Some(tree)
}

/// The tree of `strategy` for `variant` that this process already has (built by a breaker, or given to
/// [`remember_tree`]), without building one.
pub fn known_tree(variant: &Variant, strategy: Strategy) -> Option<Arc<StrategyTree>> {
    trees()
        .lock()
        .ok()?
        .get(&(*variant, strategy))
        .map(Arc::clone)
}

/// Gives every breaker made from now on in this process `tree` for its variant and strategy (a tree built in the
/// background, or read from a file), so that its guesses are lookups.
pub fn remember_tree(tree: Arc<StrategyTree>) {
    if let Ok(mut map) = trees().lock() {
        map.insert((*tree.variant(), tree.strategy()), tree);
    }
}

/// Whether [`Breaker::new`] builds the tree of `strategy` for `variant` itself, at once (the heuristics, and the
/// optimal tree on seed, classic and variants of at most 300 secrets); otherwise it plays from a tree only once one
/// is given to [`remember_tree`].
pub fn builds_tree_at_once(variant: &Variant, strategy: Strategy) -> bool {
    let strategy = strategy.resolved(variant);
    if strategy == Strategy::Best {
        return true; // the stored tree, read once
    }
    variant.secret_count() <= TREE_LIMIT as u64
        && (strategy != Strategy::Optimal
            || matches!(variant.preset_name(), Some("seed" | "classic"))
            || variant.secret_count() <= 300)
}

impl Breaker {
    /// A breaker for `variant` playing `strategy`. Variants up to 65536 codes.
    ///
    /// On seed and classic the strategy tree is built on first use and cached for the process (Optimal on
    /// classic takes about a second, the heuristics a fraction of that).
    pub fn new(variant: &Variant, strategy: Strategy) -> Result<Breaker, SolveError> {
        let strategy = strategy.resolved(variant);
        let space = Space::shared(*variant).ok_or(SolveError::TooLarge {
            codes: variant.code_space_size(),
            limit: MAX_SPACE,
        })?;
        // The optimal tree is known to be quick only on the two 1296-code presets and small variants; others are
        // used once given to `remember_tree`.
        let tree = if builds_tree_at_once(variant, strategy) {
            cached_tree(*variant, strategy)
        } else {
            known_tree(variant, strategy)
        };
        let cands = space.secrets.clone();
        Ok(Breaker {
            space,
            strategy,
            history: Vec::new(),
            cands,
            tree,
        })
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.space.variant
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The (guess, answer) pairs recorded so far.
    pub fn history(&self) -> &[(Code, Feedback)] {
        &self.history
    }

    /// How many codes still fit every answer.
    pub fn remaining(&self) -> usize {
        self.cands.len()
    }

    /// The codes that still fit every answer, in numeric order.
    pub fn candidates(&self) -> Vec<Code> {
        self.cands
            .iter()
            .map(|&i| self.space.codes[i as usize])
            .collect()
    }

    /// The code, once an answer was all black.
    pub fn solved(&self) -> Option<Code> {
        let pegs = self.space.variant.pegs();
        self.history
            .last()
            .filter(|(_, fb)| fb.is_win(pegs))
            .map(|(g, _)| *g)
    }

    fn sym(&self) -> Sym {
        let v = &self.space.variant;
        self.history
            .iter()
            .fold(Sym::root(v.pegs(), v.colours()), |s, (g, _)| s.after(g))
    }

    fn guesses_left(&self) -> u32 {
        self.space
            .variant
            .guesses()
            .saturating_sub(self.history.len() as u32)
            .max(1)
    }

    /// The guess the strategy plays now (the code itself once it is found or is the only one left).
    pub fn next_guess(&self) -> Code {
        let space = &self.space;
        if let Some(code) = self.solved() {
            return code;
        }
        if self.cands.len() == 1 {
            return space.codes[self.cands[0] as usize];
        }
        if let Some(g) = self.tree.as_ref().and_then(|t| t.guess_at(&self.history)) {
            return g;
        }
        let sym = self.sym();
        if self.strategy == Strategy::Optimal
            && self.cands.len() <= OPTIMAL_LIVE
            && space.codes.len() <= 6000
        {
            let mut search = Search::new(space);
            if let Some((_, g)) = search.best_guess(&self.cands, self.guesses_left(), &sym) {
                return space.codes[g as usize];
            }
        }
        let mut chooser = Chooser::new(space, self.strategy);
        let n = self.cands.len();
        let canon = sym.canonical(&space.codes, &space.guesses);
        let g = if canon.len() * n <= BUDGET {
            chooser.choose(&self.cands, &sym)
        } else {
            // Too much work: only candidates as guesses, and not too many of them.
            let take = (BUDGET / n).max(1).min(n);
            chooser.choose_among(&self.cands, &self.cands[..take])
        };
        space.codes[g as usize]
    }

    /// The information `guess` is expected to give now, in bits: the entropy of the split of the candidates by
    /// its answers (`log2 n` less the mean `log2` of the part each secret falls in). 0 for a guess outside the
    /// variant's codes, and once the code is found.
    pub fn expected_information(&self, guess: &Code) -> f64 {
        match self.space.index_of(guess) {
            Some(g) if self.solved().is_none() => {
                let mut counts = vec![0u32; self.space.nclass];
                self.split_information(g, &mut counts)
            }
            _ => 0.0,
        }
    }

    /// The most information any allowed guess is expected to give now, in bits ([`Breaker::expected_information`]
    /// maximised over every allowed guess), and the first guess in numeric order that gives it. Exact: only one guess
    /// of each class of guesses the history's symmetries make equivalent is scored (equivalent guesses split the
    /// candidates alike). `None` once the code is found.
    pub fn most_information(&self) -> Option<(f64, Code)> {
        if self.solved().is_some() {
            return None;
        }
        let space = &self.space;
        let sym = self.sym();
        let canon = sym.canonical(&space.codes, &space.guesses);
        let mut counts = vec![0u32; space.nclass];
        let mut best: Option<(f64, u32)> = None;
        for &g in canon {
            let bits = self.split_information(g, &mut counts);
            // Equal splits give the same sum in the same order: the first in numeric order stays.
            if best.is_none_or(|(b, _)| bits > b + 1e-12) {
                best = Some((bits, g));
            }
        }
        best.map(|(bits, g)| (bits, space.codes[g as usize]))
    }

    /// The entropy in bits of the split of the candidates by guess `g`'s answers (`counts`: scratch, one slot per
    /// answer class).
    fn split_information(&self, g: u32, counts: &mut [u32]) -> f64 {
        let n = self.cands.len();
        if n <= 1 {
            return 0.0;
        }
        self.space.counts(g, &self.cands, counts);
        let nf = n as f64;
        let sum: f64 = counts
            .iter()
            .filter(|&&c| c > 1)
            .map(|&c| f64::from(c) * f64::from(c).log2())
            .sum();
        (nf.log2() - sum / nf).max(0.0)
    }

    /// The expected number of guesses still needed, this one included, if the strategy plays on
    /// (0 once the code is found). Exact on the cached tree and for up to 2000 candidates; beyond, an
    /// estimate.
    pub fn expected_guesses_left(&self) -> f64 {
        if self.solved().is_some() {
            return 0.0;
        }
        if let Some(node) = self.tree.as_ref().and_then(|t| t.node_at(&self.history)) {
            return node.total as f64 / f64::from(node.secrets);
        }
        let n = self.cands.len();
        if n <= 1 {
            return n as f64;
        }
        if n > EXPECT_LIMIT {
            // log base (number of feedback classes - 1), plus the final guess.
            let k = f64::from(self.space.variant.pegs()) + 1.0;
            return 1.0 + (n as f64).ln() / (k * (k + 1.0) / 2.0 - 2.0).ln();
        }
        let mut total = 0u64;
        Breaker::play_out(self, &mut total);
        total as f64 / n as f64
    }

    /// Adds to `total` the guesses needed for every candidate of `b` if the strategy plays on.
    fn play_out(b: &Breaker, total: &mut u64) {
        let g = b.next_guess();
        let Some(gi) = b.space.index_of(&g) else {
            return;
        };
        *total += b.cands.len() as u64;
        let groups = b.space.split(gi, &b.cands);
        for (class, members) in groups {
            let mut child = b.clone();
            child.history.push((g, b.space.feedback_of(class)));
            child.cands = members;
            Breaker::play_out(&child, total);
        }
    }

    fn filter(&self, history: &[(Code, Feedback)]) -> Vec<u32> {
        let space = &self.space;
        let idx: Vec<(u32, u8)> = history
            .iter()
            .filter_map(|(g, fb)| Some((space.index_of(g)?, fb.class(space.variant.pegs()) as u8)))
            .collect();
        space
            .secrets
            .iter()
            .copied()
            .filter(|&s| idx.iter().all(|&(g, c)| space.class(g, s) == c))
            .collect()
    }

    fn contradiction(&self, history: &[(Code, Feedback)], answer: usize) -> Contradiction {
        let suspects = (0..history.len())
            .filter(|&i| i != answer)
            .filter(|&i| {
                let rest: Vec<(Code, Feedback)> = history
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, h)| *h)
                    .collect();
                !self.filter(&rest).is_empty()
            })
            .collect();
        Contradiction { answer, suspects }
    }

    fn check(&self, guess: Code, fb: Feedback) -> Result<(), AnswerError> {
        let v = &self.space.variant;
        v.validate_guess(&guess)?;
        Feedback::new(fb.black, fb.white, v.pegs())?;
        Ok(())
    }

    /// Records the answer to a guess. A contradiction (no code fits every answer) is refused and
    /// described, and the breaker stays as it was.
    pub fn record(&mut self, guess: Code, fb: Feedback) -> Result<(), AnswerError> {
        if self.solved().is_some() {
            return Err(AnswerError::Solved);
        }
        self.check(guess, fb)?;
        let space = &self.space;
        let gi = space
            .index_of(&guess)
            .ok_or(AnswerError::Guess(CodeError::WrongLength {
                got: guess.len(),
                need: usize::from(space.variant.pegs()),
            }))?;
        let class = fb.class(space.variant.pegs()) as u8;
        let cands: Vec<u32> = self
            .cands
            .iter()
            .copied()
            .filter(|&s| space.class(gi, s) == class)
            .collect();
        if cands.is_empty() {
            let mut history = self.history.clone();
            history.push((guess, fb));
            return Err(AnswerError::Contradiction(
                self.contradiction(&history, history.len() - 1),
            ));
        }
        self.history.push((guess, fb));
        self.cands = cands;
        Ok(())
    }

    /// Replaces the answer at `index` (0-based) with `fb`. Refused, leaving the breaker as it was, if
    /// the answers would then contradict each other.
    pub fn correct(&mut self, index: usize, fb: Feedback) -> Result<(), AnswerError> {
        let Some(&(guess, _)) = self.history.get(index) else {
            return Err(AnswerError::NoSuchAnswer(index));
        };
        self.check(guess, fb)?;
        let mut history = self.history.clone();
        history[index].1 = fb;
        // A win can only be the last answer.
        let pegs = self.space.variant.pegs();
        if history[..history.len() - 1]
            .iter()
            .any(|(_, f)| f.is_win(pegs))
        {
            return Err(AnswerError::Contradiction(Contradiction {
                answer: index,
                suspects: Vec::new(),
            }));
        }
        let cands = self.filter(&history);
        if cands.is_empty() {
            return Err(AnswerError::Contradiction(
                self.contradiction(&history, index),
            ));
        }
        self.history = history;
        self.cands = cands;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feedback::feedback;

    fn play(b: &mut Breaker, secret: Code) -> u32 {
        let pegs = b.variant().pegs();
        for n in 1..=20 {
            let g = b.next_guess();
            let fb = feedback(secret, g);
            b.record(g, fb).unwrap();
            if fb.is_win(pegs) {
                return n;
            }
        }
        panic!("not found");
    }

    /// The most information by the symmetry-reduced scan is the brute-force maximum over every allowed guess, at
    /// the start (classic's most informative first guess, 1 2 3 4, is worth 3.057 bits) and
    /// after answers that leave a history with few symmetries.
    #[test]
    fn the_most_information_is_the_maximum_over_every_guess() {
        let v = Variant::CLASSIC;
        let mut b = Breaker::new(&v, Strategy::Entropy).unwrap();
        let secret = v.parse_code("3 6 2 5").unwrap();
        for guess in ["1 1 2 3", "4 1 5 6", "2 6 3 5"] {
            let (most, at) = b.most_information().unwrap();
            let brute = v
                .guess_codes()
                .iter()
                .map(|g| b.expected_information(g))
                .fold(0.0f64, f64::max);
            assert!((most - brute).abs() < 1e-9, "{most} vs {brute}");
            assert!((b.expected_information(&at) - most).abs() < 1e-12);
            if b.history().is_empty() {
                assert!((most - 3.0567).abs() < 1e-3, "{most}");
                assert_eq!(at, v.parse_code("1 2 3 4").unwrap());
            }
            let g = v.parse_code(guess).unwrap();
            b.record(g, feedback(secret, g)).unwrap();
        }
        let g = secret;
        b.record(g, feedback(secret, g)).unwrap();
        assert_eq!(b.most_information(), None);
        assert_eq!(b.expected_information(&g), 0.0);
    }

    #[test]
    fn knuth_finds_every_classic_secret_within_five() {
        let v = Variant::CLASSIC;
        let base = Breaker::new(&v, Strategy::Knuth).unwrap();
        let mut total = 0;
        for secret in v.secrets() {
            let n = play(&mut base.clone(), secret);
            assert!(n <= 5);
            total += n;
        }
        assert_eq!(total, 5801);
    }

    #[test]
    fn contradiction_is_refused_and_explained() {
        let v = Variant::CLASSIC;
        let mut b = Breaker::new(&v, Strategy::Knuth).unwrap();
        let g1 = v.parse_code("1 1 2 2").unwrap();
        b.record(g1, Feedback { black: 0, white: 0 }).unwrap(); // no 1, no 2
        let g2 = v.parse_code("1 3 4 5").unwrap();
        // Claims a black: must be the 1 (impossible) or 3/4/5 in place: fine. Now claim 1 1 1 1 has a black.
        b.record(g2, Feedback { black: 1, white: 0 }).unwrap();
        let before = b.remaining();
        let g3 = v.parse_code("1 1 1 1").unwrap();
        let err = b.record(g3, Feedback { black: 1, white: 0 }).unwrap_err();
        match &err {
            AnswerError::Contradiction(c) => {
                assert_eq!(c.answer, 2);
                assert_eq!(c.suspects, vec![0]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            err.to_string(),
            "no code fits all the answers: answer 3 contradicts the earlier ones; they would fit if answer 1 were wrong"
        );
        assert_eq!(b.remaining(), before);
        assert_eq!(b.history().len(), 2);
        // Fix answer 1 (index 0): there was one RED in place after all.
        b.correct(0, Feedback { black: 1, white: 0 }).unwrap();
        b.record(g3, Feedback { black: 1, white: 0 }).unwrap();
        assert!(b.remaining() > 0);
        // A correction that contradicts is refused.
        assert!(matches!(
            b.correct(0, Feedback { black: 0, white: 0 }),
            Err(AnswerError::Contradiction(_))
        ));
        assert!(matches!(
            b.correct(9, Feedback { black: 0, white: 0 }),
            Err(AnswerError::NoSuchAnswer(9))
        ));
        assert!(matches!(
            b.record(g3, Feedback { black: 3, white: 1 }),
            Err(AnswerError::Feedback(FeedbackError::Impossible {
                black: 3
            }))
        ));
    }

    #[test]
    fn expected_left_on_tree() {
        let b = Breaker::new(&Variant::CLASSIC, Strategy::Knuth).unwrap();
        assert!((b.expected_guesses_left() - 5801.0 / 1296.0).abs() < 1e-9);
    }

    #[test]
    fn super_breaker_finds_a_secret() {
        let v = Variant::SUPER;
        let mut b = Breaker::new(&v, Strategy::Knuth).unwrap();
        let n = play(&mut b, v.parse_code("8 1 3 3 7").unwrap());
        assert!(n <= v.guesses());
    }

    #[test]
    fn bulls_cows_breaker_finds_a_secret() {
        let v = Variant::BULLS_COWS;
        let mut b = Breaker::new(&v, Strategy::Entropy).unwrap();
        assert!(play(&mut b, v.parse_code("9 3 0 7").unwrap()) <= v.guesses());
    }
}
