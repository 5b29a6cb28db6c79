//! `cowboy balance`: an account's balance and nonce, once or (`--watch`) as each executed block
//! changes them.

use crate::{
    client::{self, Node, RpcArgs},
    opts::GlobalArgs,
    output,
};
use anyhow::Result;
use clap::Args;
use cowboy_rpc::CowboyApiClient;

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy balance 0xADDR\n  \
cowboy balance 0xADDR --watch                 # a line per block that changes it; Ctrl-C stops\n  \
cowboy balance 0xADDR --watch --changes 1     # wait (no sleep) until it changes once\n  \
cowboy balance 0xADDR --watch --json          # one JSON object per change, until Ctrl-C")]
pub struct BalanceArgs {
    /// The address.
    address: String,
    /// After printing it, follow executed blocks and print the balance and nonce again each
    /// time one changes them, with the difference (long polls; nothing is missed).
    #[arg(long)]
    watch: bool,
    /// With --watch: stop after this many changes.
    #[arg(long, requires = "watch", value_name = "N")]
    changes: Option<u64>,
    #[command(flatten)]
    rpc: RpcArgs,
}

impl BalanceArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let address = client::address(&self.address, "the address")?;
        let node = Node::connect(&self.rpc, global)?;
        let account = node.call(async |c| c.account(address).await)?;
        if self.watch {
            return watch(&node, global, address, account, self.changes);
        }
        if global.json {
            output::json(&account);
        } else {
            outln!(
                "{} base units ({})",
                account.balance.0,
                output::cby(account.balance.0)
            );
            outln!("nonce {} at height {}", account.nonce, account.height);
            if let Some(a) = &account.actor {
                outln!(
                    "actor: code {} (PVM version {}), storage {}/{} bytes, {} pending timers",
                    a.code_hash,
                    a.pvm_version,
                    a.storage_used,
                    a.storage_quota,
                    a.pending_timers
                );
            }
        }
        Ok(())
    }
}

/// Prints `account`, then a line (or JSON object) each time an executed block changes its
/// balance or nonce, until `changes` changes were printed (forever without).
fn watch(
    node: &Node,
    global: &GlobalArgs,
    address: cowboy_types::Address,
    mut account: cowboy_rpc::AccountView,
    changes: Option<u64>,
) -> Result<()> {
    let line = |a: &cowboy_rpc::AccountView, delta: Option<i128>| {
        if global.json {
            output::json(&crate::schema::BalanceChange {
                height: a.height,
                balance: a.balance,
                nonce: a.nonce,
                change: delta.map(|d| d.to_string()),
            });
        } else {
            let delta = delta.map_or_else(String::new, |d| {
                let sign = if d < 0 { "-" } else { "+" };
                let magnitude = u64::try_from(d.unsigned_abs()).unwrap_or(u64::MAX);
                format!(" ({sign}{})", output::cby(magnitude))
            });
            outln!(
                "height {}: {} base units ({}){delta}, nonce {}",
                a.height,
                a.balance.0,
                output::cby(a.balance.0),
                a.nonce
            );
        }
    };
    line(&account, None);
    let mut seen = 0;
    let mut after = account.height;
    while changes.is_none_or(|n| seen < n) {
        let Some(block) =
            node.call(async |c| c.wait_for_block(after, Some(cowboy_rpc::MAX_WAIT_MS)).await)?
        else {
            continue;
        };
        after = block.height;
        let now = node.call(async |c| c.account(address).await)?;
        after = after.max(now.height);
        if (now.balance, now.nonce) != (account.balance, account.nonce) {
            let delta = i128::from(now.balance.0) - i128::from(account.balance.0);
            line(&now, Some(delta));
            seen += 1;
        }
        account = now;
    }
    Ok(())
}
