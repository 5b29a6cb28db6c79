//! `cowboy tx`: decode and hash signed transactions offline.

use crate::{
    client::{self, Node, RpcArgs},
    cmd::hex_argument,
    opts::GlobalArgs,
    output,
};
use anyhow::{Result, anyhow, bail};
use clap::{Args, Subcommand};
use cowboy_rpc::CowboyApiClient;
use cowboy_types::{Transaction, TransactionJson};

#[derive(Subcommand)]
pub enum TxCommand {
    /// Decode a signed transaction (hex) into its JSON form, with `from`, `signature` and `hash`.
    Decode(RawArgs),
    /// Print a transaction's hash (its identity and signing hash).
    Hash(RawArgs),
    /// Broadcast a signed transaction (e.g. made offline by `cowboy sign`) and wait for its
    /// receipt.
    Send(SendArgs),
    /// A transaction's status: pending, or its receipt.
    Status(StatusArgs),
}

#[derive(Args)]
pub struct SendArgs {
    /// The canonical encoding in hex (with or without 0x), or `-` for stdin.
    raw: String,
    /// Return once the node accepted it instead of waiting for the receipt.
    #[arg(long)]
    no_wait: bool,
    /// How long to wait for the receipt, in seconds.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    #[command(flatten)]
    rpc: RpcArgs,
}

#[derive(Args)]
pub struct StatusArgs {
    /// The transaction hash.
    hash: String,
    #[command(flatten)]
    rpc: RpcArgs,
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
                }
                // A transaction no node would admit is not a success, even decoded.
                match cowboy_crypto::verify_transaction(&tx) {
                    Ok(sender) if !global.json => {
                        eprintln!("signature: valid, signed by {sender}")
                    }
                    Ok(_) => {}
                    Err(e) => {
                        eprintln!("signature: INVALID: {e}");
                        bail!(output::Reported);
                    }
                }
            }
            Self::Send(args) => {
                let bytes = hex_argument(&args.raw, "the transaction")?;
                Transaction::decode_strict(&bytes)
                    .map_err(|e| anyhow!("cannot decode the transaction: {e}"))?;
                let node = Node::connect(&args.rpc, global)?;
                let (hash, receipt) = node.send_raw(&bytes, args.no_wait, args.timeout)?;
                client::report(global.json, hash, receipt)?;
            }
            Self::Status(args) => {
                let hash = client::hash(&args.hash, "the transaction hash")?;
                let node = Node::connect(&args.rpc, global)?;
                if let Some(r) = node.call(async |c| c.receipt(hash).await)? {
                    if global.json {
                        output::json(&serde_json::json!({ "status": "finalized", "receipt": r }));
                    } else {
                        client::print_receipt(&r);
                    }
                } else if node.call(async |c| c.transaction(hash).await)?.is_some() {
                    if global.json {
                        output::json(&serde_json::json!({ "status": "pending" }));
                    } else {
                        outln!("pending: in the node's pool, not in a finalized block yet");
                    }
                } else {
                    anyhow::bail!(
                        "the node knows no transaction {hash} (never sent, or dropped from its pool)"
                    );
                }
            }
            Self::Hash(args) => {
                let tx = decode(&args.raw)?;
                if global.json {
                    output::json(&serde_json::json!({ "hash": tx.digest() }));
                } else {
                    outln!("{}", tx.digest());
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
