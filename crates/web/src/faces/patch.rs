//! Where a screen's HTML changed: the smallest element of the old HTML that holds every changed byte, found by
//! reading both strings (their common start and end, and a small tokenizer of the HTML the faces write), so that the
//! page parses and walks only that element's new HTML instead of the whole screen's (`morph`). A tap that adds one
//! peg then parses one row of pegs, not the 4 kB screen.
//!
//! The tokenizer reads the HTML the faces build ([`super::html`]): elements closed in order, void elements
//! (`<input>`, `<br>`, ...) without an end tag, attributes quoted, comments, text. Whatever it does not model as the
//! browser's parser would (a raw-text element, an end tag out of order, a table's rows, a `<p>` holding a block, a
//! leading newline the parser drops) makes [`changed`] give `None`, and the caller writes the whole screen.

use std::ops::Range;

/// Void elements: no end tag, no children.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// Elements whose content the parser reads differently (raw text, dropped newlines, implied elements): not modelled.
const UNMODELLED: &[&str] = &[
    "script",
    "style",
    "textarea",
    "title",
    "pre",
    "listing",
    "table",
    "tbody",
    "thead",
    "tfoot",
    "tr",
    "td",
    "th",
    "select",
    "option",
    "optgroup",
    "template",
    "noscript",
    "iframe",
    "xmp",
    "plaintext",
    "svg",
    "math",
    "dd",
    "dt",
    "rb",
    "rt",
    "rp",
    "nobr",
    "frameset",
    "image",
];

/// Elements whose start tag closes an open `<p>` (the parser's rule, not modelled: a `<p>` holding one is refused).
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "details",
    "dialog",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "search",
    "section",
    "ul",
];

/// Elements that close an open element of the same tag when they start inside it (not modelled: refused).
const NOT_NESTED: &[&str] = &["li", "button", "p", "a", "form"];

/// One element of a tokenized screen.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Element {
    /// Its tag, lower case.
    tag: String,
    /// The bytes from its `<` to the end of its end tag (or of its start tag, for a void element).
    span: Range<usize>,
    /// Its index among its parent's child nodes (elements, text and comments), for each ancestor from the root's
    /// child down to it.
    path: Vec<usize>,
    /// How many child nodes it has.
    children: usize,
    /// Whether it, or an ancestor, must be written whole when it differs (`data-whole`, a form control).
    whole: bool,
}

/// The place of a change: the element to bring up to date in the page, and its new HTML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Child-node indices from the root down to the element, each with the tag expected there (lower case).
    pub path: Vec<(usize, String)>,
    /// How many child nodes the element has in the page now.
    pub children: usize,
    /// The element's new HTML: a range of the new string.
    pub new: Range<usize>,
    /// Whether it is to be replaced whole rather than brought up to date in place.
    pub whole: bool,
}

/// The elements of `html`, in document order; `None` when it holds something the tokenizer does not model.
fn elements(html: &str) -> Option<Vec<Element>> {
    let b = html.as_bytes();
    let mut out: Vec<Element> = Vec::new();
    // Open elements: their index in `out`.
    let mut open: Vec<usize> = Vec::new();
    // Child nodes seen so far of the root (index 0) and of each open element (index i + 1).
    let mut counts: Vec<usize> = vec![0];
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'<' {
            let end = html[i..].find('<').map_or(b.len(), |n| i + n);
            *counts.last_mut()? += 1;
            i = end;
            continue;
        }
        if html[i..].starts_with("<!--") {
            let end = html[i + 4..].find("-->")? + i + 4 + 3;
            *counts.last_mut()? += 1;
            i = end;
            continue;
        }
        if html[i..].starts_with("</") {
            let close = html[i..].find('>')? + i;
            let name = html[i + 2..close].trim().to_ascii_lowercase();
            let top = open.pop()?;
            if out[top].tag != name {
                return None;
            }
            out[top].span.end = close + 1;
            out[top].children = counts.pop()?;
            i = close + 1;
            continue;
        }
        // A start tag: its name, then attributes up to the `>` outside quotes.
        let name_end = html[i + 1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .map_or(b.len(), |n| i + 1 + n);
        let tag = html[i + 1..name_end].to_ascii_lowercase();
        if tag.is_empty() || UNMODELLED.contains(&tag.as_str()) {
            return None;
        }
        let inside = |t: &str| open.iter().any(|&o| out[o].tag == t);
        if (CLOSES_P.contains(&tag.as_str()) && inside("p"))
            || (NOT_NESTED.contains(&tag.as_str()) && inside(&tag))
        {
            return None;
        }
        let mut j = name_end;
        let mut quote = None;
        while j < b.len() {
            match (quote, b[j]) {
                (None, b'"' | b'\'') => quote = Some(b[j]),
                (Some(q), c) if c == q => quote = None,
                (None, b'>') => break,
                _ => {}
            }
            j += 1;
        }
        if j >= b.len() {
            return None;
        }
        let start_tag = &html[i..=j];
        if start_tag.ends_with("/>") {
            return None;
        }
        *counts.last_mut()? += 1;
        let mut path: Vec<usize> = open
            .last()
            .map(|&p| out[p].path.clone())
            .unwrap_or_default();
        path.push(*counts.last()? - 1);
        let parent_whole = open.last().is_some_and(|&p| out[p].whole);
        let whole = parent_whole || start_tag.contains(" data-whole") || tag == "input";
        let void = VOID.contains(&tag.as_str());
        out.push(Element {
            tag,
            span: i..j + 1,
            path,
            children: 0,
            whole,
        });
        if !void {
            open.push(out.len() - 1);
            counts.push(0);
        }
        i = j + 1;
    }
    open.is_empty().then_some(out)
}

/// Where `new` differs from `old` (both written by the faces): the smallest element of `old` that holds the whole
/// difference and stands in `new` at the same place with the same ancestors, widened to its outermost ancestor that is
/// written whole. `None` when the two are equal, when the change is not inside one element (a change of the root's
/// own children), or when either string holds what the tokenizer does not model.
pub fn changed(old: &str, new: &str) -> Option<Change> {
    if old == new {
        return None;
    }
    let (ob, nb) = (old.as_bytes(), new.as_bytes());
    let shorter = ob.len().min(nb.len());
    let prefix = ob.iter().zip(nb).take_while(|(a, b)| a == b).count();
    let suffix = ob
        .iter()
        .rev()
        .zip(nb.iter().rev())
        .take(shorter - prefix)
        .take_while(|(a, b)| a == b)
        .count();
    let changed_end = ob.len() - suffix;
    let olds = elements(old)?;
    let news = elements(new)?;
    // Innermost first (the greatest start among those that hold the change); an element that stands elsewhere in
    // the new string (its own tag changed) leaves the change to its parent.
    let grown = |e: &Element| e.span.end + nb.len() - ob.len();
    let mut holders: Vec<&Element> = olds
        .iter()
        .filter(|e| e.span.start < prefix && e.span.end > changed_end.max(prefix))
        .collect();
    holders.sort_by_key(|e| std::cmp::Reverse(e.span.start));
    let (holder, again) = holders.into_iter().find_map(|h| {
        news.iter()
            .find(|n| n.span.start == h.span.start && n.span.end == grown(h))
            .filter(|n| n.path == h.path && n.tag == h.tag)
            .map(|n| (h, n))
    })?;
    // Widened to the outermost ancestor written whole, in either string.
    let chosen = if holder.whole || again.whole {
        let outermost = olds
            .iter()
            .filter(|e| {
                e.span.start <= holder.span.start && e.span.end >= holder.span.end && e.whole
            })
            .min_by_key(|e| e.span.start)?;
        let check = news
            .iter()
            .find(|n| n.span.start == outermost.span.start && n.span.end == grown(outermost))?;
        if check.path != outermost.path || check.tag != outermost.tag {
            return None;
        }
        outermost
    } else {
        holder
    };
    let mut path = Vec::new();
    for depth in 1..=chosen.path.len() {
        let at = &chosen.path[..depth];
        let tag = olds.iter().find(|e| e.path == at)?.tag.clone();
        path.push((chosen.path[depth - 1], tag));
    }
    Some(Change {
        path,
        children: chosen.children,
        new: chosen.span.start..grown(chosen),
        whole: chosen.whole,
    })
}

#[cfg(test)]
#[path = "patch_tests.rs"]
mod tests;
