//! The rated queue: a player joins with a board and a clock, and is paired with the nearest-rated player waiting
//! for the same within a band that widens as they wait. Each place is kept in the store (`queued` and `unqueued`
//! are sent once written), so a restart keeps it; a player whose last connection went keeps their place for the
//! grace period, not paired meanwhile.

use super::{After, Conn, Hub};
use crate::store::{Pairing, QueuedPlayer};
use parlor_online::protocol::{QueueEntry, ServerMessage, TimeControl};

/// The band of ratings a queued player is paired within when they join: it widens by [`QUEUE_BAND_PER_SEC`] a
/// second waited, up to [`QUEUE_BAND_MAX`]. Two players are paired when their ratings differ by no more than the
/// wider of their bands.
pub const QUEUE_BAND_START: u32 = 100;

/// How fast the queue's band widens, in rating points a second.
pub const QUEUE_BAND_PER_SEC: u32 = 20;

/// The widest the queue's band gets.
pub const QUEUE_BAND_MAX: u32 = 1000;

/// The band a player who has waited `waited_ms` is paired within.
pub fn queue_band(waited_ms: u64) -> u32 {
    let widened = (waited_ms / 1000).saturating_mul(u64::from(QUEUE_BAND_PER_SEC));
    u32::try_from(u64::from(QUEUE_BAND_START).saturating_add(widened))
        .unwrap_or(u32::MAX)
        .min(QUEUE_BAND_MAX)
}

/// How long a node waits to hear of the game of a queued player the store paired elsewhere ([`Hub::paired`]).
const UNSEATED_MS: u64 = 30_000;

/// A player waiting in the queue.
pub(super) struct Seat {
    pub(super) name: String,
    dims: nocca::Dims,
    clock: Option<TimeControl>,
    /// When they joined (Unix milliseconds, so that it outlives a restart): the band widens from it.
    joined_unix_ms: u64,
    rating: f64,
    /// Since when (hub time) the player has had no connection: their place is held for the grace period, and not
    /// paired meanwhile.
    pub(super) absent_since: Option<u64>,
}

/// A seat's place in the queue as shown at `now_unix_ms`.
pub(super) fn queue_entry(seat: &Seat, now_unix_ms: u64) -> QueueEntry {
    let waited_ms = now_unix_ms.saturating_sub(seat.joined_unix_ms);
    QueueEntry {
        board: seat.dims.to_string(),
        clock: seat.clock,
        waited_ms,
        band: queue_band(waited_ms),
    }
}

impl Hub {
    /// Puts back the queue kept in the store (after a restart, at time 0 of this hub): every player in it is taken
    /// as gone since now, so has the grace period to come back.
    pub(super) fn restore_queue(&mut self, kept: Vec<QueuedPlayer>) {
        for q in kept {
            match q.board.parse::<nocca::Dims>() {
                Ok(dims) => {
                    let rating = self.exact(&q.name).rating;
                    self.queue.push(Seat {
                        name: q.name,
                        dims,
                        clock: q.clock,
                        joined_unix_ms: q.joined_unix_ms,
                        rating,
                        absent_since: Some(0),
                    });
                }
                Err(e) => {
                    tracing::error!("queue of {}: board {:?}: {e}", q.name, q.board);
                    self.forget_seat(&q.name, After::Nothing);
                }
            }
        }
    }

    /// Takes `name`'s place in the queue out of the store (logged if it fails), then does `after`.
    fn forget_seat(&self, name: &str, after: After) {
        let n = name.to_string();
        self.write(
            format!("queue of {name}"),
            move |s| s.queue_remove(&n),
            after,
        );
    }

    /// `name` joins the queue (leaving any place they had) for `board` and `clock`; every connection of theirs is
    /// told `queued` once the place is kept.
    pub(super) fn join_queue(
        &mut self,
        conn: &Conn,
        name: &str,
        board: &str,
        clock: Option<TimeControl>,
        now_ms: u64,
    ) {
        let dims = match super::lobby::game_terms(board, clock) {
            Ok(d) => d,
            Err(e) => return conn.send(&e),
        };
        self.queue.retain(|s| s.name != name);
        let joined_unix_ms = self.unix_at(now_ms);
        let seat = Seat {
            name: name.to_string(),
            dims,
            clock,
            joined_unix_ms,
            rating: self.exact(name).rating,
            absent_since: None,
        };
        let kept = QueuedPlayer {
            name: name.to_string(),
            board: dims.to_string(),
            clock,
            joined_unix_ms,
        };
        self.write(
            format!("queue of {name}"),
            move |s| s.queue_put(&kept),
            After::Tell {
                name: name.to_string(),
                msg: Box::new(ServerMessage::Queued {
                    entry: queue_entry(&seat, joined_unix_ms),
                }),
            },
        );
        self.queue.push(seat);
        self.lobby_changed = true;
        self.pair(now_ms);
    }

    /// `name` leaves the queue; their connections are told `unqueued` once it is written.
    pub(super) fn unqueue(&mut self, name: &str) {
        self.queue.retain(|s| s.name != name);
        self.forget_seat(
            name,
            After::Tell {
                name: name.to_string(),
                msg: Box::new(ServerMessage::Unqueued {}),
            },
        );
        self.lobby_changed = true;
    }

    /// Drops the places of players gone past the grace period at `now_ms`.
    pub(super) fn tick_queue(&mut self, now_ms: u64) {
        let grace = self.grace_ms;
        let left: Vec<String> = self
            .queue
            .iter()
            .filter(|s| {
                s.absent_since
                    .is_some_and(|t| now_ms >= t.saturating_add(grace))
            })
            .map(|s| s.name.clone())
            .collect();
        for name in left {
            self.queue.retain(|s| s.name != name);
            self.forget_seat(&name, After::Nothing);
            self.lobby_changed = true;
            self.forget_rating(&name);
        }
    }

    /// Pairs the queue: oldest first, each with the nearest-rated player waiting for the same board and clock
    /// within the wider of their bands; the one who waited longer plays Black.
    pub(super) fn pair(&mut self, now_ms: u64) {
        // A node pairs through the store, where every node's queue is ([`Hub::paired`]).
        if self.nodes {
            return;
        }
        let now_unix = self.unix_at(now_ms);
        let mut i = 0;
        while i < self.queue.len() {
            let a = &self.queue[i];
            if a.absent_since.is_some() {
                i += 1;
                continue;
            }
            let best = self
                .queue
                .iter()
                .enumerate()
                .skip(i + 1)
                .filter(|(_, b)| b.absent_since.is_none() && b.dims == a.dims && b.clock == a.clock)
                .map(|(j, b)| (j, (a.rating - b.rating).abs(), b))
                .filter(|(_, diff, b)| {
                    let band = queue_band(now_unix.saturating_sub(a.joined_unix_ms))
                        .max(queue_band(now_unix.saturating_sub(b.joined_unix_ms)));
                    *diff <= f64::from(band)
                })
                .min_by(|x, y| x.1.total_cmp(&y.1))
                .map(|(j, _, _)| j);
            let Some(j) = best else {
                i += 1;
                continue;
            };
            // j > i: remove j first so i stays put.
            let b = self.queue.remove(j);
            let a = self.queue.remove(i);
            self.forget_seat(&a.name, After::Nothing);
            self.forget_seat(&b.name, After::Nothing);
            self.lobby_changed = true;
            self.start_room(&a.name, &b.name, a.dims, a.clock, true, None, now_ms);
        }
    }
}

impl Hub {
    /// A node's queued players online here, longest waiting first, with their ratings: each to pair through the
    /// store ([`crate::store::Store::pair_queued`]).
    pub fn seats_to_pair(&self) -> Vec<(String, f64)> {
        let mut seats: Vec<&Seat> = self
            .queue
            .iter()
            .filter(|s| s.absent_since.is_none())
            .collect();
        seats.sort_by_key(|s| s.joined_unix_ms);
        seats.iter().map(|s| (s.name.clone(), s.rating)).collect()
    }

    /// What pairing `name` through the store found at `now_ms`: their place gone (left, or paired by another node)
    /// is dropped here too; paired, both places go and their game starts here, the one who waited longer Black
    /// (an opponent on another node is told by theirs, when it hears of the game's start).
    pub fn paired(&mut self, name: &str, pairing: Pairing, now_ms: u64) {
        self.unseated
            .retain(|_, at| now_ms < at.saturating_add(UNSEATED_MS));
        match pairing {
            Pairing::Waiting => {}
            Pairing::Gone => {
                if self.queue.iter().any(|s| s.name == name) {
                    self.queue.retain(|s| s.name != name);
                    self.unseated.insert(name.to_string(), now_ms);
                    self.lobby_changed = true;
                }
            }
            Pairing::Paired {
                me,
                opponent,
                rating,
            } => {
                self.queue
                    .retain(|s| s.name != me.name && s.name != opponent.name);
                self.ratings.entry(opponent.name.clone()).or_insert(rating);
                self.lobby_changed = true;
                let Ok(dims) = me.board.parse::<nocca::Dims>() else {
                    return tracing::error!("queue of {}: board {:?}", me.name, me.board);
                };
                let (black, white) =
                    if (me.joined_unix_ms, &me.name) <= (opponent.joined_unix_ms, &opponent.name) {
                        (me, opponent)
                    } else {
                        (opponent, me)
                    };
                self.start_room(
                    &black.name,
                    &white.name,
                    dims,
                    black.clock,
                    true,
                    None,
                    now_ms,
                );
            }
        }
    }
}
