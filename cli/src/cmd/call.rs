//! `cowboy call`: send a message to an actor's handler and wait for the result.

use crate::{
    client::{self, Node, RpcArgs, TxArgs},
    opts::{GlobalArgs, SignerArgs},
};
use anyhow::Result;
use clap::Args;
use cowboy_types::{ActorInstruction, Instruction};

#[derive(Args)]
#[command(
    after_help = "Arguments are JSON values; a bare word is a string.\n\nExamples:\n  \
cowboy call 0xACTOR increment --account alice\n  \
cowboy call 0xACTOR increment 5 --json\n\n\
When the call sends messages (or with -v), the output ends with its delivery tree: every \
call with its handler, cycles, cells, status and events, nested under the call that sent it; \
-v adds print output and return values, -vv tracebacks."
)]
pub struct CallArgs {
    /// The actor's address.
    to: String,
    /// The handler to call.
    method: String,
    /// Arguments, each a JSON value.
    args: Vec<String>,
    /// Value to transfer with the message: base units, or CBY with a `cby` suffix (`0.5cby`).
    #[arg(long, default_value_t = 0, value_parser = crate::output::parse_amount)]
    value: u64,
    #[command(flatten)]
    tx: TxArgs,
    #[command(flatten)]
    rpc: RpcArgs,
    #[command(flatten)]
    signer: SignerArgs,
}

impl CallArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let to = client::address(&self.to, "the actor")?;
        let args = client::encode_args(&client::parse_args(&self.args)?)?;
        let node = Node::connect(&self.rpc, global)?;
        let key = self.signer.key(global)?;
        let (hash, receipt) = node.send(
            &key,
            Instruction::Actor(ActorInstruction::Message {
                to,
                method: self.method,
                args,
                value: self.value,
            }),
            &self.tx,
        )?;
        client::report_traced(&node, global, hash, receipt)
    }
}
