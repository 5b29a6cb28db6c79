//! `devnet.json`: what a devnet is made of (nodes, ports, faucet, dev accounts) and which
//! processes run it, written atomically after every change so any `cowboy devnet` command can
//! pick up where another left off.

use crate::{DevnetError, accounts::DevAccount, process};
use cowboy_types::Address;
use serde::{Deserialize, Serialize};
use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
};

/// The state file's name inside the devnet directory.
pub const FILE: &str = "devnet.json";

/// A devnet as saved on disk.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DevnetState {
    pub name: String,
    pub chain_id: u64,
    pub block_time_ms: u64,
    pub nodes: Vec<NodeState>,
    pub faucet: FaucetState,
    pub accounts: Vec<DevAccount>,
    /// The runner fleet started with the devnet, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runners: Option<RunnersState>,
}

impl DevnetState {
    /// The block explorer node-0 serves; on a devnet of several nodes, its network view,
    /// which compares them all.
    pub fn explorer_url(&self) -> Option<String> {
        let first = self.nodes.first()?;
        if self.nodes.len() < 2 {
            return Some(format!("{}/", first.rpc_url()));
        }
        let all: Vec<String> = self.nodes.iter().map(NodeState::rpc_url).collect();
        Some(format!(
            "{}/#/network?nodes={}",
            first.rpc_url(),
            all.join(",")
        ))
    }
}

/// A devnet's runner fleet (`cowboy runner-sim`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunnersState {
    /// The fleet, as `--runners` gives it.
    pub fleet: String,
    /// HTTP jobs replayed from this cassette instead of fetched live.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cassette: Option<PathBuf>,
    pub pid: Option<u32>,
}

/// One validator.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeState {
    /// `node-0`, `node-1`, …
    pub name: String,
    pub home: PathBuf,
    pub rpc_addr: SocketAddr,
    pub p2p_addr: SocketAddr,
    /// The running process, if started.
    pub pid: Option<u32>,
}

/// The faucet.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaucetState {
    pub addr: SocketAddr,
    /// Its funded account.
    pub address: Address,
    pub pid: Option<u32>,
}

impl NodeState {
    pub fn rpc_url(&self) -> String {
        format!("http://{}", self.rpc_addr)
    }

    /// The argument that identifies this node's process (its home).
    pub(crate) fn marker(&self) -> String {
        self.home.display().to_string()
    }
}

impl FaucetState {
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

/// The argument that identifies the faucet of the devnet in `dir` among all processes.
pub(crate) fn faucet_marker(dir: &Path) -> String {
    format!("devnet:{}", dir.display())
}

/// The runner fleet's journal directory, which identifies its process.
pub(crate) fn runners_marker(dir: &Path) -> String {
    dir.join("runners").display().to_string()
}

impl DevnetState {
    pub(crate) fn load(dir: &Path) -> Result<Option<Self>, DevnetError> {
        let path = dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(DevnetError::Io { path, error }),
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| DevnetError::State {
                path,
                reason: e.to_string(),
            })
    }

    /// Writes the state atomically (temporary file, then rename).
    pub(crate) fn save(&self, dir: &Path) -> Result<(), DevnetError> {
        let path = dir.join(FILE);
        let text = serde_json::to_string_pretty(self).map_err(|e| DevnetError::State {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        // It holds the dev accounts' and the faucet's keys.
        cowboy_keystore::private_fs::write(&path, (text + "\n").as_bytes())
            .map_err(|error| DevnetError::Io { path, error })
    }

    pub fn node_running(&self, i: usize) -> bool {
        let n = &self.nodes[i];
        n.pid.is_some_and(|pid| process::alive(pid, &n.marker()))
    }

    /// Whether the faucet started for the devnet in `dir` is running.
    pub fn faucet_running(&self, dir: &Path) -> bool {
        self.faucet
            .pid
            .is_some_and(|pid| process::alive(pid, &faucet_marker(dir)))
    }

    /// Whether the runner fleet started for the devnet in `dir` is running.
    pub fn runners_running(&self, dir: &Path) -> bool {
        self.runners
            .as_ref()
            .and_then(|r| r.pid)
            .is_some_and(|pid| process::alive(pid, &runners_marker(dir)))
    }

    pub(crate) fn any_running(&self) -> bool {
        (0..self.nodes.len()).any(|i| self.node_running(i))
    }

    /// Every port the devnet listens on, what uses it and the flag that moves it.
    pub(crate) fn ports(&self) -> Vec<(u16, String, &'static str)> {
        let mut ports = Vec::new();
        for n in &self.nodes {
            ports.push((n.rpc_addr.port(), format!("{} RPC", n.name), "--rpc-port"));
            ports.push((n.p2p_addr.port(), format!("{} p2p", n.name), "--p2p-port"));
        }
        ports.push((self.faucet.addr.port(), "faucet".into(), "--faucet-port"));
        ports
    }
}
