//! `parlor mastermind ...`: play options and the analysis commands (`feedback`, `solve`).

use super::JsonFlag;
use crate::games::mastermind::{
    GAME, MakerSession, Options, Resumed, Role, Session, default_strategy,
};
use anyhow::{Result, anyhow};
use clap::{Args, Subcommand, ValueEnum};
use mastermind::{Palette, Strategy, Variant, feedback};
use std::io::Write;

/// `parlor mastermind`: play, or run an analysis command.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MastermindCmd {
    /// An analysis command (none: play).
    #[command(subcommand)]
    pub action: Option<MastermindAction>,
    /// How to play.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// The variant: a preset, optionally changed by the other options (which make it a custom variant).
#[derive(Debug, Args, Clone, Default)]
pub struct VariantArgs {
    /// Preset to start from: seed (default: 6 colours, 4 pegs, 8 guesses, no colour twice in the secret), classic,
    /// super, bulls-cows; or a custom name as the history shows it (custom-C-P-G-SG).
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// Number of colours, 2 to 10.
    #[arg(long, alias = "colors", value_name = "N")]
    pub colours: Option<u32>,
    /// Number of pegs in a code, 2 to 8.
    #[arg(long, value_name = "N")]
    pub pegs: Option<u32>,
    /// Number of guesses allowed.
    #[arg(long, value_name = "N")]
    pub guesses: Option<u32>,
    /// The secret may repeat a colour.
    #[arg(long, overrides_with = "no_secret_repeats")]
    pub secret_repeats: bool,
    /// The secret never repeats a colour.
    #[arg(long, overrides_with = "secret_repeats")]
    pub no_secret_repeats: bool,
    /// Guesses may repeat a colour.
    #[arg(long, overrides_with = "no_guess_repeats")]
    pub guess_repeats: bool,
    /// Guesses may not repeat a colour.
    #[arg(long, overrides_with = "guess_repeats")]
    pub no_guess_repeats: bool,
}

fn flag(yes: bool, no: bool) -> Option<bool> {
    match (yes, no) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    }
}

impl VariantArgs {
    /// The variant these options describe, or why it cannot be played.
    pub fn variant(&self) -> Result<Variant> {
        let base: Variant = match &self.variant {
            Some(name) => name.parse().map_err(|e| anyhow!("{e}"))?,
            None => Variant::default(),
        };
        let secret = flag(self.secret_repeats, self.no_secret_repeats);
        let guess = flag(self.guess_repeats, self.no_guess_repeats);
        if self.colours.is_none() && self.pegs.is_none() && secret.is_none() && guess.is_none() {
            return match self.guesses {
                Some(g) => base.with_guesses(g).map_err(|e| anyhow!("{e}")),
                None => Ok(base),
            };
        }
        let colours = self.colours.unwrap_or(u32::from(base.colours()));
        let secret = secret.unwrap_or(base.secret_repeats());
        // Allowing repeats in the secret implies allowing them in guesses, unless asked otherwise.
        let guess = guess.unwrap_or(base.guess_repeats() || secret);
        let v = Variant::custom(
            colours,
            self.pegs.unwrap_or(u32::from(base.pegs())),
            self.guesses.unwrap_or(base.guesses()),
            secret,
            guess,
        )
        .map_err(|e| anyhow!("{e}"))?;
        // Bulls and Cows keeps its digits as long as it has at most 10 colours.
        Ok(if base.palette() == Palette::Digits {
            v.with_palette(Palette::Digits)
        } else {
            v
        })
    }
}

/// Who hides the code.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum RoleArg {
    /// You guess the computer's code.
    Breaker,
    /// You think of a code; the computer guesses.
    Maker,
}

/// Options of a Mastermind game.
#[derive(Debug, Args, Clone)]
pub struct PlayArgs {
    /// The variant.
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Your role.
    #[arg(long, value_enum, default_value_t = RoleArg::Breaker)]
    pub role: RoleArg,
    /// The computer's strategy for its guesses and hints: knuth, expected-size, entropy, most-parts, optimal
    /// (default: optimal on seed and classic, entropy on larger variants).
    #[arg(long, value_name = "S")]
    pub strategy: Option<String>,
    /// Seed of the secret: the same seed gives the same code.
    #[arg(long)]
    pub seed: Option<u64>,
}

fn strategy_or_default(s: &Option<String>, v: &Variant) -> Result<Strategy> {
    match s {
        Some(name) => name.parse().map_err(|e| anyhow!("{e}")),
        None => Ok(default_strategy(v)),
    }
}

impl PlayArgs {
    /// The validated options.
    pub fn options(&self) -> Result<Options> {
        let variant = self.variant.variant()?;
        let role = match self.role {
            RoleArg::Breaker => Role::Breaker,
            RoleArg::Maker => Role::Maker,
        };
        Ok(Options {
            variant,
            role,
            strategy: strategy_or_default(&self.strategy, &variant)?,
            secret: None,
        })
    }
}

/// Mastermind analysis commands.
#[derive(Debug, Subcommand)]
pub enum MastermindAction {
    /// The feedback of a guess against a secret: black (right colour, right place) and white (right colour, wrong
    /// place). Codes as numbers in quotes ("1 3 6 5"), names or symbols (RYOK).
    Feedback {
        /// The secret code.
        secret: String,
        /// The guess.
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
        /// knuth, expected-size, entropy, most-parts or optimal (default: optimal on seed and classic, entropy
        /// beyond).
        #[arg(long, value_name = "S")]
        strategy: Option<String>,
        /// Output format.
        #[command(flatten)]
        json: JsonFlag,
    },
}

/// Runs an analysis command, writing to `out`.
pub fn analyse(action: &MastermindAction, out: &mut dyn Write) -> Result<()> {
    match action {
        MastermindAction::Feedback {
            secret,
            guess,
            variant,
            json,
        } => {
            let v = variant.variant()?;
            let s = v
                .parse_secret(secret)
                .map_err(|e| anyhow!("bad secret '{secret}': {e}"))?;
            let g = v
                .parse_code(guess)
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
                    crate::games::mastermind::pegs_text(fb)
                )?;
            }
            Ok(())
        }
        MastermindAction::Solve {
            variant,
            strategy,
            json,
        } => {
            let v = variant.variant()?;
            let st = strategy_or_default(strategy, &v)?;
            let r = super::mastermind_progress::solve_with_progress(&v, st)?;
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

/// Runs `parlor mastermind ...`: an analysis command, or a game (continuing the game in progress of the same
/// variant and role when no seed is given).
pub fn run(cmd: &MastermindCmd, env: &crate::Env) -> Result<()> {
    if let Some(action) = &cmd.action {
        return analyse(action, &mut std::io::stdout().lock());
    }
    let options = cmd.play.options()?;
    let opened = env.open_store()?;
    let mut store = opened.store;
    let saved = match cmd.play.seed {
        Some(_) => None,
        None => store
            .unfinished(Some(GAME))?
            .into_iter()
            .find(|u| u.variant == options.group()),
    };
    let game = match &saved {
        Some(u) => crate::games::mastermind::resume(u)?,
        None => match options.role {
            Role::Breaker => Resumed::Breaker(Session::new(
                options,
                cmd.play.seed.unwrap_or_else(crate::games::fresh_seed),
            )),
            Role::Maker => Resumed::Maker(MakerSession::new(options)?),
        },
    };
    if env.plain {
        env.with_plain_io(|io| {
            if let Some(n) = opened.notice {
                io.say(format!("Note: {n}"))?;
            }
            if saved.is_some() {
                io.say("Continuing your game in progress.")?;
            }
            crate::plain::mastermind::play(io, game, &mut store, saved.is_none()).map(|_| ())
        })
    } else {
        let view = crate::tui::mastermind::game_view(game, saved.is_some());
        env.run_tui(vec![crate::menu_view(opened.notice), view], store)
    }
}
