//! `cowboy`: the command-line toolkit for the Cowboy chain.
//!
//! Each subcommand lives in its own file under `cmd/` as a clap `Args` struct with a `run`
//! method; options every command shares (`--json`, `--home`, the signing account) are defined
//! once in `opts.rs`. Subcommands parse, call the libraries and print: human text by default,
//! one JSON document with `--json`.

#[macro_use]
mod output;
mod client;
mod cmd;
mod completion;
mod config;
mod logs;
mod opts;
mod password;
mod schema;
mod shutdown;
mod watching;

use clap::Parser;
use std::process::ExitCode;

/// Cowboy: Python actors on a proof-of-stake chain.
#[derive(Parser)]
#[command(
    name = "cowboy",
    version,
    about = "Cowboy: develop, sign, deploy and run Python actors on the Cowboy chain",
    long_about = None,
    propagate_version = true,
    after_help = "Run `cowboy <command> --help` for details and examples of each command."
)]
pub struct Cli {
    #[command(flatten)]
    global: opts::GlobalArgs,
    #[command(subcommand)]
    command: cmd::Command,
}

fn main() -> ExitCode {
    // `COMPLETE=SHELL cowboy …`: the shell asking for completions (see `cowboy completions`);
    // answers and exits. Without COMPLETE this returns at once.
    clap_complete::CompleteEnv::with_factory(<Cli as clap::CommandFactory>::command).complete();
    let cli = Cli::parse();
    let json = cli.global.json;
    match cli.command.run(&cli.global) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            output::print_error(&error, json);
            ExitCode::FAILURE
        }
    }
}
