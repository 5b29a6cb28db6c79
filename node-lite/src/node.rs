//! A node home and running a validator from it: `config.toml`, the identity and share keys,
//! the chain store and consensus storage; p2p over authenticated TCP, consensus, execution,
//! transaction gossip and the RPC server, stopped cleanly on SIGINT/SIGTERM.
//!
//! ```text
//! HOME/config.toml      rpc/p2p addresses, peers, block time, log level
//! HOME/genesis.json     the chain's genesis (or a path in config.toml)
//! HOME/identity.key     ed25519 identity, hex (0600)
//! HOME/share.key        BLS12-381 threshold share, hex (0600)
//! HOME/data/            chain.redb and consensus storage
//! ```

use crate::{
    consensus::{self, Channels, Timing, Validator, channel, keys},
    core::Core,
};
use commonware_cryptography::{Signer, ed25519};
use commonware_p2p::authenticated::lookup;
use commonware_runtime::{Quota, Runner as _, Spawner as _, Supervisor as _};
use commonware_utils::{NZU32, NZUsize, ordered::Map};
use cowboy_execution::Genesis;
use cowboy_types::Address;
use serde::{Deserialize, Serialize};
use std::{
    collections::HashMap,
    net::SocketAddr,
    path::{Path, PathBuf},
    time::Duration,
};

/// Largest p2p message: a full block (4,096 transactions of up to 128 KiB is far more than a
/// block's lanes allow; 32 MiB holds any valid block).
const MAX_MESSAGE_SIZE: u32 = 32 * 1024 * 1024;

/// `config.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Genesis file, relative to the home unless absolute.
    #[serde(default = "default_genesis")]
    pub genesis: PathBuf,
    /// Where the JSON-RPC server listens (loopback unless you mean otherwise).
    #[serde(default = "default_rpc")]
    pub rpc_addr: SocketAddr,
    /// Where p2p listens.
    pub p2p_addr: SocketAddr,
    /// Milliseconds between blocks (100 at the least).
    #[serde(default = "default_block_time")]
    pub block_time_ms: u64,
    /// `error`, `warn`, `info`, `debug` or `trace` (or a tracing filter).
    #[serde(default = "default_log")]
    pub log_level: String,
    /// The other validators: their identity (hex) and p2p address.
    #[serde(default)]
    pub peers: Vec<Peer>,
    /// Limits of the RPC port (connections, timeouts, per-client caps, queries).
    #[serde(default)]
    pub rpc: crate::rpc_server::RpcLimits,
    /// Free bytes the data directory keeps: below this the node pauses (takes no
    /// transactions, commits no blocks) until twice as much is free.
    #[serde(default = "default_min_free_bytes")]
    pub min_free_bytes: u64,
    /// Index events as blocks are committed (`cowboy_getEvents`, event subscriptions, the
    /// explorer's events). `false` saves the index's disk and commit time; turning it on again
    /// rebuilds it from the receipts at the next start.
    #[serde(default = "default_event_index")]
    pub event_index: bool,
    /// Keep what each call of each executed block did (`cowboy_getTrace`, `cowboy tx show
    /// --trace`): developer data beside the receipts, bounded per block. `false` saves its
    /// disk and time; blocks executed meanwhile have no trace.
    #[serde(default = "default_traces")]
    pub traces: bool,
    /// The transaction pool.
    #[serde(default)]
    pub pool: PoolSettings,
}

fn default_min_free_bytes() -> u64 {
    crate::core::DEFAULT_MIN_FREE_BYTES
}

fn default_event_index() -> bool {
    true
}

fn default_traces() -> bool {
    true
}

/// `[pool]` in `config.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PoolSettings {
    /// Seconds a transaction that cannot run yet (its sender has a nonce gap before it) may
    /// wait before it is dropped.
    pub queued_lifetime_s: u64,
}

impl Default for PoolSettings {
    fn default() -> Self {
        Self {
            queued_lifetime_s: cowboy_mempool::PoolConfig::default()
                .queued_lifetime
                .as_secs(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Peer {
    pub public_key: String,
    pub address: SocketAddr,
}

fn default_genesis() -> PathBuf {
    "genesis.json".into()
}
fn default_rpc() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 8545))
}
fn default_block_time() -> u64 {
    1_000
}
fn default_log() -> String {
    "info".into()
}

/// Shortest block time a node accepts, in milliseconds.
pub const MIN_BLOCK_TIME_MS: u64 = 100;

/// Why a node home cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum HomeError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} is not a valid node config: {message}")]
    Config { path: String, message: String },
    #[error(
        "{home} is not a node home (no config.toml); create one with `cowboy node init --home {home}`"
    )]
    NoHome { home: String },
    #[error("{path} already exists; pick another --home or remove it")]
    Exists { path: String },
    #[error(transparent)]
    Key(#[from] keys::KeyError),
    #[error(transparent)]
    Genesis(#[from] cowboy_execution::GenesisError),
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Consensus(#[from] consensus::StartError),
}

/// A node home directory.
#[derive(Clone, Debug)]
pub struct Home(pub PathBuf);

impl Home {
    pub fn config_path(&self) -> PathBuf {
        self.0.join("config.toml")
    }
    pub fn identity_path(&self) -> PathBuf {
        self.0.join("identity.key")
    }
    pub fn share_path(&self) -> PathBuf {
        self.0.join("share.key")
    }
    pub fn data(&self) -> PathBuf {
        self.0.join("data")
    }

    pub fn config(&self) -> Result<Config, HomeError> {
        let path = self.config_path();
        let text = std::fs::read_to_string(&path).map_err(|source| {
            if source.kind() == std::io::ErrorKind::NotFound {
                HomeError::NoHome {
                    home: self.0.display().to_string(),
                }
            } else {
                HomeError::Read {
                    path: path.display().to_string(),
                    source,
                }
            }
        })?;
        let config: Config = toml::from_str(&text).map_err(|e| HomeError::Config {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        if let Err(message) = config.rpc.validate() {
            return Err(HomeError::Config {
                path: path.display().to_string(),
                message,
            });
        }
        if config.block_time_ms < MIN_BLOCK_TIME_MS {
            return Err(HomeError::Config {
                path: path.display().to_string(),
                message: format!(
                    "block_time_ms {} is below the minimum {MIN_BLOCK_TIME_MS}",
                    config.block_time_ms
                ),
            });
        }
        Ok(config)
    }

    pub fn genesis_path(&self, config: &Config) -> PathBuf {
        if config.genesis.is_absolute() {
            config.genesis.clone()
        } else {
            self.0.join(&config.genesis)
        }
    }

    fn read_hex(&self, path: &Path) -> Result<Vec<u8>, HomeError> {
        let text = std::fs::read_to_string(path).map_err(|source| HomeError::Read {
            path: path.display().to_string(),
            source,
        })?;
        hex::decode(text.trim().trim_start_matches("0x")).map_err(|e| HomeError::Config {
            path: path.display().to_string(),
            message: format!("not hex: {e}"),
        })
    }

    pub fn identity(&self) -> Result<ed25519::PrivateKey, HomeError> {
        Ok(keys::decode_identity(
            &self.read_hex(&self.identity_path())?,
        )?)
    }

    pub fn share(&self) -> Result<Vec<u8>, HomeError> {
        self.read_hex(&self.share_path())
    }

    /// Creates the home with a new identity (no share yet) and a config; refuses to touch an
    /// existing one.
    pub fn init(&self, config: &Config) -> Result<ed25519::PublicKey, HomeError> {
        if self.config_path().exists() || self.identity_path().exists() {
            return Err(HomeError::Exists {
                path: self.0.display().to_string(),
            });
        }
        create_dir(&self.0)?;
        let identity = keys::new_identity()?;
        write_secret(
            &self.identity_path(),
            &hex::encode(keys::encode_identity(&identity)),
        )?;
        self.write_config(config)?;
        Ok(identity.public_key())
    }

    pub fn write_config(&self, config: &Config) -> Result<(), HomeError> {
        let text = toml::to_string_pretty(config).map_err(|e| HomeError::Invalid(e.to_string()))?;
        write_file(&self.config_path(), &text)
    }

    pub fn write_share(&self, share: &[u8]) -> Result<(), HomeError> {
        write_secret(&self.share_path(), &hex::encode(share))
    }
}

/// Creates a node home (or a directory in it) `0700`: it holds the node's keys.
fn create_dir(path: &Path) -> Result<(), HomeError> {
    cowboy_keystore::private_fs::create_dir(path).map_err(|source| HomeError::Write {
        path: path.display().to_string(),
        source,
    })
}

/// Writes a file atomically (temporary file, then rename).
pub fn write_file(path: &Path, text: &str) -> Result<(), HomeError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|source| HomeError::Write {
            path: path.display().to_string(),
            source,
        })
}

fn write_secret(path: &Path, text: &str) -> Result<(), HomeError> {
    use std::{io::Write, os::unix::fs::OpenOptionsExt};
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(|source| HomeError::Write {
            path: path.display().to_string(),
            source,
        })?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.sync_all())
        .map_err(|source| HomeError::Write {
            path: path.display().to_string(),
            source,
        })
}

/// A validator committee written to disk: one home per validator, a shared genesis.
pub struct Committee {
    pub homes: Vec<Home>,
    pub genesis: Genesis,
}

/// What [`init_committee`] needs per validator.
pub struct Member {
    pub home: Home,
    pub p2p_addr: SocketAddr,
    pub rpc_addr: SocketAddr,
    /// Reward address.
    pub address: Address,
    pub stake: u64,
}

/// Creates homes for a committee with a trusted dealer (devnets and tests): identities,
/// shares, a genesis naming every validator with the threshold polynomial, configs that list
/// each other as peers. `genesis` supplies chain id, allocations and parameters; its
/// validators are replaced.
pub fn init_committee(
    members: &[Member],
    mut genesis: Genesis,
    block_time_ms: u64,
) -> Result<Committee, HomeError> {
    // Check the genesis (stakes, allocations, parameters) before writing anything.
    let mut provisional = genesis.clone();
    provisional.validators = members
        .iter()
        .enumerate()
        .map(|(i, m)| cowboy_execution::GenesisValidator {
            address: m.address,
            stake: cowboy_types::json::Amount(m.stake),
            public_key: cowboy_types::json::HexBytes(vec![i as u8; 32]),
        })
        .collect();
    provisional.validate()?;
    let mut identities = Vec::new();
    for m in members {
        let cfg = Config {
            genesis: default_genesis(),
            rpc_addr: m.rpc_addr,
            p2p_addr: m.p2p_addr,
            block_time_ms,
            log_level: default_log(),
            peers: Vec::new(),
            rpc: Default::default(),
            min_free_bytes: default_min_free_bytes(),
            event_index: default_event_index(),
            traces: default_traces(),
            pool: Default::default(),
        };
        identities.push(m.home.init(&cfg)?);
    }
    let (polynomial, shares) = keys::deal(&identities)?;
    genesis.validators = members
        .iter()
        .zip(&identities)
        .map(|(m, id)| cowboy_execution::GenesisValidator {
            address: m.address,
            stake: cowboy_types::json::Amount(m.stake),
            public_key: cowboy_types::json::HexBytes(commonware_codec::Encode::encode(id).to_vec()),
        })
        .collect();
    genesis.threshold_public = Some(cowboy_types::json::HexBytes(keys::encode_polynomial(
        &polynomial,
    )));
    genesis.validate()?;
    let genesis_text =
        serde_json::to_string_pretty(&genesis).map_err(|e| HomeError::Invalid(e.to_string()))?;
    for (i, m) in members.iter().enumerate() {
        let share = shares
            .iter()
            .find(|(k, _)| *k == identities[i])
            .map(|(_, s)| s)
            .ok_or_else(|| HomeError::Invalid("the dealer skipped a validator".into()))?;
        m.home.write_share(&keys::encode_share(share))?;
        write_file(&m.home.0.join("genesis.json"), &genesis_text)?;
        let mut cfg = m.home.config()?;
        cfg.peers = members
            .iter()
            .zip(&identities)
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, (o, id))| Peer {
                public_key: hex::encode(commonware_codec::Encode::encode(id)),
                address: o.p2p_addr,
            })
            .collect();
        m.home.write_config(&cfg)?;
    }
    Ok(Committee {
        homes: members.iter().map(|m| m.home.clone()).collect(),
        genesis,
    })
}

/// Everything a validator needs, loaded and checked.
pub struct Loaded {
    pub config: Config,
    pub genesis: Genesis,
    pub identity: ed25519::PrivateKey,
    pub scheme: consensus::app::Scheme,
    pub proposers: HashMap<ed25519::PublicKey, Address>,
    pub peers: Vec<(ed25519::PublicKey, SocketAddr)>,
}

/// Loads a home: config, genesis, keys; checks the share against the genesis polynomial.
pub fn load(home: &Home) -> Result<Loaded, HomeError> {
    let config = home.config()?;
    let genesis = Genesis::load(&home.genesis_path(&config))?;
    let identity = home.identity()?;
    let mut proposers = HashMap::new();
    let mut identities = Vec::new();
    for v in &genesis.validators {
        let pk = keys::decode_public(&v.public_key.0)?;
        proposers.insert(pk.clone(), v.address);
        identities.push(pk);
    }
    let participants = keys::committee(&identities)?;
    let polynomial = keys::decode_polynomial(
        &genesis
            .threshold_public
            .as_ref()
            .ok_or_else(|| {
                HomeError::Invalid(
                    "the genesis has no threshold_public: it was not made for a consensus committee (use `cowboy devnet up` or `cowboy node init`)"
                        .into(),
                )
            })?
            .0,
        identities.len(),
    )?;
    let share = keys::decode_share(&home.share()?)?;
    if !proposers.contains_key(&identity.public_key()) {
        return Err(HomeError::Invalid(format!(
            "this node's identity {} is not a validator in the genesis",
            identity.public_key()
        )));
    }
    let scheme = keys::signer(&identity, participants, polynomial, share)?;
    let peers = load_peers(&config.peers)?;
    Ok(Loaded {
        config,
        genesis,
        identity,
        scheme,
        proposers,
        peers,
    })
}

/// Overrides from the command line.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub rpc_addr: Option<SocketAddr>,
    pub p2p_addr: Option<SocketAddr>,
    pub block_time_ms: Option<u64>,
    pub peers: Option<Vec<Peer>>,
}

/// A listening address the node cannot bind, with what to do about it.
fn cannot_listen(what: &str, addr: SocketAddr, e: &std::io::Error, flag: &str) -> HomeError {
    HomeError::Invalid(format!(
        "cannot {what} on {addr}: {e}; is another program or node listening there? Stop it, \
         or move this node with {flag}"
    ))
}

/// Runs a validator until SIGINT/SIGTERM. Blocks the calling thread.
pub fn run(home: &Home, overrides: Overrides) -> Result<(), HomeError> {
    let mut loaded = load(home)?;
    if let Some(a) = overrides.rpc_addr {
        loaded.config.rpc_addr = a;
    }
    if let Some(a) = overrides.p2p_addr {
        loaded.config.p2p_addr = a;
    }
    if let Some(b) = overrides.block_time_ms {
        if b < MIN_BLOCK_TIME_MS {
            return Err(HomeError::Invalid(format!(
                "--block-time {b} ms is below the minimum {MIN_BLOCK_TIME_MS} ms"
            )));
        }
        loaded.config.block_time_ms = b;
    }
    if let Some(p) = overrides.peers {
        loaded.config.peers = p;
        loaded = Loaded {
            peers: load_peers(&loaded.config.peers)?,
            ..loaded
        };
    }
    // Descriptors: storage and p2p keep their reserve; RPC clients get the rest.
    let mut rpc_limits = loaded.config.rpc.clone();
    rpc_limits.max_connections =
        crate::fd::rpc_connections(loaded.proposers.len(), rpc_limits.max_connections)
            .map_err(|e| HomeError::Invalid(e.to_string()))?;
    let data = home.data();
    create_dir(&data)?;
    check_data_dir(&data)?;
    let core = Core::open(
        &data,
        &loaded.genesis,
        crate::core::CoreOptions {
            query_workers: rpc_limits.max_queries,
            block_time: Duration::from_millis(loaded.config.block_time_ms),
            min_free_bytes: loaded.config.min_free_bytes,
            event_index: loaded.config.event_index,
            traces: loaded.config.traces,
            pool: cowboy_mempool::PoolConfig {
                queued_lifetime: Duration::from_secs(loaded.config.pool.queued_lifetime_s),
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .map_err(|e| HomeError::Invalid(e.to_string()))?;
    let genesis_block = core
        .chain()
        .store()
        .block(0)
        .map_err(|e| HomeError::Invalid(e.to_string()))?
        .ok_or_else(|| HomeError::Invalid("the store has no genesis block".into()))?;
    explain_storage_panics(data.join("consensus"));
    let runtime = commonware_runtime::tokio::Config::new()
        .with_storage_directory(data.join("consensus"))
        .with_catch_panics(false);
    let runner = commonware_runtime::tokio::Runner::new(runtime);
    let result: Result<(), HomeError> = runner.start(|context| async move {
        // Taken before anything else starts: a SIGTERM while the node is still starting (an
        // operator, a test, systemd) then stops it cleanly once it has started, instead of
        // killing it by the signal's default action.
        let stop = StopSignals::take();
        let rpc_addr = loaded.config.rpc_addr;
        let (bound, rpc) = crate::rpc::serve(core.clone(), rpc_addr, rpc_limits)
            .await
            .map_err(|e| cannot_listen("serve RPC", rpc_addr, &e, "--rpc-addr"))?;
        // commonware's listener binds the p2p address itself and panics when it cannot; probe it
        // first (same SO_REUSEADDR semantics) so a taken port is a clear error, not a backtrace.
        let p2p_addr = loaded.config.p2p_addr;
        drop(
            tokio::net::TcpListener::bind(p2p_addr)
                .await
                .map_err(|e| cannot_listen("listen for p2p", p2p_addr, &e, "--p2p-addr"))?,
        );
        tracing::info!(rpc = %bound, p2p = %p2p_addr, "node starting");

        let me = loaded.identity.public_key();
        let p2p_cfg = lookup::Config::local(
            commonware_stream::cups::Cups::<_, commonware_cryptography::ChaCha20Poly1305>::new(
                commonware_stream::sake::Sake {
                    signer: loaded.identity.clone(),
                    synchrony_bound: Duration::from_secs(5),
                    max_handshake_age: Duration::from_secs(10),
                    version: commonware_stream::sake::Version::V1,
                },
                commonware_stream::cups::Version::V1,
            ),
            consensus::NAMESPACE,
            loaded.config.p2p_addr,
            NZUsize!(loaded.proposers.len().max(1) + 1),
            MAX_MESSAGE_SIZE,
            NZUsize!(4_096),
        );
        // Validators are few and known: dial missing peers, and retry a lost simultaneous-open
        // race, more often than the internet-tuned defaults, so a starting network connects in
        // a fraction of a second.
        let mut p2p_cfg = p2p_cfg;
        p2p_cfg.dial_frequency = Duration::from_millis(100);
        p2p_cfg.peer_connection_cooldown = Duration::from_millis(200);
        // One peer set (the genesis committee) is ever tracked.
        p2p_cfg.tracked_peer_sets = NZUsize!(1);
        let (mut network, mut oracle) = lookup::Network::new(context.child("network"), p2p_cfg);
        let mut book: Vec<(ed25519::PublicKey, commonware_p2p::Address)> =
            vec![(me.clone(), loaded.config.p2p_addr.into())];
        for (pk, addr) in &loaded.peers {
            book.push((pk.clone(), (*addr).into()));
        }
        let book: Map<_, _> = book
            .try_into()
            .map_err(|_| HomeError::Invalid("a peer is listed twice".into()))?;
        use commonware_p2p::AddressableManager as _;
        oracle.track(0, book);
        // Per-peer quotas. Each channel's inbound buffer holds one burst from every peer, so
        // bursts are sized to the traffic (a handful of consensus messages per view; up to the
        // 3,809-per-second transaction cap), not to a blanket maximum: 10,000-message bursts
        // on every channel cost hundreds of megabytes of buffers and a slow start.
        let consensus = Quota::per_second(NZU32!(1_000)).allow_burst(NZU32!(256));
        let transactions = Quota::per_second(NZU32!(10_000)).allow_burst(NZU32!(4_096));
        let channels = Channels {
            votes: network.register(channel::VOTES, consensus),
            certificates: network.register(channel::CERTIFICATES, consensus),
            resolver: network.register(channel::RESOLVER, consensus),
            blocks: network.register(channel::BLOCKS, consensus),
            backfill: network.register(channel::BACKFILL, consensus),
        };
        let (tx_sender, tx_receiver) = network.register(channel::TRANSACTIONS, transactions);
        let (hello_sender, hello_receiver) = network.register(
            channel::HELLO,
            Quota::per_second(NZU32!(100)).allow_burst(NZU32!(16)),
        );
        network.start();
        let validator = Validator {
            identity: loaded.identity.clone(),
            scheme: loaded.scheme.clone(),
            proposers: loaded.proposers.clone(),
            genesis: genesis_block,
            timing: Timing {
                block_time: Duration::from_millis(loaded.config.block_time_ms),
            },
            partition: PARTITION.into(),
        };
        // Consensus storage that finds the disk full waits (paused) instead of panicking.
        let patient = crate::disk::runtime::Patient::new(
            context.child("engine"),
            core.disk_watch(),
            data.join("consensus"),
        );
        let _engine = crate::engine::start(
            patient,
            core.clone(),
            validator,
            crate::engine::EngineChannels {
                consensus: channels,
                transactions: (tx_sender, tx_receiver),
                hello: (hello_sender, hello_receiver),
            },
            oracle.clone(),
            oracle,
            |app| app,
        )
        .await?;

        // Free space on the data directory, measured every second (the node pauses below the
        // floor and resumes on its own).
        // The data directory is marked once consensus has stored something, so a later start
        // can tell a lost consensus directory from a new node.
        let disk_core = core.clone();
        let marked_data = data.clone();
        context.child("disk").spawn(move |context| async move {
            use commonware_runtime::Clock as _;
            let mut marked = false;
            loop {
                disk_core.disk();
                if !marked {
                    marked = write_marker(&marked_data, &disk_core).unwrap_or(false);
                }
                context.sleep(Duration::from_secs(1)).await;
            }
        });

        stop.wait().await;
        tracing::info!("shutting down");
        core.flush();
        let _ = rpc.stop();
        let _ = context.stop(0, Some(Duration::from_secs(5))).await;
        Ok(())
    });
    result
}

/// `data/node.json`: written once a node has started, so a later start can tell "new" from
/// "lost its data".
const MARKER: &str = "node.json";

/// Refuses to start on a data directory that lost part of its state: an emptied or deleted
/// `chain.redb` (the node would silently start over from genesis) or a deleted consensus
/// directory (it would stall, or vote again in views it already voted in).
fn check_data_dir(data: &Path) -> Result<(), HomeError> {
    let chain = data.join("chain.redb");
    let consensus = data.join("consensus");
    let marker = data.join(MARKER);
    let has_run = marker.exists();
    let chain_len = std::fs::metadata(&chain).map(|m| m.len()).ok();
    let consensus_used = std::fs::read_dir(&consensus)
        .map(|mut d| d.next().is_some())
        .unwrap_or(false);
    let restore = |what: String| {
        HomeError::Invalid(format!(
            "{what}. This node's data is incomplete and it will not start: restore the missing \
             part from a backup, or remove the whole data directory ({}) to join again from \
             genesis (a validator then re-syncs every block from its peers)",
            data.display()
        ))
    };
    match chain_len {
        Some(0) => {
            return Err(restore(format!("{} is empty", chain.display())));
        }
        None if has_run || consensus_used => {
            return Err(restore(format!(
                "{} is missing but this node has run before{}",
                chain.display(),
                if consensus_used {
                    format!(" ({} holds its consensus state)", consensus.display())
                } else {
                    String::new()
                }
            )));
        }
        _ => {}
    }
    if has_run && !consensus_used {
        return Err(restore(format!(
            "the consensus storage {} is missing or empty but this node has run before",
            consensus.display()
        )));
    }
    // The votes this validator cast: without them it could vote again, differently, in views
    // it already voted in.
    let votes = consensus.join(consensus::vote_journal(PARTITION));
    let votes_kept = std::fs::read_dir(&votes)
        .map(|mut d| d.next().is_some())
        .unwrap_or(false);
    if has_run && !votes_kept {
        return Err(restore(format!(
            "the vote journal {} is missing or empty but this node has run before",
            votes.display()
        )));
    }
    Ok(())
}

/// Prefix of a node's consensus storage partitions (under `data/consensus`).
const PARTITION: &str = "cowboy";

/// Consensus storage that fails to open or to write panics inside commonware
/// (`BlobCorrupt(partition, blob, reason)`, `WriteFailed`): say which file or disk, and what
/// to do, instead of only a backtrace.
fn explain_storage_panics(consensus: PathBuf) {
    let previous = std::panic::take_hook();
    use std::io::Write as _;
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| {
                info.payload()
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
            })
            .unwrap_or_default();
        if let Some(file) = corrupt_blob(&message) {
            // Not `eprintln!`: on a full or failing disk holding stderr, it would panic again.
            let _ = writeln!(
                std::io::stderr(),
                "error: the node's consensus storage is damaged: {} ({message}). It stops rather \
                 than vote from incomplete records: restore the data directory from a backup, \
                 or remove it to re-sync this validator from its peers.",
                consensus.join(file).display()
            );
        } else if message.contains("WriteFailed") || message.contains("No space left") {
            // A full disk makes writes wait (crate::disk), so this is a failing disk (an I/O
            // error, a read-only remount): consensus cannot record a vote, so it stops.
            let _ = writeln!(
                std::io::stderr(),
                "error: the node cannot write its consensus storage under {} ({message}): the \
                 disk is failing or read-only. It stopped rather than vote on what it cannot \
                 record; the transactions it accepted are kept in its pool journal. Check the \
                 disk (dmesg), then start it again.",
                consensus.display()
            );
        }
        previous(info);
    }));
}

/// `partition/blob` out of a `BlobCorrupt("partition", "blob", "reason")` message.
fn corrupt_blob(message: &str) -> Option<PathBuf> {
    let rest = &message[message.find("BlobCorrupt(")? + "BlobCorrupt(".len()..];
    let mut quoted = rest.split('"').skip(1).step_by(2);
    let partition = quoted.next()?;
    let blob = quoted.next()?;
    Some(Path::new(partition).join(blob))
}

/// Writes the marker once the consensus directory holds something; returns whether the
/// marker exists.
fn write_marker(data: &Path, core: &Core) -> Result<bool, HomeError> {
    let path = data.join(MARKER);
    if path.exists() {
        return Ok(true);
    }
    let consensus_used = std::fs::read_dir(data.join("consensus"))
        .map(|mut d| d.next().is_some())
        .unwrap_or(false);
    if !consensus_used {
        return Ok(false);
    }
    let text = serde_json::json!({
        "chain_id": core.chain().chain_id(),
        "genesis_hash": core.chain().genesis_hash(),
    })
    .to_string();
    write_file(&path, &text)?;
    Ok(true)
}

fn load_peers(peers: &[Peer]) -> Result<Vec<(ed25519::PublicKey, SocketAddr)>, HomeError> {
    peers
        .iter()
        .map(|p| {
            let bytes = hex::decode(p.public_key.trim_start_matches("0x"))
                .map_err(|e| HomeError::Invalid(format!("peer key {}: {e}", p.public_key)))?;
            Ok((keys::decode_public(&bytes)?, p.address))
        })
        .collect()
}

/// SIGINT and SIGTERM, registered (so no longer fatal to the process) when taken.
struct StopSignals {
    interrupt: Option<tokio::signal::unix::Signal>,
    terminate: Option<tokio::signal::unix::Signal>,
}

impl StopSignals {
    fn take() -> Self {
        use tokio::signal::unix::{SignalKind, signal};
        let take = |kind: SignalKind| match signal(kind) {
            Ok(s) => Some(s),
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for a stop signal");
                None
            }
        };
        Self {
            interrupt: take(SignalKind::interrupt()),
            terminate: take(SignalKind::terminate()),
        }
    }

    /// Completes at the first SIGINT or SIGTERM (including one received since `take`).
    async fn wait(mut self) {
        async fn recv(signal: &mut Option<tokio::signal::unix::Signal>) {
            match signal {
                Some(s) => {
                    s.recv().await;
                }
                None => std::future::pending().await,
            }
        }
        tokio::select! {
            _ = recv(&mut self.interrupt) => {}
            _ = recv(&mut self.terminate) => {}
        }
    }
}

#[cfg(test)]
mod storage_panic_tests {
    use super::*;

    #[test]
    fn a_corrupt_blob_panic_names_its_file() {
        let message = r#"unable to open journal: Runtime(BlobCorrupt("cowboy-simplex", "0000000000000009", "invalid header padding"))"#;
        assert_eq!(
            corrupt_blob(message),
            Some(PathBuf::from("cowboy-simplex/0000000000000009"))
        );
        assert_eq!(corrupt_blob("some other panic"), None);
    }
}
