//! `parlor mastermind ...`: the analysis commands (`feedback`, `solve`); the play flags come from the game's
//! settings.

use crate::cli::JsonFlag;
use crate::cli::play::CliGame;
use crate::cli::values::Listed;
use crate::games::mastermind::{Mastermind, default_strategy, pegs_text};
use anyhow::{Result, anyhow};
use clap::builder::ValueParser;
use clap::{Args, Subcommand};
use mastermind::{Palette, Strategy, Variant, feedback};
use std::io::Write;

/// The variant of an analysis command: a preset, optionally changed by the other options (which make it custom).
#[derive(Debug, Args, Clone, Default)]
pub struct VariantArgs {
    /// Preset to start from: seed (default: 6 colours, 4 pegs, 8 guesses, no colour twice in the secret), classic,
    /// super, bulls-cows; or custom-C-P-G-SR as older versions wrote it (C colours, P pegs, G guesses, then y or
    /// n for S, secret repeats, and R, guess repeats; e.g. custom-6-4-10-yy).
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// Number of colours, 2 to 10.
    #[arg(long, alias = "colors", value_name = "N", value_parser = clap::value_parser!(u32).range(2..=10))]
    pub colours: Option<u32>,
    /// Number of pegs in a code, 2 to 8.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=8))]
    pub pegs: Option<u32>,
    /// Number of guesses allowed, 1 to 30.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=30))]
    pub guesses: Option<u32>,
    /// Whether the secret may repeat a colour: yes or no.
    #[arg(long, value_name = "yes|no", value_parser = crate::cli::values::yes_no())]
    pub secret_repeats: Option<bool>,
    /// Whether a guess may repeat a colour: yes or no.
    #[arg(long, value_name = "yes|no", value_parser = crate::cli::values::yes_no())]
    pub guess_repeats: Option<bool>,
}

impl VariantArgs {
    /// The variant these options describe, or why it cannot be played.
    pub fn variant(&self) -> Result<Variant> {
        let base: Variant = match &self.variant {
            Some(name) => name.parse().map_err(|e| anyhow!("{e}"))?,
            None => Variant::default(),
        };
        let secret = self.secret_repeats;
        let guess = self.guess_repeats;
        if self.colours.is_none() && self.pegs.is_none() && secret.is_none() && guess.is_none() {
            return match self.guesses {
                Some(g) => base.with_guesses(g).map_err(|e| anyhow!("{e}")),
                None => Ok(base),
            };
        }
        let secret = secret.unwrap_or(base.secret_repeats());
        // Allowing repeats in the secret implies allowing them in guesses, unless asked otherwise.
        let guess = guess.unwrap_or(base.guess_repeats() || secret);
        let v = Variant::custom(
            self.colours.unwrap_or(u32::from(base.colours())),
            self.pegs.unwrap_or(u32::from(base.pegs())),
            self.guesses.unwrap_or(base.guesses()),
            secret,
            guess,
        )
        .map_err(|e| anyhow!("{e}"))?;
        // Bulls and Cows keeps its digits.
        Ok(if base.palette() == Palette::Digits {
            v.with_palette(Palette::Digits)
        } else {
            v
        })
    }
}

/// Mastermind analysis commands.
#[derive(Debug, Subcommand)]
pub enum MastermindAction {
    /// The feedback of a guess against a secret: black (right colour, right place) and white (right colour, wrong
    /// place). Any two codes of the variant's colours and length are scored, repeats or not. Codes as numbers in
    /// quotes ("1 3 6 5"), names or symbols (RYOK).
    Feedback {
        /// The secret code.
        #[arg(allow_hyphen_values = true)]
        secret: String,
        /// The guess.
        #[arg(allow_hyphen_values = true)]
        guess: String,
        /// The variant.
        #[command(flatten)]
        variant: VariantArgs,
        /// Output format.
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Plays a strategy against every secret of a variant: total and average guesses, worst case, histogram.
    Solve {
        /// The variant.
        #[command(flatten)]
        variant: VariantArgs,
        /// knuth, knuth-sorted, expected-size, entropy, most-parts, optimal or best (default: optimal where its tree can be had,
        /// as for hints: up to 10 minutes of CPU estimated, Bulls and Cows included; best on super, the best tree
        /// Parlor keeps; entropy beyond). best is optimal on every other variant.
        #[arg(long, value_name = "S")]
        strategy: Option<String>,
        /// Run even a solve estimated to take more than 10 minutes of CPU time, the most a game builds in the
        /// background (refused without this flag; Ctrl-C stops it).
        #[arg(long)]
        no_limit: bool,
        /// Output format.
        #[command(flatten)]
        json: JsonFlag,
    },
}

/// The longest solve, in estimated CPU seconds, that `solve` starts without `--no-limit`: what a game would build in
/// the background (so Bulls and Cows' optimal tree, about 110 s of CPU, runs without it).
pub const SOLVE_LIMIT_SECONDS: f64 = crate::games::mastermind::trees::BUILD_LIMIT_SECONDS;

/// A duration for people: "40 seconds", "17 minutes", "3 hours".
fn about(seconds: f64) -> String {
    use crate::figures::count;
    if seconds < 90.0 {
        count(seconds.round().max(1.0) as u64, "second")
    } else if seconds < 90.0 * 60.0 {
        count((seconds / 60.0).round() as u64, "minute")
    } else {
        count((seconds / 3600.0).round() as u64, "hour")
    }
}

fn strategy_or_default(s: &Option<String>, v: &Variant) -> Result<Strategy> {
    match s {
        Some(name) => name
            .parse::<Strategy>()
            .map(|s| s.resolved(v))
            .map_err(|e| anyhow!("{e}")),
        None => Ok(default_strategy(v)),
    }
}

impl CliGame for Mastermind {
    type Analysis = MastermindAction;
    const ABOUT: &'static str = "Play Mastermind (continuing the game in progress of the same settings, if there \
        is one), or run its analysis commands.\n\nExamples: `parlor mastermind --variant classic`, `parlor \
        mastermind --role maker`, `parlor mastermind --variant custom --colours 7 --pegs 5`, `parlor mastermind \
        feedback RRGG RGYU`, `parlor mastermind solve --variant classic --strategy knuth --json`.";

    const FILES: &'static [(&'static str, &'static str)] = &[(
        "$PARLOR_DATA_DIR/trees/",
        "Mastermind's strategy trees, checksummed; deleting them only costs the time to build them again.",
    )];

    fn values(cmd: &str, id: &str) -> Option<ValueParser> {
        Some(match id {
            "strategy" => Listed::new(
                |s: &str| {
                    s.parse::<Strategy>()
                        .map(|_| s.to_string())
                        .map_err(|e| e.to_string())
                },
                Strategy::ALL.iter().map(|s| s.name()),
            )
            .into(),
            "variant" if cmd == "feedback" || cmd == "solve" => Listed::new(
                |s: &str| Ok(s.to_string()),
                Variant::PRESETS.iter().map(|(n, _)| *n),
            )
            .into(),
            _ => return None,
        })
    }

    fn analyse(action: &MastermindAction, env: &crate::cli::env::Env) -> Result<()> {
        let trees = crate::paths::data_dir(env.global.data_dir.as_deref())
            .ok()
            .map(|d| d.join("trees"));
        run(action, trees.as_deref(), &mut std::io::stdout().lock())
    }
}

/// Runs an analysis command, writing to `out`; `solve` reads and keeps trees in `trees` (the data directory's
/// `trees/`) when given.
pub fn run(
    action: &MastermindAction,
    trees: Option<&std::path::Path>,
    out: &mut dyn Write,
) -> Result<()> {
    match action {
        MastermindAction::Feedback {
            secret,
            guess,
            variant,
            json,
        } => {
            let v = variant.variant()?;
            // Feedback is defined for any two codes of the variant's colours and length, repeats or not.
            let s = v
                .parse_pegs(secret)
                .map_err(|e| anyhow!("bad secret '{secret}': {e}"))?;
            let g = v
                .parse_pegs(guess)
                .map_err(|e| anyhow!("bad guess '{guess}': {e}"))?;
            let fb = feedback(s, g);
            if json.json {
                writeln!(
                    out,
                    "{}",
                    serde_json::json!({"black": fb.black, "white": fb.white})
                )?;
            } else {
                writeln!(
                    out,
                    "{} black, {} white ({})",
                    fb.black,
                    fb.white,
                    pegs_text(fb)
                )?;
            }
            Ok(())
        }
        MastermindAction::Solve {
            variant,
            strategy,
            no_limit,
            json,
        } => {
            let v = variant.variant()?;
            let st = strategy_or_default(strategy, &v)?;
            let estimate = mastermind::estimated_solve_seconds(&v, st);
            if estimate > SOLVE_LIMIT_SECONDS && !no_limit {
                return Err(anyhow!(
                    "{v}, {st}: this solve is estimated to take about {} of CPU time, over the limit of {}; \
                     pass --no-limit to run it anyway (it shows its progress, and Ctrl-C stops it){}",
                    about(estimate),
                    about(SOLVE_LIMIT_SECONDS),
                    if st == Strategy::Optimal && Strategy::Best.resolved(&v) == Strategy::Best {
                        ", or choose a heuristic (--strategy entropy), or --strategy best (the best tree Parlor \
                         keeps for this variant, read at once)"
                    } else if st == Strategy::Optimal {
                        ", or choose a heuristic (--strategy entropy)"
                    } else {
                        ""
                    }
                ));
            }
            let (r, source) =
                crate::games::mastermind::progress::solve_with_progress(&v, st, trees)?;
            use crate::games::mastermind::progress::Source;
            match source {
                Source::Kept(f) => eprintln!("parlor: read the tree kept in {}", f.display()),
                Source::Built(Ok(f)) => {
                    eprintln!("parlor: the tree is kept in {} (games use it)", f.display())
                }
                Source::Built(Err(_)) => {}
            }
            let average = (r.average * 1000.0).round() / 1000.0;
            if json.json {
                let j = serde_json::json!({"total": r.total, "codes": r.codes, "average": average,
                    "max": r.max, "histogram": r.histogram});
                writeln!(out, "{j}")?;
            } else {
                let hist: Vec<String> = r.histogram.iter().map(u64::to_string).collect();
                writeln!(
                    out,
                    "{v}, {st}: {} guesses over {} codes, average {:.3}, at most {}; codes found in k guesses \
                     (k = 0, 1, ...): {}",
                    r.total,
                    r.codes,
                    r.average,
                    r.max,
                    hist.join(" ")
                )?;
            }
            Ok(())
        }
    }
}
