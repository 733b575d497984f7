//! `parlor nocca ...`: play options and the analysis commands (`perft`, `match`, `bench`).

use super::JsonFlag;
use crate::games::nocca::{GAME, Mode, Options, Session};
use anyhow::{Result, anyhow};
use clap::{Args, Subcommand, ValueEnum};
use nocca::{Colour, Dims, Level, Position};
use std::io::{IsTerminal, Write};

/// `parlor nocca`: play (with no option: the setup screen; with options: straight into the game), or run an
/// analysis command.
///
/// Examples: `parlor nocca --mode two`, `parlor nocca --level expert --colour white`,
/// `parlor nocca --mode watch --level strong`, `parlor nocca perft 4 --json`,
/// `parlor nocca match --a beginner --b casual --games 20 --seed 1`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct NoccaCmd {
    /// An analysis command (none: play).
    #[command(subcommand)]
    pub action: Option<NoccaAction>,
    /// How to play.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// Who plays, on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// Two people at one keyboard.
    Two,
    /// You against the computer.
    Computer,
    /// The computer against itself.
    Watch,
}

/// A colour on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColourArg {
    /// Black (home row at the bottom).
    Black,
    /// White (home row at the top).
    White,
}

impl From<ColourArg> for Colour {
    fn from(c: ColourArg) -> Colour {
        match c {
            ColourArg::Black => Colour::Black,
            ColourArg::White => Colour::White,
        }
    }
}

/// Options of a Nocca Nocca game. Any of them starts the game at once; none opens the setup screen.
#[derive(Debug, Args, Clone, Default)]
pub struct PlayArgs {
    /// Who plays [default: computer].
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// The computer's level: beginner, casual, strong, expert (or 1-4) [default: casual].
    #[arg(long, value_parser = parse_level)]
    pub level: Option<Level>,
    /// Your colour against the computer [default: black].
    #[arg(long, value_enum)]
    pub colour: Option<ColourArg>,
    /// Who moves first [default: black].
    #[arg(long, value_enum)]
    pub first: Option<ColourArg>,
    /// Seed of the computer's random choices (a new game even if one with these options is in progress).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start a new game even if one with these options is in progress.
    #[arg(long)]
    pub new: bool,
}

impl PlayArgs {
    /// Whether any play option was given.
    pub fn any(&self) -> bool {
        self.mode.is_some()
            || self.level.is_some()
            || self.colour.is_some()
            || self.first.is_some()
            || self.seed.is_some()
            || self.new
    }

    /// The game options (defaults for what is not given).
    pub fn options(&self) -> Options {
        let d = Options::default();
        Options {
            mode: match self.mode {
                Some(ModeArg::Two) => Mode::Two,
                Some(ModeArg::Watch) => Mode::Watch,
                Some(ModeArg::Computer) | None => Mode::Computer,
            },
            level: self.level.unwrap_or(d.level),
            human: self.colour.map_or(d.human, Colour::from),
            first: self.first.map_or(d.first, Colour::from),
        }
    }
}

fn parse_level(s: &str) -> Result<Level, String> {
    s.parse::<Level>().map_err(|e| e.to_string())
}

/// Nocca Nocca analysis commands.
#[derive(Debug, Subcommand)]
pub enum NoccaAction {
    /// Count the move sequences of exactly DEPTH plies (a goal move ends a sequence); from the start: 21, 441,
    /// 9240, 193600, 4166360, 89656695.
    Perft {
        /// Plies.
        #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
        depth: u32,
        /// The position: rows from row 1 (Black's home) separated by '/', cells by ',', a cell '-' or its pieces
        /// bottom to top as b/w, then a space and the side to move
        /// (default: b,b,b,b,b/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/w,w,w,w,w b).
        #[arg(long, value_name = "POSITION")]
        position: Option<String>,
        /// Also count per first move.
        #[arg(long)]
        divide: bool,
        /// Output format.
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Play the computer against itself, level A against level B, alternating colours (each level uses a fixed node
    /// budget, so the result depends only on the seed): A's score with its 95% confidence interval.
    Match(MatchArgs),
    /// Search a fixed set of positions to a fixed depth: nodes, time, nodes per second and the node-count
    /// signature.
    Bench {
        /// Output format.
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Solve a board (ROWSxCOLS, up to 4x5) by retrograde analysis, or load its table: counts of won, lost and drawn
    /// positions, the start position's value, and with --position that position's value and every move's.
    Solve(super::nocca_solve::SolveArgs),
}

/// `parlor nocca match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Level of player A.
    #[arg(long, value_parser = parse_level)]
    pub a: Level,
    /// Level of player B.
    #[arg(long, value_parser = parse_level)]
    pub b: Level,
    /// Number of games (pairs share a random opening, A black then white).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Seed of the openings and the engines' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output format.
    #[command(flatten)]
    pub json: JsonFlag,
}

/// Runs `parlor nocca ...`.
pub fn run(cmd: &NoccaCmd, env: &crate::Env) -> Result<()> {
    if let Some(NoccaAction::Solve(args)) = &cmd.action {
        return super::nocca_solve::run(args, env);
    }
    if let Some(action) = &cmd.action {
        return analyse(action, &mut std::io::stdout().lock());
    }
    let opened = env.open_store()?;
    let mut store = opened.store;
    if !cmd.play.any() {
        if env.plain {
            return env.with_plain_io(|io| {
                if let Some(n) = &opened.notice {
                    io.say(format!("Note: {n}"))?;
                }
                crate::plain::nocca::menu(io, &mut store).map(|_| ())
            });
        }
        let mut ctx = crate::tui::Ctx {
            store: &mut store,
            theme: env.theme,
            seed: None,
        };
        let setup = crate::tui::nocca::start_view(&mut ctx)?;
        return env.run_tui(vec![crate::menu_view(opened.notice), setup], store);
    }
    let options = cmd.play.options();
    let saved = if cmd.play.seed.is_some() || cmd.play.new {
        None
    } else {
        store
            .unfinished(Some(GAME))?
            .into_iter()
            .find(|u| u.variant == options.variant() && u.options == to_json(&options))
    };
    let session = match &saved {
        Some(u) => Session::resume(u)?,
        None => Session::new(
            options,
            cmd.play.seed.unwrap_or_else(crate::games::fresh_seed),
        ),
    };
    if env.plain {
        env.with_plain_io(|io| {
            if let Some(n) = &opened.notice {
                io.say(format!("Note: {n}"))?;
            }
            if saved.is_some() {
                io.say("Continuing your game in progress (--new starts a new one).")?;
            }
            crate::plain::nocca::play(io, session, &mut store).map(|_| ())
        })
    } else {
        let view = crate::tui::nocca::game_view(session);
        env.run_tui(vec![crate::menu_view(opened.notice), view], store)
    }
}

fn to_json(o: &Options) -> String {
    serde_json::to_string(o).unwrap_or_default()
}

/// Runs an analysis command, writing its result to `out`.
pub fn analyse(action: &NoccaAction, out: &mut dyn Write) -> Result<()> {
    match action {
        NoccaAction::Perft {
            depth,
            position,
            divide,
            json,
        } => {
            let pos: Position = match position {
                Some(p) => p.parse().map_err(|e| anyhow!("bad position '{p}': {e}"))?,
                None => Position::start(Dims::STANDARD),
            };
            let nodes = nocca::perft(&pos, *depth);
            let split = if *divide {
                nocca::divide(&pos, *depth)
            } else {
                Vec::new()
            };
            if json.json {
                let mut v = serde_json::json!({"depth": depth, "nodes": nodes});
                if *divide {
                    v["moves"] = split
                        .iter()
                        .map(|(m, n)| serde_json::json!({"move": m.to_string(), "nodes": n}))
                        .collect();
                }
                writeln!(out, "{v}")?;
            } else {
                for (m, n) in &split {
                    writeln!(out, "{m}: {n}")?;
                }
                writeln!(out, "perft {depth}: {nodes} nodes")?;
            }
            Ok(())
        }
        NoccaAction::Match(args) => run_match(args, out),
        NoccaAction::Solve(args) => {
            super::nocca_solve::analyse(args, &crate::paths::data_dir(None)?, out)
        }
        NoccaAction::Bench { json } => {
            let r = nocca::bench();
            let ms = r.elapsed.as_secs_f64() * 1000.0;
            if json.json {
                let v = serde_json::json!({"nodes": r.nodes, "ms": (ms * 10.0).round() / 10.0,
                    "nps": r.nps.round(), "signature": r.signature});
                writeln!(out, "{v}")?;
            } else {
                writeln!(
                    out,
                    "{} nodes in {ms:.1} ms: {:.0} nodes/s (signature {})",
                    r.nodes, r.nps, r.signature
                )?;
            }
            Ok(())
        }
    }
}

fn run_match(args: &MatchArgs, out: &mut dyn Write) -> Result<()> {
    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(u64::from(args.games));
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games · {elapsed_precise} · eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let r = nocca::play_match(args.a, args.b, args.games, args.seed, &mut |done, _| {
        bar.set_position(u64::from(done))
    });
    bar.finish_and_clear();
    let round3 = |x: f64| (x * 1000.0).round() / 1000.0;
    if args.json.json {
        let v = serde_json::json!({
            "a": r.a.name(), "b": r.b.name(), "games": r.games, "seed": args.seed,
            "a_wins": r.a_wins, "b_wins": r.b_wins, "draws": r.draws,
            "score": round3(r.score_a), "ci95": [round3(r.ci95.0), round3(r.ci95.1)],
            "avg_plies": (r.avg_plies * 10.0).round() / 10.0,
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(
            out,
            "{} vs {}: {} wins, {} losses, {} draws in {} games; score {:.3} (95% CI {:.3}-{:.3}); {:.1} plies \
             per game",
            r.a,
            r.b,
            r.a_wins,
            r.b_wins,
            r.draws,
            r.games,
            r.score_a,
            r.ci95.0,
            r.ci95.1,
            r.avg_plies
        )?;
    }
    Ok(())
}
