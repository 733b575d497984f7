//! The online screen's key tables: the lobby's, a game's (the local Nocca board's keys and the online game's own),
//! today's 2048's, a question's and a typed line's. The same tables drive the keys, the hint bar (which follows the
//! state: what is under the lobby's cursor, a game in play or over, a question asked) and the help (one heading
//! per table), and every message that names a key takes its name from them, so a key the settings remap (give up,
//! new game, undo) is named as bound.

use crate::games::nocca::screen::play_bindings;
use crate::input::KeyCode;
use crate::tui::keys::{self, Answer, Binding, QUESTION, actions, bar, common, more};
use nocca::Dir;

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
    /// Lobby: play today's 2048 here.
    Play2048,
    /// Lobby: a guess at today's Mastermind (asks the code).
    Guess,
    /// 2048 of the day: slide.
    Slide(twenty48::Direction),
    /// 2048 of the day: undo the last slide (the game then goes on the assisted board).
    Undo,
    /// 2048 of the day: hand the game in to be replayed and ranked by the server.
    Submit,
    /// Game: offer (or accept) a rematch of the finished game.
    Rematch,
    /// Switch between the lobby and the game in front.
    Switch,
    /// Add the finished game (in front, or under the cursor) to the local history.
    Import,
    /// Back: from a game to the lobby, from the lobby out.
    Back,
    /// Game: the cursor by (rows, columns).
    Cursor(i32, i32),
    /// Game: select the piece under the cursor, or step to the target under it.
    Choose,
    /// Game: step the selected piece.
    Step(Dir),
    /// Game: cancel the selection (Esc with none: back to the lobby).
    Cancel,
    /// Game: resign (asks first).
    Resign,
    /// Game: decline the rematch offered.
    DeclineRematch,
}

/// The lobby's keys.
pub(super) const LOBBY: &[Binding<Cmd>] = &[
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
    more(
        &[KeyCode::Char('2')],
        "2",
        "play today's 2048 here (the server replays it and ranks its score)",
        Cmd::Play2048,
    ),
    more(
        &[KeyCode::Char('m')],
        "m",
        "a guess at today's Mastermind (scored by the server)",
        Cmd::Guess,
    ),
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

/// The game's keys: the local Nocca board's (cursor, select, steps, cancel), then the online game's own.
pub(super) const GAME: &[Binding<Cmd>] = play_bindings!(
    "←↓↑→ Enter",
    "select",
    true,
    &[KeyCode::Char('5'), KeyCode::Esc],
    "cancel the selection (Esc with none: the lobby)",
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
);

/// The keys of today's 2048, played on this screen.
pub(super) const DAILY_2048: &[Binding<Cmd>] = &[
    Binding {
        keys: &[],
        label: "↑←↓→",
        help: "slide",
        in_bar: true,
        cmd: Cmd::Slide(twenty48::Direction::Up),
    },
    more(
        common::UP,
        "↑ w k",
        "slide up",
        Cmd::Slide(twenty48::Direction::Up),
    ),
    more(
        common::DOWN,
        "↓ s j",
        "slide down",
        Cmd::Slide(twenty48::Direction::Down),
    ),
    more(
        common::LEFT,
        "← a h",
        "slide left",
        Cmd::Slide(twenty48::Direction::Left),
    ),
    more(
        common::RIGHT,
        "→ d l",
        "slide right",
        Cmd::Slide(twenty48::Direction::Right),
    ),
    // Undo takes the key of undo in every game, which the settings may remap.
    bar(
        &actions::UNDO,
        "u",
        "undo (the game then goes on the assisted board)",
        Cmd::Undo,
    ),
    bar(
        common::ENTER,
        "Enter",
        "hand in (the server replays it and ranks its score)",
        Cmd::Submit,
    ),
    bar(
        &[KeyCode::Char('q'), KeyCode::Esc],
        "q",
        "drop it (nothing handed in)",
        Cmd::Back,
    ),
];

/// What the keys do while a line is typed (a challenge's or the queue's terms, a guess).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Typing {
    /// Send what was typed.
    Send,
    /// Send nothing.
    Cancel,
    /// Erase the last character.
    Erase,
}

/// The keys of a line being typed (every other key types itself).
pub(super) const TYPING: &[Binding<Typing>] = &[
    bar(&[KeyCode::Enter], "Enter", "send", Typing::Send),
    bar(&[KeyCode::Esc], "Esc", "cancel", Typing::Cancel),
    bar(&[KeyCode::Backspace], "Backspace", "erase", Typing::Erase),
];

/// The first binding of `cmd` in `table` that has keys, with its keys and label as the settings bind them.
fn bound<C: Copy + PartialEq>(table: &[Binding<C>], cmd: C) -> Option<(keys::Keys, &'static str)> {
    table
        .iter()
        .find(|b| b.cmd == cmd && !b.keys.is_empty())
        .map(|b| keys::action_keys(b.keys, b.label))
}

/// The key of `cmd` in `table` as the settings bind it (`x`, or the key give-up is remapped to), for a message:
/// the first key of its first binding that has keys.
pub(super) fn key_of<C: Copy + PartialEq>(table: &[Binding<C>], cmd: C) -> String {
    bound(table, cmd)
        .and_then(|(k, _)| k.first().copied())
        .map_or_else(|| "?".to_string(), keys::key_name)
}

/// The label of `cmd`'s keys in `table` as the settings bind them (`y Enter`), for the hint bar.
fn label_of<C: Copy + PartialEq>(table: &[Binding<C>], cmd: C) -> &'static str {
    bound(table, cmd).map_or("?", |(_, label)| label)
}

/// The answer keys of a yes/no question: `y Enter` and `n Esc`, as [`QUESTION`] binds them.
pub(super) fn answer_keys() -> (&'static str, &'static str) {
    (
        label_of(QUESTION, Answer::Yes),
        label_of(QUESTION, Answer::No),
    )
}

/// A hint bar: for each command wanted, its keys in `table` (the first binding of it: a summary such as
/// `←↓↑→ Enter` where there is one) and what it does here (its own words unless given).
pub(super) fn hints<C: Copy + PartialEq>(
    table: &[Binding<C>],
    wanted: &[(C, Option<&'static str>)],
) -> Vec<(&'static str, &'static str)> {
    wanted
        .iter()
        .filter_map(|&(cmd, words)| {
            table.iter().find(|b| b.cmd == cmd).map(|b| {
                (
                    keys::action_keys(b.keys, b.label).1,
                    words.unwrap_or(b.help),
                )
            })
        })
        .collect()
}

/// The help's key rows: each table under its heading (a row of its own, with no description), every key of
/// each binding.
pub(super) fn help_rows() -> Vec<(String, &'static str)> {
    let mut rows = Vec::new();
    let mut table = |heading: &str, keys: Vec<(String, &'static str)>| {
        rows.push((heading.to_string(), ""));
        rows.extend(keys);
    };
    table("Lobby:", keys::help_keys(LOBBY));
    table("Game:", keys::help_keys(GAME));
    table("2048 today:", keys::help_keys(DAILY_2048));
    table("Question:", keys::help_keys(QUESTION));
    table("Typing:", keys::help_keys(TYPING));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_table_binds_a_key_twice() {
        assert!(keys::clashes(LOBBY).is_empty());
        assert!(keys::clashes(GAME).is_empty());
        assert!(keys::clashes(DAILY_2048).is_empty());
        assert!(keys::clashes(TYPING).is_empty());
        assert!(keys::clashes(QUESTION).is_empty());
    }

    #[test]
    fn the_help_has_one_heading_per_table_and_names_keys_as_remapped() {
        let rows = help_rows();
        let headings: Vec<&str> = rows
            .iter()
            .filter(|r| r.1.is_empty())
            .map(|r| r.0.as_str())
            .collect();
        assert_eq!(
            headings,
            ["Lobby:", "Game:", "2048 today:", "Question:", "Typing:"]
        );
        assert!(rows.contains(&("x".to_string(), "resign (asks first)")));
        assert_eq!(key_of(GAME, Cmd::Resign), "x");
        // Give up on e, a new game on f: resigning and the rematch follow, in the help and in messages.
        let mut keymap: Vec<Vec<KeyCode>> =
            actions::ALL.iter().map(|a| a.default.to_vec()).collect();
        let at = |name: &str| actions::find(name).unwrap();
        keymap[at("give-up")] = vec![KeyCode::Char('e')];
        keymap[at("new-game")] = vec![KeyCode::Char('f')];
        keymap[at("undo")] = vec![KeyCode::Char('z')];
        keys::set_keymap(&keymap);
        let rows = help_rows();
        assert!(rows.contains(&("e".to_string(), "resign (asks first)")));
        assert_eq!(key_of(GAME, Cmd::Resign), "e");
        assert_eq!(key_of(GAME, Cmd::Rematch), "f");
        assert_eq!(
            hints(DAILY_2048, &[(Cmd::Undo, None)]),
            [("z", "undo (the game then goes on the assisted board)")]
        );
        keys::set_keymap(&[]);
        assert_eq!(key_of(GAME, Cmd::Resign), "x");
    }
}
