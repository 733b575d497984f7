//! Players away from the games the client sees: the server says when a player's connection ends (`away`, with
//! the grace period left before they lose) and when they are `back`; the client counts the grace period down
//! from the moment it heard it. The full screen shows the count on the game and in the lobby
//! ([`Model::away_text`]); plain mode prints a line when it starts, a reminder at [`REMINDERS_S`], and one when the
//! player is back ([`Model::countdown`]).

use super::model::Model;
use parlor_online::protocol::Side;

/// The seconds left at which plain mode reminds the player of an opponent away.
pub const REMINDERS_S: [u64; 2] = [30, 10];

/// A player away from a game in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AwayPlayer {
    /// Their name.
    pub name: String,
    /// When (monotonic milliseconds of the core's clock) their grace period ends.
    pub until_ms: u64,
    /// The next reminder plain mode prints, in seconds left (none once all are printed).
    next_reminder: Option<u64>,
}

/// Whole seconds in `ms`, rounded up (a player with 0.2 s left has 1 s, not 0).
fn seconds_up(ms: u64) -> u64 {
    ms.div_ceil(1000)
}

impl AwayPlayer {
    /// The milliseconds left at `now_ms`.
    pub fn left_ms(&self, now_ms: u64) -> u64 {
        self.until_ms.saturating_sub(now_ms)
    }
}

impl Model {
    /// How the player away on `side` of `game` is named: `opponent bob (white)` to the other player, `bob (white)`
    /// to a spectator.
    fn away_who(&self, game: u64, side: Side, name: &str) -> String {
        // A player's own game may not be known yet (its events come after the welcome that is followed by this).
        let mine = self.games.get(&game).is_none_or(|g| g.side.is_some());
        let opponent = if mine && name != self.me {
            "opponent "
        } else {
            ""
        };
        format!("{opponent}{name} ({})", side.as_str())
    }

    /// The server said `name` (on `side` of `game`) is away with `grace_ms` left, at `now_ms`: the line to tell.
    pub(super) fn heard_away(
        &mut self,
        game: u64,
        side: Side,
        name: String,
        grace_ms: u64,
        now_ms: u64,
    ) -> String {
        let left = seconds_up(grace_ms);
        let line = format!(
            "game {game}: {} away, {left} s left to come back",
            self.away_who(game, side, &name)
        );
        let player = AwayPlayer {
            name,
            until_ms: now_ms.saturating_add(grace_ms),
            next_reminder: REMINDERS_S.into_iter().find(|&r| r < left),
        };
        self.away.entry(game).or_default()[side.index()] = Some(player);
        line
    }

    /// The server said `name` (on `side` of `game`) is back: the line to tell.
    pub(super) fn heard_back(&mut self, game: u64, side: Side, name: &str) -> String {
        if let Some(sides) = self.away.get_mut(&game) {
            sides[side.index()] = None;
            if sides.iter().all(Option::is_none) {
                self.away.remove(&game);
            }
        }
        format!("game {game}: {} back", self.away_who(game, side, name))
    }

    /// The players away in `game` at `now_ms`, counted down: `opponent bob (white) away, 42 s left`; none if
    /// nobody is.
    pub fn away_text(&self, game: u64, now_ms: u64) -> Option<String> {
        let sides = self.away.get(&game)?;
        let parts: Vec<String> = [Side::Black, Side::White]
            .into_iter()
            .filter_map(|s| {
                sides[s.index()].as_ref().map(|p| {
                    format!(
                        "{} away, {} s left",
                        self.away_who(game, s, &p.name),
                        seconds_up(p.left_ms(now_ms))
                    )
                })
            })
            .collect();
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// The reminders due at `now_ms` of players away (plain mode prints them): one line at each of
    /// [`REMINDERS_S`] seconds left.
    pub fn countdown(&mut self, now_ms: u64) -> Vec<String> {
        let mut due: Vec<(u64, Side, String, u64)> = Vec::new();
        for (&game, sides) in self.away.iter_mut() {
            for side in [Side::Black, Side::White] {
                let Some(p) = sides[side.index()].as_mut() else {
                    continue;
                };
                let Some(r) = p.next_reminder else {
                    continue;
                };
                if p.left_ms(now_ms) <= r * 1000 {
                    p.next_reminder = REMINDERS_S.into_iter().find(|&x| x < r);
                    due.push((game, side, p.name.clone(), r));
                }
            }
        }
        due.into_iter()
            .map(|(game, side, name, r)| {
                format!(
                    "game {game}: {} still away, {r} s left",
                    self.away_who(game, side, &name)
                )
            })
            .collect()
    }

    /// Forgets who is away in `game` (it ended), or in every game (`None`: the connection is back, and the server
    /// tells again who still is).
    pub(super) fn forget_away(&mut self, game: Option<u64>) {
        match game {
            Some(g) => {
                self.away.remove(&g);
            }
            None => self.away.clear(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::online::conn::Down;
    use crate::online::model::Model;
    use parlor_online::protocol::{ServerMessage, Side};

    #[test]
    fn an_opponent_away_is_counted_down_reminded_and_back() {
        let mut m = Model::new("ann", crate::registry::online());
        m.apply(Down::Connected);
        let lines = m.apply(Down::Message(ServerMessage::Away {
            game: 4,
            side: Side::White,
            name: "bob".into(),
            grace_ms: 59_400,
        }));
        assert_eq!(
            lines,
            ["game 4: opponent bob (white) away, 60 s left to come back"]
        );
        let heard = m.away[&4][1].as_ref().unwrap().until_ms - 59_400;
        assert_eq!(
            m.away_text(4, heard + 17_000).as_deref(),
            Some("opponent bob (white) away, 43 s left")
        );
        assert!(m.countdown(heard + 29_000).is_empty());
        assert_eq!(
            m.countdown(heard + 29_400),
            ["game 4: opponent bob (white) still away, 30 s left"]
        );
        assert!(m.countdown(heard + 30_000).is_empty(), "said once");
        // Heard late, the 10 s reminder is still said, once.
        assert_eq!(
            m.countdown(heard + 59_000),
            ["game 4: opponent bob (white) still away, 10 s left"]
        );
        assert!(m.countdown(heard + 99_000).is_empty());
        assert_eq!(
            m.away_text(4, heard + 99_000).as_deref(),
            Some("opponent bob (white) away, 0 s left")
        );
        let lines = m.apply(Down::Message(ServerMessage::Back {
            game: 4,
            side: Side::White,
            name: "bob".into(),
        }));
        assert_eq!(lines, ["game 4: opponent bob (white) back"]);
        assert_eq!(m.away_text(4, heard), None);
        // A connection back forgets who was away: the server says again who still is.
        m.apply(Down::Message(ServerMessage::Away {
            game: 4,
            side: Side::White,
            name: "bob".into(),
            grace_ms: 5_000,
        }));
        assert!(m.away_text(4, heard).is_some());
        assert!(m.countdown(heard).is_empty(), "no reminder above 5 s");
        m.apply(Down::Connected);
        assert_eq!(m.away_text(4, heard), None);
    }
}
