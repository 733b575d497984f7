//! Nocca Nocca behind the game interface: parameters (mode, level, colour, who starts, board size), the engine's
//! game as the state, the engine's moves (`c1k`) as moves, and the engine (or, at the perfect level, the board's
//! solved table) as the computer. On a solved board hints give the exact value of the position and of every move.

#[cfg(test)]
mod app_tests;
pub mod board;
pub mod board_text;
#[cfg(feature = "terminal")]
pub mod cli;
pub mod colours;
#[cfg(test)]
mod elsewhere_tests;
pub mod kept;
#[cfg(test)]
mod kept_tests;
pub mod online;
#[cfg(feature = "terminal")]
pub mod plain;
#[cfg(test)]
mod puzzle_tests;
pub mod review;
pub mod screen;
#[cfg(feature = "terminal")]
pub mod solve;
#[cfg(feature = "terminal")]
pub mod solve_estimate;

pub mod tables;

pub use tables::Tables;

use crate::mid::error::Error;
use crate::mid::game::{Applied, Chart, Game, Outcome, Purpose, Ranking, Status, Turn};
use crate::mid::settings::{Kind, Setting, checked, no_setting};
use nocca::{
    Colour, Dims, Dir, Engine, GameOptions, Level, Limits, Move, Opponent, PerfectPlayer, Position,
    Square, Table, Value,
};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long a hint thinks, in milliseconds.
pub const HINT_MS: u64 = 300;

/// The shortest time between two moves when the computer plays itself, so that a person can follow them.
pub const WATCH_PAUSE_MS: u64 = 400;

/// Nocca Nocca.
pub struct Nocca;

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
    /// The value as typed (`two`, `computer`, `watch`).
    pub fn key(self) -> &'static str {
        match self {
            Mode::Two => "two",
            Mode::Computer => "computer",
            Mode::Watch => "watch",
        }
    }
}

/// Reads and writes a value through its text form (Display / FromStr), as the saved parameters always have.
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

fn is_standard(d: &Dims) -> bool {
    *d == Dims::STANDARD
}

/// The options of a Nocca Nocca game. The JSON is the one older Parlors wrote (`mode`, `level`, `human`, `first`);
/// `board` is written only when it is not the standard 6x5, so older records read as 6x5 games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    /// Who plays.
    pub mode: Mode,
    /// The computer's level (against the computer, and both sides when watching): a search level, or perfect
    /// play from the board's solved table. Written as its name (`casual`, `perfect`), as older Parlors wrote it.
    #[serde(with = "as_text")]
    pub level: Opponent,
    /// The person's colour against the computer.
    #[serde(with = "as_text")]
    pub human: Colour,
    /// Who moves first.
    #[serde(with = "as_text")]
    pub first: Colour,
    /// The board: rows and columns (each side has as many pieces as columns).
    #[serde(with = "as_text", default, skip_serializing_if = "is_standard")]
    pub board: Dims,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            mode: Mode::Computer,
            level: Opponent::Engine(Level::Casual),
            human: Colour::Black,
            first: Colour::Black,
            board: Dims::STANDARD,
        }
    }
}

impl Params {
    /// Whether `side` is played by the computer.
    pub fn is_computer(&self, side: Colour) -> bool {
        match self.mode {
            Mode::Two => false,
            Mode::Computer => side != self.human,
            Mode::Watch => true,
        }
    }

    /// A one-line description: `you (black) against the computer (casual), black first`.
    pub fn describe(&self) -> String {
        let board = if is_standard(&self.board) {
            String::new()
        } else {
            format!(", on {}", self.board)
        };
        match self.mode {
            Mode::Two => format!("two players, {} first{board}", self.first),
            Mode::Computer => format!(
                "you ({}) against the computer ({}), {} first{board}",
                self.human, self.level, self.first
            ),
            Mode::Watch => format!("the computer ({}) against itself{board}", self.level),
        }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        Position::start_with(self.board, self.first)
    }
}

/// A Nocca Nocca game in progress: the engine's game, the parameters it is played with (whose turn is whose), and
/// the seed of the computer's random choices.
#[derive(Clone, Debug)]
pub struct State {
    /// The engine's game (positions and moves).
    pub game: nocca::Game,
    /// The parameters.
    pub params: Params,
    /// The seed.
    pub seed: u64,
}

impl State {
    /// The position now.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The position before the last move (the start when none was played).
    pub fn before_last(&self) -> &Position {
        let p = self.game.positions();
        &p[p.len().saturating_sub(2)]
    }
}

const MODES: &[(&str, &str)] = &[
    ("two", "two players"),
    ("computer", "against the computer"),
    ("watch", "watch the computer"),
];

const LEVELS: &[(&str, &str)] = &[
    ("beginner", "beginner"),
    ("casual", "casual"),
    ("strong", "strong"),
    ("expert", "expert"),
    ("perfect", "perfect (solved boards)"),
];

const COLOURS: &[(&str, &str)] = &[("black", "black"), ("white", "white")];

/// Every board: 3 to 6 rows, 3 to 5 columns.
const BOARDS: &[(&str, &str)] = &[
    ("3x3", "3x3"),
    ("3x4", "3x4"),
    ("3x5", "3x5"),
    ("4x3", "4x3"),
    ("4x4", "4x4"),
    ("4x5", "4x5"),
    ("5x3", "5x3"),
    ("5x4", "5x4"),
    ("5x5", "5x5"),
    ("6x3", "6x3"),
    ("6x4", "6x4"),
    ("6x5", "6x5"),
];

const SETTINGS: &[Setting] = &[
    Setting {
        key: "mode",
        label: "Players",
        help: "Two at one keyboard, you against the computer, or the computer alone.",
        kind: Kind::Choice(MODES),
    },
    Setting {
        key: "level",
        label: "Computer level",
        help: "How strong: 0.1, 0.3, 0.6 or 2 s a move, or perfect (solved boards).",
        kind: Kind::Choice(LEVELS),
    },
    Setting {
        key: "colour",
        label: "Your colour",
        help: "Your colour against the computer (Black's home row is at the bottom).",
        kind: Kind::Choice(COLOURS),
    },
    Setting {
        key: "first",
        label: "Moves first",
        help: "Which colour makes the first move.",
        kind: Kind::Choice(COLOURS),
    },
    Setting {
        key: "board",
        label: "Board",
        help: "Rows x columns (3-6 x 3-5); each side has as many pieces as columns.",
        kind: Kind::Choice(BOARDS),
    },
];

/// The computer: an engine of the level, made on first use and kept between moves (its table helps the next
/// search), or the perfect player with the board's table.
pub struct Thinker {
    level: Opponent,
    engine: Option<Engine>,
    perfect: Option<PerfectPlayer>,
    /// When the computer plays itself (watch mode): the least time a move takes, so that a person can follow.
    pace_ms: u64,
    /// The run's solved tables (the game's context): the perfect level plays from them, hints read them.
    tables: Tables,
}

impl Thinker {
    /// Sets the least time a watched move takes (the full screen's `+` and `-`).
    pub fn set_pace(&mut self, ms: u64) {
        self.pace_ms = ms;
    }
}

impl Game for Nocca {
    const ID: &'static str = "nocca";
    const TITLE: &'static str = "Nocca Nocca";
    const BLURB: &'static str = "Stack and ride your pieces; step one beyond the far row to win.";
    const ENGINE: (&'static str, &'static str) = (nocca::NAME, nocca::VERSION);
    const RANKS: &'static str = "wins by fewest plies";
    const CHARTS: &'static str = "the win rate against each level over time";
    type Params = Params;
    type State = State;
    type Move = Move;
    type Thinker = Thinker;
    type Context = Tables;

    fn settings() -> &'static [Setting] {
        SETTINGS
    }

    fn get(p: &Params, key: &str) -> String {
        match key {
            "mode" => p.mode.key().into(),
            "level" => p.level.name().into(),
            "colour" => p.human.name().into(),
            "first" => p.first.name().into(),
            "board" => p.board.to_string(),
            _ => String::new(),
        }
    }

    fn set(p: &mut Params, key: &str, value: &str) -> Result<(), Error> {
        let v = checked(SETTINGS, key, value)?;
        let refused = |e: &dyn std::fmt::Display| Error::Settings(e.to_string());
        match key {
            "mode" => {
                p.mode = match v.as_str() {
                    "two" => Mode::Two,
                    "watch" => Mode::Watch,
                    _ => Mode::Computer,
                }
            }
            "level" => {
                p.level = v
                    .parse()
                    .map_err(|e: nocca::OpponentParseError| refused(&e))?
            }
            "colour" => {
                p.human = v
                    .parse()
                    .map_err(|e: nocca::ColourParseError| refused(&e))?
            }
            "first" => {
                p.first = v
                    .parse()
                    .map_err(|e: nocca::ColourParseError| refused(&e))?
            }
            "board" => p.board = v.parse().map_err(|e: nocca::DimsError| refused(&e))?,
            _ => return Err(no_setting(key)),
        }
        Ok(())
    }

    fn applies(p: &Params, key: &str) -> bool {
        match key {
            "level" => p.mode != Mode::Two,
            "colour" => p.mode == Mode::Computer,
            _ => true,
        }
    }

    /// The perfect level needs its board's solved table: one that is loaded, in the data directory, or solved on
    /// first use (boards up to 4x4).
    fn playable(p: &Params, tables: &Tables) -> Result<(), Error> {
        if p.mode != Mode::Two && p.level == Opponent::Perfect {
            tables.available(p.board).map_err(Error::Settings)?;
        }
        Ok(())
    }

    fn variant(p: &Params) -> String {
        let mut v = match p.mode {
            Mode::Two => "two players".to_string(),
            Mode::Computer => format!("vs {}", p.level),
            Mode::Watch => "watch".to_string(),
        };
        if !is_standard(&p.board) {
            v.push_str(&format!(" {}", p.board));
        }
        v
    }

    fn new_game(p: &Params, seed: u64) -> Result<State, Error> {
        Ok(State {
            game: nocca::Game::from_position(p.start(), GameOptions::default()),
            params: *p,
            seed,
        })
    }

    fn parse_move(state: &State, text: &str) -> Result<Move, Error> {
        let dims = state.position().dims();
        let mv: Move = text
            .parse()
            .map_err(|e: nocca::MoveParseError| Error::Move(move_error(&e, dims)))?;
        if !mv.from.on(dims) {
            return Err(Error::Move(format!(
                "{} is not on the {dims} board ({})",
                mv.from,
                squares_of(dims)
            )));
        }
        Ok(mv)
    }

    fn apply(state: &mut State, mv: &Move) -> Result<Applied, Error> {
        state.game.play(*mv).map_err(|e| {
            Error::Move(match e {
                nocca::PlayError::Illegal(_) => refusal(state.position(), *mv),
                other => other.to_string(),
            })
        })?;
        Ok(Applied::default())
    }

    fn status(state: &State) -> Status {
        match state.game.outcome() {
            Some(o) => Status::Over(match (state.params.mode, o.winner) {
                (_, None) => Outcome::Draw,
                (Mode::Computer, Some(w)) if w == state.params.human => Outcome::Won,
                (Mode::Computer, Some(_)) => Outcome::Lost,
                (_, Some(_)) => Outcome::Done,
            }),
            None if state.params.is_computer(state.game.side_to_move()) => {
                Status::Playing(Turn::Computer)
            }
            None => Status::Playing(Turn::Player),
        }
    }

    fn score(state: &State) -> i64 {
        state.game.ply() as i64
    }

    fn moves_made(state: &State) -> usize {
        state.game.ply()
    }

    fn score_name() -> &'static str {
        "plies"
    }

    fn ranking(p: &Params) -> Ranking {
        match p.mode {
            Mode::Computer => Ranking::FewestToWin,
            _ => Ranking::Unranked,
        }
    }

    fn charts(p: &Params) -> Vec<Chart> {
        match p.mode {
            Mode::Computer => vec![Chart::Results],
            _ => Vec::new(),
        }
    }

    fn ending(state: &State, outcome: Outcome) -> String {
        let n = state.game.ply();
        let plies = crate::figures::noun_for(n as u64, "ply");
        let head = match state.game.outcome() {
            Some(o) => match (o.winner, o.reason) {
                (Some(w), nocca::Reason::Goal) => {
                    format!(
                        "{} reached the goal in {n} {plies}",
                        crate::mid::capitalised(w.name())
                    )
                }
                (Some(w), reason) => {
                    format!(
                        "{} wins by {reason} after {n} {plies}",
                        crate::mid::capitalised(w.name())
                    )
                }
                (None, reason) => format!("Draw by {reason} after {n} {plies}"),
            },
            // Two players: the one to move gave up; against the computer, the player did.
            None if state.params.mode == Mode::Two => format!(
                "{} gave up after {n} {plies}",
                crate::mid::capitalised(state.game.side_to_move().name())
            ),
            None => format!("Given up after {n} {plies}"),
        };
        let who = match outcome {
            Outcome::Won => ": you won!",
            Outcome::Lost => ": you lost",
            _ => "",
        };
        format!("{head}{who}")
    }

    fn progress(state: &State) -> String {
        let n = state.game.ply();
        match state.game.outcome() {
            Some(o) => format!("ply {n} · {}", crate::mid::capitalised(&o.to_string())),
            None => format!(
                "ply {n} · {} to move",
                crate::mid::capitalised(state.game.side_to_move().name())
            ),
        }
    }

    fn undo_depth(state: &State, moves: usize) -> usize {
        let p = &state.params;
        match p.mode {
            Mode::Watch => 0,
            Mode::Two => usize::from(moves > 0),
            Mode::Computer if p.is_computer(state.game.side_to_move()) => usize::from(moves > 0),
            // The person's turn: take back the computer's answer and the person's move before it (none when the
            // computer only made the first move).
            Mode::Computer if moves >= 2 => 2,
            Mode::Computer => 0,
        }
    }

    fn can_think(p: &Params) -> bool {
        p.mode != Mode::Watch
    }

    fn can_autoplay(p: &Params) -> bool {
        p.mode == Mode::Computer
    }

    /// The run's solved tables, kept in `data_dir/tables` ([`Tables`]).
    fn context(data_dir: Option<&std::path::Path>) -> Tables {
        Tables::new(data_dir)
    }

    fn thinker(p: &Params, tables: &Tables) -> Thinker {
        Thinker {
            level: p.level,
            engine: None,
            perfect: None,
            pace_ms: WATCH_PAUSE_MS,
            tables: tables.clone(),
        }
    }

    fn think(t: &mut Thinker, state: &State, purpose: Purpose, stop: &AtomicBool) -> Option<Move> {
        if state.game.is_over() {
            return None;
        }
        let clock = crate::host::clock();
        let started = clock.monotonic_ms();
        let dims = state.position().dims();
        let seed = state.seed ^ state.game.ply() as u64;
        let mv = match (purpose, t.level) {
            // On a solved board the hint is a perfect move (the table is loaded or solved first).
            (Purpose::Hint, _) if t.tables.available(dims).is_ok() => {
                match t.tables.get(dims, stop) {
                    Ok(table) => table.best_move(state.position()).ok()??,
                    // Solved elsewhere (a browser's builder worker) and not come yet, or failed there: a search's
                    // move meanwhile, which the hint's words say.
                    Err(_) if t.tables.solved_elsewhere() => {
                        nocca::hint(&state.game, Limits::time(Duration::from_millis(HINT_MS)))?.mv
                    }
                    Err(_) => return None,
                }
            }
            (Purpose::Hint, _) => {
                nocca::hint(&state.game, Limits::time(Duration::from_millis(HINT_MS)))?.mv
            }
            (_, Opponent::Perfect) => {
                if t.perfect.is_none() {
                    t.perfect = Some(PerfectPlayer::new(t.tables.get(dims, stop).ok()?, seed));
                }
                t.perfect.as_mut()?.choose_in(&state.game).ok()??
            }
            (_, Opponent::Engine(level)) => {
                let engine = t.engine.get_or_insert_with(|| Engine::new(level, seed));
                engine.think(&state.game)?.mv
            }
        };
        if state.params.mode == Mode::Watch {
            // Let a person follow the computer playing itself.
            while clock.monotonic_ms().saturating_sub(started) < t.pace_ms
                && !stop.load(Ordering::Relaxed)
            {
                crate::host::runner().pause(10);
            }
        }
        Some(mv)
    }

    fn why_no_move(tables: &Tables, state: &State) -> String {
        let dims = state.position().dims();
        match tables.failure(dims) {
            Some(why) if state.params.level == Opponent::Perfect => {
                // A failure elsewhere is worded to stand alone ("the 4x4 table: its build failed: ...").
                let table = format!("the {dims} table: ");
                let why = why.strip_prefix(&table).unwrap_or(&why);
                format!(
                    "the computer cannot play perfectly: the {dims} table could not be made ({why})"
                )
            }
            _ => "the computer found no move".into(),
        }
    }

    fn describe_hint(tables: &Tables, state: &State, mv: &Move) -> String {
        let text = move_text(state.position(), *mv, "→");
        match exact(tables, state.position()) {
            Some(e) => format!("{text} · {}\n{}", e.said(), e.every_move()),
            None => match tables.meanwhile(state.position().dims()) {
                Some(note) => format!("{text} · {note}"),
                None => text,
            },
        }
    }

    /// Every ply reviewed: exactly from the board's solved table where it can be had, else by a search at a fixed
    /// depth ([`review`]).
    fn review(
        tables: &Tables,
        _params: &Params,
        start: &State,
        moves: &[Move],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Option<Result<crate::mid::review::Review, Error>> {
        Some(review::review(tables, start, moves, progress))
    }

    /// The side to move against the computer at its strongest level here ([`review::practice`]).
    fn practice(tables: &Tables, params: &Params, at: &State) -> Result<Params, Error> {
        Ok(review::practice(tables, params, at))
    }

    fn rules() -> &'static [&'static str] {
        RULES
    }
}

/// The rules, one paragraph each (help screens and plain `?`).
pub const RULES: &[&str] = &[
    "Nocca Nocca is played on 6 rows by 5 columns (smaller boards, from 3x3, may be chosen; each side has as many \
     pieces as columns). Black starts on row 1 (the bottom), White on the top row. Beyond each home row lies a goal: \
     Black wins by stepping a piece beyond the top row, White by stepping beyond row 1, straight or diagonally.",
    "On your turn move one of your pieces that is on top of its square one step in any of the 8 directions. A piece \
     may step onto a square holding pieces of either colour and ride on top. A square holds at most 3 pieces. A \
     piece with another piece on top of it cannot move. No piece may leave over a side edge or over its own home row.",
    "A player with no legal move on their turn loses (blockade). House rules: the same position with the same \
     player to move for the third time is a draw, and so is a game that reaches 500 plies.",
    "The board shows each square's pieces from the bottom (left) to the top (right), the top piece (the one that \
     can move) in capitals: 'b w B' on the full screen, 'bwB' in plain mode, is a white piece on a black one, with \
     a black piece riding on top.",
    "Keys on the full screen: the arrows (or h j k l, w a s d) move the cursor; Enter, Space or a click selects the \
     piece under it, then a target (or click the target). A selected piece also steps with the digits laid out as \
     on a number pad: 7 8 9 up-left, up, up-right; 4 6 left, right; 1 2 3 down-left, down, down-right (the digit \
     is shown beside each target). Esc or 5 cancels the selection; Esc with nothing selected goes back to the menu, \
     as q does. u undoes, t gives a hint, x gives up, r starts a new game.",
    "In plain mode type the square of a piece (c1), then the direction when asked, in the seed's letters: y k u (up-left, up, \
     up-right), h l (left, right), b j n (down-left, down, down-right); or a whole move on one line: c1k, c1 k or \
     c1-c2. Up is toward White's home row.",
    "Against the computer, undo takes back your move and its answer. Undo, hints and autoplay mark the game as \
     assisted. Records are kept per opponent and board (vs beginner ... vs expert); only wins against the computer \
     rank, by the fewest plies. Two-player and watched games are recorded as done, their ending naming the winner.",
];

/// The exact values of a position on a solved board: the position's for the side to move, and every legal move's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    /// The side to move.
    pub side: Colour,
    /// The position's value for the side to move.
    pub value: Value,
    /// Every legal move with the value it leads to for the side to move.
    pub moves: Vec<(Move, Value)>,
}

/// The exact values of `pos` if its board's table is loaded among `tables` (never waits for it).
pub fn exact(tables: &Tables, pos: &Position) -> Option<Exact> {
    let table = tables.ready(pos.dims())?;
    exact_in(&table, pos)
}

/// The exact values of `pos` from `table` (`None` for a finished position).
pub fn exact_in(table: &Table, pos: &Position) -> Option<Exact> {
    Some(Exact {
        side: pos.side_to_move(),
        value: table.value(pos).ok()?,
        moves: table.move_values(pos).ok()?,
    })
}

/// A value in three or four characters, for the board: `W13` (the mover wins in 13 plies), `L8`, `D`.
pub fn short_value(v: Value) -> String {
    match v {
        Value::Win(d) => format!("W{d}"),
        Value::Loss(d) => format!("L{d}"),
        Value::Draw => "D".into(),
    }
}

impl Exact {
    /// The position's value in words: `Black to move: win in 13 (exact)`.
    pub fn said(&self) -> String {
        format!(
            "{} to move: {} (exact)",
            crate::mid::capitalised(self.side.name()),
            self.value
        )
    }

    /// Every move's value in words: `every move for Black: c1k win in 13 · c1u loss in 8`.
    pub fn every_move(&self) -> String {
        let list: Vec<String> = self.moves.iter().map(|(m, v)| format!("{m} {v}")).collect();
        format!("Every move for {}: {}", self.side, list.join(" · "))
    }

    /// The best value among the moves of the piece on `sq`, if it has any.
    pub fn best_from(&self, sq: Square) -> Option<Value> {
        self.moves
            .iter()
            .filter(|(m, _)| m.from == sq)
            .map(|(_, v)| *v)
            .max_by_key(|v| v.score())
    }

    /// The value of one move.
    pub fn of(&self, mv: Move) -> Option<Value> {
        self.moves.iter().find(|(m, _)| *m == mv).map(|(_, v)| *v)
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

/// A move with its squares: `c1k (c1→c2)`, `c6k (c6→goal)` (the arrow as given).
pub fn move_text(pos: &Position, mv: Move, arrow: &str) -> String {
    format!("{mv} ({}{arrow}{})", mv.from, target_name(pos, mv))
}

/// Why the piece on `sq` cannot be chosen by the side to move, or `None` if it can.
pub fn square_refusal(pos: &Position, sq: Square) -> Option<String> {
    let side = pos.side_to_move();
    if !sq.on(pos.dims()) {
        return Some(format!(
            "{sq} is not on the {} board ({})",
            pos.dims(),
            squares_of(pos.dims())
        ));
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

/// Why a move is illegal, in words.
pub fn refusal(pos: &Position, mv: Move) -> String {
    if let Some(why) = square_refusal(pos, mv.from) {
        return why;
    }
    match pos.check(mv) {
        Err(e) => e.to_string(),
        Ok(()) => format!("{mv} is not possible now"),
    }
}

/// The squares of a board of `dims` as a player types them: `columns a-c, rows 1-3`.
pub fn squares_of(dims: Dims) -> String {
    format!(
        "columns a-{}, rows 1-{}",
        (b'a' + (dims.cols() - 1) as u8) as char,
        dims.rows()
    )
}

/// A move that does not read, said with the ranges of this board (the engine's own message names the largest
/// board's, a-e and 1-6).
pub fn move_error(e: &nocca::MoveParseError, dims: Dims) -> String {
    match e {
        nocca::MoveParseError::BadSquare(s) => format!(
            "bad square {s:?} in move: expected a column letter and a row number ({}), e.g. {}1",
            squares_of(dims),
            (b'a' + (dims.cols() / 2) as u8) as char
        ),
        other => other.to_string(),
    }
}
