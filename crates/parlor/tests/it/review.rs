//! `parlor review`: a game played in plain mode through the real binary, then reviewed as text and JSON, read back
//! from the database the second time; unknown numbers and damaged rows refused.

use crate::common::*;
use std::path::Path;

/// A Nocca Nocca 3x3 game for two in which Black throws a won position away at ply 3 (b1h: win in 7 before, loss
/// in 4 after, by the 3x3 table; `games/nocca/review.rs` checks the same values), then White gives up.
pub fn nocca_game(dir: &Path) {
    let o = run(
        dir,
        &["nocca", "--mode", "two", "--board", "3x3"],
        "c1y\nc3b\nb1h\nx\ny\n",
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("Recorded as game #1"), "{}", out(&o));
}

/// `parlor review 1` in `dir`, which succeeds: its text.
fn reviewed(dir: &Path) -> String {
    let o = run(dir, &["review", "1"], "");
    assert!(o.status.success(), "{}", err(&o));
    out(&o)
}

/// `parlor review 1 --json` in `dir`, which succeeds: its JSON.
fn reviewed_json(dir: &Path) -> serde_json::Value {
    let o = run(dir, &["review", "1", "--json"], "");
    assert!(o.status.success(), "{}", err(&o));
    serde_json::from_str(out(&o).trim()).unwrap()
}

#[test]
fn a_nocca_game_played_in_plain_mode_is_reviewed_as_text_and_json_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    nocca_game(dir.path());
    let text = reviewed(dir.path());
    assert!(
        text.contains(
            "move 3 (black) b1h: blunder · win in 7 → loss in 4 · best b1k, a1u · threw the win away"
        ),
        "{text}"
    );
    assert!(text.contains("1 blunder: move 3"), "{text}");
    assert!(
        text.contains("accuracy: black 50.0%, white 100.0%"),
        "{text}"
    );

    let j = reviewed_json(dir.path());
    assert_eq!(j["schema"], 2);
    assert_eq!(j["game"], "1");
    assert_eq!(j["exact"], true);
    assert_eq!(j["moves"][2]["mark"], "blunder");
    assert_eq!(j["moves"][2]["before"], "win in 7");
    assert_eq!(j["moves"][0]["mark"], "none");

    // Kept with the game: the row is there, and a changed kept review is what the next review reads back.
    let conn = rusqlite::Connection::open(dir.path().join(parlor::storage::DB_FILE)).unwrap();
    let kept: String = conn
        .query_row("SELECT review FROM reviews WHERE game_id = 1", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(kept.contains("\"blunder\""), "{kept}");
    conn.execute(
        "UPDATE reviews SET review = replace(review, 'threw the win away', 'kept note') WHERE game_id = 1",
        [],
    )
    .unwrap();
    let text = out(&run(dir.path(), &["review", "1"], ""));
    assert!(
        text.contains("kept note"),
        "read back from the database: {text}"
    );

    // The review changed nothing of the game: the history line is the same.
    let history = out(&run(dir.path(), &["history"], ""));
    assert!(history.contains("gave up  plies       3"), "{history}");
}

#[test]
fn an_unknown_game_and_a_damaged_row_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["review", "3"], "");
    assert!(!o.status.success());
    assert!(err(&o).contains("no finished game #3"), "{}", err(&o));

    nocca_game(dir.path());
    let conn = rusqlite::Connection::open(dir.path().join(parlor::storage::DB_FILE)).unwrap();
    conn.execute("UPDATE games SET moves = 'c1y zz9' WHERE id = 1", [])
        .unwrap();
    let o = run(dir.path(), &["review", "1"], "");
    assert!(!o.status.success());
    assert!(
        err(&o).contains("game #1 cannot be reviewed"),
        "{}",
        err(&o)
    );
    assert!(!err(&o).contains("panicked"), "{}", err(&o));

    conn.execute("UPDATE games SET result = 'vanished' WHERE id = 1", [])
        .unwrap();
    let o = run(dir.path(), &["review", "1"], "");
    assert!(!o.status.success());
    assert!(err(&o).contains("damaged"), "{}", err(&o));
    assert!(!err(&o).contains("panicked"), "{}", err(&o));
}

#[test]
fn a_2048_game_played_in_plain_mode_is_reviewed_as_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["2048", "--seed", "1"],
        "left\nright\nup\ndown\nleft\nup\nx\ny\n",
    );
    assert!(out(&o).contains("Recorded as game #1"), "{}", out(&o));
    let text = reviewed(dir.path());
    assert!(text.contains("game #1 · parlor-2048"), "{text}");
    assert!(text.contains("expectimax at depth 2"), "{text}");
    assert!(text.contains("accuracy: "), "{text}");
    let j = reviewed_json(dir.path());
    assert_eq!(j["moves"].as_array().map(Vec::len), Some(6));
    assert_eq!(j["moves"][0]["played"], "left");
    assert_eq!(j["exact"], false);
}

#[test]
fn a_mastermind_game_played_in_plain_mode_is_reviewed_as_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["mastermind", "--variant", "classic", "--seed", "5"],
        "RRGG\nRRGG\nx\ny\n",
    );
    assert!(out(&o).contains("Recorded as game #1"), "{}", out(&o));
    let text = reviewed(dir.path());
    // The same guess twice gains nothing: a blunder, and it could not be the secret.
    assert!(text.contains("move 2 RRGG: blunder"), "{text}");
    assert!(
        text.contains("0.00 bits gained (0.00 expected); it could not be the secret"),
        "{text}"
    );
    assert!(text.contains("exact: the optimal strategy tree"), "{text}");
    let j = reviewed_json(dir.path());
    assert_eq!(j["unit"], "guesses");
    assert_eq!(j["moves"][1]["mark"], "blunder");
    let loss = j["moves"][1]["loss"].as_f64().unwrap();
    assert!((loss - 1.0).abs() < 1e-9, "{loss}");
    // The information each guess gained against the most any guess was expected to give there: classic's first
    // guess at most 3.057 bits; the repeated guess gained nothing where some guess was expected to give more than a
    // bit (schema 2, docs/REVIEW.md).
    assert_eq!(j["schema"], 2);
    let info = |i: usize, field: &str| j["moves"][i]["figures"][0][field].clone();
    assert_eq!(info(0, "name"), "information");
    assert_eq!(info(0, "unit"), "bits");
    let first_best = info(0, "best").as_f64().unwrap();
    assert!((first_best - 3.0567).abs() < 1e-3, "{first_best}");
    assert_eq!(info(1, "played").as_f64(), Some(0.0));
    assert!(info(1, "best").as_f64().unwrap() > 1.0, "{}", j["moves"][1]);
    assert!(
        text.contains("move 2 RRGG: blunder") && text.contains("· information 0.00 bits (best "),
        "{text}"
    );
}

#[test]
fn plain_mode_reviews_at_a_games_end_and_at_the_menu_as_parlor_review_prints() {
    let dir = tempfile::tempdir().unwrap();
    // At the game's end, `review`: the same text as `parlor review 1`.
    let o = run(
        dir.path(),
        &["nocca", "--mode", "two", "--board", "3x3"],
        "c1y\nc3b\nb1h\nx\ny\nreview\n",
    );
    assert!(o.status.success(), "{}", err(&o));
    let played = out(&o);
    assert!(
        played.contains("review: the engine's review of game #1; Enter goes on> "),
        "{played}"
    );
    let text = reviewed(dir.path());
    assert!(text.contains("1 blunder: move 3"), "{text}");
    assert!(
        played.contains(&text),
        "plain:\n{played}\nparlor review:\n{text}"
    );

    // At the menu, `v 1` (read back from the database); `v` alone says what it takes.
    let o = run(dir.path(), &[], "v 1\nv\nq\n");
    assert!(o.status.success(), "{}", err(&o));
    let menu = out(&o);
    assert!(menu.contains("v N  review game #N"), "{menu}");
    assert!(
        menu.contains(&text),
        "menu:\n{menu}\nparlor review:\n{text}"
    );
    assert!(menu.contains("review takes a game's number"), "{menu}");
    let o = run(dir.path(), &[], "v 9\nq\n");
    assert!(out(&o).contains("No finished game #9"), "{}", out(&o));
}

#[test]
fn a_line_other_than_review_at_a_games_end_goes_on_to_the_menu() {
    let dir = tempfile::tempdir().unwrap();
    // A game left after two plies, continued from the plain menu (`c1`) and given up there: `h`, typed at the
    // end's question, is the menu's.
    let o = run(
        dir.path(),
        &["nocca", "--mode", "two", "--board", "3x3"],
        "c1y\nc3b\n",
    );
    assert!(out(&o).contains("the game is saved"), "{}", out(&o));
    let o = run(dir.path(), &[], "c1\nb1h\nx\ny\nh\nq\n");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let after = text
        .split("Enter goes on> ")
        .nth(1)
        .unwrap_or_else(|| panic!("no end question: {text}"));
    assert!(
        after.contains("gave up  plies       3"),
        "the history: {text}"
    );
    assert!(!after.contains("not on the menu"), "{text}");
}

/// Where the largest tile of `board` stands when it is one of a kind and in a corner.
fn largest_in_corner(board: &twenty48::Board) -> Option<(usize, usize)> {
    let n = board.size();
    let cells: Vec<(usize, usize)> = (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).collect();
    let top = board.max_tile();
    let at: Vec<&(usize, usize)> = cells
        .iter()
        .filter(|&&(r, c)| board.tile(r, c) == top)
        .collect();
    match at[..] {
        [&(r, c)] if (r == 0 || r == n - 1) && (c == 0 || c == n - 1) => Some((r, c)),
        _ => None,
    }
}

/// A hand-checked 2048 game with one slide that loses the corner: seed 3, played by the review's own player (the
/// network at depth 2, its table emptied before every slide) for at least 30 slides (1169, as it happens: the slide
/// that makes 2048 in the corner), then the first slide, other
/// than the player's, that takes the largest tile out of its corner without merging it; the game is given up there.
/// Played through the real binary in plain mode, reviewed by `parlor review 1`: that slide is named with its mark (a
/// mistake at least, RULES.md's 2048 thresholds), it is the game's worst, its board is kept, and no slide of the
/// player's own is marked a mistake.
#[test]
fn a_2048_game_with_one_slide_that_loses_the_corner_names_that_slide_with_its_mark() {
    use parlor::games::twenty48::{Params, Twenty48};
    use parlor::mid::game::Game;
    use twenty48::ai::{Player, ProbClasses, SearchConfig, TableLife};
    let mut player = Player::with_network(
        SearchConfig::depth(parlor::games::twenty48::review::REVIEW_DEPTH),
        std::sync::Arc::clone(twenty48::ai::ntuple::shipped().unwrap()),
    );
    player.set_table(TableLife::Move, false, ProbClasses::Same);
    let mut state = Twenty48::new_game(&Params::default(), 3).unwrap();
    let (mut moves, mut bad, mut before) = (Vec::new(), None, String::new());
    // The slide after which plain mode asks whether to keep going (the target made): answered yes.
    let mut target_at = None;
    while moves.len() < 1500 && bad.is_none() {
        let board = *state.game.board();
        let best = player.best_move(&board, 0.1).unwrap();
        let mut dir = best;
        if moves.len() >= 30 && largest_in_corner(&board).is_some() {
            let out = twenty48::Direction::ALL.into_iter().find(|&d| {
                let (after, _) = board.slid(d);
                d != best
                    && board.can_slide(d)
                    && after.max_tile() == board.max_tile()
                    && largest_in_corner(&after).is_none()
            });
            if let Some(d) = out {
                (dir, bad, before) = (d, Some(moves.len()), board.to_string());
            }
        }
        Twenty48::apply(&mut state, &dir).unwrap();
        moves.push(dir);
        if target_at.is_none() && state.game.board().max_tile() >= Params::default().target {
            target_at = Some(moves.len() - 1);
        }
    }
    let bad = bad.expect("a slide out of the corner within 1500 slides");
    let mut input = String::new();
    for (i, d) in moves.iter().enumerate() {
        input.push_str(&format!("{d}\n"));
        if target_at == Some(i) {
            input.push_str("y\n");
        }
    }
    input.push_str("x\ny\n");
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["2048", "--seed", "3"], &input);
    assert!(out(&o).contains("Recorded as game #1"), "{}", out(&o));

    let text = reviewed(dir.path());
    let j = reviewed_json(dir.path());
    let m = &j["moves"][bad];
    assert_eq!(m["number"], bad + 1);
    assert_eq!(m["played"], moves[bad].to_string());
    let mark = m["mark"].as_str().unwrap();
    assert!(mark == "mistake" || mark == "blunder", "{m}");
    assert_eq!(m["board"], before.as_str(), "the board before it is kept");
    assert!(
        text.contains(&format!("move {} {}: {mark}", bad + 1, moves[bad])),
        "{text}"
    );
    assert!(
        text.contains(&format!(": move {}\n", bad + 1)),
        "the worst: {text}"
    );
    let others = j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != bad);
    for (i, other) in others {
        assert!(
            other["mark"] == "none" || other["mark"] == "inaccuracy",
            "slide {} is the player's own: {other}",
            i + 1
        );
    }
    // Its chance to reach the next milestone is said beside its value, against the best slide's.
    assert_eq!(m["figures"][0]["unit"], "%");
    assert!(
        m["figures"][0]["name"]
            .as_str()
            .unwrap()
            .starts_with("chance of "),
        "{m}"
    );
}
