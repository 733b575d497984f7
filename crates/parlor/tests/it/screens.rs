//! Whole-screen snapshots and key tests of the full-screen interface for 2048 and the screens every game shares
//! (menu, setup, replay, history, scores, help), drawn on ratatui's TestBackend; snapshots are committed.

use crate::common::app::*;
use parlor::games::twenty48::{Params, Twenty48};
use parlor::input::KeyCode;
use parlor::mid::session::Session;
use parlor::storage::Store;
use twenty48::Direction;

/// Plays the moves in a fixed rotation until `stop` says so or the game ends.
fn play_until(
    s: &mut Session<Twenty48>,
    store: &mut Store,
    stop: impl Fn(&Session<Twenty48>) -> bool,
) {
    let order = [
        Direction::Left,
        Direction::Down,
        Direction::Right,
        Direction::Up,
    ];
    let mut i = 0;
    while !stop(s) && s.ended().is_none() {
        let _ = s.play(order[i % 4], store);
        i += 1;
        assert!(i < 100_000, "the game should end");
    }
}

fn sized(size: usize) -> Params {
    Params {
        size,
        ..Params::default()
    }
}

#[test]
fn menu() {
    let mut app = menu_app(Store::in_memory().unwrap());
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

#[test]
fn menu_with_a_game_to_continue_and_a_storage_notice() {
    let mut store = Store::in_memory().unwrap();
    let mut s = session::<Twenty48>(Params::default(), 11, &store);
    s.play(Direction::Left, &mut store).unwrap();
    drop(s);
    let mut app = app(
        vec![parlor::menu_view(Some(
            "The database was damaged; it was moved aside.".into(),
        ))],
        store,
    );
    let screen = screen(&mut app, 100, 24);
    assert!(screen.contains("Continue 2048 4x4 · score"), "{screen}");
    assert!(screen.contains("1 move"), "{screen}");
    assert!(screen.contains("moved aside"), "{screen}");
}

#[test]
fn board_after_two_moves() {
    let mut store = Store::in_memory().unwrap();
    let mut s = session::<Twenty48>(Params::default(), 1, &store);
    s.play(Direction::Left, &mut store).unwrap();
    s.play(Direction::Down, &mut store).unwrap();
    let mut app = game_app(s, store);
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

#[test]
fn small_board_uses_compact_cells_on_a_short_terminal() {
    let store = Store::in_memory().unwrap();
    let s = session::<Twenty48>(sized(8), 2, &store);
    let mut app = game_app(s, store);
    insta::assert_snapshot!(render(&mut app, 70, 16).backend());
}

#[test]
fn reaching_the_target_asks_whether_to_keep_going() {
    let store = Store::in_memory().unwrap();
    let params = Params {
        target: 16,
        ..Params::default()
    };
    let s = session::<Twenty48>(params, 3, &store);
    let mut app = game_app(s, store);
    let keys = [KeyCode::Left, KeyCode::Down, KeyCode::Right, KeyCode::Up];
    let mut i = 0;
    while !screen(&mut app, 80, 24).contains("You made 16!") {
        press(&mut app, keys[i % 4]);
        i += 1;
        assert!(i < 10_000);
    }
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
    press(&mut app, KeyCode::Char('y'));
    assert!(screen(&mut app, 80, 24).contains("keep going!"));
}

#[test]
fn game_over() {
    let mut store = Store::in_memory().unwrap();
    let mut s = session::<Twenty48>(sized(3), 4, &store);
    play_until(&mut s, &mut store, |_| false);
    let mut app = game_app(s, store);
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

#[test]
fn help_overlay() {
    let store = Store::in_memory().unwrap();
    let s = session::<Twenty48>(Params::default(), 5, &store);
    let mut app = game_app(s, store);
    press(&mut app, KeyCode::Char('?'));
    insta::assert_snapshot!(render(&mut app, 80, 40).backend());
    press(&mut app, KeyCode::Esc);
    assert!(
        !screen(&mut app, 80, 30).contains("Help: 2048"),
        "Esc closes the help"
    );
}

#[test]
fn terminal_too_small() {
    let store = Store::in_memory().unwrap();
    let s = session::<Twenty48>(Params::default(), 6, &store);
    let mut app = game_app(s, store);
    insta::assert_snapshot!(render(&mut app, 30, 8).backend());
    // And it recovers when the terminal grows again.
    let screen = screen(&mut app, 80, 24);
    assert!(screen.contains("Score 0"), "{screen}");
}

#[test]
fn keys_drive_the_game_and_undo() {
    let store = Store::in_memory().unwrap();
    let s = session::<Twenty48>(Params::default(), 7, &store);
    let mut app = game_app(s, store);
    let before = screen(&mut app, 80, 24);
    for k in [
        KeyCode::Left,
        KeyCode::Char('j'),
        KeyCode::Char('d'),
        KeyCode::Char('w'),
    ] {
        press(&mut app, k);
    }
    let moved = screen(&mut app, 80, 24);
    assert_ne!(before, moved);
    // Issue 24: undo is `u` and says what it took back; Backspace takes nothing back.
    press(&mut app, KeyCode::Backspace);
    assert!(!screen(&mut app, 80, 24).contains("took back"));
    press(&mut app, KeyCode::Char('u'));
    let undone = screen(&mut app, 80, 24);
    assert!(
        undone.contains("undo: took back up"),
        "u undoes and says what: {undone}"
    );
    assert!(undone.contains("assisted"), "{undone}");
    press(&mut app, KeyCode::Char('z'));
    assert!(screen(&mut app, 80, 24).contains("does nothing here"));
}

#[test]
fn drawing_never_panics_at_any_size() {
    for size in 3..=8 {
        let store = Store::in_memory().unwrap();
        let s = session::<Twenty48>(sized(size), size as u64, &store);
        let mut app = game_app(s, store);
        for w in (0..=120).step_by(7) {
            for h in (0..=50).step_by(3) {
                render(&mut app, w, h);
            }
        }
    }
}

#[test]
fn hint_and_autoplay_mark_the_game_assisted_and_any_key_stops_autoplay() {
    let store = Store::in_memory().unwrap();
    let s = session::<Twenty48>(Params::default(), 8, &store);
    let mut app = game_app(s, store);
    press(&mut app, KeyCode::Char('t'));
    let screen_now = wait_until(&mut app, |s| s.contains("hint: slide"));
    assert!(screen_now.contains("assisted"), "{screen_now}");
    press(&mut app, KeyCode::Char('p'));
    wait_until(&mut app, |s| s.contains("Moves 5"));
    press(&mut app, KeyCode::Char('z'));
    let stopped = screen(&mut app, 80, 24);
    assert!(stopped.contains("autoplay stopped"), "{stopped}");
    let moves = |s: &str| {
        s.split("Moves ")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .map(str::to_string)
    };
    let at_stop = moves(&stopped);
    for _ in 0..20 {
        app.tick();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(
        moves(&screen(&mut app, 80, 24)),
        at_stop,
        "no move after autoplay stopped"
    );
}

/// Defect 10 of issue 9: autoplay passed the target without a word. It now stops there and asks.
#[test]
fn autoplay_pauses_and_asks_at_the_target() {
    let store = Store::in_memory().unwrap();
    let params = Params {
        target: 32,
        ..Params::default()
    };
    let s = session::<Twenty48>(params, 9, &store);
    let mut app = game_app(s, store);
    press(&mut app, KeyCode::Char('p'));
    let asked = wait_until(&mut app, |s| s.contains("You made 32!"));
    assert!(asked.contains("y keep going · n stop here"), "{asked}");
    for _ in 0..20 {
        app.tick();
    }
    assert!(
        screen(&mut app, 80, 24).contains("You made 32!"),
        "autoplay waits for the answer"
    );
    press(&mut app, KeyCode::Char('n'));
    let over = screen(&mut app, 80, 24);
    assert!(over.contains("You won: 32 reached"), "{over}");
}

#[test]
fn long_help_scrolls() {
    let store = Store::in_memory().unwrap();
    let s = session::<Twenty48>(Params::default(), 9, &store);
    let mut app = game_app(s, store);
    press(&mut app, KeyCode::Char('?'));
    let top = screen(&mut app, 80, 20);
    for _ in 0..40 {
        press(&mut app, KeyCode::Down);
    }
    let bottom = screen(&mut app, 80, 20);
    assert!(!top.contains("Press ? or Esc to close."), "{top}");
    assert!(bottom.contains("Press ? or Esc to close."), "{bottom}");
}

/// Defect 12 of issue 9: the 2048 help omitted Backspace for undo; every key that works is listed.
#[test]
fn the_help_lists_every_key_that_works() {
    let store = Store::in_memory().unwrap();
    let s = session::<Twenty48>(Params::default(), 9, &store);
    let mut app = game_app(s, store);
    press(&mut app, KeyCode::Char('?'));
    let help = screen(&mut app, 100, 60);
    // Issue 24: undo is `u` alone (Backspace erases what is typed, in the games where something is typed).
    for key in [
        "u          undo",
        "t          hint",
        "p          autoplay",
        "+ =",
        "x          give up",
        "r          new game",
        "q Q Esc",
        "y Y Enter",
        "n N Esc",
        "← h a",
    ] {
        assert!(help.contains(key), "{key} missing from the help: {help}");
    }
}

#[test]
fn key_releases_are_ignored() {
    let store = Store::in_memory().unwrap();
    let s = session::<Twenty48>(Params::default(), 10, &store);
    let mut app = game_app(s, store);
    let before = screen(&mut app, 80, 24);
    let mut release =
        parlor::input::KeyEvent::new(KeyCode::Left, parlor::input::KeyModifiers::NONE);
    release.kind = parlor::input::KeyEventKind::Release;
    app.handle_event(parlor::input::Event::Key(release));
    assert_eq!(before, screen(&mut app, 80, 24));
}

/// Runs a snapshot assertion with dates and times replaced, so that snapshots of records do not depend on the day.
fn dated(f: impl FnOnce()) {
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", "YYYY-MM-DD HH:MM");
    settings.bind(f);
}

/// Finds the menu line that contains `label` and opens it.
fn open(app: &mut parlor::tui::app::App, label: &str) {
    for _ in 0..40 {
        let s = screen(app, 100, 40);
        if s.lines().any(|l| l.contains('▸') && l.contains(label)) {
            press(app, KeyCode::Enter);
            return;
        }
        press(app, KeyCode::Down);
    }
    panic!("no menu line {label}");
}

/// Defect 2 of issue 9: `G` went to the first move (case was ignored and `g` won); replays opened at different
/// places. The one replay opens at the start, `G` goes to the last move and `g` to the first.
#[test]
fn history_opens_a_replay_at_the_start_and_g_and_capital_g_jump_to_the_ends() {
    let mut store = Store::in_memory().unwrap();
    let mut s = session::<Twenty48>(sized(3), 12, &store);
    play_until(&mut s, &mut store, |_| false);
    let moves = s.moves().len();
    let score = s.score();
    drop(s);
    let mut app = menu_app(store);
    open(&mut app, "History");
    let list = screen(&mut app, 100, 24);
    assert!(
        list.contains("#1") && list.contains("2048") && list.contains("lost"),
        "{list}"
    );
    dated(|| insta::assert_snapshot!("history", render(&mut app, 100, 12).backend()));
    press(&mut app, KeyCode::Enter);
    let start = screen(&mut app, 80, 24);
    assert!(
        start.contains(&format!("Move 0 of {moves} · start")),
        "{start}"
    );
    insta::assert_snapshot!("replay_at_the_start", render(&mut app, 80, 24).backend());
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    assert!(screen(&mut app, 80, 24).contains(&format!("Move 2 of {moves}")));
    press(&mut app, KeyCode::Char('G'));
    let end = screen(&mut app, 80, 24);
    assert!(end.contains(&format!("Move {moves} of {moves}")), "{end}");
    assert!(end.contains(&format!("score {score}")), "{end}");
    press(&mut app, KeyCode::Char('g'));
    assert!(screen(&mut app, 80, 24).contains(&format!("Move 0 of {moves}")));
    press(&mut app, KeyCode::Char('q'));
    press(&mut app, KeyCode::Char('q'));
    assert!(screen(&mut app, 80, 24).contains("Parlor · classic thinking games"));
}

#[test]
fn best_scores_screen() {
    let mut store = Store::in_memory().unwrap();
    for seed in [12, 13] {
        let mut s = session::<Twenty48>(sized(3), seed, &store);
        play_until(&mut s, &mut store, |_| false);
    }
    let mut app = menu_app(store);
    open(&mut app, "Best scores");
    dated(|| insta::assert_snapshot!("best_scores", render(&mut app, 80, 16).backend()));
}

#[test]
fn setup_form_changes_settings_and_starts_the_game() {
    let mut app = menu_app(Store::in_memory().unwrap());
    open(&mut app, "New game: 2048");
    insta::assert_snapshot!("setup_2048", render(&mut app, 80, 20).backend());
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Down);
    type_text(&mut app, "0.5");
    press(&mut app, KeyCode::Enter);
    let game = screen(&mut app, 80, 30);
    assert!(game.contains("2048 · 5x5 p4=0.5"), "{game}");
}

#[test]
fn the_setup_form_refuses_a_value_out_of_range() {
    let mut app = menu_app(Store::in_memory().unwrap());
    open(&mut app, "New game: 2048");
    type_text(&mut app, "99");
    press(&mut app, KeyCode::Enter);
    let s = screen(&mut app, 80, 20);
    assert!(s.contains("'99' is not a whole number from 3 to 8"), "{s}");
}

#[test]
fn the_menus_help_page_scrolls_through_every_games_rules() {
    let mut app = menu_app(Store::in_memory().unwrap());
    open(&mut app, "Help");
    let top = screen(&mut app, 80, 24);
    assert!(
        top.contains("Parlor · help") && top.contains("Parlor is a suite"),
        "{top}"
    );
    for _ in 0..300 {
        press(&mut app, KeyCode::Down);
    }
    let bottom = screen(&mut app, 80, 24);
    assert!(!bottom.contains("Parlor is a suite"), "{bottom}");
    let games = parlor::registry::tui();
    let last = games.last().unwrap().rules().last().unwrap();
    let tail: Vec<&str> = last.split_whitespace().collect();
    let tail = tail[tail.len() - 2..].join(" ");
    assert!(bottom.contains(&tail), "{tail:?} not in {bottom}");
}

/// Defect 1 and 8 of issue 9: a key bound twice in one screen means the first binding wins and the other never
/// works. No game's key table binds a key twice, and none takes a key of the play screen's common commands.
#[test]
fn no_play_screen_binds_a_key_twice() {
    for g in parlor::registry::tui() {
        assert_eq!(g.key_clashes(), Vec::<String>::new(), "{}", g.title());
    }
}

/// Plays `words` (each parsed by the game) and gives up: a finished, recorded game of any game.
fn finished<G: parlor::mid::game::Game>(store: &mut Store, seed_value: u64, words: &[&str]) {
    let mut s = session::<G>(G::Params::default(), seed_value, store);
    for w in words {
        let mv = G::parse_move(s.state(), w).expect("a legal move");
        s.play(mv, store).expect("accepted");
    }
    s.resign(store);
    assert!(s.ended().and_then(|e| e.id).is_some(), "recorded");
}

/// The history and the best scores of every game: one screen for all games, snapshots of each.
#[test]
fn history_and_best_scores_of_every_game() {
    use parlor::games::mastermind::Mastermind;
    use parlor::games::nocca::Nocca;
    let mut store = Store::in_memory().unwrap();
    finished::<Twenty48>(&mut store, 21, &["left", "down"]);
    finished::<Mastermind>(&mut store, 22, &["RGYU"]);
    finished::<Nocca>(&mut store, 23, &["c1k"]);
    let mut app = menu_app(store);
    open(&mut app, "History");
    let list = screen(&mut app, 100, 12);
    for game in ["2048", "mastermind", "nocca"] {
        assert!(list.contains(game), "{game}: {list}");
    }
    dated(|| insta::assert_snapshot!("history_of_every_game", render(&mut app, 100, 12).backend()));
    press(&mut app, KeyCode::Char('q'));
    open(&mut app, "Best scores");
    for name in [
        "best_scores_first",
        "best_scores_second",
        "best_scores_third",
    ] {
        dated(|| insta::assert_snapshot!(name, render(&mut app, 80, 16).backend()));
        press(&mut app, KeyCode::Right);
    }
}
