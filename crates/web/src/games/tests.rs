//! The faces played natively over an in-memory store: the same sessions and boards the page draws.

use crate::faces::play::Playing;
use crate::faces::*;
use crate::store::{MapPersist, WebStore};
use parlor::storage::Storage;
use std::rc::Rc;

fn store() -> WebStore {
    WebStore::open(Rc::new(MapPersist::default()), 0).store
}

fn start(id: &str, values: &[(&str, &str)]) -> (Box<dyn Playing>, WebStore) {
    let store = store();
    let contexts = contexts();
    let face = find(id).unwrap();
    let values: Vec<(String, String)> = values
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let chosen = face.any().params_from(&values, &contexts);
    assert!(chosen.refused.is_empty(), "{:?}", chosen.refused);
    (
        face.start(&chosen.json, Some(7), &store, &contexts)
            .unwrap(),
        store,
    )
}

#[test]
fn every_registered_game_has_a_face_in_menu_order() {
    let faces: Vec<&str> = FACES.iter().map(|f| f.any().id()).collect();
    let games: Vec<&str> = parlor::registry::any().iter().map(|g| g.id()).collect();
    assert_eq!(faces, games);
}

#[test]
fn a_2048_game_slides_undoes_and_is_recorded_when_given_up() {
    let (mut p, store) = start("2048", &[]);
    let before = p.html();
    assert!(before.contains("class=\"b2048\""), "{before}");
    for key in ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "h", "k"] {
        p.key(key);
    }
    let after = p.html();
    assert!(after.contains("Move "), "the line names the move: {after}");
    p.act("undo");
    assert!(p.html().contains("Undid 1 move"));
    p.act("giveup");
    assert!(p.html().contains("Give up this game?"));
    p.act("yes");
    assert!(p.html().contains("Game over"));
    let history = store.history(Some("2048"), 10).unwrap();
    assert_eq!(history.games.len(), 1, "the game given up is recorded");
}

#[test]
fn a_mastermind_guess_is_made_by_taps_and_answered_with_key_pegs() {
    let (mut p, _store) = start("mastermind", &[]);
    p.act("b:submit");
    assert!(p.html().contains("Choose 4 colours first"), "{}", p.html());
    for c in ["b:c:0", "b:c:1", "b:c:2", "b:c:3"] {
        p.act(c);
    }
    p.act("b:del:3");
    p.act("b:c:3");
    p.act("b:submit");
    let html = p.html();
    assert!(html.contains("Guess 1: RED GREEN YELLOW BLUE"), "{html}");
    assert!(html.contains("class=\"keys\""), "{html}");
}

#[test]
fn a_nocca_piece_is_selected_and_moved_and_the_computer_answers() {
    let (mut p, _store) = start("nocca", &[("level", "beginner")]);
    let html = p.html();
    let at = html.find("data-act=\"b:sel:").expect("a piece to select");
    let act: String = html[at + 10..].chars().take_while(|&c| c != '"').collect();
    p.act(&act);
    let html = p.html();
    let at = html.find("data-act=\"b:to:").expect("its targets marked");
    let to: String = html[at + 10..].chars().take_while(|&c| c != '"').collect();
    p.act(&to);
    let html = p.html();
    assert!(
        html.contains("Computer&#39;s move 2: "),
        "the computer answered here (no worker): {html}"
    );
}

#[test]
fn a_codemaker_marks_the_computers_guesses_by_taps_and_a_contradiction_is_refused() {
    let (mut p, store) = start("mastermind", &[("role", "maker")]);
    let html = p.html();
    assert!(html.contains("data-act=\"b:byhand\""), "{html}");
    assert!(
        html.contains(
            "<button disabled type=\"button\" class=\"cmd primary\" data-act=\"b:secret\""
        ),
        "Hide it waits for a whole code: {html}"
    );
    p.act("b:byhand");
    let html = p.html();
    assert!(
        html.contains("id=\"mm-guess\""),
        "the computer's guess: {html}"
    );
    assert!(
        html.contains("aria-label=\"Key peg 1: none, tap to change\""),
        "{html}"
    );
    // No right colour in a guess of three colours leaves three for a code of four different ones: no code fits.
    p.act("b:answer");
    let html = p.html();
    assert!(
        html.contains("Not taken: no code fits this answer"),
        "{html}"
    );
    assert!(
        !html.contains("aria-label=\"Guess 1: "),
        "nothing recorded: {html}"
    );
    // Key peg 1 black, 2 white (two taps): the answer 1 black, 1 white.
    for act in ["b:mark:0", "b:mark:1", "b:mark:1"] {
        p.act(act);
    }
    let html = p.html();
    assert!(html.contains("Your answer: 1 black, 1 white"), "{html}");
    p.act("b:answer");
    let html = p.html();
    assert!(
        html.contains("aria-label=\"1 black, 1 white\""),
        "the answer's key pegs: {html}"
    );
    assert!(
        html.contains("Guess 2"),
        "the computer's next guess: {html}"
    );
    // 4 black is the code found: the game ends and is recorded.
    for k in 0..4 {
        p.act(&format!("b:mark:{k}"));
    }
    p.act("b:answer");
    let html = p.html();
    assert!(
        html.contains("The computer found your code in 2 guesses"),
        "{html}"
    );
    assert_eq!(
        store.history(Some("mastermind"), 10).unwrap().games.len(),
        1
    );
}

#[test]
fn a_codemakers_hidden_code_is_scored_by_the_computer() {
    let (mut p, _store) = start("mastermind", &[("role", "maker")]);
    for c in ["b:c:0", "b:c:1", "b:c:2", "b:c:3"] {
        p.act(c);
    }
    p.act("b:secret");
    let html = p.html();
    assert!(
        html.contains("The computer found your code"),
        "played to the end here (no worker): {html}"
    );
}

#[test]
fn the_theme_in_use_is_the_browsers_for_auto_and_the_settings_otherwise() {
    use parlor::settings::ThemeName;
    use settings::theme_in_use;
    assert_eq!(theme_in_use(ThemeName::Auto, true), ThemeName::Light);
    assert_eq!(theme_in_use(ThemeName::Auto, false), ThemeName::Dark);
    for named in [
        ThemeName::Dark,
        ThemeName::Light,
        ThemeName::HighContrast,
        ThemeName::Mono,
    ] {
        assert_eq!(theme_in_use(named, true), named);
        assert_eq!(theme_in_use(named, false), named);
    }
}

#[test]
fn a_nocca_piece_is_selected_and_stepped_by_the_terminals_keys() {
    let (mut p, _store) = start("nocca", &[("level", "beginner")]);
    p.key("8");
    assert!(p.html().contains("Select a piece first"), "{}", p.html());
    p.key("ArrowRight");
    p.key("h");
    let html = p.html();
    assert!(
        html.contains("class=\"sq cursor mine\" data-act=\"b:sel:0:2\""),
        "the cursor shows: {html}"
    );
    p.key("Enter");
    let html = p.html();
    assert!(html.contains(" selected: "), "{html}");
    assert!(
        html.contains("class=\"sq selected cursor mine\" data-act=\"b:sel:0:2\""),
        "{html}"
    );
    p.key("5");
    assert!(p.html().contains("Selection cancelled."));
    p.key(" ");
    p.key("8");
    let html = p.html();
    assert!(
        html.contains("id=\"score\">2<"),
        "8 stepped the piece and the computer answered: {html}"
    );
    assert!(html.contains("Computer&#39;s move 2: "), "{html}");
}

/// The value overlay on the graphical face, as the terminal's `v`: a Values button on a solved board only, each
/// movable piece showing its best move's value once the table is there (the page ticks until it comes), each
/// target of a selected piece its move's value, and the same words as the terminal when it is turned off.
#[test]
fn nocca_values_show_on_a_solved_board_and_say_what_the_terminal_says() {
    let (mut p, _store) = start("nocca", &[("board", "3x3"), ("level", "beginner")]);
    let html = p.html();
    assert!(
        html.contains("data-act=\"b:values\""),
        "a Values button: {html}"
    );
    assert!(!html.contains("class=\"value\""), "off at first: {html}");
    p.act("b:values");
    // The 3x3 table is solved here (no worker) in the background: the ticks wait for it, a bounded number.
    let mut html = p.html();
    for _ in 0..500 {
        if html.contains("class=\"value\"") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        if p.tick() {
            html = p.html();
        }
    }
    assert!(html.contains("class=\"value\""), "values drawn: {html}");
    assert!(html.contains(", value W") || html.contains(", value L") || html.contains(", value D"));
    assert!(
        html.contains("aria-pressed=\"true\" aria-label=\"Values of the moves\""),
        "{html}"
    );
    // With a piece selected, its targets show their moves' values.
    let at = html.find("data-act=\"b:sel:").expect("a piece to select");
    let act: String = html[at + 10..].chars().take_while(|&c| c != '"').collect();
    p.act(&act);
    let html = p.html();
    let target = html.find("data-act=\"b:to:").expect("its targets");
    assert!(html[target..].contains("class=\"value\""), "{html}");
    p.key("v");
    let html = p.html();
    assert!(html.contains("Values hidden"), "{html}");
    assert!(!html.contains("class=\"value\""), "{html}");
    // A board with no solved table offers no Values button, and v says why.
    let (mut big, _store) = start("nocca", &[("level", "beginner")]);
    assert!(!big.html().contains("data-act=\"b:values\""));
    big.key("v");
    assert!(
        big.html().contains("No values on this board"),
        "{}",
        big.html()
    );
}
