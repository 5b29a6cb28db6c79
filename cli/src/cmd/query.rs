//! `cowboy query`: run a handler read-only against the latest state (no transaction, no fee,
//! every write discarded).

use crate::{
    client::{self, Node, RpcArgs},
    opts::GlobalArgs,
    output,
};
use anyhow::Result;
use clap::Args;
use cowboy_rpc::{CowboyApiClient, QueryRequest};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  cowboy query 0xACTOR get\n  cowboy query 0xACTOR count_of '\"0x70997970c51812dc3a010c7d01b50e0d17dc79c8\"' --json"
)]
pub struct QueryArgs {
    /// The actor's address.
    to: String,
    /// The handler to run.
    method: String,
    /// Arguments, each a JSON value.
    args: Vec<String>,
    /// The caller the handler sees (default: the zero address).
    #[arg(long)]
    from: Option<String>,
    #[command(flatten)]
    rpc: RpcArgs,
}

impl QueryArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let request = QueryRequest {
            to: client::address(&self.to, "the actor")?,
            method: self.method,
            args: client::parse_args(&self.args)?,
            from: self
                .from
                .as_deref()
                .map(|f| client::address(f, "--from"))
                .transpose()?,
            cycles_limit: None,
            cells_limit: None,
        };
        let node = Node::connect(&self.rpc, global)?;
        let view = node.call(async |c| c.query(request).await)?;
        if global.json {
            output::json(&view);
        } else {
            match &view.error {
                None => match &view.return_value {
                    Some(v) => outln!("{v}"),
                    None => outln!("None"),
                },
                Some(e) => eprintln!("error: {e}"),
            }
            eprintln!(
                "(read at height {}; {} cycles, {} cells)",
                view.height, view.cycles_used, view.cells_used
            );
        }
        if view.status != cowboy_rpc::ReceiptStatus::Success {
            anyhow::bail!(crate::output::Reported);
        }
        Ok(())
    }
}
