//! The node's core: the chain (store + state transition), the transaction pool, the engine
//! threads, and the progress every other part watches. Consensus hands it finalized blocks;
//! the RPC server and p2p gossip hand it transactions.

use crate::worker::{Worker, WorkerGone};
use cowboy_execution::{
    BlockError, Chain, ExecError, Executed, Genesis, Outcome, TxError, VerifiedTx,
    fees::{self, Basefees},
    world::World,
};
use cowboy_mempool::{Admitted, Pool, PoolConfig, PoolError};
use cowboy_state::Overlay;
use cowboy_types::{Address, Block, Hash, Transaction, state::Account};
use std::{
    path::Path,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
    },
};
use tokio::sync::watch;

/// Why the node could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Genesis(#[from] cowboy_execution::GenesisError),
    #[error(transparent)]
    Exec(#[from] ExecError),
    #[error(transparent)]
    Engine(#[from] cowboy_pvm::engine::InitError),
}

/// Why a transaction was not admitted.
#[derive(Debug, thiserror::Error)]
pub enum AdmitError {
    #[error("not a canonical transaction: {0}")]
    Decode(#[from] cowboy_types::codec::DecodeError),
    #[error("invalid transaction: {0}")]
    Invalid(#[from] TxError),
    #[error("the pool refused the transaction: {0}")]
    Pool(#[from] PoolError),
    #[error("state unavailable: {0}")]
    State(#[from] ExecError),
}

/// Why a finalized block could not be applied.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    #[error(transparent)]
    Block(#[from] BlockError),
    #[error(transparent)]
    Exec(#[from] ExecError),
    #[error(transparent)]
    Worker(#[from] WorkerGone),
    #[error(
        "finalized block {height} claims the post-state of block {state_height} is {claimed}, but this node computed {computed}: this node's execution diverged from the network"
    )]
    Diverged {
        height: u64,
        state_height: u64,
        claimed: String,
        computed: String,
    },
    #[error("the node halted earlier after a divergence; restart it after investigating")]
    Halted,
}

/// Shared node state.
pub struct Core {
    chain: Arc<Chain>,
    pool: Mutex<Pool>,
    executor: Worker,
    querier: Worker,
    executed: watch::Sender<u64>,
    finalized: AtomicU64,
    peers: AtomicUsize,
    halted: AtomicBool,
    started_at: u64,
    /// Execute on the calling thread's schedule (deterministic simulations).
    blocking: bool,
    gossip: Mutex<Option<tokio::sync::mpsc::UnboundedSender<Vec<u8>>>>,
}

impl Core {
    /// Opens (or creates from `genesis`) the store in `dir` and starts the engine threads.
    pub fn open(dir: &Path, genesis: &Genesis, pool: PoolConfig) -> Result<Arc<Self>, StartError> {
        Self::open_with(dir, genesis, pool, false)
    }

    /// As [`Self::open`]; `blocking` makes block execution block the calling thread, which a
    /// deterministic (single-threaded, simulated-time) runtime needs.
    pub fn open_with(
        dir: &Path,
        genesis: &Genesis,
        pool: PoolConfig,
        blocking: bool,
    ) -> Result<Arc<Self>, StartError> {
        std::fs::create_dir_all(dir).map_err(|e| ExecError::Corrupt {
            what: dir.display().to_string(),
            reason: e.to_string(),
        })?;
        let chain = Arc::new(Chain::open(&dir.join("chain.redb"), genesis)?);
        let height = chain.head()?.height;
        let (executed, _) = watch::channel(height);
        Ok(Arc::new(Self {
            chain,
            pool: Mutex::new(Pool::new(pool)),
            executor: Worker::spawn("cowboy-exec")?,
            querier: Worker::spawn_lazy("cowboy-query")?,
            executed,
            finalized: AtomicU64::new(height),
            peers: AtomicUsize::new(0),
            halted: AtomicBool::new(false),
            started_at: height,
            blocking,
            gossip: Mutex::new(None),
        }))
    }

    pub fn chain(&self) -> &Arc<Chain> {
        &self.chain
    }

    /// Newest executed height.
    pub fn height(&self) -> u64 {
        *self.executed.borrow()
    }

    /// Watches the executed height.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.executed.subscribe()
    }

    pub fn finalized_height(&self) -> u64 {
        self.finalized.load(Ordering::Acquire).max(self.height())
    }

    pub fn set_finalized_height(&self, h: u64) {
        self.finalized.fetch_max(h, Ordering::AcqRel);
    }

    pub fn peers(&self) -> usize {
        self.peers.load(Ordering::Acquire)
    }

    pub fn set_peers(&self, n: usize) {
        self.peers.store(n, Ordering::Release);
    }

    pub fn halted(&self) -> bool {
        self.halted.load(Ordering::Acquire)
    }

    /// Height the node had when it started (readiness waits for a block above it).
    pub fn started_at(&self) -> u64 {
        self.started_at
    }

    pub fn pool_len(&self) -> usize {
        self.pool.lock().map(|p| p.len()).unwrap_or(0)
    }

    /// Where admitted transactions are sent for gossip.
    pub fn set_gossip(&self, tx: tokio::sync::mpsc::UnboundedSender<Vec<u8>>) {
        if let Ok(mut g) = self.gossip.lock() {
            *g = Some(tx);
        }
    }

    /// The read-only-query engine.
    pub fn querier(&self) -> &Worker {
        &self.querier
    }

    /// An account in the latest executed state.
    pub fn account(&self, a: &Address) -> Result<Account, ExecError> {
        let snap = self.chain.store().snapshot()?;
        World::new(Overlay::new(&snap)).account(a)
    }

    /// The user lane's basefees in the latest executed state.
    pub fn user_prices(&self) -> Result<(Basefees, Basefees), ExecError> {
        let snap = self.chain.store().snapshot()?;
        let world = World::new(Overlay::new(&snap));
        let global = world.basefees()?;
        let bps = world.params()?.lane_fee_multipliers.user_bps;
        Ok((
            global,
            Basefees {
                cycle: fees::lane_basefee(global.cycle, bps),
                cell: fees::lane_basefee(global.cell, bps),
            },
        ))
    }

    /// The next nonce `a` should use, counting its pending transactions.
    pub fn pending_nonce(&self, a: &Address) -> Result<(u64, u64), ExecError> {
        let latest = self.account(a)?.nonce;
        let pending = self
            .pool
            .lock()
            .map(|p| p.next_nonce(a, latest))
            .unwrap_or(latest);
        Ok((latest, pending))
    }

    /// A pending transaction.
    pub fn pending_tx(&self, h: &Hash) -> Option<Transaction> {
        self.pool
            .lock()
            .ok()
            .and_then(|p| p.get(h).map(|t| t.tx.clone()))
    }

    /// Decodes, verifies and pools a raw transaction; gossips it if `gossip`.
    pub fn admit(&self, raw: &[u8], gossip: bool) -> Result<(Hash, Admitted), AdmitError> {
        let tx = Transaction::decode_strict(raw)?;
        let params = self.chain.params()?;
        let vtx = cowboy_execution::verify(tx, self.chain.chain_id(), &params)?;
        self.admit_verified(vtx, raw, gossip)
    }

    fn admit_verified(
        &self,
        vtx: VerifiedTx,
        raw: &[u8],
        gossip: bool,
    ) -> Result<(Hash, Admitted), AdmitError> {
        let account = self.account(&vtx.sender)?;
        let (_, prices) = self.user_prices()?;
        let hash = vtx.hash;
        let admitted = {
            let mut pool = self.pool.lock().map_err(|_| poisoned())?;
            pool.insert(vtx, &account, &prices)?
        };
        if gossip
            && let Ok(g) = self.gossip.lock()
            && let Some(g) = g.as_ref()
        {
            let _ = g.send(raw.to_vec());
        }
        Ok((hash, admitted))
    }

    /// Chooses a new block's transactions from the pool (§6.4 selection, not yet in beacon
    /// order), against one snapshot of the executed state in which each sender's nonce is
    /// advanced past `used` (nonces the blocks not executed yet already use).
    pub fn select_for_block(
        &self,
        used: &std::collections::HashMap<Address, u64>,
        prices: &Basefees,
        room: cowboy_execution::tx::Room,
    ) -> Result<Vec<VerifiedTx>, ExecError> {
        let snap = self.chain.store().snapshot()?;
        let world = World::new(Overlay::new(&snap));
        let projected = |a: &Address| -> Result<Account, ExecError> {
            let mut acc = world.account(a)?;
            if let Some(n) = used.get(a) {
                acc.nonce = acc.nonce.max(n + 1);
            }
            Ok(acc)
        };
        let candidates = {
            let pool = self.pool.lock().map_err(|_| poisoned())?;
            pool.candidates(room.count.saturating_mul(4), |a| {
                projected(a).map_or(u64::MAX, |acc| acc.nonce)
            })
        };
        cowboy_execution::tx::select(candidates, projected, prices, room)
    }

    /// Stateless checks of a block's transactions, in order: those already in the pool were
    /// checked (and their sender recovered) on admission and are not recovered again; the rest
    /// are recovered in parallel.
    pub fn check_transactions(
        &self,
        txs: &[Transaction],
    ) -> Result<Vec<Result<VerifiedTx, TxError>>, ExecError> {
        let hashes: Vec<Hash> = txs.iter().map(|t| t.digest()).collect();
        let params = self.chain.params()?;
        let chain_id = self.chain.chain_id();
        let mut out: Vec<Option<Result<VerifiedTx, TxError>>> = {
            let pool = self.pool.lock().map_err(|_| poisoned())?;
            hashes
                .iter()
                .map(|h| {
                    pool.get(h).cloned().map(|vtx| {
                        cowboy_execution::tx::recheck(&vtx, chain_id, &params).map(|()| vtx)
                    })
                })
                .collect()
        };
        let missing: Vec<usize> = (0..txs.len()).filter(|i| out[*i].is_none()).collect();
        if !missing.is_empty() {
            let fresh = cowboy_execution::verify_all(
                missing.iter().map(|i| txs[*i].clone()).collect(),
                chain_id,
                &params,
            );
            for (i, r) in missing.into_iter().zip(fresh) {
                out[i] = Some(r);
            }
        }
        Ok(out.into_iter().flatten().collect())
    }

    /// The outcome of executed block `height`.
    pub fn outcome(&self, height: u64) -> Result<Option<Outcome>, ExecError> {
        self.chain.outcome(height)
    }

    /// Executes and commits a finalized block (a block at or below the executed height is
    /// already applied and ignored), checks the header's claim about an executed height, and
    /// halts the node on any disagreement.
    pub async fn apply_finalized(&self, block: Block) -> Result<Option<Outcome>, ApplyError> {
        if self.halted() {
            return Err(ApplyError::Halted);
        }
        let height = block.header.height;
        self.set_finalized_height(height);
        if height <= self.height() {
            return Ok(None);
        }
        // The header's claim about an executed height (always at or below ours: it is below
        // the block's own height). Finalized means 2f+1 validators checked it against their
        // own execution; if ours differs, this node diverged and must not go on.
        let header = &block.header;
        let local = self.chain.outcome(header.state_height)?;
        if !local.is_some_and(|l| l.matches(header)) {
            let err = ApplyError::Diverged {
                height,
                state_height: header.state_height,
                claimed: header.state_root.to_string(),
                computed: local.map_or("nothing (not executed)".into(), |l| {
                    l.state_root.to_string()
                }),
            };
            self.halt(&err.to_string());
            return Err(err);
        }
        let checked = self.check_transactions(&block.transactions)?;
        let chain = self.chain.clone();
        let job = move |engine: &mut cowboy_pvm::Engine| -> Result<Executed, BlockError> {
            let executed = chain.execute(engine, &block, Some(checked))?;
            chain.commit(&executed)?;
            Ok(executed)
        };
        let result = if self.blocking {
            self.executor.run_blocking("execution", job)?
        } else {
            self.executor.run("execution", job).await?
        };
        let executed = match result {
            Ok(e) => e,
            Err(e) => {
                self.halt(&e.to_string());
                return Err(e.into());
            }
        };
        if let Ok(mut pool) = self.pool.lock() {
            let snap = self.chain.store().snapshot().map_err(ExecError::from)?;
            let world = World::new(Overlay::new(&snap));
            pool.prune(|a| world.account(a).map(|acc| acc.nonce).unwrap_or(0));
        }
        let outcome = executed.outcome;
        self.executed.send_replace(height);
        tracing::info!(
            height,
            txs = executed.block.transactions.len(),
            skipped = executed.stats.skipped,
            root = %outcome.state_root,
            "executed finalized block"
        );
        Ok(Some(outcome))
    }

    fn halt(&self, why: &str) {
        self.halted.store(true, Ordering::Release);
        tracing::error!(
            reason = why,
            "EXECUTION DIVERGED: this node stops applying blocks; its state is kept for investigation"
        );
    }
}

fn poisoned() -> ExecError {
    ExecError::Corrupt {
        what: "transaction pool".into(),
        reason: "a thread panicked while holding it".into(),
    }
}
