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
    #[command(
        after_help = "Exits 1 when the signature does not verify.\n\nExamples:\n  cowboy tx decode $(cowboy sign transfer.json --account alice)\n  cowboy tx decode $(cowboy sign transfer.json --account alice) --json"
    )]
    Decode(RawArgs),
    /// Print a transaction's hash (its identity and signing hash).
    #[command(
        after_help = "Example:\n  cowboy tx hash $(cowboy sign transfer.json --account alice)"
    )]
    Hash(RawArgs),
    /// Broadcast a signed transaction (e.g. made offline by `cowboy sign`) and wait for its
    /// receipt.
    Send(SendArgs),
    /// A transaction's status: pending, or its receipt.
    Status(StatusArgs),
    /// A finalized transaction's receipt and, with `--trace`, its delivery tree: every call
    /// with handler, value, cycles, cells, status and events, nested under the call that sent
    /// it, and the messages that never ran with why. `-v` adds print output and return
    /// values, `-vv` tracebacks.
    #[command(
        after_help = "Examples:\n  cowboy tx show 0xHASH --trace\n  cowboy tx show 0xHASH --trace -vv\n  cowboy tx show 0xHASH --trace --json"
    )]
    Show(ShowArgs),
}

#[derive(Args)]
pub struct ShowArgs {
    /// The transaction hash (or a timer firing's receipt hash).
    hash: String,
    /// Print the delivery tree from the node's trace (`cowboy_getTrace`).
    #[arg(long)]
    trace: bool,
    #[command(flatten)]
    rpc: RpcArgs,
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
                        output::json(&crate::schema::TxStatus::Finalized {
                            receipt: Box::new(r),
                        });
                    } else {
                        client::print_receipt(&r);
                    }
                } else if node.call(async |c| c.transaction(hash).await)?.is_some() {
                    if global.json {
                        output::json(&crate::schema::TxStatus::Pending);
                    } else {
                        outln!("pending: in the node's pool, not in a finalized block yet");
                    }
                } else {
                    anyhow::bail!(
                        "the node knows no transaction {hash} (never sent, or dropped from its pool)"
                    );
                }
            }
            Self::Show(args) => {
                let hash = client::hash(&args.hash, "the transaction hash")?;
                let node = Node::connect(&args.rpc, global)?;
                let Some(r) = node.call(async |c| c.receipt(hash).await)? else {
                    if node.call(async |c| c.transaction(hash).await)?.is_some() {
                        bail!(
                            "transaction {hash} is pending: in the node's pool, not in a finalized block yet (`cowboy tx status {hash}` waits for nothing; try again after the next block)"
                        );
                    }
                    bail!(
                        "the node knows no transaction {hash} (never sent, dropped from its pool, or on another chain: check --rpc-url)"
                    );
                };
                let trace = if args.trace {
                    node.call(async |c| c.trace(hash).await)?
                } else {
                    None
                };
                if global.json {
                    output::json(&crate::schema::TxShow {
                        status: crate::schema::Finalized::Finalized,
                        receipt: r,
                        trace: args.trace.then_some(trace),
                    });
                } else {
                    match &trace {
                        Some(calls) if !calls.is_empty() => {
                            client::print_traced_receipt(&r, calls, global.verbose)
                        }
                        _ => {
                            client::print_receipt(&r);
                            if args.trace {
                                outln!(
                                    "trace:    none recorded by this node (no actor code ran, or the node executed the block before it kept traces)"
                                );
                            }
                        }
                    }
                }
            }
            Self::Hash(args) => {
                let tx = decode(&args.raw)?;
                if global.json {
                    output::json(&crate::schema::TxHash { hash: tx.digest() });
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
