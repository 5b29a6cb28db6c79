//! `cowboy balance`: an account's balance and nonce.

use crate::{
    client::{self, Node, RpcArgs},
    opts::GlobalArgs,
    output,
};
use anyhow::Result;
use clap::Args;
use cowboy_rpc::CowboyApiClient;

#[derive(Args)]
pub struct BalanceArgs {
    /// The address.
    address: String,
    #[command(flatten)]
    rpc: RpcArgs,
}

impl BalanceArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let address = client::address(&self.address, "the address")?;
        let node = Node::connect(&self.rpc, global)?;
        let account = node.call(async |c| c.account(address).await)?;
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
