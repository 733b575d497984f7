//! Storage faults a user can meet (issue 10, items 2 and 6): a database written by a newer Parlor, a read-only data
//! directory, a full disk. In each, what the file holds is shown, nothing is written where it must not be, and the
//! program never says "saved" when it was not.

use crate::common::*;
use parlor::storage::Storage;
use std::path::Path;
use std::process::Stdio;

/// Plays and gives up `n` seeded 2048 games, so the history holds `n` games.
fn finished_games(dir: &Path, n: u64) {
    for seed in 1..=n {
        let seed = seed.to_string();
        let o = run(dir, &["2048", "--seed", &seed], "a\nd\nx\ny\n");
        assert!(out(&o).contains("Given up"), "{}", out(&o));
    }
}

fn set_user_version(dir: &Path, version: i64) {
    let conn = rusqlite::Connection::open(dir.join(parlor::storage::DB_FILE)).unwrap();
    conn.pragma_update(None, "user_version", version).unwrap();
}

fn file_bytes(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join(parlor::storage::DB_FILE)).unwrap()
}

#[test]
fn a_newer_schema_is_shown_read_only_and_never_written() {
    let dir = tempfile::tempdir().unwrap();
    finished_games(dir.path(), 3);
    set_user_version(dir.path(), 99);
    let before = file_bytes(dir.path());

    let o = run(dir.path(), &["history"], "");
    assert!(o.status.success(), "{}", err(&o));
    let shown = out(&o);
    assert_eq!(
        shown.lines().count(),
        3,
        "the three games are listed:\n{shown}"
    );
    assert!(!shown.contains("No finished game"), "{shown}");
    let note = err(&o);
    assert!(note.contains("read-only"), "{note}");
    assert!(note.contains("newer Parlor (schema 99"), "{note}");

    // Playing is possible, but nothing is written and nothing is called saved.
    let o = run(dir.path(), &["2048", "--seed", "9"], "a\nd\nq\n");
    let text = out(&o);
    assert!(text.contains("could NOT be saved"), "{text}");
    assert!(!text.contains("Game saved."), "{text}");
    let o = run(dir.path(), &["2048", "--seed", "9"], "a\nd\n");
    let text = out(&o);
    assert!(
        text.contains("Input ended: the game could NOT be saved"),
        "{text}"
    );
    assert!(!text.contains("the game is saved"), "{text}");
    let o = run(dir.path(), &["2048", "--seed", "10"], "a\nd\nx\ny\n");
    assert!(out(&o).contains("Given up"), "{}", out(&o));
    assert_eq!(
        file_bytes(dir.path()),
        before,
        "the newer database is untouched"
    );
}

#[test]
fn a_schema_1_database_opened_read_only_shows_its_games_through_views() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v1.db");
    std::fs::copy(&fixture, dir.path().join(parlor::storage::DB_FILE)).unwrap();
    let writable = parlor::storage::Store::open(dir.path()).unwrap().store;
    let expected = writable.history(None, 1000).unwrap().games;
    assert!(!expected.is_empty());
    let expected_unfinished: Vec<String> = writable
        .unfinished(None)
        .unwrap()
        .into_iter()
        .map(|u| u.moves)
        .collect();
    drop(writable);
    // The same file, version 1 again, read through the read-only path.
    std::fs::copy(&fixture, dir.path().join(parlor::storage::DB_FILE)).unwrap();
    let store = parlor::storage::Store::open_read_only(&dir.path().join(parlor::storage::DB_FILE))
        .expect("a version-1 database opens read-only");
    assert!(store.read_only());
    assert!(!store.keeps());
    let shown = store.history(None, 1000).unwrap().games;
    // The games in progress read through the views too (issue 25: rows are now read with their rowid).
    let listed_unfinished: Vec<String> = store
        .unfinished(None)
        .unwrap()
        .into_iter()
        .map(|u| u.moves)
        .collect();
    assert_eq!(listed_unfinished, expected_unfinished);
    let ids = |r: &[parlor::storage::GameRecord]| -> Vec<(i64, String)> {
        r.iter()
            .map(|g| (g.id, g.result.as_str().to_string()))
            .collect()
    };
    assert_eq!(
        ids(&shown),
        ids(&expected),
        "the same games and results as after the migration"
    );
    assert!(store.save_unfinished(&shown_unfinished()).is_err());
    assert_eq!(
        std::fs::read(dir.path().join(parlor::storage::DB_FILE)).unwrap(),
        std::fs::read(&fixture).unwrap(),
        "nothing migrated, nothing written"
    );
}

fn shown_unfinished() -> parlor::storage::Unfinished {
    parlor::storage::Unfinished {
        session: "s".into(),
        game: "2048".into(),
        variant: "4x4".into(),
        options: "{}".into(),
        seed: 1,
        moves: "L".into(),
        score: 0,
        assisted: false,
        started_at: 0,
        updated_at: 0,
        seeded: false,
        practice: false,
        row: 0,
        damage: None,
    }
}

/// A read-only data directory. Root ignores permissions, so this runs only for other users (CI's and most
/// developers'); the newer-schema test above takes the same read-only path for everyone.
#[test]
fn a_read_only_data_directory_is_shown_and_never_written() {
    if unsafe { libc::geteuid() } == 0 {
        eprintln!(
            "running as root: permissions are not enforced, the read-only directory case is not checked"
        );
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    finished_games(dir.path(), 2);
    let before = file_bytes(dir.path());
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    std::fs::set_permissions(
        dir.path().join(parlor::storage::DB_FILE),
        std::fs::Permissions::from_mode(0o444),
    )
    .unwrap();
    let o = run(dir.path(), &["history"], "");
    let shown = out(&o);
    assert_eq!(shown.lines().count(), 2, "{shown}\n{}", err(&o));
    assert!(err(&o).contains("read-only"), "{}", err(&o));
    let o = run(dir.path(), &["2048", "--seed", "3"], "a\nq\n");
    assert!(out(&o).contains("could NOT be saved"), "{}", out(&o));
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(file_bytes(dir.path()), before);
}

#[test]
fn a_database_that_cannot_be_opened_says_why_the_history_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    // A directory where the database file should be: neither openable nor a damaged file to move aside.
    std::fs::create_dir(dir.path().join(parlor::storage::DB_FILE)).unwrap();
    let o = run(dir.path(), &["history"], "");
    assert!(o.status.success());
    assert!(
        out(&o).contains("the database could not be opened"),
        "{}",
        out(&o)
    );
    assert!(err(&o).contains("Storage unavailable"), "{}", err(&o));
    // And a game played then is never called saved.
    let o = run(dir.path(), &["2048", "--seed", "3"], "a\nq\n");
    let text = out(&o);
    assert!(text.contains("could NOT be saved"), "{text}");
    assert!(!text.contains("Game saved."), "{text}");
}

/// A full disk, made with the file-size limit (`RLIMIT_FSIZE`, SIGXFSZ ignored): once the database's files reach
/// the limit, every write fails as it does on a full disk (EFBIG instead of ENOSPC), with no root and no mount.
#[test]
fn a_full_disk_never_gives_a_false_saved_and_keeps_retrying() {
    use std::io::{BufRead, BufReader, Write};
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    // A first game fills in the schema, so that the limited process starts with a database to write into.
    finished_games(dir.path(), 1);
    let size = |name: &str| std::fs::metadata(dir.path().join(name)).map_or(0, |m| m.len());
    let limit = size(parlor::storage::DB_FILE).max(size("parlor.db-wal")) + 4096;
    let mut cmd = parlor(dir.path(), &["2048", "--seed", "77"]);
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    let mut warned = 0;
    for _ in 0..100 {
        stdin.write_all(cycle_moves(1).as_bytes()).unwrap();
        // Read until this batch's fourth board (or a warning) has been printed.
        let mut boards = 0;
        while boards < 4 {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap() == 0 {
                panic!("parlor ended early:\n{seen}");
            }
            if line.contains("could not save") {
                warned += 1;
            }
            if line.starts_with("Score ") || line.contains("nothing moves") {
                boards += 1;
            }
            seen.push_str(&line);
        }
        if warned >= 3 {
            break;
        }
    }
    assert!(warned >= 3, "the writes never failed:\n{seen}");
    stdin.write_all(b"q\n").unwrap();
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut reader, &mut rest).unwrap();
    child.wait().unwrap();
    assert!(rest.contains("The game could NOT be saved"), "{rest}");
    assert!(!rest.contains("Game saved."), "{rest}");
    assert!(!seen.contains("Game saved."), "{seen}");
}
