//! The review of a finished game (the coach): per move what was played, what was best, the values before and after
//! as the game's reviewer gives them, and a mark; per side an accuracy; a one-line summary. Generic: a game gives
//! its review through [`super::game::Game::review`] (none by default), and every face draws it from this model.
//!
//! A review is data: JSON with a versioned schema ([`SCHEMA`], docs/REVIEW.md lists every field), the same from
//! the same game and engine version every time (reviewers use fixed depths, never a clock).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The version of the review's JSON schema; a reader refuses a newer one ([`ReviewError::Schema`]).
pub const SCHEMA: u32 = 2;

/// How bad a move was, from the game's thresholds (RULES.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// As good as the best, or close enough.
    None,
    /// A small loss.
    Inaccuracy,
    /// A real loss.
    Mistake,
    /// A loss that changes the game (a win thrown away).
    Blunder,
}

impl Mark {
    /// The mark's name, as the JSON writes it (`none`, `inaccuracy`, `mistake`, `blunder`).
    pub fn name(self) -> &'static str {
        match self {
            Mark::None => "none",
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The mark as the annotators' glyph, so that it reads without colour: `?!` an inaccuracy, `?` a mistake, `??`
    /// a blunder, nothing for no mark.
    pub fn glyph(self) -> &'static str {
        match self {
            Mark::None => "",
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The mark's word in the singular and the plural (`mistake`, `mistakes`); `None` has none.
    fn words(self) -> Option<(&'static str, &'static str)> {
        match self {
            Mark::None => None,
            Mark::Inaccuracy => Some(("inaccuracy", "inaccuracies")),
            Mark::Mistake => Some(("mistake", "mistakes")),
            Mark::Blunder => Some(("blunder", "blunders")),
        }
    }
}

/// One move of the game, reviewed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reviewed {
    /// The move's number in the game, from 1 (slides, guesses or plies, as the game counts them).
    pub number: usize,
    /// Who played it (`white`, `black`), or `None` in a game for one.
    pub side: Option<String>,
    /// The move played, in the game's notation.
    pub played: String,
    /// The best moves there, in the game's notation (several when they are equal).
    pub best: Vec<String>,
    /// The position's value before the move, as the reviewer says it (`win in 7`, `4.2 guesses`).
    pub before: String,
    /// The value after the move played.
    pub after: String,
    /// What the move lost against the best, in the reviewer's unit (`unit` of the review); 0 for a best move.
    pub loss: f64,
    /// The mark.
    pub mark: Mark,
    /// A short text for a face to show ("threw the win away", "could not be the secret").
    pub note: String,
    /// The position before the move, as text (kept for the few worst moves; empty otherwise).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub board: String,
    /// Figures of the move beside its value, each against the most any move had there (the information a guess
    /// gained, the chance a slide leaves to reach the next tile); none where the reviewer gives none (schema 1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<Figure>,
}

/// One figure of a reviewed move, against the most any move had there ([`Reviewed::figures`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// What it measures (`information`, `chance of 1024`).
    pub name: String,
    /// The move played's figure.
    pub played: f64,
    /// The most any move had there, as the reviewer measures it (the reviewer's `note` or the docs say how).
    pub best: f64,
    /// Its unit (`bits`, `%`).
    pub unit: String,
}

impl Figure {
    /// The figure in words: `information 1.58 bits (best 3.06 bits)`, `chance of 1024 62.5% (best 71.0%)`.
    pub fn text(&self) -> String {
        let sep = if self.unit == "%" { "" } else { " " };
        let unit = &self.unit;
        format!(
            "{} {:.2}{sep}{unit} (best {:.2}{sep}{unit})",
            self.name, self.played, self.best
        )
    }
}

impl Reviewed {
    /// The move's one line of text, as `parlor review` prints a marked move: `move 3 (black) b1h: blunder · win
    /// in 7 → loss in 4 · best b1k, a1u · threw the win away`.
    pub fn line(&self) -> String {
        let side = self
            .side
            .as_deref()
            .map_or(String::new(), |s| format!(" ({s})"));
        let mut note = if self.note.is_empty() {
            String::new()
        } else {
            format!(" · {}", self.note)
        };
        for f in &self.figures {
            note.push_str(" · ");
            note.push_str(&f.text());
        }
        format!(
            "move {}{side} {}: {} · {} → {} · best {}{note}",
            self.number,
            self.played,
            self.mark.name(),
            self.before,
            self.after,
            self.best.join(", ")
        )
    }
}

/// One side's accuracy, 0 to 100.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Accuracy {
    /// The side (`white`), or `None` in a game for one.
    pub side: Option<String>,
    /// The figure, 0 (every move a blunder) to 100 (every move best).
    pub percent: f64,
}

/// A finished game, reviewed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The schema's version ([`SCHEMA`]).
    pub schema: u32,
    /// The game's id (as in the database).
    pub game: String,
    /// The engine that reviewed it, `name version` ([`super::game::Game::ENGINE`]).
    pub engine: String,
    /// Every move, in order.
    pub moves: Vec<Reviewed>,
    /// Each side's accuracy (one entry in a game for one).
    pub accuracy: Vec<Accuracy>,
    /// How the values were had (`exact: the solved table`, `estimate: search at depth 6`).
    pub method: String,
    /// Whether the values are exact (a solved table, an optimal tree) rather than estimates.
    pub exact: bool,
    /// The unit of every move's `loss` (`plies`, `guesses`, `points`).
    pub unit: String,
}

/// Why a review could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewError {
    /// Not a review's JSON (damaged text, a missing field).
    Unreadable(String),
    /// Written by a newer Parlor, with a schema this one does not know.
    Schema(u32),
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReviewError::Unreadable(why) => write!(f, "the review is not readable: {why}"),
            ReviewError::Schema(v) => write!(
                f,
                "the review has schema {v}, newer than this Parlor's {SCHEMA}"
            ),
        }
    }
}

impl std::error::Error for ReviewError {}

impl Review {
    /// How many moves carry `mark`.
    pub fn count(&self, mark: Mark) -> usize {
        self.moves.iter().filter(|m| m.mark == mark).count()
    }

    /// The worst move: the first of those with the most severe mark, `None` if no move is marked.
    pub fn worst(&self) -> Option<&Reviewed> {
        let most = self.moves.iter().map(|m| m.mark).max()?;
        (most != Mark::None)
            .then(|| self.moves.iter().find(|m| m.mark == most))
            .flatten()
    }

    /// The one-line summary: the marks counted, most severe last, then the worst move (`2 mistakes, 1 blunder:
    /// move 31`); `no inaccuracy, mistake or blunder` when none is marked.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder]
            .into_iter()
            .filter_map(|mark| {
                let (one, many) = mark.words()?;
                match self.count(mark) {
                    0 => None,
                    1 => Some(format!("1 {one}")),
                    n => Some(format!("{n} {many}")),
                }
            })
            .collect();
        match self.worst() {
            Some(w) => format!("{}: move {}", parts.join(", "), w.number),
            None => "no inaccuracy, mistake or blunder".into(),
        }
    }

    /// Each side's accuracy in one line (`black 50.0%, white 100.0%`; the figure alone in a game for one).
    pub fn accuracy_line(&self) -> String {
        let parts: Vec<String> = self
            .accuracy
            .iter()
            .map(|a| match &a.side {
                Some(s) => format!("{s} {:.1}%", a.percent),
                None => format!("{:.1}%", a.percent),
            })
            .collect();
        parts.join(", ")
    }

    /// The review as text, the same on every face that prints it (`parlor review ID`, plain mode's `review`): a
    /// heading (the game, the engine, the method), one line per marked move ([`Reviewed::line`]), the summary and
    /// the accuracy, each line ending with a newline.
    pub fn text(&self) -> String {
        let mut out = format!("game #{} · {} · {}\n", self.game, self.engine, self.method);
        for m in self.moves.iter().filter(|m| m.mark != Mark::None) {
            out.push_str(&m.line());
            out.push('\n');
        }
        out.push_str(&self.summary());
        out.push('\n');
        out.push_str(&format!("accuracy: {}\n", self.accuracy_line()));
        out
    }

    /// The review as JSON (the schema of docs/REVIEW.md).
    pub fn to_json(&self) -> String {
        // A review holds strings, numbers and lists only: serde_json cannot fail on it, and an empty object is
        // what a reader would refuse, never a panic.
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }

    /// Reads a review written by [`Review::to_json`]; damaged text or a newer schema is refused, never a panic.
    pub fn from_json(text: &str) -> Result<Review, ReviewError> {
        #[derive(Deserialize)]
        struct Version {
            schema: u32,
        }
        let v: Version =
            serde_json::from_str(text).map_err(|e| ReviewError::Unreadable(e.to_string()))?;
        if v.schema > SCHEMA {
            return Err(ReviewError::Schema(v.schema));
        }
        serde_json::from_str(text).map_err(|e| ReviewError::Unreadable(e.to_string()))
    }
}

/// An accuracy figure from the marks of one side's moves, as a face can show it when the reviewer has no finer
/// one: each move scores 100 (none), 70 (inaccuracy), 40 (mistake) or 0 (blunder), and the figure is their mean
/// (100 for no move).
pub fn accuracy_of_marks(marks: impl IntoIterator<Item = Mark>) -> f64 {
    let (mut sum, mut n) = (0.0, 0u32);
    for m in marks {
        sum += match m {
            Mark::None => 100.0,
            Mark::Inaccuracy => 70.0,
            Mark::Mistake => 40.0,
            Mark::Blunder => 0.0,
        };
        n += 1;
    }
    if n == 0 { 100.0 } else { sum / f64::from(n) }
}

/// A game's thresholds for marks: the least loss (in the review's unit) that makes an inaccuracy, a mistake and a
/// blunder (RULES.md gives each game's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// The least loss that is an inaccuracy.
    pub inaccuracy: f64,
    /// The least loss that is a mistake.
    pub mistake: f64,
    /// The least loss that is a blunder.
    pub blunder: f64,
}

impl Thresholds {
    /// The mark of a move that lost `loss` (a loss below every threshold, or not a number, is no mark).
    pub fn mark(&self, loss: f64) -> Mark {
        if loss >= self.blunder {
            Mark::Blunder
        } else if loss >= self.mistake {
            Mark::Mistake
        } else if loss >= self.inaccuracy {
            Mark::Inaccuracy
        } else {
            Mark::None
        }
    }
}

/// Each side's accuracy from the marks of its moves ([`accuracy_of_marks`]), the sides in the order they first
/// move (one entry, side `None`, in a game for one; one with 100 for a game of no move).
pub fn accuracy_by_side(moves: &[Reviewed]) -> Vec<Accuracy> {
    let mut sides: Vec<Option<String>> = Vec::new();
    for m in moves {
        if !sides.contains(&m.side) {
            sides.push(m.side.clone());
        }
    }
    if sides.is_empty() {
        sides.push(None);
    }
    sides
        .into_iter()
        .map(|side| Accuracy {
            percent: accuracy_of_marks(moves.iter().filter(|m| m.side == side).map(|m| m.mark)),
            side,
        })
        .collect()
}

/// Keeps the positions before the `n` worst marked moves (the most severe mark, then the largest loss, then the
/// earliest) in their `board`, from `boards` (`boards[i]`: the position before `moves[i]`, as text); every other
/// move's board is left empty.
pub fn keep_worst_boards(moves: &mut [Reviewed], boards: &[String], n: usize) {
    let mut order: Vec<usize> = (0..moves.len())
        .filter(|&i| moves[i].mark != Mark::None)
        .collect();
    order.sort_by(|&a, &b| {
        (moves[b].mark, moves[b].loss)
            .partial_cmp(&(moves[a].mark, moves[a].loss))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    for m in moves.iter_mut() {
        m.board.clear();
    }
    for &i in order.iter().take(n) {
        if let Some(b) = boards.get(i) {
            moves[i].board = b.clone();
        }
    }
}

/// A review of game `G` from its moves reviewed in order and the positions before them as text (`boards`, kept for
/// the worst few, [`keep_worst_boards`]), with each side's accuracy, the method, whether exact, and the unit.
pub fn finish<G: super::game::Game>(
    mut moves: Vec<Reviewed>,
    boards: &[String],
    method: String,
    exact: bool,
    unit: &str,
) -> Review {
    keep_worst_boards(&mut moves, boards, WORST_KEPT);
    Review {
        schema: SCHEMA,
        game: G::ID.into(),
        engine: format!("{} {}", G::ENGINE.0, G::ENGINE.1),
        accuracy: accuracy_by_side(&moves),
        moves,
        method,
        exact,
        unit: unit.into(),
    }
}

/// How many of the worst moves keep their boards in a review ([`keep_worst_boards`]).
pub const WORST_KEPT: usize = 5;

#[cfg(test)]
mod tests {
    use super::*;

    fn reviewed(number: usize, mark: Mark) -> Reviewed {
        Reviewed {
            number,
            side: None,
            played: format!("m{number}"),
            best: vec!["b".into()],
            before: "1".into(),
            after: "0".into(),
            loss: 1.0,
            mark,
            note: String::new(),
            board: String::new(),
            figures: Vec::new(),
        }
    }

    fn review(marks: &[Mark]) -> Review {
        Review {
            schema: SCHEMA,
            game: "example".into(),
            engine: "engine 1.0.0".into(),
            method: "exact".into(),
            exact: true,
            unit: "plies".into(),
            moves: marks
                .iter()
                .enumerate()
                .map(|(i, &m)| reviewed(i + 1, m))
                .collect(),
            accuracy: vec![Accuracy {
                side: None,
                percent: accuracy_of_marks(marks.iter().copied()),
            }],
        }
    }

    #[test]
    fn the_summary_counts_the_marks_and_names_the_worst_move() {
        let mut marks = vec![Mark::None; 40];
        marks[9] = Mark::Mistake;
        marks[19] = Mark::Mistake;
        marks[30] = Mark::Blunder;
        marks[35] = Mark::Blunder;
        let r = review(&marks);
        assert_eq!(r.summary(), "2 mistakes, 2 blunders: move 31");
        marks[35] = Mark::None;
        marks[2] = Mark::Inaccuracy;
        assert_eq!(
            review(&marks).summary(),
            "1 inaccuracy, 2 mistakes, 1 blunder: move 31"
        );
        assert_eq!(
            review(&[Mark::None, Mark::None]).summary(),
            "no inaccuracy, mistake or blunder"
        );
        assert_eq!(review(&[]).worst(), None);
    }

    #[test]
    fn a_review_reads_back_from_its_json_and_refuses_damage_and_newer_schemas() {
        let r = review(&[Mark::None, Mark::Inaccuracy, Mark::Blunder]);
        let json = r.to_json();
        assert!(json.contains(r#""mark":"inaccuracy""#), "{json}");
        assert!(
            !json.contains(r#""board""#),
            "an empty board is left out: {json}"
        );
        assert_eq!(Review::from_json(&json), Ok(r.clone()));
        assert!(matches!(
            Review::from_json("{not json"),
            Err(ReviewError::Unreadable(_))
        ));
        assert!(matches!(
            Review::from_json(r#"{"schema":1}"#),
            Err(ReviewError::Unreadable(_))
        ));
        assert_eq!(
            Review::from_json(r#"{"schema":3,"whatever":true}"#),
            Err(ReviewError::Schema(3))
        );
        // A move's figures are written and read back; a schema-1 review (none) still reads, with none.
        let mut with = r.clone();
        with.moves[1].figures.push(Figure {
            name: "information".into(),
            played: 1.5,
            best: 3.0,
            unit: "bits".into(),
        });
        let json = with.to_json();
        assert!(
            json.contains(r#""figures":[{"name":"information""#),
            "{json}"
        );
        assert_eq!(Review::from_json(&json), Ok(with.clone()));
        assert!(
            with.moves[1]
                .line()
                .ends_with(" · information 1.50 bits (best 3.00 bits)"),
            "{}",
            with.moves[1].line()
        );
        let old = r.to_json().replace(r#""schema":2"#, r#""schema":1"#);
        assert_eq!(Review::from_json(&old).map(|o| o.moves), Ok(r.moves));
    }

    #[test]
    fn accuracy_of_marks_is_100_for_best_moves_and_0_for_blunders() {
        assert_eq!(accuracy_of_marks([]), 100.0);
        assert_eq!(accuracy_of_marks([Mark::None, Mark::None]), 100.0);
        assert_eq!(accuracy_of_marks([Mark::Blunder]), 0.0);
        assert_eq!(accuracy_of_marks([Mark::None, Mark::Mistake]), 70.0);
    }
}
