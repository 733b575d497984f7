//! Full-screen interface latency: start-up to a drawn menu, and a key press to a redrawn 2048 board.
//! Run with `cargo bench -p parlor --bench ui`.

// Benchmarks stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use parlor::games::twenty48::{Params, Twenty48};
use parlor::input::{Event, KeyCode, KeyEvent, KeyModifiers};
use parlor::mid::session::{Seed, Session};
use parlor::storage::Store;
use parlor::tui::app::App;
use parlor::tui::menu::MenuView;
use parlor::tui::play::PlayView;
use parlor::tui::theme::Theme;
use ratatui::{Terminal, backend::TestBackend};

fn startup(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    c.bench_function(
        "startup: open database, build menu, first draw (80x24)",
        |b| {
            b.iter(|| {
                let store = Store::open(dir.path()).expect("open").store;
                let mut app = App::new(
                    Box::new(MenuView::new(None)),
                    store,
                    Theme::new(
                        parlor::tui::theme::ThemeName::Dark,
                        parlor::tui::theme::Depth::Ansi256,
                        None,
                    ),
                    parlor::registry::tui(),
                );
                app.start();
                let mut t = Terminal::new(TestBackend::new(80, 24)).expect("terminal");
                t.draw(|f| app.draw(f)).expect("draw");
                t
            })
        },
    );
}

fn keypress(c: &mut Criterion) {
    let keys = [KeyCode::Left, KeyCode::Down, KeyCode::Right, KeyCode::Up];
    let mut i = 0;
    c.bench_function(
        "keypress: slide, autosave to disk, redraw 4x4 board (80x24)",
        |b| {
            let dir = tempfile::tempdir().expect("temp dir");
            b.iter_batched(
                || {
                    let store = Store::open(dir.path()).expect("open").store;
                    let seed = Seed {
                        value: 42,
                        chosen: false,
                    };
                    let session =
                        Session::<Twenty48>::new(Params::default(), seed, &store).expect("session");
                    let app = App::new(
                        Box::new(PlayView::new(session)),
                        store,
                        Theme::new(
                            parlor::tui::theme::ThemeName::Dark,
                            parlor::tui::theme::Depth::Ansi256,
                            None,
                        ),
                        parlor::registry::tui(),
                    );
                    let t = Terminal::new(TestBackend::new(80, 24)).expect("terminal");
                    (app, t)
                },
                |(mut app, mut t)| {
                    i += 1;
                    app.handle_event(Event::Key(KeyEvent::new(keys[i % 4], KeyModifiers::NONE)));
                    t.draw(|f| app.draw(f)).expect("draw");
                    (app, t)
                },
                BatchSize::PerIteration,
            )
        },
    );
}

criterion_group!(benches, startup, keypress);
criterion_main!(benches);
