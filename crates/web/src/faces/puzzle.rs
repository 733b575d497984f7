//! Learn from your mistakes on the page: each marked move of a reviewed game as a puzzle (the core's
//! [`Puzzles`]). The position before the move is drawn by the game's own board ([`Board`]) and played by its taps
//! and keys; the move tried is judged by the game's reviewer in the page's reviewer worker ([`crate::coach::judge`])
//! instead of being played, and the screen says whether it was as good as the best, with two tries before the best
//! moves are shown, in the core's words ([`parlor::mid::puzzle::Step::said`]).

use super::html::{button, esc};
use super::play::{Board, Go, Shown, Step};
use crate::store::WebStore;
use parlor::mid::game::Game;
use parlor::mid::jobs::{Job, Poll};
use parlor::mid::puzzle::Puzzles;
use parlor::mid::review::{Review, Reviewed};
use parlor::mid::session::{Seed, Session, rebuild};
use parlor::storage::GameRecord;

/// A run of puzzles, as the shell sees every game's.
pub trait Puzzling {
    /// The screen as HTML.
    fn html(&self) -> String;
    /// A tap on a control whose `data-act` was `act`; [`Go::Menu`] goes back to the review.
    fn act(&mut self, act: &str) -> Go;
    /// A key by its browser name.
    fn key(&mut self, key: &str) -> Go;
    /// The judgement's answer, once it has come; `true` if the screen changed.
    fn tick(&mut self) -> bool;
    /// Whether a judgement is awaited (the page ticks meanwhile).
    fn busy(&self) -> bool;
    /// The line for the screen reader, when it changed.
    fn said(&mut self) -> Option<String>;
}

/// The puzzles of one finished game of `G`, on board `B`.
pub struct PuzzleOf<G: Game, B: Board<G>> {
    record: GameRecord,
    store: WebStore,
    params: G::Params,
    moves: Vec<G::Move>,
    puzzles: Puzzles,
    /// The position of the puzzle tried, as a session that claims and writes nothing.
    session: Session<G>,
    board: B,
    line: String,
    fresh: Option<String>,
    /// The move being judged (its name) and the judgement's work.
    judging: Option<(String, Job<Result<Reviewed, String>>)>,
}

/// The line while a puzzle waits for its move.
const PROMPT: &str =
    "Play the move you would play here: the engine says whether it is as good as the best.";

/// The seed of a finished game, as a session at one of its positions takes it.
fn seed(value: u64) -> Seed {
    Seed {
        value,
        chosen: false,
    }
}

impl<G: Game, B: Board<G>> PuzzleOf<G, B> {
    /// The puzzles of `review`, the review of `record` (a finished game of `G`) read in `store`; why not when the
    /// record cannot be rebuilt or none of the player's moves is marked.
    pub fn new(
        record: &GameRecord,
        review: &Review,
        store: &WebStore,
        context: G::Context,
    ) -> Result<PuzzleOf<G, B>, String> {
        let r = rebuild::<G>(&record.game, &record.options, record.seed, &record.moves)
            .map_err(|e| e.to_string())?;
        let puzzles =
            Puzzles::of_player::<G>(review, &r.start, &r.moves).map_err(|e| e.to_string())?;
        if puzzles.is_empty() {
            return Err("none of your moves is marked: there is no mistake to learn from".into());
        }
        let session =
            Session::unclaimed_at(r.params.clone(), seed(record.seed), &[], store, context)
                .map_err(|e| e.to_string())?;
        let mut p = PuzzleOf {
            record: record.clone(),
            store: store.clone(),
            params: r.params,
            moves: r.moves,
            puzzles,
            session,
            board: B::default(),
            line: String::new(),
            fresh: None,
            judging: None,
        };
        p.set_up()?;
        p.pose();
        Ok(p)
    }

    /// The puzzles (for tests).
    pub fn puzzles(&self) -> &Puzzles {
        &self.puzzles
    }

    /// A puzzle posed: the line asks for a move, the screen reader hears which puzzle it is.
    fn pose(&mut self) {
        self.fresh = Some(format!("{}. {PROMPT}", self.puzzles.status()));
        self.line = PROMPT.to_string();
    }

    fn say(&mut self, line: String) {
        self.fresh = Some(line.clone());
        self.line = line;
    }

    /// Sets the board at the current puzzle's position.
    fn set_up(&mut self) -> Result<(), String> {
        let Some((_, p)) = self.puzzles.current() else {
            return Ok(());
        };
        let before = p.before.min(self.moves.len());
        self.session = Session::unclaimed_at(
            self.params.clone(),
            seed(self.record.seed),
            &self.moves[..before],
            &self.store,
            self.session.context().clone(),
        )
        .map_err(|e| e.to_string())?;
        self.board = B::default();
        Ok(())
    }

    /// A move tried at the current puzzle (in the game's notation): judged, never played.
    fn try_move(&mut self, text: &str) {
        let Some((_, p)) = self.puzzles.current() else {
            return;
        };
        let before = p.before;
        let mv = match G::parse_move(self.session.state(), text) {
            Ok(mv) => mv,
            Err(e) => {
                self.say(format!("{text}: {e}"));
                return;
            }
        };
        let mut probe = self.session.state().clone();
        if let Err(e) = G::apply(&mut probe, &mv) {
            self.say(format!("not a move here: {e}"));
            return;
        }
        let name = mv.to_string();
        self.board = B::default();
        self.line = format!("judging {name}…");
        let job = crate::coach::judge(&self.record, before, &mv.to_string());
        self.judging = Some((name, job));
        self.tick();
    }

    /// The judgement of `name` came.
    fn judged(&mut self, name: &str, judged: Result<Reviewed, String>) {
        match judged {
            Ok(judged) => {
                if let Some(step) = self.puzzles.answer(&judged) {
                    let line = step.said(name, &judged);
                    self.say(line);
                }
            }
            Err(why) => self.say(why),
        }
    }

    /// The next puzzle, or the run's end.
    fn next(&mut self) {
        if self.puzzles.go_on() {
            match self.set_up() {
                Ok(()) => self.pose(),
                Err(e) => self.say(e),
            }
        } else {
            let line = format!("Done: {}.", self.puzzles.tally());
            self.say(line);
        }
    }

    fn bar(&self) -> String {
        let mut out = String::from("<nav class=\"bar\" aria-label=\"Puzzle\">");
        if self.puzzles.waiting() {
            match self.puzzles.current() {
                Some((i, _)) if i + 1 < self.puzzles.len() => {
                    out.push_str(&button("z:next", "Next puzzle", "cmd primary", None));
                }
                Some(_) => out.push_str(&button(
                    "z:next",
                    "Finish",
                    "cmd primary",
                    Some("Finish: the tally"),
                )),
                None => {}
            }
        } else {
            out.push_str(&button(
                "z:show",
                "Show the best",
                "cmd",
                Some("Show the best moves"),
            ));
        }
        out.push_str(&button(
            "z:back",
            "Review",
            "cmd",
            Some("Back to the review"),
        ));
        out.push_str("</nav>");
        out
    }
}

impl<G: Game, B: Board<G>> Puzzling for PuzzleOf<G, B> {
    fn html(&self) -> String {
        let trying = !self.puzzles.waiting() && self.judging.is_none();
        let mut shown = Shown::of(&self.session);
        if !trying {
            shown.turn = None;
        }
        let last = self
            .puzzles
            .current()
            .map_or(self.moves.len(), |(_, p)| p.before)
            .checked_sub(1)
            .and_then(|i| self.moves.get(i))
            .map_or_else(String::new, |m| format!(" · the game's move before: {m}"));
        format!(
            "<main class=\"play puzzle {}\" data-game=\"{}\"><header class=\"top\"><div><h1>Learn from your mistakes</h1><span class=\"who\" id=\"who\">{} · game #{}{last}</span></div></header><section class=\"stage\">{}</section><div class=\"side\"><p class=\"small\" id=\"puzzle\">{}</p><p class=\"line\" id=\"line\" role=\"status\">{}</p><p class=\"small\" id=\"tally\">{}</p>{}</div></main>",
            self.board.class(),
            esc(G::ID),
            esc(G::TITLE),
            self.record.id,
            self.board
                .html(&shown, parlor::host::clock().monotonic_ms()),
            esc(&self.puzzles.status()),
            esc(&self.line),
            esc(&self.puzzles.tally()),
            self.bar()
        )
    }

    fn act(&mut self, act: &str) -> Go {
        if let Some(rest) = act.strip_prefix("b:") {
            if self.puzzles.waiting() || self.judging.is_some() {
                return Go::Stay;
            }
            match self.board.act(&self.session, rest) {
                Step::Move(text) => self.try_move(&text),
                Step::Say(line) => self.say(line),
                Step::Pass | Step::Redraw => {}
            }
            return Go::Stay;
        }
        match act {
            "z:back" | "menu" => return Go::Menu,
            "z:show" if self.judging.is_none() => {
                if let Some(best) = self.puzzles.show() {
                    self.say(format!("The best: {}.", best.join(", ")));
                }
            }
            "z:next" => self.next(),
            _ => {}
        }
        Go::Stay
    }

    fn key(&mut self, key: &str) -> Go {
        if self.puzzles.waiting() {
            return match key {
                "Enter" | " " | "n" => self.act("z:next"),
                "q" | "Escape" => Go::Menu,
                _ => Go::Stay,
            };
        }
        if self.judging.is_some() {
            return Go::Stay;
        }
        match self.board.key(&self.session, key) {
            Step::Move(text) => {
                self.try_move(&text);
                Go::Stay
            }
            Step::Say(line) => {
                self.say(line);
                Go::Stay
            }
            Step::Redraw => Go::Stay,
            Step::Pass => match key {
                "x" => self.act("z:show"),
                "q" | "Escape" => Go::Menu,
                _ => Go::Stay,
            },
        }
    }

    fn tick(&mut self) -> bool {
        let Some((_, job)) = &self.judging else {
            return false;
        };
        let done = match job.poll() {
            Poll::Running => return false,
            Poll::Done(j) => j,
            Poll::Lost => Err("the judgement was lost".into()),
        };
        let name = self.judging.take().map(|(n, _)| n).unwrap_or_default();
        self.judged(&name, done);
        true
    }

    fn busy(&self) -> bool {
        self.judging.is_some()
    }

    fn said(&mut self) -> Option<String> {
        self.fresh.take()
    }
}
