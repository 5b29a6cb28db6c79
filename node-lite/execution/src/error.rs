//! Errors: why a transaction is invalid, why a block is rejected, why a genesis file is refused,
//! and why execution itself could not proceed.

use cowboy_types::{Address, Hash};

/// Why a transaction cannot enter a block (whitepaper §2.2). Invalid transactions never
/// execute and pay nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TxError {
    #[error("transaction is {size} bytes, above max_tx_size ({max} bytes)")]
    TooLarge { size: usize, max: u64 },
    #[error("transaction is for chain {got}, this chain is {expected}")]
    WrongChain { expected: u64, got: u64 },
    #[error("{0}")]
    Signature(#[from] cowboy_crypto::VerifyError),
    #[error(
        "{what}_limit {limit} is below the intrinsic cost of this instruction ({needed} {what}, whitepaper §17.2)"
    )]
    BelowIntrinsic {
        what: &'static str,
        limit: u64,
        needed: u64,
    },
    #[error(
        "{what}_limit {limit} is above the maximum a block can hold for one transaction ({max})"
    )]
    AboveMaximum {
        what: &'static str,
        limit: u64,
        max: u64,
    },
    #[error(
        "max_priority_fee_per_{what} {tip} is above max_fee_per_{what} {cap}: the tip is paid out of the fee cap, so it can be at most the cap (lower the tip or raise the cap)"
    )]
    TipAboveMaxFee {
        what: &'static str,
        tip: u64,
        cap: u64,
    },
    #[error("nonce {got} is not the sender's next nonce {expected}")]
    Nonce { expected: u64, got: u64 },
    #[error("max_fee_per_{what} {offered} is below the lane basefee {basefee}")]
    FeeBelowBasefee {
        what: &'static str,
        offered: u64,
        basefee: u64,
    },
    #[error(
        "balance {balance} cannot cover the worst-case fee plus value ({needed} base units: limits at max_fee rates, plus the value sent)"
    )]
    InsufficientBalance { balance: u64, needed: u128 },
    #[error(
        "limits ({cycles} cycles, {cells} cells) no longer fit the transaction's lane ({cycles_left} cycles, {cells_left} cells left)"
    )]
    LaneFull {
        cycles: u64,
        cells: u64,
        cycles_left: u64,
        cells_left: u64,
    },
}

/// Why a block is rejected. A rejected block changes nothing.
#[derive(Debug, thiserror::Error)]
pub enum BlockError {
    #[error("transaction {index} ({hash}) is invalid: {error}")]
    InvalidTransaction {
        index: usize,
        hash: Hash,
        error: TxError,
    },
    #[error("block height {got} does not follow {expected}")]
    Height { expected: u64, got: u64 },
    #[error("block parent {got} is not the last block {expected}")]
    Parent { expected: Hash, got: Hash },
    #[error("block timestamp {got} ms is before its parent's {parent} ms")]
    Timestamp { parent: u64, got: u64 },
    #[error(
        "block timestamp {got} ms is ahead of this validator's clock by more than the drift \
         allowed (latest acceptable {latest} ms)"
    )]
    Future { got: u64, latest: u64 },
    #[error(
        "block round (epoch {}, view {}) is not the round it was proposed in (epoch {}, view {})",
        got.epoch, got.view, expected.epoch, expected.view
    )]
    Round {
        expected: cowboy_types::Round,
        got: cowboy_types::Round,
    },
    #[error("block proposer {0} is not the view's leader")]
    NotLeader(Address),
    #[error("block beacon is not the verified seed of the round before the block's")]
    Beacon,
    #[error(
        "block claims the post-state of height {got}, which must be below its own height \
         {height} and not below its parent's claim {parent}"
    )]
    StateHeight { got: u64, height: u64, parent: u64 },
    #[error(
        "block claims the post-state of height {state_height} is {claimed}, but this node \
         computed {}",
        computed.map_or_else(|| "nothing (not executed)".to_owned(), |c| c.to_string())
    )]
    Claim {
        state_height: u64,
        claimed: Hash,
        computed: Option<Hash>,
    },
    #[error("block basefees ({got_cycle}, {got_cell}) differ from the state's ({cycle}, {cell})")]
    Basefees {
        cycle: u64,
        cell: u64,
        got_cycle: u64,
        got_cell: u64,
    },
    #[error("block proposer {0} is not a validator")]
    Proposer(Address),
    #[error("block carries {count} transactions, above the maximum {max}")]
    TooManyTransactions { count: usize, max: usize },
    #[error(
        "user transactions ask for {asked} {what} in total, above this block's user-lane budget {budget}"
    )]
    LaneFull {
        what: &'static str,
        asked: u128,
        budget: u64,
    },
    #[error(
        "transactions are not in the block's canonical order (beacon ordering, §6.4) at position {0}"
    )]
    Order(usize),
    #[error("transaction {hash} is in the block twice, at positions {first} and {second}")]
    Duplicate {
        first: usize,
        second: usize,
        hash: Hash,
    },
    #[error("header {field} is {got}, execution produced {expected}")]
    Root {
        field: &'static str,
        expected: Hash,
        got: Hash,
    },
    #[error(transparent)]
    Exec(#[from] ExecError),
}

/// Execution could not proceed for a reason that is not the block's fault: the store failed,
/// the state is corrupt, or the PVM could not start. Nothing is committed.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    #[error(transparent)]
    Store(#[from] cowboy_state::StoreError),
    #[error("state record {what} is corrupt: {reason}")]
    Corrupt { what: String, reason: String },
    #[error("the PVM failed: {0}")]
    Pvm(String),
    #[error("supply accounting broke: {0}")]
    Supply(String),
}

/// Why a genesis file is refused.
#[derive(Debug, thiserror::Error)]
pub enum GenesisError {
    #[error("cannot read genesis file {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("genesis file {path} is not valid: {message}")]
    Json { path: String, message: String },
    #[error("genesis parameter `{name}` {rule}")]
    Parameter { name: String, rule: String },
    #[error("genesis {field}: {message}")]
    Invalid { field: String, message: String },
    #[error(
        "this data directory holds chain {stored}, but the genesis file describes chain {expected}; use another --data-dir or the matching genesis file"
    )]
    WrongChain { stored: Hash, expected: Hash },
    #[error(transparent)]
    Exec(#[from] ExecError),
}

impl From<cowboy_state::StoreError> for BlockError {
    fn from(e: cowboy_state::StoreError) -> Self {
        Self::Exec(ExecError::Store(e))
    }
}
