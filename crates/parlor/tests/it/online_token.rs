//! `parlor online`'s identity against a real `parlor serve`: a new player registers, and the token the server
//! issues is kept in `online.json` (readable by its owner only) and brought back on the next start; an identity kept
//! by an older Parlor, with a token it made itself, goes on working; and a name taken is refused with why.

use crate::online::{Client, Server};
use std::path::Path;

/// The token kept in `dir`'s `online.json`.
fn kept_token(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("online.json")).unwrap();
    let kept: serde_json::Value = serde_json::from_str(&text).unwrap();
    kept["token"].as_str().unwrap().to_string()
}

#[test]
fn a_new_player_keeps_the_token_the_server_issued_and_an_older_identity_keeps_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let dora_dir = dir.path().join("dora");
    let dora = Client::start(&server.url, "dora", &dora_dir);
    dora.wait_for("connected as dora");
    dora.quit();
    let issued = kept_token(&dora_dir);
    assert_eq!(issued.len(), 32, "{issued}");
    assert!(issued.chars().all(|c| c.is_ascii_hexdigit()), "{issued}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dora_dir.join("online.json"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // Started again: the kept token says hello, and stays.
    let again = Client::start(&server.url, "dora", &dora_dir);
    again.wait_for("connected as dora");
    again.quit();
    assert_eq!(kept_token(&dora_dir), issued);

    // An older Parlor's identity, with the token it made: registered by hello, and kept as it is.
    let eve_dir = dir.path().join("eve");
    std::fs::create_dir_all(&eve_dir).unwrap();
    let own = "0123456789abcdef0123456789abcdef";
    std::fs::write(
        eve_dir.join("online.json"),
        format!(r#"{{"name":"eve","token":"{own}"}}"#),
    )
    .unwrap();
    for _ in 0..2 {
        let eve = Client::start(&server.url, "eve", &eve_dir);
        eve.wait_for("connected as eve");
        eve.quit();
        assert_eq!(kept_token(&eve_dir), own);
    }

    // The name taken, asked for by a new player: refused with why, and nothing kept as if it were theirs.
    let thief_dir = dir.path().join("thief");
    let thief = Client::start(&server.url, "Dora", &thief_dir);
    thief.wait_for("refused by the server: the name Dora is taken");
    assert_eq!(kept_token(&thief_dir), "");
}
