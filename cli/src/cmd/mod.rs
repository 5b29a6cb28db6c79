//! The subcommands, one file each.

mod balance;
mod block;
pub mod build;
pub mod call;
mod completions;
mod config;
mod deploy;
mod devnet;
mod estimate;
mod events;
mod faucet;
mod fees;
mod job;
mod keys;
mod new;
pub mod node;
mod nonce;
mod query;
mod rpc;
mod run;
mod runner;
mod runner_sim;
mod schema;
mod sign;
mod status;
mod test;
mod timer;
mod tx;

use crate::opts::GlobalArgs;
use anyhow::{Context as _, Result};
use clap::Subcommand;
use std::io::Read as _;

#[derive(Subcommand)]
pub enum Command {
    /// Create an actor project from a template.
    New(new::NewArgs),
    /// Check a project's actors against the PVM rules and write deployable artifacts.
    Build(build::BuildArgs),
    /// Run a project's tests (Python tests/test_*.py, TOML scenarios) on local chains.
    Test(test::TestArgs),
    /// Create, import, list, export and delete encrypted keys.
    #[command(subcommand)]
    Keys(keys::KeysCommand),
    /// Sign a transaction described as JSON, offline (no node needed).
    Sign(sign::SignArgs),
    /// Run an actor locally (deploy, then call a handler) and report its result and costs.
    Run(run::RunArgs),
    /// Decode, hash, send and look up transactions.
    #[command(subcommand)]
    Tx(tx::TxCommand),
    /// Deploy an actor and wait until it is finalized.
    Deploy(deploy::DeployArgs),
    /// Call an actor's handler in a transaction and wait for the result.
    Call(call::CallArgs),
    /// Run an actor's handler read-only against the latest state.
    Query(query::QueryArgs),
    /// List, show, set and cancel timers.
    #[command(subcommand)]
    Timer(timer::TimerCommand),
    /// Events of executed blocks, by actor and topic; --follow for new ones.
    Events(events::EventsArgs),
    /// An account's balance, nonce and actor.
    Balance(balance::BalanceArgs),
    /// An account's nonce (executed, and counting its pending transactions).
    Nonce(nonce::NonceArgs),
    /// The basefees the next block charges and the fee caps the CLI offers.
    Fees(fees::FeesArgs),
    /// What a call would use and cost, from a simulation; nothing is sent.
    Estimate(estimate::EstimateArgs),
    /// One raw JSON-RPC call; prints the result as JSON.
    Rpc(rpc::RpcCallArgs),
    /// A block by height, hash or `latest`.
    Block(block::BlockArgs),
    /// A node's health: ready, halted (and why), stalled, catching up, paused for disk space.
    Status(status::StatusArgs),
    /// Create a node home and run a validator.
    Node(node::NodeArgs),
    /// Run local multi-node devnets: up, status, logs, stop/start a node, down, reset.
    #[command(subcommand)]
    Devnet(devnet::DevnetCommand),
    /// Submit, estimate, show, list, watch and challenge off-chain jobs.
    #[command(subcommand)]
    Job(job::JobCommand),
    /// Set up, register and run a runner (the off-chain half of the runner market).
    #[command(subcommand)]
    Runner(runner::RunnerCommand),
    /// Run a fleet of simulated runners (honest, lazy, slow, liar, colluding, crash, flaky)
    /// against a node, with hermetic HTTP, LLM and MCP backends.
    RunnerSim(runner_sim::RunnerSimArgs),
    /// Ask a faucet for funds, or run one.
    Faucet(faucet::FaucetArgs),
    /// Show and edit connection profiles ($COWBOY_HOME/config.toml).
    #[command(subcommand)]
    Config(config::ConfigCommand),
    /// Print a shell completion script.
    Completions(completions::CompletionsArgs),
    /// The JSON Schema of a command's --json output
    Schema(schema::SchemaArgs),
}

impl Command {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        match self {
            Self::New(cmd) => cmd.run(global),
            Self::Build(cmd) => cmd.run(global),
            Self::Test(cmd) => cmd.run(global),
            Self::Devnet(cmd) => cmd.run(global),
            Self::Faucet(cmd) => cmd.run(global),
            Self::Runner(cmd) => cmd.run(global),
            Self::Job(cmd) => cmd.run(global),
            Self::RunnerSim(cmd) => cmd.run(global),
            Self::Config(cmd) => cmd.run(global),
            Self::Completions(cmd) => cmd.run(),
            Self::Schema(cmd) => cmd.run(global),
            Self::Keys(cmd) => cmd.run(global),
            Self::Sign(cmd) => cmd.run(global),
            Self::Run(cmd) => cmd.run(global),
            Self::Tx(cmd) => cmd.run(global),
            Self::Deploy(cmd) => cmd.run(global),
            Self::Call(cmd) => cmd.run(global),
            Self::Query(cmd) => cmd.run(global),
            Self::Timer(cmd) => cmd.run(global),
            Self::Events(cmd) => cmd.run(global),
            Self::Balance(cmd) => cmd.run(global),
            Self::Nonce(cmd) => cmd.run(global),
            Self::Fees(cmd) => cmd.run(global),
            Self::Estimate(cmd) => cmd.run(global),
            Self::Rpc(cmd) => cmd.run(global),
            Self::Block(cmd) => cmd.run(global),
            Self::Status(cmd) => cmd.run(global),
            Self::Node(cmd) => cmd.run(global),
        }
    }
}

/// Reads a whole file, or stdin when `path` is `-`.
pub fn read_input(path: &str, what: &str) -> Result<String> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .with_context(|| format!("cannot read {what} from stdin"))?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {what} from {path}"))
    }
}

/// A hex argument that may be `-` (read from stdin); surrounding whitespace is ignored.
pub fn hex_argument(value: &str, what: &str) -> Result<Vec<u8>> {
    let text = if value == "-" {
        read_input("-", what)?
    } else {
        value.to_string()
    };
    cowboy_types::decode_hex(text.trim()).with_context(|| format!("{what} is not valid hex"))
}
