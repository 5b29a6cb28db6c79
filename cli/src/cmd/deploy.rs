//! `cowboy deploy`: deploy an actor — from a project (built on the fly), a build artifact or
//! a Python file — and wait for it to be finalized.

use crate::{
    client::{self, Node, RpcArgs, TxArgs},
    opts::{GlobalArgs, SignerArgs},
    output,
};
use anyhow::{Context as _, Result};
use clap::Args;
use cowboy_project::ActorEntry;
use cowboy_types::{ActorInstruction, Hash, Instruction, entitlement::ActorEntitlements};
use std::path::{Path, PathBuf};

#[derive(Args)]
#[command(
    after_help = "Without SOURCE, deploys the actor of the project around the current \
directory (checked as `cowboy build` does; --actor chooses when it has several), with its \
deploy_args and deploy_value from cowboy.toml unless --args or --value says otherwise.\n\n\
Examples:\n  \
cowboy deploy                          # the project's actor, with its deploy_args\n  \
cowboy deploy --path ../ping-pong --actor ponger\n  \
cowboy deploy build/counter.json --account alice\n  \
cowboy deploy src/counter.py --args 10 --salt 0x01 --json\n  \
cowboy deploy --watch --args 10        # redeploy each actor whose source changes; Ctrl-C stops"
)]
pub struct DeployArgs {
    /// A Python source file or a build artifact (`build/NAME.json`).
    source: Option<PathBuf>,
    /// The project actor to deploy (when SOURCE is not given).
    #[arg(long, add = clap_complete::ArgValueCandidates::new(crate::completion::project_actors))]
    actor: Option<String>,
    /// The project directory (when SOURCE is not given; default: around the current
    /// directory).
    #[arg(long)]
    path: Option<PathBuf>,
    /// Arguments for `__init__`, each a JSON value (default: a project actor's `deploy_args`
    /// from cowboy.toml, else none; `--args` alone passes none).
    #[arg(long = "args", num_args = 0.., value_name = "JSON", allow_negative_numbers = true)]
    init_args: Option<Vec<String>>,
    /// Salt for the actor's address (CREATE2-style): `0x` and up to 64 hex digits, left-padded
    /// to 32 bytes (`0x01` is `0x00…01`); default zero.
    #[arg(long)]
    salt: Option<String>,
    /// Value to transfer to the new actor (it pays the actor's timers and jobs): base units,
    /// or CBY with a `cby` suffix (`5cby`) [default: a project actor's `deploy_value` from
    /// cowboy.toml, else 0].
    #[arg(long, value_parser = crate::output::parse_amount)]
    value: Option<u64>,
    /// An entitlement a `.py` actor is deployed declaring, e.g. `http.fetch` (repeat for
    /// several). A project's actors and build artifacts declare theirs in cowboy.toml.
    #[arg(long = "entitlement", value_name = "NAME")]
    entitlements: Vec<cowboy_types::entitlement::ActorEntitlement>,
    /// Keep running: deploy the project's actors (or --actor), then deploy again each actor
    /// whose source changes, at a new address (a fresh salt) printed each time. Each gets its
    /// deploy_args (unless --args) but no value (unless --value).
    #[arg(long, conflicts_with_all = ["source", "salt"])]
    watch: bool,
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
        if self.watch {
            return self.watch(global);
        }
        // A project actor's manifest entry supplies the defaults of --args and --value.
        let (code, declared, entry) = match &self.source {
            Some(path) => {
                let (code, declared) = code_from_file(path)?;
                (code, declared, None)
            }
            None => {
                let project = cowboy_project::Project::locate(self.path.as_deref())?;
                let entry = project.actor(self.actor.as_deref())?.clone();
                let artifacts = cowboy_project::build::check(&project)
                    .map_err(|e| output::build_problems(e, global.json))?;
                let (code, declared) = artifacts
                    .into_iter()
                    .find(|a| a.name == entry.name)
                    .map(|a| (a.code, Some(a.entitlements)))
                    .context("the build produced no artifact for the actor")?;
                (code, declared, Some(entry))
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
            Some(s) => client::salt(s)?,
            None => Hash::ZERO,
        };
        let init_args = self.init_args_for(entry.as_ref())?;
        let value = self.value_for(entry.as_ref());
        let node = Node::connect(&self.rpc, global)?;
        let key = self.signer.key(global)?;
        let (hash, receipt) = node.send(
            &key,
            Instruction::Actor(ActorInstruction::Deploy {
                code,
                salt,
                init_args,
                value,
                entitlements,
            }),
            &self.tx,
        )?;
        client::report(global.json, hash, receipt)
    }
}

impl DeployArgs {
    /// The encoded `__init__` arguments: `--args`, else the manifest entry's `deploy_args`.
    fn init_args_for(&self, entry: Option<&ActorEntry>) -> Result<Vec<u8>> {
        match (&self.init_args, entry) {
            (Some(args), _) => client::encode_args(&client::parse_args(args)?),
            (None, None) => client::encode_args(&[]),
            (None, Some(entry)) => {
                let values = cowboy_project::manifest::resolve_args(&entry.deploy_args, |_| None)
                    .map_err(|e| {
                        anyhow::anyhow!(
                            "deploy_args of actor {:?} in cowboy.toml: {e} (each deploy here is of one actor): pass --args",
                            entry.name
                        )
                    })?;
                cowboy_pvm::Value::List(values)
                    .encode()
                    .with_context(|| format!("deploy_args of actor {:?}", entry.name))
            }
        }
    }

    /// `--value`, else the manifest entry's `deploy_value`.
    fn value_for(&self, entry: Option<&ActorEntry>) -> u64 {
        self.value
            .unwrap_or_else(|| entry.map_or(0, |e| e.deploy_value))
    }

    /// `--watch`: deploys the project's actors, then each one again whenever its checked code
    /// changes. One connection and one key for the whole session.
    fn watch(&self, global: &GlobalArgs) -> Result<()> {
        let dir = cowboy_project::Project::locate(self.path.as_deref())?.dir;
        let node = Node::connect(&self.rpc, global)?;
        let key = self.signer.key(global)?;
        // Each actor's code and entitlements as last deployed: unchanged actors are not
        // deployed again.
        let mut deployed: std::collections::BTreeMap<String, (String, ActorEntitlements)> =
            Default::default();
        crate::watching::run(&dir, global.json, |_| {
            let project = cowboy_project::Project::locate(Some(&dir))?;
            let wanted = match &self.actor {
                Some(name) => vec![project.actor(Some(name))?.name.clone()],
                None => project
                    .manifest
                    .actors
                    .iter()
                    .map(|a| a.name.clone())
                    .collect(),
            };
            let artifacts = cowboy_project::build::check(&project)
                .map_err(|e| output::build_problems(e, global.json))?;
            let mut failed = false;
            for a in artifacts.into_iter().filter(|a| wanted.contains(&a.name)) {
                let entry = project.actor(Some(&a.name))?;
                let init_args = match self.init_args_for(Some(entry)) {
                    Ok(args) => args,
                    Err(e) => {
                        output::print_error(&e, global.json);
                        failed = true;
                        continue;
                    }
                };
                let version = (a.code.clone(), a.entitlements);
                if deployed.get(&a.name) == Some(&version) {
                    continue;
                }
                if !global.json {
                    outln!("deploying {}", a.name);
                }
                let (hash, receipt) = node.send(
                    &key,
                    Instruction::Actor(ActorInstruction::Deploy {
                        code: a.code.clone(),
                        // A new address every time, even for code deployed before.
                        salt: Hash(rand::random()),
                        init_args,
                        // Every save deploys again: only an explicit --value is sent each time.
                        value: self.value.unwrap_or(0),
                        entitlements: a.entitlements,
                    }),
                    &self.tx,
                )?;
                match client::report(global.json, hash, receipt) {
                    Ok(()) => {
                        deployed.insert(a.name.clone(), version);
                    }
                    Err(e) => {
                        output::print_error(&e, global.json);
                        failed = true;
                    }
                }
            }
            if failed {
                anyhow::bail!(output::Reported);
            }
            Ok(())
        })
    }
}
