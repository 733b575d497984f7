//! Whole-screen snapshots of Mastermind on the one game interface (TestBackend + insta, no colour): setup, play in
//! both roles, the end screens and the replay; and the full-screen defects of issue 9.

use mastermind::{CodeStyle, Strategy, Variant, secret_from_seed};
use parlor::games::mastermind::{Mastermind, Params, Role};
use parlor::input::{Event, KeyCode, KeyEvent, KeyModifiers};
use parlor::mid::game::Game;
use parlor::mid::session::{Seed, Session};
use parlor::storage::{Storage, Store};
use parlor::tui::app::App;
use parlor::tui::play::PlayView;
use parlor::tui::setup::SetupView;
use parlor::tui::theme::Theme;
use ratatui::{Terminal, backend::TestBackend};

const NO_COLOR: Theme = Theme::MONO;

fn render(app: &mut App) -> String {
    let mut t = Terminal::new(TestBackend::new(80, 28)).unwrap();
    t.draw(|f| app.draw(f)).unwrap();
    format!("{}", t.backend())
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn typed(app: &mut App, text: &str) {
    for ch in text.chars() {
        press(app, KeyCode::Char(ch));
    }
}

/// Ticks and redraws until `done` holds for the screen (background work: hints, the computer's guesses).
fn tick_until(app: &mut App, done: impl Fn(&str) -> bool) -> String {
    for _ in 0..1000 {
        app.tick();
        let s = render(app);
        if done(&s) {
            return s;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("timed out: {}", render(app));
}

fn seed(v: u64) -> Seed {
    Seed {
        value: v,
        chosen: false,
    }
}

fn app_with(params: Params, seed_value: u64, store: Store) -> App {
    let s = Session::<Mastermind>::new(params, seed(seed_value), &store).unwrap();
    App::new(
        Box::new(PlayView::new(s)),
        store,
        NO_COLOR,
        parlor::registry::tui(),
    )
}

fn maker(variant: Variant) -> Params {
    let mut p = Params::of(variant, Role::Maker);
    p.strategy = Some(Strategy::Knuth);
    p
}

#[test]
fn setup_screen() {
    let mut app = App::new(
        Box::new(SetupView::<Mastermind>::new(Params::default())),
        Store::in_memory().unwrap(),
        NO_COLOR,
        parlor::registry::tui(),
    );
    insta::assert_snapshot!(render(&mut app));
    // Custom shows its own settings.
    press(&mut app, KeyCode::Left);
    let s = render(&mut app);
    assert!(s.contains("Colours"), "{s}");
    assert!(s.contains("Guess may repeat a colour"), "{s}");
}

#[test]
fn board_mid_game_with_a_refused_guess() {
    let mut app = app_with(
        Params::of(Variant::CLASSIC, Role::Breaker),
        7,
        Store::in_memory().unwrap(),
    );
    typed(&mut app, "RRGG");
    press(&mut app, KeyCode::Enter);
    typed(&mut app, "1234");
    press(&mut app, KeyCode::Enter);
    typed(&mut app, "v");
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Delete);
    press(&mut app, KeyCode::Delete);
    press(&mut app, KeyCode::Enter); // refused: two pegs missing
    let s = render(&mut app);
    assert!(
        s.contains("wrong length: 2 of 4 pegs placed (no guess used)"),
        "{s}"
    );
    insta::assert_snapshot!(s);
}

#[test]
fn hint_shows_guess_remaining_and_expected() {
    let mut p = Params::of(Variant::CLASSIC, Role::Breaker);
    p.strategy = Some(Strategy::Knuth);
    let mut app = app_with(p, 7, Store::in_memory().unwrap());
    typed(&mut app, "RRGG");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('t'));
    let s = tick_until(&mut app, |s| s.contains("hint: try"));
    assert!(s.contains("guesses to go"), "{s}");
    assert!(s.contains("assisted"), "{s}");
}

#[test]
fn win_and_loss_end_screens() {
    let v = Variant::SEED;
    let secret = secret_from_seed(&v, 3);
    let mut app = app_with(Params::default(), 3, Store::in_memory().unwrap());
    typed(
        &mut app,
        &v.format_code(&secret, CodeStyle::Symbols).to_string(),
    );
    press(&mut app, KeyCode::Enter);
    let s = render(&mut app);
    assert!(s.contains("You cracked the code in 1 guess"), "{s}");
    insta::assert_snapshot!("win_end_screen", s);
    let mut app = app_with(Params::default(), 5, Store::in_memory().unwrap());
    for _ in 0..8 {
        typed(&mut app, "RRRR");
        press(&mut app, KeyCode::Enter);
    }
    let s = render(&mut app);
    assert!(s.contains("Out of guesses: the code was"), "{s}");
    insta::assert_snapshot!("loss_end_screen", s);
}

#[test]
fn codemaker_screen_answering_a_guess() {
    let mut app = app_with(maker(Variant::CLASSIC), 0, Store::in_memory().unwrap());
    let s = render(&mut app);
    assert!(s.contains("Think of a code"), "{s}");
    press(&mut app, KeyCode::Enter); // answer by hand
    tick_until(&mut app, |s| s.contains("Guess: RED RED GREEN GREEN"));
    typed(&mut app, "1 1");
    insta::assert_snapshot!(render(&mut app));
}

#[test]
fn defect_1_codemaker_picks_which_answer_to_fix_with_up_and_down() {
    let mut app = app_with(maker(Variant::CLASSIC), 0, Store::in_memory().unwrap());
    press(&mut app, KeyCode::Enter);
    tick_until(&mut app, |s| s.contains("Guess: RED RED GREEN GREEN"));
    typed(&mut app, "0 0");
    press(&mut app, KeyCode::Enter);
    tick_until(&mut app, |s| s.contains("Guess: YELLOW YELLOW BLUE BLACK"));
    // The whole hint bar shows on a wide screen (a narrower one drops its least important hints).
    let mut wide = Terminal::new(TestBackend::new(140, 28)).unwrap();
    wide.draw(|f| app.draw(f)).unwrap();
    let s = format!("{}", wide.backend());
    assert!(s.contains("↑↓ pick the answer to fix"), "{s}");
    typed(&mut app, "3 0");
    press(&mut app, KeyCode::Enter);
    // Those fit (e.g. YYUO); four blacks to the third guess contradict answer 2.
    let s = tick_until(&mut app, |s| {
        s.contains("Computer guess 3 of 10") && s.contains("← answer this guess")
    });
    assert!(!s.contains("not taken"), "{s}");
    typed(&mut app, "4 0");
    press(&mut app, KeyCode::Enter);
    let s = render(&mut app);
    assert!(
        s.contains("not taken: no code fits; answer 2 may be wrong"),
        "{s}"
    );
    assert!(s.contains("Correct answer"), "{s}");
    insta::assert_snapshot!("codemaker_contradiction_points_at_the_suspect", s);
    // ↑ and ↓ move the answer being corrected (the old screen ignored them).
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Up);
    let s = render(&mut app);
    assert!(s.contains("Correct answer 1"), "{s}");
    press(&mut app, KeyCode::Down);
    let s = render(&mut app);
    assert!(s.contains("Correct answer 2"), "{s}");
    press(&mut app, KeyCode::Down);
    let s = render(&mut app);
    assert!(s.contains("Your answer"), "{s}");
    // The hint bar names only keys that work here.
    assert!(!s.contains("autoplay"), "{s}");
    // Correct answer 1 and go on.
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Up);
    typed(&mut app, "1 0");
    press(&mut app, KeyCode::Enter);
    let s = render(&mut app);
    assert!(s.contains("answer 1 corrected"), "{s}");
}

#[test]
fn defect_9_codemaker_end_screen_is_fresh_and_enter_does_not_restart() {
    let store = Store::in_memory().unwrap();
    let mut app = app_with(maker(Variant::SEED), 0, store);
    typed(&mut app, "KOGR");
    press(&mut app, KeyCode::Enter);
    let s = tick_until(&mut app, |s| s.contains("Game over"));
    assert!(s.contains("The computer found your code in"), "{s}");
    assert!(!s.contains("you answer"), "{s}");
    assert!(!s.contains("not taken"), "{s}");
    assert!(s.contains("Computer guesses:"), "{s}");
    insta::assert_snapshot!("codemaker_end_screen", s);
    press(&mut app, KeyCode::Enter);
    let after = render(&mut app);
    assert!(
        after.contains("Game over"),
        "Enter must not start a new game: {after}"
    );
    assert!(after.contains("r new game"), "{after}");
}

#[test]
fn defect_9_q_while_typing_the_hidden_code_leaves() {
    let mut app = app_with(maker(Variant::SEED), 0, Store::in_memory().unwrap());
    typed(&mut app, "KO");
    press(&mut app, KeyCode::Char('q'));
    assert!(
        !app.running(),
        "q leaves the play screen (the only screen here)"
    );
    // An unknown letter is refused with the colour keys.
    let mut app = app_with(maker(Variant::SEED), 0, Store::in_memory().unwrap());
    typed(&mut app, "z");
    let s = render(&mut app);
    assert!(
        s.contains("unknown colour 'z': use R G Y U K O or 1-6"),
        "{s}"
    );
    // The typed code is hidden.
    typed(&mut app, "KO");
    let s = render(&mut app);
    assert!(s.contains("your code: **__"), "{s}");
    assert!(!s.contains(" K  O "), "{s}");
}

#[test]
fn replay_screen_opens_at_the_start_and_shows_the_code_at_the_end() {
    let mut store = Store::in_memory().unwrap();
    let v = Variant::SEED;
    let secret = secret_from_seed(&v, 3);
    let mut s = Session::<Mastermind>::new(Params::default(), seed(3), &store).unwrap();
    for t in [
        "RGYU".to_string(),
        v.format_code(&secret, CodeStyle::Symbols).to_string(),
    ] {
        let mv = Mastermind::parse_move(s.state(), &t).unwrap();
        s.play(mv, &mut store).unwrap();
    }
    let record = store
        .history(Some("mastermind"), 1)
        .unwrap()
        .games
        .remove(0);
    let entry = parlor::registry::find("mastermind").unwrap();
    let view = entry.replay(&record).unwrap();
    let when = parlor::storage::format_time(record.ended_at);
    let mut app = App::new(view, store, NO_COLOR, parlor::registry::tui());
    let start = render(&mut app).replace(&when, "YYYY-MM-DD hh:mm");
    assert!(start.contains("Move 0 of 2"), "{start}");
    insta::assert_snapshot!("replay_start", start);
    press(&mut app, KeyCode::End);
    let end = render(&mut app).replace(&when, "YYYY-MM-DD hh:mm");
    assert!(end.contains("Move 2 of 2"), "{end}");
    assert!(end.contains("You cracked the code in 2 guesses"), "{end}");
    insta::assert_snapshot!("replay_end", end);
}

#[test]
fn codemaker_typed_code_stays_hidden() {
    let mut app = app_with(maker(Variant::CLASSIC), 0, Store::in_memory().unwrap());
    typed(&mut app, "1234");
    let s = render(&mut app);
    assert!(s.contains("your code: ****"), "{s}");
    press(&mut app, KeyCode::Enter);
    let s = render(&mut app);
    assert!(s.contains("your code scores"), "{s}");
    assert!(
        s.contains("code   ?  ?  ?  ?"),
        "the code stays hidden: {s}"
    );
    // The computer then scores its own guesses to the end, where the code is shown.
    let s = tick_until(&mut app, |s| s.contains("Game over"));
    assert!(s.contains("code   R  G  Y  U"), "{s}");
}

#[test]
fn a_saved_game_resumes_on_screen() {
    let mut store = Store::in_memory().unwrap();
    let p = Params::of(Variant::CLASSIC, Role::Breaker);
    let mut s = Session::<Mastermind>::new(p, seed(9), &store).unwrap();
    for t in ["RRGG", "YYUU"] {
        let mv = Mastermind::parse_move(s.state(), t).unwrap();
        s.play(mv, &mut store).unwrap();
    }
    let saved = store.unfinished(Some("mastermind")).unwrap();
    assert_eq!(saved.len(), 1);
    drop(s);
    let resumed = Session::<Mastermind>::resume(&saved[0], &store).unwrap();
    let mut app = App::new(
        Box::new(PlayView::new(resumed)),
        store,
        NO_COLOR,
        parlor::registry::tui(),
    );
    let screen = render(&mut app);
    assert!(screen.contains("Guess 3 of 10"), "{screen}");
    assert!(screen.contains(" R  R  G  G "), "{screen}");
    assert!(screen.contains(" Y  Y  U  U "), "{screen}");
}

#[test]
fn codemaker_hint_names_the_answers_that_fit() {
    let mut app = app_with(maker(Variant::CLASSIC), 0, Store::in_memory().unwrap());
    press(&mut app, KeyCode::Enter);
    tick_until(&mut app, |s| s.contains("Guess: RED RED GREEN GREEN"));
    typed(&mut app, "0 0");
    press(&mut app, KeyCode::Enter);
    tick_until(&mut app, |s| {
        s.contains("Computer guess 2") && s.contains("← answer this guess")
    });
    press(&mut app, KeyCode::Char('t'));
    let s = tick_until(&mut app, |s| s.contains("hint: answers that fit"));
    assert!(s.contains("assisted"), "{s}");
}

fn click(app: &mut App, column: u16, row: u16) {
    use parlor::input::{MouseButton, MouseEvent, MouseEventKind};
    app.handle_event(Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }));
}

#[test]
fn the_mouse_picks_colours_and_slots() {
    let mut app = app_with(
        Params::of(Variant::CLASSIC, Role::Breaker),
        7,
        Store::in_memory().unwrap(),
    );
    render(&mut app);
    // Title, status, message, then the board: code, rule, 10 rows, a blank line, the palette.
    click(&mut app, 14, 16); // GREEN
    click(&mut app, 16, 5); // the fourth slot
    click(&mut app, 27, 16); // YELLOW
    let s = render(&mut app);
    assert!(s.contains("    1   G  ·  · [Y]  ← your guess"), "{s}");
}
