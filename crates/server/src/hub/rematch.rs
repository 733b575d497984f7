//! Rematches: after a game either player may offer one (colours swapped); the other accepts by offering too, or
//! declines. An offer stands [`REMATCH_OFFER_MS`], is kept in the store (the opponent is told once it is written),
//! and is held for the grace period while its offerer is away.

use super::{After, Conn, Hub, error};
use crate::store::{FinishedGame, RematchOffer};
use parlor_online::protocol::{ErrorCode, ServerMessage};

/// How long a rematch offer stands, in milliseconds.
pub const REMATCH_OFFER_MS: u64 = 5 * 60_000;

/// A rematch offer of a finished game.
pub(super) struct Offer {
    /// Who offered.
    pub(super) from: String,
    /// The finished game's players, Black's first (none if the game is not found: only its offerer knows of it).
    pub(super) players: Vec<String>,
    /// When it lapses (Unix milliseconds).
    expires_unix_ms: u64,
    /// Since when (hub time) the offerer has had no connection: the offer is held for the grace period.
    pub(super) absent_since: Option<u64>,
}

impl Hub {
    /// Puts back the rematch offers kept in the store, each with its game's players (after a restart, at time 0 of
    /// this hub): every offerer is taken as gone since now, so has the grace period to come back; a lapsed offer
    /// is dropped.
    pub(super) fn restore_offers(&mut self, kept: Vec<(RematchOffer, Option<[String; 2]>)>) {
        let now = self.unix_at(0);
        for (o, players) in kept {
            if o.expires_unix_ms <= now {
                self.forget_offer(o.game, After::Nothing);
                continue;
            }
            self.rematches.insert(
                o.game,
                Offer {
                    from: o.from,
                    players: players.map(Vec::from).unwrap_or_default(),
                    expires_unix_ms: o.expires_unix_ms,
                    absent_since: Some(0),
                },
            );
        }
    }

    /// Takes the rematch offer of `game` out of the store (logged if it fails), then does `after`.
    pub(super) fn forget_offer(&self, game: u64, after: After) {
        self.write(
            format!("rematch offer of game {game}"),
            move |s| s.offer_remove(game),
            after,
        );
    }

    /// `name` offers (or, if the opponent offered, accepts) a rematch of the finished game `game`, which the store
    /// gave as `finished`.
    pub fn rematch(
        &mut self,
        conn: &Conn,
        name: &str,
        game: u64,
        finished: Option<FinishedGame>,
        now_ms: u64,
    ) {
        let Some(g) = finished.filter(|g| g.black == name || g.white == name) else {
            return conn.send(&error(
                ErrorCode::NotFound,
                format!("you played no finished game {game}"),
                Some(game),
            ));
        };
        let opponent = if g.black == name { &g.white } else { &g.black };
        match self.rematches.get(&game).map(|o| o.from.as_str()) {
            Some(offerer) if offerer == opponent => {
                if let Err(e) = self.start_rematch(&g, game, now_ms) {
                    conn.send(&e);
                }
            }
            Some(_) => conn.send(&error(
                ErrorCode::Conflict,
                format!("you already offered a rematch of game {game}"),
                Some(game),
            )),
            None => {
                // An offer of the opponent's held by another node: the acceptance goes there.
                if self.ask_rematch(name, opponent, game, false, now_ms) {
                    return;
                }
                if !self.online_anywhere(opponent) {
                    return conn.send(&error(
                        ErrorCode::NotFound,
                        format!("{opponent} is not online"),
                        Some(game),
                    ));
                }
                let offer = Offer {
                    from: name.to_string(),
                    players: vec![g.black.clone(), g.white.clone()],
                    expires_unix_ms: self.unix_at(now_ms).saturating_add(REMATCH_OFFER_MS),
                    absent_since: None,
                };
                let kept = RematchOffer {
                    game,
                    from: name.to_string(),
                    expires_unix_ms: offer.expires_unix_ms,
                };
                self.write(
                    format!("rematch offer of game {game}"),
                    move |s| s.offer_put(&kept),
                    After::Relay {
                        name: opponent.clone(),
                        msg: Box::new(ServerMessage::RematchOffered {
                            game,
                            from: name.to_string(),
                        }),
                    },
                );
                self.rematches.insert(game, offer);
            }
        }
    }

    /// The rematch of the finished game `g` (number `game`) accepted: the offer goes and the game starts here,
    /// colours swapped. The error to send if its kept board does not read.
    pub(super) fn start_rematch(
        &mut self,
        g: &FinishedGame,
        game: u64,
        now_ms: u64,
    ) -> Result<(), Box<ServerMessage>> {
        let Ok(dims) = g.board.parse::<nocca::Dims>() else {
            return Err(super::boxed_error(
                ErrorCode::Internal,
                "a kept board is unreadable",
                None,
            ));
        };
        self.rematches.remove(&game);
        self.remote_offers.remove(&game);
        self.forget_offer(game, After::Nothing);
        self.start_room(
            &g.white,
            &g.black,
            dims,
            g.clock,
            g.rated,
            Some(game),
            now_ms,
        );
        Ok(())
    }

    /// `name` declines the rematch of `game` offered to them (here, or through another node, where the answer
    /// goes); the offerer is told once it is written.
    pub(super) fn decline_rematch(&mut self, conn: &Conn, name: &str, game: u64) {
        if let Some(from) = self.offered_elsewhere(game, name)
            && self.ask_rematch(name, &from, game, true, 0)
        {
            return;
        }
        if self.rematches.get(&game).is_some_and(|o| o.from != name)
            && let Some(offer) = self.rematches.remove(&game)
        {
            self.forget_offer(
                game,
                After::Relay {
                    name: offer.from.clone(),
                    msg: Box::new(ServerMessage::RematchDeclined { game }),
                },
            );
            self.forget_rating(&offer.from);
        } else {
            conn.send(&error(
                ErrorCode::NotFound,
                format!("no rematch of game {game} offered to you"),
                Some(game),
            ));
        }
    }

    /// Drops the offers of players gone past the grace period at `now_ms`, and the lapsed offers.
    pub(super) fn tick_offers(&mut self, now_ms: u64) {
        self.tick_offers_elsewhere(now_ms);
        let grace = self.grace_ms;
        let past = |since: Option<u64>| since.is_some_and(|t| now_ms >= t.saturating_add(grace));
        let now_unix = self.unix_at(now_ms);
        let lapsed: Vec<u64> = self
            .rematches
            .iter()
            .filter(|(_, o)| past(o.absent_since) || o.expires_unix_ms <= now_unix)
            .map(|(&g, _)| g)
            .collect();
        for game in lapsed {
            if let Some(offer) = self.rematches.remove(&game) {
                self.forget_offer(game, After::Nothing);
                self.forget_rating(&offer.from);
            }
        }
    }
}
