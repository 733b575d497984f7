//! The best scores on the page, one game at a time (a tab per game): each variant's table of the ten best ranked
//! games ([`Storage::best`], the terminal's tables) under its figures, as the statistics count them
//! ([`parlor::mid::stats::game_stats`]: only ranked games, never an assisted one).

use super::Face;
use super::history::top;
use super::html::esc;
use crate::store::WebStore;
use parlor::mid::stats::{average_label, average_text, game_stats};
use parlor::storage::{Ranking, Scoreboard, Storage, format_time};

/// The tabs of the record screens: a button per game, the one shown pressed; each asks for `act:<index>`.
pub fn tabs(faces: &[&dyn Face], shown: usize, act: &str) -> String {
    let mut out = String::from("<nav class=\"tabs\" aria-label=\"Games\">");
    for (i, f) in faces.iter().enumerate() {
        let on = i == shown;
        out.push_str(&format!(
            "<button type=\"button\" class=\"cmd tab{}\" data-act=\"{act}:{i}\" aria-pressed=\"{on}\">{}</button>",
            if on { " on" } else { "" },
            esc(f.any().title())
        ));
    }
    out.push_str("</nav>");
    out
}

/// The best scores of the game `shown` (an index into `faces`), every variant played.
pub fn scores_html(faces: &[&dyn Face], shown: usize, store: &WebStore) -> String {
    let mut out = format!("<main class=\"menu records\">{}", top("Best scores"));
    out.push_str(&tabs(faces, shown, "scores"));
    let Some(face) = faces.get(shown) else {
        return out + "</main>";
    };
    let game = face.any();
    let stats = game_stats(store, game).ok();
    let variants = store.variants(game.id()).unwrap_or_default();
    if variants.is_empty() {
        out.push_str(&format!(
            "<p>No finished {} game yet.</p>",
            esc(game.title())
        ));
    }
    for v in &variants {
        let options = store
            .variant_options(game.id(), v)
            .ok()
            .flatten()
            .unwrap_or_default();
        let ranking = game.ranking(&options);
        out.push_str(&format!(
            "<section class=\"table\" aria-label=\"{} {}\"><h2>{}</h2>",
            esc(game.title()),
            esc(v),
            esc(v)
        ));
        if let Some(vs) = stats
            .as_ref()
            .and_then(|s| s.variants.iter().find(|x| &x.variant == v))
        {
            let f = &vs.figures;
            let average = match (average_label(vs.ranking, game.score_name()), f.average) {
                (Some(label), Some(a)) => {
                    format!(" · {label} {} over {} ranked", average_text(a), f.ranked)
                }
                _ => String::new(),
            };
            out.push_str(&format!(
                "<p>{} played · {} won{} · {} assisted</p>",
                f.played,
                f.outcomes.won,
                esc(&average),
                f.assisted
            ));
        }
        let rows = store
            .best(Scoreboard::new(game.id(), v, ranking), 10)
            .unwrap_or_default();
        if ranking == Ranking::Unranked {
            out.push_str("<p>These games have no best scores.</p>");
        } else if rows.is_empty() {
            out.push_str("<p>No game ranks yet: assisted games, games from a chosen seed and, where wins count, lost games stay out.</p>");
        } else {
            out.push_str(&format!(
                "<table class=\"best\"><thead><tr><th>#</th><th>{}</th><th>Result</th><th>Date</th></tr></thead><tbody>",
                esc(&parlor::mid::capitalised(game.score_name()))
            ));
            for (i, r) in rows.iter().enumerate() {
                out.push_str(&format!(
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    i + 1,
                    r.score,
                    r.result.as_str(),
                    esc(&format_time(r.ended_at))
                ));
            }
            out.push_str("</tbody></table>");
        }
        out.push_str("</section>");
    }
    out.push_str(&format!(
        "<p class=\"small\">{}</p></main>",
        esc(game.ranks())
    ));
    out
}
