//! `cowboy block`: a block by height, hash or `latest`.

use crate::{
    client::{self, Node, RpcArgs},
    opts::GlobalArgs,
    output,
};
use anyhow::{Result, anyhow};
use clap::Args;
use cowboy_rpc::{BlockId, BlockTag, CowboyApiClient};

#[derive(Args)]
#[command(after_help = "Examples:\n  cowboy block\n  cowboy block 1 --full --json")]
pub struct BlockArgs {
    /// Height, hash, or `latest`.
    #[arg(default_value = "latest")]
    id: String,
    /// Include the full transactions.
    #[arg(long)]
    full: bool,
    #[command(flatten)]
    rpc: RpcArgs,
}

impl BlockArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let id = if self.id == "latest" {
            BlockId::Tag(BlockTag::Latest)
        } else if let Ok(h) = self.id.parse::<u64>() {
            BlockId::Height(h)
        } else {
            BlockId::Hash(client::hash(&self.id, "the block")?)
        };
        let node = Node::connect(&self.rpc, global)?;
        let full = self.full;
        let block = node
            .call(async |c| c.block(id, Some(full)).await)?
            .ok_or_else(|| anyhow!("no executed block {}", self.id))?;
        if global.json {
            output::json(&block);
        } else {
            outln!("block {} {}", block.height, block.hash);
            outln!("parent      {}", block.parent);
            outln!("round       epoch {} view {}", block.epoch, block.view);
            outln!("time        {} ms", block.timestamp_ms);
            outln!("proposer    {}", block.proposer);
            outln!(
                "state root  {} (after this block)",
                block.executed_state_root
            );
            outln!(
                "header      commits to the state after block {}",
                block.state_height
            );
            outln!(
                "basefees    {} per cycle, {} per cell",
                block.cycle_basefee,
                block.cell_basefee
            );
            outln!("txs         {}", block.transactions.len());
            for t in &block.transactions {
                outln!("  {t}");
            }
        }
        Ok(())
    }
}
