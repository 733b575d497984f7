//! The mid end: one generic play session that does, for every game, what every game needs: the move list and undo,
//! autosave after every change, the claim that keeps a game to one process, assistance and chosen-seed marks, and
//! recording the game with its typed outcome and rank when it ends.
//!
//! A game is its parameters, its seed and its moves (as in Tatham's mid end): the state is rebuilt from them, so
//! the same three values serve autosave, undo, records and replays.

use super::game::{Applied, Game, Outcome, Ranking, Status, Turn};
use crate::storage::{Claim, ClaimError, Store, Unfinished, now_ms};

/// How a finished game was recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// How it ended.
    pub outcome: Outcome,
    /// The game's own line for it ("2048 reached", "the computer found your code in 5 guesses").
    pub text: String,
    /// The database id, when it was recorded.
    pub id: Option<i64>,
    /// Its rank among the best scores of its variant, when it ranks.
    pub rank: Option<usize>,
    /// Why it ranks nowhere, when it does not ("assisted", "played from a chosen seed").
    pub unranked: Option<&'static str>,
}

/// Why a saved game could not be taken up again.
#[derive(Debug)]
pub enum ResumeError {
    /// Another running Parlor is playing it.
    Taken,
    /// The saved row cannot be read or replayed: the reason (the row is to be set aside, never deleted).
    Damaged(String),
}

impl std::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResumeError::Taken => f.write_str("another Parlor is playing this game"),
            ResumeError::Damaged(why) => write!(f, "the saved game is damaged: {why}"),
        }
    }
}

/// A seed and whether the player chose it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The seed of every random choice in the game.
    pub value: u64,
    /// Chosen by the player (`--seed`): the game is kept out of the best scores.
    pub chosen: bool,
}

impl Seed {
    /// The player's seed if given, else a fresh one from the clock.
    pub fn from_option(seed: Option<u64>) -> Seed {
        match seed {
            Some(value) => Seed {
                value,
                chosen: true,
            },
            None => Seed {
                value: super::fresh_seed(),
                chosen: false,
            },
        }
    }
}

/// A game rebuilt from its saved parts.
pub struct Rebuilt<G: Game> {
    /// The parameters.
    pub params: G::Params,
    /// The position before any move.
    pub start: G::State,
    /// The moves.
    pub moves: Vec<G::Move>,
    /// The position after the moves.
    pub state: G::State,
}

/// Rebuilds a game from its saved parts (name, parameters as JSON, seed, moves as text); anything damaged is an
/// error that says what, never a panic.
pub fn rebuild<G: Game>(
    game: &str,
    options: &str,
    seed: u64,
    moves: &str,
) -> Result<Rebuilt<G>, String> {
    if game != G::ID {
        return Err(format!("it is a game of {game}"));
    }
    let params = G::params_from_json(options)?;
    G::check(&params)?;
    let start = G::new_game(&params, seed)?;
    let moves = G::parse_moves(&start, moves)?;
    let mut state = start.clone();
    for (i, mv) in moves.iter().enumerate() {
        G::apply(&mut state, mv).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    Ok(Rebuilt {
        params,
        start,
        moves,
        state,
    })
}

/// The game a session plays: what is saved, new or resumed.
struct Parts<G: Game> {
    seed: Seed,
    start: G::State,
    state: G::State,
    moves: Vec<G::Move>,
    id: String,
    started_at: i64,
    assisted: bool,
}

/// A game being played.
pub struct Session<G: Game> {
    /// The parameters.
    pub params: G::Params,
    /// The seed, the positions, the moves and the marks (id, start time, assistance).
    core: Parts<G>,
    claim: Option<Claim>,
    ended: Option<Ending>,
    /// Whether the newest state is safely in the database.
    saved: bool,
    /// The last storage problem, to show once.
    storage_error: Option<String>,
    known_best: Option<i64>,
}

impl<G: Game> Session<G> {
    /// A new game, claimed for this process.
    pub fn new(params: G::Params, seed: Seed, store: &Store) -> Result<Session<G>, String> {
        G::check(&params)?;
        let start = G::new_game(&params, seed.value)?;
        let id = super::new_session_id();
        // A claim that cannot be made (a read-only directory) does not stop play: nobody else can have this
        // brand-new game.
        let claim = store.claim(&id).ok();
        let parts = Parts {
            seed,
            state: start.clone(),
            start,
            moves: Vec::new(),
            id,
            started_at: now_ms(),
            assisted: false,
        };
        Ok(Session::assemble(params, parts, claim, store))
    }

    /// Takes up a saved game: claims it, then rebuilds it from its parameters, seed and moves.
    pub fn resume(saved: &Unfinished, store: &Store) -> Result<Session<G>, ResumeError> {
        let claim = match store.claim(&saved.session) {
            Ok(c) => Some(c),
            Err(ClaimError::Taken) => return Err(ResumeError::Taken),
            Err(ClaimError::Io(_)) => None,
        };
        let Rebuilt {
            params,
            start,
            moves,
            state,
        } = rebuild::<G>(&saved.game, &saved.options, saved.seed, &saved.moves)
            .map_err(ResumeError::Damaged)?;
        if matches!(G::status(&state), Status::Over(_)) {
            return Err(ResumeError::Damaged("it is already over".into()));
        }
        let parts = Parts {
            seed: Seed {
                value: saved.seed,
                chosen: saved.seeded,
            },
            start,
            state,
            moves,
            id: saved.session.clone(),
            started_at: saved.started_at,
            assisted: saved.assisted,
        };
        Ok(Session::assemble(params, parts, claim, store))
    }

    /// A session of a new or saved game: nothing ended, everything saved, the best score looked up.
    fn assemble(
        params: G::Params,
        core: Parts<G>,
        claim: Option<Claim>,
        store: &Store,
    ) -> Session<G> {
        let mut s = Session {
            params,
            core,
            claim,
            ended: None,
            saved: true,
            storage_error: None,
            known_best: None,
        };
        s.refresh_best(store);
        s
    }

    /// The current state.
    pub fn state(&self) -> &G::State {
        &self.core.state
    }

    /// The state before any move.
    pub fn start(&self) -> &G::State {
        &self.core.start
    }

    /// The moves played, oldest first.
    pub fn moves(&self) -> &[G::Move] {
        &self.core.moves
    }

    /// The seed.
    pub fn seed(&self) -> Seed {
        self.core.seed
    }

    /// This play session's id.
    pub fn id(&self) -> &str {
        &self.core.id
    }

    /// Whether undo, hints or autoplay were used.
    pub fn assisted(&self) -> bool {
        self.core.assisted
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        G::status(&self.core.state)
    }

    /// Whose turn it is, while the game goes on.
    pub fn turn(&self) -> Option<Turn> {
        match self.status() {
            Status::Playing(t) if self.ended.is_none() => Some(t),
            _ => None,
        }
    }

    /// How the game ended, once it has.
    pub fn ended(&self) -> Option<&Ending> {
        self.ended.as_ref()
    }

    /// Whether the newest state is safely saved (never say "saved" otherwise).
    pub fn saved(&self) -> bool {
        self.saved
    }

    /// The last storage problem, once.
    pub fn take_storage_error(&mut self) -> Option<String> {
        self.storage_error.take()
    }

    /// Whether any move has been made (a game with no move is not worth keeping).
    pub fn started(&self) -> bool {
        !self.core.moves.is_empty()
    }

    /// The score now.
    pub fn score(&self) -> i64 {
        G::score(&self.core.state)
    }

    /// How best scores of this game rank.
    pub fn ranking(&self) -> Ranking {
        G::ranking(&self.params)
    }

    /// The best score to show beside this game's: the recorded best of its variant, or this game's own score if it
    /// counts and is better.
    pub fn best(&self) -> Option<i64> {
        let own = (!self.core.assisted && !self.core.seed.chosen).then(|| self.score());
        match (self.ranking(), self.known_best, own) {
            (Ranking::HighScore, Some(b), Some(o)) => Some(b.max(o)),
            (Ranking::HighScore, b, o) => b.or(o),
            (Ranking::FewestToWin, b, _) => b,
            (Ranking::Unranked, _, _) => None,
        }
    }

    /// Looks up the best score of this variant again.
    pub fn refresh_best(&mut self, store: &Store) {
        self.known_best = store
            .best_score(G::ID, &G::variant(&self.params), self.ranking())
            .ok()
            .flatten();
    }

    /// Plays a move. A refused move leaves the game untouched and says why. After an accepted move the game is
    /// saved, or recorded if it is over.
    pub fn play(&mut self, mv: G::Move, store: &mut Store) -> Result<Applied, String> {
        if self.ended.is_some() {
            return Err("the game is over".into());
        }
        let applied = G::apply(&mut self.core.state, &mv)?;
        self.core.moves.push(mv);
        match G::status(&self.core.state) {
            Status::Over(outcome) => self.end(outcome, store),
            Status::Playing(_) => {
                self.save(store);
            }
        }
        Ok(applied)
    }

    /// Takes back the player's last move (and the computer's answer after it): the state is rebuilt from the moves
    /// that remain. Marks the game assisted. Returns how many moves were taken back.
    pub fn undo(&mut self, store: &mut Store) -> Result<usize, String> {
        if self.ended.is_some() {
            return Err("the game is over".into());
        }
        let depth =
            G::undo_depth(&self.core.state, self.core.moves.len()).min(self.core.moves.len());
        if depth == 0 {
            return Err("nothing to undo".into());
        }
        let keep = self.core.moves.len() - depth;
        let mut state = self.core.start.clone();
        for mv in &self.core.moves[..keep] {
            // These moves were accepted once from the same start: replaying them cannot fail.
            G::apply(&mut state, mv)?;
        }
        self.core.state = state;
        self.core.moves.truncate(keep);
        self.core.assisted = true;
        self.save(store);
        Ok(depth)
    }

    /// Marks the game assisted (a hint was shown, the computer played for the player).
    pub fn mark_assisted(&mut self, store: &mut Store) {
        if !self.core.assisted {
            self.core.assisted = true;
            self.save(store);
        }
    }

    /// Ends the game now, as the game says a player who stops ends it (a win after 2048's target, else giving up).
    pub fn resign(&mut self, store: &mut Store) {
        if self.ended.is_none() {
            let outcome = G::resign(&self.core.state);
            self.end(outcome, store);
        }
    }

    /// The saved form of the game as it stands.
    pub fn unfinished(&self) -> Unfinished {
        Unfinished {
            session: self.core.id.clone(),
            game: G::ID.into(),
            variant: G::variant(&self.params),
            options: G::params_to_json(&self.params),
            seed: self.core.seed.value,
            moves: self
                .core
                .moves
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            score: self.score(),
            assisted: self.core.assisted,
            seeded: self.core.seed.chosen,
            started_at: self.core.started_at,
            updated_at: now_ms(),
        }
    }

    /// Saves the game in progress (after every change), or forgets it while no move has been made. Returns whether
    /// the newest state is now safely saved; a failure is kept for the front end to show, and the next change
    /// tries again.
    pub fn save(&mut self, store: &mut Store) -> bool {
        if self.ended.is_some() {
            return self.saved;
        }
        let result = if self.started() {
            store.save_unfinished(&self.unfinished())
        } else {
            store.discard_unfinished(&self.core.id)
        };
        self.saved = match result {
            Ok(()) => store.keeps(),
            Err(e) => {
                self.storage_error = Some(format!("could not save: {e:#}"));
                false
            }
        };
        self.saved
    }

    /// Saves the game now (leaving it, or at the end of input): `Ok` when it is safely kept (or there is nothing
    /// to keep: no move made, or the game is over), else why not. Front ends say "saved" only on `Ok`.
    pub fn save_now(&mut self, store: &mut Store) -> Result<(), String> {
        if self.ended.is_some() || !self.started() || self.save(store) {
            return Ok(());
        }
        Err(self
            .take_storage_error()
            .unwrap_or_else(|| "the database is read-only or in memory".into()))
    }

    fn end(&mut self, outcome: Outcome, store: &mut Store) {
        let text = G::ending(&self.core.state, outcome);
        let unranked = if self.ranking() == Ranking::Unranked {
            Some("not ranked")
        } else if self.core.assisted {
            Some("assisted")
        } else if self.core.seed.chosen {
            Some("played from a chosen seed")
        } else if self.ranking() == Ranking::FewestToWin && outcome != Outcome::Won {
            Some("only wins rank")
        } else {
            None
        };
        let mut ending = Ending {
            outcome,
            text,
            id: None,
            rank: None,
            unranked,
        };
        if !self.started() {
            let _ = store.discard_unfinished(&self.core.id);
            self.saved = true;
        } else {
            let record = self.unfinished().into_record(outcome);
            match store.finish(&self.core.id, &record) {
                Ok(id) => {
                    ending.id = Some(id);
                    self.saved = store.keeps();
                    if unranked.is_none() {
                        ending.rank = store
                            .rank(&record.game, &record.variant, self.ranking(), record.score)
                            .ok();
                    }
                }
                Err(e) => {
                    self.saved = false;
                    self.storage_error = Some(format!("could not record the game: {e:#}"));
                }
            }
        }
        if let Some(claim) = self.claim.take() {
            store.release_claim(claim);
        }
        self.ended = Some(ending);
    }
}
