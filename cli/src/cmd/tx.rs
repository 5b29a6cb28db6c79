//! `cowboy tx`: decode and hash signed transactions offline.

use crate::{cmd::hex_argument, opts::GlobalArgs, output};
use anyhow::{Result, anyhow};
use clap::{Args, Subcommand};
use cowboy_types::{Transaction, TransactionJson};

#[derive(Subcommand)]
pub enum TxCommand {
    /// Decode a signed transaction (hex) into its JSON form, with `from`, `signature` and `hash`.
    Decode(RawArgs),
    /// Print a transaction's hash (its identity and signing hash).
    Hash(RawArgs),
}

#[derive(Args)]
pub struct RawArgs {
    /// The canonical encoding in hex (with or without 0x), or `-` for stdin.
    raw: String,
}

impl TxCommand {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        match self {
            Self::Decode(args) => {
                let tx = decode(&args.raw)?;
                let json = TransactionJson::from(&tx);
                if global.json {
                    output::json(&json);
                } else {
                    output::json_pretty(&json);
                    match cowboy_crypto::verify_transaction(&tx) {
                        Ok(sender) => eprintln!("signature: valid, signed by {sender}"),
                        Err(e) => eprintln!("signature: INVALID: {e}"),
                    }
                }
            }
            Self::Hash(args) => {
                let tx = decode(&args.raw)?;
                if global.json {
                    output::json(&serde_json::json!({ "hash": tx.digest() }));
                } else {
                    println!("{}", tx.digest());
                }
            }
        }
        Ok(())
    }
}

fn decode(raw: &str) -> Result<Transaction> {
    let bytes = hex_argument(raw, "the transaction")?;
    Transaction::decode_strict(&bytes).map_err(|e| anyhow!("cannot decode the transaction: {e}"))
}
