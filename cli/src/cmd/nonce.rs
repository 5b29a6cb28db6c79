//! `cowboy nonce ADDRESS`: an account's nonce, executed and counting its pending transactions
//! (`cast nonce`).

use crate::{
    client::{self, Node, RpcArgs},
    opts::GlobalArgs,
    output,
};
use anyhow::Result;
use clap::Args;
use cowboy_rpc::CowboyApiClient as _;

#[derive(Args)]
pub struct NonceArgs {
    /// The account.
    address: String,
    #[command(flatten)]
    rpc: RpcArgs,
}

impl NonceArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let address = client::address(&self.address, "the address")?;
        let node = Node::connect(&self.rpc, global)?;
        let nonce = node.call(async |c| c.nonce(address).await)?;
        if global.json {
            output::json(&nonce);
        } else {
            outln!("{}", nonce.latest);
            if nonce.pending != nonce.latest {
                outln!(
                    "(next to send: {}, counting pending transactions)",
                    nonce.pending
                );
            }
        }
        Ok(())
    }
}
