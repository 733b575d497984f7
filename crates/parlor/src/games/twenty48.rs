//! A 2048 play session: the game, its options, autosave after every move, and recording when it ends.

use super::Meta;
use crate::storage::{Store, Unfinished, now_ms};
use anyhow::{Context, Result, anyhow};
use serde::{Deserialize, Serialize};
use twenty48::{Direction, Game, Rules, SlideError, Status, Turn, format_actions, parse_actions};

/// The game's name in the database.
pub const GAME: &str = "2048";

/// The computer's thinking time for a tip, in milliseconds.
pub const TIP_MS: f64 = 100.0;

/// The computer's thinking time for each autoplay move, in milliseconds.
pub const AUTO_THINK_MS: f64 = 20.0;

/// The options a player chooses for a 2048 game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// Board size (3 to 8).
    pub size: usize,
    /// Probability that a new tile is a 4.
    pub four_chance: f64,
    /// The tile that wins.
    pub target: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            size: 4,
            four_chance: 0.1,
            target: 2048,
        }
    }
}

impl Options {
    /// The engine's rules for these options (validated).
    pub fn rules(&self) -> Result<Rules> {
        Rules::new(self.size, self.four_chance, self.target).map_err(|e| anyhow!("{e}"))
    }

    /// The name that best scores are grouped by: the size, plus any option that is not the default.
    pub fn variant(&self) -> String {
        let mut v = format!("{0}x{0}", self.size);
        let d = Options::default();
        if self.four_chance != d.four_chance {
            v.push_str(&format!(" p4={}", self.four_chance));
        }
        if self.target != d.target {
            v.push_str(&format!(" target={}", self.target));
        }
        v
    }
}

/// What a command did, for the front end to show.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The tiles moved; the turn's details.
    Moved(Turn),
    /// The move changed nothing, so it was not a turn.
    NoChange(Direction),
    /// The last move was taken back.
    Undone,
    /// There is nothing to undo.
    NothingToUndo,
    /// The player chose to keep going after reaching the target.
    KeptGoing,
    /// The game ended (see [`Session::ended`]).
    Ended,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// `won`, `lost` or `gave up`.
    pub result: &'static str,
    /// The database id, when it was recorded.
    pub id: Option<i64>,
    /// The rank among the best unassisted scores of this variant (None for assisted games).
    pub rank: Option<usize>,
}

/// A 2048 game being played.
pub struct Session {
    /// The game itself.
    pub game: Game,
    /// Its options.
    pub options: Options,
    /// Bookkeeping.
    pub meta: Meta,
    /// The last turn, to mark new and merged tiles.
    pub last_turn: Option<Turn>,
    /// Set once the game is over and recorded.
    pub ended: Option<Ending>,
    /// The last storage problem, to show once.
    pub storage_error: Option<String>,
    /// The best unassisted score of this variant recorded before (see [`Session::refresh_best`]).
    pub known_best: u64,
}

impl Session {
    /// A new game.
    pub fn new(options: Options, seed: u64) -> Result<Session> {
        let game = Game::new(options.rules()?, seed);
        Ok(Session {
            game,
            options,
            meta: Meta::new(),
            last_turn: None,
            ended: None,
            storage_error: None,
            known_best: 0,
        })
    }

    /// Takes over a saved game in progress, rebuilding it from its seed and moves.
    pub fn resume(saved: &Unfinished) -> Result<Session> {
        let options: Options =
            serde_json::from_str(&saved.options).context("reading the saved options")?;
        let actions =
            parse_actions(&saved.moves).map_err(|e| anyhow!("reading the saved moves: {e}"))?;
        let game = Game::replay(options.rules()?, saved.seed, &actions)
            .map_err(|e| anyhow!("replaying: {e}"))?;
        let meta = Meta {
            session: saved.session.clone(),
            started_at: saved.started_at,
            assisted: saved.assisted,
        };
        Ok(Session {
            game,
            options,
            meta,
            last_turn: None,
            ended: None,
            storage_error: None,
            known_best: 0,
        })
    }

    /// Looks up the best unassisted score of this variant.
    pub fn refresh_best(&mut self, store: &Store) {
        self.known_best = store
            .best_score(GAME, &self.options.variant())
            .ok()
            .flatten()
            .map_or(0, |b| b as u64);
    }

    /// The best score to show: the recorded best, or this game's score if it is unassisted and higher.
    pub fn best(&self) -> u64 {
        let own = if self.meta.assisted {
            0
        } else {
            self.game.score()
        };
        self.known_best.max(own)
    }

    /// Whether the player must now say whether to keep going.
    pub fn awaiting_decision(&self) -> bool {
        self.ended.is_none() && self.game.status() == Status::Won
    }

    /// Slides the tiles. A move that changes nothing is refused and not recorded.
    pub fn slide(&mut self, dir: Direction, store: &mut Store) -> Event {
        if self.ended.is_some() {
            return Event::Ended;
        }
        match self.game.slide(dir) {
            Ok(turn) => {
                let over = turn.over;
                self.last_turn = Some(turn.clone());
                if over {
                    let result = if self.game.reached_target() {
                        "won"
                    } else {
                        "lost"
                    };
                    self.end(result, store);
                } else {
                    self.save(store);
                }
                Event::Moved(turn)
            }
            Err(SlideError::NoChange) => Event::NoChange(dir),
            Err(SlideError::GameOver) => Event::Ended,
        }
    }

    /// Takes back the last move (marks the game assisted).
    pub fn undo(&mut self, store: &mut Store) -> Event {
        if self.ended.is_some() {
            return Event::Ended;
        }
        match self.game.undo() {
            Ok(()) => {
                self.meta.assisted = true;
                self.last_turn = None;
                self.save(store);
                Event::Undone
            }
            Err(_) => Event::NothingToUndo,
        }
    }

    /// After reaching the target: keep playing.
    pub fn keep_going(&mut self, store: &mut Store) -> Event {
        self.game.keep_going();
        self.save(store);
        Event::KeptGoing
    }

    /// Marks the game as assisted (a hint was shown).
    pub fn mark_assisted(&mut self, store: &mut Store) {
        if !self.meta.assisted {
            self.meta.assisted = true;
            self.save(store);
        }
    }

    /// Ends the game now: after reaching the target this is a win, otherwise the player gives up.
    pub fn stop(&mut self, store: &mut Store) -> Event {
        if self.ended.is_none() {
            let result = if self.game.reached_target() {
                "won"
            } else {
                "gave up"
            };
            self.end(result, store);
        }
        Event::Ended
    }

    /// The computer's move for the current board, or `None` when no move is legal. Asking marks the game assisted.
    pub fn ai_move(
        &mut self,
        player: &mut twenty48::ai::Player,
        store: &mut Store,
    ) -> Option<Direction> {
        self.mark_assisted(store);
        player.best_move(self.game.board(), self.options.four_chance)
    }

    /// Whether any move has been made (a game with no move is not worth keeping).
    pub fn started(&self) -> bool {
        !self.game.actions().is_empty()
    }

    fn unfinished(&self) -> Unfinished {
        Unfinished {
            session: self.meta.session.clone(),
            game: GAME.into(),
            variant: self.options.variant(),
            options: serde_json::to_string(&self.options).unwrap_or_default(),
            seed: self.game.seed(),
            moves: format_actions(self.game.actions()),
            score: self.game.score() as i64,
            assisted: self.meta.assisted,
            started_at: self.meta.started_at,
            updated_at: now_ms(),
        }
    }

    /// Saves the game in progress (called after every change).
    pub fn save(&mut self, store: &mut Store) {
        if self.ended.is_none()
            && let Err(e) = super::save_progress(store, &self.unfinished(), self.started())
        {
            self.storage_error = Some(e);
        }
    }

    fn end(&mut self, result: &'static str, store: &mut Store) {
        let recorded = super::record_finished(store, self.unfinished(), result, self.started())
            .unwrap_or_else(|e| {
                self.storage_error = Some(e);
                super::Recorded::default()
            });
        self.ended = Some(Ending {
            result,
            id: recorded.id,
            rank: recorded.rank,
        });
    }
}

/// Parses a direction as typed in plain mode: `w a s d`, vim's `h j k l`, or the words `up down left right`.
pub fn parse_direction(word: &str) -> Option<Direction> {
    match word.to_ascii_lowercase().as_str() {
        "w" | "k" | "up" => Some(Direction::Up),
        "s" | "j" | "down" => Some(Direction::Down),
        "a" | "h" | "left" => Some(Direction::Left),
        "d" | "l" | "right" => Some(Direction::Right),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> Store {
        Store::in_memory().unwrap()
    }

    #[test]
    fn a_game_autosaves_and_resumes_identically() {
        let mut store = store();
        let mut s = Session::new(Options::default(), 7).unwrap();
        for d in [
            Direction::Left,
            Direction::Up,
            Direction::Right,
            Direction::Down,
            Direction::Left,
        ] {
            s.slide(d, &mut store);
        }
        let saved = store.unfinished(Some(GAME)).unwrap();
        assert_eq!(saved.len(), 1);
        let resumed = Session::resume(&saved[0]).unwrap();
        assert_eq!(resumed.game.board(), s.game.board());
        assert_eq!(resumed.game.score(), s.game.score());
        assert_eq!(resumed.game.seed(), 7);
        assert_eq!(resumed.game.actions(), s.game.actions());
    }

    #[test]
    fn undo_marks_the_game_assisted_and_giving_up_records_it() {
        let mut store = store();
        let mut s = Session::new(Options::default(), 3).unwrap();
        for d in Direction::ALL {
            if matches!(s.slide(d, &mut store), Event::Moved(_)) {
                break;
            }
        }
        assert!(!s.meta.assisted);
        assert_eq!(s.undo(&mut store), Event::Undone);
        assert!(s.meta.assisted);
        s.slide(Direction::Left, &mut store);
        s.slide(Direction::Right, &mut store);
        assert_eq!(s.stop(&mut store), Event::Ended);
        let ending = s.ended.clone().unwrap();
        assert_eq!(ending.result, "gave up");
        assert_eq!(ending.rank, None, "assisted games are not ranked");
        assert!(store.unfinished(None).unwrap().is_empty());
        let rec = store.game(ending.id.unwrap()).unwrap().unwrap();
        assert!(rec.assisted);
        assert!(store.best(GAME, "4x4", 10).unwrap().is_empty());
    }

    #[test]
    fn variants_name_non_default_options() {
        assert_eq!(Options::default().variant(), "4x4");
        let o = Options {
            size: 5,
            four_chance: 0.5,
            target: 4096,
        };
        assert_eq!(o.variant(), "5x5 p4=0.5 target=4096");
    }

    #[test]
    fn directions_parse_from_every_key_family() {
        for (w, d) in [
            ("w", Direction::Up),
            ("LEFT", Direction::Left),
            ("j", Direction::Down),
            ("right", Direction::Right),
        ] {
            assert_eq!(parse_direction(w), Some(d));
        }
        assert_eq!(parse_direction("x"), None);
    }
}
