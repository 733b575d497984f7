//! The computer's thinking on the play screen: a hint, an autoplay move or the opponent's move, worked out by a
//! background job or elsewhere (the browser's worker), and its answer taken.

use super::PlayView;
use crate::mid::elsewhere::{Asked, Request};
use crate::mid::game::{Game, Purpose, Turn};
use crate::mid::jobs::{Job, Poll};
use crate::mid::session::Session;
use crate::tui::Ctx;
use crate::tui::game::TuiGame;

/// Watch mode's pace at first: the least time a move takes, in milliseconds.
pub(super) const WATCH_MS: u64 = 400;

/// The result of the computer's thinking, with its memory handed back.
pub(super) type Thought<G> = (<G as Game>::Thinker, Option<<G as Game>::Move>);

/// The computer's thinking under way: here (a background job), or elsewhere (a request sent as data, with the
/// moves it was asked at, so that an answer to a position since changed is dropped).
pub(super) enum Pending<G: TuiGame> {
    Here(Job<Thought<G>>),
    Elsewhere(Asked, String),
}

/// The moves of `session` in notation, as a request carries them.
pub(super) fn moves_text<G: TuiGame>(session: &Session<G>) -> String {
    session
        .moves()
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl<G: TuiGame> PlayView<G> {
    pub(super) fn think(&mut self, purpose: Purpose) {
        if self.job.is_some() {
            return;
        }
        if let Some(by) = self.elsewhere {
            let saved = self.session.unfinished();
            let request = Request {
                id: 0,
                game: saved.game,
                options: saved.options,
                seed: saved.seed,
                moves: saved.moves.clone(),
                purpose,
                pace_ms: G::watched(&self.session.params).then_some(self.watch_ms),
            };
            if let Some(asked) = Asked::send(by, request) {
                self.job = Some((Pending::Elsewhere(asked, saved.moves), purpose));
                return;
            }
        }
        let mut thinker = self
            .thinker
            .take()
            .unwrap_or_else(|| G::thinker(&self.session.params, self.session.context()));
        if G::watched(&self.session.params) {
            G::set_pace(&mut thinker, self.watch_ms);
        }
        let state = self.session.state().clone();
        let job = Job::spawn(move |stop| {
            let mv = G::think(&mut thinker, &state, purpose, stop);
            (thinker, mv)
        });
        self.job = Some((Pending::Here(job), purpose));
    }

    /// Collects the computer's thought if it is ready, and starts the next one that is due.
    pub(super) fn step_computer(&mut self, ctx: &mut Ctx) {
        match &self.job {
            Some((Pending::Here(job), purpose)) => {
                let purpose = *purpose;
                match job.poll() {
                    Poll::Running => return,
                    Poll::Lost => self.job = None,
                    Poll::Done((thinker, mv)) => {
                        self.job = None;
                        self.thinker = Some(thinker);
                        self.thought(purpose, mv, None, ctx);
                    }
                }
            }
            Some((Pending::Elsewhere(asked, at), purpose)) => {
                let purpose = *purpose;
                match asked.poll() {
                    Poll::Running => return,
                    Poll::Lost => self.job = None,
                    Poll::Done(answer) => {
                        // An answer to a position since changed is stale: dropped (the next one is asked below).
                        let current = *at == moves_text(&self.session);
                        self.job = None;
                        match answer {
                            Ok(t) if current => {
                                let mv =
                                    t.mv.and_then(|m| G::parse_move(self.session.state(), &m).ok());
                                self.thought(purpose, mv, t.words, ctx);
                            }
                            Ok(_) => {}
                            Err(why) => {
                                // Never asked there again (an error would come back each time): thought here.
                                self.elsewhere = None;
                                self.message =
                                    Some(format!("thinking here: the worker could not ({why})"));
                            }
                        }
                    }
                }
            }
            None => {}
        }
        if self.question.is_some() || self.session.ended().is_some() {
            return;
        }
        if self.session.turn() == Some(Turn::Computer) {
            if self.paused || self.no_move_at == Some(G::moves_made(self.session.state())) {
                return;
            }
            self.think(Purpose::Opponent);
        } else if self.autoplay {
            self.think(Purpose::Autoplay);
        }
    }

    /// The computer's move for `purpose`; a hint is said in `words` when the worker gave them (it holds the
    /// tables and trees), else over this screen's own context.
    pub(super) fn thought(
        &mut self,
        purpose: Purpose,
        mv: Option<G::Move>,
        words: Option<String>,
        ctx: &mut Ctx,
    ) {
        match (purpose, mv) {
            (Purpose::Hint, Some(mv)) => {
                let words = words.unwrap_or_else(|| {
                    G::hint_text(self.session.context(), self.session.state(), &mv)
                });
                self.message = Some(format!("hint: {words} (the game is now assisted)"));
            }
            (Purpose::Hint, None) => self.message = Some("no move to suggest".into()),
            (Purpose::Autoplay, Some(mv)) if self.autoplay => {
                let shown = G::move_name(&self.session.params, &mv);
                self.play(mv, ctx);
                let now = crate::host::clock().monotonic_ms();
                let took = self.auto_at.map(|at| now.saturating_sub(at));
                self.auto_at = Some(now);
                if self.autoplay {
                    // The speed is the least time a move takes; the thinking may take longer: then that is said.
                    let speed = match took {
                        Some(t) if t > self.auto_ms + self.auto_ms / 2 + 20 => {
                            format!("{t} ms/move (thinking; {} set)", self.auto_ms)
                        }
                        _ => format!("{} ms/move", self.auto_ms),
                    };
                    self.message = Some(format!("autoplay: {shown} · any key stops · {speed}"));
                }
            }
            (Purpose::Autoplay, None) if self.autoplay => {
                self.autoplay = false;
                self.message = Some(words.unwrap_or_else(|| {
                    G::why_no_move(self.session.context(), self.session.state())
                }));
            }
            (Purpose::Autoplay, _) => self.autoplay = false,
            (Purpose::Opponent, Some(mv)) => {
                if self.session.turn() == Some(Turn::Computer) {
                    let shown = G::move_name(&self.session.params, &mv);
                    self.play(mv, ctx);
                    if self.message.is_none() {
                        self.message = Some(format!("the computer played {shown}"));
                    }
                }
            }
            (Purpose::Opponent, None) => {
                self.no_move_at = Some(G::moves_made(self.session.state()));
                self.message = Some(words.unwrap_or_else(|| {
                    G::why_no_move(self.session.context(), self.session.state())
                }));
            }
        }
    }
}
