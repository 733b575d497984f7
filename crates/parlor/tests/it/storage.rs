//! Storage seen from outside: a killed process loses nothing, and two processes at once lose nothing.

use crate::common::*;
use parlor::storage::{Storage, Store};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

#[test]
fn a_killed_game_resumes_with_the_same_board_score_seed_and_moves() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = parlor(dir.path(), &["2048", "--seed", "31"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    stdin.write_all(b"a\nd\ns\nw\n").unwrap();
    stdin.flush().unwrap();
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "parlor ended early: {seen}"
        );
        seen.push_str(&line);
        if line.contains("· 4 moves") {
            break;
        }
    }
    // The process is killed while waiting for the next command: no chance to save on the way out.
    child.kill().unwrap();
    child.wait().unwrap();
    let saved = Store::open(dir.path())
        .unwrap()
        .store
        .unfinished(Some("2048"))
        .unwrap();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].seed, 31);
    assert_eq!(saved[0].moves.split_whitespace().count(), 4);
    let again = run(dir.path(), &["2048"], "q\n");
    let text = out(&again);
    assert!(text.contains("Continuing your game in progress"), "{text}");
    assert_eq!(unmarked(&last_board(&text)), unmarked(&last_board(&seen)));
    let score = |t: &str| {
        t.lines()
            .rev()
            .find(|l| l.starts_with("Score "))
            .map(|l| l.split("  Best").next().unwrap().to_string())
    };
    assert_eq!(score(&text), score(&seen));
}

#[test]
fn two_processes_recording_games_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let moves = cycle_moves(400);
    let mut total = 0;
    for round in 0..3u64 {
        let children: Vec<_> = (0..2u64)
            .map(|i| {
                let seed = (100 + round * 2 + i).to_string();
                let mut c = parlor(dir.path(), &["2048", "--size", "3", "--seed", &seed])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                let mut stdin = c.stdin.take().unwrap();
                let moves = moves.clone();
                std::thread::spawn(move || {
                    let _ = stdin.write_all(moves.as_bytes());
                });
                c
            })
            .collect();
        for c in children {
            let o = c.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            total += 1;
        }
    }
    let h = run(dir.path(), &["history", "--json", "--limit", "100"], "");
    let v: serde_json::Value = serde_json::from_str(&out(&h)).unwrap();
    let mut seeds: Vec<u64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["seed"].as_u64().unwrap())
        .collect();
    seeds.sort();
    assert_eq!(seeds.len(), total);
    assert_eq!(seeds, (100..106).collect::<Vec<_>>());
}
