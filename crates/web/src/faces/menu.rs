//! The menu and a game's setup as HTML: a button per game with its best score, the games in progress to take up,
//! and each game's settings as form controls made from the game's own table of settings
//! ([`parlor::mid::settings::Setting`]) and checked by the game ([`AnyGame::params_from`]).

use super::Face;
use super::html::{button, esc};
use crate::store::WebStore;
use parlor::mid::settings::Kind;
use parlor::mid::{AnyGame, Contexts, ParamsFrom};
use parlor::storage::Storage;

/// The menu: games in progress, a button per game, the terminal face's link.
pub fn menu_html(
    faces: &[&dyn Face],
    store: &WebStore,
    contexts: &Contexts,
    notice: &str,
) -> String {
    let mut out =
        String::from("<main class=\"menu\"><header class=\"top\"><h1>Parlor</h1></header>");
    if !notice.is_empty() {
        out.push_str(&format!(
            "<p class=\"notice\" role=\"status\">{}</p>",
            esc(notice)
        ));
    }
    let saved = store.unfinished(None).unwrap_or_default();
    let mut rows = String::new();
    for s in &saved {
        let Some(face) = faces.iter().find(|f| f.any().id() == s.game) else {
            continue;
        };
        let Ok(progress) = face.any().progress(s, contexts) else {
            continue;
        };
        let label = format!("Continue {}: {progress}", face.any().title());
        rows.push_str(&button(
            &format!("resume:{}", s.session),
            &label,
            "item resume",
            None,
        ));
    }
    if !rows.is_empty() {
        out.push_str(&format!(
            "<section aria-label=\"Games in progress\"><h2>Continue</h2><div class=\"list\">{rows}</div></section>"
        ));
    }
    out.push_str("<section aria-label=\"New game\"><h2>New game</h2><div class=\"games\">");
    for (i, f) in faces.iter().enumerate() {
        let g = f.any();
        let best = f
            .best(store)
            .map_or_else(String::new, |b| format!(" · best {b}"));
        out.push_str(&format!(
            "<button type=\"button\" class=\"game\" data-act=\"setup:{i}\" aria-label=\"New game: {}\"><b>{}</b><span>{}{}</span></button>",
            esc(g.title()),
            esc(g.title()),
            esc(g.blurb()),
            esc(&best)
        ));
    }
    out.push_str(&format!(
        "</div></section><section aria-label=\"Records and settings\"><h2>More</h2><div class=\"row more\">{}{}{}{}{}</div></section>",
        button("online", "Online", "cmd wide", Some("Online: play against people")),
        button("history", "History", "cmd wide", None),
        button("scores:0", "Best scores", "cmd wide", None),
        button("stats:0", "Statistics", "cmd wide", None),
        button("settings", "Settings", "cmd wide", None)
    ));
    out.push_str("<footer class=\"foot\"><a class=\"cmd\" href=\"?face=terminal\">Terminal view</a></footer></main>");
    out
}

/// The parameters made from the setup's values.
pub fn params(game: &dyn AnyGame, values: &[(String, String)], contexts: &Contexts) -> ParamsFrom {
    game.params_from(values, contexts)
}

/// One setting's choices: (value, label); a wide range of numbers as its round values (1, 2 and 5 times a power
/// of ten) between its ends.
pub fn choices(kind: &Kind) -> Vec<(String, String)> {
    match kind {
        Kind::Choice(list) => list
            .iter()
            .map(|(v, l)| (v.to_string(), l.to_string()))
            .collect(),
        Kind::Number { min, max } if max - min < 64 => (*min..=*max)
            .map(|v| (v.to_string(), v.to_string()))
            .collect(),
        Kind::Number { min, max } => {
            let mut values = vec![*min];
            let mut unit = 1i64;
            while unit <= *max / 10 + 1 && values.len() < 64 {
                for m in [1, 2, 5] {
                    let v = unit.saturating_mul(m);
                    if v > *min && v < *max {
                        values.push(v);
                    }
                }
                unit = unit.saturating_mul(10);
            }
            values.push(*max);
            values
                .into_iter()
                .map(|v| (v.to_string(), v.to_string()))
                .collect()
        }
        Kind::Decimal { min, max, step } => {
            let mut out = Vec::new();
            let steps = ((max - min) / step).round().clamp(0.0, 64.0) as usize;
            for i in 0..=steps {
                let v = min + step * i as f64;
                let t = format!("{v:.2}")
                    .trim_end_matches('0')
                    .trim_end_matches('.')
                    .to_string();
                let t = if t.is_empty() { "0".to_string() } else { t };
                out.push((t.clone(), t));
            }
            out
        }
        Kind::Toggle => vec![("yes".into(), "yes".into()), ("no".into(), "no".into())],
        Kind::Text => Vec::new(),
    }
}

/// A game's setup: its settings as selects, Start and Back.
pub fn setup_html(
    index: usize,
    game: &dyn AnyGame,
    chosen: &ParamsFrom,
    best: Option<i64>,
) -> String {
    let mut out = format!(
        "<main class=\"menu setup\"><header class=\"top\"><h1>{}</h1></header><p>{}</p><form class=\"form\" onsubmit=\"return false\">",
        esc(game.title()),
        esc(game.blurb())
    );
    for s in game.settings() {
        let Some((_, value)) = chosen.values.iter().find(|(k, _)| *k == s.key) else {
            continue;
        };
        let mut list = choices(&s.kind);
        if list.is_empty() {
            continue;
        }
        if !list.iter().any(|(v, _)| v == value) {
            list.push((value.clone(), value.clone()));
        }
        let opts: String = list
            .iter()
            .map(|(v, l)| {
                let sel = if v == value { " selected" } else { "" };
                format!("<option value=\"{}\"{sel}>{}</option>", esc(v), esc(l))
            })
            .collect();
        out.push_str(&format!(
            "<label class=\"field\"><span>{}</span><select data-set=\"{}\" title=\"{}\">{opts}</select></label>",
            esc(s.label),
            esc(s.key),
            esc(s.help)
        ));
    }
    out.push_str("</form>");
    for (_, why) in &chosen.refused {
        out.push_str(&format!(
            "<p class=\"notice\" role=\"status\">{}</p>",
            esc(why)
        ));
    }
    if let Some(b) = best {
        out.push_str(&format!("<p>Best score: {b}</p>"));
    }
    out.push_str(&format!(
        "<div class=\"row\">{}{}</div></main>",
        button(
            &format!("start:{index}"),
            "Start",
            "cmd wide primary",
            Some(&format!("Start {}", game.title()))
        ),
        button("menu", "Back", "cmd wide", Some("Back to the menu"))
    ));
    out
}
