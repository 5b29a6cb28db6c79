//! [`Chain`]: a store plus the state transition function — opening a chain from its genesis,
//! choosing a proposal's transactions, executing a finalized block and committing it (the
//! steps of [`crate::pipeline`] that need the state).

use crate::{
    BlockError, ExecError,
    block::{Executed, Outcome, run},
    exec::Tracing,
    tx::{self, VerifiedTx},
    world::World,
};
use cowboy_pvm::Engine;
use cowboy_state::{Durability, Overlay, Snapshot, Store};
use cowboy_types::{Block, Hash, Header, block::MAX_BLOCK_TRANSACTIONS};
use std::sync::{Arc, Mutex, PoisonError};

/// A chain: the store plus the rules of [`crate::block`].
pub struct Chain {
    store: Store,
    chain_id: u64,
    genesis_hash: Hash,
    /// The terms of the last state asked about, with its root.
    terms: Mutex<Option<(Hash, Terms)>>,
}

/// What a committed state sets for the next block's transactions: the governance parameters
/// and every lane's basefees. Admission needs both for every transaction it is handed, and
/// reading them takes a storage read and a decode per parameter group (sixteen, and the
/// basefees); [`Chain::terms`] reads them once per state.
#[derive(Clone, Debug)]
pub struct Terms {
    pub params: Arc<crate::Parameters>,
    pub prices: crate::lanes::LanePrices,
}

impl Chain {
    /// Opens the store at `path`, writing `genesis` if the store is empty, or checking that
    /// the store belongs to `genesis` if not.
    pub fn open(
        path: &std::path::Path,
        genesis: &crate::Genesis,
    ) -> Result<Self, crate::GenesisError> {
        Self::on_store(Store::open(path).map_err(ExecError::from)?, genesis)
    }

    /// [`Chain::open`], with writes that find the disk full handed to `full` and retried (a
    /// node pauses instead of failing a commit), and the store's `options`.
    pub fn open_with(
        path: &std::path::Path,
        genesis: &crate::Genesis,
        full: std::sync::Arc<dyn cowboy_state::FullDisk>,
        options: cowboy_state::StoreOptions,
    ) -> Result<Self, crate::GenesisError> {
        Self::on_store(
            Store::open_with(path, full, options).map_err(ExecError::from)?,
            genesis,
        )
    }

    /// A chain from `genesis` on a store in memory (see [`Store::in_memory`]): the same rules
    /// as a node's chain, for local runs.
    pub fn in_memory(genesis: &crate::Genesis) -> Result<Self, crate::GenesisError> {
        Self::on_store(Store::in_memory().map_err(ExecError::from)?, genesis)
    }

    fn on_store(store: Store, genesis: &crate::Genesis) -> Result<Self, crate::GenesisError> {
        let changes = genesis.state()?;
        let block = genesis.block(cowboy_state::tree::root_of(&changes).map_err(ExecError::from)?);
        let expected = block.header.digest();
        let snapshot = store.snapshot().map_err(ExecError::from)?;
        if snapshot.height.is_none() {
            let prepared = store.prepare(&snapshot, changes).map_err(ExecError::from)?;
            drop(snapshot);
            let outcome = Outcome {
                height: 0,
                state_root: prepared.root,
                receipts_root: block.header.receipts_root,
                cycle_basefee: block.header.cycle_basefee,
                cell_basefee: block.header.cell_basefee,
            };
            store
                .commit(
                    &prepared,
                    &cowboy_state::BlockRecord {
                        block: &block,
                        hash: expected,
                        receipts: &[],
                        outcome: &outcome.to_bytes(),
                        traces: &[],
                        timer_firings: &[],
                    },
                    Durability::Immediate,
                )
                .map_err(ExecError::from)?;
        } else {
            let stored = store
                .block(0)
                .map_err(ExecError::from)?
                .map(|b| b.header.digest())
                .unwrap_or(Hash::ZERO);
            if stored != expected {
                return Err(crate::GenesisError::WrongChain { stored, expected });
            }
        }
        Ok(Self {
            store,
            chain_id: genesis.chain_id,
            genesis_hash: expected,
            terms: Mutex::new(None),
        })
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn chain_id(&self) -> u64 {
        self.chain_id
    }

    pub fn genesis_hash(&self) -> Hash {
        self.genesis_hash
    }

    /// The last committed block's header.
    pub fn head(&self) -> Result<Header, ExecError> {
        let snap = self.store.snapshot()?;
        let height = snap.height.ok_or_else(|| ExecError::Corrupt {
            what: "chain".into(),
            reason: "no genesis".into(),
        })?;
        self.store
            .block(height)?
            .map(|b| b.header)
            .ok_or_else(|| ExecError::Corrupt {
                what: format!("block {height}"),
                reason: "missing".into(),
            })
    }

    /// The governance parameters in force for the next block.
    pub fn params(&self) -> Result<crate::Parameters, ExecError> {
        let snap = self.store.snapshot()?;
        Ok(self.terms(&snap)?.params.as_ref().clone())
    }

    /// The [`Terms`] `snapshot` sets, read from it unless they were read from a state with the
    /// same root. The root commits to every key, so equal roots hold equal parameters and
    /// basefees: no commit can make the cache stale, and nothing needs to clear it.
    pub fn terms(&self, snapshot: &Snapshot) -> Result<Terms, ExecError> {
        let root = snapshot.root;
        // The entry is replaced whole, never left half-written: a panic elsewhere while the
        // lock was held cannot make it wrong.
        let cache = || self.terms.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((at, terms)) = cache().as_ref()
            && *at == root
        {
            return Ok(terms.clone());
        }
        let world = World::new(Overlay::new(snapshot));
        let params = world.params()?;
        let terms = Terms {
            prices: crate::lanes::LanePrices::of(world.basefees()?, &params.lane_fee_multipliers),
            params: Arc::new(params),
        };
        *cache() = Some((root, terms.clone()));
        Ok(terms)
    }

    /// Chooses a new block's transactions from `candidates` (§6.4 selection, not yet in beacon
    /// order) in the room a proposal may fill ([`crate::pipeline::proposal_room`]), against the
    /// executed state in which each sender's nonce is advanced past `used` (the nonces that
    /// blocks finalized or proposed but not executed yet already use).
    pub fn select(
        &self,
        candidates: Vec<VerifiedTx>,
        used: &std::collections::HashMap<cowboy_types::Address, u64>,
    ) -> Result<Vec<VerifiedTx>, ExecError> {
        let snapshot = self.store.snapshot()?;
        let Terms { params, prices } = self.terms(&snapshot)?;
        let world = World::new(Overlay::new(&snapshot));
        let projected = |a: &cowboy_types::Address| -> Result<cowboy_types::Account, ExecError> {
            let mut account = world.account(a)?;
            if let Some(n) = used.get(a) {
                account.nonce = account.nonce.max(n + 1);
            }
            Ok(account)
        };
        tx::select(
            candidates,
            projected,
            &prices,
            crate::pipeline::proposal_room(&params),
        )
    }

    /// Executes a finalized block on the last committed state. Consensus accepted it, so it is
    /// never rejected for its transactions: one that is invalid when it executes gets a
    /// `SKIPPED` receipt (see [`crate::block`]). It is rejected only if it does not extend the
    /// committed head, names a proposer that is not a validator or overflows the block limit —
    /// which for a finalized block means this node diverged and must stop.
    /// `checked` are the transactions' stateless checks in body order, if already done.
    pub fn execute(
        &self,
        engine: &mut Engine,
        block: &Block,
        checked: Option<Vec<Result<VerifiedTx, crate::TxError>>>,
    ) -> Result<Executed, BlockError> {
        self.execute_with(engine, block, checked, Tracing::Off)
    }

    /// [`Chain::execute`], recording what each call of the block did
    /// ([`Executed::traces`]): the same execution, with the developer's view of it.
    pub fn execute_traced(
        &self,
        engine: &mut Engine,
        block: &Block,
        checked: Option<Vec<Result<VerifiedTx, crate::TxError>>>,
    ) -> Result<Executed, BlockError> {
        self.execute_with(engine, block, checked, Tracing::Full)
    }

    /// [`Chain::execute`], recording of each call what `tracing` says: a node passes
    /// [`Tracing::Kept`] (the traces it keeps beside its receipts, bounded) or
    /// [`Tracing::Off`].
    pub fn execute_with(
        &self,
        engine: &mut Engine,
        block: &Block,
        checked: Option<Vec<Result<VerifiedTx, crate::TxError>>>,
        tracing: Tracing,
    ) -> Result<Executed, BlockError> {
        let snapshot = self.store.snapshot()?;
        let parent = self.head()?;
        let h = &block.header;
        crate::pipeline::check_extends(&parent, h)?;
        if block.transactions.len() > MAX_BLOCK_TRANSACTIONS {
            return Err(BlockError::TooManyTransactions {
                count: block.transactions.len(),
                max: MAX_BLOCK_TRANSACTIONS,
            });
        }
        let checked = match checked {
            Some(c) if c.len() == block.transactions.len() => c,
            _ => self.check_transactions(&block.transactions)?,
        };
        run(
            engine,
            &snapshot,
            &self.store,
            &parent,
            block,
            checked,
            tracing,
        )
    }

    /// The stateless checks of `txs` (signature, chain, limits), in order, senders recovered in
    /// parallel.
    pub fn check_transactions(
        &self,
        txs: &[cowboy_types::Transaction],
    ) -> Result<Vec<Result<VerifiedTx, crate::TxError>>, ExecError> {
        let params = self.params()?;
        Ok(tx::verify_all(txs.to_vec(), self.chain_id, &params))
    }

    /// The post-state commitments of the committed block at `height`.
    pub fn outcome(&self, height: u64) -> Result<Option<Outcome>, ExecError> {
        self.store
            .outcome(height)?
            .map(|b| Outcome::from_bytes(&b))
            .transpose()
    }

    /// Makes an executed block durable (one write transaction), with the traces of its calls
    /// when it was executed traced ([`Chain::execute_traced`]).
    pub fn commit(&self, executed: &Executed) -> Result<(), ExecError> {
        self.commit_with(executed, Durability::Immediate)
    }

    /// [`Chain::commit`] without waiting for the disk: the block is the chain's head at once
    /// for every reader and the next block, and durable after the next [`Chain::sync`] (see
    /// [`Durability::Deferred`] for what a crash before then loses). A node executes the next
    /// finalized block while the disk writes this one.
    pub fn commit_deferred(&self, executed: &Executed) -> Result<(), ExecError> {
        self.commit_with(executed, Durability::Deferred)
    }

    /// Makes every block committed so far durable. Safe to call from another thread while
    /// blocks execute; a commit meanwhile waits for it.
    pub fn sync(&self) -> Result<(), ExecError> {
        Ok(self.store.sync()?)
    }

    /// [`Chain::commit`] or [`Chain::commit_deferred`], as `durability` says.
    pub fn commit_with(
        &self,
        executed: &Executed,
        durability: Durability,
    ) -> Result<(), ExecError> {
        let traces = executed.trace_records()?;
        self.store.commit(
            &executed.prepared,
            &cowboy_state::BlockRecord {
                block: &executed.block,
                hash: executed.hash,
                receipts: &executed.receipts,
                outcome: &executed.outcome.to_bytes(),
                traces: &traces,
                timer_firings: &executed.firings,
            },
            durability,
        )?;
        Ok(())
    }

    /// The trace this node recorded for `tx_hash` (a transaction, timer firing or mailbox
    /// delivery it executed traced), if any.
    pub fn trace(
        &self,
        tx_hash: &Hash,
    ) -> Result<Option<Vec<cowboy_types::trace::TraceCall>>, ExecError> {
        let Some(bytes) = self.store.trace(tx_hash)? else {
            return Ok(None);
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| ExecError::Corrupt {
                what: format!("the trace of {tx_hash}"),
                reason: e.to_string(),
            })
    }
}
