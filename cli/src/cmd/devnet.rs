//! `cowboy devnet`: local multi-node devnets — `up` (returns only once every node executed a
//! block and the faucet answers), `status`, `logs`, `stop`/`start` one node (fault drills),
//! `down`, `reset`, `list`. State lives under `$COWBOY_HOME/devnets/NAME`.

use crate::{
    client::Node,
    config::{ConfigFile, Profile},
    opts::GlobalArgs,
    output,
};
use anyhow::{Context as _, Result, bail};
use clap::{Args, Subcommand};
use cowboy_devnet::{Devnet, DevnetState, Event, UpOptions};
use cowboy_project::Project;
use cowboy_project::demo::Deployed;
use std::{
    io::IsTerminal as _,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

#[derive(Subcommand)]
pub enum DevnetCommand {
    /// Create and start a devnet (or resume a stopped one); returns when it is ready.
    Up(UpArgs),
    /// Heights, finalized heights, peers and state roots of every node.
    Status(NameArgs),
    /// Print (and with --follow, keep printing) node and faucet logs.
    Logs(LogsArgs),
    /// Stop one node (a fault drill: the others keep finalizing).
    Stop(ProcessArgs),
    /// Start a stopped node; returns once it has caught up.
    Start(ProcessArgs),
    /// Stop every process; the chain data stays (`up` resumes it).
    Down(NameArgs),
    /// Stop everything and delete the devnet (chain data, keys, logs).
    Reset(NameArgs),
    /// The devnets under $COWBOY_HOME/devnets.
    #[command(alias = "ls")]
    List,
    /// Save a devnet's state as a snapshot that new devnets start from; list snapshots.
    #[command(subcommand)]
    Snapshot(SnapshotCommand),
}

#[derive(Subcommand)]
pub enum SnapshotCommand {
    /// Save node-0's latest state as $COWBOY_HOME/snapshots/NAME.json: a genesis that
    /// `cowboy devnet up --from-snapshot NAME` and `cowboy node init --genesis FILE` start from.
    Save(SnapshotSaveArgs),
    /// The saved snapshots, with the chain and height each was taken at.
    #[command(alias = "list")]
    Ls,
}

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy devnet snapshot save seeded                 # $COWBOY_HOME/snapshots/seeded.json\n  \
cowboy devnet up --name copy --rpc-port 18545 --p2p-port 30400 --faucet-port 18645 --from-snapshot seeded --detach\n\n\
A running node-0 is stopped for the read and started again before `save` returns (on a \
single-validator devnet, blocks pause for about a second). Accounts, actors, storage, \
timers and mailboxes are carried; timers are due as many blocks after the new chain's start \
as they were after the snapshot; validators, runners and jobs are not carried.")]
pub struct SnapshotSaveArgs {
    /// The snapshot's name (letters, digits, '.', '-', '_').
    snapshot: String,
    /// Replace an existing snapshot of that name.
    #[arg(long)]
    force: bool,
    /// Seconds to wait for a restarted node-0 to catch up.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    #[command(flatten)]
    name: NameArgs,
}

#[derive(Args, Clone)]
pub struct NameArgs {
    /// Which devnet.
    #[arg(long, default_value = "local", env = "COWBOY_DEVNET")]
    name: String,
}

#[derive(Args)]
#[command(after_help = "Examples:\n  \
cowboy devnet up --example counter       # 1 validator, counter deployed; Ctrl-C stops it\n  \
cowboy devnet up --name four --validators 4 --detach   # return once ready, keep running\n  \
cowboy devnet up --name ci --rpc-port 18545 --p2p-port 30400 --faucet-port 18645 --detach\n\n\
Dev accounts come from the published mnemonic \"test test test test test test test test \
test test test junk\" (m/44'/60'/0'/0/i, anvil's addresses): sign with --account dev:N. \
`up` writes a profile named after the devnet to $COWBOY_HOME/config.toml (the default \
profile if there was none), so later commands need no --rpc-url.")]
pub struct UpArgs {
    #[command(flatten)]
    name: NameArgs,
    /// Number of validators [default: 1].
    #[arg(long)]
    validators: Option<usize>,
    /// Milliseconds between blocks (at least 100).
    #[arg(long, default_value_t = cowboy_devnet::DEFAULT_BLOCK_TIME_MS)]
    block_time: u64,
    /// Prefunded dev accounts (10,000 CBY each).
    #[arg(long, default_value_t = cowboy_devnet::DEFAULT_ACCOUNTS)]
    accounts: u32,
    /// Chain id [default: 31337, or the snapshot's].
    #[arg(long)]
    chain_id: Option<u64>,
    /// Start a new devnet from a snapshot (`cowboy devnet snapshot save`): a name under
    /// $COWBOY_HOME/snapshots or a genesis file's path. Its parameters apply (`--cycle-budget`
    /// rescales their cycle budgets).
    #[arg(long, value_name = "NAME|FILE")]
    from_snapshot: Option<String>,
    /// node-0's RPC port (node i uses PORT + i).
    #[arg(long, default_value_t = cowboy_devnet::DEFAULT_RPC_PORT, env = "COWBOY_DEVNET_RPC_PORT")]
    rpc_port: u16,
    /// node-0's p2p port (node i uses PORT + i).
    #[arg(long, default_value_t = cowboy_devnet::DEFAULT_P2P_PORT, env = "COWBOY_DEVNET_P2P_PORT")]
    p2p_port: u16,
    /// The faucet's port.
    #[arg(long, default_value_t = cowboy_devnet::DEFAULT_FAUCET_PORT, env = "COWBOY_DEVNET_FAUCET_PORT")]
    faucet_port: u16,
    /// Start a runner fleet with the devnet (`honest=3`, `honest=4,lazy=1,liar=1`; kinds:
    /// honest, lazy, slow, liar, colluding, crash, flaky), staked by a dev key: ready when
    /// `up` returns.
    #[arg(long, value_name = "FLEET")]
    runners: Option<cowboy_runner_sim::Fleet>,
    /// The fleet's HTTP jobs are answered from this cassette (recorded with `cowboy runner-sim
    /// --http record`) instead of the network.
    #[arg(long, value_name = "FILE", requires = "runners")]
    runners_cassette: Option<PathBuf>,
    /// Deploy an example once ready: `counter`, `heartbeat`, `ping-pong`, or a project
    /// directory.
    #[arg(long, value_name = "NAME|DIR")]
    example: Option<String>,
    /// Return once ready and leave the devnet running (stop it with `cowboy devnet down`).
    #[arg(long, short = 'd')]
    detach: bool,
    /// Seconds to wait for readiness.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Also print the dev accounts' private keys (the published mnemonic's; devnets only).
    #[arg(long)]
    show_private_keys: bool,
    /// The block cycle cap as a percentage of the spec's 80,000,000 (default: what this
    /// machine's PVM executes in half the block time, 5% per second of block time).
    #[arg(long, value_name = "PERCENT", value_parser = crate::output::parse_percent_ppm)]
    cycle_budget: Option<u64>,
}

#[derive(Args)]
pub struct LogsArgs {
    /// `node-0`, `node-1`, …, or `faucet` (default: all, each line prefixed).
    process: Option<String>,
    /// Keep printing new lines until interrupted.
    #[arg(long, short = 'f')]
    follow: bool,
    /// Lines of history to print first.
    #[arg(long, short = 'n', default_value_t = 20)]
    lines: usize,
    #[command(flatten)]
    name: NameArgs,
}

#[derive(Args)]
pub struct ProcessArgs {
    /// The node: `node-0`, `node-1`, …
    node: String,
    /// Seconds to wait for the node to catch up (start).
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    #[command(flatten)]
    name: NameArgs,
}

impl DevnetCommand {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        let home = global.home()?;
        match self {
            Self::Up(a) => a.run(global, &home),
            Self::Status(a) => status(global, &Devnet::new(&home, &a.name)?),
            Self::Logs(a) => logs(&Devnet::new(&home, &a.name.name)?, &a),
            Self::Stop(a) => {
                let devnet = Devnet::new(&home, &a.name.name)?;
                devnet.check_process(&a.node)?;
                let was_running = devnet.stop_node(&a.node)?;
                if global.json {
                    output::json(&crate::schema::NodeStopped {
                        node: a.node.clone(),
                        was_running,
                    });
                } else if was_running {
                    outln!("stopped {}", a.node);
                } else {
                    outln!("{} was not running", a.node);
                }
                Ok(())
            }
            Self::Start(a) => {
                let devnet = Devnet::new(&home, &a.name.name)?;
                let binary = std::env::current_exe().context("cannot find the cowboy binary")?;
                let progress = Progress::new(1);
                let started = Instant::now();
                let height =
                    devnet.start_node(&a.node, &binary, Duration::from_secs(a.timeout), &mut |e| {
                        progress.event(&e)
                    });
                progress.finish();
                let height = height?;
                if global.json {
                    output::json(&crate::schema::NodeStarted {
                        node: a.node.clone(),
                        height,
                        ready_ms: started.elapsed().as_millis() as u64,
                    });
                } else {
                    outln!("started {}: caught up at height {height}", a.node);
                }
                Ok(())
            }
            Self::Down(a) => {
                let devnet = Devnet::new(&home, &a.name)?;
                let stopped = devnet.down()?;
                if global.json {
                    output::json(&crate::schema::DevnetStopped {
                        stopped,
                        deleted: None,
                    });
                } else if stopped.is_empty() {
                    outln!("devnet {} was not running", a.name);
                } else {
                    outln!(
                        "stopped {}; chain data kept in {} (`cowboy devnet up --name {}` resumes it, `cowboy devnet reset --name {}` deletes it)",
                        stopped.join(", "),
                        devnet.dir().display(),
                        a.name,
                        a.name
                    );
                }
                Ok(())
            }
            Self::Reset(a) => {
                let devnet = Devnet::new(&home, &a.name)?;
                let stopped = devnet.reset()?;
                remove_profile(&home, &a.name)?;
                if global.json {
                    output::json(&crate::schema::DevnetStopped {
                        stopped,
                        deleted: Some(devnet.dir().to_path_buf()),
                    });
                } else {
                    outln!("deleted devnet {} ({})", a.name, devnet.dir().display());
                }
                Ok(())
            }
            Self::Snapshot(SnapshotCommand::Save(a)) => {
                let devnet = Devnet::new(&home, &a.name.name)?;
                let binary = std::env::current_exe().context("cannot find the cowboy binary")?;
                let progress = Progress::new(1);
                let saved = devnet.save_snapshot(
                    &home,
                    &a.snapshot,
                    a.force,
                    &binary,
                    Duration::from_secs(a.timeout),
                    &mut |e| progress.event(&e),
                );
                progress.finish();
                let saved = saved?;
                if global.json {
                    output::json(&saved);
                } else {
                    outln!(
                        "saved snapshot {} of devnet {} at height {} (state root {}) to {}",
                        saved.name,
                        a.name.name,
                        saved.source.height,
                        saved.source.state_root,
                        saved.path.display()
                    );
                    outln!("  {}", saved.counts);
                    if saved.restarted_node {
                        outln!("  node-0 was stopped for the read and is running again");
                    }
                    outln!(
                        "start a devnet from it: cowboy devnet up --name NAME --from-snapshot {}",
                        saved.name
                    );
                }
                Ok(())
            }
            Self::Snapshot(SnapshotCommand::Ls) => {
                let listed = cowboy_devnet::snapshot::list(&home);
                if global.json {
                    output::json(&listed);
                } else if listed.is_empty() {
                    outln!("no snapshots; save one with `cowboy devnet snapshot save NAME`");
                } else {
                    for s in &listed {
                        match (&s.source, &s.error) {
                            (Some(src), _) => outln!(
                                "{:<16} chain {} height {:<8} {}",
                                s.name,
                                src.chain_id,
                                src.height,
                                s.path.display()
                            ),
                            (None, error) => outln!(
                                "{:<16} unreadable: {}",
                                s.name,
                                error.as_deref().unwrap_or("?")
                            ),
                        }
                    }
                }
                Ok(())
            }
            Self::List => {
                let mut rows = Vec::new();
                for name in cowboy_devnet::list(&home) {
                    let devnet = Devnet::new(&home, &name)?;
                    if let Some(state) = devnet.state()? {
                        let running = (0..state.nodes.len())
                            .filter(|i| state.node_running(*i))
                            .count();
                        rows.push(crate::schema::DevnetRow {
                            nodes: state.nodes.len(),
                            running,
                            rpc_url: state.nodes[0].rpc_url(),
                            name,
                        });
                    }
                }
                if global.json {
                    output::json(&rows);
                } else if rows.is_empty() {
                    outln!("no devnets; create one with `cowboy devnet up`");
                } else {
                    for r in &rows {
                        outln!(
                            "{:<12} {}/{} nodes running  {}",
                            r.name,
                            r.running,
                            r.nodes,
                            r.rpc_url
                        );
                    }
                }
                Ok(())
            }
        }
    }
}

/// A progress bar on a terminal; nothing otherwise (logs and CI output stay clean).
struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    fn new(steps: u64) -> Self {
        if !std::io::stderr().is_terminal() {
            return Self(None);
        }
        let bar = indicatif::ProgressBar::new(steps);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{spinner} [{pos}/{len}] {msg} ({elapsed})")
        {
            bar.set_style(style);
        }
        bar.enable_steady_tick(Duration::from_millis(100));
        Self(Some(bar))
    }

    fn event(&self, e: &Event) {
        let Some(bar) = &self.0 else { return };
        match e {
            Event::Created { validators } => {
                bar.set_message(format!("genesis written for {validators} validator(s)"))
            }
            Event::Resuming { validators } => {
                bar.set_message(format!("resuming {validators} validator(s)"))
            }
            Event::Started { process, pid } => bar.set_message(format!(
                "started {process} (pid {pid}); waiting for readiness"
            )),
            Event::Ready { process, height } => {
                bar.inc(1);
                match height {
                    Some(h) => bar.set_message(format!("{process} executed block {h}")),
                    None => bar.set_message(format!("{process} answers")),
                }
            }
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl UpArgs {
    fn run(self, global: &GlobalArgs, home: &Path) -> Result<()> {
        let devnet = Devnet::new(home, &self.name.name)?;
        // Resolve the example before starting anything: a typo should not cost a devnet start.
        let example = self.example.as_deref().map(open_example).transpose()?;
        let binary = std::env::current_exe().context("cannot find the cowboy binary")?;
        let snapshot = self
            .from_snapshot
            .as_deref()
            .map(|s| cowboy_devnet::snapshot::load(home, s))
            .transpose()?;
        let existing = devnet.state()?;
        if let (Some(state), Some(asked)) = (&existing, self.validators)
            && asked != state.nodes.len()
        {
            bail!(
                "devnet {:?} already exists with {} validator(s); `cowboy devnet up --name {}` resumes it as it is, `cowboy devnet reset --name {}` deletes it so it can be made with {asked}",
                state.name,
                state.nodes.len(),
                state.name,
                state.name
            );
        }
        // In the foreground, Ctrl-C is caught from here on: one pressed while the nodes start
        // stops them once they are up, instead of killing `cowboy` and leaving them running.
        let mut foreground = if self.detach {
            None
        } else {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .context("cannot start the async runtime")?;
            let shutdown = {
                let _entered = runtime.enter();
                crate::shutdown::Shutdown::listen()?
            };
            Some((runtime, shutdown))
        };
        let defaults = UpOptions::new(binary);
        let options = UpOptions {
            validators: self.validators.unwrap_or(defaults.validators),
            block_time_ms: self.block_time,
            accounts: self.accounts,
            chain_id: self
                .chain_id
                .or(snapshot.as_ref().map(|s| s.chain_id))
                .unwrap_or(defaults.chain_id),
            rpc_port: self.rpc_port,
            p2p_port: self.p2p_port,
            faucet_port: self.faucet_port,
            timeout: Duration::from_secs(self.timeout),
            cycle_budget_ppm: self.cycle_budget,
            snapshot,
            runners: self.runners.as_ref().map(|f| f.to_string()),
            runners_cassette: self
                .runners_cassette
                .as_ref()
                .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone())),
            ..defaults
        };
        let started = Instant::now();
        let validators = existing.map_or(options.validators, |s| s.nodes.len());
        let progress = Progress::new(validators as u64 + 1);
        let result = devnet.up(&options, &mut |e| progress.event(&e));
        progress.finish();
        let (state, resumed) = result?;
        let ready_ms = started.elapsed().as_millis() as u64;
        // Stopped while it started: stop the nodes now, before the example and the banner.
        if let Some((runtime, shutdown)) = foreground.as_mut() {
            let _entered = runtime.enter();
            if shutdown.requested() {
                let stopped = devnet.down()?;
                if !global.json {
                    outln!("stopped {} before it was ready", stopped.join(", "));
                }
                return Ok(());
            }
        }
        let profile = write_profile(home, &state).inspect_err(|_| {
            if !self.detach {
                let _ = devnet.down();
            }
        })?;
        let deployed = match &example {
            Some((_, project, _scratch)) => {
                Some(deploy_example(&state, project).inspect_err(|_| {
                    if !self.detach {
                        let _ = devnet.down();
                    }
                })?)
            }
            None => None,
        };
        drop(example); // the scratch copy of an embedded example is not needed any more
        print_up(
            global,
            &devnet,
            &state,
            resumed,
            ready_ms,
            &profile,
            &deployed,
            self.detach,
            self.show_private_keys,
        );
        let Some((runtime, mut shutdown)) = foreground else {
            return Ok(());
        };
        runtime.block_on(shutdown.wait());
        let stopped = devnet.down()?;
        if !global.json {
            outln!("\nstopped {}", stopped.join(", "));
        }
        Ok(())
    }
}

/// A scratch directory, deleted when dropped (whichever way the command ends).
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The example project: an embedded example by name (written to a scratch directory that lives
/// as long as the returned guard), or a project directory.
fn open_example(name: &str) -> Result<(String, Project, Option<Scratch>)> {
    let path = Path::new(name);
    if path.join(cowboy_project::MANIFEST).is_file() {
        let project = Project::open(path)?;
        return Ok((project.manifest.project.name.clone(), project, None));
    }
    let example = cowboy_project::templates::example(name)?;
    let scratch =
        Scratch(std::env::temp_dir().join(format!("cowboy-example-{name}-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&scratch.0);
    example.write(&scratch.0, name)?;
    let project = Project::open(&scratch.0)?;
    Ok((name.to_string(), project, Some(scratch)))
}

/// Deploys the example on the devnet's first node from dev account 0 and makes its demo
/// calls (`cowboy_project::demo`).
fn deploy_example(state: &DevnetState, project: &Project) -> Result<Deployed> {
    let node = Node::connect_url(&state.nodes[0].rpc_url(), None)?;
    let key = cowboy_devnet::dev_key(0)?;
    node.block_on(cowboy_project::demo::run(
        &node.client,
        &key,
        project,
        Duration::from_secs(60),
    ))
    .map_err(|e| match e {
        cowboy_project::demo::DemoError::Build(e) => crate::output::build_problems(e, false),
        other => other.into(),
    })
}

/// Records the devnet as a profile (and the default profile when there is none).
fn write_profile(home: &Path, state: &DevnetState) -> Result<(String, bool)> {
    let mut config = ConfigFile::load(home)?;
    config.profiles.insert(
        state.name.clone(),
        Profile {
            rpc_url: Some(state.nodes[0].rpc_url()),
            account: Some("dev:0".into()),
            chain_id: Some(state.chain_id),
            faucet_url: Some(state.faucet.url()),
        },
    );
    let is_default = match &config.default_profile {
        None => {
            config.default_profile = Some(state.name.clone());
            true
        }
        Some(d) => *d == state.name,
    };
    config.save(home)?;
    Ok((state.name.clone(), is_default))
}

/// Removes the profile `devnet up` wrote for a deleted devnet.
fn remove_profile(home: &Path, name: &str) -> Result<()> {
    let mut config = ConfigFile::load(home)?;
    let ours = config
        .profiles
        .get(name)
        .is_some_and(|p| p.account.as_deref() == Some("dev:0"));
    if ours {
        config.profiles.remove(name);
        if config.default_profile.as_deref() == Some(name) {
            config.default_profile = None;
        }
        config.save(home)?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn print_up(
    global: &GlobalArgs,
    devnet: &Devnet,
    state: &DevnetState,
    resumed: bool,
    ready_ms: u64,
    profile: &(String, bool),
    deployed: &Option<Deployed>,
    detach: bool,
    show_private_keys: bool,
) {
    // The budget the devnet's genesis was written with, and the snapshot it started from.
    let genesis = state
        .nodes
        .first()
        .and_then(|n| cowboy_execution::Genesis::load(&n.home.join("genesis.json")).ok());
    let from_snapshot = genesis
        .as_ref()
        .and_then(|g| g.carried.as_ref())
        .map(|c| c.source.clone());
    let parameters = genesis
        .map(|g| g.parameters)
        .unwrap_or_else(|| cowboy_execution::Parameters::for_block_time(state.block_time_ms));
    let budget = output::execution_budget(&parameters);
    if global.json {
        use crate::schema::{DevnetUp, UpAccount, UpFaucet, UpNode, UpRunners};
        output::json(&DevnetUp {
            name: state.name.clone(),
            chain_id: state.chain_id,
            from_snapshot,
            execution_budget: budget,
            resumed,
            ready_ms,
            dir: devnet.dir().to_path_buf(),
            nodes: state
                .nodes
                .iter()
                .map(|n| UpNode {
                    name: n.name.clone(),
                    rpc_url: n.rpc_url(),
                    p2p_addr: n.p2p_addr.to_string(),
                    pid: n.pid,
                    log: devnet.log(&n.name),
                })
                .collect(),
            explorer_url: state.explorer_url(),
            faucet: UpFaucet {
                url: state.faucet.url(),
                address: state.faucet.address,
                log: devnet.log("faucet"),
            },
            accounts: state
                .accounts
                .iter()
                .map(|a| UpAccount {
                    account: format!("dev:{}", a.index),
                    address: a.address,
                    private_key: show_private_keys.then(|| a.private_key.clone()),
                })
                .collect(),
            runners: state.runners.as_ref().map(|r| UpRunners {
                fleet: r.fleet.clone(),
                log: devnet.log("runners"),
                ready: std::fs::read_to_string(devnet.dir().join(cowboy_devnet::RUNNERS_READY))
                    .ok()
                    .and_then(|t| serde_json::from_str(&t).ok()),
            }),
            profile: profile.0.clone(),
            example: deployed.clone(),
        });
        return;
    }
    let n = state.nodes.len();
    outln!(
        "devnet {} {} in {:.1} s: {n} validator{}, chain {}, {} ms blocks",
        state.name,
        if resumed { "resumed" } else { "ready" },
        ready_ms as f64 / 1000.0,
        if n == 1 { "" } else { "s" },
        state.chain_id,
        state.block_time_ms,
    );
    outln!();
    for node in &state.nodes {
        outln!("  {:<7} rpc {}", node.name, node.rpc_url());
    }
    outln!("  faucet  {}", state.faucet.url());
    if let Some(url) = state.explorer_url() {
        outln!("  web     {url} (block explorer)");
    }
    if let Some(r) = &state.runners {
        outln!("  runners {} (cowboy devnet status lists them)", r.fleet);
    }
    outln!("  logs    {}/*.log", devnet.dir().display());
    if let Some(s) = &from_snapshot {
        outln!(
            "  from    a snapshot of chain {} at height {} (state root {})",
            s.chain_id,
            s.height,
            s.state_root
        );
    }
    outln!();
    outln!("{}", budget.line());
    outln!();
    outln!(
        "dev accounts ({}; mnemonic \"{}\"; sign with --account dev:N{}):",
        if from_snapshot.is_some() {
            "the snapshot's balances; 10,000 CBY for those it had no account for"
        } else {
            "10,000 CBY each"
        },
        cowboy_devnet::DEV_MNEMONIC,
        if show_private_keys {
            "; private keys, devnets only"
        } else {
            "; --show-private-keys prints their keys"
        }
    );
    for a in &state.accounts {
        if show_private_keys {
            outln!("  dev:{:<3} {}  {}", a.index, a.address, a.private_key);
        } else {
            outln!("  dev:{:<3} {}", a.index, a.address);
        }
    }
    outln!();
    outln!(
        "profile {:?} written to config.toml{}: commands below need no --rpc-url or --account",
        profile.0,
        if profile.1 {
            " (the default profile)"
        } else {
            "; select it with --profile"
        }
    );
    let mut next = vec![
        format!(
            "cowboy balance {}",
            state
                .accounts
                .first()
                .map(|a| a.address.to_string())
                .unwrap_or_default()
        ),
        "cowboy faucet 0xYOURADDRESS".to_string(),
    ];
    if let Some(d) = deployed {
        outln!();
        outln!("example {} deployed:", d.example);
        for (name, addr) in &d.actors {
            outln!("  {name:<10} {addr}");
        }
        for c in &d.calls {
            outln!(
                "  called {}.{} → {} (block {})",
                c["actor"].as_str().unwrap_or(""),
                c["call"].as_str().unwrap_or(""),
                c["returned"],
                c["block"]
            );
        }
        next = d.next.clone();
    }
    outln!();
    outln!("try:");
    for cmd in &next {
        outln!("  {cmd}");
    }
    outln!("  cowboy devnet status");
    outln!();
    if detach {
        outln!(
            "running in the background; stop it with `cowboy devnet down --name {}`",
            state.name
        );
    } else {
        outln!("press Ctrl-C to stop the devnet (or start it with --detach)");
    }
}

fn status(global: &GlobalArgs, devnet: &Devnet) -> Result<()> {
    let s = devnet.status()?;
    if global.json {
        output::json(&s);
    } else {
        let answering = s.nodes.iter().filter(|n| n.height.is_some()).count();
        match (s.common_height, s.roots_agree) {
            (Some(h), Some(true)) if answering == s.nodes.len() => outln!(
                "devnet {} (chain {}): state roots agree at height {h}",
                s.name,
                s.chain_id
            ),
            // Nodes that do not answer are not part of the agreement.
            (Some(h), Some(true)) => outln!(
                "devnet {} (chain {}): {} of {} validators unreachable; state roots agree at height {h} among the {answering} that answer",
                s.name,
                s.chain_id,
                s.nodes.len() - answering,
                s.nodes.len()
            ),
            (Some(h), _) => outln!(
                "devnet {} (chain {}): STATE ROOTS DIFFER at height {h}",
                s.name,
                s.chain_id
            ),
            (None, _) => outln!("devnet {} (chain {}): no node answers", s.name, s.chain_id),
        }
        outln!();
        outln!(
            "  {:<7} {:<8} {:>7} {:>9} {:>5}  {:<66}  RPC",
            "NODE",
            "STATE",
            "HEIGHT",
            "FINALIZED",
            "PEERS",
            "STATE ROOT"
        );
        let dash = || "-".to_string();
        for n in &s.nodes {
            let state = match (n.running, &n.error, n.halted) {
                (false, _, _) => "stopped",
                (true, Some(_), _) => "silent",
                (true, None, Some(true)) => "HALTED",
                (true, None, _) => "running",
            };
            outln!(
                "  {:<7} {:<8} {:>7} {:>9} {:>5}  {:<66}  {}",
                n.name,
                state,
                n.height.map_or_else(dash, |h| h.to_string()),
                n.finalized_height.map_or_else(dash, |h| h.to_string()),
                n.peers.map_or_else(dash, |p| p.to_string()),
                n.state_root.map_or_else(dash, |r| r.to_string()),
                n.rpc_url
            );
        }
        outln!(
            "  faucet  {:<8} {}",
            if s.faucet_running {
                "running"
            } else {
                "stopped"
            },
            s.faucet_url
        );
        if let Some(r) = &s.runners {
            outln!(
                "  runners {:<8} {}",
                if r.running { "running" } else { "stopped" },
                r.fleet
            );
            let listed = r
                .ready
                .as_ref()
                .and_then(|v| v["runners"].as_array().cloned())
                .unwrap_or_default();
            for x in listed {
                outln!(
                    "          {}  {:<9} {}",
                    x["address"].as_str().unwrap_or("?"),
                    x["behaviour"].as_str().unwrap_or("?"),
                    x["endpoint"].as_str().unwrap_or("?")
                );
            }
        }
    }
    if s.roots_agree == Some(false) {
        bail!(output::Reported);
    }
    Ok(())
}

fn logs(devnet: &Devnet, args: &LogsArgs) -> Result<()> {
    let all = devnet.logs()?;
    let selected: Vec<(String, PathBuf)> = match &args.process {
        Some(p) => {
            devnet.check_process(p)?;
            all.into_iter().filter(|(n, _)| n == p).collect()
        }
        None => all,
    };
    let prefix = selected.len() > 1;
    let print = |name: &str, line: &str| {
        if prefix {
            outln!("{name:<7} | {line}");
        } else {
            outln!("{line}");
        }
    };
    let mut offsets = Vec::new();
    for (name, path) in &selected {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for line in &lines[lines.len().saturating_sub(args.lines)..] {
            print(name, line);
        }
        offsets.push(text.len() as u64);
    }
    if !args.follow {
        return Ok(());
    }
    use notify::Watcher as _;
    let (tx, rx) = std::sync::mpsc::channel();
    let mut watcher = notify::recommended_watcher(tx).context("cannot watch the log files")?;
    watcher
        .watch(devnet.dir(), notify::RecursiveMode::NonRecursive)
        .with_context(|| format!("cannot watch {}", devnet.dir().display()))?;
    loop {
        // Wake on a change, or every second in case an event was coalesced away.
        let _ = rx.recv_timeout(Duration::from_secs(1));
        while rx.try_recv().is_ok() {}
        for (i, (name, path)) in selected.iter().enumerate() {
            let Ok(mut f) = std::fs::File::open(path) else {
                continue;
            };
            let len = f.metadata().map(|m| m.len()).unwrap_or(0);
            if len < offsets[i] {
                offsets[i] = 0; // truncated (devnet reset): start over
            }
            if len == offsets[i] {
                continue;
            }
            use std::io::{Read as _, Seek as _};
            let _ = f.seek(std::io::SeekFrom::Start(offsets[i]));
            let mut chunk = String::new();
            let _ = f.read_to_string(&mut chunk);
            // Print only whole lines; keep a partial last line for the next round.
            let complete = chunk.rfind('\n').map_or(0, |p| p + 1);
            for line in chunk[..complete].lines() {
                print(name, line);
            }
            offsets[i] += complete as u64;
        }
    }
}
