//! Issue 30: Super Mastermind's hints and `solve` play the best tree kept in the engine (strategy `best`, Super's
//! default), through the real binary. Feedback is RULES.md's ("Feedback"; Super Mastermind: 5 pegs, 8 colours,
//! repeats allowed, 12 guesses).

use crate::common::*;

use mastermind::{
    CodeStyle, SUPER_BEST_MAX, SUPER_BEST_TOTAL, Strategy, Variant, feedback, secret_from_seed,
    stored_tree,
};

fn solve_json(args: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec!["mastermind", "solve"];
    all.extend_from_slice(args);
    all.push("--json");
    let o = run(dir.path(), &all, "");
    assert!(o.status.success(), "{}", err(&o));
    serde_json::from_str(&out(&o)).unwrap()
}

#[test]
fn solve_on_super_plays_the_kept_tree_by_default_and_as_best() {
    for args in [
        &["--variant", "super"][..],
        &["--variant", "super", "--strategy", "best"][..],
    ] {
        let j = solve_json(args);
        assert_eq!(j["total"], SUPER_BEST_TOTAL, "{args:?}");
        assert_eq!(j["max"], SUPER_BEST_MAX, "{args:?}");
        assert_eq!(j["codes"], 32768);
        let hist: u64 = j["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(hist, 32768);
    }
    // The text names the strategy; below the anchor's entropy heuristic (179,797).
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["mastermind", "solve", "--variant", "super"],
        "",
    );
    let text = out(&o);
    assert!(
        text.starts_with(&format!(
            "super, best: {SUPER_BEST_TOTAL} guesses over 32768 codes"
        )),
        "{text}"
    );
    const { assert!(SUPER_BEST_TOTAL < 179_797) };
    // On a variant without a kept tree, best is optimal (classic: 5625, Koyama and Lai).
    assert_eq!(
        solve_json(&["--variant", "classic", "--strategy", "best"])["total"],
        5625
    );
    // The entropy heuristic is still itself on Super (its own tree, not the kept one).
    assert_eq!(
        Strategy::Entropy.resolved(&Variant::SUPER),
        Strategy::Entropy
    );
    let entropy = solve_json(&["--variant", "super", "--strategy", "entropy"]);
    assert_eq!(entropy["total"], 179_796);
}

#[test]
fn super_hints_follow_the_kept_tree() {
    let v = Variant::SUPER;
    let tree = stored_tree(&v).unwrap().unwrap();
    let seed = 2;
    let secret = secret_from_seed(&v, seed);
    let root = tree.root_guess();
    let fb = feedback(secret, root);
    let second = tree.guess_at(&[(root, fb)]).unwrap();
    let sym = |c| v.format_code(c, CodeStyle::Symbols).to_string();
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["mastermind", "--variant", "super", "--seed", "2"],
        &format!("t\n{}\nt\n", sym(&root)),
    );
    let text = out(&o);
    let hints: Vec<&str> = text
        .match_indices("Hint: try ")
        .map(|(i, _)| text[i + 10..].split(' ').next().unwrap())
        .collect();
    assert_eq!(hints, [sym(&root), sym(&second)], "{text}");
    assert!(text.contains("32,768 codes left"), "{text}");
}
