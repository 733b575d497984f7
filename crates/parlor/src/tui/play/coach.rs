//! The coach on the end screen: once a game is over and recorded, its review is made in the background (or read
//! back where it is kept) from the next tick on, the end box says how far it has come and then its summary, and
//! `c` opens the review screen.

use super::PlayView;
use crate::mid::coach::Coach;
use crate::tui::game::TuiGame;
use crate::tui::review::ReviewView;
use crate::tui::theme::Theme;
use crate::tui::{Ctx, Transition};
use ratatui::text::Line;

impl<G: TuiGame> PlayView<G> {
    /// Starts the review of the game just finished and recorded (once), or collects it when it is ready.
    pub(super) fn step_coach(&mut self, ctx: &mut Ctx) {
        if let Some(coach) = &mut self.coach {
            coach.poll(&*ctx.store);
            return;
        }
        let Some(id) = self.session.ended().and_then(|e| e.id) else {
            return;
        };
        let Some(game) = crate::mid::find(ctx.games, G::ID) else {
            return;
        };
        if let Some(coach) = ctx.reviews.take(id) {
            self.coach = Some(coach);
            return;
        }
        self.coach = Some(match ctx.store.game(id) {
            Ok(Some(record)) => Coach::start(game, &record, &*ctx.store, ctx.contexts),
            Ok(None) => Coach::Failed(format!("game #{id} is not in the history")),
            Err(e) => Coach::Failed(format!("game #{id} cannot be read: {e:#}")),
        });
    }

    /// The review being made, taken to go on in the background as the end screen closes
    /// ([`crate::tui::View::left_behind`]).
    pub(super) fn coach_left_behind(&mut self) -> Option<Coach> {
        self.coach.take_if(|c| c.working())
    }

    /// Whether the end screen offers the review: it is being made or ready.
    pub(super) fn offers_review(&self) -> bool {
        self.coach
            .as_ref()
            .is_some_and(|c| !matches!(c, Coach::Failed(_)))
    }

    /// Whether the review is being made (the screen then ticks often, to show its progress).
    pub(super) fn coaching(&self) -> bool {
        self.coach.as_ref().is_some_and(Coach::working)
    }

    /// The end box's line of the review, once it has started: its progress or summary and the key that opens it,
    /// or why there is none.
    pub(super) fn coach_line(&self, theme: &Theme) -> Option<Line<'static>> {
        let coach = self.coach.as_ref()?;
        Some(match coach {
            Coach::Failed(_) => Line::styled(coach.line(), theme.dim()),
            _ => Line::raw(format!("{} · c review", coach.line())),
        })
    }

    /// `c` on the end screen: the review screen, handed the review made so far (the end screen reads it back
    /// from the store, or makes it again, once the review screen closes).
    pub(super) fn open_review(&mut self, ctx: &mut Ctx) -> Transition {
        if self.coach.is_none() {
            self.step_coach(ctx);
        }
        let id = self.session.ended().and_then(|e| e.id);
        match (self.coach.take(), id) {
            (Some(Coach::Failed(why)), _) => {
                self.message = Some(format!("no review: {why}"));
                self.coach = Some(Coach::Failed(why));
                Transition::Stay
            }
            (Some(coach), Some(id)) => Transition::Push(Box::new(ReviewView::with(
                &crate::mid::Entry::<G>::new(),
                id,
                coach,
            ))),
            _ => {
                self.message = Some("no review: the game was not recorded".into());
                Transition::Stay
            }
        }
    }
}
