//! `cowboy node`: create a node home (`init`) and run a validator from it (`run`, or `cowboy
//! node` alone).

use crate::{opts::GlobalArgs, output};
use anyhow::{Context as _, Result, bail};
use clap::{Args, Subcommand};
use cowboy_execution::{Allocation, Genesis};
use cowboy_node::node::{self, Home, Member, Overrides, Peer};
use cowboy_types::{Address, json::Amount};
use std::{net::SocketAddr, path::PathBuf};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct NodeArgs {
    #[command(subcommand)]
    command: Option<NodeCommand>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand)]
pub enum NodeCommand {
    /// Create node homes: keys, config and a genesis for 1 or more validators (a trusted
    /// dealer makes the threshold shares: fine for devnets, not for a public network).
    Init(InitArgs),
    /// Run a validator from its home until SIGINT/SIGTERM.
    Run(RunArgs),
    /// Save a stopped node's latest state as a snapshot: a genesis file that `cowboy node init
    /// --genesis` and `cowboy devnet up --from-snapshot` start a new chain from.
    Snapshot(SnapshotArgs),
}

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy node run --home ./node                  # until Ctrl-C: stop it before a snapshot\n  \
cowboy node snapshot --home ./node world.json\n  \
cowboy node init --home ./copy --genesis world.json\n\n\
Stop the node first: its store admits one process. See the book's Snapshots chapter for \
what is carried, rebased and dropped.")]
pub struct SnapshotArgs {
    /// Where to write the snapshot.
    #[arg(value_name = "FILE")]
    out: PathBuf,
    /// Replace FILE if it exists.
    #[arg(long)]
    force: bool,
}

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy node init --home ./node --fund 0xYOURADDRESS=1000000000000\n  \
cowboy node init --home ./net --validators 4   # ./net/node-0 … ./net/node-3\n  \
cowboy node init --home ./staging --genesis ~/.cowboy/snapshots/staging.json\n\n\
The node home is --home (or $COWBOY_HOME); without either, ~/.cowboy/node.")]
pub struct InitArgs {
    /// How many validators.
    #[arg(long, default_value_t = 1)]
    validators: usize,
    /// Chain id [default: 31337, or the genesis file's].
    #[arg(long)]
    chain_id: Option<u64>,
    /// Start from this genesis file (a snapshot from `cowboy devnet snapshot save`, or any
    /// genesis): its state, parameters and chain id. Its validators are replaced by the new
    /// homes', `--fund` adds to its allocations and `--cycle-budget` rescales its cycle
    /// budgets.
    #[arg(long, value_name = "FILE")]
    genesis: Option<PathBuf>,
    /// Prefund an account: ADDRESS=AMOUNT, in base units or CBY (`=1000cby`; repeatable).
    #[arg(long, value_name = "ADDRESS=AMOUNT")]
    fund: Vec<String>,
    /// First p2p port (validator i listens on port + i, on 127.0.0.1).
    #[arg(long, default_value_t = 9_000)]
    p2p_port: u16,
    /// First RPC port (validator i serves on port + i, on 127.0.0.1).
    #[arg(long, default_value_t = 8_545)]
    rpc_port: u16,
    /// Milliseconds between blocks.
    #[arg(long, default_value_t = 1_000)]
    block_time: u64,
    /// The block cycle cap as a percentage of the spec's 80,000,000 (default: what this
    /// machine's PVM executes in half the block time, 5% per second of block time).
    #[arg(long, value_name = "PERCENT", value_parser = crate::output::parse_percent_ppm)]
    cycle_budget: Option<u64>,
}

#[derive(Args, Default)]
#[command(
    after_help = "The node home is --home (or $COWBOY_HOME); without either, ~/.cowboy/node."
)]
pub struct RunArgs {
    /// Use this genesis file instead of the home's.
    #[arg(long, value_name = "FILE")]
    genesis: Option<PathBuf>,
    /// Serve JSON-RPC here.
    #[arg(long)]
    rpc_addr: Option<SocketAddr>,
    /// Listen for peers here.
    #[arg(long)]
    p2p_addr: Option<SocketAddr>,
    /// Peers as PUBLIC_KEY@HOST:PORT, comma-separated (replaces the config's list).
    #[arg(long, value_delimiter = ',')]
    peers: Option<Vec<String>>,
    /// Milliseconds between blocks (at least 100).
    #[arg(long)]
    block_time: Option<u64>,
    /// Log filter (`info`, `debug`, `cowboy_node=debug,warn`, …).
    #[arg(long)]
    log_level: Option<String>,
    /// Log as JSON lines instead of text.
    #[arg(long)]
    log_json: bool,
}

impl NodeArgs {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        match self.command {
            Some(NodeCommand::Init(a)) => a.run(global),
            Some(NodeCommand::Run(a)) => a.run(global),
            Some(NodeCommand::Snapshot(a)) => a.run(global),
            None => self.run.run(global),
        }
    }
}

impl InitArgs {
    fn run(self, global: &GlobalArgs) -> Result<()> {
        let root = node_home(global)?;
        if self.validators == 0 {
            bail!("--validators must be at least 1");
        }
        let mut allocations = Vec::new();
        for f in &self.fund {
            let (addr, amount) = f
                .split_once('=')
                .with_context(|| format!("--fund {f:?}: expected ADDRESS=AMOUNT"))?;
            let address: Address = addr
                .parse()
                .map_err(|e| anyhow::anyhow!("--fund {f:?}: {e}"))?;
            let amount = cowboy_types::units::parse_amount(amount)
                .map_err(|e| anyhow::anyhow!("--fund {f:?}: {e}"))?;
            allocations.push(Allocation {
                address,
                balance: Amount(amount),
            });
        }
        let mut genesis = match &self.genesis {
            Some(path) => Genesis::load(path)?,
            None => Genesis {
                chain_id: 31_337,
                genesis_time_ms: 0,
                allocations: Vec::new(),
                validators: vec![],
                runners: Vec::new(),
                threshold_public: None,
                tee_simulated_key: None,
                // Cycle budgets sized so a full block executes in half the block time.
                parameters: match self.cycle_budget {
                    Some(ppm) => cowboy_execution::Parameters::with_budget_ppm(ppm),
                    None => cowboy_execution::Parameters::for_block_time(self.block_time),
                },
                carried: None,
            },
        };
        if let Some(id) = self.chain_id {
            genesis.chain_id = id;
        }
        if let (Some(ppm), Some(_)) = (self.cycle_budget, &self.genesis) {
            genesis.parameters = genesis.parameters.rescaled(ppm);
        }
        genesis.allocations.extend(allocations);
        let stake = genesis.parameters.consensus.minimum_validator_stake;
        let members: Vec<Member> = (0..self.validators)
            .map(|i| {
                let home = if self.validators == 1 {
                    root.clone()
                } else {
                    root.join(format!("node-{i}"))
                };
                Member {
                    home: Home(home),
                    p2p_addr: SocketAddr::from(([127, 0, 0, 1], self.p2p_port + i as u16)),
                    rpc_addr: SocketAddr::from(([127, 0, 0, 1], self.rpc_port + i as u16)),
                    address: Address([0xa0 + i as u8; 20]),
                    stake,
                }
            })
            .collect();
        let committee = node::init_committee(&members, genesis, self.block_time)?;
        let budget = crate::output::execution_budget(&committee.genesis.parameters);
        if global.json {
            let nodes = members
                .iter()
                .map(|m| crate::schema::NodeHome {
                    home: m.home.0.clone(),
                    rpc_url: format!("http://{}", m.rpc_addr),
                    p2p_addr: m.p2p_addr.to_string(),
                })
                .collect();
            output::json(&crate::schema::NodeInit {
                chain_id: committee.genesis.chain_id,
                nodes,
                execution_budget: budget,
            });
        } else {
            for m in &members {
                outln!(
                    "created {} (rpc http://{}, p2p {})",
                    m.home.0.display(),
                    m.rpc_addr,
                    m.p2p_addr
                );
            }
            outln!("{}", budget.line());
            outln!(
                "start with: cowboy node run --home {}",
                members[0].home.0.display()
            );
        }
        Ok(())
    }
}

impl SnapshotArgs {
    fn run(self, global: &GlobalArgs) -> Result<()> {
        let home = node_home(global)?;
        if self.out.exists() && !self.force {
            bail!(
                "{} already exists; pick another file or pass --force to replace it",
                self.out.display()
            );
        }
        let saved = cowboy_devnet::snapshot::read_home(&home)?;
        cowboy_devnet::snapshot::write(&self.out, &saved.genesis)?;
        let source = saved
            .genesis
            .carried
            .as_ref()
            .map(|c| c.source.clone())
            .context("the snapshot carries nothing")?;
        if global.json {
            output::json(&crate::schema::NodeSnapshot {
                path: self.out.clone(),
                source,
                counts: saved.counts,
            });
        } else {
            outln!(
                "saved a snapshot of chain {} at height {} (state root {}) to {}",
                source.chain_id,
                source.height,
                source.state_root,
                self.out.display()
            );
            outln!("  {}", saved.counts);
        }
        Ok(())
    }
}

impl RunArgs {
    fn run(self, global: &GlobalArgs) -> Result<()> {
        let home = Home(node_home(global)?);
        let config = home.config()?;
        let filter = self.log_level.clone().unwrap_or(config.log_level.clone());
        crate::logs::init(&filter, self.log_json)?;
        if let Some(g) = &self.genesis {
            let mut c = config.clone();
            c.genesis = std::fs::canonicalize(g)
                .with_context(|| format!("cannot find the genesis file {}", g.display()))?;
            home.write_config(&c)?;
        }
        let peers = match &self.peers {
            None => None,
            Some(list) => Some(
                list.iter()
                    .map(|p| {
                        let (pk, addr) = p.split_once('@').with_context(|| {
                            format!("peer {p:?}: expected PUBLIC_KEY@HOST:PORT")
                        })?;
                        Ok(Peer {
                            public_key: pk.to_string(),
                            address: addr
                                .parse()
                                .with_context(|| format!("peer {p:?}: bad address"))?,
                        })
                    })
                    .collect::<Result<Vec<_>>>()?,
            ),
        };
        node::run(
            &home,
            Overrides {
                rpc_addr: self.rpc_addr,
                p2p_addr: self.p2p_addr,
                block_time_ms: self.block_time,
                peers,
            },
        )?;
        Ok(())
    }
}

/// The node home: `--home`/`$COWBOY_HOME` as given, else `~/.cowboy/node`.
fn node_home(global: &GlobalArgs) -> Result<PathBuf> {
    match &global.home {
        Some(h) => Ok(h.clone()),
        None => Ok(global.home()?.join("node")),
    }
}
