//! What every sender needs: filling a transaction from a node and signing it — chain id, the
//! sender's next nonce (counting its pending transactions), default limits for its instruction
//! and the node's suggested fees, unless given — sending it and waiting for its receipt. The
//! CLI, the faucet, `cowboy devnet up --example` (through `cowboy_project::demo`) and the
//! benchmarks build and follow transactions with it, so they all do it the same way.

use crate::{CowboyApiClient, MAX_WAIT_MS, ReceiptView};
use cowboy_crypto::PrivateKey;
use cowboy_types::{Hash, Instruction, Transaction};
use std::time::{Duration, Instant};

/// What the caller fixes; everything left `None` is asked from the node or defaulted.
#[derive(Clone, Debug, Default)]
pub struct TxOptions {
    pub nonce: Option<u64>,
    /// `None` (with `cells_limit` `None` too): [`default_limits`] for the instruction, lowered
    /// to what the chain lets one transaction reserve (its user lane and cell cap).
    pub cycles_limit: Option<u64>,
    /// Cells for execution; raised to the transaction's intrinsic cells (one per byte of
    /// the signed transaction) when below them, so `0` means "only what it must pay".
    pub cells_limit: Option<u64>,
    pub max_fee_per_cycle: Option<u64>,
    pub max_fee_per_cell: Option<u64>,
    pub priority_fee_per_cycle: Option<u64>,
}

/// The `(cycles, cells)` limits a client gives `instruction` when its sender names none:
/// enough for ordinary work, and never more than the sender pays for (unused budget is
/// refunded).
pub fn default_limits(instruction: &Instruction) -> (u64, u64) {
    use cowboy_types::{ActorInstruction, SystemInstruction};
    match instruction {
        // Only its intrinsic cost: a transfer runs no code.
        Instruction::System(SystemInstruction::Transfer { .. }) => {
            (cowboy_types::intrinsic::TRANSFER_CYCLES, 0)
        }
        Instruction::System(_) => (100_000, 10_000),
        Instruction::Actor(ActorInstruction::Message { .. }) => (5_000_000, 1_000_000),
        // `__init__` plus room to store twice the code and arguments.
        Instruction::Actor(ActorInstruction::Deploy {
            code, init_args, ..
        }) => (
            20_000_000,
            (code.len() as u64 + init_args.len() as u64) * 2 + 1_000_000,
        ),
    }
}

/// Why a transaction could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    #[error(transparent)]
    Rpc(#[from] jsonrpsee::core::ClientError),
    #[error("cannot sign the transaction: {0}")]
    Sign(#[from] cowboy_crypto::SignError),
}

/// Builds and signs a transaction carrying `instruction` from `key`'s address.
pub async fn signed_transaction<C: CowboyApiClient + Sync>(
    client: &C,
    key: &PrivateKey,
    instruction: Instruction,
    options: &TxOptions,
) -> Result<Transaction, PrepareError> {
    let from = key.address();
    let chain_id = client.chain_id().await?;
    let nonce = match options.nonce {
        Some(n) => n,
        None => client.nonce(from).await?.pending,
    };
    let fees = client.fees().await?;
    let (cycles_limit, cells_limit) = match (options.cycles_limit, options.cells_limit) {
        (None, None) => {
            let (cycles, cells) = default_limits(&instruction);
            (
                cycles.min(fees.max_cycles_per_tx),
                cells.min(fees.max_cells_per_tx),
            )
        }
        (cycles, cells) => {
            let (default_cycles, default_cells) = default_limits(&instruction);
            (
                cycles.unwrap_or(default_cycles),
                cells.unwrap_or(default_cells),
            )
        }
    };
    let mut tx = Transaction {
        chain_id,
        nonce,
        instruction,
        cycles_limit,
        cells_limit,
        max_fee_per_cycle: options
            .max_fee_per_cycle
            .unwrap_or(fees.suggested_max_fee_per_cycle),
        max_fee_per_cell: options
            .max_fee_per_cell
            .unwrap_or(fees.suggested_max_fee_per_cell),
        max_priority_fee_per_cycle: options
            .priority_fee_per_cycle
            .unwrap_or(fees.suggested_priority_fee_per_cycle),
        max_priority_fee_per_cell: 0,
        from,
        access_list: None,
        metadata: vec![],
        origin: None,
        signature: Default::default(),
        additional_signers: vec![],
    };
    tx.cells_limit = tx
        .cells_limit
        .max(cowboy_types::intrinsic::minimum_cells(&tx));
    cowboy_crypto::sign_transaction(&mut tx, key)?;
    Ok(tx)
}

/// Fills, signs and sends a transaction carrying `instruction` from `key`'s address; returns
/// its hash once the node accepted it.
pub async fn send<C: CowboyApiClient + Sync>(
    client: &C,
    key: &PrivateKey,
    instruction: Instruction,
    options: &TxOptions,
) -> Result<Hash, PrepareError> {
    let tx = signed_transaction(client, key, instruction, options).await?;
    Ok(client
        .send_raw_transaction(cowboy_types::json::HexBytes(tx.to_bytes()))
        .await?)
}

/// [`send`], then waits up to `timeout` for the receipt (`None` if it did not come).
pub async fn send_and_wait<C: CowboyApiClient + Sync>(
    client: &C,
    key: &PrivateKey,
    instruction: Instruction,
    options: &TxOptions,
    timeout: Duration,
) -> Result<(Hash, Option<ReceiptView>), PrepareError> {
    let hash = send(client, key, instruction, options).await?;
    Ok((hash, receipt_within(client, hash, timeout).await?))
}

/// Long-polls `waitForReceipt` (in steps of at most [`MAX_WAIT_MS`]) until `hash`'s receipt
/// exists, or `None` once `timeout` has passed.
pub async fn receipt_within<C: CowboyApiClient + Sync>(
    client: &C,
    hash: Hash,
    timeout: Duration,
) -> Result<Option<ReceiptView>, jsonrpsee::core::ClientError> {
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(None);
        }
        let wait_ms = (left.as_millis() as u64).min(MAX_WAIT_MS);
        if let Some(receipt) = client.wait_for_receipt(hash, Some(wait_ms)).await? {
            return Ok(Some(receipt));
        }
    }
}
