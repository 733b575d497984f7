//! Statistics for any game, written once: the figures of every variant (from [`Storage::tally`]), the data of the
//! charts the game asks for ([`Chart`], the game's one hook [`Game::charts`](super::game::Game::charts)), and the
//! same figures as text (plain mode, `parlor stats`) and as JSON (`parlor stats --json`). The full screen draws them
//! in `tui::stats`.

use super::AnyGame;
use crate::figures::{agree, count, grouped};
use crate::storage::{Damaged, Figures, Outcome, Outcomes, Ranking, Storage};
use anyhow::Result;
use serde_json::{Value, json};

/// A chart the statistics show for a variant. Which ones a game shows is its choice
/// ([`Game::charts`](super::game::Game::charts)); the data and the drawing are the same for every game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chart {
    /// How the ranked games' scores spread: one bar per score, or per range of scores when they spread wide. Where
    /// only wins rank (fewest guesses or plies), a last bar counts the games that would have ranked had they been
    /// won.
    Scores,
    /// A figure of each ranked game's final position, counted by value (the highest tile, say), over the newest
    /// [`PEAK_GAMES`] ranked games (the games are rebuilt from their moves to find it). Holds the figure's name.
    Peaks(&'static str),
    /// Results over time: every game in the order it was played, cut into at most [`BLOCKS`] equal blocks, each
    /// with its results and win rate.
    Results,
}

/// The most bars a score chart has.
pub const MAX_BARS: usize = 12;
/// The most blocks a results chart cuts the games into.
pub const BLOCKS: usize = 20;
/// How many of the newest ranked games a [`Chart::Peaks`] chart rebuilds.
pub const PEAK_GAMES: usize = 1000;

/// One bar: how many games had a value from `from` to `to` (both included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bar {
    /// The smallest value counted.
    pub from: i64,
    /// The largest value counted.
    pub to: i64,
    /// How many games.
    pub count: u64,
}

impl Bar {
    /// The bar's label: the value, or the start of the range in short form (`5k`).
    pub fn label(&self) -> String {
        if self.from == self.to {
            self.from.to_string()
        } else {
            short(self.from)
        }
    }

    /// The range in words (`512`, `5000 to 9999`).
    pub fn range(&self) -> String {
        if self.from == self.to {
            self.from.to_string()
        } else {
            format!("{} to {}", self.from, self.to)
        }
    }
}

/// Games `first` to `last` (1-based, in the order they were played) and how they ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Block {
    /// The first game of the block.
    pub first: u64,
    /// The last game of the block.
    pub last: u64,
    /// How they ended.
    pub outcomes: Outcomes,
}

/// The data of one chart.
#[derive(Clone, Debug, PartialEq)]
pub enum ChartData {
    /// See [`Chart::Scores`].
    Scores {
        /// The bars, lowest values first.
        bars: Vec<Bar>,
        /// The games not won (only where wins rank).
        not_won: Option<u64>,
    },
    /// See [`Chart::Peaks`].
    Peaks {
        /// The figure's name (`highest tile`).
        name: &'static str,
        /// One bar per value reached, lowest first.
        bars: Vec<Bar>,
        /// How many games were looked at (the newest ranked ones, at most [`PEAK_GAMES`]).
        games: u64,
    },
    /// See [`Chart::Results`].
    Results {
        /// The blocks, oldest first.
        blocks: Vec<Block>,
    },
}

/// The statistics of one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantStats {
    /// The variant.
    pub variant: String,
    /// How it ranks (what best and average mean).
    pub ranking: Ranking,
    /// The figures.
    pub figures: Figures,
    /// The charts the game asks for, with their data.
    pub charts: Vec<ChartData>,
}

/// The statistics of one game, variant by variant (most played first).
#[derive(Clone, Debug, PartialEq)]
pub struct GameStats {
    /// The game's name on the command line.
    pub id: &'static str,
    /// Its name for people.
    pub title: &'static str,
    /// The name of its score (`score`, `guesses`, `plies`).
    pub score_name: &'static str,
    /// Every variant with a finished game.
    pub variants: Vec<VariantStats>,
}

/// Reads the statistics of `game`.
pub fn game_stats<T: AnyGame + ?Sized>(store: &dyn Storage, game: &T) -> Result<GameStats> {
    let tallies = store.tally(game.id(), &|options: &str| game.ranking(options))?;
    let mut variants = Vec::new();
    for t in tallies {
        let mut charts = Vec::new();
        for chart in game.charts(&t.options) {
            charts.push(match chart {
                Chart::Scores => ChartData::Scores {
                    bars: histogram(&t.tallied.ranked_scores, MAX_BARS),
                    not_won: (t.ranking == Ranking::FewestToWin).then_some(t.tallied.not_won),
                },
                Chart::Peaks(name) => {
                    let records = store.recent_clean(game.id(), &t.variant, PEAK_GAMES)?;
                    let ranked = records.iter().filter(|r| match t.ranking {
                        Ranking::HighScore => true,
                        Ranking::FewestToWin => r.result == Outcome::Won,
                        Ranking::Unranked => false,
                    });
                    let peaks: Vec<i64> = ranked.filter_map(|r| game.peak(r)).collect();
                    ChartData::Peaks {
                        name,
                        games: peaks.len() as u64,
                        bars: counted(&peaks),
                    }
                }
                Chart::Results => ChartData::Results {
                    blocks: blocks(&t.tallied.results, BLOCKS),
                },
            });
        }
        variants.push(VariantStats {
            variant: t.variant,
            ranking: t.ranking,
            figures: t.tallied.figures,
            charts,
        });
    }
    Ok(GameStats {
        id: game.id(),
        title: game.title(),
        score_name: game.score_name(),
        variants,
    })
}

/// A number in at most five characters: `950`, `5k`, `12.5k`, `1.2M`.
pub fn short(n: i64) -> String {
    let a = n.unsigned_abs();
    let (value, unit) = if a >= 1_000_000 {
        (n as f64 / 1e6, "M")
    } else if a >= 10_000 || (a >= 1000 && a.is_multiple_of(100)) {
        (n as f64 / 1e3, "k")
    } else {
        return n.to_string();
    };
    let text = format!("{value:.1}");
    let text = text.trim_end_matches(".0");
    format!("{text}{unit}")
}

/// Counts `values` into at most `max_bars` (at least 2) bars of equal width: one bar per value when they span few enough, else
/// ranges of a round width (1, 2 or 5 times a power of ten), every bar from the lowest to the highest shown.
pub fn histogram(values: &[i64], max_bars: usize) -> Vec<Bar> {
    let (Some(&lo), Some(&hi)) = (values.iter().min(), values.iter().max()) else {
        return Vec::new();
    };
    // Two bars at least: values on both sides of a multiple of every width never fit in one.
    let max_bars = max_bars.max(2) as i128;
    let span = i128::from(hi) - i128::from(lo) + 1;
    let (width, start) = if span <= max_bars {
        (1i128, i128::from(lo))
    } else {
        let mut width = 1i128;
        'search: loop {
            for m in [1, 2, 5] {
                let w = width * m;
                let start = i128::from(lo).div_euclid(w) * w;
                if (i128::from(hi) - start) / w < max_bars {
                    break 'search (w, start);
                }
            }
            width *= 10;
        }
    };
    let n = ((i128::from(hi) - start) / width + 1) as usize;
    let clamp = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
    let mut bars: Vec<Bar> = (0..n)
        .map(|i| {
            let from = start + i as i128 * width;
            Bar {
                from: clamp(from),
                to: clamp(from + width - 1),
                count: 0,
            }
        })
        .collect();
    for &v in values {
        let i = ((i128::from(v) - start) / width) as usize;
        bars[i].count += 1;
    }
    bars
}

/// One bar per distinct value, lowest first.
pub fn counted(values: &[i64]) -> Vec<Bar> {
    let mut map = std::collections::BTreeMap::new();
    for &v in values {
        *map.entry(v).or_insert(0u64) += 1;
    }
    map.into_iter()
        .map(|(v, count)| Bar {
            from: v,
            to: v,
            count,
        })
        .collect()
}

/// Cuts the results into at most `max_blocks` blocks of equal size (the last one may be shorter), oldest first.
pub fn blocks(results: &[Outcome], max_blocks: usize) -> Vec<Block> {
    if results.is_empty() {
        return Vec::new();
    }
    let size = results.len().div_ceil(max_blocks.max(1));
    results
        .chunks(size)
        .enumerate()
        .map(|(i, chunk)| {
            let first = (i * size) as u64 + 1;
            Block {
                first,
                last: first + chunk.len() as u64 - 1,
                outcomes: Outcomes::of(chunk),
            }
        })
        .collect()
}

/// What best means for a ranking, with the score's name (`highest score`, `fewest guesses to win`).
pub fn best_label(ranking: Ranking, score_name: &str) -> Option<String> {
    match ranking {
        Ranking::HighScore => Some(format!("highest {score_name}")),
        Ranking::FewestToWin => Some(format!("fewest {score_name} to win")),
        Ranking::Unranked => None,
    }
}

/// What average means for a ranking (`average score`, `average guesses to win`).
pub fn average_label(ranking: Ranking, score_name: &str) -> Option<String> {
    match ranking {
        Ranking::HighScore => Some(format!("average {score_name}")),
        Ranking::FewestToWin => Some(format!("average {score_name} to win")),
        Ranking::Unranked => None,
    }
}

/// A fraction as a percentage (`41.7%`).
pub fn percent(f: f64) -> String {
    format!("{:.1}%", f * 100.0)
}

/// An average as text: whole numbers plainly, others to one decimal.
pub fn average_text(a: f64) -> String {
    if a.fract() == 0.0 {
        format!("{a:.0}")
    } else {
        format!("{a:.1}")
    }
}

/// The results of a count of games in words (`3 won, 1 lost`), leaving out what did not happen.
fn results_words(o: &Outcomes) -> String {
    // Where no game could be won or lost (two players, the codemaker's role), "0 won" says nothing true.
    let mut parts = Vec::new();
    if o.win_rate().is_some() {
        parts.push(format!("{} won", grouped(o.won)));
    }
    for (n, word) in [
        (o.lost, "lost"),
        (o.drawn, "drawn"),
        (o.gave_up, "given up"),
        (o.done, "with no result of yours"),
    ] {
        if n > 0 {
            parts.push(format!("{} {word}", grouped(n)));
        }
    }
    parts.join(", ")
}

/// The figures of a variant as lines of text (without the charts).
pub fn figure_lines(v: &VariantStats, score_name: &str) -> Vec<String> {
    let f = &v.figures;
    let mut lines = vec![format!(
        "played {}: {}",
        f.played,
        results_words(&f.outcomes)
    )];
    let marked: Vec<String> = [(f.assisted, "assisted"), (f.seeded, "from a chosen seed")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    if !marked.is_empty() {
        lines.push(format!(
            "of these, {}: not in best, average or the score charts",
            marked.join(" and ")
        ));
    }
    if f.damaged > 0 {
        lines.push(format!("{} left out", count(f.damaged, "damaged record")));
    }
    if let Some(rate) = f.outcomes.win_rate() {
        lines.push(format!(
            "win rate {} · current streak {} · longest streak {}",
            percent(rate),
            f.current_streak,
            f.longest_streak
        ));
    }
    match (
        best_label(v.ranking, score_name),
        average_label(v.ranking, score_name),
        f.best,
        f.average,
    ) {
        (Some(b), Some(a), Some(best), Some(avg)) => lines.push(format!(
            "{b} {best} · {a} {} ({})",
            average_text(avg),
            count(f.ranked, "ranked game")
        )),
        (Some(_), ..) => lines.push(
            "no ranked game yet (assisted games, games from a chosen seed and, where wins count, lost games \
             stay out)"
                .into(),
        ),
        (None, ..) => lines.push("these games have no best scores".into()),
    }
    lines
}

/// A chart's title (`Score spread, 12 ranked games`).
pub fn chart_title(chart: &ChartData, score_name: &str) -> String {
    match chart {
        ChartData::Scores { bars, not_won } => {
            let n: u64 = bars.iter().map(|b| b.count).sum::<u64>() + not_won.unwrap_or(0);
            format!(
                "{} of {}",
                super::capitalised(score_name),
                count(n, "unassisted game")
            )
        }
        ChartData::Peaks { name, games, .. } => format!(
            "{} of the newest {}",
            super::capitalised(name),
            count(*games, "unassisted game")
        ),
        ChartData::Results { blocks } => {
            let n = blocks.last().map_or(0, |b| b.last);
            let size = blocks.first().map_or(0, |b| b.last + 1 - b.first);
            let games = count(n, "game");
            if size > 1 {
                format!("Win rate over time, {games} in blocks of {size}")
            } else {
                format!("Win rate over time, {games}, one point each")
            }
        }
    }
}

/// A chart as lines of text: one line per bar or block, numbers only.
pub fn chart_lines(chart: &ChartData, score_name: &str) -> Vec<String> {
    let mut lines = vec![format!("{}:", chart_title(chart, score_name))];
    let games = |n: u64| count(n, "game");
    match chart {
        ChartData::Scores { bars, not_won } => {
            for b in bars {
                lines.push(format!("  {}: {}", b.range(), games(b.count)));
            }
            if let Some(n) = not_won {
                lines.push(format!("  not won: {}", games(*n)));
            }
        }
        ChartData::Peaks { bars, .. } => {
            for b in bars {
                lines.push(format!("  {}: {}", b.range(), games(b.count)));
            }
        }
        ChartData::Results { blocks } => {
            for b in blocks {
                let rate = b.outcomes.win_rate().map_or("no result".into(), percent);
                lines.push(format!(
                    "  games {} to {}: {} ({rate})",
                    b.first,
                    b.last,
                    results_words(&b.outcomes)
                ));
            }
        }
    }
    if lines.len() == 1 {
        lines.push("  (no game to show)".into());
    }
    lines
}

/// The statistics of a game as text: every variant's figures and charts.
pub fn text(stats: &GameStats) -> Vec<String> {
    if stats.variants.is_empty() {
        return vec![format!("{}: no finished game yet.", stats.title)];
    }
    let mut lines = Vec::new();
    for v in &stats.variants {
        lines.push(format!("{} · {}", stats.title, v.variant));
        for l in figure_lines(v, stats.score_name) {
            lines.push(format!("  {l}"));
        }
        for c in &v.charts {
            for l in chart_lines(c, stats.score_name) {
                lines.push(format!("  {l}"));
            }
        }
    }
    lines
}

/// What statistics say of the finished rows whose game is unknown ([`Storage::unknown_game`]), if any: they belong
/// to no game's figures, so every statistics (of every game, or of one) count them apart, as history counts them.
pub fn unknown_game_note(d: &Damaged) -> Option<String> {
    (d.count > 0).then(|| {
        format!(
            "Damaged, game unknown: {} counted under no game ({}); {} kept in the database, and history \
             counts {} as damaged.",
            count(d.count, "finished game"),
            d.reasons.join("; "),
            agree(d.count, "it is", "they are"),
            agree(d.count, "it", "them"),
        )
    })
}

/// How a ranking is named in JSON.
fn ranking_word(r: Ranking) -> &'static str {
    match r {
        Ranking::HighScore => "highest",
        Ranking::FewestToWin => "fewest to win",
        Ranking::Unranked => "unranked",
    }
}

fn bars_json(bars: &[Bar]) -> Value {
    bars.iter()
        .map(|b| json!({"from": b.from, "to": b.to, "count": b.count}))
        .collect()
}

/// The statistics of a game as JSON: `{"title", "score_name", "variants": [...]}`.
pub fn json(stats: &GameStats) -> Value {
    let variants: Vec<Value> = stats
        .variants
        .iter()
        .map(|v| {
            let f = &v.figures;
            let o = &f.outcomes;
            let charts: Vec<Value> = v
                .charts
                .iter()
                .map(|c| match c {
                    ChartData::Scores { bars, not_won } => {
                        json!({"chart": "scores", "bars": bars_json(bars), "not_won": not_won})
                    }
                    ChartData::Peaks { name, bars, games } => json!({
                        "chart": "peaks", "name": name, "games": games, "bars": bars_json(bars)
                    }),
                    ChartData::Results { blocks } => json!({
                        "chart": "results",
                        "blocks": blocks.iter().map(|b| {
                            let o = &b.outcomes;
                            json!({
                                "first": b.first, "last": b.last, "won": o.won, "lost": o.lost, "drawn": o.drawn,
                                "gave_up": o.gave_up, "done": o.done, "win_rate": o.win_rate(),
                            })
                        }).collect::<Vec<_>>(),
                    }),
                })
                .collect();
            json!({
                "variant": v.variant, "ranking": ranking_word(v.ranking),
                "played": f.played, "won": o.won, "lost": o.lost, "drawn": o.drawn, "gave_up": o.gave_up,
                "done": o.done, "assisted": f.assisted, "seeded": f.seeded, "damaged": f.damaged,
                "win_rate": o.win_rate(), "current_streak": f.current_streak, "longest_streak": f.longest_streak,
                "ranked": f.ranked, "best": f.best, "average": f.average, "charts": charts,
            })
        })
        .collect();
    json!({"title": stats.title, "score_name": stats.score_name, "variants": variants})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_use_one_bar_per_value_when_few_and_round_ranges_otherwise() {
        let bars = histogram(&[3, 5, 5, 7], 12);
        let counts: Vec<u64> = bars.iter().map(|b| b.count).collect();
        assert_eq!(counts, [1, 0, 2, 0, 1]);
        assert_eq!((bars[0].from, bars[4].to), (3, 7));
        let bars = histogram(&[120, 4_000, 9_999, 10_000, 33_000], 12);
        assert_eq!(bars[0].from, 0);
        assert_eq!(bars[0].to - bars[0].from + 1, 5_000);
        assert_eq!(bars.len(), 7);
        assert_eq!(bars.iter().map(|b| b.count).sum::<u64>(), 5);
        assert_eq!(bars[1].count, 1, "9999 in 5000 to 9999");
        assert_eq!(bars[2].count, 1, "10000 in 10000 to 14999");
        assert!(histogram(&[], 12).is_empty());
        assert!(histogram(&[i64::MIN, i64::MAX], 12).len() <= 12);
        assert_eq!(histogram(&[-3, 4], 1).len(), 2);
    }

    #[test]
    fn blocks_cut_the_results_in_order() {
        use Outcome::*;
        let results = [Won, Lost, Won, Won, Draw, GaveUp, Won];
        let b = blocks(&results, 3);
        assert_eq!(b.len(), 3);
        assert_eq!(
            (b[0].first, b[0].last, b[0].outcomes.won, b[0].outcomes.lost),
            (1, 3, 2, 1)
        );
        assert_eq!((b[2].first, b[2].last, b[2].outcomes.won), (7, 7, 1));
        assert_eq!(b[1].outcomes.win_rate(), Some(1.0 / 3.0));
        assert!(blocks(&[], 20).is_empty());
        assert_eq!(blocks(&[Done], 20)[0].outcomes.win_rate(), None);
    }

    #[test]
    fn short_numbers_fit_a_bar() {
        for (n, want) in [
            (950, "950"),
            (5_000, "5k"),
            (1_234, "1234"),
            (12_500, "12.5k"),
            (1_200_000, "1.2M"),
        ] {
            assert_eq!(short(n), want, "{n}");
        }
    }
}
