//! `cowboy runner`: set up, register and run a runner (the `cowboy-runner` library does the
//! work; this file parses, calls it and prints).

use crate::{
    client::{self, Node, RpcArgs, TxArgs},
    opts::{GlobalArgs, PasswordArgs, SignerArgs},
    output,
};
use anyhow::{Context as _, Result, bail};
use clap::{Args, Subcommand};
use cowboy_rpc::CowboyApiClient;
use cowboy_runner::RunnerConfig;
use cowboy_types::{Instruction, SystemInstruction};
use std::{net::SocketAddr, path::PathBuf, sync::Arc};

#[derive(Subcommand)]
pub enum RunnerCommand {
    /// Create an encrypted runner key and a runner.toml to edit (capabilities, rate card,
    /// concurrency, endpoint).
    Init(InitArgs),
    /// Register the runner on chain with its profile and `stake` from runner.toml.
    Register(ConfigArgs),
    /// Replace the on-chain profile with runner.toml's.
    Update(ConfigArgs),
    /// Prove the runner is alive now (the daemon does this by itself).
    Heartbeat(ConfigArgs),
    /// Bond more stake (base units).
    Stake(AmountArgs),
    /// Start unbonding stake (base units); `claim` pays it out once released.
    Unstake(AmountArgs),
    /// Pay out released unbonding stake.
    Claim(ConfigArgs),
    /// Leave the market: never selected again; stake unbonds.
    Exit(ConfigArgs),
    /// The runner's on-chain record and its journal.
    Status(StatusArgs),
    /// Run the runner daemon: follow the chain, run jobs, commit, aggregate, reveal.
    Run(RunArgs),
}

#[derive(Args)]
#[command(
    after_help = "Example:\n  cowboy runner init --dir ./runner --rpc-url http://127.0.0.1:8545 --stake 2000000000000"
)]
pub struct InitArgs {
    /// Directory for runner.toml and the journal.
    #[arg(long, default_value = ".")]
    dir: PathBuf,
    /// Keystore name of the runner's key (created, encrypted, unless it exists or is dev:N).
    #[arg(long, default_value = "runner")]
    key: String,
    /// Where the daemon serves /v1/push, /health and /metrics.
    #[arg(long, default_value = "127.0.0.1:9100")]
    listen: SocketAddr,
    /// Stake to bond at registration: base units, or CBY (`2000cby`; default 2,000 CBY).
    #[arg(long, default_value_t = 2_000_000_000_000, value_parser = crate::output::parse_amount)]
    stake: u64,
    /// Overwrite an existing runner.toml.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    rpc: RpcArgs,
    #[command(flatten)]
    password: PasswordArgs,
}

#[derive(Args)]
pub struct ConfigArgs {
    #[command(flatten)]
    file: RunnerFile,
    #[command(flatten)]
    tx: TxArgs,
    #[command(flatten)]
    password: PasswordArgs,
}

#[derive(Args)]
pub struct AmountArgs {
    /// Base units, or CBY with a `cby` suffix (`100cby`).
    #[arg(value_parser = crate::output::parse_amount)]
    amount: u64,
    #[command(flatten)]
    inner: ConfigArgs,
}

#[derive(Args)]
pub struct StatusArgs {
    #[command(flatten)]
    file: RunnerFile,
    /// Look up this runner address instead of the configuration's.
    #[arg(long)]
    address: Option<String>,
}

#[derive(Args)]
pub struct RunArgs {
    #[command(flatten)]
    file: RunnerFile,
    /// Log filter (tracing EnvFilter syntax).
    #[arg(long, default_value = "info")]
    log_level: String,
    /// Log one JSON object per line.
    #[arg(long)]
    log_json: bool,
    /// Fault drill: stop acting after the first commit (kill the process and restart it
    /// without this flag: it reveals from its journal).
    #[arg(long)]
    halt_after_commit: bool,
    #[command(flatten)]
    password: PasswordArgs,
}

/// The runner's configuration file and the node that overrides its `rpc_url`, shared by
/// every subcommand that reads `runner.toml`.
#[derive(Args)]
pub struct RunnerFile {
    /// The runner's configuration.
    #[arg(
        long,
        short = 'c',
        default_value = "runner.toml",
        env = "COWBOY_RUNNER_CONFIG"
    )]
    config: PathBuf,
    /// The node [default: runner.toml's rpc_url].
    #[arg(long, env = "COWBOY_RPC_URL", value_name = "URL")]
    rpc_url: Option<String>,
}

impl RunnerFile {
    /// Reads the configuration; `rpc_url` (the flag or `$COWBOY_RPC_URL`) overrides its node.
    fn load(&self) -> Result<RunnerConfig> {
        let mut config = self.read()?;
        if let Some(url) = &self.rpc_url {
            config.rpc_url = url.clone();
        }
        Ok(config)
    }

    /// Reads the configuration as written.
    fn read(&self) -> Result<RunnerConfig> {
        let path = &self.config;
        RunnerConfig::load(path).map_err(|e| {
            anyhow::anyhow!(
                "{e}{}",
                if path.exists() {
                    ""
                } else {
                    "; create one with `cowboy runner init`"
                }
            )
        })
    }
}

fn key(
    config: &RunnerConfig,
    password: &PasswordArgs,
    global: &GlobalArgs,
) -> Result<cowboy_crypto::PrivateKey> {
    SignerArgs {
        account: Some(config.key.clone()),
        private_key: None,
        password: password.clone(),
    }
    .key(global)
}

/// Loads the configuration and key, and sends `instruction(config, key)`.
fn send(
    a: &ConfigArgs,
    global: &GlobalArgs,
    instruction: impl FnOnce(&RunnerConfig, &cowboy_crypto::PrivateKey) -> SystemInstruction,
) -> Result<()> {
    let config = a.file.load()?;
    let key = key(&config, &a.password, global)?;
    let node = Node::connect_url(&config.rpc_url, None)?;
    let (hash, receipt) =
        node.send(&key, Instruction::System(instruction(&config, &key)), &a.tx)?;
    client::report(global.json, hash, receipt)
}

impl RunnerCommand {
    pub fn run(self, global: &GlobalArgs) -> Result<()> {
        match self {
            Self::Init(a) => init(a, global),
            Self::Register(a) => send(&a, global, |c, k| SystemInstruction::RunnerRegister {
                profile: Box::new(c.profile(k)),
                stake: c.stake,
            }),
            Self::Update(a) => send(&a, global, |c, k| SystemInstruction::RunnerUpdate {
                profile: Box::new(c.profile(k)),
            }),
            Self::Heartbeat(a) => send(&a, global, |_, _| SystemInstruction::RunnerHeartbeat),
            Self::Stake(a) => send(&a.inner, global, |_, _| SystemInstruction::RunnerAddStake {
                amount: a.amount,
            }),
            Self::Unstake(a) => send(&a.inner, global, |_, _| {
                SystemInstruction::RunnerWithdrawStake { amount: a.amount }
            }),
            Self::Claim(a) => send(&a, global, |_, _| SystemInstruction::RunnerClaim),
            Self::Exit(a) => send(&a, global, |_, _| SystemInstruction::RunnerExit),
            Self::Status(a) => status(a, global),
            Self::Run(a) => run(a, global),
        }
    }
}

fn init(a: InitArgs, global: &GlobalArgs) -> Result<()> {
    let path = a.dir.join("runner.toml");
    if path.exists() && !a.force {
        bail!(
            "{} exists; edit it, or pass --force to overwrite it",
            path.display()
        );
    }
    let address = if a.key.starts_with("dev:") {
        SignerArgs {
            account: Some(a.key.clone()),
            private_key: None,
            password: a.password.clone(),
        }
        .key(global)?
        .address()
    } else {
        let keystore = global.keystore()?;
        match keystore.address(&a.key) {
            Ok(address) => address,
            Err(_) => {
                let password = crate::password::new(&a.password)?;
                let key = cowboy_crypto::PrivateKey::random()?;
                keystore.insert(&a.key, &key, password.as_bytes())?.address
            }
        }
    };
    let (url, _) = a.rpc.resolve(global)?;
    let config = RunnerConfig::template(&url, &a.key, a.listen, a.stake);
    let text = toml::to_string_pretty(&config).context("cannot write the configuration")?;
    std::fs::create_dir_all(&a.dir)
        .with_context(|| format!("cannot create {}", a.dir.display()))?;
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    if global.json {
        output::json(&crate::schema::RunnerInit {
            config: path.clone(),
            address,
            key: a.key.clone(),
        });
    } else {
        outln!(
            "wrote {} for runner {address} (key {:?})",
            path.display(),
            a.key
        );
        outln!(
            "next: fund {address}, edit the profile, then `cowboy runner register` and `cowboy runner run`"
        );
    }
    Ok(())
}

fn status(a: StatusArgs, global: &GlobalArgs) -> Result<()> {
    let config = a.file.read().ok();
    let address = match (&a.address, &config) {
        (Some(text), _) => client::address(text, "--address")?,
        (None, Some(c)) if c.key.starts_with("dev:") => {
            key(c, &PasswordArgs::default(), global)?.address()
        }
        (None, Some(c)) => global.keystore()?.address(&c.key)?,
        (None, None) => bail!(
            "no runner.toml at {}; pass --config FILE or --address ADDRESS",
            a.file.config.display()
        ),
    };
    let url = match (&a.file.rpc_url, &config) {
        (None, Some(c)) => c.rpc_url.clone(),
        (rpc_url, _) => {
            RpcArgs {
                rpc_url: rpc_url.clone(),
            }
            .resolve(global)?
            .0
        }
    };
    let node = Node::connect_url(&url, None)?;
    let view = node.call(async |c| c.runner(address).await)?;
    let journal = match &config {
        Some(c) if c.journal.exists() => {
            Some(cowboy_runner::journal::Journal::open(&c.journal)?.summary()?)
        }
        _ => None,
    };
    if global.json {
        output::json(&crate::schema::RunnerStatus {
            address,
            runner: view,
            journal,
        });
        return Ok(());
    }
    match &view {
        None => outln!("{address} is not registered (run `cowboy runner register`)"),
        Some(v) => {
            let r = &v.record;
            outln!("runner     {address}");
            outln!(
                "stake      {} base units (unbonding {})",
                r.stake,
                r.unbonding.amount
            );
            outln!(
                "reputation {} ({})",
                v.reputation,
                if v.healthy {
                    "healthy"
                } else {
                    "no recent heartbeat"
                }
            );
            outln!(
                "jobs       {} active of {}",
                r.active_jobs,
                r.profile.max_concurrent_jobs
            );
            outln!("endpoint   {}", r.profile.endpoint);
            if let Some(h) = r.exited_at {
                outln!("exited     at height {h}");
            }
        }
    }
    if let Some(j) = journal {
        outln!(
            "journal    {} committing, {} revealing, {} done; earned {} base units",
            j.committing,
            j.revealing,
            j.done,
            j.earned
        );
    }
    Ok(())
}

fn run(a: RunArgs, global: &GlobalArgs) -> Result<()> {
    crate::logs::init(&a.log_level, a.log_json)?;
    let config = a.file.load()?;
    let key = key(&config, &a.password, global)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let shutdown = crate::shutdown::Shutdown::listen()?;
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .with_context(|| format!("cannot listen on {} (listen in runner.toml)", config.listen))?;
        let journal = cowboy_runner::journal::Journal::open(&config.journal)?;
        let backends = cowboy_runner::exec::Backends::new(config.clone())
            .context("cannot start the HTTP client")?;
        let conduct: Arc<dyn cowboy_runner::conduct::Conduct> = if a.halt_after_commit {
            Arc::new(cowboy_runner::conduct::HaltAfterCommit)
        } else {
            Arc::new(cowboy_runner::conduct::Honest)
        };
        let runner = cowboy_runner::Runner::new(key, backends, journal, conduct)?;
        tracing::info!(runner = %runner.address(), listen = %config.listen, node = %config.rpc_url, "runner started");
        cowboy_runner::serve(runner, listener, shutdown.into_wait()).await?;
        Ok(())
    })
}
