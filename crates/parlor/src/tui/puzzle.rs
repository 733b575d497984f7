//! Learn from your mistakes on the full screen: each marked move of a reviewed game as a puzzle
//! ([`crate::mid::puzzle`]). The position before the move is drawn by the game's own board and played with its own
//! keys; the move tried is judged by the game's reviewer ([`crate::mid::game::Game::judge`]) instead of being played,
//! and the screen says whether it was as good as the best, with two tries before the best moves are shown.

use super::game::{Act, Board, TuiGame};
use super::keys::{Binding, bar, describe, help_keys, lookup};
use super::layout::{chrome, wrap_fitted};
use super::theme::Theme;
use super::{Ctx, Help, Transition, View};
use crate::input::{KeyCode, KeyEvent, MouseEvent};
use crate::mid::error::Error;
use crate::mid::puzzle::Puzzles;
use crate::mid::review::Review;
use crate::mid::session::{Seed, Session, rebuild};
use crate::storage::GameRecord;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    Show,
    Next,
    Back,
}

/// The puzzle screen's keys while a puzzle is tried (beside the game's own): keys no game binds.
const TRYING: &[Binding<Cmd>] = &[
    bar(&[KeyCode::Char('x')], "x", "show the best", Cmd::Show),
    bar(
        super::keys::common::BACK,
        "q",
        "back to the review",
        Cmd::Back,
    ),
];

/// Its keys once a puzzle has ended (the game's keys rest).
const ENDED: &[Binding<Cmd>] = &[
    bar(
        &[KeyCode::Enter, KeyCode::Char(' '), KeyCode::Char('n')],
        "Enter",
        "next puzzle",
        Cmd::Next,
    ),
    bar(
        super::keys::common::BACK,
        "q",
        "back to the review",
        Cmd::Back,
    ),
];

/// A run of puzzles over one finished game of `G`.
pub struct PuzzleView<G: TuiGame> {
    title: String,
    params: G::Params,
    seed: u64,
    start: G::State,
    moves: Vec<G::Move>,
    context: G::Context,
    puzzles: Puzzles,
    /// The position of the puzzle tried, as a session that claims and writes nothing.
    session: Session<G>,
    ui: G::Ui,
    message: Option<String>,
    board_area: Rect,
}

impl<G: TuiGame> PuzzleView<G> {
    /// The puzzles of `review`, the review of `record` (a finished game of `G`); an error when the record cannot
    /// be rebuilt or no move is marked.
    pub fn new(record: &GameRecord, review: &Review, ctx: &Ctx) -> Result<PuzzleView<G>, Error> {
        let r = rebuild::<G>(&record.game, &record.options, record.seed, &record.moves)?;
        // The player's own moves only: where the computer was to move, the player cannot play.
        let puzzles = Puzzles::of_player::<G>(review, &r.start, &r.moves)?;
        if puzzles.is_empty() {
            return Err(Error::Move(
                "none of your moves is marked: there is no mistake to learn from".into(),
            ));
        }
        let context = ctx.contexts.of::<G>();
        let session = Session::unclaimed_at(
            r.params.clone(),
            seed(record.seed),
            &[],
            &*ctx.store,
            context.clone(),
        )?;
        let mut view = PuzzleView {
            title: format!(
                "Learn from your mistakes · {} · game #{}",
                G::TITLE,
                record.id
            ),
            params: r.params,
            seed: record.seed,
            start: r.start,
            moves: r.moves,
            context,
            puzzles,
            session,
            ui: G::Ui::default(),
            message: None,
            board_area: Rect::default(),
        };
        view.set_up(ctx)?;
        Ok(view)
    }

    /// Sets the board at the current puzzle's position.
    fn set_up(&mut self, ctx: &Ctx) -> Result<(), Error> {
        let Some((_, p)) = self.puzzles.current() else {
            return Ok(());
        };
        let before = p.before.min(self.moves.len());
        self.session = Session::unclaimed_at(
            self.params.clone(),
            seed(self.seed),
            &self.moves[..before],
            &*ctx.store,
            self.context.clone(),
        )?;
        self.ui = G::Ui::default();
        Ok(())
    }

    /// The puzzles (for tests).
    pub fn puzzles(&self) -> &Puzzles {
        &self.puzzles
    }

    /// A move tried at the current puzzle: judged, never played.
    fn try_move(&mut self, mv: G::Move) {
        let Some((_, p)) = self.puzzles.current() else {
            return;
        };
        let before = p.before.min(self.moves.len());
        let mut probe = self.session.state().clone();
        if let Err(e) = G::apply(&mut probe, &mv) {
            self.message = Some(format!("not a move here: {e}"));
            return;
        }
        let name = G::move_name(&self.params, &mv);
        let judged = match G::judge(
            &self.context,
            &self.params,
            &self.start,
            &self.moves[..before],
            &mv,
        ) {
            Some(Ok(judged)) => judged,
            Some(Err(e)) => {
                self.message = Some(format!("{name} cannot be judged: {e}"));
                return;
            }
            None => {
                self.message = Some(format!("{} games have no reviewer", G::TITLE));
                return;
            }
        };
        self.ui = G::Ui::default();
        if let Some(step) = self.puzzles.answer(&judged) {
            self.message = Some(step.said(&name, &judged));
        }
    }

    /// The next puzzle, or the run's end.
    fn next(&mut self, ctx: &Ctx) {
        if self.puzzles.go_on() {
            self.message = None;
            if let Err(e) = self.set_up(ctx) {
                self.message = Some(e.to_string());
            }
        } else {
            self.message = Some(format!("Done: {}.", self.puzzles.tally()));
        }
    }

    fn act(&mut self, act: Act<G::Move>) {
        match act {
            Act::Stay => {}
            Act::Say(m) => self.message = Some(m),
            Act::Play(mv) => self.try_move(mv),
        }
    }

    /// The line over the board: which puzzle, whose move, and what was played in the game.
    fn status(&self) -> String {
        self.puzzles.status()
    }
}

/// The seed of a finished game, as a session at one of its positions takes it.
fn seed(value: u64) -> Seed {
    Seed {
        value,
        chosen: false,
    }
}

impl<G: TuiGame> View for PuzzleView<G> {
    fn min_size(&self) -> (u16, u16) {
        let (w, h) = G::board_size(&self.params);
        (w.max(40), h + 4)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let body = chrome(frame, area, &self.title, &self.hint_bar(), theme);
        let board_h = G::board_size(&self.params).1;
        let spare = body.height.saturating_sub(board_h).clamp(1, 3);
        let [top, board_area] =
            Layout::vertical([Constraint::Length(spare), Constraint::Min(1)]).areas(body);
        let mut text = self.status();
        if let Some(m) = &self.message {
            text = format!("{text}. {m}");
        }
        let lines: Vec<Line> = wrap_fitted(&text, top.width, top.height)
            .into_iter()
            .map(|l| Line::styled(l, theme.strong()))
            .collect();
        if super::layout::wrapped_rows(&text, top.width) <= top.height {
            super::text::whole(top, &text);
        }
        frame.render_widget(Paragraph::new(lines), top);
        self.board_area = board_area;
        let before = self
            .puzzles
            .current()
            .map_or(self.moves.len(), |(_, p)| p.before);
        let board = Board {
            state: self.session.state(),
            params: &self.params,
            ui: Some(&self.ui),
            last: before.checked_sub(1).and_then(|i| self.moves.get(i)),
            over: false,
            context: &self.context,
        };
        G::draw(frame, board_area, &board, theme);
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> Transition {
        if self.puzzles.waiting() {
            match lookup(ENDED, &key) {
                Some(Cmd::Next) => self.next(ctx),
                Some(Cmd::Back) => return Transition::Pop,
                _ => {}
            }
            return Transition::Stay;
        }
        if key.code == KeyCode::Esc
            && let Some(said) = G::cancel(&mut self.ui, &self.session)
        {
            self.message = Some(said);
            return Transition::Stay;
        }
        match lookup(TRYING, &key) {
            Some(Cmd::Back) => return Transition::Pop,
            Some(Cmd::Show) => {
                if let Some(best) = self.puzzles.show() {
                    self.message = Some(format!("The best: {}.", best.join(", ")));
                }
                return Transition::Stay;
            }
            _ => {}
        }
        let table = G::bindings_now(&self.params, &self.ui, &self.session);
        if let Some(cmd) = lookup(table, &key) {
            let act = G::command(cmd, &mut self.ui, &self.session);
            self.act(act);
        } else if let Some(act) = G::other_key(&key, &mut self.ui, &self.session) {
            self.act(act);
        }
        Transition::Stay
    }

    fn handle_mouse(&mut self, event: MouseEvent, _ctx: &mut Ctx) -> Transition {
        if !self.puzzles.waiting() {
            let act = G::mouse(event, self.board_area, &mut self.ui, &self.session);
            self.act(act);
        }
        Transition::Stay
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        if self.puzzles.waiting() {
            return describe(ENDED, true);
        }
        let table = G::bindings_now(&self.params, &self.ui, &self.session);
        let mut bar: Vec<(&'static str, &'static str)> = describe(table, true)
            .into_iter()
            .map(|(label, what)| (G::bar_label(&self.params, label), what))
            .collect();
        bar.extend(describe(TRYING, true));
        bar
    }

    fn help(&self) -> Help {
        let mut keys = G::help_rows(&self.params);
        keys.extend(help_keys(G::bindings_now(
            &self.params,
            &self.ui,
            &self.session,
        )));
        keys.extend(help_keys(TRYING));
        keys.extend(
            help_keys(ENDED)
                .into_iter()
                .filter(|(_, what)| *what == "next puzzle"),
        );
        Help {
            title: "Learn from your mistakes".into(),
            keys,
            text: vec![
                "Each marked move of the game, as a puzzle: the position before it, to play again. Play a move \
                 as in the game; the engine says whether it is as good as the best (a move whose loss would get \
                 no mark counts as good). After two wrong tries, or x, it shows the best moves; Enter goes on to \
                 the next puzzle."
                    .into(),
            ],
        }
    }
}
