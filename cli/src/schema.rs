//! The JSON contract: for each command whose `--json` output is described, the serde type it
//! prints and that type's JSON Schema (generated with `schemars`, published in the book under
//! `reference/schemas/`, and checked against real output by the devnet tests).
//!
//! A command prints its `--json` output through the type listed here, so the schema cannot
//! drift from what is printed. The entities are the RPC's views (`cowboy_rpc`) and the trace
//! (`cowboy_types::trace`), shared by the node and the CLI.

use cowboy_rpc::{
    AccountView, EventRecord, FeesView, NonceView, QueryView, ReceiptView, TimerFiringView,
    TimerView,
};
use cowboy_types::{Hash, json::Amount, trace::TraceCall};
use schemars::{JsonSchema, Schema};
use serde::Serialize;

/// What `call`, `deploy`, `tx send`, `timer set` and `timer cancel` print: the receipt, or with
/// `--no-wait` only the transaction hash.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Sent {
    Receipt(Box<ReceiptView>),
    Hash { tx_hash: Hash },
}

/// What `tx status` prints: the receipt once the transaction is in a finalized block.
#[derive(Serialize, JsonSchema)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum TxStatus {
    Finalized { receipt: Box<ReceiptView> },
    Pending,
}

/// The only status `tx show` prints (a pending transaction is an error).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Finalized {
    Finalized,
}

/// What `tx show` prints.
#[derive(Serialize, JsonSchema)]
pub struct TxShow {
    pub status: Finalized,
    pub receipt: ReceiptView,
    /// With `--trace`: what each call did (`cowboy_getTrace`); `null` when the node recorded
    /// no trace of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Option<Vec<TraceCall>>>,
}

/// What `tx hash` prints.
#[derive(Serialize, JsonSchema)]
pub struct TxHash {
    pub hash: Hash,
}

/// What `timer show` prints.
#[derive(Serialize, JsonSchema)]
pub struct TimerShow {
    /// The timer while it is pending; `null` once it fired for the last time, expired or was
    /// cancelled.
    pub pending: Option<TimerView>,
    /// Its last firings, newest first.
    pub firings: Vec<TimerFiringView>,
}

/// One line of `balance --watch --json`: the account after a block changed it.
#[derive(Serialize, JsonSchema)]
pub struct BalanceChange {
    pub height: u64,
    pub balance: Amount,
    pub nonce: u64,
    /// The balance's change in base units, signed (`"-21000000"`); `null` on the first line.
    pub change: Option<String>,
}

/// What `sign` prints.
#[derive(Serialize, JsonSchema)]
pub struct Signed {
    /// The canonical encoding, lowercase hex without `0x` (what `tx send` takes).
    pub raw: String,
    pub hash: Hash,
    pub from: cowboy_types::Address,
}

/// What `job show` prints (and `job submit --wait` once the job finished).
#[derive(Serialize, JsonSchema)]
pub struct JobShow {
    pub job: cowboy_types::job::JobRecord,
    /// The reveals grouped by result, largest group first.
    pub votes: Vec<cowboy_runner::jobs::Vote>,
    /// With `--verify-selection`: the committee draws re-run from the record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection: Option<Selection>,
}

/// `job show --verify-selection`: whether the record's draws are the ones its snapshot, rounds
/// and beacons give.
#[derive(Serialize, JsonSchema)]
pub struct Selection {
    pub snapshot_root_matches: bool,
    pub draws: Vec<cowboy_execution::runners::selection::Replayed>,
}

/// What `job submit` prints: the submission (its block, unless `--no-wait`); with `--wait`,
/// the finished job; a failed submission's receipt.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum JobSubmitted {
    Submitted {
        job_id: Hash,
        tx_hash: Hash,
        #[serde(skip_serializing_if = "Option::is_none")]
        block: Option<u64>,
    },
    Finished(Box<JobShow>),
    Failed(Box<ReceiptView>),
}

/// What `build` prints: the artifacts written, or (exit 1) the problems that stopped it.
#[derive(Serialize, JsonSchema)]
pub struct Built {
    /// `null` when problems stopped the build (nothing was written).
    pub artifacts: Option<Vec<BuiltArtifact>>,
    pub problems: Vec<cowboy_project::build::Problem>,
    /// What an earlier PVM version would refuse (the artifact says which version it needs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<cowboy_project::build::Problem>>,
}

/// One artifact `build` wrote.
#[derive(Serialize, JsonSchema)]
pub struct BuiltArtifact {
    pub name: String,
    pub path: std::path::PathBuf,
    pub class: String,
    pub code_hash: Hash,
    pub handlers: Vec<String>,
    #[schemars(with = "Vec<String>")]
    pub entitlements: cowboy_types::entitlement::ActorEntitlements,
    /// The canonical code's size in bytes.
    pub size: usize,
    /// The earliest PVM version that accepts the code.
    pub pvm_version: u16,
}

/// One line of `job watch --json`: the job's status after a block changed it, and what changed.
#[derive(Serialize, JsonSchema)]
pub struct JobChange {
    pub height_status: cowboy_types::job::JobStatus,
    /// What happened, one line each (draws, commits, reveals, payouts).
    pub events: Vec<String>,
}

/// What `runner init` prints.
#[derive(Serialize, JsonSchema)]
pub struct RunnerInit {
    /// The runner.toml written.
    pub config: std::path::PathBuf,
    pub address: cowboy_types::Address,
    /// The keystore name (or `dev:N`) it signs with.
    pub key: String,
}

/// What `runner status` prints.
#[derive(Serialize, JsonSchema)]
pub struct RunnerStatus {
    pub address: cowboy_types::Address,
    /// The registry's record; `null` when the address is not registered.
    pub runner: Option<cowboy_rpc::RunnerView>,
    /// The runner.toml's journal, when there is one on this machine.
    pub journal: Option<cowboy_runner::journal::Summary>,
}

/// One line of `runner-sim --json`: the fleet once it is registered, then the report when the
/// run ends; with `--diff-live`, the comparison of the live fetches.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RunnerSimLine {
    Ready {
        ready: cowboy_runner_sim::sim::Ready,
    },
    Report {
        report: cowboy_runner_sim::Report,
    },
    DiffLive(cowboy_runner_sim::diff::DiffReport),
}

/// What `run` prints: what the call (or, without a method, the deploy) did; or, when the PVM
/// refused the source before running it, the problems.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Ran {
    Ran(Box<RunReport>),
    Refused(Refused),
}

/// `run` of source the PVM refused: nothing ran.
#[derive(Serialize, JsonSchema)]
pub struct Refused {
    /// Always `null`.
    pub result: (),
    pub error: RefusedError,
}

/// Why `run` ran nothing.
#[derive(Serialize, JsonSchema)]
pub struct RefusedError {
    /// Always `"Validation"`.
    pub kind: String,
    pub message: String,
    pub diagnostics: Vec<RunDiagnostic>,
}

/// One rule the source breaks.
#[derive(Serialize, JsonSchema)]
pub struct RunDiagnostic {
    pub line: usize,
    pub column: usize,
    pub rule: String,
    pub message: String,
    pub hint: String,
}

/// `run` of source that ran: the headline is the call's (the deploy's without a method, or
/// when the deploy failed).
#[derive(Serialize, JsonSchema)]
pub struct RunReport {
    /// The return value as JSON; `null` when it failed.
    pub result: serde_json::Value,
    pub cycles_used: u64,
    pub cells_used: u64,
    pub events: Vec<RunEvent>,
    /// The messages it sent, with how each delivery ended.
    pub messages: Vec<RunMessage>,
    /// The timers it set.
    pub timers: Vec<RunTimer>,
    /// What it printed.
    pub logs: Vec<String>,
    pub actor: cowboy_types::Address,
    pub deploy: Metered,
    pub error: Option<RunError>,
    /// The transaction that carried the call (or the deploy).
    pub transaction: RunTransaction,
}

/// Cycles and cells a call used.
#[derive(Serialize, JsonSchema)]
pub struct Metered {
    pub cycles_used: u64,
    pub cells_used: u64,
}

/// An event, its data decoded (hex when it is not a canonical value).
#[derive(Serialize, JsonSchema)]
pub struct RunEvent {
    pub topics: Vec<Hash>,
    pub data: serde_json::Value,
}

/// A message a call sent.
#[derive(Serialize, JsonSchema)]
pub struct RunMessage {
    pub id: Hash,
    pub to: cowboy_types::Address,
    pub method: String,
    pub args: serde_json::Value,
    pub value: Amount,
    /// How its delivery ended; absent while it was not delivered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<RunDelivery>,
    /// A failed delivery's kind and message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// How a message's delivery ended.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RunDelivery {
    Delivered,
    Deferred,
    Failed,
}

/// A timer a call set.
#[derive(Serialize, JsonSchema)]
pub struct RunTimer {
    pub id: Hash,
    pub height: u64,
    /// Blocks between firings; 0 for a one-shot timer.
    pub every: u64,
    pub handler: String,
    pub args: serde_json::Value,
    pub cycles_per_fire: u64,
    pub cells_per_fire: u64,
    pub expires_at: Option<u64>,
}

/// Why the call (or the deploy) failed.
#[derive(Serialize, JsonSchema)]
pub struct RunError {
    /// The failure kind's name (`OutOfCycles`, `Exception`, …).
    pub kind: String,
    pub message: String,
    pub phase: RunPhase,
    /// The Python traceback, with the file's lines.
    pub traceback: Option<String>,
}

/// Which call failed.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RunPhase {
    Deploy,
    Call,
}

/// The transaction `run` executed for the headline call.
#[derive(Serialize, JsonSchema)]
pub struct RunTransaction {
    pub hash: Hash,
    pub block_height: u64,
    pub cycles_used: u64,
    pub cells_used: u64,
    pub fee: Amount,
}

/// What `test` prints.
#[derive(Serialize, JsonSchema)]
pub struct TestRun {
    pub passed: usize,
    pub failed: usize,
    /// The Python tests (`tests/test_*.py`).
    pub tests: Vec<cowboy_pvm::testing::TestResult>,
    /// The TOML scenarios (`tests/*.toml`).
    pub files: Vec<cowboy_project::scenario::Report>,
    /// With `--gas-report`: cycles and cells per actor and handler.
    pub gas: Option<Vec<cowboy_project::python_tests::GasLine>>,
}

/// What `new` prints.
#[derive(Serialize, JsonSchema)]
pub struct Created {
    pub project: String,
    pub template: String,
    pub path: std::path::PathBuf,
    /// The files written, under `path`.
    pub files: Vec<std::path::PathBuf>,
}

/// What `config show` prints.
#[derive(Serialize, JsonSchema)]
pub struct ConfigShow {
    pub path: std::path::PathBuf,
    /// The profile commands use (`--profile`, `$COWBOY_PROFILE`, else the default).
    pub selected: Option<String>,
    pub default_profile: Option<String>,
    pub profiles: std::collections::BTreeMap<String, crate::config::Profile>,
}

/// What `keys export` prints: the v3 keystore file (Ethereum's format: `version`, `id`,
/// `address`, `crypto`), or with `--unsafe-private-key` the raw key.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum KeysExport<'a> {
    Keystore(serde_json::Map<String, serde_json::Value>),
    RawKey(ExportedKey<'a>),
}

/// `keys export --unsafe-private-key`.
#[derive(Serialize, JsonSchema)]
pub struct ExportedKey<'a> {
    pub name: String,
    pub address: cowboy_types::Address,
    // Borrowed from the caller's zeroizing buffer, so that no copy outlives the output.
    /// `0x` and 64 hex digits.
    pub private_key: &'a str,
}

/// One node home `node init` made.
#[derive(Serialize, JsonSchema)]
pub struct NodeHome {
    pub home: std::path::PathBuf,
    pub rpc_url: String,
    pub p2p_addr: String,
}

/// What `node init` prints.
#[derive(Serialize, JsonSchema)]
pub struct NodeInit {
    pub chain_id: u64,
    pub nodes: Vec<NodeHome>,
    pub execution_budget: crate::output::ExecutionBudget,
}

/// What `node snapshot` prints: where it went, where it was taken, and what became of the
/// state's entries.
#[derive(Serialize, JsonSchema)]
pub struct NodeSnapshot {
    pub path: std::path::PathBuf,
    pub source: cowboy_execution::snapshot::Source,
    #[serde(flatten)]
    pub counts: cowboy_execution::snapshot::Counts,
}

/// What `devnet up` prints once the devnet is ready.
#[derive(Serialize, JsonSchema)]
pub struct DevnetUp {
    pub name: String,
    pub chain_id: u64,
    /// The snapshot it started from (`--from-snapshot`).
    pub from_snapshot: Option<cowboy_execution::snapshot::Source>,
    pub execution_budget: crate::output::ExecutionBudget,
    /// Whether an existing devnet was resumed rather than created.
    pub resumed: bool,
    pub ready_ms: u64,
    pub dir: std::path::PathBuf,
    pub nodes: Vec<UpNode>,
    /// The block explorer (node-1's, when there are several; `null` with one validator).
    pub explorer_url: Option<String>,
    pub faucet: UpFaucet,
    /// The dev accounts (`--account dev:N`); keys only with `--show-private-keys`.
    pub accounts: Vec<UpAccount>,
    /// The runner fleet (`--runners`).
    pub runners: Option<UpRunners>,
    /// The profile written to config.toml.
    pub profile: String,
    /// What `--example` deployed and called.
    pub example: Option<cowboy_project::demo::Deployed>,
}

/// A validator as `devnet up` reports it.
#[derive(Serialize, JsonSchema)]
pub struct UpNode {
    pub name: String,
    pub rpc_url: String,
    pub p2p_addr: String,
    pub pid: Option<u32>,
    pub log: std::path::PathBuf,
}

/// The devnet's faucet.
#[derive(Serialize, JsonSchema)]
pub struct UpFaucet {
    pub url: String,
    pub address: cowboy_types::Address,
    pub log: std::path::PathBuf,
}

/// A dev account.
#[derive(Serialize, JsonSchema)]
pub struct UpAccount {
    /// `dev:N`.
    pub account: String,
    pub address: cowboy_types::Address,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub private_key: Option<String>,
}

/// The devnet's runner fleet.
#[derive(Serialize, JsonSchema)]
pub struct UpRunners {
    pub fleet: String,
    pub log: std::path::PathBuf,
    /// `cowboy runner-sim`'s ready document (runners, backends), once written.
    pub ready: Option<serde_json::Value>,
}

/// One row of `devnet ls`.
#[derive(Serialize, JsonSchema)]
pub struct DevnetRow {
    pub name: String,
    /// Its validators.
    pub nodes: usize,
    /// How many of them run.
    pub running: usize,
    /// node-0's RPC URL.
    pub rpc_url: String,
}

/// What `devnet stop NODE` prints.
#[derive(Serialize, JsonSchema)]
pub struct NodeStopped {
    pub node: String,
    pub was_running: bool,
}

/// What `devnet start NODE` prints: the height it caught up at.
#[derive(Serialize, JsonSchema)]
pub struct NodeStarted {
    pub node: String,
    pub height: u64,
    pub ready_ms: u64,
}

/// What `devnet down` and `devnet reset` print: the processes stopped (and, for `reset`, the
/// directory deleted).
#[derive(Serialize, JsonSchema)]
pub struct DevnetStopped {
    pub stopped: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deleted: Option<std::path::PathBuf>,
}

/// What `status` prints.
#[derive(Serialize, JsonSchema)]
pub struct Status {
    pub status: cowboy_rpc::NodeStatus,
    pub health: cowboy_rpc::Health,
}

/// A command with a described `--json` output.
pub struct Output {
    /// The command, as typed (`timer show`, `balance --watch`).
    pub command: &'static str,
    /// What the output is.
    pub what: &'static str,
    /// Whether the output is one JSON document per line (a stream) rather than one document.
    pub lines: bool,
    schema: fn() -> Schema,
}

impl Output {
    /// The JSON Schema of the output (of each line, for a stream).
    pub fn schema(&self) -> Schema {
        (self.schema)()
    }

    /// The book's file name of the schema: the command with dashes (`timer-show.json`).
    pub fn file_name(&self) -> String {
        let words: Vec<&str> = self
            .command
            .split(' ')
            .map(|w| w.trim_start_matches('-'))
            .collect();
        format!("{}.json", words.join("-"))
    }
}

macro_rules! output {
    ($command:literal, $what:literal, $lines:literal, $ty:ty) => {
        Output {
            command: $command,
            what: $what,
            lines: $lines,
            schema: || schemars::schema_for!($ty),
        }
    };
}

/// Every command whose `--json` output has a published schema.
pub const OUTPUTS: &[Output] = &[
    output!(
        "call",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "deploy",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "tx send",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "timer set",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "timer cancel",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "tx status",
        "finalized with the receipt, or pending",
        false,
        TxStatus
    ),
    output!(
        "tx show",
        "the receipt, and the trace with --trace",
        false,
        TxShow
    ),
    output!("tx hash", "the transaction hash", false, TxHash),
    output!(
        "tx decode",
        "the transaction's JSON form, with from, signature and hash",
        false,
        cowboy_types::json::TransactionJson
    ),
    output!(
        "block",
        "the block, its execution's roots and its transactions",
        false,
        cowboy_rpc::BlockView
    ),
    output!(
        "balance",
        "the account: balance, nonce, actor record",
        false,
        AccountView
    ),
    output!(
        "balance --watch",
        "the account after each change",
        true,
        BalanceChange
    ),
    output!("nonce", "the executed and pending nonces", false, NonceView),
    output!("fees", "basefees and suggested fee caps", false, FeesView),
    output!("query", "a read-only call's result", false, QueryView),
    output!("timer list", "pending timers", false, Vec<TimerView>),
    output!(
        "timer show",
        "a timer and its past firings",
        false,
        TimerShow
    ),
    output!("events", "one event per line", true, EventRecord),
    output!(
        "estimate",
        "limits from a simulation, and the simulation",
        false,
        cowboy_rpc::prepare::Estimate
    ),
    output!("status", "the node's status and health", false, Status),
    output!("new", "the project created and its files", false, Created),
    output!(
        "test",
        "each Python test and scenario, and the gas report",
        false,
        TestRun
    ),
    output!(
        "build",
        "the artifacts written, or the problems that stopped the build",
        false,
        Built
    ),
    output!(
        "job watch",
        "one line per block that changed the job",
        true,
        JobChange
    ),
    output!(
        "runner init",
        "the runner.toml written and the runner's address",
        false,
        RunnerInit
    ),
    output!(
        "runner register",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "runner update",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "runner heartbeat",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "runner stake",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "runner unstake",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "runner claim",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "runner exit",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "runner status",
        "the runner's registry record and its journal's counts",
        false,
        RunnerStatus
    ),
    output!(
        "runner-sim",
        "the fleet once ready, then the report (or the --diff-live comparison)",
        true,
        RunnerSimLine
    ),
    output!(
        "run",
        "what the call did, or the problems that refused the source",
        false,
        Ran
    ),
    output!(
        "config show",
        "the config file's profiles and the selected one",
        false,
        ConfigShow
    ),
    output!(
        "keys export",
        "the v3 keystore file, or with --unsafe-private-key the raw key",
        false,
        KeysExport
    ),
    output!(
        "node init",
        "the node homes and the execution budget",
        false,
        NodeInit
    ),
    output!(
        "node snapshot",
        "the snapshot file, its source and entry counts",
        false,
        NodeSnapshot
    ),
    output!(
        "devnet up",
        "the devnet: nodes, faucet, dev accounts, runners, the example deployed",
        false,
        DevnetUp
    ),
    output!(
        "devnet status",
        "each node's height, root and peers; whether roots agree; faucet and runners",
        false,
        cowboy_devnet::Status
    ),
    output!(
        "devnet ls",
        "the devnets and how many nodes run",
        false,
        Vec<DevnetRow>
    ),
    output!(
        "devnet stop",
        "the node and whether it was running",
        false,
        NodeStopped
    ),
    output!(
        "devnet start",
        "the node and the height it caught up at",
        false,
        NodeStarted
    ),
    output!("devnet down", "the processes stopped", false, DevnetStopped),
    output!(
        "devnet reset",
        "the processes stopped and the directory deleted",
        false,
        DevnetStopped
    ),
    output!(
        "devnet snapshot save",
        "the snapshot: file, source height and root, entry counts",
        false,
        cowboy_devnet::snapshot::Saved
    ),
    output!(
        "devnet snapshot ls",
        "the saved snapshots and where each was taken",
        false,
        Vec<cowboy_devnet::snapshot::Listed>
    ),
    output!(
        "job submit",
        "the job id and transaction; with --wait, the finished job",
        false,
        JobSubmitted
    ),
    output!(
        "job show",
        "the job's record, its votes, and with --verify-selection the re-run draws",
        false,
        JobShow
    ),
    output!(
        "job list",
        "a page of job records",
        false,
        cowboy_rpc::JobsPage
    ),
    output!(
        "job estimate",
        "committee, eligible runners, price and escrow",
        false,
        cowboy_types::job::Estimate
    ),
    output!(
        "job challenge",
        "the receipt (or, with --no-wait, the hash)",
        false,
        Sent
    ),
    output!(
        "faucet",
        "the drip: amount and transaction",
        false,
        cowboy_faucet::Drip
    ),
    output!(
        "faucet info",
        "the faucet's account, balance and limits",
        false,
        cowboy_faucet::FaucetInfo
    ),
    output!("sign", "the signed transaction", false, Signed),
    output!(
        "keys new",
        "the key's name and address",
        false,
        cowboy_keystore::KeyEntry
    ),
    output!(
        "keys import",
        "the key's name and address",
        false,
        cowboy_keystore::KeyEntry
    ),
    output!(
        "keys show",
        "the key's name and address",
        false,
        cowboy_keystore::KeyEntry
    ),
    output!(
        "keys list",
        "every key's name and address",
        false,
        Vec<cowboy_keystore::KeyEntry>
    ),
    output!(
        "keys delete",
        "the deleted key's name and address",
        false,
        cowboy_keystore::KeyEntry
    ),
];

/// The described output of `command` (words as typed, e.g. `["timer", "show"]`).
pub fn output(command: &str) -> Option<&'static Output> {
    OUTPUTS.iter().find(|o| o.command == command)
}
