//! Parlor online in the page: a real `parlor-server` on 127.0.0.1 (its binary, `PARLOR_SERVER_BIN` or built here with
//! cargo), the page reaching it from the menu's "Online" entry, and a second player, a small Rust client speaking the
//! protocol over tungstenite. The page challenges the client on a 3x3 board and plays Black with the board's keys; the
//! page is reloaded mid-game and finds the game where it was (the same resume as the terminal's); the game is played
//! to its end and its result read on the page, then imported into the page's own history (twice: recorded once) and
//! replayed from there. A second test stops the server (SIGSTOP) mid-game: the page says the server is silent,
//! connects again once it runs (SIGCONT), and the game goes on with nothing lost or doubled. Every wait is bounded.

use crate::common::{MENU_FIRST, find, open_item, page, to_menu};
use parlor_online::protocol::{ClientMessage, EventKind, ServerMessage};
use parlor_web_e2e::{Key, Session, site_from_env, workspace_root};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// The longest one expected thing is waited for.
const WAIT: Duration = Duration::from_secs(30);

/// A `parlor-server` on 127.0.0.1 port 0, killed when dropped.
pub(crate) struct Server {
    child: Child,
    /// Where it listens, `ws://127.0.0.1:PORT/`.
    pub(crate) url: String,
}

/// The server's binary: `PARLOR_SERVER_BIN`, else built now (`cargo build -p parlor-server --bin parlor-server`, as
/// scripts/web-test.sh does before the tests) into the workspace's target directory.
fn server_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("PARLOR_SERVER_BIN") {
        return PathBuf::from(bin);
    }
    let root = workspace_root();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "-p", "parlor-server", "--bin", "parlor-server"])
        .current_dir(&root)
        .status()
        .expect("run cargo build -p parlor-server");
    assert!(status.success(), "cargo build -p parlor-server failed");
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    target.join("debug").join("parlor-server")
}

impl Server {
    /// Starts one on a database in `dir`, once it says where it listens.
    pub(crate) fn start(dir: &Path) -> Server {
        let bin = server_bin();
        let mut child = Command::new(&bin)
            .args(["--listen", "127.0.0.1:0", "--data-dir"])
            .arg(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start {}: {e}", bin.display()));
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(first)) = lines.next() {
                let _ = tx.send(first);
            }
            // Keep reading so that the server never blocks on a full pipe.
            for _ in lines {}
        });
        let first = rx
            .recv_timeout(WAIT)
            .expect("parlor-server said where it listens");
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("ws://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The second player: the protocol spoken over a blocking WebSocket.
pub(crate) struct Client {
    ws: WebSocket<TcpStream>,
}

impl Client {
    /// Connects as `name` and waits for the welcome.
    pub(crate) fn connect(url: &str, name: &str) -> Client {
        let (c, first) = Client::hello(url, name, &format!("{name}-token-of-the-browser-test"));
        assert!(matches!(first, ServerMessage::Welcome { .. }), "{first:?}");
        c
    }

    /// Connects and says `hello` as `name` with `token`: the client and the server's answer (`welcome`, or the
    /// error refusing it).
    pub(crate) fn hello(url: &str, name: &str, token: &str) -> (Client, ServerMessage) {
        let hostport = url
            .trim_start_matches("ws://")
            .trim_end_matches('/')
            .to_string();
        let stream = TcpStream::connect(&hostport).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        let (ws, _) = tungstenite::client(url, stream).unwrap();
        let mut c = Client { ws };
        c.send(&ClientMessage::Hello {
            name: name.to_string(),
            token: token.to_string(),
        });
        let first = c.wait("the answer to hello", |m| {
            matches!(
                m,
                ServerMessage::Welcome { .. } | ServerMessage::Error { .. }
            )
        });
        (c, first)
    }

    /// Sends `msg`.
    pub(crate) fn send(&mut self, msg: &ClientMessage) {
        self.ws.send(Message::text(msg.to_text())).unwrap();
    }

    /// The first message from now that `ok` takes.
    pub(crate) fn wait(
        &mut self,
        what: &str,
        mut ok: impl FnMut(&ServerMessage) -> bool,
    ) -> ServerMessage {
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            match self.ws.read() {
                Ok(Message::Text(t)) => {
                    if let Ok(m) = ServerMessage::parse(t.as_str())
                        && ok(&m)
                    {
                        return m;
                    }
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => panic!("waiting for {what}: {e}"),
            }
        }
        panic!("no {what} in {WAIT:?}");
    }

    /// Waits for game `id`'s move at `ply` (1-based) to be played.
    fn wait_ply(&mut self, id: u64, ply: usize) {
        self.wait(&format!("game {id}'s move {ply}"), |m| {
            matches!(m, ServerMessage::Event { game, event }
                if *game == id && matches!(&event.kind, EventKind::Moved { ply: p, .. } if *p as usize == ply))
        });
    }
}

/// A move for the side to move: a step into the goal if there is one, else the first legal move (as the terminal's
/// online tests play).
pub(crate) fn pick(game: &nocca::Game) -> nocca::Move {
    let pos = game.position();
    let moves = game.legal_moves();
    moves
        .iter()
        .copied()
        .find(|&m| pos.is_goal_move(m))
        .unwrap_or_else(|| moves[0])
}

/// The number-pad digit that steps a selected piece the way of the move's direction letter.
fn digit(mv: nocca::Move) -> &'static str {
    match mv.to_string().chars().last() {
        Some('y') => "7",
        Some('k') => "8",
        Some('u') => "9",
        Some('h') => "4",
        Some('l') => "6",
        Some('b') => "1",
        Some('j') => "2",
        Some('n') => "3",
        other => panic!("no direction {other:?}"),
    }
}

/// Plays `mv` on the page with the board's keys: the cursor from where it stands to the piece, Enter, then the
/// direction's digit.
fn page_move(s: &Session, cursor: &mut (i32, i32), mv: nocca::Move) {
    let (r, c) = (mv.from.row() as i32, mv.from.col() as i32);
    let mut keys = Vec::new();
    while cursor.0 < r {
        keys.push(Key::Up);
        cursor.0 += 1;
    }
    while cursor.0 > r {
        keys.push(Key::Down);
        cursor.0 -= 1;
    }
    while cursor.1 < c {
        keys.push(Key::Right);
        cursor.1 += 1;
    }
    while cursor.1 > c {
        keys.push(Key::Left);
        cursor.1 -= 1;
    }
    keys.push(Key::Enter);
    s.press(&keys).unwrap();
    s.wait_text(&format!("{} selected", mv.from)).unwrap();
    s.type_text(digit(mv)).unwrap();
}

/// Plays one ply of `game` (game `id` on the server): the page's by keys when Black is to move, once its screen asks,
/// else Bob's through his client; then waits until Bob has seen it.
fn play_ply(
    s: &Session,
    bob: &mut Client,
    id: u64,
    game: &mut nocca::Game,
    cursor: &mut (i32, i32),
) {
    let mv = pick(game);
    if game.side_to_move() == nocca::Colour::Black {
        s.wait_text(&format!("move {}: your move", game.ply() + 1))
            .unwrap();
        page_move(s, cursor, mv);
    } else {
        bob.send(&ClientMessage::Move {
            game: id,
            seq: game.ply() as u64 + 1,
            mv: mv.to_string(),
        });
    }
    game.play(mv).unwrap();
    bob.wait_ply(id, game.ply());
}

/// The page (as ann) challenges bob on a 3x3 board, bob accepts: the game's number, once the page shows it.
fn start_game(s: &Session, bob: &mut Client) -> u64 {
    s.wait_text("Parlor online · ann · online").unwrap();
    s.wait_text("bob 1500").unwrap();
    s.type_text("c").unwrap();
    s.wait_text("Challenge: NAME").unwrap();
    s.type_text("bob 3x3").unwrap();
    s.press(&[Key::Enter]).unwrap();
    let challenge = match bob.wait("ann's challenge", |m| {
        matches!(m, ServerMessage::Challenged { .. })
    }) {
        ServerMessage::Challenged { challenge } => challenge,
        _ => unreachable!(),
    };
    assert_eq!(
        (challenge.from.as_str(), challenge.board.as_str()),
        ("ann", "3x3")
    );
    bob.send(&ClientMessage::Accept {
        challenge: challenge.challenge,
    });
    let id = match bob.wait("the game's start", |m| {
        matches!(m, ServerMessage::Event { event, .. } if matches!(event.kind, EventKind::Started { .. }))
    }) {
        ServerMessage::Event { game, .. } => game,
        _ => unreachable!(),
    };
    let screen = s.wait_text("your move").unwrap();
    assert!(screen.contains("ann (black, 1500)"), "{screen}");
    assert!(screen.contains("bob (white, 1500)"), "{screen}");
    id
}

/// From the menu to the online lobby: the menu's "Online", then Enter on the prefilled question (typing `name`
/// first when the page has none kept).
pub(crate) fn go_online(s: &Session, name: Option<&str>) {
    let menu = s.wait_text(MENU_FIRST).unwrap();
    let (col, row) = find(&menu, "Online: Nocca Nocca").expect("the menu offers Online");
    s.click_cell(col + 1, row).unwrap();
    s.wait_text("Parlor online · connect").unwrap();
    if let Some(name) = name {
        s.type_text(name).unwrap();
    }
    s.press(&[Key::Enter]).unwrap();
}

#[test]
fn the_page_plays_online_against_a_client_and_takes_the_game_up_after_a_reload() {
    let test = "the_page_plays_online_against_a_client_and_takes_the_game_up_after_a_reload";
    if site_from_env(test).unwrap().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let s = page(test, &format!("?server={}", server.url)).unwrap();
    go_online(&s, Some("ann"));
    // Bob connects once the page is up: his blocking client answers the server's heartbeat only while it reads, and
    // a browser slow to start on a loaded machine could otherwise outlast the server's 45 s.
    let mut bob = Client::connect(&server.url, "bob");
    let id = start_game(&s, &mut bob);
    s.screenshot("online-game").unwrap();

    let mut game = nocca::Game::new("3x3".parse().unwrap(), nocca::GameOptions::default());
    // Where the cursor stands: the middle of Black's home row until it first moves (and again after a reload).
    let start = (0i32, 1i32);
    let mut cursor = start;
    let mut reloaded = false;
    while !game.is_over() {
        assert!(game.ply() < 600);
        if game.side_to_move() == nocca::Colour::Black && game.ply() >= 2 && !reloaded {
            // Mid-game: a reload, and the game found where it was.
            s.reload().unwrap();
            go_online(&s, None);
            let screen = s
                .wait_text(&format!("move {}: your move", game.ply() + 1))
                .unwrap();
            assert!(screen.contains("bob (white, 1500)"), "{screen}");
            reloaded = true;
            cursor = start;
        }
        play_ply(&s, &mut bob, id, &mut game, &mut cursor);
    }
    assert!(reloaded, "the game lasted past the reload");
    let ended = bob.wait("the end", |m| {
        matches!(m, ServerMessage::Event { game, event } if *game == id && matches!(event.kind, EventKind::Ended { .. }))
    });
    let screen = s.wait_text(&format!("Game {id} over: ")).unwrap();
    let result = screen
        .lines()
        .find_map(|l| {
            l.split_once(&format!("Game {id} over: "))
                .map(|(_, r)| r.trim().to_string())
        })
        .unwrap();
    let ServerMessage::Event { event, .. } = ended else {
        unreachable!()
    };
    let EventKind::Ended { winner, .. } = event.kind else {
        unreachable!()
    };
    let winner_name = match winner {
        Some(parlor_online::protocol::Side::Black) => "ann",
        Some(parlor_online::protocol::Side::White) => "bob",
        None => "",
    };
    let expected = if winner_name.is_empty() {
        "draw".to_string()
    } else {
        format!("{winner_name} (")
    };
    assert!(
        result.contains(&expected),
        "the page says {result:?}; the server's winner is {winner:?}"
    );
    s.screenshot("online-over").unwrap();

    // Into the page's own history (`i`, as the terminal's): recorded once however often it is asked.
    s.type_text("i").unwrap();
    let added = format!("online game {id} added to the history as game ");
    let screen = s.wait_text(&added).unwrap();
    let local: u64 = screen
        .lines()
        .find_map(|l| l.split_once(&added))
        .and_then(|(_, rest)| rest.split(':').next()?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no local game number:\n{screen}"));
    s.type_text("i").unwrap();
    s.wait_text(&format!(
        "online game {id} is in the history already (game {local})"
    ))
    .unwrap();
    s.screenshot("online-imported").unwrap();
    to_menu(&s);
    let history = open_item(&s, "History and replays");
    let rows: Vec<&str> = history
        .lines()
        .filter(|l| l.contains("online 3x3"))
        .collect();
    assert_eq!(rows.len(), 1, "the game once in the history:\n{history}");
    assert!(
        rows[0].contains(&format!("#{local} ")) && rows[0].contains("nocca"),
        "{history}"
    );
    // Its replay, from the history, to the last move.
    s.press(&[Key::Enter]).unwrap();
    let plies = game.ply();
    s.wait_text(&format!("online 3x3 · game #{local}")).unwrap();
    s.wait_text(&format!("Move 0 of {plies}")).unwrap();
    s.type_text("G").unwrap();
    s.wait_text(&format!("Move {plies} of {plies}")).unwrap();
    s.screenshot("online-replayed").unwrap();
    // Kept in the browser: after a reload the history still has it, once.
    s.reload().unwrap();
    let history = open_item(&s, "History and replays");
    assert_eq!(
        history.lines().filter(|l| l.contains("online 3x3")).count(),
        1,
        "{history}"
    );
}

/// Sends `signal` (`-STOP`, `-CONT`) to the process `pid`.
fn signal(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill {signal} {pid}");
}

#[test]
fn the_page_notices_a_silent_server_and_resumes_the_game_once_it_answers() {
    let test = "the_page_notices_a_silent_server_and_resumes_the_game_once_it_answers";
    if site_from_env(test).unwrap().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(dir.path());
    let s = page(test, &format!("?server={}", server.url)).unwrap();
    go_online(&s, Some("ann"));
    // Bob connects once the page is up: his blocking client answers the server's heartbeat only while it reads, and
    // a browser slow to start on a loaded machine could otherwise outlast the server's 45 s.
    let mut bob = Client::connect(&server.url, "bob");
    let id = start_game(&s, &mut bob);
    let mut game = nocca::Game::new("3x3".parse().unwrap(), nocca::GameOptions::default());
    let mut cursor = (0i32, 1i32);
    // Two moves each way, then the server stops answering anything (the process stopped: its sockets stay open,
    // so neither the browser nor the page is told; only silence says it).
    for _ in 0..2 {
        play_ply(&s, &mut bob, id, &mut game, &mut cursor);
    }
    s.wait_text(&format!("move {}: your move", game.ply() + 1))
        .unwrap();
    let pid = server.child.id();
    signal(pid, "-STOP");
    let stopped = Instant::now();
    // A move made meanwhile goes into the dead socket (or is kept once the page has dropped it).
    let made = pick(&game);
    page_move(&s, &mut cursor, made);
    game.play(made).unwrap();
    let screen = s
        .wait_screen(
            "the page to say the server is silent",
            Duration::from_secs(75),
            |sc| sc.contains("Connection lost (server silent for 45 s): reconnecting"),
        )
        .unwrap_or_else(|e| {
            signal(pid, "-CONT");
            panic!("{e}")
        });
    let noticed = stopped.elapsed();
    s.screenshot("online-silent").unwrap();
    signal(pid, "-CONT");
    assert!(
        noticed >= Duration::from_secs(40) && noticed < Duration::from_secs(70),
        "noticed after {noticed:?}:\n{screen}"
    );
    // The server runs again: the page connects again and resumes; its move is played once.
    let back = s
        .wait_screen(
            "the page to take the game up again",
            Duration::from_secs(40),
            |sc| {
                sc.contains(&format!(
                    "Game {id}, move {}: waiting for bob",
                    game.ply() + 1
                ))
            },
        )
        .unwrap();
    assert!(!back.contains("Connection lost"), "{back}");
    // Bob (whose own socket the stopped server may have dropped meanwhile) connects again and takes the game up
    // after the last event he had: he gets the page's move, once.
    bob = Client::connect(&server.url, "bob");
    bob.send(&ClientMessage::Resume { game: id, after: 3 });
    bob.wait_ply(id, game.ply());
    // The game goes on to its end.
    while !game.is_over() {
        assert!(game.ply() < 600);
        play_ply(&s, &mut bob, id, &mut game, &mut cursor);
    }
    s.wait_text(&format!("Game {id} over: ")).unwrap();
    // Nothing lost or doubled: the server's record is the game as played here, move for move.
    bob.send(&ClientMessage::Record { game: id });
    let ServerMessage::Record { record } = bob.wait(
        "the game's record",
        |m| matches!(m, ServerMessage::Record { record } if record.game == id),
    ) else {
        unreachable!()
    };
    assert_eq!(record.moves, game.record());
    s.screenshot("online-resumed-over").unwrap();
}
