//! `cowboy deploy`: deploy an actor — from a project (built on the fly), a build artifact or
//! a Python file — and wait for it to be finalized.

use crate::{
    client::{self, Node, RpcArgs, TxArgs},
    opts::{GlobalArgs, SignerArgs},
    output,
};
use anyhow::{Context as _, Result};
use clap::Args;
use cowboy_types::{ActorInstruction, Hash, Instruction, entitlement::ActorEntitlements};
use std::path::{Path, PathBuf};

#[derive(Args)]
#[command(
    after_help = "Without SOURCE, deploys the actor of the project around the current \
directory (checked as `cowboy build` does; --actor chooses when it has several).\n\n\
Examples:\n  \
cowboy deploy --args 10\n  \
cowboy deploy --actor ponger\n  \
cowboy deploy build/counter.json --account alice\n  \
cowboy deploy counter.py --args 10 --salt 0x01 --json"
)]
pub struct DeployArgs {
    /// A Python source file or a build artifact (`build/NAME.json`).
    source: Option<PathBuf>,
    /// The project actor to deploy (when SOURCE is not given).
    #[arg(long)]
    actor: Option<String>,
    /// The project directory (when SOURCE is not given; default: around the current
    /// directory).
    #[arg(long)]
    path: Option<PathBuf>,
    /// Arguments for `__init__`, each a JSON value.
    #[arg(long = "args", num_args = 0.., value_name = "JSON", allow_negative_numbers = true)]
    init_args: Vec<String>,
    /// Salt for the actor's address (CREATE2-style), a 32-byte hash; default zero.
    #[arg(long)]
    salt: Option<String>,
    /// Value to transfer to the new actor, in base units (it pays the actor's timers).
    #[arg(long, default_value_t = 0)]
    value: u64,
    /// An entitlement a `.py` actor is deployed declaring, e.g. `http.fetch` (repeat for
    /// several). A project's actors and build artifacts declare theirs in cowboy.toml.
    #[arg(long = "entitlement", value_name = "NAME")]
    entitlements: Vec<cowboy_types::entitlement::ActorEntitlement>,
    #[command(flatten)]
    tx: TxArgs,
    #[command(flatten)]
    rpc: RpcArgs,
    #[command(flatten)]
    signer: SignerArgs,
}

/// The canonical code to deploy from a `.py` file or an artifact, and the entitlements an
/// artifact declares (`None` for a `.py` file).
fn code_from_file(path: &Path) -> Result<(String, Option<ActorEntitlements>)> {
    if path.extension().is_some_and(|e| e == "json") {
        let artifact = cowboy_project::build::read_artifact(path)?;
        return Ok((artifact.code, Some(artifact.entitlements)));
    }
    let source =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    // The chain refuses what canonicalisation would change; say so before paying for it.
    if let Err(diagnostics) = cowboy_pvm::validate::check_normalization(&source) {
        let file = path.display().to_string();
        let shown: Vec<String> = diagnostics.iter().map(|d| d.render(&file)).collect();
        anyhow::bail!("the actor source is refused:\n{}", shown.join("\n"));
    }
    Ok((cowboy_types::actor::canonicalize_source(&source), None))
}

impl DeployArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let (code, declared) = match &self.source {
            Some(path) => code_from_file(path)?,
            None => {
                let project = cowboy_project::Project::locate(self.path.as_deref())?;
                let actor = project.actor(self.actor.as_deref())?.name.clone();
                let artifacts = cowboy_project::build::check(&project)
                    .map_err(|e| output::build_problems(e, global.json))?;
                artifacts
                    .into_iter()
                    .find(|a| a.name == actor)
                    .map(|a| (a.code, Some(a.entitlements)))
                    .context("the build produced no artifact for the actor")?
            }
        };
        let entitlements = match declared {
            None => ActorEntitlements::of(&self.entitlements),
            Some(_) if !self.entitlements.is_empty() => anyhow::bail!(
                "--entitlement applies to a .py file; a project actor declares its entitlements in cowboy.toml (entitlements = [...])"
            ),
            Some(declared) => declared,
        };
        let salt = match &self.salt {
            Some(s) => client::hash(s, "--salt")?,
            None => Hash::ZERO,
        };
        let init_args = client::encode_args(&client::parse_args(&self.init_args)?)?;
        let node = Node::connect(&self.rpc, global)?;
        let key = self.signer.key(global)?;
        let (hash, receipt) = node.send(
            &key,
            Instruction::Actor(ActorInstruction::Deploy {
                code,
                salt,
                init_args,
                value: self.value,
                entitlements,
            }),
            &self.tx,
        )?;
        client::report(global.json, hash, receipt)
    }
}
