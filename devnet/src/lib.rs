//! Local multi-node devnets: a genesis with trusted-dealer threshold keys and funded dev
//! accounts, `cowboy node` processes on loopback plus a faucet, readiness detection (first
//! block executed on every node, never a sleep), status with state-root agreement, and fault
//! drills (stop/start one node). `cowboy devnet` drives it; everything lives under
//! `$COWBOY_HOME/devnets/NAME`.
//!
//! The trusted dealer sees every validator's share: fine for a devnet, never for a network
//! whose validators do not trust each other.

pub mod accounts;
mod process;
pub mod snapshot;
mod state;

pub use accounts::{
    DEV_MNEMONIC, DevAccount, FAUCET_INDEX, RUNNER_FUNDER_INDEX, dev_accounts, dev_key,
};
pub use state::{DevnetState, FaucetState, NodeState, RunnersState};

use cowboy_execution::{Allocation, Genesis, params::BASE_UNITS_PER_CBY};
use cowboy_node::node::{self, Home, Member};
use cowboy_rpc::{BlockId, CowboyApiClient};
use cowboy_types::{Address, Hash, json::Amount};
use serde::Serialize;
use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    process::Child,
    time::{Duration, Instant},
};

/// node-0's JSON-RPC port when none is given (node i uses this + i): the port every Cowboy
/// command talks to by default.
pub const DEFAULT_RPC_PORT: u16 = 8545;
/// node-0's p2p port when none is given (node i uses this + i).
pub const DEFAULT_P2P_PORT: u16 = 30_300;
/// The faucet's port when none is given.
pub const DEFAULT_FAUCET_PORT: u16 = 8645;
/// Devnet block time: half a second keeps deploy/call round trips short on a laptop. The same
/// as local chains' (`cowboy run`, `cowboy test`), so both size their budgets alike.
pub const DEFAULT_BLOCK_TIME_MS: u64 = cowboy_execution::local::BLOCK_TIME_MS;
/// Chain id of devnets and local chains (anvil's, so wallets configured for local chains
/// recognise it).
pub const DEFAULT_CHAIN_ID: u64 = cowboy_execution::local::CHAIN_ID;
/// Prefunded dev accounts when not told otherwise.
pub const DEFAULT_ACCOUNTS: u32 = 10;
/// Each dev account's genesis balance: 10,000 CBY (what local chains give their accounts too).
pub const DEFAULT_ACCOUNT_BALANCE: u64 = cowboy_execution::local::ACCOUNT_BALANCE;
/// The faucet account's genesis balance: 1,000,000 CBY.
pub const FAUCET_BALANCE: u64 = 1_000_000 * BASE_UNITS_PER_CBY;
/// What the runner funder holds at genesis: stakes (100 CBY each on a devnet) and fee budgets
/// for a few hundred runners.
pub const RUNNER_FUNDER_BALANCE: u64 = 100_000 * BASE_UNITS_PER_CBY;
/// The runner fleet's ready document, in the devnet's directory.
pub const RUNNERS_READY: &str = "runners.json";
/// What the faucet sends per request unless asked otherwise: 100 CBY.
pub const FAUCET_DRIP: u64 = 100 * BASE_UNITS_PER_CBY;
/// How long a stopped process gets to exit after SIGTERM before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(10);

/// Why a devnet operation failed. Every message says what to do next.
#[derive(Debug, thiserror::Error)]
pub enum DevnetError {
    #[error(
        "devnet {name:?} is already running (node-0 RPC {rpc_url}); see it with `cowboy devnet status --name {name}` or stop it with `cowboy devnet down --name {name}`"
    )]
    AlreadyRunning { name: String, rpc_url: String },
    #[error(
        "port {port} ({what}) is already in use by another program; pick free ports with {flag} PORT or stop whatever listens there"
    )]
    PortInUse {
        port: u16,
        what: String,
        flag: &'static str,
    },
    #[error("{flag} {base} leaves no room for {count} ports below 65536")]
    PortRange {
        flag: &'static str,
        base: u16,
        count: usize,
    },
    #[error(
        "no devnet named {name:?} (looked in {dir}); create it with `cowboy devnet up --name {name}`"
    )]
    NotFound { name: String, dir: PathBuf },
    #[error("devnet {name:?} has no process {process:?}; it has {known}")]
    NoSuchProcess {
        name: String,
        process: String,
        known: String,
    },
    #[error("{process} is already running (pid {pid})")]
    AlreadyStarted { process: String, pid: u32 },
    #[error("invalid devnet name {0:?}: use letters, digits, '-' and '_' (at most 32)")]
    InvalidName(String),
    #[error("--validators must be between 1 and 64 (got {0})")]
    Validators(usize),
    #[error("--block-time must be at least {min} ms (got {got})")]
    BlockTime { min: u64, got: u64 },
    #[error("{process} exited while starting ({status}); last lines of {log}:\n{tail}")]
    Exited {
        process: String,
        status: String,
        log: PathBuf,
        tail: String,
    },
    #[error(
        "{process} was not ready within {secs} s; see its log {log} (`cowboy devnet logs {process}`)"
    )]
    Timeout {
        process: String,
        secs: u64,
        log: PathBuf,
    },
    #[error("cannot start {process} ({binary}): {error}")]
    Spawn {
        process: String,
        binary: PathBuf,
        error: std::io::Error,
    },
    #[error("{path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path} is not a devnet state file this version understands: {reason}")]
    State { path: PathBuf, reason: String },
    #[error(transparent)]
    Home(#[from] node::HomeError),
    #[error(transparent)]
    Derive(#[from] accounts::DeriveError),
    #[error(transparent)]
    Faucet(#[from] cowboy_faucet::ClientError),
    #[error(
        "invalid snapshot name {0:?}: use letters, digits, '.', '-' and '_' (at most 64), not starting with '.'"
    )]
    SnapshotName(String),
    #[error(
        "snapshot {name:?} already exists ({path}); pick another name or pass --force to replace it"
    )]
    SnapshotExists { name: String, path: PathBuf },
    #[error(
        "no snapshot {name:?} (looked for {path}); `cowboy devnet snapshot ls` lists them, `cowboy devnet snapshot save NAME` makes one"
    )]
    NoSnapshot { name: String, path: PathBuf },
    #[error("cannot save the snapshot: {0}")]
    Snapshot(String),
    #[error(
        "devnet {name:?} already exists, so it cannot start from a snapshot; choose a new --name, or delete it with `cowboy devnet reset --name {name}` first"
    )]
    SnapshotOverExisting { name: String },
    #[error(transparent)]
    Genesis(#[from] cowboy_execution::GenesisError),
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
}

type Result<T, E = DevnetError> = std::result::Result<T, E>;

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DevnetError + '_ {
    move |error| DevnetError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// How to create a devnet.
#[derive(Clone, Debug)]
pub struct UpOptions {
    pub validators: usize,
    pub block_time_ms: u64,
    pub accounts: u32,
    pub account_balance: u64,
    pub chain_id: u64,
    pub rpc_port: u16,
    pub p2p_port: u16,
    pub faucet_port: u16,
    /// The `cowboy` binary that runs nodes and the faucet.
    pub binary: PathBuf,
    /// How long to wait for readiness.
    pub timeout: Duration,
    /// The execution budget as parts per million of the spec's cycle caps (`None`: sized for
    /// the block time, `Parameters::for_block_time`).
    pub cycle_budget_ppm: Option<u64>,
    /// A runner fleet to start with the devnet (`honest=3,lazy=1`), staked by the runner
    /// funder key; `None`: no runners.
    pub runners: Option<String>,
    /// The fleet's HTTP jobs replayed from this cassette (`cowboy runner-sim --http replay`).
    pub runners_cassette: Option<PathBuf>,
    /// Start from this snapshot ([`snapshot::load`]): its carried state, parameters and chain
    /// id (`chain_id` should be the snapshot's); the devnet's validators replace its own, and
    /// dev accounts it has no account for get the usual balance. Only for a new devnet.
    pub snapshot: Option<Genesis>,
}

impl UpOptions {
    /// Defaults for everything but the binary.
    pub fn new(binary: PathBuf) -> Self {
        Self {
            validators: 1,
            block_time_ms: DEFAULT_BLOCK_TIME_MS,
            accounts: DEFAULT_ACCOUNTS,
            account_balance: DEFAULT_ACCOUNT_BALANCE,
            chain_id: DEFAULT_CHAIN_ID,
            rpc_port: DEFAULT_RPC_PORT,
            p2p_port: DEFAULT_P2P_PORT,
            faucet_port: DEFAULT_FAUCET_PORT,
            binary,
            timeout: Duration::from_secs(60),
            cycle_budget_ppm: None,
            runners: None,
            runners_cassette: None,
            snapshot: None,
        }
    }
}

/// Progress of `up` and `start`, for a progress display.
#[derive(Clone, Debug)]
pub enum Event {
    /// Genesis and node homes written.
    Created { validators: usize },
    /// An existing, stopped devnet is being started again with its chain state.
    Resuming { validators: usize },
    /// A process was started.
    Started { process: String, pid: u32 },
    /// A process is ready (a node executed `height`; the faucet answers).
    Ready {
        process: String,
        height: Option<u64>,
    },
}

/// One node's view, as `status` reports it.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct NodeReport {
    pub name: String,
    pub rpc_url: String,
    pub running: bool,
    pub pid: Option<u32>,
    /// Executed height.
    pub height: Option<u64>,
    pub finalized_height: Option<u64>,
    /// State root after `height`.
    pub state_root: Option<Hash>,
    pub peers: Option<usize>,
    pub halted: Option<bool>,
    /// Why a running node did not answer.
    pub error: Option<String>,
}

/// A devnet's health: equal state roots at `common_height` on every answering node is the
/// signal that it is working.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Status {
    pub name: String,
    pub chain_id: u64,
    pub nodes: Vec<NodeReport>,
    /// The highest height every answering node has finalized and executed.
    pub common_height: Option<u64>,
    /// Whether every answering node has the same state root at `common_height`.
    pub roots_agree: Option<bool>,
    /// That root, when they agree.
    pub common_state_root: Option<Hash>,
    pub faucet_url: String,
    pub faucet_running: bool,
    /// The runner fleet (`devnet up --runners`): its description, whether it runs, and its
    /// runners as it reported them when ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runners: Option<RunnersReport>,
}

/// The runner fleet's view, as `status` reports it.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct RunnersReport {
    pub fleet: String,
    pub running: bool,
    pub pid: Option<u32>,
    /// `cowboy runner-sim`'s ready document (runners with behaviour and endpoint, backends).
    pub ready: Option<serde_json::Value>,
}

/// A named devnet under `$COWBOY_HOME/devnets`.
#[derive(Clone, Debug)]
pub struct Devnet {
    name: String,
    dir: PathBuf,
}

/// Names of the devnets under `home`.
pub fn list(home: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(home.join("devnets"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join(state::FILE).exists())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

impl Devnet {
    /// The devnet `name` under `home` (it need not exist yet).
    pub fn new(home: &Path, name: &str) -> Result<Self> {
        let valid = !name.is_empty()
            && name.len() <= 32
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid {
            return Err(DevnetError::InvalidName(name.to_string()));
        }
        Ok(Self {
            name: name.to_string(),
            dir: home.join("devnets").join(name),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The saved state, if the devnet exists.
    pub fn state(&self) -> Result<Option<DevnetState>> {
        DevnetState::load(&self.dir)
    }

    fn existing(&self) -> Result<DevnetState> {
        self.state()?.ok_or_else(|| DevnetError::NotFound {
            name: self.name.clone(),
            dir: self.dir.clone(),
        })
    }

    /// Creates (or, if it exists and is stopped, resumes) the devnet and returns once every
    /// node has executed a block and the faucet answers. Returns the state and whether it was
    /// resumed.
    pub fn up(
        &self,
        options: &UpOptions,
        on: &mut dyn FnMut(Event),
    ) -> Result<(DevnetState, bool)> {
        let (mut state, resumed) = match self.state()? {
            Some(_) if options.snapshot.is_some() => {
                return Err(DevnetError::SnapshotOverExisting {
                    name: self.name.clone(),
                });
            }
            Some(mut state) => {
                if state.any_running() {
                    return Err(DevnetError::AlreadyRunning {
                        name: self.name.clone(),
                        rpc_url: state.nodes[0].rpc_url(),
                    });
                }
                // A fleet left running by an interrupted devnet would hold its journals.
                let marker = state::runners_marker(&self.dir);
                if let Some(pid) = state.runners.as_mut().and_then(|r| r.pid.take()) {
                    process::terminate(pid, &marker, STOP_GRACE);
                }
                // `--runners` on resume replaces the fleet (its journals and keys carry over).
                if let Some(fleet) = &options.runners {
                    state.runners = Some(RunnersState {
                        fleet: fleet.clone(),
                        cassette: options.runners_cassette.clone(),
                        pid: None,
                    });
                }
                check_ports(&state.ports())?;
                on(Event::Resuming {
                    validators: state.nodes.len(),
                });
                (state, true)
            }
            None => {
                let state = self.create(options)?;
                on(Event::Created {
                    validators: state.nodes.len(),
                });
                (state, false)
            }
        };
        let mut children = Vec::new();
        let deadline = Instant::now() + options.timeout;
        // Nodes first; the faucet needs node-0's RPC to start.
        let ready = self
            .start_nodes(&mut state, &options.binary, &mut children, on)
            .and_then(|()| {
                let runtime = runtime()?;
                for i in 0..state.nodes.len() {
                    let height = runtime.block_on(wait_node(
                        &state.nodes[i],
                        None,
                        &mut children,
                        deadline,
                        options.timeout,
                    ))?;
                    on(Event::Ready {
                        process: state.nodes[i].name.clone(),
                        height: Some(height),
                    });
                }
                self.start_faucet(&mut state, &options.binary, &mut children, on)?;
                runtime.block_on(wait_faucet(
                    &state.faucet,
                    &mut children,
                    &self.dir,
                    deadline,
                    options.timeout,
                ))?;
                on(Event::Ready {
                    process: "faucet".into(),
                    height: None,
                });
                if state.runners.is_some() {
                    self.start_runners(&mut state, &options.binary, &mut children, on)?;
                    runtime.block_on(wait_runners(
                        &mut children,
                        &self.dir,
                        deadline,
                        options.timeout,
                    ))?;
                    on(Event::Ready {
                        process: "runners".into(),
                        height: None,
                    });
                }
                Ok(())
            });
        if let Err(e) = ready {
            // Leave nothing half-running; the logs stay for diagnosis.
            self.stop_all(&mut state);
            for (_, mut child) in children {
                let _ = child.wait();
            }
            return Err(e);
        }
        Ok((state, resumed))
    }

    /// Writes node homes, genesis and the state file of a new devnet.
    fn create(&self, options: &UpOptions) -> Result<DevnetState> {
        if !(1..=64).contains(&options.validators) {
            return Err(DevnetError::Validators(options.validators));
        }
        if options.block_time_ms < node::MIN_BLOCK_TIME_MS {
            return Err(DevnetError::BlockTime {
                min: node::MIN_BLOCK_TIME_MS,
                got: options.block_time_ms,
            });
        }
        let n = options.validators;
        for (flag, base, count) in [
            ("--rpc-port", options.rpc_port, n),
            ("--p2p-port", options.p2p_port, n),
            ("--faucet-port", options.faucet_port, 1),
        ] {
            if base == 0 || base as usize + count > 65_536 {
                return Err(DevnetError::PortRange { flag, base, count });
            }
        }
        let loopback = |port: u16| SocketAddr::from(([127, 0, 0, 1], port));
        let nodes: Vec<NodeState> = (0..n)
            .map(|i| NodeState {
                name: format!("node-{i}"),
                home: self.dir.join(format!("node-{i}")),
                rpc_addr: loopback(options.rpc_port + i as u16),
                p2p_addr: loopback(options.p2p_port + i as u16),
                pid: None,
            })
            .collect();
        let faucet = FaucetState {
            addr: loopback(options.faucet_port),
            address: dev_key(FAUCET_INDEX)?.address(),
            pid: None,
        };
        let accounts = dev_accounts(options.accounts)?;
        let state = DevnetState {
            name: self.name.clone(),
            chain_id: options.chain_id,
            block_time_ms: options.block_time_ms,
            nodes,
            faucet,
            accounts,
            runners: options.runners.clone().map(|fleet| RunnersState {
                fleet,
                cassette: options.runners_cassette.clone(),
                pid: None,
            }),
        };
        check_ports(&state.ports())?;

        // A directory without a state file is a leftover of an interrupted `up`.
        if self.dir.exists() {
            std::fs::remove_dir_all(&self.dir).map_err(io(&self.dir))?;
        }
        cowboy_keystore::private_fs::create_dir(&self.dir).map_err(io(&self.dir))?;
        let written = self.write_genesis(&state, options);
        if let Err(e) = written {
            let _ = std::fs::remove_dir_all(&self.dir);
            return Err(e);
        }
        Ok(state)
    }

    fn write_genesis(&self, state: &DevnetState, options: &UpOptions) -> Result<()> {
        let mut allocations: Vec<Allocation> = state
            .accounts
            .iter()
            .map(|a| Allocation {
                address: a.address,
                balance: Amount(options.account_balance),
            })
            .collect();
        allocations.push(Allocation {
            address: state.faucet.address,
            balance: Amount(FAUCET_BALANCE),
        });
        allocations.push(Allocation {
            address: dev_key(RUNNER_FUNDER_INDEX)?.address(),
            balance: Amount(RUNNER_FUNDER_BALANCE),
        });
        let genesis = match &options.snapshot {
            Some(snapshot) => genesis_from(snapshot, state, options, allocations),
            None => Genesis {
                chain_id: state.chain_id,
                genesis_time_ms: 0,
                allocations,
                validators: vec![],
                runners: Vec::new(),
                threshold_public: None,
                // Devnets accept attestations signed with the devnet-only simulation key.
                tee_simulated_key: Some(cowboy_execution::runners::tee::devnet_simulated_key()),
                // Cycle budgets sized so a full block executes in half of this devnet's block time
                // (unless asked for another budget).
                // The runner market's windows are devnet-short.
                parameters: match options.cycle_budget_ppm {
                    Some(ppm) => cowboy_execution::Parameters::with_budget_ppm(ppm),
                    None => cowboy_execution::Parameters::for_block_time(state.block_time_ms),
                }
                .with_devnet_windows(),
                carried: None,
            },
        };
        let stake = genesis.parameters.consensus.minimum_validator_stake;
        let members: Vec<Member> = state
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| Member {
                home: Home(n.home.clone()),
                p2p_addr: n.p2p_addr,
                rpc_addr: n.rpc_addr,
                address: Address([0xa0u8.wrapping_add(i as u8); 20]),
                stake,
            })
            .collect();
        node::init_committee(&members, genesis, state.block_time_ms)?;
        state.save(&self.dir)
    }

    fn start_nodes(
        &self,
        state: &mut DevnetState,
        binary: &Path,
        children: &mut Vec<(String, Child)>,
        on: &mut dyn FnMut(Event),
    ) -> Result<()> {
        for node in &mut state.nodes {
            let child = self.spawn_node(node, binary)?;
            node.pid = Some(track(&node.name, child, children, on));
        }
        state.save(&self.dir)
    }

    fn start_faucet(
        &self,
        state: &mut DevnetState,
        binary: &Path,
        children: &mut Vec<(String, Child)>,
        on: &mut dyn FnMut(Event),
    ) -> Result<()> {
        let child = self.spawn_faucet(state, binary)?;
        state.faucet.pid = Some(track("faucet", child, children, on));
        state.save(&self.dir)
    }

    fn start_runners(
        &self,
        state: &mut DevnetState,
        binary: &Path,
        children: &mut Vec<(String, Child)>,
        on: &mut dyn FnMut(Event),
    ) -> Result<()> {
        let Some((fleet, cassette)) = state
            .runners
            .as_ref()
            .map(|r| (r.fleet.clone(), r.cassette.clone()))
        else {
            return Ok(());
        };
        let _ = std::fs::remove_file(self.dir.join(RUNNERS_READY));
        let args = vec![
            "runner-sim".to_string(),
            "--rpc-url".to_string(),
            state.nodes[0].rpc_url(),
            "--runners".to_string(),
            fleet,
            "--funder".to_string(),
            format!("dev:{RUNNER_FUNDER_INDEX}"),
            // The journals' directory doubles as the marker that tells this devnet's fleet
            // from any other process.
            "--dir".to_string(),
            state::runners_marker(&self.dir),
            "--ready-file".to_string(),
            self.dir.join(RUNNERS_READY).display().to_string(),
        ];
        let mut args = args;
        if let Some(c) = cassette {
            args.extend([
                "--http".to_string(),
                "replay".to_string(),
                "--cassette".to_string(),
                c.display().to_string(),
            ]);
        }
        let child = self.spawn("runners", binary, &args, &[])?;
        let pid = track("runners", child, children, on);
        if let Some(r) = state.runners.as_mut() {
            r.pid = Some(pid);
        }
        state.save(&self.dir)
    }

    fn spawn_node(&self, node: &NodeState, binary: &Path) -> Result<Child> {
        let args = vec![
            "node".to_string(),
            "run".to_string(),
            "--home".to_string(),
            node.home.display().to_string(),
        ];
        self.spawn(&node.name, binary, &args, &[])
    }

    fn spawn_faucet(&self, state: &DevnetState, binary: &Path) -> Result<Child> {
        let key = dev_key(FAUCET_INDEX)?;
        let args = vec![
            "faucet".to_string(),
            "serve".to_string(),
            "--rpc-url".to_string(),
            state.nodes[0].rpc_url(),
            "--listen".to_string(),
            state.faucet.addr.to_string(),
            "--default-amount".to_string(),
            FAUCET_DRIP.to_string(),
            // The marker that tells this devnet's faucet from any other process.
            "--tag".to_string(),
            self.faucet_marker(),
        ];
        // The key goes through the environment, never the command line (visible in `ps`).
        let env = [(
            "COWBOY_PRIVATE_KEY",
            format!("0x{}", hex::encode(*key.to_bytes())),
        )];
        self.spawn("faucet", binary, &args, &env)
    }

    /// Starts `binary args…` as the devnet process `name`, its output appended to its log.
    fn spawn(
        &self,
        name: &str,
        binary: &Path,
        args: &[String],
        env: &[(&str, String)],
    ) -> Result<Child> {
        process::spawn(binary, args, env, &self.log(name)).map_err(|error| DevnetError::Spawn {
            process: name.to_string(),
            binary: binary.to_path_buf(),
            error,
        })
    }

    fn faucet_marker(&self) -> String {
        state::faucet_marker(&self.dir)
    }

    /// The log file of `process` (`node-0`…, `faucet`).
    pub fn log(&self, process: &str) -> PathBuf {
        self.dir.join(format!("{process}.log"))
    }

    /// Every process's log file, nodes first.
    pub fn logs(&self) -> Result<Vec<(String, PathBuf)>> {
        let state = self.existing()?;
        let mut logs: Vec<(String, PathBuf)> = state
            .nodes
            .iter()
            .map(|n| (n.name.clone(), self.log(&n.name)))
            .collect();
        logs.push(("faucet".into(), self.log("faucet")));
        if state.runners.is_some() {
            logs.push(("runners".into(), self.log("runners")));
        }
        Ok(logs)
    }

    /// Checks `process` names a node or the faucet of this devnet.
    pub fn check_process(&self, process: &str) -> Result<()> {
        let state = self.existing()?;
        if process == "faucet"
            || (process == "runners" && state.runners.is_some())
            || state.nodes.iter().any(|n| n.name == process)
        {
            return Ok(());
        }
        Err(self.no_such(&state, process))
    }

    fn no_such(&self, state: &DevnetState, process: &str) -> DevnetError {
        let mut known: Vec<String> = state.nodes.iter().map(|n| n.name.clone()).collect();
        known.push("faucet".into());
        if state.runners.is_some() {
            known.push("runners".into());
        }
        DevnetError::NoSuchProcess {
            name: self.name.clone(),
            process: process.to_string(),
            known: known.join(", "),
        }
    }

    fn node_index(&self, state: &DevnetState, node: &str) -> Result<usize> {
        state
            .nodes
            .iter()
            .position(|n| n.name == node)
            .ok_or_else(|| self.no_such(state, node))
    }

    /// Stops one node (SIGTERM, then SIGKILL after a grace period). Returns false if it was
    /// not running.
    pub fn stop_node(&self, node: &str) -> Result<bool> {
        let mut state = self.existing()?;
        let i = self.node_index(&state, node)?;
        let was_running = state.node_running(i);
        if let Some(pid) = state.nodes[i].pid.take() {
            process::terminate(pid, &state.nodes[i].marker(), STOP_GRACE);
        }
        state.save(&self.dir)?;
        Ok(was_running)
    }

    /// Starts one stopped node and returns once it has caught up with the height the other
    /// nodes had when it started.
    pub fn start_node(
        &self,
        node: &str,
        binary: &Path,
        timeout: Duration,
        on: &mut dyn FnMut(Event),
    ) -> Result<u64> {
        let mut state = self.existing()?;
        let i = self.node_index(&state, node)?;
        if let (true, Some(pid)) = (state.node_running(i), state.nodes[i].pid) {
            return Err(DevnetError::AlreadyStarted {
                process: node.to_string(),
                pid,
            });
        }
        let n = &state.nodes[i];
        check_ports(&[
            (n.rpc_addr.port(), format!("{} RPC", n.name), "--rpc-port"),
            (n.p2p_addr.port(), format!("{} p2p", n.name), "--p2p-port"),
        ])?;
        let runtime = runtime()?;
        // The height to catch up with: the highest any other running node has executed.
        let mut target = 1;
        for (j, other) in state.nodes.iter().enumerate() {
            if j != i
                && state.node_running(j)
                && let Ok(s) = runtime.block_on(node_status(other))
            {
                target = target.max(s.height);
            }
        }
        let child = self.spawn_node(&state.nodes[i], binary)?;
        let mut children = Vec::new();
        state.nodes[i].pid = Some(track(node, child, &mut children, on));
        state.save(&self.dir)?;
        let deadline = Instant::now() + timeout;
        let height = runtime.block_on(wait_node(
            &state.nodes[i],
            Some(target - 1),
            &mut children,
            deadline,
            timeout,
        ));
        match height {
            Ok(h) => {
                on(Event::Ready {
                    process: node.to_string(),
                    height: Some(h),
                });
                Ok(h)
            }
            Err(e) => {
                let _ = self.stop_node(node);
                Err(e)
            }
        }
    }

    /// Stops every process; keeps the chain data (`up` resumes it). Returns the names of the
    /// processes that were running.
    pub fn down(&self) -> Result<Vec<String>> {
        let mut state = self.existing()?;
        let stopped = self.stop_all(&mut state);
        Ok(stopped)
    }

    fn stop_all(&self, state: &mut DevnetState) -> Vec<String> {
        let mut stopped = Vec::new();
        // The runners first: they follow the nodes.
        let marker = state::runners_marker(&self.dir);
        if let Some(pid) = state.runners.as_mut().and_then(|r| r.pid.take()) {
            if process::alive(pid, &marker) {
                stopped.push("runners".to_string());
            }
            process::terminate(pid, &marker, STOP_GRACE);
        }
        // Then the faucet, so it never sees a node vanish mid-request.
        let marker = self.faucet_marker();
        if let Some(pid) = state.faucet.pid.take() {
            if process::alive(pid, &marker) {
                stopped.push("faucet".to_string());
            }
            process::terminate(pid, &marker, STOP_GRACE);
        }
        let mut nodes = Vec::new();
        for n in &mut state.nodes {
            if let Some(pid) = n.pid.take() {
                let marker = n.marker();
                if process::alive(pid, &marker) {
                    stopped.push(n.name.clone());
                }
                nodes.push((pid, marker));
            }
        }
        process::terminate_all(&nodes, STOP_GRACE);
        let _ = state.save(&self.dir);
        stopped
    }

    /// Stops everything and deletes the devnet's directory (chain data, keys, logs).
    pub fn reset(&self) -> Result<Vec<String>> {
        let stopped = match self.state()? {
            Some(_) => self.down()?,
            None if self.dir.exists() => Vec::new(),
            None => {
                return Err(DevnetError::NotFound {
                    name: self.name.clone(),
                    dir: self.dir.clone(),
                });
            }
        };
        std::fs::remove_dir_all(&self.dir).map_err(io(&self.dir))?;
        Ok(stopped)
    }

    /// Heights, roots and peers of every node, and whether their roots agree.
    pub fn status(&self) -> Result<Status> {
        let state = self.existing()?;
        let runtime = runtime()?;
        let mut nodes = Vec::new();
        for (i, n) in state.nodes.iter().enumerate() {
            let running = state.node_running(i);
            let mut report = NodeReport {
                name: n.name.clone(),
                rpc_url: n.rpc_url(),
                running,
                pid: n.pid.filter(|_| running),
                height: None,
                finalized_height: None,
                state_root: None,
                peers: None,
                halted: None,
                error: None,
            };
            if running {
                let answer = runtime.block_on(node_status(n));
                match answer {
                    Ok(s) => {
                        report.height = Some(s.height);
                        report.finalized_height = Some(s.finalized_height);
                        report.state_root = Some(s.state_root);
                        report.peers = Some(s.peers);
                        report.halted = Some(s.halted);
                    }
                    Err(e) => report.error = Some(e.to_string()),
                }
            }
            nodes.push(report);
        }
        let common_height = nodes.iter().filter_map(|n| n.height).min();
        let mut roots_agree = None;
        let mut common_state_root = None;
        if let Some(h) = common_height {
            let mut roots = Vec::new();
            for n in nodes.iter().filter(|n| n.height.is_some()) {
                let root = runtime.block_on(async {
                    let client = cowboy_rpc::client(&n.rpc_url)?;
                    client.block(BlockId::Height(h), Some(false)).await
                });
                roots.push(root.ok().flatten().map(|b| b.executed_state_root));
            }
            let agree = roots.windows(2).all(|w| w[0] == w[1]) && roots.iter().all(Option::is_some);
            roots_agree = Some(agree);
            if agree {
                common_state_root = roots.first().copied().flatten();
            }
        }
        let faucet_running = state.faucet_running(&self.dir);
        let runners = state.runners.as_ref().map(|r| {
            let running = state.runners_running(&self.dir);
            RunnersReport {
                fleet: r.fleet.clone(),
                running,
                pid: r.pid.filter(|_| running),
                ready: std::fs::read_to_string(self.dir.join(RUNNERS_READY))
                    .ok()
                    .filter(|_| running)
                    .and_then(|t| serde_json::from_str(&t).ok()),
            }
        });
        Ok(Status {
            name: self.name.clone(),
            chain_id: state.chain_id,
            nodes,
            common_height,
            roots_agree,
            common_state_root,
            faucet_url: state.faucet.url(),
            faucet_running,
            runners,
        })
    }
}

/// A node's `status` over RPC.
/// A new devnet's genesis from `snapshot`: its state, parameters (rescaled to
/// `--cycle-budget` if given) and chain id, the devnet's TEE simulation key, and
/// `allocations` for the dev accounts it does not have.
fn genesis_from(
    snapshot: &Genesis,
    state: &DevnetState,
    options: &UpOptions,
    allocations: Vec<Allocation>,
) -> Genesis {
    let mut genesis = snapshot.clone();
    genesis.chain_id = state.chain_id;
    genesis.tee_simulated_key = Some(cowboy_execution::runners::tee::devnet_simulated_key());
    if let Some(ppm) = options.cycle_budget_ppm {
        genesis.parameters = genesis.parameters.rescaled(ppm);
    }
    let known = |a: &Address| {
        genesis.carried.as_ref().is_some_and(|c| c.has_account(a))
            || genesis.allocations.iter().any(|x| x.address == *a)
    };
    let missing: Vec<Allocation> = allocations
        .into_iter()
        .filter(|a| !known(&a.address))
        .collect();
    genesis.allocations.extend(missing);
    genesis
}

async fn node_status(
    node: &NodeState,
) -> Result<cowboy_rpc::NodeStatus, cowboy_rpc::jsonrpsee::core::ClientError> {
    cowboy_rpc::client(&node.rpc_url())?.status().await
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(DevnetError::Runtime)
}

/// Fails if any port is taken, naming it.
fn check_ports(ports: &[(u16, String, &'static str)]) -> Result<()> {
    for (port, what, flag) in ports {
        if std::net::TcpListener::bind(("127.0.0.1", *port)).is_err() {
            return Err(DevnetError::PortInUse {
                port: *port,
                what: what.clone(),
                flag,
            });
        }
    }
    Ok(())
}

/// Hands a started `child` to the readiness wait and tells `on`; returns its pid.
fn track(
    name: &str,
    child: Child,
    children: &mut Vec<(String, Child)>,
    on: &mut dyn FnMut(Event),
) -> u32 {
    let pid = child.id();
    on(Event::Started {
        process: name.to_string(),
        pid,
    });
    children.push((name.to_string(), child));
    pid
}

/// Fails with the process's log tail if one of `children` has exited.
fn check_children(children: &mut [(String, Child)], log_dir: &Path) -> Result<()> {
    for (name, child) in children.iter_mut() {
        if let Ok(Some(status)) = child.try_wait() {
            let log = log_dir.join(format!("{name}.log"));
            return Err(DevnetError::Exited {
                process: name.clone(),
                status: status.to_string(),
                tail: process::tail(&log, 15),
                log,
            });
        }
    }
    Ok(())
}

/// Waits until `node` has executed a block above `after` (`None`: above whatever it had when
/// its RPC first answered, so a resumed chain must make progress too); returns its height.
/// Connection failures are retried (the node may not listen yet) while its process lives.
async fn wait_node(
    node: &NodeState,
    mut after: Option<u64>,
    children: &mut [(String, Child)],
    deadline: Instant,
    timeout: Duration,
) -> Result<u64> {
    let log_dir = node.home.parent().unwrap_or(Path::new(".")).to_path_buf();
    let timed_out = || DevnetError::Timeout {
        process: node.name.clone(),
        secs: timeout.as_secs(),
        log: log_dir.join(format!("{}.log", node.name)),
    };
    let client = cowboy_rpc::client(&node.rpc_url()).map_err(|_| timed_out())?;
    loop {
        check_children(children, &log_dir)?;
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(timed_out());
        }
        let wait_ms = (left.as_millis() as u64).clamp(1, 1_000);
        let Some(above) = after else {
            match client.status().await {
                Ok(s) => after = Some(s.height),
                // Not listening yet: retry shortly.
                Err(_) => tokio::time::sleep(Duration::from_millis(25)).await,
            }
            continue;
        };
        match client.wait_for_block(above, Some(wait_ms)).await {
            Ok(Some(block)) => return Ok(block.height),
            Ok(None) => {}
            Err(_) => tokio::time::sleep(Duration::from_millis(25)).await,
        }
    }
}

/// Waits until the runner fleet wrote its ready document (every runner registered and
/// following the chain).
async fn wait_runners(
    children: &mut [(String, Child)],
    dir: &Path,
    deadline: Instant,
    timeout: Duration,
) -> Result<()> {
    let ready = dir.join(RUNNERS_READY);
    wait_process(
        "runners",
        async || ready.exists(),
        children,
        dir,
        deadline,
        timeout,
    )
    .await
}

/// Waits until the faucet answers.
async fn wait_faucet(
    faucet: &FaucetState,
    children: &mut [(String, Child)],
    dir: &Path,
    deadline: Instant,
    timeout: Duration,
) -> Result<()> {
    let client = cowboy_faucet::Client::new(&faucet.url())?;
    let answers = async || client.info().await.is_ok();
    wait_process("faucet", answers, children, dir, deadline, timeout).await
}

/// Waits until `ready` says `process` is ready, failing when a child exits or at `deadline`
/// (the error points at the process's log).
async fn wait_process(
    process: &str,
    mut ready: impl AsyncFnMut() -> bool,
    children: &mut [(String, Child)],
    dir: &Path,
    deadline: Instant,
    timeout: Duration,
) -> Result<()> {
    loop {
        if ready().await {
            return Ok(());
        }
        check_children(children, dir)?;
        if Instant::now() >= deadline {
            return Err(DevnetError::Timeout {
                process: process.into(),
                secs: timeout.as_secs(),
                log: dir.join(format!("{process}.log")),
            });
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}
