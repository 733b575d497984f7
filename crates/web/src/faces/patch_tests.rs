use super::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

#[path = "patch_trees.rs"]
mod trees;
use trees::{edited, screen};

fn at(change: &Change) -> Vec<usize> {
    change.path.iter().map(|(i, _)| *i).collect()
}

#[test]
fn equal_screens_have_no_change() {
    assert_eq!(
        changed("<main><p>a</p></main>", "<main><p>a</p></main>"),
        None
    );
}

#[test]
fn a_peg_added_to_a_row_is_a_change_of_that_row() {
    let old = r#"<main class="play"><section class="stage"><div class="row"><i class="peg c1">R</i></div><div class="row"></div></section><p class="line">Move 1</p></main>"#;
    let new = r#"<main class="play"><section class="stage"><div class="row"><i class="peg c1">R</i></div><div class="row"><i class="peg c2">G</i></div></section><p class="line">Move 1</p></main>"#;
    let c = changed(old, new).unwrap();
    assert_eq!(at(&c), vec![0, 0, 1]);
    assert_eq!(c.path.last().unwrap().1, "div");
    assert_eq!(c.children, 0);
    assert_eq!(
        &new[c.new.clone()],
        r#"<div class="row"><i class="peg c2">G</i></div>"#
    );
    assert!(!c.whole);
}

#[test]
fn a_changed_attribute_is_a_change_of_its_element() {
    let old = r#"<main><div><button type="button" class="sq" data-act="b:1">a</button><button type="button" class="sq" data-act="b:2">b</button></div></main>"#;
    let new = r#"<main><div><button type="button" class="sq chosen" data-act="b:1">a</button><button type="button" class="sq" data-act="b:2">b</button></div></main>"#;
    let c = changed(old, new).unwrap();
    assert_eq!(at(&c), vec![0, 0, 0]);
    assert_eq!(
        &new[c.new.clone()],
        r#"<button type="button" class="sq chosen" data-act="b:1">a</button>"#
    );
}

#[test]
fn a_changed_text_is_a_change_of_the_element_around_it() {
    let old = "<main><h2>Title</h2><p class=\"line\">Move 1: RGYB</p></main>";
    let new = "<main><h2>Title</h2><p class=\"line\">Move 2: RRYB</p></main>";
    let c = changed(old, new).unwrap();
    assert_eq!(at(&c), vec![0, 1]);
    assert_eq!(c.path, vec![(0, "main".to_string()), (1, "p".to_string())]);
    assert_eq!(c.children, 1);
}

#[test]
fn a_change_among_the_roots_children_has_no_element_around_it() {
    assert_eq!(
        changed("<p>a</p><p>b</p>", "<p>a</p><p>c</p><p>b</p>"),
        None
    );
    assert_eq!(changed("<p>a</p>", "<div>a</div>"), None);
    assert_eq!(changed("<i></i>", "<i></i><i></i>"), None);
}

#[test]
fn an_element_whose_tag_changed_is_replaced_inside_its_parent() {
    let old = "<main><span>x</span></main>";
    let new = "<main><button>x</button></main>";
    let c = changed(old, new).unwrap();
    assert_eq!(at(&c), vec![0]);
    assert_eq!(&new[c.new.clone()], new);
}

#[test]
fn a_change_inside_a_board_written_whole_replaces_the_board() {
    let old = r#"<main><div class="board" data-whole="1"><div class="tile t2">2</div><div class="tile t4">4</div></div><p>s</p></main>"#;
    let new = r#"<main><div class="board" data-whole="1"><div class="tile t2">2</div><div class="tile t8">8</div></div><p>s</p></main>"#;
    let c = changed(old, new).unwrap();
    assert_eq!(at(&c), vec![0, 0]);
    assert!(c.whole);
    assert!(new[c.new.clone()].starts_with("<div class=\"board\" data-whole"));
}

#[test]
fn a_changed_input_is_replaced_whole() {
    let old = r#"<main><label>Name <input type="text" value="ann"></label></main>"#;
    let new = r#"<main><label>Name <input type="text" value="bob"></label></main>"#;
    let c = changed(old, new).unwrap();
    assert_eq!(at(&c), vec![0, 0, 1]);
    assert!(c.whole);
    assert_eq!(c.children, 0);
    assert_eq!(&new[c.new.clone()], r#"<input type="text" value="bob">"#);
}

#[test]
fn what_the_parser_reads_otherwise_is_left_to_the_whole_write() {
    // A table's rows (the parser adds a tbody), a block inside a paragraph (the parser closes the paragraph), raw
    // text, a list item inside another, a self-closed element, an end tag out of order, an unclosed element.
    let pairs = [
        (
            "<main><table><tr><td>1</td></tr></table></main>",
            "<main><table><tr><td>2</td></tr></table></main>",
        ),
        (
            "<main><p>a<div>b</div></p></main>",
            "<main><p>a<div>c</div></p></main>",
        ),
        (
            "<main><style>a{}</style><b>1</b></main>",
            "<main><style>a{}</style><b>2</b></main>",
        ),
        (
            "<main><ul><li>a<li>b</li></li></ul></main>",
            "<main><ul><li>a<li>c</li></li></ul></main>",
        ),
        ("<main><div/><b>1</b></main>", "<main><div/><b>2</b></main>"),
        (
            "<main><b><i>1</b></i></main>",
            "<main><b><i>2</b></i></main>",
        ),
        ("<main><b>1</b>", "<main><b>2</b>"),
        (
            "<main><select><option>1</option></select></main>",
            "<main><select><option>2</option></select></main>",
        ),
    ];
    for (old, new) in pairs {
        assert_eq!(changed(old, new), None, "{old} -> {new}");
    }
}

#[test]
fn quoted_attributes_may_hold_angle_brackets_and_comments_are_nodes() {
    let old = r#"<main><!-- a --><b title="x > y">1</b><b>2</b></main>"#;
    let new = r#"<main><!-- a --><b title="x > y">1</b><b>3</b></main>"#;
    let c = changed(old, new).unwrap();
    assert_eq!(at(&c), vec![0, 2]);
}

#[test]
fn every_change_of_random_screens_is_one_element_replaced_in_the_old_string() {
    let mut rng = ChaCha8Rng::seed_from_u64(52);
    let (mut found, mut none) = (0, 0);
    for _ in 0..3000 {
        let old = screen(&mut rng);
        let edited = edited(&mut rng, &old);
        let Some(c) = changed(&old, &edited) else {
            none += 1;
            continue;
        };
        found += 1;
        let delta = edited.len() as isize - old.len() as isize;
        let old_end = (c.new.end as isize - delta) as usize;
        let spliced = format!(
            "{}{}{}",
            &old[..c.new.start],
            &edited[c.new.clone()],
            &old[old_end..]
        );
        assert_eq!(spliced, edited, "{old} -> {edited}: {c:?}");
        // The part is one element of the tag the path ends in, and the path leads to an element of the old.
        let part = &edited[c.new.clone()];
        let tag = &c.path.last().unwrap().1;
        assert!(part.starts_with(&format!("<{tag}")), "{part}");
        let olds = elements(&old).unwrap();
        let path: Vec<usize> = at(&c);
        let there = olds.iter().find(|e| e.path == path).unwrap();
        assert_eq!(there.span.start, c.new.start);
        assert_eq!(there.children, c.children);
        assert_eq!(&there.tag, tag);
    }
    assert!(
        found > 1000,
        "{found} changes found, {none} left to the whole write"
    );
}
