//! Mastermind in plain mode through pipes: codebreaker wins, losses and refused guesses; codemaker with consistent
//! and contradictory answers; a saved game that resumes.

mod common;
use common::*;
use mastermind::{Breaker, CodeStyle, Feedback, Strategy, Variant, feedback, secret_from_seed};

fn numbers(v: &Variant, c: &mastermind::Code) -> String {
    v.format_code(c, CodeStyle::Numbers).to_string()
}

#[test]
fn a_codebreaker_wins_after_refused_guesses() {
    let dir = tempfile::tempdir().unwrap();
    let v = Variant::BULLS_COWS;
    let secret = secret_from_seed(&v, 21);
    let input = format!("1 2 3\n1 1 2 3\n1 2 3 x\nn\n{}\n", numbers(&v, &secret));
    let o = run(
        dir.path(),
        &["mastermind", "--variant", "bulls-cows", "--seed", "21"],
        &input,
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(text.contains("digits 0 to 9"), "{text}");
    assert!(
        text.contains("Wrong choice!! wrong length: got 3 colours, need 4"),
        "{text}"
    );
    assert!(
        text.contains("is repeated, but this variant does not allow a colour twice"),
        "{text}"
    );
    assert!(text.contains("unknown colour 'x'"), "{text}");
    assert!(
        text.contains("5040 codes still fit every answer."),
        "{text}"
    );
    assert!(
        text.contains("Congratulations!! YOU WIN!!!! You found the code in 1 guess."),
        "{text}"
    );
    assert!(
        text.contains("Recorded as game #1, rank 1 among bulls-cows scores."),
        "{text}"
    );
    let h = run(dir.path(), &["history", "--json"], "");
    let j: serde_json::Value = serde_json::from_str(&out(&h)).unwrap();
    assert_eq!(j[0]["result"], "won");
    assert_eq!(j[0]["score"], 1);
    assert_eq!(j[0]["variant"], "bulls-cows");
}

#[test]
fn a_codebreaker_loses_and_sees_the_code_then_replays() {
    let dir = tempfile::tempdir().unwrap();
    let v = Variant::SEED;
    let secret = secret_from_seed(&v, 5);
    // A guess that cannot be the secret (the seed's secret never repeats a colour).
    let input = "red red red red\n".repeat(8);
    let o = run(dir.path(), &["mastermind", "--seed", "5"], &input);
    let text = out(&o);
    assert!(
        text.contains("YOU LOSE!!! Better luck next time!!!"),
        "{text}"
    );
    let names = v.format_code(&secret, CodeStyle::Names).to_string();
    assert!(text.contains(&format!("The code was {names}")), "{text}");
    // The board shows the seed's layout with the secret revealed on top.
    assert!(text.contains("                MASTERMIND"), "{text}");
    let r = run(dir.path(), &["replay", "1"], "");
    let rt = out(&r);
    assert!(rt.contains("8. RED RED RED RED (1 1 1 1)"), "{rt}");
    assert!(rt.contains("End: lost after 8 guesses."), "{rt}");
}

#[test]
fn a_saved_game_resumes_with_its_guesses() {
    let dir = tempfile::tempdir().unwrap();
    let first = run(
        dir.path(),
        &["mastermind", "--variant", "classic", "--seed", "8"],
        "1 1 2 2\nr y o bla\nq\n",
    );
    assert!(out(&first).contains("Game saved"), "{}", out(&first));
    // End of input also saves; the same variant continues.
    let second = run(
        dir.path(),
        &["mastermind", "--variant", "classic"],
        "1 2 3 4\n",
    );
    let text = out(&second);
    assert!(text.contains("Continuing your game in progress."), "{text}");
    assert!(text.contains("Guess 3: RED GREEN YELLOW BLUE"), "{text}");
    assert!(text.contains("Input ended: the game is saved"), "{text}");
    let third = run(dir.path(), &[], "c1\nq\nq\n");
    let t3 = out(&third);
    assert!(t3.contains("continue mastermind classic"), "{t3}");
    assert!(t3.contains("RED RED GRE GRE   #1"), "{t3}");
    assert!(t3.contains("RED GRE YEL BLU   #3"), "{t3}");
}

/// The answers an honest codemaker gives to the knuth breaker for `secret`.
fn honest_answers(v: &Variant, secret: &str) -> (Vec<String>, usize) {
    let s = v.parse_secret(secret).unwrap();
    let mut b = Breaker::new(v, Strategy::Knuth).unwrap();
    let mut lines = Vec::new();
    loop {
        let g = b.next_guess();
        let fb = feedback(s, g);
        lines.push(format!("{} {}", fb.black, fb.white));
        b.record(g, fb).unwrap();
        if fb.is_win(v.pegs()) {
            return (lines, b.history().len());
        }
    }
}

#[test]
fn a_codemaker_answers_honestly_and_the_computer_finds_the_code() {
    let dir = tempfile::tempdir().unwrap();
    let v = Variant::CLASSIC;
    let (answers, n) = honest_answers(&v, "3 6 2 5");
    let input = format!("\n{}\n", answers.join("\n"));
    let o = run(
        dir.path(),
        &[
            "mastermind",
            "--role",
            "maker",
            "--variant",
            "classic",
            "--strategy",
            "knuth",
        ],
        &input,
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        text.contains("Guess 1 of 10: RED RED GREEN GREEN (1 1 2 2)"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "The computer found your code YELLOW ORANGE GREEN BLACK (3 6 2 5) in {n} guesses."
        )),
        "{text}"
    );
    let h = run(dir.path(), &["history", "--json"], "");
    let j: serde_json::Value = serde_json::from_str(&out(&h)).unwrap();
    assert_eq!(j[0]["variant"], "classic (maker)");
    assert_eq!(j[0]["result"], "lost");
    assert_eq!(j[0]["score"], n);
}

#[test]
fn a_codemaker_contradiction_is_shown_and_corrected() {
    let dir = tempfile::tempdir().unwrap();
    let v = Variant::CLASSIC;
    // Secret 1 3 4 5: honest answer to 1 1 2 2 is 1 black. Answer 0 0 instead, then answer guess 2 honestly
    // until the answers contradict; then fix answer 1.
    let secret = v.parse_secret("1 3 4 5").unwrap();
    let mut b = Breaker::new(&v, Strategy::Knuth).unwrap();
    let g1 = b.next_guess();
    b.record(g1, Feedback { black: 0, white: 0 }).unwrap();
    let mut lines = vec![String::new(), "0 0".to_string()];
    let contradiction_at = loop {
        let g = b.next_guess();
        let fb = feedback(secret, g);
        lines.push(format!("{} {}", fb.black, fb.white));
        match b.record(g, fb) {
            Ok(()) => assert!(!fb.is_win(4), "the lie should be caught before the end"),
            Err(_) => break b.history().len() + 1,
        }
    };
    let right = feedback(secret, g1);
    lines.push("1".into());
    lines.push(format!(
        "{}{}",
        "R".repeat(right.black.into()),
        "W".repeat(right.white.into())
    ));
    let o = run(
        dir.path(),
        &[
            "mastermind",
            "--role",
            "maker",
            "--variant",
            "classic",
            "--strategy",
            "knuth",
        ],
        &(lines.join("\n") + "\n"),
    );
    let text = out(&o);
    assert!(
        text.contains(&format!(
            "Those answers contradict each other: no code fits all the answers: answer {contradiction_at} \
             contradicts the earlier ones"
        )),
        "{text}"
    );
    assert!(text.contains("Which answer was wrong"), "{text}");
    assert!(text.contains("Answer 1 is now 1 black, 0 white."), "{text}");
    assert!(text.contains("Input ended: the game is saved"), "{text}");
}
