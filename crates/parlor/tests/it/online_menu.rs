//! The terminal menu's Online entry, against a real `parlor serve`: it asks the server and the name (prefilled),
//! connects, leaving the lobby comes back to the menu, and the next time the server and the name are offered as
//! kept.

use crate::common::pty::{Key, Pty, Spawn};
use crate::online::Server;

/// Moves the menu's cursor down to its Online entry (its description shows when it is chosen).
fn choose_online(p: &mut Pty) {
    for _ in 0..12 {
        if p.text().contains("Play Nocca Nocca on a Parlor server") {
            return;
        }
        p.press(Key::Down);
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    p.wait_for("Play Nocca Nocca on a Parlor server");
}

/// Empties the field being edited of the connection question (up to 80 characters).
fn erase(p: &mut Pty) {
    for _ in 0..80 {
        p.press(Key::Char('\u{7f}'));
    }
}

#[test]
fn the_menus_online_entry_connects_and_comes_back_to_the_menu() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let home = dir.path().join("ann");
    let home_s = home.display().to_string();
    let mut p = Pty::spawn(Spawn::new(&home, &["--config-dir", &home_s]).size(100, 30));
    p.wait_for("Online: Nocca Nocca against people");
    choose_online(&mut p);
    p.press(Key::Enter);
    let asked = p.wait_for("Parlor online · connect");
    assert!(
        asked.contains("ws://127.0.0.1:7878"),
        "the default server: {asked}"
    );
    assert!(
        asked.contains("kept in the configuration directory"),
        "{asked}"
    );
    // The cursor is on the name: type it, then the server.
    erase(&mut p);
    for ch in "ann".chars() {
        p.press(Key::Char(ch));
    }
    p.press(Key::Char('\t'));
    erase(&mut p);
    for ch in server.url.chars() {
        p.press(Key::Char(ch));
    }
    p.press(Key::Enter);
    let lobby = p.wait_for("Parlor online · ann · online");
    assert!(
        lobby.contains("q menu"),
        "leaving goes to the menu: {lobby}"
    );
    p.press(Key::Char('q'));
    p.wait_for("Online: Nocca Nocca against people");
    // Again: the server and the name are offered as kept, and Enter connects at once.
    choose_online(&mut p);
    p.press(Key::Enter);
    let asked = p.wait_for("Parlor online · connect");
    assert!(asked.contains(&server.url), "{asked}");
    assert!(asked.contains("Name    ann"), "{asked}");
    p.press(Key::Enter);
    p.wait_for("Parlor online · ann · online");
    p.press(Key::Char('q'));
    p.wait_for("Online: Nocca Nocca against people");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}

/// One menu everywhere: the menu that `q` goes back to from a game opened by its command (`parlor 2048`) is the
/// same as `parlor`'s, with its Online entry, and that entry asks for the connection.
#[test]
fn the_menu_under_a_game_command_has_the_online_entry() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("ann");
    let home_s = home.display().to_string();
    let mut p = Pty::spawn(Spawn::new(&home, &["--config-dir", &home_s, "2048"]).size(100, 30));
    p.wait_until("the 2048 board", |s| {
        let t = s.contents();
        t.contains("Score") && t.contains("? help")
    });
    p.press(Key::Char('q'));
    p.wait_for("Online: Nocca Nocca against people");
    choose_online(&mut p);
    p.press(Key::Enter);
    p.wait_for("Parlor online · connect");
    p.press(Key::Esc);
    p.wait_for("Online: Nocca Nocca against people");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}
