//! One game being played on the graphical page, for every game alike: the mid end's [`Session`] (moves, undo,
//! autosave, records) over the page's store, the computer asked through the page's worker
//! ([`parlor::mid::elsewhere`]; on the page itself when there is none), and the screen around the board: score
//! and best, the message line, the button bar (New game, Undo, Hint, Autoplay, Give up, Menu, Help), the help and
//! the end. The board itself is the game's ([`Board`]): it draws the state and turns taps and keys into moves as
//! text, which the game parses ([`Game::parse_move`]): the one way a move enters, as in saves and replays.

use super::html::{button, button_if, esc};
use crate::store::WebStore;
use parlor::mid::elsewhere::{Answer, Asked, Request, Thought, elsewhere};
use parlor::mid::game::{Game, Purpose, Status, Turn};
use parlor::mid::jobs::Poll;
use parlor::mid::session::Session;
use std::sync::atomic::AtomicBool;

/// What a board makes of a tap or a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Not the board's: the common commands may take it.
    Pass,
    /// Taken: the board's own state changed (a selection, a half-made guess); draw again.
    Redraw,
    /// A move, in the game's notation.
    Move(String),
    /// Taken, with a line to show (why a guess cannot be sent yet).
    Say(String),
}

/// A position as a board draws it: a game being played, or a replay's position (nobody to move).
pub struct Shown<'a, G: Game> {
    /// The position.
    pub state: &'a G::State,
    /// Who is to move (`None` when the game is over or replayed: nothing can be tapped).
    pub turn: Option<Turn>,
    /// Whether the game is over (a replay's last position).
    pub over: bool,
    /// The game's context, where a position is played in one (what the board may show from it, such as a solved
    /// table's values); none in a replay or an online room.
    pub context: Option<&'a G::Context>,
}

impl<'a, G: Game> Shown<'a, G> {
    /// The position of `session`, as it is played.
    pub fn of(session: &'a Session<G>) -> Shown<'a, G> {
        Shown {
            state: session.state(),
            turn: session.turn(),
            over: session.ended().is_some(),
            context: Some(session.context()),
        }
    }
}

/// A game's board on the page: its drawing and its own input state (a selection, a guess being made).
pub trait Board<G: Game>: Default + 'static {
    /// The board as HTML, for the position `shown`; `now_ms` is the page's clock (animations).
    fn html(&self, shown: &Shown<G>, now_ms: u64) -> String;
    /// A tap on a board control whose `data-act` was `b:<act>`.
    fn act(&mut self, session: &Session<G>, act: &str) -> Step;
    /// A key (the browser's name: `ArrowLeft`, `u`, `Enter`), before the common commands see it.
    fn key(&mut self, session: &Session<G>, key: &str) -> Step;
    /// A move was played from `before` (the board may animate it).
    fn played(&mut self, _before: &G::State, _mv: &G::Move, _now_ms: u64) {}
    /// The keys of the board, one line for the help.
    fn keys_help(&self) -> &'static str;
    /// The CSS class of the play screen for this game (its layout).
    fn class(&self) -> &'static str;
    /// A short line beside the title (whose turn it is), if the game has one.
    fn status(&self, _session: &Session<G>) -> Option<String> {
        None
    }
    /// The hint button's label.
    fn hint_label(&self) -> &'static str {
        "Hint"
    }
    /// The board's own buttons for the play screen's bar (data-act `b:<act>`), before Give up: none unless the
    /// game has a command of its own there (Nocca's Values on a solved board).
    fn bar_buttons(&self, _shown: &Shown<G>) -> String {
        String::new()
    }
    /// Whether the board waits for something to come before it can draw all it was asked to (a table for its
    /// values): the page then calls [`Board::refresh`] on each of its ticks.
    fn waiting(&self) -> bool {
        false
    }
    /// On a tick while [`Board::waiting`]: whether what it waited for has come, so that the screen is drawn again.
    fn refresh(&mut self, _session: &Session<G>) -> bool {
        false
    }
}

/// What the shell does after an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Go {
    /// Stay on this screen (drawn again).
    Stay,
    /// Back to the menu.
    Menu,
}

/// A game being played, as the shell sees every game.
pub trait Playing {
    /// The game's id.
    fn game(&self) -> &'static str;
    /// The whole play screen as HTML.
    fn html(&self) -> String;
    /// A tap on a control whose `data-act` was `act`.
    fn act(&mut self, act: &str) -> Go;
    /// A key by its browser name.
    fn key(&mut self, key: &str) -> Go;
    /// The page's periodic work (the worker's answers, autoplay's next move); `true` if the screen changed.
    fn tick(&mut self) -> bool;
    /// Whether ticks are wanted now (the computer thinks, autoplay runs, an animation plays).
    fn busy(&self) -> bool;
    /// The line for the screen reader, when it changed.
    fn said(&mut self) -> Option<String>;
    /// The finished game's number in the store, once the game is over and recorded (its review can be had).
    fn recorded(&self) -> Option<i64> {
        None
    }
    /// The review's line for the end screen ([`parlor::mid::coach::Coach::line`]: its progress, its summary, or
    /// why there is none) and whether a Review button opens it.
    fn coach(&mut self, _line: Option<(String, bool)>) {}
}

/// A question asked before a command that ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Confirm {
    GiveUp,
    NewGame,
}

/// Game `G` played with board `B`.
pub struct Play<G: Game, B: Board<G>> {
    session: Session<G>,
    store: WebStore,
    board: B,
    line: String,
    /// The line to announce (numbered, so that the same words twice are heard twice).
    fresh: Option<String>,
    asked: Option<(Asked, Purpose)>,
    autoplay: bool,
    /// When autoplay asks for its next move (the page's ms).
    next_at: u64,
    help: bool,
    confirm: Option<Confirm>,
    said: u64,
    /// The review's line on the end screen, and whether it is offered.
    coach: Option<(String, bool)>,
}

/// The page's monotonic clock in ms.
fn now() -> u64 {
    parlor::host::clock().monotonic_ms()
}

/// How long autoplay waits between two moves, so that each shows (ms).
const AUTOPLAY_PAUSE_MS: u64 = 150;

impl<G: Game, B: Board<G>> Play<G, B> {
    /// Plays `session`, kept in `store`.
    pub fn new(session: Session<G>, store: WebStore) -> Play<G, B> {
        let mut p = Play {
            session,
            store,
            board: B::default(),
            line: String::new(),
            fresh: None,
            asked: None,
            autoplay: false,
            next_at: 0,
            help: false,
            confirm: None,
            said: 0,
            coach: None,
        };
        p.say(format!("{} · {}", G::TITLE, G::progress(p.session.state())));
        p.computer_if_due();
        p
    }

    /// The session (for tests).
    pub fn session(&self) -> &Session<G> {
        &self.session
    }

    fn say(&mut self, line: String) {
        self.said += 1;
        self.fresh = Some(line.clone());
        self.line = line;
    }

    /// The request for the computer to think about the position now.
    fn request(&self, purpose: Purpose) -> Request {
        let moves: Vec<String> = self.session.moves().iter().map(|m| m.to_string()).collect();
        Request {
            id: 0,
            game: G::ID.to_string(),
            options: G::params_to_json(&self.session.params),
            seed: self.session.seed().value,
            moves: moves.join(" "),
            purpose,
            pace_ms: None,
        }
    }

    /// Asks the computer (the worker, else here at once).
    fn ask(&mut self, purpose: Purpose) {
        if !G::can_think(&self.session.params) {
            let why = G::why_no_hint(&self.session.params);
            self.autoplay = false;
            self.say(why);
            return;
        }
        self.asked = None;
        if let Some(by) = elsewhere()
            && let Some(asked) = Asked::send(by, self.request(purpose))
        {
            self.asked = Some((asked, purpose));
            if purpose != Purpose::Autoplay {
                self.line = "computer thinking…".into();
            }
            return;
        }
        let mut thinker = G::thinker(&self.session.params, self.session.context());
        let mv = G::think(
            &mut thinker,
            self.session.state(),
            purpose,
            &AtomicBool::new(false),
        );
        let thought = Thought {
            mv: mv.map(|m| m.to_string()),
            words: None,
        };
        self.thought(purpose, Ok(thought));
    }

    /// The computer's answer.
    fn thought(&mut self, purpose: Purpose, answer: Answer) {
        let thought = match answer {
            Ok(t) => t,
            Err(why) => {
                self.autoplay = false;
                self.say(format!("The computer could not think: {why}"));
                return;
            }
        };
        let Some(text) = thought.mv else {
            self.autoplay = false;
            let why = thought
                .words
                .unwrap_or_else(|| G::why_no_move(self.session.context(), self.session.state()));
            self.say(why);
            return;
        };
        let mv = match G::parse_move(self.session.state(), &text) {
            Ok(mv) => mv,
            Err(e) => {
                self.autoplay = false;
                self.say(format!("The computer's move {text} was refused: {e}"));
                return;
            }
        };
        match purpose {
            Purpose::Hint => {
                let words = thought.words.unwrap_or_else(|| {
                    G::describe_hint(self.session.context(), self.session.state(), &mv)
                });
                self.session.mark_assisted(&mut self.store);
                self.say(format!("Hint: {words}"));
            }
            Purpose::Opponent => self.play(mv, "Computer's move"),
            Purpose::Autoplay => {
                self.play(mv, "Autoplay move");
                self.next_at = now() + AUTOPLAY_PAUSE_MS;
            }
        }
    }

    /// Plays `mv` through the session; `who` names who moved in the line.
    fn play(&mut self, mv: G::Move, who: &str) {
        let before = self.session.state().clone();
        let text = mv.to_string();
        match self.session.play(mv.clone(), &mut self.store) {
            Ok(applied) => {
                self.board.played(&before, &mv, now());
                let n = G::moves_made(self.session.state());
                let mut line = format!("{who} {n}: {text}");
                if let Some(note) = applied.note {
                    line.push_str(&format!(", {note}"));
                }
                if let Some(m) = applied.milestone {
                    line.push_str(&format!(". {m}"));
                    self.autoplay = false;
                }
                if let Some(end) = self.session.ended() {
                    line.push_str(&format!(". Game over: {}", end.text));
                    self.autoplay = false;
                }
                self.say(line);
            }
            Err(e) => self.say(format!("{text}: {e}")),
        }
        if let Some(e) = self.session.take_storage_error() {
            let line = format!("{} (not saved: {e})", self.line);
            self.say(line);
        }
        self.computer_if_due();
    }

    /// Asks for the computer's own move when it is its turn.
    fn computer_if_due(&mut self) {
        if self.session.turn() == Some(Turn::Computer) && self.asked.is_none() {
            self.ask(Purpose::Opponent);
        }
    }

    fn undo(&mut self) {
        self.asked = None;
        self.autoplay = false;
        match self.session.undo(&mut self.store) {
            Ok(0) => self.say("Nothing to undo.".into()),
            Ok(n) => {
                self.board = B::default();
                self.say(format!("Undid {n} move{}.", if n == 1 { "" } else { "s" }));
            }
            Err(e) => self.say(format!("Cannot undo: {e}")),
        }
        self.computer_if_due();
    }

    fn new_game(&mut self) {
        if self.session.ended().is_none() && self.session.started() {
            self.session.resign(&mut self.store);
        }
        let seed = parlor::mid::session::Seed::from_option(None);
        let context = self.session.context().clone();
        match Session::new_in(self.session.params.clone(), seed, &self.store, context) {
            Ok(s) => {
                self.session = s;
                self.board = B::default();
                self.asked = None;
                self.autoplay = false;
                self.help = false;
                self.say(format!("New game · {}", G::progress(self.session.state())));
                self.computer_if_due();
            }
            Err(e) => self.say(format!("No new game: {e}")),
        }
    }

    fn give_up(&mut self) {
        self.asked = None;
        self.autoplay = false;
        self.session.resign(&mut self.store);
        let text = self
            .session
            .ended()
            .map_or_else(|| "given up".to_string(), |e| e.text.clone());
        self.say(format!("Game over: {text}"));
    }

    /// A common command by name; `None` if `act` is none.
    fn common(&mut self, act: &str) -> Option<Go> {
        let over = self.session.ended().is_some();
        match act {
            "menu" => return Some(Go::Menu),
            "help" => self.help = !self.help,
            "undo" if !over => self.undo(),
            "hint" if !over => {
                self.autoplay = false;
                self.ask(Purpose::Hint);
            }
            "auto" if !over => {
                self.autoplay = !self.autoplay;
                if self.autoplay {
                    self.ask(Purpose::Autoplay);
                } else {
                    self.asked = None;
                    self.say("Autoplay stopped.".into());
                }
            }
            "giveup" if !over => self.confirm = Some(Confirm::GiveUp),
            "new" if over || !self.session.started() => self.new_game(),
            "new" => self.confirm = Some(Confirm::NewGame),
            "yes" => match self.confirm.take() {
                Some(Confirm::GiveUp) => self.give_up(),
                Some(Confirm::NewGame) => self.new_game(),
                None => {}
            },
            "no" => self.confirm = None,
            _ => return None,
        }
        Some(Go::Stay)
    }

    fn header(&self) -> String {
        let score = G::score(self.session.state());
        let best = self
            .session
            .best()
            .map_or_else(|| "–".to_string(), |b| b.to_string());
        let name = parlor::mid::capitalised(G::score_name());
        format!(
            "<header class=\"top\"><div><h1>{}</h1>{}</div><div class=\"scores\"><div class=\"score\"><span>{}</span><b id=\"score\">{score}</b></div><div class=\"score\"><span>Best</span><b id=\"best\">{}</b></div></div></header>",
            esc(G::TITLE),
            self.board
                .status(&self.session)
                .map_or_else(String::new, |w| format!(
                    "<span class=\"who\" id=\"who\">{}</span>",
                    esc(&w)
                )),
            esc(&name),
            esc(&best)
        )
    }

    fn bar(&self) -> String {
        let over = self.session.ended().is_some();
        let think = G::can_think(&self.session.params);
        let mut out = String::from("<nav class=\"bar\" aria-label=\"Game commands\">");
        out.push_str(&button("new", "New game", "cmd", None));
        out.push_str(&button_if(
            !over && self.session.started(),
            "undo",
            "Undo",
            "cmd",
            None,
        ));
        out.push_str(&button_if(
            !over && think,
            "hint",
            self.board.hint_label(),
            "cmd",
            None,
        ));
        if G::can_autoplay(&self.session.params) {
            let label = if self.autoplay { "Stop" } else { "Autoplay" };
            out.push_str(&button_if(
                !over,
                "auto",
                label,
                "cmd",
                Some(if self.autoplay {
                    "Stop autoplay"
                } else {
                    "Autoplay"
                }),
            ));
        }
        out.push_str(&self.board.bar_buttons(&Shown::of(&self.session)));
        out.push_str(&button_if(!over, "giveup", "Give up", "cmd", None));
        out.push_str(&button("menu", "Menu", "cmd", None));
        out.push_str(&button("help", "Help", "cmd", Some("Help")));
        out.push_str("</nav>");
        out
    }

    fn overlay(&self) -> String {
        if self.help {
            let rules: String = G::rules()
                .iter()
                .map(|p| format!("<p>{}</p>", esc(p)))
                .collect();
            return format!(
                "<div class=\"sheet\" role=\"dialog\" aria-label=\"Help\"><div class=\"card help\"><div class=\"head\"><h2>How to play {}</h2>{}</div><div class=\"text\">{rules}<p><b>Keys:</b> {} · u undo · t hint · p autoplay · x give up · r new game · q menu · ? help</p></div></div></div>",
                esc(G::TITLE),
                button("help", "Close", "cmd", Some("Close the help")),
                esc(self.board.keys_help())
            );
        }
        if let Some(c) = self.confirm {
            let q = match c {
                Confirm::GiveUp => "Give up this game?",
                Confirm::NewGame => "Give up this game and start a new one?",
            };
            return format!(
                "<div class=\"sheet\" role=\"dialog\" aria-label=\"{q}\"><div class=\"card\"><h2>{q}</h2><div class=\"row\">{}{}</div></div></div>",
                button("yes", "Yes", "cmd wide", Some(&format!("Yes: {q}"))),
                button("no", "No", "cmd wide", Some("No, go on playing"))
            );
        }
        if let Some(end) = self.session.ended() {
            let mut text = esc(&end.text);
            if let Some(rank) = end.rank {
                text.push_str(&format!(" · best scores: #{rank}"));
            } else if let Some(why) = end.unranked {
                text.push_str(&format!(" · not ranked: {}", esc(why)));
            }
            let (coach, review) = match &self.coach {
                Some((line, offered)) => (
                    format!(
                        "<p class=\"small\" id=\"coach\" role=\"status\">{}</p>",
                        esc(line)
                    ),
                    if *offered {
                        button("review", "Review", "cmd wide", Some("Review the game"))
                    } else {
                        String::new()
                    },
                ),
                None => (String::new(), String::new()),
            };
            return format!(
                "<div class=\"sheet end\" role=\"dialog\" aria-label=\"Game over\"><div class=\"card\"><h2>Game over</h2><p id=\"ending\">{text}</p><p>{} {}</p>{coach}<div class=\"row\">{}{review}{}</div></div></div>",
                esc(&parlor::mid::capitalised(G::score_name())),
                G::score(self.session.state()),
                button("new", "New game", "cmd wide", None),
                button("menu", "Menu", "cmd wide", None)
            );
        }
        String::new()
    }
}

/// The browser's key for a common command.
fn common_key(key: &str) -> Option<&'static str> {
    Some(match key {
        "u" => "undo",
        "t" => "hint",
        "p" => "auto",
        "x" => "giveup",
        "r" => "new",
        "y" => "yes",
        "n" => "no",
        "q" | "Escape" => "menu",
        "?" => "help",
        _ => return None,
    })
}

impl<G: Game, B: Board<G>> Playing for Play<G, B> {
    fn game(&self) -> &'static str {
        G::ID
    }

    fn html(&self) -> String {
        let status = match self.session.status() {
            Status::Playing(Turn::Computer) => " computer",
            Status::Playing(Turn::Player) => "",
            Status::Over(_) => " over",
        };
        format!(
            "<main class=\"play {}{status}\" data-game=\"{}\">{}<section class=\"stage\">{}</section><div class=\"side\"><p class=\"line\" id=\"line\">{}</p>{}</div>{}</main>",
            self.board.class(),
            esc(G::ID),
            self.header(),
            self.board.html(&Shown::of(&self.session), now()),
            esc(&self.line),
            self.bar(),
            self.overlay()
        )
    }

    fn act(&mut self, act: &str) -> Go {
        if let Some(rest) = act.strip_prefix("b:") {
            if self.session.ended().is_some() || self.help || self.confirm.is_some() {
                return Go::Stay;
            }
            if self.autoplay {
                self.autoplay = false;
                self.asked = None;
            }
            let step = self.board.act(&self.session, rest);
            self.step(step);
            return Go::Stay;
        }
        self.common(act).unwrap_or(Go::Stay)
    }

    fn key(&mut self, key: &str) -> Go {
        if self.help {
            if matches!(key, "?" | "Escape" | "q" | "Enter") {
                self.help = false;
            }
            return Go::Stay;
        }
        if self.confirm.is_some() {
            match key {
                "y" | "Enter" => return self.common("yes").unwrap_or(Go::Stay),
                "n" | "Escape" | "q" => self.confirm = None,
                _ => {}
            }
            return Go::Stay;
        }
        if self.session.ended().is_none() {
            if self.autoplay && common_key(key) != Some("auto") {
                self.autoplay = false;
                self.asked = None;
                self.say("Autoplay stopped.".into());
                return Go::Stay;
            }
            let step = self.board.key(&self.session, key);
            if step != Step::Pass {
                self.step(step);
                return Go::Stay;
            }
        } else if key == "Enter" {
            return self.common("new").unwrap_or(Go::Stay);
        }
        match common_key(key) {
            Some(act) => self.common(act).unwrap_or(Go::Stay),
            None => Go::Stay,
        }
    }

    fn tick(&mut self) -> bool {
        let board = self.board.waiting() && self.board.refresh(&self.session);
        if let Some((asked, purpose)) = &self.asked {
            let purpose = *purpose;
            match asked.poll() {
                Poll::Done(answer) => {
                    self.asked = None;
                    self.thought(purpose, answer);
                    return true;
                }
                Poll::Lost => {
                    self.asked = None;
                    self.autoplay = false;
                    self.say("The computer's answer was lost.".into());
                    return true;
                }
                Poll::Running => return board,
            }
        }
        if self.autoplay && now() >= self.next_at {
            if self.session.turn() == Some(Turn::Player) {
                self.ask(Purpose::Autoplay);
            } else {
                self.autoplay = false;
            }
            return true;
        }
        board
    }

    fn busy(&self) -> bool {
        self.asked.is_some() || self.autoplay || self.board.waiting()
    }

    fn said(&mut self) -> Option<String> {
        self.fresh.take()
    }

    fn recorded(&self) -> Option<i64> {
        self.session.ended().and_then(|e| e.id)
    }

    fn coach(&mut self, line: Option<(String, bool)>) {
        self.coach = line;
    }
}

impl<G: Game, B: Board<G>> Play<G, B> {
    fn step(&mut self, step: Step) {
        match step {
            Step::Pass | Step::Redraw => {}
            Step::Say(line) => self.say(line),
            Step::Move(text) => {
                if self.session.turn() != Some(Turn::Player) {
                    self.say("Wait: the computer is to move.".into());
                    return;
                }
                match G::parse_move(self.session.state(), &text) {
                    Ok(mv) => self.play(mv, "Move"),
                    Err(e) => self.say(format!("{text}: {e}")),
                }
            }
        }
    }
}
