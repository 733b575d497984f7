//! Text by intent (issues 24 and 50): no text is ever clipped or lost. Every screen of every game (menu, setup forms
//! with the longest settings, play, hints, exact Nocca hints, questions, end boxes, statistics, settings with many
//! mistakes, help and its end, replay, history and best scores, the review, and the online screens: [`online`]) is
//! drawn in-process (TestBackend) at 40x12, 80x24, 100x32 and 160x50, recording what each screen means to show
//! ([`parlor::tui::text`]): every text meant whole must be on the screen whole in the area it was laid out in (wrapped
//! is fine), every mark (assisted, who is to move, the result, a box's "more", the hint bar's main action, way back and
//! `? help`) must be visible, and a box's content may not run past its bottom (what is laid out below it is not on the
//! screen). Besides, no line may end mid-word at the right edge of its box (long text wraps, scrolls, or is shortened
//! on purpose with `…`), and two sentences never run together (`word.Word`).

use crate::common;
use crate::common::app::*;
use parlor::games::mastermind::{Mastermind, Params as MmParams, Role};
use parlor::games::nocca::{Mode, Nocca, Params as NoccaParams};
use parlor::games::twenty48::{Params, Twenty48};
use parlor::input::KeyCode;
use parlor::storage::Store;
use parlor::tui::app::App;
use parlor::tui::layout::{SCREEN_MAX, screen_area};
use parlor::tui::text::{Intent, Said, recording};
use ratatui::layout::Rect;
use std::collections::BTreeSet;
use twenty48::Direction;

mod online;

/// The sizes every screen is drawn at.
const SIZES: [(u16, u16); 4] = [(40, 12), (80, 24), (100, 32), (160, 50)];

/// Box borders: a box's text ends where one of these begins.
fn is_border(s: &str) -> bool {
    matches!(s, "│" | "┐" | "┘" | "┤" | "║")
}

/// The columns of boxes' right borders: where a row has a right corner (`┐` or `┘`). Text just left of a box's
/// left border is only covered by the box (an overlay), not cut.
fn right_borders(rows: &[Vec<String>]) -> BTreeSet<usize> {
    rows.iter()
        .flat_map(|r| {
            r.iter()
                .enumerate()
                .filter(|(_, c)| matches!(c.as_str(), "┐" | "┘"))
                .map(|(x, _)| x)
        })
        .collect()
}

fn is_word_char(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_alphanumeric())
}

/// The screen's rows as cells, and what the screen meant to show.
fn cells(app: &mut App, w: u16, h: u16) -> (Vec<Vec<String>>, Vec<Said>) {
    let (t, said) = recording(|| render(app, w, h));
    let buf = t.backend().buffer();
    let rows = (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect()
        })
        .collect();
    (rows, said)
}

/// What is written in `area` of the screen, read row by row, without the spaces: a text wrapped over the rows of
/// its area reads as the text without its spaces.
fn written_in(rows: &[Vec<String>], area: Rect) -> String {
    let mut out = String::new();
    for y in area.y..area.bottom() {
        if let Some(row) = rows.get(usize::from(y)) {
            for x in area.x..area.right() {
                if let Some(c) = row.get(usize::from(x)) {
                    out.push_str(c);
                }
            }
        }
    }
    out.split_whitespace().collect()
}

/// The intents of a drawn screen that it does not keep: a text meant whole that is not on the screen whole in its
/// area (cut at a box's bottom or side, or laid out past the screen), a mark that is missing, and a screen that
/// says nothing (its texts would go unchecked) or whose hint bar lost `? help`.
fn intent_faults(d: &Drawn) -> Vec<String> {
    let (w, h) = d.size;
    let screen = Rect::new(0, 0, w, h);
    let mut out = Vec::new();
    for said in &d.said {
        let (kind, text) = match &said.intent {
            Intent::Whole(t) => ("text", t),
            Intent::Mark(t) => ("mark", t),
        };
        let a = said.area;
        let shown = written_in(&d.rows, a.intersection(screen));
        let want: String = text.split_whitespace().collect();
        if a.intersection(screen) != a || !shown.contains(&want) {
            let area_rows: Vec<String> = (a.y..a.bottom().min(h))
                .map(|y| {
                    d.rows[usize::from(y)][usize::from(a.x)..usize::from(a.right().min(w))].concat()
                })
                .collect();
            out.push(format!(
                "{} at {w}x{h}: the {kind} {text:?} is not shown whole in rows {}..{} (columns {}..{}):\n  {}",
                d.name,
                a.y,
                a.bottom(),
                a.x,
                a.right(),
                area_rows.join("\n  ")
            ));
        }
    }
    if d.said.is_empty() {
        out.push(format!(
            "{} at {w}x{h}: the screen says nothing it means to show",
            d.name
        ));
    }
    if !d.name.contains("help")
        && !d
            .said
            .iter()
            .any(|s| s.intent == Intent::Mark("? help".into()))
    {
        out.push(format!(
            "{} at {w}x{h}: the hint bar does not keep `? help`",
            d.name
        ));
    }
    out
}

/// The word that ends at column `end` (inclusive) of `row`.
fn word_ending(row: &[String], end: usize) -> String {
    let mut start = end;
    while start > 0 && is_word_char(&row[start - 1]) {
        start -= 1;
    }
    row[start..=end].concat()
}

/// Where a word of `row` reaches the right edge of its box: the last column of the screen area, or a cell just
/// before a box border. Returns the words found there.
fn words_at_edges(row: &[String], area: Rect, borders: &BTreeSet<usize>) -> Vec<(usize, String)> {
    let right = usize::from(area.x + area.width) - 1;
    let mut found = Vec::new();
    for x in usize::from(area.x)..=right {
        let at_edge = x == right
            || (borders.contains(&(x + 1)) && row.get(x + 1).is_some_and(|s| is_border(s)));
        if at_edge && is_word_char(&row[x]) && !is_border(&row[x]) {
            let word = word_ending(row, x);
            let start = x + 1 - word.chars().count();
            // A word that starts right after a border is the rest of a box covered by another (an overlay).
            if start > 0 && is_border(&row[start - 1]) {
                continue;
            }
            found.push((x, word));
        }
    }
    found
}

/// The end of `row` up to column `end`: its last three words with the spaces between them as drawn
/// (`Enter t`, `12:55  2048       3x`).
fn phrase_ending(row: &[String], end: usize) -> String {
    let text: String = row[..=end].concat();
    let mut words = 0;
    let mut in_word = false;
    let chars: Vec<char> = text.chars().collect();
    let mut start = 0;
    for i in (0..chars.len()).rev() {
        let space = chars[i] == ' ' || chars[i] == '│';
        if !space && !in_word {
            in_word = true;
        } else if space && in_word {
            in_word = false;
            words += 1;
            if words == 3 {
                start = i + 1;
                break;
            }
        }
    }
    chars[start..].iter().collect()
}

/// Whether `phrase` is written somewhere in `rows` followed by a space or a mark (so it ends a word there), not at
/// the end of its row.
fn ends_a_word_in(phrase: &str, rows: &[String]) -> bool {
    rows.iter().any(|r| {
        r.match_indices(phrase).any(|(i, _)| {
            r[i + phrase.len()..]
                .chars()
                .next()
                .is_some_and(|c| !c.is_alphanumeric())
        })
    })
}

/// One screen drawn at one size.
struct Drawn {
    name: String,
    size: (u16, u16),
    rows: Vec<Vec<String>>,
    /// What the screen meant to show, and where.
    said: Vec<Said>,
    /// Only read for the vocabulary (a tall drawing that shows whole paragraphs wrapped elsewhere), not checked.
    vocabulary_only: bool,
}

impl Drawn {
    fn area(&self) -> Rect {
        screen_area(Rect::new(0, 0, self.size.0, self.size.1))
    }
}

/// Draws `app` at every size under `name`.
fn draw_all(name: &str, app: &mut App, out: &mut Vec<Drawn>) {
    for (w, h) in SIZES {
        let (rows, said) = cells(app, w, h);
        out.push(Drawn {
            name: name.to_string(),
            size: (w, h),
            rows,
            said,
            vocabulary_only: false,
        });
    }
    // The same screen tall and at two other widths: a word that ends a wrapped line exactly at the edge above
    // shows whole, inside a line, here.
    for (w, h) in [(61, 300), (93, 300)] {
        out.push(Drawn {
            name: name.to_string(),
            size: (w, h),
            rows: cells(app, w, h).0,
            said: Vec::new(),
            vocabulary_only: true,
        });
    }
}

/// The faults of every drawn screen: a word at the right edge of its box whose last words are not written
/// whole elsewhere (at another width, where the line does not end there: `...or press Enter t` never is), and two
/// sentences run together.
fn faults(drawn: &[Drawn]) -> Vec<String> {
    let corpus: Vec<String> = drawn
        .iter()
        .filter(|d| d.vocabulary_only)
        .flat_map(|d| d.rows.iter().map(|r| r.concat()))
        .collect();
    let mut out = Vec::new();
    for d in drawn.iter().filter(|d| !d.vocabulary_only) {
        out.extend(intent_faults(d));
        let (w, h) = d.size;
        let borders = right_borders(&d.rows);
        for (y, row) in d.rows.iter().enumerate() {
            let line: String = row.concat();
            for (x, word) in words_at_edges(row, d.area(), &borders) {
                if word.chars().all(|c| c.is_ascii_digit()) {
                    continue;
                }
                let phrase = phrase_ending(row, x);
                if ends_a_word_in(&phrase, &corpus) {
                    continue;
                }
                // A word too long for any line (a path) is broken across rows: its rest starts the next row.
                let rest: String = d
                    .rows
                    .get(y + 1)
                    .map(|r| r.concat())
                    .unwrap_or_default()
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_alphanumeric())
                    .collect();
                if !rest.is_empty() && corpus.iter().any(|r| r.contains(&format!("{word}{rest}"))) {
                    continue;
                }
                out.push(format!(
                    "{} at {w}x{h}, row {y}: {phrase:?} cut at the edge: {:?}",
                    d.name,
                    line.trim_end()
                ));
            }
            let chars: Vec<char> = line.chars().collect();
            // A sentence's end, then the next one's first word (`move.The`; `games.GAME` is a name).
            for i in 1..chars.len().saturating_sub(2) {
                if matches!(chars[i], '.' | '!' | '?' | ':')
                    && chars[i - 1].is_lowercase()
                    && chars[i + 1].is_uppercase()
                    && chars[i + 2].is_lowercase()
                {
                    out.push(format!(
                        "{} at {w}x{h}, row {y}: two sentences run together: {:?}",
                        d.name,
                        line.trim_end()
                    ));
                }
            }
        }
    }
    out
}

/// The screen, and its help overlay.
fn with_help(name: &str, app: &mut App, out: &mut Vec<Drawn>) {
    draw_all(name, app, out);
    press(app, KeyCode::Char('?'));
    draw_all(&format!("{name} help"), app, out);
    // The help scrolls: its end too.
    for _ in 0..200 {
        press(app, KeyCode::Down);
    }
    draw_all(&format!("{name} help end"), app, out);
    press(app, KeyCode::Char('?'));
}

fn twenty48_over(store: &mut Store) -> parlor::mid::session::Session<Twenty48> {
    let mut s = session::<Twenty48>(
        Params {
            size: 3,
            ..Params::default()
        },
        4,
        store,
    );
    let order = [
        Direction::Left,
        Direction::Down,
        Direction::Right,
        Direction::Up,
    ];
    let mut i = 0;
    while s.ended().is_none() && i < 100_000 {
        let _ = s.play(order[i % 4], store);
        i += 1;
    }
    s
}

fn mm(preset: Option<&'static str>, role: Role) -> MmParams {
    let mut p = MmParams {
        preset,
        role,
        ..MmParams::default()
    };
    if preset.is_none() {
        p.colours = 10;
        p.pegs = 8;
        p.guesses = 12;
    }
    p
}

fn mastermind_screens(out: &mut Vec<Drawn>) {
    for (name, preset) in [
        ("classic", Some("classic")),
        ("super", Some("super")),
        ("bulls-cows", Some("bulls-cows")),
        ("custom 10x8", None),
    ] {
        let store = Store::in_memory().unwrap();
        let s = session::<Mastermind>(mm(preset, Role::Breaker), 5, &store);
        let pegs = s.state().variant.pegs();
        let mut app = game_app(s, store);
        with_help(&format!("mastermind {name}"), &mut app, out);
        type_text(&mut app, &"1".repeat(usize::from(pegs) - 1));
        press(&mut app, KeyCode::Enter);
        draw_all(&format!("mastermind {name} refused guess"), &mut app, out);
        type_text(&mut app, "1");
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Char('t'));
        let _ = wait_until(&mut app, |s| !s.contains("thinking…"));
        draw_all(&format!("mastermind {name} hint"), &mut app, out);
        press(&mut app, KeyCode::Char('x'));
        draw_all(&format!("mastermind {name} give up?"), &mut app, out);
        press(&mut app, KeyCode::Char('y'));
        draw_all(&format!("mastermind {name} end"), &mut app, out);
    }
    // The codemaker: typing the code, answering, a contradiction, a correction, the end.
    let store = Store::in_memory().unwrap();
    let s = session::<Mastermind>(mm(Some("classic"), Role::Maker), 5, &store);
    let mut app = game_app(s, store);
    with_help("codemaker typing the code", &mut app, out);
    press(&mut app, KeyCode::Enter);
    let _ = wait_until(&mut app, |s| s.contains("answer this guess"));
    draw_all("codemaker answering", &mut app, out);
    type_text(&mut app, "0 0");
    press(&mut app, KeyCode::Enter);
    let _ = wait_until(&mut app, |s| s.contains("answer this guess"));
    type_text(&mut app, "0 0");
    press(&mut app, KeyCode::Enter);
    let _ = wait_until(&mut app, |s| {
        s.contains("answer this guess") || s.contains("not taken")
    });
    type_text(&mut app, "0 0");
    press(&mut app, KeyCode::Enter);
    draw_all("codemaker contradiction", &mut app, out);
    press(&mut app, KeyCode::Up);
    draw_all("codemaker correcting", &mut app, out);
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Char('y'));
    draw_all("codemaker end", &mut app, out);
}

fn nocca_screens(out: &mut Vec<Drawn>) {
    for (name, params) in [
        ("against the computer", NoccaParams::default()),
        (
            "two players",
            NoccaParams {
                mode: Mode::Two,
                ..NoccaParams::default()
            },
        ),
        (
            "watch",
            NoccaParams {
                mode: Mode::Watch,
                ..NoccaParams::default()
            },
        ),
        (
            "3x3 perfect",
            NoccaParams {
                mode: Mode::Two,
                board: "3x3".parse().unwrap(),
                ..NoccaParams::default()
            },
        ),
    ] {
        let store = Store::in_memory().unwrap();
        let s = session::<Nocca>(params, 3, &store);
        let mut app = game_app(s, store);
        with_help(&format!("nocca {name}"), &mut app, out);
        if params.mode == Mode::Watch {
            continue;
        }
        // A piece selected: the line of what to press next.
        press(&mut app, KeyCode::Enter);
        draw_all(&format!("nocca {name} selected"), &mut app, out);
        press(&mut app, KeyCode::Esc);
        press(&mut app, KeyCode::Char('t'));
        let _ = wait_until(&mut app, |s| !s.contains("thinking…"));
        draw_all(&format!("nocca {name} hint"), &mut app, out);
        press(&mut app, KeyCode::Char('v'));
        draw_all(&format!("nocca {name} values"), &mut app, out);
        press(&mut app, KeyCode::Char('x'));
        press(&mut app, KeyCode::Char('y'));
        draw_all(&format!("nocca {name} end"), &mut app, out);
    }
}

fn twenty48_screens(out: &mut Vec<Drawn>) {
    let store = Store::in_memory().unwrap();
    let s = session::<Twenty48>(Params::default(), 1, &store);
    let mut app = game_app(s, store);
    with_help("2048", &mut app, out);
    press(&mut app, KeyCode::Char('t'));
    let _ = wait_until(&mut app, |s| !s.contains("thinking…"));
    draw_all("2048 hint", &mut app, out);
    let mut store = Store::in_memory().unwrap();
    let s = twenty48_over(&mut store);
    let mut app = game_app(s, store);
    draw_all("2048 game over", &mut app, out);
    // The end box once its review is done: the summary and the key that opens it.
    let _ = wait_until(&mut app, |s| {
        s.contains("c review") && !s.contains("reviewing")
    });
    draw_all("2048 game over, reviewed", &mut app, out);
}

/// Finished games of every game in `store`, for the records and statistics.
fn fill(store: &mut Store) {
    for _ in 0..3 {
        twenty48_over(store);
    }
    let mut s = session::<Mastermind>(MmParams::default(), 7, store);
    s.resign(store);
    let mut s = session::<Nocca>(NoccaParams::default(), 7, store);
    s.resign(store);
}

/// Opens the menu line that holds `label`.
fn open(app: &mut App, label: &str) {
    for _ in 0..40 {
        let s = screen(app, SCREEN_MAX.0, SCREEN_MAX.1);
        if s.lines().any(|l| l.contains('▸') && l.contains(label)) {
            press(app, KeyCode::Enter);
            return;
        }
        press(app, KeyCode::Down);
    }
    panic!("no menu line {label}");
}

fn shared_screens(out: &mut Vec<Drawn>) {
    let mut app = menu_app(Store::in_memory().unwrap());
    with_help("menu", &mut app, out);
    for (title, json) in [
        ("2048", r#"{"size":8,"target":65536}"#),
        (
            "Mastermind",
            r#"{"preset":null,"colours":10,"pegs":8,"guesses":20,"secret_repeats":true,"guess_repeats":true,"digits":false,"role":"maker"}"#,
        ),
        (
            "Nocca Nocca",
            r#"{"mode":"watch","level":"perfect","board":"4x5"}"#,
        ),
    ] {
        let game = parlor::registry::tui()
            .into_iter()
            .find(|g| g.title() == title)
            .unwrap();
        let mut app = common::app::app(
            vec![
                parlor::menu_view(None),
                game.setup(Some(json), &Default::default()),
            ],
            Store::in_memory().unwrap(),
        );
        with_help(&format!("{title} setup"), &mut app, out);
    }
    // Every game's setup as it opens (the defaults: the most settings the Mastermind form shows).
    for game in parlor::registry::tui() {
        let mut app = common::app::app(
            vec![
                parlor::menu_view(None),
                game.setup(None, &Default::default()),
            ],
            Store::in_memory().unwrap(),
        );
        with_help(&format!("{} default setup", game.title()), &mut app, out);
        // The first setting stepped back (a custom Mastermind: every setting shows).
        press(&mut app, KeyCode::Left);
        draw_all(
            &format!("{} setup, first setting changed", game.title()),
            &mut app,
            out,
        );
        // The last setting, scrolled to (the cursor wraps around from the first).
        press(&mut app, KeyCode::Up);
        draw_all(
            &format!("{} setup, last setting", game.title()),
            &mut app,
            out,
        );
    }
    let mut store = Store::in_memory().unwrap();
    fill(&mut store);
    let mut s = session::<Twenty48>(Params::default(), 11, &store);
    s.play(Direction::Left, &mut store).unwrap();
    drop(s);
    let mut app = common::app::app(
        vec![parlor::menu_view(Some(
            "The database was damaged; it was moved aside. Parlor started with an empty one."
                .into(),
        ))],
        store,
    );
    draw_all("menu with a notice", &mut app, out);
    for label in ["History", "Best scores", "Statistics"] {
        open(&mut app, label);
        with_help(label, &mut app, out);
        for i in 0..3 {
            press(&mut app, KeyCode::Right);
            draw_all(&format!("{label} tab {i}"), &mut app, out);
        }
        if label == "History" {
            press(&mut app, KeyCode::Enter);
            with_help("replay", &mut app, out);
            press(&mut app, KeyCode::Char('G'));
            draw_all("replay end", &mut app, out);
            press(&mut app, KeyCode::Char('q'));
            // The review (the coach): while it is made, then ready, a move chosen and its details scrolled.
            press(&mut app, KeyCode::Char('c'));
            draw_all("review", &mut app, out);
            let _ = wait_until(&mut app, |s| s.contains("accuracy:"));
            with_help("review ready", &mut app, out);
            press(&mut app, KeyCode::Down);
            draw_all("review, next move", &mut app, out);
            press(&mut app, KeyCode::PageDown);
            draw_all("review, details scrolled", &mut app, out);
            // Learn from your mistakes: the first puzzle and a move tried there (or why there is none).
            press(&mut app, KeyCode::Char('p'));
            if screen(&mut app, 80, 24).contains("Puzzle 1 of") {
                with_help("puzzle", &mut app, out);
                press(&mut app, KeyCode::Left);
                draw_all("puzzle, a move tried", &mut app, out);
                press(&mut app, KeyCode::Char('x'));
                draw_all("puzzle, the best shown", &mut app, out);
                press(&mut app, KeyCode::Char('q'));
            } else {
                draw_all("review, no puzzle", &mut app, out);
            }
            press(&mut app, KeyCode::Char('q'));
        }
        press(&mut app, KeyCode::Char('q'));
    }
    // The menu after a settings file with many mistakes (as the program words it), and the settings screen.
    let (settings, errors) = parlor::settings::file::parse(
        "theme = \"purple\"\nanimations = 3\n[keys]\nundo = \"q\"\nhint = \"Space\"\n[confirm]\ngive-up = \"maybe\"\n\
         nonsense = 1\n[2048]\nsize = 99\n[mastermind]\ncolours = 42\n[nocca]\nlevel = \"godlike\"\n",
        &parlor::registry::catalog(),
    );
    assert!(errors.len() >= 5, "{errors:?}");
    let problems: Vec<String> = errors
        .iter()
        .map(|(line, m)| format!("/home/someone/.config/parlor/settings.toml line {line}: {m}"))
        .collect();
    let notice = format!(
        "Settings: {} (the rest of the file is used).",
        problems.join("; ")
    );
    let mut app = common::app::app(
        vec![parlor::menu_view(Some(notice))],
        Store::in_memory().unwrap(),
    );
    draw_all("menu with settings mistakes", &mut app, out);
    let view = parlor::tui::settings::SettingsView::new(&settings, None);
    let mut app = common::app::app(
        vec![parlor::menu_view(None), Box::new(view)],
        Store::in_memory().unwrap(),
    );
    with_help("settings", &mut app, out);
}

#[test]
fn every_text_is_shown_as_meant_on_every_screen_at_every_size() {
    let mut drawn = Vec::new();
    shared_screens(&mut drawn);
    twenty48_screens(&mut drawn);
    mastermind_screens(&mut drawn);
    nocca_screens(&mut drawn);
    online::online_screens(&mut drawn);
    let found = faults(&drawn);
    assert!(
        found.is_empty(),
        "{} faults in {} screens:\n{}",
        found.len(),
        drawn.len(),
        found.join("\n")
    );
}

#[test]
fn the_detector_catches_a_cut_word_and_a_single_letter_and_spares_whole_words() {
    let row = |s: &str| {
        format!("{s:<20}")
            .chars()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
    };
    let d = |s: &str, vocabulary_only: bool| Drawn {
        name: "t help".into(),
        size: (20, 1),
        rows: vec![row(s)],
        said: vec![Said {
            area: Rect::new(0, 0, 20, 1),
            intent: Intent::Mark(s.split_whitespace().next().unwrap_or("t").into()),
        }],
        vocabulary_only,
    };
    // What the same text looks like with room to spare.
    let wide = d("or press Enter to answer by hand, or go away", true);
    let cut = faults(&[
        d("or press Enter to an", false),
        d("    or press Enter t", false),
        wide,
    ]);
    assert_eq!(cut.len(), 2, "{cut:?}");
    let wide = d("or press Enter to go away", true);
    let fine = faults(&[
        d("or press Enter to go", false),
        d("go away            ", false),
        d("short…              ", false),
        wide,
    ]);
    assert!(fine.is_empty(), "{fine:?}");
    let joined = faults(&[
        d("one move.The next   ", false),
        d("[games.GAME] x      ", false),
    ]);
    assert_eq!(joined.len(), 1, "{joined:?}");
}

#[test]
fn the_intent_check_catches_a_text_cut_at_a_boxs_bottom_and_a_lost_mark_and_spares_wrapped_text() {
    let rows: Vec<Vec<String>> = [
        "Enter starts: 2048  ",
        "4x4 target=2048     ",
        "Score 12   Black to…",
    ]
    .iter()
    .map(|r| r.chars().map(|c| c.to_string()).collect())
    .collect();
    let said = |area: Rect, intent: Intent| Said { area, intent };
    let drawn = |said: Vec<Said>| Drawn {
        name: "t help".into(),
        size: (20, 3),
        rows: rows.clone(),
        said,
        vocabulary_only: false,
    };
    // Wrapped over two rows of its area: whole.
    let fine = intent_faults(&drawn(vec![said(
        Rect::new(0, 0, 20, 2),
        Intent::Whole("Enter starts: 2048 4x4 target=2048".into()),
    )]));
    assert!(fine.is_empty(), "{fine:?}");
    // The same text in a box one row high: its second row runs past the bottom.
    let cut = intent_faults(&drawn(vec![said(
        Rect::new(0, 0, 20, 1),
        Intent::Whole("Enter starts: 2048 4x4 target=2048".into()),
    )]));
    assert_eq!(cut.len(), 1, "{cut:?}");
    // A status line shortened past who is to move, and an area laid out below the screen.
    let lost = intent_faults(&drawn(vec![
        said(Rect::new(0, 2, 20, 1), Intent::Mark("Black to move".into())),
        said(Rect::new(0, 3, 20, 1), Intent::Whole("Game over".into())),
    ]));
    assert_eq!(lost.len(), 2, "{lost:?}");
    // A screen that says nothing is a fault too: its texts would go unchecked.
    assert_eq!(intent_faults(&drawn(Vec::new())).len(), 1);
}
