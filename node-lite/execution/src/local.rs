//! A chain in one process, for developers: `cowboy run` and `cowboy test` deploy, call and
//! advance blocks on it, as PocketIC does for dfx and anvil for Foundry.
//!
//! Its blocks go through what validators run — [`crate::pipeline::assemble`] builds them,
//! [`Chain::execute_traced`] executes them and [`Chain::commit`] commits them — on a store in
//! memory, with one validator and no consensus. So value moves, quotas and fees apply,
//! messages between actors are delivered, and timers fire when blocks are made. It adds only
//! what a developer needs:
//! - a transaction may be sent as any address, without its key (`tx::impersonate`);
//!   signed transactions are checked as a node checks them ([`LocalChain::submit`]);
//! - blocks are made on demand, with a clock and a beacon that depend only on the height, so
//!   the same steps give the same receipts in every run;
//! - every call is traced ([`CallTrace`]): `print` output, tracebacks, what it sent and set;
//! - its history can be rolled back ([`LocalChain::revert_to`]: the blocks up to a height are
//!   executed again on a fresh store, so state, height and time are exactly as they were),
//!   its beacons can be chosen ([`LocalChain::set_beacon_seed`]), and many chains can share one
//!   PVM thread ([`LocalChain::on_thread`]), as `cowboy test` gives each test a fresh chain.

use crate::{
    Allocation, BlockError, CallTrace, Chain, ExecError, Genesis, GenesisError, GenesisValidator,
    Parameters, TxError,
    block::Proposal,
    pipeline,
    tx::{self, VerifiedTx},
    world::World,
};
use cowboy_pvm::{PvmThread, validate::Diagnostic};
use cowboy_state::Overlay;
use cowboy_types::{
    Account, Address, Beacon, Hash, Instruction, Receipt, Round, Transaction,
    block::BEACON_SIGNATURE_LEN,
    json::{Amount, HexBytes},
};
use std::sync::Arc;

/// What made one block of a local chain: enough to make it again ([`LocalChain::revert_to`]).
#[derive(Clone, Debug)]
struct Made {
    transactions: Vec<VerifiedTx>,
    beacon_seed: Option<Vec<u8>>,
}

/// The chain id of local chains, and devnets' default (anvil's): a transaction signed for one
/// is valid on the other.
pub const CHAIN_ID: u64 = 31_337;
/// The block time local chains size their execution budgets for
/// ([`Parameters::for_block_time`]), and devnets' default: a call that fits a devnet's block
/// fits a local one and the other way round.
pub const BLOCK_TIME_MS: u64 = 500;
/// The timestamp of a local chain's genesis (2026-01-01T00:00:00Z); block `h` is stamped
/// `h × BLOCK_TIME_MS` later.
pub const GENESIS_TIME_MS: u64 = 1_767_225_600_000;
/// The one validator of a local chain (it proposes every block and earns its rewards).
pub const VALIDATOR: Address = Address([0xa0; 20]);
/// What a local genesis gives each account it funds: 10,000 CBY, as a devnet gives its dev
/// accounts.
pub const ACCOUNT_BALANCE: u64 = 10_000 * crate::params::BASE_UNITS_PER_CBY;
/// The tip per cycle local transactions offer: what a node suggests to clients, so a local
/// transaction pays what the same transaction pays on a devnet.
pub const PRIORITY_FEE_PER_CYCLE: u64 = 1;

/// The limits of a transaction sent with [`LocalChain::send_as`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// The transaction's own `(cycles, cells)` limits, as a client sets them (its intrinsic
    /// cost included).
    Transaction { cycles: u64, cells: u64 },
    /// What its call (`__init__` or handler) may use beyond the transaction's intrinsic cost.
    Call { cycles: u64, cells: u64 },
    /// What the CLI gives it ([`cowboy_types::limits`]): what a simulation on the latest
    /// committed state used plus the margin, when the simulation succeeds; otherwise (a
    /// transfer, a call to an actor deployed in the same block, a call bound to fail) the
    /// default limits.
    Client,
}

/// Why a local chain could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    #[error(transparent)]
    Genesis(#[from] GenesisError),
    #[error(transparent)]
    Exec(#[from] ExecError),
    #[error(transparent)]
    Block(#[from] BlockError),
    #[error("the transaction is not valid: {0}")]
    Tx(#[from] TxError),
    #[error("the PVM thread is gone")]
    PvmGone,
    #[error("cannot start the PVM: {0}")]
    PvmStart(String),
    #[error("cannot revert to block {height}: the chain is at block {current}")]
    Revert { height: u64, current: u64 },
}

/// A receipt of a local block, with what its calls did.
#[derive(Clone, Debug)]
pub struct LocalReceipt {
    /// The block it is in.
    pub height: u64,
    pub receipt: Receipt,
    /// Its transaction's index in the block's body (`None` for timer firings and deferred
    /// deliveries).
    pub tx_index: Option<u32>,
    /// The calls its session ran, in order (a deploy's `__init__`, handlers, nested sends).
    pub calls: Vec<CallTrace>,
}

/// A chain in this process (see the module documentation).
pub struct LocalChain {
    chain: Arc<Chain>,
    pvm: Arc<PvmThread>,
    /// Transactions for the next block, as verified.
    queued: Vec<VerifiedTx>,
    genesis: Genesis,
    /// Every block made, in order (block `h` is `made[h - 1]`).
    made: Vec<Made>,
    /// What the beacons of the blocks made from now on derive from (`None`: the height alone).
    beacon_seed: Option<Vec<u8>>,
}

impl LocalChain {
    /// The genesis of a local chain that funds `accounts` with [`ACCOUNT_BALANCE`] each.
    pub fn genesis(accounts: &[Address]) -> Genesis {
        let mut funded: Vec<Address> = accounts.to_vec();
        funded.sort();
        funded.dedup();
        let parameters = Parameters::for_block_time(BLOCK_TIME_MS).with_devnet_windows();
        Genesis {
            chain_id: CHAIN_ID,
            genesis_time_ms: GENESIS_TIME_MS,
            allocations: funded
                .into_iter()
                .map(|address| Allocation {
                    address,
                    balance: Amount(ACCOUNT_BALANCE),
                })
                .collect(),
            validators: vec![GenesisValidator {
                address: VALIDATOR,
                stake: Amount(parameters.consensus.minimum_validator_stake),
                // Execution never reads it: no consensus runs here.
                public_key: HexBytes(vec![0xed; 32]),
            }],
            runners: Vec::new(),
            threshold_public: None,
            // Local runs accept the devnet simulation key's TEE attestations.
            tee_simulated_key: Some(crate::runners::tee::devnet_simulated_key()),
            parameters,
            carried: None,
        }
    }

    /// A local chain whose genesis funds `accounts` ([`LocalChain::genesis`]).
    pub fn new(accounts: &[Address]) -> Result<Self, LocalError> {
        Self::from_genesis(&Self::genesis(accounts))
    }

    /// A local chain from any genesis whose validators include [`VALIDATOR`].
    pub fn from_genesis(genesis: &Genesis) -> Result<Self, LocalError> {
        let pvm = PvmThread::spawn().map_err(|e| LocalError::PvmStart(e.to_string()))?;
        Self::on_thread(genesis, Arc::new(pvm))
    }

    /// A local chain from `genesis` whose calls run on `pvm`, which other chains may share
    /// (starting a PVM takes far longer than starting a chain).
    pub fn on_thread(genesis: &Genesis, pvm: Arc<PvmThread>) -> Result<Self, LocalError> {
        genesis.validate()?;
        let chain = Arc::new(Chain::in_memory(genesis)?);
        Ok(Self {
            chain,
            pvm,
            queued: Vec::new(),
            genesis: genesis.clone(),
            made: Vec::new(),
            beacon_seed: None,
        })
    }

    /// The PVM thread this chain runs its calls on.
    pub fn pvm(&self) -> &Arc<PvmThread> {
        &self.pvm
    }

    /// Rolls the chain back to `height` (at most the current one): the blocks up to it are made
    /// again, with the same transactions and beacons, on a fresh store. Queued transactions are
    /// dropped; the beacon seed in force at `height` is restored.
    pub fn revert_to(&mut self, height: u64) -> Result<(), LocalError> {
        let current = self.height()?;
        if height > current {
            return Err(LocalError::Revert { height, current });
        }
        let keep: Vec<Made> = self.made.iter().take(height as usize).cloned().collect();
        let mut fresh = Self::on_thread(&self.genesis, self.pvm.clone())?;
        for m in keep {
            fresh.beacon_seed = m.beacon_seed.clone();
            fresh.queued = m.transactions.clone();
            fresh.produce_block()?;
        }
        *self = fresh;
        Ok(())
    }

    /// The beacons of the blocks made from now on derive from `seed` and their height instead
    /// of the height alone (`None` restores the default), for actors whose behaviour depends on
    /// randomness.
    pub fn set_beacon_seed(&mut self, seed: Option<Vec<u8>>) {
        self.beacon_seed = seed;
    }

    /// What the beacons of the next blocks derive from ([`LocalChain::set_beacon_seed`]).
    pub fn beacon_seed(&self) -> Option<&[u8]> {
        self.beacon_seed.as_deref()
    }

    /// Whether the chain has work left that blocks will do by themselves: queued transactions,
    /// messages waiting in mailboxes, or pending timers (the height of the earliest).
    pub fn pending(&self) -> Result<Pending, LocalError> {
        self.read(|world| {
            let first = |prefix: u8| -> Result<Option<Vec<u8>>, ExecError> {
                Ok(world
                    .overlay
                    .scan(&[prefix], None, 1)?
                    .into_iter()
                    .next()
                    .map(|(k, _)| k))
            };
            let next_timer = first(cowboy_types::state::key::TIMER_DUE)?
                .and_then(|k| cowboy_types::state::key::be_u64(&k, 1));
            Ok(Pending {
                transactions: self.queued.len(),
                mailbox: first(cowboy_types::state::key::MAILBOX)?.is_some(),
                next_timer,
            })
        })
    }

    /// `f` on the last block's state.
    fn read<T>(&self, f: impl FnOnce(&World<'_>) -> Result<T, ExecError>) -> Result<T, LocalError> {
        let snapshot = self.chain.store().snapshot().map_err(ExecError::from)?;
        Ok(f(&World::new(Overlay::new(&snapshot)))?)
    }

    /// The value under storage key `key` of `actor` (raw bytes as stored), in the last
    /// block's state.
    pub fn storage(&self, actor: &Address, key: &[u8]) -> Result<Option<Vec<u8>>, LocalError> {
        self.read(|world| world.storage(actor, key))
    }

    /// Job `id`'s record in the last block's state, if the Job Dispatcher has it.
    pub fn job(&self, id: &Hash) -> Result<Option<cowboy_types::job::JobRecord>, LocalError> {
        self.read(|world| crate::runners::dispatcher::load(world, id))
    }

    /// Runs `q` read-only on the latest state, on this chain's PVM thread.
    pub fn query(&self, q: crate::query::Query) -> Result<crate::query::QueryResult, LocalError> {
        let chain = self.chain.clone();
        Ok(self
            .pvm
            .run(move |engine| chain.query(engine, &q))
            .map_err(|_| LocalError::PvmGone)??)
    }

    /// The chain underneath (its store holds blocks, receipts and state, as a node's does).
    pub fn chain(&self) -> &Chain {
        &self.chain
    }

    /// The height of the last block.
    pub fn height(&self) -> Result<u64, LocalError> {
        Ok(self.chain.head()?.height)
    }

    /// `address`'s account in the last block's state.
    pub fn account(&self, address: &Address) -> Result<Account, LocalError> {
        self.read(|world| world.account(address))
    }

    /// Checks actor source as a deploy would, with the PVM's diagnostics (`file:line:col`,
    /// rule, hint) when it is refused.
    pub fn validate(&self, source: &str) -> Result<Result<(), Vec<Diagnostic>>, LocalError> {
        let source = source.to_owned();
        self.pvm
            .run(move |engine| engine.load(&source).map(|_| ()))
            .map_err(|_| LocalError::PvmGone)
    }

    /// Queues `instruction` for the next block, sent as `sender` (no key needed) with its next
    /// nonce, the fees a node suggests (twice the user-lane basefee, a tip of
    /// [`PRIORITY_FEE_PER_CYCLE`]) and the limits `budget` says (capped at what one transaction
    /// may reserve). Returns the transaction's hash.
    pub fn send_as(
        &mut self,
        sender: Address,
        instruction: Instruction,
        budget: Budget,
    ) -> Result<Hash, LocalError> {
        let snapshot = self.chain.store().snapshot().map_err(ExecError::from)?;
        let world = World::new(Overlay::new(&snapshot));
        let params = world.params()?;
        let prices = *world.lane_prices()?.of_instruction(&instruction);
        let queued = self.queued.iter().filter(|t| t.sender == sender).count() as u64;
        let mut tx = Transaction {
            chain_id: self.chain.chain_id(),
            nonce: world.account(&sender)?.nonce + queued,
            instruction,
            cycles_limit: 0,
            cells_limit: 0,
            max_fee_per_cycle: prices.cycle.saturating_mul(2),
            max_fee_per_cell: prices.cell.saturating_mul(2),
            max_priority_fee_per_cycle: PRIORITY_FEE_PER_CYCLE,
            max_priority_fee_per_cell: 0,
            from: sender,
            access_list: None,
            metadata: Vec::new(),
            origin: None,
            signature: Default::default(),
            additional_signers: Vec::new(),
        };
        let (cycles_max, cells_max) = (params.lanes.user_cycles, params.lanes.block_cells);
        let (cycles, cells) = match budget {
            Budget::Transaction { cycles, cells } => (cycles, cells),
            Budget::Call { cycles, cells } => (cycles, cells),
            Budget::Client => {
                let mut probe = tx.clone();
                probe.cycles_limit = cycles_max;
                probe.cells_limit = cells_max;
                self.client_limits(probe)?
            }
        };
        tx.cycles_limit = cycles.min(cycles_max);
        tx.cells_limit = cells.min(cells_max);
        if let Budget::Call { .. } = budget {
            // The intrinsic cost depends on the encoded size, which depends on the limits:
            // settle in a few rounds (a limit's encoding grows by a byte at most).
            for _ in 0..4 {
                let size = commonware_codec::EncodeSize::encode_size(&tx);
                let intrinsic = crate::intrinsic::cost(&tx.instruction, size);
                tx.cycles_limit = cycles.saturating_add(intrinsic.0).min(cycles_max);
                tx.cells_limit = cells.saturating_add(intrinsic.1).min(cells_max);
            }
        } else {
            // As a client does: never below the cells the transaction's own bytes cost.
            tx.cells_limit = tx
                .cells_limit
                .max(crate::intrinsic::minimum_cells(&tx))
                .min(cells_max);
        }
        let vtx = tx::impersonate(tx, self.chain.chain_id(), &params)?;
        let hash = vtx.hash;
        self.queued.push(vtx);
        Ok(hash)
    }

    /// [`Budget::Client`]'s limits for `probe` (the transaction with the largest limits).
    fn client_limits(&self, probe: Transaction) -> Result<(u64, u64), LocalError> {
        use cowboy_types::limits;
        let fallback = limits::default_limits(&probe.instruction);
        if !limits::sized_by_simulation(&probe.instruction) {
            return Ok(fallback);
        }
        let chain = self.chain.clone();
        let simulated = self
            .pvm
            .run(move |engine| chain.simulate(engine, probe))
            .map_err(|_| LocalError::PvmGone)??;
        Ok(match simulated {
            Ok(s) if s.receipt.status == cowboy_types::Status::Success => {
                limits::simulated(s.receipt.cycles_used, s.receipt.cells_used)
            }
            _ => fallback,
        })
    }

    /// Sends `instruction` as `sender` ([`LocalChain::send_as`]) and makes the next block:
    /// every receipt of that block (the calls queued before it, timer firings and deferred
    /// deliveries included), and which one is the transaction's own.
    pub fn transact(
        &mut self,
        sender: Address,
        instruction: Instruction,
        budget: Budget,
    ) -> Result<Transacted, LocalError> {
        let hash = self.send_as(sender, instruction, budget)?;
        let receipts = self.produce_block()?;
        let own = receipts
            .iter()
            .position(|r| r.receipt.tx_hash == hash && r.tx_index.is_some())
            .ok_or_else(|| ExecError::Corrupt {
                what: format!("transaction {hash}"),
                reason: "its block has no receipt for it".into(),
            })?;
        Ok(Transacted { receipts, own })
    }

    /// Queues a signed transaction for the next block; its sender is recovered and it is
    /// checked as a node checks what it admits.
    pub fn submit(&mut self, tx: Transaction) -> Result<Hash, LocalError> {
        let params = self.chain.params()?;
        let vtx = tx::verify(tx, self.chain.chain_id(), &params)?;
        let hash = vtx.hash;
        self.queued.push(vtx);
        Ok(hash)
    }

    /// Makes the next block from the queued transactions (in the canonical order a validator
    /// gives them), executes and commits it. Returns its receipts in execution order: deferred
    /// deliveries, transactions, timer firings.
    pub fn produce_block(&mut self) -> Result<Vec<LocalReceipt>, LocalError> {
        let parent = self.chain.head()?;
        let height = parent.height + 1;
        let claim = self
            .chain
            .outcome(parent.height)?
            .ok_or_else(|| ExecError::Corrupt {
                what: format!("block {}", parent.height),
                reason: "executed but its outcome is missing".into(),
            })?;
        let proposal = Proposal {
            round: Round {
                epoch: 0,
                view: height,
            },
            timestamp_ms: GENESIS_TIME_MS.saturating_add(height.saturating_mul(BLOCK_TIME_MS)),
            proposer: VALIDATOR,
            beacon: beacon(height, self.beacon_seed.as_deref()),
        };
        let queued = std::mem::take(&mut self.queued);
        let made = Made {
            transactions: queued.clone(),
            beacon_seed: self.beacon_seed.clone(),
        };
        let assembled = pipeline::assemble(&parent, &proposal, &claim, queued);
        let checked = assembled.verified.into_iter().map(Ok).collect();
        let block = assembled.block;
        let chain = self.chain.clone();
        let executed = self
            .pvm
            .run(move |engine| {
                let executed = chain.execute_traced(engine, &block, Some(checked))?;
                chain.commit(&executed)?;
                Ok::<_, LocalError>(executed)
            })
            .map_err(|_| LocalError::PvmGone)??;
        // Only a block that was made is made again by `revert_to`.
        self.made.push(made);
        debug_assert_eq!(executed.traces.len(), executed.receipts.len());
        let mut traces = executed.traces.into_iter();
        Ok(executed
            .receipts
            .into_iter()
            .map(|(receipt, tx_index)| LocalReceipt {
                height,
                receipt,
                tx_index,
                calls: traces.next().unwrap_or_default(),
            })
            .collect())
    }

    /// Makes `blocks` blocks (the first with the queued transactions) and returns all their
    /// receipts.
    pub fn advance(&mut self, blocks: u64) -> Result<Vec<LocalReceipt>, LocalError> {
        let mut receipts = Vec::new();
        for _ in 0..blocks {
            receipts.extend(self.produce_block()?);
        }
        Ok(receipts)
    }
}

/// What [`LocalChain::transact`] made.
#[derive(Clone, Debug)]
pub struct Transacted {
    /// Every receipt of the block, in execution order.
    receipts: Vec<LocalReceipt>,
    /// The transaction's own, by position in `receipts` (always in range: only
    /// [`LocalChain::transact`] makes one).
    own: usize,
}

impl Transacted {
    /// The transaction's own receipt, and the block's receipts in execution order.
    pub fn into_own(self) -> (LocalReceipt, Vec<LocalReceipt>) {
        let own = self.receipts[self.own].clone();
        (own, self.receipts)
    }
}

/// What [`LocalChain::pending`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    /// Transactions queued for the next block.
    pub transactions: usize,
    /// Messages wait in a mailbox (deferred deliveries).
    pub mailbox: bool,
    /// The height the earliest pending timer is due at.
    pub next_timer: Option<u64>,
}

/// The beacon of a local block: a hash of its height (and of the seed a test chose), standing
/// in for the threshold-VRF seed (unpredictable on a real chain, reproducible here).
fn beacon(height: u64, chosen: Option<&[u8]>) -> Beacon {
    let mut signature = [0u8; BEACON_SIGNATURE_LEN];
    let mut seed = b"cowboy local beacon".to_vec();
    if let Some(chosen) = chosen {
        seed.extend_from_slice(&(chosen.len() as u64).to_be_bytes());
        seed.extend_from_slice(chosen);
    }
    seed.extend_from_slice(&height.to_be_bytes());
    for (i, chunk) in signature.chunks_mut(32).enumerate() {
        let mut pre = seed.clone();
        pre.push(i as u8);
        let h = cowboy_types::keccak256(&pre);
        chunk.copy_from_slice(&h.0[..chunk.len()]);
    }
    Beacon {
        round: Round {
            epoch: 0,
            view: height.saturating_sub(1),
        },
        signature,
    }
}
