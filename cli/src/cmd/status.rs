//! `cowboy status`: what one node says about itself — heights, execution lag, whether it is
//! ready, halted (and why), stalled, catching up, or paused for disk space.

use crate::{
    client::{Node, RpcArgs},
    opts::GlobalArgs,
    output,
};
use anyhow::Result;
use clap::Args;
use cowboy_rpc::CowboyApiClient;

#[derive(Args)]
#[command(
    after_help = "Exits 0 when the node is ready, 1 otherwise (halted, paused, stalled, \
catching up or not started), so scripts can wait on it.\n\nExamples:\n  cowboy status\n  \
cowboy status --rpc-url http://127.0.0.1:8545 --json"
)]
pub struct StatusArgs {
    #[command(flatten)]
    rpc: RpcArgs,
}

impl StatusArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let node = Node::connect(&self.rpc, global)?;
        let status = node.call(async |c| c.status().await)?;
        let health = node.call(async |c| c.health().await)?;
        let ready = health.ready;
        if global.json {
            output::json(&crate::schema::Status { status, health });
        } else {
            outln!(
                "{}",
                match &health.reason {
                    None => "ready".to_string(),
                    Some(reason) => format!("not ready: {reason}"),
                }
            );
            outln!(
                "chain {} height {} (finalized {}, {} not executed), root {}",
                status.chain_id,
                status.height,
                status.finalized_height,
                status.execution_lag,
                status.state_root
            );
            outln!(
                "last finalization {:.1} s ago; {} peers; {} pending transactions",
                status.last_finalized_ms_ago as f64 / 1000.0,
                status.peers,
                status.pool
            );
            outln!(
                "disk: {} MiB free (floor {} MiB){}",
                status.disk.free_bytes / (1024 * 1024),
                status.disk.min_free_bytes / (1024 * 1024),
                if status.disk.paused { ", PAUSED" } else { "" }
            );
            if let Some(h) = &status.halt {
                outln!("halted ({}): {}", h.kind, h.message);
                outln!("see the book, \"Running a validator safely\", for what to do");
            }
        }
        if !ready {
            std::process::exit(1);
        }
        Ok(())
    }
}
