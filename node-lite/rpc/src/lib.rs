//! Cowboy's JSON-RPC 2.0 interface, shared by the node (server) and the CLI (client).
//!
//! Every method lives in the `cowboy_` namespace. The [`CowboyApi`] trait generates both the
//! server trait the node implements and a typed client (`CowboyApiClient`) over HTTP, so the
//! two cannot drift. Amounts are decimal strings of base units (1 CBY = 10^9), hashes and
//! addresses `0x`-hex, byte strings `0x`-hex.
//!
//! Clients never poll in a loop: [`CowboyApiClient::wait_for_block`] and
//! [`CowboyApiClient::wait_for_receipt`] are long polls that return as soon as the block or
//! receipt exists (or `null` after the timeout).

use cowboy_types::{
    Address, Hash,
    json::{Amount, HexBytes},
};
use jsonrpsee::{core::RpcResult, proc_macros::rpc};
use serde::{Deserialize, Serialize};

pub use jsonrpsee;

pub mod prepare;
pub mod pubsub;
pub use prepare::{
    Estimate, PrepareError, Prepared, TxOptions, default_limits, estimate, failure_reason,
    receipt_within, send, send_and_wait, signed_transaction, simulate_and_sign,
    simulate_and_sign_at, unsigned_transaction,
};
pub use pubsub::{CowboyPubSubClient, CowboyPubSubServer, EventsSubscription, ws_client};

/// Longest a long poll may wait, in milliseconds.
pub const MAX_WAIT_MS: u64 = 60_000;
/// Largest request body the server accepts, in bytes (a maximal transaction is 128 KiB,
/// hex-encoded twice that, plus the envelope).
pub const MAX_REQUEST_BYTES: u32 = 1024 * 1024;

/// Error codes beyond JSON-RPC's standard ones.
pub mod code {
    /// The transaction breaks a validity rule (the message names it; `data.rule` too).
    pub const INVALID_TRANSACTION: i32 = -32010;
    /// The pool refused the transaction (nonce, fee, balance, replacement, capacity); the
    /// message says why, and `data.rule` names the rule, one of [`pool_rule`].
    pub const POOL_REFUSED: i32 = -32011;
    /// The request names something that does not exist (an actor, a block).
    pub const NOT_FOUND: i32 = -32012;
    /// The node cannot answer right now (starting, halted after a divergence).
    pub const UNAVAILABLE: i32 = -32013;

    /// The rules a [`POOL_REFUSED`] error names in `data.rule`.
    pub mod pool_rule {
        /// The same transaction is already pending.
        pub const ALREADY_KNOWN: &str = "already_known";
        /// The nonce was already used.
        pub const NONCE_TOO_LOW: &str = "nonce_too_low";
        /// The nonce leaves too large a gap after the sender's next one.
        pub const NONCE_TOO_HIGH: &str = "nonce_too_high";
        /// A fee cap is below the lane's basefee.
        pub const BASEFEE: &str = "basefee";
        /// The balance cannot cover this and the sender's earlier pending transactions.
        pub const BALANCE: &str = "balance";
        /// Another transaction with this nonce is pending, and this one does not raise its
        /// fees enough to replace it.
        pub const REPLACEMENT_UNDERPRICED: &str = "replacement_underpriced";
        /// The sender has as many pending transactions as the pool holds for one sender.
        pub const SENDER_FULL: &str = "sender_full";
        /// The pool is full of transactions paying more.
        pub const POOL_FULL: &str = "pool_full";
    }
}

/// A block by height, by hash, or the newest executed one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BlockId {
    Height(u64),
    Hash(Hash),
    Tag(BlockTag),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BlockTag {
    /// The newest finalized and executed block.
    Latest,
}

/// What a node is doing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct NodeStatus {
    pub chain_id: u64,
    pub genesis_hash: Hash,
    /// Newest finalized block this node has executed (its state is at this height).
    pub height: u64,
    /// Newest height consensus has finalized (it may not be executed yet).
    pub finalized_height: u64,
    pub state_root: Hash,
    /// Hash of block `height`.
    pub head_hash: Hash,
    /// Connected consensus peers.
    pub peers: usize,
    /// Pending transactions in the pool.
    pub pool: usize,
    /// True when the node stopped applying blocks (see `halt`).
    pub halted: bool,
    /// Why it halted.
    #[serde(default)]
    pub halt: Option<HaltView>,
    /// Finalized blocks this node has not executed yet.
    #[serde(default)]
    pub execution_lag: u64,
    /// Execution trails finalization by more than 2 blocks (the node proposes empty blocks).
    #[serde(default)]
    pub catching_up: bool,
    /// Nothing was finalized for 10 block times.
    #[serde(default)]
    pub stalled: bool,
    /// Milliseconds since the finalized height last grew (as this node saw it).
    #[serde(default)]
    pub last_finalized_ms_ago: u64,
    /// Free space on the data directory.
    #[serde(default)]
    pub disk: DiskView,
    pub version: String,
}

/// Why a node halted: `divergence` (its execution disagreed with a finalized header),
/// `panic` (its execution engine panicked), `storage` (its storage failed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HaltView {
    pub kind: String,
    pub message: String,
}

/// The data directory's free space against the node's floor.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DiskView {
    pub free_bytes: u64,
    pub min_free_bytes: u64,
    /// Below the floor: the node takes no transactions and commits no blocks until twice the
    /// floor is free.
    pub paused: bool,
}

/// Readiness: a node is ready once it has executed a block finalized after it started, is not
/// halted, not paused for disk space, not stalled and not catching up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Health {
    pub ready: bool,
    pub height: u64,
    #[serde(default)]
    pub finalized_height: u64,
    #[serde(default)]
    pub execution_lag: u64,
    pub halted: bool,
    #[serde(default)]
    pub halt: Option<HaltView>,
    #[serde(default)]
    pub stalled: bool,
    #[serde(default)]
    pub catching_up: bool,
    #[serde(default)]
    pub disk_paused: bool,
    /// Why it is not ready, if it is not.
    pub reason: Option<String>,
}

/// A block and what its execution produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BlockView {
    pub hash: Hash,
    pub height: u64,
    pub parent: Hash,
    pub epoch: u64,
    pub view: u64,
    pub timestamp_ms: u64,
    pub proposer: Address,
    /// The parent beacon (round and BLS signature) the block executed with.
    pub beacon_round: u64,
    pub beacon: HexBytes,
    pub tx_root: Hash,
    /// What the header commits to: the post-state of block `state_height`.
    pub state_height: u64,
    pub state_root: Hash,
    pub receipts_root: Hash,
    /// This block's own execution: its post-state root and receipts root.
    pub executed_state_root: Hash,
    pub executed_receipts_root: Hash,
    pub cycle_basefee: u64,
    pub cell_basefee: u64,
    pub transactions: Vec<Hash>,
    /// The full transactions (in `cowboy tx decode`'s JSON form), if asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<cowboy_types::json::TransactionJson>>")]
    pub full_transactions: Option<Vec<serde_json::Value>>,
}

/// A transaction and where it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TxView {
    pub hash: Hash,
    /// The transaction in `cowboy tx decode`'s JSON form.
    pub transaction: serde_json::Value,
    /// `null` while it is pending in the pool.
    pub block_height: Option<u64>,
    pub index: Option<u32>,
    pub pending: bool,
}

/// An event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EventView {
    pub emitter: Address,
    pub topics: Vec<Hash>,
    pub data: HexBytes,
}

/// How a transaction or read-only call ended (`success` or `failed` in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReceiptStatus {
    /// Every effect committed.
    Success,
    /// Execution failed; every effect but the fee was reverted.
    Failed,
}

impl ReceiptStatus {
    /// The JSON name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Success => "success",
            Self::Failed => "failed",
        }
    }
}

impl std::fmt::Display for ReceiptStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What became of one message (`delivered`, `failed` or `deferred` in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeliveryOutcome {
    /// The handler ran and its effects committed.
    Delivered,
    /// The handler failed; its effects reverted and the value went back.
    Failed,
    /// Waiting in the recipient's mailbox for a later block.
    Deferred,
}

impl DeliveryOutcome {
    /// The JSON name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Delivered => "delivered",
            Self::Failed => "failed",
            Self::Deferred => "deferred",
        }
    }
}

impl std::fmt::Display for DeliveryOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What became of one message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DeliveryView {
    pub id: Hash,
    pub to: Address,
    pub outcome: DeliveryOutcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A receipt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReceiptView {
    pub tx_hash: Hash,
    pub block_height: u64,
    pub block_hash: Hash,
    pub status: ReceiptStatus,
    /// The failure's kind name (`OutOfCycles`, `Exception`, `Skipped`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_code: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub cycles_used: u64,
    pub cells_used: u64,
    pub fee: Amount,
    pub return_data: HexBytes,
    /// The return value decoded as JSON, when it is a canonical value.
    pub return_value: Option<serde_json::Value>,
    pub events: Vec<EventView>,
    pub created: Option<Address>,
    pub deliveries: Vec<DeliveryView>,
}

impl EventView {
    /// The view of event `e`.
    pub fn of(e: &cowboy_types::Event) -> Self {
        Self {
            emitter: e.emitter,
            topics: e.topics.clone(),
            data: HexBytes(e.data.clone()),
        }
    }
}

impl ReceiptView {
    /// The view of receipt `r` of the block at `block_height` with hash `block_hash`;
    /// `return_value` is its return data decoded as JSON, when it is a canonical value.
    pub fn of(
        r: &cowboy_types::Receipt,
        block_height: u64,
        block_hash: Hash,
        return_value: Option<serde_json::Value>,
    ) -> Self {
        use cowboy_types::{Status, receipt::Outcome};
        let failure_name = cowboy_types::FailureKind::name_of;
        let (status, failure, failure_code, error) = match &r.status {
            Status::Success => (ReceiptStatus::Success, None, None, None),
            Status::Failed { kind, message } => (
                ReceiptStatus::Failed,
                Some(failure_name(*kind).to_string()),
                Some(*kind),
                Some(message.clone()),
            ),
        };
        Self {
            tx_hash: r.tx_hash,
            block_height,
            block_hash,
            status,
            failure,
            failure_code,
            error,
            cycles_used: r.cycles_used,
            cells_used: r.cells_used,
            fee: Amount(r.fee),
            return_data: HexBytes(r.return_data.clone()),
            return_value,
            events: r.events.iter().map(EventView::of).collect(),
            created: r.created,
            deliveries: r
                .deliveries
                .iter()
                .map(|d| {
                    let (outcome, error) = match &d.outcome {
                        Outcome::Delivered => (DeliveryOutcome::Delivered, None),
                        Outcome::Deferred => (DeliveryOutcome::Deferred, None),
                        Outcome::Failed { kind, message } => (
                            DeliveryOutcome::Failed,
                            Some(format!("{}: {message}", failure_name(*kind))),
                        ),
                    };
                    DeliveryView {
                        id: d.id,
                        to: d.to,
                        outcome,
                        error,
                    }
                })
                .collect(),
        }
    }
}

/// Nonces of an address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct NonceView {
    /// Its nonce in the latest executed state.
    pub latest: u64,
    /// The nonce its next transaction should use, counting its pending ones.
    pub pending: u64,
}

/// An account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AccountView {
    pub address: Address,
    pub height: u64,
    pub balance: Amount,
    pub nonce: u64,
    pub actor: Option<ActorView>,
}

/// A registered runner (the Runner Registry's record, with what the chain derives from it at
/// the state's height).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RunnerView {
    pub address: Address,
    /// The height the view describes.
    pub height: u64,
    /// Reputation at `height` (penalties recover lazily; `record.reputation` is the stored
    /// score).
    pub reputation: u64,
    /// Heartbeat recent enough to be selected (CIP-2 §4).
    pub healthy: bool,
    /// The TEE Verifier's record of its attestation (`kind` `"simulated"` on devnets), if it
    /// presented one; it qualifies for `tee_required` jobs until `expires_at`.
    #[serde(default)]
    pub attestation: Option<cowboy_types::tee::Attested>,
    pub record: cowboy_types::runner::Runner,
}

/// A page of runners, in address order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunnersPage {
    pub runners: Vec<RunnerView>,
    /// Pass as `after` for the next page; `null` on the last page.
    pub next: Option<Address>,
}

/// Most runners one `cowboy_getRunners` page holds.
pub const RUNNERS_PAGE: usize = 256;

/// Which jobs `cowboy_getJobs` returns: all of these that are given must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobFilter {
    #[serde(default)]
    pub submitter: Option<Address>,
    /// A runner on any of the job's committees.
    #[serde(default)]
    pub runner: Option<Address>,
    #[serde(default)]
    pub status: Option<cowboy_types::job::JobStatus>,
    /// Continue after this job id (the previous page's `next`).
    #[serde(default)]
    pub after: Option<Hash>,
}

/// A page of jobs in id order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct JobsPage {
    pub jobs: Vec<cowboy_types::job::JobRecord>,
    /// Pass as `after` to continue; `null` when every job was looked at.
    pub next: Option<Hash>,
}

/// Events one `cowboy_getEvents` page holds unless it asks for fewer, and the most it may ask.
pub const EVENTS_PAGE: usize = 100;
pub const MAX_EVENTS_PAGE: usize = 1_000;
/// Most index entries one `cowboy_getEvents` call looks at: a filter that matches rarely
/// returns a short (even empty) page with a cursor instead of scanning on.
pub const EVENTS_SCAN: usize = 100_000;
/// Widest block range `cowboy_getEvents` takes without an emitter or first topic (which
/// index the events) and with one.
pub const MAX_EVENT_RANGE: u64 = 10_000;
pub const MAX_FILTERED_EVENT_RANGE: u64 = 1_000_000;

/// Which events `cowboy_getEvents` returns: blocks `from_height ..= to_height` (default: the
/// latest executed block), emitted by `emitter`, whose topic `i` is `topics[i]` where that is
/// not `null`; `limit` at most (default [`EVENTS_PAGE`]), continuing from `cursor`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventsRequest {
    pub from_height: u64,
    #[serde(default)]
    pub to_height: Option<u64>,
    #[serde(default)]
    pub emitter: Option<Address>,
    #[serde(default)]
    pub topics: Vec<Option<Hash>>,
    #[serde(default)]
    pub limit: Option<usize>,
    /// The previous page's `next_cursor`.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One event, where it is, and its data decoded when it is a canonical value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EventRecord {
    pub block_height: u64,
    /// Its receipt's place in the block's execution order, and its place among the
    /// receipt's events.
    pub receipt_index: u32,
    pub event_index: u32,
    /// The transaction (or timer firing, or deferred delivery) that emitted it.
    pub tx_hash: Hash,
    pub emitter: Address,
    pub topics: Vec<Hash>,
    pub data: HexBytes,
    #[serde(default)]
    pub value: Option<serde_json::Value>,
}

/// A page of events in chain order; `next_cursor` continues it (`null`: the range is done).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventsPage {
    pub events: Vec<EventRecord>,
    /// The last block the range covers (the request's `to_height`, or the latest executed
    /// block when it gave none).
    pub to_height: u64,
    pub next_cursor: Option<String>,
}

/// Most jobs one `cowboy_getJobs` page returns, and most it looks at.
pub const JOBS_PAGE: usize = 100;
pub const JOBS_SCAN: usize = 10_000;

/// What a runner must do now for one job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DutyView {
    pub job_id: Hash,
    /// `commit` or `reveal`.
    pub duty: String,
    /// The last height the step is taken at.
    pub deadline: u64,
}

/// A runner's duties at a height (the answer to its long poll).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assignments {
    pub height: u64,
    pub duties: Vec<DutyView>,
}

/// An actor's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ActorView {
    pub code_hash: Hash,
    /// The PVM version whose rules validated the code at deploy.
    pub pvm_version: u16,
    pub storage_used: u64,
    pub storage_quota: u64,
    pub storage_bond: Amount,
    pub pending_timers: u64,
    /// What the actor declared at deployment (whitepaper §15), e.g. `["http.fetch"]`.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub entitlements: cowboy_types::entitlement::ActorEntitlements,
}

/// One Entitlement Registry record an address holds, with whether it can be used now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntitlementView {
    pub id: Hash,
    /// Within its window, not used up, and every record up its delegation chain too.
    pub usable: bool,
    pub record: cowboy_types::entitlement::Entitlement,
}

/// A role assigned to an address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoleView {
    pub id: Hash,
    pub role: cowboy_types::entitlement::Role,
}

/// What an address may do: its Entitlement Registry records (at most 256), its roles (at
/// most 64), and, for an actor, what it declared at deployment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntitlementsView {
    pub address: Address,
    pub height: u64,
    pub entitlements: Vec<EntitlementView>,
    pub roles: Vec<RoleView>,
    pub declared: Option<cowboy_types::entitlement::ActorEntitlements>,
}

/// A state proof: the value under `key` (or its absence) at `height`, provable against
/// `state_root`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofView {
    pub height: u64,
    pub state_root: Hash,
    pub key: HexBytes,
    pub value: Option<HexBytes>,
    /// The Jellyfish Merkle proof, borsh-encoded.
    pub proof: HexBytes,
}

/// A read-only call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueryRequest {
    pub to: Address,
    pub method: String,
    /// Arguments as a JSON array of canonical values.
    #[serde(default)]
    pub args: Vec<serde_json::Value>,
    /// The caller the handler sees; the zero address if absent.
    #[serde(default)]
    pub from: Option<Address>,
    #[serde(default)]
    pub cycles_limit: Option<u64>,
    #[serde(default)]
    pub cells_limit: Option<u64>,
}

/// What a read-only call returned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct QueryView {
    pub height: u64,
    pub status: ReceiptStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub return_data: HexBytes,
    pub return_value: Option<serde_json::Value>,
    pub events: Vec<EventView>,
    pub cycles_used: u64,
    pub cells_used: u64,
}

/// What a transaction would do if the next block executed it (`cowboy_simulate`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SimulationView {
    /// The height of the state it ran on; its receipt's `block_height` is the next one.
    pub height: u64,
    pub receipt: ReceiptView,
    /// The sender's balance and next nonce at `height`.
    pub balance: Amount,
    pub nonce: u64,
    /// The most the transaction may take: its limits at its fee caps plus its value.
    pub required: Amount,
    /// Whether the balance covers `required` (the simulation ran as if it did).
    pub affordable: bool,
}

/// Current fees and a suggestion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FeesView {
    pub height: u64,
    /// Global basefees (per cycle, per cell).
    pub cycle_basefee: u64,
    pub cell_basefee: u64,
    /// The user lane's basefees (global × multiplier).
    pub user_cycle_basefee: u64,
    pub user_cell_basefee: u64,
    /// Suggested caps: twice the user lane basefee, so a transaction survives six blocks of
    /// maximal increases.
    pub suggested_max_fee_per_cycle: u64,
    pub suggested_max_fee_per_cell: u64,
    /// Suggested tip per cycle.
    pub suggested_priority_fee_per_cycle: u64,
    /// The most cycles one transaction may reserve (the user lane's budget).
    pub max_cycles_per_tx: u64,
    /// The most cells one transaction may reserve (the block's cell cap).
    pub max_cells_per_tx: u64,
}

/// A pending timer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TimerView {
    pub id: Hash,
    pub actor: Address,
    pub creator: Address,
    /// Who pays each firing (the creator, for timers set by transaction or by an actor).
    pub fee_payer: Address,
    /// The next firing height.
    pub height: u64,
    pub handler: String,
    pub every_blocks: Option<u64>,
    pub cycles_per_fire: u64,
    pub cells_per_fire: u64,
}

/// One past firing of a timer: its height and receipt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TimerFiringView {
    pub height: u64,
    pub receipt: ReceiptView,
}

/// Most firings one `cowboy_getTimerFirings` call returns.
/// (Each firing's receipt names its block, which costs the node a block read.)
pub const TIMER_FIRINGS_PAGE: usize = 25;

/// An actor's code: the canonical Python source its code hash names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeView {
    pub address: Address,
    pub code_hash: Hash,
    pub source: String,
}

/// Which storage entries `cowboy_getStorage` returns: `address`'s, in key order, after key
/// `after` (the previous page's `next`), at most `limit` (default [`STORAGE_PAGE`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorageRequest {
    pub address: Address,
    #[serde(default)]
    pub after: Option<HexBytes>,
    #[serde(default)]
    pub limit: Option<usize>,
}

/// Entries one `cowboy_getStorage` page holds unless it asks for fewer, and the most it may.
pub const STORAGE_PAGE: usize = 100;
pub const MAX_STORAGE_PAGE: usize = 1_000;

/// One storage entry; `key_text` when the key is UTF-8 text, `value_json` when the value is
/// a canonical value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StorageEntry {
    pub key: HexBytes,
    #[serde(default)]
    pub key_text: Option<String>,
    pub value: HexBytes,
    #[serde(default)]
    pub value_json: Option<serde_json::Value>,
}

/// A page of an actor's storage at `height`; `next` continues it (`null`: the last page).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoragePage {
    pub height: u64,
    pub entries: Vec<StorageEntry>,
    pub next: Option<HexBytes>,
}

/// Most timers one `cowboy_getTimerQueue` call returns.
pub const TIMER_QUEUE_PAGE: usize = 1_000;

/// A validator of the current set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidatorView {
    pub address: Address,
    pub stake: Amount,
    pub public_key: HexBytes,
}

/// A finalized, executed block, as the long poll reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockSummary {
    pub height: u64,
    pub hash: Hash,
    pub state_root: Hash,
    pub transactions: usize,
    pub timestamp_ms: u64,
}

/// The node's methods.
#[rpc(server, client, namespace = "cowboy")]
pub trait CowboyApi {
    #[method(name = "chainId")]
    async fn chain_id(&self) -> RpcResult<u64>;

    #[method(name = "status")]
    async fn status(&self) -> RpcResult<NodeStatus>;

    #[method(name = "health")]
    async fn health(&self) -> RpcResult<Health>;

    #[method(name = "getBlock")]
    async fn block(&self, id: BlockId, full: Option<bool>) -> RpcResult<Option<BlockView>>;

    #[method(name = "getTransaction")]
    async fn transaction(&self, hash: Hash) -> RpcResult<Option<TxView>>;

    #[method(name = "getReceipt")]
    async fn receipt(&self, hash: Hash) -> RpcResult<Option<ReceiptView>>;

    /// What each call of a transaction's (or timer firing's) execution did, as this node
    /// recorded it when it executed the block: handler, caller, value, cycles and cells,
    /// events, logs, messages sent, and the failure with its traceback. `null` when the node
    /// has no trace of it (unknown, a transfer that ran no code, or executed before the node
    /// recorded traces). Developer data, not consensus data.
    #[method(name = "getTrace")]
    async fn trace(&self, hash: Hash) -> RpcResult<Option<Vec<cowboy_types::trace::TraceCall>>>;

    /// Events of executed blocks, by range, emitter and topics, a page at a time (see
    /// [`EventsRequest`]). A range wider than [`MAX_EVENT_RANGE`] blocks (or
    /// [`MAX_FILTERED_EVENT_RANGE`] with an emitter or first topic) is refused (`-32602`).
    #[method(name = "getEvents")]
    async fn events(&self, request: EventsRequest) -> RpcResult<EventsPage>;

    #[method(name = "getBalance")]
    async fn balance(&self, address: Address) -> RpcResult<Amount>;

    #[method(name = "getNonce")]
    async fn nonce(&self, address: Address) -> RpcResult<NonceView>;

    #[method(name = "getAccount")]
    async fn account(&self, address: Address) -> RpcResult<AccountView>;

    /// A proof for an account (`storage_key` absent) or one key of an actor's storage.
    #[method(name = "getProof")]
    async fn proof(&self, address: Address, storage_key: Option<HexBytes>) -> RpcResult<ProofView>;

    /// Admits a signed transaction (canonical encoding, hex) and gossips it; returns its hash.
    #[method(name = "sendRawTransaction")]
    async fn send_raw_transaction(&self, raw: HexBytes) -> RpcResult<Hash>;

    #[method(name = "query")]
    async fn query(&self, request: QueryRequest) -> RpcResult<QueryView>;

    /// Executes a transaction (canonical encoding, hex; signed or not) on the latest state as
    /// the next block would, and throws its effects away: its receipt, and whether the sender
    /// can pay for it. The signature and the nonce are not checked; every other rule is.
    #[method(name = "simulate")]
    async fn simulate(&self, raw: HexBytes) -> RpcResult<SimulationView>;

    #[method(name = "fees")]
    async fn fees(&self) -> RpcResult<FeesView>;

    #[method(name = "getTimers")]
    async fn timers(&self, address: Address) -> RpcResult<Vec<TimerView>>;

    /// The pending timer `id` (`null` once it fired for the last time, expired or was
    /// cancelled, or if it never existed).
    #[method(name = "getTimer")]
    async fn timer(&self, id: Hash) -> RpcResult<Option<TimerView>>;

    /// Timer `id`'s last `limit` (default and at most [`TIMER_FIRINGS_PAGE`]) firings this
    /// node executed, newest first, each with its receipt.
    #[method(name = "getTimerFirings")]
    async fn timer_firings(
        &self,
        id: Hash,
        limit: Option<usize>,
    ) -> RpcResult<Vec<TimerFiringView>>;

    /// The first `limit` (default and at most [`TIMER_QUEUE_PAGE`]) pending timers of every
    /// actor, in firing order.
    #[method(name = "getTimerQueue")]
    async fn timer_queue(&self, limit: Option<usize>) -> RpcResult<Vec<TimerView>>;

    /// An actor's source code (`null` for an address without code).
    #[method(name = "getCode")]
    async fn code(&self, address: Address) -> RpcResult<Option<CodeView>>;

    /// A page of an actor's storage, in key order.
    #[method(name = "getStorage")]
    async fn storage(&self, request: StorageRequest) -> RpcResult<StoragePage>;

    /// The current validator set.
    #[method(name = "getValidators")]
    async fn validators(&self) -> RpcResult<Vec<ValidatorView>>;

    /// The registered runner at `address`, or `null`.
    #[method(name = "getRunner")]
    async fn runner(&self, address: Address) -> RpcResult<Option<RunnerView>>;

    /// The job `id` as the Job Dispatcher records it (spec, status, committee size and
    /// threshold, the candidate snapshot with its root and stakes, every draw with its round,
    /// beacon, seed, committee and aggregator, the excluded runners), or `null`.
    #[method(name = "getJob")]
    async fn job(&self, id: Hash) -> RpcResult<Option<cowboy_types::job::JobRecord>>;

    /// Jobs matching `filter`, in id order: at most [`JOBS_PAGE`] of them, looking at most at
    /// [`JOBS_SCAN`] jobs; `next` continues.
    #[method(name = "getJobs")]
    async fn jobs(&self, filter: JobFilter) -> RpcResult<JobsPage>;

    /// A runner's long poll: as soon as a block above `after` is executed, what `runner` must
    /// do (commit or reveal, with the last height for it); `null` after `timeout_ms` (at most
    /// [`MAX_WAIT_MS`]). No client sleeps: pass the returned height as the next `after`.
    #[method(name = "waitForAssignment")]
    async fn wait_for_assignment(
        &self,
        runner: Address,
        after: u64,
        timeout_ms: Option<u64>,
    ) -> RpcResult<Option<Assignments>>;

    /// The entitlements `address` holds (CIP-2 §7): the registry's records and roles, and
    /// what an actor declared at deployment.
    #[method(name = "getEntitlements")]
    async fn entitlements(&self, address: Address) -> RpcResult<EntitlementsView>;

    /// Registered runners in address order, [`RUNNERS_PAGE`] at a time, starting after
    /// `after`.
    #[method(name = "getRunners")]
    async fn runners(&self, after: Option<Address>) -> RpcResult<RunnersPage>;

    /// The governance parameters in force at the latest executed block (their JSON form, as
    /// in a genesis file's `parameters`).
    #[method(name = "getParameters")]
    async fn parameters(&self) -> RpcResult<serde_json::Value>;

    /// What a job with `spec` would get if submitted now: its committee size and threshold,
    /// the runners passing every candidate filter with each one's price for the job's
    /// expected usage, how many each filter turned away, the price and the escrow. An invalid
    /// spec is refused (`-32602`) with the reason.
    #[method(name = "estimateJob")]
    async fn estimate_job(
        &self,
        spec: cowboy_types::job::JobSpec,
    ) -> RpcResult<cowboy_types::job::Estimate>;

    /// Returns the first executed block above `after` as soon as there is one, or `null` after
    /// `timeout_ms` (at most [`MAX_WAIT_MS`]).
    #[method(name = "waitForBlock")]
    async fn wait_for_block(
        &self,
        after: u64,
        timeout_ms: Option<u64>,
    ) -> RpcResult<Option<BlockSummary>>;

    /// Returns the receipt of `hash` as soon as its block is executed, or `null` after
    /// `timeout_ms` (at most [`MAX_WAIT_MS`]).
    #[method(name = "waitForReceipt")]
    async fn wait_for_receipt(
        &self,
        hash: Hash,
        timeout_ms: Option<u64>,
    ) -> RpcResult<Option<ReceiptView>>;
}

/// An HTTP client for `url`.
pub fn client(
    url: &str,
) -> Result<jsonrpsee::http_client::HttpClient, jsonrpsee::core::ClientError> {
    jsonrpsee::http_client::HttpClientBuilder::default()
        .request_timeout(std::time::Duration::from_millis(MAX_WAIT_MS + 10_000))
        .max_request_size(MAX_REQUEST_BYTES)
        .build(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_ids_parse_from_height_hash_or_tag() {
        assert_eq!(
            serde_json::from_str::<BlockId>("7").expect("height"),
            BlockId::Height(7)
        );
        assert_eq!(
            serde_json::from_str::<BlockId>("\"latest\"").expect("tag"),
            BlockId::Tag(BlockTag::Latest)
        );
        let h = format!("\"0x{}\"", "ab".repeat(32));
        assert!(matches!(
            serde_json::from_str::<BlockId>(&h).expect("hash"),
            BlockId::Hash(_)
        ));
    }
}
