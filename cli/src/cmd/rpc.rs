//! `cowboy rpc METHOD [PARAMS…]`: one raw JSON-RPC call (`cast rpc`); the result is printed
//! as JSON.

use crate::{
    client::{self, Node, RpcArgs},
    opts::GlobalArgs,
    output,
};
use anyhow::Result;
use clap::Args;
use cowboy_rpc::jsonrpsee::core::{client::ClientT, params::ArrayParams};

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy rpc status\n  \
cowboy rpc getBalance 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\n  \
cowboy rpc cowboy_getBlock 1 true\n\n\
METHOD may leave out the `cowboy_` prefix. Each PARAM is a JSON value (a bare word is a \
string).")]
pub struct RpcCallArgs {
    /// The method (`status`, `cowboy_getBlock`, …).
    method: String,
    /// Positional parameters, each a JSON value.
    params: Vec<String>,
    #[command(flatten)]
    rpc: RpcArgs,
}

impl RpcCallArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let method = if self.method.starts_with("cowboy_") {
            self.method
        } else {
            format!("cowboy_{}", self.method)
        };
        let mut params = ArrayParams::new();
        for p in client::parse_args(&self.params)? {
            params.insert(p)?;
        }
        let node = Node::connect(&self.rpc, global)?;
        let result: serde_json::Value = node.call(async |c| c.request(&method, params).await)?;
        if global.json {
            output::json(&result);
        } else {
            output::json_pretty(&result);
        }
        Ok(())
    }
}
