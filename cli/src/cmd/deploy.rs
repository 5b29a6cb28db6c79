//! `cowboy deploy`: deploy an actor from Python source and wait for it to be finalized.

use crate::{
    client::{self, Node, RpcArgs, TxArgs},
    opts::{GlobalArgs, SignerArgs},
};
use anyhow::{Context as _, Result};
use clap::Args;
use cowboy_types::{ActorInstruction, Hash, Instruction};

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy deploy counter.py --account alice\n  \
cowboy deploy counter.py --args 10 --salt 0x01 --json")]
pub struct DeployArgs {
    /// The actor's Python source file.
    source: std::path::PathBuf,
    /// Arguments for `__init__`, each a JSON value.
    #[arg(long = "args", num_args = 0.., value_name = "JSON")]
    init_args: Vec<String>,
    /// Salt for the actor's address (CREATE2-style), a 32-byte hash; default zero.
    #[arg(long)]
    salt: Option<String>,
    /// Value to transfer to the new actor, in base units.
    #[arg(long, default_value_t = 0)]
    value: u64,
    #[command(flatten)]
    tx: TxArgs,
    #[command(flatten)]
    rpc: RpcArgs,
    #[command(flatten)]
    signer: SignerArgs,
}

impl DeployArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let source = std::fs::read_to_string(&self.source)
            .with_context(|| format!("cannot read {}", self.source.display()))?;
        let code = cowboy_types::actor::canonicalize_source(&source);
        let salt = match &self.salt {
            Some(s) => client::hash(s, "--salt")?,
            None => Hash::ZERO,
        };
        let init_args = client::encode_args(&client::parse_args(&self.init_args)?)?;
        let node = Node::connect(&self.rpc)?;
        let key = self.signer.key(global)?;
        let limits = (
            20_000_000,
            (code.len() as u64 + init_args.len() as u64) * 2 + 1_000_000,
        );
        let (hash, receipt) = node.send(
            &key,
            Instruction::Actor(ActorInstruction::Deploy {
                code,
                salt,
                init_args,
                value: self.value,
            }),
            &self.tx,
            limits,
        )?;
        client::report(global.json, hash, receipt)
    }
}
