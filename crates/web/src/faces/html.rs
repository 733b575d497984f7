//! The faces' small view layer: HTML text built by plain functions (escaped), which the shell writes into the
//! page changing only the nodes that differ (`morph`); every control names the action it asks for in a `data-act`
//! attribute, which the shell's one delegated listener reads. Plain Rust, tested natively.

/// `text` escaped for HTML text and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A button that asks for `act` when pressed, showing `label` (its accessible name unless `aria` gives one).
pub fn button(act: &str, label: &str, class: &str, aria: Option<&str>) -> String {
    let aria = aria.map_or_else(String::new, |a| format!(" aria-label=\"{}\"", esc(a)));
    format!(
        "<button type=\"button\" class=\"{}\" data-act=\"{}\"{aria}>{}</button>",
        esc(class),
        esc(act),
        esc(label)
    )
}

/// A button as [`button`], greyed out and inert when `enabled` is false.
pub fn button_if(enabled: bool, act: &str, label: &str, class: &str, aria: Option<&str>) -> String {
    let b = button(act, label, class, aria);
    if enabled {
        b
    } else {
        b.replacen("<button ", "<button disabled ", 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        assert_eq!(
            esc("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;"
        );
        let b = button("x\"y", "<Undo>", "c", Some("Undo the \"last\" move"));
        assert!(b.contains("data-act=\"x&quot;y\""), "{b}");
        assert!(b.contains("&lt;Undo&gt;</button>"), "{b}");
        assert!(
            b.contains("aria-label=\"Undo the &quot;last&quot; move\""),
            "{b}"
        );
        assert!(button_if(false, "u", "Undo", "", None).starts_with("<button disabled "));
    }
}
