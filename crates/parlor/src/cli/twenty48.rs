//! `parlor 2048 ...`: play options, and the `slide` analysis command.

use super::JsonFlag;
use crate::games::twenty48::Options;
use anyhow::{Result, anyhow};
use clap::{Args, Subcommand};
use std::io::Write;
use twenty48::{Board, Direction};

/// `parlor 2048`: play, or run an analysis command.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Twenty48Cmd {
    /// An analysis command (none: play).
    #[command(subcommand)]
    pub action: Option<Twenty48Action>,
    /// How to play.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// Options of a 2048 game.
#[derive(Debug, Args, Clone)]
pub struct PlayArgs {
    /// Board size, from 3 to 8.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=8))]
    pub size: u8,
    /// Probability that a new tile is a 4 rather than a 2 (the original game: 0.1; the seed program: 0.5).
    #[arg(long, default_value_t = 0.1, value_parser = parse_probability)]
    pub four_chance: f64,
    /// The tile that wins (a power of two, at least 8).
    #[arg(long, default_value_t = 2048)]
    pub target: u64,
    /// Seed for every random choice: the same seed and moves give the same game.
    #[arg(long)]
    pub seed: Option<u64>,
}

impl PlayArgs {
    /// The validated game options.
    pub fn options(&self) -> Result<Options> {
        let o = Options {
            size: usize::from(self.size),
            four_chance: self.four_chance,
            target: self.target,
        };
        o.rules()?;
        Ok(o)
    }
}

fn parse_probability(s: &str) -> Result<f64, String> {
    let p: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(format!("{p} is not between 0 and 1"))
    }
}

/// 2048 analysis commands.
#[derive(Debug, Subcommand)]
pub enum Twenty48Action {
    /// Slide a board one way, without spawning a tile: prints the new board, the points gained and whether it moved.
    Slide {
        /// The board: rows top to bottom separated by '/', cells by ',' or spaces, 0 or '.' for empty
        /// (e.g. 2,2,0,0/0,4,0,0/0,0,0,0/0,0,0,2).
        board: String,
        /// up, down, left or right.
        direction: String,
        /// Output format.
        #[command(flatten)]
        json: JsonFlag,
    },
}

/// Runs an analysis command.
pub fn run(action: &Twenty48Action, out: &mut dyn Write) -> Result<()> {
    match action {
        Twenty48Action::Slide {
            board,
            direction,
            json,
        } => {
            let b: Board = board
                .parse()
                .map_err(|e| anyhow!("bad board '{board}': {e}"))?;
            let d: Direction = direction
                .parse()
                .map_err(|e| anyhow!("bad direction '{direction}': {e}"))?;
            let s = b.slide(d);
            if json.json {
                let v = serde_json::json!({"board": s.board.to_string(), "gained": s.gained, "moved": s.moved});
                writeln!(out, "{v}")?;
            } else {
                let moved = if s.moved { "moved" } else { "nothing moved" };
                writeln!(out, "{} (gained {}, {moved})", s.board, s.gained)?;
            }
            Ok(())
        }
    }
}
