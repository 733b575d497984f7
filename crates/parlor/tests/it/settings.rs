//! The settings file and the settings screens, through the real binary: every bad file under
//! `tests/fixtures/settings/` gives its message (naming the line) and falls back to the default for that entry
//! only; a change made on the settings screen (plain mode, and the full screen through a pseudo-terminal) is saved
//! to the file and used by the next start; the settings' defaults reach new games, and a flag still wins.

use crate::common;
use crate::common::pty::{Key, Pty, Spawn};
use crate::common::{err, out, parlor, run};
use std::path::{Path, PathBuf};
use std::process::Stdio;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/settings")
        .join(name)
}

/// `parlor --config-dir DIR settings`: (the settings in effect, the notes on stderr).
fn settings_in(dir: &Path) -> (String, String) {
    let data = tempfile::tempdir().unwrap();
    let o = parlor(
        data.path(),
        &["--config-dir", dir.to_str().unwrap(), "settings"],
    )
    .stdin(Stdio::null())
    .output()
    .unwrap();
    assert!(o.status.success(), "{}", err(&o));
    (out(&o), err(&o))
}

/// The settings in effect with the fixture `name`: (settings, notes), after checking that each `(line, words)`
/// is one note naming that line and saying those words, and that there are no other notes.
fn check_fixture(name: &str, expected: &[(usize, &[&str])]) -> String {
    let (settings, notes) = settings_in(&fixture(name));
    let lines: Vec<&str> = notes.lines().collect();
    assert_eq!(lines.len(), expected.len(), "{name}: {notes}");
    for (note, (line, words)) in lines.iter().zip(expected) {
        assert!(
            note.contains(&format!("settings.toml line {line}: ")),
            "{name}: {note}"
        );
        for w in *words {
            assert!(note.contains(w), "{name}: '{w}' not in: {note}");
        }
    }
    settings
}

/// README: "A line that is not TOML at all is left out ... and the rest of the file is read".
#[test]
fn a_line_that_is_not_toml_is_left_out_and_the_rest_is_kept() {
    let s = check_fixture(
        "not_toml",
        &[(2, &["not valid TOML", "this line is ignored"])],
    );
    assert!(s.contains("theme = \"dark\""), "{s}");
    assert!(
        s.contains("animations = true"),
        "the bad line's default: {s}"
    );
    assert!(s.contains("autoplay-ms = 250"), "{s}");
}

#[test]
fn a_duplicate_entry_is_not_toml_and_the_first_one_is_kept() {
    let s = check_fixture(
        "duplicate_entry",
        &[(3, &["not valid TOML", "duplicate", "this line is ignored"])],
    );
    assert!(s.contains("theme = \"dark\""), "{s}");
    assert!(s.contains("animations = false"), "{s}");
}

/// A broken table header takes its entries with it (they would land in the table above), and no more.
#[test]
fn a_broken_table_header_is_left_out_with_its_entries() {
    let s = check_fixture(
        "broken_header",
        &[(3, &["not valid TOML", "lines 3 to 6 are ignored"])],
    );
    assert!(s.contains("theme = \"dark\""), "{s}");
    assert!(s.contains("undo = [\"u\"]"), "{s}");
    assert!(s.contains("hint = [\"t\"]"), "{s}");
    assert!(
        s.contains("give-up = false"),
        "the table after it is read: {s}"
    );
}

/// README: "a file that still cannot be read as TOML is ignored whole ... until it is fixed".
#[test]
fn a_file_that_cannot_be_read_as_toml_is_ignored_whole_and_says_so() {
    let s = check_fixture(
        "hopeless_toml",
        &[(
            // The string opened on line 2 runs to the end of the file, where TOML finds the mistake.
            4,
            &[
                "not valid TOML",
                "the whole file is ignored until it is fixed",
                "default settings",
            ],
        )],
    );
    assert!(s.contains("theme = \"auto\""), "{s}");
    assert!(s.contains("autoplay-ms = 100"), "{s}");
}

/// README: keys cannot be remapped to Space, nor to a key a game already uses (`g` types GREEN in Mastermind).
#[test]
fn a_key_a_game_types_or_a_reserved_key_is_refused() {
    let s = check_fixture(
        "game_key",
        &[(
            2,
            &[
                "keys.hint",
                "g is already taken",
                "GREEN in Mastermind",
                "using the default, t",
            ],
        )],
    );
    assert!(s.contains("hint = [\"t\"]"), "{s}");
    assert!(s.contains("undo = [\"z\"]"), "{s}");
    let s = check_fixture(
        "reserved_space",
        &[(
            2,
            &["keys.undo", "Space is reserved", "using the default, u"],
        )],
    );
    assert!(s.contains("hint = [\"F1\"]"), "{s}");
}

#[test]
fn an_unknown_key_is_ignored_and_the_rest_is_used() {
    let s = check_fixture(
        "unknown_key",
        &[(2, &["unknown setting 'colour'", "ignored", "theme"])],
    );
    assert!(s.contains("theme = \"light\""), "{s}");
}

#[test]
fn a_value_of_the_wrong_type_falls_back_to_its_default() {
    let s = check_fixture(
        "wrong_type",
        &[(
            1,
            &[
                "autoplay-ms should be a whole number from 10 to 2000, not text",
                "using the default, 100",
            ],
        )],
    );
    assert!(s.contains("autoplay-ms = 100"), "{s}");
    assert!(s.contains("theme = \"high-contrast\""), "{s}");
}

#[test]
fn values_out_of_range_fall_back_entry_by_entry() {
    let s = check_fixture(
        "out_of_range",
        &[
            (
                1,
                &[
                    "replay-ms",
                    "'5' is not a whole number from 50 to 1600",
                    "400",
                ],
            ),
            (
                4,
                &["games.2048.size", "from 3 to 8", "using the default, 4"],
            ),
        ],
    );
    assert!(s.contains("replay-ms = 400"), "{s}");
    assert!(s.contains("size = 4"), "{s}");
    assert!(s.contains("target = \"512\""), "{s}");
}

#[test]
fn a_key_bound_twice_is_refused_on_the_second_line() {
    let s = check_fixture(
        "duplicate_binding",
        &[(
            3,
            &[
                "keys.hint",
                "z is already undo's key",
                "using the default, t",
            ],
        )],
    );
    assert!(s.contains("undo = [\"z\"]"), "{s}");
    assert!(s.contains("hint = [\"t\"]"), "{s}");
}

#[test]
fn a_key_name_that_does_not_parse_is_refused() {
    let s = check_fixture(
        "bad_key_name",
        &[(
            3,
            &[
                "keys.give-up",
                "'Ctrl-x' is not a key name",
                "using the default, x",
            ],
        )],
    );
    assert!(s.contains("give-up = [\"x\"]"), "{s}");
    assert!(s.contains("new-game = [\"F2\"]"), "{s}");
}

#[test]
fn a_question_setting_must_be_true_or_false() {
    let s = check_fixture(
        "confirm_not_bool",
        &[(
            2,
            &["confirm.give-up should be true or false, not text", "true"],
        )],
    );
    assert!(s.contains("give-up = true"), "{s}");
    assert!(s.contains("discard = false"), "{s}");
}

#[test]
fn an_unknown_game_is_ignored_and_known_games_keep_their_defaults() {
    let s = check_fixture(
        "unknown_game",
        &[(1, &["unknown game 'chess'", "2048, mastermind or nocca"])],
    );
    assert!(s.contains("level = \"expert\""), "{s}");
    assert!(s.contains("first = \"white\""), "{s}");
}

#[test]
fn no_file_is_the_defaults_and_no_note() {
    let dir = tempfile::tempdir().unwrap();
    let (s, notes) = settings_in(dir.path());
    assert!(notes.is_empty(), "{notes}");
    assert!(s.starts_with(&format!("# {}", dir.path().join("settings.toml").display())));
    assert!(
        !dir.path().join("settings.toml").exists(),
        "reading never writes"
    );
}

#[test]
fn the_menu_shows_the_mistakes_when_parlor_starts() {
    let data = tempfile::tempdir().unwrap();
    let dir = fixture("wrong_type");
    let o = run(data.path(), &["--config-dir", dir.to_str().unwrap()], "q\n");
    let text = out(&o);
    assert!(
        text.contains("Note: Settings: ") && text.contains("settings.toml line 1: autoplay-ms"),
        "{text}"
    );
}

/// The number of the plain settings list's line whose label is `label`.
fn row_number(listing: &str, label: &str) -> String {
    listing
        .lines()
        .find(|l| l.contains(&format!("  {label}: ")))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no '{label}' in:\n{listing}"))
        .to_string()
}

#[test]
fn plain_settings_round_trip_to_the_next_start() {
    let data = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let cfg = config.path().to_str().unwrap();
    // List the settings once to learn the rows' numbers.
    let o = run(data.path(), &["--config-dir", cfg], "o\n\nq\n");
    let listing = out(&o);
    let target = row_number(&listing, "2048: Target tile");
    let give_up = row_number(&listing, "Ask before giving up");
    let speed = row_number(&listing, "Autoplay speed (ms a move)");
    let input = format!("o\n{target}\n512\n{give_up}\nno\n{speed}\n5\n\nq\n");
    let o = run(data.path(), &["--config-dir", cfg], &input);
    let text = out(&o);
    let saved = format!(
        "Saved to {}.",
        config.path().join("settings.toml").display()
    );
    assert_eq!(text.matches(&saved).count(), 2, "{text}");
    assert!(
        text.contains("Not changed: '5' is not a whole number from 10 to 2000."),
        "{text}"
    );
    let file = std::fs::read_to_string(config.path().join("settings.toml")).unwrap();
    assert!(file.contains("target = \"512\""), "{file}");
    assert!(file.contains("give-up = false"), "{file}");
    assert!(file.starts_with("# Parlor's settings."), "{file}");
    // The next start: a new game of 2048 aims at 512, and giving up asks nothing.
    let o = run(
        data.path(),
        &["--config-dir", cfg, "2048", "--seed", "3"],
        "x\n",
    );
    let text = out(&o);
    assert!(text.contains("Make 512 to win."), "{text}");
    assert!(!text.contains("Give up this game?"), "{text}");
    // A flag on the command line still wins over the settings.
    let o = run(
        data.path(),
        &[
            "--config-dir",
            cfg,
            "2048",
            "--seed",
            "3",
            "--target",
            "1024",
        ],
        "q\n",
    );
    assert!(out(&o).contains("Make 1024 to win."), "{}", out(&o));
}

#[test]
fn saving_over_a_file_with_mistakes_keeps_the_old_one_beside_it() {
    let data = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let bad = std::fs::read_to_string(fixture("unknown_key").join("settings.toml")).unwrap();
    std::fs::write(config.path().join("settings.toml"), &bad).unwrap();
    let cfg = config.path().to_str().unwrap();
    let o = run(data.path(), &["--config-dir", cfg], "o\n2\nno\n\nq\n");
    let text = out(&o);
    let bak = config.path().join("settings.toml.bak");
    assert!(
        text.contains(&format!("which had mistakes, is kept as {}", bak.display())),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&bak).unwrap(), bad);
    let (s, notes) = settings_in(config.path());
    assert!(notes.is_empty(), "the new file is clean: {notes}");
    assert!(
        s.contains("theme = \"light\"") && s.contains("animations = false"),
        "{s}"
    );
}

#[test]
fn plain_settings_say_not_saved_when_the_file_cannot_be_written() {
    let data = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    // A file where the directory should be: nothing can be saved under it.
    let blocked = config.path().join("blocked");
    std::fs::write(&blocked, "").unwrap();
    let cfg = blocked.to_str().unwrap();
    let o = run(data.path(), &["--config-dir", cfg], "o\n1\ndark\n\nq\n");
    let text = out(&o);
    assert!(text.contains("NOT saved: cannot create"), "{text}");
    assert!(!text.contains("Saved to"), "{text}");
}

#[test]
fn the_full_screen_settings_change_the_theme_and_a_key_for_the_next_start() {
    let data = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let cfg = config.path().to_str().unwrap();
    let mut p = Pty::spawn(Spawn::new(data.path(), &["--config-dir", cfg]));
    p.wait_for("New game: 2048");
    // The menu: three new games, Online, best scores, statistics, history, then Settings.
    p.press_all(&[Key::Down; 7]);
    p.press(Key::Enter);
    p.wait_for("Parlor · settings");
    p.press(Key::Right); // theme: auto -> dark
    p.wait_for("saved to");
    // Down to the undo key: the four general settings, the three questions, then the keys.
    p.press_all(&[Key::Down; 7]);
    p.wait_for("▸ Keys: undo");
    p.press(Key::Enter);
    p.wait_for("press a key");
    p.press(Key::Char('t')); // hint's key: refused
    p.wait_for("refused: t is already hint's key");
    p.press(Key::Enter);
    p.wait_for("press a key");
    p.press(Key::Char('z'));
    p.wait_until("the undo key saved", |s| {
        s.contents().contains("saved to") && s.contents().contains("◀ z ▶")
    });
    p.press(Key::Char('q'));
    p.wait_for("New game: 2048");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
    let file = std::fs::read_to_string(config.path().join("settings.toml")).unwrap();
    assert!(file.contains("theme = \"dark\""), "{file}");
    assert!(file.contains("undo = [\"z\"]"), "{file}");
    // The next start: the hint bar names z for undo, and z undoes.
    let mut p = Pty::spawn(Spawn::new(
        data.path(),
        &["--config-dir", cfg, "2048", "--seed", "3"],
    ));
    p.wait_for("z undo");
    p.press(Key::Left);
    p.wait_for("Moves 1");
    p.press(Key::Char('u'));
    p.wait_for("'u' does nothing here");
    p.press(Key::Char('z'));
    p.wait_for("undo: took back");
    p.press(Key::Char('q'));
    p.wait_for("New game: 2048");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}

#[test]
fn the_readme_example_reads_without_a_mistake() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let section = readme
        .split("## Settings and themes")
        .nth(1)
        .expect("README has a Settings and themes section");
    let example = section
        .split("```toml\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("the section has a TOML example");
    let (s, problems) = parlor::settings::file::parse(example, &parlor::registry::catalog());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(s.theme(), parlor::tui::theme::ThemeName::Light);
    assert!(!s.animations() && !s.confirm_give_up());
    assert_eq!(s.autoplay_ms(), 250);
    assert!(s.game_json("2048").unwrap().contains("512"));
}

mod in_process {
    use super::common::app::{NO_COLOR, press, screen};
    use parlor::games::twenty48::{Params, Twenty48};
    use parlor::input::KeyCode;
    use parlor::settings::{Section, Settings};
    use parlor::storage::Store;
    use parlor::tui::app::App;
    use parlor::tui::menu::MenuView;
    use parlor::tui::play::PlayView;
    use parlor::tui::settings::SettingsView;

    fn game(settings: Settings) -> App {
        let store = Store::in_memory().unwrap();
        let s = super::common::app::session::<Twenty48>(Params::default(), 9, &store);
        let mut app = App::with_stack(
            vec![Box::new(MenuView::new(None)), Box::new(PlayView::new(s))],
            store,
            NO_COLOR,
            parlor::registry::tui(),
        );
        app.set_settings(settings, None);
        app.start();
        app
    }

    #[test]
    fn with_the_question_turned_off_x_gives_up_at_once() {
        let mut app = game(parlor::registry::settings());
        press(&mut app, KeyCode::Left);
        press(&mut app, KeyCode::Char('x'));
        assert!(screen(&mut app, 80, 24).contains("Give up?"));
        let mut quiet = parlor::registry::settings();
        quiet.set(Section::Confirm, "give-up", "no").unwrap();
        let mut app = game(quiet);
        press(&mut app, KeyCode::Left);
        press(&mut app, KeyCode::Char('x'));
        let s = screen(&mut app, 80, 24);
        assert!(!s.contains("Give up?") && s.contains("Game over"), "{s}");
    }

    #[test]
    fn a_remapped_new_game_key_is_the_one_the_end_box_and_the_help_name() {
        let mut remapped = parlor::registry::settings();
        remapped.set(Section::Keys, "new-game", "e").unwrap();
        remapped.set(Section::Keys, "undo", "z").unwrap();
        remapped.set(Section::Confirm, "give-up", "no").unwrap();
        let mut app = game(remapped);
        press(&mut app, KeyCode::Char('x'));
        let s = screen(&mut app, 80, 24);
        assert!(
            s.contains("Game over") && s.contains("e new game · q back"),
            "{s}"
        );
        assert!(!s.contains("r new game"), "{s}");
        // r is nothing now: the message names the key that is.
        press(&mut app, KeyCode::Char('r'));
        let s = screen(&mut app, 80, 24);
        assert!(s.contains("the game is over: e new game · q back"), "{s}");
        // The help of the menu names the keys the settings give.
        press(&mut app, KeyCode::Char('q'));
        press(&mut app, KeyCode::Char('?'));
        let s = screen(&mut app, 100, 40);
        assert!(s.contains("z undoes"), "{s}");
        assert!(s.contains("e starts a new game"), "{s}");
    }

    #[test]
    fn autoplay_starts_at_the_settings_speed() {
        let mut slow = parlor::registry::settings();
        slow.set(Section::General, "autoplay-ms", "700").unwrap();
        let mut app = game(slow);
        press(&mut app, KeyCode::Char('p'));
        let s = super::common::app::wait_until(&mut app, |s| s.contains("ms/move"));
        assert!(s.contains("700 ms/move"), "{s}");
    }

    #[test]
    fn settings_screen() {
        let settings = parlor::registry::settings();
        let view = SettingsView::new(
            &settings,
            Some(&parlor::settings::file::FileKeeper::new(
                "/home/you/.config/parlor",
            )),
        );
        let mut app = App::with_stack(
            vec![Box::new(view)],
            Store::in_memory().unwrap(),
            NO_COLOR,
            parlor::registry::tui(),
        );
        app.set_settings(settings, None);
        app.start();
        press(&mut app, KeyCode::Right); // the theme: auto -> dark, NOT saved (no directory in this test)
        let s = screen(&mut app, 80, 24);
        assert!(s.contains("◀ dark ▶") && s.contains("NOT saved"), "{s}");
        insta::assert_snapshot!(s);
        assert_eq!(app.settings().theme(), parlor::tui::theme::ThemeName::Dark);
        assert_eq!(
            app.theme().name,
            parlor::tui::theme::ThemeName::Dark,
            "the theme changes at once"
        );
    }
}
