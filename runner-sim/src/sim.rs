//! A simulation: the backends, then N runners — funded by a funder account and registered
//! (or updated) on chain unless they already are — each a [`cowboy_runner::Runner`] with its
//! behaviour, its own journal and endpoint; a monitor following the jobs they are drawn for;
//! and the report at the end.

use crate::{
    behaviour::Simulated,
    fleet::{self, Behaviour, Fleet},
    mock::{self, http::HttpMock, llm::LlmStandIn},
};
use cowboy_crypto::PrivateKey;
use cowboy_rpc::{CowboyApiClient, JobFilter, MAX_WAIT_MS, jsonrpsee::http_client::HttpClient};
use cowboy_runner::{
    RunnerConfig,
    config::{HttpConfig, LlmConfig, ProfileConfig},
    exec::Backends,
    journal::Journal,
};
use cowboy_types::{
    Address, Hash, Instruction, SystemInstruction,
    job::JobStatus,
    runner::{JobType, RateCard},
};
use serde::Serialize;
use std::{
    collections::{BTreeMap, HashMap},
    net::SocketAddr,
    path::PathBuf,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

/// The model id simulated runners serve unless told otherwise:
/// `keccak256("cowboy-runner-sim-model")`.
pub fn sim_model() -> Hash {
    cowboy_types::keccak256(b"cowboy-runner-sim-model")
}

/// What a runner needs to send a profile update (its fee, with room).
const UPDATE_BUDGET: u64 = 5_000_000_000;

/// Production limits a simulated runner enforces (`--limits`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Largest HTTP response body read.
    pub max_body_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body_bytes: HttpConfig::default().max_body_bytes,
        }
    }
}

impl Limits {
    /// `default`, `none`, or a TOML file of [`Limits`].
    pub fn parse(text: &str) -> Result<Self, SimError> {
        match text {
            "default" => Ok(Self::default()),
            "none" => Ok(Self {
                max_body_bytes: u64::MAX,
            }),
            path => {
                let body = std::fs::read_to_string(path).map_err(|e| {
                    SimError::Setup(format!("--limits {path}: cannot read it: {e}"))
                })?;
                toml::from_str(&body).map_err(|e| SimError::Setup(format!("--limits {path}: {e}")))
            }
        }
    }
}

/// What a simulation runs.
pub struct Options {
    pub rpc_url: String,
    pub fleet: Fleet,
    pub seed: u64,
    /// Pays the runners' stakes and fee budgets (`None`: every runner must be registered
    /// and funded already, as `cowboy devnet up --runners` does at genesis).
    pub funder: Option<PrivateKey>,
    /// Journals go in `dir/runner-N.redb`.
    pub dir: PathBuf,
    pub http_mode: mock::http::Mode,
    pub cassette: Option<PathBuf>,
    pub llm_variation_pct: u64,
    pub limits: Limits,
    pub rate_card: RateCard,
    /// Balance each runner gets for transaction fees, beyond its stake.
    pub fee_budget: u64,
}

/// Why a simulation could not start.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("cannot reach the node at {url}: {message}")]
    Node { url: String, message: String },
    #[error("{0}")]
    Setup(String),
    #[error(transparent)]
    Daemon(#[from] cowboy_runner::daemon::DaemonError),
    #[error(transparent)]
    Journal(#[from] cowboy_runner::journal::JournalError),
    #[error(transparent)]
    Cassette(#[from] mock::http::CassetteError),
}

/// One simulated runner.
pub struct SimRunner {
    pub index: usize,
    pub behaviour: Behaviour,
    pub address: Address,
    pub endpoint: String,
    pub runner: Arc<cowboy_runner::Runner>,
    task: tokio::task::JoinHandle<()>,
}

/// A runner as `ready` reports it.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct ReadyRunner {
    pub address: Address,
    pub behaviour: Behaviour,
    pub endpoint: String,
}

/// What a started simulation prints.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Ready {
    pub runners: Vec<ReadyRunner>,
    pub backends: mock::Backends,
    pub model: Hash,
}

/// A running simulation.
pub struct Simulation {
    pub runners: Vec<SimRunner>,
    pub backends: mock::Backends,
    pub http: Arc<HttpMock>,
    client: HttpClient,
    start_balances: Vec<u64>,
    timings: Arc<Mutex<Timings>>,
    monitor: tokio::task::JoinHandle<()>,
}

#[derive(Default)]
struct Timings {
    first_seen: HashMap<Hash, Instant>,
    finished: HashMap<Hash, (Duration, JobStatus)>,
    /// Each fleet job's latest status.
    status: HashMap<Hash, JobStatus>,
}

fn node_error(url: &str) -> impl Fn(cowboy_rpc::jsonrpsee::core::ClientError) -> SimError + '_ {
    move |e| SimError::Node {
        url: url.to_string(),
        message: e.to_string(),
    }
}

/// The configuration of simulated runner `index`.
pub fn runner_config(
    options: &Options,
    index: usize,
    listen: SocketAddr,
    backends: &mock::Backends,
) -> RunnerConfig {
    RunnerConfig {
        rpc_url: options.rpc_url.clone(),
        key: format!("sim:{index}"),
        listen,
        journal: options.dir.join(format!("runner-{index}.redb")),
        stake: 0,
        // Half the chain's 600-block heartbeat timeout.
        heartbeat_every_blocks: 300,
        profile: ProfileConfig {
            job_types: vec![JobType::Llm, JobType::Http, JobType::Mcp, JobType::Custom],
            models: vec![sim_model()],
            domains: vec![],
            tee: false,
            rate_card: options.rate_card,
            max_concurrent_jobs: 16,
            max_job_value: 0,
            endpoint: format!("http://{listen}"),
        },
        http: HttpConfig {
            max_body_bytes: options.limits.max_body_bytes,
            via: (options.http_mode != mock::http::Mode::Live).then(|| backends.http_via.clone()),
            // A simulation runs on one machine: runner endpoints, the MCP stub and local test
            // servers are all on loopback.
            allow_private_addresses: true,
        },
        llm: Some(LlmConfig {
            base_url: format!("{}/{index}/v1", backends.llm_base),
            api_key_env: None,
            models: BTreeMap::from([(sim_model(), "cowboy-sim".to_string())]),
            embedding_model: Some("cowboy-sim-embed".into()),
        }),
        custom: BTreeMap::new(),
    }
}

impl Simulation {
    /// Starts the backends and every runner; returns once each is registered and following
    /// the chain.
    pub async fn start(options: Options) -> Result<Self, SimError> {
        let url = options.rpc_url.clone();
        let client = cowboy_rpc::client(&url).map_err(node_error(&url))?;
        let params = client.parameters().await.map_err(node_error(&url))?;
        let floor = params
            .pointer("/runner/runner_stake_floor")
            .and_then(|v| {
                v.as_str()
                    .and_then(|s| s.parse::<u64>().ok())
                    .or_else(|| v.as_u64())
            })
            .ok_or_else(|| {
                SimError::Setup("the node's parameters carry no runner.runner_stake_floor".into())
            })?;
        std::fs::create_dir_all(&options.dir).map_err(|e| {
            SimError::Setup(format!("cannot create {}: {e}", options.dir.display()))
        })?;
        let http = Arc::new(HttpMock::new(options.http_mode, options.cassette.clone())?);
        let llm = Arc::new(LlmStandIn {
            seed: options.seed,
            variation_pct: options.llm_variation_pct,
        });
        let (_, backends) = mock::serve(http.clone(), llm)
            .await
            .map_err(|e| SimError::Setup(format!("cannot start the mock backends: {e}")))?;

        // Bind every runner's endpoint first: its address goes in the profile.
        let mut planned = Vec::new();
        for (index, behaviour) in options.fleet.0.iter().copied().enumerate() {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .map_err(|e| SimError::Setup(format!("cannot listen on loopback: {e}")))?;
            let addr = listener
                .local_addr()
                .map_err(|e| SimError::Setup(e.to_string()))?;
            let key = fleet::key(options.seed, index);
            let config = runner_config(&options, index, addr, &backends);
            planned.push((index, behaviour, key, config, listener));
        }

        // Fund, then register or update, every runner that needs it.
        let mut registrations = Vec::new();
        for (_, _, key, config, _) in &planned {
            let profile = config.profile(key);
            let stake = profile.required_stake(floor);
            let existing = client
                .runner(key.address())
                .await
                .map_err(node_error(&url))?;
            let instruction = match existing {
                Some(r) if r.record.exited_at.is_none() && r.record.profile == profile => None,
                Some(r) if r.record.exited_at.is_none() => Some(SystemInstruction::RunnerUpdate {
                    profile: Box::new(profile),
                }),
                Some(_) => {
                    return Err(SimError::Setup(format!(
                        "runner {} exited; use another --seed",
                        key.address()
                    )));
                }
                None => Some(SystemInstruction::RunnerRegister {
                    profile: Box::new(profile),
                    stake,
                }),
            };
            let Some(instruction) = instruction else {
                continue;
            };
            let needed = match &instruction {
                SystemInstruction::RunnerRegister { stake, .. } => stake + options.fee_budget,
                // An update pays only its fee.
                _ => options.fee_budget.min(UPDATE_BUDGET),
            };
            let balance = client
                .balance(key.address())
                .await
                .map_err(node_error(&url))?
                .0;
            if balance < needed {
                let Some(funder) = &options.funder else {
                    return Err(SimError::Setup(format!(
                        "runner {} needs {needed} base units to register or update its profile and has {balance}; pass --funder ACCOUNT",
                        key.address()
                    )));
                };
                let transfer = Instruction::System(SystemInstruction::Transfer {
                    to: key.address(),
                    amount: needed - balance,
                });
                expect_success(&client, &url, funder, transfer, "funding a runner").await?;
            }
            registrations.push((key.clone(), Instruction::System(instruction)));
        }
        for (key, instruction) in registrations {
            expect_success(&client, &url, &key, instruction, "registering a runner").await?;
        }

        let mut runners = Vec::new();
        let mut start_balances = Vec::new();
        for (index, behaviour, key, config, listener) in planned {
            let address = key.address();
            start_balances.push(client.balance(address).await.map_err(node_error(&url))?.0);
            let journal = Journal::open(&config.journal)?;
            let endpoint = config.profile.endpoint.clone();
            let exec = Backends::new(config)
                .map_err(|e| SimError::Setup(format!("cannot start an HTTP client: {e}")))?;
            let conduct = Arc::new(Simulated {
                behaviour,
                index,
                seed: options.seed,
            });
            let runner = cowboy_runner::Runner::new(key, exec, journal, conduct)?;
            let serving = runner.clone();
            let task = tokio::spawn(async move {
                if let Err(e) =
                    cowboy_runner::serve(serving, listener, std::future::pending()).await
                {
                    tracing::error!(runner = index, error = %e, "a simulated runner stopped");
                }
            });
            runners.push(SimRunner {
                index,
                behaviour,
                address,
                endpoint,
                runner,
                task,
            });
        }
        let timings = Arc::new(Mutex::new(Timings::default()));
        let monitor = tokio::spawn(monitor(
            client.clone(),
            runners.iter().map(|r| r.address).collect(),
            timings.clone(),
        ));
        Ok(Self {
            runners,
            backends,
            http,
            client,
            start_balances,
            timings,
            monitor,
        })
    }

    pub fn ready(&self) -> Ready {
        Ready {
            runners: self
                .runners
                .iter()
                .map(|r| ReadyRunner {
                    address: r.address,
                    behaviour: r.behaviour,
                    endpoint: r.endpoint.clone(),
                })
                .collect(),
            backends: self.backends.clone(),
            model: sim_model(),
        }
    }

    /// The report so far.
    pub async fn report(&self) -> Result<Report, SimError> {
        let mut jobs: BTreeMap<Hash, JobStatus> = BTreeMap::new();
        let mut per_runner = Vec::new();
        let mut slashes: HashMap<Address, u64> = HashMap::new();
        let mut paid: HashMap<Address, u64> = HashMap::new();
        for r in &self.runners {
            let mut after = None;
            loop {
                let page = self
                    .client
                    .jobs(JobFilter {
                        submitter: None,
                        runner: Some(r.address),
                        status: None,
                        after,
                    })
                    .await
                    .map_err(|e| SimError::Node {
                        url: String::new(),
                        message: e.to_string(),
                    })?;
                for j in &page.jobs {
                    jobs.insert(j.id, j.status);
                }
                match page.next {
                    Some(n) => after = Some(n),
                    None => break,
                }
            }
        }
        // Count each job once.
        let mut seen_jobs = Vec::new();
        for id in jobs.keys() {
            if let Ok(Some(j)) = self.client.job(*id).await {
                seen_jobs.push(j);
            }
        }
        for j in &seen_jobs {
            for s in j.slashed.iter() {
                *slashes.entry(*s).or_default() += 1;
            }
            if matches!(j.status, JobStatus::Settled) {
                for p in j.payouts.iter() {
                    *paid.entry(p.runner).or_default() += p.amount;
                }
            }
        }
        for (r, start) in self.runners.iter().zip(&self.start_balances) {
            let view = self.client.runner(r.address).await.ok().flatten();
            let balance = self
                .client
                .balance(r.address)
                .await
                .map(|b| b.0)
                .unwrap_or(0);
            per_runner.push(RunnerReport {
                address: r.address,
                behaviour: r.behaviour,
                earned: paid.get(&r.address).copied().unwrap_or(0),
                balance_change: balance as i128 - *start as i128,
                reputation: view.as_ref().map(|v| v.reputation).unwrap_or(0),
                stake: view.as_ref().map(|v| v.record.stake).unwrap_or(0),
                slashed_in: slashes.get(&r.address).copied().unwrap_or(0),
                halted: r.runner.halted(),
            });
        }
        let mut outcomes: BTreeMap<String, u64> = BTreeMap::new();
        for j in &seen_jobs {
            *outcomes.entry(j.status.to_string()).or_default() += 1;
        }
        let mut times: Vec<f64> = self
            .timings
            .lock()
            .map(|t| {
                t.finished
                    .values()
                    .filter(|(_, s)| *s != JobStatus::Failed)
                    .map(|(d, _)| d.as_secs_f64())
                    .collect()
            })
            .unwrap_or_default();
        times.sort_by(|a, b| a.total_cmp(b));
        let pct = |p: usize| (!times.is_empty()).then(|| times[(times.len() - 1) * p / 100]);
        Ok(Report {
            jobs: seen_jobs.len() as u64,
            outcomes,
            runners: per_runner,
            time_to_result_p50_s: pct(50),
            time_to_result_p99_s: pct(99),
            http_served: self.http.served.load(std::sync::atomic::Ordering::Relaxed),
            http_unmatched: self
                .http
                .unmatched
                .load(std::sync::atomic::Ordering::Relaxed),
        })
    }

    /// The fleet's jobs by their latest status (what the live line shows).
    pub fn status_counts(&self) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        if let Ok(t) = self.timings.lock() {
            for s in t.status.values() {
                *out.entry(s.to_string()).or_default() += 1;
            }
        }
        out
    }

    /// Jobs of the fleet that reached a result or failed while the simulation ran.
    pub fn finished_jobs(&self) -> usize {
        self.timings.lock().map(|t| t.finished.len()).unwrap_or(0)
    }

    /// Stops every runner and the monitor.
    pub fn stop(self) {
        self.monitor.abort();
        for r in self.runners {
            r.task.abort();
        }
    }
}

/// The end-of-run report.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Report {
    pub jobs: u64,
    /// Jobs by status.
    pub outcomes: BTreeMap<String, u64>,
    pub runners: Vec<RunnerReport>,
    /// Seconds from first seeing a job to its result (jobs seen while running).
    pub time_to_result_p50_s: Option<f64>,
    pub time_to_result_p99_s: Option<f64>,
    pub http_served: u64,
    pub http_unmatched: u64,
}

/// One runner's part in the run.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct RunnerReport {
    pub address: Address,
    pub behaviour: Behaviour,
    /// Payouts of settled jobs, base units.
    #[serde(with = "cowboy_types::runner::amount")]
    pub earned: u64,
    /// Balance now minus at start (payouts less fees).
    pub balance_change: i128,
    pub reputation: u64,
    #[serde(with = "cowboy_types::runner::amount")]
    pub stake: u64,
    /// Jobs it was slashed in.
    pub slashed_in: u64,
    pub halted: bool,
}

async fn expect_success(
    client: &HttpClient,
    url: &str,
    key: &PrivateKey,
    instruction: Instruction,
    what: &str,
) -> Result<(), SimError> {
    let (hash, receipt) = cowboy_rpc::send_and_wait(
        client,
        key,
        instruction,
        &Default::default(),
        Duration::from_secs(60),
    )
    .await
    .map_err(|e| SimError::Node {
        url: url.to_string(),
        message: format!("{what}: {e}"),
    })?;
    match receipt {
        Some(r) if r.status == cowboy_rpc::ReceiptStatus::Success => Ok(()),
        Some(r) => Err(SimError::Setup(format!(
            "{what} failed (tx {hash}): {}",
            r.error.unwrap_or_default()
        ))),
        None => Err(SimError::Setup(format!(
            "{what}: tx {hash} was not finalized within 60 s"
        ))),
    }
}

/// Follows the fleet's jobs block by block, noting when each is first seen and when its
/// result (or failure) arrives, and logging each block's changes.
async fn monitor(client: HttpClient, fleet: Vec<Address>, timings: Arc<Mutex<Timings>>) {
    let mut height = 0;
    loop {
        match client.wait_for_block(height, Some(MAX_WAIT_MS)).await {
            Ok(Some(b)) => height = b.height,
            Ok(None) => continue,
            Err(_) => return,
        }
        let Ok(page) = client
            .jobs(JobFilter {
                submitter: None,
                runner: None,
                status: None,
                after: None,
            })
            .await
        else {
            continue;
        };
        let Ok(mut t) = timings.lock() else { return };
        for j in page.jobs.iter().filter(|j| {
            j.draws
                .iter()
                .any(|d| d.committee.iter().any(|a| fleet.contains(a)))
        }) {
            let first = *t.first_seen.entry(j.id).or_insert_with(Instant::now);
            let done = matches!(
                j.status,
                JobStatus::Verified | JobStatus::Settled | JobStatus::Failed
            );
            if done && !t.finished.contains_key(&j.id) {
                t.finished.insert(j.id, (first.elapsed(), j.status));
            }
            if t.status.get(&j.id) != Some(&j.status) {
                tracing::info!(height, job = %j.id, status = %j.status, "job");
                t.status.insert(j.id, j.status);
            }
        }
    }
}
