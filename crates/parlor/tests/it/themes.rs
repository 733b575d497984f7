//! Every theme on one screen of each game, snapshotted with its styles (TestBackend + insta): each line of the screen
//! is followed by its style runs (`from-to fg/bg modifiers`), so a snapshot shows the colours, not only the text.
//! Also: the colour themes cover every cell, a mono terminal gets no colour from any theme, and `--theme` is
//! range-checked.

use crate::common;
use nocca::Move;
use parlor::games::mastermind::{Mastermind, Params as MmParams, Role};
use parlor::games::nocca::{Mode, Nocca, Params as NoParams};
use parlor::games::twenty48::{Params as TwParams, Twenty48};
use parlor::input::{Event, KeyCode, KeyEvent, KeyModifiers};
use parlor::mid::game::Game;
use parlor::mid::session::{Seed, Session};
use parlor::storage::Store;
use parlor::tui::View;
use parlor::tui::app::App;
use parlor::tui::play::PlayView;
use parlor::tui::theme::{Depth, Theme, ThemeName};
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use ratatui::{Terminal, backend::TestBackend};
use std::fmt::Write;

fn seed(v: u64) -> Seed {
    Seed {
        value: v,
        chosen: false,
    }
}

fn colour(c: Color) -> String {
    match c {
        Color::Reset => "-".into(),
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(i) => format!("i{i}"),
        other => format!("{other:?}"),
    }
}

fn modifiers(m: Modifier) -> String {
    let names = [
        (Modifier::BOLD, "bold"),
        (Modifier::DIM, "dim"),
        (Modifier::ITALIC, "italic"),
        (Modifier::UNDERLINED, "underlined"),
        (Modifier::REVERSED, "reversed"),
    ];
    names
        .iter()
        .filter(|(f, _)| m.contains(*f))
        .map(|(_, n)| format!(" {n}"))
        .collect()
}

/// The buffer as text, each line followed by its runs of one style: `from-to fg/bg modifiers`.
fn styled(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut text = String::new();
        let mut runs: Vec<(u16, u16, String)> = Vec::new();
        let mut skip = 0;
        for x in 0..area.width {
            let cell = &buf[(x, y)];
            if skip == 0 {
                text.push_str(cell.symbol());
                skip = unicode_width(cell.symbol()).max(1);
            }
            skip -= 1;
            let style = format!(
                "{}/{}{}",
                colour(cell.fg),
                colour(cell.bg),
                modifiers(cell.modifier)
            );
            match runs.last_mut() {
                Some((_, end, s)) if *s == style => *end = x,
                _ => runs.push((x, x, style)),
            }
        }
        let _ = writeln!(out, "{:>2} {}", y, text.trim_end());
        let shown: Vec<String> = runs
            .iter()
            .map(|(a, b, s)| format!("{a}-{b} {s}"))
            .collect();
        let _ = writeln!(out, "   {}", shown.join("; "));
    }
    out
}

fn unicode_width(s: &str) -> usize {
    // Every glyph Parlor draws is one column wide.
    usize::from(!s.is_empty())
}

fn draw(app: &mut App, w: u16, h: u16) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| app.draw(f)).unwrap();
    let buf = t.backend().buffer().clone();
    let text: String = buf.content.iter().map(|c| c.symbol()).collect();
    assert!(!text.contains("terminal too small"), "the screen must fit");
    buf
}

fn app_with(view: Box<dyn View>, store: Store, theme: Theme) -> App {
    let mut app = App::with_stack(vec![view], store, theme, parlor::registry::tui());
    app.start();
    app
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

/// 2048 after a few slides.
fn twenty48(theme: Theme) -> Buffer {
    let mut store = Store::in_memory().unwrap();
    let mut s = Session::<Twenty48>::new(TwParams::default(), seed(5), &store).unwrap();
    for d in ["left", "down", "right", "down", "left", "down"] {
        let mv = Twenty48::parse_move(s.state(), d).unwrap();
        let _ = s.play(mv, &mut store);
    }
    let mut app = app_with(Box::new(PlayView::new(s)), store, theme);
    draw(&mut app, 44, 15)
}

/// Mastermind with two guesses scored and a third half typed.
fn mastermind(theme: Theme) -> Buffer {
    let store = Store::in_memory().unwrap();
    let s = Session::<Mastermind>::new(
        MmParams::of(mastermind::Variant::CLASSIC, Role::Breaker),
        seed(7),
        &store,
    )
    .unwrap();
    let mut app = app_with(Box::new(PlayView::new(s)), store, theme);
    for (text, enter) in [("RRGG", true), ("YUKW", true), ("GR", false)] {
        for c in text.chars() {
            press(&mut app, KeyCode::Char(c));
        }
        if enter {
            press(&mut app, KeyCode::Enter);
        }
    }
    draw(&mut app, 64, 23)
}

/// Nocca with a stack of both sides and a selected piece showing its moves.
fn nocca(theme: Theme) -> Buffer {
    let mut store = Store::in_memory().unwrap();
    let params = NoParams {
        mode: Mode::Two,
        ..NoParams::default()
    };
    let mut s = Session::<Nocca>::new(params, seed(1), &store).unwrap();
    for m in "c1k c6j c2k c5j b1u c4j c2k".split_whitespace() {
        s.play(m.parse::<Move>().unwrap(), &mut store).unwrap();
    }
    let mut app = app_with(Box::new(PlayView::new(s)), store, theme);
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Enter);
    draw(&mut app, 61, 20)
}

fn theme(name: ThemeName, depth: Depth) -> Theme {
    Theme::new(name, depth, None)
}

const THEMES: [ThemeName; 4] = [
    ThemeName::Dark,
    ThemeName::Light,
    ThemeName::HighContrast,
    ThemeName::Mono,
];

/// The screens drawn here are one per game: every registered game has one.
#[test]
fn every_registered_game_is_drawn_in_every_theme() {
    assert_eq!(
        registered(),
        [Twenty48::ID, Mastermind::ID, Nocca::ID],
        "draw each registered game in every theme"
    );
}

/// The registered games' ids, in menu order.
fn registered() -> Vec<&'static str> {
    parlor::registry::GAMES
        .iter()
        .map(|&g| parlor::mid::AnyGame::id(g))
        .collect()
}

#[test]
fn every_theme_on_each_game() {
    for name in THEMES {
        let t = theme(name, Depth::TrueColor);
        let n = name.as_str();
        insta::assert_snapshot!(format!("2048_{n}"), styled(&twenty48(t)));
        insta::assert_snapshot!(format!("mastermind_{n}"), styled(&mastermind(t)));
        insta::assert_snapshot!(format!("nocca_{n}"), styled(&nocca(t)));
    }
}

#[test]
fn the_dark_theme_degrades_to_256_and_16_colours() {
    for depth in [Depth::Ansi256, Depth::Ansi16] {
        let t = theme(ThemeName::Dark, depth);
        insta::assert_snapshot!(format!("2048_dark_{depth:?}"), styled(&twenty48(t)));
    }
    // The light theme's Nocca board in 16 colours: the sides keep distinct colours.
    let light16 = nocca(theme(ThemeName::Light, Depth::Ansi16));
    insta::assert_snapshot!("nocca_light_Ansi16", styled(&light16));
}

/// Every cell of a colour theme's screen has a colour of its own, at every depth (nothing is left to the
/// terminal's background, so the theme reads the same on a dark and on a light terminal); and no theme gives a
/// colour to a terminal without colour.
#[test]
fn colour_themes_cover_the_screen_and_mono_terminals_get_none() {
    for name in [ThemeName::Dark, ThemeName::Light, ThemeName::HighContrast] {
        for depth in [Depth::TrueColor, Depth::Ansi256, Depth::Ansi16] {
            for buf in [
                twenty48(theme(name, depth)),
                mastermind(theme(name, depth)),
                nocca(theme(name, depth)),
            ] {
                for cell in &buf.content {
                    assert!(
                        cell.fg != Color::Reset && cell.bg != Color::Reset,
                        "{name:?} at {depth:?} left a cell to the terminal"
                    );
                    if depth == Depth::Ansi16 {
                        assert!(
                            !matches!(cell.fg, Color::Rgb(..) | Color::Indexed(_))
                                && !matches!(cell.bg, Color::Rgb(..) | Color::Indexed(_)),
                            "{name:?} used more than 16 colours"
                        );
                    }
                    if depth == Depth::Ansi256 {
                        assert!(
                            !matches!(cell.fg, Color::Rgb(..))
                                && !matches!(cell.bg, Color::Rgb(..)),
                            "{name:?} used 24-bit colour on a 256-colour terminal"
                        );
                    }
                }
            }
        }
    }
    for name in ThemeName::ALL {
        for buf in [
            twenty48(theme(name, Depth::Mono)),
            nocca(theme(name, Depth::Mono)),
        ] {
            assert!(
                buf.content
                    .iter()
                    .all(|c| c.fg == Color::Reset && c.bg == Color::Reset),
                "{name:?} without colour"
            );
        }
    }
}

/// Nocca's sides differ in colour as well as in their letters, in every colour theme.
#[test]
fn nocca_sides_have_their_own_colours() {
    for name in [ThemeName::Dark, ThemeName::Light, ThemeName::HighContrast] {
        for depth in [Depth::TrueColor, Depth::Ansi16] {
            let t = theme(name, depth);
            let black = parlor::games::nocca::colours::side(&t, nocca::Colour::Black).fg;
            let white = parlor::games::nocca::colours::side(&t, nocca::Colour::White).fg;
            assert!(
                black.is_some() && white.is_some() && black != white,
                "{name:?}"
            );
            assert_ne!(
                black,
                t.base().bg,
                "{name:?}: Black's letters on the background"
            );
            assert_ne!(
                white,
                t.base().bg,
                "{name:?}: White's letters on the background"
            );
        }
    }
}

#[test]
fn an_unknown_theme_is_refused_where_it_is_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let o = common::run(dir.path(), &["--theme", "nosuch", "history"], "");
    assert!(!o.status.success());
    let e = common::err(&o);
    assert!(e.contains("invalid value 'nosuch'"), "{e}");
    assert!(
        e.contains("dark") && e.contains("high-contrast") && e.contains("mono"),
        "{e}"
    );
    let o = common::run(dir.path(), &["--theme", "light", "history"], "");
    assert!(o.status.success(), "{}", common::err(&o));
}
