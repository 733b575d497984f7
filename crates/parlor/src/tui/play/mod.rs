//! The one play screen: any game's board (drawn by its adapter) with the status line, messages, questions, the end
//! screen, undo, hints, autoplay and the computer's moves, all run by the generic session and background jobs.

use super::game::{Act, Board, TuiGame};
use super::keys::{self, Answer, Binding, QUESTION, actions, describe, help_keys, lookup};
use super::layout::{chrome, dialog_rows, draw_dialog, wrap_fitted, wrapped_rows};
use super::mouse::dialog_answer;
use super::text::{Give, Part, fit_parts, mark, whole};
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::input::{KeyCode, KeyEvent, MouseEvent};
use crate::mid::capitalised;
use crate::mid::elsewhere::{self, Elsewhere};
use crate::mid::error::Error;
use crate::mid::game::{Purpose, Turn};
use crate::mid::session::{Seed, Session};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

mod coach;
mod commands;
mod computer;

pub use commands::key_clashes;
use commands::{BACK_SAVED, COMMON, Common, Question, common_for, end_answers};
use computer::{Pending, WATCH_MS};

/// Any game being played on the full screen.
pub struct PlayView<G: TuiGame> {
    session: Session<G>,
    ui: G::Ui,
    message: Option<String>,
    question: Option<Question>,
    thinker: Option<G::Thinker>,
    job: Option<(Pending<G>, Purpose)>,
    /// Where to think instead of a background job (the browser's worker), if the front end installed one.
    elsewhere: Option<&'static dyn Elsewhere>,
    autoplay: bool,
    auto_ms: u64,
    /// When autoplay's last move was played (monotonic ms): the time a move really takes is shown when the
    /// computer's thinking makes it longer than `auto_ms` (a large 2048 board).
    auto_at: Option<u64>,
    board_area: Rect,
    /// Watch mode: paused (`p`), and the least time a move takes (`+` and `-`).
    paused: bool,
    watch_ms: u64,
    /// Where the question or end box was last drawn (the mouse answers it there).
    dialog_area: Option<Rect>,
    /// The moves made when the computer, to move, gave no move: it is not asked again until they change (an undo),
    /// and the screen keeps saying why.
    no_move_at: Option<usize>,
    /// The seed of the next new game, chosen ahead by [`View::prepare`] on the end screen or under the new-game
    /// question (never in the terminal, which does not prepare).
    seed_ahead: Option<Seed>,
    /// That game's first screen, made ahead in idle time; any key or mouse event drops it.
    prepared: Option<Box<PlayView<G>>>,
    /// The store refused the last write of this game (a full or blocked browser storage): the way back says
    /// "NOT saved", not "saved", until a write succeeds.
    unsaved: bool,
    /// The review of the game once it is over and recorded (started at the tick after its end; taken by the
    /// review screen while it shows).
    coach: Option<crate::mid::coach::Coach>,
}

impl<G: TuiGame> PlayView<G> {
    /// A screen playing `session`.
    pub fn new(session: Session<G>) -> PlayView<G> {
        PlayView {
            session,
            ui: G::Ui::default(),
            message: None,
            question: None,
            thinker: None,
            job: None,
            elsewhere: elsewhere::elsewhere(),
            unsaved: false,
            autoplay: false,
            auto_ms: 0,
            auto_at: None,
            board_area: Rect::default(),
            paused: false,
            watch_ms: WATCH_MS,
            dialog_area: None,
            no_move_at: None,
            seed_ahead: None,
            prepared: None,
            coach: None,
        }
    }

    /// The same screen saying `message` first (what the command line found: a game held by another Parlor).
    pub fn with_message(mut self, message: Option<String>) -> PlayView<G> {
        self.message = message;
        self
    }

    /// A new game with `params`, from the command line's seed if one is left, else a fresh one.
    pub fn start(params: G::Params, ctx: &mut Ctx) -> Result<PlayView<G>, Error> {
        PlayView::start_with(params, None, ctx)
    }

    /// A new game with `params` as [`PlayView::start`] makes it, but from the seed `ahead` chosen ahead by
    /// [`next_seed`] when the command line's seed is not waiting (a fresh one, not chosen by the player); the
    /// command line's seed, if one is left, is taken and played whatever was chosen ahead.
    pub fn start_with(
        params: G::Params,
        ahead: Option<Seed>,
        ctx: &mut Ctx,
    ) -> Result<PlayView<G>, Error> {
        let seed = next_seed(ctx.seed.take(), ahead);
        let session = Session::new_in(params, seed, ctx.store, ctx.contexts.of::<G>())?;
        Ok(PlayView::new(session))
    }

    /// The first screen of the game [`PlayView::start_with`] would start with `params` and `seed`, made only to be
    /// drawn ahead: its session claims and writes nothing ([`Session::unclaimed_in`]), and the screen is never
    /// given a key.
    pub fn preview(params: G::Params, seed: Seed, ctx: &Ctx) -> Result<PlayView<G>, Error> {
        let session = Session::unclaimed_in(params, seed, &*ctx.store, ctx.contexts.of::<G>())?;
        Ok(PlayView::new(session))
    }

    /// Makes ahead, for a screen whose next likely key starts a game with `params`, that game's first screen: its
    /// seed chosen now ([`next_seed`]) and kept in `seed_ahead` for the key, the screen in `prepared`
    /// ([`PlayView::preview`]; made again only when the seed changed). Returns whether a screen is prepared.
    pub fn prepare_next(
        params: &G::Params,
        seed_ahead: &mut Option<Seed>,
        prepared: &mut Option<Box<PlayView<G>>>,
        ctx: &Ctx,
    ) -> bool {
        let seed = next_seed(*ctx.seed, *seed_ahead);
        if *seed_ahead != Some(seed) {
            *prepared = None;
        }
        *seed_ahead = Some(seed);
        if prepared.is_none() {
            *prepared = PlayView::preview(params.clone(), seed, ctx)
                .ok()
                .map(Box::new);
        }
        prepared.is_some()
    }

    /// The same screen thinking through `by` rather than the one installed (for tests).
    pub fn thinking_elsewhere(mut self, by: Option<&'static dyn Elsewhere>) -> PlayView<G> {
        self.elsewhere = by;
        self
    }

    /// The session being played (for tests).
    pub fn session(&self) -> &Session<G> {
        &self.session
    }

    /// The UI state (for tests).
    pub fn ui(&self) -> &G::Ui {
        &self.ui
    }

    fn new_game(&mut self, ctx: &mut Ctx) -> Transition {
        let ahead = self.seed_ahead.take();
        match PlayView::<G>::start_with(self.session.params.clone(), ahead, ctx) {
            Ok(view) => Transition::Replace(Box::new(view)),
            Err(e) => {
                self.message = Some(e.to_string());
                Transition::Stay
            }
        }
    }

    fn play(&mut self, mv: G::Move, ctx: &mut Ctx) {
        match self.session.play(mv, ctx.store) {
            Ok(applied) => {
                G::after_move(&mut self.ui, &self.session);
                if !ctx.animations || self.autoplay {
                    G::settle(&mut self.ui);
                }
                self.message = applied.note;
                if let Some(m) = applied.milestone {
                    self.autoplay = false;
                    self.question = Some(Question::Milestone(m));
                }
            }
            Err(e) => self.message = Some(e.to_string()),
        }
        self.storage_warning();
    }

    /// What a common command does, in words: in watch mode `p`, `+` and `-` pause and pace the computer.
    fn common_words(&self, what: &'static str) -> &'static str {
        if what == BACK_SAVED && self.unsaved {
            return "back to the menu (NOT saved)";
        }
        if !G::watched(&self.session.params) {
            return what;
        }
        match what {
            "autoplay" => "pause or go on",
            "autoplay faster" => "faster",
            "autoplay slower" => "slower",
            other => other,
        }
    }

    fn storage_warning(&mut self) {
        if self.session.saved() {
            self.unsaved = false;
        }
        if let Some(why) = self.session.ended().and_then(|e| e.not_recorded.clone()) {
            let _ = self.session.take_storage_error();
            self.message = Some(format!("This game was NOT recorded: {why}."));
        } else if let Some(e) = self.session.take_storage_error() {
            self.unsaved = true;
            self.message = Some(e.to_string());
        } else if let Some(why) = self.session.lost() {
            // Every move after it is played unsaved: the screen keeps saying so, not only once.
            self.unsaved = true;
            self.message = Some(format!("not saved: {why}"));
        }
    }

    /// The question or end-of-game box, if any.
    fn dialog(&self, theme: &Theme) -> Option<(&'static str, Vec<Line<'static>>)> {
        match &self.question {
            Some(Question::Milestone(m)) => Some((
                "Well done!",
                vec![
                    Line::styled(format!("{m}  Score {}", self.session.score()), theme.good()),
                    Line::raw(Question::Milestone(String::new()).answers()),
                ],
            )),
            Some(Question::Restart) => Some((
                "New game?",
                vec![
                    Line::raw("This game will be recorded as given up."),
                    Line::raw(Question::Restart.answers()),
                ],
            )),
            Some(Question::GiveUp) => Some((
                "Give up?",
                vec![
                    Line::raw("The game ends here and is recorded."),
                    Line::raw(Question::GiveUp.answers()),
                ],
            )),
            None => self.session.ended().map(|end| {
                let rank = match (end.rank, end.unranked, end.id) {
                    (_, _, None) if self.session.started() => "NOT recorded".to_string(),
                    (_, _, None) => "no move made: not recorded".to_string(),
                    (_, Some(why), _) => format!("{why}: kept out of the best scores"),
                    (Some(1), None, _) => {
                        format!("a new best for {}!", G::variant(&self.session.params))
                    }
                    (Some(r), None, _) => {
                        format!("rank {r} in {}", G::variant(&self.session.params))
                    }
                    (None, None, _) => "recorded".to_string(),
                };
                let mut lines = vec![
                    Line::styled(end.text.clone(), theme.strong()),
                    Line::raw(format!(
                        "{} {} · {rank}",
                        capitalised(G::score_name()),
                        self.session.score()
                    )),
                ];
                lines.extend(self.coach_line(theme));
                lines.push(Line::raw(end_answers()));
                ("Game over", lines)
            }),
        }
    }

    /// The status line's parts, each with how it gives way on a narrow screen: the score, who is to move (or the
    /// guess) and `assisted` are marks kept whole; the best score goes first, then the seed, then the game's other
    /// words, and the computer thinking last.
    fn status_parts(&self, theme: &Theme) -> Vec<Part> {
        let s = &self.session;
        let mut parts: Vec<Part> = vec![
            (
                format!("{} ", capitalised(G::score_name())),
                Style::default(),
                Give::Keep,
            ),
            (s.score().to_string(), theme.strong(), Give::Keep),
        ];
        if let Some(best) = s.best() {
            parts.push(("   Best ".into(), Style::default(), Give::Drop(250)));
            parts.push((best.to_string(), theme.strong(), Give::Drop(250)));
        }
        // The game's words: their first clause (who is to move, the guess) is kept; the others give way after
        // the best score, the first of them first (a variant's description before a tree's progress, a count of
        // codes before "you answer").
        let extra = G::status_text(s.context(), s.state(), &s.params);
        for (i, clause) in extra.split(" · ").filter(|c| !c.is_empty()).enumerate() {
            let (text, give) = match i {
                0 => (format!("   {clause}"), Give::Keep),
                _ => (format!(" · {clause}"), Give::Drop(200 - i.min(190) as u8)),
            };
            parts.push((text, Style::default(), give));
        }
        if s.practice() {
            // A practice game's seed is the reviewed game's: "practice" says all (never scored).
            parts.push(("   practice".into(), theme.dim(), Give::Keep));
        }
        if s.assisted() {
            parts.push(("   assisted".into(), theme.dim(), Give::Keep));
        }
        if s.seed().chosen && !s.practice() {
            parts.push((
                format!("   seed {} (not ranked)", s.seed().value),
                theme.dim(),
                // After the best score, before the game's words: what the computer waits for (a table's solve)
                // says more than the seed the title's setup already chose.
                Give::Drop(220),
            ));
        }
        if self
            .job
            .as_ref()
            .is_some_and(|(_, p)| *p == Purpose::Opponent)
        {
            parts.push(("   computer thinking…".into(), theme.dim(), Give::Drop(1)));
        }
        parts
    }
}

impl<G: TuiGame> View for PlayView<G> {
    fn min_size(&self) -> (u16, u16) {
        let (w, h) = G::board_size(&self.session.params);
        // Title, status, message, board, hint bar; a question or the end box goes over the board if need be.
        (w.max(40), h + 4)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let title = format!(
            "Parlor · {} · {}",
            G::TITLE,
            G::variant(&self.session.params)
        );
        let body = chrome(frame, area, &title, &self.hint_bar(), theme);
        let board_h = G::board_size(&self.session.params).1;
        // A long message wraps, over as many rows as the board can spare (at most three).
        let spare = body.height.saturating_sub(1 + board_h).clamp(1, 3);
        let msg_rows = self
            .message
            .as_deref()
            .map_or(1, |m| wrapped_rows(m, body.width).clamp(1, spare));
        let [info, msg, board_area] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(msg_rows),
            Constraint::Min(1),
        ])
        .areas(body);
        frame.render_widget(
            Paragraph::new(fit_parts(&self.status_parts(theme), info.width, info)),
            info,
        );
        if let Some(m) = &self.message {
            // The message in the keys as bound; what does not fit in the rows the board spares ends with `…`,
            // never cut silently.
            let m = keys::live_words(m);
            let lines: Vec<Line> = wrap_fitted(&m, msg.width, msg.height)
                .into_iter()
                .map(|l| Line::styled(l, theme.dim()))
                .collect();
            if wrapped_rows(&m, msg.width) <= msg.height {
                whole(msg, &m);
            } else {
                // Shortened where the board leaves too few rows: marked so, and whole in the help (`?`).
                mark(msg, "…");
            }
            frame.render_widget(Paragraph::new(lines), msg);
        }
        let dialog = self.dialog(theme);
        // The box goes under the board when there is room for both, else over the board's middle.
        let (board_area, dialog_area) = match &dialog {
            Some((title, lines)) => {
                let rows = dialog_rows(board_area.width, title, lines);
                if board_area.height >= board_h + rows {
                    let [b, d] = Layout::vertical([Constraint::Min(1), Constraint::Length(rows)])
                        .areas(board_area);
                    (b, Some(d))
                } else {
                    (board_area, Some(board_area))
                }
            }
            None => (board_area, None),
        };
        self.board_area = board_area;
        self.dialog_area = None;
        let s = &self.session;
        let board = Board {
            state: s.state(),
            params: &s.params,
            ui: Some(&self.ui),
            last: s.moves().last(),
            over: s.ended().is_some(),
            context: s.context(),
        };
        G::draw(frame, board_area, &board, theme);
        if let (Some((title, lines)), Some(area)) = (dialog, dialog_area) {
            self.dialog_area = Some(draw_dialog(frame, area, title, lines));
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        self.prepared = None;
        // A key never waits for an animation: it finishes at once, and the key acts.
        G::settle(&mut self.ui);
        if self.question.is_some() {
            return match lookup(QUESTION, &key) {
                Some(a) => self.answer(a, ctx),
                None => {
                    self.message = Some("answer y or n".into());
                    Transition::Stay
                }
            };
        }
        if self.session.ended().is_some() {
            return self.ended_key(&key, ctx);
        }
        let common = lookup(COMMON, &key);
        if self.autoplay && !matches!(common, Some(Common::Faster | Common::Slower)) {
            // Any other key takes the game back from the computer.
            self.autoplay = false;
            self.job = None;
            self.message = Some("autoplay stopped: your turn".into());
            return Transition::Stay;
        }
        if key.code == KeyCode::Esc
            && let Some(said) = G::cancel(&mut self.ui, &self.session)
        {
            self.message = Some(said);
            return Transition::Stay;
        }
        if let Some(cmd) = lookup(
            G::bindings_now(&self.session.params, &self.ui, &self.session),
            &key,
        ) {
            let act = G::command(cmd, &mut self.ui, &self.session);
            return self.act(act, ctx);
        }
        if let Some(cmd) = common {
            let offered = common_for::<G>(&self.session.params)
                .iter()
                .any(|b| b.cmd == cmd);
            if offered {
                return self.common(cmd, ctx);
            }
            if cmd == Common::Hint {
                // Never read as something else (a colour): say why there is none. (Autoplay's keys are left to
                // the game: a lower-case letter may type a colour.)
                self.message = Some(format!(
                    "no hint here: {}",
                    G::why_no_hint(&self.session.params)
                ));
                return Transition::Stay;
            }
        }
        if let Some(act) = G::other_key(&key, &mut self.ui, &self.session) {
            return self.act(act, ctx);
        }
        self.message = Some(format!("{} does nothing here: ? for help", key_name(&key)));
        Transition::Stay
    }

    fn handle_mouse(&mut self, event: MouseEvent, ctx: &mut Ctx) -> Transition {
        self.prepared = None;
        // A question or the end box: a click on one side of its answer line answers as that key would.
        if self.question.is_some() || self.session.ended().is_some() {
            let (line, yes, no) = match &self.question {
                Some(q) => (
                    q.answers().to_string(),
                    KeyCode::Char('y'),
                    KeyCode::Char('n'),
                ),
                None => {
                    let (keys, _) = keys::action_keys(&actions::NEW_GAME, "r");
                    let new_game = keys.first().copied().unwrap_or(KeyCode::Char('r'));
                    (end_answers(), new_game, KeyCode::Char('q'))
                }
            };
            let answer = self
                .dialog_area
                .and_then(|rect| dialog_answer(&event, rect, &line));
            return match answer {
                Some(Answer::Yes) => self.handle_key(KeyEvent::from(yes), ctx),
                Some(Answer::No) => self.handle_key(KeyEvent::from(no), ctx),
                None => Transition::Stay,
            };
        }
        let act = G::mouse(event, self.board_area, &mut self.ui, &self.session);
        self.act(act, ctx)
    }

    fn tick(&mut self, ctx: &mut Ctx) -> Transition {
        if G::animating(&self.ui) {
            // Frames are drawn after each tick; the animation ends itself once its time is up.
            return Transition::Stay;
        }
        // The review starts at the tick after the game's end, so the end box first shows as the game left it.
        self.step_coach(ctx);
        self.step_computer(ctx);
        Transition::Stay
    }

    fn tick_ms(&self) -> Option<u64> {
        if G::animating(&self.ui) {
            Some(16)
        } else if self.autoplay {
            Some(self.auto_ms.max(10))
        } else if self.job.is_some() || self.session.turn() == Some(Turn::Computer) {
            Some(30)
        } else if self.coaching() {
            Some(100)
        } else {
            None
        }
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        if self.question.is_some() {
            return describe(QUESTION, false);
        }
        if self.session.ended().is_some() {
            // Only the keys that work on the end screen (as its box says).
            let (_, new_game) = keys::action_keys(&actions::NEW_GAME, "r");
            let mut bar = vec![(new_game, "new game")];
            if self.offers_review() {
                bar.extend(describe(crate::tui::review::OPEN, true));
            }
            bar.push(("q", "back"));
            return bar;
        }
        let params = &self.session.params;
        let table = G::bindings_now(params, &self.ui, &self.session);
        let mut bar: Vec<(&'static str, &'static str)> = describe(table, true)
            .into_iter()
            .map(|(label, what)| (G::bar_label(params, label), what))
            .collect();
        let common: Vec<Binding<Common>> = common_for::<G>(&self.session.params)
            .into_iter()
            .copied()
            .collect();
        bar.extend(
            describe(&common, true)
                .into_iter()
                .map(|(k, what)| (k, self.common_words(what))),
        );
        bar
    }

    fn help(&self) -> Help {
        let params = &self.session.params;
        let mut keys = G::help_rows(params);
        keys.extend(help_keys(G::bindings_now(params, &self.ui, &self.session)));
        let common: Vec<Binding<Common>> = common_for::<G>(&self.session.params)
            .into_iter()
            .copied()
            .collect();
        keys.extend(
            help_keys(&common)
                .into_iter()
                .map(|(k, what)| (k, self.common_words(what))),
        );
        keys.extend(help_keys(QUESTION));
        if self.session.ended().is_some() {
            keys.extend(help_keys(crate::tui::review::OPEN));
        }
        // The rules and the keys' words name the keys as the settings bind them.
        let keys = keys
            .into_iter()
            .map(|(k, what)| (k, keys::intern(keys::live_words(what))))
            .collect();
        // The last message comes first, whole (on a short screen its line may be shortened with `…`).
        let last = self
            .message
            .as_deref()
            .map(|m| format!("Last message: {}", keys::live_words(m)));
        Help {
            title: G::TITLE.into(),
            keys,
            text: last
                .into_iter()
                .chain(G::rules().iter().map(|s| keys::live_words(s)))
                .collect(),
        }
    }

    fn resumed(&mut self, ctx: &mut Ctx) {
        self.session.refresh_best(ctx.store);
    }

    /// Makes ahead the first screen of the next new game where the next likely key starts one: the end screen
    /// (its new-game key) and the new-game question (its yes). Its seed is chosen now ([`next_seed`]) and kept for
    /// that key; its session claims and writes nothing ([`PlayView::preview`]). Nothing while the game goes on.
    fn prepare(&mut self, ctx: &mut Ctx) -> bool {
        let likely = match &self.question {
            Some(Question::Restart) => true,
            Some(_) => false,
            None => self.session.ended().is_some(),
        };
        if !likely {
            self.prepared = None;
            return false;
        }
        PlayView::prepare_next(
            &self.session.params,
            &mut self.seed_ahead,
            &mut self.prepared,
            ctx,
        )
    }

    fn prepared(&mut self) -> Option<&mut dyn View> {
        self.prepared.as_deref_mut().map(|v| v as &mut dyn View)
    }

    fn left_behind(&mut self) -> Option<crate::mid::coach::Coach> {
        self.coach_left_behind()
    }

    fn on_quit(&mut self, ctx: &mut Ctx) {
        self.job = None;
        self.session.save(ctx.store);
    }

    /// The last move, numbered (so that two alike moves read as two), and what it did; then the end, once the
    /// game is over. Before the first move, nothing.
    fn announce(&self) -> Option<String> {
        let moves = self.session.moves();
        let last = moves.last()?;
        let s = &self.session;
        let mut line = format!(
            "Move {}: {}",
            moves.len(),
            G::announce(s.context(), s.state(), &s.params, last)
        );
        if let Some(end) = s.ended() {
            line.push_str(&format!(" Game over: {}.", end.text));
        }
        Some(line)
    }
}

impl<G: TuiGame> PlayView<G> {
    fn act(&mut self, act: Act<G::Move>, ctx: &mut Ctx) -> Transition {
        match act {
            Act::Stay => {}
            Act::Say(m) => self.message = Some(m),
            Act::Play(mv) => {
                if self.session.turn() == Some(Turn::Player) {
                    self.play(mv, ctx);
                } else {
                    self.message = Some("wait for your turn".into());
                }
            }
        }
        Transition::Stay
    }
}

/// The seed of the next new game, chosen ahead of its key (to draw its first screen in idle time): the command
/// line's or page's seed while one is waiting (looked at, not taken: [`PlayView::start_with`] takes it), else
/// `kept` if it was fresh, else a fresh one.
pub fn next_seed(waiting: Option<u64>, kept: Option<Seed>) -> Seed {
    match (waiting, kept) {
        (Some(value), _) => Seed {
            value,
            chosen: true,
        },
        (None, Some(kept)) if !kept.chosen => kept,
        (None, _) => Seed::from_option(None),
    }
}

/// A key as the message line names it.
pub fn key_name(key: &KeyEvent) -> String {
    match key.code {
        KeyCode::Char(c) => format!("'{c}'"),
        other => format!("{other:?}"),
    }
}
