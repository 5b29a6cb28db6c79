//! What every sender needs: filling a transaction from a node and signing it — chain id, the
//! sender's next nonce (counting its pending transactions), default limits for its instruction
//! and the node's suggested fees, unless given — sending it and waiting for its receipt. The
//! CLI, the faucet, `cowboy devnet up --example` (through `cowboy_project::demo`) and the
//! benchmarks build and follow transactions with it, so they all do it the same way.
//!
//! [`simulate_and_sign`] simulates first (`cowboy_simulate`): the limits become what the
//! transaction used plus a margin ([`cowboy_types::limits`]), and a transaction that would fail, or that the sender
//! cannot pay for, is not signed. The CLI sends this way.

use crate::{CowboyApiClient, MAX_WAIT_MS, ReceiptStatus, ReceiptView, SimulationView};
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

pub use cowboy_types::limits::default_limits;

/// Why a transaction could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    #[error(transparent)]
    Rpc(#[from] jsonrpsee::core::ClientError),
    #[error("cannot sign the transaction: {0}")]
    Sign(#[from] cowboy_crypto::SignError),
    #[error(
        "the transaction would fail: {reason}; it was not sent and nothing was charged (pass --force to send it anyway)"
    )]
    WouldFail {
        reason: String,
        simulation: Box<SimulationView>,
    },
    #[error(
        "the sender's balance ({balance} base units) is below the {required} this transaction may take at worst (its limits at its fee caps, plus its value); it was not sent. Fund the account, or lower --max-fee-per-cycle / --cycles-limit"
    )]
    Unaffordable { balance: u64, required: u64 },
}

/// A signed transaction and the simulation of it, as it was signed.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub tx: Transaction,
    pub simulation: SimulationView,
}

/// Why a simulated receipt failed, in words: the failure, and the nested deliveries that
/// failed.
pub fn failure_reason(receipt: &ReceiptView) -> String {
    let mut reason = match (&receipt.failure, &receipt.error) {
        (Some(kind), Some(e)) => format!("{kind}: {e}"),
        (Some(kind), None) => kind.clone(),
        (None, Some(e)) => e.clone(),
        (None, None) => "it failed".into(),
    };
    // The first delivery is the transaction's own message: its failure is the receipt's.
    for d in receipt.deliveries.iter().skip(1) {
        if let Some(e) = &d.error {
            reason.push_str(&format!("; delivery to {} failed: {e}", d.to));
        }
    }
    reason
}

/// Simulates `tx` (its signature is not needed).
async fn simulate<C: CowboyApiClient + Sync>(
    client: &C,
    tx: &Transaction,
) -> Result<SimulationView, PrepareError> {
    Ok(client
        .simulate(cowboy_types::json::HexBytes(tx.to_bytes()))
        .await?)
}

/// [`signed_transaction`], simulated first. Without limits in `options`, the transaction is
/// simulated with the largest limits one transaction may have, and its limits become what it
/// used plus the margin ([`cowboy_types::limits::simulated`]); then it is simulated again as it will be signed.
/// Unless `force`, a transaction whose simulation fails, or whose sender cannot pay its worst
/// case, is refused here, before anything is sent.
pub async fn simulate_and_sign<C: CowboyApiClient + Sync>(
    client: &C,
    key: &PrivateKey,
    instruction: Instruction,
    options: &TxOptions,
    force: bool,
) -> Result<Prepared, PrepareError> {
    simulate_and_sign_at(client, key, |_| instruction.clone(), options, force).await
}

/// [`simulate_and_sign`] for an instruction that names a height relative to the chain's
/// (`cowboy timer set --in N`): `instruction(h)` is built from the latest executed height `h`,
/// and built again from the height the last simulation ran on, so blocks that pass while the
/// transaction is prepared do not make it stale.
pub async fn simulate_and_sign_at<C: CowboyApiClient + Sync>(
    client: &C,
    key: &PrivateKey,
    instruction: impl Fn(u64) -> Instruction,
    options: &TxOptions,
    force: bool,
) -> Result<Prepared, PrepareError> {
    let (mut tx, simulation) = sized(client, key.address(), instruction, options).await?;
    if !force {
        if simulation.receipt.status != ReceiptStatus::Success {
            return Err(PrepareError::WouldFail {
                reason: failure_reason(&simulation.receipt),
                simulation: Box::new(simulation),
            });
        }
        if !simulation.affordable {
            return Err(PrepareError::Unaffordable {
                balance: simulation.balance.0,
                required: simulation.required.0,
            });
        }
    }
    cowboy_crypto::sign_transaction(&mut tx, key)?;
    Ok(Prepared { tx, simulation })
}

/// What a transaction would use and cost ([`estimate`]).
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Estimate {
    /// The limits [`simulate_and_sign`] would give it.
    pub cycles_limit: u64,
    pub cells_limit: u64,
    /// Its simulation with those limits.
    pub simulation: SimulationView,
}

/// The limits a transaction from `from` carrying `instruction` would get, and its simulation
/// with them; nothing is signed or sent.
pub async fn estimate<C: CowboyApiClient + Sync>(
    client: &C,
    from: cowboy_types::Address,
    instruction: Instruction,
) -> Result<Estimate, PrepareError> {
    let (tx, simulation) =
        sized(client, from, |_| instruction.clone(), &TxOptions::default()).await?;
    Ok(Estimate {
        cycles_limit: tx.cycles_limit,
        cells_limit: tx.cells_limit,
        simulation,
    })
}

/// The unsigned transaction [`simulate_and_sign_at`] signs, and its last simulation.
async fn sized<C: CowboyApiClient + Sync>(
    client: &C,
    from: cowboy_types::Address,
    instruction: impl Fn(u64) -> Instruction,
    options: &TxOptions,
) -> Result<(Transaction, SimulationView), PrepareError> {
    let fees = client.fees().await?;
    let instruction_at = &instruction;
    let instruction = instruction_at(fees.height);
    let auto = options.cycles_limit.is_none() && options.cells_limit.is_none();
    let sized = cowboy_types::limits::sized_by_simulation(&instruction);
    let mut tx = unsigned_transaction(client, from, instruction, options).await?;
    if auto && sized {
        tx.cycles_limit = fees.max_cycles_per_tx;
        tx.cells_limit = fees.max_cells_per_tx;
        let probe = simulate(client, &tx).await?;
        let (cycles, cells) =
            cowboy_types::limits::simulated(probe.receipt.cycles_used, probe.receipt.cells_used);
        tx.cycles_limit = cycles.min(fees.max_cycles_per_tx);
        tx.cells_limit = cells.min(fees.max_cells_per_tx);
        tx.cells_limit = tx
            .cells_limit
            .max(cowboy_types::intrinsic::minimum_cells(&tx));
    }
    let mut simulation = simulate(client, &tx).await?;
    // The chain moved on while this was prepared: what the instruction names moves too.
    for _ in 0..3 {
        let current = instruction_at(simulation.height);
        if current == tx.instruction {
            break;
        }
        tx.instruction = current;
        simulation = simulate(client, &tx).await?;
    }
    Ok((tx, simulation))
}

/// Builds and signs a transaction carrying `instruction` from `key`'s address.
pub async fn signed_transaction<C: CowboyApiClient + Sync>(
    client: &C,
    key: &PrivateKey,
    instruction: Instruction,
    options: &TxOptions,
) -> Result<Transaction, PrepareError> {
    let mut tx = unsigned_transaction(client, key.address(), instruction, options).await?;
    cowboy_crypto::sign_transaction(&mut tx, key)?;
    Ok(tx)
}

/// [`signed_transaction`] before signing: from `from`, with an empty signature.
pub async fn unsigned_transaction<C: CowboyApiClient + Sync>(
    client: &C,
    from: cowboy_types::Address,
    instruction: Instruction,
    options: &TxOptions,
) -> Result<Transaction, PrepareError> {
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
    Ok(tx)
}

/// How many times [`send`] signs a transaction whose nonce it chose: the first time, and again
/// each time the node says another transaction took that nonce in the meantime.
pub const SEND_ATTEMPTS: usize = 3;

/// Fills, signs and sends a transaction carrying `instruction` from `key`'s address; returns
/// its hash once the node accepted it.
///
/// Without a nonce in `options`, the nonce is the sender's pending one when it is read. Another
/// transaction of the same sender can reach the node's pool between that read and the send
/// (gossiped from another node, or sent by another process with the same key), and then the
/// node refuses this one: its nonce is taken (`replacement_underpriced`) or was just executed
/// (`nonce_too_low`). `send` then reads the nonce again and signs again, up to
/// [`SEND_ATTEMPTS`] times. A nonce given in `options` is never changed.
pub async fn send<C: CowboyApiClient + Sync>(
    client: &C,
    key: &PrivateKey,
    instruction: Instruction,
    options: &TxOptions,
) -> Result<Hash, PrepareError> {
    let mut attempt = 1;
    loop {
        let tx = signed_transaction(client, key, instruction.clone(), options).await?;
        match client
            .send_raw_transaction(cowboy_types::json::HexBytes(tx.to_bytes()))
            .await
        {
            Err(e) if options.nonce.is_none() && attempt < SEND_ATTEMPTS && nonce_taken(&e) => {
                attempt += 1;
            }
            sent => return Ok(sent?),
        }
    }
}

/// Whether the node refused a transaction because its nonce was taken since it was read.
fn nonce_taken(e: &jsonrpsee::core::ClientError) -> bool {
    #[derive(serde::Deserialize)]
    struct Data {
        rule: String,
    }
    let jsonrpsee::core::ClientError::Call(call) = e else {
        return false;
    };
    call.code() == crate::code::POOL_REFUSED
        && call
            .data()
            .and_then(|d| serde_json::from_str::<Data>(d.get()).ok())
            .is_some_and(|d| {
                use crate::code::pool_rule;
                d.rule == pool_rule::REPLACEMENT_UNDERPRICED || d.rule == pool_rule::NONCE_TOO_LOW
            })
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
