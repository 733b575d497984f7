//! Whole-screen snapshots of the Mastermind screens (TestBackend + insta, no colour).

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use mastermind::{CodeStyle, Strategy, Variant, secret_from_seed};
use parlor::games::mastermind::{GAME, MakerSession, Options, Role, Session};
use parlor::storage::Store;
use parlor::tui::app::App;
use parlor::tui::mastermind::{BreakerView, MakerView, SetupView, resume_view};
use parlor::tui::theme::Theme;
use ratatui::{Terminal, backend::TestBackend};

const NO_COLOR: Theme = Theme { color: false };

fn render(app: &mut App) -> String {
    let mut t = Terminal::new(TestBackend::new(80, 26)).unwrap();
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

/// Ticks until `done` holds for the rendered screen (background work: hints, the computer's guesses).
fn tick_until(app: &mut App, done: impl Fn(&str) -> bool) -> String {
    for _ in 0..500 {
        app.tick();
        let s = render(app);
        if done(&s) {
            return s;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("timed out: {}", render(app));
}

fn breaker_app(variant: Variant, seed: u64, store: Store) -> App {
    let s = Session::new(Options::new(variant, Role::Breaker), seed);
    App::new(Box::new(BreakerView::new(s, false)), store, NO_COLOR, None)
}

#[test]
fn board_mid_game_with_a_refused_guess() {
    let mut app = breaker_app(Variant::CLASSIC, 7, Store::in_memory().unwrap());
    typed(&mut app, "rrgg");
    press(&mut app, KeyCode::Enter);
    typed(&mut app, "1234");
    press(&mut app, KeyCode::Enter);
    typed(&mut app, "=");
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Enter); // refused: two pegs missing
    insta::assert_snapshot!(render(&mut app));
}

#[test]
fn hint_shows_guess_remaining_and_expected() {
    let mut app = breaker_app(Variant::CLASSIC, 7, Store::in_memory().unwrap());
    typed(&mut app, "rrgg");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('t'));
    let screen = tick_until(&mut app, |s| {
        s.contains("Hint: ") && !s.contains("thinking")
    });
    assert!(screen.contains("assisted"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn win_end_screen() {
    let v = Variant::SEED;
    let secret = secret_from_seed(&v, 4);
    let mut app = breaker_app(v, 4, Store::in_memory().unwrap());
    typed(&mut app, "1111");
    press(&mut app, KeyCode::Enter);
    typed(
        &mut app,
        &v.format_code(&secret, CodeStyle::Symbols).to_string(),
    );
    press(&mut app, KeyCode::Enter);
    insta::assert_snapshot!(render(&mut app));
}

#[test]
fn loss_end_screen() {
    let mut app = breaker_app(Variant::SEED, 4, Store::in_memory().unwrap());
    for _ in 0..8 {
        typed(&mut app, "kkkk");
        press(&mut app, KeyCode::Enter);
    }
    insta::assert_snapshot!(render(&mut app));
}

#[test]
fn codemaker_screen_answering_a_guess() {
    let mut o = Options::new(Variant::CLASSIC, Role::Maker);
    o.strategy = Strategy::Knuth;
    let s = MakerSession::new(o).unwrap();
    let mut app = App::new(
        Box::new(MakerView::new(s, false)),
        Store::in_memory().unwrap(),
        NO_COLOR,
        None,
    );
    let ask = render(&mut app);
    assert!(ask.contains("Type it (hidden)"), "{ask}");
    press(&mut app, KeyCode::Enter); // keep the code in mind
    tick_until(&mut app, |s| s.contains("Guess: RED RED GREEN GREEN"));
    typed(&mut app, "1 0");
    press(&mut app, KeyCode::Enter);
    tick_until(&mut app, |s| s.contains("Your answer"));
    typed(&mut app, "rw");
    insta::assert_snapshot!(render(&mut app));
}

#[test]
fn codemaker_typed_code_stays_hidden() {
    let mut o = Options::new(Variant::CLASSIC, Role::Maker);
    o.strategy = Strategy::Knuth;
    let mut app = App::new(
        Box::new(MakerView::new(MakerSession::new(o).unwrap(), false)),
        Store::in_memory().unwrap(),
        NO_COLOR,
        None,
    );
    typed(&mut app, "1234");
    let s = render(&mut app);
    assert!(s.contains("your code: ****"), "{s}");
    press(&mut app, KeyCode::Enter);
    tick_until(&mut app, |s| s.contains("Guess: RED RED GREEN GREEN"));
    press(&mut app, KeyCode::Enter); // the computer's own score, prefilled
    let s = tick_until(&mut app, |s| s.contains("Your answer"));
    assert!(s.contains("scored from your hidden code"), "{s}");
    assert!(
        s.contains("code   ?  ?  ?  ?"),
        "the code stays hidden: {s}"
    );
}

#[test]
fn codemaker_contradiction_points_at_the_suspect() {
    let v = Variant::CLASSIC;
    let mut o = Options::new(v, Role::Maker);
    o.strategy = Strategy::Knuth;
    // Find, with the library, a first answer and a second one that contradicts it.
    let all: Vec<mastermind::Feedback> = (0..=3u8)
        .flat_map(|k| (0..=4 - k).map(move |w| mastermind::Feedback { black: k, white: w }))
        .collect();
    let base = mastermind::Breaker::new(&v, Strategy::Knuth).unwrap();
    let g1 = base.next_guess();
    let (first, bad) = all
        .iter()
        .find_map(|&f1| {
            let mut b = base.clone();
            b.record(g1, f1).ok()?;
            let g2 = b.next_guess();
            all.iter()
                .copied()
                .find(|&f2| {
                    matches!(b.clone().record(g2, f2),
                    Err(mastermind::AnswerError::Contradiction(ref x)) if x.suspects.contains(&0))
                })
                .map(|f2| (f1, f2))
        })
        .expect("some pair of answers contradicts");
    let mut app = App::new(
        Box::new(MakerView::new(MakerSession::new(o).unwrap(), false)),
        Store::in_memory().unwrap(),
        NO_COLOR,
        None,
    );
    press(&mut app, KeyCode::Enter);
    tick_until(&mut app, |s| s.contains("Your answer"));
    typed(&mut app, &format!("{} {}", first.black, first.white));
    press(&mut app, KeyCode::Enter);
    tick_until(&mut app, |s| s.contains("Your answer"));
    typed(&mut app, &format!("{} {}", bad.black, bad.white));
    press(&mut app, KeyCode::Enter);
    let s = render(&mut app);
    assert!(s.contains("answer 2 contradicts the earlier ones"), "{s}");
    assert!(s.contains("Correct answer 1"), "{s}");
    insta::assert_snapshot!(s);
    // Fix answer 1 (a white, say, or whatever is consistent): try each until one is accepted.
    for fb in &all {
        typed(&mut app, &format!("{} {}", fb.black, fb.white));
        press(&mut app, KeyCode::Enter);
        if render(&mut app).contains("answer 1 corrected") {
            return;
        }
        for _ in 0..3 {
            press(&mut app, KeyCode::Backspace);
        }
    }
    panic!("no correction accepted: {}", render(&mut app));
}

#[test]
fn setup_screen() {
    let mut app = App::new(
        Box::new(SetupView::new(None)),
        Store::in_memory().unwrap(),
        NO_COLOR,
        None,
    );
    press(&mut app, KeyCode::Up); // strategy
    press(&mut app, KeyCode::Up); // role
    press(&mut app, KeyCode::Right); // codemaker
    for _ in 0..4 {
        press(&mut app, KeyCode::Up);
    }
    press(&mut app, KeyCode::Left); // pegs: 3, a custom variant
    insta::assert_snapshot!(render(&mut app));
    // An impossible variant says why.
    press(&mut app, KeyCode::Up); // colours
    for _ in 0..5 {
        press(&mut app, KeyCode::Left);
    }
    let s = render(&mut app);
    assert!(
        s.contains("Cannot play this: 2 colours cannot fill 3 pegs"),
        "{s}"
    );
}

#[test]
fn a_saved_game_resumes_on_screen() {
    let mut store = Store::in_memory().unwrap();
    let mut s = Session::new(Options::new(Variant::CLASSIC, Role::Breaker), 9);
    s.guess_text("1 1 2 2", &mut store).unwrap();
    s.guess_text("3 3 4 4", &mut store).unwrap();
    let saved = store.unfinished(Some(GAME)).unwrap();
    assert_eq!(saved.len(), 1);
    let mut ctx = parlor::test_ctx(&mut store);
    let view = resume_view(&saved[0], &mut ctx).unwrap();
    let mut app = App::new(view, store, NO_COLOR, None);
    let screen = render(&mut app);
    assert!(
        screen.contains("Continuing your game in progress."),
        "{screen}"
    );
    assert!(screen.contains("Guess 3 of 10"), "{screen}");
    assert!(screen.contains(" R  R  G  G "), "{screen}");
    assert!(screen.contains(" Y  Y  U  U "), "{screen}");
}
