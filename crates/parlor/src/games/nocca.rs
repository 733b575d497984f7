//! A Nocca Nocca play session, shared by the full-screen and plain front ends: who plays which side, the game,
//! undo (a pair of moves against the computer), hints, autosave after every move and recording when it ends.

use super::Meta;
use crate::storage::{Store, Unfinished, now_ms};
use anyhow::{Context, Result, anyhow};
use nocca::{
    Colour, Dims, Dir, Engine, Game, GameOptions, Level, Limits, Move, Outcome, PlayError,
    Position, Square,
};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The game's name in the database.
pub const GAME: &str = "nocca";

/// How long a hint thinks.
pub const HINT_MS: u64 = 300;

/// The rules, one paragraph each (help screens and plain `?`).
pub const RULES: &[&str] = &[
    "Nocca Nocca is played on 6 rows by 5 columns. Black starts on row 1 (the bottom), White on row 6 (the top); \
     each has 5 pieces. Beyond each home row lies a goal: Black wins by stepping a piece beyond row 6, White by \
     stepping beyond row 1, straight or diagonally.",
    "On your turn move one of your pieces that is on top of its square one step in any of the 8 directions, named \
     as on a keyboard: y k u (up-left, up, up-right), h l (left, right), b j n (down-left, down, down-right).",
    "A piece may step onto a square holding pieces of either colour and ride on top. A square holds at most 3 \
     pieces. A piece with another piece on top of it cannot move. No piece may leave over a side edge or over its \
     own home row.",
    "A player with no legal move on their turn loses (blockade). House rules: the same position with the same \
     player to move for the third time is a draw, and so is a game that reaches 500 plies.",
    "The board shows each square's pieces from the bottom (left) to the top (right), the top piece in capitals: \
     'b w B' is a white piece on a black one, with a black piece riding on top.",
    "Against the computer, undo takes back your move and its answer. Undo and hints mark the game as assisted. \
     Records are kept per opponent (vs beginner ... vs expert); in two-player and watched games the result is \
     given from Black's side. The score is the number of plies: the fewer, the better.",
];

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Two people at one keyboard.
    Two,
    /// A person against the computer.
    #[default]
    Computer,
    /// The computer against itself.
    Watch,
}

impl Mode {
    /// All modes, in menu order.
    pub const ALL: [Mode; 3] = [Mode::Two, Mode::Computer, Mode::Watch];

    /// How the mode is shown.
    pub fn label(self) -> &'static str {
        match self {
            Mode::Two => "two players",
            Mode::Computer => "against the computer",
            Mode::Watch => "watch the computer",
        }
    }
}

/// Reads and writes a value through its text form (Display / FromStr).
mod as_text {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use std::fmt::Display;
    use std::str::FromStr;

    pub fn serialize<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

/// The options of a Nocca Nocca game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Who plays.
    pub mode: Mode,
    /// The computer's level (against the computer, and both sides when watching).
    #[serde(with = "as_text")]
    pub level: Level,
    /// The human's colour against the computer.
    #[serde(with = "as_text")]
    pub human: Colour,
    /// Who moves first.
    #[serde(with = "as_text")]
    pub first: Colour,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            mode: Mode::Computer,
            level: Level::Casual,
            human: Colour::Black,
            first: Colour::Black,
        }
    }
}

impl Options {
    /// What records are grouped by: `vs casual`, `two players` or `watch`.
    pub fn variant(&self) -> String {
        match self.mode {
            Mode::Two => "two players".into(),
            Mode::Computer => format!("vs {}", self.level),
            Mode::Watch => "watch".into(),
        }
    }

    /// The side whose point of view the result takes: the human, or Black in two-player and watched games.
    pub fn viewer(&self) -> Colour {
        match self.mode {
            Mode::Computer => self.human,
            _ => Colour::Black,
        }
    }

    /// Whether `side` is played by the computer.
    pub fn is_computer(&self, side: Colour) -> bool {
        match self.mode {
            Mode::Two => false,
            Mode::Computer => side != self.human,
            Mode::Watch => true,
        }
    }

    /// A one-line description: `you (black) vs casual, black first`.
    pub fn describe(&self) -> String {
        match self.mode {
            Mode::Two => format!("two players, {} first", self.first),
            Mode::Computer => format!(
                "you ({}) against the computer ({}), {} first",
                self.human, self.level, self.first
            ),
            Mode::Watch => format!("the computer ({}) against itself", self.level),
        }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        Position::start_with(Dims::STANDARD, self.first)
    }
}

/// How a finished game was recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// The outcome (winner, reason).
    pub outcome: Outcome,
    /// `won`, `lost` or `draw`, from the viewer's side.
    pub result: &'static str,
    /// The database id, when it was recorded.
    pub id: Option<i64>,
    /// Rank among the unassisted wins of this variant.
    pub rank: Option<usize>,
}

/// A Nocca Nocca game being played.
pub struct Session {
    /// The game.
    pub game: Game,
    /// Its options.
    pub options: Options,
    /// Seed of the computer's random choices.
    pub seed: u64,
    /// Bookkeeping.
    pub meta: Meta,
    /// Set once the game is over and recorded.
    pub ended: Option<Ending>,
    /// The last storage problem, to show once.
    pub storage_error: Option<String>,
}

/// The text of a result from `viewer`'s side.
pub fn result_for(outcome: &Outcome, viewer: Colour) -> &'static str {
    match outcome.winner {
        None => "draw",
        Some(w) if w == viewer => "won",
        Some(_) => "lost",
    }
}

impl Session {
    /// A new game.
    pub fn new(options: Options, seed: u64) -> Session {
        Session {
            game: Game::from_position(options.start(), GameOptions::default()),
            options,
            seed,
            meta: Meta::new(),
            ended: None,
            storage_error: None,
        }
    }

    /// Takes over a saved game in progress, replaying its moves.
    pub fn resume(saved: &Unfinished) -> Result<Session> {
        let options: Options =
            serde_json::from_str(&saved.options).context("reading the saved options")?;
        let game = Game::replay(options.start(), GameOptions::default(), &saved.moves)
            .map_err(|e| anyhow!("replaying the saved moves: {e}"))?;
        Ok(Session {
            game,
            options,
            seed: saved.seed,
            meta: Meta {
                session: saved.session.clone(),
                started_at: saved.started_at,
                assisted: saved.assisted,
            },
            ended: None,
            storage_error: None,
        })
    }

    /// Whether the computer is to move now.
    pub fn computer_to_move(&self) -> bool {
        !self.game.is_over() && self.options.is_computer(self.game.side_to_move())
    }

    /// A fresh engine for this game's computer player.
    pub fn engine(&self) -> Engine {
        Engine::new(self.options.level, self.seed ^ self.game.ply() as u64)
    }

    /// Plays a move (the human's or the computer's). On error nothing changes. A move that ends the game records it.
    pub fn play(&mut self, mv: Move, store: &mut Store) -> Result<Option<Outcome>, PlayError> {
        let out = self.game.play(mv)?;
        match out {
            Some(o) => self.end(o, store),
            None => self.save(store),
        }
        Ok(out)
    }

    /// Takes back the last move; against the computer, back to the human's previous turn (the computer's answer and
    /// the human's move). Marks the game assisted. Returns how many plies were taken back (0: nothing to undo, or
    /// the game is already recorded, or nobody human plays).
    pub fn undo(&mut self, store: &mut Store) -> usize {
        if self.ended.is_some() || self.options.mode == Mode::Watch {
            return 0;
        }
        let mut n = 0;
        let human_moved = |g: &Game, opts: &Options| {
            g.moves()
                .iter()
                .zip(g.positions())
                .any(|(_, p)| !opts.is_computer(p.side_to_move()))
        };
        if !human_moved(&self.game, &self.options) {
            return 0;
        }
        while self.game.undo().is_some() {
            n += 1;
            if !self.options.is_computer(self.game.side_to_move()) {
                break;
            }
        }
        if n > 0 {
            self.meta.assisted = true;
            self.save(store);
        }
        n
    }

    /// The engine's best move for the side to move (marks the game assisted when a human asked).
    pub fn hint(&mut self, store: &mut Store) -> Option<Move> {
        let r = nocca::hint(&self.game, Limits::time(Duration::from_millis(HINT_MS)))?;
        if !self.meta.assisted {
            self.meta.assisted = true;
            self.save(store);
        }
        Some(r.mv)
    }

    /// Whether any move has been made.
    pub fn started(&self) -> bool {
        self.game.ply() > 0
    }

    fn unfinished(&self) -> Unfinished {
        Unfinished {
            session: self.meta.session.clone(),
            game: GAME.into(),
            variant: self.options.variant(),
            options: serde_json::to_string(&self.options).unwrap_or_default(),
            seed: self.seed,
            moves: self.game.record(),
            score: self.game.ply() as i64,
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

    fn end(&mut self, outcome: Outcome, store: &mut Store) {
        let result = result_for(&outcome, self.options.viewer());
        let recorded = super::record_finished(store, self.unfinished(), result, true)
            .unwrap_or_else(|e| {
                self.storage_error = Some(e);
                super::Recorded::default()
            });
        self.ended = Some(Ending {
            outcome,
            result,
            id: recorded.id,
            rank: recorded.rank,
        });
    }

    /// A sentence about the end: `Black wins by goal after 23 plies. You won.`
    pub fn ending_text(&self) -> Option<String> {
        let end = self.ended.as_ref()?;
        let o = end.outcome;
        let head = match o.winner {
            Some(w) => format!("{} wins by {}", capital(w.name()), o.reason),
            None => format!("Draw by {}", o.reason),
        };
        let who = match self.options.mode {
            Mode::Computer => match end.result {
                "won" => " You won!",
                "lost" => " You lost.",
                _ => "",
            },
            _ => "",
        };
        Some(format!("{head} after {} plies.{who}", self.game.ply()))
    }
}

/// The squares whose top piece the side to move may move, bottom row first.
pub fn movable(pos: &Position) -> Vec<Square> {
    let mut v: Vec<Square> = pos.legal_moves().iter().map(|m| m.from).collect();
    v.sort_by_key(|s| (s.row(), s.col()));
    v.dedup();
    v
}

/// The legal moves of the piece on top of `sq`, in the seed's direction order `y k u h l b j n`.
pub fn moves_from(pos: &Position, sq: Square) -> Vec<Move> {
    Dir::ALL
        .into_iter()
        .map(|d| Move::new(sq, d))
        .filter(|&m| pos.is_legal(m))
        .collect()
}

/// Where a move lands: a square such as `c2`, or `goal`.
pub fn target_name(pos: &Position, mv: Move) -> String {
    match mv.to() {
        Some(t) if !pos.is_goal_move(mv) => t.to_string(),
        _ => "goal".into(),
    }
}

/// Why the piece on `sq` cannot be chosen by the side to move, or `None` if it can.
pub fn square_refusal(pos: &Position, sq: Square) -> Option<String> {
    let side = pos.side_to_move();
    if !sq.on(pos.dims()) {
        return Some(format!("{sq} is not on the board"));
    }
    let st = pos.stack(sq);
    match st.top() {
        None => Some(format!("{sq} is empty")),
        Some(c) if c != side => {
            let mine = st.iter().any(|p| p == side);
            Some(if mine {
                format!("your piece on {sq} is ridden on by {c}: it cannot move")
            } else {
                format!("the piece on {sq} is {c}'s")
            })
        }
        Some(_) if moves_from(pos, sq).is_empty() => {
            Some(format!("the piece on {sq} has no legal step"))
        }
        Some(_) => None,
    }
}

/// `black` -> `Black`.
pub fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn options_round_trip_as_json_and_name_their_variant() {
        let o = Options {
            mode: Mode::Computer,
            level: Level::Expert,
            human: Colour::White,
            first: Colour::White,
        };
        let j = serde_json::to_string(&o).unwrap();
        assert_eq!(
            j,
            r#"{"mode":"computer","level":"expert","human":"white","first":"white"}"#
        );
        assert_eq!(serde_json::from_str::<Options>(&j).unwrap(), o);
        assert_eq!(o.variant(), "vs expert");
        assert!(serde_json::from_str::<Options>(&j.replace("expert", "god")).is_err());
    }

    #[test]
    fn undo_against_the_computer_takes_back_a_pair_and_resume_rebuilds() {
        let mut store = Store::in_memory().unwrap();
        let mut s = Session::new(Options::default(), 5);
        assert_eq!(s.undo(&mut store), 0);
        s.play(mv("c1k"), &mut store).unwrap();
        s.play(mv("c6j"), &mut store).unwrap();
        s.play(mv("a1k"), &mut store).unwrap();
        s.play(mv("a6j"), &mut store).unwrap();
        assert_eq!(s.undo(&mut store), 2);
        assert_eq!(s.game.record(), "c1k c6j");
        assert!(s.meta.assisted);
        let saved = store.unfinished(Some(GAME)).unwrap();
        let r = Session::resume(&saved[0]).unwrap();
        assert_eq!(r.game.position(), s.game.position());
        assert!(r.meta.assisted);
    }

    #[test]
    fn a_goal_records_the_game_from_the_humans_side() {
        let mut store = Store::in_memory().unwrap();
        let o = Options {
            mode: Mode::Two,
            ..Options::default()
        };
        let mut s = Session::new(o, 1);
        for m in "c1k c6j c2k c5h c3k b5j c4k a6n c5k e6j".split(' ') {
            s.play(mv(m), &mut store).unwrap();
        }
        assert!(s.ended.is_none());
        s.play(mv("c6k"), &mut store).unwrap();
        let end = s.ended.clone().unwrap();
        assert_eq!(end.result, "won");
        assert_eq!(end.rank, Some(1));
        assert_eq!(
            s.ending_text().unwrap(),
            "Black wins by goal after 11 plies."
        );
        let rec = store.game(end.id.unwrap()).unwrap().unwrap();
        assert_eq!(rec.variant, "two players");
        assert_eq!(rec.score, 11);
        assert!(store.unfinished(None).unwrap().is_empty());
    }
}
