//! [`Chain`]: a store plus the state transition function — opening a chain from its genesis,
//! building the next block, replaying a received block and committing either.

use crate::{
    BlockError, ExecError,
    block::{Executed, Outcome, Proposal, Txs, run},
    tx::{self, VerifiedTx},
    world::World,
};
use cowboy_pvm::Engine;
use cowboy_state::{Overlay, Store};
use cowboy_types::{Block, Hash, Header, block::MAX_BLOCK_TRANSACTIONS};

/// A chain: the store plus the rules of [`crate::block`].
pub struct Chain {
    store: Store,
    chain_id: u64,
    genesis_hash: Hash,
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
    /// node pauses instead of failing a commit).
    pub fn open_with(
        path: &std::path::Path,
        genesis: &crate::Genesis,
        full: std::sync::Arc<dyn cowboy_state::FullDisk>,
    ) -> Result<Self, crate::GenesisError> {
        Self::on_store(
            Store::open_with(path, full).map_err(ExecError::from)?,
            genesis,
        )
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
                    },
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
        World::new(Overlay::new(&snap)).params()
    }

    /// Builds the next block from `candidates` (already verified).
    pub fn propose(
        &self,
        engine: &mut Engine,
        candidates: Vec<VerifiedTx>,
        proposal: &Proposal,
    ) -> Result<Executed, BlockError> {
        let snapshot = self.store.snapshot()?;
        let parent = self.head()?;
        if proposal.timestamp_ms < parent.timestamp_ms {
            return Err(BlockError::Timestamp {
                parent: parent.timestamp_ms,
                got: proposal.timestamp_ms,
            });
        }
        run(
            engine,
            &snapshot,
            &self.store,
            &parent,
            proposal,
            Txs::Select(candidates),
        )
    }

    /// Replays `block` on the last committed state and checks everything its header claims.
    /// Senders are recovered in parallel; pass `verified` when they already were (a mempool).
    pub fn verify(
        &self,
        engine: &mut Engine,
        block: &Block,
        verified: Option<Vec<VerifiedTx>>,
    ) -> Result<Executed, BlockError> {
        let snapshot = self.store.snapshot()?;
        let parent = self.head()?;
        let h = &block.header;
        check_extends(&parent, h)?;
        if h.timestamp_ms < parent.timestamp_ms {
            return Err(BlockError::Timestamp {
                parent: parent.timestamp_ms,
                got: h.timestamp_ms,
            });
        }
        let world = World::new(Overlay::new(&snapshot));
        let basefees = world.basefees()?;
        if (h.cycle_basefee, h.cell_basefee) != (basefees.cycle, basefees.cell) {
            return Err(BlockError::Basefees {
                cycle: basefees.cycle,
                cell: basefees.cell,
                got_cycle: h.cycle_basefee,
                got_cell: h.cell_basefee,
            });
        }
        if block.transactions.len() > MAX_BLOCK_TRANSACTIONS {
            return Err(BlockError::TooManyTransactions {
                count: block.transactions.len(),
                max: MAX_BLOCK_TRANSACTIONS,
            });
        }
        let params = world.params()?;
        drop(world);
        let proposal = Proposal::of(h);
        let executed = match verified {
            Some(v)
                if v.len() == block.transactions.len()
                    && v.iter().zip(&block.transactions).all(|(a, b)| &a.tx == b) =>
            {
                run(
                    engine,
                    &snapshot,
                    &self.store,
                    &parent,
                    &proposal,
                    Txs::Given(v),
                )?
            }
            _ => tx::verify_streaming(&block.transactions, self.chain_id, &params, |rec| {
                run(
                    engine,
                    &snapshot,
                    &self.store,
                    &parent,
                    &proposal,
                    Txs::Streamed(&block.transactions, rec),
                )
            })?,
        };
        let got = &executed.block.header;
        for (field, expected, claimed) in [
            ("state_root", got.state_root, h.state_root),
            ("tx_root", got.tx_root, h.tx_root),
            ("receipts_root", got.receipts_root, h.receipts_root),
        ] {
            if expected != claimed {
                return Err(BlockError::Root {
                    field,
                    expected,
                    got: claimed,
                });
            }
        }
        Ok(executed)
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
        let snapshot = self.store.snapshot()?;
        let parent = self.head()?;
        let h = &block.header;
        check_extends(&parent, h)?;
        if block.transactions.len() > MAX_BLOCK_TRANSACTIONS {
            return Err(BlockError::TooManyTransactions {
                count: block.transactions.len(),
                max: MAX_BLOCK_TRANSACTIONS,
            });
        }
        let checked = match checked {
            Some(c) if c.len() == block.transactions.len() => c,
            _ => {
                let params = self.params()?;
                tx::verify_all(block.transactions.clone(), self.chain_id, &params)
            }
        };
        let proposal = Proposal::of(h);
        run(
            engine,
            &snapshot,
            &self.store,
            &parent,
            &proposal,
            Txs::Finalized(block, checked),
        )
    }

    /// The post-state commitments of the committed block at `height`.
    pub fn outcome(&self, height: u64) -> Result<Option<Outcome>, ExecError> {
        self.store
            .outcome(height)?
            .map(|b| Outcome::from_bytes(&b))
            .transpose()
    }

    /// Makes an executed block durable (one write transaction).
    pub fn commit(&self, executed: &Executed) -> Result<(), ExecError> {
        self.store.commit(
            &executed.prepared,
            &cowboy_state::BlockRecord {
                block: &executed.block,
                hash: executed.hash,
                receipts: &executed.receipts,
                outcome: &executed.outcome.to_bytes(),
            },
        )?;
        Ok(())
    }
}

/// Whether `h` is the header of the block right after `parent`.
fn check_extends(parent: &Header, h: &Header) -> Result<(), BlockError> {
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
