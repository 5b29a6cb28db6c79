//! An HTTP faucet for devnets: holds a funded key and sends rate-limited transfers (per
//! recipient address and per client IP). [`server`] runs it against any node's JSON-RPC;
//! [`client`] asks it (`cowboy faucet ADDRESS`); `cowboy devnet up` starts one per devnet.
//!
//! The wire format is small JSON over plain HTTP:
//! - `GET /info` → [`FaucetInfo`]
//! - `POST /drip` with [`DripRequest`] → [`Drip`], or an [`ErrorBody`] with status 400 (bad
//!   request), 429 (rate limited; `Retry-After` header), 502 (the node refused or failed) or
//!   503 (the faucet ran dry).

pub mod client;
pub mod limits;
pub mod server;

use cowboy_types::{Address, Hash};
use serde::{Deserialize, Serialize};

pub use client::{Client, ClientError};
pub use limits::Limit;
pub use server::{Config, Server, ServerError};

/// What a faucet tells about itself.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FaucetInfo {
    /// The faucet's own account.
    pub address: Address,
    /// Its balance, in base units.
    pub balance: u64,
    pub chain_id: u64,
    /// Amount sent when a request names none, in base units.
    pub default_amount: u64,
    /// Largest amount one request may ask for.
    pub max_amount: u64,
    pub per_address: Limit,
    pub per_ip: Limit,
}

/// A request for funds.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DripRequest {
    pub address: Address,
    /// Base units; the faucet's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<u64>,
}

/// A finalized transfer from the faucet.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Drip {
    pub address: Address,
    pub amount: u64,
    pub tx_hash: Hash,
    pub block_height: u64,
}

/// Every error response's body.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ErrorBody {
    pub error: String,
    /// Seconds until a rate-limited request would be accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_s: Option<u64>,
}
