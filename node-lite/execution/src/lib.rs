//! Cowboy's state transition function: a block of transactions turns one state into the next
//! exactly as the whitepaper says.
//!
//! - [`genesis`]: the genesis file and the state it creates.
//! - [`params`]: every governance parameter, its genesis default and its place in state.
//! - [`tx`]: transaction validity, the canonical in-block order and fee-based selection.
//! - [`fees`]: the fee, refund, basefee and inflation formulas.
//! - [`exec`]: running messages (transactions, nested sends, timer firings, deferred
//!   deliveries) on the PVM with per-handler atomicity.
//! - [`pipeline`]: the block pipeline validators run: proposing, verifying a proposal and its
//!   post-state claim, executing a finalized block.
//! - [`local`]: a chain in one process for `cowboy run` and `cowboy test`, on the same path.
//! - [`runners`]: the runner market on chain (selection, …).
//! - [`block`]: the phases of a block (deferred deliveries, transactions, timers, bookkeeping),
//!   and [`Chain`], which selects, executes and commits blocks on a [`cowboy_state::Store`].

pub mod audit;
pub mod block;
mod chain;
mod deferred;
pub mod entitlements;
mod error;
pub mod exec;
pub mod fees;
pub mod genesis;
pub use cowboy_types::intrinsic;
pub mod lanes;
pub mod local;
pub mod params;
pub mod pipeline;
pub mod query;
pub mod roots;
pub mod runners;
pub mod snapshot;
mod timers;
pub mod tx;
pub mod world;

pub use block::{BlockStats, Executed, Outcome, Proposal};
pub use chain::{Chain, Terms};
pub use error::{BlockError, ExecError, GenesisError, TxError};
pub use exec::{CallFailure, CallTrace, Tracing};
pub use genesis::{Allocation, Genesis, GenesisValidator};
pub use params::Parameters;
pub use query::{Query, QueryResult, Simulation};
pub use tx::{MAX_EXECUTION_LAG, VerifiedTx, verify, verify_all};
