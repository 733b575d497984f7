//! The online screens in the text-by-intent sweep (issue 50): `parlor online`'s full screen over a scripted wire,
//! whose server messages are made here, so no network is needed. Drawn at every size, with their help: connecting,
//! refused, the connection lost, the lobby (players, challenges to and from the player, live games, the queue),
//! each typed line (a challenge, the queue, a Mastermind guess), a game on the player's turn and on the opponent's,
//! with a piece selected, the opponent away and its grace counted down, the resign question, the game over with
//! the ratings' change, a rematch offered, the daily challenges and today's 2048 played here.

use super::{Drawn, draw_all, with_help};
use crate::common::app::*;
use parlor::input::KeyCode;
use parlor::online::conn::{Down, Up};
use parlor::online::screen::{OnlineView, Wire};
use parlor::storage::Store;
use parlor::tui::app::App;
use parlor_online::protocol::{
    Board, ChallengeInfo, Clocks, Daily, EndReason, Event, EventKind, GameInPlay, LeaderEntry,
    LiveGame, PlayerInfo, QueueEntry, Rating, RatingChange, RatingChanges, ScoredGuess,
    ServerMessage, Side, Tile, TimeControl,
};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

/// The longest names the protocol takes (24 characters), so that every line is at its widest.
const ME: &str = "ann_the_longest_name_yet";
const BOB: &str = "bob_with_a_very_long_nam";

/// A wire whose server messages the test queues; what the screen sends goes nowhere (no server answers it).
#[derive(Clone, Default)]
struct Scripted {
    down: Rc<RefCell<VecDeque<Down>>>,
}

impl Wire for Scripted {
    fn up(&mut self, _up: Up) {}

    fn down(&mut self) -> Vec<Down> {
        self.down.borrow_mut().drain(..).collect()
    }
}

impl Scripted {
    /// Queues server messages and lets the screen take them in (as the event loop's tick does).
    fn tell(&self, app: &mut App, messages: impl IntoIterator<Item = ServerMessage>) {
        self.down
            .borrow_mut()
            .extend(messages.into_iter().map(Down::Message));
        app.tick();
    }

    fn pass(&self, app: &mut App, down: Down) {
        self.down.borrow_mut().push_back(down);
        app.tick();
    }
}

fn rating(rating: i32) -> Rating {
    Rating {
        rating,
        deviation: 61,
    }
}

fn clock() -> Option<TimeControl> {
    Some(TimeControl {
        minutes: 15,
        increment_secs: 10,
    })
}

fn clocks(running: Option<Side>) -> Option<Clocks> {
    Some(Clocks {
        black_ms: 854_000,
        white_ms: 899_000,
        running,
    })
}

fn event(game: u64, n: u64, kind: EventKind) -> ServerMessage {
    ServerMessage::Event {
        game,
        event: Event { n, kind },
    }
}

fn lobby() -> ServerMessage {
    let players = (0..12)
        .map(|i| PlayerInfo {
            name: if i == 0 {
                BOB.to_string()
            } else {
                format!("player_number_{i:02}_long_nm")
            },
            rating: rating(1900 - 37 * i),
            playing: i % 3 == 1,
            queued: i % 4 == 2,
        })
        .collect();
    let challenge = |challenge, from: &str, to: &str| ChallengeInfo {
        challenge,
        from: from.to_string(),
        to: to.to_string(),
        board: "6x5".into(),
        clock: clock(),
        rated: true,
    };
    ServerMessage::Lobby {
        online: 4321,
        players,
        challenges: vec![challenge(17, BOB, ME), challenge(18, ME, BOB)],
        games: (0..6)
            .map(|i| LiveGame {
                game: 900 + i,
                black: format!("black_player_{i}_long_name"),
                white: format!("white_player_{i}_long_name"),
                board: "6x5".into(),
                clock: clock(),
                rated: i % 2 == 0,
                ply: 40 + u32::try_from(i).unwrap(),
                spectators: 12,
            })
            .collect(),
        queue: Some(QueueEntry {
            board: "6x5".into(),
            clock: clock(),
            waited_ms: 95_000,
            band: 350,
        }),
    }
}

fn started(game: u64) -> ServerMessage {
    event(
        game,
        1,
        EventKind::Started {
            black: ME.into(),
            white: BOB.into(),
            board: "6x5".into(),
            clock: clock(),
            rated: true,
            black_rating: rating(1532),
            white_rating: rating(1611),
            rematch_of: None,
            clocks: clocks(Some(Side::Black)),
        },
    )
}

/// A screen opened from the menu, connected and welcomed, with the lobby told.
fn connected() -> (App, Scripted) {
    let wire = Scripted::default();
    let view = OnlineView::new(
        "wss://parlor.example.org:7878",
        ME,
        parlor::registry::online(),
        Box::new(wire.clone()),
    )
    .leaving_to_menu();
    let mut app = app(
        vec![parlor::menu_view(None), Box::new(view)],
        Store::in_memory().unwrap(),
    );
    wire.pass(&mut app, Down::Connected);
    wire.tell(
        &mut app,
        [
            ServerMessage::Welcome {
                name: ME.into(),
                rating: rating(1532),
                games: Vec::<GameInPlay>::new(),
            },
            lobby(),
        ],
    );
    (app, wire)
}

pub(super) fn online_screens(out: &mut Vec<Drawn>) {
    // Before the server answers, and refused.
    let wire = Scripted::default();
    let view = OnlineView::new(
        "wss://parlor.example.org:7878",
        ME,
        parlor::registry::online(),
        Box::new(wire.clone()),
    );
    let mut app = app(vec![Box::new(view)], Store::in_memory().unwrap());
    with_help("online, connecting", &mut app, out);
    wire.pass(
        &mut app,
        Down::Refused("the name is taken by a player with another token".into()),
    );
    draw_all("online, refused", &mut app, out);

    let (mut app, wire) = connected();
    with_help("online lobby", &mut app, out);
    wire.pass(
        &mut app,
        Down::Lost {
            why: "the server closed the connection".into(),
            retry_ms: 4000,
        },
    );
    draw_all("online lobby, connection lost", &mut app, out);
    wire.pass(&mut app, Down::Connected);
    wire.tell(&mut app, [lobby()]);

    // Each typed line (the queue's once the player has left it: `u` in the queue leaves it).
    wire.tell(&mut app, [ServerMessage::Unqueued {}]);
    for (key, text, name) in [
        ('c', "bob_with_a_very_long_nam 6x5", "challenge"),
        ('u', "6x5 15+10", "queue"),
        ('m', "RGBY", "Mastermind guess"),
    ] {
        press(&mut app, KeyCode::Char(key));
        type_text(&mut app, text);
        draw_all(&format!("online lobby, typing a {name}"), &mut app, out);
        assert!(
            screen(&mut app, 80, 24).contains(text),
            "typing a {name}:\n{}",
            screen(&mut app, 80, 24)
        );
        press(&mut app, KeyCode::Esc);
    }

    // A game: the opponent to move, then the player, a piece selected, the opponent away. The moves are the
    // first legal ones of the engine's own game.
    let mut game = nocca::Game::new("6x5".parse().unwrap(), nocca::GameOptions::default());
    let mut next = || {
        let mv = game.legal_moves()[0];
        game.play(mv).unwrap();
        mv.to_string()
    };
    let (first, second) = (next(), next());
    wire.tell(
        &mut app,
        [
            started(41),
            event(
                41,
                2,
                EventKind::Moved {
                    by: Side::Black,
                    ply: 1,
                    mv: first,
                    clocks: clocks(Some(Side::White)),
                },
            ),
        ],
    );
    with_help("online game, their move", &mut app, out);
    wire.tell(
        &mut app,
        [event(
            41,
            3,
            EventKind::Moved {
                by: Side::White,
                ply: 2,
                mv: second,
                clocks: clocks(Some(Side::Black)),
            },
        )],
    );
    draw_all("online game, your move", &mut app, out);
    press(&mut app, KeyCode::Enter);
    draw_all("online game, a piece selected", &mut app, out);
    press(&mut app, KeyCode::Esc);
    wire.tell(
        &mut app,
        [ServerMessage::Away {
            game: 41,
            side: Side::White,
            name: BOB.into(),
            grace_ms: 60_000,
        }],
    );
    draw_all("online game, the opponent away", &mut app, out);
    wire.tell(
        &mut app,
        [ServerMessage::Back {
            game: 41,
            side: Side::White,
            name: BOB.into(),
        }],
    );
    press(&mut app, KeyCode::Char('x'));
    draw_all("online game, the resign question", &mut app, out);
    press(&mut app, KeyCode::Char('n'));

    // The end, with the ratings' change, then a rematch offered.
    wire.tell(
        &mut app,
        [event(
            41,
            4,
            EventKind::Ended {
                winner: Some(Side::White),
                reason: EndReason::Resignation,
                position: String::new(),
                clocks: clocks(None),
                ratings: Some(RatingChanges {
                    black: RatingChange {
                        before: rating(1532),
                        after: rating(1517),
                    },
                    white: RatingChange {
                        before: rating(1611),
                        after: rating(1624),
                    },
                }),
            },
        )],
    );
    with_help("online game over", &mut app, out);
    wire.tell(
        &mut app,
        [ServerMessage::RematchOffered {
            game: 41,
            from: BOB.into(),
        }],
    );
    draw_all("online game over, a rematch offered", &mut app, out);

    // The lobby with the finished game, then the daily challenges.
    press(&mut app, KeyCode::Tab);
    draw_all("online lobby with a finished game", &mut app, out);
    press(&mut app, KeyCode::Char('D'));
    wire.tell(
        &mut app,
        [
            ServerMessage::Daily2048 {
                day: "2026-12-02".into(),
                seed: 20_261_202,
            },
            ServerMessage::DailyMastermind {
                day: "2026-12-02".into(),
                variant: "classic".into(),
                guesses: vec![
                    ScoredGuess {
                        n: 1,
                        code: "RRGG".into(),
                        black: 1,
                        white: 1,
                    },
                    ScoredGuess {
                        n: 2,
                        code: "RGBY".into(),
                        black: 2,
                        white: 0,
                    },
                ],
                solved: false,
                over: false,
            },
            leaderboard(Daily::Twenty48),
            leaderboard(Daily::Mastermind),
        ],
    );
    with_help("online daily challenges", &mut app, out);
    // Today's ranked 2048, played here from the lobby the daily challenges are shown in: dealt by the server.
    press(&mut app, KeyCode::Char('2'));
    let dealt = |moves: u64, board: &str, tile: Option<Tile>| ServerMessage::Dealt2048 {
        day: "2026-12-02".into(),
        moves,
        board: board.into(),
        score: 4 * moves,
        tile,
        over: false,
        rank: None,
    };
    wire.tell(
        &mut app,
        [dealt(0, "2,0,0,0/0,0,0,0/0,0,0,0/0,0,0,2", None)],
    );
    press(&mut app, KeyCode::Down);
    let tile = Tile {
        row: 0,
        col: 3,
        value: 4,
    };
    wire.tell(
        &mut app,
        [dealt(1, "0,0,0,4/0,0,0,0/0,0,0,0/2,0,0,2", Some(tile))],
    );
    with_help("online daily 2048", &mut app, out);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Parlor online"), "not the online screen:\n{s}");
}

fn leaderboard(daily: Daily) -> ServerMessage {
    ServerMessage::Leaderboard {
        daily,
        day: "2026-12-02".into(),
        board: Board::Plain,
        entries: (1..=10)
            .map(|rank| LeaderEntry {
                rank,
                name: format!("leader_number_{rank:02}_long_nm"),
                score: 200_000 / u64::from(rank),
                max_tile: (daily == Daily::Twenty48).then_some(8192),
                detail: 4000 + u64::from(rank),
            })
            .collect(),
    }
}
