//! The optimal search against a plain exhaustive minimum (no bounds, no symmetry) on small variants.

use std::collections::HashMap;

use mastermind::{Code, Strategy, Variant, feedback, solve_all};

const INF: u32 = u32::MAX / 4;

fn brute(
    cands: &[Code],
    guesses: &[Code],
    depth: u32,
    pegs: u8,
    memo: &mut HashMap<(Vec<Code>, u32), u32>,
) -> u32 {
    if cands.len() == 1 {
        return if depth >= 1 { 1 } else { INF };
    }
    if depth == 0 {
        return INF;
    }
    let key = (cands.to_vec(), depth);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = INF;
    for &g in guesses {
        let mut parts: HashMap<_, Vec<Code>> = HashMap::new();
        for &s in cands {
            parts.entry(feedback(s, g)).or_default().push(s);
        }
        if parts.len() == 1 && !cands.contains(&g) {
            continue;
        }
        let mut total = cands.len() as u32;
        for (fb, part) in parts {
            if !fb.is_win(pegs) {
                total = total.saturating_add(brute(&part, guesses, depth - 1, pegs, memo));
            }
        }
        best = best.min(total);
    }
    memo.insert(key, best);
    best
}

fn check(v: Variant) {
    let secrets = v.secrets();
    let guesses = v.guess_codes();
    let want = brute(
        &secrets,
        &guesses,
        v.guesses(),
        v.pegs(),
        &mut HashMap::new(),
    );
    match solve_all(&v, Strategy::Optimal, &mut |_, _| {}) {
        Ok(r) => {
            assert_eq!(r.total, u64::from(want), "{v}");
            assert!(r.max <= v.guesses(), "{v}");
        }
        Err(e) => assert_eq!(want, INF, "{v}: {e}"),
    }
}

#[test]
fn small_variants_match_exhaustive_minimum() {
    for (c, p, g, sr, gr) in [
        (3, 2, 10, true, true),
        (4, 2, 10, true, true),
        (5, 2, 10, true, true),
        (3, 3, 10, true, true),
        (4, 3, 10, false, false),
        (4, 3, 10, false, true),
        (5, 3, 10, false, false),
        (3, 3, 3, true, true),
        (4, 3, 3, false, false),
        (3, 4, 10, true, true),
    ] {
        check(Variant::custom(c, p, g, sr, gr).unwrap());
    }
}

#[test]
fn guess_limit_is_honoured() {
    // Knuth needs 5 on classic and the optimum by total needs 6: with 5 allowed the optimum is 5626
    // (Koyama and Lai).
    let v = Variant::CLASSIC.with_guesses(5).unwrap();
    let r = solve_all(&v, Strategy::Optimal, &mut |_, _| {}).unwrap();
    assert_eq!((r.total, r.max), (5626, 5));
    let v = Variant::CLASSIC.with_guesses(4).unwrap();
    assert!(solve_all(&v, Strategy::Optimal, &mut |_, _| {}).is_err());
}
