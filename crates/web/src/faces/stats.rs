//! The statistics on the page, one game at a time (a tab per game): every variant's figures
//! ([`parlor::mid::stats::figure_lines`]) and the charts its game asks for ([`ChartData`], the core's data),
//! drawn as rows of HTML bars: a label, a bar as long as its share of the largest, and the number, which read
//! at 320 px and without colour.

use super::Face;
use super::history::top;
use super::html::esc;
use super::scores::tabs;
use crate::store::WebStore;
use parlor::mid::stats::{ChartData, chart_title, figure_lines, game_stats, percent};

/// One chart as rows of (label, value, the value shown), the bars scaled to `max`.
fn bars(title: &str, rows: &[(String, u64, String)], max: u64) -> String {
    let mut out = format!(
        "<figure class=\"chart\"><figcaption>{}</figcaption>",
        esc(title)
    );
    if rows.is_empty() {
        out.push_str("<p>no game to show</p>");
    }
    out.push_str("<ul class=\"bars\">");
    for (label, value, shown) in rows {
        let pct = (value * 100).checked_div(max).unwrap_or(0);
        out.push_str(&format!(
            "<li><span class=\"label\">{}</span><span class=\"bar\"><i style=\"width:{pct}%\"></i></span><span class=\"value\">{}</span></li>",
            esc(label),
            esc(shown)
        ));
    }
    out.push_str("</ul></figure>");
    out
}

/// A chart's rows.
fn chart_html(chart: &ChartData, score_name: &str) -> String {
    let title = chart_title(chart, score_name);
    let counts = |data: Vec<(String, u64)>| {
        let max = data.iter().map(|(_, n)| *n).max().unwrap_or(0);
        let rows: Vec<(String, u64, String)> = data
            .into_iter()
            .map(|(l, n)| (l, n, n.to_string()))
            .collect();
        bars(&title, &rows, max)
    };
    match chart {
        ChartData::Scores { bars, not_won } => {
            let mut data: Vec<(String, u64)> = bars.iter().map(|b| (b.range(), b.count)).collect();
            if let Some(n) = not_won {
                data.push(("not won".into(), *n));
            }
            if data.iter().all(|(_, n)| *n == 0) {
                data.clear();
            }
            counts(data)
        }
        ChartData::Peaks { bars, .. } => {
            counts(bars.iter().map(|b| (b.range(), b.count)).collect())
        }
        ChartData::Results { blocks } => {
            let rows: Vec<(String, u64, String)> = blocks
                .iter()
                .map(|b| {
                    let rate = b.outcomes.win_rate();
                    let label = if b.first == b.last {
                        format!("game {}", b.first)
                    } else {
                        format!("games {}–{}", b.first, b.last)
                    };
                    (
                        label,
                        rate.map_or(0, |r| (r * 100.0).round() as u64),
                        rate.map_or_else(|| "no result".to_string(), percent),
                    )
                })
                .collect();
            bars(&format!("{title} (win rate)"), &rows, 100)
        }
    }
}

/// The statistics of the game `shown` (an index into `faces`).
pub fn stats_html(faces: &[&dyn Face], shown: usize, store: &WebStore) -> String {
    let mut out = format!("<main class=\"menu records\">{}", top("Statistics"));
    out.push_str(&tabs(faces, shown, "stats"));
    let Some(face) = faces.get(shown) else {
        return out + "</main>";
    };
    let game = face.any();
    match game_stats(store, game) {
        Err(e) => out.push_str(&format!(
            "<p class=\"notice\">Could not read the statistics: {}</p>",
            esc(&format!("{e:#}"))
        )),
        Ok(s) if s.variants.is_empty() => {
            out.push_str(&format!("<p>No finished {} game yet.</p>", esc(s.title)))
        }
        Ok(s) => {
            for v in &s.variants {
                out.push_str(&format!(
                    "<section class=\"table\" aria-label=\"{} {}\"><h2>{}</h2>",
                    esc(s.title),
                    esc(&v.variant),
                    esc(&v.variant)
                ));
                for line in figure_lines(v, s.score_name) {
                    out.push_str(&format!("<p>{}</p>", esc(&line)));
                }
                for chart in &v.charts {
                    out.push_str(&chart_html(chart, s.score_name));
                }
                out.push_str("</section>");
            }
        }
    }
    out.push_str(&format!(
        "<p class=\"small\">{}</p></main>",
        esc(game.charts_help())
    ));
    out
}
