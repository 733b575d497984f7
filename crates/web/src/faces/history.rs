//! The history on the page: the finished games of the page's store, newest first (as the terminal's history
//! reads them, [`Storage::history`]), each a button that opens its replay ([`super::replay`]) and one that opens
//! its review ([`super::review`]).

use super::Face;
use super::html::{button, esc};
use crate::store::WebStore;
use parlor::storage::{Storage, format_time};

/// How many finished games the history lists (the terminal's history reads as many).
pub const SHOWN: usize = 500;

/// The screen's title, the Menu button and its heading: every record screen's top.
pub fn top(title: &str) -> String {
    format!(
        "<header class=\"top\"><h1>{}</h1>{}</header>",
        esc(title),
        button("menu", "Menu", "cmd", Some("Back to the menu"))
    )
}

/// The history: a button per finished game (game, variant, result, score, date), newest first.
pub fn history_html(faces: &[&dyn Face], store: &WebStore, notice: &str) -> String {
    let mut out = format!("<main class=\"menu records\">{}", top("History"));
    if !notice.is_empty() {
        out.push_str(&format!(
            "<p class=\"notice\" role=\"status\">{}</p>",
            esc(notice)
        ));
    }
    let games = match store.history(None, SHOWN) {
        Ok(h) => {
            if let Some(note) = h.note() {
                out.push_str(&format!("<p class=\"notice\">{}</p>", esc(&note)));
            }
            h.games
        }
        Err(e) => {
            out.push_str(&format!(
                "<p class=\"notice\">Could not read the history: {}</p>",
                esc(&format!("{e:#}"))
            ));
            Vec::new()
        }
    };
    if games.is_empty() {
        out.push_str(&format!(
            "<p>{}</p>",
            esc(parlor::mid::record::nothing_to_show(store))
        ));
    }
    out.push_str("<ol class=\"list history\">");
    for r in &games {
        let face = faces.iter().find(|f| f.any().id() == r.game);
        let title = face.map_or(r.game.as_str(), |f| f.any().title());
        let counted = face.map_or("score", |f| f.any().score_name());
        let marks = match (r.practice, r.assisted, r.seeded) {
            (true, _, _) => " · practice",
            (false, true, _) => " · assisted",
            (false, false, true) => " · seeded",
            _ => "",
        };
        let when = format_time(r.ended_at);
        out.push_str(&format!(
            "<li class=\"entry\"><button type=\"button\" class=\"item record\" data-act=\"replay:{}\" aria-label=\"Replay {} {}, {}, {counted} {}, {}\"><b>{}</b><span>{} · {} · {counted} {}{marks}</span><small>{}</small></button>{}</li>",
            r.id,
            esc(title),
            esc(&r.variant),
            r.result.as_str(),
            r.score,
            esc(&when),
            esc(title),
            esc(&r.variant),
            r.result.as_str(),
            r.score,
            esc(&when),
            button(
                &format!("review:{}", r.id),
                "Review",
                "cmd review-it",
                Some(&format!("Review game #{} ({})", r.id, title))
            )
        ));
    }
    out.push_str("</ol></main>");
    out
}
