//! Mastermind in plain mode through pipes: codebreaker wins, losses and refused guesses; codemaker with consistent
//! and contradictory answers; a saved game that resumes; the plain defects of issue 9.

use crate::common::*;
use mastermind::{Breaker, CodeStyle, Feedback, Strategy, Variant, feedback, secret_from_seed};

fn numbers(v: &Variant, c: &mastermind::Code) -> String {
    v.format_code(c, CodeStyle::Numbers).to_string()
}

fn history(dir: &std::path::Path) -> serde_json::Value {
    let h = run(dir, &["history", "--json"], "");
    serde_json::from_str(&out(&h)).unwrap()
}

#[test]
fn a_codebreaker_wins_after_refused_guesses() {
    let dir = tempfile::tempdir().unwrap();
    let v = Variant::BULLS_COWS;
    let secret = secret_from_seed(&v, 21);
    let input = format!("1 2 3\n1 1 2 3\n1 2 3 y\nn\n{}\n", numbers(&v, &secret));
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
    assert!(text.contains("unknown colour 'y'"), "{text}");
    assert!(text.contains("5040 codes still fit every answer"), "{text}");
    assert!(
        text.contains("You cracked the code in 1 guess. Guesses 1."),
        "{text}"
    );
    // A chosen seed keeps the game out of the best scores.
    assert!(text.contains("played from a chosen seed"), "{text}");
    let j = history(dir.path());
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
    let names = v.format_code(&secret, CodeStyle::Names).to_string();
    assert!(
        text.contains(&format!("Out of guesses: the code was {names}")),
        "{text}"
    );
    assert!(text.contains("                MASTERMIND"), "{text}");
    let r = run(dir.path(), &["replay", "1"], "");
    let rt = out(&r);
    assert!(rt.contains("8. RRRR"), "{rt}");
    assert!(rt.contains("End: lost (Out of guesses"), "{rt}");
}

#[test]
fn a_saved_game_resumes_with_its_guesses() {
    let dir = tempfile::tempdir().unwrap();
    let first = run(
        dir.path(),
        &["mastermind", "--variant", "classic", "--seed", "8"],
        "1 1 2 2\nred ye or bla\nq\n",
    );
    assert!(out(&first).contains("Game saved"), "{}", out(&first));
    // End of input also saves; the same variant continues.
    let second = run(
        dir.path(),
        &["mastermind", "--variant", "classic"],
        "1 2 3 4\n",
    );
    let text = out(&second);
    assert!(text.contains("Continuing your game in progress"), "{text}");
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

const MAKER: &[&str] = &[
    "mastermind",
    "--role",
    "maker",
    "--variant",
    "classic",
    "--strategy",
    "knuth",
];

#[test]
fn a_codemaker_answers_honestly_and_the_computer_finds_the_code() {
    let dir = tempfile::tempdir().unwrap();
    let v = Variant::CLASSIC;
    let (answers, n) = honest_answers(&v, "3 6 2 5");
    let o = run(dir.path(), MAKER, &format!("{}\n", answers.join("\n")));
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        text.contains("Guess 1 of 10: RED RED GREEN GREEN (1 1 2 2)"),
        "{text}"
    );
    assert!(
        text.contains(&format!("The computer found your code in {n} guesses")),
        "{text}"
    );
    assert!(
        text.contains("GRE BLA"),
        "the code found is on the board: {text}"
    );
    // Issue 9, defect 5: the computer's result, not a loss of the player's.
    let j = history(dir.path());
    assert_eq!(j[0]["variant"], "classic (maker)");
    assert_eq!(j[0]["result"], "done");
    assert_eq!(j[0]["score"], n);
}

#[test]
fn a_codemaker_types_the_code_and_the_computer_scores_it() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), MAKER, "code\nYOGK\n");
    let text = out(&o);
    assert!(text.contains("it is shown only at the end"), "{text}");
    assert!(text.contains("Code taken"), "{text}");
    assert!(text.contains("The computer found your code in"), "{text}");
    assert!(text.contains("YEL ORA GRE BLA"), "{text}");
    let j = history(dir.path());
    assert_eq!(j[0]["result"], "done");
}

#[test]
fn a_codemaker_contradiction_is_shown_and_corrected() {
    let dir = tempfile::tempdir().unwrap();
    let v = Variant::CLASSIC;
    // Secret 1 3 4 5: honest answer to 1 1 2 2 is 1 black. Answer 0 0 instead, then answer honestly until the
    // answers contradict; then fix answer 1.
    let secret = v.parse_secret("1 3 4 5").unwrap();
    let mut b = Breaker::new(&v, Strategy::Knuth).unwrap();
    let g1 = b.next_guess();
    b.record(g1, Feedback { black: 0, white: 0 }).unwrap();
    let mut lines = vec!["0 0".to_string()];
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
        "B".repeat(right.black.into()),
        "W".repeat(right.white.into())
    ));
    let o = run(dir.path(), MAKER, &(lines.join("\n") + "\n"));
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

/// Issue 9, defect 7: at "Which answer was wrong?", `fix 2` names answer 2 (it was taken silently as Enter).
#[test]
fn defect_7_fix_n_at_which_answer_was_wrong_is_not_taken_as_enter() {
    let dir = tempfile::tempdir().unwrap();
    // RRGG: 0 0; YYUK: 3 0; then 4 0 to the third guess contradicts answer 2.
    let o = run(dir.path(), MAKER, "0 0\n3 0\n4 0\nfix 2\n2 0\n");
    let text = out(&o);
    assert!(
        text.contains("Which answer was wrong (answer 2 is suspect)?"),
        "{text}"
    );
    assert!(text.contains("Right answer to guess 2"), "{text}");
    assert!(text.contains("Answer 2 is now 2 black, 0 white."), "{text}");
    // Enter still means: answer the guess again.
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
            "--new",
        ],
        "0 0\n3 0\n4 0\n\n",
    );
    assert!(out(&o).contains("Answer guess 3 again"), "{}", out(&o));
}

/// Issue 9, defect 7: `x` asks before giving up.
#[test]
fn defect_7_give_up_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["mastermind", "--seed", "4"],
        "RGYU\nx\nn\nx\ny\n",
    );
    let text = out(&o);
    assert!(text.contains("Give up this game? [y/n]"), "{text}");
    assert!(text.contains("Carry on."), "{text}");
    assert!(text.contains("Given up: the code was"), "{text}");
}

/// Issue 9, defect 8: the hint is `t` in plain mode too (it was `h`).
#[test]
fn defect_8_hint_is_t_in_plain_mode() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &[
            "mastermind",
            "--variant",
            "classic",
            "--strategy",
            "knuth",
            "--seed",
            "2",
        ],
        "t\n",
    );
    let text = out(&o);
    assert!(
        text.contains("Hint: try RRGG · 1296 codes left · about"),
        "{text}"
    );
    assert!(text.contains("(The game is now assisted.)"), "{text}");
}

/// Issue 9, defect 11: the plain menu asks again when a custom variant is too large for the codemaker role.
#[test]
fn defect_11_plain_menu_asks_again_for_a_variant_too_large_for_the_codemaker() {
    let dir = tempfile::tempdir().unwrap();
    // Menu: Mastermind by name; variant custom, 10 colours, 8 pegs, 20 guesses, repeats no/yes, role maker, strategy.
    let o = run(
        dir.path(),
        &[],
        "mastermind\ncustom\n10\n8\n20\nno\nyes\nmaker\n\nseed\nbreaker\n\nq\nq\n",
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(text.contains("These settings do not go together"), "{text}");
    assert!(text.contains("more than its limit of 65,536"), "{text}");
    assert!(
        text.contains("Game saved") || text.contains("Guess 1 of 8"),
        "{text}"
    );
}

/// Issue 9, defect 12: "1 code still fits" (it said "1 code still fit").
#[test]
fn defect_12_one_code_still_fits() {
    let v = Variant::SEED;
    // A game where a guess that is not the code leaves exactly one code: Knuth's guesses against the seeds' codes.
    let (seed, guesses) = (0..500u64)
        .find_map(|seed| {
            let s = secret_from_seed(&v, seed);
            let mut b = Breaker::new(&v, Strategy::Knuth).unwrap();
            let mut typed = Vec::new();
            for _ in 0..8 {
                let g = b.next_guess();
                let fb = feedback(s, g);
                if fb.is_win(4) {
                    return None;
                }
                b.record(g, fb).unwrap();
                typed.push(numbers(&v, &g));
                if b.remaining() == 1 {
                    return Some((seed, typed));
                }
            }
            None
        })
        .expect("some seed leaves one code");
    let dir = tempfile::tempdir().unwrap();
    let input = format!("{}\nn\n", guesses.join("\n"));
    let o = run(
        dir.path(),
        &["mastermind", "--seed", &seed.to_string()],
        &input,
    );
    let text = out(&o);
    assert!(text.contains("1 code still fits every answer"), "{text}");
    assert!(!text.contains("1 code still fit "), "{text}");
}

/// A guess typed as a string of symbols of the wrong length is refused with its true length, and costs nothing.
#[test]
fn a_guess_of_the_wrong_length_says_how_many_pegs_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["mastermind", "--seed", "3"],
        "RGY\nRGYUK\nq\n",
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        text.contains("wrong length: got 3 colours, need 4"),
        "{text}"
    );
    assert!(
        text.contains("wrong length: got 5 colours, need 4"),
        "{text}"
    );
    assert!(!text.contains("got 1 colour"), "{text}");
    assert!(text.contains("That cost no guess"), "{text}");
}
