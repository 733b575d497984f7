//! The commands every game's play screen has (undo, hint, autoplay, give up, new game, back), the questions it asks
//! and their answers.

use super::PlayView;
use crate::input::KeyEvent;
use crate::mid::game::{Purpose, Turn};
use crate::tui::game::TuiGame;
use crate::tui::keys::{self, Answer, Binding, actions, bar, lookup, more};
use crate::tui::{Ctx, Transition};

/// The commands every game's play screen has.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Common {
    Undo,
    Hint,
    Auto,
    Faster,
    Slower,
    GiveUp,
    Restart,
    Quit,
}

/// The way back's words while the game's last write was kept (or nothing asked to keep it); "NOT saved" replaces
/// "saved" once the store refuses a write (`PlayView::common_words`).
pub(super) const BACK_SAVED: &str = "back to the menu (saved)";

pub(super) const COMMON: &[Binding<Common>] = &[
    // The keys of these commands come from `keys::actions`, so that the settings can remap them.
    bar(&actions::UNDO, "u", "undo", Common::Undo),
    bar(&actions::HINT, "t", "hint", Common::Hint),
    bar(&actions::AUTOPLAY, "p", "autoplay", Common::Auto),
    more(&actions::FASTER, "+", "autoplay faster", Common::Faster),
    more(&actions::SLOWER, "-", "autoplay slower", Common::Slower),
    more(
        &actions::GIVE_UP,
        "x",
        "give up (asks first)",
        Common::GiveUp,
    ),
    more(
        &actions::NEW_GAME,
        "r",
        "new game (asks first while a game goes on)",
        Common::Restart,
    ),
    bar(keys::common::BACK, "q", BACK_SAVED, Common::Quit),
];

/// The labels of the common commands a game offers (no autoplay where the computer cannot play for the player).
pub(super) fn common_for<G: TuiGame>(params: &G::Params) -> Vec<&'static Binding<Common>> {
    COMMON
        .iter()
        .filter(|b| match b.cmd {
            Common::Auto | Common::Faster | Common::Slower => {
                G::can_autoplay(params) || G::watched(params)
            }
            Common::Hint => G::can_think(params),
            _ => true,
        })
        .collect()
}

/// The keys the play screen of `G` binds twice: in the game's table, or in both the game's table and the common
/// one (whatever the game offers of it).
pub fn key_clashes<G: TuiGame>(params: &G::Params) -> Vec<String> {
    let mut found: Vec<String> = keys::clashes(G::bindings(params))
        .into_iter()
        .map(|k| format!("{k:?} twice in the {} table", G::TITLE))
        .collect();
    for b in G::bindings(params) {
        for k in b.keys {
            if COMMON.iter().any(|c| c.keys.contains(k)) {
                found.push(format!("{k:?} is both {} and a common command", b.help));
            }
        }
    }
    found
}

/// What the screen is asking.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Question {
    /// A milestone was reached (a target tile, say): keep going?
    Milestone(String),
    /// Start a new game (the current one is recorded as given up)?
    Restart,
    /// Give up?
    GiveUp,
}

impl Question {
    /// The answer line of its box (a click on either side answers).
    pub(super) fn answers(&self) -> &'static str {
        match self {
            Question::Milestone(_) => "y keep going · n stop here",
            Question::Restart => "y new game · n carry on",
            Question::GiveUp => "y give up · n carry on",
        }
    }
}

/// The answer line of the end box, with the key the settings give a new game.
pub(super) fn end_answers() -> String {
    let (_, new_game) = keys::action_keys(&actions::NEW_GAME, "r");
    format!("{new_game} new game · q back")
}

impl<G: TuiGame> PlayView<G> {
    pub(super) fn answer(&mut self, answer: Answer, ctx: &mut Ctx) -> Transition {
        let Some(q) = self.question.take() else {
            return Transition::Stay;
        };
        match (q, answer) {
            (Question::Milestone(_), Answer::Yes) => self.message = Some("keep going!".into()),
            (Question::Milestone(_), Answer::No) | (Question::GiveUp, Answer::Yes) => {
                // What was said while the game went on ("autoplay stopped: your turn") no longer holds.
                self.message = None;
                self.autoplay = false;
                self.session.resign(ctx.store);
                self.storage_warning();
            }
            (Question::Restart, Answer::Yes) => {
                self.session.resign(ctx.store);
                return self.new_game(ctx);
            }
            (Question::Restart | Question::GiveUp, Answer::No) => {
                self.message = Some("carry on".into())
            }
        }
        Transition::Stay
    }

    pub(super) fn common(&mut self, cmd: Common, ctx: &mut Ctx) -> Transition {
        match cmd {
            Common::Quit => return self.leave(ctx),
            Common::Undo => {
                // Say which moves are taken back, so that an undo is never silent about what it did.
                let moves = self.session.moves();
                let depth = G::undo_depth(self.session.state(), moves.len()).min(moves.len());
                let taken: Vec<String> = moves[moves.len() - depth..]
                    .iter()
                    .map(|m| G::move_name(&self.session.params, m))
                    .collect();
                match self.session.undo(ctx.store) {
                    Ok(_) => {
                        self.job = None;
                        self.message = Some(format!(
                            "undo: took back {} (the game is now assisted)",
                            taken.join(" and ")
                        ));
                        self.storage_warning();
                    }
                    Err(e) => self.message = Some(e.to_string()),
                }
            }
            Common::Hint => {
                if self.session.turn() != Some(Turn::Player) {
                    self.message = Some("wait for your turn".into());
                } else {
                    self.session.mark_assisted(ctx.store);
                    self.message = Some("thinking…".into());
                    self.think(Purpose::Hint);
                }
            }
            Common::Auto if G::watched(&self.session.params) => {
                self.paused = !self.paused;
                self.message = Some(if self.paused {
                    "paused: p goes on".into()
                } else {
                    format!(
                        "watching: p pauses · + faster · - slower · {} ms/move",
                        self.watch_ms
                    )
                });
            }
            Common::Faster | Common::Slower if G::watched(&self.session.params) => {
                self.watch_ms = if cmd == Common::Faster {
                    (self.watch_ms / 2).max(25)
                } else {
                    (self.watch_ms * 2).min(4000)
                };
                self.message = Some(format!("watching at {} ms/move", self.watch_ms));
            }
            Common::Auto => {
                self.auto_ms(ctx);
                self.autoplay = true;
                self.auto_at = None;
                self.session.mark_assisted(ctx.store);
                self.message = Some("autoplay: any key stops it · + faster · - slower".into());
            }
            Common::Faster => self.auto_ms = (self.auto_ms(ctx) / 2).max(10),
            Common::Slower => self.auto_ms = (self.auto_ms(ctx) * 2).min(2000),
            Common::GiveUp if !ctx.settings.confirm_give_up() => {
                return self.answer_now(Question::GiveUp, ctx);
            }
            Common::GiveUp => self.question = Some(Question::GiveUp),
            Common::Restart if self.session.started() && !ctx.settings.confirm_new_game() => {
                return self.answer_now(Question::Restart, ctx);
            }
            Common::Restart if self.session.started() => self.question = Some(Question::Restart),
            Common::Restart => return self.new_game(ctx),
        }
        Transition::Stay
    }

    /// Milliseconds between autoplay moves: the settings' speed until + or - changes it.
    pub(super) fn auto_ms(&mut self, ctx: &Ctx) -> u64 {
        if self.auto_ms == 0 {
            self.auto_ms = ctx.settings.autoplay_ms();
        }
        self.auto_ms
    }

    /// Acts on a question the settings say not to ask, as if it were answered yes.
    pub(super) fn answer_now(&mut self, q: Question, ctx: &mut Ctx) -> Transition {
        self.question = Some(q);
        self.answer(Answer::Yes, ctx)
    }

    pub(super) fn leave(&mut self, ctx: &mut Ctx) -> Transition {
        self.job = None;
        if self.session.ended().is_none() && self.session.started() {
            *ctx.notice = Some(match self.session.save_now(ctx.store) {
                Ok(()) => format!("{} saved: choose Continue to pick it up again.", G::TITLE),
                Err(why) => format!(
                    "{} was NOT saved ({why}): it is lost when Parlor closes.",
                    G::TITLE
                ),
            });
        }
        Transition::Pop
    }

    pub(super) fn ended_key(&mut self, key: &KeyEvent, ctx: &mut Ctx) -> Transition {
        match lookup(COMMON, key) {
            Some(Common::Restart) => self.new_game(ctx),
            Some(Common::Quit) => Transition::Pop,
            _ if crate::tui::review::opens(key) => self.open_review(ctx),
            _ => {
                self.message = Some(format!("the game is over: {}", end_answers()));
                Transition::Stay
            }
        }
    }
}
