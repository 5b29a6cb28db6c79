//! The Cowboy validating node.
//!
//! - [`core`]: the chain, the transaction pool, engine threads and progress; applies finalized
//!   blocks (executing them, checking headers' post-state claims, halting on divergence).
//! - [`consensus`]: Simplex (threshold VRF) and marshal wiring over the block pipeline of
//!   `cowboy_execution::pipeline`; [`gossip`]: transactions between validators; [`engine`]:
//!   starting both once a quorum of peers is connected. All are generic over Commonware's
//!   runtime and p2p traits: `node` binds them to tokio and TCP, the deterministic simulations
//!   to the simulated network.
//! - [`node`]: a node home (config, keys, genesis) and running a validator from it.
//! - [`rpc`]: the JSON-RPC 2.0 API; [`subscriptions`]: its WebSocket subscriptions;
//!   [`rpc_server`]: the port in front of them (connection, time, size and per-client limits,
//!   WebSocket upgrades); [`fd`]: descriptors kept for storage and p2p.
//! - [`worker`]: threads that own a PVM engine.
//! - [`views`]: chain types as the RPC's JSON shapes; [`explorer`]: the block explorer the RPC
//!   port serves at `/`.
//!
//! The consensus types and codec live in `cowboy-types` and the key handling in
//! `cowboy-crypto`, re-exported here so that downstream crates depend on one name.

pub mod consensus;
pub mod core;
pub mod disk;
pub mod engine;
pub mod explorer;
pub mod fd;
pub mod gossip;
pub mod health;
pub mod node;
pub mod pool_journal;
pub mod rpc;
pub mod rpc_server;
pub mod state_sync;
pub mod subscriptions;
pub mod views;
pub mod worker;

pub use cowboy_crypto as crypto;
pub use cowboy_types as types;
