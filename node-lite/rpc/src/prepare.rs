//! Filling a transaction from a node and signing it — chain id, the sender's next nonce
//! (counting its pending transactions) and the node's suggested fees, unless given — and
//! waiting for its receipt. Shared by the CLI, the faucet and the devnet so every client builds
//! and follows transactions the same way.

use crate::{CowboyApiClient, MAX_WAIT_MS, ReceiptView};
use cowboy_crypto::PrivateKey;
use cowboy_types::{Hash, Instruction, Transaction};
use std::time::{Duration, Instant};

/// What the caller fixes; everything left `None` is asked from the node.
#[derive(Clone, Debug, Default)]
pub struct TxOptions {
    pub nonce: Option<u64>,
    pub cycles_limit: u64,
    /// Cells for execution; raised to the transaction's intrinsic cells (one per byte of
    /// the signed transaction) when below them, so `0` means "only what it must pay".
    pub cells_limit: u64,
    /// The limits above are a client's defaults, not the user's choice: lowered to what the
    /// chain lets one transaction reserve (its user lane and cell cap).
    pub default_limits: bool,
    pub max_fee_per_cycle: Option<u64>,
    pub max_fee_per_cell: Option<u64>,
    pub priority_fee_per_cycle: Option<u64>,
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
    let mut tx = Transaction {
        chain_id,
        nonce,
        instruction,
        cycles_limit: if options.default_limits {
            options.cycles_limit.min(fees.max_cycles_per_tx)
        } else {
            options.cycles_limit
        },
        cells_limit: if options.default_limits {
            options.cells_limit.min(fees.max_cells_per_tx)
        } else {
            options.cells_limit
        },
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
