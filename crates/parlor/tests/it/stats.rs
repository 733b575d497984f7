//! Statistics: the screen of each game (snapshots with and without colour, and at a small size), how it is reached
//! and driven, `parlor stats` (text and `--json`) through the real binary, and the plain menu's `t` through pipes.

use crate::common::app::*;
use crate::common::{err, out, run};
use ::twenty48::Direction;
use parlor::games::mastermind::{self, Mastermind};
use parlor::games::nocca::{self, Nocca};
use parlor::games::twenty48::{self, Twenty48};
use parlor::input::KeyCode;
use parlor::mid::game::Game;
use parlor::mid::session::Session;
use parlor::storage::{GameRecord, Outcome, Storage, Store};
use parlor::tui::app::App;
use parlor::tui::theme::Theme;

/// A finished game of `G` with `params`, ended at `at` (seconds), recorded as is (no moves: charts that rebuild
/// the game skip it).
fn record<G: Game>(params: &G::Params, score: i64, result: Outcome, at: i64) -> GameRecord {
    GameRecord {
        id: 0,
        game: G::ID.into(),
        variant: G::variant(params),
        options: G::params_to_json(params),
        seed: 1,
        moves: String::new(),
        score,
        result,
        assisted: false,
        seeded: false,
        practice: false,
        started_at: at * 1000 - 60_000,
        ended_at: at * 1000,
    }
}

/// Plays 2048 games to their end with the moves in a fixed rotation (real games: the highest tile is rebuilt from
/// their moves).
fn play_2048(store: &mut Store, seeds: std::ops::Range<u64>) {
    let order = [
        Direction::Left,
        Direction::Down,
        Direction::Right,
        Direction::Up,
    ];
    for seed in seeds {
        let mut s: Session<Twenty48> = session(twenty48::Params::default(), seed, store);
        let mut i = 0;
        while s.ended().is_none() {
            let _ = s.play(order[i % 4], store);
            i += 1;
            assert!(i < 100_000, "the game should end");
        }
    }
}

/// Mastermind: classic games won in 3 to 8 guesses, two lost, one assisted; a few as codemaker.
fn fill_mastermind(store: &mut Store) {
    let breaker = mastermind::Params::default();
    let maker = mastermind::Params::of(Default::default(), mastermind::Role::Maker);
    let games = [
        (5, Outcome::Won),
        (4, Outcome::Won),
        (10, Outcome::Lost),
        (6, Outcome::Won),
        (5, Outcome::Won),
        (3, Outcome::Won),
        (8, Outcome::Won),
        (10, Outcome::Lost),
        (5, Outcome::Won),
        (4, Outcome::Won),
        (6, Outcome::Won),
    ];
    for (i, (score, result)) in games.into_iter().enumerate() {
        let r = record::<Mastermind>(&breaker, score, result, 1_000 + i as i64);
        store.finish(&format!("m{i}"), &r).unwrap();
    }
    let mut assisted = record::<Mastermind>(&breaker, 2, Outcome::Won, 2_000);
    assisted.assisted = true;
    store.finish("ma", &assisted).unwrap();
    for i in 0..3 {
        let r = record::<Mastermind>(&maker, 5 + i, Outcome::Done, 3_000 + i);
        store.finish(&format!("mk{i}"), &r).unwrap();
    }
}

/// Nocca: games against three levels, winning more as time goes on; two games for two players.
fn fill_nocca(store: &mut Store) {
    use ::nocca::Level;
    let vs = |level: Level| nocca::Params {
        level: level.into(),
        ..nocca::Params::default()
    };
    let two = nocca::Params {
        mode: nocca::Mode::Two,
        ..nocca::Params::default()
    };
    let mut at = 10_000;
    for (level, games) in [
        (Level::Beginner, 24usize),
        (Level::Casual, 30),
        (Level::Strong, 12),
    ] {
        for i in 0..games {
            // Lost early, won more often later: the win rate climbs over time.
            let result = match (i * 7 + games) % 10 < (i * 10 / games) {
                true => Outcome::Won,
                false if i % 5 == 4 => Outcome::GaveUp,
                false => Outcome::Lost,
            };
            at += 1;
            let r = record::<Nocca>(&vs(level), 20 + (i as i64 % 9) * 2, result, at);
            store.finish(&format!("n{at}"), &r).unwrap();
        }
    }
    for i in 0..2 {
        let r = record::<Nocca>(&two, 30, Outcome::Done, 20_000 + i);
        store.finish(&format!("t{i}"), &r).unwrap();
    }
}

fn filled() -> Store {
    let mut store = Store::in_memory().unwrap();
    play_2048(&mut store, 1..6);
    fill_mastermind(&mut store);
    fill_nocca(&mut store);
    store
}

/// Chooses the menu line that holds `label`.
fn open(app: &mut App, label: &str) {
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

/// An app showing the statistics of the game titled `title`, opened from the menu as a player would, in `theme`.
fn stats_app(store: Store, title: &str, theme: Theme) -> App {
    let mut app = App::with_stack(
        vec![parlor::menu_view(None)],
        store,
        theme,
        parlor::registry::tui(),
    );
    app.start();
    open(&mut app, "Statistics");
    for _ in 0..3 {
        if screen(&mut app, 100, 40).contains(&format!("▸ {title}")) {
            return app;
        }
        press(&mut app, KeyCode::Right);
    }
    panic!("no game {title}");
}

const COLOR: Theme = Theme {
    name: parlor::tui::theme::ThemeName::Dark,
    depth: parlor::tui::theme::Depth::Ansi256,
};

#[test]
fn twenty48_statistics() {
    let mut app = stats_app(filled(), "2048", NO_COLOR);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("▸ 2048"), "{s}");
    assert!(s.contains("played 5: 0 won, 5 lost"), "{s}");
    assert!(
        s.contains("Highest tile of the newest 5 unassisted games"),
        "{s}"
    );
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

#[test]
fn mastermind_statistics() {
    let mut app = stats_app(filled(), "Mastermind", NO_COLOR);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("played 12: 10 won, 2 lost"), "{s}");
    assert!(
        s.contains("of these, 1 assisted: not in best, average or the score charts"),
        "{s}"
    );
    assert!(
        s.contains("win rate 83.3% · current streak 4 · longest streak 4"),
        "{s}"
    );
    assert!(
        s.contains("fewest guesses to win 3 · average guesses to win 5.1 (9 ranked games)"),
        "{s}"
    );
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

#[test]
fn nocca_statistics() {
    let mut app = stats_app(filled(), "Nocca Nocca", NO_COLOR);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Win rate over time, each level"), "{s}");
    for level in ["vs beginner", "vs casual", "vs strong"] {
        assert!(s.contains(level), "{level}: {s}");
    }
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

/// With colour: the buffer with its styles, so that the snapshot shows where colour is used.
#[test]
fn statistics_in_colour() {
    for (game, title) in [
        ("2048", "2048"),
        ("mastermind", "Mastermind"),
        ("nocca", "Nocca Nocca"),
    ] {
        let mut app = stats_app(filled(), title, COLOR);
        let t = render(&mut app, 80, 24);
        insta::assert_debug_snapshot!(format!("colour_{game}"), t.backend().buffer());
    }
}

/// On a small terminal the figures stay and the charts go.
#[test]
fn statistics_on_a_small_terminal_keep_the_figures() {
    for (game, title) in [
        ("2048", "2048"),
        ("mastermind", "Mastermind"),
        ("nocca", "Nocca Nocca"),
    ] {
        let mut app = stats_app(filled(), title, NO_COLOR);
        let s = screen(&mut app, 40, 12);
        assert!(s.contains("played"), "{s}");
        assert!(!s.contains("terminal too small"), "{s}");
        insta::assert_snapshot!(format!("small_{game}"), s);
    }
}

#[test]
fn arrows_change_the_game_and_the_variant() {
    let mut app = stats_app(filled(), "2048", NO_COLOR);
    press(&mut app, KeyCode::Right);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("▸ Mastermind"), "{s}");
    assert!(s.contains("Variant 1 of 2: seed"), "{s}");
    press(&mut app, KeyCode::Down);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Variant 2 of 2: seed (maker)"), "{s}");
    assert!(s.contains("played 3: 3 with no result of yours"), "{s}");
    assert!(!s.contains("0 won"), "no game could be won: {s}");
    assert!(s.contains("these games have no best scores"), "{s}");
    assert!(!s.contains("win rate"), "no game could be won: {s}");
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Left);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("▸ Nocca Nocca"), "wraps around: {s}");
    press(&mut app, KeyCode::Char('q'));
    let s = screen(&mut app, 80, 24);
    assert!(
        s.contains("classic thinking games"),
        "back to the menu: {s}"
    );
}

#[test]
fn the_menu_and_the_best_scores_open_the_statistics() {
    let mut app = menu_app(filled());
    open(&mut app, "Statistics");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Parlor · statistics"), "{s}");
    press(&mut app, KeyCode::Esc);
    // From the best scores: the statistics of the table shown.
    open(&mut app, "Best scores");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Parlor · best scores"), "{s}");
    assert!(s.contains("t statistics"), "{s}");
    press(&mut app, KeyCode::Char('t'));
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Parlor · statistics"), "{s}");
    assert!(s.contains("▸ 2048"), "{s}");
}

#[test]
fn an_empty_history_says_so() {
    let mut app = stats_app(Store::in_memory().unwrap(), "Nocca Nocca", NO_COLOR);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("No finished Nocca Nocca game yet."), "{s}");
}

/// A data directory holding the filled database.
fn filled_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap().store;
    play_2048(&mut store, 1..4);
    fill_mastermind(&mut store);
    fill_nocca(&mut store);
    dir
}

#[test]
fn stats_json_through_the_binary() {
    let dir = filled_dir();
    let o = run(dir.path(), &["stats", "--json"], "");
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).expect("one JSON object");
    let m = &v["mastermind"]["variants"][0];
    assert_eq!(m["variant"], "seed");
    assert_eq!(m["played"], 12);
    assert_eq!(m["won"], 10);
    assert_eq!(m["longest_streak"], 4);
    assert_eq!(m["current_streak"], 4);
    assert_eq!(m["best"], 3);
    assert_eq!(m["ranking"], "fewest to win");
    let bars = m["charts"][0]["bars"].as_array().unwrap();
    let counts: Vec<u64> = bars.iter().map(|b| b["count"].as_u64().unwrap()).collect();
    assert_eq!(counts, [1, 2, 3, 2, 0, 1], "guesses 3 to 8");
    assert_eq!(m["charts"][0]["not_won"], 2);
    let t = &v["2048"]["variants"][0];
    assert_eq!(t["played"], 3);
    assert_eq!(t["charts"][1]["chart"], "peaks");
    assert_eq!(t["charts"][1]["games"], 3);
    let n = &v["nocca"]["variants"];
    assert_eq!(n.as_array().unwrap().len(), 4);
    assert_eq!(n[0]["variant"], "vs casual");
    assert_eq!(n[0]["charts"][0]["chart"], "results");
    let blocks = n[0]["charts"][0]["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 15, "30 games in blocks of 2");
    // One game only.
    let o = run(dir.path(), &["stats", "--game", "nocca", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v.as_object().unwrap().len(), 1);
    assert!(v["nocca"].is_object());
}

#[test]
fn stats_as_text_through_the_binary() {
    let dir = filled_dir();
    let o = run(dir.path(), &["stats", "--game", "mastermind"], "");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("Mastermind · seed\n"), "{text}");
    assert!(text.contains("  played 12: 10 won, 2 lost\n"), "{text}");
    assert!(text.contains("    3: 1 game\n    4: 2 games\n"), "{text}");
    assert!(text.contains("    not won: 2 games\n"), "{text}");
    assert!(!text.contains("2048"), "{text}");
}

#[test]
fn stats_of_an_unknown_game_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["stats", "--game", "nosuch"], "");
    assert!(!o.status.success());
    assert_eq!(
        err(&o).trim(),
        "parlor: no game 'nosuch': 2048, mastermind or nocca"
    );
    assert!(out(&o).is_empty());
}

#[test]
fn stats_of_an_empty_history() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["stats"], "");
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(
        out(&o),
        "2048: no finished game yet.\nMastermind: no finished game yet.\nNocca Nocca: no finished game yet.\n"
    );
    let o = run(dir.path(), &["stats", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["2048"]["variants"], serde_json::json!([]));
}

#[test]
fn the_plain_menu_prints_the_statistics() {
    let dir = filled_dir();
    let o = run(dir.path(), &[], "t\nq\n");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("t  statistics"), "{text}");
    assert!(text.contains("Nocca Nocca · vs casual"), "{text}");
    assert!(
        text.contains("Win rate over time, 30 games in blocks of 2:"),
        "{text}"
    );
    assert!(text.contains("  played 12: 10 won, 2 lost"), "{text}");
}

/// A database of the previous release (schema 1) is migrated, gets the statistics' index, and its games count.
#[test]
fn stats_of_a_migrated_database_read_from_the_index() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v1.db"),
        dir.path().join("parlor.db"),
    )
    .unwrap();
    let o = run(dir.path(), &["stats", "--json"], "");
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    let played: u64 = ["2048", "mastermind", "nocca"]
        .iter()
        .flat_map(|g| v[g]["variants"].as_array().unwrap().clone())
        .map(|x| x["played"].as_u64().unwrap() + x["damaged"].as_u64().unwrap())
        .sum();
    assert_eq!(played, 5, "every record of the fixture: {v}");
    let conn = rusqlite::Connection::open(dir.path().join("parlor.db")).unwrap();
    let plan: String = conn
        .query_row(
            "EXPLAIN QUERY PLAN SELECT variant, score, result, assisted, seeded FROM games WHERE game = ?1
             ORDER BY variant, ended_at, id",
            ["2048"],
            |r| r.get(3),
        )
        .unwrap();
    assert!(
        plan.contains("COVERING INDEX games_stats"),
        "one pass over the index, no sort: {plan}"
    );
}

/// Issue 24: one lost Nocca game showed "1 games in blocks of 1", and its line at 0% drew nothing at all. The
/// title counts in words ("1 game, one point each") and a line at 0% says so.
#[test]
fn one_lost_game_is_counted_in_words_and_a_line_at_zero_says_so() {
    let mut store = Store::in_memory().unwrap();
    let r = record::<Nocca>(&nocca::Params::default(), 20, Outcome::Lost, 10_000);
    store.finish("n1", &r).unwrap();
    let mut app = stats_app(store, "Nocca Nocca", NO_COLOR);
    let s = screen(&mut app, 100, 40);
    assert!(!s.contains("1 games"), "{s}");
    assert!(s.contains("vs casual: 0.0% over 1 game "), "{s}");
    assert!(s.contains("0% in every block"), "{s}");
    // The same title in `parlor stats`.
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap().store;
    store.finish("n1", &r).unwrap();
    drop(store);
    let o = run(dir.path(), &["stats", "--game", "nocca"], "");
    let text = out(&o);
    assert!(
        text.contains("Win rate over time, 1 game, one point each"),
        "{text}"
    );
    assert!(!text.contains("1 games"), "{text}");
}

/// Issue 24: the statistics' game names could not be clicked. A click on a name shows that game.
#[test]
fn a_click_on_a_game_name_shows_that_game() {
    use parlor::input::{Event, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let mut app = stats_app(filled(), "2048", NO_COLOR);
    let s = screen(&mut app, 100, 40);
    let (row, line) = s
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("▸ 2048") && l.contains("Nocca Nocca"))
        .expect("the row of game names");
    let col = line.trim_start_matches('"').find("Nocca Nocca").unwrap();
    let col = line.trim_start_matches('"')[..col].chars().count() as u16 + 2;
    for kind in [
        MouseEventKind::Down(MouseButton::Left),
        MouseEventKind::Up(MouseButton::Left),
    ] {
        app.handle_event(Event::Mouse(MouseEvent {
            kind,
            column: col,
            row: row as u16,
            modifiers: KeyModifiers::NONE,
        }));
    }
    let s = screen(&mut app, 100, 40);
    assert!(s.contains("▸ Nocca Nocca"), "{s}");
}

/// Issue 24: the best scores and the statistics gave different averages for the same games: the best scores
/// averaged every game, the assisted one included. Assisted games are not in the best scores, so neither average
/// counts them; both screens read the one tally.
#[test]
fn best_scores_and_statistics_give_the_same_average_without_the_assisted_game() {
    let mut store = Store::in_memory().unwrap();
    let p = twenty48::Params::default();
    for (i, (score, assisted)) in [(100, false), (300, false), (10_000, true)]
        .into_iter()
        .enumerate()
    {
        let mut r = record::<Twenty48>(&p, score, Outcome::Lost, 10_000 + i as i64);
        r.assisted = assisted;
        store.finish(&format!("g{i}"), &r).unwrap();
    }
    let mut app = App::with_stack(
        vec![parlor::menu_view(None)],
        store,
        NO_COLOR,
        parlor::registry::tui(),
    );
    app.start();
    open(&mut app, "Best scores");
    let scores = screen(&mut app, 100, 40);
    assert!(
        scores.contains("3 played · 0 won · average score 200 over 2 ranked · 1 assisted"),
        "{scores}"
    );
    press(&mut app, KeyCode::Char('q'));
    open(&mut app, "Statistics");
    let stats = screen(&mut app, 100, 40);
    assert!(
        stats.contains("average score 200 (2 ranked games)"),
        "{stats}"
    );
}
