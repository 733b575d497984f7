//! Random screens of the faces' kind of HTML and small edits of them, for the tests of `patch` (its unit tests,
//! and the browser's in `tests/web.rs`, which include this file).

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::RngCore;

/// A random tree: elements with attributes (some written whole), void elements, text.
fn tree(rng: &mut ChaCha8Rng, depth: u32, out: &mut String) {
    const TAGS: &[&str] = &["div", "span", "section", "button", "i", "b", "h2", "p"];
    let children = rng.next_u32() % 4;
    for _ in 0..children {
        match rng.next_u32() % 6 {
            0 => out.push_str(&format!("t{}", rng.next_u32() % 3)),
            1 => out.push_str(&format!("<input value=\"{}\">", rng.next_u32() % 3)),
            _ if depth == 0 => out.push('x'),
            _ => {
                let tag = TAGS[(rng.next_u32() as usize) % TAGS.len()];
                let whole = if rng.next_u32().is_multiple_of(9) {
                    " data-whole"
                } else {
                    ""
                };
                out.push_str(&format!("<{tag} class=\"c{}\"{whole}>", rng.next_u32() % 3));
                tree(rng, depth - 1, out);
                out.push_str(&format!("</{tag}>"));
            }
        }
    }
}

/// A screen: one `<main>` holding a random tree.
pub fn screen(rng: &mut ChaCha8Rng) -> String {
    let mut out = String::from("<main>");
    tree(rng, 4, &mut out);
    out.push_str("</main>");
    out
}

/// Mostly a small edit of `old` (one digit of an attribute or a text changed), else another screen.
pub fn edited(rng: &mut ChaCha8Rng, old: &str) -> String {
    let digits: Vec<usize> = old
        .match_indices(|c: char| c.is_ascii_digit())
        .map(|(i, _)| i)
        .collect();
    if rng.next_u32().is_multiple_of(4) || digits.is_empty() {
        return screen(rng);
    }
    let i = digits[(rng.next_u32() as usize) % digits.len()];
    format!("{}{}{}", &old[..i], rng.next_u32() % 3, &old[i + 1..])
}
