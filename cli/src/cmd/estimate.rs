//! `cowboy estimate ADDR METHOD [ARGS…]`: what a call would use and cost, from a simulation
//! (`cast estimate`); nothing is signed or sent.

use crate::{
    client::{self, Node, RpcArgs},
    opts::{GlobalArgs, SignerArgs},
    output,
};
use anyhow::Result;
use clap::Args;
use cowboy_types::{ActorInstruction, Instruction};

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy estimate 0xACTOR increment 5 --account dev:0\n  \
cowboy estimate 0xACTOR increment 1 --from 0xSENDER --json")]
pub struct EstimateArgs {
    /// The actor's address.
    to: String,
    /// The handler to call.
    method: String,
    /// Arguments, each a JSON value.
    args: Vec<String>,
    /// Value the call would carry: base units, or CBY (`0.5cby`).
    #[arg(long, default_value_t = 0, value_parser = crate::output::parse_amount)]
    value: u64,
    /// The sender (default: the signer's address; no password is asked).
    #[arg(long)]
    from: Option<String>,
    #[command(flatten)]
    rpc: RpcArgs,
    #[command(flatten)]
    signer: SignerArgs,
}

impl EstimateArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let to = client::address(&self.to, "the actor")?;
        let args = client::encode_args(&client::parse_args(&self.args)?)?;
        let from = match &self.from {
            Some(f) => client::address(f, "--from")?,
            None => self.signer.address(global)?,
        };
        let node = Node::connect(&self.rpc, global)?;
        let estimate = node.estimate(
            from,
            Instruction::Actor(ActorInstruction::Message {
                to,
                method: self.method,
                args,
                value: self.value,
            }),
        )?;
        if global.json {
            output::json(&estimate);
        } else {
            let s = &estimate.simulation;
            outln!(
                "{}: {} cycles, {} cells (simulated at height {})",
                s.receipt.status.name(),
                output::thousands(s.receipt.cycles_used),
                output::thousands(s.receipt.cells_used),
                s.height
            );
            if let Some(e) = &s.receipt.error {
                outln!("error:  {e}");
            }
            outln!(
                "limits: {} cycles, {} cells (what `call` would set)",
                output::thousands(estimate.cycles_limit),
                output::thousands(estimate.cells_limit)
            );
            outln!(
                "fee:    {} at today's basefees; at most {} with the suggested caps",
                output::cby(s.receipt.fee.0),
                output::cby(s.required.0)
            );
        }
        Ok(())
    }
}
