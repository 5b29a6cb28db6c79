//! `cowboy timer`: list an actor's pending timers, schedule one, cancel one.

use crate::{
    client::{self, Node, RpcArgs, TxArgs},
    opts::{GlobalArgs, SignerArgs},
    output,
};
use anyhow::{Result, bail};
use clap::{Args, Subcommand};
use cowboy_rpc::CowboyApiClient;
use cowboy_types::{Instruction, SystemInstruction, TimerSpec};

#[derive(Subcommand)]
pub enum TimerCommand {
    /// Pending timers an address created or that fire on it: next firing height, interval,
    /// fee payer.
    List(ListArgs),
    /// One timer: whether it is pending (next firing, fee payer, budgets) and its past firings
    /// with their receipts, newest first.
    #[command(
        after_help = "Examples:\n  cowboy timer show 0xTIMER_ID\n  cowboy timer show 0xTIMER_ID --limit 5 --json"
    )]
    Show(ShowArgs),
    /// Schedule a handler to run at a height (or every N blocks); the sender pays each firing.
    Set(SetArgs),
    /// Cancel a pending timer you created.
    Cancel(CancelArgs),
}

#[derive(Args)]
pub struct ListArgs {
    address: String,
    #[command(flatten)]
    rpc: RpcArgs,
}

#[derive(Args)]
pub struct ShowArgs {
    /// The timer id (from `cowboy timer list`, or the value `timer set` returned).
    id: String,
    /// How many past firings to list (at most 25).
    #[arg(long, default_value_t = 10)]
    limit: usize,
    #[command(flatten)]
    rpc: RpcArgs,
}

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy timer set 0xACTOR increment --in 5 --account alice\n  \
cowboy timer set 0xACTOR increment 2 --in 1 --every 10 --expires-at 5000 -a alice")]
pub struct SetArgs {
    /// The actor whose handler fires.
    actor: String,
    /// The handler.
    handler: String,
    /// Arguments, each a JSON value.
    args: Vec<String>,
    /// Fire at this height.
    #[arg(long, conflicts_with = "in_blocks")]
    at: Option<u64>,
    /// Fire this many blocks after the block that includes the transaction (counted from the
    /// latest executed height plus the blocks a transaction takes to be included).
    #[arg(long = "in", value_name = "BLOCKS")]
    in_blocks: Option<u64>,
    /// Repeat every this many blocks.
    #[arg(long)]
    every: Option<u64>,
    /// Expire (stop firing) after this height.
    #[arg(long)]
    expires_at: Option<u64>,
    /// Cycles paid for each firing.
    #[arg(long, default_value_t = 200_000)]
    cycles_per_fire: u64,
    /// Cells paid for each firing.
    #[arg(long, default_value_t = 50_000)]
    cells_per_fire: u64,
    #[command(flatten)]
    tx: TxArgs,
    #[command(flatten)]
    rpc: RpcArgs,
    #[command(flatten)]
    signer: SignerArgs,
}

#[derive(Args)]
pub struct CancelArgs {
    /// The timer id (from `cowboy timer list`).
    id: String,
    #[command(flatten)]
    tx: TxArgs,
    #[command(flatten)]
    rpc: RpcArgs,
    #[command(flatten)]
    signer: SignerArgs,
}

impl TimerCommand {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        match self {
            Self::List(a) => {
                let address = client::address(&a.address, "the address")?;
                let node = Node::connect(&a.rpc, global)?;
                let timers = node.call(async |c| c.timers(address).await)?;
                if global.json {
                    output::json(&timers);
                } else if timers.is_empty() {
                    outln!("no pending timers");
                } else {
                    for t in &timers {
                        let every = t
                            .every_blocks
                            .map(|e| format!(", every {e} blocks"))
                            .unwrap_or_default();
                        outln!(
                            "{}  {}.{} next at height {}{every} (fee payer {}, creator {})",
                            t.id,
                            t.actor,
                            t.handler,
                            t.height,
                            t.fee_payer,
                            t.creator
                        );
                    }
                }
                Ok(())
            }
            Self::Show(a) => {
                let id = client::hash(&a.id, "the timer id")?;
                let node = Node::connect(&a.rpc, global)?;
                let pending = node.call(async |c| c.timer(id).await)?;
                let limit = a.limit;
                let firings = node.call(async |c| c.timer_firings(id, Some(limit)).await)?;
                if pending.is_none() && firings.is_empty() {
                    bail!(
                        "the node knows no timer {id}: not pending, and it never saw it fire (check the id with `cowboy timer list ADDRESS`)"
                    );
                }
                if global.json {
                    output::json(&crate::schema::TimerShow { pending, firings });
                    return Ok(());
                }
                match &pending {
                    Some(t) => {
                        let every = t
                            .every_blocks
                            .map(|e| format!(", every {e} blocks"))
                            .unwrap_or_default();
                        outln!("timer {id}: pending, next at height {}{every}", t.height);
                        outln!(
                            "  fires {}.{}; fee payer {}, creator {}; {} cycles and {} cells per firing",
                            t.actor,
                            t.handler,
                            t.fee_payer,
                            t.creator,
                            output::thousands(t.cycles_per_fire),
                            output::thousands(t.cells_per_fire)
                        );
                    }
                    None => outln!(
                        "timer {id}: not pending (it fired for the last time, expired or was cancelled)"
                    ),
                }
                if firings.is_empty() {
                    outln!("no firings yet");
                } else {
                    outln!("firings, newest first:");
                    for f in &firings {
                        let r = &f.receipt;
                        let status = match &r.failure {
                            None => "success".to_string(),
                            Some(kind) => {
                                format!("FAILED ({kind}): {}", r.error.as_deref().unwrap_or(""))
                            }
                        };
                        outln!(
                            "  height {}  {status}  {} cycles, {} cells, fee {}  receipt {}",
                            f.height,
                            output::thousands(r.cycles_used),
                            output::thousands(r.cells_used),
                            output::cby(r.fee.0),
                            r.tx_hash
                        );
                    }
                }
                Ok(())
            }
            Self::Set(a) => {
                let actor = client::address(&a.actor, "the actor")?;
                let args = client::encode_args(&client::parse_args(&a.args)?)?;
                let node = Node::connect(&a.rpc, global)?;
                // The firing height, from the latest executed height.
                let when = match (a.at, a.in_blocks) {
                    (Some(h), _) => When::At(h),
                    (None, Some(n)) => When::In(n.max(1)),
                    (None, None) => bail!("say when: --at HEIGHT or --in BLOCKS"),
                };
                let timer = TimerSpec {
                    actor,
                    handler: a.handler,
                    args,
                    cycles_per_fire: a.cycles_per_fire,
                    cells_per_fire: a.cells_per_fire,
                    expires_at: a.expires_at,
                    bid: None,
                };
                let instruction = |executed: u64| {
                    let height = when.height(executed);
                    let timer = timer.clone();
                    Instruction::System(match a.every {
                        Some(every) => SystemInstruction::SetInterval {
                            timer,
                            start_height: height,
                            every_blocks: every,
                        },
                        None => SystemInstruction::SetTimer { timer, height },
                    })
                };
                let key = a.signer.key(global)?;
                let (hash, receipt) = node.send_at(&key, instruction, &a.tx)?;
                client::report(global.json, hash, receipt)
            }
            Self::Cancel(a) => {
                let timer_id = client::hash(&a.id, "the timer id")?;
                let node = Node::connect(&a.rpc, global)?;
                let key = a.signer.key(global)?;
                let (hash, receipt) = node.send(
                    &key,
                    Instruction::System(SystemInstruction::CancelTimer { timer_id }),
                    &a.tx,
                )?;
                client::report(global.json, hash, receipt)
            }
        }
    }
}

/// Blocks between the latest executed height and the block that includes a transaction sent
/// now: the next block, proposed on a state at most [`MAX_EXECUTION_LAG`] blocks behind the
/// finalized tip (Cowboy decision, recorded with `timer set --in`).
///
/// [`MAX_EXECUTION_LAG`]: cowboy_execution::MAX_EXECUTION_LAG
const INCLUSION_BLOCKS: u64 = cowboy_execution::MAX_EXECUTION_LAG + 1;

/// When a timer set from the command line fires.
#[derive(Clone, Copy)]
enum When {
    /// At this height.
    At(u64),
    /// This many blocks after the block that includes the transaction.
    In(u64),
}

impl When {
    /// The firing height, when the latest executed height is `executed`.
    fn height(self, executed: u64) -> u64 {
        match self {
            Self::At(h) => h,
            Self::In(n) => executed.saturating_add(INCLUSION_BLOCKS).saturating_add(n),
        }
    }
}
