//! `cowboy`: the command-line toolkit for the Cowboy chain.
//!
//! Each subcommand lives in its own file under `cmd/` as a clap `Args` struct with a `run`
//! method; options every command shares (`--json`, `--home`, the signing account) are defined
//! once in `opts.rs`. Subcommands parse, call the libraries and print: human text by default,
//! one JSON document with `--json`.

mod client;
mod cmd;
mod config;
mod opts;
mod output;
mod password;

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
    restore_default_sigpipe();
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

/// Rust ignores SIGPIPE, which turns `cowboy … | head` into a panic on the next print. A CLI
/// should simply stop when its reader goes away, as every Unix tool does.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up before any other thread exists; resetting a signal
    // disposition to its default has no other preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
