//! A screen written into the page by changing only what changed (wasm32 only): the new screen's HTML is parsed
//! into an inert template, then walked beside the page's nodes; a node equal to its new one (`isEqualNode`) is
//! kept, an element of the same tag keeps its place and takes the new attributes (its class and style among them)
//! and children, anything else is replaced by the new node. So a tap that adds one peg or selects one square
//! restyles that peg or square, not the whole screen, and no element is taken out of the page (which would cost the
//! browser its focus, hover and pointer capture, and a new box). An element marked `data-whole` (2048's board,
//! whose tiles' CSS animations must start again at each move) is replaced whole when it differs; and form controls
//! are replaced whole when they differ (a select's shown value follows its `selected` option only until the user
//! picks one). When a change lies inside one element, only that element is parsed and walked (`patch`).

use wasm_bindgen::JsCast;
use web_sys::{Element, Node};

/// Whether `old` can be kept and brought up to `new` in place.
fn same_shell(old: &Element, new: &Element) -> bool {
    old.tag_name() == new.tag_name()
        && !matches!(
            old.tag_name().as_str(),
            "SELECT" | "OPTION" | "INPUT" | "TEXTAREA"
        )
        && !new.has_attribute("data-whole")
}

/// `old`'s attributes made `new`'s.
fn sync_attributes(old: &Element, new: &Element) {
    for name in old.get_attribute_names().iter() {
        if let Some(name) = name.as_string()
            && !new.has_attribute(&name)
        {
            let _ = old.remove_attribute(&name);
        }
    }
    for name in new.get_attribute_names().iter() {
        if let Some(name) = name.as_string() {
            let value = new.get_attribute(&name).unwrap_or_default();
            if old.get_attribute(&name).as_deref() != Some(value.as_str()) {
                let _ = old.set_attribute(&name, &value);
            }
        }
    }
}

fn children(node: &Node) -> Vec<Node> {
    let list = node.child_nodes();
    (0..list.length()).filter_map(|i| list.item(i)).collect()
}

/// Makes `old`'s children those of `new` (which gives its nodes up).
fn morph_children(old: &Node, new: &Node) {
    let olds = children(old);
    let news = children(new);
    for (i, n) in news.iter().enumerate() {
        let Some(o) = olds.get(i) else {
            let _ = old.append_child(n);
            continue;
        };
        if o.is_equal_node(Some(n)) {
            continue;
        }
        match (o.dyn_ref::<Element>(), n.dyn_ref::<Element>()) {
            (Some(oe), Some(ne)) if same_shell(oe, ne) => {
                sync_attributes(oe, ne);
                morph_children(o, n);
            }
            (None, None)
                if o.node_type() == Node::TEXT_NODE && n.node_type() == Node::TEXT_NODE =>
            {
                o.set_node_value(n.node_value().as_deref());
            }
            _ => {
                let _ = old.replace_child(n, o);
            }
        }
    }
    for o in olds.iter().skip(news.len()) {
        let _ = old.remove_child(o);
    }
}

/// A template element to parse HTML in (inert: nothing in it loads or runs).
fn template(doc: &web_sys::Document) -> Option<web_sys::HtmlTemplateElement> {
    doc.create_element("template")
        .ok()
        .and_then(|t| t.dyn_into::<web_sys::HtmlTemplateElement>().ok())
}

/// Writes `html` as `root`'s content, changing only the nodes that differ; `old` is the HTML last written there.
/// When the change lies inside one element ([`super::patch::changed`]), only that element's new HTML is parsed and
/// walked; otherwise the whole screen's. True when only a part was parsed.
pub fn write(doc: &web_sys::Document, root: &Element, old: &str, html: &str) -> bool {
    if let Some(change) = super::patch::changed(old, html)
        && let Some(part) = html.get(change.new.clone())
        && write_part(doc, root, &change, part)
    {
        return true;
    }
    match template(doc) {
        Some(template) => {
            template.set_inner_html(html);
            morph_children(root, &template.content());
        }
        None => root.set_inner_html(html),
    }
    false
}

/// Brings the element at `change.path` up to `html` (its new HTML), if the page holds there what the old HTML said
/// (the tag at every step, the element's number of children); false, with nothing changed, if not.
fn write_part(
    doc: &web_sys::Document,
    root: &Element,
    change: &super::patch::Change,
    html: &str,
) -> bool {
    let mut node: Node = root.clone().into();
    for (i, tag) in &change.path {
        let Some(child) = u32::try_from(*i)
            .ok()
            .and_then(|i| node.child_nodes().item(i))
        else {
            return false;
        };
        match child.dyn_ref::<Element>() {
            Some(e) if e.tag_name().eq_ignore_ascii_case(tag) => {}
            _ => return false,
        }
        node = child;
    }
    if usize::try_from(node.child_nodes().length()).ok() != Some(change.children) {
        return false;
    }
    let Some(template) = template(doc) else {
        return false;
    };
    template.set_inner_html(html);
    let content = template.content();
    if content.child_nodes().length() != 1 {
        return false;
    }
    let Some(new) = content.first_child() else {
        return false;
    };
    let (Some(oe), Some(ne)) = (node.dyn_ref::<Element>(), new.dyn_ref::<Element>()) else {
        return false;
    };
    if !change.whole && same_shell(oe, ne) {
        sync_attributes(oe, ne);
        morph_children(&node, &new);
        return true;
    }
    match node.parent_node() {
        Some(parent) => parent.replace_child(&new, &node).is_ok(),
        None => false,
    }
}
