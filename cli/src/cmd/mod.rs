//! The subcommands, one file each.

mod keys;
mod run;
mod sign;
mod tx;

use crate::opts::GlobalArgs;
use anyhow::{Context as _, Result};
use clap::Subcommand;
use std::io::Read as _;

#[derive(Subcommand)]
pub enum Command {
    /// Create, import, list, export and delete encrypted keys.
    #[command(subcommand)]
    Keys(keys::KeysCommand),
    /// Sign a transaction described as JSON, offline (no node needed).
    Sign(sign::SignArgs),
    /// Run an actor locally (deploy, then call a handler) and report its result and costs.
    Run(run::RunArgs),
    /// Decode, hash and inspect signed transactions.
    #[command(subcommand)]
    Tx(tx::TxCommand),
}

impl Command {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        match self {
            Self::Keys(cmd) => cmd.run(global),
            Self::Sign(cmd) => cmd.run(global),
            Self::Run(cmd) => cmd.run(global),
            Self::Tx(cmd) => cmd.run(global),
        }
    }
}

/// Reads a whole file, or stdin when `path` is `-`.
pub fn read_input(path: &str, what: &str) -> Result<String> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .with_context(|| format!("cannot read {what} from stdin"))?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {what} from {path}"))
    }
}

/// A hex argument that may be `-` (read from stdin); surrounding whitespace is ignored.
pub fn hex_argument(value: &str, what: &str) -> Result<Vec<u8>> {
    let text = if value == "-" {
        read_input("-", what)?
    } else {
        value.to_string()
    };
    cowboy_types::decode_hex(text.trim()).with_context(|| format!("{what} is not valid hex"))
}
