//! `cowboy fees`: the basefees the next block charges and the caps the CLI offers (`cast
//! basefee` / `cast gas-price`).

use crate::{client::Node, client::RpcArgs, opts::GlobalArgs, output};
use anyhow::Result;
use clap::Args;
use cowboy_rpc::CowboyApiClient as _;

#[derive(Args)]
pub struct FeesArgs {
    #[command(flatten)]
    rpc: RpcArgs,
}

impl FeesArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let node = Node::connect(&self.rpc, global)?;
        let fees = node.call(async |c| c.fees().await)?;
        if global.json {
            output::json(&fees);
        } else {
            outln!("at height {}", fees.height);
            outln!(
                "basefee       {} per cycle, {} per cell (user lane: {} per cycle, {} per cell)",
                fees.cycle_basefee,
                fees.cell_basefee,
                fees.user_cycle_basefee,
                fees.user_cell_basefee
            );
            outln!(
                "suggested cap {} per cycle, {} per cell; tip {} per cycle",
                fees.suggested_max_fee_per_cycle,
                fees.suggested_max_fee_per_cell,
                fees.suggested_priority_fee_per_cycle
            );
            outln!(
                "one transaction may reserve {} cycles, {} cells",
                output::thousands(fees.max_cycles_per_tx),
                output::thousands(fees.max_cells_per_tx)
            );
        }
        Ok(())
    }
}
