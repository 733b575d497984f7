//! The record and settings screens' HTML builders, natively over an in-memory store: what a user would see on each
//! (its words, read with the tags taken out) and its buttons with their accessible names (the `aria-label`, else
//! the text), enabled or not.

use crate::faces::history::history_html;
use crate::faces::play::Playing;
use crate::faces::scores::scores_html;
use crate::faces::settings::{SettingsScreen, catalog};
use crate::faces::stats::stats_html;
use crate::faces::*;
use crate::store::{MapPersist, Persist, WebKeeper, WebStore};
use parlor::storage::Storage;
use std::rc::Rc;

/// The text a user reads: the tags taken out, the entities read, the spaces collapsed.
fn words(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for ch in html.chars() {
        match ch {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A button as a user meets it: its action, its accessible name, whether it can be pressed.
#[derive(Debug)]
struct Shown {
    act: String,
    name: String,
    enabled: bool,
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = tag[at..].find('"')?;
    Some(words(&tag[at..at + end]))
}

/// Every button of `html`, in order.
fn buttons(html: &str) -> Vec<Shown> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("<button") {
        let tag_end = rest[at..].find('>').map_or(rest.len(), |e| at + e);
        let tag = &rest[at..tag_end];
        let close = rest[tag_end..]
            .find("</button>")
            .map_or(rest.len(), |e| tag_end + e);
        let text = words(&rest[tag_end + 1..close]);
        out.push(Shown {
            act: attribute(tag, "data-act").unwrap_or_default(),
            name: attribute(tag, "aria-label").unwrap_or(text),
            enabled: !tag.contains(" disabled"),
        });
        rest = &rest[close..];
    }
    out
}

/// The button that asks for `act`.
fn button<'a>(all: &'a [Shown], act: &str) -> &'a Shown {
    all.iter()
        .find(|b| b.act == act)
        .unwrap_or_else(|| panic!("no button {act} among {all:#?}"))
}

fn store() -> WebStore {
    WebStore::open(Rc::new(MapPersist::default()), 0).store
}

/// A game of `id` started from seed 7, moved by `acts` (taps or keys) and given up.
fn give_up(store: &WebStore, id: &str, keys: &[&str]) {
    let contexts = contexts();
    let face = find(id).unwrap();
    let chosen = face.any().params_from(&[], &contexts);
    let mut p: Box<dyn Playing> = face.start(&chosen.json, Some(7), store, &contexts).unwrap();
    for k in keys {
        p.key(k);
    }
    p.act("giveup");
    p.act("yes");
}

/// A store with a 2048 game given up after three slides, then a Mastermind game given up after one guess.
fn played() -> WebStore {
    let store = store();
    give_up(&store, "2048", &["ArrowLeft", "ArrowUp", "ArrowRight"]);
    give_up(&store, "mastermind", &["R", "G", "Y", "U", "Enter"]);
    store
}

#[test]
fn the_history_lists_each_finished_game_newest_first_as_a_named_replay_button() {
    let empty = history_html(FACES, &store(), "");
    assert!(words(&empty).starts_with("History"), "{empty}");
    assert!(words(&empty).contains("No finished game yet."), "{empty}");
    assert_eq!(button(&buttons(&empty), "menu").name, "Back to the menu");

    let html = history_html(FACES, &played(), "Game #9 is no longer in the history.");
    let seen = words(&html);
    assert!(
        seen.contains("Game #9 is no longer in the history."),
        "{seen}"
    );
    let replays: Vec<Shown> = buttons(&html)
        .into_iter()
        .filter(|b| b.act.starts_with("replay:"))
        .collect();
    assert_eq!(replays.len(), 2, "{html}");
    assert!(
        replays[0]
            .name
            .starts_with("Replay Mastermind seed, gave up, guesses 1, "),
        "newest first: {:?}",
        replays[0].name
    );
    assert!(
        replays[1].name.starts_with("Replay 2048 "),
        "{:?}",
        replays[1].name
    );
    assert!(
        replays[1].name.contains(", gave up, score "),
        "{:?}",
        replays[1].name
    );
    assert!(
        seen.contains("Mastermind seed · gave up · guesses 1"),
        "{seen}"
    );
}

#[test]
fn a_replay_shows_its_move_and_the_buttons_that_can_move_it() {
    let store = played();
    let games = store.history(Some("2048"), 10).unwrap().games;
    let mut r = find("2048").unwrap().replay(&games[0]).unwrap();
    let html = r.html();
    let seen = words(&html);
    assert!(seen.starts_with("Replay · 2048"), "{seen}");
    assert!(seen.contains("Move 0 of 3 · start"), "{seen}");
    let b = buttons(&html);
    assert!(!button(&b, "r:first").enabled && button(&b, "r:first").name == "To the start");
    assert!(!button(&b, "r:back").enabled && button(&b, "r:back").name == "One move back");
    assert!(button(&b, "r:next").enabled && button(&b, "r:next").name == "One move on");
    assert!(button(&b, "r:last").enabled && button(&b, "r:last").name == "To the end");
    assert_eq!(button(&b, "history").name, "Back to the history");
    assert_eq!(r.said(), "Replay, move 0 of 3: the start");

    r.act("r:last");
    let html = r.html();
    let seen = words(&html);
    assert!(seen.contains("Move 3 of 3 · "), "{seen}");
    assert!(seen.contains("Given up"), "how the game ended: {seen}");
    let b = buttons(&html);
    assert!(!button(&b, "r:next").enabled && !button(&b, "r:last").enabled);
    assert!(button(&b, "r:first").enabled && button(&b, "r:back").enabled);
}

#[test]
fn the_best_scores_have_a_tab_per_game_and_say_why_a_game_given_up_does_not_rank() {
    let empty = scores_html(FACES, 0, &store());
    assert!(
        words(&empty).contains("No finished 2048 game yet."),
        "{empty}"
    );

    let html = scores_html(FACES, 0, &played());
    let b = buttons(&html);
    let tabs: Vec<&str> = b
        .iter()
        .filter(|b| b.act.starts_with("scores:"))
        .map(|b| b.name.as_str())
        .collect();
    assert_eq!(tabs, ["2048", "Mastermind", "Nocca Nocca"]);
    assert!(
        html.contains("data-act=\"scores:0\" aria-pressed=\"true\""),
        "{html}"
    );
    assert_eq!(button(&b, "menu").name, "Back to the menu");
    let seen = words(&html);
    assert!(seen.starts_with("Best scores"), "{seen}");
    assert!(seen.contains("1 played · 0 won"), "{seen}");
    assert!(seen.contains("No game ranks yet"), "{seen}");
}

#[test]
fn the_statistics_count_the_games_played_and_name_each_chart() {
    let empty = stats_html(FACES, 1, &store());
    assert!(
        words(&empty).contains("No finished Mastermind game yet."),
        "{empty}"
    );

    let html = stats_html(FACES, 0, &played());
    let seen = words(&html);
    assert!(seen.starts_with("Statistics"), "{seen}");
    assert!(seen.contains("played 1"), "{seen}");
    assert!(
        html.contains("<figcaption>"),
        "the charts are named: {html}"
    );
    assert!(
        html.contains("data-act=\"stats:0\" aria-pressed=\"true\""),
        "{html}"
    );
    assert_eq!(button(&buttons(&html), "menu").name, "Back to the menu");
}

#[test]
fn the_settings_show_each_setting_as_a_named_select_and_say_what_a_change_did() {
    let persist: Rc<dyn Persist> = Rc::new(MapPersist::default());
    let mut screen = SettingsScreen::new(WebKeeper::new(persist.clone()), &catalog());
    let html = screen.html();
    let seen = words(&html);
    assert!(seen.starts_with("Settings"), "{seen}");
    assert!(seen.contains("General"), "{seen}");
    assert!(
        seen.contains("Keys are remapped on the terminal face"),
        "{seen}"
    );
    assert_eq!(button(&buttons(&html), "menu").name, "Back to the menu");
    let theme = html.find("data-key=\"theme\"").expect("a theme select");
    let label_start = html[..theme].rfind("<label").unwrap_or(0);
    assert!(
        words(&html[label_start..theme + 1]).starts_with("Theme"),
        "the select is labelled: {}",
        &html[label_start..theme]
    );
    let select_end = theme + html[theme..].find("</select>").unwrap_or(0);
    let options = words(&html[theme..select_end]);
    for name in ["auto", "dark", "light", "high-contrast", "mono"] {
        assert!(options.contains(name), "{name} offered: {options}");
    }

    let row = html[..theme]
        .rfind("data-set=\"row:")
        .map(|at| {
            html[at + 14..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|r| r.parse::<usize>().ok())
        .expect("the theme's row");
    screen.set(row, "light");
    let html = screen.html();
    assert!(
        words(&html).contains("Theme: saved in"),
        "the change is said: {}",
        words(&html)
    );
    assert!(html.contains("<option value=\"light\" selected>"), "{html}");
    assert!(
        persist
            .get(crate::store::SETTINGS_KEY)
            .is_some_and(|t| t.contains("theme = \"light\"")),
        "kept as the terminal face keeps it"
    );
    screen.set(row, "purple");
    assert!(
        words(&screen.html()).contains("Theme: not changed: "),
        "{}",
        words(&screen.html())
    );
}
