//! The mid end: one generic play session that does, for every game, what every game needs: the move list and undo,
//! autosave after every change, the claim that keeps a game to one process, assistance and chosen-seed marks, and
//! recording the game with its typed outcome and rank when it ends.
//!
//! A game is its parameters, its seed and its moves (as in Tatham's mid end): the state is rebuilt from them, so
//! the same three values serve autosave, undo, records and replays.

use super::error::Error;
use super::game::{Applied, Game, Outcome, Ranking, Status, Turn};
use crate::storage::{Claim, ClaimError, Scoreboard, Storage, Unfinished, now_ms};

/// How a finished game was recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// How it ended.
    pub outcome: Outcome,
    /// The game's own line for it ("target reached", "the computer found your code in 5 guesses").
    pub text: String,
    /// The database id, when it was recorded.
    pub id: Option<i64>,
    /// Its rank among the best scores of its variant, when it ranks.
    pub rank: Option<usize>,
    /// Why it was not recorded, when a game with moves was not (the reason, for the player).
    pub not_recorded: Option<String>,
    /// Why it ranks nowhere, when it does not ("practice", "assisted", "played from a chosen seed").
    pub unranked: Option<&'static str>,
}

/// Why a saved game could not be taken up again.
#[derive(Debug)]
pub enum ResumeError {
    /// Another running Parlor is playing it.
    Taken,
    /// The saved row cannot be read or replayed: the reason (the row is to be set aside, never deleted).
    Damaged(String),
    /// It is no longer unfinished: another Parlor finished it (or set it aside) since the list was read.
    Gone,
    /// The database could not be read: the reason.
    Unavailable(String),
}

impl std::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResumeError::Taken => f.write_str("another Parlor is playing this game"),
            ResumeError::Damaged(why) => write!(f, "the saved game is damaged: {why}"),
            ResumeError::Gone => f.write_str("that game was just finished in another Parlor"),
            ResumeError::Unavailable(why) => write!(f, "could not read the saved game: {why}"),
        }
    }
}

/// Why a game is no longer its player's to save or record.
const LOST: &str = "another Parlor finished, set aside or played on this game meanwhile, so it is not saved or \
     recorded here (it is recorded once, where it was finished)";

/// Said after a save that failed: the next change tries again.
const RETRY: &str = " (it is tried again after the next move)";

/// What the player is told when a game cannot be claimed for reasons other than another Parlor playing it.
fn claim_warning(e: &ClaimError) -> String {
    format!(
        "{e}: other Parlors cannot tell that this game is being played here (it is still recorded at most once)"
    )
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
) -> Result<Rebuilt<G>, Error> {
    if game != G::ID {
        return Err(Error::Record(format!("it is a game of {game}")));
    }
    let params = G::params_from_json(options)?;
    G::check(&params)?;
    let start = G::new_game(&params, seed)?;
    let moves = G::parse_moves(&start, moves)?;
    let mut state = start.clone();
    for (i, mv) in moves.iter().enumerate() {
        G::apply(&mut state, mv).map_err(|e| e.within(format!("move {}", i + 1)))?;
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
    /// A practice game ([`Session::practise_in`]): recorded as practice, never as a scored game.
    practice: bool,
    /// The moves the game's saved row holds, as this player last saved them (`None`: it has no row).
    held: Option<String>,
}

impl<G: Game> Parts<G> {
    /// A game at its start position: no move played, no assistance, no saved row.
    fn fresh(seed: Seed, start: G::State, id: String, started_at: i64) -> Parts<G> {
        Parts {
            seed,
            state: start.clone(),
            start,
            moves: Vec::new(),
            id,
            started_at,
            assisted: false,
            practice: false,
            held: None,
        }
    }
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
    storage_error: Option<Error>,
    /// Why this game is no longer this player's to save or record (another Parlor finished, set aside or played on
    /// it), once that is found.
    lost: Option<String>,
    known_best: Option<i64>,
    /// What the game keeps for the whole run ([`Game::Context`]): given by the front end that plays the game.
    context: G::Context,
}

impl<G: Game> Session<G> {
    /// Plays the game in `context` (the one the program's top made for this game): its thinker and screens use
    /// it, and the game may start preparing what its computer will need ([`Game::prepare`]). A session made
    /// without one has the default context (nothing kept on disk).
    pub fn with_context(mut self, context: G::Context) -> Session<G> {
        G::prepare(&context, &self.params);
        self.context = context;
        self
    }

    /// The game's context ([`Session::with_context`]).
    pub fn context(&self) -> &G::Context {
        &self.context
    }

    /// A new game, claimed for this process, in the default context ([`Session::new_in`]).
    pub fn new(params: G::Params, seed: Seed, store: &dyn Storage) -> Result<Session<G>, Error> {
        Session::new_in(params, seed, store, G::Context::default())
    }

    /// A new game, claimed for this process, played in `context` ([`Session::with_context`]); refused if its
    /// parameters cannot be played there ([`Game::check_in`]).
    pub fn new_in(
        params: G::Params,
        seed: Seed,
        store: &dyn Storage,
        context: G::Context,
    ) -> Result<Session<G>, Error> {
        // The game as drawn ahead, then given its id, its claim and its start time, and prepared in `context`.
        let mut s = Session::unclaimed_in(params, seed, store, context)?;
        let id = super::new_session_id();
        // A claim that cannot be made (a claims folder that cannot be used) does not stop play: nobody else can
        // have this brand-new game, and the player is told that other Parlors cannot see it is being played.
        match store.claim(&id) {
            Ok(c) => s.claim = Some(c),
            Err(e) => s.storage_error = Some(Error::Storage(claim_warning(&e))),
        }
        s.core.id = id;
        s.core.started_at = now_ms();
        G::prepare(&s.context, &s.params);
        Ok(s)
    }

    /// A new game as [`Session::new_in`] would start it with `seed`, made only to be drawn ahead (a screen prepared
    /// in idle time before the key that starts the game): nothing is claimed or written, the store is only read
    /// (the best score beside the game's), and the game's own preparation ([`Game::prepare`]) is left to the game
    /// really started. It has no id and no start time: it is never played, saved or recorded.
    pub fn unclaimed_in(
        params: G::Params,
        seed: Seed,
        store: &dyn Storage,
        context: G::Context,
    ) -> Result<Session<G>, Error> {
        G::check_in(&params, &context)?;
        let start = G::new_game(&params, seed.value)?;
        let parts = Parts::fresh(seed, start, String::new(), 0);
        let mut s = Session::assemble(params, parts, None, store);
        s.context = context;
        Ok(s)
    }

    /// A position of a game to look at and try moves in (a puzzle, [`super::puzzle`]): the game as
    /// [`Session::unclaimed_in`] starts it with `seed`, then `moves` played; nothing is claimed or written.
    pub fn unclaimed_at(
        params: G::Params,
        seed: Seed,
        moves: &[G::Move],
        store: &dyn Storage,
        context: G::Context,
    ) -> Result<Session<G>, Error> {
        let mut s = Session::unclaimed_in(params, seed, store, context)?;
        for (i, mv) in moves.iter().enumerate() {
            G::apply(&mut s.core.state, mv).map_err(|e| e.within(format!("move {}", i + 1)))?;
            s.core.moves.push(mv.clone());
        }
        Ok(s)
    }

    /// A practice game ("practise from here", docs/REVIEW.md) from finished game `record`, claimed for this
    /// process and played in `context`: the position before its move `number` (from 1, as its review numbers its
    /// moves), with the parameters the game gives for practice there ([`Game::practice`]: the same ones, or an
    /// opponent at the strongest level), its seed (so random choices go on as they would have: marked seeded, kept
    /// out of the best scores of older Parlors too) and the moves that led there. It is recorded as practice, never
    /// as a scored game. A move number out of range, a record that does not replay, a position that is over or
    /// where the computer is to move, or a game that cannot be practised is an error that says why.
    pub fn practise_in(
        record: &crate::storage::GameRecord,
        number: usize,
        store: &dyn Storage,
        context: G::Context,
    ) -> Result<Session<G>, Error> {
        let id = record.id;
        let r = rebuild::<G>(&record.game, &record.options, record.seed, &record.moves)
            .map_err(|e| e.within(format!("game #{id} cannot be replayed")))?;
        let n = r.moves.len();
        if number == 0 || number > n {
            return Err(Error::Move(match n {
                0 => format!("game #{id} has no move to practise from"),
                1 => format!("game #{id} has 1 move: practise from move 1"),
                _ => format!("game #{id} has {n} moves: choose a move from 1 to {n}"),
            }));
        }
        let kept = &r.moves[..number - 1];
        let mut at = r.start;
        for mv in kept {
            G::apply(&mut at, mv)?;
        }
        let params = G::practice(&context, &r.params, &at)?;
        // The position again under the practice parameters (who plays which side may differ), checked before
        // anything is claimed.
        let mut state = G::new_game(&params, record.seed)?;
        for (i, mv) in kept.iter().enumerate() {
            G::apply(&mut state, mv).map_err(|e| e.within(format!("move {}", i + 1)))?;
        }
        match G::status(&state) {
            Status::Playing(Turn::Player) => {}
            Status::Playing(Turn::Computer) => {
                return Err(Error::Move(format!(
                    "before move {number} of game #{id} the computer is to move: practise from one of your moves"
                )));
            }
            Status::Over(_) => {
                return Err(Error::Move(format!(
                    "the game is over before move {number} of game #{id}"
                )));
            }
        }
        let seed = Seed {
            value: record.seed,
            chosen: true,
        };
        let mut s = Session::new_in(params, seed, store, context)?;
        s.core.state = state;
        s.core.moves = kept.to_vec();
        s.core.practice = true;
        Ok(s)
    }

    /// Takes up a saved game in the default context ([`Session::resume_in`]).
    pub fn resume(saved: &Unfinished, store: &dyn Storage) -> Result<Session<G>, ResumeError> {
        Session::resume_in(saved, store, G::Context::default())
    }

    /// Takes up a saved game, played in `context`: claims it, then reads its row again (the list it was chosen
    /// from may be stale: the game may have been finished meanwhile) and rebuilds it from its parameters, seed and
    /// moves. A game whose parameters cannot be played in `context` ([`Game::playable`]) is damaged here.
    pub fn resume_in(
        saved: &Unfinished,
        store: &dyn Storage,
        context: G::Context,
    ) -> Result<Session<G>, ResumeError> {
        // A row with columns of the wrong type cannot even be named reliably (its session may not be text): it is
        // set aside by the caller, whoever holds it.
        if let Some(why) = &saved.damage {
            return Err(ResumeError::Damaged(why.clone()));
        }
        let (claim, problem) = match store.claim(&saved.session) {
            Ok(c) => (Some(c), None),
            Err(ClaimError::Taken) => return Err(ResumeError::Taken),
            Err(e) => (None, Some(claim_warning(&e))),
        };
        let saved = match store.unfinished_session(&saved.session) {
            Ok(Some(now)) => now,
            Ok(None) => return Err(ResumeError::Gone),
            Err(e) => return Err(ResumeError::Unavailable(format!("{e:#}"))),
        };
        if let Some(why) = &saved.damage {
            return Err(ResumeError::Damaged(why.clone()));
        }
        let Rebuilt {
            params,
            start,
            moves,
            state,
        } = rebuild::<G>(&saved.game, &saved.options, saved.seed, &saved.moves)
            .map_err(|e| ResumeError::Damaged(e.to_string()))?;
        G::playable(&params, &context).map_err(|e| ResumeError::Damaged(e.to_string()))?;
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
            practice: saved.practice,
            held: Some(saved.moves.clone()),
        };
        let mut s = Session::assemble(params, parts, claim, store);
        s.storage_error = problem.map(Error::Storage);
        Ok(s.with_context(context))
    }

    /// Ends a saved game without playing it, recorded as given up: takes it up (so a game played elsewhere is
    /// never discarded under its player), resigns it and returns the record's id. A game finished meanwhile by
    /// another Parlor is [`ResumeError::Gone`]; a record that could not be written is [`ResumeError::Unavailable`].
    pub fn discard(saved: &Unfinished, store: &mut dyn Storage) -> Result<i64, ResumeError> {
        Session::<G>::discard_in(saved, store, G::Context::default())
    }

    /// [`Session::discard`], taking the game up in `context` ([`Session::resume_in`]).
    pub fn discard_in(
        saved: &Unfinished,
        store: &mut dyn Storage,
        context: G::Context,
    ) -> Result<i64, ResumeError> {
        let mut session = Session::<G>::resume_in(saved, store, context)?;
        session.resign(store);
        match session.ended() {
            Some(Ending { id: Some(id), .. }) => Ok(*id),
            _ if session.lost().is_some() => Err(ResumeError::Gone),
            Some(Ending {
                not_recorded: Some(why),
                ..
            }) => Err(ResumeError::Unavailable(why.clone())),
            _ => Err(ResumeError::Unavailable("it could not be recorded".into())),
        }
    }

    /// A session of a new or saved game: nothing ended, everything saved, the best score looked up.
    fn assemble(
        params: G::Params,
        core: Parts<G>,
        claim: Option<Claim>,
        store: &dyn Storage,
    ) -> Session<G> {
        let mut s = Session {
            params,
            core,
            claim,
            ended: None,
            saved: true,
            storage_error: None,
            lost: None,
            known_best: None,
            context: G::Context::default(),
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

    /// Whether it is a practice game ([`Session::practise_in`]): recorded as practice, never as a scored game.
    pub fn practice(&self) -> bool {
        self.core.practice
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

    /// Whether another Parlor finished, set aside or played on this game meanwhile, and so it is no longer saved
    /// or recorded here: why, in words.
    pub fn lost(&self) -> Option<&str> {
        self.lost.as_deref()
    }

    /// The last storage problem, once.
    pub fn take_storage_error(&mut self) -> Option<Error> {
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
    pub fn refresh_best(&mut self, store: &dyn Storage) {
        self.known_best = store
            .best_score(Scoreboard::new(
                G::ID,
                &G::variant(&self.params),
                self.ranking(),
            ))
            .ok()
            .flatten();
    }

    /// Plays a move. A refused move leaves the game untouched and says why. After an accepted move the game is
    /// saved, or recorded if it is over.
    pub fn play(&mut self, mv: G::Move, store: &mut dyn Storage) -> Result<Applied, Error> {
        if self.ended.is_some() {
            return Err(Error::Move("the game is over".into()));
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
    pub fn undo(&mut self, store: &mut dyn Storage) -> Result<usize, Error> {
        if self.ended.is_some() {
            return Err(Error::Move("the game is over".into()));
        }
        let depth =
            G::undo_depth(&self.core.state, self.core.moves.len()).min(self.core.moves.len());
        if depth == 0 {
            return Err(Error::Move("nothing to undo".into()));
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
    pub fn mark_assisted(&mut self, store: &mut dyn Storage) {
        if !self.core.assisted {
            self.core.assisted = true;
            self.save(store);
        }
    }

    /// Ends the game now, as the game says a player who stops ends it (a win after a target is reached, say, else giving up).
    pub fn resign(&mut self, store: &mut dyn Storage) {
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
            practice: self.core.practice,
            started_at: self.core.started_at,
            updated_at: now_ms(),
            row: 0,
            damage: None,
        }
    }

    /// Saves the game in progress (after every change), or forgets it while no move has been made. Returns whether
    /// the newest state is now safely saved; a failure is kept for the front end to show, and the next change
    /// tries again.
    pub fn save(&mut self, store: &mut dyn Storage) -> bool {
        if self.ended.is_some() {
            return self.saved;
        }
        if self.lost.is_some() {
            // Said once when it was found; nothing more is written for this game.
            self.saved = false;
            return false;
        }
        let result = if self.started() {
            let u = self.unfinished();
            store
                .save_game(&u, self.core.held.as_deref())
                .map(|kept| kept.then_some(Some(u.moves)))
        } else {
            match self.core.held.as_deref() {
                Some(held) => store.discard_game(&self.core.id, held).map(|()| Some(None)),
                None => Ok(Some(None)),
            }
        };
        self.saved = match result {
            Ok(Some(held)) => {
                self.core.held = held;
                store.keeps()
            }
            Ok(None) => {
                let why = LOST.to_string();
                self.storage_error = Some(Error::Storage(format!("not saved: {why}")));
                self.lost = Some(why);
                false
            }
            Err(e) => {
                self.storage_error = Some(Error::Storage(format!("could not save: {e:#}{RETRY}")));
                false
            }
        };
        self.saved
    }

    /// Saves the game now (leaving it, or at the end of input): `Ok` when it is safely kept (or there is nothing
    /// to keep: no move made, or the game is over), else why not. Front ends say "saved" only on `Ok`.
    pub fn save_now(&mut self, store: &mut dyn Storage) -> Result<(), Error> {
        if self.ended.is_some() || !self.started() || self.save(store) {
            return Ok(());
        }
        Err(Error::Storage(
            self.take_storage_error()
                .map(|e| e.message().trim_end_matches(RETRY).to_string())
                .or_else(|| self.lost.clone())
                .unwrap_or_else(|| "the database is read-only or in memory".into()),
        ))
    }

    fn end(&mut self, outcome: Outcome, store: &mut dyn Storage) {
        let text = G::ending(&self.core.state, outcome);
        let unranked = if self.core.practice {
            Some("practice")
        } else if self.ranking() == Ranking::Unranked {
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
            not_recorded: None,
        };
        if !self.started() {
            if let Some(held) = self.core.held.take() {
                let _ = store.discard_game(&self.core.id, &held);
            }
            self.saved = true;
        } else if let Some(why) = self.lost.clone() {
            self.saved = false;
            ending.not_recorded = Some(why);
        } else {
            let record = self.unfinished().into_record(outcome);
            match store.finish_game(&self.core.id, self.core.held.as_deref(), &record) {
                Ok(Some(id)) => {
                    ending.id = Some(id);
                    self.core.held = None;
                    self.saved = store.keeps();
                    if unranked.is_none() {
                        ending.rank = store
                            .rank(
                                Scoreboard::new(&record.game, &record.variant, self.ranking()),
                                record.score,
                            )
                            .ok();
                    }
                }
                Ok(None) => {
                    self.saved = false;
                    self.lost = Some(LOST.into());
                    ending.not_recorded = Some(LOST.into());
                }
                Err(e) => {
                    self.saved = false;
                    let why = format!("could not record the game: {e:#}");
                    self.storage_error = Some(Error::Storage(why.clone()));
                    ending.not_recorded = Some(why);
                }
            }
        }
        if let Some(claim) = self.claim.take() {
            store.release_claim(claim);
        }
        self.ended = Some(ending);
    }
}
