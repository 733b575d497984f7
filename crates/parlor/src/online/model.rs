//! What the client knows, shared by the full screen and plain mode: the player and their rating, the connection's
//! state, the lobby (players online with ratings, challenges to and from the player, live games, the queue), every
//! game it has seen (played or watched), each rebuilt move by move by the rooms' game ([`Room`], from the registry)
//! from the server's numbered events with both clocks, and the daily challenges ([`Daily`], one per challenge the
//! registry lists) and leaderboards. [`Model::apply`] takes what the
//! link passes on and returns the lines to tell the player (plain mode prints them; the full screen shows the
//! newest).

use super::conn::Down;
use crate::tui::daily::Daily;
use crate::tui::room::{Played, Room, RoomGame};
use parlor_online::protocol::{
    self, Board, ChallengeInfo, Clocks, EndReason, EventKind, GameRecord, LeaderEntry, LiveGame,
    PlayerInfo, QueueEntry, Rating, RatingChanges, ServerMessage, Side, TimeControl,
};
use std::collections::{BTreeMap, BTreeSet};

pub use super::text::{
    KeyWords, board_name, challenge_text, clock_text, queue_text, terms, terms_of,
};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winner; none for a draw or an abort.
    pub winner: Option<Side>,
    /// Why.
    pub reason: EndReason,
    /// Both players' rating changes, for a rated game.
    pub ratings: Option<RatingChanges>,
}

/// A game the client has seen, as its events built it.
#[derive(Clone, Debug)]
pub struct OnlineGame {
    /// Its number on the server.
    pub id: u64,
    /// Black's and White's names.
    pub names: [String; 2],
    /// Black's and White's ratings at the start.
    pub ratings: [Rating; 2],
    /// The player's side (none when watching).
    pub side: Option<Side>,
    /// The time control; none if untimed.
    pub clock: Option<TimeControl>,
    /// Whether it changes ratings.
    pub rated: bool,
    /// Both clocks at the last event, and when the client got it (monotonic milliseconds of the core's clock; the
    /// running one counts down from then).
    pub clocks: Option<(Clocks, u64)>,
    /// The game so far.
    pub game: Box<dyn RoomGame>,
    /// The last event number applied.
    pub last_event: u64,
    /// How it ended, once it has.
    pub ending: Option<Ending>,
    /// Who offers a rematch of it (after the end), if anyone.
    pub rematch_from: Option<String>,
}

impl OnlineGame {
    /// The board's name (`6x5`).
    pub fn board_name(&self) -> String {
        self.game.board_name()
    }

    /// The name playing `side`.
    pub fn name(&self, side: Side) -> &str {
        &self.names[side.index()]
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.game.to_move()
    }

    /// Whether it is the player's turn.
    pub fn my_turn(&self) -> bool {
        self.ending.is_none() && self.side == Some(self.to_move())
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<String> {
        self.game.last_move()
    }

    /// The sequence number of the player's next move: its ply number, which only grows, so that a restarted
    /// client never reuses one.
    pub fn next_seq(&self) -> u64 {
        self.game.ply() as u64 + 1
    }

    /// What `side` has left on its clock at `now` (the running clock counted down since the last event).
    pub fn remaining(&self, side: Side, now_ms: u64) -> Option<u64> {
        let (c, at) = self.clocks?;
        let ms = match side {
            Side::Black => c.black_ms,
            Side::White => c.white_ms,
        };
        if self.ending.is_none() && c.running == Some(side) {
            let gone = now_ms.saturating_sub(at);
            Some(ms.saturating_sub(gone))
        } else {
            Some(ms)
        }
    }

    /// A side as the screen names it: `ann (black, 1500) 4:05`.
    pub fn player_text(&self, side: Side, now_ms: u64) -> String {
        let r = self.ratings[side.index()];
        let clock = self
            .remaining(side, now_ms)
            .map(|ms| format!(" {}", clock_text(ms)))
            .unwrap_or_default();
        format!(
            "{} ({}, {}){clock}",
            self.name(side),
            side.as_str(),
            r.rating
        )
    }

    /// `ann (black) against bob (white) on 6x5, 5+3, rated`.
    pub fn title(&self) -> String {
        format!(
            "{} (black) against {} (white) on {}, {}",
            self.names[0],
            self.names[1],
            self.board_name(),
            terms(self.clock, self.rated)
        )
    }

    /// The result in words: `ann (black) wins: a piece reached the goal`, `draw: ...`.
    pub fn result_text(&self) -> Option<String> {
        let e = self.ending.as_ref()?;
        let why = match e.reason {
            EndReason::Goal => "a piece reached the goal",
            EndReason::Blockade => "the side to move had no legal move",
            EndReason::Repetition => "the same position came a third time",
            EndReason::PlyCap => "the ply limit was reached",
            EndReason::Resignation => "resignation",
            EndReason::Abandoned => "a player was gone too long",
            EndReason::Aborted => "aborted before both sides moved",
            EndReason::Time => "the other side's time ran out",
        };
        Some(match e.winner {
            Some(w) => format!("{} ({}) wins: {why}", self.name(w), w.as_str()),
            None if e.reason == EndReason::Aborted => format!("no result: {why}"),
            None => format!("draw: {why}"),
        })
    }
}

/// A leaderboard as last received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaderboard {
    /// Which challenge.
    pub daily: protocol::Daily,
    /// The day.
    pub day: String,
    /// Which board.
    pub board: Board,
    /// Its rows, best first.
    pub entries: Vec<LeaderEntry>,
}

/// Everything the client knows.
#[derive(Debug)]
pub struct Model {
    /// The game of the rooms.
    pub room: &'static dyn Room,
    /// The player's name.
    pub me: String,
    /// The player's rating, once welcomed.
    pub rating: Option<Rating>,
    /// Whether the connection is up (and the server welcomed the player).
    pub connected: bool,
    /// Whether the connection was ever up (to say "connected again" rather than "connected").
    pub was_connected: bool,
    /// Why the link stopped for good (the name refused), if it did.
    pub refused: Option<String>,
    /// Why the connection was last lost (`server silent for 45 s`, say), or why the server could not be reached
    /// before the first connection, for the screen to say while it is away.
    pub lost: Option<String>,
    /// How many players are online (the lobby's figure).
    pub online: u32,
    /// Players online, best rated first.
    pub players: Vec<PlayerInfo>,
    /// Open challenges to and from the player.
    pub challenges: Vec<ChallengeInfo>,
    /// Live games to watch, newest first.
    pub live: Vec<LiveGame>,
    /// The player's place in the queue.
    pub queue: Option<QueueEntry>,
    /// Every game seen, by number.
    pub games: BTreeMap<u64, OnlineGame>,
    /// The game in front (the newest started, or the one chosen).
    pub current: Option<u64>,
    /// The last error the server sent.
    pub last_error: Option<String>,
    /// Whether the next lobby received is told in lines (plain mode's `lobby`).
    pub tell_lobby: bool,
    /// Games whose record was asked to import them.
    pub want_import: BTreeSet<u64>,
    /// Records received for import, for the front end to take.
    pub to_import: Vec<GameRecord>,
    /// The daily challenges, in the lobby's order: what the server told of today's, and what the player does
    /// with it.
    pub dailies: Vec<Box<dyn Daily>>,
    /// The last leaderboard received.
    pub leaderboard: Option<Leaderboard>,
    /// The keys the lines name, for the full screen; none in plain mode, whose lines name its commands.
    pub keys: Option<KeyWords>,
    /// The players away from the games in play seen here, by game: Black's and White's ([`super::away`]).
    pub away: BTreeMap<u64, [Option<super::away::AwayPlayer>; 2]>,
}

impl Model {
    /// A model for the player `me`, of the games `played`.
    pub fn new(me: &str, played: Played) -> Model {
        Model {
            room: played.room,
            me: me.to_string(),
            rating: None,
            connected: false,
            was_connected: false,
            refused: None,
            lost: None,
            online: 0,
            players: Vec::new(),
            challenges: Vec::new(),
            live: Vec::new(),
            queue: None,
            games: BTreeMap::new(),
            current: None,
            last_error: None,
            tell_lobby: false,
            want_import: BTreeSet::new(),
            to_import: Vec::new(),
            dailies: played.dailies.iter().map(|d| d.fresh()).collect(),
            leaderboard: None,
            keys: None,
            away: BTreeMap::new(),
        }
    }

    /// The daily challenge `which`, if this client has it.
    pub fn daily(&self, which: protocol::Daily) -> Option<&dyn Daily> {
        self.dailies
            .iter()
            .find(|d| d.which() == which)
            .map(|d| d.as_ref())
    }

    /// A message of a daily challenge's: the lines its challenge tells.
    fn hear_daily(&mut self, msg: &ServerMessage) -> Vec<String> {
        // A past day is every challenge's: each says its part.
        let every = matches!(msg, ServerMessage::PastDay { .. });
        let mut all = Vec::new();
        for (i, d) in self.dailies.iter_mut().enumerate() {
            let key = self
                .keys
                .as_ref()
                .and_then(|k| k.dailies.get(i))
                .map(String::as_str);
            if let Some(lines) = d.hear(msg, key) {
                if !every {
                    return lines;
                }
                all.extend(lines);
            }
        }
        all
    }

    /// The game in front.
    pub fn current_game(&self) -> Option<&OnlineGame> {
        self.current.and_then(|g| self.games.get(&g))
    }

    /// Challenges to the player.
    pub fn incoming(&self) -> impl Iterator<Item = &ChallengeInfo> {
        self.challenges.iter().filter(|c| c.to == self.me)
    }

    /// Challenges the player sent.
    pub fn outgoing(&self) -> impl Iterator<Item = &ChallengeInfo> {
        self.challenges.iter().filter(|c| c.from == self.me)
    }

    /// The lobby in lines, as plain mode's `lobby` prints it.
    pub fn lobby_lines(&self) -> Vec<String> {
        let mut v = vec![format!("{} online:", self.online)];
        for p in &self.players {
            let what = if p.playing {
                ", playing"
            } else if p.queued {
                ", in the queue"
            } else {
                ""
            };
            v.push(format!(
                "  {} {} ±{}{what}",
                p.name, p.rating.rating, p.rating.deviation
            ));
        }
        for c in &self.challenges {
            v.push(format!(
                "  {}",
                challenge_text(c, &self.me, self.keys.as_ref())
            ));
        }
        for g in &self.live {
            v.push(format!(
                "  live game {}: {} against {} on {}, {}, move {}, {} watching ('watch {}')",
                g.game,
                g.black,
                g.white,
                g.board,
                terms(g.clock, g.rated),
                g.ply + 1,
                g.spectators,
                g.game
            ));
        }
        if let Some(q) = &self.queue {
            v.push(format!("  {}", queue_text(q)));
        }
        v
    }

    /// Takes what the link passed on; returns the lines to tell the player.
    pub fn apply(&mut self, down: Down) -> Vec<String> {
        match down {
            Down::Connected => {
                self.connected = true;
                self.forget_away(None);
                let again = self.was_connected;
                self.was_connected = true;
                vec![if again {
                    "connection back: taking the games up where they were".to_string()
                } else {
                    format!("connected as {}", self.me)
                }]
            }
            Down::Lost { why, retry_ms } => {
                let was = std::mem::replace(&mut self.connected, false);
                // Challenges and the queue end with the connection on the server; games wait for the player.
                self.challenges.clear();
                self.queue = None;
                // Before the first connection, why the server cannot be reached.
                if was || !self.was_connected {
                    self.lost = Some(why.clone());
                }
                if was || !self.was_connected {
                    vec![format!(
                        "connection lost ({why}); trying again every few seconds (next in {:.1} s)",
                        retry_ms as f64 / 1000.0
                    )]
                } else {
                    Vec::new()
                }
            }
            Down::Refused(why) => {
                self.connected = false;
                self.refused = Some(why.clone());
                vec![format!("refused by the server: {why}")]
            }
            Down::Message(msg) => self.message(msg),
        }
    }

    fn message(&mut self, msg: ServerMessage) -> Vec<String> {
        if matches!(msg, ServerMessage::Error { .. }) {
            // A daily challenge waiting for an answer hears a refusal too (the model says it).
            for daily in &mut self.dailies {
                let _ = daily.hear(&msg, None);
            }
        }
        match msg {
            ServerMessage::Welcome {
                name,
                rating,
                games,
            } => {
                self.me = name;
                self.rating = Some(rating);
                let mut v = vec![format!(
                    "your rating: {} ±{}",
                    rating.rating, rating.deviation
                )];
                v.extend(
                    games
                        .iter()
                        .filter(|g| !self.games.contains_key(&g.game))
                        .map(|g| {
                            format!(
                                "game {} in play as {} against {}: taking it up",
                                g.game,
                                g.side.as_str(),
                                g.opponent
                            )
                        }),
                );
                v
            }
            ServerMessage::Lobby {
                online,
                players,
                challenges,
                games,
                queue,
            } => {
                self.online = online;
                self.players = players;
                self.challenges = challenges;
                self.live = games;
                self.queue = queue;
                if std::mem::take(&mut self.tell_lobby) {
                    self.lobby_lines()
                } else {
                    Vec::new()
                }
            }
            ServerMessage::Challenged { challenge }
            | ServerMessage::ChallengeSent { challenge } => {
                let line = challenge_text(&challenge, &self.me, self.keys.as_ref());
                self.challenges
                    .retain(|c| c.challenge != challenge.challenge);
                self.challenges.push(challenge);
                vec![line]
            }
            ServerMessage::ChallengeClosed { challenge, reason } => {
                self.challenges.retain(|c| c.challenge != challenge);
                vec![format!("challenge {challenge} closed: {reason}")]
            }
            ServerMessage::Queued { entry } => {
                let line = queue_text(&entry);
                self.queue = Some(entry);
                vec![line]
            }
            ServerMessage::Unqueued {} => {
                self.queue = None;
                vec!["out of the queue".to_string()]
            }
            ServerMessage::RematchOffered { game, from } => {
                if let Some(g) = self.games.get_mut(&game) {
                    g.rematch_from = Some(from.clone());
                }
                vec![match &self.keys {
                    Some(k) => format!(
                        "{from} offers a rematch of game {game}: {} accepts, {} declines (in the game)",
                        k.rematch, k.decline_rematch
                    ),
                    None => format!(
                        "{from} offers a rematch of game {game}: 'rematch' accepts, 'decline rematch' declines"
                    ),
                }]
            }
            ServerMessage::RematchDeclined { game } => {
                vec![format!("the rematch of game {game} was declined")]
            }
            ServerMessage::Watching { game, .. } => vec![format!("watching game {game}")],
            ServerMessage::Unwatched { game } => vec![format!("no longer watching game {game}")],
            ServerMessage::Record { record } => {
                let line = format!(
                    "record of game {}: {} against {} on {}, {} plies",
                    record.game,
                    record.black,
                    record.white,
                    record.board,
                    record.moves.split_whitespace().count()
                );
                if self.want_import.remove(&record.game) {
                    self.to_import.push(record);
                    Vec::new()
                } else {
                    vec![line]
                }
            }
            ServerMessage::Games { player, games } => {
                let mut v = vec![format!("{player}'s last finished games:")];
                if games.is_empty() {
                    v.push("  none".to_string());
                }
                for g in games {
                    let result = match g.winner {
                        Some(Side::Black) => format!("{} won", g.black),
                        Some(Side::White) => format!("{} won", g.white),
                        None => "no winner".to_string(),
                    };
                    v.push(format!(
                        "  game {}: {} against {} on {}{}: {result} ({})",
                        g.game,
                        g.black,
                        g.white,
                        g.board,
                        if g.rated { ", rated" } else { "" },
                        g.reason.as_str()
                    ));
                }
                v
            }
            ServerMessage::Leaderboard {
                daily,
                day,
                board,
                entries,
            } => {
                let Some(d) = self.daily(daily) else {
                    return vec![
                        "a leaderboard of a daily challenge this Parlor does not know".to_string(),
                    ];
                };
                let mut v = vec![format!(
                    "{} of the day {day}, {} board:",
                    d.name(),
                    board_name(board)
                )];
                if entries.is_empty() {
                    v.push("  nobody yet".to_string());
                }
                v.extend(entries.iter().map(|e| d.leader_text(e)));
                self.leaderboard = Some(Leaderboard {
                    daily,
                    day,
                    board,
                    entries,
                });
                v
            }
            ServerMessage::Error { message, game, .. } => {
                let line = match game {
                    Some(g) => format!("server: game {g}: {message}"),
                    None => format!("server: {message}"),
                };
                self.last_error = Some(message);
                vec![line]
            }
            ServerMessage::Event { game, event } => self.event(game, event),
            ServerMessage::Away {
                game,
                side,
                name,
                grace_ms,
            } => {
                let now = crate::host::clock().monotonic_ms();
                vec![self.heard_away(game, side, name, grace_ms, now)]
            }
            ServerMessage::Back { game, side, name } => vec![self.heard_back(game, side, &name)],
            // The connection hears it (`conn`); nothing to show.
            ServerMessage::Pong {} => Vec::new(),
            // The daily challenges' own messages.
            msg => self.hear_daily(&msg),
        }
    }

    fn event(&mut self, id: u64, event: parlor_online::protocol::Event) -> Vec<String> {
        let me = self.me.clone();
        let now = crate::host::clock().monotonic_ms();
        match event.kind {
            EventKind::Started {
                black,
                white,
                board,
                clock,
                rated,
                black_rating,
                white_rating,
                rematch_of,
                clocks,
            } => {
                let game = match self.room.start(&board) {
                    Ok(game) => game,
                    Err(why) => return vec![format!("game {id}: {why}")],
                };
                let side = if black == me {
                    Some(Side::Black)
                } else if white == me {
                    Some(Side::White)
                } else {
                    None
                };
                // The challenge that made it is answered.
                self.challenges
                    .retain(|c| !(c.from == black && c.to == white));
                if side.is_some() {
                    self.queue = None;
                }
                let g = OnlineGame {
                    id,
                    names: [black, white],
                    ratings: [black_rating, white_rating],
                    side,
                    clock,
                    rated,
                    clocks: clocks.map(|c| (c, now)),
                    game,
                    last_event: event.n,
                    ending: None,
                    rematch_from: None,
                };
                let again = rematch_of
                    .map(|r| format!(" (a rematch of game {r})"))
                    .unwrap_or_default();
                let mut lines = vec![format!("game {id} started: {}{again}", g.title())];
                match side {
                    Some(s) => lines.push(format!(
                        "you play {}{}",
                        s.as_str(),
                        if s == Side::Black {
                            ", and move first"
                        } else {
                            ""
                        }
                    )),
                    None => lines.push("you are watching".to_string()),
                }
                self.games.insert(id, g);
                self.current = Some(id);
                lines
            }
            EventKind::Moved {
                by,
                ply,
                mv,
                clocks,
            } => {
                let Some(g) = self.games.get_mut(&id) else {
                    return Vec::new();
                };
                let played = g.game.play(&mv);
                g.last_event = event.n;
                if let Some(c) = clocks {
                    g.clocks = Some((c, now));
                }
                match played {
                    Ok(text) => {
                        let left = g
                            .remaining(by, now)
                            .map(|ms| format!(" [{} left]", clock_text(ms)))
                            .unwrap_or_default();
                        vec![format!(
                            "game {id}: move {ply}: {} ({}) plays {text}{left}",
                            g.name(by),
                            by.as_str()
                        )]
                    }
                    Err(e) => vec![format!(
                        "game {id}: the server's move {mv} does not play here ({e})"
                    )],
                }
            }
            EventKind::Ended {
                winner,
                reason,
                clocks,
                ratings,
                ..
            } => {
                self.forget_away(Some(id));
                let Some(g) = self.games.get_mut(&id) else {
                    return Vec::new();
                };
                g.last_event = event.n;
                if let Some(c) = clocks {
                    g.clocks = Some((c, now));
                }
                g.ending = Some(Ending {
                    winner,
                    reason,
                    ratings,
                });
                let mut line = format!("game {id} over: {}", g.result_text().unwrap_or_default());
                if let Some(s) = g.side {
                    line.push_str(match winner {
                        Some(w) if w == s => " (you won)",
                        Some(_) => " (you lost)",
                        None => "",
                    });
                }
                let mut lines = vec![line];
                if let Some(r) = ratings {
                    lines.push(format!(
                        "ratings: {} {} -> {}, {} {} -> {}",
                        g.names[0],
                        r.black.before.rating,
                        r.black.after.rating,
                        g.names[1],
                        r.white.before.rating,
                        r.white.after.rating
                    ));
                    if let Some(s) = g.side {
                        let mine = if s == Side::Black { r.black } else { r.white };
                        self.rating = Some(mine.after);
                    }
                }
                lines
            }
        }
    }
}

/// Yesterday as the daily challenges count days (the UTC date a day before now, `YYYY-MM-DD`): the last day over.
pub fn yesterday() -> String {
    let now_ms = crate::host::clock().unix_nanos() / 1_000_000;
    let now_ms = u64::try_from(now_ms).unwrap_or(u64::MAX);
    protocol::utc_day(now_ms.saturating_sub(86_400_000))
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
