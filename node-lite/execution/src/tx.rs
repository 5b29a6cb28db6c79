//! Transaction validity (whitepaper §2.2), the canonical in-block order (§6.4) and the
//! proposer's selection of transactions by effective fee.
//!
//! Validity has two halves. The stateless half (size, chain id, signatures, limits) is checked
//! once per transaction — by the mempool when it arrives, or for a whole block in parallel — and
//! its result, the recovered sender, travels with the transaction as a [`VerifiedTx`], so a
//! sender is never recovered twice. The stateful half (nonce, basefee, balance) is checked
//! against the state the transaction executes in.

use crate::{
    TxError,
    fees::{self, Basefees, Bid},
    intrinsic,
    params::Parameters,
};
use commonware_codec::{Encode, EncodeSize};
use cowboy_types::{Account, Address, Beacon, Hash, Transaction, keccak256};
use rayon::prelude::*;
use std::collections::{BTreeMap, BinaryHeap};

/// A proposer includes no transactions while its executed height trails the finalized height
/// by more than this many blocks (spec README, "Execution budget"): a node that cannot keep up
/// must not add work, and its empty blocks still let the chain finalize.
pub const MAX_EXECUTION_LAG: u64 = 2;

/// A transaction whose stateless checks passed, with its sender recovered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedTx {
    pub tx: Transaction,
    pub hash: Hash,
    pub sender: Address,
    /// Encoded size in bytes.
    pub size: usize,
    /// `(cycles, cells)` paid before execution (§17.2).
    pub intrinsic: (u64, u64),
}

impl VerifiedTx {
    pub fn bid(&self) -> Bid {
        Bid {
            max_fee_per_cycle: self.tx.max_fee_per_cycle,
            max_fee_per_cell: self.tx.max_fee_per_cell,
            max_priority_fee_per_cycle: self.tx.max_priority_fee_per_cycle,
            max_priority_fee_per_cell: self.tx.max_priority_fee_per_cell,
        }
    }

    /// Base units the transaction moves besides fees (a transfer's amount, a deploy's or
    /// call's value, the stake a runner bonds).
    pub fn value(&self) -> u64 {
        self.tx.instruction.value()
    }

    /// What the sender must hold: the worst-case fee plus the value.
    pub fn required_balance(&self) -> u128 {
        fees::worst_case(self.tx.cycles_limit, self.tx.cells_limit, &self.bid())
            + self.value() as u128
    }
}

/// Checks everything about `tx` that does not depend on state, and recovers its sender.
pub fn verify(tx: Transaction, chain_id: u64, params: &Parameters) -> Result<VerifiedTx, TxError> {
    let size = tx.encode_size();
    check_envelope(&tx, size, chain_id, params)?;
    let hash = tx.digest();
    let sender = cowboy_crypto::verify_transaction_hashed(&tx, &hash)?;
    let intrinsic = intrinsic::cost(&tx.instruction, size);
    check_fees(&tx)?;
    check_limits(&tx, intrinsic, params)?;
    Ok(VerifiedTx {
        tx,
        hash,
        sender,
        size,
        intrinsic,
    })
}

/// [`verify`] for a transaction whose sender is taken from its `from` field instead of being
/// recovered from its signature: local runs (`cowboy run`, `cowboy test`) act as any address,
/// as Foundry's `prank` does; and simulations (`cowboy_simulate`), which may run before the
/// transaction is signed. Every other rule is [`verify`]'s. The senders of a node's blocks'
/// transactions are always recovered, never taken from here.
pub(crate) fn impersonate(
    tx: Transaction,
    chain_id: u64,
    params: &Parameters,
) -> Result<VerifiedTx, TxError> {
    let size = tx.encode_size();
    check_envelope(&tx, size, chain_id, params)?;
    let hash = tx.digest();
    let sender = tx.from;
    let intrinsic = intrinsic::cost(&tx.instruction, size);
    check_fees(&tx)?;
    check_limits(&tx, intrinsic, params)?;
    Ok(VerifiedTx {
        tx,
        hash,
        sender,
        size,
        intrinsic,
    })
}

/// [`verify`]'s rules again for a transaction whose sender was already recovered (e.g. on
/// admission to a pool), against `params` that may have changed since: the same verdict as
/// [`verify`] without recovering the sender a second time.
pub fn recheck(vtx: &VerifiedTx, chain_id: u64, params: &Parameters) -> Result<(), TxError> {
    check_envelope(&vtx.tx, vtx.size, chain_id, params)?;
    check_fees(&vtx.tx)?;
    check_limits(&vtx.tx, vtx.intrinsic, params)
}

/// A tip above the fee cap could never be paid in full (EIP-1559 rejects it the same way).
fn check_fees(tx: &Transaction) -> Result<(), TxError> {
    for (what, tip, cap) in [
        ("cycle", tx.max_priority_fee_per_cycle, tx.max_fee_per_cycle),
        ("cell", tx.max_priority_fee_per_cell, tx.max_fee_per_cell),
    ] {
        if tip > cap {
            return Err(TxError::TipAboveMaxFee { what, tip, cap });
        }
    }
    Ok(())
}

fn check_envelope(
    tx: &Transaction,
    size: usize,
    chain_id: u64,
    params: &Parameters,
) -> Result<(), TxError> {
    let max = params.execution.max_tx_size;
    if size as u64 > max {
        return Err(TxError::TooLarge { size, max });
    }
    if tx.chain_id != chain_id {
        return Err(TxError::WrongChain {
            expected: chain_id,
            got: tx.chain_id,
        });
    }
    Ok(())
}

fn check_limits(
    tx: &Transaction,
    intrinsic: (u64, u64),
    params: &Parameters,
) -> Result<(), TxError> {
    if tx.cycles_limit < intrinsic.0 {
        return Err(TxError::BelowIntrinsic {
            what: "cycles",
            limit: tx.cycles_limit,
            needed: intrinsic.0,
        });
    }
    if tx.cells_limit < intrinsic.1 {
        return Err(TxError::BelowIntrinsic {
            what: "cells",
            limit: tx.cells_limit,
            needed: intrinsic.1,
        });
    }
    // One transaction must fit the user lane of any block.
    if tx.cycles_limit > params.lanes.user_cycles {
        return Err(TxError::AboveMaximum {
            what: "cycles",
            limit: tx.cycles_limit,
            max: params.lanes.user_cycles,
        });
    }
    if tx.cells_limit > params.lanes.block_cells {
        return Err(TxError::AboveMaximum {
            what: "cells",
            limit: tx.cells_limit,
            max: params.lanes.block_cells,
        });
    }
    Ok(())
}

/// [`verify`] for many transactions, on every core.
pub fn verify_all(
    txs: Vec<Transaction>,
    chain_id: u64,
    params: &Parameters,
) -> Vec<Result<VerifiedTx, TxError>> {
    txs.into_par_iter()
        .map(|tx| verify(tx, chain_id, params))
        .collect()
}

/// Checks `vtx` against its sender's account and the lane basefees it would execute at.
pub fn check_stateful(
    vtx: &VerifiedTx,
    account: &Account,
    prices: &Basefees,
) -> Result<(), TxError> {
    if vtx.tx.nonce != account.nonce {
        return Err(TxError::Nonce {
            expected: account.nonce,
            got: vtx.tx.nonce,
        });
    }
    if vtx.tx.max_fee_per_cycle < prices.cycle {
        return Err(TxError::FeeBelowBasefee {
            what: "cycle",
            offered: vtx.tx.max_fee_per_cycle,
            basefee: prices.cycle,
        });
    }
    if vtx.tx.max_fee_per_cell < prices.cell {
        return Err(TxError::FeeBelowBasefee {
            what: "cell",
            offered: vtx.tx.max_fee_per_cell,
            basefee: prices.cell,
        });
    }
    let needed = vtx.required_balance();
    if needed > account.balance as u128 {
        return Err(TxError::InsufficientBalance {
            balance: account.balance,
            needed,
        });
    }
    Ok(())
}

/// The §6.4 sort key of each transaction: `keccak256(beacon ‖ tx hash)`, then reassigned within
/// each sender so that a sender's transactions keep their nonce order (the sender's smallest
/// key goes to its lowest nonce). Unpredictable before the beacon exists, identical on every
/// node, and never reorders one sender's nonces.
fn order_keys(txs: &[VerifiedTx], beacon: &Beacon) -> Vec<(Hash, Hash)> {
    let seed = beacon.encode();
    let mut keys: Vec<Hash> = txs
        .iter()
        .map(|t| {
            let mut pre = Vec::with_capacity(seed.len() + 32);
            pre.extend_from_slice(&seed);
            pre.extend_from_slice(&t.hash.0);
            keccak256(&pre)
        })
        .collect();
    let mut by_sender: BTreeMap<Address, Vec<usize>> = BTreeMap::new();
    for (i, t) in txs.iter().enumerate() {
        by_sender.entry(t.sender).or_default().push(i);
    }
    for idx in by_sender.values_mut() {
        let mut ks: Vec<Hash> = idx.iter().map(|i| keys[*i]).collect();
        ks.sort();
        idx.sort_by_key(|i| txs[*i].tx.nonce);
        for (i, k) in idx.iter().zip(ks) {
            keys[*i] = k;
        }
    }
    keys.into_iter().zip(txs.iter().map(|t| t.hash)).collect()
}

/// Puts `txs` in the block's canonical order for `beacon`.
pub fn canonical_order(txs: &mut Vec<VerifiedTx>, beacon: &Beacon) {
    let keys = order_keys(txs, beacon);
    let mut paired: Vec<((Hash, Hash), VerifiedTx)> = keys.into_iter().zip(txs.drain(..)).collect();
    paired.sort_by_key(|a| a.0);
    txs.extend(paired.into_iter().map(|(_, t)| t));
}

/// `Err(position)` of the first transaction out of canonical order.
pub fn check_order(txs: &[VerifiedTx], beacon: &Beacon) -> Result<(), usize> {
    let keys = order_keys(txs, beacon);
    for (i, w) in keys.windows(2).enumerate() {
        if w[0] >= w[1] {
            return Err(i + 1);
        }
    }
    Ok(())
}

/// The block's room for user transactions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    pub cycles: u64,
    pub cells: u64,
    pub count: usize,
    /// The most the runner lane's transactions may take of `cycles`.
    pub runner_cycles: u64,
}

/// Chooses transactions for a block (§6.4): highest effective fee first (ties: lower hash),
/// each sender's nonces in sequence from its account nonce, each sender able to pay the worst
/// case of everything it has in the block from its balance now, and the sum of limits within
/// `room`. `accounts` gives a sender's account in the state the block's transactions start
/// from. The result still needs [`canonical_order`].
pub fn select(
    candidates: Vec<VerifiedTx>,
    mut accounts: impl FnMut(&Address) -> Result<Account, crate::ExecError>,
    lane_prices: &crate::lanes::LanePrices,
    room: Room,
) -> Result<Vec<VerifiedTx>, crate::ExecError> {
    use crate::lanes::{Lane, lane_of};
    let prices = |t: &VerifiedTx| *lane_prices.of_instruction(&t.tx.instruction);
    // Each sender's usable transactions, by nonce, deduplicated.
    let mut queues: BTreeMap<Address, Vec<VerifiedTx>> = BTreeMap::new();
    for t in candidates {
        queues.entry(t.sender).or_default().push(t);
    }
    #[derive(PartialEq, Eq, PartialOrd, Ord)]
    struct Head {
        fee: u128,
        hash: std::cmp::Reverse<Hash>,
        sender: Address,
    }
    let mut usable: BTreeMap<Address, std::collections::VecDeque<VerifiedTx>> = BTreeMap::new();
    for (sender, mut list) in queues {
        list.sort_by(|a, b| a.tx.nonce.cmp(&b.tx.nonce).then(a.hash.cmp(&b.hash)));
        let acc = accounts(&sender)?;
        let mut next = acc.nonce;
        let mut spent: u128 = 0;
        let mut keep = std::collections::VecDeque::new();
        for t in list {
            if t.tx.nonce != next {
                continue;
            }
            let p = prices(&t);
            if t.tx.max_fee_per_cycle < p.cycle || t.tx.max_fee_per_cell < p.cell {
                break;
            }
            spent += t.required_balance();
            if spent > acc.balance as u128 {
                break;
            }
            next += 1;
            keep.push_back(t);
        }
        if !keep.is_empty() {
            usable.insert(sender, keep);
        }
    }
    let fee_of = |t: &VerifiedTx| fees::effective_fee(t.intrinsic, &t.bid(), &prices(t));
    let mut heap = BinaryHeap::new();
    for (sender, q) in &usable {
        if let Some(t) = q.front() {
            heap.push(Head {
                fee: fee_of(t),
                hash: std::cmp::Reverse(t.hash),
                sender: *sender,
            });
        }
    }
    let (mut cycles, mut cells, mut runner_cycles) = (0u128, 0u128, 0u128);
    let mut chosen = Vec::new();
    while let Some(head) = heap.pop() {
        if chosen.len() >= room.count {
            break;
        }
        let Some(q) = usable.get_mut(&head.sender) else {
            continue;
        };
        let Some(t) = q.pop_front() else {
            continue;
        };
        let c = cycles + t.tx.cycles_limit as u128;
        let b = cells + t.tx.cells_limit as u128;
        let runner = lane_of(&t.tx.instruction) == Lane::Runner;
        let r = runner_cycles + if runner { t.tx.cycles_limit as u128 } else { 0 };
        if c > room.cycles as u128 || b > room.cells as u128 || r > room.runner_cycles as u128 {
            // Its later nonces cannot go in without it.
            q.clear();
            continue;
        }
        cycles = c;
        cells = b;
        runner_cycles = r;
        chosen.push(t);
        if let Some(next) = q.front() {
            heap.push(Head {
                fee: fee_of(next),
                hash: std::cmp::Reverse(next.hash),
                sender: head.sender,
            });
        }
    }
    Ok(chosen)
}
