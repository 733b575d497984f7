//! The perfect level and the exact hints (issue 13): the real binary in plain mode on 3x3, where the table solves
//! in a moment, checked against the engine's own table; the refusal on a large board without a table; a saved
//! perfect game resumes; the value overlay on the full screen.

use crate::common::*;

use nocca::{Dims, Move, Opponent, Position, Table};
use parlor::games::nocca::{Mode, Nocca, Params};
use parlor::input::KeyCode;
use parlor::mid::game::Game;
use parlor::storage::{Storage, Store};

fn table(board: &str) -> Table {
    let dims: Dims = board.parse().unwrap();
    Table::solve(dims, &Default::default(), &mut |_| {}).unwrap()
}

/// The moves a plain game printed, in order: the computer's (`The computer plays c1k.`) and autoplay's
/// (`auto 3: c1k`).
fn moves_played(text: &str) -> Vec<Move> {
    text.lines()
        .filter_map(|l| {
            // A line may follow a prompt (`... help> auto 1: c1k`).
            let l = l.rsplit("> ").next().unwrap_or(l).trim();
            if let Some(rest) = l.strip_prefix("The computer plays ") {
                return Some(rest.trim_end_matches('.').to_string());
            }
            let rest = l.strip_prefix("auto ")?;
            Some(rest.split(": ").nth(1)?.to_string())
        })
        .map(|m| m.parse::<Move>().unwrap())
        .collect()
}

#[test]
fn the_perfect_level_plays_the_tables_best_moves_on_3x3() {
    let dir = tempfile::tempdir().unwrap();
    // The person's side is played by autoplay at the same level (`p` plays up to the computer's turn): a whole
    // game between two perfect players.
    let o = run(
        dir.path(),
        &[
            "nocca", "--board", "3x3", "--level", "perfect", "--seed", "7",
        ],
        &"p\n".repeat(6),
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(text.contains("against the computer (perfect)"), "{text}");
    assert!(
        text.contains("Perfect play: the 3x3 table is solved on first use"),
        "{text}"
    );
    let t = table("3x3");
    let moves = moves_played(&text);
    let mut pos = Position::start(t.dims());
    for mv in &moves {
        let best = t.best_moves(&pos).unwrap();
        assert!(
            best.contains(mv),
            "{mv} is not a best move of {pos}: {best:?}\n{text}"
        );
        pos.play_unchecked(*mv);
    }
    // The start is a win in 9 for Black: perfect play on both sides ends it in exactly 9 plies.
    assert_eq!(
        t.value(&Position::start(t.dims())).unwrap(),
        nocca::Value::Win(9)
    );
    assert_eq!(moves.len(), 9, "{text}");
    assert!(text.contains("Black reached the goal in 9 plies"), "{text}");
    // The table was written to the data directory, so the board is solved once.
    assert!(dir.path().join("tables/nocca-3x3.table").exists());
}

#[test]
fn the_hint_on_3x3_prints_the_exact_value_of_the_position_and_every_move() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["nocca", "--board", "3x3", "--mode", "two", "--seed", "1"],
        "t\nq\n",
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    let t = table("3x3");
    let start = Position::start(t.dims());
    let v = t.value(&start).unwrap();
    assert!(
        text.contains(&format!("Black to move: {v} (exact)")),
        "{text}"
    );
    let best = t.best_move(&start).unwrap().unwrap();
    assert!(text.contains(&format!("Hint: {best} (")), "{text}");
    for (m, mv) in t.move_values(&start).unwrap() {
        assert!(
            text.contains(&format!("{m} {mv}")),
            "{m} {mv} missing:\n{text}"
        );
    }
}

#[test]
fn the_hint_on_an_unsolved_board_stays_a_searched_move() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["nocca", "--mode", "two", "--seed", "1"],
        "t\nq\n",
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(text.contains("Hint: "), "{text}");
    assert!(!text.contains("(exact)"), "{text}");
    assert!(!dir.path().join("tables").exists());
}

#[test]
fn perfect_on_a_large_board_without_its_table_is_refused_with_the_command() {
    let dir = tempfile::tempdir().unwrap();
    for board in ["4x5", "3x5", "6x5"] {
        // Refused before any input is read (no stdin).
        let o = parlor(
            dir.path(),
            &["nocca", "--board", board, "--level", "perfect"],
        )
        .output()
        .unwrap();
        let e = err(&o);
        assert!(!o.status.success(), "{board}: {}", out(&o));
        // The command, where this machine can run it; else no command that would be refused (issue 25).
        let dims: nocca::Dims = board.parse().unwrap();
        let command = format!("run `parlor nocca solve {board}`");
        if parlor::games::nocca::solve_estimate::machine_fits(dims, &dir.path().join("tables"))
            .is_ok()
        {
            assert!(e.contains(&command), "{board}: {e}");
        } else {
            assert!(
                e.contains(&format!("this machine cannot solve {board}")) && !e.contains(&command),
                "{board}: {e}"
            );
        }
        assert!(!e.contains("panicked"), "{e}");
    }
    // A truncated table is refused too, before the game starts.
    std::fs::create_dir_all(dir.path().join("tables")).unwrap();
    std::fs::write(dir.path().join("tables/nocca-4x5.table"), b"NOCCASLV").unwrap();
    let o = parlor(
        dir.path(),
        &["nocca", "--board", "4x5", "--level", "perfect"],
    )
    .output()
    .unwrap();
    let e = err(&o);
    assert!(!o.status.success());
    assert!(
        e.contains("the 4x5 table is damaged; run `parlor nocca solve 4x5`"),
        "{e}"
    );
    // Two players need no table.
    let o = run(
        dir.path(),
        &[
            "nocca", "--board", "4x5", "--level", "perfect", "--mode", "two",
        ],
        "q\n",
    );
    assert!(o.status.success(), "{}", err(&o));
}

/// A data directory whose 4x5 table has the right length and zeros for bytes (its header is refused when read).
fn damaged_4x5_table() -> (tempfile::TempDir, Dims) {
    let dir = tempfile::tempdir().unwrap();
    let dims: Dims = "4x5".parse().unwrap();
    std::fs::create_dir_all(dir.path().join("tables")).unwrap();
    std::fs::File::create(Table::path_in(&dir.path().join("tables"), dims))
        .unwrap()
        .set_len(Table::file_len(dims))
        .unwrap();
    (dir, dims)
}

/// A table of the right length whose bytes are damaged passes the start's check and fails when the computer first
/// needs it: the computer says why it cannot play, the game is kept as it stands (no resignation, nothing recorded),
/// and plain mode goes back to the menu instead of asking the computer again.
#[test]
fn a_damaged_table_found_at_the_computers_move_is_said_and_the_game_kept_unrecorded() {
    let (dir, _) = damaged_4x5_table();
    let args = [
        "nocca", "--board", "4x5", "--level", "perfect", "--colour", "black", "--first", "black",
    ];
    let o = run(dir.path(), &args, "b1k\n");
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        text.contains("The computer cannot play perfectly: the 4x5 table could not be made ("),
        "{text}"
    );
    assert!(
        text.contains("run `parlor nocca solve 4x5` to write it again)."),
        "{text}"
    );
    assert!(text.contains("Game saved; back to the menu."), "{text}");
    assert!(!text.contains("has no move"), "{text}");
    assert!(!text.contains("Recorded as game"), "{text}");
    let store = Store::open(dir.path()).unwrap().store;
    let history = store.history(Some("nocca"), 10).unwrap();
    assert!(
        history.games.is_empty(),
        "nothing recorded: {:?}",
        history.games
    );
    let kept = store.unfinished(Some("nocca")).unwrap();
    assert_eq!(kept.len(), 1, "the game is kept");
    assert_eq!(kept[0].moves, "b1k");
}

/// The same on the full screen: the computer's failure is said on the play screen, it is not asked again for the
/// same position (the message stays, the game does not end), and nothing is recorded.
#[test]
fn the_full_screen_says_why_the_computer_cannot_play_and_does_not_end_the_game() {
    let (dir, dims) = damaged_4x5_table();
    let mut store = Store::open(dir.path()).unwrap().store;
    let tables = parlor::games::nocca::tables::Tables::new(Some(dir.path()));
    let params = Params {
        level: Opponent::Perfect,
        board: dims,
        ..Params::default()
    };
    let mut s =
        parlor::mid::session::Session::<Nocca>::new_in(params, app::seed(1), &store, tables)
            .unwrap();
    s.play("b1k".parse().unwrap(), &mut store).unwrap();
    let mut app = app::game_app(s, store);
    let said = app::wait_until(&mut app, |s| s.contains("cannot play perfectly"));
    assert!(
        said.contains("the computer cannot play perfectly: the 4x5"),
        "{said}"
    );
    for _ in 0..20 {
        app.tick();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let later = app::screen(&mut app, 80, 24);
    assert!(
        later.contains("the computer cannot play perfectly"),
        "{later}"
    );
    assert!(
        !later.contains("Game over") && !later.contains("wins"),
        "{later}"
    );
    let store = Store::open(dir.path()).unwrap().store;
    assert!(store.history(Some("nocca"), 10).unwrap().games.is_empty());
}

#[test]
fn a_saved_game_against_the_perfect_level_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["nocca", "--board", "3x4", "--level", "perfect"];
    let o = run(dir.path(), &args, "b1k\nq\n");
    let first = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(first.contains("Game saved."), "{first}");
    let answer = moves_played(&first);
    assert_eq!(answer.len(), 1, "{first}");
    let o = run(dir.path(), &args, "q\n");
    let again = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        again.contains("Continuing your game in progress"),
        "{again}"
    );
    assert!(again.contains("against the computer (perfect)"), "{again}");
    assert!(again.contains("Ply 2 · Black to move"), "{again}");
    // The table was kept from the first run: nothing to solve now.
    assert!(!again.contains("solved on first use"), "{again}");
    // The saved options name the level as text, as every level is.
    let store = Store::open(dir.path()).unwrap().store;
    let saved = store.unfinished(Some("nocca")).unwrap();
    assert!(
        saved[0].options.contains(r#""level":"perfect""#),
        "{}",
        saved[0].options
    );
    assert_eq!(
        Nocca::params_from_json(&saved[0].options).unwrap().level,
        Opponent::Perfect
    );
}

#[test]
fn the_value_overlay_marks_every_move_on_a_solved_board() {
    let store = Store::in_memory().unwrap();
    let params = Params {
        mode: Mode::Two,
        board: "3x3".parse().unwrap(),
        ..Params::default()
    };
    let s = app::session::<Nocca>(params, 1, &store);
    let mut app = app::game_app(s, store);
    let before = app::screen(&mut app, 80, 24);
    assert!(before.contains("v values"), "{before}");
    app::press(&mut app, KeyCode::Char('v'));
    app::wait_until(&mut app, |s| s.contains("Each piece, then the digit"));
    // Off and on again, now that the table is ready: the message gives the position's value.
    app::press(&mut app, KeyCode::Char('v'));
    app::press(&mut app, KeyCode::Char('v'));
    let screen = app::screen(&mut app, 80, 24);
    assert!(
        screen.contains("values shown · Black to move: win in 9 (exact)"),
        "{screen}"
    );
    let t = table("3x3");
    let start = Position::start(t.dims());
    // Every move is listed with its value (W9: the mover wins in 9 plies), each step by the digit that plays it
    // on this screen (issue 24: one notation on screen, not plain mode's letters).
    assert!(
        screen.contains("Black to move: win in 9. Each piece, then the digit"),
        "{screen}"
    );
    for (m, v) in t.move_values(&start).unwrap() {
        let short = match v {
            nocca::Value::Win(d) => format!("W{d}"),
            nocca::Value::Loss(d) => format!("L{d}"),
            nocca::Value::Draw => "D".into(),
        };
        assert!(
            screen.contains(&format!(
                "{}\u{a0}{short}",
                parlor::games::nocca::board::digit(m.dir)
            )),
            "{m} {short}:\n{screen}"
        );
    }
    insta::assert_snapshot!(screen);
    // With b1 selected, the rules under its targets give each move's value: b1y (a2) and b1u (c2) win in 11, b1k
    // (b2) in 9; b1h and b1l (onto a1 and c1) lose in 10.
    app::press(&mut app, KeyCode::Enter);
    let selected = app::screen(&mut app, 80, 24);
    assert!(selected.contains("├──W11──┼──W9───┼──W11──┤"), "{selected}");
    assert!(selected.contains("└──L10──┴───────┴──L10──┘"), "{selected}");
    app::press(&mut app, KeyCode::Esc);
    app::press(&mut app, KeyCode::Char('v'));
    let hidden = app::screen(&mut app, 80, 24);
    assert!(!hidden.contains("Each piece, then the digit"), "{hidden}");
}

#[test]
fn perfect_is_a_level_in_the_settings_and_the_json_stays_as_it_was() {
    let mut p = Params::default();
    Nocca::set(&mut p, "level", "perfect").unwrap();
    assert_eq!(p.level, Opponent::Perfect);
    assert_eq!(Nocca::get(&p, "level"), "perfect");
    assert_eq!(Nocca::variant(&p), "vs perfect");
    // A level of the engine is written as before, so older Parlors read it; perfect reads back.
    let json = Nocca::params_to_json(&Params::default());
    assert_eq!(
        json,
        r#"{"mode":"computer","level":"casual","human":"black","first":"black"}"#
    );
    Nocca::set(&mut p, "board", "3x3").unwrap();
    assert_eq!(
        Nocca::params_from_json(&Nocca::params_to_json(&p)).unwrap(),
        p
    );
    // Solved on first use up to 4x4; beyond that the table must be in the data directory.
    assert_eq!(Nocca::check_in(&p, &Default::default()), Ok(()));
    Nocca::set(&mut p, "board", "5x5").unwrap();
    let e = Nocca::check_in(&p, &Default::default()).unwrap_err();
    let est = parlor::games::nocca::solve_estimate::estimate("5x5".parse().unwrap());
    if est
        .fits(parlor::games::nocca::solve_estimate::machine_memory(), None)
        .is_ok()
    {
        assert!(e.message().contains("parlor nocca solve 5x5"), "{e}");
    } else {
        assert!(e.message().contains("this machine cannot solve 5x5"), "{e}");
    }
    Nocca::set(&mut p, "mode", "two").unwrap();
    assert_eq!(Nocca::check_in(&p, &Default::default()), Ok(()));
}

#[test]
fn the_value_key_clashes_with_nothing_on_a_solved_board() {
    for mode in [Mode::Two, Mode::Computer, Mode::Watch] {
        let params = Params {
            mode,
            board: "4x4".parse().unwrap(),
            ..Params::default()
        };
        assert_eq!(
            parlor::tui::play::key_clashes::<Nocca>(&params),
            Vec::<String>::new()
        );
        let keys = parlor::games::nocca::screen::bindings(&params);
        assert!(keys.iter().any(|b| b.keys.contains(&KeyCode::Char('v'))));
    }
    // On the standard board (not solved) the key is not in the hint bar; it only says why there are no values
    // (issue 24: a key pressed is never met with "does nothing here" when it has a reason to give).
    let keys = parlor::games::nocca::screen::bindings(&Params::default());
    assert!(
        keys.iter()
            .filter(|b| b.keys.contains(&KeyCode::Char('v')))
            .all(|b| !b.in_bar)
    );
}

#[test]
fn the_setup_form_offers_perfect_and_refuses_it_on_a_large_board_without_a_table() {
    let mut params = Params::default();
    Nocca::set(&mut params, "level", "perfect").unwrap();
    Nocca::set(&mut params, "board", "4x4").unwrap();
    let mut app = app::app(
        vec![Box::new(parlor::tui::setup::SetupView::<Nocca>::new(
            params,
        ))],
        Store::in_memory().unwrap(),
    );
    let screen = app::screen(&mut app, 80, 24);
    assert!(screen.contains("◀ perfect (solved boards) ▶"), "{screen}");
    assert!(screen.contains("Enter starts: vs perfect 4x4"), "{screen}");
    Nocca::set(&mut params, "board", "5x4").unwrap();
    let mut app = app::app(
        vec![Box::new(parlor::tui::setup::SetupView::<Nocca>::new(
            params,
        ))],
        Store::in_memory().unwrap(),
    );
    let screen = app::screen(&mut app, 80, 24);
    assert!(
        screen.contains("cannot start: perfect level: no 5x4 table; run `parlor nocca solve 5x4`"),
        "{screen}"
    );
}
