//! `cowboy devnet up --example`: a project's actors deployed on a running chain in manifest
//! order (each with its `deploy_args` and `deploy_value`), then its `[[demo]]` calls made, and
//! the commands its manifest suggests trying next (`[project] try_next`), with every `$NAME`
//! resolved to the address actor NAME got.

use crate::{BuildError, Project, manifest};
use cowboy_crypto::PrivateKey;
use cowboy_pvm::Value;
use cowboy_rpc::{CowboyApiClient, PrepareError, ReceiptStatus, ReceiptView, TxOptions};
use cowboy_types::{ActorInstruction, Address, Hash, Instruction};
use std::{collections::BTreeMap, time::Duration};

/// What a demo deployed and called.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Deployed {
    /// The project's name.
    pub example: String,
    pub actors: BTreeMap<String, Address>,
    /// Each `[[demo]]` call: actor, handler, arguments, what it returned and in which block.
    pub calls: Vec<serde_json::Value>,
    /// Commands to try next.
    pub next: Vec<String>,
}

/// Why a demo stopped.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error(transparent)]
    Build(#[from] BuildError),
    #[error("{what}: {message}")]
    Arguments { what: String, message: String },
    #[error("{what}: {source}")]
    Send {
        what: String,
        #[source]
        source: PrepareError,
    },
    #[error("{what}: {hash} was not finalized within {timeout_s} s")]
    NoReceipt {
        what: String,
        hash: Hash,
        timeout_s: u64,
    },
    #[error("{what} failed: {error}")]
    Failed { what: String, error: String },
}

/// Deploys `project`'s actors from `key` on the chain `client` talks to, then makes its demo
/// calls; each transaction waits up to `timeout` for its receipt.
pub async fn run<C: CowboyApiClient + Sync>(
    client: &C,
    key: &PrivateKey,
    project: &Project,
    timeout: Duration,
) -> Result<Deployed, DemoError> {
    let artifacts = crate::build::check(project)?;
    let mut actors = BTreeMap::new();
    // `check` returns one artifact per actor, in manifest order.
    for (entry, artifact) in project.manifest.actors.iter().zip(&artifacts) {
        let what = format!("deploying example actor {}", entry.name);
        let args = encode(&entry.deploy_args, &actors, &what)?;
        let instruction = Instruction::Actor(ActorInstruction::Deploy {
            code: artifact.code.clone(),
            salt: Hash::ZERO,
            init_args: args,
            value: entry.deploy_value,
            entitlements: artifact.entitlements,
        });
        let receipt = send(client, key, instruction, timeout, &what).await?;
        let address = receipt.created.ok_or_else(|| DemoError::Failed {
            what: what.clone(),
            error: "the receipt names no created actor".into(),
        })?;
        actors.insert(entry.name.clone(), address);
    }
    let mut calls = Vec::new();
    for demo in &project.manifest.demo {
        let what = format!("example call {}.{}", demo.actor, demo.call);
        // The manifest refuses a demo call to an actor it does not list.
        let to = *actors
            .get(&demo.actor)
            .ok_or_else(|| DemoError::Arguments {
                what: what.clone(),
                message: format!("{:?} was not deployed", demo.actor),
            })?;
        let values =
            manifest::resolve_args(&demo.args, |n| actors.get(n).copied()).map_err(|message| {
                DemoError::Arguments {
                    what: what.clone(),
                    message,
                }
            })?;
        let shown: Vec<serde_json::Value> = values.iter().map(Value::to_json).collect();
        let instruction = Instruction::Actor(ActorInstruction::Message {
            to,
            method: demo.call.clone(),
            args: encode_values(values, &what)?,
            value: 0,
        });
        let receipt = send(client, key, instruction, timeout, &what).await?;
        calls.push(serde_json::json!({
            "actor": demo.actor,
            "call": demo.call,
            "args": shown,
            "returned": receipt.return_value,
            "block": receipt.block_height,
        }));
    }
    let next = match project.manifest.project.try_next.as_slice() {
        [] => actors
            .values()
            .map(|a| format!("cowboy balance {a}"))
            .collect(),
        hints => hints
            .iter()
            .map(|h| manifest::with_addresses(h, &actors))
            .collect(),
    };
    Ok(Deployed {
        example: project.manifest.project.name.clone(),
        actors,
        calls,
        next,
    })
}

fn encode(
    args: &[toml::Value],
    actors: &BTreeMap<String, Address>,
    what: &str,
) -> Result<Vec<u8>, DemoError> {
    let values = manifest::resolve_args(args, |n| actors.get(n).copied()).map_err(|message| {
        DemoError::Arguments {
            what: what.to_string(),
            message,
        }
    })?;
    encode_values(values, what)
}

fn encode_values(values: Vec<Value>, what: &str) -> Result<Vec<u8>, DemoError> {
    Value::List(values)
        .encode()
        .map_err(|e| DemoError::Arguments {
            what: what.to_string(),
            message: e.to_string(),
        })
}

/// Sends one transaction with the client library's defaults and waits for a successful
/// receipt.
async fn send<C: CowboyApiClient + Sync>(
    client: &C,
    key: &PrivateKey,
    instruction: Instruction,
    timeout: Duration,
    what: &str,
) -> Result<ReceiptView, DemoError> {
    let (hash, receipt) =
        cowboy_rpc::send_and_wait(client, key, instruction, &TxOptions::default(), timeout)
            .await
            .map_err(|source| DemoError::Send {
                what: what.to_string(),
                source,
            })?;
    let receipt = receipt.ok_or_else(|| DemoError::NoReceipt {
        what: what.to_string(),
        hash,
        timeout_s: timeout.as_secs(),
    })?;
    if receipt.status != ReceiptStatus::Success {
        return Err(DemoError::Failed {
            what: what.to_string(),
            error: receipt
                .error
                .clone()
                .unwrap_or_else(|| receipt.status.to_string()),
        });
    }
    Ok(receipt)
}
