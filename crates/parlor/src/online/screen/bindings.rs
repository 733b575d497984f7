//! The online screen's key tables: the lobby's (with each daily challenge's key, from the challenge), a game's
//! (the rooms' board's keys come first, from the board; then the online game's own), a question's and a typed
//! line's. The same tables drive the keys, the hint bar (which follows the state: what is under the lobby's cursor,
//! a game in play or over, a question asked) and the help (one heading per table), and every message that names a
//! key takes its name from them, so a key the settings remap (give up, new game) is named as bound.

use crate::input::KeyCode;
use crate::tui::daily::Daily;
use crate::tui::keys::{self, Answer, Binding, QUESTION, TYPING, actions, bar, common, more};

/// What the keys do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Cmd {
    /// Lobby: the cursor up or down the list.
    Row(i32),
    /// Lobby: accept the challenge under the cursor, or open the game under it.
    Open,
    /// Lobby: accept the challenge under the cursor.
    Accept,
    /// Lobby: decline the challenge under the cursor.
    Decline,
    /// Lobby: challenge a player (asks the name, board, clock, rated).
    Challenge,
    /// Lobby: join the rated queue (asks the board and clock), or leave it.
    Queue,
    /// Lobby: the daily challenges and their leaderboards.
    Daily,
    /// Lobby: open the daily challenge of this number (in the lobby's order).
    OpenDaily(usize),
    /// Lobby: yesterday's daily games, their seeds told now that the day is over.
    PastDay,
    /// Game: offer (or accept) a rematch of the finished game.
    Rematch,
    /// Switch between the lobby and the game in front.
    Switch,
    /// Add the finished game (in front, or under the cursor) to the local history.
    Import,
    /// Back: from a game to the lobby, from the lobby out.
    Back,
    /// Game: resign (asks first).
    Resign,
    /// Game: decline the rematch offered.
    DeclineRematch,
}

/// The lobby's keys before the daily challenges'.
const LOBBY_FIRST: &[Binding<Cmd>] = &[
    bar(common::ENTER, "Enter", "accept / open", Cmd::Open),
    bar(&[KeyCode::Char('c')], "c", "challenge", Cmd::Challenge),
    more(common::UP, "↑ k w", "cursor up", Cmd::Row(-1)),
    more(common::DOWN, "↓ j s", "cursor down", Cmd::Row(1)),
    more(
        &[KeyCode::Char('y')],
        "y",
        "accept the challenge under the cursor",
        Cmd::Accept,
    ),
    bar(&[KeyCode::Char('n')], "n", "decline / cancel", Cmd::Decline),
    bar(&[KeyCode::Char('u')], "u", "queue", Cmd::Queue),
    more(
        &[KeyCode::Char('D')],
        "D",
        "the daily challenges and their leaderboards",
        Cmd::Daily,
    ),
    more(&[KeyCode::Char('P')], "P", PAST_DAY, Cmd::PastDay),
];

/// What the lobby's `P` says.
const PAST_DAY: &str = "yesterday's daily games, with their seeds (to play the deal again)";

/// The lobby's keys after the daily challenges'.
const LOBBY_LAST: &[Binding<Cmd>] = &[
    bar(
        &[KeyCode::Tab, KeyCode::Char('g')],
        "Tab",
        "game",
        Cmd::Switch,
    ),
    more(
        &[KeyCode::Char('i')],
        "i",
        "add the finished game under the cursor to the local history (replayable from the menu)",
        Cmd::Import,
    ),
    bar(common::BACK, "q", "quit", Cmd::Back),
];

/// The lobby's keys, with the key of each of `dailies`.
pub(super) fn lobby(dailies: &[Box<dyn Daily>]) -> Vec<Binding<Cmd>> {
    let mut table = LOBBY_FIRST.to_vec();
    table.extend(dailies.iter().enumerate().map(|(i, d)| {
        let k = d.lobby_key();
        more(k.keys, k.label, k.help, Cmd::OpenDaily(i))
    }));
    table.extend_from_slice(LOBBY_LAST);
    table
}

/// The online game's own keys (the board's come first, from the board).
pub(super) const GAME: &[Binding<Cmd>] = &[
    // Resigning and a rematch take the keys of giving up and of a new game, which the settings may remap.
    bar(&actions::GIVE_UP, "x", "resign (asks first)", Cmd::Resign),
    more(
        &actions::NEW_GAME,
        "r",
        "rematch: offer one after the end, or accept the one offered",
        Cmd::Rematch,
    ),
    more(
        &[KeyCode::Char('n')],
        "n",
        "decline the rematch offered",
        Cmd::DeclineRematch,
    ),
    more(
        &[KeyCode::Char('i')],
        "i",
        "add the finished game to the local history (replayable from the menu)",
        Cmd::Import,
    ),
    bar(
        &[KeyCode::Tab, KeyCode::Char('g')],
        "Tab",
        "lobby",
        Cmd::Switch,
    ),
    bar(
        &[KeyCode::Char('q'), KeyCode::Char('Q')],
        "q",
        "lobby",
        Cmd::Back,
    ),
];

/// The answer keys of a yes/no question: `y Enter` and `n Esc`, as [`QUESTION`] binds them.
pub(super) fn answer_keys() -> (&'static str, &'static str) {
    (
        keys::label_of(QUESTION, Answer::Yes),
        keys::label_of(QUESTION, Answer::No),
    )
}

/// The help's key rows: each table under its heading (a row of its own, with no description), every key of
/// each binding: the lobby's, a game's (`board`'s keys first), each daily challenge's own, a question's, a typed
/// line's.
pub(super) fn help_rows(
    board: Vec<(String, &'static str)>,
    dailies: &[Box<dyn Daily>],
) -> Vec<(String, &'static str)> {
    let mut rows = Vec::new();
    let mut table = |heading: &str, keys: Vec<(String, &'static str)>| {
        rows.push((heading.to_string(), ""));
        rows.extend(keys);
    };
    table("Lobby:", keys::help_keys(&lobby(dailies)));
    let mut game = board;
    game.extend(keys::help_keys(GAME));
    table("Game:", game);
    for d in dailies {
        rows.extend(d.help_rows());
    }
    let mut table = |heading: &str, keys: Vec<(String, &'static str)>| {
        rows.push((heading.to_string(), ""));
        rows.extend(keys);
    };
    table("Question:", keys::help_keys(QUESTION));
    table("Typing:", keys::help_keys(TYPING));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{KeyEvent, KeyModifiers};
    use keys::key_of;

    fn dailies() -> Vec<Box<dyn Daily>> {
        crate::registry::online()
            .dailies
            .iter()
            .map(|d| d.fresh())
            .collect()
    }

    fn board_rows() -> Vec<(String, &'static str)> {
        crate::registry::online().room.board().help_rows()
    }

    #[test]
    fn no_table_binds_a_key_twice() {
        assert!(keys::clashes(&lobby(&dailies())).is_empty());
        assert!(keys::clashes(GAME).is_empty());
        assert!(keys::clashes(TYPING).is_empty());
        assert!(keys::clashes(QUESTION).is_empty());
        // The board's keys come first in a game: none of the game's own is one of them.
        let board = crate::registry::online().room.board();
        for b in GAME {
            for &k in b.keys {
                let key = KeyEvent::new(k, KeyModifiers::NONE);
                assert!(!board.binds(&key), "{k:?} is the board's and the game's");
            }
        }
    }

    #[test]
    fn the_help_has_one_heading_per_table_and_names_keys_as_remapped() {
        let rows = help_rows(board_rows(), &dailies());
        let headings: Vec<&str> = rows
            .iter()
            .filter(|r| r.1.is_empty())
            .map(|r| r.0.as_str())
            .collect();
        assert_eq!(
            headings,
            [
                "Lobby:",
                "Game:",
                "ranked 2048 today:",
                "Question:",
                "Typing:"
            ]
        );
        assert!(rows.contains(&("x".to_string(), "resign (asks first)")));
        assert_eq!(key_of(GAME, Cmd::Resign), "x");
        // Give up on e, a new game on f: resigning and the rematch follow, in the help and in messages.
        let mut keymap: Vec<Vec<KeyCode>> =
            actions::ALL.iter().map(|a| a.default.to_vec()).collect();
        let at = |name: &str| actions::find(name).unwrap();
        keymap[at("give-up")] = vec![KeyCode::Char('e')];
        keymap[at("new-game")] = vec![KeyCode::Char('f')];
        keys::set_keymap(&keymap);
        let rows = help_rows(board_rows(), &dailies());
        assert!(rows.contains(&("e".to_string(), "resign (asks first)")));
        assert_eq!(key_of(GAME, Cmd::Resign), "e");
        assert_eq!(key_of(GAME, Cmd::Rematch), "f");
        keys::set_keymap(&[]);
        assert_eq!(key_of(GAME, Cmd::Resign), "x");
    }
}
