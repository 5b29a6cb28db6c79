//! The runner's configuration file (`runner.toml`): the node it follows, the profile it
//! registers with (capabilities, rate card, concurrency, endpoint), where it listens for result
//! pushes, health and metrics, its journal, and its executors' backends. Every field is checked
//! when the file is read, so a bad value is refused with its name before the daemon starts.

use cowboy_types::{
    Hash,
    runner::{Capabilities, JobType, JobTypes, RateCard, RunnerKey, RunnerProfile, amount},
};
use serde::{Deserialize, Serialize};
use std::{
    collections::BTreeMap,
    net::SocketAddr,
    path::{Path, PathBuf},
};

/// The file `cowboy runner init` writes and `cowboy runner run` reads.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunnerConfig {
    /// The node's JSON-RPC URL.
    pub rpc_url: String,
    /// The keystore name of the runner's account key (encrypted).
    pub key: String,
    /// Where the runner serves `/v1/push`, `/health` and `/metrics`.
    pub listen: SocketAddr,
    /// The job journal (redb); relative paths are relative to the configuration file.
    #[serde(default = "default_journal")]
    pub journal: PathBuf,
    /// What `cowboy runner register` bonds, in base units (decimal string).
    #[serde(default, with = "amount")]
    pub stake: u64,
    /// Send a heartbeat when the last one is this many blocks old.
    #[serde(default = "default_heartbeat")]
    pub heartbeat_every_blocks: u64,
    pub profile: ProfileConfig,
    #[serde(default)]
    pub http: HttpConfig,
    #[serde(default)]
    pub llm: Option<LlmConfig>,
    #[serde(default)]
    pub custom: BTreeMap<String, CustomCommand>,
}

fn default_journal() -> PathBuf {
    PathBuf::from("journal.redb")
}
fn default_heartbeat() -> u64 {
    100
}

/// The on-chain profile, less the key (the account's own).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileConfig {
    pub job_types: Vec<JobType>,
    #[serde(default)]
    pub models: Vec<Hash>,
    #[serde(default)]
    pub domains: Vec<String>,
    #[serde(default)]
    pub tee: bool,
    #[serde(default)]
    pub rate_card: RateCard,
    pub max_concurrent_jobs: u64,
    #[serde(default, with = "amount")]
    pub max_job_value: u64,
    /// The URL committee members push results to (this runner's `listen` as others reach it).
    pub endpoint: String,
}

/// Limits of the HTTP executor beyond each job's own bounds.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpConfig {
    /// The largest response body read (the job's `max_return_bytes` caps the result).
    pub max_body_bytes: u64,
    /// Send every job request to this URL instead, naming the job's URL in the
    /// `X-Cowboy-Url` header: an egress proxy, or `cowboy runner-sim`'s recording and
    /// replaying HTTP mock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// Let jobs reach loopback, private and link-local addresses (local testing only: on a
    /// server it lets any job read what the runner's network exposes).
    #[serde(default)]
    pub allow_private_addresses: bool,
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            max_body_bytes: 4 * 1024 * 1024,
            via: None,
            allow_private_addresses: false,
        }
    }
}

/// An OpenAI-compatible server (llama.cpp's server, vLLM, Ollama).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmConfig {
    /// The API root, e.g. `http://127.0.0.1:11434/v1`.
    pub base_url: String,
    /// The environment variable holding the API key, if the server needs one.
    #[serde(default)]
    pub api_key_env: Option<String>,
    /// The server's model name for each on-chain model id this runner serves.
    pub models: BTreeMap<Hash, String>,
    /// The server's name for the governance embedding model (`semantic_similarity` jobs).
    #[serde(default)]
    pub embedding_model: Option<String>,
}

/// A custom job kind the operator allows: the command run with the payload on stdin, whose
/// stdout is the result.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomCommand {
    pub command: Vec<String>,
    /// Address-space limit of the process, in MiB (the job's `max_memory_mb` if lower).
    #[serde(default = "default_memory")]
    pub max_memory_mb: u64,
}

fn default_memory() -> u64 {
    512
}

/// Why a configuration is refused.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a runner configuration: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{path}: profile: {source}")]
    Profile {
        path: PathBuf,
        source: cowboy_types::runner::ProfileError,
    },
    #[error("{path}: custom.{kind}.command is empty; give the program and its arguments")]
    EmptyCommand { path: PathBuf, kind: String },
    #[error(
        "{path}: profile.job_types has {job_type} but the [{section}] section is missing; add it or drop the job type"
    )]
    MissingBackend {
        path: PathBuf,
        job_type: JobType,
        section: &'static str,
    },
}

impl RunnerConfig {
    /// Reads and checks `path`; relative paths in it become relative to its directory.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.into(),
            source,
        })?;
        let mut config: Self = toml::from_str(&text).map_err(|e| ConfigError::Parse {
            path: path.into(),
            message: e.to_string(),
        })?;
        if config.journal.is_relative() {
            let dir = path.parent().unwrap_or(Path::new("."));
            config.journal = dir.join(&config.journal);
        }
        config.check(path)?;
        Ok(config)
    }

    /// The profile checks the chain applies, plus the backends each job type needs.
    pub fn check(&self, path: &Path) -> Result<(), ConfigError> {
        // Any valid key passes the profile's own checks; the real one is filled at signing.
        self.profile_for(RunnerKey::Secp256k1([2; 33]))
            .validate()
            .map_err(|source| ConfigError::Profile {
                path: path.into(),
                source,
            })?;
        if self.profile.job_types.contains(&JobType::Llm) && self.llm.is_none() {
            return Err(ConfigError::MissingBackend {
                path: path.into(),
                job_type: JobType::Llm,
                section: "llm",
            });
        }
        if let Some((kind, _)) = self.custom.iter().find(|(_, c)| c.command.is_empty()) {
            return Err(ConfigError::EmptyCommand {
                path: path.into(),
                kind: kind.clone(),
            });
        }
        Ok(())
    }

    /// The on-chain profile with `key`.
    pub fn profile_for(&self, key: RunnerKey) -> RunnerProfile {
        let p = &self.profile;
        RunnerProfile {
            key,
            capabilities: Capabilities {
                job_types: JobTypes::of(&p.job_types),
                models: p.models.clone(),
                domains: p.domains.clone(),
                tee: p.tee,
            },
            rate_card: p.rate_card,
            max_concurrent_jobs: p.max_concurrent_jobs,
            max_job_value: p.max_job_value,
            endpoint: p.endpoint.clone(),
        }
    }

    /// The profile of the runner whose account key is `key`: its compressed public key signs
    /// result pushes.
    pub fn profile(&self, key: &cowboy_crypto::PrivateKey) -> RunnerProfile {
        self.profile_for(RunnerKey::Secp256k1(key.compressed_public_key()))
    }

    /// A starting configuration for `cowboy runner init`.
    pub fn template(rpc_url: &str, key: &str, listen: SocketAddr, stake: u64) -> Self {
        Self {
            rpc_url: rpc_url.into(),
            key: key.into(),
            listen,
            journal: default_journal(),
            stake,
            heartbeat_every_blocks: default_heartbeat(),
            profile: ProfileConfig {
                job_types: vec![JobType::Http],
                models: vec![],
                domains: vec![],
                tee: false,
                rate_card: RateCard {
                    per_job: 1_000_000,
                    per_1k_tokens: 0,
                    per_second: 0,
                },
                max_concurrent_jobs: 8,
                max_job_value: 0,
                endpoint: format!("http://{listen}"),
            },
            http: HttpConfig::default(),
            llm: None,
            custom: BTreeMap::new(),
        }
    }
}
