//! 2048 behind the game interface: parameters (size, four-chance, target), the engine's game as the state,
//! directions as moves, and the expectimax player as the computer.

pub mod animation;
#[cfg(test)]
mod app_tests;
pub mod board_text;
#[cfg(feature = "terminal")]
pub mod cli;
pub mod colours;
pub mod daily;
#[cfg(feature = "terminal")]
pub mod plain;
#[cfg(test)]
mod prepare_tests;
pub mod review;
pub mod screen;
#[cfg(test)]
#[cfg(feature = "terminal")]
mod session_tests;
#[cfg(feature = "terminal")]
pub mod train;

use crate::mid::error::Error;
use crate::mid::game::{Applied, Chart, Game, Outcome, Purpose, Ranking, Status, Turn};
use crate::mid::settings::{Kind, Setting, checked, format_decimal, no_setting};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use twenty48::ai::{EvalKind, Player, SearchConfig};
use twenty48::{Direction, Rules};

/// How deep the computer searches, in its own moves, for a hint and for each autoplay move alike: one player, so the
/// hint names the move autoplay plays on the same board. A fixed depth rather than a time budget: the same board
/// gives the same move whatever the machine's load (a 100 ms hint and 20 ms autoplay moves used to reach different
/// depths and disagree). Depth 3 with the network takes about 0.23 ms a move on average (BENCHMARKS.md).
pub const THINK_DEPTH: u32 = 3;

/// 2048.
pub struct Twenty48;

/// The options a player chooses for a 2048 game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// Board size (3 to 8).
    pub size: usize,
    /// Probability that a new tile is a 4.
    pub four_chance: f64,
    /// The tile that wins.
    pub target: u64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            size: 4,
            four_chance: 0.1,
            target: 2048,
        }
    }
}

impl Params {
    /// The engine's rules for these parameters.
    pub fn rules(&self) -> Result<Rules, Error> {
        Rules::new(self.size, self.four_chance, self.target)
            .map_err(|e| Error::Settings(e.to_string()))
    }
}

/// A 2048 game in progress: the engine's game and what the last move did (to mark new and merged tiles).
#[derive(Clone, Debug)]
pub struct State {
    /// The engine's game.
    pub game: twenty48::Game,
    /// The last move's details.
    pub last: Option<twenty48::Turn>,
}

const TARGETS: &[(&str, &str)] = &[
    ("8", "8"),
    ("16", "16"),
    ("32", "32"),
    ("64", "64"),
    ("128", "128"),
    ("256", "256"),
    ("512", "512"),
    ("1024", "1024"),
    ("2048", "2048"),
    ("4096", "4096"),
    ("8192", "8192"),
    ("16384", "16384"),
    ("32768", "32768"),
    ("65536", "65536"),
    ("131072", "131072"),
];

const SETTINGS: &[Setting] = &[
    Setting {
        key: "size",
        label: "Board size",
        help: "The board has this many rows and columns.",
        kind: Kind::Number { min: 3, max: 8 },
    },
    Setting {
        key: "four-chance",
        label: "Chance of a 4",
        help: "Probability that a new tile is a 4 rather than a 2 (0.1 in the original game; 0.5 makes 4s as common as 2s).",
        kind: Kind::Decimal {
            min: 0.0,
            max: 1.0,
            step: 0.1,
        },
    },
    Setting {
        key: "target",
        label: "Target tile",
        help: "The tile that wins (a power of two); you may keep going after it.",
        kind: Kind::Choice(TARGETS),
    },
];

/// The computer: one player, for hints and autoplay alike.
pub struct Thinker {
    player: Option<Player>,
    four_chance: f64,
}

impl Game for Twenty48 {
    const ID: &'static str = "2048";
    const TITLE: &'static str = "2048";
    const BLURB: &'static str = "Slide the tiles; equal tiles merge. Make 2048.";
    const ENGINE: (&'static str, &'static str) = (twenty48::NAME, twenty48::VERSION);
    const CHARTS: &'static str =
        "the spread of scores and the highest tile of the newest 1000 ranked games";
    type Params = Params;
    type State = State;
    type Move = Direction;
    type Thinker = Thinker;
    type Context = ();

    fn settings() -> &'static [Setting] {
        SETTINGS
    }

    fn get(p: &Params, key: &str) -> String {
        match key {
            "size" => p.size.to_string(),
            "four-chance" => format_decimal(p.four_chance),
            "target" => p.target.to_string(),
            _ => String::new(),
        }
    }

    fn set(p: &mut Params, key: &str, value: &str) -> Result<(), Error> {
        let v = checked(SETTINGS, key, value)?;
        // `checked` has already refused anything that is not a value of the setting.
        let number = || Error::Settings(format!("'{v}' is not a number"));
        match key {
            "size" => p.size = v.parse().map_err(|_| number())?,
            "four-chance" => p.four_chance = v.parse().map_err(|_| number())?,
            "target" => p.target = v.parse().map_err(|_| number())?,
            _ => return Err(no_setting(key)),
        }
        Ok(())
    }

    fn check(p: &Params) -> Result<(), Error> {
        p.rules().map(|_| ())
    }

    fn variant(p: &Params) -> String {
        let mut v = format!("{0}x{0}", p.size);
        let d = Params::default();
        if p.four_chance != d.four_chance {
            v.push_str(&format!(" p4={}", format_decimal(p.four_chance)));
        }
        if p.target != d.target {
            v.push_str(&format!(" target={}", p.target));
        }
        v
    }

    fn new_game(p: &Params, seed: u64) -> Result<State, Error> {
        Ok(State {
            game: twenty48::Game::new(p.rules()?, seed),
            last: None,
        })
    }

    fn parse_move(_state: &State, text: &str) -> Result<Direction, Error> {
        parse_direction(text).ok_or_else(|| {
            Error::Move(format!(
                "'{text}' is not a direction (up, down, left or right)"
            ))
        })
    }

    /// Old records hold `undo` words: each one takes the slide before it back, as it did in the game.
    fn parse_moves(start: &State, text: &str) -> Result<Vec<Direction>, Error> {
        let mut moves = Vec::new();
        for (i, word) in text.split_whitespace().enumerate() {
            if word.eq_ignore_ascii_case("undo") {
                moves.pop().ok_or_else(|| {
                    Error::Move(format!("word {}: undo with nothing to undo", i + 1))
                })?;
            } else {
                moves.push(
                    Self::parse_move(start, word)
                        .map_err(|e| e.within(format!("word {}", i + 1)))?,
                );
            }
        }
        Ok(moves)
    }

    fn apply(state: &mut State, dir: &Direction) -> Result<Applied, Error> {
        let turn = state.game.slide(*dir).map_err(|e| {
            Error::Move(match e {
                twenty48::SlideError::NoChange => format!("nothing moves {dir}"),
                twenty48::SlideError::GameOver => "the game is over".to_string(),
                e @ (twenty48::SlideError::TileTooLarge | twenty48::SlideError::PointsTooLarge) => {
                    e.to_string()
                }
            })
        })?;
        let applied = Applied {
            note: (turn.gained > 0).then(|| format!("+{}", turn.gained)),
            milestone: (turn.reached_target_now && !turn.over)
                .then(|| format!("You made {}!", state.game.rules().target())),
        };
        state.last = Some(turn);
        Ok(applied)
    }

    fn status(state: &State) -> Status {
        match state.game.status() {
            twenty48::Status::Over if state.game.reached_target() => Status::Over(Outcome::Won),
            twenty48::Status::Over => Status::Over(Outcome::Lost),
            _ => Status::Playing(Turn::Player),
        }
    }

    fn score(state: &State) -> i64 {
        i64::try_from(state.game.score()).unwrap_or(i64::MAX)
    }

    fn moves_made(state: &State) -> usize {
        state.game.moves_made()
    }

    fn charts(_p: &Params) -> Vec<Chart> {
        vec![Chart::Scores, Chart::Peaks("highest tile")]
    }

    fn peak(state: &State) -> Option<i64> {
        i64::try_from(state.game.board().max_tile()).ok()
    }

    fn ranking(_p: &Params) -> Ranking {
        Ranking::HighScore
    }

    fn resign(state: &State) -> Outcome {
        if state.game.reached_target() {
            Outcome::Won
        } else {
            Outcome::GaveUp
        }
    }

    fn ending(state: &State, outcome: Outcome) -> String {
        let target = state.game.rules().target();
        let tile = state.game.board().max_tile();
        match outcome {
            Outcome::Won => format!("You won: {target} reached (best tile {tile})"),
            Outcome::GaveUp => format!("Given up (best tile {tile})"),
            _ => format!("Game over: no move left (best tile {tile})"),
        }
    }

    fn progress(state: &State) -> String {
        let n = state.game.moves_made();
        format!(
            "score {} · {}",
            state.game.score(),
            crate::figures::count(n as u64, "move")
        )
    }

    fn can_autoplay(_p: &Params) -> bool {
        true
    }

    fn thinker(p: &Params, _context: &()) -> Thinker {
        if p.size == 4 {
            // Read the network in the background while the player looks at the board, so the first hint does not
            // wait for it (about a second).
            crate::host::runner().run(Box::new(|| {
                let _ = twenty48::ai::ntuple::shipped();
            }));
        }
        Thinker {
            player: None,
            four_chance: p.four_chance,
        }
    }

    fn think(
        t: &mut Thinker,
        state: &State,
        _purpose: Purpose,
        _stop: &AtomicBool,
    ) -> Option<Direction> {
        // Hints and autoplay: the same player (see [`THINK_DEPTH`]).
        let player = t.player.get_or_insert_with(|| {
            Player::with_eval(SearchConfig::depth(THINK_DEPTH), EvalKind::Network).0
        });
        player.best_move(state.game.board(), t.four_chance)
    }

    fn describe_hint(_context: &(), state: &State, dir: &Direction) -> String {
        match network_trouble(state.game.rules().size()) {
            Some(why) => format!("slide {dir} · {why}"),
            None => format!("slide {dir}"),
        }
    }

    /// Every slide valued by the player at a fixed depth against the best ([`review`]).
    fn review(
        _context: &(),
        _params: &Params,
        start: &State,
        moves: &[Direction],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Option<Result<crate::mid::review::Review, Error>> {
        Some(review::review(start, moves, progress))
    }

    /// The same board, and the same seed stream: the tiles that come are the ones the game would have had.
    fn practice(_context: &(), params: &Params, _at: &State) -> Result<Params, Error> {
        Ok(*params)
    }

    fn rules() -> &'static [&'static str] {
        RULES
    }
}

/// Why the computer plays a 4x4 board with the hand-made evaluation instead of the learned network (the weights file
/// is missing or damaged), or with the network but without the endgame stores compiled in beside it (a store is
/// damaged), in a few words; `None` when it has both, or on other sizes (the network is 4x4 only). Loads the network
/// and the stores if they are not loaded yet.
pub fn network_trouble(size: usize) -> Option<String> {
    if size != 4 {
        return None;
    }
    if twenty48::ai::ntuple::COMPILED_IN.is_empty()
        && twenty48::ai::ntuple::weights_path().is_none()
    {
        // A build without the network (the web page's): nothing is damaged, there is simply none.
        return Some("hand-made evaluation (no network in this build)".into());
    }
    if let Err(e) = twenty48::ai::ntuple::shipped() {
        return Some(format!(
            "hand-made evaluation, the network could not be read: {e}"
        ));
    }
    // The network plays; the endgame stores compiled in beside it are asked first (see `Player::with_eval`).
    twenty48::endgame::shipped::shipped()
        .err()
        .map(|e| format!("network without its endgame stores: {e}"))
}

/// Parses a direction as typed: `w a s d`, vim's `h j k l`, or the words `up down left right`.
pub fn parse_direction(word: &str) -> Option<Direction> {
    match word.to_ascii_lowercase().as_str() {
        "w" | "k" | "up" => Some(Direction::Up),
        "s" | "j" | "down" => Some(Direction::Down),
        "a" | "h" | "left" => Some(Direction::Left),
        "d" | "l" | "right" => Some(Direction::Right),
        _ => None,
    }
}

/// 2048's rules, one paragraph each (see RULES.md, "2048").
pub const RULES: &[&str] = &[
    "Slide all tiles in one direction. Two equal tiles that meet merge into one of double value; a tile merges at \
     most once per move, and the pair nearest the wall you slide toward merges first (2 2 2 . left gives 4 2 . .).",
    "Every move that changes the board adds one tile on a random empty cell: a 2, or sometimes a 4. A move that \
     changes nothing is not a turn. Each merge scores the value of the new tile.",
    "Make the target tile (2048 by default) to win; you may then keep going. The game is over when no move is left.",
    "Marks: + is the tile that just appeared, * a tile made by a merge. Undo, hints and autoplay mark the game as \
     assisted, and a game played from a chosen seed is marked too: such games are kept in the history but not in \
     the best scores. Every move is saved at once; quit at any time and continue later.",
];

/// A test game: 2048 with the default settings from seed `value`, played left, up, right, down in `store`.
#[cfg(test)]
pub(crate) fn four_moves_played(
    value: u64,
    store: &mut dyn crate::storage::Storage,
) -> crate::mid::session::Session<Twenty48> {
    let seed = crate::mid::session::Seed {
        value,
        chosen: false,
    };
    let mut s =
        crate::mid::session::Session::<Twenty48>::new(Params::default(), seed, store).unwrap();
    for d in [
        Direction::Left,
        Direction::Up,
        Direction::Right,
        Direction::Down,
    ] {
        let _ = s.play(d, store);
    }
    s
}

#[cfg(test)]
#[cfg(feature = "terminal")]
mod tests {
    use super::*;
    use crate::mid::session::Session;
    use crate::storage::{Storage, Store};

    #[test]
    fn a_game_autosaves_and_resumes_identically() {
        let mut store = Store::in_memory().unwrap();
        let s = four_moves_played(7, &mut store);
        let saved = store.unfinished(Some("2048")).unwrap();
        assert_eq!(saved.len(), 1);
        drop(s);
        let resumed = Session::<Twenty48>::resume(&saved[0], &store).unwrap();
        assert_eq!(resumed.state().game.seed(), 7);
        assert_eq!(resumed.moves().len(), resumed.state().game.moves_made());
    }

    #[test]
    fn undo_folds_old_records_and_rebuilds_the_same_tiles() {
        let start = Twenty48::new_game(&Params::default(), 3).unwrap();
        let moves = Twenty48::parse_moves(&start, "left undo right UP").unwrap();
        assert_eq!(moves, vec![Direction::Right, Direction::Up]);
        assert!(Twenty48::parse_moves(&start, "undo").is_err());
        assert!(Twenty48::parse_moves(&start, "left banana").is_err());
    }

    #[test]
    fn variants_name_non_default_options() {
        assert_eq!(Twenty48::variant(&Params::default()), "4x4");
        let p = Params {
            size: 5,
            four_chance: 0.5,
            target: 4096,
        };
        assert_eq!(Twenty48::variant(&p), "5x5 p4=0.5 target=4096");
    }

    #[test]
    fn settings_refuse_values_out_of_range_and_leave_the_params_alone() {
        let mut p = Params::default();
        assert!(Twenty48::set(&mut p, "size", "99").is_err());
        assert!(Twenty48::set(&mut p, "target", "4294967295").is_err());
        assert!(Twenty48::set(&mut p, "four-chance", "2").is_err());
        assert_eq!(p, Params::default());
        Twenty48::set(&mut p, "size", "5").unwrap();
        assert_eq!(Twenty48::get(&p, "size"), "5");
    }
}

/// The memory store (the page's) keeps a game played in it as the database does.
#[cfg(test)]
mod memory_store_tests {
    use super::four_moves_played;
    use crate::storage::{MemoryStore, Storage, dump};

    #[test]
    fn a_game_is_played_saved_and_recorded_in_memory() {
        let mut store = MemoryStore::new();
        let mut s = four_moves_played(11, &mut store);
        let saved = store.unfinished(Some("2048")).unwrap();
        assert_eq!(saved.len(), 1);
        assert!(
            !s.saved(),
            "memory keeps nothing, so nothing is called saved"
        );
        s.resign(&mut store);
        assert!(store.unfinished(None).unwrap().is_empty());
        let history = store.history(None, 10).unwrap();
        assert_eq!(history.games.len(), 1);
        assert_eq!(s.ended().and_then(|e| e.id), Some(history.games[0].id));
    }

    #[test]
    fn a_store_dumped_and_read_back_answers_alike() {
        let mut store = MemoryStore::new();
        let mut s = four_moves_played(11, &mut store);
        s.resign(&mut store);
        let _ = four_moves_played(12, &mut store);
        let saved = store.unfinished(None).unwrap();
        store.set_aside(&saved[0], "a test").unwrap();
        let _ = four_moves_played(13, &mut store);
        let text = dump::write(&store.dump());
        let back = MemoryStore::from_dump(dump::read(&text).unwrap().dump);
        assert_eq!(back.dump(), store.dump());
        assert_eq!(back.set_aside_count().unwrap(), 1);
        assert_eq!(
            back.unfinished(None).unwrap(),
            store.unfinished(None).unwrap()
        );
        assert_eq!(
            back.history(None, 10).unwrap(),
            store.history(None, 10).unwrap()
        );
        assert_eq!(
            back.dump().set_aside[0].row["moves"],
            saved[0].moves.as_str()
        );
    }
}

#[cfg(test)]
mod network_tests {
    use super::network_trouble;

    #[test]
    fn a_build_without_the_network_says_so_plainly() {
        assert_eq!(network_trouble(5), None, "other sizes never use it");
        if cfg!(feature = "network") {
            // Compiled in (not loaded here: that takes a second and 270 MB).
            assert!(!twenty48::ai::ntuple::COMPILED_IN.is_empty());
        } else if twenty48::ai::ntuple::weights_path().is_none() {
            assert_eq!(
                network_trouble(4).as_deref(),
                Some("hand-made evaluation (no network in this build)")
            );
        }
    }
}
