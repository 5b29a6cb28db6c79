//! The block pipeline every validator runs: deferred execution (the protocol of the spec
//! README's decisions; the node wires Commonware's Simplex to these steps and nothing else).
//!
//! 1. **Proposing** (view `v`): the leader selects transactions ([`crate::Chain::select`]) in
//!    the room a proposal may fill ([`proposal_room`]) and [`assemble`]s the block: parent,
//!    height, round, time, the parent beacon, the transaction root, and a *claim* — the
//!    post-state commitments of the newest finalized height it has executed
//!    (`state_height`), below the block's own height and not below its parent's claim.
//! 2. **Verifying**: a validator checks everything that does not need execution
//!    ([`check_proposal`]); once it has executed `state_height` itself, it checks the claim
//!    against its own outcome ([`check_claim`]), and votes.
//! 3. **Executing**: a finalized block runs ([`crate::Chain::execute`], the phases of
//!    [`crate::block`]) and commits. Consensus accepted it, so it is never rejected for its
//!    transactions: one that is invalid against the state it meets gets a `SKIPPED` receipt.
//!
//! Every rule here returns a [`BlockError`]; no other crate decides whether a block is valid.

use crate::{BlockError, Parameters, TxError, block::Outcome, lanes, roots, tx};
use cowboy_types::{Address, Beacon, Block, Header, Round, block::MAX_BLOCK_TRANSACTIONS};

pub use crate::block::Proposal;

/// How far a block's timestamp may run ahead of a verifier's clock (Cowboy decision; see the
/// book's consensus chapter).
pub const MAX_CLOCK_DRIFT_MS: u64 = 5_000;

/// The room a proposal's transactions may fill: the user lane plus every reserved lane. Which
/// deferred deliveries and timers share the block is known only when it executes; a
/// transaction that no longer fits then is skipped, not the block.
pub fn proposal_room(params: &Parameters) -> tx::Room {
    let (cycles, cells) = lanes::user_room(&params.lanes, &lanes::Reserved::default());
    tx::Room {
        cycles,
        cells,
        count: MAX_BLOCK_TRANSACTIONS,
        runner_cycles: params.lanes.runner_cycles,
    }
}

/// The claim a proposer on top of `parent` makes, given the newest height it has executed:
/// that height, capped by the parent's height and never below the parent's own claim. `None`
/// when it has not executed the parent's claim yet (it must wait, or claims would go back).
pub fn claim_height(parent: &Header, executed: u64) -> Option<u64> {
    let floor = parent.state_height;
    (executed >= floor).then(|| executed.min(parent.height).max(floor))
}

/// A block a proposer assembled, with its transactions as verified (in body order: what
/// executing it needs, without recovering their senders again).
pub struct Assembled {
    pub block: Block,
    pub verified: Vec<tx::VerifiedTx>,
}

/// The highest nonce each sender uses in `blocks` (blocks a proposer builds on that are not
/// executed yet): [`crate::Chain::select`] advances each sender past it.
pub fn nonces_used<'b>(
    blocks: impl IntoIterator<Item = &'b Block>,
) -> std::collections::HashMap<Address, u64> {
    let mut used = std::collections::HashMap::new();
    for t in blocks.into_iter().flat_map(|b| &b.transactions) {
        let e = used.entry(t.from).or_insert(t.nonce);
        *e = (*e).max(t.nonce);
    }
    used
}

/// The block a proposer builds on `parent`: `chosen` in the beacon's canonical order, claiming
/// `claim` (the outcome of [`claim_height`]).
pub fn assemble(
    parent: &Header,
    proposal: &Proposal,
    claim: &Outcome,
    mut chosen: Vec<tx::VerifiedTx>,
) -> Assembled {
    tx::canonical_order(&mut chosen, &proposal.beacon);
    let hashes: Vec<_> = chosen.iter().map(|t| t.hash).collect();
    let block = Block {
        header: Header {
            parent: parent.digest(),
            height: parent.height + 1,
            round: proposal.round,
            timestamp_ms: proposal.timestamp_ms,
            proposer: proposal.proposer,
            beacon: proposal.beacon,
            tx_root: roots::tx_root_of(&hashes),
            state_height: claim.height,
            state_root: claim.state_root,
            receipts_root: claim.receipts_root,
            cycle_basefee: claim.cycle_basefee,
            cell_basefee: claim.cell_basefee,
        },
        transactions: chosen.iter().map(|t| t.tx.clone()).collect(),
    };
    Assembled {
        block,
        verified: chosen,
    }
}

/// What a verifier knows of the view a block was proposed in, from consensus.
pub struct View<'a> {
    pub round: Round,
    /// The reward address of the view's leader (`None`: the leader is not a validator this
    /// node knows).
    pub leader: Option<Address>,
    /// The verifier's clock.
    pub now_ms: u64,
    /// Whether a beacon is the verified seed of the round before `round` (the threshold
    /// signature check is consensus's).
    pub beacon_verified: &'a dyn Fn(&Beacon) -> bool,
}

/// Checks everything about a proposed `block` on `parent` that does not need execution.
/// `checked` are the stateless checks of its transactions, in body order (a node reuses those
/// its pool already made); returns the verified transactions.
pub fn check_proposal(
    parent: &Header,
    block: &Block,
    view: &View<'_>,
    params: &Parameters,
    checked: Vec<Result<tx::VerifiedTx, TxError>>,
) -> Result<Vec<tx::VerifiedTx>, BlockError> {
    let h = &block.header;
    check_extends(parent, h)?;
    if h.round != view.round {
        return Err(BlockError::Round {
            expected: view.round,
            got: h.round,
        });
    }
    if view.leader != Some(h.proposer) {
        return Err(BlockError::NotLeader(h.proposer));
    }
    if !(view.beacon_verified)(&h.beacon) {
        return Err(BlockError::Beacon);
    }
    if h.timestamp_ms < parent.timestamp_ms {
        return Err(BlockError::Timestamp {
            parent: parent.timestamp_ms,
            got: h.timestamp_ms,
        });
    }
    let latest = view.now_ms.saturating_add(MAX_CLOCK_DRIFT_MS);
    if h.timestamp_ms > latest {
        return Err(BlockError::Future {
            got: h.timestamp_ms,
            latest,
        });
    }
    if h.state_height >= h.height || h.state_height < parent.state_height {
        return Err(BlockError::StateHeight {
            got: h.state_height,
            height: h.height,
            parent: parent.state_height,
        });
    }
    let txs = check_body(block, params, checked)?;
    Ok(txs)
}

/// The body rules: at most [`MAX_BLOCK_TRANSACTIONS`], the limits within [`proposal_room`],
/// each transaction valid on its own and in the body once, the transaction root, and the
/// beacon's canonical order.
fn check_body(
    block: &Block,
    params: &Parameters,
    checked: Vec<Result<tx::VerifiedTx, TxError>>,
) -> Result<Vec<tx::VerifiedTx>, BlockError> {
    let count = block.transactions.len();
    if count > MAX_BLOCK_TRANSACTIONS {
        return Err(BlockError::TooManyTransactions {
            count,
            max: MAX_BLOCK_TRANSACTIONS,
        });
    }
    if checked.len() != count {
        return Err(BlockError::Exec(crate::ExecError::Corrupt {
            what: "transaction checks".into(),
            reason: format!("{} checks for {count} transactions", checked.len()),
        }));
    }
    let room = proposal_room(params);
    let asked = |limit: fn(&cowboy_types::Transaction) -> u64| -> u128 {
        block
            .transactions
            .iter()
            .map(|t| u128::from(limit(t)))
            .sum()
    };
    let (cycles, cells) = (asked(|t| t.cycles_limit), asked(|t| t.cells_limit));
    if cycles > u128::from(room.cycles) {
        return Err(BlockError::LaneFull {
            what: "cycles",
            asked: cycles,
            budget: room.cycles,
        });
    }
    if cells > u128::from(room.cells) {
        return Err(BlockError::LaneFull {
            what: "cells",
            asked: cells,
            budget: room.cells,
        });
    }
    let runner_cycles: u128 = block
        .transactions
        .iter()
        .filter(|t| crate::lanes::lane_of(&t.instruction) == crate::lanes::Lane::Runner)
        .map(|t| u128::from(t.cycles_limit))
        .sum();
    if runner_cycles > u128::from(room.runner_cycles) {
        return Err(BlockError::LaneFull {
            what: "runner-lane cycles",
            asked: runner_cycles,
            budget: room.runner_cycles,
        });
    }
    let mut txs = Vec::with_capacity(count);
    for (index, (result, raw)) in checked.into_iter().zip(&block.transactions).enumerate() {
        txs.push(result.map_err(|error| BlockError::InvalidTransaction {
            index,
            hash: raw.digest(),
            error,
        })?);
    }
    let hashes: Vec<_> = txs.iter().map(|t| t.hash).collect();
    let mut seen = std::collections::HashMap::with_capacity(hashes.len());
    for (index, hash) in hashes.iter().enumerate() {
        if let Some(first) = seen.insert(*hash, index) {
            return Err(BlockError::Duplicate {
                first,
                second: index,
                hash: *hash,
            });
        }
    }
    let tx_root = roots::tx_root_of(&hashes);
    if tx_root != block.header.tx_root {
        return Err(BlockError::Root {
            field: "tx_root",
            expected: tx_root,
            got: block.header.tx_root,
        });
    }
    tx::check_order(&txs, &block.header.beacon).map_err(BlockError::Order)?;
    Ok(txs)
}

/// The claim of `header` against this node's own outcome of `header.state_height` (`None`: not
/// executed, or not known).
pub fn check_claim(header: &Header, executed: Option<&Outcome>) -> Result<(), BlockError> {
    match executed {
        Some(o) if o.matches(header) => Ok(()),
        _ => Err(BlockError::Claim {
            state_height: header.state_height,
            claimed: header.state_root,
            computed: executed.map(|o| o.state_root),
        }),
    }
}

/// Whether `h` is the header of the block right after `parent`.
pub fn check_extends(parent: &Header, h: &Header) -> Result<(), BlockError> {
    if h.height != parent.height + 1 {
        return Err(BlockError::Height {
            expected: parent.height + 1,
            got: h.height,
        });
    }
    if h.parent != parent.digest() {
        return Err(BlockError::Parent {
            expected: parent.digest(),
            got: h.parent,
        });
    }
    Ok(())
}
