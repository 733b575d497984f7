//! `parlor-lab`: Parlor's developer tools, one subcommand each: the data factory of the 2048 engine (training,
//! endgame tables, tuning) and the measuring tools of the three engines. `parlor-lab --help` lists them and
//! `parlor-lab NAME --help` says what one does and how it is run. Developer tools, not part of the published engines.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod common;

mod agree;
mod auto;
mod compact;
mod distill;
mod endgame;
mod late;
mod ship;
mod speed;
mod stages;
mod starts;
mod train;
mod tune;

mod bench;
mod fit_eval;
mod r#match;
mod perfect;
mod perft;
mod retrograde;

mod anytime;
mod solve;

/// Parlor's developer tools: the 2048 engine's data factory and the engines' measuring tools.
#[derive(Debug, Parser)]
#[command(name = "parlor-lab", version)]
struct Cli {
    /// The tool to run.
    #[command(subcommand)]
    tool: Tool,
}

/// One variant a tool, named as its subcommand; each holds the tool's arguments (its doc comment is the help).
#[derive(Debug, Subcommand)]
enum Tool {
    // 2048 (parlor-2048 and the lab's endgame tables and tuning).
    #[command(name = "agree")]
    Agree(agree::Args),
    #[command(name = "auto")]
    Auto(auto::Args),
    #[command(name = "compact")]
    Compact(compact::Args),
    #[command(name = "distill")]
    Distill(distill::Args),
    #[command(name = "endgame")]
    Endgame(endgame::Args),
    #[command(name = "late")]
    Late(late::Args),
    #[command(name = "ship")]
    Ship(ship::Args),
    #[command(name = "speed")]
    Speed(speed::Args),
    #[command(name = "stages")]
    Stages(stages::Args),
    #[command(name = "starts")]
    Starts(starts::Args),
    #[command(name = "train")]
    Train(train::Args),
    #[command(name = "tune")]
    Tune(tune::Args),
    // Nocca Nocca (nocca).
    #[command(name = "bench")]
    Bench(bench::Args),
    #[command(name = "fit_eval")]
    FitEval(fit_eval::Args),
    #[command(name = "match")]
    Match(r#match::Args),
    #[command(name = "perfect")]
    Perfect(perfect::Args),
    #[command(name = "perft")]
    Perft(perft::Args),
    #[command(name = "retrograde")]
    Retrograde(retrograde::Args),
    // Mastermind (parlor-mastermind).
    #[command(name = "anytime")]
    Anytime(anytime::Args),
    #[command(name = "solve")]
    Solve(solve::Args),
}

/// Runs the tool named, with the exit code it gives; a tool that gives none exits on its own when it fails (with its
/// own code, or a panic's), so its return is a success.
fn main() -> ExitCode {
    match Cli::parse().tool {
        Tool::Agree(a) => agree::main(a),
        Tool::Auto(a) => auto::main(a),
        Tool::Compact(a) => compact::main(a),
        Tool::Distill(a) => {
            distill::main(a);
            ExitCode::SUCCESS
        }
        Tool::Endgame(a) => endgame::main(a),
        Tool::Late(a) => late::main(a),
        Tool::Ship(a) => ship::main(a),
        Tool::Speed(a) => {
            speed::main(a);
            ExitCode::SUCCESS
        }
        Tool::Stages(a) => {
            stages::main(a);
            ExitCode::SUCCESS
        }
        Tool::Starts(a) => starts::main(a),
        Tool::Train(a) => train::main(a),
        Tool::Tune(a) => {
            tune::main(a);
            ExitCode::SUCCESS
        }
        Tool::Bench(a) => {
            bench::main(a);
            ExitCode::SUCCESS
        }
        Tool::FitEval(a) => {
            fit_eval::main(a);
            ExitCode::SUCCESS
        }
        Tool::Match(a) => {
            r#match::main(a);
            ExitCode::SUCCESS
        }
        Tool::Perfect(a) => {
            perfect::main(a);
            ExitCode::SUCCESS
        }
        Tool::Perft(a) => {
            perft::main(a);
            ExitCode::SUCCESS
        }
        Tool::Retrograde(a) => {
            retrograde::main(a);
            ExitCode::SUCCESS
        }
        Tool::Anytime(a) => {
            anytime::main(a);
            ExitCode::SUCCESS
        }
        Tool::Solve(a) => {
            solve::main(a);
            ExitCode::SUCCESS
        }
    }
}
